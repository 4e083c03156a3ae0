"""Step 2: growing succulents.

A plant grows when a set of 3 identical active resources pays its cost (see
:mod:`fertile_zone`). Then: (1) it flips to its succulent side, (2) if it is an edge plant next
to a dark glass card, that glass flips to sunlight, (3) its effect is performed (mandatory).

Rulings: growing is optional (the step says "grow any number"); a resource pays for at most
one plant in one growing step (the sunlight phase counts as one step), but resources are never
spent, so they pay again on a later turn; a plant may lend its own resources to its own set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import StateError
from companion.glass_garden.actions import Grow
from companion.glass_garden.fertile_zone import payable_kinds, payments, payments_for

if TYPE_CHECKING:
    from companion.glass_garden.game import State


def grow_actions(state: State) -> list[Grow]:
    """Every (plant, set) that could grow now."""
    garden = state.garden
    deck = state.deck
    soil = [p for p in range(8) if not garden.grown >> p & 1]
    if not soil:
        return []
    # a quick count first: spent resources only take sets away, so no kind payable when
    # none is spent means no set at all
    kinds = payable_kinds(deck, garden)
    if not any(deck.plants[p].cost in kinds or (kinds and deck.plants[p].cost == "any")
               for p in soil):
        return []
    table = payments(deck, garden, state.used)
    if not table:
        return []
    return [Grow(p, pay) for p in soil
            for pay in payments_for(state.deck, state.deck.plants[p].cost, table)]


def grow_plant(state: State, plant: int) -> State:
    """Flip ``plant``, light its adjacent dark glass, and queue its effect."""
    from companion.glass_garden.game import Pending

    if state.garden.is_grown(plant):
        raise StateError(f"{state.deck.plants[plant].name} has already grown")
    garden = state.garden.grow(plant)
    glass = garden.adjacent_glass(plant)
    if glass is not None and not garden.is_sunlit(glass):
        garden = garden.light(glass)
    steps = tuple(Pending(s, plant) for s in state.deck.plants[plant].effect)
    return state.changed(garden=garden, pending=steps + state.pending)


def grow_paid(state: State, action: Grow) -> State:
    return grow_plant(state.changed(used=state.used | frozenset(action.paid)), action.plant)
