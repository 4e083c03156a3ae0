"""The greedy baseline, the solver and its bound, and the tracker."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from companion.errors import StateError
from companion.glass_garden import actions, solver
from companion.glass_garden.actions import Done
from companion.glass_garden.bound import upper_bound
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import OVER, SUNLIGHT, State, new_game
from companion.glass_garden.solver import greedy, quick_turn, solve
from companion.glass_garden.tracker import GameTracker
from companion.glass_garden.turns import SunlightSolver, turn_outcomes


class FakeClock:
    """A clock that moves on by ``step`` seconds each time it is read: the search sees time
    pass however fast or slow the machine is, so deadlines are tested without timing."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def replay(state, turns):  # type: ignore[no-untyped-def]
    for path in turns:
        for action in path:
            state = state.apply(action)  # checked: every action must be legal
    return state


@pytest.mark.parametrize("critter", ["Fly", "Snail", "Ant", "Worm"])
def test_solver_plan_replays_to_its_score_and_greedy_to_its_own(critter: str) -> None:
    s = new_game(load_deck(), critter, seed=11)
    base = greedy(s)
    result = solve(s, 1.0, clock=FakeClock(0.0005))  # a fixed amount of work
    assert replay(s, base.turns).score() == base.score
    final = replay(s, result.plan.turns)
    assert final.is_terminal() and final.score() == result.plan.score
    assert result.plan.score >= result.greedy_score  # the first plan's, at least
    assert result.bound >= result.plan.score
    assert result.optimal == (result.plan.score == result.bound)
    assert len(result.plan.turns) == 10


def test_turn_outcomes_are_distinct_next_turn_states() -> None:
    s = new_game(load_deck(), "Fly", seed=2)
    outs = turn_outcomes(s)
    assert len(outs) > 100
    assert all(o.turn == 2 and o.phase == "actions" for o in outs)
    for child, path in list(outs.items())[:20]:
        assert replay(s, [path]) == child


def test_the_quick_turn_enumeration_gives_the_same_outcomes_as_trying_every_action() -> None:
    """From a dark turn's start, :func:`turns.turn_outcomes` enumerates the actions step on
    gardens and skips growing where nothing can grow; it must find exactly the outcomes that
    trying every action of every state finds, each with a path that replays to it."""
    import random

    from companion.glass_garden.turns import _explore

    rng = random.Random(3)
    for game in range(4):
        s = new_game(load_deck(), ["Fly", "Snail", "Ant", "Worm"][game], seed=game)
        while s.turn < 10:
            fast = turn_outcomes(s)
            assert set(fast) == set(_explore(s))
            for child in rng.sample(list(fast), 10):
                assert replay(s, [fast[child]]) == child
            s = rng.choice(list(fast))


def test_bound_never_below_a_found_score_and_exact_at_the_end() -> None:
    s = new_game(load_deck(), "Ant", seed=4)
    plan = greedy(s)
    state = s
    for path in plan.turns:
        assert upper_bound(state) >= plan.score
        state = replay(state, [path])
    assert state.is_terminal() and upper_bound(state) == state.score()


def test_sunlight_solver_is_exact_on_a_small_case() -> None:
    s = new_game(load_deck(), "Fly", seed=0)
    while s.phase != "sunlight":
        s = s.apply(Done())
    value, path, exact = SunlightSolver().solve(s)
    assert exact and value == 0 and replay(s, [path]).score() == 0


def test_tracker_confirms_undoes_syncs_and_advises() -> None:
    t = GameTracker.deal(load_deck(), "Fly", seed=1)
    start = t.state
    t.choose(len(t.options()) - 1)  # done
    assert t.state.phase == "grow"
    t.undo()
    assert t.state == start
    with pytest.raises(StateError):
        t.choose(999)
    advice = t.advise(0.3)
    story = t.confirm_turn(advice.plan.turns[0])
    assert t.state.turn == 2 and story.score_after == t.state.score()
    before = t.state
    t.sync(t.snapshot())  # e.g. a scan of the same position
    assert t.state == before
    t.undo()
    t.undo()
    assert t.state == start
    with pytest.raises(StateError):
        t.undo()


@pytest.mark.parametrize("critter", ["Fly", "Ant"])
def test_a_short_time_still_gives_a_whole_legal_plan_on_time(
        critter: str) -> None:
    s = new_game(load_deck(), critter, seed=5)
    clock = FakeClock(0.05)  # every read of the clock costs 0.05 "seconds"
    result = solve(s, 0.5, clock=clock)
    assert "out of time" in result.log
    final = replay(s, result.plan.turns)  # checked: every action legal
    assert final.is_terminal() and final.score() == result.plan.score
    assert result.bound >= result.plan.score
    assert result.plan.turns and result.plan.states[0] == s
    # the search stopped at its deadline: a few reads past 0.5 s (the check, the result)
    assert clock.now - 1000.0 <= 0.5 + 0.05 * 4


def test_solve_with_half_a_second_returns_a_legal_plan() -> None:
    s = new_game(load_deck(), "Worm", seed=3)
    result = solve(s, 0.5)
    final = replay(s, result.plan.turns)
    assert final.is_terminal() and final.score() == result.plan.score <= result.bound
    assert len(result.plan.turns) == 10


def test_quick_turn_plays_one_legal_turn_and_grows_what_it_can() -> None:
    s = new_game(load_deck(), "Snail", seed=2)
    turns = 0
    while not s.is_terminal():
        before = s
        s, path = quick_turn(s)
        assert replay(before, [path]) == s
        assert s.is_terminal() or s.turn == before.turn + 1
        turns += 1
    assert turns == 10


def test_bound_table_and_guess_table_do_not_change_the_search() -> None:
    from companion.glass_garden.bound import guess
    from companion.glass_garden.solver import Search

    s = new_game(load_deck(), "Fly", seed=4)
    search = Search()
    for child, _ in search.outcomes(s)[:50]:
        assert search.bound(child) == upper_bound(child)
        assert search.guess(child) == guess(child)


def test_light_expansions_of_each_growers_count_are_kept_apart() -> None:
    """The beam ladder may mix light expansions of 8 and 16 growers: each is cached under its
    own count, and the one from fewer gardens is part of the one from more."""
    from companion.glass_garden import expand
    from companion.glass_garden.solver import Search

    s = new_game(load_deck(), "Ant", seed=3)
    search = Search()
    few, more = search.light(s, 8), search.light(s, 16)
    assert [k for k, _ in few] != [k for k, _ in more]
    assert {k for k, _ in few} <= {k for k, _ in more}
    assert set(dict(few)) == set(expand.outcomes(s, growers=8))
    assert search.light(s, 8) is few and search.light(s, 16) is more



def _known_sunlight(critter: str, seed: int) -> State:
    """The sunlight phase of the deal's best-known plan (its actions read with literals
    only)."""
    rows = json.loads((Path(__file__).resolve().parents[2] / "benchmarks"
                       / "glass_garden_best_known.json").read_text())
    row = next(r for r in rows if (r["critter"], r["seed"]) == (critter, seed))
    state = new_game(load_deck(), critter, seed=seed)
    for text in row["plan"][:9]:
        for part in text.split(";"):
            call = ast.parse(part.strip(), mode="eval").body
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            state = state.apply(getattr(actions, call.func.id)(
                **{k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg}))
    return state


def test_a_leaf_cut_short_at_the_best_score_gets_the_tie_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ant 28's best-known plan at its sunlight phase: within the beams' 100 nodes the search
    finds 15 and is cut short below its bound; asked to beat a best plan of 15, the leaf is
    searched again with SUN_TIE_NODES (off by default) and its 16 found (without it, the beam
    keeps 15 and loses the 16 it reached)."""
    state = _known_sunlight("Ant", 28)
    assert state.phase == SUNLIGHT and upper_bound(state) == 16
    monkeypatch.setattr(solver, "SUN_TIE_NODES", 0)
    cut = solver.Search(sun_nodes=solver.BEAM_SUN_NODES)
    assert cut.finish(state, 15)[0] == 15 and cut.unproven == 16
    monkeypatch.setattr(solver, "SUN_TIE_NODES", 300)
    tie = solver.Search(sun_nodes=solver.BEAM_SUN_NODES)
    value, path = tie.finish(state, 15)
    assert value == 16 and tie.sun.node_limit == solver.BEAM_SUN_NODES
    for action in path:
        state = state.apply(action)
    assert state.phase == OVER and state.score() == 16
    # below the best plan's score nothing is searched again
    low = solver.Search(sun_nodes=solver.BEAM_SUN_NODES)
    assert low.finish(_known_sunlight("Ant", 28), 16)[0] < 16 and low.sun.nodes <= 1
