"""The Glade's names: tiles, toadstool counters and squares, exactly as the spec spells them.

A tile is ``creature/fruit/leaf`` (``hedgehog/acorn/oak``); a toadstool counter is
``colour-side`` (``yellow-single``); a square is column letter + row number as the board's owner
sees it (``A1`` top left, ``B1`` right of it, ``A2`` below it). The board's size and centre are
data (:class:`BoardGeometry`), never constants.

>>> Tile.parse("hedgehog/acorn/oak")
Tile('hedgehog/acorn/oak')
>>> Square.parse("C4")
Square('C4')
>>> Square.parse("C4").col, Square.parse("C4").row
(2, 3)
>>> Counter.parse("blue-double")
Counter('blue-double')
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Literal

from companion.errors import StateError

CREATURES: tuple[str, ...] = ("hedgehog", "mouse", "squirrel", "toad")
FRUITS: tuple[str, ...] = ("acorn", "blackberry", "hazelnut", "mushroom")
LEAVES: tuple[str, ...] = ("beech", "horse-chestnut", "maple", "oak")
SEASONS: tuple[str, ...] = ("spring", "summer")
SIDES: tuple[str, ...] = ("single", "double")

#: What a leaf means in colour words, as the rulebook speaks of "dark brown hedgehogs".
LEAF_COLOURS: dict[str, str] = {
    "beech": "light green",
    "horse-chestnut": "dark green",
    "maple": "light brown",
    "oak": "dark brown",
}

Side = Literal["single", "double"]


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One of the 64 tile types: its three characteristics (the season changes no rule)."""

    creature: str
    fruit: str
    leaf: str

    def __post_init__(self) -> None:
        if self.creature not in CREATURES:
            raise StateError(f"unknown creature {self.creature!r} (expected one of "
                             f"{', '.join(CREATURES)})")
        if self.fruit not in FRUITS:
            raise StateError(f"unknown fruit {self.fruit!r} (expected one of {', '.join(FRUITS)})")
        if self.leaf not in LEAVES:
            raise StateError(f"unknown leaf {self.leaf!r} (expected one of {', '.join(LEAVES)})")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read ``creature/fruit/leaf``; a :class:`StateError` names what is wrong."""
        if not isinstance(text, str):
            raise StateError(f"a tile must be written creature/fruit/leaf, not {text!r}")
        parts = text.strip().lower().split("/")
        if len(parts) != 3:
            raise StateError(f"tile {text!r} must be written creature/fruit/leaf, "
                             "e.g. hedgehog/acorn/oak")
        return cls(*parts)

    @property
    def traits(self) -> tuple[str, str, str]:
        """The three characteristics in spec order (creature, fruit, leaf)."""
        return (self.creature, self.fruit, self.leaf)

    def __str__(self) -> str:
        return f"{self.creature}/{self.fruit}/{self.leaf}"

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"

    def describe(self) -> str:
        """The tile as players say it: "dark brown hedgehog with an acorn"."""
        fruit = self.fruit
        article = "an" if fruit[0] in "aeiou" else "a"
        return f"{LEAF_COLOURS[self.leaf]} {self.creature} with {article} {fruit}"


#: All 64 tile types, in a fixed order (creature, then fruit, then leaf).
ALL_TILES: tuple[Tile, ...] = tuple(
    Tile(c, f, leaf) for c, f, leaf in itertools.product(CREATURES, FRUITS, LEAVES)
)

_COUNTER_RE = re.compile(r"^([a-z][a-z0-9]*(?:[ _][a-z0-9]+)*)-(single|double)$")


@dataclass(frozen=True, order=True, slots=True)
class Counter:
    """A toadstool counter: its colour (a free lower-case word) and the side facing up."""

    colour: str
    side: Side

    @classmethod
    def parse(cls, text: str) -> Counter:
        if not isinstance(text, str):
            raise StateError(f"a counter must be written colour-side, not {text!r}")
        m = _COUNTER_RE.match(text.strip().lower())
        if not m:
            raise StateError(f"counter {text!r} must be written colour-side, e.g. yellow-single "
                             "or blue-double")
        return cls(m.group(1), m.group(2))  # type: ignore[arg-type]

    def __str__(self) -> str:
        return f"{self.colour}-{self.side}"

    def __repr__(self) -> str:
        return f"Counter({str(self)!r})"


_SQUARE_RE = re.compile(r"^([A-Z])([1-9][0-9]?)$")


@dataclass(frozen=True, order=True, slots=True)
class Square:
    """A square of a forest board, 0-based ``row`` and ``col`` inside; ``A1`` outside."""

    row: int
    col: int

    @classmethod
    def parse(cls, text: str) -> Square:
        if not isinstance(text, str):
            raise StateError(f"a square must be written like C4, not {text!r}")
        m = _SQUARE_RE.match(text.strip().upper())
        if not m:
            raise StateError(f"square {text!r} must be a column letter and a row number, e.g. C4")
        return cls(int(m.group(2)) - 1, ord(m.group(1)) - ord("A"))

    @property
    def name(self) -> str:
        return f"{chr(ord('A') + self.col)}{self.row + 1}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Square({self.name!r})"

    def neighbours(self) -> tuple[Square, Square, Square, Square]:
        """The four orthogonal neighbours (some may be off the board)."""
        return (Square(self.row - 1, self.col), Square(self.row + 1, self.col),
                Square(self.row, self.col - 1), Square(self.row, self.col + 1))


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """A forest board's size and centre square, as the configuration or the pack gives them."""

    rows: int = 7
    cols: int = 7
    centre: Square = Square(3, 3)

    def __post_init__(self) -> None:
        if not (1 <= self.rows <= 26 and 1 <= self.cols <= 26):
            raise StateError(f"board size {self.rows}x{self.cols} is not possible "
                             "(rows and cols must be 1-26)")
        if not self.contains(self.centre):
            raise StateError(f"centre {self.centre} is off a {self.rows}x{self.cols} board")

    @classmethod
    def from_dict(cls, data: object) -> BoardGeometry:
        """Read ``{"rows": 7, "cols": 7, "centre": "D4"}`` (the spec's ``board`` field)."""
        if not isinstance(data, dict):
            raise StateError("board must be an object like {rows: 7, cols: 7, centre: D4}")
        try:
            rows, cols = data["rows"], data["cols"]
        except KeyError as exc:
            raise StateError(f"board is missing {exc.args[0]!r}") from None
        for key, value in (("rows", rows), ("cols", cols)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise StateError(f"board.{key} must be a whole number, not {value!r}")
        centre = data.get("centre")
        if centre is None:
            if rows % 2 == 0 or cols % 2 == 0:
                raise StateError("board.centre is required when a side has an even length")
            return cls(rows, cols, Square(rows // 2, cols // 2))
        return cls(rows, cols, Square.parse(centre))

    def to_dict(self) -> dict[str, object]:
        return {"rows": self.rows, "cols": self.cols, "centre": self.centre.name}

    def contains(self, square: Square) -> bool:
        return 0 <= square.row < self.rows and 0 <= square.col < self.cols

    def squares(self) -> list[Square]:
        """Every square, row by row from A1."""
        return [Square(r, c) for r in range(self.rows) for c in range(self.cols)]

    def parse_square(self, text: str, field: str = "square") -> Square:
        """Parse a square and refuse one off this board, naming ``field``."""
        square = Square.parse(text)
        if not self.contains(square):
            last = Square(self.rows - 1, self.cols - 1)
            raise StateError(f"{field}: square {square} is off the {self.rows}x{self.cols} board "
                             f"(A1-{last})")
        return square


# --- Matching game pieces (added for the rules engine; the names above are unchanged) ---------

MATCH_KINDS: tuple[str, ...] = ("creature", "fruit", "leaf")


@dataclass(frozen=True, order=True, slots=True)
class Icon:
    """An icon printed on a square of a forest board's matching side.

    Written ``mouse/oak`` (a dark brown mouse: creature + the leaf giving its colour),
    ``acorn/beech`` (a light green acorn) or ``oak`` (a corner leaf).

    >>> Icon.parse("mouse/oak").matches(Tile.parse("mouse/mushroom/oak"))
    True
    >>> Icon.parse("oak").kind, Icon.parse("acorn/beech").kind
    ('leaf', 'fruit')
    """

    kind: str
    value: str
    leaf: str

    @classmethod
    def parse(cls, text: object) -> Icon:
        if not isinstance(text, str):
            raise StateError(f"an icon must be written like mouse/oak, acorn/beech or oak, "
                             f"not {text!r}")
        parts = text.strip().lower().split("/")
        if len(parts) == 1 and parts[0] in LEAVES:
            return cls("leaf", parts[0], parts[0])
        if len(parts) == 2 and parts[1] in LEAVES:
            if parts[0] in CREATURES:
                return cls("creature", parts[0], parts[1])
            if parts[0] in FRUITS:
                return cls("fruit", parts[0], parts[1])
        raise StateError(f"icon {text!r} must be creature/leaf (mouse/oak), fruit/leaf "
                         "(acorn/beech) or a leaf (oak)")

    def matches(self, tile: Tile) -> bool:
        """True when an icon on ``tile`` is this icon (same picture, same colour)."""
        if self.kind == "leaf":
            return tile.leaf == self.leaf
        own = tile.creature if self.kind == "creature" else tile.fruit
        return own == self.value and tile.leaf == self.leaf

    def __str__(self) -> str:
        return self.leaf if self.kind == "leaf" else f"{self.value}/{self.leaf}"

    def __repr__(self) -> str:
        return f"Icon({str(self)!r})"

    def describe(self) -> str:
        if self.kind == "leaf":
            return f"{self.leaf} leaf"
        return f"{LEAF_COLOURS[self.leaf]} {self.value}"


@dataclass(frozen=True, order=True, slots=True)
class MatchCounter:
    """A match counter: ``kind`` (creature, fruit, leaf), its points, and its icon if known.

    Ring (creature and fruit) counters are worth 1; leaf counters 4, 3, 2 or 1.
    """

    kind: str
    value: int
    icon: Icon | None = None

    def __str__(self) -> str:
        icon = f" {self.icon}" if self.icon else ""
        return f"{self.kind}{icon} ({self.value})"

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"kind": self.kind, "value": self.value}
        if self.icon is not None:
            data["icon"] = str(self.icon)
        return data


#: Anything that can lie in a store or an enclosure.
Token = Counter | MatchCounter


def match_counter_set() -> list[tuple[str, str, int]]:
    """The game's 48 match counters as a state file writes them, (kind, icon, value): a
    creature and a fruit counter of each leaf, worth 1, and each leaf's counters of 1-4."""
    out = [("creature", f"{c}/{leaf}", 1) for c in CREATURES for leaf in LEAVES]
    out += [("fruit", f"{f}/{leaf}", 1) for f in FRUITS for leaf in LEAVES]
    out += [("leaf", leaf, v) for leaf in LEAVES for v in (1, 2, 3, 4)]
    return out


def supply_space(label: str) -> tuple[str, str] | None:
    """The seat and the space of a glade supply space's label, as the spec writes it
    (``seat-3:1`` -> ``("3", "1")``; ``seat-3`` -> ``("3", "")``), or None for any other label
    (a centre space): one reading of the label for the scan, the rules and the table."""
    if not label.startswith("seat-"):
        return None
    seat, _, space = label.removeprefix("seat-").partition(":")
    return seat, space
