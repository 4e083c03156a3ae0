"""Work that takes time (a capture, a scan, a search) runs beside the loop, not in it.

A :class:`TaskPage` starts its work on a worker thread and shows a spinner (or a progress bar)
while the loop keeps drawing and reading keys; when the work is done the page gives way to the
page the work produced. BACK abandons the wait (the result, when it comes, is dropped). An error
becomes an error page with the choice to try again: a camera that was unplugged can be plugged
back in and the same step repeated.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future

from companion.devices.buttons import Key
from companion.errors import CompanionError
from companion.ui.pages import BACK, Outcome, Page, Replace, TextPage
from companion.ui.views import BusyView, View

log = logging.getLogger(__name__)


class Progress:
    """What the worker tells the screen: a fraction done and a short message (thread-safe)."""

    def __init__(self, message: str) -> None:
        self._lock = threading.Lock()
        self._message = message
        self._fraction: float | None = None
        self.cancelled = threading.Event()

    def update(self, fraction: float | None = None, message: str | None = None) -> None:
        with self._lock:
            if fraction is not None:
                self._fraction = fraction
            if message is not None:
                self._message = message

    def read(self) -> tuple[str, float | None]:
        with self._lock:
            return self._message, self._fraction


class TaskPage(Page):
    """Run ``work(progress)`` on a thread; show a spinner; then replace this page by its result."""

    busy = True

    def __init__(self, title: str, message: str, work: Callable[[Progress], Page],
                 *, start: bool = True) -> None:
        self.title = title
        self.work = work
        self.progress = Progress(message)
        self.ticks = 0
        self.future: Future[Page] = Future()
        self._thread: threading.Thread | None = None
        if start:
            self.start()

    def start(self) -> None:
        self.future = Future()
        self.progress.cancelled.clear()
        self._thread = threading.Thread(target=self._run, name=f"task:{self.title}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self.future.set_result(self.work(self.progress))
        except BaseException as exc:  # handed to the loop, which shows it
            self.future.set_exception(exc)

    def view(self, status: str) -> View:
        message, fraction = self.progress.read()
        return BusyView(self.title, message, self.ticks, fraction, status or self.title)

    def handle(self, key: Key) -> Outcome:
        if key is Key.BACK:
            self.progress.cancelled.set()
            return BACK
        return None

    def tick(self) -> Outcome:
        self.ticks += 1
        if not self.future.done():
            return None
        exc = self.future.exception()
        if exc is None:
            return Replace(self.future.result())
        if isinstance(exc, CompanionError):
            log.warning("%s: %s", self.title, exc)
            message = str(exc)
        else:
            log.error("%s failed", self.title, exc_info=exc)
            message = f"Internal error ({type(exc).__name__}); it was logged."
        return Replace(RetryPage(self, message))

    def wait(self, timeout: float | None = None) -> None:
        """Block until the work is done (for tests and scripted runs)."""
        if self._thread is not None:
            self._thread.join(timeout)


class RetryPage(TextPage):
    """A failed step: what went wrong; OK tries again, BACK (hold OK) gives up."""

    def __init__(self, task: TaskPage, message: str) -> None:
        self.task = task
        self.message = message
        super().__init__(task.title, [message, "", "OK: try again", "Hold OK: back"],
                         alert=True, on_ok=self._again)

    def _again(self) -> Outcome:
        self.task.ticks = 0
        self.task.start()
        return Replace(self.task)
