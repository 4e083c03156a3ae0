"""Issue #21: nothing a player saved is lost at the table, and no saved file stops the service.

Over a fake game ("counting": every OK is one accepted state, saved at once) and the real ones:
the game's menu offers a game left a moment ago, a new game never replaces a saved one without
the players confirming it, a saved game that cannot be resumed or read is moved aside and
named, and a save the disk refuses is named for what it is and tried again until it succeeds.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

import pytest
from service_helpers import make_service

from companion import session as session_module
from companion.devices.buttons import Key
from companion.errors import StateError
from companion.games import GameInfo, ScoreSheet, all_games, registry
from companion.history import History
from companion.session import Session, SessionStore
from companion.storage import StorageError
from companion.ui.pages import MenuPage, Outcome, Page, TextPage
from companion.ui.service import NOT_SAVED, GameMenu, Service
from companion.ui.views import MenuView, TextView

ROOT = Path(__file__).resolve().parents[2]


class CountingPage(Page):
    """A stand-in game: OK accepts a state (saved at once), DOWN ends the game, BACK leaves.
    A saved state holding "boom" cannot be taken up again (as a state of another game)."""

    def __init__(self, ctx: Any, session: Session) -> None:
        if session.current is not None and "boom" in session.current:
            raise StateError("boom: a field this game does not know")
        if session.current is not None and "type" in session.current:
            raise TypeError("'int' object is not subscriptable")
        self.ctx, self.session = ctx, session
        self.title = "Counting"

    def view(self, status: str) -> TextView:
        return TextView("Counting", (f"{len(self.session.accepted)} accepted",), 0, status)

    def handle(self, key: Key) -> Outcome:
        if key is Key.OK:
            self.session.accept({"n": len(self.session.accepted)})
            SessionStore(self.ctx.data_dir).save(self.session)
            return None
        if key is Key.DOWN:
            from companion.ui.game_over import final_score_page

            sheet = ScoreSheet.of("counting", [(n, [("n", "states", len(self.session.accepted))])
                                               for n in self.session.players])
            return final_score_page(self.ctx, "counting", sheet)
        return super().handle(key)


def counting_page(ctx: Any, session: Session) -> Page:
    return CountingPage(ctx, session)


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    game = GameInfo("counting", "Counting", "counting.txt", 1, 3,
                    flow=f"{__name__}:counting_page")
    real = {g.name: g for g in all_games()}
    monkeypatch.setattr(registry, "_REGISTRY", {"counting": game, **real})


def labels(service: Service) -> list[str]:
    view = service.page.view("")
    assert isinstance(view, MenuView), view
    return list(view.items)


def saved_states(tmp_path: Path) -> list[dict[str, Any]]:
    saved = SessionStore(tmp_path).load()
    assert saved is not None
    return saved.accepted


def save(tmp_path: Path, game: str = "counting", states: int = 2, **fields: Any) -> str:
    session = Session(game, ["Toni", "Emma"])
    for n in range(states):
        session.accept({"n": n, **fields})
    SessionStore(tmp_path).save(session)
    return (tmp_path / "session.json").read_text()


# -- 1. a saved game is never replaced without asking ---------------------------------------

def test_a_game_left_is_offered_again_and_ok_ok_does_not_replace_it(tmp_path: Path) -> None:
    # Counting -> New game -> 2 players -> two states -> BACK: "Leave (saved)"
    service = make_service(tmp_path, [Key.OK, Key.OK, Key.OK, Key.OK, Key.OK, Key.BACK,
                                      Key.OK])
    service.run()  # then OK on the menu: the cursor is still on "New game", which asks
    assert saved_states(tmp_path) == [{"n": 0}, {"n": 1}]
    menu = service.stack[1]
    assert isinstance(menu, GameMenu)
    assert labels(service)[:2] == ["Keep Counting (Player 1, Player 2, 2 saved)", "Replace it"]
    service.dispatch(Key.OK)  # keep it
    assert service.page is menu
    assert [c.label for c in menu.choices][:2] == ["Resume (2 saved)", "New game"]
    menu.selected = 0
    service.dispatch(Key.OK)  # Resume: the game as it was left
    assert isinstance(service.page, CountingPage) and len(service.page.session.accepted) == 2
    service.dispatch(Key.OK)
    assert saved_states(tmp_path) == [{"n": 0}, {"n": 1}, {"n": 2}]


def test_the_menu_of_a_saved_game_opens_on_resume(tmp_path: Path) -> None:
    save(tmp_path)
    service = make_service(tmp_path, [Key.BACK, Key.OK, Key.OK, Key.OK])
    service.run()  # "Not now", the game's menu, OK: Resume, OK: one more state
    assert isinstance(service.page, CountingPage)
    assert saved_states(tmp_path) == [{"n": 0}, {"n": 1}, {"n": 2}]


@pytest.mark.parametrize("other", ["counting", "the-glade"])
def test_a_new_game_replaces_a_saved_one_only_when_confirmed(tmp_path: Path,
                                                            other: str) -> None:
    before = save(tmp_path, other)
    service = make_service(tmp_path, [Key.BACK, Key.OK])  # not now; Counting's menu
    service.run()
    menu = service.page
    assert isinstance(menu, GameMenu)
    menu.selected = [c.label for c in menu.choices].index("New game")
    service.dispatch(Key.OK)
    assert service.page.title == "Replace saved game?"
    service.dispatch(Key.OK)  # the first choice keeps it
    assert service.page is menu and (tmp_path / "session.json").read_text() == before
    service.dispatch(Key.OK)
    service.dispatch(Key.DOWN)
    service.dispatch(Key.OK)  # "Replace it": now the players
    assert service.page.title == "Who plays?"
    assert (tmp_path / "session.json").read_text() == before
    service.dispatch(Key.OK)
    assert isinstance(service.page, CountingPage)
    new = SessionStore(tmp_path).load()
    assert new is not None and new.game == "counting" and new.accepted == []


# -- 2. a saved game that cannot be resumed is moved aside ----------------------------------

@pytest.mark.parametrize("bad", [{"boom": 1}, {"type": 1}])
def test_an_unresumable_game_is_moved_aside_and_named(tmp_path: Path,
                                                      bad: dict[str, int]) -> None:
    before = save(tmp_path, **bad)
    service = make_service(tmp_path, [Key.OK])  # "Resume (Toni, Emma)" at start
    service.run()
    aside = list(tmp_path.glob("session.unresumable-*.json"))
    assert len(aside) == 1 and aside[0].read_text() == before
    assert not (tmp_path / "session.json").exists()
    page = service.page
    assert isinstance(page, TextPage) and page.alert and str(aside[0]) in page.lines[0]
    # a new game starts without asking: nothing is left to overwrite
    service.dispatch(Key.OK)
    service.dispatch(Key.OK)
    assert isinstance(service.page, GameMenu) or service.page.title == "Table Companion"
    menu = GameMenu(service.ctx, registry.find_game("counting"))
    assert menu.choices[0].label == "New game"
    assert aside[0].read_text() == before


def test_a_glass_garden_game_holding_glade_states_is_moved_aside(tmp_path: Path) -> None:
    glade = json.loads((ROOT / "docs/examples/the-glade-last-turn.json").read_text())
    session = Session("glass-garden", ["Toni"], accepted=[glade])
    SessionStore(tmp_path).save(session)
    service = make_service(tmp_path, [Key.OK])
    service.run()
    page = service.page
    assert isinstance(page, TextPage) and page.alert
    assert "the-glade state file" in page.lines[0] and "session.unresumable-" in page.lines[0]
    assert len(list(tmp_path.glob("session.unresumable-*.json"))) == 1


def test_two_games_set_aside_in_one_second_keep_both(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    first = save(tmp_path, states=1)
    store.set_aside("unresumable")
    second = save(tmp_path, states=3)
    store.set_aside("unresumable")
    kept = sorted(p.read_text() for p in tmp_path.glob("session.unresumable-*.json"))
    assert kept == sorted([first, second])


# -- 3. a damaged saved game never stops the service or blocks a game -----------------------

def deep(n: int) -> str:
    return "[" * n + "]" * n


@pytest.mark.parametrize("content", [
    json.dumps({"format": 1, "game": "no-such-game", "players": ["A"], "started_at": "x",
                "accepted": []}),
    deep(100_000),
    '{"format": 1, "game": "counting", "players": "Toni", "started_at": "x", "accepted": []}',
    "folder",
], ids=["unknown-game", "deep", "players-text", "folder"])
def test_a_damaged_saved_game_is_set_aside_at_start(tmp_path: Path, content: str) -> None:
    path = tmp_path / "session.json"
    if content == "folder":
        path.mkdir()
        (path / "inside.txt").write_text("kept")
    else:
        path.write_text(content)
    service = make_service(tmp_path, [], first=None)  # starts: no exception
    page = service.page
    assert isinstance(page, TextPage) and page.alert, page
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("session.")
             and p.name != "session.json"]
    assert len(aside) == 1 and str(aside[0]) in page.lines[0]
    assert "\n" not in page.lines[0]
    if content == "folder":
        assert (aside[0] / "inside.txt").read_text() == "kept"
    else:
        assert aside[0].read_text() == content
    # every game's menu works, and a new game needs no confirmation
    service.dispatch(Key.OK)
    assert service.page.title == "Table Companion"
    for game in all_games():
        menu = GameMenu(service.ctx, game)
        assert "New game" in [c.label for c in menu.choices] or not game.flow
    assert not service.ctx.notices


def test_players_must_be_a_list_of_names() -> None:
    good = {"format": 1, "game": "counting", "players": ["Toni"], "started_at": "x",
            "accepted": []}
    assert Session.from_dict(good).players == ["Toni"]
    for players in ("Toni", [], ["Toni", 3], [""], ["a"] * 9, None):
        with pytest.raises(StateError, match="players"):
            Session.from_dict({**good, "players": players})
    with pytest.raises(StateError, match="accepted"):
        Session.from_dict({**good, "accepted": [1]})


# -- 4. a save the disk refuses --------------------------------------------------------------

@pytest.mark.parametrize(("code", "kind"), [(errno.ENOSPC, "disk-full"),
                                            (errno.EROFS, "read-only"),
                                            (errno.EACCES, "permission")])
def test_a_refused_save_is_named_kept_in_memory_and_retried(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int, kind: str) -> None:
    real = session_module.atomic_write_json
    disk_ok = False

    def write(path: Path, data: Any, **_: Any) -> None:
        if not disk_ok:
            raise OSError(code, "refused")
        real(path, data)

    monkeypatch.setattr(session_module, "atomic_write_json", write)
    now = [0.0]
    service = make_service(tmp_path, [Key.OK, Key.OK, Key.OK], clock=lambda: now[0])
    service.run()  # Counting, New game, 2 players: the new game cannot be saved
    assert not (tmp_path / "session.json").exists()
    page = service.page
    assert isinstance(page, TextPage) and page.alert and page.title == "Not saved"
    unsaved = SessionStore(tmp_path).unsaved()
    assert unsaved is not None and isinstance(unsaved.unsaved, StorageError)
    assert unsaved.unsaved.kind == kind and str(tmp_path) in page.lines[0]
    service.dispatch(Key.OK)  # read it: the game goes on, marked NOT SAVED
    assert isinstance(service.page, CountingPage)
    service.dispatch(Key.OK)
    assert service.page.view(NOT_SAVED).status == NOT_SAVED
    service.draw()
    assert isinstance(service.page, CountingPage)  # told once per problem, not on each state
    # the game's menu offers the game in memory
    assert "Resume (1 saved, unsaved)" in [
        c.label for c in GameMenu(service.ctx, registry.find_game("counting")).choices]
    now[0] += 1.0
    service.retry_saving(now[0])  # too soon: not tried
    assert SessionStore(tmp_path).unsaved() is not None
    disk_ok = True
    now[0] += 10.0
    service.retry_saving(now[0])  # tried again on its own, and it went through
    assert SessionStore(tmp_path).unsaved() is None and service.told_unsaved is None
    assert service.page.title == "Saved"
    assert saved_states(tmp_path) == [{"n": 0}]


def test_a_refused_save_is_tried_again_on_every_key(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    tries = []

    def write(path: Path, data: Any, **_: Any) -> None:
        tries.append(len(data["accepted"]))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(session_module, "atomic_write_json", write)
    service = make_service(tmp_path, [Key.OK, Key.OK, Key.OK, Key.OK, Key.UP, Key.UP])
    service.run()
    assert tries == [0, 0, 0, 0]  # the new game, then once per key after it (3)


def test_a_history_the_disk_refuses_keeps_the_saved_game(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:
    from companion import history

    def write(path: Path, data: Any, **_: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    save(tmp_path)
    before = (tmp_path / "session.json").read_text()
    monkeypatch.setattr(history, "atomic_write_json", write)
    # resume, DOWN: game over, OK: save to history
    service = make_service(tmp_path, [Key.OK, Key.DOWN, Key.OK, Key.OK])
    service.run()
    page = service.page
    assert isinstance(page, TextPage) and page.alert and "disk is full" in page.lines[0]
    assert (tmp_path / "session.json").read_text() == before
    with pytest.raises(StorageError) as refused:
        from companion.history import Finished

        History(tmp_path).add(Finished("counting", "2026-01-01", (("A", 1),), "A"))
    assert refused.value.kind == "disk-full"


# -- 9. what a cut write left is removed at start --------------------------------------------

def test_stale_temp_files_are_removed_at_start(tmp_path: Path) -> None:
    left = [tmp_path / ".session.json.a1b2c3.tmp", tmp_path / ".history.json.zz9.tmp"]
    kept = [tmp_path / ".other.json.x.tmp", tmp_path / "session.json.tmp"]
    for p in left + kept:
        p.write_text("{")
    make_service(tmp_path, [])
    assert [p.exists() for p in left] == [False, False]
    assert all(p.exists() for p in kept)


def test_the_history_page_skips_a_numeric_finished_at(tmp_path: Path) -> None:
    good = {"game": "counting", "finished_at": "2026-11-29T20:00:00+00:00", "winner": "A",
            "players": [{"name": "A", "total": 3}]}
    (tmp_path / "history.json").write_text(json.dumps(
        {"games": [good, {**good, "finished_at": 1764446400}]}))
    service = make_service(tmp_path, [Key.OK, Key.UP, Key.UP, Key.OK])
    service.run()
    assert isinstance(service.page, TextPage) and not service.page.alert
    assert service.page.lines[0] == "2026-11-29: A 3"


def test_menus_do_not_read_the_saved_game_on_every_draw(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    save(tmp_path)
    service = make_service(tmp_path, [Key.BACK, Key.OK])
    service.run()
    reads = []
    real = SessionStore.load

    def load(self: SessionStore) -> Session | None:
        reads.append(1)
        return real(self)

    monkeypatch.setattr(SessionStore, "load", load)
    for _ in range(20):
        service.draw()
    assert reads == []
    assert isinstance(service.page, MenuPage)


def test_a_finished_game_is_saved_over_a_history_that_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "history.json").write_text("[1, 2")
    save(tmp_path)
    # resume, DOWN: game over, OK: the final score, OK: save to history
    service = make_service(tmp_path, [Key.OK, Key.DOWN, Key.OK, Key.OK])
    service.run()
    page = service.page
    assert isinstance(page, TextPage) and page.title == "Saved"
    aside = list(tmp_path.glob("history.damaged-*.json"))
    assert len(aside) == 1 and aside[0].read_text() == "[1, 2"
    assert str(aside[0]) in page.lines[1]
    assert History(tmp_path).games()[0].totals == (("Toni", 2), ("Emma", 2))
    assert SessionStore(tmp_path).load() is None
