"""Meadow at the table: the bookkeeping model and the OLED flow driven by keys."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.devices.buttons import Key
from companion.errors import StateError
from companion.meadow.catalogue import load_catalogue
from companion.meadow.requirements import Place
from companion.meadow.screens import TurnPage, play_page
from companion.meadow.table import (
    TableGame,
    bonus_placed,
    end_turn,
    keep_play,
    new_table,
    rover_card,
    rule,
    table_sheet,
    token_placed,
)
from companion.session import Session
from companion.ui.pages import Replace, TextPage

CAT = load_catalogue()


def test_solo_bookkeeping_runs_rover_and_the_rounds() -> None:
    game = new_table(CAT, ["Ann"], ["start-1a"], seed=5)
    assert game.log[-1].startswith("Rover:") and len(game.pile) == 14
    rounds_seen = set()
    while not game.over:
        rounds_seen.add(game.round)
        if game.rover_pending:
            game = rover_card(game, 2)
        game = end_turn(token_placed(game, CAT, game.free_notches(CAT)[0]), CAT)
    assert rounds_seen == set(range(1, 7))
    assert game.rover_cards > 0 and game.rover_points == 2 * game.rover_cards
    assert TableGame.from_dict(game.to_dict()) == game
    sheet = table_sheet(game, CAT)
    assert sheet.final and sheet.result.startswith(f"Rover {game.rover_points}")


def test_plays_are_ruled_before_they_are_kept() -> None:
    game = new_table(CAT, ["Ann", "Ben"], ["start-1a", "start-2a"], seed=1)
    assert rule(game, CAT, "S34", Place.on_column(1), 0).legal  # needs bug: start-1a has it
    bad = rule(game, CAT, "N11", Place.on_column(1), 0)
    assert not bad.legal and "missing" in bad.codes and bad.fewest_discards == 2
    game = keep_play(game, CAT, "S34", Place.on_column(1), 0)
    assert game.areas[0].meadow == (("start-1a", "S34"),)
    with pytest.raises(StateError):
        keep_play(game, CAT, "N11", Place.on_column(1), 0)
    game = bonus_placed(game)
    assert [b.value for b in game.areas[0].bonus] == [2]
    game = token_placed(game, CAT, "L1")
    with pytest.raises(StateError):
        token_placed(game, CAT, "L2")
    game = end_turn(game, CAT)
    assert game.seat == 1
    with pytest.raises(StateError):
        token_placed(game, CAT, "L1")
    with pytest.raises(StateError):
        end_turn(game, CAT)


def test_flow_start_token_rover_and_a_ruling(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.meadow import screens

    monkeypatch.setattr(screens, "new_seed", lambda: 11)  # Rover's first token takes a card
    ctx = SimpleNamespace(data_dir=tmp_path, settings={"games": {}})
    session = Session("meadow", ["Ann"])
    start = play_page(ctx, session)
    out = start.handle(Key.OK)
    assert isinstance(out, Replace) and isinstance(out.page, TurnPage)
    turn = out.page
    labels = [c.label for c in turn.choices]
    assert "Rover/news" in labels and "Rover's card points" in labels
    news = turn.choices[0].action()
    assert isinstance(news, TextPage) and news.lines[-1].startswith("Rover:")
    turn.refresh()
    points = turn.choices[[c.label for c in turn.choices].index("Rover's card points")].action()
    points.selected = 4  # "3 points"
    points.handle(Key.OK)
    assert turn.game.rover_points == 3 and session.current["rover_points"] == 3
    turn.refresh()
    notch_menu = turn.choices[[c.label for c in turn.choices].index("Token placed")].action()
    notch_menu.handle(Key.OK)
    turn.refresh()
    deck_menu = turn.choices[[c.label for c in turn.choices].index("Play a card")].action()
    card_menu = deck_menu.choices[[c.label for c in deck_menu.choices].index("S")].action()
    pick = [c.label for c in card_menu.choices].index("S34 Lichen")
    where = card_menu.choices[pick].action()
    discards = where.choices[0].action()
    verdict = discards.choices[0].action()
    assert verdict.title == "Legal"
    verdict.handle(Key.OK)
    assert turn.game.areas[0].meadow == (("start-1a", "S34"),)
    turn.refresh()
    nxt = turn.choices[[c.label for c in turn.choices].index("End turn")].action()
    assert isinstance(nxt, TextPage) and "Rover" in nxt.lines[0]
    again = play_page(ctx, session)
    assert isinstance(again, TurnPage) and again.game == turn.game


def test_the_configured_catalogue_is_the_tables(tmp_path: Path) -> None:
    """games.meadow.catalogue (config): the players' own catalogue sets up the game at the
    table and stays with it when it is resumed."""
    import shutil

    from companion.meadow.catalogue import SAMPLE

    own = tmp_path / "my-cards.yaml"
    shutil.copy(SAMPLE, own)
    ctx = SimpleNamespace(data_dir=tmp_path,
                          settings={"games": {"meadow": {"catalogue": str(own)}}})
    session = Session("meadow", ["Ann", "Ben"])
    start = play_page(ctx, session)
    start.handle(Key.OK)
    out = start.handle(Key.OK)
    assert isinstance(out, Replace)
    assert session.current["catalogue"] == str(own.resolve())
    again = play_page(SimpleNamespace(data_dir=tmp_path, settings={"games": {}}), session)
    assert isinstance(again, TurnPage) and again.game.catalogue == str(own.resolve())
