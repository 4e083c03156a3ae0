"""The record of finished games: final scores kept in the data folder, newest first.

Stored as one JSON file written atomically (``storage``), so a power cut while saving loses at
most the game being saved, never the games before it.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.storage import atomic_write_json, read_data_file

KEEP = 200


@dataclass(frozen=True)
class Finished:
    """One finished game: when, which game, each player's total, and the winner."""

    game: str
    finished_at: str
    totals: tuple[tuple[str, int], ...]
    winner: str | None

    @classmethod
    def from_score(cls, game: str, score: dict[str, Any], when: dt.datetime | None = None,
                   ) -> Finished:
        """From a game's score JSON (``{"players": [{"name", "total"}], "winner"}``)."""
        when = when or dt.datetime.now(dt.UTC)
        totals = tuple((p["name"], int(p["total"])) for p in score["players"])
        return cls(game, when.isoformat(timespec="seconds"), totals, score.get("winner"))

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "finished_at": self.finished_at, "winner": self.winner,
                "players": [{"name": n, "total": t} for n, t in self.totals]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finished:
        return cls(data["game"], data["finished_at"],
                   tuple((p["name"], int(p["total"])) for p in data["players"]),
                   data.get("winner"))

    def line(self, with_game: bool = True) -> str:
        """"2026-11-29 the-glade: Toni 24, Emma 23" (without the game on a game's own page)."""
        scores = ", ".join(f"{n} {t}" for n, t in self.totals)
        game = f" {self.game}" if with_game else ""
        return f"{self.finished_at[:10]}{game}: {scores}"


class History:
    """The finished games in ``data_dir/history.json``."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / "history.json"

    def games(self) -> list[Finished]:
        """Newest first; a damaged file is refused by name, not silently emptied."""
        if not self.path.exists():
            return []
        data = read_data_file(self.path, "history file")
        try:
            return [Finished.from_dict(d) for d in data["games"]]
        except (KeyError, TypeError, ValueError):
            raise StateError(f"history file {self.path} is damaged; move it aside to start a "
                             "new history") from None

    def add(self, finished: Finished) -> None:
        games = [finished, *self.games()][:KEEP]
        atomic_write_json(self.path, {"games": [g.to_dict() for g in games]})
