"""The sunlight phase: grow, and use each sunlit glass card's bonus, in any order.

One use of a glass card is its whole bonus, performed at once (each bonus step is optional,
"up to"): the card flips back to dark as the bonus begins, so growing an adjacent succulent
afterwards (or during, if a bonus grows one) re-activates it. Growing cannot be interleaved
within one card's bonus, only between uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.glass_garden.actions import UseGlass

if TYPE_CHECKING:
    from companion.glass_garden.game import State


def glass_actions(state: State) -> list[UseGlass]:
    return [UseGlass(g) for g in range(6)
            if state.garden.is_sunlit(g) and state.deck.glass[g].bonus]


def use_glass(state: State, action: UseGlass) -> State:
    from companion.glass_garden.game import Pending

    steps = tuple(Pending(s, 8 + action.glass) for s in state.deck.glass[action.glass].bonus)
    return state.changed(garden=state.garden.light(action.glass, on=False),
                         pending=steps + state.pending)
