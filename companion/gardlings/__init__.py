"""Gardlings: tile-laying with edges (components read from a catalogue)."""

from companion.games.registry import GameInfo

GAME = GameInfo(
    name="gardlings",
    title="Gardlings",
    rulebook="gardlings.txt",
    min_players=1,
    max_players=4,
)
