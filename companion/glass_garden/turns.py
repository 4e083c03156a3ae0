"""Whole turns: every distinct outcome of one turn, and the exact end of the game.

A turn runs from the start of a dark turn's actions step (or part-way through it) to the start
of the next turn (or the sunlight phase); the sunlight phase runs to the end of the game. The
outcomes are deduplicated: two ways to reach the same next state are one outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.glass_garden import growing
from companion.glass_garden.actions import Action, Done, Grow, Move
from companion.glass_garden.fertile_zone import resource_kinds
from companion.glass_garden.game import (
    ACTIONS,
    GROW,
    OVER,
    State,
    move_actions,
    moved,
    shift_actions,
)

if TYPE_CHECKING:
    from companion.glass_garden.deck import Deck
    from companion.glass_garden.garden import Garden

Path = tuple["Action", ...]


class OutOfTime(Exception):
    """The search's time is up."""


def turn_outcomes(state: State) -> dict[State, Path]:
    """Each distinct state at the start of the next turn, with one way to reach it."""
    if state.phase == ACTIONS and not (state.pending or state.used or state.protected):
        return _dark_turn_outcomes(state)
    return _explore(state)


def _explore(state: State, out: dict[State, Path] | None = None, path: Path = (),
             seen: set[State] | None = None, tick: Callable[[], None] | None = None,
             every: int = 64, end_growing: Callable[[State], State] | None = None,
             ) -> dict[State, Path]:
    """:func:`turn_outcomes` by trying every action of every state of the turn (the general
    way: any phase, pending steps, part of a growing step done), adding to ``out``.

    ``tick`` (the solver's clock) is called every ``every`` states; it may raise to stop.
    ``end_growing``, when given, stands for ``apply_unchecked(Done())`` in a growing step
    with nothing pending (the solver's quicker way of the same step, see
    :func:`expand.explore`): the same states in the same order."""
    out = {} if out is None else out
    seen = {state} if seen is None else seen
    seen.add(state)
    stack: list[tuple[State, Path]] = [(state, path)]
    turn = state.turn
    count = 0
    while stack:
        s, here = stack.pop()
        count += 1
        if tick is not None and count % every == 0:
            tick()
        fast = end_growing is not None and s.phase == GROW and not s.pending
        for a in s.legal_actions():
            if fast and type(a) is Done:
                t = end_growing(s)  # type: ignore[misc]
                if t not in out:
                    out[t] = (*here, a)
                continue
            t = s.apply_unchecked(a)
            if t.turn != turn or t.phase == OVER:
                if t not in out:
                    out[t] = (*here, a)
                continue
            t = _forget_spent(t)
            if t not in seen:
                seen.add(t)
                stack.append((t, (*here, a)))
    return out


def _forget_spent(state: State) -> State:
    """``state`` without the spent resources that can no longer matter: those of a kind that
    no soil plant's cost asks for. Within a growing step they only keep apart states with the
    same future (soil plants never come back, and the spent set is dropped at the step's end),
    so dropping them lets the search meet each such state once."""
    spent = state.used
    if not spent:
        return state
    keep = _still_wanted(state.deck, state.garden.grown)
    if keep is None:
        return state
    used = spent & keep
    return state if len(used) == len(spent) else state.changed(used=used)


def _still_wanted(deck: Deck, grown: int) -> frozenset[int] | None:
    """The resources of the kinds the soil plants' costs ask for (None: one asks for any
    kind), worked out once per deck and grown set."""
    table = _WANTED.get(id(deck))
    if table is None or table[0] is not deck:
        table = _WANTED[id(deck)] = (deck, {})
    hit = table[1].get(grown, False)
    if hit is False:
        wanted = {card.cost for p, card in enumerate(deck.plants) if not grown >> p & 1}
        hit = table[1][grown] = None if "any" in wanted else frozenset(
            r for r, kind in resource_kinds(deck).items() if kind in wanted)
    return hit


_WANTED: dict[int, tuple[Deck, dict[int, frozenset[int] | None]]] = {}


def _dark_turn_outcomes(state: State) -> dict[State, Path]:
    """:func:`turn_outcomes` from the start of a dark turn's actions step, faster: the actions
    step only moves cards, so it is enumerated on gardens (each distinct garden once, by the
    fewest actions; how many were taken no longer matters once growing starts), and a garden
    where nothing can grow goes straight to damage and the critter's advance."""
    out: dict[State, Path] = {}
    seen: set[State] = set()
    for garden, path in after_actions(state).items():
        grow = State(state.table, garden, state.turn, GROW, state.actions_left - len(path))
        if len(path) < state.actions_left:
            path = (*path, Done())
        if growing.grow_actions(grow):
            _explore(grow, out, path, seen)
        else:
            nxt = grow.apply_unchecked(Done())
            if nxt not in out:
                out[nxt] = (*path, Done())
    return out


def after_actions(state: State) -> dict[Garden, Path]:
    """Every distinct garden the rest of the actions step can leave, with the fewest actions
    that reach it (the shifts and moves the actions step lists)."""
    critter = state.table.critter
    reached: dict[Garden, Path] = {state.garden: ()}
    frontier = [(state.garden, ())]
    for _ in range(state.actions_left):
        nxt: list[tuple[Garden, Path]] = []
        for g, path in frontier:
            for a in (*shift_actions(critter, g), *move_actions(g)):
                after = moved(g, a)
                if after not in reached:
                    reached[after] = (*path, a)
                    nxt.append((after, reached[after]))
        frontier = nxt
    return reached


class SunlightSolver:
    """The best final score from a sunlight-phase state: depth-first search with memo (spent
    resources no soil plant can use are forgotten, so more states meet), cut when a line
    reaches the state's upper bound. ``node_limit`` bounds the work per call; a
    result found after the limit is the best seen, flagged inexact."""

    def __init__(self, node_limit: int = 20000, deadline: float | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.memo: dict[State, tuple[int, Path, bool]] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.clock = clock
        self._budget = 0

    def best(self, state: State) -> tuple[int, Path]:
        value, path, _ = self.solve(state)
        return value, path

    def solve(self, state: State) -> tuple[int, Path, bool]:
        """(best score, the actions, whether it is proven best)."""
        self._budget = self.node_limit
        return self._search(state)

    def _search(self, state: State) -> tuple[int, Path, bool]:
        from companion.glass_garden.bound import upper_bound

        if state.phase == OVER:
            return state.score(), (), True
        hit = self.memo.get(state)
        if hit is not None and (hit[2] or self._budget <= 0):
            return hit
        self.nodes += 1
        self._budget -= 1
        if self.deadline is not None and self.nodes % 16 == 0 and self.clock() > self.deadline:
            raise OutOfTime
        cap = upper_bound(state)
        actions = state.legal_actions()
        actions.sort(key=_sun_order)
        best: tuple[int, Path] = (-1, ())
        exact = True
        for a in actions:
            if self._budget <= 0 and best[0] >= 0:
                exact = False
                break
            value, rest, sub_exact = self._search(_forget_spent(state.apply_unchecked(a)))
            exact = exact and sub_exact
            if value > best[0]:
                best = (value, (a, *rest))
            if best[0] >= cap:
                exact = True
                break
        result = (best[0], best[1], exact)
        self.memo[state] = result
        return result


def _sun_order(action: Action) -> int:
    """Try growing first, then moves up, then the rest; ending the game last."""
    kind = type(action)
    if kind is Grow:
        return 0
    if kind is Move:
        return 1 if action.dy < 0 else 3  # type: ignore[union-attr]
    if kind is Done:
        return 5
    return 2
