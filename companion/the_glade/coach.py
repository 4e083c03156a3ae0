"""The coach: every legal Place-tiles action from a rack, valued, best first.

Search. Every legal placement fills one *line* completely: the maximal row or column run the
placed tiles end up in (they must connect, directly or through tiles already there). So the
coach walks every interval of 1-4 squares in every row and column that holds no counter and
is bounded by squares without tiles, and assigns rack tiles to its empty squares, pruning as
soon as the line stops being "all same or all different" per characteristic or a tile's
crossing line stops being a set. A single tile is searched in its row only, so each
placement is found exactly once; a rack's two copies of a tile are one choice, so placements
that put the same tiles on the same squares are listed once.

Estimate (``points``) = ``score_now`` + ``potential``:

* ``score_now``: the exact change of the placer's final score if the game ended now:
  counters moved by sets of 3 and 4 (including counters handed back and flips when out of
  toadstools), match counters won, and -1 for each unconnected group added (+1 for each
  joined to the centre).
* ``potential``: +1 per new set of 3 (its counter can later reach a store: claimed by
  another player it still scores, completed by you it moves to your store) and +1 per new
  empty enclosure (an extra action: a store counter worth 2 becomes 3, and one more action).

So a single-side set of 3 is worth 2, a double-side one 3, a lone connected tile 0.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.the_glade.forest import Forest
from companion.the_glade.matching import reward_matches
from companion.the_glade.names import CREATURES, FRUITS, LEAVES, Square, Tile
from companion.the_glade.placement import PlacementRuling, SetOf3, SetOf4, consequences
from companion.the_glade.scoring import token_value
from companion.the_glade.set_rewards import Flip, Move, reward_sets
from companion.the_glade.sets import missing_tile, shared_count, side_for
from companion.the_glade.table import GameState

Traits = tuple[str, str, str]


_INDEX = ({v: i for i, v in enumerate(CREATURES)}, {v: i for i, v in enumerate(FRUITS)},
          {v: i for i, v in enumerate(LEAVES)})


def _bits(traits: Traits) -> tuple[int, int, int]:
    """Each characteristic as one bit of a 4-bit mask (sets of values become OR-ed masks)."""
    return (1 << _INDEX[0][traits[0]], 1 << _INDEX[1][traits[1]], 1 << _INDEX[2][traits[2]])


def _keeps(mask: int, bit: int) -> bool:
    """Adding ``bit`` to a trait of 2+ tiles keeps it all same (one bit) or all different."""
    if mask & (mask - 1) == 0:
        return bit == mask
    return not mask & bit


def _is_set(line: list[Traits]) -> bool:
    """The set rule on trait tuples (mirrors :func:`sets.is_set`)."""
    n = len(line)
    if n == 0 or n > 4:
        return False
    if n == 1:
        return True
    same = 0
    for i in range(3):
        k = len({t[i] for t in line})
        if k == 1:
            same += 1
        elif k != n:
            return False
    return same >= 1 and not (n >= 3 and same == 3)


Cell = tuple[int, int]
Found = tuple[tuple[Cell, ...], tuple[int, ...], tuple[Cell, ...], str]


class Search:
    """One search of a forest for a rack's legal placements, kept for valuing them fast.

    Each find is (empty cells filled, rack kinds put there, the whole line, its axis), with
    cells as ``(row, col)`` pairs.
    """

    def __init__(self, forest: Forest, rack: Sequence[Tile]) -> None:
        self.forest = forest
        geo = forest.geometry
        self.grid: dict[Cell, Traits] = {(sq.row, sq.col): t.traits
                                         for sq, t in forest.tiles.items()}
        self.tile_at: dict[Cell, Tile] = {(sq.row, sq.col): t for sq, t in forest.tiles.items()}
        self.blocked = {(sq.row, sq.col) for sq in forest.counters}
        counts = Tally(rack)
        self.kinds = sorted(counts)
        self.ktraits = [k.traits for k in self.kinds]
        self.kbits = [_bits(t) for t in self.ktraits]
        self.left = [counts[k] for k in self.kinds]
        self.squares = {(sq.row, sq.col): sq for sq in geo.squares()}
        self.runs: dict[tuple[Cell, int], tuple[Cell, ...]] = {}
        self.cross: dict[tuple[Cell, int, int], bool] = {}
        self.found: list[Found] = []
        self._walk()

    def cross_run(self, cell: Cell, dr: int) -> tuple[Cell, ...]:
        """The run through ``cell`` in the crossing direction (down if ``dr``, else across)."""
        key = (cell, dr)
        run = self.runs.get(key)
        if run is None:
            dc = 1 - dr
            grid = self.grid
            r, c = cell
            while (r - dr, c - dc) in grid:
                r, c = r - dr, c - dc
            out = []
            while (r, c) in grid or (r, c) == cell:
                out.append((r, c))
                r, c = r + dr, c + dc
            run = tuple(out)
            self.runs[key] = run
        return run

    def _cross_ok(self, cell: Cell, k: int, dr: int) -> bool:
        key = (cell, k, dr)
        hit = self.cross.get(key)
        if hit is None:
            line = [self.ktraits[k] if q == cell else self.grid[q]
                    for q in self.cross_run(cell, dr)]
            hit = _is_set(line)
            self.cross[key] = hit
        return hit

    def _assign(self, empties: list[Cell], masks: tuple[int, int, int, int],
                chosen: list[int], interval: tuple[Cell, ...], axis: str) -> None:
        """Fill ``empties`` in turn; ``masks`` are the line's trait bit masks and length."""
        m0, m1, m2, n = masks
        if len(chosen) == len(empties):
            same = sum(1 for m in (m0, m1, m2) if m & (m - 1) == 0)
            if n == 1 or (same >= 1 and not (n >= 3 and same == 3)):
                self.found.append((tuple(empties), tuple(chosen), interval, axis))
            return
        cell = empties[len(chosen)]
        dr = 1 if axis == "row" else 0
        for k in range(len(self.kinds)):
            if self.left[k] <= 0:
                continue
            b0, b1, b2 = self.kbits[k]
            if n >= 2 and not (_keeps(m0, b0) and _keeps(m1, b1) and _keeps(m2, b2)):
                continue
            if self._cross_ok(cell, k, dr):
                self.left[k] -= 1
                chosen.append(k)
                self._assign(empties, (m0 | b0, m1 | b1, m2 | b2, n + 1), chosen, interval,
                             axis)
                chosen.pop()
                self.left[k] += 1

    def _walk(self) -> None:
        geo = self.forest.geometry
        grid = self.grid
        centre = (geo.centre.row, geo.centre.col)
        first = not grid
        lines: list[tuple[str, list[Cell]]] = []
        lines += [("row", [(r, c) for c in range(geo.cols)]) for r in range(geo.rows)]
        lines += [("column", [(r, c) for r in range(geo.rows)]) for c in range(geo.cols)]
        for axis, cells in lines:
            n = len(cells)
            for start in range(n):
                if start > 0 and cells[start - 1] in grid:
                    continue
                for end in range(start, min(start + 4, n)):
                    if cells[end] in self.blocked:
                        break
                    if end + 1 < n and cells[end + 1] in grid:
                        continue
                    interval = tuple(cells[start:end + 1])
                    empties = [q for q in interval if q not in grid]
                    if not empties or (axis == "column" and len(empties) == 1):
                        continue
                    if first and centre not in interval:
                        continue
                    masks = [0, 0, 0]
                    for q in interval:
                        if q in grid:
                            for i, b in enumerate(_bits(grid[q])):
                                masks[i] |= b
                    n_fixed = len(interval) - len(empties)
                    if n_fixed >= 2 and not all(m & (m - 1) == 0 or bin(m).count("1") == n_fixed
                                                for m in masks):
                        continue  # the tiles already in this line are no set
                    self._assign(empties, (masks[0], masks[1], masks[2], n_fixed), [],
                                 interval, axis)

    def placed(self, found: Found) -> dict[Square, Tile]:
        empties, chosen, _interval, _axis = found
        return {self.squares[q]: self.kinds[k] for q, k in zip(empties, chosen, strict=True)}

    def ruling(self, found: Found) -> PlacementRuling:
        """The same ruling :func:`placement.consequences` gives, from what the search knows."""
        empties, chosen, interval, axis = found
        new = {q: self.kinds[k] for q, k in zip(empties, chosen, strict=True)}
        sq = self.squares
        seen: set[tuple[Cell, ...]] = set()
        runs: list[tuple[Cell, ...]] = []
        for q in sorted(empties):
            for line_axis in ("row", "column"):
                if line_axis == axis:
                    run = interval
                else:
                    run = self.cross_run(q, 1 if axis == "row" else 0)
                if len(run) == 1 and line_axis == "column":
                    continue
                if run not in seen:
                    seen.add(run)
                    runs.append(run)
        threes, fours = [], []
        for run in runs:
            if len(run) == 3:
                tiles = [new.get(q) or self.tile_at[q] for q in run]
                threes.append(SetOf3(tuple(sq[q] for q in run), missing_tile(tiles),
                                     side_for(tiles), shared_count(tiles)))
            elif len(run) == 4:
                tiles = [new.get(q) or self.tile_at[q] for q in run]
                added = tuple(sq[q] for q in run if q in new)
                fours.append(SetOf4(tuple(sq[q] for q in run), len(added), shared_count(tiles),
                                    added))
        geo = self.forest.geometry
        grid, blocked = self.grid, self.blocked
        out: set[Cell] = set()
        for r, c in empties:
            for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if n in new or n in grid or n in blocked or n in out:
                    continue
                nr, nc = n
                if not (0 < nr < geo.rows - 1 and 0 < nc < geo.cols - 1):
                    continue
                if all(m in grid or m in new for m in ((nr - 1, nc), (nr + 1, nc),
                                                       (nr, nc - 1), (nr, nc + 1))):
                    out.add(n)
        placed = {sq[q]: t for q, t in new.items()}
        return PlacementRuling(placed, (), tuple(threes), tuple(fours),
                               tuple(sq[q] for q in sorted(out)),
                               tuple(tuple(sq[q] for q in run) for run in runs))


def legal_placements(forest: Forest, rack: Sequence[Tile]) -> list[dict[Square, Tile]]:
    """Every legal placement of 1-4 tiles from ``rack`` on ``forest``, each exactly once."""
    search = Search(forest, rack)
    return [search.placed(f) for f in search.found]


@dataclass(frozen=True)
class Advice:
    """One legal placement with what it creates and what it is worth."""

    ruling: PlacementRuling
    score_now: int
    potential: int

    @property
    def points(self) -> int:
        return self.score_now + self.potential

    def to_dict(self) -> dict[str, object]:
        r = self.ruling
        return {"tiles": {s.name: str(t) for s, t in sorted(r.placed.items())},
                "sets_of_3": [s.to_dict() for s in r.sets_of_3],
                "sets_of_4": [s.to_dict() for s in r.sets_of_4],
                "enclosures": [s.name for s in r.enclosures],
                "points": self.points, "score_now": self.score_now,
                "potential": self.potential}


class GroupIndex:
    """The groups of a forest, indexed once, to value many placements' effect on them fast."""

    def __init__(self, forest: Forest) -> None:
        self.forest = forest
        self.group_of: dict[Square, int] = {}
        for i, group in enumerate(forest.groups()):
            for sq in group:
                self.group_of[sq] = i
        self.centre_group = self.group_of.get(forest.geometry.centre, -1)

    def unconnected_change(self, placed: Mapping[Square, Tile]) -> int:
        """How many unconnected groups the placement adds (negative: joins them up).

        A legal placement is one contiguous run (with the tiles between), so it forms one
        group with every group it touches: that group is unconnected unless it holds the
        centre square.
        """
        touched = {self.group_of[n] for sq in placed for n in sq.neighbours()
                   if n in self.group_of}
        linked = self.forest.geometry.centre in placed or self.centre_group in touched
        before = len(touched) - (1 if self.centre_group in touched else 0)
        return (0 if linked else 1) - before


def evaluate(state: GameState, name: str, placed: Mapping[Square, Tile],
             groups: GroupIndex | None = None, ruling: PlacementRuling | None = None) -> Advice:
    """Value one legal placement for player ``name`` (see the module's doc)."""
    player = state.player(name)
    before = player.forest
    if ruling is None:
        ruling = consequences(before, placed)
    groups = groups or GroupIndex(before)
    score = -groups.unconnected_change(placed)
    events: list = []
    if ruling.sets_of_3 or ruling.sets_of_4:
        _state, events = reward_sets(state, name, ruling)
    if state.variant == "matching" and state.icons_for(player):
        from dataclasses import replace
        moved = state.with_player(replace(player, forest=before.with_tiles(placed)))
        _s, matches = reward_matches(moved, name, name, placed)
        events += matches
    for e in events:
        if isinstance(e, Move):
            score += (token_value(state, player, e.token, e.dst)
                      - token_value(state, player, e.token, e.src))
        elif isinstance(e, Flip) and e.colour == player.colour:
            score += 1
    potential = len(ruling.sets_of_3) + len(ruling.enclosures)
    return Advice(ruling, score, potential)


def advise(state: GameState, name: str, rack: Sequence[Tile]) -> list[Advice]:
    """Every legal placement of ``rack`` for ``name``, best first.

    Order: points, then score now, then more tiles placed, then squares in reading order.
    """
    forest = state.player(name).forest
    groups = GroupIndex(forest)
    search = Search(forest, rack)
    advice = []
    for found in search.found:
        ruling = search.ruling(found)
        advice.append(evaluate(state, name, ruling.placed, groups, ruling))
    advice.sort(key=lambda a: (-a.points, -a.score_now, -len(a.ruling.placed),
                               sorted(a.ruling.placed)))
    return advice


__all__ = ["Advice", "GroupIndex", "Search", "advise", "evaluate", "legal_placements"]
