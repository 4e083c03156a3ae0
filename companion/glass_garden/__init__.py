"""Glass Garden: the solo game of succulents, glass cards and one critter."""

from companion.games import GameInfo

GAME = GameInfo(
    name="glass-garden",
    title="Glass Garden",
    rulebook="glass-garden.txt",
    min_players=1,
    max_players=1,
    jobs={"assist": "companion.glass_garden.jobs:assist",
          "play": "companion.glass_garden.jobs:play"},
    screens="companion.glass_garden.screens:play_page",
)
