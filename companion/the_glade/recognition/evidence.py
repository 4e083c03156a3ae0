"""What a photo shows on each square of a forest board, gathered before any is judged.

From the rectified view: how much of each square is clipped by glare, how near it is to the
bare board, how much sharp structure it shows, where a tile would lie and which faces fit it
best (with a closer look at close calls), and, on inner squares that are neither clearly a
tile nor clearly bare, the best counter. The faces are blurred as the photo is (measured on
the board's printed border, see :mod:`companion.vision.blur`); :mod:`reader` judges each
square from this.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import cv2
import numpy as np

from companion.the_glade.names import LEAVES, Square
from companion.the_glade.recognition import close_calls
from companion.the_glade.recognition.close_calls import (
    REFINE_BELOW,
    REFINE_Z,
    SHIFTS,
    Look,
    closer_looks,
    confirmed,
    misfit_z,
    rerank_all,
    template_gap,
    veil_bounds,
)
from companion.the_glade.recognition.counter_colour import CounterColours, board_light
from companion.the_glade.recognition.counters import (
    CounterFaces,
    colour_then_side,
    counter_colours,
    counters_placed,
    may_hide_a_counter,
)
from companion.the_glade.recognition.detail import (
    DETAIL,
    DETAIL_SMOOTH,
    squared_difference,
)
from companion.the_glade.recognition.enrol import counter_side, fine_tile_side
from companion.the_glade.recognition.lookalikes import PairVerdict, judge
from companion.the_glade.recognition.model import (
    ANGLES,
    CELL_PX,
    COUNTER_INSET,
    COUNTER_PATCH,
    FINE,
    SMOOTH,
    TILE_PATCH,
    BoardModel,
    Model,
    disc_mask,
)
from companion.the_glade.recognition.pose import angled_pose_search, pose_search
from companion.the_glade.recognition.ranking import best_per_name
from companion.the_glade.recognition.structure import (
    BARE_STRUCTURE,
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
from companion.vision.patches import (
    clipped,
    cut_many,
    describe,
    distances,
    hazy_distances,
    hazy_pairs,
)

T = TypeVar("T")

EMPTY_PATCH = 16
PAD = 0.5            # squares of border kept round the grid in the rectified view
TILE_SEARCH = 0.14   # how far (in squares) a tile may lie off its square's centre
#: Each tile's angle found between the pose templates' (pose.fine_angles) for the reading's
#: ``angle``, where the drawings (photo_drawing) start placing the tile; the looks at the
#: rectified board keep the templates' own angle.
FINE_ANGLE = True
COUNTER_SEARCH = 0.2

SHORTLIST = 8  # names kept from the coarse pass for the fine one
#: A close call's best names given their own best shift, and how many of them (the best
#: after that) the closer look compares; the first look keeps its own best LOOKED_AT. Two
#: creatures alike can put a tile's true face fourth before the shift (SAMPLE style 1: a
#: mouse under a squirrel's two fruits).
RERANKED = 5
LOOKED_AT = 3
#: Share of a square's pixels washed out by glare (clipped) over which its tile's name
#: stands only when a closer look vouches for it (the reader's "glare" doubt,
#: reader._legible_through_glare).
SATURATED = 0.3
#: Such a square is looked at closer whatever its first look (WASHED_LOOK): the closer look
#: is made only for close calls, so a washed-out tile whose first look was firm had none,
#: and was a "glare" doubt however plain its print. Whole games of game families 7474-7478
#: (run fresh for issue #25, then looked at): two of the six "glare" doubts were such tiles,
#: their first looks naming them right at z over REFINE_Z, their prints plain in the photo;
#: on normal photos of tuning families 8167-8186, two of five.
WASHED_LOOK = True

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
    tile_clipped: np.ndarray  # ... the same where its best two tile faces differ
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
    #: a learnt look-alike pair's verdict on close calls between its two faces
    pairs: dict[int, PairVerdict] = field(default_factory=dict)
    #: how bright each square is over the bare board there under the light measured on the
    #: border (see :func:`_brightness`; None: unmeasured)
    bright: np.ndarray | None = None
    #: whether each square lies on the board's edge, where no counter lies (None: unknown)
    edge: np.ndarray | None = None
    #: every learnt pair's verdict between a face and each of its look-alikes on a close
    #: call's square, where its closer look placed the tile: ``partners(i, template)``
    #: (see :func:`_partner_verdicts`; None: not available)
    partners: Callable[[int, int], list[PairVerdict]] | None = None
    #: each square's tile patch as the first look compared it with the faces (light-flattened,
    #: one row of the templates' length a square; None: not kept), for
    #: :mod:`veiled_leaves`
    patches: np.ndarray | None = None
    #: the photo's light per colour channel measured on the board's border (photo over the
    #: enrolled board, :func:`counter_colour.board_light`; None: unmeasured), what the
    #: true-colour steps (:mod:`bare_colours`, :mod:`leaf_colours`) free a patch of
    light: np.ndarray | None = None
    #: each tile's angle between the pose templates' (pose.fine_angles; None: FINE_ANGLE
    #: off), where the drawings start placing it
    fine_angle: np.ndarray | None = None


def gather(model: Model, board: BoardModel, view: np.ndarray, fine: np.ndarray,
           frame_share: np.ndarray) -> tuple[list[str], Evidence]:
    """The squares' names (row-major) and what the rectified ``view`` (and its ``fine``
    twin) shows at each; ``frame_share`` is each square's share inside the photo."""
    cache = cache_for(model)
    g = board.grid
    squares = [Square(r, c) for r in range(g.rows) for c in range(g.cols)]
    n = len(squares)
    centres = np.array([((PAD + sq.col + 0.5) * CELL_PX, (PAD + sq.row + 0.5) * CELL_PX)
                        for sq in squares])
    gray = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # tiles: where they lie and how askew, on a second thread while the blur, the light and
    # the structure are measured (neither needs the other)
    posed = _beside(angled_pose_search, gray, model.tile_pose, centres,
                    round(TILE_SEARCH * CELL_PX), ANGLES)
    # the fine view smoothed in float32, in place (the same values as into a new array; each
    # fine-view array is 7-9 MB, and the scan's peak memory is what they add up to)
    smooth = _smoothed(fine, SMOOTH)
    hot = clipped(fine)
    sat, white = _clipped_shares(view, hot, clipped(fine, every=True), centres)
    empty = _empty_distances(cache, board, view, centres)
    ref, strip = _border(board, view, gray)
    known = ref.shape == view.shape  # the enrolled board covers the whole view
    measured = (measure_blur(view, ref, strip, cache.blur_reference(board, ref)) if known
                else MeasuredBlur(0.0, Blur()))
    tside = fine_tile_side(model.tile_size)
    tset = blurred_templates(model, cache, measured.blur.scaled(FINE * TILE_PATCH / tside))
    gain = board_light(view, ref, strip) if known else None  # the light on the border
    structure = np.full(n, np.nan)
    if known:
        structure = _structure(model, cache, board, tset, gray, ref, measured.focus, centres)
    # ... and which face at which turn
    outline, tile_at, which, angled = posed()
    tile_angle = np.array([ANGLES[k] for k in which])
    fine_angle = angled if FINE_ANGLE else None
    tiles, close, patches = _first_look(cache, tset, smooth, tile_at, tile_angle, tside,
                                        white > SATURATED if WASHED_LOOK else None)
    bright = _brightness(view, ref, gain, centres)
    tiled = _usual_tiles(structure, tiles, empty)
    light = _over_usual_tile(bright, tiled)
    siblings = (_leaf_siblings(model, None if light is None else light > LEAF_LIGHT)
                if LEAF_SIBLINGS else None)
    # the peak light only where a leaf question's veil is bounded by it
    peak = (_over_usual_tile(_peak_light(gray, centres), tiled) if close_calls.LIT_VEIL
            else None)
    glare_light = None if light is None or peak is None else np.maximum(light, peak)
    asks = _rerank(cache, tset, smooth, tiles, close, tile_at, tile_angle, tside,
                   structure < BARE_STRUCTURE, siblings)
    # the fine view as the closer look sees it: made only when it has something to look at,
    # when it looks, and dropped once it has looked (not made at the start beside the
    # smoothed view and kept to the end: 7-9 MB less at the scan's peak of memory; on this
    # thread: made on the second, it was freed into that thread's malloc arena, which kept
    # it, 4 MB more at the peak, and OpenCV spreads the smoothing over its own threads)
    detailed = (lambda: _smoothed(fine, DETAIL_SMOOTH)) if asks else None
    # the tiles' names are settled: what glare clips where they differ, and the clipped map
    # is let go (a float32 map of the fine view)
    tile_clipped = _clipped_where_they_differ(tset, hot, tiles, tile_at, tile_angle, tside)
    del hot
    # counters: on inner squares that are neither clearly a tile nor clearly empty, and on
    # bare-looking ones where a counter may hide
    inner = np.array([0 < sq.row < g.rows - 1 and 0 < sq.col < g.cols - 1 for sq in squares])
    d_tile = np.array([t[0][0] for t in tiles])
    unclear = np.flatnonzero(inner & ~(d_tile < 0.4 * empty) & ~(empty < 0.4 * d_tile))
    bare_looking = np.flatnonzero(inner & (empty < 0.4 * d_tile))
    # counters by focus blur alone: smeared faces gave nothing on 400 tuning photos and read
    # a green counter on the green board as bare on a check photo
    search = _counter_search(model, cache, view, smooth, ref, strip, centres, unclear,
                             Blur(sigma=measured.focus), bare_looking, gain)
    # where counters lie on a second thread while the close calls are looked at closer
    placed = (None if search is None else
              _beside(pose_search, view.astype(np.float32), model.counter_pose,
                      centres[search.idx], round(COUNTER_SEARCH * CELL_PX), True))
    looks = _closer_look(model, cache, detailed, tiles, asks, tside, measured.blur,
                         veil_bounds(glare_light))
    del detailed
    counters, tint, disc = _counters(model, smooth, centres, search, placed)
    pairs = _pair_verdicts(model, cache, fine, looks, tside)
    return [sq.name for sq in squares], Evidence(
        centres, frame_share, sat, tile_clipped, white, empty, structure, outline, tile_at,
        tile_angle, tiles, looks, counters, tint, disc, tset.full, pairs, bright, ~inner,
        _partner_verdicts(model, cache, fine, looks, tside), patches, gain, fine_angle)


def _smoothed(fine: np.ndarray, sigma: float) -> np.ndarray:
    """``fine`` in float32 smoothed by a Gaussian of ``sigma`` px, made in place: the same
    values as ``cv2.GaussianBlur(fine.astype(np.float32), (0, 0), sigma)``, in one array."""
    out = fine.astype(np.float32)
    cv2.GaussianBlur(out, (0, 0), sigma, dst=out)
    return out


BRIGHT_SIDE = CELL_PX * 0.6  # the middle of a square whose brightness is measured (working px)


def _brightness(view: np.ndarray, ref: np.ndarray, gain: np.ndarray | None,
                centres: np.ndarray) -> np.ndarray | None:
    """Per square, the photo's brightness in its middle over the bare board's there under
    the light ``gain`` measured on the border strip (counter_colour.board_light): about 1 on
    a bare square in even light, above on a pale piece on a darker board or under glare.
    The patches compared with the bare board are each divided by their own light, which a
    washed-out tile and a bare square share (both flat); their brightness does not. None
    when the light could not be measured."""
    if gain is None:
        return None
    # window sums per colour, each square's window summed on its own in integers: exact, so
    # the same values as from integral images in float64 (which took two 4.5 MB arrays at
    # the scan's peak of memory)
    half = round(BRIGHT_SIDE / 2)
    h, w = view.shape[:2]
    x = np.clip(centres[:, 0].astype(int) + np.array([[-half], [half]]), 0, w)
    y = np.clip(centres[:, 1].astype(int) + np.array([[-half], [half]]), 0, h)

    def window(image: np.ndarray) -> np.ndarray:
        return np.array([image[y0:y1, x0:x1].sum(axis=(0, 1), dtype=np.int64)
                         for x0, x1, y0, y1 in zip(x[0], x[1], y[0], y[1], strict=True)],
                        np.float64).reshape(len(centres), *image.shape[2:])

    return window(view).sum(axis=1) / np.maximum(window(ref) @ gain, 1.0)


def _pair_verdicts(model: Model, cache: Cache, fine: np.ndarray,
                   looks: dict[int, Look | None], tside: float) -> dict[int, PairVerdict]:
    """For each close call whose closer look's best face and its rival are a look-alike
    pair learnt at enrolment, that pair's verdict, judged on the unsmoothed fine view (the
    photo's full resolution) where the closer look placed the tile."""
    pairs = model.lookalikes
    out: dict[int, PairVerdict] = {}
    if not len(pairs):
        return out
    index, faces = _pair_lookup(model, cache)
    for i, look in looks.items():
        if look is None or look.at is None:
            continue
        j = look.names[1]
        fa = j // 4
        fb = faces.get((look.names[2], model.tile_seasons[j]))
        k = index.get((fa, fb)) if fb is not None else None
        if k is None:
            continue
        cx, cy, angle = look.at
        out[i] = judge(pairs, k, fine, (cx, cy), angle, int(model.tile_turns[j]), tside, fa)
    return out


def _partner_verdicts(model: Model, cache: Cache, fine: np.ndarray,
                      looks: dict[int, Look | None], tside: float
                      ) -> Callable[[int, int], list[PairVerdict]]:
    """What the learnt pairs say of one face on a close call's square: for square ``i`` and
    template ``j`` (a face at a turn), the verdict of every pair between that face and a
    look-alike of it, judged where the closer look placed the tile (none when the square had
    no closer look). Worked out only when asked: the reader asks of the names it is sure of."""
    pairs = model.lookalikes

    def verdicts(i: int, j: int) -> list[PairVerdict]:
        look = looks.get(i)
        if look is None or look.at is None or not len(pairs):
            return []
        index, _ = _pair_lookup(model, cache)
        face = j // 4
        cx, cy, angle = look.at
        return [judge(pairs, k, fine, (cx, cy), angle, int(model.tile_turns[j]), tside, face)
                for (a, _b), k in index.items() if a == face]

    return verdicts


def _pair_lookup(model: Model, cache: Cache
                 ) -> tuple[dict[tuple[int, int], int], dict[tuple[str, str], int]]:
    """The model's pair numbers by their two faces, and face numbers by (name, season);
    worked out once per model."""
    found = getattr(cache, "pair_lookup", None)
    if found is None:
        faces = {(model.tile_names[4 * f], model.tile_seasons[4 * f]): f
                 for f in range(len(model.tile_names) // 4)}
        found = (model.lookalikes.index(), faces)
        cache.pair_lookup = found  # type: ignore[attr-defined]
    return found


def _clipped_shares(view: np.ndarray, hot: np.ndarray, washed: np.ndarray,
                    centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per square, the share of pixels with a clipped colour channel (``hot``, at the fine
    view's size) and with all three clipped (``washed``: nothing can be read there)."""
    half = CELL_PX // 2
    sat, white = np.zeros(len(centres)), np.zeros(len(centres))
    for where, arr in ((hot, sat), (washed, white)):
        small = cv2.resize(where, (view.shape[1], view.shape[0]),
                           interpolation=cv2.INTER_AREA)
        arr[:] = [small[int(cy) - half:int(cy) + half, int(cx) - half:int(cx) + half].mean()
                  for cx, cy in centres]
    return sat, white


def _clipped_where_they_differ(tset: Templates, hot: np.ndarray,
                               tiles: list[tuple[Fit, Fit]], at: np.ndarray,
                               angle: np.ndarray, tside: float) -> np.ndarray:
    """Per square, the share of the tile's pixels with a clipped colour, weighted by how
    much its best two faces differ there. An over-exposed photo clips the paper round the
    prints, which tells no two faces apart; a clipped leaf or fruit does, and only then is
    more margin asked for."""
    patches = cut_many(hot, at * FINE, -angle, tside, TILE_PATCH)
    out = np.zeros(len(tiles))
    shape = (TILE_PATCH, TILE_PATCH, 3)
    for i, ((_, j1, _), (_, j2, _)) in enumerate(tiles):
        weight = squared_difference(tset.full[j1].reshape(shape), tset.full[j2].reshape(shape))
        total = float(weight.sum())
        if total > 1e-12:
            out[i] = float((weight * patches[i]).sum() / total)
    return out


EMPTY_SIDE = CELL_PX * 0.8  # the middle of a square compared with the bare board (working px)


def _view_origin(board: BoardModel) -> tuple[float, float]:
    """Where the rectified view's top-left corner lies in the enrolled working board (px)."""
    g = board.grid
    return (g.left * CELL_PX / g.cell - PAD * CELL_PX, g.top * CELL_PX / g.cell - PAD * CELL_PX)


def _empty_distances(cache: Cache, board: BoardModel, view: np.ndarray,
                     centres: np.ndarray) -> np.ndarray:
    """Each square's distance to the bare board's same square (enrolled), under haze."""
    zero = np.zeros(len(centres))
    vecs = describe(cut_many(view.astype(np.float32), centres, zero, EMPTY_SIDE, EMPTY_PATCH))
    key = id(board)
    if key not in cache.empty:
        off = np.array(_view_origin(board))
        cache.empty[key] = describe(cut_many(board.working.astype(np.float32), centres + off,
                                             zero, EMPTY_SIDE, EMPTY_PATCH))
    return hazy_pairs(vecs, cache.empty[key])


def board_window(board: BoardModel, view: np.ndarray) -> np.ndarray:
    """The enrolled board's window matching the rectified ``view`` (smaller where the view
    reaches past the enrolled image)."""
    ox, oy = (round(v) for v in _view_origin(board))
    return board.working[oy:oy + view.shape[0], ox:ox + view.shape[1]]


def _border(board: BoardModel, view: np.ndarray, gray: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """The enrolled board's window matching the rectified ``view`` (``gray``: the same in
    grey), and the strip of border round the grid (inside the photo) where nothing lies:
    what blur and light are measured on."""
    ref = board_window(board, view)
    strip = np.ones(view.shape[:2], bool)
    inset = round(PAD * CELL_PX) - 2
    strip[inset:-inset, inset:-inset] = False
    strip &= gray > 0  # inside the photo (black outside)
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
                angle: np.ndarray, tside: float, washed: np.ndarray | None = None
                ) -> tuple[list[tuple[Fit, Fit]], list[tuple[int, list[str]]], np.ndarray]:
    """Each square's best two tile faces: a shortlist of names from small patches, then
    every face of those names; the close calls (square, its best RERANKED names) that
    deserve a closer look, with every square ``washed`` out by glare (WASHED_LOOK); and the
    patches compared (a row a square, as the templates)."""
    vecs = describe(cut_many(smooth, at * FINE, -angle, tside, TILE_PATCH))
    coarse = hazy_distances(coarse_patches(vecs, TILE_PATCH), tset.coarse,
                            sums=tset.coarse_sums)
    by_name = np.minimum.reduceat(coarse[:, cache.order], cache.starts, axis=1)
    short = np.argsort(by_name, axis=1)[:, :SHORTLIST]
    # every shortlisted name's faces, compared with all the squares that ask for it at once
    near, _ = tset.near_names(cache, vecs[:, None, :], short)
    tiles: list[tuple[Fit, Fit]] = []
    close: list[tuple[int, list[str]]] = []
    for i in range(len(vecs)):
        d = near[i, 0]
        per: list[Fit] = []
        start = 0
        for k in short[i]:
            c = cache.by_name[k]
            block = d[start:start + len(c)]
            j = int(np.argmin(block))
            per.append((float(block[j]), int(c[j]), cache.names[k]))
            start += len(c)
        per.sort()
        gap = template_gap(tset.full, per[0][1], per[1][1])
        if (per[1][0] - per[0][0] < REFINE_BELOW * gap
                or misfit_z(per[0][0], per[1][0], gap) < REFINE_Z
                or (washed is not None and bool(washed[i]))):
            close.append((i, [p[2] for p in per[:RERANKED]]))
        tiles.append((per[0], per[1]))
    return tiles, close, vecs


def _rerank(cache: Cache, tset: Templates, smooth: np.ndarray, tiles: list[tuple[Fit, Fit]],
            close: list[tuple[int, list[str]]], at: np.ndarray, angle: np.ndarray,
            tside: float, bare: np.ndarray,
            more: Callable[[int, list[Fit]], list[Fit]] | None = None) -> list[Ask]:
    """Close calls looked at again (see :mod:`close_calls`), first each name's best small
    shift (``tiles`` is updated with the new best two); returns what :func:`_closer_look`
    is to look at. Squares too ``bare`` of structure to hold a tile (often half the board,
    every tile fitting them about as badly) are not looked at closer: no tile is named
    there. ``more(square, names)``, when given, adds faces for the closer look to compare
    (LEAF_SIBLINGS)."""
    if not close:
        return []
    # every shift (close_calls.SHIFTS: small moves and turns round where the tile was
    # found) of every close square cut and described in one go, into one array
    rows = [i for i, _ in close]
    centres = (at[rows] * FINE)[:, None, :] + np.array([(dx, dy) for dx, dy, _ in SHIFTS],
                                                        np.float64)
    turns = -angle[rows][:, None] + np.array([da for _, _, da in SHIFTS], np.float64)
    vecs = describe(cut_many(smooth, centres.reshape(-1, 2), turns.reshape(-1), tside,
                             TILE_PATCH)).reshape(len(close), len(SHIFTS), -1)
    asks = []
    reranked = rerank_all(tset, cache, vecs, [names for _, names in close])
    for (i, names), per in zip(close, reranked, strict=True):
        # the first look names among its own best few: the more names shifted, the likelier
        # one fits a shifted patch by chance
        own = [p for p in per if p[2] in names[:LOOKED_AT]]
        tiles[i] = (own[0], own[1])
        if not bare[i]:
            looked = per[:LOOKED_AT]
            asks.append((i, (at[i] * FINE, -angle[i],
                             looked if more is None else more(i, looked))))
    return asks


#: On a square brighter than LEAF_LIGHT times the photo's tiles' usual light (a patch of glare,
#: a bright spot of the light), a close call's closer look also compares the best face's leaf
#: siblings (the same creature, fruit, season and turn on each other leaf): a glare spot
#: veils a dark leaf towards the light one of its colour, and the first look then ranks only
#: faces of the light leaf (two fruits of it), so the true face is never compared and the
#: three judges agree on a wrong leaf. Hard photos (seed 9000) of tuning families 8060-8064,
#: 1-8, 8000-8004, 8035, 8036, 8066, 8068 and 8069 (6a07594's tree): 13 of the 24 wrong
#: squares were a leaf, 10 of them a dark leaf (oak, horse-chestnut) named as a light one
#: (beech, maple) at 1.2-1.7 times the usual light, with the true face in neither look's
#: best names. With reader.SIBLING_RIVAL, reader.GLARE_LEAF_DOUBT,
#: close_calls.PLACE_BY_RANKED and round_robin.NOISE_GUARD, those photos (184, one refused)
#: read 24 / 1,067 / 63 -> 16 / 1,080 / 61 wrong / uncertain / exactly right, no square
#: wrong that was not before (8 leaves fixed: 3 named right, 5 doubted); normal photos of
#: 8060-8064, 1, 8035, 8036 (8 + 2 each) 7 / 130 / 44 -> 7 / 133 / 42, the same squares
#: wrong. Without round_robin.NOISE_GUARD (the four leaf switches alone) the hard ones read
#: 24 / 1,067 / 63 -> 17 / 1,076 / 62, no new wrong square either (7 leaves: 3 named right,
#: 4 doubted). Siblings on every close call (LEAF_LIGHT 0) made three fruit doubts wrong
#: names.
#: Built and **off** (the five switches together, not adopted): fresh 8085-8089 (never run
#: before; 76a8390's tree, then it with the five on, side by side, the same models) hard
#: 4 / 258 / 12 -> 4 / 251 / 12 wrong / uncertain / exactly right, but one square wrong
#: that was not (8085 1 -> 0, 8086 0 -> 1); normal 2 / 156 / 99 -> 2 / 169 / 97.
#: **On** since 6 December 2026 (art in the rulebook's colours, where a tile's whole print
#: is its leaf's colour, and close_calls.LIT_VEIL), the four leaf switches together (this,
#: reader.SIBLING_RIVAL, reader.GLARE_LEAF_DOUBT, close_calls.PLACE_BY_RANKED), off -> on,
#: the same models: tuning 1-8 and 41-48 normal 4 / 21 / 394 -> 2 / 23 / 393 (two dark
#: prints on bright squares read as the light leaf: one named right, one doubted; a right
#: name doubted), hard 10 / 191 / 68 -> 8 / 197 / 68; held out normal 1 / 13 / 116 either
#: way, hard 2 / 37 / 27 -> 2 / 36 / 28; fresh 8337-8341 (never run before) normal 1 / 11 /
#: 120 -> 1 / 12 / 119, hard 8 / 29 / 23 -> 7 / 29 / 22. No family of any set read a square
#: more wrong.
LEAF_SIBLINGS = True
LEAF_LIGHT = 1.15


#: A square's colours fit a counter's far better than the bare board's when its colour
#: distance to the best counter is under TINT_COUNTER of the board's (:func:`colours_say_counter`).
#: Tuning families 1-8 and 41-56 (8 photos of a 7x7 board and 3 of an 8x8 each, normal and
#: hard): the four counters read as empty, sure (green on green boards, under glare or in
#: shade), stood at 0.18-0.55; no bare square of the 516 whose colours were measured came
#: under 0.89 (normal photos: 1.32).
TINT_COUNTER = 0.7


def colours_say_counter(tint: tuple[float, float] | None) -> bool:
    """Whether a counter's colours fit the square far better than the bare board's
    (``tint``: their colour distances, :attr:`Evidence.tint`; TINT_COUNTER), whatever its
    outline and print show: reader.TINT_DOUBT and shaded_bare leave such a square in doubt."""
    return tint is not None and tint[0] < TINT_COUNTER * tint[1]


def usual_tile_light(ev: Evidence, readings: Sequence[Any], least: int = 1) -> float | None:
    """The photo's usual tile light: the median brightness (``ev.bright``) of the squares
    ``readings`` (row-major, as ``ev``) read as tiles; None when unmeasured or fewer than
    ``least`` are. The light the glare, shade and veil steps measure a square against."""
    if ev.bright is None:
        return None
    lit = [float(ev.bright[k]) for k, r in enumerate(readings) if r.kind == "tile"]
    return float(np.median(lit)) if lit and len(lit) >= least else None


def _usual_tiles(structure: np.ndarray, tiles: list[tuple[Fit, Fit]],
                 empty: np.ndarray) -> np.ndarray | None:
    """The squares that give the usual tile's light: those with a tile's structure that a
    tile face fits better than the bare board (the tiles before any is named, as
    reader._doubt_glare_lit counts them after); None when too few."""
    tiled = ~(structure < BARE_STRUCTURE) & (np.array([t[0][0] for t in tiles]) < empty)
    return tiled if tiled.sum() >= 5 else None


def _over_usual_tile(light: np.ndarray | None, tiled: np.ndarray | None
                     ) -> np.ndarray | None:
    """Each square's ``light`` (its brightness, or its peak light) over the usual tile's
    (the median over the squares ``tiled``, :func:`_usual_tiles`); None when unmeasured or
    too few tiles."""
    if light is None or tiled is None:
        return None
    return light / max(float(np.median(light[tiled])), 1e-6)


#: The share of a square's pixels at or above its peak light (:func:`_peak_light`).
PEAK_SHARE = 0.05


def _peak_light(gray: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Per square, the light of its brightest paper (the PEAK_SHARE quantile of the grey
    view over the whole square): a glare spot on a tile's corner brightens it though it
    misses the middle whose brightness :func:`_brightness` measures."""
    half = CELL_PX // 2
    h, w = gray.shape
    windows = [gray[max(0, y - half):min(h, y + half), max(0, x - half):min(w, x + half)]
               for x, y in centres.astype(int)]
    if all(win.shape == (2 * half, 2 * half) for win in windows):  # the usual case, at once
        return np.quantile(np.stack(windows).reshape(len(windows), -1), 1.0 - PEAK_SHARE,
                           axis=1).astype(np.float64)
    return np.array([np.quantile(win, 1.0 - PEAK_SHARE) if win.size else 0.0
                     for win in windows], np.float64)


def faces_by_name(model: Model) -> dict[tuple[str, str, int], int]:
    """The model's template numbers by (name, season, turn)."""
    return {(n, s, int(t)): j for j, (n, s, t) in enumerate(
        zip(model.tile_names, model.tile_seasons, model.tile_turns, strict=True))}


def other_leaves(name: str) -> list[str]:
    """Tile ``name`` (creature/fruit/leaf) on each other leaf: its leaf siblings, which a
    patch of glare can pass it off as; none for a name not so made."""
    parts = name.split("/")
    if len(parts) != 3:
        return []
    return [f"{parts[0]}/{parts[1]}/{leaf}" for leaf in LEAVES if leaf != parts[2]]


def _leaf_siblings(model: Model, lit: np.ndarray | None
                   ) -> Callable[[int, list[Fit]], list[Fit]] | None:
    """What a close call on a ``lit`` square adds to the names its closer look compares:
    the best face's leaf siblings at its season and turn, each once (distance inf: ranked
    last)."""
    if lit is None or not lit.any():
        return None
    where = faces_by_name(model)

    def more(i: int, ranked: list[Fit]) -> list[Fit]:
        if not lit[i] or not ranked:
            return ranked
        _, j, name = ranked[0]
        have = {n for _, _, n in ranked}
        extra = []
        for sibling in other_leaves(name):
            k = where.get((sibling, model.tile_seasons[j], int(model.tile_turns[j])))
            if sibling not in have and k is not None:
                extra.append((float("inf"), k, sibling))
        return ranked + extra
    return more


#: A close call to look at closer: its square, and where the tile lies (fine px), at what
#: angle, with which ranked names.
Ask = tuple[int, tuple[np.ndarray, float, list[Fit]]]


def _closer_look(model: Model, cache: Cache, detailed: Callable[[], np.ndarray] | None,
                 tiles: list[tuple[Fit, Fit]], asks: list[Ask], tside: float,
                 blur: Blur, veils: np.ndarray | None = None) -> dict[int, Look | None]:
    """The close calls ``asks`` (from :func:`_rerank`) at full detail, with the faces
    blurred as the photo is, motion and all (see :mod:`close_calls`), on the fine view
    smoothed by DETAIL_SMOOTH (``detailed`` gives it); ``veils``: each square's
    close_calls.veil_bounds."""
    if not asks or detailed is None:
        return {}
    answers = closer_looks(model, cache, detailed(), [ask for _, ask in asks], tside,
                           blur.scaled(FINE * DETAIL / tside),
                           None if veils is None else [float(veils[i]) for i, _ in asks])
    # the refitted look only confirms the first look's name (close_calls.LOCAL_CONFIRM)
    return {i: confirmed(look, tiles[i][0][2])
            for (i, _), look in zip(asks, answers, strict=True)}


#: Threads a scan may run work on beside its own (0: none, all on the caller's thread, each
#: part done when first needed). Parts that need nothing of each other, whose work is mostly
#: in OpenCV calls (which let go of Python's lock), run there: where tiles lie (pose_search)
#: while the blur, light and structure are measured, and where counters lie while the close
#: calls are looked at closer (the closer look's smoothing of the fine view ran there too
#: until it was made only when needed, see gather). The closer
#: look itself and the counters' placing, mostly numpy on small arrays, hold Python's lock
#: too often to gain anything side by side (their wall time together was their sum). The
#: work and its results are the same either way: each part reads what it is given and
#: writes nothing shared (a test reads every bundled photo both ways). Measured on the
#: SAMPLE photos (each photo's least wall time of 12 runs, 0 and 1 alternately, the
#: machine's other work at a lower priority): 247 -> 223 ms a scan with OpenCV's own
#: threads (291 -> 295 ms of CPU), 274 -> 246 ms with OpenCV on one thread (273 -> 271).
THREADS = 1
_POOL: ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _beside(work: Callable[..., T], *args: Any) -> Callable[[], T]:
    """Start ``work(*args)`` on a thread of the scan's own (THREADS), or, when there is
    none, do it when first asked for; returns what gives its result (raising what it
    raised)."""
    global _POOL
    if THREADS <= 0:
        done: list[T] = []
        given = [args]  # let go once done: the arrays it was given need not outlive it

        def result() -> T:
            if not done:
                done.append(work(*given.pop()))
            return done[0]

        return result
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="glade-scan")
    return _POOL.submit(work, *args).result


@dataclass(frozen=True)
class CounterSearch:
    """Where counters are looked for (:func:`_counter_search`): the squares, the counter
    faces at the photo's blur, their colours under its light (None: unmeasured), and a
    counter patch's side (fine px)."""

    idx: np.ndarray
    faces: CounterFaces
    colours: CounterColours | None
    side: float


def _counter_search(model: Model, cache: Cache, view: np.ndarray, smooth: np.ndarray,
                    ref: np.ndarray, strip: np.ndarray, centres: np.ndarray, idx: np.ndarray,
                    blur: Blur, bare_looking: np.ndarray, gain: np.ndarray | None = None
                    ) -> CounterSearch | None:
    """Where to look for counters: each square ``idx``, and each square ``bare_looking``
    where one may hide (:func:`counters.may_hide_a_counter`); with the counter faces blurred
    by ``blur`` and their colours under the light measured on the border (``gain``, when
    already known). None when there is nothing to look for."""
    if not len(model.counter_templates):
        return None
    cside = counter_side(model.counter_size) * COUNTER_INSET * FINE
    faces = blurred_counters(model, cache, blur.scaled(FINE * COUNTER_PATCH / cside))
    colours = CounterColours.measure(faces.colours, view, ref, strip, cside / FINE,
                                     disc_mask(), gain=gain)
    if colours is not None and len(bare_looking):
        hide = may_hide_a_counter(colours, smooth, centres[bare_looking], cside)
        idx = np.sort(np.concatenate([idx, bare_looking[hide]]))
    if not len(idx):
        return None
    return CounterSearch(idx, faces, colours, cside)


def _counters(model: Model, smooth: np.ndarray, centres: np.ndarray,
              search: CounterSearch | None,
              placed: Callable[[], tuple[np.ndarray, np.ndarray, np.ndarray]] | None
              ) -> tuple[dict[int, CounterFit], dict[int, tuple[float, float]], np.ndarray]:
    """The best counter on each square of ``search`` (:func:`_counter_search`): found by
    its round outline (``placed`` gives :func:`pose_search`'s answer there), placed where
    its colours stand out most from the board's, named by its colours under the light
    measured on the border (by shape when the light cannot be measured), single or double
    by shape. Also the colour distances (best counter, bare board) and the outline's
    clarity per square."""
    counters: dict[int, CounterFit] = {}
    tint: dict[int, tuple[float, float]] = {}
    disc = np.zeros(len(centres))
    if search is None or placed is None:
        return counters, tint, disc
    idx, faces, colours, cside = search.idx, search.faces, search.colours, search.side
    score, at, _ = placed()
    at = counters_placed(faces.shapes, smooth, at, centres[idx], cside, colours,
                         reach=COUNTER_SEARCH * CELL_PX)
    patches = cut_many(smooth, at * FINE, np.zeros(len(idx)), cside, COUNTER_PATCH)
    # whether a counter lies there: its shape and shading, as for tiles
    vecs = describe(patches, plane=False, where=disc_mask())
    per, names, _ = best_per_name(distances(vecs, faces.shapes), model.counter_names)
    by_colour = None if colours is None else counter_colours(model, colours, patches, at)
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


