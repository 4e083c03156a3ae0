"""A beam's first layer: the root's children a ladder's later beam passes over (``Beam.skip``).

The 16-lines the narrow beams miss start, on the Ant deals, with a first turn ranked 1-100th
of about 1,000 by guess: a beam that passes over the first turns earlier beams took tries
others. Checked on real positions with no deadline (nothing here depends on the machine's
speed): a width-1 beam's plan starts with the child it should, whatever the skip.
"""

from __future__ import annotations

import pytest

from companion.glass_garden import portfolio
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import State, new_game
from companion.glass_garden.solver import (
    BEAM_WIDTHS,
    DEFAULT_CONFIG,
    GROWERS,
    Beam,
    Plan,
    Solver,
    quick_plan,
)

DECK = load_deck()


def _first_turn(root: State, skip: int) -> State:
    """The state after the first turn of a width-1 beam's plan from ``root``."""
    solver = Solver(root, None)
    solver.best = Plan(-1, [], [])  # any plan beats it: the beam's own is kept
    solver.beam(1, GROWERS, skip)
    assert solver.best.score >= 0 and len(solver.best.states) > 1
    return solver.best.states[1]


@pytest.mark.parametrize("skip", [0, 1, 5])
def test_a_beam_passes_over_the_first_children(skip: int) -> None:
    root = new_game(DECK, "Ant", seed=103)
    kids = Solver(root, None).light(root, GROWERS)  # best guess first, as the beam ranks them
    assert _first_turn(root, skip) == kids[skip][0]


def test_the_skipping_ladder_gives_a_legal_plan_and_a_sound_verdict() -> None:
    from test_gg_portfolio import StepClock, replays_to

    state = new_game(DECK, "Ant", seed=4)
    assert any(beam.skip for beam in DEFAULT_CONFIG.beams())
    result = Solver(state, 0.6, StepClock(0.0005)).run()
    assert replays_to(state, result.plan)
    assert result.plan.score >= quick_plan(state).score and result.bound >= result.plan.score


def test_the_ladder_tries_other_first_and_second_turns_after_width_8() -> None:
    ladder = DEFAULT_CONFIG.beams()
    assert Beam(8).skip == 0 and ladder[:4] == tuple(Beam(w) for w in (1, 2, 4, 8))
    # each beam over other first turns followed by one over other second turns
    assert [(b.skip, b.skip_layer) for b in ladder if b.skip] == [
        (8, 1), (16, 2), (12, 1), (8, 2), (16, 1), (24, 2), (20, 1), (12, 2)]
    assert all(b.width == 4 and b.growers == GROWERS for b in ladder if b.skip)
    assert [b.width for b in ladder if not b.skip] == list(BEAM_WIDTHS)
    assert portfolio.VARIANTS["skip1"].beams() == tuple(b for b in ladder if b.skip_layer == 1)
    assert portfolio.VARIANTS["plain"].beams() == tuple(Beam(w) for w in BEAM_WIDTHS)
