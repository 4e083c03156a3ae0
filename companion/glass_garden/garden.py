"""The garden: 3 rows x 9 columns, one card per column, six glass cards around it.

Plants are numbered by their place in the deck (0-7); rows are 0 top, 1 middle, 2 bottom;
glass positions are 0-2 on the left (top to bottom) and 3-5 on the right.

A short text form names each column left to right: ``@`` is the critter, a letter is a plant
(``a`` = first plant of the deck; upper case = succulent side), followed by its row mark
``^`` top, ``-`` middle, ``_`` bottom.

>>> g = Garden.parse("@ a- b- c- d- e- f- g- h-")
>>> g.critter_col, g.rows[0], g.edge_plants()
(0, 1, (0, 7))
>>> g.shift(0, 2).text()
'@ b- c- a- d- e- f- g- h-'
>>> Garden.parse("a^ @ B_ c- d- e- f- g- h-").neighbors(0)
(1,)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from companion.errors import StateError

CRITTER = -1
COLUMNS = 9
TOP, MIDDLE, BOTTOM = 0, 1, 2
ROW_MARKS = "^-_"


@dataclass(frozen=True, slots=True)
class Garden:
    """Where every card lies and which side is up (a value: every change makes a new one)."""

    cols: tuple[int, ...]  # 9 entries: a plant number or CRITTER
    rows: tuple[int, ...]  # 8 entries: the row of each plant
    grown: int = 0  # bit p set: plant p shows its succulent side
    glass: int = 0  # bit g set: glass position g shows its sunlight side
    critter_side: int = 0  # 0: the setup side (right arrow), 1: the other side
    # the hash, worked out once: gardens are looked up in many tables during a search
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(
            (self.cols, self.rows, self.grown, self.glass, self.critter_side)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        """The dataclass's comparison (the fields but the hash, in order), field by field
        instead of on two tuples made for it."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        o: Garden = other  # type: ignore[assignment]
        return (self.cols == o.cols and self.rows == o.rows and self.grown == o.grown
                and self.glass == o.glass and self.critter_side == o.critter_side)

    @staticmethod
    def start(order: tuple[int, ...] | list[int]) -> Garden:
        """The dealt garden: critter in the left column, plants soil-side up in the middle row."""
        return Garden((CRITTER, *order), (MIDDLE,) * 8)

    @property
    def critter_col(self) -> int:
        return self.cols.index(CRITTER)

    def col_of(self, plant: int) -> int:
        return self.cols.index(plant)

    def is_grown(self, plant: int) -> bool:
        return bool(self.grown >> plant & 1)

    def is_sunlit(self, glass: int) -> bool:
        return bool(self.glass >> glass & 1)

    def plant_order(self) -> tuple[int, ...]:
        """The plants left to right, the critter left out."""
        cols = self.cols
        k = cols.index(CRITTER)
        return cols[:k] + cols[k + 1:]

    def edge_plants(self) -> tuple[int, int]:
        order = self.plant_order()
        return order[0], order[-1]

    def neighbors(self, plant: int) -> tuple[int, ...]:
        """Plants in the consecutive columns either side (across the critter), any row."""
        order = self.plant_order()
        i = order.index(plant)
        return tuple(order[j] for j in (i - 1, i + 1) if 0 <= j < len(order))

    def adjacent(self, plant: int) -> tuple[int, ...]:
        """Neighbors in the same row."""
        return tuple(n for n in self.neighbors(plant) if self.rows[n] == self.rows[plant])

    def adjacent_glass(self, plant: int) -> int | None:
        """The glass position an edge plant is adjacent to (its row, its end), else None."""
        left, right = self.edge_plants()
        if plant == left:
            return self.rows[plant]
        if plant == right:
            return 3 + self.rows[plant]
        return None

    def glass_plant(self, glass: int) -> int | None:
        """The edge plant adjacent to a glass position, if one is in that row."""
        left, right = self.edge_plants()
        plant = left if glass < 3 else right
        return plant if self.rows[plant] == glass % 3 else None

    # -- changes --------------------------------------------------------------------------
    def shift(self, plant: int, steps: int) -> Garden:
        """Shift ``plant`` ``steps`` columns (sign = direction); passed plants slide back."""
        c = self.cols.index(plant)
        cols = self.cols
        e = c + steps  # the plants passed slide back one column each
        moved = ((*cols[:c], *cols[c + 1:e + 1], plant, *cols[e + 1:]) if steps > 0
                 else (*cols[:e], plant, *cols[e:c], *cols[c + 1:]))
        return make_garden(moved, self.rows, self.grown, self.glass, self.critter_side)

    def shift_targets(self, plant: int, direction: int, limit: int = 0) -> list[int]:
        """The legal signed step counts for shifting ``plant`` in ``direction`` (+1/-1)."""
        c = self.col_of(plant)
        out = []
        k = 1
        while 0 <= c + k * direction < COLUMNS and self.cols[c + k * direction] != CRITTER:
            if limit and k > limit:
                break
            out.append(k * direction)
            k += 1
        return out

    def move(self, plant: int, dy: int) -> Garden:
        rows = self.rows
        moved = (*rows[:plant], rows[plant] + dy, *rows[plant + 1:])
        return make_garden(self.cols, moved, self.grown, self.glass, self.critter_side)

    def grow(self, plant: int) -> Garden:
        return make_garden(self.cols, self.rows, self.grown | 1 << plant, self.glass,
                           self.critter_side)

    def light(self, glass: int, on: bool = True) -> Garden:
        mask = self.glass | 1 << glass if on else self.glass & ~(1 << glass)
        return make_garden(self.cols, self.rows, self.grown, mask, self.critter_side)

    def advance_critter(self) -> Garden:
        c = self.critter_col
        cols = list(self.cols)
        cols[c], cols[c + 1] = cols[c + 1], cols[c]
        return make_garden(tuple(cols), self.rows, self.grown, self.glass,
                           1 - self.critter_side)

    # -- text form ------------------------------------------------------------------------
    def text(self) -> str:
        out = []
        for p in self.cols:
            if p == CRITTER:
                out.append("@")
            else:
                letter = chr(ord("a") + p)
                out.append((letter.upper() if self.is_grown(p) else letter)
                           + ROW_MARKS[self.rows[p]])
        return " ".join(out)

    @staticmethod
    def parse(text: str, *, glass: int = 0, critter_side: int = 0) -> Garden:
        tokens = text.split()
        if len(tokens) != COLUMNS:
            raise StateError(f"garden: expected {COLUMNS} columns, got {len(tokens)}")
        cols: list[int] = []
        rows = [MIDDLE] * 8
        grown = 0
        for tok in tokens:
            if tok == "@":
                cols.append(CRITTER)
                continue
            if len(tok) != 2 or tok[0].lower() not in "abcdefgh" or tok[1] not in ROW_MARKS:
                raise StateError(f"garden: bad column {tok!r} (e.g. 'a-', 'B^', '@')")
            p = ord(tok[0].lower()) - ord("a")
            cols.append(p)
            rows[p] = ROW_MARKS.index(tok[1])
            if tok[0].isupper():
                grown |= 1 << p
        if sorted(cols) != [CRITTER, *range(8)]:
            raise StateError("garden: needs the critter and each of the 8 plants exactly once")
        return Garden(tuple(cols), tuple(rows), grown, glass, critter_side)

    def picture(self, names: tuple[str, ...] | None = None) -> str:
        """Three text lines, one per row, for people."""
        lines = []
        for r, label in enumerate(("top", "mid", "bot")):
            cells = []
            for p in self.cols:
                if p == CRITTER:
                    cells.append("CRIT" if r == MIDDLE else " .. ")
                elif self.rows[p] == r:
                    name = names[p][:3] if names else chr(ord("a") + p)
                    cells.append((name.upper() if self.is_grown(p) else name.lower()).ljust(4))
                else:
                    cells.append(" .. ")
            gl = "*" if self.is_sunlit(r) else "#"
            gr = "*" if self.is_sunlit(3 + r) else "#"
            lines.append(f"{label} {gl} {' '.join(cells)} {gr}")
        return "\n".join(lines)


def _garden_maker() -> Callable[[tuple[int, ...], tuple[int, ...], int, int, int], Garden]:
    """A maker of gardens equal to ``Garden(cols, rows, grown, glass, critter_side)``, with the
    same hash, that sets the slots directly instead of through the frozen dataclass's
    generic ``__init__`` (``object.__setattr__`` per field, then ``__post_init__``): about a
    third of the time, and a search makes hundreds of thousands of gardens."""
    new = object.__new__
    set_cols, set_rows = Garden.cols.__set__, Garden.rows.__set__  # type: ignore[attr-defined]
    set_grown, set_glass = Garden.grown.__set__, Garden.glass.__set__  # type: ignore[attr-defined]
    set_side, set_hash = (Garden.critter_side.__set__,  # type: ignore[attr-defined]
                          Garden._hash.__set__)  # type: ignore[attr-defined]

    def make_garden(cols: tuple[int, ...], rows: tuple[int, ...], grown: int = 0,
                    glass: int = 0, critter_side: int = 0) -> Garden:
        g = new(Garden)
        set_cols(g, cols)
        set_rows(g, rows)
        set_grown(g, grown)
        set_glass(g, glass)
        set_side(g, critter_side)
        set_hash(g, hash((cols, rows, grown, glass, critter_side)))
        return g

    return make_garden


#: ``Garden(...)`` for the search's hot paths (the same value, made quicker)
make_garden = _garden_maker()
