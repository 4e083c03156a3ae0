"""Placement rules: laying a drawn tile, moving a unicorn, and every legal placement.

Rulebook: the first tile goes anywhere; every later one face up, touching the garden on at
least one side, every touching unit edge matching (a gem half to a same-coloured half, an
egg to any half, empty to empty). A unicorn's tile may move to another cell or turn that keeps
every placement rule and the garden in one piece.

Rule codes (the spec's ``check``): ``overlap``, ``not-touching`` (the first that applies is
reported alone), then one ``edge`` per mismatched unit edge and, for a move, ``split``.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.gardlings.catalogue import Tile, matches
from companion.gardlings.garden import (
    ROTATIONS,
    SIDES,
    STEP,
    Cell,
    Garden,
    Placement,
    opposite,
    pieces,
    probes,
    unit_edges,
    units,
)


@dataclass(frozen=True)
class Breach:
    """One broken placement rule: its code, the cells and halves involved, and why."""

    rule: str
    cells: tuple[Cell, ...] = ()
    edges: tuple[str, ...] = ()
    message: str = ""

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"rule": self.rule, "cells": [list(c) for c in self.cells]}
        if self.edges:
            data["edges"] = list(self.edges)
        data["message"] = self.message
        return data


def _cells(tile: Tile, placement: Placement) -> list[Cell]:
    x, y = placement.cell
    return [(x + dx, y + dy) for dx, dy in units(tile, placement.rotation)]


def breaches(garden: Garden, placement: Placement) -> list[Breach]:
    """What breaks the placement rules when ``placement`` joins ``garden`` (which must not
    hold the tile): none means legal."""
    if placement.rotation not in ROTATIONS:
        return [Breach("overlap", (), (), f"rotation {placement.rotation} is not 0, 90, 180 "
                       "or 270")]
    tile = garden.tile(placement.tile)
    owner = garden.owner
    cells = _cells(tile, placement)
    covered = [c for c in cells if c in owner]
    if covered:
        names = ", ".join(sorted({garden.placements[owner[c]].tile for c in covered}))
        return [Breach("overlap", tuple(covered), (),
                       f"{placement.tile} would lie on {names} at "
                       f"{', '.join(map(str, covered))}")]
    if not owner:
        return []
    out: list[Breach] = []
    touching = False
    x, y = placement.cell
    halves = garden.halves
    for (dx, dy), side, edge in unit_edges(tile, placement.rotation):
        cell = (x + dx, y + dy)
        sx, sy = STEP[side]
        other = (cell[0] + sx, cell[1] + sy)
        if other not in owner:
            continue
        touching = True
        found = halves[(other, opposite(side))]
        mine = tile.edges[edge]
        theirs = garden.tile(garden.placements[found[0]].tile).edges[found[1]]
        if not matches(mine, theirs):
            out.append(Breach("edge", (cell, other), (mine, theirs),
                              f"{placement.tile}'s {SIDES[side]} edge at {list(cell)} is "
                              f"{mine} but meets {theirs} at {list(other)}"))
    if not touching:
        return [Breach("not-touching", tuple(cells), (),
                       f"{placement.tile} at {list(placement.cell)} touches no tile of the "
                       "garden on a side")]
    return out


def move_breaches(garden: Garden, placement: Placement) -> list[Breach]:
    """What a unicorn move of ``placement.tile`` to its new cell and turn breaks."""
    rest = garden.without(placement.tile)
    tile = garden.tile(placement.tile)
    if "unicorn" not in tile.creatures:
        return [Breach("not-unicorn", tuple(garden.cells_of(garden.placement(placement.tile))),
                       (), f"{placement.tile} shows no unicorn, so it cannot move")]
    out = breaches(rest, placement)
    if out and out[0].rule in ("overlap", "not-touching"):
        return out
    after = rest.with_tile(placement)
    parts = pieces(after.owner)
    if len(parts) > 1:
        home = set(_cells(tile, placement))
        cut = sorted(c for part in parts if not part & home for c in part)
        out.append(Breach("split", tuple(cut), (),
                          f"moving {placement.tile} cuts {len(cut)} unit(s) off the garden"))
    return out


def fits(garden: Garden, tile: Tile, placement: Placement) -> bool:
    """Whether ``placement`` of ``tile`` is legal in ``garden`` (the fast path of
    :func:`breaches`: same answer, no reasons)."""
    x, y = placement.cell
    owner = garden.owner
    for dx, dy in units(tile, placement.rotation):
        if (x + dx, y + dy) in owner:
            return False
    if not owner:
        return True
    half_text = garden.half_text
    touching = False
    for ox, oy, side, half in probes(tile, placement.rotation):
        other = half_text.get(((x + ox, y + oy), side))
        if other is None:
            continue
        if not matches(half, other):
            return False
        touching = True
    return touching


def frontier(garden: Garden) -> set[Cell]:
    """Empty cells beside the garden."""
    owner = garden.owner
    return {(cx + dx, cy + dy) for cx, cy in owner for dx, dy in STEP
            if (cx + dx, cy + dy) not in owner}


def candidates(garden: Garden, tile: Tile) -> list[Placement]:
    """Every cell and turn at which ``tile`` would touch the garden (legal or not)."""
    if not garden.placements:
        return [Placement(tile.id, (0, 0), r) for r in ROTATIONS]
    edge = frontier(garden)
    keys = {(fx - dx, fy - dy, rotation) for rotation in ROTATIONS
            for dx, dy in units(tile, rotation) for fx, fy in edge}
    return [Placement(tile.id, (x, y), r)
            for x, y, r in sorted(keys, key=lambda k: (k[1], k[0], k[2]))]


def legal_placements(garden: Garden, tile: Tile) -> list[Placement]:
    """Every cell and turn where ``tile`` may be laid (alike ones included)."""
    return [p for p in candidates(garden, tile) if fits(garden, tile, p)]


def fits_somewhere(garden: Garden, tile: Tile) -> bool:
    """Whether ``tile`` has a legal placement at all (a tile that fits nowhere stops
    building)."""
    return any(fits(garden, tile, p) for p in candidates(garden, tile))


def legal_moves(garden: Garden, tile_id: str) -> list[Placement]:
    """Every new cell or turn a unicorn's tile may move to."""
    tile = garden.tile(tile_id)
    if "unicorn" not in tile.creatures or len(garden) < 2:
        return []
    now = garden.placement(tile_id)
    rest = garden.without(tile_id)
    out = []
    for p in candidates(rest, tile):
        if p == now or not fits(rest, tile, p):
            continue
        if len(pieces(rest.with_tile(p).owner)) == 1:
            out.append(p)
    return out


def garden_breaches(garden: Garden) -> list[Breach]:
    """Every edge mismatch and split of a whole garden (overlaps are refused on reading)."""
    out = []
    for cell, side, other, a, b in garden.joins():
        if not matches(a, b):
            out.append(Breach("edge", (cell, other), (a, b),
                              f"{SIDES[side]} edge at {list(cell)} is {a} but meets {b} at "
                              f"{list(other)}"))
    parts = pieces(garden.owner)
    if len(parts) > 1:
        cut = sorted(c for part in parts[1:] for c in part)
        out.append(Breach("split", tuple(cut), (), "the garden is in more than one piece"))
    return out


__all__ = ["Breach", "breaches", "candidates", "fits", "fits_somewhere", "frontier",
           "garden_breaches",
           "legal_moves", "legal_placements", "move_breaches"]
