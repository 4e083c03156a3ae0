"""Reading one photo of a forest board: find it, rectify it, decide every square.

For each square the reader weighs three readings of the rectified view and keeps the
closest: the empty board (the pack's own board image at that square), the best tile face at
any of 4 turns (after finding the tile's exact place and askew angle), and, on inner squares,
the best counter face at any angle. A square is *uncertain* when the photo is washed out
there, when the square is not wholly in frame, or when the best and second-best readings are
too close.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import RecognitionError
from companion.the_glade.names import Square
from companion.the_glade.recognition.close_calls import (
    AGREED_MARGIN,
    AGREED_NOISE,
    DETAIL_MARGIN,
    DETAIL_NOISE,
    REFINE_BELOW,
    REFINE_Z,
    SHIFTS,
    STRONG_MARGIN,
    STRONG_NOISE,
    Look,
    closer_looks,
    misfit_z,
    rerank,
    shifted_patches,
    template_gap,
)
from companion.the_glade.recognition.counters import (
    colour_then_side,
    counter_colours,
    place_counters,
)
from companion.the_glade.recognition.detail import (
    DETAIL,
    DETAIL_SMOOTH,
)
from companion.the_glade.recognition.enrol import counter_side, tile_side
from companion.the_glade.recognition.model import (
    ANGLES,
    CELL_PX,
    COUNTER_INSET,
    COUNTER_PATCH,
    FINE,
    SMOOTH,
    TILE_INSET,
    TILE_PATCH,
    BoardModel,
    Model,
    disc_mask,
)
from companion.the_glade.recognition.pose import pose_search
from companion.the_glade.recognition.ranking import best_per_name
from companion.the_glade.recognition.structure import (
    fine_structure,
    structure_residual,
)
from companion.the_glade.recognition.templates import (
    Cache,
    Templates,
    blurred_counters,
    blurred_templates,
    board_fine_structure,
    cache_for,
    coarse_patches,
)
from companion.vision.blur import Blur, MeasuredBlur, measure_blur
from companion.vision.board import (
    PHOTO_FEATURES,
    RETRY_FEATURES,
    Located,
    PhotoFeatures,
    project,
    rectify,
)
from companion.vision.patches import (
    cut_many,
    describe,
    distances,
    hazy_distances,
    hazy_pairs,
)

EMPTY_PATCH = 16
PAD = 0.5            # squares of border kept round the grid in the rectified view
TILE_SEARCH = 0.14   # how far (in squares) a tile may lie off its square's centre
COUNTER_SEARCH = 0.2
SATURATED = 0.3      # share of washed-out pixels that makes a square unreadable
# decision thresholds (tuned on the sample styles 1 and 3 only)
NAME_MARGIN = 0.1    # (second - best) / (gap between their templates) below this: not sure
NAME_Z = 1.0         # the same in units of the photo's misfit
COUNTER_MARGIN = 0.15  # by colour: (second - best) / (second + best) below this: not sure
KIND_RATIO = 0.68   # best / second-best kind distance above this: not sure
#: ... between an empty square and a tile, the two readings least alike (a tile covers the
#: square's print), so a closer ratio is still sure (tuned on styles 1 and 3)
EMPTY_TILE_RATIO = 0.85
MAX_DISTANCE = 0.06  # best distance above this: not sure
DISC_NONE = 0.42     # a counter's outline matching worse than this: no counter
DISC_SURE = 0.5      # ... worse than this: not sure, unless the counter reading is far
CLEAR_COUNTER = 0.4  # better than the others (best / second-best kind distance below this)
BARE_STRUCTURE = 0.2  # fine structure, over the faintest tile's, below which no tile lies
PIECE_STRUCTURE = 0.5  # ... above which some piece does (see _counter_despite_outline)
CLEAR_TINT = 0.5     # a counter's colours this much nearer than the bare board's: clear
TILE_OUTLINE = 0.7   # a tile's outline this clear is not seen on a bare square (1% of tiles
                     # show less; no bare square that a tile fitted better showed over 0.55)


@dataclass
class SquareReading:
    square: str
    kind: str                      # "empty" | "tile" | "counter" | "uncertain"
    name: str | None = None
    turn: int | None = None
    season: str | None = None
    confidence: float = 0.0
    reason: str = ""
    distances: dict[str, float] = field(default_factory=dict)
    centre: tuple[float, float] = (0.0, 0.0)  # in board-image pixels
    angle: float = 0.0


@dataclass
class BoardReading:
    board: BoardModel
    located: Located
    squares: list[SquareReading]
    seconds: dict[str, float] = field(default_factory=dict)

    def result(self) -> dict[str, Any]:
        """The spec's scan JSON, plus per-square ``confidence``, ``turns`` and ``seasons``."""
        tiles, counters, uncertain = {}, {}, []
        turns, seasons, confidence = {}, {}, {}
        for r in self.squares:
            confidence[r.square] = round(r.confidence, 3)
            if r.kind == "tile":
                tiles[r.square] = r.name
                turns[r.square] = r.turn
                seasons[r.square] = r.season
            elif r.kind == "counter":
                counters[r.square] = r.name
            elif r.kind == "uncertain":
                uncertain.append(r.square)
        return {"board": self.board.geometry.to_dict(),
                "forest": {"tiles": tiles, "counters": counters},
                "uncertain": uncertain, "turns": turns, "seasons": seasons,
                "confidence": confidence,
                "reasons": {r.square: r.reason for r in self.squares if r.kind == "uncertain"}}


def locate(model: Model, photo: np.ndarray) -> tuple[BoardModel, Located]:
    """The enrolled board that shows best in ``photo``, and where. When none is found, the
    search is made again with more of the photo's features: on a busy table under heavy
    blur, the table's own texture can crowd out the board's blurred corners."""
    best = None
    for count in (PHOTO_FEATURES, RETRY_FEATURES):
        features = PhotoFeatures(photo, count)
        for board in model.boards:
            found = board.finder.locate(features, refine=False)
            if found is not None and (best is None or found.inliers > best[1].inliers):
                best = (board, found)
        if best is not None:
            break
    if best is None:
        raise RecognitionError("no forest board found in the photo; check that the whole board "
                               "is in view, lit, and the one this model was enrolled from")
    board, found = best
    return board, board.finder.refine(features.gray, found)


def _in_frame(board: BoardModel, hm: np.ndarray, frame: tuple[int, int]) -> np.ndarray:
    """For each square (row-major), the share of its corners' polygon inside the frame."""
    g = board.grid
    w, h = frame
    out = np.zeros(g.rows * g.cols)
    for r in range(g.rows):
        for c in range(g.cols):
            xs = g.left + (c + np.array([0.0, 1, 1, 0, 0.5])) * g.cell
            ys = g.top + (r + np.array([0.0, 0, 1, 1, 0.5])) * g.cell
            p = project(hm, np.stack([xs, ys], axis=1))
            inside = (p[:, 0] >= 1) & (p[:, 0] < w - 1) & (p[:, 1] >= 1) & (p[:, 1] < h - 1)
            out[r * g.cols + c] = inside.mean()
    return out


def read_board(model: Model, photo: np.ndarray) -> BoardReading:
    """Find the board in ``photo`` (BGR) and read every square."""
    t0 = time.perf_counter()
    board, located = locate(model, photo)
    t1 = time.perf_counter()
    hm = located.homography
    g = board.grid
    h, w = photo.shape[:2]
    frame_share = _in_frame(board, hm, (w, h))
    if frame_share.mean() < 0.6:
        raise RecognitionError(
            f"the board is mostly out of the frame (only {frame_share.mean():.0%} of its "
            "squares are in view); move the camera or the board so the whole board shows")
    s = CELL_PX / g.cell
    x0, y0 = g.left - PAD * g.cell, g.top - PAD * g.cell
    box = (x0, y0, g.left + (g.cols + PAD) * g.cell, g.top + (g.rows + PAD) * g.cell)
    view, fine = rectify(photo, hm, s, box, FINE)
    t2 = time.perf_counter()
    readings = _read_squares(model, board, view, fine, frame_share)
    # back to board-image pixels for the overlay
    for r in readings:
        r.centre = (x0 + r.centre[0] / s, y0 + r.centre[1] / s)
    t3 = time.perf_counter()
    return BoardReading(board, located, readings,
                        {"locate": t1 - t0, "rectify": t2 - t1, "squares": t3 - t2})


SHORTLIST = 8  # names kept from the coarse pass for the fine one

#: One tile face's fit: (distance, template index, name).
Fit = tuple[float, int, str]
#: One counter's reading: (shape distance, margin, name, runner-up's name, centre).
CounterFit = tuple[float, float, str, str, np.ndarray]


@dataclass
class Evidence:
    """What the photo shows at each square (row-major), gathered before any is judged."""

    centres: np.ndarray       # square centres, working px
    frame_share: np.ndarray   # share of the square inside the photo
    sat: np.ndarray           # share of its pixels with a clipped colour channel
    white: np.ndarray         # ... with all three clipped (washed out)
    empty: np.ndarray         # distance to the bare board there
    structure: np.ndarray     # its fine structure over the faintest tile's (nan: unmeasured)
    outline: np.ndarray       # how clearly a tile's outline shows there
    tile_at: np.ndarray       # where a tile would lie (working px) ...
    tile_angle: np.ndarray    # ... and how askew
    tiles: list[tuple[Fit, Fit]]          # the best two tile faces
    looks: dict[int, Look | None]         # the closer look at close calls
    counters: dict[int, CounterFit]       # the best counter, where one was looked for
    tint: dict[int, tuple[float, float]]  # colour distances: best counter, bare board
    disc: np.ndarray          # how clearly a counter's round outline shows there
    templates: np.ndarray     # the tile templates at the photo's blur


def _read_squares(model: Model, board: BoardModel, view: np.ndarray, fine: np.ndarray,
                  frame_share: np.ndarray) -> list[SquareReading]:
    cache = cache_for(model)
    g = board.grid
    squares = [Square(r, c) for r in range(g.rows) for c in range(g.cols)]
    n = len(squares)
    centres = np.array([((PAD + sq.col + 0.5) * CELL_PX, (PAD + sq.row + 0.5) * CELL_PX)
                        for sq in squares])
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    smooth = cv2.GaussianBlur(fine.astype(np.float32), (0, 0), SMOOTH)
    sat, white = _clipped(view, fine, centres)
    empty = _empty_distances(cache, board, view, centres)
    ref, strip = _border(board, view)
    known = ref.shape == view.shape  # the enrolled board covers the whole view
    measured = measure_blur(view, ref, strip) if known else MeasuredBlur(0.0, Blur())
    tside = tile_side(model.tile_size) * TILE_INSET * FINE
    tset = blurred_templates(model, cache, measured.blur.scaled(FINE * TILE_PATCH / tside))
    structure = np.full(n, np.nan)
    if known:
        structure = _structure(model, cache, board, tset, gray, ref, measured.focus, centres)
    # tiles: where they lie, how askew, and which face at which turn
    outline, tile_at, which = pose_search(gray, model.tile_pose, centres,
                                          round(TILE_SEARCH * CELL_PX))
    tile_angle = np.array([ANGLES[k] for k in which])
    tiles, close = _first_look(cache, tset, smooth, tile_at, tile_angle, tside)
    looks = _closer_look(model, cache, tset, fine, smooth, tiles, close, tile_at, tile_angle,
                         tside, measured.blur)
    # counters: only on inner squares that are neither clearly a tile nor clearly empty
    inner = np.array([0 < sq.row < g.rows - 1 and 0 < sq.col < g.cols - 1 for sq in squares])
    d_tile = np.array([t[0][0] for t in tiles])
    unclear = np.flatnonzero(inner & ~(d_tile < 0.4 * empty) & ~(empty < 0.4 * d_tile))
    counters, tint, disc = _counters(model, cache, view, smooth, ref, strip, centres, unclear,
                                     measured.blur)
    evidence = Evidence(centres, frame_share, sat, white, empty, structure, outline, tile_at,
                        tile_angle, tiles, looks, counters, tint, disc, tset.full)
    return _doubt_poor_photo([_judge(model, evidence, i, sq.name)
                              for i, sq in enumerate(squares)])


def _clipped(view: np.ndarray, fine: np.ndarray, centres: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray]:
    """Per square, the share of pixels with a clipped colour channel (its colours are
    doubtful: more margin is asked for) and with all three clipped (washed out: nothing can
    be read there)."""
    half = CELL_PX // 2
    sat, white = np.zeros(len(centres)), np.zeros(len(centres))
    blue, green, red = cv2.split(fine)  # channel-wise max and min: much quicker than numpy's
    for hot, arr in ((cv2.max(cv2.max(blue, green), red) >= 250, sat),
                     (cv2.min(cv2.min(blue, green), red) >= 250, white)):
        small = cv2.resize(hot.astype(np.float32), (view.shape[1], view.shape[0]),
                           interpolation=cv2.INTER_AREA)
        arr[:] = [small[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half].mean()
                  for cx, cy in centres]
    return sat, white


EMPTY_SIDE = CELL_PX * 0.8  # the middle of a square compared with the bare board (working px)


def _empty_distances(cache: Cache, board: BoardModel, view: np.ndarray,
                     centres: np.ndarray) -> np.ndarray:
    """Each square's distance to the bare board's same square (enrolled), under haze."""
    g = board.grid
    zero = np.zeros(len(centres))
    vecs = describe(cut_many(view.astype(np.float32), centres, zero, EMPTY_SIDE, EMPTY_PATCH))
    key = id(board)
    if key not in cache.empty:
        off = np.array([g.left, g.top]) * CELL_PX / g.cell - PAD * CELL_PX
        cache.empty[key] = describe(cut_many(board.working.astype(np.float32), centres + off,
                                             zero, EMPTY_SIDE, EMPTY_PATCH))
    return hazy_pairs(vecs, cache.empty[key])


def _border(board: BoardModel, view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The enrolled board's window matching the rectified ``view``, and the strip of border
    round the grid (inside the photo) where nothing lies: what blur and light are
    measured on."""
    g = board.grid
    ox, oy = (round(v * CELL_PX / g.cell - PAD * CELL_PX) for v in (g.left, g.top))
    ref = board.working[oy:oy + view.shape[0], ox:ox + view.shape[1]]
    strip = np.ones(view.shape[:2], bool)
    inset = round(PAD * CELL_PX) - 2
    strip[inset:-inset, inset:-inset] = False
    strip &= cv2.cvtColor(view, cv2.COLOR_BGR2GRAY) > 0  # inside the photo (black outside)
    return ref, strip


def _structure(model: Model, cache: Cache, board: BoardModel, tset: Templates,
               gray: np.ndarray, ref: np.ndarray, blur: float,
               centres: np.ndarray) -> np.ndarray:
    """How much sharp structure each square shows beyond the bare board's, over the least
    any tile face shows at the photo's blur (see :mod:`structure`)."""
    least = tset.least_structure(model, cache.faintest(model))
    return structure_residual(fine_structure(gray, CELL_PX),
                              board_fine_structure(cache, board, ref, blur),
                              centres, EMPTY_SIDE) / max(least, 1e-9)


def _first_look(cache: Cache, tset: Templates, smooth: np.ndarray, at: np.ndarray,
                angle: np.ndarray, tside: float
                ) -> tuple[list[tuple[Fit, Fit]], list[tuple[int, list[str]]]]:
    """Each square's best two tile faces: a shortlist of names from small patches, then
    every face of those names; and the close calls (square, its best three names) that
    deserve a closer look."""
    vecs = describe(cut_many(smooth, at * FINE, -angle, tside, TILE_PATCH))
    coarse = hazy_distances(coarse_patches(vecs, TILE_PATCH), tset.coarse,
                            sums=tset.coarse_sums)
    by_name = np.minimum.reduceat(coarse[:, cache.order], cache.starts, axis=1)
    short = np.argsort(by_name, axis=1)[:, :SHORTLIST]
    tiles: list[tuple[Fit, Fit]] = []
    close: list[tuple[int, list[str]]] = []
    for i in range(len(vecs)):
        cand = [cache.by_name[k] for k in short[i]]
        d = tset.near(vecs[i:i + 1], np.concatenate(cand))[0]
        per: list[Fit] = []
        start = 0
        for k, c in zip(short[i], cand, strict=True):
            block = d[start:start + len(c)]
            j = int(np.argmin(block))
            per.append((float(block[j]), int(c[j]), cache.names[k]))
            start += len(c)
        per.sort()
        gap = template_gap(tset.full, per[0][1], per[1][1])
        if (per[1][0] - per[0][0] < REFINE_BELOW * gap
                or misfit_z(per[0][0], per[1][0], gap) < REFINE_Z):
            close.append((i, [p[2] for p in per[:3]]))
        tiles.append((per[0], per[1]))
    return tiles, close


def _closer_look(model: Model, cache: Cache, tset: Templates, fine: np.ndarray,
                 smooth: np.ndarray, tiles: list[tuple[Fit, Fit]],
                 close: list[tuple[int, list[str]]], at: np.ndarray, angle: np.ndarray,
                 tside: float, blur: Blur) -> dict[int, Look | None]:
    """Close calls looked at again (see :mod:`close_calls`): each name's best small shift
    first (``tiles`` is updated with the new best two), then at full detail, with the faces
    blurred as the photo is, motion and all."""
    if not close:
        return {}
    # every shift of every close square described in one go
    patches = np.concatenate([shifted_patches(smooth, at[i] * FINE, -angle[i], tside)
                              for i, _ in close])
    vecs = describe(patches).reshape(len(close), len(SHIFTS), -1)
    asks = []
    for (i, names), v in zip(close, vecs, strict=True):
        per = rerank(tset, cache, v, names)
        tiles[i] = (per[0], per[1])
        asks.append((at[i] * FINE, -angle[i], per))
    detail_view = cv2.GaussianBlur(fine.astype(np.float32), (0, 0), DETAIL_SMOOTH)
    answers = closer_looks(model, cache, detail_view, asks, tside,
                           blur.scaled(FINE * DETAIL / tside))
    return {i: look for (i, _), look in zip(close, answers, strict=True)}


def _counters(model: Model, cache: Cache, view: np.ndarray, smooth: np.ndarray,
              ref: np.ndarray, strip: np.ndarray, centres: np.ndarray, idx: np.ndarray,
              blur: Blur) -> tuple[dict[int, CounterFit], dict[int, tuple[float, float]],
                                   np.ndarray]:
    """The best counter on each square ``idx``: found by its round outline, placed where a
    face fits, named by its colours under the light measured on the border (by shape when
    the light cannot be measured), single or double by shape. Also the colour distances
    (best counter, bare board) and the outline's clarity per square."""
    counters: dict[int, CounterFit] = {}
    tint: dict[int, tuple[float, float]] = {}
    disc = np.zeros(len(centres))
    if not len(model.counter_templates) or not len(idx):
        return counters, tint, disc
    score, at, _ = pose_search(view.astype(np.float32), model.counter_pose, centres[idx],
                               round(COUNTER_SEARCH * CELL_PX), windowed=True)
    cside = counter_side(model.counter_size) * COUNTER_INSET * FINE
    faces = blurred_counters(model, cache, blur.scaled(FINE * COUNTER_PATCH / cside))
    at = place_counters(faces.shapes, smooth, at, cside)
    patches = cut_many(smooth, at * FINE, np.zeros(len(idx)), cside, COUNTER_PATCH)
    # whether a counter lies there: its shape and shading, as for tiles
    vecs = describe(patches, plane=False, where=disc_mask())
    per, names, _ = best_per_name(distances(vecs, faces.shapes), model.counter_names)
    by_colour = counter_colours(model, faces.colours, view, ref, strip, patches, at,
                                cside / FINE)
    for k, i in enumerate(idx):
        o = np.argsort(per[k])
        c1 = float(per[k, o[0]])
        c2 = float(per[k, o[1]]) if len(o) > 1 else float("inf")
        margin, name = (c2 - c1) / max(c1 + c2, 1e-9), names[o[0]]
        other = names[o[1]] if len(o) > 1 else name
        if by_colour is not None:
            margin, name, other = colour_then_side(by_colour[k][:3], per[k], names)
            tint[i] = by_colour[k][3:]
        counters[i] = (c1, margin, name, other, at[k])
        disc[i] = float(score[k])
    return counters, tint, disc


def _judge(model: Model, ev: Evidence, i: int, square: str) -> SquareReading:
    """Square ``i``: empty, a tile, a counter, or uncertain (with the reason), from the
    evidence."""
    d1 = ev.tiles[i][0][0]
    c1, _, _, _, _ = ev.counters.get(i, (float("inf"), 0.0, "", "", ev.centres[i]))
    if ev.disc[i] < DISC_NONE and not _counter_despite_outline(ev.structure[i], ev.tint.get(i)):
        c1 = float("inf")  # no round counter there
    # a square showing none of the sharp structure a tile brings holds no tile, however
    # poorly the bare board matches in its light (False when unmeasured: nan)
    bare = bool(ev.structure[i] < BARE_STRUCTURE)
    veiled = bare and _veiled_tile(float(ev.outline[i]), d1, float(ev.empty[i]))
    kinds = {"empty": float(ev.empty[i]), "tile": float("inf") if bare else d1, "counter": c1}
    ranked = sorted(kinds, key=kinds.get)
    kind, other = ranked[0], ranked[1]
    kd1, kd2 = kinds[kind], kinds[other]
    reading = SquareReading(square, kind, distances={k: round(v, 4) for k, v in
                                                     kinds.items() if np.isfinite(v)})
    reading.distances["tile"] = round(d1, 4)
    reading.distances["outline"] = round(float(ev.outline[i]), 3)
    reading.distances["structure"] = round(float(ev.structure[i]), 4)
    kind_ratio = kd1 / max(kd2, 1e-9)
    if {kind, other} == {"empty", "counter"} and i in ev.tint:
        # counter or bare board: their colours, under the same light, say it best
        dc, de = ev.tint[i]
        reading.distances["tint_counter"] = round(dc, 4)
        reading.distances["tint_empty"] = round(de, 4)
        kind, other = ("counter", "empty") if dc < de else ("empty", "counter")
        reading.kind = kind
        kind_ratio = min(dc, de) / max(dc, de, 1e-9)
    conf = 1.0 - kind_ratio
    if kind == "tile":
        conf = min(conf, _name_tile(model, ev, i, reading))
    elif kind == "counter":
        conf = min(conf, _name_counter(ev, i, reading, kind_ratio))
    else:
        reading.centre = (float(ev.centres[i][0]), float(ev.centres[i][1]))
    limit = EMPTY_TILE_RATIO if {kind, other} == {"empty", "tile"} else KIND_RATIO
    if not reading.reason and kind_ratio > limit / (1 + ev.sat[i]):
        reading.reason = f"{kind} or {other}?"
    if not reading.reason and veiled:
        reading.reason = "empty, or a tile veiled by glare?"
    if not reading.reason and kd1 > MAX_DISTANCE and not (bare and kind == "empty"):
        reading.reason = "matches nothing enrolled well"
    if ev.white[i] > SATURATED:
        reading.reason = "glare"
    if ev.frame_share[i] < 1.0:
        reading.reason = "not wholly in the photo"
    reading.confidence = max(0.0, min(1.0, float(conf))) if not reading.reason else 0.0
    if reading.reason:
        reading.kind = "uncertain"
    return reading


def _name_tile(model: Model, ev: Evidence, i: int, reading: SquareReading) -> float:
    """Name the tile on square ``i`` (its face, turn and season) in ``reading``, with the
    reason when the name is not sure; returns the name's confidence."""
    (d1, j1, name1), (d2, j2, name2) = ev.tiles[i]
    sat = ev.sat[i]
    reading.centre = (float(ev.tile_at[i][0]), float(ev.tile_at[i][1]))
    reading.angle = float(ev.tile_angle[i])
    gap = template_gap(ev.templates, j1, j2)
    margin = (d2 - d1) / max(gap, 1e-9)
    # the same gap in units of the photo's own misfit: blur and noise lower it
    zscore = misfit_z(d1, d2, gap)
    reading.distances["margin"] = round(margin, 3)
    reading.distances["z"] = round(float(zscore), 2)
    conf = margin
    first_sure = margin >= NAME_MARGIN * (1 + 2 * sat) and zscore >= NAME_Z
    look = ev.looks.get(i)
    if look is None:
        sure = first_sure
    else:
        # a close call: both looks must name the same face, and one of them be sure
        reading.distances["detail_margin"] = round(look.margin, 3)
        reading.distances["detail_noise"] = round(look.noise, 3)
        reading.distances["agree"] = float(look.names[0] == name1)
        detail_sure = (look.margin >= DETAIL_MARGIN * (1 + 2 * sat)
                       and look.noise <= DETAIL_NOISE)
        if look.names[0] == name1:
            # two looks agree: either sure is enough, or a clear closer look in a poorer
            # fit (blur the templates do not model)
            agreed = look.margin >= AGREED_MARGIN and look.noise <= AGREED_NOISE
            sure = first_sure or detail_sure or agreed
            conf = min(conf, max(look.margin, margin))
        else:  # they disagree: only a clear closer look overrules the first
            sure = look.margin >= STRONG_MARGIN * (1 + 2 * sat) and look.noise <= STRONG_NOISE
            name2 = name1
            name1, j1 = look.names[0], look.names[1]
            conf = min(conf, look.margin)
    reading.name = name1
    reading.turn = int(model.tile_turns[j1])
    reading.season = model.tile_seasons[j1]
    if not sure:
        reading.reason = f"looks like {name1} or {name2}"
    return conf


def _name_counter(ev: Evidence, i: int, reading: SquareReading, kind_ratio: float) -> float:
    """Name the counter on square ``i`` in ``reading``, with the reason when it is not sure;
    returns the name's confidence."""
    _, margin, name, other, at = ev.counters[i]
    reading.name = name
    reading.centre = (float(at[0]), float(at[1]))
    reading.distances["margin"] = round(float(margin), 3)
    reading.distances["disc"] = round(float(ev.disc[i]), 3)
    if margin < COUNTER_MARGIN * (1 + 2 * ev.sat[i]):
        reading.reason = f"looks like {name} or {other}"
    elif ev.disc[i] < DISC_SURE and kind_ratio > CLEAR_COUNTER:
        reading.reason = "a counter, or a mark on the board?"
    return margin


def _veiled_tile(outline: float, tile: float, empty: float) -> bool:
    """A square too faint for a tile's structure may still hold one veiled by glare: a
    tile's clear outline is there and a tile fits it better than the bare board. Such a
    square is doubted, never read as empty."""
    return outline >= TILE_OUTLINE and tile < empty


def _counter_despite_outline(structure: float, tint: tuple[float, float] | None) -> bool:
    """A counter of the board's own colour shows a faint outline; it may still be read as a
    counter when the square has the sharp structure of a piece on it and its colours match a
    counter clearly better than the bare board's."""
    if tint is None or not structure >= PIECE_STRUCTURE:  # (unmeasured: nan)
        return False
    counter, bare = tint
    return counter < CLEAR_TINT * bare


POOR_PHOTO = 0.2     # this share of squares unsure: the photo itself is poor ...
POOR_Z = 3.0         # ... so every close call is doubted too
POOR_COUNTER = 0.15


def _doubt_poor_photo(readings: list[SquareReading]) -> list[SquareReading]:
    """When many squares are unreadable (a dim, blurred or badly lit photo), trust the rest
    less: a reading that would pass in a good photo is not sure in a poor one."""
    unsure = sum(r.kind == "uncertain" for r in readings)
    if unsure <= POOR_PHOTO * len(readings):
        return readings
    for r in readings:
        weak = ((r.kind == "tile" and r.distances.get("z", 99) < POOR_Z)
                or (r.kind == "counter" and r.distances.get("margin", 1) < POOR_COUNTER))
        if weak:
            r.kind, r.reason, r.confidence = "uncertain", "poor photo: a close call", 0.0
    return readings
