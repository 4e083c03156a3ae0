"""Final scoring: every score pad line, the winner, the tie-break."""

from __future__ import annotations

from dataclasses import replace

from glade_helpers import S, T, forest

from companion.the_glade.names import Counter, Icon, MatchCounter
from companion.the_glade.scoring import LINES, score_game, score_text
from companion.the_glade.state_file import validate
from companion.the_glade.table import GameState, Player

RING = {"C4": "Hab", "D4": "Hbb", "E4": "Hhb", "C3": "Tab", "E3": "Thb", "D2": "Mmo"}


def ring(counter: str | None = None):
    f = forest(RING)
    return f.with_counter(S("D3"), Counter.parse(counter)) if counter else f


def sample() -> GameState:
    toni = Player("Toni", "yellow", 3, ring("blue-double"),
                  (Counter.parse("blue-single"), Counter.parse("yellow-double")))
    emma = Player("Emma", "blue", 8, ring("yellow-double"), (Counter.parse("yellow-single"),))
    glade = {T("Sab"): Counter.parse("yellow-single"), T("Sbb"): Counter.parse("yellow-double"),
             T("Shb"): Counter.parse("blue-single")}
    return GameState((toni, emma), glade=glade)


def test_every_line_of_the_score_pad() -> None:
    score = score_game(sample())
    toni, emma = score.players
    assert toni.breakdown == {
        "toadstools_in_glade": 2,           # yellow single + yellow double on the glade
        "toadstools_claimed_by_others": 2,  # Emma's store and Emma's enclosure
        "toadstools_in_store": 4,           # blue single + yellow double in her store
        "toadstools_in_enclosures": 3,      # blue double in D3
        "double_toadstools": 3,             # glade, her store, Emma's enclosure
        "match_counters": 0, "match_counters_in_enclosures": 0,
        "unconnected_groups": -1,           # D2 does not reach D4
    }
    assert toni.total == 13
    assert emma.breakdown["toadstools_claimed_by_others"] == 2  # Toni's store + enclosure
    assert emma.breakdown["toadstools_in_glade"] == 1
    assert emma.breakdown["toadstools_in_store"] == 2
    assert emma.breakdown["toadstools_in_enclosures"] == 3
    assert emma.breakdown["double_toadstools"] == 1
    assert score.winner == "Toni"
    assert list(toni.breakdown) == [k for k, _ in LINES]


def test_counters_on_the_players_side_score_nothing() -> None:
    state = GameState((Player("Toni", "yellow", 12, forest({"D4": "Hab"})),))
    assert score_game(state).players[0].total == 0


def test_match_counters_score_their_value_plus_one_in_an_enclosure() -> None:
    oak = Icon.parse("oak")
    toni = Player("Toni", "yellow", 12, ring().with_counter(S("D3"), MatchCounter("creature", 1,
                  Icon.parse("mouse/oak"))), (MatchCounter("leaf", 4, oak),))
    state = GameState((toni,), variant="matching")
    lines = score_game(state).players[0].breakdown
    assert lines["match_counters"] == 5 and lines["match_counters_in_enclosures"] == 1


def _pair(supply_a: int, supply_b: int) -> GameState:
    a = Player("Ann", "red", supply_a, forest({"D4": "Hab"}), (Counter.parse("blue-single"),))
    b = Player("Bob", "blue", supply_b, forest({"D4": "Hab"}), (Counter.parse("red-single"),))
    return GameState((a, b))


def test_tie_break_fewest_toadstools_left_wins() -> None:
    score = score_game(_pair(5, 4))
    assert [p.total for p in score.players] == [3, 3]
    assert score.winner == "Bob"
    assert score.tie_break is not None and score.tie_break["toadstools_left"] == {"Ann": 5,
                                                                                   "Bob": 4}
    assert "tie broken" in score_text(score)


def test_tie_that_the_tie_break_leaves_tied_has_no_winner() -> None:
    score = score_game(_pair(4, 4))
    assert score.winner is None and score.to_dict()["winner"] is None
    assert score.to_dict()["tie_break"]["result"] == "tied"
    assert "tied" in score_text(score)


def test_score_text_lists_every_line() -> None:
    text = score_text(score_game(sample()))
    for _key, label in LINES:
        assert label in text
    assert "Winner: Toni" in text


def test_solo_score_reports_turns_and_points() -> None:
    p = Player("Sol", "yellow", 0, forest({"D4": "Hab"}), (Counter.parse("grey-single"),),
               turns=10)
    state = GameState((p,), variant="solo", neutral="grey")
    score = score_game(state)
    assert score.solo == {"turns": 10, "points": 2, "finished": True}
    assert score.winner == "Sol"
    assert replace(score, solo=None).to_dict().get("solo") is None


def test_emma_unconnected_hedgehogs_cost_one_point_until_connected() -> None:
    centre = {"D4": "hedgehog/mushroom/beech"}
    apart = {"A4": "hedgehog/acorn/oak", "A5": "hedgehog/blackberry/oak",
             "A6": "hedgehog/hazelnut/oak"}  # Emma's 3 dark brown hedgehogs
    emma = Player("Emma", "blue", 12, forest({**centre, **apart}))
    validate(GameState((emma,)))
    assert score_game(GameState((emma,))).players[0].breakdown["unconnected_groups"] == -1
    joined = {**centre, **apart, "B4": "hedgehog/blackberry/maple",
              "C4": "hedgehog/hazelnut/horse-chestnut"}
    emma = replace(emma, forest=forest(joined))
    validate(GameState((emma,)))
    assert score_game(GameState((emma,))).players[0].breakdown["unconnected_groups"] == 0
