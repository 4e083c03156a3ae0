"""Counting a garden's gems: complete gems, strong triple gems, mushroom-head bonus gems.

A gem is complete where two halves of different tiles touch and match (rulebook: "gem halves
must always be matched to a same-coloured gem"; an egg matches any half). Two triple halves
(gardeners) make a strong triple gem worth 3; a triple half beside a plain half or an egg
makes a plain gem. A mushroom head's line gives a small bonus gem when the gems at both its
ends are complete. Mission gems are added by :mod:`companion.gardlings.missions`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.gardlings.catalogue import EMPTY, gem_colours, gem_value
from companion.gardlings.garden import STEP, Cell, Garden, opposite, pieces, unit_edges


@dataclass(frozen=True)
class Gem:
    """One complete edge gem: the two units it joins and its value (1, or 3 for a triple)."""

    cells: tuple[Cell, Cell]
    value: int
    colours: frozenset[str]

    def to_dict(self) -> dict[str, object]:
        return {"cells": [list(c) for c in self.cells], "value": self.value}


@dataclass(frozen=True)
class GemCount:
    """A garden's gems line by line (the spec's ``gems``)."""

    plain: int = 0
    triple: int = 0
    bonus: int = 0
    mission: int = 0

    @property
    def total(self) -> int:
        return self.plain + self.triple + self.bonus + self.mission

    def to_dict(self) -> dict[str, int]:
        return {"plain": self.plain, "triple": self.triple, "bonus": self.bonus,
                "mission": self.mission, "total": self.total}


def complete_gems(garden: Garden) -> list[Gem]:
    """Every complete edge gem of the garden, each once."""
    out = []
    for cell, _side, other, a, b in garden.joins():
        value = gem_value(a, b)
        if value:
            out.append(Gem((cell, other), value, gem_colours(a, b)))
    return out


def complete_at(garden: Garden, index: int, edge: int) -> bool:
    """Whether the edge ``edge`` of the tile laid ``index``-th lies in a complete gem."""
    placement = garden.placements[index]
    tile = garden.tile(placement.tile)
    x, y = placement.cell
    for (dx, dy), side, k in unit_edges(tile, placement.rotation):
        if k != edge:
            continue
        sx, sy = STEP[side]
        cell = (x + dx + sx, y + dy + sy)
        found = garden.halves.get((cell, opposite(side)))
        if found is None or found[0] == index:
            return False
        other = garden.tile(garden.placements[found[0]].tile).edges[found[1]]
        return gem_value(tile.edges[edge], other) > 0
    return False


def bonus_gems(garden: Garden) -> int:
    """Mushroom heads' bonus gems: one per line whose two ends are complete gems."""
    total = 0
    for i, p in enumerate(garden.placements):
        for a, b in garden.tile(p.tile).lines:
            if complete_at(garden, i, a) and complete_at(garden, i, b):
                total += 1
    return total


def count_gems(garden: Garden) -> GemCount:
    """Plain, triple and bonus gems (no mission gems: see ``missions.count_all``)."""
    plain = triple = 0
    for gem in complete_gems(garden):
        if gem.value == 3:
            triple += 3
        else:
            plain += 1
    return GemCount(plain, triple, bonus_gems(garden))


def empty_joins(garden: Garden) -> int:
    """Unit edges where two empty connections meet."""
    return sum(1 for _c, _s, _o, a, b in garden.joins() if a == EMPTY and b == EMPTY)


def ponds(garden: Garden) -> int:
    """Gaps wholly surrounded by tiles (each empty region, joined side to side, that does not
    reach the outside of the garden's bounding box)."""
    owner = garden.owner
    if len(owner) < 4:
        return 0
    xs = [c[0] for c in owner]
    ys = [c[1] for c in owner]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    empty = {(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)
             if (x, y) not in owner}
    return sum(1 for piece in pieces(empty)
               if not any(x in (x0, x1) or y in (y0, y1) for x, y in piece))


__all__ = ["Gem", "GemCount", "bonus_gems", "complete_at", "complete_gems", "count_gems",
           "empty_joins", "ponds"]
