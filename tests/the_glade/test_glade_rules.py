"""The Glade on the shared interface: actions, rule codes, chance, state files, the end."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from glade_helpers import EMMA_1, TONI_1, TONI_2, S, T, toni_game

from companion.games import interface
from companion.games.interface import CHANCE, TERMINAL, IllegalAction, sample_chance
from companion.the_glade import table
from companion.the_glade.deal import new_table
from companion.the_glade.names import (
    ALL_TILES,
    BoardGeometry,
    Counter,
    Icon,
    MatchCounter,
    Square,
)
from companion.the_glade.playout import choose
from companion.the_glade.rules import (
    RULES,
    VIOLATION_CODES,
    Claim,
    Draw,
    EndTurn,
    ExtraAction,
    PlaceTiles,
    parse_action,
)
from companion.the_glade.solo import solo_setup
from companion.the_glade.table import GameState
from companion.the_glade.tracker import Game
from companion.the_glade.turn import stalemate

NAMES = ["Ann", "Bob", "Cy", "Di"]
LONE = {"D4": "toad/acorn/beech"}
ICONS = {"A1": "beech", "G1": "horse-chestnut", "A7": "maple", "G7": "oak", "B2": "mouse/oak",
         "D2": "acorn/beech", "F2": "toad/maple", "B4": "hazelnut/oak", "F4": "squirrel/beech",
         "B6": "mushroom/maple", "D6": "hedgehog/horse-chestnut", "F6": "blackberry/oak"}
MOUSE = "mouse/mushroom/oak"


def place(tiles: dict[str, str], **kw: Any) -> PlaceTiles:
    return PlaceTiles.of(tiles, **kw)


def round_trip(state: GameState) -> None:
    data = json.loads(json.dumps(RULES.dump(state)))
    assert RULES.load(data) == state
    assert RULES.dump(RULES.load(data)) == data


# --- rulebook situations as codes ---------------------------------------------------------------

def toni_turn_2() -> GameState:
    """Toni's second turn: her set of 3 from turn 1 lies on row 4."""
    game = toni_game(1)
    game.end_turn()
    game.place(EMMA_1)
    game.end_turn()
    return game.state


def toni_with_store(upto: int = 5) -> GameState:
    return toni_game(upto).state


def extra_started() -> GameState:
    """Toni has put her double into the enclosure D3: another action is due."""
    return toni_game(5).state.apply(ExtraAction(Counter("yellow", "double"), S("D3")))


def extra_used() -> GameState:
    game = toni_game(5)
    game.state = game.state.add_to_store("Toni", Counter("yellow", "single"))
    game.extra_action("yellow-double", "D3")
    game.place({"A4": "toad/hazelnut/maple"})
    return game.state


def emma_to_claim() -> GameState:
    game = toni_game(3)
    game.end_turn()
    return game.state


def dealt(seats: int = 2, seed: int = 1) -> GameState:
    return RULES.new_game(NAMES[:seats], None, {"seed": seed})


def at_chance() -> GameState:
    """Ann has placed 3 tiles (the most tiles of her rack's first placements) and ends her
    turn: the bag is to draw from."""
    state = dealt()
    placement = max((a for a in state.legal_actions() if isinstance(a, PlaceTiles)),
                    key=lambda a: len(a.tiles))
    state = state.apply(placement).apply(EndTurn())
    assert state.current_player() == CHANCE and state.to_draw == len(placement.tiles)
    return state


def over() -> GameState:
    game = Game.new([("Ann", "red"), ("Bob", "blue")])
    game.state = game.state.with_player(replace(game.state.player("Bob"), supply=1))
    game.place(LONE)
    game.end_turn()
    game.place(TONI_1)
    game.end_turn()
    assert game.finished
    return game.state


def tiny_solo_after_a_turn() -> GameState:
    """A solo game on a 1x1 board: after the first tile, no square is left for any tile."""
    marks = [T(t) for t in ("Hab", "Hbb", "Hhb", "Hmb", "Mab", "Mbb", "Mhb", "Mmb", "Sab",
                            "Sbb", "Shb", "Smb")]
    geo = BoardGeometry(1, 1, Square(0, 0))
    state = solo_setup("Sol", "yellow", "grey", marks, geometry=geo)
    return state.apply(place({"A1": "toad/acorn/beech"})).apply(EndTurn())


#: (code, the state, the action) for every code of VIOLATION_CODES
SITUATIONS: list[tuple[str, Callable[[], GameState], Any]] = [
    ("count", lambda: Game.new([("A", "red")]).state, PlaceTiles(())),
    ("off-board", lambda: Game.new([("A", "red")]).state, place({"H4": "toad/acorn/beech"})),
    ("occupied", toni_turn_2, place({"D4": "toad/acorn/beech"})),
    ("counter", extra_started, place({"D3": "toad/acorn/beech"})),
    ("line", toni_turn_2, place({"B5": "toad/acorn/beech", "C6": "toad/acorn/oak"})),
    ("gap", toni_turn_2, place({"A1": "toad/acorn/beech", "C1": "toad/acorn/oak"})),
    ("centre", lambda: Game.new([("A", "red")]).state, place({"A1": "toad/acorn/beech"})),
    ("set", toni_turn_2, place({"D5": "toad/acorn/oak"})),
    ("rack", lambda: Game.new([("A", "red")], racks={"A": ["Hab"]}).state,
     place({"D4": "toad/acorn/oak"})),
    ("no-counter", emma_to_claim, Claim(T("toad/acorn/beech"), S("A1"))),
    ("no-square", tiny_solo_after_a_turn, Claim(T("Hbb"))),
    ("choose-square", emma_to_claim, Claim(T(MOUSE))),
    ("wrong-square", emma_to_claim, Claim(T(MOUSE), S("A1"))),
    ("not-in-store", toni_with_store, ExtraAction(Counter("red", "single"), S("D3"))),
    ("no-enclosure", toni_with_store, ExtraAction(Counter("yellow", "double"), S("A1"))),
    ("enclosure-taken", extra_used, ExtraAction(Counter("yellow", "single"), S("D3"))),
    ("flip", lambda: toni_turn_2().with_player(replace(toni_turn_2().player("Toni"), supply=0)),
     place(TONI_2, flips=["store:Emma"])),
    ("game-over", over, place({"A1": "toad/acorn/beech"})),
    ("not-your-turn", toni_turn_2, place({"A1": "toad/acorn/beech"}, player="Emma")),
    ("action-first", toni_turn_2, EndTurn()),
    ("another-action-due", extra_started, EndTurn()),
    ("action-done", toni_with_store, place({"A1": "toad/acorn/beech"})),
    ("draw-due", at_chance, EndTurn()),
    ("draw-not-due", dealt, Draw(ALL_TILES[0])),
    ("draw-count", toni_with_store, EndTurn(drawn=(T("Hab"),))),
    ("not-in-bag", lambda: replace(at_chance(), bag_tiles=ALL_TILES[:20], bag=20),
     Draw(ALL_TILES[30])),
    ("not-an-action", dealt, "place D4=toad/acorn/beech"),
]


@pytest.mark.parametrize(("code", "make", "action"), SITUATIONS,
                         ids=[code for code, _m, _a in SITUATIONS])
def test_each_rule_is_refused_with_its_code(code: str, make: Callable[[], GameState],
                                            action: Any) -> None:
    state = make()
    ruling = state.rule(action)
    assert not ruling.legal and ruling.codes[0] == code, ruling
    assert set(ruling.codes) <= VIOLATION_CODES
    assert all(v.message for v in ruling.violations)
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.code == code
    assert action not in state.legal_actions()


def test_every_code_has_a_situation_and_set_up_refusals_have_codes_too() -> None:
    covered = {code for code, _m, _a in SITUATIONS}
    assert VIOLATION_CODES - covered == {"setup", "unknown-player"}
    with pytest.raises(IllegalAction) as info:
        RULES.new_game(["A", "B", "C", "D", "E"])
    assert info.value.code == "setup"
    with pytest.raises(IllegalAction) as info:
        dealt().player("Zed")
    assert info.value.code == "unknown-player"


def test_an_illegal_placement_lists_every_broken_rule_where_it_is_broken() -> None:
    ruling = toni_turn_2().rule(place({"D4": "toad/acorn/beech", "D6": "toad/acorn/oak"}))
    assert ruling.codes == ("occupied", "gap")
    assert ruling.violations[0].where == ("D4",)
    assert ruling.violations[1].where == ("D5",)


def test_a_legal_action_says_what_it_triggers() -> None:
    ruling = Game.new([("Toni", "yellow"), ("Emma", "blue")]).state.rule(place(TONI_1))
    assert ruling.legal
    assert ruling.triggers["sets_of_3"][0]["missing"] == "hedgehog/hazelnut/horse-chestnut"


def test_the_glades_illegal_action_is_the_interfaces() -> None:
    assert table.IllegalAction is interface.IllegalAction


# --- listing -------------------------------------------------------------------------------------

def test_a_known_rack_lists_placements_claims_and_then_extras_and_the_end() -> None:
    state = dealt(2, seed=4)
    actions = state.legal_actions()
    assert actions and all(isinstance(a, PlaceTiles) for a in actions)  # no counter yet
    assert len(set(actions)) == len(actions)
    done = state.apply(actions[0])
    assert done.legal_actions() == [EndTurn()]


def test_an_unknown_rack_lists_what_can_be_listed() -> None:
    state = emma_to_claim()
    assert state.player("Emma").rack is None
    actions = state.legal_actions()
    # placements of unknown tiles cannot be listed; the turn cannot end before acting: every
    # counter on the glade may be claimed, each tile on each of its squares
    assert all(isinstance(a, Claim) for a in actions)
    assert {a.tile for a in actions} == set(state.glade)
    mouse = [a for a in actions if a.tile == T(MOUSE)]
    assert mouse == [Claim(T(MOUSE), S("E2")), Claim(T(MOUSE), S("E6"))]
    after = state.apply(mouse[1])
    assert after.legal_actions() == [EndTurn()]
    unknown_bag = replace(after, bag=None)
    assert unknown_bag.legal_actions() == [EndTurn(), EndTurn(cannot_refill=True)]


def test_extra_actions_are_listed_for_each_counter_and_empty_enclosure() -> None:
    state = toni_with_store().add_to_store("Toni", Counter("blue", "single"))
    assert state.legal_actions() == [ExtraAction(Counter("blue", "single"), S("D3")),
                                     ExtraAction(Counter("yellow", "double"), S("D3")),
                                     EndTurn()]


def test_no_extra_action_is_listed_without_an_empty_enclosure() -> None:
    state = toni_game(1).state.add_to_store("Toni", Counter("yellow", "single"))
    assert state.legal_actions() == [EndTurn()]


# --- chance --------------------------------------------------------------------------------------

def test_ending_a_turn_with_a_known_bag_draws_by_chance() -> None:
    state = at_chance()
    assert state.turn_player == "Ann" and state.player("Ann").rack_size == 8 - state.to_draw
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _a, p in outcomes) - 1) < 1e-9
    bag = state.bag_tiles or ()
    for draw, p in outcomes:
        assert p == bag.count(draw.tile) / len(bag)
    assert [a for a, _p in outcomes] == state.legal_actions()
    rng = random.Random(3)
    while state.current_player() == CHANCE:
        tile = sample_chance(state, rng).tile
        before = state
        state = state.apply(Draw(tile))
        assert state.bag == before.bag - 1 == len(state.bag_tiles or ())
    assert state.turn_player == "Bob" and state.current_player() == 1
    ann = state.player("Ann")
    assert ann.rack is not None and len(ann.rack) == 8 and ann.turns == 1


def test_named_draws_come_out_of_a_known_bag() -> None:
    state = dealt()
    placement = next(a for a in state.legal_actions() if isinstance(a, PlaceTiles))
    n = len(placement.tiles)
    state = state.apply(placement)
    bag = state.bag_tiles or ()
    state = state.apply(EndTurn(drawn=bag[:n]))
    assert state.turn_player == "Bob" and state.bag == len(bag) - n
    assert (state.player("Ann").rack or ())[-n:] == bag[:n]


# --- state files ---------------------------------------------------------------------------------

def test_extra_fields_round_trip_and_are_checked() -> None:
    state = at_chance()
    data = RULES.dump(state)
    assert data["to_draw"] == state.to_draw and len(data["bag_tiles"]) == data["bag"]
    round_trip(state)
    bad = {**data, "bag_tiles": data["bag_tiles"][1:]}
    with pytest.raises(Exception, match="bag_tiles lists"):
        RULES.load(bad)
    with pytest.raises(Exception, match=r"bag_tiles\[0\]"):
        RULES.load({**data, "bag_tiles": ["dragon/acorn/oak", *data["bag_tiles"][1:]]})
    with pytest.raises(Exception, match="to_draw"):
        RULES.load({**data, "phase": "action"})
    table_state = Game.new([("Toni", "yellow"), ("Emma", "blue")]).state
    assert "bag_tiles" not in RULES.dump(table_state)  # a table's state file is the spec's


def test_actions_read_back_from_their_one_line_form() -> None:
    actions = [place(TONI_1), place(TONI_2, flips=["glade:toad/acorn/oak"], player="Toni"),
               Claim(T(MOUSE), S("E6")), Claim(T(MOUSE)), EndTurn(), EndTurn(drawn=()),
               EndTurn(drawn=(T("Hab"), T("Hbb")), cannot_refill=True), Draw(T("Hab")),
               ExtraAction(Counter("yellow", "double"), S("D3"), player="Toni"),
               ExtraAction(MatchCounter("leaf", 4, Icon.parse("oak")), S("D3")),
               Claim(T(MOUSE), S("E6"), player="Toni Smith")]
    for action in actions:
        assert parse_action(str(action)) == action, str(action)
    assert str(actions[2]) == "claim mouse/mushroom/oak E6"
    assert str(actions[8]) == "Toni: extra yellow-double D3"


# --- whole games ---------------------------------------------------------------------------------

def playout(state: GameState, rng: random.Random, check: Callable[[GameState], None],
            max_steps: int = 3000) -> tuple[GameState, list[Any]]:
    """Random legal play to the end: listed actions are ruled legal and apply."""
    played: list[Any] = []
    for _ in range(max_steps):
        check(state)
        if state.is_terminal():
            assert state.current_player() == TERMINAL and state.legal_actions() == []
            return state, played
        actions = state.legal_actions()
        assert actions and len(set(actions)) == len(actions)
        for action in rng.sample(actions, min(len(actions), 25)):
            assert state.rule(action).legal, action
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            action = choose(state, rng, greed=0.5)
        assert action in actions
        state = state.apply(action)
        played.append(action)
    raise AssertionError("the game did not end")


def tiles_accounted(state: GameState) -> int:
    return (state.bag or 0) + sum(len(p.forest.tiles) + p.rack_size for p in state.players)


@pytest.mark.parametrize(("seats", "variant", "seed"),
                         [(2, "basic", 1), (3, "matching", 2), (4, "basic", 3)])
def test_seeded_playouts_keep_every_promise(seats: int, variant: str, seed: int) -> None:
    options = {"seed": seed, "icons": ICONS if variant == "matching" else None}
    start = RULES.new_game(NAMES[:seats], variant, options)

    def check(state: GameState) -> None:
        round_trip(state)
        assert tiles_accounted(state) == 128
        turns = [p.turns for p in state.players]
        assert max(turns) - min(turns) <= 1

    rng = random.Random(seed)
    end, played = playout(start, rng, check)
    sheet = end.score_sheet()
    assert sheet.final and sheet.winners and [p.name for p in sheet.players] == NAMES[:seats]
    assert len({p.turns for p in end.players}) == 1  # everyone had the same number of turns
    # the game replays from its one-line log
    replayed = start
    for line in [str(a) for a in played]:
        replayed = replayed.apply(parse_action(line))
    assert replayed == end


def test_an_empty_side_of_the_glade_ends_the_game_after_the_last_player_of_the_round() -> None:
    state = RULES.new_game(NAMES[:3], None, {"seed": 8})
    state = replace(state, start_player="Bob", current="Bob")  # Bob, Cy, Ann
    state = state.with_player(replace(state.player("Cy"), supply=1))
    assert state.last_in_round == "Ann"
    rng = random.Random(8)
    trigger = None
    turns_after: list[str] = []  # whose turns ended from the trigger on
    while not state.is_terminal():
        before = state
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(choose(state, rng, greed=1.0))
        if trigger is None and state.end_due:
            trigger = (before.turn_player, before.round)
            assert state.player("Cy").supply == 0  # Cy's side of the glade is empty
        if trigger is not None and state.turn_player != before.turn_player:
            turns_after.append(before.turn_player)
    assert trigger is not None
    who, rnd = trigger
    order = ["Bob", "Cy", "Ann"]
    assert turns_after == order[order.index(who):]  # the round is played to its end
    assert state.round == rnd + 1
    assert len({p.turns for p in state.players}) == 1
    with pytest.raises(IllegalAction) as info:
        state.apply(EndTurn())
    assert info.value.code == "game-over"


def test_a_trigger_by_the_middle_player_lets_the_round_finish() -> None:
    state = RULES.new_game(NAMES[:3])  # unknown racks, as at the table
    state = state.with_player(replace(state.player("Bob"), supply=1))
    state = state.apply(place(LONE)).apply(EndTurn())              # Ann
    state = state.apply(place(TONI_1)).apply(EndTurn())            # Bob's last counter
    assert state.end_due and state.end_triggered and not state.is_terminal()
    assert state.turn_player == "Cy" and state.last_turn
    state = state.apply(place(LONE)).apply(EndTurn())              # Cy ends the round
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert [p.turns for p in state.players] == [1, 1, 1]
    assert state.player("Cy").rack_size == 7  # the last turn draws nothing


def test_a_stalemate_triggers_the_end() -> None:
    """Full racks, no room on any board, nothing to claim: passing could go on for ever."""
    geo = BoardGeometry(1, 1, Square(0, 0))
    racks = {"Ann": ALL_TILES[:8], "Bob": ALL_TILES[8:16]}
    state = new_table([("Ann", "red"), ("Bob", "blue")], geometry=geo, racks=racks)
    for name, tile in (("Ann", "Tab"), ("Bob", "Tbb")):
        me = state.player(name)
        state = state.with_player(replace(me, forest=me.forest.with_tiles({S("A1"): T(tile)})))
    assert state.legal_actions() == [EndTurn()] and stalemate(state)
    state = state.apply(EndTurn())
    assert state.end_due and not state.is_terminal() and state.turn_player == "Bob"
    state = state.apply(EndTurn())
    assert state.is_terminal() and [p.turns for p in state.players] == [1, 1]


def test_a_pass_that_changes_something_is_no_stalemate() -> None:
    game = Game.new([("Toni", "yellow"), ("Emma", "blue")], racks={"Toni": []})
    game.end_turn(["Tab", "Tbb", "Thb", "Tmb", "Mab", "Mbb", "Mhb", "Mmb"])
    assert not game.state.end_due


def test_the_solo_game_is_played_out() -> None:
    start = RULES.new_game(["Sol"], None, {"seed": 5})
    assert start.variant == "solo" and len(start.glade) == 12 and start.bag == 119

    def check(state: GameState) -> None:
        round_trip(state)
        face_down = 128 - tiles_accounted(state)
        assert face_down <= state.player("Sol").turns + 1

    end, _played = playout(start, random.Random(5), check)
    sol = end.player("Sol")
    assert sol.supply == 0 or end.bag == 0  # twelve counters played, or the bag ran short
    sheet = end.score_sheet()
    assert sheet.winners == ("Sol",) and f"{sol.turns} turns" in sheet.result


def test_new_games_without_a_seed_are_the_tables() -> None:
    state = RULES.new_game(NAMES[:2], "matching", {"colours": ["red", "white"],
                                                   "icons": {"A1": "beech"}})
    assert [p.colour for p in state.players] == ["red", "white"]
    assert all(p.rack is None and p.rack_size == 8 for p in state.players)
    assert state.bag == 112 and state.bag_tiles is None
    assert state.icons == {S("A1"): Icon.parse("beech")}
    solo = RULES.new_game(["Sol"], "solo", {"marked": [str(t) for t in ALL_TILES[:12]]})
    assert solo.neutral == "purple" and len(solo.glade) == 12


@pytest.mark.parametrize("module", ["rules", "turn", "deal", "tracker", "playout"])
def test_doctests(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"companion.the_glade.{module}"))
    assert result.failed == 0


def test_score_and_hint_read_a_state_the_engine_wrote(tmp_path: Any,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A dealt game's state file (with bag_tiles and to_draw) is a state file every command
    reads, not only RULES.load."""
    from companion.cli import main

    state = at_chance()
    assert state.bag_tiles is not None and state.to_draw
    path = tmp_path / "dealt.json"
    path.write_text(json.dumps(RULES.dump(state)))
    assert main(["score", "the-glade", str(path), "--json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in scored["players"]] == [p.name for p in state.players]
    playing = state
    while playing.current_player() == CHANCE:
        playing = playing.apply(sample_chance(playing, random.Random(1)))
    path.write_text(json.dumps(RULES.dump(playing)))
    bob = playing.players[playing.current_player()]
    assert bob.rack is not None
    rack = ",".join(str(t) for t in bob.rack)
    assert main(["hint", "the-glade", str(path), "--player", bob.name, "--rack", rack,
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] > 0
