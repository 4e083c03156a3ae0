"""Work beside the loop: a spinner while it runs, its result after, a retry after a failure."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from service_helpers import make_service

from companion.devices.buttons import Key
from companion.errors import CompanionError, DeviceError
from companion.ui.pages import BACK, Replace, TextPage
from companion.ui.task import Progress, RetryPage, TaskPage
from companion.ui.views import BusyView, TextView


def test_spinner_then_result() -> None:
    gate = threading.Event()

    def work(progress: Progress) -> TextPage:
        progress.update(0.5, "half way")
        gate.wait(5)
        return TextPage("Done", ["42"])

    task = TaskPage("Scanning", "Looking...", work)
    assert task.tick() is None
    view = task.view("")
    assert isinstance(view, BusyView)
    gate.set()
    task.wait(5)
    outcome = task.tick()
    assert isinstance(outcome, Replace) and outcome.page.title == "Done"


def test_failure_offers_retry_and_retry_runs_again() -> None:
    calls = []

    def work(progress: Progress) -> TextPage:
        calls.append(1)
        if len(calls) == 1:
            raise DeviceError("USB camera 0 gave no picture")
        return TextPage("Done", ["ok"])

    task = TaskPage("Capture", "Taking a photo", work)
    task.wait(5)
    outcome = task.tick()
    assert isinstance(outcome, Replace) and isinstance(outcome.page, RetryPage)
    view = outcome.page.view("")
    assert isinstance(view, TextView) and view.alert and "gave no picture" in view.lines[0]
    again = outcome.page.handle(Key.OK)
    assert isinstance(again, Replace) and again.page is task
    task.wait(5)
    final = task.tick()
    assert isinstance(final, Replace) and final.page.title == "Done" and len(calls) == 2


def test_back_abandons_the_wait() -> None:
    task = TaskPage("Thinking", "...", lambda p: (p.cancelled.wait(5), TextPage("x", []))[1])
    assert task.handle(Key.BACK) is BACK
    assert task.progress.cancelled.is_set()


def test_service_runs_a_task_to_its_result(tmp_path: Path) -> None:
    task = TaskPage("Scanning", "...", lambda p: TextPage("Result", ["seen"]))
    service = make_service(tmp_path, [Key.DOWN], first=task)
    service.run()
    assert service.page.title == "Result" and len(service.stack) == 1


# --- capture: the service's part of reading the table, the same for every game -----------

def drive(outcome):
    """The page a task gives way to, once its work is done."""
    page = outcome.page if isinstance(outcome, Replace) else outcome
    while getattr(page, "busy", False) and hasattr(page, "wait"):
        page.wait(10)
        result = page.tick()
        page = result.page if isinstance(result, Replace) else page
    return page


class FakeReader:
    """A game's reader: counts observations; its decision is a function of (observation, keep)."""

    title = "Reading"
    message = "Reading the table..."

    def __init__(self, decide) -> None:
        self._decide = decide
        self.observed: list[object] = []
        self.kept: list[bool] = []

    def observe(self, photo: object) -> int:
        self.observed.append(photo)
        return len(self.observed)

    def decide(self, observation: int, keep: bool = False):
        self.kept.append(keep)
        return self._decide(observation, keep)


def capture_context(tmp_path: Path, camera=None, frames: int = 1):
    from companion.ui.service import Context

    return Context({"camera": {"average_frames": frames}}, tmp_path, camera=camera)


def camera(shots: list[int]):
    import numpy as np

    from companion.devices.camera import FunctionCamera

    return FunctionCamera(lambda n: (shots.append(n), np.full((4, 4, 3), n, np.uint8))[1])


def test_capture_without_a_camera_says_so(tmp_path: Path) -> None:
    from companion.ui.capture import CaptureTask

    task = CaptureTask(capture_context(tmp_path), FakeReader(lambda o, k: TextPage("x", [])))
    task.wait(5)
    retry = task.tick()
    assert isinstance(retry, Replace) and isinstance(retry.page, RetryPage)
    assert "no camera is configured" in retry.page.message


def test_capture_takes_averaged_frames_and_shows_the_ruling(tmp_path: Path) -> None:
    from companion.games.interface import Ruling
    from companion.ui.capture import CaptureTask
    from companion.ui.ruling import Proposal, RulingPage

    shots: list[int] = []
    accepted: list[int] = []

    def decide(observation: int, keep: bool):
        return Proposal("Toni", Ruling("C4", triggers={"sets": ["Set of 3 (C3, C4, C5)"]}),
                        lambda: (accepted.append(observation), TextPage("Accepted", ["done"]))[1])

    reader = FakeReader(decide)
    page = drive(CaptureTask(capture_context(tmp_path, camera(shots), frames=3), reader))
    assert shots == [0, 1, 2] and len(reader.observed) == 1  # three frames, one photo
    assert isinstance(page, RulingPage) and page.title == "Toni: legal"
    assert page.lines == ("LEGAL", "Set of 3 (C3, C4, C5)", "OK: accept  BACK: reject")
    outcome = page.handle(Key.OK)
    assert isinstance(outcome, Replace) and outcome.page.title == "Accepted"
    assert accepted == [1]


def test_an_illegal_ruling_lists_every_broken_rule_and_records_nothing(tmp_path: Path) -> None:
    from companion.games.interface import Ruling, Violation
    from companion.ui.ruling import Proposal, RulingPage

    page = RulingPage(Proposal("Emma", Ruling("C4", (Violation("line", ("C4",), "not in line"),
                                                     Violation("gap", ("C6",)))),
                               lambda: pytest.fail("an illegal action cannot be accepted")))
    view = page.view("")
    assert view.alert and page.title == "Emma: illegal"
    assert view.lines == ("ILLEGAL", "not in line", "gap", "OK: back")
    assert page.handle(Key.OK) is BACK


def test_doubts_offer_retake_or_keep(tmp_path: Path) -> None:
    from companion.ui.capture import CaptureTask, DoubtPage, Doubts

    shots: list[int] = []

    def decide(observation: int, keep: bool):
        if observation == 1 and not keep:
            return Doubts(("E4", "E5"), "wipe the lens", "as before")
        return TextPage("Read", [f"observation {observation}, keep {keep}"])

    reader = FakeReader(decide)
    ctx = capture_context(tmp_path, camera(shots))
    page = drive(CaptureTask(ctx, reader))
    assert isinstance(page, DoubtPage) and page.title == "Not sure"
    view = page.view("")
    assert view.status == "Not sure: E4, E5"
    assert view.items == ("Retake", "Keep as before", "Details")
    page.handle(Key.DOWN)
    page.handle(Key.DOWN)
    details = page.handle(Key.OK)
    assert isinstance(details, TextPage) and details.lines[0] == (
        "Not sure of E4, E5: wipe the lens and retake, or keep the reading with E4, E5 as "
        "before.")
    page.handle(Key.UP)
    kept = page.handle(Key.OK)  # Keep: the same observation, decided with keep
    assert isinstance(kept, Replace) and kept.page.lines == ("observation 1, keep True",)
    assert len(shots) == 1
    page.handle(Key.UP)
    again = drive(page.handle(Key.OK))  # Retake: a new photo, observed afresh
    assert again.lines == ("observation 2, keep False",) and len(shots) == 2


def test_one_model_per_folder_for_every_game(tmp_path: Path) -> None:
    """The service's model cache: two games' observers asking for one folder share one load."""
    ctx = capture_context(tmp_path)
    loads: list[Path] = []

    def load(path: Path) -> str:
        loads.append(path)
        return f"model {len(loads)}"

    first = ctx.models.get(tmp_path / "model", load)
    second = ctx.models.get(str(tmp_path / "model") + "/", load, missing="unused")
    other = ctx.models.get(tmp_path / "other", load)
    assert first == second == "model 1" and other == "model 2" and len(ctx.models) == 2
    with pytest.raises(CompanionError, match="set games.x.model"):
        ctx.models.get(None, load, missing="set games.x.model")
