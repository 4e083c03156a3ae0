"""Turn expansion for the solver: every outcome of a turn, interruptible, and a cheaper partial one.

The rules engine's :func:`turns.turn_outcomes` lists every distinct state at the start of the
next turn. It cannot be stopped part-way, and at turns 1-3 one call can take a few hundred
milliseconds (thousands of growing sequences), which is longer than a 0.2 s answer allows. The
functions here give the same outcomes (``tests/glass_garden/test_gg_search.py`` checks it) and
call ``tick`` every :data:`TICK_EVERY` states, so the search can stop (``tick`` raises) within a
few milliseconds of its deadline.

:func:`light_outcomes` is for finding good plans fast, not for proofs: the actions step is
enumerated in full and every garden goes on to damage without growing, but the growing step is
explored only from the ``growers`` gardens most promising by :func:`bound.guess` (each turn's
growing sequences are most of the cost, and a beam keeps only a few children anyway).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.glass_garden.actions import Done, Move, Shift
from companion.glass_garden.bound import guess_of
from companion.glass_garden.critter import DARK_TURNS, arrow, side_up
from companion.glass_garden.deck import DamagePattern
from companion.glass_garden.fertile_zone import (
    _ADD,
    _KIND_SETS,
    _TOPS,
    _TRIPLES,
    _ZONE,
    _packed,
    runs,
)
from companion.glass_garden.game import ACTIONS, GROW, State
from companion.glass_garden.garden import BOTTOM, COLUMNS, CRITTER, Garden
from companion.glass_garden.turns import Path, _explore

#: How many states the expansion makes between two calls of ``tick``.
TICK_EVERY = 64

Tick = Callable[[], None]


def _no_tick() -> None:
    return None


Key = tuple[tuple[int, ...], tuple[int, ...]]  # (cols, rows): all the actions step changes


def _actions_step(state: State, tick: Tick = _no_tick) -> dict[Key, Path]:
    """Every distinct (columns, rows) the rest of the actions step can leave, with the fewest
    actions that reach it, in the order :func:`turns.after_actions` finds them (so the same
    path for each): worked on plain tuples, since the actions step changes nothing else, and
    an action object is made only for a garden not reached before."""
    d = arrow(state.table.critter, state.garden)
    g = state.garden
    start: Key = (g.cols, g.rows)
    reached: dict[Key, Path] = {start: ()}
    frontier: list[tuple[Key, Path]] = [(start, ())]
    for _ in range(state.actions_left):
        nxt: list[tuple[Key, Path]] = []
        for (cols, rows), path in frontier:
            tick()
            # shifts: each plant left to right, 1, 2, ... columns in the arrow's direction
            for c in range(COLUMNS):
                p = cols[c]
                if p == CRITTER:
                    continue
                e = c + d
                while 0 <= e < COLUMNS and cols[e] != CRITTER:
                    if d > 0:
                        moved_cols = (*cols[:c], *cols[c + 1:e + 1], p, *cols[e + 1:])
                    else:
                        moved_cols = (*cols[:e], p, *cols[e:c], *cols[c + 1:])
                    key = (moved_cols, rows)
                    if key not in reached:
                        reached[key] = after = (*path, Shift(p, e - c))
                        nxt.append((key, after))
                    e += d
            # moves: each plant up, then down
            for p in range(8):
                r = rows[p]
                for dy in (-1, 1):
                    if 0 <= r + dy <= 2:
                        key = (cols, (*rows[:p], r + dy, *rows[p + 1:]))
                        if key not in reached:
                            reached[key] = after = (*path, Move(p, dy))
                            nxt.append((key, after))
        frontier = nxt
    return reached


def after_actions(state: State, tick: Tick = _no_tick) -> dict[Garden, Path]:
    """Every distinct garden the rest of the actions step can leave, with the fewest actions
    that reach it (as :func:`turns.after_actions`, calling ``tick`` now and then)."""
    g = state.garden
    return {Garden(cols, rows, g.grown, g.glass, g.critter_side): path
            for (cols, rows), path in _actions_step(state, tick).items()}


def _damaged_rows(cols: tuple[int, ...], rows: tuple[int, ...], k: int,
                  patterns: tuple[DamagePattern, ...]) -> tuple[int, ...]:
    """The rows after the damage step (nothing protected, the critter in column ``k``): what
    :func:`damage.apply_damage` does, on tuples."""
    out = list(rows)
    for pattern in patterns:
        hit = []
        for side in (("left", "right") if pattern.side == "both" else (pattern.side,)):
            cs = range(k - 1, -1, -1) if side == "left" else range(k + 1, COLUMNS)
            if pattern.start != "closest":
                cs = cs[::-1]
            if pattern.unit == "columns":
                cs = cs[:pattern.count]
            count = 0
            for c in cs:
                p = cols[c]
                row = out[p]
                if row == BOTTOM or row not in pattern.rows:
                    continue
                hit.append(p)
                count += 1
                if pattern.unit == "plants" and count == pattern.count:
                    break
        for p in hit:
            out[p] += 1
    return tuple(out)


def _payable(packed: list[list[list[int]]], triples: list[tuple[int, ...]],
             cols: tuple[int, ...], rows: tuple[int, ...], grown: int) -> frozenset[str]:
    """:func:`fertile_zone.payable_kinds` on tuples (``triples``: the column groups of the
    critter's column, padded with column 9)."""
    lent = [packed[p][rows[p]][grown >> p & 1] if p >= 0 else 0 for p in cols]
    lent.append(0)
    hits = 0
    for a, b, c in triples:
        hits |= lent[a] + lent[b] + lent[c] + _ADD
    return _KIND_SETS[((hits | hits >> _ZONE) & _TOPS) >> 4]


def explore(state: State, out: dict[State, Path], path: Path, seen: set[State],
            tick: Tick = _no_tick) -> None:
    """Every outcome of the rest of the turn from ``state`` (any phase, pending steps, part
    of a growing step done), added to ``out`` (as :func:`turns._explore`)."""
    _explore(state, out, path, seen, tick, TICK_EVERY)


def at_turn_start(state: State) -> bool:
    return state.phase == ACTIONS and not (state.pending or state.used or state.protected)


def outcomes(state: State, tick: Tick = _no_tick, growers: int | None = None
             ) -> dict[State, Path]:
    """Each distinct state at the start of the next turn, with one way to reach it.

    ``growers``: explore the growing step only from that many of the gardens the actions step
    can leave (the best by :func:`bound.guess`); the others go straight on to damage. ``None``
    explores them all: then the outcomes are exactly those of :func:`turns.turn_outcomes`."""
    out: dict[State, Path] = {}
    seen: set[State] = set()
    if not at_turn_start(state):
        explore(state, out, (), seen, tick)
        return out
    table, deck, turn = state.table, state.deck, state.turn
    # what the actions step cannot change, worked out once: the soil plants' costs (nothing
    # grows in it) and the damage of the face-up side (it does not flip the critter)
    soil = [card.cost for p, card in enumerate(deck.plants) if not state.garden.grown >> p & 1]
    anything = "any" in soil
    wanted = frozenset(soil)
    damage = side_up(table.critter, state.garden).damage
    last = turn >= DARK_TURNS
    ranked: list[tuple[float, int, Key, int, Path]] = []
    g0 = state.garden
    grown, glass, side = g0.grown, g0.glass, g0.critter_side
    k = g0.critter_col
    packed = _packed(deck)
    triples = _TRIPLES.get(k)
    if triples is None:  # the groups depend only on the critter's column
        triples = _TRIPLES[k] = [(*run, 9, 9)[:3] for run in runs(g0)]
    engine = last or k + 1 >= COLUMNS  # the end of the dark phase: through the engine
    for count, (key, path) in enumerate(_actions_step(state, tick).items(), 1):
        if count % TICK_EVERY == 0:
            tick()
        cols, rows = key
        left = state.actions_left - len(path)
        if len(path) < state.actions_left:
            path = (*path, Done())
        kinds = _payable(packed, triples, cols, rows, grown) if soil else frozenset()
        can_grow = bool(kinds) and (anything or not wanted.isdisjoint(kinds))
        if can_grow and growers is None:
            explore(State(table, Garden(cols, rows, grown, glass, side), turn, GROW, left),
                    out, path, seen, tick)
            continue
        # no growing (or, in a light expansion, not growing yet): damage and advance
        if engine:
            grow = State(table, Garden(cols, rows, grown, glass, side), turn, GROW, left)
            nxt = grow.apply_unchecked(Done())
        else:  # the critter steps right (it is not in the last column before turn 9)
            after = list(cols)
            after[k], after[k + 1] = after[k + 1], after[k]
            nxt = State(table, Garden(tuple(after), _damaged_rows(cols, rows, k, damage),
                                      grown, glass, 1 - side), turn + 1)
        if nxt not in out:
            out[nxt] = (*path, Done())
        if can_grow:  # ranked by the guess of the state about to grow
            ranked.append((-guess_of(deck, rows, grown, glass, kinds, False), count, key, left,
                           path))
    if growers is not None:
        ranked.sort()
        for _, _, (cols, rows), left, path in ranked[:growers]:
            explore(State(table, Garden(cols, rows, grown, glass, side), turn, GROW, left),
                    out, path, seen, tick)
    return out
