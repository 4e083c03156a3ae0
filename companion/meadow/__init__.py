"""Meadow: a card game of 184 cards (read from a catalogue)."""

from companion.games.registry import GameInfo

GAME = GameInfo(
    name="meadow",
    title="Meadow",
    rulebook="meadow.txt",
    min_players=1,
    max_players=4,
)
