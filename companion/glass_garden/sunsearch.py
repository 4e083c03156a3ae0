"""The sunlight phase searched by branch and bound: the best final score, or proof that a
position cannot beat a given score.

The sunlight phase has no chance and its value is the final score of the leaf reached, so a
depth-first search may cut every state whose :func:`bound.upper_bound` is no better than the
best score already found, or than the score the caller already has (``alpha``: in the solver,
the best whole plan's score; a leaf of the dark-phase search only matters if it beats it). The
search of :class:`turns.SunlightSolver` used the bound only to stop once a state reached it;
cutting below ``alpha`` as well visits far fewer states (the gain is measured in
``benchmarks/RESULTS.md``).

The memo keeps, per state, an interval: ``low`` (a score reached, with the actions that reach
it) and ``high`` (no line from the state scores more). A state cut by ``alpha`` records
``high <= alpha``; a state searched to the end records ``low == high`` (exact). Both are valid
whatever ``alpha`` a later visit brings, so the memo is shared by every search from every leaf.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.glass_garden.actions import Action
from companion.glass_garden.bound import upper_bound
from companion.glass_garden.game import OVER, State
from companion.glass_garden.turns import OutOfTime, Path, _forget_spent, _sun_order

#: (low, actions reaching low, high) per state: the best score lies in [low, high]
Entry = tuple[int, Path, int]


class SunSearch:
    """Branch and bound over the sunlight phase, with a memo of intervals (see the module).

    ``node_limit`` bounds the states one :meth:`solve` expands; past it a state's unsearched
    actions count at their bound (the result is then not proven)."""

    def __init__(self, node_limit: int = 400, deadline: float | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 stop: Callable[[], bool] | None = None) -> None:
        self.memo: dict[State, Entry] = {}
        self.nodes = 0
        self.node_limit = node_limit
        self.deadline = deadline
        self.clock = clock
        self.stop = stop
        self._budget = 0

    def solve(self, state: State, alpha: int = -1) -> tuple[int, Path, bool, int]:
        """(score reached, its actions, whether it is proven best, the proven bound). A
        result with ``score <= alpha`` may be no line at all (score -1): the state cannot beat
        ``alpha``, or the budget ran out first."""
        self._budget = self.node_limit
        low, path, high = self._search(state, alpha)
        return low, path, low >= high, high

    def best(self, state: State) -> tuple[int, Path]:
        low, path, _, _ = self.solve(state)
        return low, path

    def _search(self, state: State, alpha: int) -> Entry:
        if state.phase == OVER:
            v = state.score()
            return v, (), v
        hit = self.memo.get(state)
        if hit is not None and (hit[0] >= hit[2] or hit[2] <= alpha):
            return hit
        cap = upper_bound(state) if hit is None else hit[2]
        if cap <= alpha:
            entry = (-1, (), cap) if hit is None else hit
            self.memo[state] = entry
            return entry
        if self._budget <= 0:
            return hit if hit is not None else (-1, (), cap)
        self.nodes += 1
        self._budget -= 1
        if self.nodes % 16 == 0:
            if self.stop is not None and self.stop():
                raise OutOfTime
            if self.deadline is not None and self.clock() > self.deadline:
                raise OutOfTime
        actions: list[Action] = state.legal_actions()
        actions.sort(key=_sun_order)
        low, path = (-1, ()) if hit is None else (hit[0], hit[1])
        high = -1
        complete = True
        for a in actions:
            if low >= cap:
                break
            if self._budget <= 0:
                complete = False
                break
            c_low, c_path, c_high = self._search(_forget_spent(state.apply_unchecked(a)),
                                                 max(alpha, low))
            if c_low > low:
                low, path = c_low, (a, *c_path)
            high = max(high, c_high)
        if low >= cap:
            high = low
        elif not complete:
            high = cap
        else:
            high = min(cap, max(high, low))
        entry = (low, path, high)
        self.memo[state] = entry
        return entry
