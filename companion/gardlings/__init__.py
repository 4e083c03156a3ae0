"""Gardlings: everyone builds a garden of tiles at once, counts the complete gems, loses some
to the gnomes, and hires Gardlings; first to buy the victory tile wins.

Rules follow ../shared/rulebooks/gardlings.txt; names, the tile catalogue and files follow
the spec (../shared/spec/gardlings.md). Cheap to import: the registry reads only ``GAME``.
"""

from companion.games.registry import GameInfo

GAME = GameInfo(
    name="gardlings",
    title="Gardlings",
    rulebook="gardlings.txt",
    min_players=1,
    max_players=4,
    commands="companion.gardlings.commands:COMMANDS",
    rules="companion.gardlings.rules:RULES",
    flow="companion.gardlings.screens:play_page",
    settings="companion.gardlings.settings:SETTINGS",
    # the state file's fields (state_file.FIELDS and EXTRA): another game's reader names a
    # file with these and no game field as Gardlings'
    state_fields=frozenset({"game", "catalogue", "variant", "long_game", "players", "market",
                            "phase", "round", "start_player", "drawing", "to_hire",
                            "mutating", "missions_between", "winners", "round_limit",
                            "last_totals", "ended_by"}),
)
