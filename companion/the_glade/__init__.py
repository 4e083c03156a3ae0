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
    jobs={},
)
