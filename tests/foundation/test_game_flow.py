"""New game, resume after a restart, and the offer to resume at start, over a fake game."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_helpers import make_service

from companion.devices.buttons import Key
from companion.games import GameInfo, ScoreSheet, all_games, registry
from companion.session import Session, SessionStore
from companion.ui.pages import MenuPage, Outcome, Page, TextPage
from companion.ui.players import seat_names
from companion.ui.views import MenuView, TextView


class CountingPage(Page):
    """A stand-in game: every OK is one accepted state, saved at once."""

    def __init__(self, ctx, session: Session) -> None:
        self.ctx, self.session = ctx, session
        self.title = "Counting"

    def view(self, status: str) -> TextView:
        return TextView("Counting", (", ".join(self.session.players),
                                     f"{len(self.session.accepted)} accepted"))

    def handle(self, key: Key) -> Outcome:
        if key is Key.OK:
            self.session.accept({"n": len(self.session.accepted)})
            SessionStore(self.ctx.data_dir).save(self.session)
            return None
        if key is Key.DOWN:  # the game is over: one point per accepted state
            from companion.ui.game_over import final_score_page

            sheet = ScoreSheet.of("counting", [(name, [("n", "states", len(self.session.accepted))])
                                               for name in self.session.players])
            return final_score_page(self.ctx, "counting", sheet)
        return super().handle(key)


def counting_page(ctx, session: Session) -> Page:
    return CountingPage(ctx, session)


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting first in the menu; the real games after it (their settings are configured)."""
    game = GameInfo("counting", "Counting", "counting.txt", 1, 3,
                    flow=f"{__name__}:counting_page")
    real = {g.name: g for g in all_games()}
    monkeypatch.setattr(registry, "_REGISTRY", {"counting": game, **real})


def test_new_game_with_players_then_accepted_states_are_saved(tmp_path: Path) -> None:
    # game menu -> New game -> players (2 preselected) -> OK -> three accepted states
    service = make_service(tmp_path, [Key.OK, Key.OK, Key.OK, Key.OK, Key.OK, Key.OK])
    service.run()
    page = service.page
    assert isinstance(page, CountingPage)
    assert page.session.players == ["Player 1", "Player 2"]
    saved = SessionStore(tmp_path).load()
    assert saved is not None and saved.accepted == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_start_offers_to_resume_and_resumes(tmp_path: Path) -> None:
    session = Session("counting", ["Toni", "Emma", "Liz"])
    session.accept({"n": 0})
    SessionStore(tmp_path).save(session)
    service = make_service(tmp_path, [], first=None)
    view = service.page.view("")
    assert isinstance(view, MenuView) and view.title == "Resume Counting?"
    assert view.items[0] == "Resume (Toni, Emma, Liz)"
    service.dispatch(Key.OK)
    assert isinstance(service.page, CountingPage)
    assert service.page.session.accepted == [{"n": 0}]


def test_not_now_leaves_the_save_for_later(tmp_path: Path) -> None:
    SessionStore(tmp_path).save(Session("counting", ["A"]))
    service = make_service(tmp_path, [Key.DOWN, Key.OK])
    service.run()
    assert isinstance(service.page, MenuPage) and service.page.title == "Table Companion"
    assert SessionStore(tmp_path).load() is not None
    service.dispatch(Key.OK)  # the game's menu offers it again
    labels = [c.label for c in service.page.choices]
    assert labels[:2] == ["Resume (0 saved)", "New game"]


def test_damaged_save_is_reported_and_service_starts(tmp_path: Path) -> None:
    (tmp_path / "session.json").write_text("{broken")
    service = make_service(tmp_path, [], first=None)
    view = service.page.view("")
    assert isinstance(view, TextView) and view.alert and "moved to" in view.lines[0]
    assert list(tmp_path.glob("session.damaged-*.json"))


def test_history_page_with_no_games(tmp_path: Path) -> None:
    service = make_service(tmp_path, [Key.OK, Key.UP, Key.UP, Key.OK])
    service.run()
    assert isinstance(service.page, TextPage)
    assert service.page.lines == ("No finished games yet.",)


def test_seat_names_pad_with_player_numbers() -> None:
    assert seat_names([], 2) == ["Player 1", "Player 2"]


def test_game_over_saves_to_history_and_ends_the_saved_game(tmp_path: Path) -> None:
    from companion.history import History
    from companion.ui.game_over import game_over_menu
    from companion.ui.pages import BACK, LEAVE_FLOW
    from companion.ui.service import Context

    SessionStore(tmp_path).save(Session("counting", ["Toni"]))
    sheet = ScoreSheet.of("counting", [("Toni", [("n", "states", 14)])], result="Champion")
    menu = game_over_menu(Context({}, tmp_path), "counting", sheet, end_session=True,
                          message="The game is in the history.")
    saved = menu.handle(Key.OK)
    assert isinstance(saved, TextPage) and saved.lines[0] == "The game is in the history."
    finished = History(tmp_path).games()[0]
    assert finished.totals == (("Toni", 14),) and finished.winner == "Toni"
    assert finished.result == "Champion" and finished.line().endswith(": Toni 14 (Champion)")
    assert SessionStore(tmp_path).load() is None
    assert saved.handle(Key.OK) is LEAVE_FLOW
    menu.handle(Key.DOWN)
    assert menu.handle(Key.OK) is BACK


def test_a_game_saved_to_the_history_leaves_its_flow(tmp_path: Path) -> None:
    """New game, two states, game over, save: back on the game's menu, whatever lay between."""
    service = make_service(tmp_path, [Key.OK, Key.OK, Key.OK, Key.OK, Key.OK, Key.DOWN,
                                      Key.OK, Key.OK, Key.OK])
    service.run()
    assert [p.title for p in service.stack] == ["Table Companion", "Counting"]
    from companion.history import History

    assert History(tmp_path).games()[0].totals == (("Player 1", 2), ("Player 2", 2))
    assert SessionStore(tmp_path).load() is None


def test_one_bad_history_entry_does_not_hide_the_others(tmp_path: Path) -> None:
    """An entry whose finished_at is a number is skipped, and the page says so."""
    import json

    good = {"game": "counting", "finished_at": "2026-11-29T20:00:00+00:00", "winner": "Toni",
            "players": [{"name": "Toni", "total": 3}]}
    (tmp_path / "history.json").write_text(json.dumps(
        {"games": [good, {**good, "finished_at": 1764446400}]}))
    service = make_service(tmp_path, [Key.OK, Key.UP, Key.UP, Key.OK])
    service.run()
    page = service.page
    assert isinstance(page, TextPage) and page.title == "Counting history"
    assert page.lines[0] == "2026-11-29: Toni 3"
    assert page.lines[1].startswith("1 damaged entry in ") and "skipped (number 2)" in \
        page.lines[1]
    assert "history.json" in page.lines[1]
