"""Step 3: the critter damages the garden, as much as its face-up side allows.

A damaged plant moves down one row; bottom-row plants cannot be damaged, and neither can a
plant protected this turn. "N plants" skips plants that cannot be damaged until N are hit (or
the side runs out); "N columns" hits every damageable plant in the N columns closest to (or
farthest from) the critter on that side. Patterns apply in the order the card lists them.

>>> from companion.glass_garden.deck import DamagePattern
>>> from companion.glass_garden.garden import Garden
>>> snail = (DamagePattern("left", "closest", 1, "plants"),)
>>> apply_damage(Garden.parse("a- b- c- d- e- f_ @ g- h-"), snail).text()
'a- b- c- d- e_ f_ @ g- h-'
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.glass_garden.deck import DamagePattern
from companion.glass_garden.garden import BOTTOM, COLUMNS, Garden


def side_columns(critter_col: int, side: str, start: str) -> list[int]:
    """The columns on one side of the critter, in the order the pattern counts them."""
    if side == "left":
        cols = list(range(critter_col - 1, -1, -1))
    else:
        cols = list(range(critter_col + 1, COLUMNS))
    return cols if start == "closest" else cols[::-1]


def damaged_plants(garden: Garden, pattern: DamagePattern, protected: int = 0) -> list[int]:
    """The plants one pattern damages (before any of them moves)."""
    hit: list[int] = []
    sides = ("left", "right") if pattern.side == "both" else (pattern.side,)
    for side in sides:
        cols = side_columns(garden.critter_col, side, pattern.start)
        if pattern.unit == "columns":
            cols = cols[:pattern.count]
        count = 0
        for c in cols:
            p = garden.cols[c]
            row = garden.rows[p]
            if row == BOTTOM or row not in pattern.rows or protected >> p & 1:
                continue
            hit.append(p)
            count += 1
            if pattern.unit == "plants" and count == pattern.count:
                break
    return hit


def apply_damage(garden: Garden, patterns: Iterable[DamagePattern], protected: int = 0
                 ) -> Garden:
    for pattern in patterns:
        for p in damaged_plants(garden, pattern, protected):
            garden = garden.move(p, 1)
    return garden
