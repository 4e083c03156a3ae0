"""Look-alike doubts settled by the photo's own sure squares.

Two tiles that differ only in a small icon (acorn or blackberry) are judged at a close call
against the enrolled faces and against a pair learnt from renderings of them
(:mod:`lookalikes`). Neither is drawn in *this* photo's light, blur, scale and print. The
photo itself, though, often holds other tiles read surely that show one fruit or the other
at the same spot of the face: exemplars that match the doubt's conditions better than any
rendering made at enrolment.

So after the first reading, for each square left in doubt between the two faces of a learnt
look-alike pair (:func:`settle`):

1. **Which faces show each part**: the pair knows the box of the face where its two faces
   differ. A face of the pack *shows* candidate A's part when its enrolled image
   (``Model.tile_detail``: the pack's own tile at turn 0, light-flattened) matches A's in
   that box (at most PART_SPREAD of the box's pixels off by more than PART_LEVEL) and
   differs there from the other parts. This is checked against the pack, not assumed:
   where the fruit takes the leaf's colour, or paper texture crosses the box, fewer faces
   qualify. Besides the two candidates' parts, the other parts that may lie there (the
   other fruits of the same spot: further look-alikes of either candidate) are classes of
   their own, so that an exemplar of a third fruit can speak against both.
2. **Exemplars**: the photo's other squares read surely (kind ``tile``, little clipped),
   as a face that shows one of those parts, lying at the doubt's own turn (TURNS_APART).
   A quarter or half turn apart, the photo's blur and the light round the tile's rim lie
   differently across the part: on tuning family 121's photos such exemplars misfit up to
   eight times as much as those at the same turn.
3. **Compare at the photo's resolution**: the box (with BOX_PAD) is cut from the
   unsmoothed fine view (96 px a square: about the photo's own resolution) where the
   closer look placed the doubtful tile, at RES patch px per fine px; each exemplar's box,
   widened by SEARCH_PX, is cut where its tile was placed (the pose search's 4 degree
   steps are coarser than the closer look's placing), and the doubt's box is aligned in it
   by normalised correlation (each colour less its own mean, :func:`cv2.matchTemplate`).
   Each crop is divided by its paper's level per colour (the light on it), and the misfit
   is their mean squared difference weighted by where the two candidates differ.
4. **Judge**: a part class's misfit is its best exemplar's. The doubt is settled to the
   candidate whose misfit is at most MAX_MISFIT and at most RATIO times every other class's
   (with an exemplar). A doubt with no exemplar of either candidate stays a doubt; so does
   one with exemplars of one candidate only (nothing in the photo shows how the other would
   look there), and one whose margin is unclear.

The thresholds were set on tuning families only (121, 198, 287 and 1: tiny fruit; see the
constants). The work is done only for look-alike doubts: a few ms a doubt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.the_glade.recognition import drawn_parts, round_robin
from companion.the_glade.recognition.enrol import fine_tile_side
from companion.the_glade.recognition.evidence import Evidence, _pair_lookup
from companion.the_glade.recognition.lookalikes import turned_patch
from companion.the_glade.recognition.model import FINE, Model
from companion.the_glade.recognition.templates import cache_for

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: Settle look-alike doubts by the photo's own sure squares (reader._read_squares).
EXEMPLARS = True
#: Patch px per fine-view px at which parts are compared (shift steps of 1 / RES fine px).
RES = 2
#: How far (fine-view px) an exemplar's part is searched round where its tile was placed.
SEARCH_PX = 4.0
#: Extra margin (fine-view px) round the pair's box.
BOX_PAD = 1.0
#: A face shows a part when at most PART_SPREAD of the box's pixels differ from the part's
#: face by more than PART_LEVEL (light-flattened units: the paper is 1), and differs from
#: every other part in at least half as many pixels as the two candidates differ in.
PART_LEVEL = 0.16
PART_SPREAD = 0.02
#: The paper's level in a crop (this quantile of each colour), which its light is judged by.
PAPER = 0.8
#: Blur (fine px) spread over where the two candidates differ, as the misfit's weight.
WEIGHT_BLUR = 1.0
#: The settle: the named candidate's best exemplar misfits at most RATIO times any other
#: part class's best, and at most MAX_MISFIT (weighted mean squared difference, over the
#: paper's level). Tuning families 121, 198, 287 and 1 (analysis photos, seeds 60000+ and
#: 70000+, 48 normal and 32 hard, 628 look-alike doubts with exemplar misfits recorded):
#: with exemplars at the doubt's own turn, RATIO 0.4 settled 33 doubts, none wrong, 0.45
#: 37 with 1 wrong (a ratio of 0.43); the wrong settles at any ratio under 0.6 misfit
#: 0.0039-0.018, the right ones mostly 0.001-0.005. Taken with room: 0.35 and 0.006
#: (27 right, none wrong).
RATIO = 0.35
MAX_MISFIT = 0.006
#: Exemplars are used only when their turn and the doubt's differ by a multiple of this
#: (4: the same turn). At every turn the same tuning doubts settled 48 at RATIO 0.35 with
#: 3 wrong; at the same or the opposite turn, 27 with 2 wrong.
TURNS_APART = 4
#: Exemplar squares with a larger share of clipped pixels are not used.
MAX_SAT = 0.05


@dataclass(frozen=True)
class ExemplarVerdict:
    """The photo's own evidence on one look-alike doubt: the candidate it names, its best
    exemplar's misfit and the best of any other part class (inf: none), the exemplar squares
    of each class (the two candidates' first), and whether the doubt is settled."""

    winner: str
    loser: str
    near: float
    far: float
    exemplars: tuple[tuple[int, ...], ...]
    misfits: tuple[float, ...]
    settled: bool


def _part(fine: np.ndarray, at: tuple[float, float, float], turn: int, tside: float,
          box: tuple[int, int, int, int]) -> np.ndarray:
    """The tile's ``box`` (px of its patch at turn 0, RES patch px per fine px) cut from
    ``fine`` where the tile lies (``at``: centre x, y and cut angle; ``turn`` quarter
    turns) (float32 BGR)."""
    patch = turned_patch(fine, at[:2], at[2], turn, tside, round(tside * RES))
    x0, y0, x1, y1 = box
    return np.ascontiguousarray(patch[y0:y1, x0:x1])


def _box_px(box: np.ndarray, side: int, pad: float) -> tuple[int, int, int, int]:
    p = pad * RES
    return (max(0, int(np.floor(box[0] * side - p))), max(0, int(np.floor(box[1] * side - p))),
            min(side, int(np.ceil(box[2] * side + p))), min(side, int(np.ceil(box[3] * side + p))))


def _paper(crop: np.ndarray) -> np.ndarray:
    """``crop`` over its paper's level per colour (the PAPER quantile, the nearest value
    below it): the light on it."""
    flat = crop.reshape(-1, 3)
    k = int(PAPER * (len(flat) - 1))
    level = np.partition(flat, k, axis=0)[k]
    return crop / np.maximum(level, 1.0).astype(np.float32)


def misfit(template: np.ndarray, region: np.ndarray, weight: np.ndarray) -> float:
    """How unlike ``template`` its best match in ``region`` is where ``weight`` (the two
    candidates' difference) lies: aligned by the normalised correlation of the whole box,
    each over its paper's level, the weighted mean squared difference."""
    th, tw = template.shape[:2]
    if region.shape[0] < th or region.shape[1] < tw or float(template.std()) < 1e-3:
        return float("inf")
    score = cv2.matchTemplate(region, template, cv2.TM_CCOEFF_NORMED)
    y, x = np.unravel_index(int(np.argmax(score)), score.shape)
    diff = _paper(template) - _paper(region[y:y + th, x:x + tw])
    return float((weight * (diff * diff).sum(axis=-1)).sum() / max(float(weight.sum()), 1e-9))


def _placed(ev: Evidence, i: int) -> tuple[float, float, float]:
    """Where the tile on square ``i`` lies in the fine view (x, y) and its cut angle: the
    closer look's placing when it had one, else the pose search's."""
    look = ev.looks.get(i)
    if look is not None and look.at is not None:
        return look.at
    return (float(ev.tile_at[i][0] * FINE), float(ev.tile_at[i][1] * FINE),
            float(-ev.tile_angle[i]))


def settle(model: Model, ev: Evidence, readings: list[SquareReading],
           fine: np.ndarray) -> dict[int, ExemplarVerdict]:
    """Settle the look-alike doubts among ``readings`` (row-major, as judged from ``ev``)
    by the photo's own sure squares (see the module's doc), in place: a settled square
    becomes a tile named by the winner (``distances["exemplar_sure"]``). Returns every
    verdict reached (settled or not), by square."""
    out: dict[int, ExemplarVerdict] = {}
    pairs = model.lookalikes
    if not len(pairs) or len(model.tile_detail) * 4 != len(model.tile_names):
        return out
    doubts = [i for i, r in enumerate(readings)
              if r.lookalike_doubt and ev.looks.get(i) is not None]
    if not doubts:
        return out
    index, faces = _pair_lookup(model, cache_for(model))
    sure = [i for i, r in enumerate(readings)
            if r.kind == "tile" and not r.doubt and float(ev.sat[i]) <= MAX_SAT]
    face_of = {i: faces.get((readings[i].name, readings[i].season), -1) for i in sure}
    tside = fine_tile_side(model.tile_size)
    side = round(tside * RES)
    regions: dict[tuple[int, tuple[int, int, int, int]], np.ndarray] = {}
    known: dict[tuple[int, int], list[set[int]]] = {}
    present = sorted({f for f in face_of.values() if f >= 0})
    for i in doubts:
        r = readings[i]
        n1, n2 = r.candidates
        fa, fb = faces.get((n1, r.season)), faces.get((n2, r.season))
        k = index.get((fa, fb)) if fa is not None and fb is not None else None
        if k is None or fa is None or fb is None:
            continue
        box = pairs.boxes[k].astype(np.float64) / float(pairs.sides[k])
        if (fa, fb) not in known:
            known[(fa, fb)] = part_classes(model, index, box, fa, fb, present)
        classes = known[(fa, fb)]
        tbox = _box_px(box, side, BOX_PAD)
        rbox = _box_px(box, side, BOX_PAD + SEARCH_PX)
        weight = _weight(model, fa, fb, side, tbox)
        template = _part(fine, _placed(ev, i), int(r.turn), tside, tbox)
        who = [tuple(e for e in sure if e != i and face_of[e] in shown
                     and _same_turn(readings[e].turn, r.turn)) for shown in classes]
        misfits = []
        for found in who:
            best = float("inf")
            for e in found:
                key = (e, rbox)
                if key not in regions:
                    regions[key] = _part(fine, _placed(ev, e), int(readings[e].turn or 0),
                                         tside, rbox)
                best = min(best, misfit(template, regions[key], weight))
            misfits.append(best)
        verdict = _verdict((n1, n2), tuple(who), tuple(misfits))
        if verdict is None:
            continue
        out[i] = verdict
        r.distances["exemplar_near"] = round(verdict.near, 5)
        r.distances["exemplar_far"] = round(verdict.far, 5)
        if verdict.settled:
            r.settled(verdict.winner)
            r.confidence = max(0.0, min(1.0, 1.0 - verdict.near / max(verdict.far, 1e-9)))
            r.distances["exemplar_sure"] = 1.0
    # those left: a candidate that wins every learnt pair it belongs to
    round_robin.settle(model, ev, readings, fine, faces, index)
    if drawn_parts.DRAWN:  # those left: the pack's own drawings through the photo's blur
        drawn_parts.settle(model, ev, readings, fine, _placed, faces, index)
    return out


def _same_turn(turn: int | None, other: int | None) -> bool:
    """Two tiles lie at turns TURNS_APART apart (the same, by default): the photo's blur (a
    smear along one direction) and the light round the tile's rim then lie alike across
    their parts."""
    return turn is not None and other is not None and (turn - other) % TURNS_APART == 0


def _verdict(names: tuple[str, str], who: tuple[tuple[int, ...], ...],
             misfits: tuple[float, ...]) -> ExemplarVerdict | None:
    """The candidate (of ``names``: the first two part classes) the exemplars name, from
    each class's exemplar squares and best misfit; None without an exemplar of either."""
    if not who[0] and not who[1]:
        return None
    w = 0 if misfits[0] <= misfits[1] else 1
    near = misfits[w]
    far = min(m for c, m in enumerate(misfits) if c != w)
    settled = bool(who[0]) and bool(who[1]) and near <= MAX_MISFIT and near <= RATIO * far
    return ExemplarVerdict(names[w], names[1 - w], near, far, who, misfits, settled)


def part_classes(model: Model, index: dict[tuple[int, int], int], box: np.ndarray,
                 fa: int, fb: int, present: list[int]) -> list[set[int]]:
    """Which of the faces ``present`` (those read surely in the photo) show each part that
    may lie in ``box`` (shares of the patch at turn 0): face ``fa``'s, face ``fb``'s, then
    each other look-alike of ``fa`` or ``fb`` whose part there differs from both (another
    fruit at that spot). A face shows a part when its enrolled image matches it in the box
    (PART_SPREAD, PART_LEVEL) and differs there from every other part in at least half as
    many pixels as the two candidates do."""
    det = model.tile_detail
    n = det.shape[1]
    x0, y0 = (max(0, int(np.floor(v * n))) for v in box[:2])
    x1, y1 = (min(n, int(np.ceil(v * n))) for v in box[2:])
    rivals = sorted({y for (x, y) in index if x in (fa, fb) and y not in (fa, fb)})
    faces = sorted({fa, fb, *rivals, *present})
    row = {f: k for k, f in enumerate(faces)}
    crops = det[faces, y0:y1, x0:x1]

    def off(f: int) -> np.ndarray:  # per face, the share of the box off face f's part
        return (np.abs(crops - crops[row[f]]).max(axis=-1) > PART_LEVEL).mean(axis=(1, 2))

    offs = [off(fa), off(fb)]
    half = 0.5 * float(offs[0][row[fb]])
    heads = [fa, fb]
    for y in rivals:
        if all(o[row[y]] >= half for o in offs):
            heads.append(y)
            offs.append(off(y))
    out = []
    for c, o in enumerate(offs):
        mine = o <= PART_SPREAD
        for d, other in enumerate(offs):
            if d != c:
                mine &= other >= half
        out.append({f for f in present if mine[row[f]]})
    return out


def _weight(model: Model, fa: int, fb: int, side: int,
            box: tuple[int, int, int, int]) -> np.ndarray:
    """Where faces ``fa`` and ``fb`` differ, at ``side`` px a patch, in ``box`` (px),
    spread by WEIGHT_BLUR fine px: what the parts are compared on."""
    det = model.tile_detail
    d = np.abs(det[fa] - det[fb]).max(axis=-1).astype(np.float32)
    d = cv2.resize(d, (side, side), interpolation=cv2.INTER_LINEAR)
    d = cv2.GaussianBlur(d, (0, 0), WEIGHT_BLUR * RES)
    x0, y0, x1, y1 = box
    return d[y0:y1, x0:x1]
