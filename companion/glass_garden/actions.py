"""Everything a player (or an effect) can choose, as small readable values.

Plants are deck numbers (0-7), glass cards positions (0-2 left top to bottom, 3-5 right).
``Move.dy`` is -1 for up and +1 for down; ``Shift.steps`` is signed (+ right, - left).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.glass_garden.deck import GLASS_POSITIONS, Deck


@dataclass(frozen=True, slots=True)
class Shift:
    plant: int
    steps: int


@dataclass(frozen=True, slots=True)
class Move:
    plant: int
    dy: int


#: Each plant's moves, made once for the search's hot paths (values: equal to any made
#: anew): ``MOVES[plant][dy]``, dy -1 (up) or 1 (down)
MOVES: tuple[dict[int, Move], ...] = tuple({dy: Move(p, dy) for dy in (-1, 1)}
                                           for p in range(8))


@dataclass(frozen=True, slots=True)
class Grow:
    """Grow ``plant``; ``paid`` are the resource ids of its set (empty when an effect grows
    it without paying)."""

    plant: int
    paid: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class UseGlass:
    glass: int


@dataclass(frozen=True, slots=True)
class FlipGlass:
    glass: int


@dataclass(frozen=True, slots=True)
class Protect:
    plant: int


@dataclass(frozen=True, slots=True)
class FlipCritter:
    pass


@dataclass(frozen=True, slots=True)
class Skip:
    """Decline an optional ("may") step."""


@dataclass(frozen=True, slots=True)
class Done:
    """End the actions step, the growing step, or the sunlight phase."""


Action = Shift | Move | Grow | UseGlass | FlipGlass | Protect | FlipCritter | Skip | Done


def describe(action: Action, deck: Deck) -> str:
    """Words for people, e.g. ``shift Aloe 2 right``."""
    from companion.glass_garden.fertile_zone import describe_resource


    def name(p: int) -> str:
        return deck.plants[p].name

    match action:
        case Shift(plant, steps):
            return f"shift {name(plant)} {abs(steps)} {'right' if steps > 0 else 'left'}"
        case Move(plant, dy):
            return f"move {name(plant)} {'up' if dy < 0 else 'down'}"
        case Grow(plant, paid) if paid:
            what = deck.plants[plant].cost if deck.plants[plant].cost != "any" else "3 of a kind"
            cols = ", ".join(describe_resource(deck, r).rsplit(" ", 2)[0] for r in paid)
            return f"grow {name(plant)} (pay {what}: {cols})"
        case Grow(plant, _):
            return f"grow {name(plant)} without paying"
        case UseGlass(g):
            return f"use glass {GLASS_POSITIONS[g]} ({deck.glass[g].name})"
        case FlipGlass(g):
            return f"flip glass {GLASS_POSITIONS[g]} to sunlight"
        case Protect(plant):
            return f"protect {name(plant)}"
        case FlipCritter():
            return "flip the critter"
        case Skip():
            return "skip (optional step)"
        case _:
            return "done"
