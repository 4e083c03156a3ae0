"""Look-alike doubts settled by the pack's own drawing of each candidate, blurred as the photo.

Two tiles that differ only in a small fruit (a few photo pixels across) stay in doubt when
the closer look, the learnt pair and the photo's own exemplars (:mod:`photo_exemplars`)
cannot tell them apart. The pack's own images, though, say exactly how each candidate's
fruit is drawn; what hides the difference is the photo's blur (focus, a smear along one
direction), its light and a fraction of a pixel of misplacement. All three can be measured
on the same tile, where every candidate looks the same (the creature, the leaf, the rim):

1. **The tile as photographed**: the square's tile is cut from the unsmoothed fine view
   (about the photo's own resolution) where the closer look placed it, turned to its face's
   own way up (:func:`lookalikes.turned_patch`).
2. **The candidates**: the face named and every look-alike of it whose learnt pair's box
   overlaps the doubt's (the other fruits of that spot), each drawn from the pack's own
   image at the same size (``Model.tile_faces``, kept at enrolment).
3. **The photo's blur**: away from where the candidates differ, the named face is aligned
   to the tile (a shift to half a pixel) and blurred by each of KERNELS (round blurs and
   straight smears of several lengths and directions); the kernel whose blurred face, under
   a gain and offset per colour, fits the tile best is the photo's blur there. The first
   doubt of a photo tries every kernel; the rest try the kind and length it found at every
   direction (the smear turns with each tile's own angle).
4. **Compare where they differ**: each candidate, so blurred and lit, is compared with the
   tile round its fruit (weighted by where the candidates differ), its place searched to
   LOCAL_SHIFT px (a small icon's own misplacement); the best candidate's misfit ``r1`` and
   the runner-up's ``r2``, and ``d12``, how far apart the two blurred drawings themselves are
   there.
5. **Judge**: settled to the best only when it is one of the doubt's two names, ``r1 <=
   RATIO * r2``, and the photo lies where that candidate's drawing predicts: ``(r2 - r1) /
   d12`` between LEAN_MIN and LEAN_MAX (a photo that fits neither drawing, from glare, a
   shadow or a misplaced cut, lands outside: near 0, or far beyond 1), and the drawings
   are SEPARATION times the shared part's misfit apart; and the learnt pair of the doubt's
   two candidates (:mod:`lookalikes`) must not name the other one by PAIR_AGAINST spreads
   (PAIR_GUARD): two views of the fruit that contradict each other leave the doubt.

A photo the reader calls poor (too many doubts, ``reader.POOR_PHOTO``) is left alone: its
weak close calls are doubted by that rule, which settling would lift
(:func:`reader.poor_photo`).

Thresholds were chosen on tuning families only (see the constants). Only doubts between the
faces of a learnt look-alike pair are looked at, after :mod:`photo_exemplars`: a few ms each.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.the_glade.recognition.enrol import fine_tile_side
from companion.the_glade.recognition.lookalikes import judge as judge_pair
from companion.the_glade.recognition.lookalikes import turned_patch
from companion.the_glade.recognition.model import TILE_INSET, Model
from companion.vision.blur import kernel_bank
from companion.vision.patches import LightFit, cut, parabola_peak

if TYPE_CHECKING:
    from companion.the_glade.recognition.evidence import Evidence
    from companion.the_glade.recognition.reader import SquareReading

#: Settle look-alike doubts by the pack's own drawings (photo_exemplars.settle calls it).
#: Off: measured on 2026-12-04 against 990a33b's tree (wrong / uncertain / boards exactly
#: right), it held on normal photos (fresh 8030-8034 0/22/113 -> 0/21/114, held out
#: 1000-1004 3/181/98 -> 3/173/100) but named one more square wrong on the fresh hard
#: photos of 8030-8034 (10/134/16 -> 11/132/16), so it was not adopted then. With the
#: learnt pair's guard (PAIR_GUARD) and the leaf check (LEAF_CHECK), against 3b4add3's tree
#: (each from its own directory, the same enrolled models): fresh 8060-8064 (never run
#: before) normal 0/83/100 -> 0/74/101 (8063 55 -> 51 doubts, 8064 14 -> 9), hard
#: 13/356/13 -> 13/355/13, the same squares wrong; 8030-8034 hard 6/148/15 both (with the
#: guard alone 7/148/15: see LEAF_CHECK); tuning 8042, 8043, 8035, 8036 (8 + 2 normal
#: photos each) 7/142/9 -> 7/132/12, hard (8 each) 8/405/0 -> 8/400/1. Scan CPU on those
#: normal photos, old and new run side by side (load 12-14): median 0.312 -> 0.331 s.
DRAWN = True
#: The settle (see the module's doc): the best candidate's misfit at most RATIO times the
#: runner-up's, the photo leaning LEAN_MIN..LEAN_MAX of the way from the runner-up's
#: drawing to the best's, and the two drawings at least SEPARATION times the misfit of the
#: tile's shared part round the fruit apart (a strong blur or a poor fit leaves too little
#: to tell them by). Chosen on normal analysis photos (seeds 90000+) of tuning families 1,
#: 44, 54, 61, 80, 81, 121, 198 and 287 (fruit 0.060-0.074 of the tile): of 547 look-alike
#: doubts, at LEAN_MIN 0.5 147 settled, none wrong; the nearest wrong settles had a ratio
#: of 0.53 (with a separation of 1.73), a separation of 0.9 or a lean of 0.48. Four more
#: tuning families kept aside to check (47, 49, 7301, 8000: 84 doubts) settled 36, none
#: wrong. Hard analysis photos of eight of them (seeds 95000+, 47 doubts in photos not
#: called poor) settled 4, one wrong at a lean of 0.52 (a smear of 8 px): LEAN_MIN 0.6
#: (on the normal photos 160 of 631 doubts settled against 183 at 0.5, none wrong).
RATIO = 0.5
LEAN_MIN = 0.6
LEAN_MAX = 1.3
SEPARATION = 2.0
#: A settle also needs the learnt pair of the doubt's two candidates (:mod:`lookalikes`,
#: judged where the closer look placed the tile) not to name the other candidate by
#: PAIR_AGAINST spreads or more (its distance from the winner's training views less its
#: distance from its own): two views of the fruit, the pack's drawing through the photo's
#: blur and a discriminant learnt from spoilt renderings, must not contradict each other.
#: Look-alike doubts of tuning families 8035, 8036, 8042 and 8043 left after the round
#: robin, in photos not called poor (normal seeds 9000 and 20000: 140; hard 9000 and
#: 52000, and of 1, 44, 54, 61, 80, 81, 121, 198, 287 hard at 95000: 248): the closer
#: look's first candidate was right on 51% and 54% of them, the truth neither candidate
#: on 18% and 20%. Of the 262 the drawings named a candidate on, they were wrong on 42;
#: a pair 2 spreads against caught 14 of those 42 and 34 of the 220 right ones. At the
#: thresholds above: normal 33 settled without the guard, 29 with it, hard 30 and 23,
#: none wrong either way (loosened to RATIO 0.6, LEAN_MIN 0.5: 2 wrong on the hard ones,
#: guard or not).
PAIR_GUARD = True
PAIR_AGAINST = 2.0
#: The drawings judge the fruit; the leaf is taken from the looks. A settle also needs the
#: winner's drawing to fit the tile better than every face of the same creature and fruit
#: with another leaf (:func:`leaf_rivals`): its misfit at most LEAF_RATIO of the rival's,
#: judged as the candidates are, round where the two leaves differ. The one wrong settle
#: left on the hard photos of 8030-8034 (run to check the guard above, 6 -> 7 wrong; 8030
#: looked at since, so a tuning family) named the right fruit on the wrong leaf (beech for
#: horse-chestnut, a leaf neither candidate had): there the rival leaf fitted as well
#: (1.02); the settles that were right (tuning 8035, 8036, 8042, 8043, seed 9000, 15
#: normal and 5 hard) stood at 0.01-0.08 but for two, 0.26 and 0.73. Taken with room: 0.5.
LEAF_CHECK = True
LEAF_RATIO = 0.5
#: Pixels where two candidates' drawings differ by more than this (0..255, any colour).
DIFFER = 25.0
#: How far round where the candidates differ the light is fitted (share of the tile side).
WINDOW = 0.25
#: A candidate's own place is searched this far (fine px, in half px steps).
LOCAL_SHIFT = 1.0
#: The whole tile's place is searched this far (fine px) before the blur is measured.
ALIGN_PX = 2


#: The blurs tried (fine px): round (Gaussian sigma) and straight smears (length), the
#: latter at every 15 degrees.
ROUND = (0.35, 0.6, 0.85, 1.1, 1.4, 1.7, 2.1, 2.5, 3.0)
SMEAR = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11)


KERNELS = kernel_bank(ROUND, SMEAR, 15.0, smooth=0.4)
#: A tile blurred most by the strongest of either kind is beyond what the kernels model:
#: its doubt is left as it is.
STRONGEST = {k for k, (kind, size, _a, _k) in enumerate(KERNELS)
             if size == (ROUND if kind == "round" else SMEAR)[-1]}


@dataclass(frozen=True)
class DrawnVerdict:
    """The drawings' evidence on one look-alike doubt: the best candidate (tile name), the
    best and runner-up misfits, how far apart their drawings are there, the blur found,
    whether the doubt is settled, and the misfit of the tile's shared part round them."""

    winner: str
    r1: float
    r2: float
    d12: float
    kernel: str
    settled: bool
    noise: float = 0.0

    @property
    def lean(self) -> float:
        """Where the photo lies between the two drawings: 1 on the winner's, 0 half way."""
        return (self.r2 - self.r1) / max(self.d12, 1e-9)


@dataclass
class _Photo:
    """What one photo's doubts share: the faces cut at the patch's size, the blur found."""

    side: int
    tside: float
    faces: dict[int, np.ndarray] = field(default_factory=dict)
    blur: tuple[str, float] | None = None


def _face(model: Model, photo: _Photo, f: int) -> np.ndarray:
    if f not in photo.faces:
        img = model.tile_faces[f].astype(np.float32)
        n = img.shape[0]
        photo.faces[f] = cut(img, (n / 2, n / 2), 0.0, n * TILE_INSET, photo.side)
    return photo.faces[f]


def _shift(img: np.ndarray, dx: float, dy: float) -> np.ndarray:
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _align(face: np.ndarray, patch: np.ndarray) -> tuple[float, float]:
    """The shift (px, x and y) bringing ``face`` onto ``patch``: normalised correlation of
    their grey levels, both a little blurred, to a whole pixel and then a parabola's peak."""
    g1 = cv2.GaussianBlur(cv2.cvtColor(face, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    g2 = cv2.GaussianBlur(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    a = ALIGN_PX
    score = cv2.matchTemplate(g2, g1[a:-a, a:-a], cv2.TM_CCOEFF_NORMED)
    y, x = np.unravel_index(int(np.argmax(score)), score.shape)
    return x - a + parabola_peak(score[y], x), y - a + parabola_peak(score[:, x], y)


def _tried(photo: _Photo) -> list[int]:
    """The kernels a doubt's blur is first sought among: every round blur and every other
    smear length at every other direction for a photo's first doubt; after that, the kind
    and size that doubt found, at every direction (a smear turns with each tile)."""
    if photo.blur is None:
        return [k for k, (kind, size, a, _k) in enumerate(KERNELS)
                if kind == "round" or (SMEAR.index(int(size)) % 2 == 0 and a % 30 == 0)]
    kind, size = photo.blur
    return [k for k, (kd, sz, _a, _k) in enumerate(KERNELS)
            if kd == kind and (kind == "round" or sz == size)]


def _near(k: int) -> list[int]:
    """Smears one length and 15 degrees round kernel ``k`` (itself for a round blur)."""
    kind, size, a, _k = KERNELS[k]
    if kind == "round":
        return [k]
    return [j for j, (kd, sz, aa, _k) in enumerate(KERNELS)
            if kd == "smear" and abs(sz - size) <= 1 and min(abs(aa - a), 180 - abs(aa - a)) <= 15]


def _blur(photo: _Photo, face: np.ndarray, patch: np.ndarray, mask: np.ndarray
          ) -> tuple[int, str]:
    """The kernel (index into KERNELS) under which ``face`` fits ``patch`` best on ``mask``
    (grey levels; see :func:`_tried`, then the smears next to the best), and its name."""
    fit = LightFit(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)[..., None], mask)
    grey = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY)
    seen: dict[int, float] = {}

    def misfit(k: int) -> float:
        if k not in seen:
            seen[k] = fit.light(cv2.filter2D(grey, -1, KERNELS[k][3])[..., None])[0]
        return seen[k]

    best = min(_tried(photo), key=misfit)
    best = min(_near(best), key=misfit)
    kind, size, a, _kern = KERNELS[best]
    if photo.blur is None:
        photo.blur = (kind, size)
    return best, f"{kind} {size:g}" + (f" at {a:g}" if kind == "smear" else "")


def judge(model: Model, photo: _Photo, fine: np.ndarray, at: tuple[float, float, float],
          turn: int, candidates: list[int]
          ) -> tuple[dict[int, float], float, str, float] | None:
    """Each candidate face's misfit round where they differ, on the tile lying at ``at``
    (fine view x, y and cut angle) with ``turn`` quarter turns; the named face first.
    Returns (misfit by face, how far apart the two best drawings are there, the blur, the
    misfit of the shared part round them), or None when the candidates' drawings differ
    nowhere or the tile is blurred past the strongest kernel."""
    s = photo.side
    patch = turned_patch(fine, at[:2], at[2], turn, photo.tside, s).astype(np.float32)
    drawn = {g: _face(model, photo, g) for g in candidates}
    base = drawn[candidates[0]]
    diff = np.zeros((s, s), np.float32)
    for g in candidates[1:]:
        diff = np.maximum(diff, np.abs(drawn[g] - base).max(axis=-1))
    differ = diff > DIFFER
    if not differ.any():
        return None
    ys, xs = np.nonzero(differ)
    pad = int(WINDOW * s)
    win = (slice(max(0, ys.min() - pad), min(s, ys.max() + 1 + pad)),
           slice(max(0, xs.min() - pad), min(s, xs.max() + 1 + pad)))
    shared = cv2.dilate(differ.astype(np.uint8), np.ones((7, 7), np.uint8)) == 0
    shared[:3], shared[-3:], shared[:, :3], shared[:, -3:] = False, False, False, False
    dx0, dy0 = _align(base, patch)
    k, blur = _blur(photo, _shift(base, dx0, dy0), patch, shared)
    if k in STRONGEST:  # blurred past what the kernels model: the fruit is gone
        return None
    kern = KERNELS[k][3]
    noise, gain, offset = LightFit(patch[win], shared[win]).light(
        cv2.filter2D(_shift(base, dx0, dy0), -1, kern)[win])
    seen = patch[win]
    weight = cv2.GaussianBlur(diff, (0, 0), 1.5)[win]
    weight /= max(float(weight.sum()), 1e-9)
    # each candidate blurred over the window and a margin, then moved by whole and half px
    m = math.ceil(LOCAL_SHIFT + max(abs(dx0), abs(dy0))) + 2
    y0, y1 = max(0, win[0].start - m), min(s, win[0].stop + m)
    x0, x1 = max(0, win[1].start - m), min(s, win[1].stop + m)
    inner = (slice(win[0].start - y0, win[0].stop - y0),
             slice(win[1].start - x0, win[1].stop - x0))
    steps = np.arange(-LOCAL_SHIFT, LOCAL_SHIFT + 1e-6, 0.5)
    per_value = np.repeat(weight.reshape(-1), 3)
    misfits: dict[int, float] = {}
    predicted: dict[int, np.ndarray] = {}
    for g in candidates:
        blurred = cv2.filter2D(drawn[g], -1, kern)[y0:y1, x0:x1] * gain + offset
        preds = np.stack([_shift(blurred, dx0 + dx, dy0 + dy)[inner]
                          for dy in steps for dx in steps])
        d = (preds - seen).reshape(len(preds), -1)
        r = (d * d) @ per_value
        b = int(np.argmin(r))
        misfits[g], predicted[g] = float(r[b]), preds[b]
    order = sorted(misfits, key=misfits.__getitem__)
    apart = predicted[order[0]] - predicted[order[1]]
    d12 = float((weight * (apart * apart).sum(axis=-1)).sum())
    return misfits, d12, blur, noise


def candidates_of(model: Model, index: dict[tuple[int, int], int], fa: int,
                  fb: int) -> list[int]:
    """Faces ``fa`` and ``fb`` and every look-alike of either whose learnt pair's box
    overlaps theirs by at least a third (the other fruits of that spot), ``fa`` first."""
    pairs = model.lookalikes
    k = index[(fa, fb)]
    box = pairs.boxes[k] / float(pairs.sides[k])
    area = float((box[2] - box[0]) * (box[3] - box[1]))
    out = [fa, fb]
    for (x, y), kk in index.items():
        if x in (fa, fb) and y not in out:
            b = pairs.boxes[kk] / float(pairs.sides[kk])
            ix = min(b[2], box[2]) - max(b[0], box[0])
            iy = min(b[3], box[3]) - max(b[1], box[1])
            if ix > 0 and iy > 0 and ix * iy >= area / 3:
                out.append(y)
    return out


def _pair_against(model: Model, fine: np.ndarray, at: tuple[float, float, float], turn: int,
                  index: dict[tuple[int, int], int], winner: int, other: int,
                  tside: float) -> bool:
    """Whether the learnt pair of faces ``winner`` and ``other`` names ``other`` by at least
    PAIR_AGAINST spreads on the tile lying ``at`` (fine view x, y, cut angle) at ``turn``
    (see PAIR_GUARD); False when they have no learnt pair."""
    k = index.get((winner, other))
    if k is None:
        return False
    v = judge_pair(model.lookalikes, k, fine, at[:2], at[2], turn, tside, winner)
    return v.winner == other and v.against - v.fits >= PAIR_AGAINST


def leaf_rivals(faces: dict[tuple[str, str], int], name: str, season: str) -> list[int]:
    """The faces (of ``season``) of the same creature and fruit as tile ``name``
    (creature/fruit/leaf) with another leaf; none for a name not so made."""
    creature, fruit, leaf = [*name.split("/"), "", "", ""][:3]
    if not leaf:
        return []
    return sorted(f for (n, s), f in faces.items() if s == season and n != name
                  and n.startswith(f"{creature}/{fruit}/") and n.count("/") == 2)


def _leaf_holds(model: Model, photo: _Photo, fine: np.ndarray,
                at: tuple[float, float, float], turn: int, winner: int,
                rivals: list[int]) -> bool:
    """Whether face ``winner``'s drawing fits the tile at ``at`` / ``turn`` better than each
    of ``rivals`` (the same creature and fruit, another leaf) by LEAF_RATIO; False when a
    rival cannot be judged (drawings alike, or the tile blurred past the kernels)."""
    for f in rivals:
        found = judge(model, photo, fine, at, turn, [winner, f])
        if found is None or found[0][winner] > LEAF_RATIO * found[0][f]:
            return False
    return True


def settle(model: Model, ev: Evidence, readings: list[SquareReading], fine: np.ndarray,
           placed: Callable[[Evidence, int], tuple[float, float, float]],
           faces: dict[tuple[str, str], int],
           index: dict[tuple[int, int], int]) -> dict[int, DrawnVerdict]:
    """Settle the look-alike doubts left among ``readings`` by the pack's own drawings (see
    the module's doc), in place: a settled square becomes a tile named by the winner
    (``distances["drawn_sure"]``). ``placed(ev, i)`` says where square ``i``'s tile lies,
    ``faces`` and ``index`` are the model's face and pair numbers. Returns every verdict
    reached, by square."""
    out: dict[int, DrawnVerdict] = {}
    from companion.the_glade.recognition.reader import poor_photo

    if not DRAWN or len(model.tile_faces) * 4 != len(model.tile_names) or poor_photo(readings):
        return out
    photo = _Photo(side=0, tside=fine_tile_side(model.tile_size))
    photo.side = round(photo.tside)
    for i, r in enumerate(readings):
        if not (r.lookalike_doubt and ev.looks.get(i) is not None):
            continue
        n1, n2 = r.candidates
        fa, fb = faces.get((n1, r.season)), faces.get((n2, r.season))
        if fa is None or fb is None or (fa, fb) not in index:
            continue
        cands = candidates_of(model, index, fa, fb)
        found = judge(model, photo, fine, placed(ev, i), int(r.turn), cands)
        if found is None:
            continue
        misfits, d12, blur, noise = found
        order = sorted(misfits, key=misfits.__getitem__)
        winner = model.tile_names[4 * order[0]]
        r1, r2 = misfits[order[0]], misfits[order[1]]
        lean = (r2 - r1) / max(d12, 1e-9)
        settled = (winner in (n1, n2) and r1 <= RATIO * r2 and LEAN_MIN <= lean <= LEAN_MAX
                   and d12 >= SEPARATION * noise)
        if settled and PAIR_GUARD:
            settled = not _pair_against(model, fine, placed(ev, i), int(r.turn), index,
                                        faces[(winner, r.season)], fa if winner == n2 else fb,
                                        photo.tside)
        if settled and LEAF_CHECK:
            settled = _leaf_holds(model, photo, fine, placed(ev, i), int(r.turn),
                                  faces[(winner, r.season)],
                                  leaf_rivals(faces, winner, r.season))
        verdict = DrawnVerdict(winner, r1, r2, d12, blur, settled, noise)
        out[i] = verdict
        r.distances["drawn_ratio"] = round(r1 / max(r2, 1e-9), 3)
        r.distances["drawn_lean"] = round(lean, 3)
        if settled:
            r.settled(winner)
            r.confidence = max(0.0, min(1.0, 1.0 - r1 / max(r2, 1e-9)))
            r.distances["drawn_sure"] = 1.0
    return out
