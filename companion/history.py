"""The record of finished games: final scores kept in the data folder, newest first.

Stored as one JSON file written atomically (``storage``), so a power cut while saving loses at
most the game being saved, never the games before it. A game's score comes in as the shared
:class:`~companion.games.score.ScoreSheet` (:meth:`Finished.from_sheet`).
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, StateError
from companion.games.score import ScoreSheet
from companion.storage import (
    StorageError,
    atomic_write_json,
    move_aside,
    read_data_file,
    storage_error,
)

log = logging.getLogger(__name__)

KEEP = 200


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Finished:
    """One finished game: when, which game, each player's total, the winner, and any result
    in the game's words (a solo game's title)."""

    game: str
    finished_at: str
    totals: tuple[tuple[str, int], ...]
    winner: str | None
    result: str = ""

    @classmethod
    def from_sheet(cls, game: str, sheet: ScoreSheet, when: dt.datetime | None = None,
                   ) -> Finished:
        """From a game's final score sheet.

        >>> from companion.games.score import ScoreSheet
        >>> sheet = ScoreSheet.of("demo", [("Toni", [("a", "a", 24)]), ("Emma", [("a", "a", 23)])])
        >>> when = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
        >>> Finished.from_sheet("demo", sheet, when).line()
        '2026-11-29 demo: Toni 24, Emma 23'
        """
        stamp = when.isoformat(timespec="seconds") if when else _now()
        return cls(game, stamp, tuple((p.name, p.total) for p in sheet.players), sheet.winner,
                   sheet.result)

    @classmethod
    def from_score(cls, game: str, score: dict[str, Any], when: dt.datetime | None = None,
                   ) -> Finished:
        """From a score JSON (``{"players": [{"name", "total"}], "winner"}``)."""
        stamp = when.isoformat(timespec="seconds") if when else _now()
        totals = tuple((p["name"], int(p["total"])) for p in score["players"])
        return cls(game, stamp, totals, score.get("winner"), str(score.get("result", "")))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"game": self.game, "finished_at": self.finished_at,
                                "winner": self.winner,
                                "players": [{"name": n, "total": t} for n, t in self.totals]}
        if self.result:
            data["result"] = self.result
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Finished:
        """One entry of the history file; :class:`StateError` says what is wrong with it."""
        if not isinstance(data, dict):
            raise StateError("an entry is not a mapping")
        for key in ("game", "finished_at"):
            if not isinstance(data.get(key), str):
                raise StateError(f"{key} is {data.get(key)!r}, not a text")
        players = data.get("players")
        if not isinstance(players, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str)
                and isinstance(p.get("total"), int) and not isinstance(p.get("total"), bool)
                for p in players):
            raise StateError("players must be a list of {name, total}")
        winner, result = data.get("winner"), data.get("result", "")
        if (winner is not None and not isinstance(winner, str)) or not isinstance(result, str):
            raise StateError("winner and result must be texts")
        return cls(data["game"], data["finished_at"],
                   tuple((p["name"], p["total"]) for p in players), winner, result)

    def line(self, with_game: bool = True) -> str:
        """"2026-11-29 the-glade: Toni 24, Emma 23" (without the game on a game's own page)."""
        scores = ", ".join(f"{n} {t}" for n, t in self.totals)
        game = f" {self.game}" if with_game else ""
        result = f" ({self.result})" if self.result else ""
        return f"{self.finished_at[:10]}{game}: {scores}{result}"


@dataclass(frozen=True)
class Entries:
    """The history as far as it can be read: the good entries, newest first, and the places
    (0-based) of those that cannot be read, in ``path``."""

    games: list[Finished]
    damaged: list[int]
    path: Path


class History:
    """The finished games in ``data_dir/history.json``."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "history.json"

    def _raw(self) -> list[Any]:
        if not self.path.exists():
            return []
        data = read_data_file(self.path, "history file")
        if not isinstance(data, dict) or not isinstance(data.get("games"), list):
            raise StateError(f"history file {self.path} is damaged; move it aside to start a "
                             "new history")
        return data["games"]

    def entries(self) -> Entries:
        """Every entry that can be read, and where the others are: one bad entry does not hide
        the rest (the History page lists these and says how many were skipped)."""
        games, damaged = [], []
        for i, raw in enumerate(self._raw()):
            try:
                games.append(Finished.from_dict(raw))
            except StateError as exc:
                # info, not a warning: the page and the command say it, in one line
                log.info("history file %s: entry %d skipped: %s", self.path, i + 1, exc)
                damaged.append(i)
        return Entries(games, damaged, self.path)

    def games(self) -> list[Finished]:
        """Newest first; a damaged file (or entry) is refused by name, not silently emptied."""
        read = self.entries()
        if read.damaged:
            raise StateError(f"history file {self.path} is damaged; move it aside to start a "
                             f"new history (entry {read.damaged[0] + 1} cannot be read)")
        return read.games

    def add(self, finished: Finished) -> Path | None:
        """Put ``finished`` first, keeping every entry already there as it is (one that cannot
        be read too: it is skipped when shown, never dropped). A history file that cannot be
        read at all is moved aside (``history.damaged-<time>.json``) and a new one started:
        the path it went to is returned (None when nothing was set aside), for the players to
        be told. A write the disk refuses is a :class:`~companion.storage.StorageError`
        naming why (full, read-only, permission)."""
        aside = None
        try:
            raw = self._raw()
        except CompanionError as exc:
            if isinstance(exc, StorageError):
                raise
            aside = self._set_aside()
            log.warning("history file %s cannot be read (%s); moved to %s", self.path, exc,
                        aside)
            raw = []
        games = [finished.to_dict(), *raw][:KEEP]
        try:
            atomic_write_json(self.path, {"games": games})
        except OSError as exc:
            raise storage_error(exc, self.path) from None
        return aside

    def _set_aside(self) -> Path:
        return move_aside(self.path, "damaged")
