"""The game in progress, kept on disk so that a power cut loses at most the action being entered.

A session holds the game, its players, and every state the players accepted, in order. It is
written atomically after each accepted state; on start the service offers to resume it. A
finished game leaves the session for the history.

Nothing a player saved is lost: a saved game that cannot be read, or cannot be resumed, is moved
aside (``session.damaged-*.json``, ``session.unresumable-*.json``) and named, never deleted or
overwritten; one that cannot be written (a full or read-only disk) stays in memory, marked
unsaved, and :func:`retry_unsaved` writes it as soon as the disk lets it.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, StateError
from companion.storage import (
    StorageError,
    atomic_write_json,
    clean_stale_temp,
    move_aside,
    read_data_file,
    storage_error,
)

log = logging.getLogger(__name__)

FORMAT = 1
#: The most players a saved game may name (the configuration allows 1-8 names).
MAX_PLAYERS = 8


@dataclass
class Session:
    """One game being followed at the table."""

    game: str
    players: list[str]
    variant: str = "basic"
    started_at: str = field(
        default_factory=lambda: dt.datetime.now(dt.UTC).isoformat(timespec="seconds"))
    accepted: list[dict[str, Any]] = field(default_factory=list)
    #: why the last save failed (the game then lives in memory only), None when it is on disk
    unsaved: StorageError | None = field(default=None, compare=False)

    @property
    def current(self) -> dict[str, Any] | None:
        """The last accepted state, or None before the first."""
        return self.accepted[-1] if self.accepted else None

    def accept(self, state: dict[str, Any]) -> None:
        self.accepted.append(state)

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "players": self.players,
                "variant": self.variant, "started_at": self.started_at,
                "accepted": self.accepted}

    @classmethod
    def from_dict(cls, data: Any) -> Session:
        """A saved game read back; :class:`StateError` names the first field that is wrong
        (a ``players`` that is one text, not a list of names, is refused: it would resume as
        one player per letter)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StateError("the saved game is from another version of the companion")
        for key in ("game", "players", "started_at", "accepted"):
            if key not in data:
                raise StateError(f"the saved game lacks {key!r}")
        game, players, accepted = data["game"], data["players"], data["accepted"]
        variant, started = data.get("variant", "basic"), data["started_at"]
        if not isinstance(game, str) or not game:
            raise StateError("the saved game's 'game' is not a game's name")
        if (not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS
                or not all(isinstance(p, str) and p.strip() for p in players)):
            raise StateError(f"the saved game's 'players' is not a list of 1-{MAX_PLAYERS} "
                             "names")
        if not isinstance(accepted, list) or not all(isinstance(s, dict) for s in accepted):
            raise StateError("the saved game's 'accepted' is not a list of states")
        if not isinstance(variant, str) or not isinstance(started, str):
            raise StateError("the saved game's 'variant' and 'started_at' must be texts")
        return cls(game, list(players), variant, started, list(accepted))


#: Saved games that could not be written, by file: kept in memory and written again by
#: :func:`retry_unsaved` (the service tries on every key and every few seconds).
_UNSAVED: dict[Path, Session] = {}


class SessionStore:
    """``data_dir/session.json``: saved after every accepted state, read on start."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "session.json"

    def load(self) -> Session | None:
        """The game to resume, if any. An unreadable file (or a folder in its place) is moved
        aside, never deleted, and reported in one line naming where it went
        (:class:`StateError`), so the service can still start. A game that could not be
        written (see :meth:`save`) is the one in memory."""
        if self.path in _UNSAVED:
            return _UNSAVED[self.path]
        if not os.path.lexists(self.path):
            return None
        try:
            return Session.from_dict(read_data_file(self.path, "saved game"))
        except CompanionError as exc:
            if isinstance(exc, StorageError):
                raise
            aside = self.set_aside("damaged")
            log.warning("saved game %s cannot be read (%s); moved to %s", self.path, exc, aside)
            raise StateError(f"{exc}; it was moved to {aside} and a new game can start",
                             ) from None

    def set_aside(self, why: str) -> Path:
        """Move the saved game to ``session.<why>-<time>.json`` beside it (a name not yet
        taken), and return where; a move the disk refuses is a :class:`StorageError`."""
        aside = move_aside(self.path, why)
        _UNSAVED.pop(self.path, None)
        return aside

    def save(self, session: Session) -> None:
        """Write ``session`` atomically. When the disk refuses (full, read-only, not ours),
        nothing is raised to the game: the session is marked :attr:`Session.unsaved`, kept for
        :func:`retry_unsaved`, and the failure logged once, named for what it is."""
        try:
            atomic_write_json(self.path, session.to_dict(), compact=True)
        except OSError as exc:
            problem = storage_error(exc, self.path)
            if str(session.unsaved) != str(problem):
                log.error("%s; the game is kept in memory and saved again when possible",
                          problem)
            session.unsaved = problem
            _UNSAVED[self.path] = session
            return
        if session.unsaved is not None:
            log.info("saved game %s written again: the game is safe on the disk", self.path)
        session.unsaved = None
        _UNSAVED.pop(self.path, None)  # the file holds the newest game now

    def clear(self) -> None:
        """The game is over (in the history): forget it on disk and in memory."""
        _UNSAVED.pop(self.path, None)
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            raise storage_error(exc, self.path, "remove") from None

    def unsaved(self) -> Session | None:
        """The game that could not be written, if any (it is in memory only)."""
        return _UNSAVED.get(self.path)

    def clean_stale(self) -> list[Path]:
        """Remove what a write cut short left (``.session.json.*.tmp``): call it at start."""
        return clean_stale_temp([self.path])


def retry_unsaved(data_dir: Path) -> Session | None:
    """Try again to write the game that could not be saved in ``data_dir``; returns it when it
    is now on the disk, None when there was nothing to do or the disk still refuses."""
    store = SessionStore(data_dir)
    session = store.unsaved()
    if session is None:
        return None
    store.save(session)
    return None if session.unsaved else session
