"""Tiles doubted as "tile or empty?" where the tile's outline and print plainly show (issue #20).

The first look doubts a tile whose best face misfits the square more than half as much as
the bare board does (reader.BARE_LIKE: "tile or empty?"), because in deep shade a bare square
can fit a dimmed face that nearly: there the name is a guess. On normal photos the same doubt
falls mostly on tiles a shadow's edge or a soft blur crosses: the face misfits, but the square
shows a tile's clear square outline and its print, in the photo's usual light. The bare board
shows neither, and what no face fits well is left to the other doubts. So a "tile or empty?"
doubt on a tile square showing an outline of at least OUTLINE (reader.TILE_OUTLINE: no bare
square shows one), print of at least PRINT (structure.py's measure, 1.0 the faintest tile
face's), lit at least LIGHT times the photo's tiles' usual light (not in shade, where the
names were wrong) and with its best face fitting under reader.MAX_DISTANCE keeps the name the
looks gave it (``distances["outlined_print"]``).

Measured on tuning families 1-8 and 41-56 (8 photos of a 7x7 board and 3 of an 8x8 each,
seed 9000, normal and hard) and 8172-8191 (normal, 20 + 6 each): 69 tiles and no bare square
were "tile or empty?" doubts; of the 13 showing that outline, print and light, all 13 were
named right (9 of the 16 on normal photos), while the hard photos' five wrong names among
such doubts lay in shade (0.35-0.51 of the tiles' light) or showed an outline under 0.7.
Off -> on, the same photos: tuning normal 22 -> 20 doubts, hard 559 -> 555, 8172-8191 normal
66 -> 60, every square so named right and no square wrong that was not.

The nearer tie of the first look, "tile or empty?" as a which-kind doubt (the bare board
fitting within reader.EMPTY_TILE_RATIO of the face), is settled so too (WHICH_KIND) only
where the light tells tile from board as well: the photo's tiles lie at least APART from
the bare board's light (``ev.bright``: 1 on bare board) and the square at least SIDE of the
way from the board's light to theirs. Family 8189's bare squares show a tile's outline
(0.6-0.75) and print (up to 1.85) at 0.6 of its tiles' light, but at most 0.34 of the way
to it; family 8204's pale tiles on a dark board, doubted so in plain light (seen
8172-8206, normal: 3 of 11 doubts on 8204's 26 photos), lay 0.68-1.2 of the way. The light
alone is a weak witness: of 6,941 bare squares of 8172-8206 (normal, 8 + 2 photos each,
their tiles APART), 199 lay half the way or more, none of them with the outline and print.

A tile's outline is not the only sign of a tile: its colours are another. Where the square's
true colours fit the bare board far worse than a tile face (bare_colours.py measures it for
every such doubt), a tile lies there whatever its outline or misfit, and a clear closer look
names it (TILE_COLOURS).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.the_glade.recognition.evidence import Evidence, usual_tile_light

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: The switch (``--set outlined_print.OUTLINED_PRINT=False`` in the benchmarks).
OUTLINED_PRINT = True
OUTLINE = 0.7
PRINT = 1.0
LIGHT = 0.65
WHICH_KIND = True
APART = 0.3
SIDE = 0.5
#: A bare-like doubt whose outline is fainter than OUTLINE (down to FAINT_OUTLINE) keeps its
#: name where both looks named it and the closer look at least CLEAR clearly (its margin over
#: its noise: ``distances["detail_clearness"]``), the other rules as above. Seen on the doubts
#: of tuning families 1-8 and 41-48 (20 normal photos of a 7x7 board and 6 of an 8x8 each, 8
#: hard of a 7x7) and 8167-8186 (the same counts): of 50 bare-like doubts on tiles (a closer
#: look had judged each), the 14 wrong names' closer looks came to at most 2.09 (a hard photo,
#: in shade) and 1.98 outside shade, while 14 of the 36 right ones came over 2.5 (all but two
#: of them in shade, their two looks naming different faces, or no face fitting under
#: MAX_DISTANCE: left as before); soft patches of light crossing a tile lower its outline to
#: 0.52-0.66 where the print is plain. Off -> on, the same models (wrong / uncertain / boards
#: exactly right): 8167-8186 normal 0 / 47 / 481 -> 0 / 46 / 482, hard 16 / 230 / 86 ->
#: 16 / 229 / 86 (each settled to its true name); tuning the same. None: off.
CLEAR: float | None = 2.5
FAINT_OUTLINE = 0.5
#: The colour route: a bare-like doubt whose true colours fit the bare board at least
#: TILE_COLOURS times worse than the nearer of its best two faces (bare_colours.py's
#: ``distances["board_over_tile"]``) holds a tile, whatever its outline or misfit; it keeps
#: its name where the closer look named it at least CLEAR clearly (agreeing with the first
#: look or not), its print showing and its light as above. Tuning photos (2026-12-07;
#: families 8167-8186, normal 20 photos of a 7x7 board and 6 of an 8x8 each, hard 8 of a
#: 7x7), every square of the photos holding such doubts: no bare square fitted its board
#: worse than 0.43 times the face (normal) or 0.94 (hard), no counter worse than 1.47; of the
#: 17 bare-like doubts on tiles at 4 or more, the 4 wrong names had closer looks under CLEAR
#: (0.65-1.76) or lay in shade (one at 2.67, 0.37 of the tiles' light), while 7 of the 13
#: right ones (3 in the usual light) came over it. None: off.
TILE_COLOURS: float | None = 4.0


def settle(ev: Evidence, readings: list[SquareReading], max_distance: float
           ) -> list[SquareReading]:
    """``readings`` (row-major, judged from ``ev``) with each "tile or empty?" doubt on a
    square showing a tile's outline and print in the photo's usual light (see the module's
    text) named as the looks named it, in place; returned for chaining. ``max_distance``:
    the misfit over which no face fits (reader.MAX_DISTANCE)."""
    usual = usual_tile_light(ev, readings) if OUTLINED_PRINT else None
    if usual is None or usual <= 0:
        return readings
    assert ev.bright is not None  # measured, as the usual light is
    for k, r in enumerate(readings):
        if not _tile_or_empty_doubt(r, float(ev.bright[k]), usual):
            continue
        tile, empty = float(ev.tiles[k][0][0]), float(ev.empty[k])
        outline = float(ev.outline[k])
        clearly = (CLEAR is not None and r.doubt == "bare-like"
                   and r.distances.get("detail_clearness", 0.0) >= CLEAR)
        clear = clearly and outline >= FAINT_OUTLINE and r.distances.get("agree") == 1.0
        coloured = (clearly and TILE_COLOURS is not None
                    and r.distances.get("board_over_tile", 0.0) >= TILE_COLOURS)
        plain = (outline >= OUTLINE or clear) and tile <= max_distance
        if ((plain or coloured) and bool(ev.structure[k] >= PRINT)
                and float(ev.bright[k]) / usual >= LIGHT):
            r.settled(r.name)
            r.confidence = max(0.0, 1.0 - tile / max(empty, 1e-9))
            r.distances["outlined_print"] = 1.0 if plain else 2.0  # 2: the colours' route
    return readings


def _tile_or_empty_doubt(r: SquareReading, bright: float, usual: float) -> bool:
    """Whether ``r`` is a "tile or empty?" doubt this step judges: the bare-like one on a
    named tile (a square read as empty showing print is "bare-like" too, unnamed), or with
    WHICH_KIND the nearer tie where the square (lit ``bright``) is lit as the photo's tiles
    (``usual``)."""
    if not (r.kind == "uncertain" and r.name is not None):
        return False
    return r.doubt == "bare-like" or (WHICH_KIND and _tile_or_empty(r)
                                      and _lit_as_tiles(bright, usual))


def _tile_or_empty(r: SquareReading) -> bool:
    """Whether ``r`` is a which-kind doubt between a tile (named) and the bare board, not a
    counter: no counter fits it, or the bare board fits better than one."""
    counter, empty = r.distances.get("counter"), r.distances.get("empty")
    return (r.doubt == "which-kind" and empty is not None
            and (counter is None or counter > empty))


def _lit_as_tiles(bright: float, usual: float) -> bool:
    """Whether a square lit ``bright`` (over the bare board) lies on the tiles' side of the
    way from the bare board's light (1) to the photo's tiles' (``usual``), those APART."""
    return abs(usual - 1.0) >= APART and (bright - 1.0) / (usual - 1.0) >= SIDE
