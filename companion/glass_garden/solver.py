"""The greedy one-turn policy (the baseline) and the anytime solver that must beat it.

Both work turn by turn over :func:`turns.turn_outcomes` (every distinct outcome of a turn) and
finish the game with the exact sunlight search. The solver:

1. plays the greedy policy to have a whole plan at once (typically under a second);
2. runs beam searches of growing width, ranking states by :func:`bound.guess`;
3. spends the rest of its time in a depth-first branch and bound over whole turns, children
   in ``guess`` order, cutting every state whose :func:`bound.upper_bound` cannot beat the best
   plan, with a transposition table of states already searched to the end.

It reports the best plan found, the proven bound (the best score, or the largest bound of a
root outcome not yet searched to the end) and ``optimal`` only when the two meet.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from companion.glass_garden.bound import guess, upper_bound
from companion.glass_garden.game import OVER, SUNLIGHT, State
from companion.glass_garden.scoring import MAX_SCORE
from companion.glass_garden.turns import OutOfTime, Path, SunlightSolver, turn_outcomes


@dataclass
class Plan:
    """A whole plan from a state: one action path per remaining turn (the last: sunlight)."""

    score: int
    turns: list[Path]
    states: list[State]  # the state at the start of each of those turns


@dataclass
class Result:
    plan: Plan
    bound: int
    optimal: bool
    nodes: int
    seconds: float
    greedy_score: int
    log: list[str] = field(default_factory=list)


#: The beam searches run before the branch and bound, in order (each as time allows).
BEAM_WIDTHS: tuple[int, ...] = (2, 8)


class Search:
    """Shared machinery: cached turn outcomes and the exact sunlight search."""

    def __init__(self, deadline: float | None = None, cache_limit: int = 4000,
                 sun_nodes: int = 400) -> None:
        self.deadline = deadline
        self.sun = SunlightSolver(node_limit=sun_nodes, deadline=deadline)
        self.cache: dict[State, list[tuple[State, Path]]] = {}
        self.cache_limit = cache_limit
        self.nodes = 0
        self.unproven = 0  # the largest bound of a sunlight search cut short

    def check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise OutOfTime

    def outcomes(self, state: State) -> list[tuple[State, Path]]:
        hit = self.cache.get(state)
        if hit is not None:
            return hit
        self.check_time()
        self.nodes += 1
        kids = sorted(turn_outcomes(state).items(), key=lambda kv: -guess(kv[0]))
        if len(self.cache) < self.cache_limit:
            self.cache[state] = kids
        return kids

    def finish(self, state: State) -> tuple[int, Path]:
        """Exact best of the sunlight phase (or the score of a finished game)."""
        if state.phase == OVER:
            return state.score(), ()
        value, path, exact = self.sun.solve(state)
        if not exact:
            self.unproven = max(self.unproven, upper_bound(state))
        return value, path

    def rollout(self, state: State) -> Plan:
        """Play turn by turn choosing the best one-turn outcome (score, then guess)."""
        turns: list[Path] = []
        states: list[State] = []
        while state.phase not in (SUNLIGHT, OVER):
            kids = self.outcomes(state)
            nxt, path = max(kids, key=lambda kv: (kv[0].score(), guess(kv[0])))
            states.append(state)
            turns.append(path)
            state = nxt
        value, path = self.finish(state)
        if state.phase == SUNLIGHT:
            states.append(state)
            turns.append(path)
        return Plan(value, turns, states)


def greedy(state: State, deadline: float | None = None) -> Plan:
    """The baseline: each turn, the outcome with the best score after it (ties: ``guess``)."""
    return Search(deadline).rollout(state)


def plan_through(search: Search, chain: list[tuple[State, Path]], last: State) -> Plan:
    value, path = search.finish(last)
    states = [s for s, _ in chain]
    turns = [p for _, p in chain]
    if last.phase == SUNLIGHT:
        states.append(last)
        turns.append(path)
    return Plan(value, turns, states)


class Solver(Search):
    def __init__(self, root: State, seconds: float) -> None:
        self.start = time.monotonic()
        super().__init__(self.start + seconds)
        self.seconds = seconds
        self.root = root
        self.best: Plan | None = None
        self.closed: set[State] = set()
        self.log: list[str] = []

    def offer(self, plan: Plan, how: str) -> None:
        if self.best is None or plan.score > self.best.score:
            self.best = plan
            self.log.append(f"{time.monotonic() - self.start:.2f}s {how}: {plan.score}")

    def beam(self, width: int) -> None:
        layer: list[tuple[State, list[tuple[State, Path]]]] = [(self.root, [])]
        while layer:
            nxt: dict[State, list[tuple[State, Path]]] = {}
            for state, chain in layer:
                if state.phase in (SUNLIGHT, OVER):
                    self.offer(plan_through(self, chain, state), f"beam {width}")
                    continue
                for child, path in self.outcomes(state):
                    if child not in nxt:
                        nxt[child] = [*chain, (state, path)]
            ranked = sorted(nxt.items(), key=lambda kv: -guess(kv[0]))
            best = self.best.score if self.best else -1
            layer = [kv for kv in ranked if upper_bound(kv[0]) > best][:width]

    def dfs(self, state: State, chain: list[tuple[State, Path]]) -> None:
        if state.phase in (SUNLIGHT, OVER):
            self.offer(plan_through(self, chain, state), "branch and bound")
            return
        if state in self.closed:
            return
        for child, path in self.outcomes(state):
            assert self.best is not None
            if self.best.score >= MAX_SCORE:
                return
            if upper_bound(child) <= self.best.score:
                continue
            self.dfs(child, [*chain, (state, path)])
        self.closed.add(state)

    def polish(self) -> None:
        """Search the best plan's sunlight phase further, in the time kept for it."""
        assert self.best is not None
        plan = self.best
        if not plan.states or plan.states[-1].phase != SUNLIGHT:
            return
        last = plan.states[-1]
        self.sun.deadline = max(time.monotonic() + 0.02, self.start + self.seconds)
        self.sun.node_limit = 50_000
        try:
            value, path, _ = self.sun.solve(last)
        except OutOfTime:
            return
        if value > plan.score:
            self.offer(Plan(value, [*plan.turns[:-1], path], plan.states), "sunlight polish")

    def settled(self, state: State) -> bool:
        """Whether the search has proven that nothing under ``state`` beats the best plan."""
        if state in self.closed or state.phase == OVER:
            return True
        if state.phase == SUNLIGHT:
            hit = self.sun.memo.get(state)
            return hit is not None and hit[2]
        return False

    def root_bound(self) -> int:
        assert self.best is not None
        if self.root.phase in (SUNLIGHT, OVER) or self.root in self.closed:
            return max(self.best.score, self.unproven)
        open_bounds = [upper_bound(c) for c, _ in self.cache.get(self.root, [])
                       if not self.settled(c)]
        if self.root not in self.cache:
            open_bounds.append(upper_bound(self.root))
        return max([self.best.score, self.unproven, *open_bounds])

    def run(self) -> Result:
        # the greedy plan is always completed, whatever the time limit
        self.deadline, self.sun.deadline = None, None
        greedy_plan = self.rollout(self.root)
        # the last 5% of the time is kept for polishing the best plan's sunlight phase
        self.deadline = self.sun.deadline = self.start + 0.95 * self.seconds
        self.offer(greedy_plan, "greedy")
        assert self.best is not None
        try:
            if self.root.phase not in (SUNLIGHT, OVER):
                for width in BEAM_WIDTHS:
                    if self.best.score >= upper_bound(self.root):
                        break
                    self.beam(width)
                self.dfs(self.root, [])
        except OutOfTime:
            self.log.append("out of time")
        self.polish()
        bound = self.root_bound()
        return Result(self.best, bound, self.best.score >= bound, self.nodes + self.sun.nodes,
                      time.monotonic() - self.start, greedy_plan.score, self.log)


def solve(state: State, seconds: float = 10.0) -> Result:
    """The best plan found from ``state`` within ``seconds``, with a proven bound."""
    return Solver(state, seconds).run()
