"""Capture and doubt, once for every game: a photo from the camera, the game's observer run on a
worker, "Retake or keep" when the observation is in doubt, and auto-capture once the table is
still after a change.

A game supplies a :class:`Reader` and nothing else of this: how to observe a photo
(``observe``, on the worker: photo to observation, e.g. a forest read by a recogniser whose
model comes from ``ctx.models``) and what an observation means now (``decide``: the action it
shows, ruled on, as a :class:`~companion.ui.ruling.Proposal`; the :class:`Doubts` the game
cannot settle from its own state; or a page saying why there is nothing to rule on). The
service takes the photo, runs the work beside its loop, asks the players to retake or keep,
shows the ruling and watches the table.

A game's page for a turn that reads the table is a :class:`CaptureMenuPage`: it names its
reader and when the table is worth watching; ``capture()`` is its "rule my action".
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from companion.errors import CompanionError, DeviceError
from companion.ui.pages import Choice, LiveMenuPage, MenuPage, Outcome, Page, Replace, TextPage
from companion.ui.ruling import Proposal, RulingPage
from companion.ui.task import Progress, TaskPage
from companion.ui.views import View

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Doubts:
    """What an observation leaves in doubt that the game cannot settle from what it knows.

    ``where`` names each doubtful part in the players' words ("E4"); ``advice`` is what to put
    right before a retake; ``keep`` says what keeping the reading makes of them ("as empty").
    """

    where: tuple[str, ...]
    advice: str = "clear glare or hands"
    keep: str = "as read"


#: what a game makes of an observation
Decision = Proposal | Doubts | Page


class Reader(Protocol):
    """A game's part in one capture (see the module's docstring)."""

    #: the busy screen's title and first words ("Scanning", "Reading Toni's forest...")
    title: str
    message: str

    def observe(self, photo: Any) -> Any:
        """The observation in ``photo`` (runs on a worker thread: may be slow)."""
        ...

    def decide(self, observation: Any, keep: bool = False) -> Decision:
        """What ``observation`` means now. ``keep``: the players chose to keep a reading in
        doubt, so decide with the doubtful parts as :attr:`Doubts.keep` says."""
        ...


def take_photo(ctx: Any, progress: Progress | None = None) -> Any:
    """A photo of the table from ``ctx.camera``: ``camera.average_frames`` frames averaged
    when the scene is still (less noise)."""
    camera = ctx.camera
    if camera is None:
        raise DeviceError("no camera is configured: set camera.source")
    from companion.calibration.capture import capture_still

    if progress is not None:
        progress.update(0.2, "Taking the photo...")
    frames = int(ctx.settings.get("camera", {}).get("average_frames", 1))
    photo, _averaged = capture_still(camera, frames)
    return photo


def decision_page(ctx: Any, reader: Reader, observation: Any, decision: Decision,
                  watch: TableWatch | None = None) -> Page:
    """The page that shows ``decision``: the ruling, "Retake or keep", or the game's own."""
    if isinstance(decision, Proposal):
        return RulingPage(decision)
    if isinstance(decision, Doubts):
        return DoubtPage(ctx, reader, observation, decision, watch)
    return decision


class CaptureTask(TaskPage):
    """Take a photo (or use the one auto-capture took), observe it and decide, on a worker; then
    give way to the ruling, "Retake or keep", or the game's page."""

    def __init__(self, ctx: Any, reader: Reader, *, photo: Any = None,
                 watch: TableWatch | None = None) -> None:
        self.ctx, self.reader, self.photo, self.watch = ctx, reader, photo, watch
        super().__init__(reader.title, reader.message, self._work)

    def _work(self, progress: Progress) -> Page:
        photo = self.photo
        if photo is None:
            photo = take_photo(self.ctx, progress)
            if self.watch is not None:
                self.watch.seen(photo)  # auto-capture waits for a change from this photo
        progress.update(0.5, "Reading the photo...")
        observation = self.reader.observe(photo)
        decision = self.reader.decide(observation, keep=False)
        return decision_page(self.ctx, self.reader, observation, decision, self.watch)


class DoubtPage(MenuPage):
    """"Not sure": retake the photo (after putting right what the game advises), or keep the
    reading with the doubtful parts as the game says; "Details" says it all in words."""

    title = "Not sure"

    def __init__(self, ctx: Any, reader: Reader, observation: Any, doubts: Doubts,
                 watch: TableWatch | None = None) -> None:
        self.ctx, self.reader, self.observation = ctx, reader, observation
        self.doubts, self.watch = doubts, watch
        super().__init__("Not sure", [Choice("Retake", self._retake),
                                      Choice(f"Keep {doubts.keep}", self._keep),
                                      Choice("Details", self._details)])

    @property
    def where(self) -> str:
        return ", ".join(self.doubts.where)

    def view(self, status: str) -> View:
        return super().view(status or f"Not sure: {self.where}")

    def _retake(self) -> Outcome:
        return Replace(CaptureTask(self.ctx, self.reader, watch=self.watch))

    def _keep(self) -> Outcome:
        decision = self.reader.decide(self.observation, keep=True)
        return Replace(decision_page(self.ctx, self.reader, self.observation, decision,
                                     self.watch))

    def _details(self) -> Page:
        return TextPage("Not sure", [
            f"Not sure of {self.where}: {self.doubts.advice} and retake, or keep the reading "
            f"with {self.where} {self.doubts.keep}.", "OK: back"])


def _in_thread(work: Callable[[], Any], name: str) -> Future[Any]:
    """``work()`` on a daemon thread of its own; its result (or error) in the future."""
    future: Future[Any] = Future()

    def run() -> None:
        try:
            future.set_result(work())
        except BaseException as exc:  # handed to whoever reads the future
            future.set_exception(exc)

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


class TableWatch:
    """Auto-capture: frames taken one at a time on a worker while a turn page is up; a still
    scene that differs from the last one ruled on is handed over to be ruled on."""

    def __init__(self, camera: Any, still_frames: int) -> None:
        from companion.vision.stillness import StillnessDetector

        self.camera = camera
        self.detector = StillnessDetector(still_frames=still_frames)
        self.future: Future[Any] | None = None
        self.primed = False  # the first still scene is the table as it stands: no ruling
        self._lock = threading.Lock()  # ``seen`` comes from a capture's worker

    @classmethod
    def configured(cls, ctx: Any) -> TableWatch | None:
        """The watch ``camera.auto_capture`` asks for, or None (off, or no camera)."""
        settings = ctx.settings.get("camera", {})
        if not settings.get("auto_capture") or ctx.camera is None:
            return None
        return cls(ctx.camera, int(settings.get("still_frames", 3)))

    def poll(self) -> Any:
        """The photo to rule on, once the scene is still and new; else None."""
        if self.future is None:
            self.future = _in_thread(self.camera.capture, "auto-capture")
            return None
        if not self.future.done():
            return None
        future, self.future = self.future, None
        try:
            frame = future.result()
        except CompanionError as exc:  # a failing camera: a manual capture says why
            log.debug("auto-capture: %s", exc)
            return None
        with self._lock:
            if not self.detector.update(frame):
                return None
            if not self.primed:
                self.primed = True
                return None
        return frame

    def seen(self, photo: Any) -> None:
        """``photo`` was ruled on: only a change from it starts the next ruling."""
        with self._lock:
            self.detector.reset(captured=photo)
            self.primed = True


class CaptureMenuPage(LiveMenuPage):
    """A game's turn that reads the table: a live menu (the game's :meth:`current`) that takes
    and rules on a photo when asked (:meth:`capture`) and, with ``camera.auto_capture``, by
    itself once the table is still after a change, while :meth:`watching` says it may."""

    def __init__(self, ctx: Any) -> None:
        super().__init__()
        self.ctx = ctx
        self.watch = TableWatch.configured(ctx)

    def reader(self) -> Reader:
        """The game's reader for a capture now (whose turn, what the game knows)."""
        raise NotImplementedError

    def watching(self) -> bool:
        """Whether an action may come from the table now (the game's phase allows one)."""
        return True

    @property
    def busy(self) -> bool:  # type: ignore[override]
        """Watching the table (auto-capture) while an action may come."""
        return self.watch is not None and self.watching()

    def tick(self) -> Outcome:
        if self.watch is None or not self.watching():
            return None
        photo = self.watch.poll()
        if photo is None:
            return None
        self.watch.seen(photo)
        return CaptureTask(self.ctx, self.reader(), photo=photo, watch=self.watch)

    def capture(self) -> Page:
        """Take a photo now and rule on what it shows."""
        return CaptureTask(self.ctx, self.reader(), watch=self.watch)
