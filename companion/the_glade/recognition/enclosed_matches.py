"""Match counters played into enclosures (issue #25, the matching game): "match counters can
be played into enclosures, and are worth 1 additional point at the end of the game".

The forest reader knows the pack's tiles and toadstool counters; a match counter on a square
fits none of them and is left a doubt, taken for a toadstool counter of its colours (on
tuning families 41-60, 17 of 214) or, rarely, read bare (a leaf counter in a tuning game: a
wrong total as certain). Where the glade model holds the match counters' faces, each square
not read as a tile (in doubt, a toadstool counter or bare) that lies in an enclosure (its
four neighbours read surely as tiles: a counter lies only there) is compared with every
counter face at any angle, as a counter in a store is (:mod:`glade_polar`, the photo's light
measured on the board's border divided out): it is named when a match counter's face fits
closely (MAX_FIT), clearly better than every other face, toadstool ones included (MARGIN),
and shows a counter's drawing (MAX_SHAPE). The scan lists it under ``forest.match_counters``
(a field added to the spec's), no longer as uncertain, a toadstool counter or bare. Nothing
in the basic game lies there: :mod:`companion.the_glade.photo_game` keeps such a square a
doubt in the basic game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.errors import StateError
from companion.the_glade.doubt_entries import no_longer_in_doubt
from companion.the_glade.names import Square
from companion.the_glade.recognition.glade_model import WORK_COUNTER, GladeModel
from companion.the_glade.recognition.glade_polar import prepare
from companion.vision.board import rectify

#: A match counter is named when its face fits within MAX_FIT, by a margin of MARGIN over
#: the next face ((d2 - d1) / (d1 + d2)): the store's rule for a counter that fits closely
#: (store.CLOSE_FIT, CLOSE_MARGIN); its drawing (colours aside) within MAX_SHAPE. On the
#: squares of tuning matching games (families 41, 43, 44 and 48, 104 squares looked at) the
#: toadstool counters there fitted their own faces with drawings up to 0.49 and bare squares
#: at 0.96 and more; 7 match counters were doubts with 0.15 and 0.4 (margins 0.105-0.139, or
#: drawings 0.415-0.534), each its best face, and none named wrong with 0.10 and 0.6.
MAX_FIT = 0.2
MARGIN = 0.10
MAX_SHAPE = 0.6
#: The square's view reaches this share of a square past its edges (the centre is sought
#: round the square's middle).
PAD = 0.25


def enclosed_squares(data: dict[str, Any]) -> list[str]:
    """The squares of a forest scan's ``data`` not read as a tile (in doubt, read as a
    toadstool counter, or read bare) whose four neighbours are read surely as tiles."""
    forest = data.get("forest") or {}
    tiles = forest.get("tiles") or {}
    board = data.get("board") or {}
    every = [Square(r, c).name for r in range(int(board.get("rows", 0)))
             for c in range(int(board.get("cols", 0)))]  # the bare ones among them
    out = []
    for label in dict.fromkeys([*(str(u) for u in data.get("uncertain") or ()),
                                *sorted(forest.get("counters") or {}), *every]):
        try:
            square = Square.parse(label)
        except StateError:
            continue
        if square.name not in tiles and all(
                n.row >= 0 and n.col >= 0 and n.name in tiles for n in square.neighbours()):
            out.append(square.name)
    return out


def read_enclosed_matches(glade: GladeModel, model: Any, reading: Any, photo: np.ndarray,
                          data: dict[str, Any], gain: np.ndarray
                          ) -> dict[str, dict[str, Any]]:
    """The match counters named on the enclosed squares in doubt of the forest scan
    ``data`` (``reading``'s result, of ``photo``): square -> its fields (kind, icon,
    value). ``gain``: the photo's light (:func:`store.light_gain`)."""
    if not glade.has_matches:
        return {}
    squares = enclosed_squares(data)
    if not squares:
        return {}
    g = reading.board.grid
    hm = reading.located.homography
    counter_px = model.counter_size * g.cell
    scale = WORK_COUNTER / counter_px
    found = {}
    for label in squares:
        sq = Square.parse(label)
        x0, y0 = g.left + sq.col * g.cell, g.top + sq.row * g.cell
        pad = PAD * g.cell
        box = (x0 - pad, y0 - pad, x0 + g.cell + pad, y0 + g.cell + pad)
        _view, fine = rectify(photo, hm, scale, box, 2)
        centre = 2 * (g.cell / 2 + pad) * scale + 0.5
        f = glade.polar.match(prepare(fine, gain), (centre, centre))
        order = np.argsort(f.distances)
        d1, d2 = float(f.distances[order[0]]), float(f.distances[order[1]])
        best = int(order[0])
        match = glade.face_matches[best]
        if (match is not None and d1 <= MAX_FIT
                and (d2 - d1) / max(d1 + d2, 1e-9) >= MARGIN
                and float(f.shapes[best]) <= MAX_SHAPE):
            found[label] = dict(match)
    return found


def put_matches(data: dict[str, Any], found: dict[str, dict[str, Any]]) -> None:
    """The forest scan ``data`` with the match counters ``found`` read: each square under
    ``forest.match_counters``, no longer uncertain (nor in ``candidates``, ``reasons``,
    ``doubts``) nor a toadstool counter."""
    if not found:
        return
    forest = data.setdefault("forest", {})
    forest["match_counters"] = {**(forest.get("match_counters") or {}), **found}
    if isinstance(forest.get("counters"), dict):
        forest["counters"] = {k: v for k, v in forest["counters"].items() if k not in found}
    no_longer_in_doubt(data, found)


def add_enclosed_matches(glade: GladeModel | None, model: Any, reading: Any,
                         photo: np.ndarray, data: dict[str, Any],
                         gain: np.ndarray | None = None) -> None:
    """The forest scan ``data`` with the match counters read in its enclosures put in
    (:func:`read_enclosed_matches`, :func:`put_matches`); unchanged without a glade model
    that holds match counters. ``gain``: the photo's light as the store was read in
    (:attr:`store.StoreReading.gain`); measured here when not given."""
    from companion.the_glade.recognition.store import border_views, light_gain

    if glade is None or not glade.has_matches or not enclosed_squares(data):
        return
    if gain is None:
        board = reading.board
        gain = light_gain(*border_views(photo, reading.located.homography, board.grid,
                                        board.finder.size, board.working))
    put_matches(data, read_enclosed_matches(glade, model, reading, photo, data, gain))
