"""The registry of games and the jobs each can do.

Each game sub-package declares one :class:`GameInfo` in its ``__init__`` (which must stay cheap
to import: no OpenCV, no numpy). Jobs are named ``"module:function"`` and imported only when
asked for, so ``companion --help`` starts fast and a game whose job is not written yet is
reported, not crashed on.

The job functions' signatures are fixed by the command line (see ``companion/cli``):

* ``score(state: Path) -> Report``
* ``check(before: Path, after: Path) -> Report``
* ``hint(state: Path, *, player: str, rack: list[str], limit: int | None) -> Report``
* ``enrol(pack: Path, *, out: Path) -> Report``
* ``scan(photo: Path, *, model: Path, overlay: Path | None, previous: Path | None) -> Report``
* ``cut-sheet``: ``(photo: Path, *, pack: Path, names: Path | None, season: str | None,
  size: int, start: int | None) -> Report``
* ``assist(state: Path, *, seconds: float) -> Report``
* ``play(*, seed: int) -> int`` (an interactive terminal game; returns an exit status)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import UnknownGameError, UnsupportedJobError

#: Every job the command line knows, with the words used to say a game cannot do it yet.
JOBS: dict[str, str] = {
    "score": "score a finished game",
    "check": "rule on a placement",
    "hint": "suggest placements",
    "enrol": "learn components from an enrolment pack",
    "scan": "read a photo of the table",
    "cut-sheet": "cut tile photos out of a photo of a sheet of tiles",
    "assist": "advise the solo player",
    "play": "play a game in the terminal",
}


@dataclass(frozen=True)
class GameInfo:
    """A declarative record of one game (in the manner of OpenSpiel's ``GameType``)."""

    name: str
    title: str
    rulebook: str
    min_players: int
    max_players: int
    jobs: Mapping[str, str] = field(default_factory=dict)
    #: ``"module:function"`` giving the table service's page for a game in progress:
    #: ``function(ctx, session) -> Page`` (empty: the service cannot follow this game yet)
    screens: str = ""
    #: how many players the table service can follow, when fewer than the game allows
    table_players: tuple[int, int] | None = None

    def can(self, job: str) -> bool:
        return job in self.jobs

    def play_page(self) -> Callable[..., Any]:
        """The function that builds the service's page for a game in progress."""
        if not self.screens:
            raise UnsupportedJobError(f"{self.title} cannot be followed at the table yet")
        return _resolve(self.screens)

    def job(self, job: str) -> Callable[..., Any]:
        """The function that does ``job`` for this game, imported now."""
        target = self.jobs.get(job)
        if target is None:
            able = [g.title for g in all_games() if g.can(job)]
            also = f" Games that can: {', '.join(able)}." if able else ""
            raise UnsupportedJobError(
                f"{self.title} cannot {JOBS.get(job, job)} yet.{also}")
        return _resolve(target)


def _resolve(target: str) -> Callable[..., Any]:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _load() -> dict[str, GameInfo]:
    from companion import gardlings, glass_garden, meadow, the_glade

    games = [the_glade.GAME, glass_garden.GAME, gardlings.GAME, meadow.GAME]
    return {g.name: g for g in games}


_REGISTRY: dict[str, GameInfo] | None = None


def all_games() -> list[GameInfo]:
    """Every registered game, in menu order."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _load()
    return list(_REGISTRY.values())


def find_game(name: str) -> GameInfo:
    """The game called ``name`` (its spec name, e.g. ``the-glade``)."""
    games = {g.name: g for g in all_games()}
    try:
        return games[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(games)}") from None
