"""Properties over random play (hypothesis): the garden's invariants and the solver's promise."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import new_game
from companion.glass_garden.garden import CRITTER, MIDDLE
from companion.glass_garden.scoring import MAX_SCORE, score
from companion.glass_garden.solver import solve

DECK = load_deck()
CRITTERS = st.sampled_from([c.name for c in DECK.critters])


@settings(max_examples=25, deadline=None)
@given(critter=CRITTERS, seed=st.integers(0, 10_000), data=st.data())
def test_random_games_keep_the_garden_whole(critter: str, seed: int, data: st.DataObject) -> None:
    s = new_game(DECK, critter, seed=seed)
    steps = 0
    while not s.is_terminal() and steps < 400:
        actions = s.legal_actions()
        assert actions, "a live game always has a legal action"
        s = s.apply(data.draw(st.sampled_from(actions)))
        g = s.garden
        assert len(g.cols) == 9 and sorted(g.cols) == [CRITTER, *range(8)]
        assert g.critter_col == min(s.turn, 9) - 1  # the critter only moves by advancing
        assert all(0 <= r <= 2 for r in g.rows)
        assert 0 <= score(g) <= min(MAX_SCORE, 2 * bin(g.grown).count("1"))
        assert score(g) >= bin(g.grown).count("1")
        steps += 1
    if s.is_terminal():
        assert s.returns() == [float(s.score())]
    # the critter has no row of its own: it is always drawn (and counted) in the middle row
    lines = s.garden.picture().splitlines()
    assert [i for i, line in enumerate(lines) if "CRIT" in line] == [MIDDLE]


@settings(max_examples=4, deadline=None)
@given(critter=CRITTERS, seed=st.integers(0, 10_000))
def test_a_solved_plan_replays_to_the_promised_score(critter: str, seed: int) -> None:
    s = new_game(DECK, critter, seed=seed)
    result = solve(s, 0.3)
    for path in result.plan.turns:
        for action in path:
            s = s.apply(action)
    assert s.is_terminal() and s.score() == result.plan.score <= result.bound
