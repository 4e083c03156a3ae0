"""The Glade: tiles in sets on a forest board, toadstools on the glade board.

Rules follow ../shared/rulebooks/the-glade.txt; names and files follow the spec.
"""

from companion.games.registry import GameInfo

GAME = GameInfo(
    name="the-glade",
    title="The Glade",
    rulebook="the-glade.txt",
    min_players=1,
    max_players=4,
    commands="companion.the_glade.commands:COMMANDS",
    rules="companion.the_glade.rules:RULES",
    flow="companion.the_glade.screens:play_page",
    settings="companion.the_glade.settings:SETTINGS",
    demo="companion.the_glade.demo:DEMO",
    menu="companion.the_glade.photo_flow:menu_choices",
    table_squares="companion.the_glade.settings:board_squares",
    # the state file's fields (with the engine's additions) and check's forest files'
    state_fields=frozenset({"game", "variant", "board", "players", "glade", "forest",
                            "start_player", "current_player", "phase", "round", "bag",
                            "end_triggered", "finished", "neutral", "boxed", "bag_tiles",
                            "to_draw"}),
    # the solo game's set-up (12 neutral counters) is not entered at the table yet
    table_players=(2, 4),
)
