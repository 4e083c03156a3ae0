"""The service loop over test doubles: keys move through pages, errors become screens, POWER
stops it with a "stopped" screen left on the panel, and the demo writes its GIF."""

from __future__ import annotations

from pathlib import Path

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
    service = make_service(tmp_path, [Key.DOWN, Key.DOWN, Key.OK])
    service.run()
    view = service.page.view("")
    assert isinstance(view, TextView) and "Gardlings is coming" in view.lines[0]
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


def test_power_then_confirm_stops_with_stopped_screen(tmp_path: Path) -> None:
    service = make_service(tmp_path, [Key.POWER, Key.DOWN, Key.OK, Key.DOWN])
    service.run()
    assert service.stop_requested
    assert service.display.closed and service.display.device.persist
    assert service.buttons.remaining == 1  # stopped before the last key


def test_power_then_keep_running(tmp_path: Path) -> None:
    service = make_service(tmp_path, [Key.POWER, Key.OK])
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


def test_demo_plays_the_glade_and_writes_an_animation(tmp_path: Path, capsys,
                                                      monkeypatch) -> None:
    titles: list[str] = []
    draw = Service.draw

    def watch(self: Service) -> None:
        if not titles or titles[-1] != self.page.title:
            titles.append(self.page.title)
        draw(self)

    monkeypatch.setattr(Service, "draw", watch)
    assert run_demo(tmp_path, quiet=True) == 0
    # three placements ruled from simulated photos (one illegal), the final score, saved
    for title in ("Toni: legal", "Emma: legal", "Toni: illegal", "Score so far",
                  "The Glade score", "Saved", "The Glade history", "Stop?"):
        assert title in titles, (title, titles)
    assert titles.count("Toni: legal") == 2 and titles[-1] == "Stop?"
    overlay = Image.open(tmp_path / "scan-overlay.png")
    assert overlay.size == (1640, 1232)
    gif = Image.open(tmp_path / "frames.gif")
    assert gif.n_frames >= 8 and gif.size == (512, 256)
    assert "screens written to" in capsys.readouterr().out


def test_score_lines_say_how_a_tie_was_broken() -> None:
    from companion.ui.pages import score_lines

    data = {"players": [{"name": "Toni", "total": 20, "breakdown": {"glade": 20}},
                        {"name": "Emma", "total": 20, "breakdown": {"glade": 20}}],
            "winner": "Emma",
            "tie_break": {"tied": ["Toni", "Emma"], "rule": "fewest toadstools left",
                          "toadstools_left": {"Toni": 3, "Emma": 1}, "result": "Emma"}}
    lines = score_lines(data)
    assert lines[:4] == ["Winner: Emma", "Toni: 20", "Emma: 20",
                         "Tie-break: fewest toadstools left: Toni 3, Emma 1"]
    assert " glade: 20" in lines
