"""The critter: its face-up side, shift arrow, and advance.

The setup side (``sides[0]``, right arrow) is face up on turn 1; the critter flips after every
dark turn's advance, so the setup side shows on odd turns. The ninth turn has no advance (and
so no flip): the sunlight phase keeps the ninth turn's side, which matters to any succulent
effect that shifts in the arrow's direction. A ``flip_critter`` effect flips it at once.
"""

from __future__ import annotations

from companion.glass_garden.deck import Critter, CritterSide
from companion.glass_garden.garden import Garden

DARK_TURNS = 9


def side_up(critter: Critter, garden: Garden) -> CritterSide:
    return critter.sides[garden.critter_side]


def arrow(critter: Critter, garden: Garden) -> int:
    """+1 when the face-up side shows the right arrow, -1 for the left arrow."""
    return 1 if side_up(critter, garden).arrow == "right" else -1


def expected_side(turn: int) -> int:
    """The side up at the start of ``turn`` (1-9; 10 = sunlight) when nothing flipped it."""
    return (min(turn, DARK_TURNS) - 1) % 2


def advance(garden: Garden, turn: int) -> Garden:
    """Step 4 of a dark turn: shift right and flip, except on the ninth turn."""
    if turn >= DARK_TURNS:
        return garden
    return garden.advance_critter()
