"""Work beside the loop: a spinner while it runs, its result after, a retry after a failure."""

from __future__ import annotations

import threading
from pathlib import Path

from service_helpers import make_service

from companion.devices.buttons import Key
from companion.errors import DeviceError
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
