"""The Glade: tiles in sets on a forest board, toadstools on the glade board.

Rules follow ../shared/rulebooks/the-glade.txt; names and files follow the spec.
"""

from companion.games import GameInfo

GAME = GameInfo(
    name="the-glade",
    title="The Glade",
    rulebook="the-glade.txt",
    min_players=1,
    max_players=4,
    jobs={
        "score": "companion.the_glade.jobs:score",
        "check": "companion.the_glade.jobs:check",
        "hint": "companion.the_glade.jobs:hint",
        "enrol": "companion.the_glade.recognition.jobs:enrol",
        "scan": "companion.the_glade.recognition.jobs:scan",
        "cut-sheet": "companion.the_glade.recognition.cut_sheet:cut_sheet",
    },
    screens="companion.the_glade.screens:play_page",
    # the solo game's set-up (12 neutral counters) is not entered at the table yet
    table_players=(2, 4),
)
