"""The greedy baseline, the solver and its bound, and the tracker."""

from __future__ import annotations

import pytest

from companion.errors import StateError
from companion.glass_garden.actions import Done
from companion.glass_garden.bound import upper_bound
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import new_game
from companion.glass_garden.solver import greedy, solve
from companion.glass_garden.tracker import GameTracker
from companion.glass_garden.turns import SunlightSolver, turn_outcomes


def replay(state, turns):  # type: ignore[no-untyped-def]
    for path in turns:
        for action in path:
            state = state.apply(action)  # checked: every action must be legal
    return state


@pytest.mark.parametrize("critter", ["Fly", "Snail", "Ant", "Worm"])
def test_solver_plan_replays_to_its_score_and_beats_or_ties_greedy(critter: str) -> None:
    s = new_game(load_deck(), critter, seed=11)
    base = greedy(s)
    result = solve(s, 0.8)
    assert replay(s, base.turns).score() == base.score
    final = replay(s, result.plan.turns)
    assert final.is_terminal() and final.score() == result.plan.score
    assert result.plan.score >= base.score == result.greedy_score
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
