"""End of game and scoring: played cards, covered too; bonus tokens; the tie-break."""

from __future__ import annotations

from meadow_helpers import CAT, area, quote

from companion.meadow.meadow import Bonus
from companion.meadow.scoring import area_score, score_areas


@quote("When counting the victory points from the played cards, remember to count all the "
       "cards in your play area.")
def test_covered_cards_count() -> None:
    a = area("G1+OG+OW | G2", hand="OWB", lands="L2:D1")
    s = area_score(a, CAT)
    assert s["breakdown"] == {"meadow": 1 + 3 + 2, "surroundings": 3 + 3, "bonus": 0}
    assert s["cards"] == {"G1": 1, "OG": 3, "OW": 2, "G2": 0, "L2": 3, "D1": 3}


@quote("Cards remaining in your hand do not give you any victory points.")
def test_hand_scores_nothing() -> None:
    assert area_score(area("G1", hand="OWB OM"), CAT)["total"] == 1


@quote("Each bonus token played on the campfire board gives exactly the same number of victory "
       "points as its value.")
def test_bonus_tokens() -> None:
    from dataclasses import replace

    a = replace(area("G2"), bonus=(Bonus(2, ("Gw", "Gb")), Bonus(3, ("Gb", "Gg"))))
    assert area_score(a, CAT)["breakdown"]["bonus"] == 5


@quote("In case of a tie, the winner is the player with the most discovery cards played.")
def test_tie_break_discoveries() -> None:
    a = area("G1", lands="L1:D1", name="Ada")  # 1 + 2 + 3
    b = area("G1+OG", lands="L1", name="Ben", unused=0)  # 1 + 3 + 2
    data = score_areas((a, b), CAT)
    assert data["winner"] == "Ada" and data["winners"] == ["Ada"]


@quote("If there is still a tie, the players share victory.")
def test_shared_victory() -> None:
    a, b = area("G1", name="Ada"), area("G1", name="Ben")
    data = score_areas((a, b), CAT)
    assert data["winner"] is None and data["winners"] == ["Ada", "Ben"]
