"""A tile under glare or in shade whose leaf the looks could not tell, named by its true
colours (issue #20).

Each art family draws two leaves of one colour, a light and a dark one. The looks compare a
tile with its faces after dividing the patch by its own light and allow a veil of glare up
to a cap, so under a bright patch a dark leaf veiled beyond the cap looks like the light one
within it; such names are doubted ("glare on the tile: X, or another leaf?",
veiled_leaves.py and reader._doubt_glare_lit), and so are close calls in deep shade.

Here the doubt's face and its leaf siblings (the same creature and fruit, season and turn,
on each other leaf) are compared with the tile in their true colours, freed of the light
measured on the board's border, each lit by a plane of light and veiled by a plane of glare
shared by the three colours and with no cap (bare_colours.lit_fit): what every sibling
prints alike (the paper, the rim, the season mark; the creature too in art that prints it
in an ink of its own, which the rulebook's copies do not: there the creature and fruit take
the leaf's colour) fixes the light and the veil, and the leaf's colour is then what
differs. The tile's printed face (inset as the looks cut it) is compared where
the first look placed it. The doubt is named the sibling that fits at least RATIO times as
closely as every other, under a veil of at most MAX_VEIL (``distances["leaf_colours"]``:
the ratio).

It judges the leaf only: the creature and fruit are the name's, as the looks gave them. A
doubt whose creature or fruit is wrong has no right sibling, and its best sibling fits
hardly better than the rest (see RATIO).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.the_glade.recognition.bare_colours import (
    LitFit,
    face_at_turn,
    lit_fit,
    middle,
    true_light,
)
from companion.the_glade.recognition.enrol import tile_side
from companion.the_glade.recognition.evidence import Evidence, faces_by_name, other_leaves
from companion.the_glade.recognition.model import TILE_INSET, BoardModel, Model

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: The switch (``--set leaf_colours.LEAF_COLOURS=False`` in the benchmarks).
LEAF_COLOURS = True
#: How many times as closely the named sibling must fit as every other. On the glare- and
#: shade-lit doubts left at the end of the scan on hard tuning photos (families 1-8 and
#: 41-56, seed 9000, 8 photos of a 7x7 board each: 43 doubts) the best sibling was the
#: truth in all 11 where it fitted 1.4 times as closely as the next (1.44-2.30); in the 11
#: where it was not (the looks' creature or fruit wrong, or siblings fitting alike) it
#: fitted at most 1.28 times as closely. Normal tuning photos held 6 such doubts, none at
#: 1.4.
RATIO = 1.4
#: ... under a veil of at most white paper's (in units of the board's light), where the
#: colours are still worth reading.
MAX_VEIL = 1.0
SMOOTH = 1.0
#: The doubts so judged (reader.DOUBTS).
DOUBTS = frozenset({"glare-lit", "shade-lit"})


def settle(model: Model, ev: Evidence, readings: list[SquareReading], view: np.ndarray,
           board: BoardModel) -> list[SquareReading]:
    """``readings`` (row-major, judged from ``ev`` on the rectified ``view`` of ``board``)
    with each glare- or shade-lit doubt whose leaf its true colours tell (see the module's
    text) named, in place; returned for chaining."""
    if not LEAF_COLOURS or not len(model.tile_faces):
        return readings
    asked = [k for k, r in enumerate(readings) if r.kind == "uncertain" and r.doubt in DOUBTS
             and r.name and r.season is not None and r.turn is not None]
    if not asked:
        return readings
    measured = true_light(ev, view, board)
    if measured is None:
        return readings
    light = measured[1]
    faces = faces_by_name(model)
    for k in asked:
        r = readings[k]
        assert r.name is not None and r.season is not None and r.turn is not None
        fits = sibling_fits(model, faces, view, ev.tile_at[k], light, r.name, r.season,
                            r.turn)
        if len(fits) < 2:
            continue
        ranked = sorted(fits.items(), key=lambda kv: kv[1].misfit)
        (best, fit), (_, second) = ranked[0], ranked[1]
        ratio = second.misfit / max(fit.misfit, 1e-12)
        if ratio < RATIO or fit.veil > MAX_VEIL:
            continue
        r.settled(best)
        r.confidence = 1.0 - 1.0 / ratio
        r.distances["leaf_colours"] = round(ratio, 3)
    return readings


def sibling_fits(model: Model, faces: dict[tuple[str, str, int], int], view: np.ndarray,
                 at: np.ndarray, light: np.ndarray, name: str, season: str, turn: int
                 ) -> dict[str, LitFit]:
    """How tile ``name`` and each of its leaf siblings (at ``season`` and ``turn``) fit the
    tile's printed face in ``view`` centred at ``at`` (working px), in true colours
    (``light``: per colour, what frees the view of the photo's light): bare_colours.LitFit
    by name; empty when the face is not wholly in the view."""
    fside = tile_side(model.tile_size)
    side = round(fside * TILE_INSET) // 2 * 2
    cut = middle(view, float(at[0]), float(at[1]), side, SMOOTH)
    if cut is None:
        return {}
    photo = cut * light[None, None, :]
    out: dict[str, LitFit] = {}
    for candidate in [name, *other_leaves(name)]:
        j = faces.get((candidate, season, turn))
        if j is None:
            continue
        face = face_at_turn(model, j)
        m = (face.shape[0] - side) // 2
        printed = cv2.GaussianBlur(face[m:m + side, m:m + side].astype(np.float32), (0, 0),
                                   SMOOTH) / 255.0
        if printed.shape == photo.shape:
            out[candidate] = lit_fit(photo, printed)
    return out
