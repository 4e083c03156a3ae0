"""The order in which a beam keeps the children of a layer (``Solver.keep``).

A beam ranks a layer's children by ``bound.guess`` and keeps up to its width of those whose
bound beats the best plan. At turn 9 the guess saturates: hundreds of sunlight-phase children
tie, and only a few of them can still reach 16. Among tied children the beam keeps those
whose bound is 16 first (``solver.BEAM_TIE_SCAN``), so a stored 16-scoring line's child, tied
with siblings whose bound is 15 or less, is kept where guess order alone drops it.
"""

from __future__ import annotations

import pytest
from test_gg_bound_known_plans import ROWS, replay

from companion.glass_garden import solver
from companion.glass_garden.game import ACTIONS, SUNLIGHT, State
from companion.glass_garden.scoring import MAX_SCORE
from companion.glass_garden.solver import Solver


def _turn9(seed: int) -> tuple[Solver, list[tuple[State, object]], State]:
    """A solver at the turn-9 state of the stored Ant plan of ``seed``, that state's light
    outcomes ranked as a beam ranks them, and the plan's own sunlight-phase child."""
    row = next(r for r in ROWS if r["critter"] == "Ant" and r["seed"] == seed)
    states = replay(row)
    t9 = next(s for s in states if s.turn == 9 and s.phase == ACTIONS)
    sun = next(s for s in states if s.phase == SUNLIGHT)
    search = Solver(t9, None)
    kids = search.light(t9)
    ranked = sorted(kids, key=lambda kv: -search.guess(kv[0]))
    line = next(c for c, _ in kids if c.garden == sun.garden)
    return search, ranked, line


def _kept(search: Solver, ranked: list[tuple[State, object]], width: int, floor: int
          ) -> list[State]:
    return [c for c, _ in search.keep(ranked, width, floor)]


def test_a_tied_16_line_child_is_kept_where_guess_order_drops_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    search, ranked, line = _turn9(15)
    assert search.bound(line) == MAX_SCORE
    # tied with the first child by guess, behind siblings that cannot reach 16
    assert search.guess(line) == search.guess(ranked[0][0])
    assert ranked[0][0] is not line and search.bound(ranked[0][0]) < MAX_SCORE
    kept = _kept(search, ranked, 1, 14)
    assert kept == [line]
    monkeypatch.setattr(solver, "BEAM_TIE_SCAN", 0)  # guess order alone
    plain = _kept(search, ranked, 1, 14)
    assert line not in plain and len(plain) == 1


@pytest.mark.parametrize("width", [1, 4, 8])
@pytest.mark.parametrize("floor", [13, 14, 15])
def test_kept_children_beat_the_floor_and_16s_come_first(
        monkeypatch: pytest.MonkeyPatch, width: int, floor: int) -> None:
    search, ranked, _ = _turn9(35)
    kept = _kept(search, ranked, width, floor)
    assert len(kept) == width
    assert all(search.bound(c) > floor for c in kept)
    # the 16s first, then the rest, each in guess order
    bounds = [min(MAX_SCORE, search.bound(c)) for c in kept]
    assert bounds == sorted(bounds, reverse=True)
    order = {c: i for i, (c, _) in enumerate(ranked)}
    for b in set(bounds):
        idx = [order[c] for c, bc in zip(kept, bounds, strict=True) if bc == b]
        assert idx == sorted(idx)
    monkeypatch.setattr(solver, "BEAM_TIE_SCAN", 0)
    plain = _kept(search, ranked, width, floor)
    if floor >= MAX_SCORE - 1:  # a bound above 15 is a 16: nothing to prefer
        assert plain == kept
    else:  # guess order alone: the first ``width`` that beat the floor
        assert plain == [c for c, _ in ranked if search.bound(c) > floor][:width]
