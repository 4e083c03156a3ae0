"""The matching game: icons on squares, match counters, the errata's connection rule."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from glade_helpers import S, T, forest, toni_game

from companion.the_glade.actions import place_tiles
from companion.the_glade.matching import leaf_values_left, matches
from companion.the_glade.names import Icon, MatchCounter
from companion.the_glade.state_file import dump_state, load_state
from companion.the_glade.table import GameState, Player

CONFIG = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade"
LIZ_BOARD = {S("E5"): Icon.parse("mouse/oak"), S("A1"): Icon.parse("beech"),
             S("C5"): Icon.parse("acorn/maple")}


def liz(variant: str = "matching", **kw) -> GameState:
    p = Player("Liz", "red", 12, forest({"D4": "hedgehog/hazelnut/beech"}), icons=LIZ_BOARD)
    return GameState((p, Player("Ann", "blue")), variant=variant, **kw)


def test_icon_matching_is_by_picture_and_colour() -> None:
    assert Icon.parse("mouse/oak").matches(T("mouse/hazelnut/oak"))
    assert not Icon.parse("mouse/oak").matches(T("mouse/hazelnut/maple"))
    assert Icon.parse("acorn/beech").matches(T("toad/acorn/beech"))
    assert Icon.parse("oak").matches(T("toad/acorn/oak"))


def test_liz_claims_the_dark_brown_mouse_match_counter() -> None:
    placed = {S("D5"): T("squirrel/hazelnut/beech"), S("E5"): T("mouse/hazelnut/oak")}
    state, out = place_tiles(liz(), "Liz", placed)
    assert state.player("Liz").store == (MatchCounter("creature", 1, Icon.parse("mouse/oak")),)
    assert any("matches the dark brown mouse icon" in e.reason for e in out.events)


def test_no_match_counters_in_the_basic_game() -> None:
    placed = {S("D5"): T("squirrel/hazelnut/beech"), S("E5"): T("mouse/hazelnut/oak")}
    state, _ = place_tiles(liz("basic"), "Liz", placed)
    assert state.player("Liz").store == ()


def test_errata_the_tile_must_connect_to_the_centre_when_placed() -> None:
    state, _ = place_tiles(liz(), "Liz", {S("A1"): T("toad/acorn/beech")})
    assert state.player("Liz").store == ()
    after = state.player("Liz").forest
    assert matches(LIZ_BOARD, after, {S("A1"): T("toad/acorn/beech")}) == []


def test_connection_may_run_through_a_tile_placed_in_the_same_action() -> None:
    f = forest({"D4": "hedgehog/acorn/maple"})
    placed = {S("C4"): T("toad/acorn/beech"), S("B4"): T("squirrel/acorn/oak")}
    icons = {S("B4"): Icon.parse("squirrel/oak")}
    assert matches(icons, f.with_tiles(placed), placed) == [(S("B4"), icons[S("B4")])]


def test_leaf_counters_go_4_3_2_1_then_none() -> None:
    beech = Icon.parse("beech")
    held = [MatchCounter("leaf", 4, beech), MatchCounter("leaf", 3, beech)]
    state = liz()
    state = state.with_player(replace(state.player("Ann"), store=tuple(held)))
    assert leaf_values_left(state, "beech") == [2, 1]
    # Liz's A1 beech corner, connected to the centre through a row of tiles.
    f = forest({"D4": "hedgehog/hazelnut/beech", "D3": "hedgehog/acorn/beech",
                "D2": "hedgehog/blackberry/beech", "D1": "hedgehog/mushroom/beech",
                "C1": "mouse/mushroom/beech", "B1": "squirrel/mushroom/beech"})
    state = state.with_player(replace(state.player("Liz"), forest=f))
    state, _ = place_tiles(state, "Liz", {S("A1"): T("toad/mushroom/beech")})
    assert MatchCounter("leaf", 2, beech) in state.player("Liz").store
    assert leaf_values_left(state, "beech") == [1]


def test_claim_on_an_opponents_board_gives_the_match_counter_to_the_claimant() -> None:
    game = toni_game(3)
    toni = game.state.player("Toni")
    game.state = replace(game.state.with_player(
        replace(toni, icons={S("E6"): Icon.parse("mushroom/oak")})), variant="matching")
    game.end_turn()
    game.claim("mouse/mushroom/oak", "E6")
    assert MatchCounter("fruit", 1, Icon.parse("mushroom/oak")) in game.state.player("Emma").store
    assert all(not isinstance(t, MatchCounter) for t in game.state.player("Toni").store)


def test_icons_round_trip_through_the_state_file() -> None:
    state = liz(icons={S("G7"): Icon.parse("oak")})
    again = load_state(json.loads(json.dumps(dump_state(state))))
    assert again == state
    assert again.icons_for(again.player("Liz")) == LIZ_BOARD
    assert again.icons_for(again.player("Ann")) == {S("G7"): Icon.parse("oak")}


def test_sample_matching_boards_are_labelled_and_complete() -> None:
    doc = json.loads((CONFIG / "sample-matching-boards.json").read_text())
    assert "SAMPLE" in doc and "not public" in doc["SAMPLE"]
    ring_icons = [v for b in doc["boards"] for k, v in b["icons"].items()
                  if k not in doc["corners"]]
    assert len(ring_icons) == 32 == len(set(ring_icons))
    for b in doc["boards"]:
        for v in b["icons"].values():
            Icon.parse(v)
