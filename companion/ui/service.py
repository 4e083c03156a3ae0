"""The table service: one loop that reads keys, updates the page stack and draws the screen.

It owns the display (button callbacks only queue keys), keeps running through any error a game
or a device raises (showing it instead), dims the panel when idle, and leaves a "stopped"
screen when it ends (SIGTERM, SIGINT, or POWER and a confirmation).
"""

from __future__ import annotations

import logging
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from companion.devices.buttons import Buttons, Key
from companion.devices.display import Display
from companion.devices.systemd import Notifier
from companion.errors import CompanionError
from companion.games import GameInfo, all_games, find_game
from companion.history import History
from companion.paths import game_data_dir
from companion.session import Session, SessionStore
from companion.ui.game_over import game_over_menu
from companion.ui.pages import (
    BACK,
    QUIT,
    Choice,
    MenuPage,
    Outcome,
    Page,
    Pop,
    Replace,
    TextPage,
    error_page,
    score_lines,
)
from companion.ui.players import PlayersPage
from companion.ui.screens import render
from companion.ui.views import TextView

log = logging.getLogger(__name__)

STATE_SUFFIXES = (".json", ".yaml", ".yml")
#: how often a page with work under way is ticked (the spinner's speed)
BUSY_POLL = 0.15


@dataclass
class Context:
    """What pages may use: the settings, the data folder and the clock."""

    settings: dict[str, Any]
    data_dir: Path
    clock: Callable[[], float] = time.monotonic
    #: the camera (a RetryingCamera in the service), or None where there is none
    camera: Any = None
    #: things worth loading once per run (recognition models)
    cache: dict[Any, Any] = field(default_factory=dict)

    def session(self) -> Session | None:
        """The game in progress saved in the data folder, if any."""
        return SessionStore(self.data_dir).load()

    def saved_states(self, game: GameInfo) -> list[Path]:
        """States the user saved for ``game``, then the bundled samples."""
        own = self.data_dir / "states" / game.name
        found = sorted(p for p in own.glob("*") if p.suffix in STATE_SUFFIXES) \
            if own.is_dir() else []
        bundled = sorted(p for p in game_data_dir(game.name).glob("sample*game.*")
                         if p.suffix in STATE_SUFFIXES)
        return found + bundled


def _label(path: Path) -> str:
    return path.stem.replace("-", " ").replace("_", " ")


class ScoreChooser(MenuPage):
    """Choose a saved game state to score."""

    def __init__(self, ctx: Context, game: GameInfo) -> None:
        self.ctx = ctx
        self.game = game
        states = ctx.saved_states(game)
        super().__init__(f"Score {game.title}",
                         [Choice(_label(p), lambda p=p: self._score(p)) for p in states])
        self.empty = not states

    def _score(self, path: Path) -> Page:
        report = self.game.job("score")(path)
        # once saved, back to the game's menu (past the saved page, this menu, score, chooser)
        after = game_over_menu(self.ctx, self.game.name, report.data, back=4,
                               message="The score is in the history.")
        return TextPage(f"{self.game.title} score", score_lines(report.data),
                        on_ok=lambda: after)


def start_session(ctx: Context, game: GameInfo, players: list[str]) -> Page:
    """A new game at the table: saved at once, so even its set-up survives a power cut."""
    session = Session(game.name, players, ctx.settings["games"].get(game.name, {}).get(
        "variant", "basic"))
    SessionStore(ctx.data_dir).save(session)
    return game.play_page()(ctx, session)


def resume_session(ctx: Context, session: Session) -> Page:
    return find_game(session.game).play_page()(ctx, session)


class GameMenu(MenuPage):
    """What the service can do for one game."""

    def __init__(self, ctx: Context, game: GameInfo) -> None:
        self.ctx = ctx
        self.game = game
        choices = []
        if game.screens:
            choices.append(Choice("New game", self._new_game))
            saved = ctx.session()
            if saved is not None and saved.game == game.name:
                choices.append(Choice(f"Resume ({len(saved.accepted)} saved)",
                                      lambda: resume_session(ctx, saved)))
        if game.can("score"):
            choices.append(Choice("Score a game", self._choose_state))
        choices.append(Choice("History", lambda: history_page(ctx, game)))
        choices.append(Choice("Back", lambda: BACK))
        super().__init__(game.title, choices)

    def _new_game(self) -> Page:
        players = self.ctx.settings["games"]["players"]
        lowest, highest = self.game.table_players or (self.game.min_players,
                                                       self.game.max_players)
        return PlayersPage("Who plays?", lowest, highest, players,
                           lambda names: Replace(start_session(self.ctx, self.game, names)))

    def _choose_state(self) -> Page:
        chooser = ScoreChooser(self.ctx, self.game)
        if chooser.empty:
            return error_page(f"No saved {self.game.title} games yet: save a state file in "
                              f"{self.ctx.data_dir / 'states' / self.game.name}")
        return chooser


def history_page(ctx: Context, game: GameInfo) -> Page:
    games = [g for g in History(ctx.data_dir).games() if g.game == game.name]
    lines = [g.line(with_game=False) for g in games] or ["No finished games yet."]
    return TextPage(f"{game.title} history", lines)


SERVICE_JOBS = ("score", "check", "scan", "assist")


def main_menu(ctx: Context) -> MenuPage:
    """The first page: every game, those that cannot do anything here yet marked "coming"."""
    choices = []
    for game in all_games():
        if game.screens or any(game.can(j) for j in SERVICE_JOBS):
            choices.append(Choice(game.title, lambda g=game: GameMenu(ctx, g)))
        else:
            choices.append(Choice(f"{game.title} (coming)", lambda g=game: TextPage(
                g.title, [f"{g.title} is coming: it cannot be played with the companion yet."])))
    return MenuPage("Table Companion", choices)


def first_pages(ctx: Context) -> list[Page]:
    """The main menu, with an offer to resume on top when a game was in progress."""
    pages: list[Page] = [main_menu(ctx)]
    try:
        saved = ctx.session()
    except CompanionError as exc:
        return [*pages, error_page(str(exc), "Saved game")]
    if saved is not None:
        game = find_game(saved.game)
        when = saved.started_at[:16].replace("T", " ")
        pages.append(MenuPage(f"Resume {game.title}?", [
            Choice(f"Resume ({', '.join(saved.players)})", lambda: Replace(
                resume_session(ctx, saved))),
            Choice(f"Not now (from {when})", lambda: BACK),
        ]))
    return pages


class ConfirmStop(MenuPage):
    def __init__(self) -> None:
        super().__init__("Stop?", [Choice("Keep running", lambda: BACK),
                                   Choice("Stop the service", lambda: QUIT)])


def stopped_frame(size: tuple[int, int]) -> Any:
    return render(TextView("Table Companion", ("Stopped.", "Restart the service", "to continue.")),
                  size)


class Service:
    """The loop: keys in, pages updated, one frame out; errors shown, never fatal."""

    def __init__(self, ctx: Context, display: Display, buttons: Buttons,
                 first: Page | None = None, idle_poll: float = 0.25) -> None:
        self.ctx = ctx
        self.display = display
        self.buttons = buttons
        self.stack: list[Page] = [first] if first else first_pages(ctx)
        self.idle_poll = idle_poll
        self.stop_requested = False
        self.last_key_time = ctx.clock()
        self.systemd = Notifier()

    @property
    def page(self) -> Page:
        return self.stack[-1]

    def draw(self) -> None:
        frame = render(self.page.view(""), (self.display.width, self.display.height))
        self.display.show(frame)

    def request_stop(self, signum: int | None = None, frame: FrameType | None = None) -> None:
        self.stop_requested = True

    def dispatch(self, key: Key) -> None:
        """Apply one key to the page stack."""
        if key is Key.POWER and not isinstance(self.page, ConfirmStop):
            self.stack.append(ConfirmStop())
            return
        self._guarded(lambda: self.page.handle(key), f"handling {key}")

    def tick(self) -> None:
        """Let time pass for the page on top (a task collects its result)."""
        self._guarded(self.page.tick, "ticking")

    def _guarded(self, step: Callable[[], Outcome], what: str) -> None:
        try:
            outcome = step()
        except CompanionError as exc:
            log.warning("%s", exc)
            outcome = error_page(str(exc))
        except Exception as exc:  # a bug in one game must not stop the table
            log.exception("error while %s on %s", what, type(self.page).__name__)
            outcome = error_page(f"Internal error ({type(exc).__name__}); it was logged. "
                                 "Try again or choose another job.", "Error")
        self.apply(outcome)

    def apply(self, outcome: Outcome) -> None:
        if outcome is BACK:
            if len(self.stack) > 1:
                self.stack.pop()
        elif outcome is QUIT:
            self.stop_requested = True
        elif isinstance(outcome, Replace):
            self.stack[-1] = outcome.page
        elif isinstance(outcome, Pop):
            del self.stack[max(1, len(self.stack) - outcome.count):]
        elif isinstance(outcome, Page):
            self.stack.append(outcome)

    def run(self) -> int:
        """Serve until stopped; returns the exit status."""
        dim_after = float(self.ctx.settings["display"]["dim_after_seconds"])
        contrast = int(self.ctx.settings["display"]["contrast"])
        previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            for s in previous:
                signal.signal(s, self.request_stop)
        except ValueError:  # not the main thread (tests): no signal handling
            previous = {}
        try:
            self.draw()
            self.systemd.ready()
            while not self.stop_requested:
                self.systemd.ping()
                self.draw()
                if self.page.busy:
                    if self.buttons.patient:  # a script waits for the work, as a person would
                        time.sleep(BUSY_POLL)
                        self.tick()
                        continue
                    key = self.buttons.get(timeout=BUSY_POLL)
                    if key is None:
                        self.tick()
                        continue
                else:
                    key = self.buttons.get(timeout=self.idle_poll)
                now = self.ctx.clock()
                if key is None:
                    if self.buttons.finished:
                        break
                    if dim_after and now - self.last_key_time > dim_after:
                        self.display.dim(True)
                    continue
                self.last_key_time = now
                if self.display.dimmed:
                    self.display.dim(False, contrast)
                    continue  # the press that wakes the panel does nothing else
                self.dispatch(key)
        finally:
            self.systemd.stopping()
            for s, handler in previous.items():
                signal.signal(s, handler)
            self.display.close(stopped_frame((self.display.width, self.display.height)))
        return 0
