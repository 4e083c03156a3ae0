"""Small decks and positions for Glass Garden tests (not the sample deck)."""

from __future__ import annotations

from typing import Any

from companion.glass_garden.deck import GLASS_POSITIONS, Deck, parse_deck
from companion.glass_garden.game import State, Table
from companion.glass_garden.garden import Garden

NAMES = ("A", "B", "C", "D", "E", "F", "G", "H")


def plant(name: str, upper: list[str] | None = None, lower: list[str] | None = None,
          cost: str = "box", effect: list[Any] | None = None) -> dict[str, Any]:
    return {"name": name, "upper": upper or [], "lower": lower or [], "cost": cost,
            "effect": effect or []}


def make_deck(plants: dict[int, dict[str, Any]] | None = None,
              critters: list[dict[str, Any]] | None = None,
              glass: dict[str, Any] | None = None) -> Deck:
    rows = [plant(n) for n in NAMES]
    for i, p in (plants or {}).items():
        rows[i] = p
    critters = critters or [critter("Still", [], [])]
    glass_map = {pos: {"name": pos, "bonus": [{"move": {}}]} for pos in GLASS_POSITIONS}
    glass_map.update(glass or {})
    return parse_deck({"name": "test", "plants": rows, "critters": critters,
                       "glass": glass_map})


def critter(name: str, front: list[dict[str, Any]], back: list[dict[str, Any]],
            back_arrow: str = "left") -> dict[str, Any]:
    return {"name": name, "sides": [{"arrow": "right", "damage": front},
                                    {"arrow": back_arrow, "damage": back}]}


def state(deck: Deck, text: str, *, turn: int = 1, phase: str = "actions",
          actions_left: int = 2, glass: int = 0, side: int | None = None,
          critter_name: str | None = None) -> State:
    garden = Garden.parse(text, glass=glass, critter_side=(turn - 1) % 2 if side is None else side)
    crit = deck.critter(critter_name) if critter_name else deck.critters[0]
    return State(Table(deck, crit), garden, turn, phase, actions_left)
