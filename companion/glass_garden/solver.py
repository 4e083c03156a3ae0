"""The greedy one-turn policy (the baseline) and the anytime solver that must beat it.

Both work turn by turn over the outcomes of whole turns (:mod:`expand`: every distinct state at
the start of the next turn) and finish the game with the exact sunlight search. The solver is
*anytime*: it always holds a whole legal plan, improves it in stages, and stops at its deadline
(checked every few milliseconds, inside turn expansions too) or as soon as the plan meets the
proven bound. The stages, always in the same order so that what a run has found after ``t``
seconds does not depend on how long it was given (one long run measures every shorter one):

1. a search-free plan (:func:`quick_turn`: no actions, grow what can grow, use the lit glass),
   in milliseconds, so a whole plan and its first turn exist at once;
2. beam searches (:data:`BEAM_LADDER`: widths 1-8, four of width 4 starting from other first
   turns, each followed by one of width 4 taking other second turns, then 16-128; a
   configuration with *fillers*, none by default, runs cheaper beams in
   place of one that would not end before the deadline: :attr:`Config.fillers`), ranking
   states by :func:`bound.guess` and
   keeping only states whose :func:`bound.upper_bound` beats the best plan (among children
   tied on guess, those whose bound is 16 first: :meth:`Solver.keep`). They expand turns
   *lightly* (:func:`expand.outcomes` with ``growers``): the actions step in full, but the
   growing step only from the :data:`GROWERS` most promising gardens (the growing sequences
   are most of a full expansion's cost). Each leaf's sunlight phase is searched within
   :data:`BEAM_SUN_NODES` nodes (and, when :data:`SUN_TIE_NODES` is set, off by default,
   again within that many when the search was cut short at the best plan's score below its
   bound);
3. a depth-first branch and bound over whole turns with full expansions, children in ``guess``
   order, cutting every state whose bound cannot beat the best plan, with a transposition table
   of states searched to the end (a state is settled also when one with the same garden and a
   superset of sunlit glass was: dominance, below) and the bounds worked out once. Each leaf's
   sunlight phase is searched (:mod:`sunsearch`) within a node budget; when a whole pass ends
   unproven only because some of those searches were cut short, it is repeated with 4 times
   the budget.

Dominance: a state whose garden equals one already searched to the end but with no more
sunlit glass cards is settled too. A sunlit card never hurts: glass matters only to the
sunlight phase's bonuses (the state with more lit cards can use every card the other uses, and
ignore the rest), to lighting by an edge growth (a lit card just stays lit) and to
``flip_glass`` steps (which light a dark card: the state with more lit cards keeps a superset
whatever the other picks), so the best score from it is never below the other's
(``test_gg_search.py`` checks it exhaustively). Dropping such outcomes among a turn's outcomes
was tried and removed: 1 in 16,000 outcomes was dominated, for a tenth of the expansion time.

It reports the best plan found, the proven bound (the best score, or the largest bound of a
root outcome not yet searched to the end) and ``optimal`` only when the two meet. Every wait
reads ``clock`` (``time.monotonic`` unless a test or the benchmark passes another, such as
``time.process_time`` to count CPU seconds on a shared machine). :class:`Advisor` runs a solver
on a worker thread so a screen can show the best turn so far while it improves.
"""

from __future__ import annotations

import gc
import heapq
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice, repeat
from operator import is_
from typing import Any

from companion.glass_garden import expand
from companion.glass_garden.actions import Action, Done, Grow, Move, Skip, UseGlass
from companion.glass_garden.bound import guess, upper_bound
from companion.glass_garden.critter import DARK_TURNS
from companion.glass_garden.game import ACTIONS, GROW, OVER, SUNLIGHT, State
from companion.glass_garden.scoring import MAX_SCORE
from companion.glass_garden.sunsearch import SunSearch
from companion.glass_garden.turns import OutOfTime, Path


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
    greedy_score: int  # the first plan's score (the search-free policy's)
    log: list[str] = field(default_factory=list)
    #: (seconds, nodes, score) each time the plan improved, and when it was proven optimal
    events: list[tuple[float, int, int]] = field(default_factory=list)
    proven_at: float | None = None
    #: a portfolio's searches, one dict each (:meth:`portfolio.SearchView.data`); empty for
    #: a single solver
    searches: list[dict[str, Any]] = field(default_factory=list)

    def found_by(self) -> str:
        """The log's last line naming what found a plan (``"1.20s beam 4/16: 16"``)."""
        return next((line for line in reversed(self.log) if ": " in line), "")


#: The beam searches' widths, in order (each a whole beam; the next one only when time is left).
BEAM_WIDTHS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128)
#: Gardens after the actions step that :func:`sketch_turn` finishes and compares.
SKETCH_TRIES = 4
#: Gardens after the actions step whose growing step a beam explores (see the module's text).
#: 16 rather than 8: at 2.5 CPU s, 10/16 deals proven instead of 5/16 on the deals tuned on and
#: 15/20 instead of 12/20 on seeds 10-14 (4: 10/16 and 10/20).
GROWERS = 16


@dataclass(frozen=True)
class Beam:
    """One beam search of the ladder: its width and the gardens whose growing step its light
    expansions explore."""

    width: int
    growers: int = GROWERS
    #: the root's children this beam passes over (in its first layer's order): the ones an
    #: earlier beam of the ladder took, so that it tries other first turns
    skip: int = 0
    #: the widths of its first layers (the root's children first), ``width`` after them: with
    #: ``(1,)`` and ``skip`` a beam rooted at one first turn (``rooted8`` in
    #: :data:`portfolio.VARIANTS`). Beams wide early and narrow after (32 at turns 1-3, then 8
    #: or 4) were measured and dropped: the Ant 16-lines' states rank 10-27th of a width-32
    #: beam's layer at every turn, not only the first ones, and they lost them (training Ant
    #: seeds 102, 109, 112, 116, 118, 126 alone at 4 CPU s: 0-1 of 6 found, width 32 3 of 6).
    early: tuple[int, ...] = ()
    #: the layer whose first ``skip`` children the beam passes over: 1, the root's children
    #: (other first turns); 2, the second turn's layer (other second turns below the first
    #: turns the narrow beams take)
    skip_layer: int = 1


#: How many children of the second layer (the second turn) the default ladder's beams that
#: pass over part of it (:attr:`Beam.skip_layer` 2) pass over, in order.
SECOND_SKIPS: tuple[int, ...] = (16, 8, 24, 12)
#: The ladder of 2dcaf40-b4c31cb (``skip1`` in :data:`portfolio.VARIANTS`): widths 1, 2, 4
#: and 8, then four beams of width 4 whose first layers pass over the root's first 8, 12, 16 and 20
#: children (:attr:`Beam.skip`: other first turns, where the 16-lines the narrow beams miss
#: mostly start 1-100th by guess), then widths 16-128. The width-16 beam rarely ended within
#: 2.5 s (it proved 3 of the 200 deals), where the width-4 beams, 0.2-0.3 s each, do end.
#: Beams of 8 and 16 growers find mostly different 16s, but mixing them did not hold (2.5 CPU
#: s, the same run conditions): 16 then 8 growers at each width proved 23/40 against 18/40 on
#: Ant and Worm seeds 10-29, but 88/120 against 89/120 on the issue's 40 and seeds 30-49 (27
#: against 30 of the 40); 8 growers only at widths 1-4: 21/40 against 18/40, then 79/120
#: against 87/120.
SKIP1_LADDER: tuple[Beam, ...] = (
    *(Beam(w) for w in BEAM_WIDTHS if w <= 8),
    *(Beam(4, skip=k) for k in (8, 12, 16, 20)),
    *(Beam(w) for w in BEAM_WIDTHS if w > 8))
#: The beam searches, in order, all of :data:`GROWERS` growers: :data:`SKIP1_LADDER` with a
#: width-4 beam over other *second* turns after each of its four beams over other first turns
#: (its second layer passing over the first :data:`SECOND_SKIPS` children: a discrepancy at
#: turn 2, below the first turns the narrow beams take), before widths 16-128. On training
#: deals the second-turn beams found 16s the first-turn ones do not (after 2.5 s of the single
#: solver on the 24 Ant deals of seeds 100-159 the pair left unproven, six more beams over
#: the second layer found 7, six more over first turns 8, mostly others, over the third layer
#: 3); see :data:`portfolio.PORTFOLIO` for the figures.
BEAM_LADDER: tuple[Beam, ...] = (
    *SKIP1_LADDER[:4],
    *(b for pair in zip(SKIP1_LADDER[4:8], (Beam(4, skip=k, skip_layer=2) for k in SECOND_SKIPS),
                        strict=True) for b in pair),
    *SKIP1_LADDER[8:])
#: :meth:`Solver.fits`: the share of a beam's estimated cost that must fit in the time left.
FIT_SHARE = 1.0
#: Fillers for the default ladder (:attr:`Config.fillers`; ``fill`` in
#: :data:`portfolio.VARIANTS`, not the default): more width-4 beams over other first turns
#: (the root's children from the 25th on, 4 at a time), run in place of a wide beam the
#: deadline would cut (at 2.5 s the width-16 beam, started at 1.7-2.3 s on an unproven deal,
#: never ended: on the benchmark's 200 it proved none). With ``from4g8f`` as the second search
#: (its width-32 beam, started at 1.2-1.9 s, proved none either), training Ant seeds 100-159
#: 40/60 against 36/60, Worm 100-129 29/30 both; but on the benchmark's 200 at 2.5 CPU s
#: (2026-12-05 01:58-02:11, load about 8, beside eeafe7f's tree) 180 against 179, mean 15.885
#: against 15.875 (Ant 22 gained; the worker's fillers found 16s on 10 deals, most of which
#: the old pair proved otherwise; search 0's fillers none), and again (02:12-02:25) 179 against
#: 179 with the same deals unproven: within the run-to-run spread, so off.
FILLERS: tuple[Beam, ...] = tuple(Beam(4, skip=k) for k in range(24, 100, 4))
#: The ladder before the skipping beams (:data:`BEAM_WIDTHS` in order; ``plain`` in
#: :data:`portfolio.VARIANTS`).
PLAIN_LADDER: tuple[Beam, ...] = tuple(Beam(w) for w in BEAM_WIDTHS)


@dataclass(frozen=True)
class Config:
    """What a solver searches first: the default is the search described in the module's text;
    the other configurations are the portfolio's (:mod:`portfolio`), where worker processes
    run different ones at once because they find *different* 16s.

    ``ladder``: the beam searches, in order. ``first_layer``: how many of the root's children
    every beam keeps (at least; 0: its width), since the 16-lines are mostly lost at turn 1.
    ``lookahead``: before the beams, the root's first ``lookahead`` children by guess are each
    expanded (lightly, as a beam would) and ranked by the guess of their own best child, the
    rest after them by guess; the beams' first layer is taken in that order. ``cache_children``:
    :data:`CACHE_CHILDREN` (the memory a worker may hold)."""

    name: str = "ladder"
    ladder: tuple[Beam, ...] = ()  # () = BEAM_LADDER (read when the solver starts)
    first_layer: int = 0
    lookahead: int = 0
    cache_children: int = 0  # 0 = CACHE_CHILDREN
    #: cheaper beams run, in order, while the next beam of the ladder would not end before
    #: the deadline and the next of these would (:meth:`Solver.fits`); each at most once
    fillers: tuple[Beam, ...] = ()

    def beams(self) -> tuple[Beam, ...]:
        return self.ladder or BEAM_LADDER


#: The solver's own search (the module's text): a :class:`Solver` given no configuration.
DEFAULT_CONFIG = Config()

#: How far a beam looks into a run of children tied on guess for those whose bound is
#: :data:`MAX_SCORE` (at most this many times the room left in the layer), when its best plan
#: is below MAX_SCORE - 1: the guess saturates at turn 9 (thousands of sunlight-phase children
#: tie), where only a few in a hundred can still reach 16. 0: guess order alone.
BEAM_TIE_SCAN = 64
#: Kept for callers: below this many seconds a plan used to be cut short. The anytime solver
#: has a whole plan within milliseconds, whatever the time.
QUICK_SECONDS = 0.2
#: Sunlight-search nodes spent polishing a newly found best plan whose sunlight search was cut.
POLISH_NODES = 300
#: Whether the first and sketch plans of a dark-phase search are polished too. Off: they
#: stand in only until the first beam's plans, and polishing them (300 sunlight states at a
#: low score, which cuts little) took up to 0.3 CPU s of a 2.5 s search.
POLISH_FIRST = False
#: Sunlight-search nodes for each leaf of a beam (the branch and bound gives each 400). The
#: leaves' sunlight searches take about a third of the CPU on the hard Ant deals (training Ant
#: 102, 112, 116 at 2.5 s, both searches of the pair), but 50 proved 44 of training Ant
#: 100-159 against 44 with 100 (the pair at 2.5 CPU s, run at the same time, after 08c7eb2).
BEAM_SUN_NODES = 100
#: Sunlight-search nodes for a leaf whose search within a smaller budget was cut short at the
#: best plan's score, below its bound (:meth:`Search.finish`; 0: none, the default). Only a
#: new best plan is searched further (:data:`POLISH_NODES`), so a beam that reaches a 16 while
#: holding a 15 may lose it to the 100-node budget: on training Ant seeds 100-129, 6 leaves of
#: Ant 104 (15 within 100 nodes, 16 within 20,000). With 300 the single solver proved Ant 100,
#: 102, 104 and 107 at 2.5 CPU s, and the default pair 51/60 against 49/60 on training Ant and
#: Worm seeds 100-129; but on the benchmark's 200 (2026-12-04 23:46-23:57, beside 3b4add3's
#: tree) 178 against 179 proven: not adopted.
SUN_TIE_NODES = 0
#: The largest node budget of one sunlight search when a finished pass is repeated.
SUN_NODES_MAX = 100_000
#: Turn outcomes kept in the expansion caches (all lists together) before they are emptied:
#: the search's memory (a cached outcome costs about 0.9 kB: 200,000 peaked at 200 MB on Ant 6
#: at 10 CPU s, 150,000 at 154 MB).
CACHE_CHILDREN = 150_000

Clock = Callable[[], float]


class CollectorPause:
    """Python's cyclic garbage collector switched off while any search runs (a context
    manager; searches on several threads share one count, and the collector comes back on,
    if it was on, when the last one ends).

    A search makes millions of objects and keeps up to :data:`CACHE_CHILDREN` turn outcomes
    alive (states, gardens, paths), so the collector's passes, which walk every live object
    of the older generations, took 30-35% of a search's CPU while freeing next to nothing:
    a fixed search of 6 deals (beams of width 1-32, no deadline) left 346 objects in cycles
    in 6 CPU s. The search's own data hold no cycles; reference counting frees them. Only
    the time changes, never what is searched. When the collector comes back on, the objects
    made meanwhile are moved to its oldest generation without being walked, so the search
    does not end with one pass over all it made (it overran ``--seconds`` by 13% at 0.5 s);
    a later full pass walks what still lives then, and frees any cycle."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = 0
        self._resume = False

    def __enter__(self) -> None:
        with self._lock:
            if self._count == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._count += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._count -= 1
            if self._count == 0 and self._resume:
                # what the search left alive joins the oldest generation unwalked (freeze,
                # then unfreeze: two list splices); left young, the collector's first pass
                # walked it all at once (0.06 s after a 0.5 s search, 0.17 s after 1 s)
                gc.freeze()
                gc.unfreeze()
                gc.enable()


#: The one pause every :meth:`Solver.run` holds (see :class:`CollectorPause`).
COLLECTOR_PAUSE = CollectorPause()

_MEMO_LIMIT = 200_000  # states a memo holds before it starts again (memory, not results)
#: States whose :func:`bound.guess` is remembered at most. A guess is read when a turn's
#: outcomes are sorted and when a beam ranks its next layer, both of outcomes the expansion
#: caches hold, so the table is emptied with those caches (:meth:`Search._expand`) and then
#: keeps no state alive that they do not. Kept apart from them, at 200,000 it held 157,000
#: states no cache held any more (Ant 6 at 10 CPU s peaked at 201-215 MB, most of it that).
GUESS_LIMIT = 2 * CACHE_CHILDREN


def _memo(table: dict[State, Any], state: State, compute: Callable[[State], Any],
          limit: int = _MEMO_LIMIT) -> Any:
    """``compute(state)``, a pure function, remembered in ``table`` (emptied when it holds
    ``limit`` states: each keeps its state alive, about 0.5-1 kB)."""
    hit = table.get(state)
    if hit is None:
        if len(table) > limit:
            table.clear()
        hit = table[state] = compute(state)
    return hit


def _glass_free(state: State) -> tuple[object, ...]:
    """Everything about a state but its sunlit glass (for dominance)."""
    g = state.garden
    return (g.cols, g.rows, g.grown, g.critter_side, state.turn, state.phase, state.actions_left,
            state.used, state.protected, state.pending)


class Search:
    """Shared machinery: cached turn outcomes and bounds, and the exact sunlight search."""

    def __init__(self, deadline: float | None = None, cache_limit: int = CACHE_CHILDREN,
                 sun_nodes: int = 400, clock: Clock = time.monotonic) -> None:
        self.deadline = deadline
        self.clock = clock
        self.stop = threading.Event()
        self.sun = SunSearch(node_limit=sun_nodes, deadline=deadline, clock=clock,
                             stop=self.stop.is_set)
        self.cache: dict[State, list[tuple[State, Path]]] = {}
        #: light expansions, one table per number of growers
        self.light_caches: dict[int, dict[State, list[tuple[State, Path]]]] = {}
        self.cache_limit = cache_limit
        self.cached = 0  # outcomes held by both caches
        self.bounds: dict[State, int] = {}
        self.guesses: dict[State, float] = {}
        self.nodes = 0
        self.unproven = 0  # the largest bound of a sunlight search cut short

    def check_time(self) -> None:
        if self.stop.is_set() or (self.deadline is not None and self.clock() > self.deadline):
            raise OutOfTime

    def set_deadline(self, deadline: float | None) -> None:
        self.deadline = self.sun.deadline = deadline

    def guess(self, state: State) -> float:
        """:func:`bound.guess`, worked out once per state."""
        return _memo(self.guesses, state, guess, GUESS_LIMIT)

    def guess_of(self, known: Mapping[State, float]) -> Callable[[State], float]:
        """A state's guess: ``known``'s with one look-up (a state's hash is a method call;
        the expansions work most guesses out on the way), else :meth:`guess`."""
        get, work = known.get, self.guess

        def of(state: State) -> float:
            g = get(state)
            return g if g is not None else work(state)
        return of

    def bound(self, state: State) -> int:
        """:func:`bound.upper_bound`, worked out once per state (the table is a cache of a pure
        function, so it never changes a result)."""
        return _memo(self.bounds, state, upper_bound)

    def _expand(self, state: State, table: dict[State, list[tuple[State, Path]]],
                growers: int | None) -> list[tuple[State, Path]]:
        hit = table.get(state)
        if hit is not None:
            return hit
        self.check_time()
        self.nodes += 1
        known: dict[State, float] = {}  # the guesses the expansion works out on the way
        sun: dict[State, float] = {}  # and those of the ninth turn's sunlight outcomes
        found = expand.outcomes(state, self.check_time, growers, known, sun)
        if self.cached + len(found) > self.cache_limit:
            self.cache.clear()
            for light in self.light_caches.values():
                light.clear()
            self.guesses.clear()
            self.cached = 0
        self.guesses.update(known)
        kids = self._by_guess(found, known, sun)
        table[state] = kids
        self.cached += len(kids)
        return kids

    def _by_guess(self, found: dict[State, Path], known: dict[State, float],
                  sun: dict[State, float]) -> list[tuple[State, Path]]:
        """``found``'s outcomes, best guess first (ties in their order): what
        ``sorted(found.items(), key=lambda kv: -self.guess_of(known)(kv[0]))`` gives, the
        same guesses remembered in the same order, with less work. ``sun``: guesses the
        expansion worked out on the way but that were not in ``known`` (the ninth turn's, which
        :meth:`guess` remembers when first asked, not at the expansion): a state's is taken
        from there instead of worked out again (the same value), and remembered as
        :meth:`guess` would (:func:`_memo`). A light expansion guesses its first outcomes
        itself, in order (all but a growing step's): when ``known`` holds exactly ``found``'s
        first states (the same objects, in order; checked), their guesses are read in order
        without a look-up each; the outcomes are then sorted by index on the list of keys (a
        stable sort on the same keys: the same order)."""
        table = self.guesses

        def work(s: State) -> float:
            hit = table.get(s)
            if hit is None:
                if len(table) > GUESS_LIMIT:
                    table.clear()
                hit = sun.get(s)
                if hit is None:
                    hit = guess(s)
                table[s] = hit
            return hit

        items = list(found.items())
        n = len(known)
        if n <= len(items) and all(map(is_, known, found)):
            keys = [-g for g in known.values()]
            keys += [-work(s) for s, _ in items[n:]]
        else:
            get = known.get
            keys = [-(g if (g := get(s)) is not None else work(s)) for s, _ in items]
        return [items[i] for i in sorted(range(len(items)), key=keys.__getitem__)]

    def outcomes(self, state: State) -> list[tuple[State, Path]]:
        """Every outcome of the turn (best guess first)."""
        return self._expand(state, self.cache, None)

    def light(self, state: State, growers: int = GROWERS) -> list[tuple[State, Path]]:
        """The outcomes of a light expansion (:func:`expand.outcomes` with ``growers``); the
        full list when one is cached."""
        hit = self.cache.get(state)
        if hit is not None:
            return hit
        return self._expand(state, self.light_caches.setdefault(growers, {}), growers)

    def finish(self, state: State, alpha: int = -1) -> tuple[int, Path]:
        """Best of the sunlight phase (or the score of a finished game); a score of -1 when
        the state cannot beat ``alpha`` (see :class:`sunsearch.SunSearch`). A search cut short
        by its node budget leaves its bound in ``unproven``."""
        if state.phase == OVER:
            return state.score(), ()
        if len(self.sun.memo) > _MEMO_LIMIT:
            self.sun.memo.clear()
        value, path, exact, high = self.sun.solve(state, alpha)
        if (not exact and 0 <= alpha <= value < high
                and self.sun.node_limit < SUN_TIE_NODES):
            # a leaf as good as the best plan, cut short where it may still beat it: the
            # beams' small budget (BEAM_SUN_NODES) must not lose its better finish
            limit, self.sun.node_limit = self.sun.node_limit, SUN_TIE_NODES
            try:
                value, path, exact, high = self.sun.solve(state, alpha)
            finally:
                self.sun.node_limit = limit
        if not exact:
            self.unproven = max(self.unproven, high)
        return value, path

    def rollout(self, state: State) -> Plan:
        """Play turn by turn choosing the best one-turn outcome (score, then guess)."""
        turns: list[Path] = []
        states: list[State] = []
        while state.phase not in (SUNLIGHT, OVER):
            kids = self.outcomes(state)
            nxt, path = max(kids, key=lambda kv: (kv[0].score(), self.guess(kv[0])))
            states.append(state)
            turns.append(path)
            state = nxt
        value, path = self.finish(state)
        if state.phase == SUNLIGHT:
            states.append(state)
            turns.append(path)
        return Plan(value, turns, states)


def quick_turn(state: State) -> tuple[State, Path]:
    """One turn (or the sunlight phase) by a policy that needs no search: take no actions, grow
    whatever can grow, use every sunlit glass card, and for an effect or bonus step prefer
    moving a succulent up. Fast (milliseconds) and always legal: the solver's first plan."""
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


def quick_plan(state: State) -> Plan:
    """The whole game by :func:`quick_turn`."""
    turns: list[Path] = []
    states: list[State] = []
    while state.phase != OVER:
        nxt, path = quick_turn(state)
        states.append(state)
        turns.append(path)
        state = nxt
    return Plan(state.score(), turns, states)


def sketch_turn(state: State, tick: Callable[[], None]) -> tuple[State, Path]:
    """One turn by a cheap one-step policy: of the gardens the actions step can leave, the
    :data:`SKETCH_TRIES` best by :func:`bound.guess` before growing are each finished by
    :func:`quick_turn`, and the best outcome (score, then guess) is taken. Tens of
    milliseconds a turn: the solver's second plan, far better than the first."""
    if not expand.at_turn_start(state):
        return quick_turn(state)
    ranked = []
    for garden, path in expand.after_actions(state, tick).items():
        grow = State(state.table, garden, state.turn, GROW, state.actions_left - len(path))
        ranked.append((guess(grow), len(ranked), grow, path))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    best: tuple[tuple[int, float], State, Path] | None = None
    for _, _, grow, path in ranked[:SKETCH_TRIES]:
        tick()
        if len(path) < state.actions_left:
            path = (*path, Done())
        nxt, rest = quick_turn(grow)
        key = (nxt.score(), guess(nxt))
        if best is None or key > best[0]:
            best = (key, nxt, (*path, *rest))
    assert best is not None
    return best[1], best[2]


def sketch_plan(state: State, tick: Callable[[], None]) -> Plan:
    """The whole game by :func:`sketch_turn` (the sunlight phase by :func:`quick_turn`)."""
    turns: list[Path] = []
    states: list[State] = []
    while state.phase != OVER:
        nxt, path = sketch_turn(state, tick)
        states.append(state)
        turns.append(path)
        state = nxt
    return Plan(state.score(), turns, states)


def greedy(state: State, deadline: float | None = None) -> Plan:
    """The baseline: each turn, the outcome with the best score after it (ties: ``guess``)."""
    return Search(deadline).rollout(state)


def plan_through(search: Search, chain: list[tuple[State, Path]], last: State, alpha: int = -1
                 ) -> Plan:
    """The plan of ``chain`` (state, path per turn) ending in ``last``, with its sunlight phase
    searched (score -1 when it cannot beat ``alpha``)."""
    value, path = search.finish(last, alpha)
    states = [s for s, _ in chain]
    turns = [p for _, p in chain]
    if last.phase == SUNLIGHT:
        states.append(last)
        turns.append(path)
    return Plan(value, turns, states)


class Ranked:
    """A beam's next layer in guess order, drawn from an iterator only as far as it is read
    (:meth:`Solver.keep` looks at a few dozen of the thousands of children a wide layer has,
    so most are never ranked)."""

    def __init__(self, items: Iterator[tuple[State, Any]]) -> None:
        self.items: list[tuple[State, Any]] = []
        self._more = items

    def has(self, k: int) -> bool:
        """Whether the layer has a ``k``-th child (drawn from the iterator if need be)."""
        items = self.items
        while len(items) <= k:
            item = next(self._more, None)
            if item is None:
                return False
            items.append(item)
        return True

    def __getitem__(self, k: int) -> tuple[State, Any]:
        self.has(k)
        return self.items[k]

    def all(self) -> list[tuple[State, Any]]:
        """The whole layer, in order."""
        self.items.extend(self._more)
        return self.items


def _merged(lists: list[tuple[int, list[tuple[State, Path]]]], guess_of: Callable[[State], float]
            ) -> Iterator[tuple[State, tuple[int, Path]]]:
    """The children of a beam's layer (``lists``: each parent's index and its children, best
    guess first), each once, with its first parent's index and its path, best guess first:
    exactly the order of a stable sort by guess of the children in parent order, each kept
    where it first comes (the beam's order before, which it must keep: ties run to hundreds,
    and which of them a beam keeps decides what it finds). ``heapq.merge`` is stable (equal
    keys come in the order of the lists), so a child met again, later in the stream, comes
    from a later parent. Lazy, so a layer is ranked only as far as the beam reads it."""
    seen: set[State] = set()
    add = seen.add
    streams = [zip(kids, repeat(i)) for i, kids in lists]
    for (child, path), i in heapq.merge(*streams, key=lambda e: -guess_of(e[0][0])):
        n = len(seen)
        add(child)
        if len(seen) > n:
            yield child, (i, path)


class Solver(Search):
    """The anytime search from ``root`` (see the module's text): :meth:`run` until a deadline,
    :meth:`result` at any moment (from another thread too)."""

    def __init__(self, root: State, seconds: float | None = None,
                 clock: Clock = time.monotonic, config: Config = DEFAULT_CONFIG,
                 start: float | None = None) -> None:
        """``start``: the clock's reading the time counts from (default: now), so a portfolio
        counts its workers' start-up into their time."""
        self.start = clock() if start is None else start
        super().__init__(None if seconds is None else self.start + seconds, clock=clock,
                         cache_limit=config.cache_children or CACHE_CHILDREN)
        self.config = config
        #: the root's children in the order of :meth:`look_ahead` (``config.lookahead``)
        self.root_order: dict[State, int] | None = None
        self.seconds = seconds
        self.root = root
        self.best: Plan | None = None
        self.first_score = 0
        self.closed: set[State] = set()
        self.closed_glass: dict[tuple[object, ...], list[int]] = {}
        self.log: list[str] = []
        self.events: list[tuple[float, int, int]] = []
        self.proven_at: float | None = None
        self.finished = False
        #: called with each new best plan (on the searching thread): a portfolio's worker
        #: sends it to the parent at once
        self.on_improve: Callable[[Plan], None] | None = None

    def elapsed(self) -> float:
        return self.clock() - self.start

    def offer(self, plan: Plan, how: str, polish: bool = True) -> None:
        """Take ``plan`` if it beats the best, and then (``polish``) search its sunlight
        phase further."""
        if self.best is None or plan.score > self.best.score:
            self.best = plan
            t = self.elapsed()
            self.log.append(f"{t:.2f}s {how}: {plan.score}")
            self.events.append((round(t, 4), self.nodes + self.sun.nodes, plan.score))
            if polish:
                self.polish()
            if self.on_improve is not None:
                self.on_improve(self.best)

    def alpha(self) -> int:
        """The score a leaf must beat to matter."""
        return -1 if self.best is None else self.best.score

    def done(self) -> bool:
        """Whether the best plan meets the root's bound (nothing is left to search)."""
        assert self.best is not None
        return self.best.score >= min(MAX_SCORE, self.bound(self.root))

    # -- stage 2: beams -----------------------------------------------------------------
    def beam(self, width: int, growers: int = GROWERS, skip: int = 0,
             early: tuple[int, ...] = (), skip_layer: int = 1) -> None:
        """One beam search from the root; its layer ``skip_layer`` (1: the root's children)
        passes over its first ``skip`` children, its first layers are ``early`` wide (see
        :class:`Beam`)."""
        layer: list[tuple[State, list[tuple[State, Path]]]] = [(self.root, [])]
        first = True
        depth = 0
        name = f"beam {width}/{growers}" + (f"+{skip}" if skip else "") + (
            f"@{skip_layer}" if skip and skip_layer != 1 else "") + (
            "<" + ",".join(map(str, early)) if early else "")
        first_skip = skip if skip_layer == 1 else 0
        while layer:
            wide = early[depth] if depth < len(early) else width
            depth += 1
            # each parent's children (best guess first) and the parent's index in the layer:
            # a child's chain is made only if the beam keeps it
            lists: list[tuple[int, list[tuple[State, Path]]]] = []
            for i, (state, chain) in enumerate(layer):
                if state.phase in (SUNLIGHT, OVER):
                    self.offer(plan_through(self, chain, state, self.alpha()), name)
                    continue
                lists.append((i, self.light(state, growers)))
            assert self.best is not None
            merged = _merged(lists, self.guess_of(self.guesses))
            if skip and depth == skip_layer > 1:  # passes over this layer's first children
                merged = islice(merged, skip, None)
            ranked = Ranked(merged)
            if first:  # the root's children: the configuration's first layer and order
                first = False
                whole = ranked.all()
                order = self.root_order
                if order is not None:
                    whole.sort(key=lambda kv: order.get(kv[0], len(order)))
                kept = self.keep(whole[first_skip:], max(wide, self.config.first_layer),
                                 self.best.score, plain=order is not None)
            else:
                kept = self.keep(ranked, wide, self.best.score)
            layer = [(child, [*layer[i][1], (layer[i][0], path)])
                     for child, (i, path) in kept]

    def fits(self, beam: Beam) -> bool:
        """Whether ``beam`` is likely to end before the deadline: its expansions (the root's,
        then a layer of its width per turn left) at the time an expansion has taken so far
        (the search's own clock: CPU or wall; sunlight searches and bounds included). Cached
        expansions make a beam cheaper than this, so the estimate errs on the side of a
        filler."""
        if self.deadline is None or not self.nodes:
            return True
        left = self.deadline - self.clock()
        per = self.elapsed() / self.nodes
        layers = max(1, DARK_TURNS - self.root.turn)
        wide = [*beam.early[:layers], *[beam.width] * layers][:layers]
        return per * (1 + sum(wide)) * FIT_SHARE <= left

    def keep(self, ranked: Ranked | list[tuple[State, Any]], width: int, floor: int,
             plain: bool = False) -> list[tuple[State, Any]]:
        """The next layer of a beam: up to ``width`` of ``ranked`` (best guess first) whose
        bound beats ``floor``, in guess order; among children tied on guess, those whose bound
        is :data:`MAX_SCORE` first (see :data:`BEAM_TIE_SCAN`; not when ``plain``, for a list
        in another order). The bound is worked out only for the children looked at, and a
        :class:`Ranked` layer is ranked only as far as it is looked at."""
        if not isinstance(ranked, Ranked):
            ranked = Ranked(iter(ranked))
        has = ranked.has
        guess_of = self.guess_of(self.guesses)
        # a bound above the floor is 16
        plain = plain or floor >= MAX_SCORE - 1 or not BEAM_TIE_SCAN
        kept: list[tuple[State, Any]] = []
        i = 0
        while has(i) and len(kept) < width:
            j = -1  # plain: to the end
            if not plain:  # the run of children tied with ranked[i]
                g = guess_of(ranked[i][0])
                j = i + 1
                while has(j) and guess_of(ranked[j][0]) == g:
                    j += 1
            room = width - len(kept)
            if not plain and j - i > room:  # a tie larger than the room: its 16s first
                full: list[tuple[State, Any]] = []
                part: list[tuple[State, Any]] = []
                scan = min(j, i + BEAM_TIE_SCAN * room)
                for k in range(i, scan):
                    self.check_time()
                    b = self.bound(ranked[k][0])
                    if b >= MAX_SCORE:
                        full.append(ranked[k])
                        if len(full) == room:
                            break
                    elif b > floor:
                        part.append(ranked[k])
                kept += full
                kept += part[:room - len(full)]
                i = scan  # the rest of the run (if the room is not full) in guess order
            k = i
            while (k < j or j < 0) and has(k):  # the bound only for as many as the beam keeps
                if len(kept) == width:
                    break
                kv = ranked[k]
                self.check_time()
                if self.bound(kv[0]) > floor:
                    kept.append(kv)
                k += 1
            if j < 0:
                break
            i = j
        return kept

    def look_ahead(self, count: int, growers: int) -> None:
        """Rank the root's first ``count`` light children by guess by the guess of their own
        best light child (each expanded as a beam would: the beams find them cached), into
        :attr:`root_order`; the rest keep their guess order after them. Ordered so as it goes
        (the part looked at first), so a deadline inside still leaves an order."""
        kids = self.light(self.root, growers)
        ahead: list[tuple[float, int, State]] = []
        self.root_order = {}
        try:
            for i, (child, _) in enumerate(kids[:count]):
                if child.phase in (SUNLIGHT, OVER):
                    value = self.guess(child)
                else:
                    grand = self.light(child, growers)
                    value = self.guess(grand[0][0]) if grand else float("-inf")
                ahead.append((-value, i, child))
        finally:
            ahead.sort(key=lambda t: (t[0], t[1]))
            self.root_order = {child: k for k, (_, _, child) in enumerate(ahead)}
            for child, _ in kids:
                self.root_order.setdefault(child, len(self.root_order))

    # -- stage 3: branch and bound -------------------------------------------------------
    def is_closed(self, state: State) -> bool:
        if state in self.closed:
            return True
        masks = self.closed_glass.get(_glass_free(state))
        glass = state.garden.glass
        return masks is not None and any(m & glass == glass for m in masks)

    def close(self, state: State) -> None:
        self.closed.add(state)
        self.closed_glass.setdefault(_glass_free(state), []).append(state.garden.glass)

    def dfs(self, state: State, chain: list[tuple[State, Path]]) -> None:
        if state.phase in (SUNLIGHT, OVER):
            self.offer(plan_through(self, chain, state, self.alpha()), "branch and bound")
            return
        if self.is_closed(state):
            return
        for child, path in self.outcomes(state):
            assert self.best is not None
            if self.best.score >= MAX_SCORE:
                return
            if self.bound(child) <= self.best.score:
                continue
            self.dfs(child, [*chain, (state, path)])
        self.close(state)

    def polish(self) -> None:
        """Search the best plan's sunlight phase further when its search was cut short."""
        assert self.best is not None
        plan = self.best
        if not plan.states or plan.states[-1].phase != SUNLIGHT:
            return
        last = plan.states[-1]
        hit = self.sun.memo.get(last)
        if hit is not None and hit[0] >= hit[2]:
            return
        limit = self.sun.node_limit
        self.sun.node_limit = max(limit, POLISH_NODES)
        try:
            value, path, _, _ = self.sun.solve(last, plan.score)
        finally:
            self.sun.node_limit = limit
        if value > plan.score:
            self.best = Plan(value, [*plan.turns[:-1], path], plan.states)
            self.log.append(f"{self.elapsed():.2f}s sunlight polish: {value}")
            self.events.append((round(self.elapsed(), 4), self.nodes + self.sun.nodes, value))

    def settled(self, state: State) -> bool:
        """Whether the search has proven that nothing under ``state`` beats the best plan."""
        if state.phase == OVER or self.is_closed(state):
            return True
        if state.phase == SUNLIGHT:
            hit = self.sun.memo.get(state)
            assert self.best is not None
            return hit is not None and (hit[0] >= hit[2] or hit[2] <= self.best.score)
        return False

    def root_bound(self) -> int:
        """The proven bound: the root's, or, once its children are known, the largest bound of
        a child not searched to the end (only bounds already worked out are read, so it costs
        no search time)."""
        assert self.best is not None
        top = max(self.best.score, self.unproven)
        if self.root.phase in (SUNLIGHT, OVER) or self.is_closed(self.root):
            return top
        own = min(MAX_SCORE, self.bound(self.root))
        kids = self.cache.get(self.root)
        if kids is None:
            return max(self.best.score, own)
        for child, _ in kids:
            if top >= own:
                return own
            if not self.settled(child):
                b = self.bounds.get(child)
                top = max(top, own if b is None else b)
        return min(own, top)

    def run(self, deadline: float | None = None) -> Result:
        """Search until ``deadline`` (default: the one given at creation), :meth:`halt` or the
        proof; the result."""
        with COLLECTOR_PAUSE:
            return self._run(deadline)

    def _run(self, deadline: float | None) -> Result:
        if deadline is not None:
            self.set_deadline(deadline)
        else:
            self.set_deadline(self.deadline)
        first = quick_plan(self.root)
        self.first_score = first.score
        saved = 0
        try:
            dark = self.root.phase not in (SUNLIGHT, OVER)
            # in the dark phase the first two plans stand in for a few tenths of a second,
            # until the beams' first: their sunlight phases are not polished (see POLISH_FIRST)
            self.offer(first, "first plan", POLISH_FIRST or not dark)
            assert self.best is not None
            if dark:
                self.offer(sketch_plan(self.root, self.check_time), "sketch", POLISH_FIRST)
                limit, self.sun.node_limit = self.sun.node_limit, BEAM_SUN_NODES
                ladder = self.config.beams()
                if self.config.lookahead and ladder:
                    self.look_ahead(self.config.lookahead, ladder[0].growers)
                fillers = list(self.config.fillers)
                for beam in ladder:
                    if self.done():
                        break
                    while fillers and not self.fits(beam) and self.fits(fillers[0]):
                        filler = fillers.pop(0)
                        self.beam(filler.width, filler.growers, filler.skip, filler.early,
                                  filler.skip_layer)
                        if self.done():
                            break
                    if self.done():
                        break
                    self.beam(beam.width, beam.growers, beam.skip, beam.early, beam.skip_layer)
                self.sun.node_limit = limit
                self.unproven = 0  # the beams' cut searches prove nothing: the pass redoes them
                if not self.done():
                    self.dfs(self.root, [])
                # a whole pass done, but sunlight searches cut short by their node budget
                # leave it unproven: search again with 4 times the budget
                while (self.best.score < self.root_bound()
                       and self.sun.node_limit < SUN_NODES_MAX):
                    self.sun.node_limit *= 4
                    self.log.append(f"again, sunlight budget {self.sun.node_limit}")
                    saved, self.unproven = max(saved, self.unproven), 0
                    self.closed.clear()
                    self.closed_glass.clear()
                    self.dfs(self.root, [])
                    saved = 0  # the pass was completed: its own findings stand alone
            else:
                self.offer(plan_through(self, [], self.root, self.alpha()), "sunlight search")
        except OutOfTime:
            self.log.append("out of time")
            self.unproven = max(self.unproven, saved)
        self.finished = True
        return self.result()

    def halt(self) -> None:
        """Stop the search (from another thread); :meth:`run` returns soon after."""
        self.stop.set()

    def result(self) -> Result:
        """The best plan so far and its proven bound."""
        assert self.best is not None
        bound = self.root_bound()
        optimal = self.best.score >= bound
        if optimal and self.proven_at is None:
            self.proven_at = self.elapsed()
        return Result(self.best, bound, optimal, self.nodes + self.sun.nodes, self.elapsed(),
                      self.first_score, list(self.log), list(self.events), self.proven_at)


def solve(state: State, seconds: float = 10.0, clock: Clock = time.monotonic,
          workers: int = 1) -> Result:
    """The best plan found from ``state`` within ``seconds``, with a proven bound; with
    ``workers`` above 1, by a portfolio of that many searches (:mod:`portfolio`)."""
    if workers > 1:
        from companion.glass_garden.portfolio import Portfolio

        return Portfolio(state, seconds, clock, workers).run()
    return Solver(state, seconds, clock).run()


class Advisor:
    """A solver on a worker thread: :meth:`poll` gives the best plan so far at any moment (the
    first within milliseconds), while the search goes on improving it until ``seconds`` have
    passed, it is proven optimal, or :meth:`stop`. With ``workers`` above 1, a portfolio of
    that many searches (:mod:`portfolio`: this thread's solver and ``workers - 1`` worker
    processes, from ``pool`` or the process's shared one); polled, its best plan so far."""

    def __init__(self, state: State, seconds: float, clock: Clock = time.monotonic,
                 workers: int = 1, pool: Any = None) -> None:
        self.search: Any
        if workers > 1:
            from companion.glass_garden.portfolio import Portfolio

            self.search = Portfolio(state, seconds, clock, workers, pool)
            self.solver = self.search.solver
        else:
            self.search = self.solver = Solver(state, seconds, clock)
        self._final: Result | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="glass-garden-solver",
                                        daemon=True)
        self._thread.start()

    def _work(self) -> None:
        try:
            self._final = self.search.run()
        except BaseException as exc:  # handed to whoever waits
            self._error = exc

    def poll(self) -> Result | None:
        """The best plan so far (None only in the first instants)."""
        if self._final is not None:
            return self._final
        if self.solver.best is None:
            return None
        return self.search.result()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def wait(self, timeout: float | None = None) -> Result:
        """The final result (after the deadline or the proof)."""
        self._thread.join(timeout)
        if self._error is not None:
            raise self._error
        result = self._final or self.poll()
        assert result is not None
        return result

    def stop(self) -> Result:
        """Stop searching now; the best plan found."""
        self.search.halt()
        return self.wait()
