"""Meadow: the card game of observation, its 184 cards read from a catalogue, Rover solo."""

from companion.games.registry import GameInfo

GAME = GameInfo(
    name="meadow",
    title="Meadow",
    rulebook="meadow.txt",
    min_players=1,
    max_players=4,
    commands="companion.meadow.commands:COMMANDS",
    rules="companion.meadow.rules:RULES",
    flow="companion.meadow.screens:play_page",
    settings="companion.meadow.settings:SETTINGS",
    # the state file's top-level fields: another game's reader names such a file Meadow's
    state_fields=frozenset({"game", "catalogue", "players", "board", "decks", "campfire",
                            "round", "turn", "first_player", "rover", "table"}),
)
