"""A garden: tiles laid at cells and turns, and the unit edges where they meet.

A cell is ``(x, y)``, x rightwards and y downwards; a tile covers ``width x height`` unit
cells (squares and 1x2 strips alike, never assumed). ``rotation`` turns a tile clockwise in
steps of 90: each step moves the last ``height`` entries of its edges to the front and swaps
width and height (the spec), and ``cell`` is the turned tile's top-left unit.

The garden is a frozen value that knows nothing of how it was entered (typed, confirmed on
the OLED, or one day read from a photo).

>>> from companion.gardlings.catalogue import Tile
>>> strip = Tile("S", "green", width=2, edges=("a", "b", "c", "d", "e", "f"))
>>> turned(strip, 90)
(1, 2, (5, 0, 1, 2, 3, 4))
>>> [(u, SIDES[s], strip.edges[i]) for u, s, i in unit_edges(strip, 0) if u == (1, 0)]
[((1, 0), 'top', 'b'), ((1, 0), 'right', 'c'), ((1, 0), 'bottom', 'd')]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache, cached_property

from companion.gardlings.catalogue import Catalogue, Tile

Cell = tuple[int, int]
SIDES = ("top", "right", "bottom", "left")
#: the step to the neighbouring cell across each side, and the side it meets there
STEP: tuple[tuple[int, int], ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
ROTATIONS = (0, 90, 180, 270)


def opposite(side: int) -> int:
    return (side + 2) % 4


@cache
def turned(tile: Tile, rotation: int) -> tuple[int, int, tuple[int, ...]]:
    """Width, height and, clockwise from the top-left corner, the index of the original edge
    at each position once ``tile`` is turned ``rotation`` degrees clockwise."""
    width, height = tile.width, tile.height
    order = list(range(2 * (width + height)))
    for _ in range(rotation // 90):
        order = order[-height:] + order[:-height]
        width, height = height, width
    return width, height, tuple(order)


def _positions(width: int, height: int) -> list[tuple[Cell, int]]:
    """The unit and side of each edge position, clockwise from the top-left corner."""
    out: list[tuple[Cell, int]] = [((i, 0), 0) for i in range(width)]
    out += [((width - 1, i), 1) for i in range(height)]
    out += [((width - 1 - i, height - 1), 2) for i in range(width)]
    out += [((0, height - 1 - i), 3) for i in range(height)]
    return out


@cache
def unit_edges(tile: Tile, rotation: int) -> tuple[tuple[Cell, int, int], ...]:
    """Each outer unit edge of the turned tile: (unit offset, side, original edge index)."""
    width, height, order = turned(tile, rotation)
    if not tile.edges:
        return ()
    return tuple((unit, side, order[k])
                 for k, (unit, side) in enumerate(_positions(width, height)))


@cache
def probes(tile: Tile, rotation: int) -> tuple[tuple[int, int, int, str], ...]:
    """For each outer unit edge of the turned tile: the neighbouring cell's offset, the side
    of it that faces the tile, and the tile's half there (what placing checks)."""
    out = []
    for (dx, dy), side, edge in unit_edges(tile, rotation):
        sx, sy = STEP[side]
        out.append((dx + sx, dy + sy, opposite(side), tile.edges[edge]))
    return tuple(out)


@cache
def units(tile: Tile, rotation: int) -> tuple[Cell, ...]:
    """The unit cells of the turned tile, relative to its top-left unit."""
    width, height, _ = turned(tile, rotation)
    return tuple((x, y) for y in range(height) for x in range(width))


@dataclass(frozen=True)
class Placement:
    """One tile in a garden: which, where its top-left unit lies, and its turn."""

    tile: str
    cell: Cell
    rotation: int = 0

    def to_dict(self) -> dict[str, object]:
        return {"tile": self.tile, "cell": list(self.cell), "rotation": self.rotation}


@dataclass(frozen=True)
class Garden:
    """The tiles of one garden in the order they were laid (the first was laid freely)."""

    catalogue: Catalogue
    placements: tuple[Placement, ...] = ()

    def __len__(self) -> int:
        return len(self.placements)

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.placements)

    @cached_property
    def index(self) -> dict[str, int]:
        return {p.tile: i for i, p in enumerate(self.placements)}

    def tile(self, tile_id: str) -> Tile:
        return self.catalogue[tile_id]

    def placement(self, tile_id: str) -> Placement:
        return self.placements[self.index[tile_id]]

    def cells_of(self, placement: Placement) -> list[Cell]:
        """The unit cells ``placement`` covers."""
        x, y = placement.cell
        return [(x + dx, y + dy) for dx, dy in units(self.tile(placement.tile),
                                                     placement.rotation)]

    @cached_property
    def owner(self) -> dict[Cell, int]:
        """Which placement (by index) covers each cell (the later one where two overlap)."""
        out: dict[Cell, int] = {}
        for i, p in enumerate(self.placements):
            for cell in self.cells_of(p):
                out[cell] = i
        return out

    @cached_property
    def halves(self) -> dict[tuple[Cell, int], tuple[int, int]]:
        """Each outer unit edge of every tile: (cell, side) -> (placement index, edge index)."""
        out: dict[tuple[Cell, int], tuple[int, int]] = {}
        for i, p in enumerate(self.placements):
            x, y = p.cell
            for (dx, dy), side, edge in unit_edges(self.tile(p.tile), p.rotation):
                out[((x + dx, y + dy), side)] = (i, edge)
        return out

    @cached_property
    def half_text(self) -> dict[tuple[Cell, int], str]:
        """Each outer unit edge of every tile: (cell, side) -> its half (``blue``, ...)."""
        placements, catalogue = self.placements, self.catalogue
        return {key: catalogue[placements[i].tile].edges[edge]
                for key, (i, edge) in self.halves.items()}

    def half(self, cell: Cell, side: int) -> str | None:
        """The half on ``side`` of the unit at ``cell`` (None: no tile there, or inside one)."""
        found = self.halves.get((cell, side))
        if found is None:
            return None
        i, edge = found
        return self.tile(self.placements[i].tile).edges[edge]

    def joins(self) -> Iterator[tuple[Cell, int, Cell, str, str]]:
        """Every unit edge where two tiles touch, once: (cell, side, neighbour, half, half)."""
        halves, placements, catalogue = self.halves, self.placements, self.catalogue
        for (cell, side), (i, edge) in halves.items():
            if side not in (1, 2):
                continue
            dx, dy = STEP[side]
            other = (cell[0] + dx, cell[1] + dy)
            found = halves.get((other, opposite(side)))
            if found is None or found[0] == i:
                continue
            yield (cell, side, other, catalogue[placements[i].tile].edges[edge],
                   catalogue[placements[found[0]].tile].edges[found[1]])

    def with_tile(self, placement: Placement) -> Garden:
        return replace(self, placements=(*self.placements, placement))

    def without(self, tile_id: str) -> Garden:
        return replace(self, placements=tuple(p for p in self.placements
                                              if p.tile != tile_id))

    def moved(self, placement: Placement) -> Garden:
        """The garden with ``placement.tile`` lying at its new cell and turn (same order)."""
        return replace(self, placements=tuple(placement if p.tile == placement.tile else p
                                              for p in self.placements))

    def turned_whole(self, quarter_turns: int = 1) -> Garden:
        """The whole garden turned clockwise (a property test: no count changes)."""
        placements = list(self.placements)
        for _ in range(quarter_turns % 4):
            out = []
            for p in placements:
                tile = self.tile(p.tile)
                _w, h, _ = turned(tile, p.rotation)
                x, y = p.cell
                # (x, y) -> (-y, x) turns clockwise with y downwards; the new top-left unit
                # is the old bottom-left one
                out.append(Placement(p.tile, (-(y + h - 1), x), (p.rotation + 90) % 360))
            placements = out
        return replace(self, placements=tuple(placements))

    def text(self) -> str:
        """A short one-line form: ``B03@2,1r90 K12@0,0``."""
        return " ".join(f"{p.tile}@{p.cell[0]},{p.cell[1]}r{p.rotation}"
                        for p in self.placements)

    def picture(self) -> str:
        """Rows of the garden, each unit shown by its tile's id (left-justified), ``.`` empty."""
        owner = self.owner
        if not owner:
            return "(empty garden)"
        xs = [c[0] for c in owner]
        ys = [c[1] for c in owner]
        width = max(len(p.tile) for p in self.placements) + 1
        rows = []
        for y in range(min(ys), max(ys) + 1):
            row = "".join((self.placements[owner[(x, y)]].tile if (x, y) in owner else ".")
                          .ljust(width) for x in range(min(xs), max(xs) + 1))
            rows.append(f"{y:>3} {row.rstrip()}")
        header = "    " + "".join(str(x).ljust(width) for x in range(min(xs), max(xs) + 1))
        return "\n".join([header.rstrip(), *rows])


def neighbours(cell: Cell) -> Iterable[Cell]:
    x, y = cell
    return ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))


def pieces(cells: Iterable[Cell]) -> list[set[Cell]]:
    """The cells split into pieces joined side to side (largest first)."""
    left = set(cells)
    out = []
    while left:
        start = left.pop()
        piece, todo = {start}, [start]
        while todo:
            for n in neighbours(todo.pop()):
                if n in left:
                    left.discard(n)
                    piece.add(n)
                    todo.append(n)
        out.append(piece)
    return sorted(out, key=len, reverse=True)


__all__ = ["ROTATIONS", "SIDES", "STEP", "Cell", "Garden", "Placement", "neighbours",
           "opposite", "pieces", "probes", "turned", "unit_edges", "units"]
