"""The whole game: setup, building (alarm, fits nowhere, stopping and drawing again, the
second draw), hiring (coins, reward coins, piglets, mutation), victory and its tie-break,
new rounds, and the solo result."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from gardlings_helpers import CATALOGUE, DATA, garden, player, state_data

from companion.games.interface import CHANCE, SIMULTANEOUS, IllegalAction, sample_chance
from companion.gardlings.advice import SimpleBot
from companion.gardlings.game import (
    HIRE,
    OVER,
    Accept,
    Buy,
    Draw,
    Drawn,
    Mutate,
    Pass,
    Place,
    Redraw,
    Stop,
    TakePiglet,
)
from companion.gardlings.garden import Placement
from companion.gardlings.rules import RULES
from companion.gardlings.state_file import parse_state

MARIA_ROW = "P1@0,0 N1@1,0 N2@2,0 N3@3,0 N4@4,0 N5@5,0 G1@6,0 G2@7,0"
FULL_MARKET = {"stacks": {"green-1": {"tiles": 1, "ids": ["G7"]},
                          "blue-2": {"tiles": 1, "ids": ["B1"], "coin": True},
                          "gold-1": {"tiles": 1, "ids": ["Y1"], "coin": True}},
               "piglets": 1, "piglet_ids": ["P3"]}


def load(*players: dict, **top: object):
    return parse_state(state_data(*players, **top), DATA)


def test_setup_follows_the_rulebook() -> None:
    state = RULES.new_game(["Ann", "Ben", "Cat"], None, {"seed": 4})
    cat = state.catalogue
    for seat in state.seats:
        backs = Counter(cat[t].back for t in seat.bag)
        assert backs == {"gnome": 4, "double-gnome": 2, "piglet": 2}
        assert seat.coins == 0 and len(seat.garden) == 0
    sizes = {s.name: s.tiles for s in state.market.stacks}
    assert sizes["green-1"] + sizes["green-2"] == 23 and abs(sizes["green-1"] -
                                                               sizes["green-2"]) <= 1
    assert {s.name for s in state.market.stacks if s.coin} == {
        "blue-1", "blue-2", "pink-1", "pink-2", "gold-1", "gold-2"}
    assert state.market.piglets == 22 - 6 == len(state.market.piglet_ids)
    assert state.current_player() == SIMULTANEOUS and state.start == 0


def test_missions_are_the_first_tile_and_lie_between_with_two_or_three() -> None:
    state = RULES.new_game(["Ann", "Ben"], None, {"seed": 2, "missions": True})
    assert all(s.mission and s.garden.placements[0].tile == s.mission for s in state.seats)
    assert len(state.between) == 2
    four = RULES.new_game(["A", "B", "C", "D"], None, {"seed": 2, "missions": True})
    assert four.between == ()


def test_marias_gnome_alarm_stops_building_and_the_tile_is_not_placed() -> None:
    state = load(player("Maria", garden(MARIA_ROW), bag=["N7", "P2"]))
    state = state.apply(Draw(0))
    assert state.current_player() == CHANCE
    assert state.rule(Drawn(0, "N7")).triggers == {"alarm": True}
    state = state.apply(Drawn(0, "N7"))
    maria = state.seats[0]
    assert maria.alarm == "N7" and maria.stopped and "N7" not in maria.garden.index
    assert state.phase == HIRE  # alone at the table: building is over
    assert state.hiring(0).stolen == 3 and state.hiring(0).total == 4


def test_three_dragons_ignore_one_gnome() -> None:
    row = MARIA_ROW + " G3@0,1 G4@1,1 G5@2,1"
    state = load(player("Maria", garden(row), bag=["N7"]))
    state = state.apply(Draw(0)).apply(Drawn(0, "N7"))
    assert state.seats[0].alarm is None and state.seats[0].hand == "N7"
    assert state.hiring(0).gnome_ignored


def test_a_tile_that_fits_nowhere_stops_building() -> None:
    # Z1 is pink all round; N1 shows blue and empty sides only
    state = load(player("Maria", garden("N1@0,0"), bag=["Z1", "P2"]),
                 player("Ben", garden("P3@0,0"), bag=["D2"]))
    state = state.apply(Draw(0)).apply(Drawn(0, "Z1"))
    maria = state.seats[0]
    assert maria.aside == "Z1" and maria.stopped and maria.hand is None
    assert Draw(0) not in state.legal_actions()  # that stop is final
    assert "Z1" in maria.owned()  # back into the bag at the round's end


def test_stopping_is_not_final_while_others_build() -> None:
    state = load(player("Ann", garden("P2@0,0"), bag=["P3"]),
                 player("Ben", garden("D1@0,0"), bag=["D2"]))
    state = state.apply(Stop(0))
    assert Draw(0) in state.legal_actions()
    state = state.apply(Draw(0))
    assert not state.seats[0].stopped
    state = state.apply(Drawn(0, "P3"))
    with pytest.raises(IllegalAction) as info:
        state.apply(Stop(0))  # the drawn tile must be laid first
    assert info.value.code == "not-now"
    state = state.apply(Place(0, Placement("P3", (1, 0))))
    state = state.apply(Stop(0)).apply(Stop(1))
    assert state.phase == HIRE and state.to_hire == (0, 1)


def test_the_second_draw_mission_may_replace_an_alarm_tile() -> None:
    row = "X7@0,0 N1@2,0 N2@3,0 N3@4,0 N4@5,0 N5@6,0"
    state = load(player("Maria", garden(row), mission="X7", bag=["N7", "P2"]))
    state = state.apply(Draw(0)).apply(Drawn(0, "N7"))
    assert state.seats[0].hand == "N7"
    assert set(state.building_actions(0)) == {Redraw(0), Accept(0)}
    state = state.apply(Redraw(0))
    assert [a.tile for a, _p in state.chance_outcomes()] == ["P2"]
    state = state.apply(Drawn(0, "P2"))
    seat = state.seats[0]
    assert seat.hand == "P2" and seat.bag == ("N7",) and seat.second_draw_used
    assert Redraw(0) not in state.building_actions(0)


def test_maria_buys_the_blue_tile_with_3_coins_and_takes_its_reward_coin() -> None:
    state = load(player("Maria", garden(MARIA_ROW), coins=3, alarm="N7"),
                 market=FULL_MARKET, phase="hire", to_hire=[0])
    assert {a for a in state.legal_actions()} == {Buy(0, "blue-2"), Buy(0, "green-1"),
                                                 TakePiglet(0), Pass(0)}
    after = state.apply(Buy(0, "blue-2"))
    maria = after.seats[0]
    assert maria.coins == 1  # 3 - 3 spent + 1 reward
    assert "B1" in maria.owned() and maria.tiles_used == 1
    assert not after.market.stack("blue-2").coin and after.market.stack("blue-2").tiles == 0
    with pytest.raises(IllegalAction) as info:
        state.apply(Buy(0, "gold-1"))
    assert info.value.code == "cannot-afford"


def test_a_piglet_and_a_coin_instead_of_buying_and_the_next_round() -> None:
    state = load(player("Maria", garden(MARIA_ROW), coins=3, alarm="N7", bag=["D1"]),
                 player("Ben", garden("P2@0,0"), bag=["D2"]),
                 market=FULL_MARKET, phase="hire", to_hire=[0, 1])
    state = state.apply(TakePiglet(0))
    assert state.seats[0].coins == 4 and state.market.piglets == 0
    state = state.apply(Pass(1))
    # a new round: every tile back in its bag, the marker moved on, coins kept
    assert state.phase == "build" and state.round == 2 and state.start == 1
    maria = state.seats[0]
    assert len(maria.garden) == 0 and maria.alarm is None and maria.coins == 4
    assert set(maria.bag) == {"P1", "N1", "N2", "N3", "N4", "N5", "G1", "G2", "N7", "D1",
                              "P3"}


def test_three_lucky_piglets_pay_one_coin() -> None:
    state = load(player("Ann", garden("P2@0,0 P3@1,0 G7@2,0"), coins=0))
    assert state.hiring(0).coins_piglets == 1


def _ready(total_a: str, total_b: str, coins: tuple[int, int], long_game: bool = False):
    return load(player("Ann", garden(total_a), coins=coins[0], stopped=True),
                player("Ben", garden(total_b), coins=coins[1], bag=["P3"]),
                long_game=long_game)


def test_victory_needs_17_gems_and_ties_go_to_gems_then_coins_then_nobody(monkeypatch) -> None:
    import companion.gardlings.hiring as hiring_module

    monkeypatch.setattr(hiring_module, "victory_target", lambda long_game: 1)
    state = _ready("N1@0,0 N2@1,0 N3@2,0", "N4@0,0 N5@1,0", (0, 5))
    over = state.apply(Stop(1))
    assert over.phase == OVER and over.winners == ("Ann",)  # 2 gems beat 1
    assert over.score_sheet().winner == "Ann"
    state = _ready("N1@0,0 N2@1,0", "N4@0,0 N5@1,0", (1, 2))
    assert state.apply(Stop(1)).winners == ("Ben",)  # level on gems: more coins
    state = _ready("N1@0,0 N2@1,0", "N4@0,0 N5@1,0", (2, 2))
    nobody = state.apply(Stop(1))
    assert nobody.phase == HIRE and nobody.winners == ()  # nobody: the round goes on


def test_coins_never_buy_the_victory_tile() -> None:
    h = load(player("Ann", garden(MARIA_ROW), coins=30)).hiring(0)
    assert h.money == 37 and not h.victory


def test_expert_steals_half_pays_ponds_and_mutates_a_piglet() -> None:
    ring = "P1@0,0 P2@1,0 P3@2,0 D1@0,1 G3@2,1 G4@0,2 G5@1,2 G6@2,2"
    market = {"stacks": {"green-1": {"tiles": 1, "ids": ["G7"]}}, "piglets": 0}
    state = load(player("Ann", garden(ring), alarm="N7"), variant="expert",
                 market=market, phase="hire", to_hire=[0])
    h = state.hiring(0)
    assert h.ponds == 1 and h.coins_ponds == 1 and h.coins_piglets == 0
    assert h.mutate == (("piglet", "green"),)
    state = state.apply(Pass(0))
    assert state.mutating and state.legal_actions() == [Mutate(0, "piglet", "green-1")]
    state = state.apply(Mutate(0, "piglet", "green-1"))
    assert "G7" in state.seats[0].owned() and "P1" not in state.seats[0].owned()
    assert state.market.piglet_ids[-1] == "P1"
    row = load(player("Ann", garden(MARIA_ROW), alarm="N7"), variant="expert")
    assert row.hiring(0).stolen == 3  # 7 // 2


def test_solo_games_end_with_the_rulebooks_result() -> None:
    rng = random.Random(5)
    bot = SimpleBot()
    state = RULES.new_game(["Solo"], None, {"seed": 5})
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(bot.choose(state, 0, rng))
    sheet = state.score_sheet()
    if state.ended_by == "victory":
        assert sheet.result.split(" (")[0] in ("Gold", "Silver", "Bronze", "Try again!")
        assert f"({state.seats[0].tiles_used} tiles)" in sheet.result
    assert sheet.final and sheet.winners == ("Solo",)


def test_the_test_catalogue_is_whole() -> None:
    assert CATALOGUE["M"].lines == ((1, 2), (3, 4))


def test_missions_pass_on_at_the_round_end() -> None:
    state = RULES.new_game(["Ann", "Ben"], None, {"seed": 6, "missions": True})
    held = [s.mission for s in state.seats]
    between = state.between
    for i in range(2):
        state = state.apply(Stop(i))
    while state.phase == HIRE:
        state = state.apply(Pass(state.to_hire[0]))
    assert [s.mission for s in state.seats] == list(between)
    assert state.between == (held[1], held[0])
    assert all(s.garden.placements[0].tile == s.mission for s in state.seats)
    assert state.start == 1 and state.round == 2


def test_the_round_limit_ends_a_game_nobody_won() -> None:
    state = RULES.new_game(["Ann"], None, {"seed": 1, "round_limit": 1})
    state = state.apply(Stop(0)).apply(Pass(0))
    assert state.is_terminal() and state.ended_by == "round-limit"
    sheet = state.score_sheet()
    assert sheet.winners == ("Ann",) and "nobody bought the victory tile" in sheet.result
