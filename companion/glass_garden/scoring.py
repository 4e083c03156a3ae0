"""Scoring: 2 per succulent in the top row, 1 in the middle or bottom row, 0 on the soil side.

>>> from companion.glass_garden.garden import Garden
>>> score(Garden.parse("@ A^ B- C_ d^ e- f- g- h-"))
4
>>> title(14), title(12), title(10), title(9)
('Master Gardener', 'Amateur Grower', 'Novice Planter', 'Dirt Farmer!')
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.games.score import ScoreSheet
from companion.glass_garden.garden import TOP, Garden

if TYPE_CHECKING:
    from companion.glass_garden.deck import Deck

SEAT = "Solo"

MAX_SCORE = 16
TITLES: tuple[tuple[int, str], ...] = (
    (14, "Master Gardener"), (12, "Amateur Grower"), (10, "Novice Planter"), (0, "Dirt Farmer!"))


def plant_points(garden: Garden, plant: int) -> int:
    if not garden.is_grown(plant):
        return 0
    return 2 if garden.rows[plant] == TOP else 1


def score(garden: Garden) -> int:
    return sum(plant_points(garden, p) for p in range(8))


def title(points: int) -> str:
    return next(name for low, name in TITLES if points >= low)


def score_sheet(deck: Deck, garden: Garden, *, final: bool = True, seat: str = SEAT,
                ) -> ScoreSheet:
    """The score as the shared sheet: one line per plant in deck order, the title as result."""
    lines = [(f"plant:{p.name}", p.name, plant_points(garden, i))
             for i, p in enumerate(deck.plants)]
    sheet = ScoreSheet.of("glass-garden", [(seat, lines)], final=final)
    return replace(sheet, result=title(sheet.total(seat)))
