"""Turn expansion for the solver: every outcome of a turn, interruptible, and a cheaper partial one.

The rules engine's :func:`turns.turn_outcomes` lists every distinct state at the start of the
next turn. It cannot be stopped part-way, and at turns 1-3 one call can take a few hundred
milliseconds (thousands of growing sequences), which is longer than a 0.2 s answer allows. The
functions here give the same outcomes (``tests/glass_garden/test_gg_search.py`` checks it) and
call ``tick`` every :data:`TICK_EVERY` states, so the search can stop (``tick`` raises) within a
few milliseconds of its deadline.

:func:`light_outcomes` is for finding good plans fast, not for proofs: the actions step is
enumerated in full and every garden goes on to damage without growing, but the growing step is
explored only from the ``growers`` gardens most promising by :func:`bound.guess` (each turn's
growing sequences are most of the cost, and a beam keeps only a few children anyway).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.glass_garden.actions import Done
from companion.glass_garden.bound import guess
from companion.glass_garden.critter import DARK_TURNS, advance, side_up
from companion.glass_garden.damage import apply_damage
from companion.glass_garden.fertile_zone import payable_kinds
from companion.glass_garden.game import (
    ACTIONS,
    GROW,
    State,
    move_actions,
    moved,
    shift_actions,
)
from companion.glass_garden.garden import Garden
from companion.glass_garden.turns import Path, _explore

#: How many states the expansion makes between two calls of ``tick``.
TICK_EVERY = 64

Tick = Callable[[], None]


def _no_tick() -> None:
    return None


def after_actions(state: State, tick: Tick = _no_tick) -> dict[Garden, Path]:
    """Every distinct garden the rest of the actions step can leave, with the fewest actions
    that reach it (as :func:`turns.after_actions`, calling ``tick`` now and then)."""
    critter = state.table.critter
    reached: dict[Garden, Path] = {state.garden: ()}
    frontier: list[tuple[Garden, Path]] = [(state.garden, ())]
    for _ in range(state.actions_left):
        nxt: list[tuple[Garden, Path]] = []
        for g, path in frontier:
            tick()
            for a in (*shift_actions(critter, g), *move_actions(g)):
                after = moved(g, a)
                if after not in reached:
                    reached[after] = (*path, a)
                    nxt.append((after, reached[after]))
        frontier = nxt
    return reached


def explore(state: State, out: dict[State, Path], path: Path, seen: set[State],
            tick: Tick = _no_tick) -> None:
    """Every outcome of the rest of the turn from ``state`` (any phase, pending steps, part
    of a growing step done), added to ``out`` (as :func:`turns._explore`)."""
    _explore(state, out, path, seen, tick, TICK_EVERY)


def at_turn_start(state: State) -> bool:
    return state.phase == ACTIONS and not (state.pending or state.used or state.protected)


def outcomes(state: State, tick: Tick = _no_tick, growers: int | None = None
             ) -> dict[State, Path]:
    """Each distinct state at the start of the next turn, with one way to reach it.

    ``growers``: explore the growing step only from that many of the gardens the actions step
    can leave (the best by :func:`bound.guess`); the others go straight on to damage. ``None``
    explores them all: then the outcomes are exactly those of :func:`turns.turn_outcomes`."""
    out: dict[State, Path] = {}
    seen: set[State] = set()
    if not at_turn_start(state):
        explore(state, out, (), seen, tick)
        return out
    table, deck, turn = state.table, state.deck, state.turn
    # what the actions step cannot change, worked out once: the soil plants' costs (nothing
    # grows in it) and the damage of the face-up side (it does not flip the critter)
    soil = [card.cost for p, card in enumerate(deck.plants) if not state.garden.grown >> p & 1]
    anything = "any" in soil
    wanted = frozenset(soil)
    damage = side_up(table.critter, state.garden).damage
    last = turn >= DARK_TURNS
    ranked: list[tuple[float, int, State, Path]] = []
    for count, (garden, path) in enumerate(after_actions(state, tick).items(), 1):
        if count % TICK_EVERY == 0:
            tick()
        left = state.actions_left - len(path)
        if len(path) < state.actions_left:
            path = (*path, Done())
        kinds = payable_kinds(deck, garden) if soil else frozenset()
        can_grow = bool(kinds) and (anything or not wanted.isdisjoint(kinds))
        grow = State(table, garden, turn, GROW, left) if can_grow or last else None
        if can_grow and growers is None:
            assert grow is not None
            explore(grow, out, path, seen, tick)
            continue
        # no growing (or, in a light expansion, not growing yet): damage and advance
        if grow is not None:
            nxt = grow.apply_unchecked(Done())
        else:
            nxt = State(table, advance(apply_damage(garden, damage), turn), turn + 1)
        if nxt not in out:
            out[nxt] = (*path, Done())
        if can_grow:
            assert grow is not None
            ranked.append((-guess(grow), count, grow, path))
    if growers is not None:
        ranked.sort()
        for _, _, grow, path in ranked[:growers]:
            explore(grow, out, path, seen, tick)
    return out
