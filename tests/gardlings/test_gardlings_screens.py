"""Gardlings at the table: entering gardens, hiring from the menu, the market and coins
followed, the victory tile, and a game resumed after a restart."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.display import open_display
from companion.errors import StateError
from companion.gardlings import table as tb
from companion.session import SessionStore
from companion.ui.pages import MenuPage
from companion.ui.service import Context, Service
from companion.ui.views import MenuView, TextView

K = Key


def service(tmp_path: Path, script: list) -> Service:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    ctx = Context(settings, tmp_path)
    return Service(ctx, open_display(settings["display"]), ScriptedButtons(script), idle_poll=0)


def to_gardlings(svc: Service) -> None:
    """Main menu -> Gardlings -> New game -> Solo."""
    view = svc.page.view("")
    assert isinstance(view, MenuView)
    index = next(i for i, item in enumerate(view.items) if item.startswith("Gardlings"))
    for _ in range(index):
        svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)
    menu = svc.page.view("")
    if menu.items[0].startswith("Resume"):
        svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # New game
    players = svc.page.view("")
    while not players.items[svc.page.selected].startswith("Solo"):
        svc.dispatch(K.UP)
    svc.dispatch(K.OK)


def test_a_solo_round_entered_and_hired(tmp_path: Path) -> None:
    svc = service(tmp_path, [])
    svc.run()
    to_gardlings(svc)
    assert svc.page.title == "Round 1: gardens"
    svc.dispatch(K.OK)  # the player's garden
    assert isinstance(svc.page.view(""), MenuView) and svc.page.title.startswith("Player")
    svc.dispatch(K.OK)  # Gems: 0 -> the number page
    for _ in range(9):
        svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # 9 gems
    assert svc.page.view("").items[0] == "Gems: 9"
    svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # alarm: yes
    assert svc.page.view("").items[1] == "Gnome alarm: yes"
    svc.dispatch(K.DOWN)
    svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # Done
    view = svc.page.view("")
    assert view.items[0].endswith("9g, alarm")
    svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # Done: hiring
    view = svc.page.view("")
    assert svc.page.title.endswith("6g 0c = 6")  # 9 - 3 stolen
    assert view.items[:2] == ("green-1: 4", "green-2: 4")
    svc.dispatch(K.OK)  # buy green-1
    saved = SessionStore(tmp_path).load()
    record = saved.current
    assert record["round"] == 2 and record["players"][0]["tiles_used"] == 1
    assert record["market"]["stacks"]["green-1"]["tiles"] == 11
    svc.page.view("")  # a live menu is rebuilt as it is drawn
    assert svc.page.title == "Round 2: gardens"


def test_resume_and_the_market(tmp_path: Path) -> None:
    svc = service(tmp_path, [])
    svc.run()
    to_gardlings(svc)
    again = service(tmp_path, [K.OK])  # resume offered at start
    again.run()
    assert again.page.title == "Round 1: gardens"
    items = again.page.view("").items
    again.page.selected = items.index("Market")
    again.dispatch(K.OK)
    text = again.page.view("")
    assert isinstance(text, TextView) and "blue: 12+c / 11+c" in text.lines


def test_the_victory_tile_and_the_solo_result() -> None:
    record = tb.new_table(["Solo"])
    record = tb.enter(record, 0, gems=18)
    over = tb.end_building(record)
    assert over["phase"] == tb.OVER and over["winners"] == ["Solo"]
    sheet = tb.score_sheet(over)
    assert sheet.winner == "Solo" and sheet.result == "Gold (1 tiles)"
    two = tb.new_table(["Ann", "Ben"])
    two = tb.enter(tb.enter(two, 0, gems=17), 1, gems=17)
    assert tb.end_building(two)["phase"] == tb.HIRE  # tied on gems and coins: nobody
    two["players"][1]["coins"] = 1
    assert tb.end_building(two)["winners"] == ["Ben"]
    coins = tb.new_table(["Ann"])
    coins["players"][0]["coins"] = 5
    assert not tb.money(tb.enter(coins, 0, gems=16), 0)["victory"]  # never with coins


def test_reward_coin_and_piglet_at_the_table() -> None:
    record = tb.new_table(["Maria"])
    record["players"][0]["coins"] = 3
    record = tb.end_building(tb.enter(record, 0, gems=7, alarm=True))
    after = tb.hire(record, "blue-2")
    assert after["players"][0]["coins"] == 1 and "coin" not in after["market"]["stacks"][
        "blue-2"]
    record["players"][0]["coins"] = 3
    after = tb.hire(record, "piglet")
    assert after["players"][0]["coins"] == 4 and after["market"]["piglets"] == 19


def test_a_long_game_needs_20_gems() -> None:
    record = tb.new_table(["Solo"], long_game=True)
    assert not tb.money(tb.enter(record, 0, gems=19), 0)["victory"]
    assert tb.money(tb.enter(record, 0, gems=20), 0)["victory"]
    assert tb.money(tb.enter(tb.new_table(["Solo"]), 0, gems=17), 0)["victory"]


def test_expert_at_the_table_steals_half_and_pays_ponds() -> None:
    record = tb.new_table(["Ann"], "expert")
    m = tb.money(tb.enter(record, 0, gems=9, alarm=True, piglets=True, ponds=2), 0)
    assert (m["stolen"], m["total"], m["coins"], m["mutate"]) == (4, 5, 2, True)


def test_the_configured_catalogue_and_long_game_are_the_tables(tmp_path: Path) -> None:
    """games.gardlings.catalogue and long_game (config) set up the game at the table."""
    own = Path(__file__).parent / "data" / "catalogue.yaml"
    svc = service(tmp_path, [])
    svc.ctx.settings["games"]["gardlings"].update(catalogue=str(own), long_game=True)
    svc.run()
    to_gardlings(svc)
    record = SessionStore(tmp_path).load().current
    assert record["catalogue"] == str(own) and record["long_game"] is True
    sample = tb.new_table(["Solo"])
    assert sample["catalogue"] == "sample"
    assert record["market"] != sample["market"]  # the stacks hold the players' own tiles


def test_a_mutating_piglet_moves_the_market_at_the_table() -> None:
    """Expert: 'place 1 lucky piglet under a matching-colored stack on the market board.
    Then take a tile of the next more expensive color' (beige -> green, ..., pink -> gold)."""
    record = tb.new_table(["Ann"], "expert")
    options = tb.mutation_options(record)
    assert ("piglet", "green-1") in options and ("pink", "gold-2") in options
    assert not any(back == "gold" for back, _stack in options)  # gold cannot mutate
    stacks = record["market"]["stacks"]
    after = tb.mutate(record, "green", "blue-2")
    assert after["market"]["stacks"]["green-1"]["tiles"] == stacks["green-1"]["tiles"] + 1
    assert after["market"]["stacks"]["blue-2"]["tiles"] == stacks["blue-2"]["tiles"] - 1
    piglet = tb.mutate(record, "piglet", "green-2")
    assert piglet["market"]["piglets"] == record["market"]["piglets"] + 1
    with pytest.raises(StateError):
        tb.mutate(record, "gold", "gold-1")


def test_the_flow_asks_which_piglet_mutates_after_the_hire(tmp_path: Path) -> None:
    from companion.gardlings.screens import RoundPage
    from companion.session import Session

    session = Session("gardlings", ["Ann"])
    ctx = Context(copy.deepcopy(dict(load_config(candidates=[]).values)), tmp_path)
    record = tb.end_building(tb.enter(tb.new_table(["Ann"], "expert"), 0, gems=9,
                                      piglets=True))
    session.accept(record)
    page = RoundPage(ctx, session)
    menu = page._hire("green-1")
    assert isinstance(menu, MenuPage) and menu.title == "Piglet mutates:"
    choice = next(c for c in menu.choices if c.label == "green -> blue-1")
    before = session.current["market"]["stacks"]
    choice.action()
    after = session.current["market"]["stacks"]
    assert after["blue-1"]["tiles"] == before["blue-1"]["tiles"] - 1
    assert after["green-1"]["tiles"] == before["green-1"]["tiles"] + 1
