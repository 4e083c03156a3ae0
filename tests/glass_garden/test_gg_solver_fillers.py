"""Fillers: a beam of the ladder that would not end before the deadline gives way to cheaper
beams that would (``Config.fillers``, ``Solver.fits``; the ``fill`` and ``from4g8f``
configurations, measured and not the default).

At 2.5 s the default search's width-16 beam (and the second search's width-32 one) started on
an unproven deal too late to end, and a beam cut short finds nothing; the time goes instead to
more width-4 beams over other first turns. Checked with a hand-driven clock and a recorded
ladder (nothing here depends on the machine's speed), and a whole run for a legal plan.
"""

from __future__ import annotations

from companion.glass_garden import portfolio
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import new_game
from companion.glass_garden.solver import (
    DEFAULT_CONFIG,
    FILLERS,
    Beam,
    Config,
    Solver,
    quick_plan,
)

DECK = load_deck()


class Hand:
    """A clock read by the solver, moved by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_fits_weighs_a_beam_by_the_cpu_an_expansion_took() -> None:
    hand = Hand()
    solver = Solver(new_game(DECK, "Ant", seed=103), 2.5, hand)
    assert solver.fits(Beam(128))  # nothing expanded yet: no estimate
    solver.nodes = 100
    hand.now = 1.0  # 10 ms an expansion, 1.5 s left; a turn-1 root: 8 layers after it
    assert solver.fits(Beam(16))  # 129 expansions, 1.29 s
    assert not solver.fits(Beam(32))  # 257 expansions
    assert not solver.fits(Beam(19))  # 153 expansions
    assert solver.fits(Beam(19, early=(1,)))  # 1 + 1 + 7 * 19 = 135 expansions
    hand.now = 2.2
    assert solver.fits(Beam(1)) and not solver.fits(Beam(4))  # 33 expansions, 0.33 s > 0.3 s
    assert Solver(solver.root, None, hand).fits(Beam(128))  # no deadline: every beam fits


def _ladder_run(fits: set[int]) -> list[Beam]:
    """The beams a run calls, in order, when exactly the widths ``fits`` fit."""
    config = Config("t", (Beam(1), Beam(16), Beam(32)),
                    fillers=(Beam(4, skip=8), Beam(4, skip=12), Beam(8, skip=16)))
    solver = Solver(new_game(DECK, "Ant", seed=103), 60.0, config=config)
    called: list[Beam] = []
    solver.beam = lambda w, g, skip, early, layer=1: called.append(  # type: ignore
        Beam(w, g, skip, early, layer))
    solver.fits = lambda beam: beam.width in fits  # type: ignore[method-assign]
    solver.dfs = lambda state, chain: None  # type: ignore[method-assign]
    solver.run()
    return called


def test_a_beam_that_does_not_fit_gives_way_to_the_fillers_that_do_each_once() -> None:
    assert _ladder_run({1, 4, 8, 16, 32}) == [Beam(1), Beam(16), Beam(32)]
    assert _ladder_run({1, 4, 8}) == [Beam(1), Beam(4, skip=8), Beam(4, skip=12),
                                      Beam(8, skip=16), Beam(16), Beam(32)]
    # a filler that does not fit stops the fillers (in order); the ladder goes on
    assert _ladder_run({1, 4}) == [Beam(1), Beam(4, skip=8), Beam(4, skip=12), Beam(16),
                                   Beam(32)]
    assert _ladder_run({1, 16}) == [Beam(1), Beam(16), Beam(32)]


def test_the_fillers_are_measured_variants_not_the_default() -> None:
    assert DEFAULT_CONFIG.fillers == () and portfolio.VARIANTS["from4g8"].fillers == ()
    fill = portfolio.VARIANTS["fill"]
    assert fill.fillers == FILLERS and FILLERS[0] == Beam(4, skip=24)
    assert fill.beams() == DEFAULT_CONFIG.beams()
    assert all(b.width == 4 and b.skip % 4 == 0 for b in FILLERS)
    second = portfolio.VARIANTS["from4g8f"]
    assert second.beams() == portfolio.VARIANTS["from4g8"].beams()
    assert {(b.width, b.growers) for b in second.fillers} == {(4, 8)}


def test_a_short_run_with_fillers_gives_a_legal_plan_and_a_sound_verdict() -> None:
    from test_gg_portfolio import StepClock, replays_to

    state = new_game(DECK, "Ant", seed=102)
    result = Solver(state, 0.8, StepClock(0.0005), portfolio.VARIANTS["fill"]).run()
    assert replays_to(state, result.plan)
    assert result.plan.score >= quick_plan(state).score and result.bound >= result.plan.score
