"""Bare squares in shade that the first look took for two look-alike tiles (issue #20).

Deep in a shadow the bare board and a dimmed tile face are both dark and smooth, and a bare
square can fit two look-alike faces about as well as it fits the board: the first look names
a tile, the two faces tie, and the square is left a look-alike doubt ("looks like A or B")
that no later step can settle, since neither face is there. A tile brings its print: its
fine structure (structure.py's measure, 1.0 the faintest tile face's) stays high in shade,
and its best face fits it far better than the bare board does. So a look-alike doubt
between two tiles on a square showing under STRUCTURE of print, whose best face misfits it
at least RATIO of the bare board's misfit, and not lit brighter than LIGHT times the photo's
tiles (glare flattens a tile's print too: those are left to the glare steps), where no
counter fits better than the bare board (a counter's print is faint too) and the bare board
fits it fairly (BARE_FIT), is the bare board: read empty, sure (``distances["shaded_bare"]``).
So is a doubt between a tile and the bare board ("tile or empty?") on such a square deep in
shade (WHICH_KIND, SHADE), and either doubt deep in shade on a square with a little more print
that the bare board fits closely (CLOSE_STRUCTURE, CLOSE_FIT). A square whose colours fit a
counter's far better than the bare board's (evidence.colours_say_counter) is left in doubt:
a green counter on a green board in shade shows as little print as the bare board (tuning
family 46, photo 1 of an 8x8 board, D2: 0.41 of print, its colours 0.18 of the board's
distance, was read bare by this step).

Measured on hard photos of tuning families 1-8 (legible art, seed 9000, 64 photos, 3,136
squares): 31 of the 189 doubts were bare squares doubted so, showing 0.21-1.07 of print
(median 0.44) with their best face at 0.43-1.0 of the board's misfit (median 0.82); of the
tiles, none read right showed under 0.62 of print, and the five look-alike doubts under 0.6
were lit 1.38-1.8 times the photo's tiles (glare). On normal photos of families 1-8 and 41-48
(128 photos) no bare square was such a doubt and no tile showed under 0.65 of print.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.the_glade.recognition.evidence import (
    Evidence,
    colours_say_counter,
    usual_tile_light,
)

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

SHADED_BARE = True
STRUCTURE = 0.6
RATIO = 0.6
LIGHT = 1.1
#: The same for a doubt between a tile and the bare board ("tile or empty?", which-kind)
#: in shade (under SHADE of the photo's tiles' light): on the hard photos above 18 of them
#: were bare squares (print 0.21-1.13, light 0.16-0.62), the tiles so doubted showed 2.75 of
#: print or more, and the counters so doubted (three, one on a normal photo) 0.20-1.09 of
#: print but lit 0.67-1.3.
WHICH_KIND = True
SHADE = 0.65
#: The bare board must fit the square under this misfit (ten times reader.BARE_MISFIT): on
#: hard photos of tuning families 1-8 and 41-48 the step read 36 squares bare, 35 rightly
#: (the bare board misfitting 0.003-0.096, and one at 0.142) and one a tile in shade that
#: neither the board nor any face fitted (0.136 and 0.134: family 43, photo 4, E5, a dark
#: leaf); where nothing fits, the square shows what the look could not place.
BARE_FIT = 0.1
#: Either doubt on a square in shade (under SHADE) showing more print, up to CLOSE_STRUCTURE,
#: is bare too when the bare board fits it closely (under CLOSE_FIT). On hard photos of tuning
#: families 1-8 and 41-56 (8 of a 7x7 and 3 of an 8x8 board each) and normal ones of the same
#: families (8 of a 7x7): 16 "tile or empty?" doubts in shade were bare squares showing
#: 0.60-1.13 of print, 11 of them with the board misfitting under 0.012; 6 look-alike doubts
#: in shade so; of the 894 tiles in shade, those showing under 0.9 of print misfitted the
#: board by 0.025 or more (the least misfit of any tile in shade 0.0052, at 1.01 of print).
#: Fresh 8172-8176 (hard, 130 photos; the "tile or empty?" doubts only): one doubt fewer.
CLOSE_STRUCTURE = 0.9
CLOSE_FIT = 0.012


def settle(ev: Evidence, readings: list[SquareReading]) -> list[SquareReading]:
    """``readings`` (row-major, judged from ``ev``) with each look-alike or "tile or
    empty?" doubt on a bare square in shade (see the module's text) read empty, in place;
    returned for chaining. A square whose print is unmeasured (nan) is left as it is."""
    usual = usual_tile_light(ev, readings) if SHADED_BARE else None
    if usual is None:
        return readings
    assert ev.bright is not None  # measured, as the usual light is
    for k, r in enumerate(readings):
        lookalike = r.lookalike_doubt and all("/" in c for c in r.candidates)
        if not (lookalike or (WHICH_KIND and r.doubt == "which-kind")):
            continue
        structure, empty = float(ev.structure[k]), float(ev.empty[k])
        tile = float(ev.tiles[k][0][0])
        counter = r.distances.get("counter", float("inf"))  # as judged: a round outline there
        light = float(ev.bright[k]) / usual
        faint = structure < STRUCTURE or (
            structure < CLOSE_STRUCTURE and empty < CLOSE_FIT and light < SHADE)
        if (faint and tile >= RATIO * empty and counter >= empty
                and not colours_say_counter(ev.tint.get(k))
                and empty < BARE_FIT and light < (LIGHT if lookalike else SHADE)):
            centre = (float(ev.centres[k][0]), float(ev.centres[k][1]))
            r.settled_bare(1.0 - structure / STRUCTURE, centre, "shaded_bare")
    return readings
