"""Glass Garden: the solo game of succulents, glass cards and one critter."""

from companion.games.registry import GameInfo

GAME = GameInfo(
    name="glass-garden",
    title="Glass Garden",
    rulebook="glass-garden.txt",
    min_players=1,
    max_players=1,
    commands="companion.glass_garden.commands:COMMANDS",
    rules="companion.glass_garden.rules:RULES",
    flow="companion.glass_garden.screens:play_page",
    settings="companion.glass_garden.settings:SETTINGS",
    demo="companion.glass_garden.demo:DEMO",
    # the spec's fields, then those rules.dump adds for a game in the engine's hands
    state_fields=frozenset({"game", "deck", "critter", "turn", "actions_left", "critter_side",
                            "garden", "glass", "phase", "used", "protected", "pending",
                            "player"}),
)
