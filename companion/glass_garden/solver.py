"""The greedy one-turn policy (the baseline) and the anytime solver that must beat it.

Both work turn by turn over :func:`turns.turn_outcomes` (every distinct outcome of a turn) and
finish the game with the exact sunlight search. The solver:

1. plays the greedy policy to have a whole plan at once (typically under a second). With less
   than :data:`QUICK_SECONDS` to think, the greedy plan itself is cut off at
   :data:`QUICK_SHARE` of the time and the rest of the game is finished by a move-free policy
   (:func:`quick_turn`), so a legal whole plan, and a first turn at least as good as greedy's
   first turns played so far, comes back within the time asked;
2. runs beam searches of growing width, ranking states by :func:`bound.guess`, each wider one
   only when it can finish in the time left (its cost guessed from the last one's), and when
   the next width would not, one last beam as wide as fits;
3. spends the rest of its time in a depth-first branch and bound over whole turns, children
   in ``guess`` order, cutting every state whose :func:`bound.upper_bound` cannot beat the best
   plan, with a transposition table of states already searched to the end and a table of the
   bounds already worked out. The sunlight phase of each leaf is searched exactly within a
   node budget; when a whole pass ends unproven only because some of those searches were cut
   short, the pass is repeated with 4 times the budget (from a late turn this is what proves).

It reports the best plan found, the proven bound (the best score, or the largest bound of a
root outcome not yet searched to the end) and ``optimal`` only when the two meet. Every wait
reads ``clock`` (``time.monotonic`` unless a test passes a fake one).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.glass_garden.actions import Action, Done, Grow, Move, Skip, UseGlass
from companion.glass_garden.bound import guess, upper_bound
from companion.glass_garden.game import ACTIONS, OVER, SUNLIGHT, State
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
BEAM_WIDTHS: tuple[int, ...] = (2, 8, 24, 64, 160, 400)
#: The share of the time left that the last, widest beam is sized to fill.
BEAM_FILL = 0.8
#: Below this many seconds the greedy plan is not always completed (see the module's text).
QUICK_SECONDS = 2.0
#: The share of a short time limit the greedy plan may use before it is cut off.
QUICK_SHARE = 0.6

#: The largest node budget of one sunlight search when a finished pass is repeated.
SUN_NODES_MAX = 100_000

Clock = Callable[[], float]


_MEMO_LIMIT = 400_000  # states a memo holds before it starts again (memory, not results)


def _memo(table: dict[State, Any], state: State, compute: Callable[[State], Any]) -> Any:
    """``compute(state)``, a pure function, remembered in ``table``."""
    hit = table.get(state)
    if hit is None:
        if len(table) > _MEMO_LIMIT:
            table.clear()
        hit = table[state] = compute(state)
    return hit


class Search:
    """Shared machinery: cached turn outcomes and bounds, and the exact sunlight search."""

    def __init__(self, deadline: float | None = None, cache_limit: int = 4000,
                 sun_nodes: int = 400, clock: Clock = time.monotonic) -> None:
        self.deadline = deadline
        self.clock = clock
        self.sun = SunlightSolver(node_limit=sun_nodes, deadline=deadline, clock=clock)
        self.cache: dict[State, list[tuple[State, Path]]] = {}
        self.cache_limit = cache_limit
        self.bounds: dict[State, int] = {}
        self.guesses: dict[State, float] = {}
        self.nodes = 0
        self.unproven = 0  # the largest bound of a sunlight search cut short

    def check_time(self) -> None:
        if self.deadline is not None and self.clock() > self.deadline:
            raise OutOfTime

    def guess(self, state: State) -> float:
        """:func:`bound.guess`, worked out once per state (children are ranked twice: when a
        state is expanded and again in the beam)."""
        return _memo(self.guesses, state, guess)

    def bound(self, state: State) -> int:
        """:func:`bound.upper_bound`, worked out once per state (the table is a cache of a pure
        function, so it never changes a result)."""
        return _memo(self.bounds, state, upper_bound)

    def outcomes(self, state: State) -> list[tuple[State, Path]]:
        hit = self.cache.get(state)
        if hit is not None:
            return hit
        self.check_time()
        self.nodes += 1
        kids = sorted(turn_outcomes(state).items(), key=lambda kv: -self.guess(kv[0]))
        if len(self.cache) < self.cache_limit:
            self.cache[state] = kids
        return kids

    def finish(self, state: State) -> tuple[int, Path]:
        """Exact best of the sunlight phase (or the score of a finished game)."""
        if state.phase == OVER:
            return state.score(), ()
        value, path, exact = self.sun.solve(state)
        if not exact:
            self.unproven = max(self.unproven, self.bound(state))
        return value, path

    def rollout(self, state: State, cut_off: bool = False) -> Plan:
        """Play turn by turn choosing the best one-turn outcome (score, then guess). With
        ``cut_off``, running out of time finishes the game with :func:`quick_turn` instead of
        raising :class:`OutOfTime`."""
        turns: list[Path] = []
        states: list[State] = []
        try:
            while state.phase not in (SUNLIGHT, OVER):
                kids = self.outcomes(state)
                nxt, path = max(kids, key=lambda kv: (kv[0].score(), self.guess(kv[0])))
                states.append(state)
                turns.append(path)
                state = nxt
            value, path = self.finish(state)
        except OutOfTime:
            if not cut_off:
                raise
            while state.phase != OVER:
                nxt, path = quick_turn(state)
                states.append(state)
                turns.append(path)
                state = nxt
            return Plan(state.score(), turns, states)
        if state.phase == SUNLIGHT:
            states.append(state)
            turns.append(path)
        return Plan(value, turns, states)


def quick_turn(state: State) -> tuple[State, Path]:
    """One turn (or the sunlight phase) by a policy that needs no search: take no actions, grow
    whatever can grow, use every sunlit glass card, and for an effect or bonus step prefer
    moving a succulent up. Fast (milliseconds) and always legal; used only when time is up."""
    turn = state.turn
    path: list[Action] = []
    while state.phase != OVER and state.turn == turn:
        action = _quick_action(state, state.legal_actions())
        path.append(action)
        state = state.apply_unchecked(action)
    return state, tuple(path)


def _quick_action(state: State, actions: list[Action]) -> Action:
    if state.pending:
        g = state.garden
        rises = [a for a in actions if isinstance(a, Move) and a.dy < 0 and g.is_grown(a.plant)]
        if rises:
            return rises[0]
        calm = [a for a in actions if isinstance(a, Skip)]
        return calm[0] if calm else actions[0]
    if state.phase == ACTIONS:
        return Done()
    for kind in (Grow, UseGlass):
        found = [a for a in actions if isinstance(a, kind)]
        if found:
            return found[0]
    return Done()


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
    def __init__(self, root: State, seconds: float, clock: Clock = time.monotonic) -> None:
        self.start = clock()
        super().__init__(self.start + seconds, clock=clock)
        self.seconds = seconds
        self.root = root
        self.best: Plan | None = None
        self.closed: set[State] = set()
        self.log: list[str] = []

    def offer(self, plan: Plan, how: str) -> None:
        if self.best is None or plan.score > self.best.score:
            self.best = plan
            self.log.append(f"{self.clock() - self.start:.2f}s {how}: {plan.score}")

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
            ranked = sorted(nxt.items(), key=lambda kv: -self.guess(kv[0]))
            best = self.best.score if self.best else -1
            layer = []
            for kv in ranked:  # the bound only for as many as the beam keeps
                if self.bound(kv[0]) > best:
                    layer.append(kv)
                    if len(layer) == width:
                        break

    def beams(self) -> None:
        """The beam searches of :data:`BEAM_WIDTHS`, in order, then ever wider ones. The first
        two always run (as time allows); a wider one runs only when its cost, guessed from the
        last beam's time in proportion to the width, fits in the time left, as a beam cut short
        gives nothing. When the next width does not fit, one beam as wide as fits in the time
        left runs instead (a whole plan is only ever found at the end of a beam, and at the
        root the bound is rarely below the best score, so the branch and bound after it mostly
        searches for a better plan, which a wide beam does better)."""
        assert self.best is not None and self.deadline is not None
        last: tuple[int, float] | None = None
        for i in itertools.count():
            width = BEAM_WIDTHS[i] if i < len(BEAM_WIDTHS) else int(last[0] * 2.5) if last else 1
            if self.best.score >= self.bound(self.root):
                return
            now = self.clock()
            final = False
            if i >= 2 and last is not None:
                per_width = max(last[1], 1e-3) / last[0]
                if now + per_width * width > self.deadline:
                    width = int(BEAM_FILL * (self.deadline - now) / per_width)
                    if width <= last[0]:
                        return
                    final = True  # the last beam: as wide as fits
            self.beam(width)
            last = (width, self.clock() - now)
            if final:
                return

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
            if self.bound(child) <= self.best.score:
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
        self.sun.deadline = max(self.clock() + 0.02, self.start + self.seconds)
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
        top = max(self.best.score, self.unproven)
        if self.root not in self.cache:
            return max(top, self.bound(self.root))
        for child, _ in self.cache[self.root]:
            if top >= MAX_SCORE:
                break  # nothing can raise it further: skip the remaining bounds
            if not self.settled(child):
                top = max(top, self.bound(child))
        return top

    def run(self) -> Result:
        # the greedy plan is completed whatever the time limit, unless that is very short
        quick = self.seconds < QUICK_SECONDS
        cut = self.start + QUICK_SHARE * self.seconds if quick else None
        self.deadline, self.sun.deadline = cut, cut
        greedy_plan = self.rollout(self.root, cut_off=quick)
        # the last 5% of the time is kept for polishing the best plan's sunlight phase
        self.deadline = self.sun.deadline = self.start + 0.95 * self.seconds
        self.offer(greedy_plan, "greedy")
        assert self.best is not None
        saved = 0
        try:
            if self.root.phase not in (SUNLIGHT, OVER):
                self.beams()
                self.dfs(self.root, [])
                # a whole pass done, but sunlight searches cut short by their node budget
                # leave it unproven: search again with 4 times the budget
                while (self.best.score < self.root_bound()
                       and self.sun.node_limit < SUN_NODES_MAX):
                    self.sun.node_limit *= 4
                    self.log.append(f"again, sunlight budget {self.sun.node_limit}")
                    saved, self.unproven = max(saved, self.unproven), 0
                    self.closed.clear()
                    self.dfs(self.root, [])
                    saved = 0  # the pass was completed: its own findings stand alone
        except OutOfTime:
            self.log.append("out of time")
            self.unproven = max(self.unproven, saved)
        self.polish()
        bound = self.root_bound()
        return Result(self.best, bound, self.best.score >= bound, self.nodes + self.sun.nodes,
                      self.clock() - self.start, greedy_plan.score, self.log)


def solve(state: State, seconds: float = 10.0, clock: Clock = time.monotonic) -> Result:
    """The best plan found from ``state`` within ``seconds``, with a proven bound."""
    return Solver(state, seconds, clock).run()
