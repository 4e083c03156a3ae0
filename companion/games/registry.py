"""The registry of games: one declarative record per game, each game's parts found by name.

Each game sub-package declares one :class:`GameInfo` in its ``__init__`` (which must stay cheap
to import: no OpenCV, no numpy), and :func:`_load` below is the one place that lists the game
packages. A game's parts are named ``"module:attribute"`` and imported only when asked for, so
``companion --help`` starts fast and no shared module imports a game:

* ``rules``: its :class:`~companion.games.interface.Rules` object (the conformance test, the
  command line and the service make and read states through it);
* ``commands``: a mapping of verb to :class:`~companion.cli.hooks.Command`, the game's own
  flags and job for each command-line verb it can do;
* ``flow``: ``function(ctx, session) -> Page``, the table service's page for a game in progress;
* ``settings``: the game's configuration schema (its ``games.<name>`` section);
* ``demo``: the scripted game ``companion demo`` plays, and the simulated photos of
  ``camera.source: simulator``;
* ``menu``: ``function(ctx) -> list[Choice]``, the game's own entries in its menu at the table
  (The Glade's "Score from photos").
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.errors import UnknownGameError, UnsupportedJobError

#: Every verb the command line knows, with the words used to say a game cannot do it yet.
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
    commands: str = ""
    rules: str = ""
    flow: str = ""
    settings: str = ""
    #: the game's scripted demo for ``companion demo`` (a class: setup, camera, script,
    #: attach, epilogue, frames)
    demo: str = ""
    #: ``function(ctx) -> list[Choice]``: the game's own entries in its menu at the table
    menu: str = ""
    #: how many players the table service can follow, when fewer than the game allows
    table_players: tuple[int, int] | None = None
    #: ``function(game_settings) -> int``: squares across the longer side of the board the
    #: camera frames, for ``calibrate table``'s size check (empty: the game has no such grid)
    table_squares: str = ""
    #: top-level fields of the game's state file (its own additions too), so that a file
    #: without a ``game`` field given to another game is named as this game's
    state_fields: frozenset[str] = frozenset()

    @property
    def jobs(self) -> tuple[str, ...]:
        """The verbs this game can do, in the command line's order."""
        table = self.command_table()
        return tuple(j for j in JOBS if j in table)

    def can(self, job: str) -> bool:
        return job in self.command_table()

    def command_table(self) -> Mapping[str, Any]:
        return _resolve(self.commands) if self.commands else {}

    def command(self, job: str) -> Any:
        """The :class:`~companion.cli.hooks.Command` doing ``job`` for this game."""
        table = self.command_table()
        if job not in table:
            able = [g.title for g in all_games() if g.can(job)]
            also = f" Games that can: {', '.join(able)}." if able else ""
            raise UnsupportedJobError(f"{self.title} cannot {JOBS.get(job, job)} yet.{also}")
        return table[job]

    def load_rules(self) -> Any:
        """The game's :class:`~companion.games.interface.Rules` (None: not written yet)."""
        return _resolve(self.rules) if self.rules else None

    def load_settings(self) -> Any:
        """The game's configuration schema (None: the game has no settings)."""
        return _resolve(self.settings) if self.settings else None

    def load_demo(self) -> Any:
        """The game's demo class (``companion demo``)."""
        if not self.demo:
            raise UnsupportedJobError(f"{self.title} has no demo yet")
        return _resolve(self.demo)

    def menu_choices(self, ctx: Any) -> list[Any]:
        """The game's own entries in its menu at the table (none: the service's alone)."""
        return list(_resolve(self.menu)(ctx)) if self.menu else []

    def board_squares(self, settings: Mapping[str, Any]) -> int | None:
        """Squares across the longer side of the board the camera frames (None: no grid)."""
        return int(_resolve(self.table_squares)(settings)) if self.table_squares else None

    def play_page(self) -> Any:
        """The function that builds the service's page for a game in progress."""
        if not self.flow:
            raise UnsupportedJobError(f"{self.title} cannot be followed at the table yet")
        return _resolve(self.flow)


@cache
def _resolve(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _load() -> dict[str, GameInfo]:
    """The one place that lists the game packages (menu order)."""
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
