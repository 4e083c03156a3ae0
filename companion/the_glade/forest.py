"""A forest board: which tile and which counter lies on which square.

The model is a frozen value (like a chess position); every change makes a new one. It knows the
board's geometry and answers the questions the rules ask: the line (maximal row or column run)
through a square, the enclosures, and the groups of connected tiles.

A short text form keeps tests to one line per row (FEN-like)::

    . . . . . . .
    . . . Hao . . .

Cells are separated by spaces: ``.`` is empty; a tile is its full name
(``hedgehog/acorn/oak``) or a 3-letter code (creature H/M/S/T, fruit a/b/h/m, leaf
b/c/m/o for beech, horse-chestnut, maple, oak); a counter is ``colour-side``.

>>> f = Forest.from_text('''
...   . . .
...   . Hao .
...   . . .''')
>>> f.geometry.rows, f.tiles[Square.parse("B2")]
(3, Tile('hedgehog/acorn/oak'))
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from companion.errors import StateError
from companion.the_glade.frozen import FrozenMap
from companion.the_glade.names import (
    CREATURES,
    FRUITS,
    LEAVES,
    BoardGeometry,
    Counter,
    Square,
    Tile,
    Token,
)

Axis = Literal["row", "column"]

_CREATURE_CODES = {c[0].upper(): c for c in CREATURES}
_FRUIT_CODES = {"a": "acorn", "b": "blackberry", "h": "hazelnut", "m": "mushroom"}
_LEAF_CODES = {"b": "beech", "c": "horse-chestnut", "m": "maple", "o": "oak"}
assert set(_FRUIT_CODES.values()) == set(FRUITS) and set(_LEAF_CODES.values()) == set(LEAVES)


def tile_code(tile: Tile) -> str:
    """The 3-letter code of a tile: ``Hao`` is a hedgehog with an acorn on an oak leaf."""
    fruit = next(k for k, v in _FRUIT_CODES.items() if v == tile.fruit)
    leaf = next(k for k, v in _LEAF_CODES.items() if v == tile.leaf)
    return tile.creature[0].upper() + fruit + leaf


def parse_tile(text: str) -> Tile:
    """A tile from its full name or its 3-letter code."""
    if len(text) == 3 and "/" not in text:
        try:
            return Tile(_CREATURE_CODES[text[0]], _FRUIT_CODES[text[1]], _LEAF_CODES[text[2]])
        except KeyError:
            raise StateError(f"tile code {text!r} is not creature H/M/S/T, fruit a/b/h/m, "
                             "leaf b/c/m/o") from None
    return Tile.parse(text)


def line_name(axis: Axis, square: Square) -> str:
    """``row 4`` or ``column C``: how players name a line."""
    return f"row {square.row + 1}" if axis == "row" else f"column {square.name[0]}"


@dataclass(frozen=True)
class Forest:
    """One forest board: geometry, tiles and the counters lying in its enclosures."""

    geometry: BoardGeometry = field(default_factory=BoardGeometry)
    tiles: Mapping[Square, Tile] = field(default_factory=dict)
    counters: Mapping[Square, Token] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", FrozenMap(self.tiles))
        object.__setattr__(self, "counters", FrozenMap(self.counters))

    # --- text form ------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, centre: str | None = None) -> Forest:
        """Read the grid text form (rows of space-separated cells)."""
        rows = [line.split() for line in text.strip().splitlines() if line.strip()]
        if not rows or any(len(r) != len(rows[0]) for r in rows):
            raise StateError("a forest grid needs rows of equal length")
        geo = BoardGeometry.from_dict({"rows": len(rows), "cols": len(rows[0]),
                                       "centre": centre})
        tiles: dict[Square, Tile] = {}
        counters: dict[Square, Token] = {}
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell == ".":
                    continue
                if "-" in cell and "/" not in cell:
                    counters[Square(r, c)] = Counter.parse(cell)
                else:
                    tiles[Square(r, c)] = parse_tile(cell)
        return cls(geo, tiles, counters)

    def to_text(self) -> str:
        """The grid text form, one line per row."""
        lines = []
        for r in range(self.geometry.rows):
            cells = []
            for c in range(self.geometry.cols):
                sq = Square(r, c)
                if sq in self.tiles:
                    cells.append(tile_code(self.tiles[sq]))
                elif sq in self.counters and isinstance(self.counters[sq], Counter):
                    cells.append(str(self.counters[sq]))
                elif sq in self.counters:
                    cells.append("m")
                else:
                    cells.append(".")
            lines.append(" ".join(f"{cell:3}" for cell in cells).rstrip())
        return "\n".join(lines)

    @classmethod
    def from_names(cls, tiles: Mapping[str, str], geometry: BoardGeometry | None = None,
                   counters: Mapping[str, str] | None = None) -> Forest:
        """A forest from ``{"D4": "hedgehog/acorn/oak"}`` (handy in tests and the REPL)."""
        geo = geometry or BoardGeometry()
        return cls(geo,
                   {geo.parse_square(k): parse_tile(v) for k, v in tiles.items()},
                   {geo.parse_square(k): Counter.parse(v) for k, v in (counters or {}).items()})

    # --- questions ------------------------------------------------------------------------

    def is_empty_square(self, square: Square) -> bool:
        """On the board, with neither a tile nor a counter."""
        return (self.geometry.contains(square) and square not in self.tiles
                and square not in self.counters)

    def run(self, square: Square, axis: Axis, extra: Mapping[Square, Tile] | None = None
            ) -> list[Square]:
        """The line through ``square``: the maximal run of tiles along ``axis``, in order.

        ``extra`` are tiles being placed now (counted as if already there).
        """
        def has(sq: Square) -> bool:
            return sq in self.tiles or (extra is not None and sq in extra)

        dr, dc = (0, 1) if axis == "row" else (1, 0)
        start = square
        while has(Square(start.row - dr, start.col - dc)):
            start = Square(start.row - dr, start.col - dc)
        out = []
        sq = start
        while has(sq):
            out.append(sq)
            sq = Square(sq.row + dr, sq.col + dc)
        return out

    def is_enclosure(self, square: Square, extra: Iterable[Square] = ()) -> bool:
        """A square all 4 of whose orthogonal neighbours hold a tile (never an edge square).

        Whether the square itself is empty is a separate question (:meth:`empty_enclosures`).
        """
        g = self.geometry
        if not (0 < square.row < g.rows - 1 and 0 < square.col < g.cols - 1):
            return False
        more = set(extra)
        return all(n in self.tiles or n in more for n in square.neighbours())

    def enclosures(self) -> list[Square]:
        """Every enclosure, used or not, in reading order."""
        return [sq for sq in self.geometry.squares() if self.is_enclosure(sq)]

    def empty_enclosures(self) -> list[Square]:
        """Enclosures with neither tile nor counter: where an extra action can start."""
        return [sq for sq in self.enclosures() if self.is_empty_square(sq)]

    def groups(self) -> list[list[Square]]:
        """The groups of orthogonally connected tiles, each in reading order."""
        seen: set[Square] = set()
        out = []
        for sq in sorted(self.tiles):
            if sq in seen:
                continue
            group, todo = [], [sq]
            seen.add(sq)
            while todo:
                cur = todo.pop()
                group.append(cur)
                for n in cur.neighbours():
                    if n in self.tiles and n not in seen:
                        seen.add(n)
                        todo.append(n)
            out.append(sorted(group))
        return out

    def connected_to_centre(self) -> set[Square]:
        """The tiles that connect back to the centre square through orthogonal tiles."""
        centre = self.geometry.centre
        if centre not in self.tiles:
            return set()
        seen, todo = {centre}, [centre]
        while todo:
            cur = todo.pop()
            for n in cur.neighbours():
                if n in self.tiles and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    def unconnected_groups(self) -> list[list[Square]]:
        """Groups that do not reach the centre square: -1 point each at the end."""
        centre = self.geometry.centre
        return [g for g in self.groups() if centre not in g]

    def lines(self) -> Iterator[tuple[Axis, list[Square]]]:
        """Every line of 2 or more tiles on the board, rows first."""
        seen: set[tuple[str, Square]] = set()
        for sq in sorted(self.tiles):
            for axis in ("row", "column"):
                run = self.run(sq, axis)  # type: ignore[arg-type]
                if len(run) >= 2 and (axis, run[0]) not in seen:
                    seen.add((axis, run[0]))
                    yield axis, run  # type: ignore[misc]

    # --- changes --------------------------------------------------------------------------

    def with_tiles(self, placed: Mapping[Square, Tile]) -> Forest:
        return Forest(self.geometry, {**self.tiles, **placed}, self.counters)

    def with_counter(self, square: Square, token: Token) -> Forest:
        return Forest(self.geometry, self.tiles, {**self.counters, square: token})

    def to_dict(self) -> dict[str, object]:
        """The spec's ``forest`` object (toadstool counters only; match counters in
        enclosures are written with the player's ``match_counters``)."""
        return {"tiles": {sq.name: str(t) for sq, t in sorted(self.tiles.items())},
                "counters": {sq.name: str(c) for sq, c in sorted(self.counters.items())
                             if isinstance(c, Counter)}}
