"""The service loop over test doubles: keys move through pages, errors become screens, POWER
stops it with a "stopped" screen left on the panel, and the demo writes its GIF."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from service_helpers import make_service

from companion.demo import run_demo
from companion.devices.buttons import Key, ScriptedButtons
from companion.ui.pages import MenuPage, Page, TextPage
from companion.ui.service import Context, Service, main_menu
from companion.ui.views import MenuView, TextView


def test_main_menu_lists_every_game(tmp_path: Path) -> None:
    menu = main_menu(Context({}, tmp_path))
    view = menu.view("")
    assert isinstance(view, MenuView)
    assert [i.split(" (")[0] for i in view.items] == ["The Glade", "Glass Garden", "Gardlings",
                                                      "Meadow"]


def test_a_coming_game_says_so_and_back_returns(tmp_path: Path) -> None:
    labels = list(main_menu(Context({}, tmp_path)).view("").items)
    coming = [i for i, label in enumerate(labels) if label.endswith(" (coming)")]
    if not coming:
        pytest.skip("every registered game can be played at the table now")
    service = make_service(tmp_path, [Key.DOWN] * coming[0] + [Key.OK])
    service.run()
    view = service.page.view("")
    title = labels[coming[0]].removesuffix(" (coming)")
    assert isinstance(view, TextView) and f"{title} is coming" in view.lines[0]
    service.dispatch(Key.OK)
    assert isinstance(service.page, MenuPage) and len(service.stack) == 1


class Exploding(Page):
    def view(self, status: str) -> TextView:
        return TextView("x", ("boom",))

    def handle(self, key: Key) -> None:
        raise ZeroDivisionError("bug")


def test_a_bug_in_a_page_becomes_an_error_screen(tmp_path: Path) -> None:
    service = make_service(tmp_path, [Key.OK], first=Exploding())
    assert service.run() == 0
    view = service.page.view("")
    assert isinstance(view, TextView) and view.alert
    assert "Internal error (ZeroDivisionError)" in view.lines[0]


def test_power_then_ok_stops_with_stopped_screen(tmp_path: Path) -> None:
    """The user asked to stop: OK on "Stop?" stops (the cursor starts on "Stop the service")."""
    service = make_service(tmp_path, [Key.POWER, Key.OK, Key.DOWN])
    service.run()
    assert service.stop_requested
    assert service.display.closed and service.display.device.persist
    assert service.buttons.remaining == 1  # stopped before the last key


def test_stop_screen_starts_on_stop(tmp_path: Path) -> None:
    service = make_service(tmp_path, [Key.POWER])
    service.run()
    view = service.page.view("")
    assert isinstance(view, MenuView) and view.title == "Stop?"
    assert view.items[view.selected] == "Stop the service"


@pytest.mark.parametrize("keys", [[Key.POWER, Key.BACK], [Key.POWER, Key.DOWN, Key.OK]])
def test_power_then_back_keeps_running(tmp_path: Path, keys: list[Key]) -> None:
    service = make_service(tmp_path, keys)
    service.run()
    assert not service.stop_requested and len(service.stack) == 1


def test_back_on_the_first_page_stays(tmp_path: Path) -> None:
    service = make_service(tmp_path, [Key.BACK, Key.BACK])
    service.run()
    assert len(service.stack) == 1


def test_text_page_scrolls_within_bounds() -> None:
    page = TextPage("t", [f"line {i}" for i in range(10)])
    for _ in range(20):
        page.handle(Key.DOWN)
    assert page.offset == 6
    page.handle(Key.UP)
    assert page.offset == 5


class SlowButtons(ScriptedButtons):
    """Two idle polls, then the script."""

    def __init__(self, keys: list[Key]) -> None:
        super().__init__(keys)
        self.idle = 2

    def get(self, timeout: float | None = None) -> Key | None:
        if self.idle:
            self.idle -= 1
            return None
        return super().get(timeout)


def test_idle_dims_and_a_key_wakes_without_acting(tmp_path: Path) -> None:
    now = [0.0]

    def clock() -> float:
        now[0] += 100.0  # every look at the clock is 100 s later
        return now[0]

    service = make_service(tmp_path, [], clock=clock)
    service.buttons = SlowButtons([Key.OK])
    service.ctx.settings["display"]["dim_after_seconds"] = 150
    calls: list[int] = []
    service.display.device.contrast = calls.append
    service.run()
    assert calls == [8, 255]  # dimmed on the second idle poll, woken by OK
    assert len(service.stack) == 1  # the waking press did not open The Glade


def test_demo_plays_the_glade_and_glass_garden_and_ends_scoring_from_photos(
        tmp_path: Path, capsys, monkeypatch) -> None:
    """The demo on the real recognisers: The Glade's placements ruled from simulated photos,
    Glass Garden's turns followed from photos (the wrong glass card named, retaken), then the
    bundled finished game scored from its photos and saved."""
    import json

    from companion.glass_garden.demo import truth
    from companion.glass_garden.state_file import parse_state
    from companion.glass_garden.tracker import GLASS_WITHOUT_EDGE
    from companion.the_glade.state_file import load_state
    from companion.ui.pages import score_lines

    titles: list[str] = []
    accepted: list[str] = []
    readings: list = []
    final: list[str] = []
    draw = Service.draw

    def watch(self: Service) -> None:
        page = self.page
        if not titles or titles[-1] != page.title:
            titles.append(page.title)
            if page.title == "Accepted":
                accepted.extend(page.lines)  # type: ignore[attr-defined]
            if hasattr(page, "odd") and hasattr(page, "state"):
                readings.append(page)
            if page.title == "Final score" and not final:
                final.extend(page.lines)  # type: ignore[attr-defined]
        draw(self)

    monkeypatch.setattr(Service, "draw", watch)
    assert run_demo(tmp_path, quiet=True) == 0
    # three placements ruled from simulated photos (one illegal)
    for title in ("Toni: legal", "Emma: legal", "Toni: illegal", "Score so far",
                  "Photo read", "Photo: 1 odd", "Advice", "Glade board", "Liz's board",
                  "The Glade history", "Stop?"):
        assert title in titles, (title, titles)
    assert titles.count("Toni: legal") == 2 and titles[-1] == "Stop?"
    # what moved, in words (not "yellow-double: supply:Toni to glade:...")
    assert accepted[-1] == ("Toni's yellow double toadstool to the glade space of "
                            "hedgehog/blackberry/horse-chestnut")
    assert not [line for line in accepted if "supply:" in line or "glade:" in line]
    # Glass Garden: the deal and two turns read as they lie; the wrong glass card named
    shown = [parse_state({k: v for k, v in truth(n).items()})
             for n in ("deal", "turn-2", "turn-3-wrong-glass", "turn-3")]
    assert [r.state for r in readings] == shown
    assert [[(c.code, c.cards) for c in r.odd] for r in readings] == [
        [], [], [(GLASS_WITHOUT_EDGE, ("right-bottom", "Agave"))], []]
    # the demo ends scoring the bundled finished game from its photos, as its state file, or
    # (a recogniser in doubt) naming the doubt: never a wrong total
    sample = Path(__file__).resolve().parents[2] / "config/games/the-glade/sample-game.json"
    sheet = load_state(json.loads(sample.read_text())).score_sheet()
    assert final == score_lines(sheet, final=True) or (
        not final and any(t.startswith("Review:") for t in titles)), titles
    overlay = Image.open(tmp_path / "scan-overlay.png")
    assert overlay.size == (1640, 1232)
    assert (tmp_path / "gg-scan-overlay.png").is_file()
    gif = Image.open(tmp_path / "frames.gif")
    assert gif.n_frames >= 8 and gif.size == (512, 256)
    assert "screens written to" in capsys.readouterr().out


def test_score_lines_say_how_a_tie_was_broken() -> None:
    from dataclasses import replace

    from companion.games.score import ScoreSheet, TieBreak
    from companion.ui.pages import score_lines

    sheet = ScoreSheet.of("demo", [("Toni", [("glade", "in the glade", 20)]),
                                   ("Emma", [("glade", "in the glade", 20)])])
    sheet = replace(sheet, winners=("Emma",), tie_break=TieBreak(
        ("Toni", "Emma"), "fewest toadstools left", {"Toni": 3, "Emma": 1}, "Emma"))
    lines = score_lines(sheet)
    assert lines[:4] == ["Winner: Emma", "Toni: 20", "Emma: 20",
                         "Tie-break: fewest toadstools left: Toni 3, Emma 1"]
    assert " in the glade: 20" in lines


def test_score_lines_read_the_glades_sheet_without_knowing_its_tie_break() -> None:
    """The Glade's tie-break reaches the screen through the sheet; pages.py names none."""
    import companion.ui.pages
    from companion.the_glade.scoring import GameScore, PlayerScore
    from companion.ui.pages import score_lines

    score = GameScore((PlayerScore("Toni", {"toadstools_in_store": 20}, 3),
                       PlayerScore("Emma", {"toadstools_in_store": 20}, 1)), "Emma",
                      {"tied": ["Toni", "Emma"], "rule": "fewest toadstools left",
                       "toadstools_left": {"Toni": 3, "Emma": 1}})
    lines = score_lines(score.sheet())
    assert lines[3] == "Tie-break: fewest toadstools left: Toni 3, Emma 1"
    assert " 2 per toadstool in the store: 20" in lines
    source = Path(companion.ui.pages.__file__).read_text()
    assert "toadstool" not in source and "tie_break.get" not in source


def test_solo_score_lines_give_the_result() -> None:
    from companion.games.score import ScoreSheet
    from companion.ui.pages import score_lines

    sheet = ScoreSheet.of("glass-garden", [("Toni", [("plant:A", "A", 2), ("plant:B", "B", 1)])],
                          result="Dirt Farmer!")
    assert score_lines(sheet) == ["3 points: Dirt Farmer!", " A: 2", " B: 1"]


class Marker(Page):
    def __init__(self, name: str, outcome=None) -> None:
        self.title, self.outcome = name, outcome

    def view(self, status: str) -> TextView:
        return TextView(self.title, ())

    def handle(self, key: Key):
        return self.outcome if key is Key.OK else super().handle(key)


@pytest.mark.parametrize(("signal", "left"), [("to-root", ["menu", "game", "turn"]),
                                             ("leave", ["menu", "game"])])
def test_a_flow_is_left_without_counting_pages(tmp_path: Path, signal: str,
                                              left: list[str]) -> None:
    """Pages deep in a flow go back to its root, or leave it, however many pages lie between."""
    from companion.ui.pages import LEAVE_FLOW, TO_FLOW_ROOT, flow_root

    service = make_service(tmp_path, [], first=Marker("menu"))
    service.apply(Marker("game"))
    service.apply(flow_root(Marker("turn")))
    for i in range(3):  # any number of menus on top
        service.apply(Marker(f"menu {i}"))
    service.apply(Marker("done", TO_FLOW_ROOT if signal == "to-root" else LEAVE_FLOW))
    service.dispatch(Key.OK)
    assert [p.title for p in service.stack] == left


def test_a_flow_root_replaced_passes_the_mark_on(tmp_path: Path) -> None:
    """A deal page that gives way to the turn page: the turn page is the flow's root now."""
    from companion.ui.pages import LEAVE_FLOW, Replace, flow_root

    service = make_service(tmp_path, [], first=Marker("menu"))
    service.apply(flow_root(Marker("deal")))
    service.apply(Replace(Marker("turn")))
    service.apply(Marker("over", LEAVE_FLOW))
    service.dispatch(Key.OK)
    assert [p.title for p in service.stack] == ["menu"]


def test_leaving_outside_a_flow_closes_one_page(tmp_path: Path) -> None:
    from companion.ui.pages import LEAVE_FLOW

    service = make_service(tmp_path, [], first=Marker("menu"))
    service.apply(Marker("a"))
    service.apply(Marker("b", LEAVE_FLOW))
    service.dispatch(Key.OK)
    assert [p.title for p in service.stack] == ["menu", "a"]


def test_the_ui_counts_no_pages() -> None:
    """No page says how many pages to close: the old ``Pop(n)`` and ``back=n`` are gone."""
    import companion.glass_garden.screens
    import companion.the_glade.screens
    import companion.ui.game_over
    import companion.ui.pages
    import companion.ui.service

    for module in (companion.ui.pages, companion.ui.service, companion.ui.game_over,
                   companion.the_glade.screens, companion.glass_garden.screens):
        source = Path(module.__file__).read_text()
        assert "Pop(" not in source and "back=" not in source, module.__name__
