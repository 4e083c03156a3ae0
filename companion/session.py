"""The game in progress, kept on disk so that a power cut loses at most the action being entered.

A session holds the game, its players, and every state the players accepted, in order. It is
written atomically after each accepted state; on start the service offers to resume it. A
finished game leaves the session for the history.
"""

from __future__ import annotations

import datetime as dt
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.storage import atomic_write_json, read_data_file

FORMAT = 1


@dataclass
class Session:
    """One game being followed at the table."""

    game: str
    players: list[str]
    variant: str = "basic"
    started_at: str = field(
        default_factory=lambda: dt.datetime.now(dt.UTC).isoformat(timespec="seconds"))
    accepted: list[dict[str, Any]] = field(default_factory=list)

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
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise StateError("the saved game is from another version of the companion")
        try:
            players = [str(p) for p in data["players"]]
            accepted = list(data["accepted"])
            if not all(isinstance(s, dict) for s in accepted):
                raise TypeError
            return cls(str(data["game"]), players, str(data.get("variant", "basic")),
                       str(data["started_at"]), accepted)
        except (KeyError, TypeError) as exc:
            raise StateError(f"the saved game lacks {exc}") from None


class SessionStore:
    """``data_dir/session.json``: saved after every accepted state, read on start."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "session.json"

    def load(self) -> Session | None:
        """The game to resume, if any. An unreadable file is moved aside (never deleted) and
        reported, so the service can still start."""
        if not self.path.exists():
            return None
        try:
            return Session.from_dict(read_data_file(self.path, "saved game"))
        except StateError as exc:
            stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
            aside = self.path.with_name(f"session.damaged-{stamp}.json")
            os.replace(self.path, aside)
            raise StateError(f"{exc}; it was moved to {aside} and a new game can start") from None

    def save(self, session: Session) -> None:
        atomic_write_json(self.path, session.to_dict())

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
