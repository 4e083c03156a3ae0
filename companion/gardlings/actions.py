"""Gardlings' actions and rule codes: small frozen values, each with a one-line form.

Every action but the bag's names its seat (building is simultaneous: the seat says whose
garden). ``str()`` gives a line for logs and the terminal game:

>>> str(Draw(0)), str(Buy(1, "blue-2"))
('0: draw', '1: buy blue-2')
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.interface import NOT_NOW
from companion.gardlings.garden import Placement

#: Every code a refusal of Gardlings carries, with its meaning.
CODES: tuple[tuple[str, str], ...] = (
    ("stopped", "an alarm (or stopping) ended this garden's building"),
    ("alarm", "the tile sets off the gnome alarm: it is not placed"),
    ("not-unicorn", "only a unicorn's tile may move"),
    ("overlap", "the tile would lie on a tile already there"),
    ("not-touching", "the tile touches the garden on no side"),
    ("edge", "touching halves do not match"),
    ("split", "the move cuts the garden in pieces"),
    ("not-drawn", "the tile is not the one drawn"),
    ("first-cell", "the engine lays a garden's first tile at [0, 0] (any cell is legal at "
                   "the table: a garden has no fixed place)"),
    ("not-in-bag", "the tile is not in the seat's bag"),
    ("empty-bag", "the bag is empty"),
    ("fits", "the drawn tile fits somewhere and must be placed"),
    ("no-redraw", "the second draw is not available"),
    ("cannot-afford", "gems and coins do not reach the stack's cost"),
    ("empty-stack", "the stack has no tile left"),
    ("no-piglets", "the piglet stack is empty"),
    ("must-mutate", "a lucky piglet must mutate first"),
    ("no-mutation", "no such mutation"),
    ("not-your-turn", "another seat hires now"),
    (NOT_NOW, "not an action of this moment"),
)
VIOLATION_CODES: frozenset[str] = frozenset(code for code, _m in CODES)


# --- actions -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Draw:
    seat: int

    def __str__(self) -> str:
        return f"{self.seat}: draw"


@dataclass(frozen=True)
class Drawn:
    """The chance outcome: the tile ``tile`` comes out of seat ``seat``'s bag."""

    seat: int
    tile: str

    def __str__(self) -> str:
        return f"{self.seat}: drew {self.tile}"


@dataclass(frozen=True)
class Place:
    seat: int
    placement: Placement

    def __str__(self) -> str:
        p = self.placement
        return f"{self.seat}: place {p.tile} at {list(p.cell)} turned {p.rotation}"


@dataclass(frozen=True)
class Move:
    seat: int
    placement: Placement

    def __str__(self) -> str:
        p = self.placement
        return f"{self.seat}: move unicorn {p.tile} to {list(p.cell)} turned {p.rotation}"


@dataclass(frozen=True)
class Stop:
    seat: int

    def __str__(self) -> str:
        return f"{self.seat}: stop"


@dataclass(frozen=True)
class Redraw:
    """Use the second-draw mission: draw again, the tile in hand goes back afterwards."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}: second draw"


@dataclass(frozen=True)
class Accept:
    """Accept the alarm (or that the tile fits nowhere) instead of a second draw."""

    seat: int

    def __str__(self) -> str:
        return f"{self.seat}: accept"


@dataclass(frozen=True)
class Buy:
    seat: int
    stack: str

    def __str__(self) -> str:
        return f"{self.seat}: buy {self.stack}"


@dataclass(frozen=True)
class TakePiglet:
    seat: int

    def __str__(self) -> str:
        return f"{self.seat}: take a lucky piglet and a coin"


@dataclass(frozen=True)
class Pass:
    seat: int

    def __str__(self) -> str:
        return f"{self.seat}: hire nobody"


@dataclass(frozen=True)
class Mutate:
    seat: int
    back: str
    stack: str

    def __str__(self) -> str:
        return f"{self.seat}: mutate a {self.back} lucky piglet, take from {self.stack}"


Action = Draw | Drawn | Place | Move | Stop | Redraw | Accept | Buy | TakePiglet | Pass | Mutate
ACTION_TYPES = (Draw, Drawn, Place, Move, Stop, Redraw, Accept, Buy, TakePiglet, Pass, Mutate)


__all__ = ["ACTION_TYPES", "CODES", "NOT_NOW", "VIOLATION_CODES", "Accept", "Action", "Buy",
           "Draw", "Drawn", "Move", "Mutate", "Pass", "Place", "Redraw", "Stop",
           "TakePiglet"]
