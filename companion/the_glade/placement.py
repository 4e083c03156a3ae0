"""Action 1, Place 1-4 tiles: is a placement legal, and what does it create?

:func:`rule_placement` is the arbiter. It lists *every* rule a placement breaks (not just the
first), each with the squares involved and a sentence a player understands, and for a legal
placement the sets of 3, sets of 4 and enclosures it newly creates.

Rules checked (the ``rule`` names of a :class:`Violation`):

``count``     1-4 tiles are placed.
``off-board`` every tile lies on the board.
``occupied``  no tile on a square that already holds a tile (tiles never move).
``counter``   no tile on a square holding a counter ("nothing else can be placed there").
``line``      all the tiles lie in one row or one column.
``gap``       they connect, directly or through tiles already on the board.
``centre``    the first placement on a board covers the centre square.
``set``       every line (maximal row or column run) a placed tile touches is a set.
``rack``      the tiles come from the player's rack (only when a rack is given).
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.the_glade.forest import Axis, Forest, line_name
from companion.the_glade.names import Side, Square, Tile
from companion.the_glade.sets import (
    is_set,
    missing_tile,
    shared_count,
    side_for,
    why_not_a_set,
)


@dataclass(frozen=True)
class Violation:
    """One broken rule: its name, the squares involved and a sentence for players."""

    rule: str
    squares: tuple[Square, ...]
    message: str

    def to_dict(self) -> dict[str, object]:
        return {"rule": self.rule, "squares": [s.name for s in self.squares],
                "message": self.message}


@dataclass(frozen=True)
class SetOf3:
    """A set of 3 just created: its squares, the missing fourth tile, the counter's side."""

    squares: tuple[Square, ...]
    missing: Tile
    side: Side
    shared: int

    def to_dict(self) -> dict[str, object]:
        return {"squares": [s.name for s in self.squares], "missing": str(self.missing),
                "side": self.side, "shared": self.shared}


@dataclass(frozen=True)
class SetOf4:
    """A set of 4 just created: its squares, how many tiles this placement added to it."""

    squares: tuple[Square, ...]
    added: int
    shared: int
    added_squares: tuple[Square, ...] = ()

    @property
    def side(self) -> Side:
        return "double" if self.shared >= 2 else "single"

    def to_dict(self) -> dict[str, object]:
        return {"squares": [s.name for s in self.squares], "added": self.added,
                "shared": self.shared}


@dataclass(frozen=True)
class PlacementRuling:
    """The arbiter's ruling on one placement."""

    placed: Mapping[Square, Tile]
    violations: tuple[Violation, ...] = ()
    sets_of_3: tuple[SetOf3, ...] = ()
    sets_of_4: tuple[SetOf4, ...] = ()
    enclosures: tuple[Square, ...] = ()
    lines: tuple[tuple[Square, ...], ...] = field(default=(), repr=False)

    @property
    def legal(self) -> bool:
        return not self.violations

    def to_dict(self) -> dict[str, object]:
        """The spec's ``check`` JSON."""
        return {"legal": self.legal,
                "placed": [s.name for s in sorted(self.placed)],
                "tiles": {s.name: str(t) for s, t in sorted(self.placed.items())},
                "violations": [v.to_dict() for v in self.violations],
                "sets_of_3": [s.to_dict() for s in self.sets_of_3],
                "sets_of_4": [s.to_dict() for s in self.sets_of_4],
                "enclosures": [s.name for s in self.enclosures]}


def _names(squares: Iterable[Square]) -> str:
    items = [s.name for s in squares]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def touched_lines(forest: Forest, placed: Mapping[Square, Tile]
                  ) -> list[tuple[Axis, tuple[Square, ...]]]:
    """Every line (row or column run, as after the placement) that a placed tile touches.

    Lines of a single tile are included (a single tile is a set); each line once.
    """
    seen: set[tuple[Square, ...]] = set()
    out: list[tuple[Axis, tuple[Square, ...]]] = []
    for sq in sorted(placed):
        for axis in ("row", "column"):
            run = tuple(forest.run(sq, axis, placed))  # type: ignore[arg-type]
            if len(run) == 1 and axis == "column":
                continue  # a lone tile's row and column are the same line of one
            if run not in seen:
                seen.add(run)
                out.append((axis, run))  # type: ignore[arg-type]
    return out


def _shape_violations(forest: Forest, placed: Mapping[Square, Tile]) -> list[Violation]:
    g = forest.geometry
    out: list[Violation] = []
    squares = sorted(placed)
    if not 1 <= len(squares) <= 4:
        what = "no tile" if not squares else f"{len(squares)} tiles"
        out.append(Violation("count", tuple(squares),
                             f"{what} placed: an action places 1 to 4 tiles"))
    off = [s for s in squares if not g.contains(s)]
    if off:
        out.append(Violation("off-board", tuple(off),
                             f"{_names(off)} {'is' if len(off) == 1 else 'are'} off the "
                             f"{g.rows}x{g.cols} board"))
    taken = [s for s in squares if s in forest.tiles]
    if taken:
        verb = "holds a tile" if len(taken) == 1 else "hold tiles"
        out.append(Violation("occupied", tuple(taken),
                             f"{_names(taken)} already {verb}: tiles already placed never move"))
    with_counter = [s for s in squares if s in forest.counters]
    if with_counter:
        verb = "holds a counter" if len(with_counter) == 1 else "hold counters"
        out.append(Violation("counter", tuple(with_counter),
                             f"{_names(with_counter)} {verb}: once a counter is on a square "
                             "nothing else can be placed there"))
    if len(squares) >= 2:
        rows = {s.row for s in squares}
        cols = {s.col for s in squares}
        if len(rows) > 1 and len(cols) > 1:
            out.append(Violation("line", tuple(squares),
                                 f"{_names(squares)} are not in one row or one column"))
        else:
            axis: Axis = "row" if len(rows) == 1 else "column"
            gaps = []
            a, b = squares[0], squares[-1]
            for i in range(1, (b.col - a.col if axis == "row" else b.row - a.row)):
                sq = Square(a.row, a.col + i) if axis == "row" else Square(a.row + i, a.col)
                if sq not in placed and sq not in forest.tiles:
                    gaps.append(sq)
            if gaps:
                out.append(Violation(
                    "gap", tuple(gaps),
                    f"{_names(squares)} do not connect: {_names(gaps)} in "
                    f"{line_name(axis, a)} {'is' if len(gaps) == 1 else 'are'} empty"))
    if not forest.tiles and g.centre not in placed:
        out.append(Violation("centre", (g.centre,),
                             f"the first tiles placed on a board must cover the centre square "
                             f"{g.centre.name}"))
    return out


def _set_violations(forest: Forest, placed: Mapping[Square, Tile],
                    lines: Sequence[tuple[Axis, tuple[Square, ...]]]) -> list[Violation]:
    out = []
    for axis, run in lines:
        tiles = [placed.get(s) or forest.tiles[s] for s in run]
        if is_set(tiles):
            continue
        mine = [s for s in run if s in placed]
        verb = "makes" if len(mine) == 1 else "make"
        out.append(Violation("set", run,
                             f"{_names(mine)} {verb} {line_name(axis, run[0])} "
                             f"{why_not_a_set(tiles)}"))
    return out


def _rack_violations(placed: Mapping[Square, Tile], rack: Sequence[Tile]) -> list[Violation]:
    need = Tally(placed.values())
    have = Tally(rack)
    out = []
    for tile, n in sorted(need.items()):
        if have[tile] < n:
            squares = tuple(s for s in sorted(placed) if placed[s] == tile)
            held = count_phrase(have[tile])
            out.append(Violation("rack", squares,
                                 f"{_names(squares)}: the rack holds {held} {tile.describe()}"))
    return out


def count_phrase(n: int) -> str:
    return {0: "no", 1: "one", 2: "two"}.get(n, str(n))


def rule_placement(before: Forest, placed: Mapping[Square, Tile] | Forest,
                   rack: Sequence[Tile] | None = None) -> PlacementRuling:
    """Rule on placing ``placed`` on the forest ``before``.

    ``placed`` is the tiles put down, or the whole forest after the action (then the new
    tiles are found with :func:`placed_between`, which refuses moved or removed tiles).
    Every broken rule is listed; sets and enclosures are filled in for a legal placement.

    >>> from companion.the_glade.forest import Forest
    >>> f = Forest.from_names({"D4": "hedgehog/acorn/beech"})
    >>> r = rule_placement(f, {Square.parse("D5"): Tile.parse("toad/mushroom/oak")})
    >>> r.legal, r.violations[0].message
    (False, 'D5 makes column D two tiles that share no characteristic (a set needs at least one)')
    """
    if isinstance(placed, Forest):
        placed = placed_between(before, placed)
    violations = _shape_violations(before, placed)
    if rack is not None:
        violations += _rack_violations(placed, rack)
    on_board = {s: t for s, t in placed.items()
                if before.geometry.contains(s) and s not in before.tiles}
    lines = touched_lines(before, on_board)
    violations += _set_violations(before, on_board, lines)
    if violations:
        return PlacementRuling(dict(placed), tuple(violations))
    return consequences(before, placed, lines)


def consequences(before: Forest, placed: Mapping[Square, Tile],
                 lines: Sequence[tuple[Axis, tuple[Square, ...]]] | None = None
                 ) -> PlacementRuling:
    """What a legal placement creates: sets of 3, sets of 4 (with tiles added), enclosures."""
    if lines is None:
        lines = touched_lines(before, placed)
    threes, fours = [], []
    for _axis, run in lines:
        if len(run) == 3:
            tiles = [placed.get(s) or before.tiles[s] for s in run]
            threes.append(SetOf3(run, missing_tile(tiles), side_for(tiles), shared_count(tiles)))
        elif len(run) == 4:
            tiles = [placed.get(s) or before.tiles[s] for s in run]
            added = tuple(s for s in run if s in placed)
            fours.append(SetOf4(run, len(added), shared_count(tiles), added))
    enclosures = new_enclosures(before, placed)
    return PlacementRuling(dict(placed), (), tuple(threes), tuple(fours), enclosures,
                           tuple(run for _a, run in lines))


def new_enclosures(before: Forest, placed: Mapping[Square, Tile]) -> tuple[Square, ...]:
    """Empty squares that are enclosures after the placement and were not before.

    Such a square is off the edge, empty, has a placed tile beside it and a tile on each of
    its 4 sides.
    """
    g = before.geometry
    tiles, counters = before.tiles, before.counters
    out: set[Square] = set()
    for sq in placed:
        for cand in sq.neighbours():
            if cand in placed or cand in tiles or cand in counters or cand in out:
                continue
            if not (0 < cand.row < g.rows - 1 and 0 < cand.col < g.cols - 1):
                continue
            if all(n in tiles or n in placed for n in cand.neighbours()):
                out.add(cand)
    return tuple(sorted(out))


def placed_between(before: Forest, after: Forest) -> dict[Square, Tile]:
    """The tiles that ``after`` adds to ``before``; refuses tiles that moved or vanished.

    Raises :class:`~companion.errors.StateError` when ``after`` cannot follow ``before`` by
    placing tiles: the boards differ in size, a tile moved or was removed, or counters
    changed (a check rules on one Place-tiles action, before any extra action).
    """
    from companion.errors import StateError

    if before.geometry != after.geometry:
        raise StateError("board: BEFORE and AFTER describe boards of different size or centre")
    for sq, tile in sorted(before.tiles.items()):
        now = after.tiles.get(sq)
        if now is None:
            raise StateError(f"forest.tiles.{sq.name}: the {tile.describe()} of BEFORE is gone in "
                             "AFTER, but tiles already placed never move")
        if now != tile:
            raise StateError(f"forest.tiles.{sq.name}: BEFORE has {tile}, AFTER has {now}; tiles "
                             "already placed never move or change")
    for sq, counter in sorted(before.counters.items()):
        if sq in after.tiles:
            continue  # a tile placed on a counter: the ruling reports it
        if after.counters.get(sq) != counter:
            raise StateError(f"forest.counters.{sq.name}: the counter {counter} of BEFORE is not "
                             "in AFTER, but counters in enclosures never move")
    for sq, counter in sorted(after.counters.items()):
        if sq not in before.counters:
            raise StateError(f"forest.counters.{sq.name}: AFTER has a new counter {counter}; "
                             "check rules on one Place-tiles action, so compare the board "
                             "before any extra action")
    return {sq: t for sq, t in after.tiles.items() if sq not in before.tiles}


__all__ = ["PlacementRuling", "SetOf3", "SetOf4", "Violation", "consequences",
           "new_enclosures", "placed_between", "rule_placement", "touched_lines"]
