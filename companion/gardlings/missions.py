"""The "Mission Tiles" mini-expansion: each mission's gems, and passing missions on.

A mission tile is the first tile of its holder's garden and gives gems one way (the spec's
``effect``): a shape built anywhere on other tiles (turned or mirrored, once), 3+ joined empty
connections, 4+ complete gems of a colour (a triple counts 3), being built all round, or a
second draw once a round.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.gardlings.catalogue import EMPTY, Tile
from companion.gardlings.garden import STEP, Cell, Garden
from companion.gardlings.gems import GemCount, complete_gems, count_gems, empty_joins


def shape_variants(shape: Sequence[str]) -> list[frozenset[Cell]]:
    """The shape's cells in every turn, mirrored or not, each moved to start at (0, 0)."""
    cells = [(x, y) for y, row in enumerate(shape) for x, c in enumerate(row) if c == "#"]
    out: set[frozenset[Cell]] = set()
    for mirror in (False, True):
        pts = [(-x, y) if mirror else (x, y) for x, y in cells]
        for _ in range(4):
            pts = [(-y, x) for x, y in pts]
            mx = min(x for x, _ in pts)
            my = min(y for _, y in pts)
            out.add(frozenset((x - mx, y - my) for x, y in pts))
    return sorted(out, key=sorted)


def has_shape(covered: set[Cell], shape: Sequence[str]) -> bool:
    """Whether ``covered`` holds the shape somewhere (turned or mirrored)."""
    for variant in shape_variants(shape):
        anchor = min(variant)
        rest = [(x - anchor[0], y - anchor[1]) for x, y in variant]
        for cx, cy in covered:
            if all((cx + dx, cy + dy) in covered for dx, dy in rest):
                return True
    return False


def surrounded(garden: Garden, mission: str) -> bool:
    """Whether every outer unit edge of the mission tile meets another tile."""
    index = garden.index[mission]
    owner = garden.owner
    for (cell, side), (i, _edge) in garden.halves.items():
        if i != index:
            continue
        dx, dy = STEP[side]
        if (cell[0] + dx, cell[1] + dy) not in owner:
            return False
    return True


def mission_gems(garden: Garden, mission: str | None) -> int:
    """The gems the garden's mission gives (0 without one, or for the second draw)."""
    if mission is None or mission not in garden.index:
        return 0
    tile: Tile = garden.tile(mission)
    effect = tile.effect
    if effect is None:
        return 0
    if effect.kind == "shape":
        index = garden.index[mission]
        covered = {c for c, i in garden.owner.items() if i != index}
        return effect.gems if has_shape(covered, effect.shape) else 0
    if effect.kind == "empty-joins":
        return effect.gems if empty_joins(garden) >= effect.at_least else 0
    if effect.kind == "colour-gems":
        n = sum(g.value for g in complete_gems(garden) if effect.colour in g.colours)
        return effect.gems if n >= effect.at_least else 0
    if effect.kind == "surrounded":
        return effect.gems if surrounded(garden, mission) else 0
    return 0


def count_all(garden: Garden, mission: str | None = None) -> GemCount:
    """Every gem of the garden, the mission's included."""
    base = count_gems(garden)
    return GemCount(base.plain, base.triple, base.bonus, mission_gems(garden, mission))


def has_second_draw(garden: Garden, mission: str | None) -> bool:
    tile = garden.catalogue[mission] if mission and mission in garden.catalogue else None
    return bool(tile and tile.effect and tile.effect.kind == "second-draw")


def pass_missions(held: Sequence[str | None], between: Sequence[str | None]
                  ) -> tuple[tuple[str | None, ...], tuple[str | None, ...]]:
    """The missions after a round: ``held[i]`` is seat i's, ``between[i]`` lies between seat
    i and the seat to its right (seat i - 1), empty with four players.

    Four players pass their mission clockwise (to seat i + 1). With one to three players each
    takes the tile to their right and lays their old one between themselves and the seat to
    their left (seat i + 1), so the tiles go round all the places in turn.

    >>> pass_missions(["A", "B", "C", "D"], [])
    (('D', 'A', 'B', 'C'), ())
    >>> pass_missions(["A", "B"], ["x", "y"])
    (('x', 'y'), ('B', 'A'))
    """
    n = len(held)
    if not between:
        return tuple(held[(i - 1) % n] for i in range(n)), ()
    return tuple(between), tuple(held[(i - 1) % n] for i in range(n))


__all__ = ["EMPTY", "count_all", "has_second_draw", "has_shape", "mission_gems",
           "pass_missions", "shape_variants", "surrounded"]
