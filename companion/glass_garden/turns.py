"""Whole turns: every distinct outcome of one turn, and the exact end of the game.

A turn runs from the start of a dark turn's actions step (or part-way through it) to the start
of the next turn (or the sunlight phase); the sunlight phase runs to the end of the game. The
outcomes are deduplicated: two ways to reach the same next state are one outcome.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.glass_garden.actions import Action
from companion.glass_garden.game import OVER

if TYPE_CHECKING:
    from companion.glass_garden.game import State

Path = tuple["Action", ...]


class OutOfTime(Exception):
    """The search's time is up."""


def turn_outcomes(state: State) -> dict[State, Path]:
    """Each distinct state at the start of the next turn, with one way to reach it."""
    out: dict[State, Path] = {}
    seen = {state}
    stack: list[tuple[State, Path]] = [(state, ())]
    turn = state.turn
    while stack:
        s, path = stack.pop()
        for a in s.legal_actions():
            t = s.apply_unchecked(a)
            if t.turn != turn or t.phase == OVER:
                if t not in out:
                    out[t] = (*path, a)
            elif t not in seen:
                seen.add(t)
                stack.append((t, (*path, a)))
    return out


class SunlightSolver:
    """The best final score from a sunlight-phase state: depth-first search with memo, cut
    when a line reaches the state's upper bound. ``node_limit`` bounds the work per call; a
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
            value, rest, sub_exact = self._search(state.apply_unchecked(a))
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
    name = type(action).__name__
    if name == "Grow":
        return 0
    if name == "Move":
        return 1 if getattr(action, "dy", 0) < 0 else 3
    if name == "Done":
        return 5
    return 2
