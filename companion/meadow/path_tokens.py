"""Path tokens: which each player holds, and what each does on the campfire board.

Each colour has tokens 1, 2, 3, 4 and ?; a 4-player game returns the ? to the box. On the main
board a token counts that many spaces (? any of 1-4); on the campfire board it takes its
special action (? any of them), as the catalogue's ``path_tokens`` say.
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("green", "blue", "yellow", "red")
SPECIAL_ACTIONS: tuple[str, ...] = ("take-card", "take-roads", "look-three", "play-two")


def tokens_for(players: int) -> tuple[str, ...]:
    """A player's path tokens for a game of ``players`` (1 is solo)."""
    return ("1", "2", "3", "4") if players == 4 else ("1", "2", "3", "4", "?")


def rover_tokens(player_colour: str) -> tuple[str, ...]:
    """Rover's pile: every other colour's path tokens, ? included, as ``colour:token``."""
    return tuple(f"{c}:{t}" for c in COLOURS if c != player_colour for t in tokens_for(1))


__all__ = ["COLOURS", "SPECIAL_ACTIONS", "rover_tokens", "tokens_for"]
