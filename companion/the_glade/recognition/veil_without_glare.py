"""Bare squares doubted as "a tile veiled by glare" where no glare lies (issue #20).

The first look doubts a square it reads as empty when it may be a tile washed out by glare
(reader's ``veiled`` doubt: "empty, or a tile veiled by glare?"): the square stands bright
against the bare board's light as the photo's shading model predicts it, and shows some
print and part of a tile's outline. That light is measured against the bare board, and on a
dim, unevenly lit hard photo the model's prediction runs low across whole stretches of the
board: bare squares there pass for glare-lit although they are no brighter than the photo's
tiles. A tile veiled by glare is bright against the tiles themselves, since the glare is what
veils it. So a veiled doubt on a square lit under LIGHT times the photo's tiles' usual light
(:func:`evidence.usual_tile_light`), where the bare board fits clearly better than the best
tile face (its misfit under RATIO of the face's), is the bare board: read empty
(``distances["unglared_veil"]``).

Measured on tuning families 1-8 and 41-56 (hard photos: 8 of a 7x7 and 3 of an 8x8 board
each, seed 9000, 261 read; normal: 8 of a 7x7, 192): of the 74 veiled doubts, 45 were bare
squares and 29 tiles. The bare squares lit under 1.15 of the tiles' light whose board
misfit is under 0.8 of the face's: 20, and no tile (the tiles so doubted lit 1.11 with
the board fitting no better than the face (0.98 of it), the rest 1.29 and more).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.the_glade.recognition.evidence import Evidence, usual_tile_light

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: The switch (``--set veil_without_glare.UNGLARED_VEIL=False`` in the benchmarks).
UNGLARED_VEIL = True
LIGHT = 1.15
RATIO = 0.8


def settle(ev: Evidence, readings: list[SquareReading]) -> list[SquareReading]:
    """``readings`` (row-major, judged from ``ev``) with each veiled doubt where no glare
    lies (see the module's text) read empty, in place; returned for chaining."""
    usual = usual_tile_light(ev, readings) if UNGLARED_VEIL else None
    if usual is None or usual <= 0:
        return readings
    assert ev.bright is not None  # measured, as the usual light is
    for k, r in enumerate(readings):
        if r.doubt != "veiled":
            continue
        empty, tile = float(ev.empty[k]), float(ev.tiles[k][0][0])
        if float(ev.bright[k]) / usual < LIGHT and empty < RATIO * tile:
            centre = (float(ev.centres[k][0]), float(ev.centres[k][1]))
            r.settled_bare(1.0 - empty / (RATIO * tile), centre, "unglared_veil")
    return readings
