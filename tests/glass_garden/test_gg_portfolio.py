"""The solver's portfolio: searches in worker processes beside the parent's own.

What the portfolio tells from its searches' words is checked on made-up views (no process):
the best plan of all, the least proven bound, "optimal" only when they meet. The processes are
checked on real positions with no deadline (so nothing here depends on the machine's speed):
a worker's proof stops the parent, a killed worker leaves the parent's plan, the Advisor has a
plan while the workers search, and no worker outlives its pool or a killed parent.
"""

from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.glass_garden import actions, portfolio
from companion.glass_garden.actions import Action
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import SUNLIGHT, State, new_game
from companion.glass_garden.portfolio import (
    Portfolio,
    SearchView,
    WorkerPool,
    combine,
    pack_state,
    unpack_state,
)
from companion.glass_garden.solver import (
    DEFAULT_CONFIG,
    Advisor,
    Config,
    Plan,
    Result,
    Solver,
    quick_plan,
    solve,
)

ROOT = Path(__file__).resolve().parents[2]
BEST_KNOWN = ROOT / "benchmarks" / "glass_garden_best_known.json"
DECK = load_deck()
#: Generous limits for a process to answer: failures only, never a measure of speed.
PATIENCE = 120.0


class StepClock:
    """A clock that moves ``step`` seconds each time it is read (the solver tests' own)."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _action(text: str) -> Action:
    call = ast.parse(text.strip(), mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
    return getattr(actions, call.func.id)(
        **{k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg})


def known_line(critter: str, seed: int, turns: int) -> State:
    """The state after the first ``turns`` turns of the deal's stored 16-point plan: a 16 is
    still to be had, and near the end a search finds and proves it in a moment."""
    row = next(r for r in json.loads(BEST_KNOWN.read_text())
               if r["critter"] == critter and r["seed"] == seed)
    state = new_game(DECK, critter, seed=seed)
    for turn in row["plan"][:turns]:
        for text in turn.split(";"):
            state = state.apply(_action(text))
    return state


def replays_to(root: State, plan: Plan) -> bool:
    state = root
    for path in plan.turns:
        for action in path:
            state = state.apply(action)  # checked
    return state.is_terminal() and state.score() == plan.score


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting for its parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def wait_until(test: Any, limit: float = PATIENCE) -> bool:
    end = time.monotonic() + limit
    while not test():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    p = WorkerPool()
    yield p
    p.close()


# -- the verdict from the searches' words (no process) ----------------------------------------

def view(score: int, bound: int | None, events: list[tuple[float, int]] | None = None,
         bounds: list[tuple[float, int]] | None = None) -> SearchView:
    v = SearchView("test", score, None, bound)
    v.events = [(t, 0, s) for t, s in (events or [(1.0, score)])]
    v.bounds = bounds if bounds is not None else ([] if bound is None else [(1.0, bound)])
    return v


def test_the_best_plan_of_all_and_the_least_bound() -> None:
    best, score, bound, optimal, _ = combine([view(13, 16), view(15, 16), view(15, 16)])
    assert (best, score, bound, optimal) == (1, 15, 16, False)  # ties: the lowest search


def test_optimal_when_one_search_bound_meets_another_search_plan() -> None:
    parent = view(14, 15, [(0.2, 14)], [(0.0, 16), (3.0, 15)])
    worker = view(15, 16, [(2.0, 15)], [(0.0, 16)])
    best, score, bound, optimal, proven_at = combine([parent, worker])
    assert (best, score, bound, optimal) == (1, 15, 15, True)
    assert proven_at == 3.0  # the plan at 2.0, the bound it meets at 3.0


def test_never_optimal_below_the_best_plan() -> None:
    # a bound below another search's plan cannot hold; the verdict never calls a plan below
    # the best optimal, and the bound it reports is never below the best plan
    _, score, bound, optimal, _ = combine([view(13, 13), view(15, 16)])
    assert score == 15 and bound >= score and optimal
    _, score, bound, optimal, _ = combine([view(13, 16), view(14, None)])
    assert (score, bound, optimal) == (14, 16, False)  # a search with no bound yet
    assert not combine([view(12, 14), view(13, 14)])[3]


def test_a_sixteen_anywhere_is_optimal_at_once() -> None:
    parent = view(12, 16, [(0.1, 12)], [(0.0, 16)])
    worker = view(16, 16, [(0.4, 13), (0.9, 16)], [(0.0, 16), (0.9, 16)])
    assert combine([parent, worker])[1:] == (16, 16, True, 0.9)


# -- a position from process to process -------------------------------------------------------

def test_a_state_crosses_processes_with_its_hashes_worked_out_again() -> None:
    state = known_line("Fly", 0, 3)
    mid = state.apply(state.legal_actions()[0])
    while not mid.pending and mid.turn == state.turn:  # a state with pending steps, if any
        mid = mid.apply(mid.legal_actions()[0])
    for s in (state, mid):
        tables: dict[bytes, Any] = {}
        back = unpack_state(pack_state(s), tables)
        assert back == s and back.legal_actions() == s.legal_actions()
        assert unpack_state(pack_state(s), tables).table is back.table  # one table per deck


# -- one search, several searches ---------------------------------------------------------------

def test_one_search_is_the_solver_itself() -> None:
    state = new_game(DECK, "Worm", seed=3)
    alone = Solver(state, 0.5, StepClock(0.0005)).run()
    one = Portfolio(state, 0.5, StepClock(0.0005), searches=1).run()
    assert (one.plan.turns, one.bound, one.optimal, one.events) == (
        alone.plan.turns, alone.bound, alone.optimal, alone.events)
    assert solve(state, 0.5, StepClock(0.0005), workers=1).events == alone.events
    assert Advisor(state, 0.5, StepClock(0.0005)).wait().events == alone.events


@pytest.mark.parametrize("name", ["g8", "first32", "look64"])
def test_each_configuration_gives_a_legal_plan_and_a_sound_verdict(name: str) -> None:
    state = new_game(DECK, "Ant", seed=4)
    result = Solver(state, 0.4, StepClock(0.0005), portfolio.VARIANTS[name]).run()
    assert replays_to(state, result.plan)
    assert result.plan.score >= quick_plan(state).score and result.bound >= result.plan.score


def test_the_portfolio_names_a_configuration_for_every_search() -> None:
    assert portfolio.config_of(0) is DEFAULT_CONFIG
    names = [portfolio.config_of(i).name for i in range(1, 9)]
    assert set(names) == set(portfolio.PORTFOLIO[1:])


def test_the_searches_share_the_cache_limit() -> None:
    state = new_game(DECK, "Fly", seed=1)
    assert Portfolio(state, 1.0, searches=1).configs == (DEFAULT_CONFIG,)
    two = Portfolio(state, 1.0, searches=2)
    assert [c.cache_children for c in two.configs] == [portfolio.PORTFOLIO_CACHE // 2] * 2
    assert two.solver.cache_limit == portfolio.PORTFOLIO_CACHE // 2
    assert [c.name for c in two.configs] == list(portfolio.PORTFOLIO[:2])


def test_a_worker_proof_stops_every_search(pool: WorkerPool) -> None:
    """The parent's own search is held back (it only waits to be stopped); a worker, with no
    deadline, finds and proves the 16: the parent is told and stops, with the worker's plan."""
    root = known_line("Worm", 5, 7)
    search = Portfolio(root, None, searches=2, pool=pool,
                       configs=(Config("held"), portfolio.VARIANTS["g8"]))
    solver = search.solver

    def held_back(deadline: float | None = None) -> Result:
        solver.offer(quick_plan(root), "first plan", polish=False)
        assert solver.stop.wait(PATIENCE), "the worker's proof did not stop the parent"
        solver.finished = True
        return solver.result()

    solver.run = held_back  # type: ignore[method-assign]
    result = search.run()
    assert result.optimal and result.plan.score == 16 == result.bound
    assert result.searches[1]["optimal"] and result.searches[1]["done"]
    assert replays_to(root, result.plan)
    assert result.proven_at is not None


def test_the_parent_proof_stops_the_workers(pool: WorkerPool) -> None:
    """Workers with no deadline, on a deal they take many seconds over, are stopped as soon
    as the parent holds a plan that meets the bound (here: a stored 16 offered at once)."""
    root = new_game(DECK, "Ant", seed=10)
    line = known_line("Ant", 10, 0)
    assert line == root
    row = next(r for r in json.loads(BEST_KNOWN.read_text())
               if r["critter"] == "Ant" and r["seed"] == 10)
    turns = [tuple(_action(t) for t in turn.split(";")) for turn in row["plan"]]
    states, state = [], root
    for path in turns:
        states.append(state)
        for action in path:
            state = state.apply(action)
    search = Portfolio(root, None, searches=3, pool=pool)
    solver = search.solver

    def parent(deadline: float | None = None) -> Result:
        assert wait_until(lambda: search.views[1].score >= 0 and search.views[2].score >= 0)
        solver.offer(Plan(16, turns, states), "stored", polish=False)
        solver.finished = True
        return solver.result()

    solver.run = parent  # type: ignore[method-assign]
    result = search.run()
    assert result.optimal and result.plan.score == result.bound == 16
    assert result.plan.turns == turns
    assert all(s["done"] and not s["failed"] for s in result.searches)


def test_a_killed_worker_leaves_the_parent_plan(pool: WorkerPool) -> None:
    root = new_game(DECK, "Ant", seed=6)  # no proof for many seconds
    search = Portfolio(root, None, searches=2, pool=pool)
    solver = search.solver
    killed: list[int] = []

    def parent(deadline: float | None = None) -> Result:
        solver.offer(quick_plan(root), "first plan", polish=False)
        assert wait_until(lambda: search.views[1].score >= 0), "the worker sent no plan"
        pid = pool.procs[1].process.pid
        killed.append(pid)
        os.kill(pid, signal.SIGKILL)
        assert wait_until(lambda: search.views[1].failed is not None)
        solver.finished = True
        return solver.result()

    solver.run = parent  # type: ignore[method-assign]
    result = search.run()
    assert result.searches[1]["failed"] and not result.optimal
    assert result.plan.score == max(quick_plan(root).score, search.views[1].score)
    assert replays_to(root, result.plan)
    assert wait_until(lambda: gone(killed[0]))
    again = Portfolio(known_line("Fly", 2, 8), None, searches=2, pool=pool).run()
    assert again.optimal and not again.searches[1]["failed"]  # a new worker took its place


def test_the_advisor_has_a_plan_while_the_workers_search(pool: WorkerPool) -> None:
    root = new_game(DECK, "Ant", seed=14)
    advisor = Advisor(root, 600.0, workers=2, pool=pool)
    first = None
    assert wait_until(lambda: advisor.poll() is not None)
    first = advisor.poll()
    assert first is not None and advisor.running and replays_to(root, first.plan)
    assert wait_until(lambda: (advisor.poll() or first).searches[1]["score"] >= 0)
    result = advisor.stop()
    assert not advisor.running and replays_to(root, result.plan)
    assert result.plan.score >= first.plan.score
    assert result.bound >= result.plan.score
    assert all(s["done"] or s["failed"] for s in result.searches)


def test_the_sunlight_phase_in_a_portfolio(pool: WorkerPool) -> None:
    root = known_line("Snail", 1, 9)
    assert root.phase == SUNLIGHT
    result = Portfolio(root, None, searches=2, pool=pool).run()
    assert result.optimal and replays_to(root, result.plan)


def test_no_worker_outlives_its_pool() -> None:
    own = WorkerPool()
    own.warm(2)
    pids = own.pids()
    assert len(pids) == 2 and not any(gone(p) for p in pids)
    own.close()
    assert wait_until(lambda: all(gone(p) for p in pids))


KILLED_PARENT = """
import os, signal, sys
from companion.glass_garden.portfolio import WorkerPool
if __name__ == "__main__":
    pool = WorkerPool()
    pool.warm(2)
    from multiprocessing import forkserver
    print(*pool.pids(), forkserver._forkserver._forkserver_pid, flush=True)
    sys.stdin.readline()
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_no_worker_outlives_a_killed_parent(tmp_path: Path) -> None:
    script = tmp_path / "parent.py"
    script.write_text(KILLED_PARENT)
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stdin is not None
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()))  # type: ignore[union-attr]
    reader.start()
    reader.join(PATIENCE)
    pids = [int(p) for p in line[0].split()]
    assert len(pids) == 3 and not any(gone(p) for p in pids)
    proc.stdin.write("\n")
    proc.stdin.flush()
    assert proc.wait(PATIENCE) == -signal.SIGKILL
    assert wait_until(lambda: all(gone(p) for p in pids)), "a worker outlived its parent"


def test_the_look_ahead_ranks_the_first_children_by_their_best_child() -> None:
    root = new_game(DECK, "Ant", seed=15)
    solver = Solver(root, None)
    solver.look_ahead(6, 16)
    kids = solver.light(root, 16)
    order = solver.root_order
    assert order is not None and set(order) == {child for child, _ in kids}
    first = sorted((child for child, _ in kids[:6]), key=order.__getitem__)
    ahead = [solver.guess(solver.light(child, 16)[0][0]) for child in first]
    assert ahead == sorted(ahead, reverse=True)  # the six first, by their best child's guess
    assert sorted(order.values())[6:] == [order[child] for child, _ in kids[6:]]
