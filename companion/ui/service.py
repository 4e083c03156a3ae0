"""The table service: one loop that reads keys, updates the page stack and draws the screen.

It owns the display (button callbacks only queue keys), keeps running through any error a game
or a device raises (showing it instead), dims the panel when idle, and leaves a "stopped"
screen when it ends (SIGTERM, SIGINT, or POWER and a confirmation).

It also keeps what the players saved: a saved game is offered for resuming from every menu
that could replace it, and replaced only after the players confirm on the OLED; a saved game
that cannot be read or resumed is moved aside and named (on the screen and in the log) instead
of stopping the service or blocking a game; a save the disk refuses is named for what it is
(full, read-only, permission), the status line says NOT SAVED, and saving is tried again on
every key and every :data:`SAVE_RETRY_SECONDS` until it succeeds.
"""

from __future__ import annotations

import logging
import os
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
from companion.errors import (
    CompanionError,
    ConfigError,
    DeviceError,
    ModelError,
    UnknownGameError,
    UnsupportedJobError,
)
from companion.games import GameInfo, ScoreSheet, all_games, find_game
from companion.history import History
from companion.paths import game_data_dir
from companion.session import Session, SessionStore, retry_unsaved
from companion.storage import StorageError, clean_stale_temp, read_data_file, storage_error
from companion.ui.game_over import game_over_menu
from companion.ui.models import ModelCache
from companion.ui.pages import (
    BACK,
    LEAVE_FLOW,
    QUIT,
    TO_FLOW_ROOT,
    Choice,
    LiveMenuPage,
    MenuPage,
    Outcome,
    Page,
    Replace,
    TextPage,
    error_page,
    flow_root,
    score_lines,
)
from companion.ui.players import PlayersPage
from companion.ui.screens import render
from companion.ui.views import TextView

log = logging.getLogger(__name__)

STATE_SUFFIXES = (".json", ".yaml", ".yml")
#: how often a page with work under way is ticked (the spinner's speed)
BUSY_POLL = 0.15
#: how often a game the disk refused is saved again (also on every key)
SAVE_RETRY_SECONDS = 5.0
#: the status line while the game in play is not on the disk
NOT_SAVED = "NOT SAVED"


@dataclass
class Context:
    """What pages may use: the settings, the data folder, the clock, the camera, the models."""

    settings: dict[str, Any]
    data_dir: Path
    clock: Callable[[], float] = time.monotonic
    #: the camera (a RetryingCamera in the service), or None where there is none
    camera: Any = None
    #: recognition models, loaded once per run and shared by every game (by model folder)
    models: ModelCache = field(default_factory=ModelCache)
    #: (title, message) of what the players must be told (a saved game set aside): the
    #: service shows each once, on top of the page in front
    notices: list[tuple[str, str]] = field(default_factory=list)
    _saved: tuple[Any, Session | None] | None = field(default=None, repr=False)

    def notify(self, title: str, message: str) -> None:
        """Tell the players ``message`` (also logged) as soon as the service draws again."""
        log.warning("%s", message)
        self.notices.append((title, message))

    def session(self) -> Session | None:
        """The game in progress saved in the data folder, if any; never raises. A saved game
        that cannot be read, or is of a game this companion does not know, is moved aside and
        a notice says where (:attr:`notices`). The file is read again only when it changed
        (menus ask on every draw)."""
        store = SessionStore(self.data_dir)
        unsaved = store.unsaved()
        if unsaved is not None:
            return unsaved
        try:
            st = os.lstat(store.path)
            key: Any = (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            key = None
        if self._saved is not None and self._saved[0] == key:
            return self._saved[1]
        saved = self._load(store) if key is not None else None
        self._saved = (key, saved)
        return saved

    def _load(self, store: SessionStore) -> Session | None:
        try:
            saved = store.load()
        except CompanionError as exc:
            self.notify("Saved game", str(exc))
            return None
        if saved is None:
            return None
        try:
            find_game(saved.game)
        except UnknownGameError:
            try:
                aside = store.set_aside("unknown-game")
            except StorageError as exc:
                self.notify("Saved game", str(exc))
                return None
            self.notify("Saved game", f"The saved game is of {saved.game[:40]!r}, a game this "
                        f"companion does not know; it was moved to {aside} and a new game can "
                        "start")
            return None
        return saved

    def forget_session(self) -> None:
        """The saved game was moved or replaced here: read it again when next asked."""
        self._saved = None

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


def score_sheet_of(game: GameInfo, path: Path) -> ScoreSheet:
    """The score of the game saved in ``path``, read through the game's rules."""
    rules = game.load_rules()
    if rules is None:
        raise UnsupportedJobError(f"{game.title} cannot score a saved game here yet")
    return rules.load(read_data_file(path, "state file")).score_sheet()


class ScoreChooser(MenuPage):
    """Choose a saved game state to score (a flow: saving its score leaves it)."""

    flow_root = True

    def __init__(self, ctx: Context, game: GameInfo) -> None:
        self.ctx = ctx
        self.game = game
        states = ctx.saved_states(game)
        super().__init__(f"Score {game.title}",
                         [Choice(_label(p), lambda p=p: self._score(p)) for p in states])
        self.empty = not states

    def _score(self, path: Path) -> Page:
        sheet = score_sheet_of(self.game, path)
        # once saved, the flow is left: back to the game's menu
        after = game_over_menu(self.ctx, self.game.name, sheet,
                               message="The score is in the history.")
        return TextPage(f"{self.game.title} score", score_lines(sheet), on_ok=lambda: after)


def start_session(ctx: Context, game: GameInfo, players: list[str]) -> Page:
    """A new game at the table: saved at once, so even its set-up survives a power cut. It
    takes the place of any saved game: callers ask the players first (:func:`confirm_replace`).
    """
    session = Session(game.name, players, ctx.settings["games"].get(game.name, {}).get(
        "variant", "basic"))
    SessionStore(ctx.data_dir).save(session)
    ctx.forget_session()
    return flow_root(game.play_page()(ctx, session))


#: Errors in resuming that are not the saved game's fault: shown, and the game left in place.
NOT_THE_SAVE = (ConfigError, DeviceError, ModelError, StorageError)


def resume_session(ctx: Context, session: Session) -> Page:
    """The saved game's page, where it was left (the root of its flow).

    A saved game its game cannot take up again (an unknown field, a wrong type, another
    game's states) is moved aside, named in the log and on the screen, so that a new game can
    start without overwriting it.
    """
    try:
        return flow_root(find_game(session.game).play_page()(ctx, session))
    except NOT_THE_SAVE:
        raise
    except Exception as exc:
        if isinstance(exc, CompanionError):
            reason = str(exc)
        else:  # a game's bug, or data it did not expect: the log has the traceback
            log.warning("resuming %s failed", session.game, exc_info=True)
            reason = f"{type(exc).__name__}: {exc}"
        reason = " ".join(reason.split())[:200]
        store = SessionStore(ctx.data_dir)
        if store.unsaved() is session:  # only in memory: nothing on the disk to move
            store.clear()
            ctx.forget_session()
            message = (f"The unsaved {session.game} game in memory cannot be resumed "
                       f"({reason}); a new game can start")
        else:
            aside = store.set_aside("unresumable")
            ctx.forget_session()
            message = (f"The saved {session.game} game cannot be resumed ({reason}); it was "
                       f"moved to {aside} and a new game can start")
        log.warning("%s", message)
        return error_page(message, "Saved game")


def _entry(label: str) -> str:
    """A menu entry without its count: "Resume (3 saved)" is "Resume"."""
    return label.split(" (")[0]


def confirm_replace(saved: Session, then: Callable[[], Outcome]) -> Page:
    """Ask before a new game takes the saved game's place: "Keep" comes first, so OK, OK
    never replaces it; "Replace it" goes on to ``then``."""
    try:
        title = find_game(saved.game).title
    except UnknownGameError:
        title = saved.game
    players = ", ".join(saved.players)
    return MenuPage("Replace saved game?", [
        Choice(f"Keep {title} ({players}, {len(saved.accepted)} saved)", lambda: BACK),
        Choice("Replace it", lambda: Replace(_as_page(then()))),
    ])


def _as_page(outcome: Outcome) -> Page:
    assert isinstance(outcome, Page), outcome
    return outcome


class GameMenu(LiveMenuPage):
    """What the service can do for one game: built again on every draw, so a game saved or
    left since the menu opened is offered for resuming ("Resume" first: OK, OK resumes)."""

    def __init__(self, ctx: Context, game: GameInfo) -> None:
        self.ctx = ctx
        self.game = game
        super().__init__()
        self.refresh()

    def refresh(self) -> None:
        """As :meth:`LiveMenuPage.refresh`, but the cursor stays on the entry it was on when
        others come or go (a game left stays on "New game", which asks before replacing)."""
        before = _entry(self.choices[self.selected].label) if self.choices else None
        super().refresh()
        names = [_entry(c.label) for c in self.choices]
        if before in names:
            self.selected = names.index(before)

    def current(self) -> tuple[str, list[Choice]]:
        ctx, game = self.ctx, self.game
        choices = []
        if game.flow:
            saved = ctx.session()
            if saved is not None and saved.game == game.name:
                unsaved = ", unsaved" if saved.unsaved else ""
                choices.append(Choice(f"Resume ({len(saved.accepted)} saved{unsaved})",
                                      lambda s=saved: resume_session(ctx, s)))
            choices.append(Choice("New game", self._new_game))
        if game.can("score"):
            choices.append(Choice("Score a game", self._choose_state))
        choices.extend(game.menu_choices(ctx))  # the game's own ("Score from photos")
        choices.append(Choice("History", lambda: history_page(ctx, game)))
        choices.append(Choice("Back", lambda: BACK))
        return game.title, choices

    def _new_game(self) -> Page:
        saved = self.ctx.session()
        if saved is not None:
            return confirm_replace(saved, self._players)
        return self._players()

    def _players(self) -> Page:
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
    """The game's finished games, newest first; entries that cannot be read are skipped, and
    the page says how many and where they are."""
    read = History(ctx.data_dir).entries()
    games = [g for g in read.games if g.game == game.name]
    lines = [g.line(with_game=False) for g in games] or ["No finished games yet."]
    if read.damaged:
        n = len(read.damaged)
        lines.append(f"{n} damaged entr{'y' if n == 1 else 'ies'} in {read.path} skipped "
                     f"(number {', '.join(str(i + 1) for i in read.damaged)})")
    return TextPage(f"{game.title} history", lines)


SERVICE_JOBS = ("score", "check", "scan", "assist")


def main_menu(ctx: Context) -> MenuPage:
    """The first page: every game, those that cannot do anything here yet marked "coming"."""
    choices = []
    for game in all_games():
        if game.flow or any(game.can(j) for j in SERVICE_JOBS):
            choices.append(Choice(game.title, lambda g=game: GameMenu(ctx, g)))
        else:
            choices.append(Choice(f"{game.title} (coming)", lambda g=game: TextPage(
                g.title, [f"{g.title} is coming: it cannot be played with the companion yet."])))
    return MenuPage("Table Companion", choices)


def first_pages(ctx: Context) -> list[Page]:
    """The main menu, with an offer to resume on top when a game was in progress (a saved game
    that cannot be read is set aside and a notice says so: see :meth:`Context.session`)."""
    pages: list[Page] = [main_menu(ctx)]
    saved = ctx.session()
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
    """POWER was asked for: OK stops (the choice the user just made), BACK keeps running."""

    def __init__(self) -> None:
        super().__init__("Stop?", [Choice("Stop the service", lambda: QUIT),
                                   Choice("Keep running", lambda: BACK)])


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
        # before anything reads or writes there: what a power cut left half-written
        clean_stale_temp([SessionStore(ctx.data_dir).path, History(ctx.data_dir).path])
        self.stack: list[Page] = [first] if first else first_pages(ctx)
        self.idle_poll = idle_poll
        self.stop_requested = False
        self.last_key_time = ctx.clock()
        self.systemd = Notifier()
        #: the save problem the players were told of (None: the game is on the disk)
        self.told_unsaved: str | None = None
        self.last_save_try = ctx.clock()
        self.show_notices()

    @property
    def page(self) -> Page:
        return self.stack[-1]

    def draw(self) -> None:
        # the status line leads with NOT SAVED until the game is on the disk again
        status = f"{NOT_SAVED} {self.page.title}".strip() if self.told_unsaved else ""
        frame = render(self.page.view(status), (self.display.width, self.display.height))
        self.display.show(frame)

    def show_notices(self) -> None:
        """Put what the players must know on top: saved games set aside, a save the disk
        refused (once per problem), and the save that finally went through."""
        while self.ctx.notices:
            title, message = self.ctx.notices.pop(0)
            self.stack.append(error_page(message, title))
        unsaved = SessionStore(self.ctx.data_dir).unsaved()
        problem = str(unsaved.unsaved) if unsaved is not None and unsaved.unsaved else None
        if problem and problem != self.told_unsaved:
            self.stack.append(error_page(
                f"{problem}. The game is NOT SAVED: it goes on in memory and is saved as "
                "soon as the disk lets it.", "Not saved"))
        elif problem is None and self.told_unsaved:
            self.stack.append(TextPage("Saved", ["The game is saved on the disk again.",
                                                 "OK: back"]))
        self.told_unsaved = problem

    def retry_saving(self, now: float, force: bool = False) -> None:
        """Write again a game the disk refused: on every key (``force``) and every
        :data:`SAVE_RETRY_SECONDS`."""
        if SessionStore(self.ctx.data_dir).unsaved() is None:
            return
        if force or now - self.last_save_try >= SAVE_RETRY_SECONDS:
            self.last_save_try = now
            if retry_unsaved(self.ctx.data_dir) is not None:
                self.ctx.forget_session()
            self.show_notices()

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
            if isinstance(exc, OSError) and storage_error(exc, Path()).kind != "other":
                # a file a game wrote itself, on a full or read-only disk: named, not internal
                named = storage_error(exc, Path(exc.filename or "a file"), "write")
                log.warning("%s", named)
                self.apply(error_page(str(named)))
                self.show_notices()
                return
            log.exception("error while %s on %s", what, type(self.page).__name__)
            outcome = error_page(f"Internal error ({type(exc).__name__}); it was logged. "
                                 "Try again or choose another job.", "Error")
        self.apply(outcome)
        self.show_notices()

    def apply(self, outcome: Outcome) -> None:
        if outcome is BACK:
            if len(self.stack) > 1:
                self.stack.pop()
        elif outcome is QUIT:
            self.stop_requested = True
        elif isinstance(outcome, Replace):
            if self.page.flow_root:  # the page in its place begins the flow now
                flow_root(outcome.page)
            self.stack[-1] = outcome.page
        elif outcome is TO_FLOW_ROOT or outcome is LEAVE_FLOW:
            root = self.flow_root_index()
            if root is None:
                log.warning("%s outside any flow: closing the page instead", outcome)
                self.apply(BACK)
            else:
                del self.stack[max(1, root + (outcome is TO_FLOW_ROOT)):]
        elif isinstance(outcome, Page):
            self.stack.append(outcome)

    def flow_root_index(self) -> int | None:
        """Where the innermost flow began on the stack (None: no flow under way)."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].flow_root:
                return i
        return None

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
                    self.retry_saving(now)
                    if self.buttons.finished:
                        break
                    if dim_after and now - self.last_key_time > dim_after:
                        self.display.dim(True)
                    continue
                self.last_key_time = now
                self.retry_saving(now, force=True)
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
