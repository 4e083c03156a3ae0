"""Glass Garden at the table: dealing from menus, advice on a worker thread, steps entered,
saved and undone, the game resumed after a restart; and the camera following the garden
(issue #24): Photo, the reading with what the rules cannot explain named, doubts kept or
retaken, auto-capture, bad input on one line (the recogniser stubbed: its own tests and the
demo run the real one)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.camera import FunctionCamera
from companion.devices.display import open_display
from companion.errors import RecognitionError
from companion.session import SessionStore
from companion.ui.capture import CaptureMenuPage, DoubtPage
from companion.ui.service import Context, Service
from companion.ui.task import RetryPage
from companion.ui.views import MenuView, TextView

K = Key
# main menu: The Glade, Glass Garden...; its menu: New game; players: Solo
NEW_GAME = [K.DOWN, K.OK, K.OK, K.OK]
DEAL = [K.OK] * 9  # the first critter, then the first plant left for each column 2-9


def service(tmp_path: Path, script: list) -> Service:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["glass-garden"]["think_seconds"] = 0.5
    ctx = Context(settings, tmp_path)
    return Service(ctx, open_display(settings["display"]), ScriptedButtons(script), idle_poll=0)


def test_deal_then_a_step_then_undo(tmp_path: Path) -> None:
    svc = service(tmp_path, NEW_GAME)
    svc.run()
    view = svc.page.view("")
    assert isinstance(view, MenuView) and view.title == "Which critter?"
    assert view.items == ("Fly", "Snail", "Ant", "Worm")
    for _ in DEAL:
        svc.dispatch(K.OK)
    assert svc.page.title == "Garden T1 score 0"
    saved = SessionStore(tmp_path).load()
    assert saved is not None and saved.current["garden"][0] == "critter"
    assert saved.current["critter"] == "Fly" and len(saved.current["garden"]) == 9
    svc.dispatch(K.DOWN)  # Enter a step
    svc.dispatch(K.OK)
    steps = svc.page.view("")
    assert isinstance(steps, MenuView) and steps.title == "What did you do?"
    svc.dispatch(K.OK)  # the first legal step
    assert len(SessionStore(tmp_path).load().accepted) == 2
    turn = svc.page.view("")  # back on the turn page, which can undo now
    assert isinstance(turn, MenuView) and "Undo" in turn.items
    svc.dispatch(K.DOWN)
    svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # Undo
    again = SessionStore(tmp_path).load()
    assert again.current == saved.current


def test_advice_runs_beside_the_loop_and_names_the_best_turn(tmp_path: Path) -> None:
    svc = service(tmp_path, [*NEW_GAME, *DEAL, K.OK])  # ... then Advice
    svc.run()
    view = svc.page.view("")
    assert isinstance(view, TextView) and view.title == "Advice"
    text = " ".join(view.lines)
    assert "SAMPLE deck" in text and "Best turn:" in text and "Final score of the plan" in text


def test_resume_after_restart(tmp_path: Path) -> None:
    service(tmp_path, [*NEW_GAME, *DEAL]).run()
    svc = service(tmp_path, [K.OK])  # the offer to resume, accepted
    svc.run()
    assert svc.page.title == "Garden T1 score 0"


def test_final_score_is_the_gardens_sheet_and_saving_leaves_the_game(tmp_path: Path) -> None:
    """Game over: the score sheet (points, plant by plant, the title), saved to the history
    with its title, and the game left, however it was reached."""
    from companion.glass_garden import screens
    from companion.glass_garden.deck import load_deck
    from companion.glass_garden.scoring import title
    from companion.glass_garden.tracker import GameTracker
    from companion.history import History
    from companion.session import Session
    from companion.ui.pages import flow_root

    tracker = GameTracker.deal(load_deck(), "Fly", seed=1)
    while not tracker.finished:
        tracker.choose(len(tracker.options()) - 1)  # "done" each step
    points = tracker.state.score()
    svc = service(tmp_path, [])
    session = Session("glass-garden", ["Toni"])
    SessionStore(tmp_path).save(session)
    svc.apply(flow_root(screens.TurnPage(svc.ctx, session, tracker)))
    turn = svc.page.view("")
    assert isinstance(turn, MenuView) and turn.items[0] == "Final score"
    svc.dispatch(K.OK)
    final = svc.page.view("")
    assert isinstance(final, TextView) and final.title == "Final score"
    assert final.lines[0] == f"{points} points: {title(points)}"
    assert len(final.lines) == 9  # the eight plants, each with its points
    for key in (K.OK, K.OK, K.OK):  # Game over -> Save to history -> Saved: OK
        svc.dispatch(key)
    assert [p.title for p in svc.stack] == ["Table Companion"]
    finished = History(tmp_path).games()[0]
    assert finished.game == "glass-garden" and finished.totals == (("Toni", points),)
    assert finished.result == title(points) and SessionStore(tmp_path).load() is None


# -- the camera follows the garden (issue #24) ----------------------------------------------

GOLDEN = Path(__file__).parent / "golden" / "photo"


def garden(*plants: tuple[str, str, str], turn: int = 1, glass: dict | None = None,
           uncertain: tuple = ()) -> dict:
    """A scan's answer: the critter in column ``turn``, then ``plants`` (name, row, side) in
    the other columns, left to right; ``uncertain`` slots read as None."""
    cols: list = [{"plant": n, "row": r, "side": s} for n, r, s in plants]
    cols.insert(turn - 1, "critter")
    data = {"game": "glass-garden", "deck": "sample", "critter": "Fly", "turn": turn,
            "critter_side": "setup" if turn % 2 else "other", "garden": cols,
            "glass": dict.fromkeys(("left-top", "left-middle", "left-bottom", "right-top",
                                    "right-middle", "right-bottom"), "dark") | (glass or {})}
    for u in uncertain:
        if u == "critter":
            data["critter"] = None
        elif isinstance(u, int):
            data["garden"][u - 1] = None
        else:
            del data["glass"][u]
    data["uncertain"] = list(uncertain)
    return data


DEAL_READ = [(n, "middle", "soil") for n in ("Kalanchoe", "Jade", "Aloe", "Lithops",
                                             "Haworthia", "Echeveria", "Sedum", "Agave")]


class Table:
    """What the stubbed recogniser reads next (a list: one reading per photo)."""

    def __init__(self) -> None:
        self.readings: list = []
        self.photos = 0

    def scan(self, ctx, photo) -> dict:
        self.photos += 1
        reading = self.readings.pop(0) if len(self.readings) > 1 else self.readings[0]
        if isinstance(reading, Exception):
            raise reading
        return copy.deepcopy(reading)


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Table:
    from companion.glass_garden import screens

    t = Table()
    monkeypatch.setattr(screens, "scan_garden", t.scan)
    return t


def photo_service(tmp_path: Path, *, model: str | None = "model",
                  auto: bool = False, frame=None) -> Service:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["glass-garden"].update(think_seconds=0.3, model=model)
    settings["camera"].update(auto_capture=auto, still_frames=2)
    import numpy as np

    camera = FunctionCamera(frame or (lambda n: np.zeros((8, 8, 3), np.uint8)))
    return Service(Context(settings, tmp_path, camera=camera),
                   open_display(settings["display"]), None, idle_poll=0)  # type: ignore[arg-type]


def press(svc: Service, *keys: Key) -> None:
    """Keys as a person presses them: each waits for the work it starts."""
    for key in keys:
        svc.dispatch(key)
        settle(svc)


def settle(svc: Service) -> None:
    while svc.page.busy and not isinstance(svc.page, CaptureMenuPage):
        wait = getattr(svc.page, "wait", None)
        if wait is not None:
            wait(10)
        svc.tick()


def new_game(svc: Service) -> None:
    press(svc, K.DOWN, K.OK, K.OK, K.OK)  # Glass Garden, New game, Solo


def test_photo_is_offered_only_with_a_model(tmp_path: Path, table: Table) -> None:
    svc = photo_service(tmp_path, model=None)
    new_game(svc)
    assert svc.page.view("").items[0] == "Fly"  # type: ignore[union-attr]
    svc = photo_service(tmp_path / "b")
    new_game(svc)
    assert svc.page.view("").items[:2] == ("Photo of the deal", "Fly")  # type: ignore[union-attr]


def test_the_deal_and_a_turn_read_from_photos_then_advice_from_what_was_seen(
        tmp_path: Path, table: Table) -> None:
    from companion.glass_garden.state_file import parse_state

    svc = photo_service(tmp_path)
    new_game(svc)
    table.readings = [garden(*DEAL_READ)]
    press(svc, K.OK)  # Photo of the deal
    assert svc.page.title == "Photo read" and not svc.page.alert  # type: ignore[attr-defined]
    press(svc, K.OK, K.OK)  # accept; the deal as read: OK to the turn
    assert svc.page.title == "Garden T1 score 0"
    assert svc.page.view("").items[:2] == ("Photo", "Advice")  # type: ignore[union-attr]
    assert SessionStore(tmp_path).load().current["garden"][1]["plant"] == "Kalanchoe"
    # turn 2: the critter one on, Jade grown a row up; the glass dark
    turn2 = [*DEAL_READ]
    turn2[1] = ("Jade", "top", "succulent")
    order = [turn2[0], *turn2[1:]]
    table.readings = [garden(*order, turn=2)]
    press(svc, K.OK)  # Photo
    reading = svc.page
    assert reading.title == "Photo read" and reading.odd == ()  # type: ignore[attr-defined]
    press(svc, K.OK)  # accept
    expected = parse_state({k: v for k, v in garden(*order, turn=2).items()
                            if k != "uncertain"})
    saved = SessionStore(tmp_path).load()
    assert parse_state(saved.current) == expected
    assert svc.page.title == "Garden"
    press(svc, K.OK)  # advice, from what the camera saw
    advice = svc.page.view("")
    assert isinstance(advice, TextView) and advice.title == "Advice"
    assert any("turn 2" in line for line in advice.lines)


def test_a_reading_the_rules_cannot_explain_is_named_and_retaken(tmp_path: Path,
                                                                 table: Table) -> None:
    from companion.glass_garden.tracker import GLASS_WITHOUT_EDGE, JUMPED_ROWS

    svc = photo_service(tmp_path)
    new_game(svc)
    table.readings = [garden(*DEAL_READ)]
    press(svc, K.OK, K.OK, K.OK)
    up = [*DEAL_READ]
    up[2] = ("Aloe", "top", "soil")
    table.readings = [garden(*up)]
    press(svc, K.OK, K.OK, K.BACK)  # Photo, accept, back to the menu
    odd = [*DEAL_READ]
    odd[2] = ("Aloe", "bottom", "soil")
    bad = garden(*odd, glass={"right-top": "sunlight"})
    table.readings = [bad, garden(*DEAL_READ)]
    press(svc, K.OK)  # Photo
    page = svc.page
    assert page.title == "Photo: 2 odd" and page.alert  # type: ignore[attr-defined]
    assert [(c.code, c.cards) for c in page.odd] == [  # type: ignore[attr-defined]
        (JUMPED_ROWS, ("Aloe",)), (GLASS_WITHOUT_EDGE, ("right-top", "Agave"))]
    photos = table.photos
    press(svc, K.BACK)  # retake
    assert svc.page.title == "Photo read" and table.photos == photos + 1
    press(svc, K.OK, K.BACK)  # accept; back to the menu
    assert svc.page.title == "Garden T1 score 0"
    assert SessionStore(tmp_path).load().current["garden"][3]["row"] == "middle"


def test_doubtful_cards_are_named_then_kept_as_before(tmp_path: Path, table: Table) -> None:
    svc = photo_service(tmp_path)
    new_game(svc)
    table.readings = [garden(*DEAL_READ)]
    press(svc, K.OK, K.OK, K.OK)
    before = SessionStore(tmp_path).load().current
    table.readings = [garden(*DEAL_READ, uncertain=(4, "left-top"))]
    press(svc, K.OK)  # Photo
    page = svc.page
    assert isinstance(page, DoubtPage)
    assert page.doubts.where == ("column 4", "the left-top glass")
    press(svc, K.DOWN, K.OK)  # Keep as before
    assert svc.page.title == "Photo read"
    assert svc.page.state.garden == svc.stack[-2].tracker.state.garden  # type: ignore[attr-defined]
    press(svc, K.OK)
    assert SessionStore(tmp_path).load().current == before


def test_a_doubtful_deal_cannot_be_kept_and_bad_photos_keep_the_service_running(
        tmp_path: Path, table: Table) -> None:
    svc = photo_service(tmp_path)
    new_game(svc)
    table.readings = [garden(*DEAL_READ, uncertain=(3,))]
    press(svc, K.OK, K.DOWN, K.OK)  # Photo of the deal; Keep as before
    assert svc.page.title == "Cannot keep" and svc.page.alert  # type: ignore[attr-defined]
    press(svc, K.OK)
    table.readings = [RecognitionError("no garden found in the photo (only one glass column)")]
    press(svc, K.OK)
    assert isinstance(svc.page, RetryPage)  # the one line, and OK to try again
    table.readings = [garden(*DEAL_READ)]
    press(svc, K.OK)  # try again
    assert svc.page.title == "Photo read"


def test_no_model_enrolled_is_one_line_and_the_service_keeps_running(tmp_path: Path) -> None:
    svc = photo_service(tmp_path, model=str(tmp_path / "no-such-model"))
    new_game(svc)
    press(svc, K.OK)  # Photo of the deal: the real recogniser, no model there
    page = svc.page
    assert isinstance(page, RetryPage) and "\n" not in page.message
    assert str(tmp_path / "no-such-model") in page.message
    press(svc, K.BACK)
    assert svc.page.title == "Which critter?"


def test_auto_capture_reads_the_garden_once_the_table_is_still_after_a_change(
        tmp_path: Path, table: Table) -> None:
    import time

    import numpy as np

    scene = {"cards": 0}

    def frame(n: int) -> np.ndarray:
        img = np.full((120, 160, 3), 90, np.uint8)
        img[30:60, 10:10 + 12 * scene["cards"]] = 220
        return img

    svc = photo_service(tmp_path, auto=True, frame=frame)
    new_game(svc)
    table.readings = [garden(*DEAL_READ)]
    press(svc, K.OK, K.OK, K.OK)
    assert svc.page.busy and table.photos == 1  # watching the table

    def ticks(n: int) -> set[str]:
        seen = set()
        for _ in range(n):
            svc.tick()
            settle(svc)
            seen.add(svc.page.title)
            time.sleep(0.01)
        return seen

    assert ticks(30) == {"Garden T1 score 0"} and table.photos == 1  # the table as it stands
    scene["cards"] = 3
    assert "Photo read" in ticks(30) and table.photos == 2


def test_the_reading_screens_match_their_goldens(tmp_path: Path, table: Table,
                                                 flow_goldens) -> None:
    from companion.ui.screens import render

    svc = photo_service(tmp_path)
    new_game(svc)
    shots = []
    table.readings = [garden(*DEAL_READ)]
    press(svc, K.OK)
    shots.append(("the deal, read", render(svc.page.view(""))))
    press(svc, K.DOWN)
    shots.append(("scrolled: each column", render(svc.page.view(""))))
    press(svc, K.OK, K.OK)
    shots.append(("turn menu with Photo", render(svc.page.view(""))))
    up = [*DEAL_READ]
    up[2] = ("Aloe", "top", "succulent")
    table.readings = [garden(*up)]
    press(svc, K.OK, K.OK, K.BACK)
    odd = [*up]
    odd[2] = ("Aloe", "bottom", "soil")
    odd[4:] = odd[4:][::-1]  # the last four in reverse: three plants moved
    table.readings = [garden(*odd, glass={"left-top": "sunlight"})]
    press(svc, K.OK)
    shots.append(("odd: named, confirm or retake", render(svc.page.view(""))))
    press(svc, K.DOWN, K.DOWN)
    shots.append(("odd, scrolled", render(svc.page.view(""))))
    table.readings = [garden(*up, uncertain=(5,))]
    press(svc, K.BACK)  # retake
    shots.append(("retaken: not sure of column 5", render(svc.page.view(""))))
    press(svc, K.DOWN, K.DOWN, K.OK)
    shots.append(("details", render(svc.page.view(""))))
    press(svc, K.BACK, K.UP, K.OK)
    shots.append(("kept as before", render(svc.page.view(""))))
    flow_goldens(shots, GOLDEN)
