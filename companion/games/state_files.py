"""Whose state file is this? Another game's file is named as such, not as a pile of bad fields.

A user who gives ``companion assist glass-garden`` a file of The Glade should hear "that is a
the-glade state file; use 'companion score the-glade'", not "bag: unknown field". Every game's
state-file reader asks :func:`refuse_other_game` first. A file says whose it is by its
``game`` field; a file without one is recognised by its fields, from each game's
``GameInfo.state_fields`` in the registry (a file sharing any field with the reader's own
game is left to that game's reader, whose messages then name the bad fields).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.errors import StateError

#: verbs that take a state file, in the order a refusal suggests them
_STATE_VERBS = ("score", "hint", "check", "assist")


def other_game(data: Any, ours: str, own_fields: Iterable[str]) -> str | None:
    """The game ``data`` (a parsed state file) is for, when that is not ``ours``: its ``game``
    field, or else the registered game that has the most of its fields; None when it is
    ours, or when no one game can be told from it."""
    if not isinstance(data, dict):
        return None
    game = data.get("game")
    if game is not None:
        return None if game == ours else str(game)
    keys = set(data)
    if not keys or keys & set(own_fields):
        return None
    from companion.games.registry import all_games

    shared = sorted(((len(keys & g.state_fields), g.name) for g in all_games()
                     if g.name != ours and keys & g.state_fields), reverse=True)
    if not shared or (len(shared) > 1 and shared[0][0] == shared[1][0]):
        return None
    return shared[0][1]


def not_ours(game: str, ours: str, name: str | None = None) -> StateError:
    """The one-line refusal of ``game``'s file by ``ours``'s reader (``name``: what to call
    the file; None: by its game field)."""
    from companion.games.registry import all_games

    name = "game: this" if name is None else name
    known = {g.name: g for g in all_games()}
    if game in known:
        verbs = [v for v in _STATE_VERBS if known[game].can(v)][:2]
        use = " or ".join(f"'companion {v} {game}'" for v in verbs)
        return StateError(f"{name} is a {game} state file, not {ours}; "
                          + (f"use {use} with it, or " if use else "")
                          + f"give a {ours} state file")
    shown = game if len(game) <= 30 and game.isprintable() else repr(game[:27] + "...")
    return StateError(f"{name} is for the game {shown} (its game field), not {ours}; give a "
                      f"{ours} state file (game: {ours})")


def refuse_other_game(data: Any, ours: str, own_fields: Iterable[str],
                      name: str | None = None) -> None:
    """Raise :class:`StateError` when ``data`` is another game's state file."""
    game = other_game(data, ours, own_fields)
    if game is not None:
        raise not_ours(game, ours, name)
