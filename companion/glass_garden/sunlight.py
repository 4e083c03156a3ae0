"""The sunlight phase: grow, and use each sunlit glass card's bonus, in any order.

One use of a glass card is its whole bonus, performed at once (each bonus step is optional,
"up to"). The rulebook: "After using each Glass Card's bonus actions, flip it back to its dark
side". So the card stays sunlit while its bonus steps are done and flips to dark when the last
of them has been done or skipped (:func:`after_step`). It matters when a bonus grows a plant:
an edge plant grown next to the card in use does not light it (it is sunlit then), and the card
still flips to dark at the end of the bonus; growing an adjacent succulent *after* the use
re-activates it, as the rulebook's note says. (The project used to flip the card as its bonus
began, which let a bonus that grows an adjacent edge plant light its own card again.) A plant
grown by the bonus's last step has grown when the card flips; its effect comes after. Growing
cannot be interleaved within one card's bonus, only between uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.glass_garden.actions import Action, UseGlass

if TYPE_CHECKING:
    from companion.glass_garden.game import State

#: ``Pending.source`` of a glass card's bonus step: this plus the card's position
GLASS_SOURCE = 8


def glass_actions(state: State) -> list[UseGlass]:
    return [UseGlass(g) for g in range(6)
            if state.garden.is_sunlit(g) and state.deck.glass[g].bonus]


def use_glass(state: State, action: UseGlass) -> State:
    """Begin a card's bonus: its steps go first in the queue; the card stays sunlit until
    they are done (see :func:`after_step`)."""
    from companion.glass_garden.game import Pending

    steps = tuple(Pending(s, GLASS_SOURCE + action.glass)
                  for s in state.deck.glass[action.glass].bonus)
    return state.changed(pending=steps + state.pending)


def in_use(state: State) -> int:
    """Bit mask of the glass cards whose bonus is under way (a step of it still to do)."""
    mask = 0
    for q in state.pending:
        if q.source >= GLASS_SOURCE:
            mask |= 1 << (q.source - GLASS_SOURCE)
    return mask


def after_step(before: State, action: Action, after: State) -> State:
    """``after`` (the state ``action`` led to from ``before``, pending steps settled) with every
    card whose bonus was under way, or began with ``action``, and is now over flipped back to
    its dark side."""
    was = in_use(before)
    if isinstance(action, UseGlass):
        was |= 1 << action.glass
    ended = was & ~in_use(after)
    if not ended:
        return after
    garden = after.garden
    for g in range(6):
        if ended >> g & 1:
            garden = garden.light(g, on=False)
    return after.changed(garden=garden)
