"""Games: the one interface every game fills, and the registry that lists them.

Importing this package stays cheap (no OpenCV, no numpy, no game engine): the registry names
each game's parts and imports them only when they are asked for.
"""

from __future__ import annotations

from companion.games import registry
from companion.games.interface import (
    CHANCE,
    NOT_NOW,
    SIMULTANEOUS,
    TERMINAL,
    GameState,
    IllegalAction,
    Rules,
    Ruling,
    Violation,
)
from companion.games.registry import JOBS, GameInfo, all_games, find_game
from companion.games.score import ScoreLine, ScoreSheet, SeatScore, TieBreak

__all__ = ["CHANCE", "JOBS", "NOT_NOW", "SIMULTANEOUS", "TERMINAL", "GameInfo", "GameState",
           "IllegalAction", "Rules", "Ruling", "ScoreLine", "ScoreSheet", "SeatScore",
           "TieBreak", "Violation", "all_games", "find_game", "registry"]
