"""Squares in doubt between the bare board and a tile, settled by their colours (issue #20).

Every look that compares a square with the bare board and the tile faces first divides the
patch by its own light (a plane per colour fitted to its paper), so that shade, glare and a
colour cast cancel. That division also cancels the paper's own colour: a bare square whose
board print is faint and a tile whose print glare has veiled are both flat, and the looks
leave them in doubt ("empty, or a tile veiled by glare?", "tile or empty?", a tie of two
look-alike faces on a shaded bare square). A person tells them apart at a glance, by colour:
the board's green is not the tile's paper.

So a square in such a doubt is compared in its true colours, freed of the photo's light as
measured on the board's border (counter_colour.board_light), with the bare board's own image
there and with the best two tile faces the first look placed there, each as the photo would
show it: lit by a plane of light and veiled by a plane of glare over the square (two planes
shared by the three colours, fitted in closed form; a glare spot's soft edge and a shadow's
are smooth). Only the middle of the square is compared (SIDE of it), which a tile covers
wherever it lies in its square, and all three are smoothed alike (SMOOTH, working px)
against a pixel of misplacement. Where the bare board's colours fit at least RATIO times as
closely as the nearer tile face's (THICK_RATIO under a veil thicker than MAX_VEIL, up to
THICK_VEIL), the square is the bare board: read empty, sure
(``distances["bare_colours"]``, the log10 of the two misfits' ratio). A light and a veil
that turn a tile's paper into the board's colour exactly would need a cast the border does not
show.

A tile read surely on a close call of kind (its face fitting hardly better than the bare
board's looks: SURE_KIND) is so checked too: the looks that judged it divide the paper's
colour out as well, and a bare square with faint print can pass for a sparsely printed face.

The other way, a doubt whose bare board fits far worse than the nearer face is left a
doubt here, the ratio kept (``distances["board_over_tile"]``): the colours say a tile lies
there, not which, and :mod:`outlined_print` names it only where a closer look did so
clearly.

Only doubts between the bare board and tiles are so settled; a doubt a counter is part of, or
a square whose colours fit a counter far better than the bare board's
(evidence.colours_say_counter), is left as it is, as is every square of a photo whose light
could not be measured.

How it was measured, and what it settles there: see RATIO.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np

from companion.the_glade.recognition.enrol import tile_side
from companion.the_glade.recognition.evidence import (
    Evidence,
    board_window,
    colours_say_counter,
)
from companion.the_glade.recognition.model import CELL_PX, BoardModel, Model

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: The switch (``--set bare_colours.BARE_COLOURS=False`` in the benchmarks).
BARE_COLOURS = True
#: How many times as closely the bare board's colours must fit as the nearer face's. On the
#: tuning data of 2026-12-06 (hard photos of families 1-8 and 41-56, normal ones of 1-8; 8
#: photos of a 7x7 board each; 12,000 squares, the counters of families 1-8 left out) the bare
#: squares read surely fitted the board up to 6,000 times as closely as the nearer face (median
#: 130; 99% over 6.6 times); the tiles read surely fitted the nearer face up to 400 times as
#: closely as the board (median 13; a few under glare fitted both alike, the board at most 1.5
#: times as closely); the counters fitted both alike (within 3.8 times). Of the 59 bare squares
#: in a doubt between the board and tiles, 42 passed at 8 with the veil and light below; of the
#: tiles and counters, sure or in doubt, none (the nearest: a tile in a "tile or empty?" doubt
#: at 2.8 times under a veil of 0.48; under thicker veils, tiles came to 7 times).
RATIO = 8.0
#: ... while the bare board's fit needs no more glare than this over its middle (in units of
#: the board's light: 1.0 veils it as white paper) and at least this much light on the board
#: (a fit that all but drops the board's colours, or inverts them, says nothing of them).
MAX_VEIL = 0.5
MIN_LIGHT = 0.2
#: Under a thicker veil, up to THICK_VEIL, the board's colours must fit THICK_RATIO times as
#: closely. Hard tuning photos (families 1-8, 41-44, 8 each; 2026-12-06 07:45): 7 of the 20
#: bare squares in such doubts were left, 3 of them under a veil of 0.56-0.83 at 24-69
#: times (tuning hard 1-8: 1 / 96 / 37 -> 1 / 95 / 37); no tile or counter anywhere passed
#: (the nearest tile under a thick veil: 3 times, veil 0.9; last session's wider sample: 7
#: times). None (off): MAX_VEIL alone.
THICK_VEIL: float | None = 1.0
THICK_RATIO = 20.0
SIDE = 0.6
SMOOTH = 1.5
#: The doubts settled so (reader.DOUBTS): each may be a bare square the looks could not tell
#: from a tile.
DOUBTS = frozenset({"veiled", "bare-like", "which-kind", "look-alike", "unmatched"})
#: A tile read surely whose face's distance is at least this share of the bare board's
#: (``distances["tile"]`` over ``["empty"]``) is checked as those doubts are. Game family 7344
#: (issue #25, a whole game's forest photo): a bare square with faint print read surely as a
#: tile at 0.34 (z 0.16), and a game's total was printed wrong; its colours fit the board
#: 45 times as closely as the face, under no veil (0.03) and light 0.65. The sure tiles of
#: that photo fitted the face 2.6-11 times as closely as the board (their shares 0.02-0.63),
#: and on the tuning data of RATIO no sure tile fitted the board more than 1.5 times as
#: closely. None (off): only doubts are checked.
SURE_KIND: float | None = 0.1


def settle(model: Model, ev: Evidence, readings: list[SquareReading], view: np.ndarray,
           board: BoardModel) -> list[SquareReading]:
    """``readings`` (row-major, judged from ``ev`` on the rectified ``view`` of ``board``)
    with each doubt between the bare board and tiles whose colours are the bare board's
    (see the module's text) read empty, in place; returned for chaining."""
    if not BARE_COLOURS or not len(model.tile_faces):
        return readings
    judged = {k for k, r in enumerate(readings) if _between_board_and_tiles(model, ev, k, r)}
    named = {k for k, r in enumerate(readings) if _named_tile_or_board(model, r)}
    if not judged | named:
        return readings
    measured = true_light(ev, view, board)
    if measured is None:
        return readings
    ref, light = measured
    for k in sorted(judged | named):
        fit = board_over_tile(model, ev, k, view, ref, light)
        if fit is None:
            continue
        ratio, bare = fit
        r = readings[k]
        if r.kind == "uncertain":  # what the colours said, for outlined_print's colour route
            r.distances["board_over_tile"] = round(ratio, 3)
        if k not in judged or not _bare(ratio, bare):
            continue
        centre = (float(ev.centres[k][0]), float(ev.centres[k][1]))
        r.settled_bare(1.0 - ratio * RATIO, centre, "bare_colours")
        r.distances["bare_colours"] = round(math.log10(max(ratio, 1e-9)), 2)
    return readings


def _bare(ratio: float, fit: LitFit) -> bool:
    """Whether the bare board's colours, fitting ``ratio`` times as closely as the nearer
    face's (the misfits' ratio) under ``fit``'s light and veil, say the square is bare."""
    if fit.light < MIN_LIGHT:
        return False
    if fit.veil <= MAX_VEIL:
        return ratio * RATIO <= 1.0
    return THICK_VEIL is not None and fit.veil <= THICK_VEIL and ratio * THICK_RATIO <= 1.0


def _named_tile_or_board(model: Model, r: SquareReading) -> bool:
    """Whether ``r`` is a "tile or empty?" doubt on a named tile (reader's bare-like),
    whose colours outlined_print's colour route asks for, even where a counter's colours fit
    better than the bare board's (no counter fitted that well beside a tile's face: see
    outlined_print.TILE_COLOURS)."""
    return r.kind == "uncertain" and r.doubt == "bare-like" and r.name in model.tile_names


def _between_board_and_tiles(model: Model, ev: Evidence, k: int, r: SquareReading) -> bool:
    """Whether square ``k``'s doubt is one between the bare board and tiles only, or it is
    a tile read surely on a close call of kind (SURE_KIND)."""
    if r.kind == "tile":
        return (SURE_KIND is not None
                and r.distances.get("tile", 0.0) >= SURE_KIND * r.distances.get("empty", 1.0)
                and not colours_say_counter(ev.tint.get(k)))
    if r.doubt not in DOUBTS or colours_say_counter(ev.tint.get(k)):
        return False
    if r.candidates and not set(r.candidates) <= set(model.tile_names):
        return False  # two counters
    kinds = {kind: r.distances[kind] for kind in ("empty", "tile", "counter")
             if kind in r.distances}
    return "counter" not in sorted(kinds, key=kinds.get)[:2]


class LitFit(NamedTuple):
    """How a face fits a patch under a plane of light and a plane of glare
    (:func:`lit_fit`)."""

    misfit: float  # mean squared
    light: float   # the light's plane at the patch's middle (1.0: as on the border)
    veil: float    # the glare's plane there (1.0: as bright as white paper on the border)


def board_over_tile(model: Model, ev: Evidence, k: int, view: np.ndarray, ref: np.ndarray,
                    light: np.ndarray) -> tuple[float, LitFit] | None:
    """How closely the bare board's colours fit square ``k`` over how closely the nearer of
    its best two tile faces' do, each lit and veiled as the photo best shows it (``light``:
    per colour, what frees the view of the photo's light), and the bare board's fit; None
    when the square's middle is not wholly in the view."""
    side = round(SIDE * CELL_PX)
    cx, cy = ev.centres[k]
    photo = middle(view, cx, cy, side)
    board = middle(ref, cx, cy, side)
    if photo is None or board is None:
        return None
    photo *= light[None, None, :]
    board /= 255.0
    misfits = []
    fside = tile_side(model.tile_size)
    tx, ty = ev.tile_at[k]
    face_centre = (fside - 1) / 2
    for _, j, _ in ev.tiles[k]:
        cut = middle(face_at_turn(model, j), face_centre + cx - tx, face_centre + cy - ty,
                     side)
        if cut is not None:
            misfits.append(lit_fit(photo, cut / 255.0).misfit)
    if not misfits:
        return None
    bare = lit_fit(photo, board)
    return bare.misfit / max(min(misfits), 1e-12), bare


def true_light(ev: Evidence, view: np.ndarray, board: BoardModel
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """The enrolled ``board``'s window matching the rectified ``view``, and per colour what
    frees the view of the photo's light as the board's border measured it (``ev.light``;
    the view times it is in the pack's colours, 0..1); None where the light was not
    measured."""
    ref = board_window(board, view)
    if ref.shape != view.shape or ev.light is None:
        return None
    return ref, 1.0 / (255.0 * np.maximum(ev.light, 1e-3))


def face_at_turn(model: Model, j: int) -> np.ndarray:
    """Tile template ``j``'s face as the pack draws it, at the working view's tile size and
    turned as the template is (BGR uint8)."""
    side = round(tile_side(model.tile_size))
    face = cv2.resize(model.tile_faces[j // 4], (side, side), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(np.rot90(face, -int(model.tile_turns[j])))


def window(image: np.ndarray, x: float, y: float, side: int) -> np.ndarray | None:
    """The ``side``-px square of ``image`` centred on (``x``, ``y``), as it is (a view, not
    a copy); None where it is not wholly inside."""
    x0, y0 = round(x) - side // 2, round(y) - side // 2
    if x0 < 0 or y0 < 0 or x0 + side > image.shape[1] or y0 + side > image.shape[0]:
        return None
    return image[y0:y0 + side, x0:x0 + side]


def middle(image: np.ndarray, x: float, y: float, side: int,
           smooth: float = SMOOTH) -> np.ndarray | None:
    """The ``side``-px square of ``image`` centred on (``x``, ``y``), smoothed (``smooth``,
    px), in float32; None where it is not wholly inside."""
    cut = window(image, x, y, side)
    return None if cut is None else cv2.GaussianBlur(cut.astype(np.float32), (0, 0), smooth)


def lit_fit(photo: np.ndarray, face: np.ndarray) -> LitFit:
    """How ``face`` (s, s, 3) fits ``photo`` (the same shape) lit by a plane of light and
    veiled by a plane of glare, both shared by the three colours, fitted by least
    squares."""
    s = photo.shape[0]
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s - 0.5
    x = np.repeat(xx[..., None], 3, axis=2).ravel()
    y = np.repeat(yy[..., None], 3, axis=2).ravel()
    f = face.ravel()
    design = np.stack([f, f * x, f * y, np.ones_like(f), x, y], axis=1)
    target = photo.ravel()
    coef, *_ = np.linalg.lstsq(design, target, rcond=None)
    return LitFit(float(np.mean((target - design @ coef) ** 2)), float(coef[0]),
                  float(coef[3]))


def lit_fits(photos: np.ndarray, faces: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                             np.ndarray]:
    """:func:`lit_fit` of each of ``faces`` (n, s, s, 3) to the photo beside it in
    ``photos`` (the same shape), at once: the misfits, lights and veils (each n). Solved by
    the normal equations in float64, their sums taken over the pixels once for all, for the
    many fits of a whole board; a face no plane of light tells from the veil (flat) gets
    lit_fit's least-norm fit, not an error."""
    n, s = faces.shape[0], faces.shape[1]
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float64) / s - 0.5
    x = np.repeat(xx[..., None], 3, axis=2).ravel()
    y = np.repeat(yy[..., None], 3, axis=2).ravel()
    one = np.ones_like(x)
    moments = np.stack([one, x, y, x * x, x * y, y * y], axis=1)  # pixels x 6
    f = faces.reshape(n, -1).astype(np.float64)
    t = photos.reshape(n, -1).astype(np.float64)
    ff, f1, p1 = (f * f) @ moments, f @ moments, moments.sum(axis=0)
    # the design's columns f, f x, f y, 1, x, y as (powers of f, x, y): each entry of its
    # Gram matrix is a moment of the pixels, weighted by f squared, f or nothing
    cols = ((1, 0, 0), (1, 1, 0), (1, 0, 1), (0, 0, 0), (0, 1, 0), (0, 0, 1))
    moment = {(0, 0): 0, (1, 0): 1, (0, 1): 2, (2, 0): 3, (1, 1): 4, (0, 2): 5}
    by_f = (np.broadcast_to(p1, (n, 6)), f1, ff)
    gram = np.stack([np.stack([by_f[a[0] + b[0]][:, moment[(a[1] + b[1], a[2] + b[2])]]
                               for b in cols], axis=1) for a in cols], axis=1)
    ft, tt = (f * t) @ moments[:, :3], t @ moments[:, :3]
    right = np.concatenate([ft, tt], axis=1)[..., None]  # n x 6 x 1
    # the least-norm solution, as lit_fit's lstsq gives: a flat face (every colour alike)
    # makes the light's columns the veil's, and the Gram matrix singular
    coef = np.linalg.pinv(gram) @ right
    misfit = (np.einsum("ij,ij->i", t, t) - (coef * right).sum(axis=(1, 2))) / t.shape[1]
    return np.maximum(misfit, 0.0), coef[:, 0, 0], coef[:, 3, 0]
