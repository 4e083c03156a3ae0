"""Reading one photo of the glade board: every centre space (empty, or which counter and
which side) and each seat's supply (``scan the-glade PHOTO --model MODEL --glade``).

The board is found by its printed features at any turn (players photograph it from where
they sit) and a little tilt, and rectified at the working scale. The photo's light colour is
measured on the board's border against the enrolled image and divided out. At every space
two readings are weighed, as disc vectors (:mod:`glade_model`): the bare space as enrolled,
and the best counter face at any angle, sought a little round the space (counters are laid
by hand). A space is *uncertain* (named, never guessed) when neither reading is clearly the
closer, when the best counter face is not clearly one face, when nothing enrolled matches
(a hand, a die), when glare washes it out, or when it is not wholly in the photo. Every
threshold was tuned on art families of ``families.TUNING_FAMILIES`` only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import RecognitionError
from companion.the_glade.names import supply_space
from companion.the_glade.recognition import smooth_veil
from companion.the_glade.recognition.counter_colour import board_light
from companion.the_glade.recognition.glade_model import (
    INSET,
    PATCH,
    SMOOTH,
    TURNS,
    WORK_COUNTER,
    GladeModel,
    disc,
    disc_vectors,
    sq_distances,
)
from companion.vision.board import PHOTO_FEATURES, RETRY_FEATURES, PhotoFeatures, project, rectify
from companion.vision.patches import clipped, cut_many

#: Where a counter is sought round its space: a coarse then a fine 3 x 3 grid (working px).
STEPS = (3.0, 1.5)
_ROUND = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.float64)
_DISC_MASK = disc().reshape(PATCH, PATCH)
# decision thresholds (tuned on families.TUNING_FAMILIES only)
COUNTER_RATIO = 0.4   # best counter face / bare space below this: a counter
EMPTY_RATIO = 0.8     # ... above this: empty
NAME_MARGIN = 0.12    # (second name - best) / (second + best) below this: which counter?
MAX_FIT = 0.4         # best face's distance above this: matches nothing enrolled
MAX_BARE = 0.8        # a bare space's distance above this: not the bare space
#: A counter's print spreads its disc's values this much (grey levels, channel by channel;
#: the plainest, yellow, at least 9.8 on 24 photos of families 1 and 5):
#: a plain patch (a finger, a patch of light) fits a plain counter face once its contrast
#: is scaled up.
MIN_SPREAD = 7.0
GLARE = 0.25          # share of washed-out pixels that makes a space unreadable, unless
HEAVY_GLARE = 0.6     # ... it is below this and the reading is clear all the same
#: A space this close to the bare space is empty without looking for counter faces (on 48
#: photos of tuning families 1-4 the counters were all at least 0.9 from it, 99% of the
#: empty spaces under 0.4): it spares most of the counter search.
BARE_SURE = 0.3
#: A space in doubt that matches no counter face well (MAX_FIT) is empty when the bare space,
#: under one light and a smooth grey veil of glare (VEIL_DEGREE), leaves at most VEILED_BARE
#: of its print unexplained (:func:`veiled_bare`); the fit needs KEPT of the disc's colours
#: unclipped. On 135 glade photos of tuning families 41-52 the bare spaces left 0.026 (median,
#: 99% under 0.15) and those under the glare spots that made the doubts 0.02-0.08, but
#: yellow counters on light spaces left as little as 0.15: so only a clear fit counts, and
#: only where no counter face fits.
VEILED_BARE = 0.1
VEIL_DEGREE = 2
KEPT = 0.3
#: A space whose disc's brightest colour is this bright (the median, in the photo's own
#: grey levels) is near clipping: its bare space is also compared in the photo's own colours
#: (:func:`_bare_distances`).
NEAR_CLIPPING = 230.0


@dataclass
class SpaceReading:
    """One space: ``kind`` is empty, counter or uncertain; ``at`` is where the counter (or
    the space) is, in glade-image pixels."""

    label: str
    kind: str
    name: str | None = None
    reason: str = ""
    at: tuple[float, float] = (0.0, 0.0)
    distances: dict[str, float] = field(default_factory=dict)
    #: the two counters a "which counter?" doubt hesitates between (best first), for the
    #: game's rules to settle (:mod:`companion.the_glade.deduction`) and the overlay
    candidates: tuple[str, ...] = ()


@dataclass
class GladeReading:
    model: GladeModel
    homography: np.ndarray
    spaces: list[SpaceReading]
    seconds: dict[str, float] = field(default_factory=dict)

    def result(self) -> dict[str, Any]:
        """The spec's glade scan JSON, plus ``reasons`` for the uncertain spaces, the
        ``candidates`` of those in doubt between two counters, and ``supply_spaces``: each
        seat's supply spaces read surely holding a counter (K = 1-12, leftmost first), which
        the rules reason from (counters leave a seat leftmost first:
        :mod:`companion.the_glade.deduction`)."""
        glade: dict[str, str] = {}
        supply = {str(n): 0 for n in self.model.seats}
        held: dict[str, list[int]] = {str(n): [] for n in self.model.seats}
        uncertain = []
        for r in self.spaces:
            if r.kind == "uncertain":
                uncertain.append(r.label)
            elif r.kind == "counter":
                if (space := supply_space(r.label)) is not None:
                    supply[space[0]] += 1
                    held[space[0]].append(int(space[1]))
                else:
                    glade[r.label] = str(r.name)
        return {"glade": glade, "supply": supply, "uncertain": uncertain,
                "supply_spaces": {seat: sorted(ks) for seat, ks in held.items()},
                "reasons": {r.label: r.reason for r in self.spaces if r.kind == "uncertain"},
                "candidates": {r.label: list(r.candidates) for r in self.spaces
                               if r.kind == "uncertain" and r.candidates}}


#: When no fit is found, one that too few matches agree with is tried again from matches
#: looked for where it puts each board feature (board.GUIDE_MIN, BoardFinder's guided fit),
#: and taken when at least this many agree with it. The glade board repeats itself (64 alike
#: spaces, rows of alike supply spaces), so the ratio test over the whole photo throws out
#: most of its matches as ambiguous: tuning family 61, a game's glade photo fully in view and
#: lit, kept 155 matches of which 22 agreed on one fit (25 needed), and the guided fit from
#: that one then found 391-433. A wrong tentative fit gathers no such crowd: its guided
#: matches must each lie within a few pixels of where it puts them.
GUIDED_SURE = 100


def locate_glade(model: GladeModel, photo: np.ndarray) -> np.ndarray:
    """The homography taking glade-image pixels to photo pixels."""
    assert model.finder is not None
    for count in (PHOTO_FEATURES, RETRY_FEATURES):
        features = PhotoFeatures(photo, count)
        found = model.finder.locate(features, refine=False)
        if found is not None:
            return model.finder.refine(features.gray, found).homography
    found = model.finder.locate(features, refine=False, guided=True)
    if found is not None and found.inliers >= GUIDED_SURE:
        return model.finder.refine(features.gray, found).homography
    raise RecognitionError("no glade board found in the photo; check that the whole glade "
                           "board is in view, lit, and the one this model was enrolled from")


def _light(view: np.ndarray, board: np.ndarray, model: GladeModel) -> np.ndarray:
    """The photo's light per channel, measured off the spaces (where nothing lies)."""
    where = np.ones(view.shape[:2], bool)
    for x, y in model.points * model.scale:
        cv2.circle(where.view(np.uint8), (round(x), round(y)), round(WORK_COUNTER * 0.8), 0, -1)
    where &= view.max(axis=2) > 0  # inside the photo
    gain = board_light(view, board, where)
    if gain is None:
        raise RecognitionError("the glade board is too dark or washed out to read; take the "
                               "photo again in even light")
    return np.maximum(gain, 1e-3)


def read_glade(model: GladeModel, photo: np.ndarray) -> GladeReading:
    """Find the glade board in ``photo`` (BGR) and read every space."""
    if not model.has_glade or model.working is None:
        raise RecognitionError("this model has no glade board; add glade: to the enrolment "
                               "pack (see the spec) and enrol again")
    t0 = time.perf_counter()
    hm = locate_glade(model, photo)
    t1 = time.perf_counter()
    w, h = model.size
    view, _ = rectify(photo, hm, model.scale, (0, 0, w, h), 1)
    board = model.working
    view = view[:board.shape[0], :board.shape[1]]
    if view.shape != board.shape:
        board = board[:view.shape[0], :view.shape[1]]
    gain = _light(view, board, model)
    washed = clipped(view, every=True)
    corrected = cv2.GaussianBlur(view.astype(np.float32) / gain[None, None, :], (0, 0), SMOOTH)
    bare = cv2.GaussianBlur(board.astype(np.float32), (0, 0), SMOOTH)
    t2 = time.perf_counter()
    readings = _read_spaces(model, corrected, bare, washed, hm, photo.shape[:2], gain)
    t3 = time.perf_counter()
    return GladeReading(model, hm, readings, {"locate": t1 - t0, "rectify": t2 - t1,
                                              "spaces": t3 - t2})


def _cut(image: np.ndarray, at: np.ndarray) -> np.ndarray:
    return cut_many(image, at, np.zeros(len(at)), WORK_COUNTER * INSET, PATCH)


def _in_frame(model: GladeModel, hm: np.ndarray, frame: tuple[int, int]) -> np.ndarray:
    """Whether each space's disc lies wholly in the photo."""
    fh, fw = frame
    r = model.counter * 0.6
    ring = np.array([(0, 0), (r, 0), (-r, 0), (0, r), (0, -r)], np.float64)
    pts = (model.points[:, None, :] + ring[None]).reshape(-1, 2)
    p = project(hm, pts).reshape(len(model.points), -1, 2)
    inside = (p[..., 0] >= 1) & (p[..., 0] < fw - 1) & (p[..., 1] >= 1) & (p[..., 1] < fh - 1)
    return inside.all(axis=1)


def best_faces(model: GladeModel, image: np.ndarray, centres: np.ndarray,
               names: list[str] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For counters near ``centres`` (working px) of a light-corrected, smoothed view: the
    best place found (coarse then fine), each face's best distance there (n, faces), and
    the place's patches' washed-out share is left to the caller."""
    faces = len(model.face_names)
    norms = np.einsum("ij,ij->i", model.templates, model.templates)
    at = centres.astype(np.float64).copy()
    per_face = np.full((len(at), faces), np.inf, np.float32)
    rows = np.arange(len(at))
    for step in STEPS:
        tries = (at[:, None, :] + _ROUND[None] * step).reshape(-1, 2)
        d = sq_distances(disc_vectors(_cut(image, tries)), model.templates, norms)
        d = d.reshape(len(tries), faces, TURNS).min(axis=2).reshape(len(at), len(_ROUND), faces)
        k = d.min(axis=2).argmin(axis=1)
        at = tries.reshape(len(at), len(_ROUND), 2)[rows, k]
        per_face = d[rows, k]
    del names
    return at, per_face, norms


def _bare_distances(model: GladeModel, view: np.ndarray, bare: np.ndarray, gain: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Each space's distance to the bare space as enrolled, allowing a pixel of
    misalignment: with the light's colour divided out, and the nearer of that and the
    distance in the photo's own colours where the space is near clipping (NEAR_CLIPPING). A
    disc vector ignores shade and an even grey veil; glare reflects the lamp, grey once the
    light's colour is divided out, but a highlight near clipping is grey in the photo itself,
    and divided by a tinted light a washed-out bare space turns pink (a glade photo of game
    family 7491: 1.65 from the bare space, 0.23 in the photo's own colours). Only the first
    spares a space the counter search (BARE_SURE): in the photo's own colours a yellow
    counter under a tinted light came within 0.3 of a light bare space."""
    centres = model.points * model.scale
    tries = (centres[:, None, :] + _ROUND[None]).reshape(-1, 2)
    seen = _cut(view, tries)
    printed = np.repeat(_cut(bare, centres), len(_ROUND), axis=0)
    d = ((disc_vectors(seen) - disc_vectors(printed)) ** 2).mean(axis=1)
    lit = _cut(view, centres).reshape(len(centres), -1, 3)[:, disc()] * gain
    bright = np.repeat(np.median(lit.max(axis=2), axis=1) >= NEAR_CLIPPING, len(_ROUND))
    near = d.copy()
    if bright.any():
        own = ((disc_vectors(seen[bright] * gain) - disc_vectors(printed[bright] * gain)) ** 2
               ).mean(axis=1)
        near[bright] = np.minimum(d[bright], own)
    return (d.reshape(len(centres), -1).min(axis=1),
            near.reshape(len(centres), -1).min(axis=1))


def veiled_bare(model: GladeModel, view: np.ndarray, bare: np.ndarray, gain: np.ndarray,
                centre: np.ndarray) -> float:
    """How much of a space's print the bare space leaves unexplained (0-1) under one light
    and a smooth grey veil of glare, in the photo's own colours with each colour clipped
    white left out (:func:`smooth_veil.misfits`), allowing a pixel of misalignment. A disc
    vector allows only an even veil; a soft glare spot smaller than the space is no such
    veil (a glade photo of game family 7488: a bare space 0.88 from its disc vector, 0.02
    unexplained here)."""
    printed = _cut(bare, centre[None])[0] * gain
    # the bare space, and no face at all: what the veil alone leaves of the print
    faces = np.stack([printed, np.zeros_like(printed)])
    best = 1.0
    for seen in _cut(view, centre[None] + _ROUND) * gain:
        keep = _DISC_MASK[..., None] & ~smooth_veil.clipped_colours(seen)
        if keep.sum() < KEPT * 3 * _DISC_MASK.sum():
            return 1.0
        fit, rest = smooth_veil.misfits(seen, faces, keep, VEIL_DEGREE)
        if rest > 0:
            best = min(best, float(fit / rest))
    return best


def _read_spaces(model: GladeModel, view: np.ndarray, bare: np.ndarray, washed: np.ndarray,
                 hm: np.ndarray, frame: tuple[int, int], gain: np.ndarray
                 ) -> list[SpaceReading]:
    centres = model.points * model.scale
    toadstools = [i for i, m in enumerate(model.face_matches) if m is None]
    if not toadstools:
        raise RecognitionError("this model has no toadstool counters; add counters: to the "
                               "enrolment pack and enrol again")
    sub = GladeModel([model.face_names[i] for i in toadstools], [None] * len(toadstools),
                     model.templates.reshape(len(model.face_names), TURNS, -1)[toadstools]
                     .reshape(len(toadstools) * TURNS, -1))
    d_light, d_bare = _bare_distances(model, view, bare, gain)
    look = np.flatnonzero(d_light >= BARE_SURE)
    at = centres.copy()
    per_face = np.full((len(centres), len(toadstools)), np.inf, np.float32)
    if len(look):
        at[look], per_face[look], _ = best_faces(sub, view, centres[look])
    spread = np.zeros(len(centres))
    if len(look):
        spread[look] = _cut(view, at[look]).reshape(len(look), -1, 3)[:, disc()].std(
            axis=1).mean(axis=1)
    glare = _cut(washed[..., None].repeat(3, axis=2), centres)[..., 0].reshape(
        len(centres), -1)[:, disc()].mean(axis=1)
    in_frame = _in_frame(model, hm, frame)
    out = []
    for i, label in enumerate(model.labels):
        order = np.argsort(per_face[i])
        d1 = float(per_face[i][order[0]])
        d2 = float(per_face[i][order[1]]) if len(order) > 1 else float("inf")
        db = float(d_bare[i])
        ratio = d1 / max(db, 1e-9) if np.isfinite(d1) else float("inf")
        margin = (d2 - d1) / max(d1 + d2, 1e-9) if np.isfinite(d2) else 1.0
        r = SpaceReading(label, "empty", at=tuple(centres[i] / model.scale),
                         distances={"counter": round(d1, 4), "bare": round(db, 4),
                                    "ratio": round(ratio, 3), "margin": round(margin, 3),
                                    "glare": round(float(glare[i]), 3)})
        if ratio < COUNTER_RATIO:
            r.kind, r.name = "counter", sub.face_names[int(order[0])]
            r.at = (float(at[i][0] / model.scale), float(at[i][1] / model.scale))
            r.distances["spread"] = round(float(spread[i]), 1)
            if spread[i] < MIN_SPREAD:
                r.reason = "something plain covers it (a hand?)"
            elif margin < NAME_MARGIN and not label.startswith("seat-"):
                r.reason = f"{r.name} or {sub.face_names[int(order[1])]}?"
                r.candidates = (str(r.name), sub.face_names[int(order[1])])
            elif d1 > MAX_FIT:
                r.reason = "matches no counter well"
        elif ratio > EMPTY_RATIO:
            if db > MAX_BARE:
                r.reason = "matches neither the bare space nor a counter"
        else:
            r.reason = "empty or a counter?"
        if r.kind == "empty" and r.reason and d1 > MAX_FIT:
            veiled = veiled_bare(model, view, bare, gain, centres[i])
            r.distances["veiled"] = round(veiled, 3)
            if veiled <= VEILED_BARE:
                r.reason = ""
        if glare[i] > GLARE and not (glare[i] < HEAVY_GLARE and _clear(r)):
            r.reason, r.candidates = "glare", ()
        if not in_frame[i]:
            r.reason, r.candidates = "not wholly in the photo", ()
        if r.reason:
            r.kind = "uncertain"
        out.append(r)
    return out


def _clear(r: SpaceReading) -> bool:
    """A reading clear enough to stand through some glare: the bare space's look under
    BARE_SURE, or a counter twice as clear as COUNTER_RATIO and NAME_MARGIN ask."""
    d = r.distances
    if r.kind == "empty":
        return d["bare"] < BARE_SURE and not r.reason
    return (r.kind == "counter" and not r.reason and d["ratio"] < COUNTER_RATIO / 2
            and d["margin"] > 2 * NAME_MARGIN)


def draw_glade_overlay(photo: np.ndarray, reading: GladeReading) -> np.ndarray:
    """The photo with every space outlined and labelled (counter as colour initial and 1 or
    2 toadstools), uncertain spaces in red."""
    from companion.vision.overlay import Mark, draw

    half = reading.model.counter * 0.6
    marks = []
    for r in reading.spaces:
        x, y = r.at
        corners = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                            [x - half, y + half]], float)
        if r.kind == "counter":
            colour, _, side = str(r.name).rpartition("-")
            label = f"{colour[:1].upper()}{1 if side == 'single' else 2}"
        else:
            label = "??" if r.kind == "uncertain" else ""
        marks.append(Mark(corners, label, r.kind != "uncertain"))
    w, h = reading.model.size
    outline = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)
    return draw(photo, reading.homography, marks, outline)


def describe_glade(data: dict[str, Any]) -> str:
    """The glade scan for people."""
    lines = [f"Glade board: {len(data['glade'])} counter(s) on the centre spaces."]
    for tile, counter in sorted(data["glade"].items()):
        lines.append(f"  {tile}: {counter}")
    lines.append("Supply: " + ", ".join(f"seat {n}: {c}" for n, c in data["supply"].items()))
    if data["uncertain"]:
        lines.append("Uncertain: " + ", ".join(
            f"{u} ({data['reasons'].get(u, '')})" for u in data["uncertain"]))
    return "\n".join(lines)
