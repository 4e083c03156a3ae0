"""The gnome alarm: counting gnomes and dragons, what the gnomes steal, and stop advice.

Rulebook: a drawn tile "that would bring the number of gnomes in your garden to 6 or more"
sets off the alarm; with 3 or more dragons one gnome is ignored (the alarm comes with the
7th). The alarm tile is not placed, building stops, and at hiring the gnomes steal 3 gems
(half, rounded down, in the expert variant). Reading: gnomes and dragons are counted as if
the drawn tile lay in the garden (a dragon on the drawn tile counts), and a tile without
gnomes never sets it off.

>>> alarm_threshold(2), alarm_threshold(3)
(6, 7)
>>> stolen(7, "basic"), stolen(2, "basic"), stolen(7, "expert")
(3, 2, 3)
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.gardlings.catalogue import Catalogue, Tile
from companion.gardlings.garden import Garden

ALARM_AT = 6
DRAGONS_TO_IGNORE = 3


def alarm_threshold(dragons: int) -> int:
    """The number of gnomes that sets off the alarm with this many dragons."""
    return ALARM_AT + (1 if dragons >= DRAGONS_TO_IGNORE else 0)


def gnomes(garden: Garden) -> int:
    return sum(garden.tile(p.tile).gnomes for p in garden)


def creatures(garden: Garden, creature: str) -> int:
    """How many of ``creature`` lie in the garden (a tile may show several)."""
    return sum(garden.tile(p.tile).count(creature) for p in garden)


def dragons(garden: Garden) -> int:
    return creatures(garden, "dragon")


def sets_off(garden: Garden, tile: Tile) -> bool:
    """Whether drawing ``tile`` sets off the alarm in ``garden``."""
    if tile.gnomes == 0:
        return False
    total = gnomes(garden) + tile.gnomes
    return total >= alarm_threshold(dragons(garden) + tile.count("dragon"))


def stolen(gems: int, variant: str) -> int:
    """Gems the gnomes steal after an alarm: 3 (at most all), or half rounded down (expert)."""
    return gems // 2 if variant == "expert" else min(3, gems)


def alarm_chance(garden: Garden, bag: Iterable[str], catalogue: Catalogue) -> float:
    """The chance that the next tile drawn from ``bag`` sets off the alarm (bag known)."""
    tiles = list(bag)
    if not tiles:
        return 0.0
    return sum(1 for t in tiles if sets_off(garden, catalogue[t])) / len(tiles)


__all__ = ["ALARM_AT", "alarm_chance", "alarm_threshold", "creatures", "dragons", "gnomes",
           "sets_off", "stolen"]
