"""The solo game: buy the victory tile in as few tiles as possible, and the result table.

Rulebook: "look at how many tiles you needed in total (including the victory tile)". Reading:
the tiles needed are those taken into the bag during the game (each bought tile and each
lucky piglet taken) plus the victory tile; the starting bag's 8 tiles do not count.

>>> medal(13), medal(16), medal(19), medal(20), medal(15, long_game=True)
('Gold', 'Silver', 'Bronze', 'Try again!', 'Gold')
"""

from __future__ import annotations

#: (most tiles for the result in a game to 17, in a game to 20, the result), best first
RESULTS: tuple[tuple[int, int, str], ...] = (
    (13, 15, "Gold"), (16, 18, "Silver"), (19, 21, "Bronze"))


def medal(tiles: int, long_game: bool = False) -> str:
    """The rulebook's result for a solo game won with ``tiles`` tiles."""
    for short, long_, name in RESULTS:
        if tiles <= (long_ if long_game else short):
            return name
    return "Try again!"


__all__ = ["RESULTS", "medal"]
