"""What a scan says to people: a text map of the forest, and the overlay on the photo."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.the_glade.names import (
    CREATURES,
    FRUITS,
    LEAVES,
    BoardGeometry,
    Counter,
    Square,
    Tile,
)
from companion.the_glade.recognition.reader import BoardReading
from companion.the_glade.recognition.store import StoreReading
from companion.vision.overlay import Mark, draw


def tile_code(name: str) -> str:
    """Three letters for a tile: creature (capital), fruit, leaf; ``Hao`` is
    hedgehog/acorn/oak, ``Mhh`` mouse/hazelnut/horse-chestnut.

    >>> tile_code("squirrel/blackberry/beech")
    'Sbb'
    """
    t = Tile.parse(name)
    return t.creature[0].upper() + t.fruit[0] + t.leaf[0]


def counter_code(name: str) -> str:
    """``y1`` for yellow-single, ``b2`` for blue-double."""
    c = Counter.parse(name)
    return c.colour[0] + ("1" if c.side == "single" else "2")


def forest_map(data: dict[str, Any]) -> str:
    """The forest as a grid of short codes: ``.`` empty, ``??`` not sure."""
    geometry = BoardGeometry.from_dict(data["board"])
    tiles, counters = data["forest"]["tiles"], data["forest"]["counters"]
    unsure = set(data.get("uncertain", []))
    head = "    " + " ".join(f"{chr(65 + c):^3}" for c in range(geometry.cols))
    lines = [head]
    for r in range(geometry.rows):
        cells = []
        for c in range(geometry.cols):
            sq = Square(r, c).name
            if sq in tiles:
                cells.append(tile_code(tiles[sq]))
            elif sq in counters:
                cells.append(counter_code(counters[sq]).ljust(3))
            elif sq in unsure:
                cells.append("?? ")
            else:
                cells.append(" . ")
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    return "\n".join(lines)


def _spelled(words: tuple[str, ...], capital: bool = False) -> str:
    """``a(corn) b(lackberry)``: each word with its code letter shown."""
    return " ".join(f"{w[0].upper() if capital else w[0]}({w[1:]})" for w in words)


def legend(data: dict[str, Any]) -> list[str]:
    """The key to :func:`forest_map`'s codes for this scan: how tile codes are made, and every
    counter code in the grid with the counter(s) it stands for (two colours with one initial
    share a code, and the key says so), then ``.`` and ``??`` when they appear."""
    tiles, counters = data["forest"]["tiles"], data["forest"]["counters"]
    lines = []
    if tiles:
        first = tiles[min(tiles, key=lambda sq: (Square.parse(sq).row, Square.parse(sq).col))]
        lines.append(f"Tiles: creature + fruit + leaf, e.g. {tile_code(first)} = {first}:")
        lines.append(f"  creature {_spelled(CREATURES, capital=True)}; fruit {_spelled(FRUITS)};")
        lines.append(f"  leaf {_spelled(LEAVES)}.")
    by_code: dict[str, set[str]] = {}
    for name in counters.values():
        by_code.setdefault(counter_code(name), set()).add(str(Counter.parse(name)))
    if by_code:
        lines.append("Counters: " + ", ".join(
            f"{code} = {' or '.join(sorted(names))}" for code, names in sorted(by_code.items()))
            + ".")
    geometry = BoardGeometry.from_dict(data["board"])
    unsure = set(data.get("uncertain", [])) - set(tiles) - set(counters)  # as forest_map shows
    marks = []
    if len(set(tiles) | set(counters) | unsure) < geometry.rows * geometry.cols:
        marks.append(". = empty")
    if unsure:
        marks.append("?? = not sure")
    if marks:
        lines.append(", ".join(marks) + ".")
    return lines


def describe_scan(data: dict[str, Any]) -> str:
    b = data["board"]
    tiles, counters = data["forest"]["tiles"], data["forest"]["counters"]
    unsure = data.get("uncertain", [])
    text = [f"Forest board {b['rows']}x{b['cols']} (centre {b['centre']}): {len(tiles)} tiles, "
            f"{len(counters)} counters, {len(unsure)} square(s) not sure.", forest_map(data),
            *legend(data)]
    reasons = data.get("reasons", {})
    if unsure:
        text.append("Not sure of: " + ", ".join(
            f"{sq} ({reasons[sq]})" if reasons.get(sq) else sq for sq in unsure)
            + ". Look at those squares, or take the photo again with even light.")
    for item in data.get("contradictions", []):
        text.append(f"Contradiction ({item['rule']}): {item['message']}.")
    if "contradictions" in data and not data["contradictions"]:
        text.append("Consistent with the previous state.")
    return "\n".join(text)


def _code(name: str) -> str:
    """A tile's or a counter's short code, whichever ``name`` is."""
    return tile_code(name) if "/" in name else counter_code(name)


def thing_code(thing: str | dict[str, Any]) -> str:
    """A store thing's short code: a counter's (``r2``), a match counter's icon initials and
    value (``mb1``: mouse on beech, 1 point; ``o4``: the oak leaf counter of 4).

    >>> thing_code({"kind": "creature", "icon": "mouse/beech", "value": 1})
    'mb1'
    """
    if isinstance(thing, dict):
        icon = str(thing.get("icon", "?"))
        return "".join(part[:1] for part in icon.split("/")) + str(thing.get("value", ""))
    return counter_code(thing)


def store_marks(store: StoreReading) -> list[Mark]:
    """Each thing of a store reading as a square a counter wide round it: named with its
    code, or in doubt ("??", over its two candidates when it has them)."""
    half = store.diameter / 2
    marks = []
    for t in store.things:
        x, y = t.at
        corners = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                            [x - half, y + half]], float)
        if t.name is not None:
            label = thing_code(t.match if t.match is not None else t.name)
        elif len(t.candidates) == 2:
            label = f"??\n{thing_code(t.candidates[0])}|{thing_code(t.candidates[1])}"
        else:
            label = "??"
        marks.append(Mark(corners, label, t.name is not None))
    return marks


def draw_overlay(photo: np.ndarray, reading: BoardReading,
                 store: StoreReading | None = None,
                 matches: dict[str, dict[str, Any]] | None = None) -> np.ndarray:
    """The photo with the grid, each square's reading, and unsure squares in red; a
    look-alike doubt names both candidates ("E4 ??" over "Hao|Hbo"). With ``store``, each
    thing in the store beside the board too (:func:`store_marks`), the store's area
    outlined; ``matches``: the match counters read in enclosures (the scan's
    ``forest.match_counters``), each on its square with its code."""
    g = reading.board.grid
    marks = []
    for r in reading.squares:
        sq = Square.parse(r.square)
        x0, y0 = g.left + sq.col * g.cell, g.top + sq.row * g.cell
        corners = np.array([[x0, y0], [x0 + g.cell, y0], [x0 + g.cell, y0 + g.cell],
                            [x0, y0 + g.cell]], float)
        if matches and r.square in matches:
            marks.append(Mark(corners, f"{r.square} {thing_code(matches[r.square])}", True))
            continue
        if r.kind == "tile":
            label = f"{r.square} {tile_code(r.name)}\n{r.confidence:.2f}"
        elif r.kind == "counter":
            label = f"{r.square} {counter_code(r.name)}\n{r.confidence:.2f}"
        elif r.kind == "uncertain" and len(r.candidates) == 2:
            label = f"{r.square} ??\n{_code(r.candidates[0])}|{_code(r.candidates[1])}"
        elif r.kind == "uncertain":
            label = f"{r.square} ??"
        else:
            label = ""
        marks.append(Mark(corners, label, r.kind != "uncertain"))
    outline = np.array([[g.left, g.top], [g.left + g.cols * g.cell, g.top],
                        [g.left + g.cols * g.cell, g.top + g.rows * g.cell],
                        [g.left, g.top + g.rows * g.cell]], float)
    hm = reading.located.homography
    if store is not None and store.in_view:
        x0, y0, x1, y1 = store.box
        area = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)
        photo = draw(photo, hm, store_marks(store), area)
    return draw(photo, hm, marks, outline)
