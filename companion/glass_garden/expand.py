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

from companion.glass_garden.actions import MOVES, Done, Move, Shift
from companion.glass_garden.bound import guess_of as guess_sun
from companion.glass_garden.bound import guesser
from companion.glass_garden.critter import DARK_TURNS, arrow, side_up
from companion.glass_garden.deck import DamagePattern
from companion.glass_garden.fertile_zone import _packed
from companion.glass_garden.game import (
    _NOTHING_USED,
    ACTIONS,
    GROW,
    SUNLIGHT,
    SUNLIGHT_TURN,
    State,
    fields_hash,
    make_state,
)
from companion.glass_garden.garden import BOTTOM, COLUMNS, CRITTER, Garden, make_garden
from companion.glass_garden.payable import lent_of, payable_at
from companion.glass_garden.turns import Path, _explore

#: How many states the expansion makes between two calls of ``tick``.
TICK_EVERY = 64

Tick = Callable[[], None]


def _no_tick() -> None:
    return None


Key = tuple[tuple[int, ...], tuple[int, ...]]  # (cols, rows): all the actions step changes
_NONE: frozenset[str] = frozenset()


def _actions_step(state: State, tick: Tick = _no_tick) -> dict[Key, Path]:
    """Every distinct (columns, rows) the rest of the actions step can leave, with the fewest
    actions that reach it, in the order :func:`turns.after_actions` finds them (so the same
    path for each): worked on plain tuples, since the actions step changes nothing else, and
    an action object is made only for a garden not reached before."""
    d = arrow(state.table.critter, state.garden)
    if state.actions_left == 2:
        return _two_actions(state, d, tick)
    g = state.garden
    start: Key = (g.cols, g.rows)
    reached: dict[Key, Path] = {start: ()}
    frontier: list[tuple[Key, Path]] = [(start, ())]
    moved_rows: dict[tuple[int, ...], list[tuple[tuple[int, ...], Move]]] = {}
    # the columns each shift gives, worked out once per columns (a move keeps them)
    shifted: dict[tuple[int, ...], list[tuple[tuple[int, ...], Shift]]] = {}
    for _ in range(state.actions_left):
        nxt: list[tuple[Key, Path]] = []
        for (cols, rows), path in frontier:
            tick()
            # shifts: each plant left to right, 1, 2, ... columns in the arrow's direction
            shifts = shifted.get(cols)
            if shifts is None:
                shifts = shifted[cols] = _shifts(cols, d)
            for moved_cols, shift in shifts:
                key = (moved_cols, rows)
                if key not in reached:
                    reached[key] = after = (*path, shift)
                    nxt.append((key, after))
            # moves: each plant up, then down (the rows they give worked out once per rows)
            moves = moved_rows.get(rows)
            if moves is None:
                moves = moved_rows[rows] = _moves(rows)
            for new_rows, move in moves:
                key = (cols, new_rows)
                if key not in reached:
                    reached[key] = after = (*path, move)
                    nxt.append((key, after))
        frontier = nxt
    return reached


def _moves(rows: tuple[int, ...]) -> list[tuple[tuple[int, ...], Move]]:
    """The rows after each move of the actions step, with the move: each plant up, then down."""
    out = []
    work = list(rows)
    for p, r in enumerate(rows):
        moves = MOVES[p]
        if r > 0:
            work[p] = r - 1
            out.append((tuple(work), moves[-1]))
        if r < 2:
            work[p] = r + 1
            out.append((tuple(work), moves[1]))
        work[p] = r
    return out


def _two_actions(state: State, d: int, tick: Tick) -> dict[Key, Path]:
    """:func:`_actions_step` with both actions of the step left (a turn's start): the same
    keys, paths and order, and ``tick`` called as often, with fewer tests. A shift changes
    only the columns and a move only the rows, so after the first action:

    * a garden one shift reached (columns ``C``, the rows unchanged) is new, and so ``C``
      differs from the start's columns and from every other such garden's; each move from it
      gives rows that differ from the start's: ``(C, rows)`` was reached by nothing before
      (the gardens reached before hold the start's columns, or the start's rows, or the
      columns of another garden one shift reached) and is added without a test;
    * a garden one move reached comes after all those (the first action's shifts are listed
      before its moves), and each shift from it gives ``(C, its rows)`` for a ``C`` of the
      start's shifts: reached already (by the move from the garden of ``C``, or ``C`` is the
      start's columns or another shift's), so its shifts are not listed at all.

    The frontier after the second action is not needed (no action is left)."""
    g = state.garden
    cols0, rows0 = g.cols, g.rows
    reached: dict[Key, Path] = {(cols0, rows0): ()}
    tick()
    shifted: list[tuple[tuple[int, ...], Path]] = []  # the new gardens of one shift
    for moved_cols, shift in _shifts(cols0, d):
        key = (moved_cols, rows0)
        if key not in reached:
            reached[key] = after = (shift,)
            shifted.append((moved_cols, after))
    moves0 = _moves(rows0)
    moved: list[tuple[tuple[int, ...], Path]] = []  # the new gardens of one move
    for new_rows, move in moves0:
        key = (cols0, new_rows)
        if key not in reached:
            reached[key] = after = (move,)
            moved.append((new_rows, after))
    for cols, path in shifted:
        tick()
        first = path[0]
        for moved_cols, shift in _shifts(cols, d):
            key = (moved_cols, rows0)
            if key not in reached:
                reached[key] = (first, shift)
        for new_rows, move in moves0:
            reached[(cols, new_rows)] = (first, move)
    for rows, path in moved:
        tick()
        first = path[0]
        for new_rows, move in _moves(rows):
            key = (cols0, new_rows)
            if key not in reached:
                reached[key] = (first, move)
    return reached


def _shifts(cols: tuple[int, ...], d: int) -> list[tuple[tuple[int, ...], Shift]]:
    """The columns after each shift of the actions step in the arrow's direction ``d``, with
    the shift: each plant left to right, 1, 2, ... columns (the order the engine lists)."""
    out = []
    for c in range(COLUMNS):
        p = cols[c]
        if p == CRITTER:
            continue
        # the plant carried one column further at each step: the plant it passes takes its
        # place (a shift of n columns is n swaps of neighbours)
        work = list(cols)
        shifts = _SHIFTS[p]
        at = c
        e = c + d
        while 0 <= e < COLUMNS and cols[e] != CRITTER:
            work[at] = work[e]
            work[e] = p
            out.append((tuple(work), shifts[e - c]))
            at = e
            e += d
    return out


#: The actions step's shifts, made once (values: equal to any made anew; its moves:
#: actions.MOVES)
_SHIFTS = [{steps: Shift(p, steps) for steps in range(-COLUMNS + 1, COLUMNS) if steps}
           for p in range(8)]


def after_actions(state: State, tick: Tick = _no_tick) -> dict[Garden, Path]:
    """Every distinct garden the rest of the actions step can leave, with the fewest actions
    that reach it (as :func:`turns.after_actions`, calling ``tick`` now and then)."""
    g = state.garden
    return {make_garden(cols, rows, g.grown, g.glass, g.critter_side): path
            for (cols, rows), path in _actions_step(state, tick).items()}


DamagePlan = tuple[tuple[tuple[tuple[int, ...], ...], frozenset[int], int], ...]


def _damage_plan(k: int, patterns: tuple[DamagePattern, ...]) -> DamagePlan:
    """For each damage pattern with the critter in column ``k``: the columns it looks at, in
    order, for each side it hits; the rows in which a plant there is hit; and how many plants
    a side hits at most (the columns of a ``columns`` pattern are cut to its count)."""
    key = (k, patterns)
    hit = _DAMAGE_PLANS.get(key)
    if hit is not None:
        return hit
    plan = []
    for pattern in patterns:
        scans = []
        for side in (("left", "right") if pattern.side == "both" else (pattern.side,)):
            cs = range(k - 1, -1, -1) if side == "left" else range(k + 1, COLUMNS)
            if pattern.start != "closest":
                cs = cs[::-1]
            if pattern.unit == "columns":
                cs = cs[:pattern.count]
            scans.append(tuple(cs))
        limit = pattern.count if pattern.unit == "plants" else COLUMNS
        plan.append((tuple(scans), frozenset(pattern.rows) - {BOTTOM}, limit))
    hit = _DAMAGE_PLANS[key] = tuple(plan)
    return hit


_DAMAGE_PLANS: dict[tuple[int, tuple[DamagePattern, ...]], DamagePlan] = {}


def _damaged_rows(cols: tuple[int, ...], rows: tuple[int, ...], plan: DamagePlan,
                  protected: int = 0) -> tuple[int, ...]:
    """The rows after the damage step (the plants of the bit mask ``protected`` spared, the
    critter in the column of ``plan``, :func:`_damage_plan`): what
    :func:`damage.apply_damage` does, on tuples."""
    out = list(rows)
    for scans, hurts, limit in plan:
        hit = []
        for cs in scans:
            count = 0
            for c in cs:
                p = cols[c]
                if out[p] in hurts and not protected >> p & 1:
                    hit.append(p)
                    count += 1
                    if count == limit:
                        break
        for p in hit:
            out[p] += 1
    return tuple(out)


Damage = Callable[[tuple[int, ...], tuple[int, ...]], tuple[int, ...]]


def _damage_at(k: int, patterns: tuple[DamagePattern, ...]) -> Damage:
    """:func:`_damaged_rows` with nothing protected (a turn's start: every garden of the
    actions step), for the critter in column ``k``, as a function of the columns and rows:
    each pattern's scan written out once (the generic loop over the plan was a tenth of a
    light expansion's time). A scan that stops at its first hit is a chain of tests, one
    hitting every column a chain of independent tests, any other the generic loop. The same
    plants hit, pattern by pattern, in the same order: the same rows."""
    key = (k, patterns)
    hit = _DAMAGES.get(key)
    if hit is not None:
        return hit
    space: dict[str, object] = {}
    lines = ["def damage(cols, rows):\n", "    cur = rows\n"]
    for i, (scans, hurts, limit) in enumerate(_damage_plan(k, patterns)):
        space[f"H{i}"] = hurts
        lines.append("    hit = []\n")
        for j, cs in enumerate(scans):
            if limit == 1:  # the first plant hit ends the scan
                for depth, c in enumerate(cs):
                    pad = "    " * (depth + 1)
                    lines.append(f"{pad}p = cols[{c}]\n{pad}if cur[p] in H{i}:\n"
                                 f"{pad}    hit.append(p)\n")
                    if depth + 1 < len(cs):
                        lines.append(f"{pad}else:\n")
            elif limit >= len(cs):  # every plant it may hurt in these columns
                for c in cs:
                    lines.append(f"    p = cols[{c}]\n    if cur[p] in H{i}:\n"
                                 "        hit.append(p)\n")
            else:
                space[f"S{i}_{j}"] = cs
                lines.append(f"    count = 0\n    for c in S{i}_{j}:\n        p = cols[c]\n"
                             f"        if cur[p] in H{i}:\n            hit.append(p)\n"
                             f"            count += 1\n            if count == {limit}:\n"
                             "                break\n")
        lines.append("    if hit:\n        out = list(cur)\n        for p in hit:\n"
                     "            out[p] += 1\n        cur = tuple(out)\n")
    lines.append("    return cur\n")
    exec("".join(lines), space)  # code made here from the damage plan's numbers alone
    hit = _DAMAGES[key] = space["damage"]  # type: ignore[assignment]
    return hit


_DAMAGES: dict[tuple[int, tuple[DamagePattern, ...]], Damage] = {}


def _end_growing(s: State) -> State:
    """``s.apply_unchecked(Done())`` for a state of a dark turn in its growing step with no
    step pending: damage and the critter's advance (none on the ninth turn, which ends in the
    sunlight phase) on tuples (what ``State._end_growing`` does, without its generic
    helpers)."""
    g = s.garden
    cols = g.cols
    k = cols.index(CRITTER)
    patterns = side_up(s.table.critter, g).damage
    hurt = (_damaged_rows(cols, g.rows, _damage_plan(k, patterns), s.protected) if s.protected
            else _damage_at(k, patterns)(cols, g.rows))
    if s.turn >= DARK_TURNS:
        return make_state(s.table, make_garden(cols, hurt, g.grown, g.glass, g.critter_side),
                          SUNLIGHT_TURN, SUNLIGHT, 2)
    after = (*cols[:k], cols[k + 1], CRITTER, *cols[k + 2:])
    return make_state(s.table, make_garden(after, hurt, g.grown, g.glass, 1 - g.critter_side),
                      s.turn + 1)


def explore(state: State, out: dict[State, Path], path: Path, seen: set[State],
            tick: Tick = _no_tick) -> None:
    """Every outcome of the rest of the turn from ``state`` (any phase, pending steps, part
    of a growing step done), added to ``out``: :func:`turns._explore`, the same states in the
    same order, with the end of a growing step before the ninth turn worked out on tuples
    (:func:`_end_growing`; a fifth of a full expansion's time in the engine's way)."""
    quick = state.turn <= DARK_TURNS and state.phase in (ACTIONS, GROW)
    _explore(state, out, path, seen, tick, TICK_EVERY, _end_growing if quick else None)


def at_turn_start(state: State) -> bool:
    return state.phase == ACTIONS and not (state.pending or state.used or state.protected)


def outcomes(state: State, tick: Tick = _no_tick, growers: int | None = None,
             guesses: dict[State, float] | None = None,
             sun_guesses: dict[State, float] | None = None) -> dict[State, Path]:
    """Each distinct state at the start of the next turn, with one way to reach it.

    ``growers``: explore the growing step only from that many of the gardens the actions step
    can leave (the best by :func:`bound.guess`); the others go straight on to damage. ``None``
    explores them all: then the outcomes are exactly those of :func:`turns.turn_outcomes`.

    ``guesses``: where to put :func:`bound.guess` of the outcomes that nothing grew in before
    the critter stepped on (most of them), worked out here on tuples (the payable test of the
    next turn's critter column), so the caller need not make it again from each state.

    ``sun_guesses``: the same on the ninth turn (where ``guesses`` gets none): the guess of
    each sunlight-phase outcome that nothing grew in before the critter's damage, in the
    order of the outcomes (:func:`bound.guess_of` of the phase, on tuples: the critter stays
    in its column, so the payable test is this turn's)."""
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
    damage = _damage_at(state.garden.critter_col, side_up(table.critter, state.garden).damage)
    last = turn >= DARK_TURNS
    ranked: list[tuple[float, int, Key, int, Path]] = []
    g0 = state.garden
    grown, glass, side = g0.grown, g0.glass, g0.critter_side
    k = g0.critter_col
    lent = lent_of(_packed(deck), grown)
    guess_of = guesser(deck, grown, glass)  # bound.guess_of with this turn's grown and glass
    payable = payable_at(k)
    # the outcomes reached without growing before the critter's step, by garden: most
    # gardens of the actions step meet another's after the damage, and are skipped before a
    # state is made
    stepped: set[Garden] = set()
    # by rows: what each plant lends (by plant, and 0 for the critter, -1), and the guesses
    # of gardens with those rows by payable kinds (the rows repeat: shifts leave them be)
    by_rows: dict[tuple[int, ...], tuple[tuple[int, ...], dict[frozenset[str], float]]] = {}
    actions_left = state.actions_left
    done = Done()
    next_payable = None if last else payable_at(k + 1)
    all_grown = grown == 0xFF
    next_side = side if last else 1 - side
    # the next state's fields but its garden, and their part of its hash (State.__hash__)
    nxt_turn, nxt_phase = (SUNLIGHT_TURN, SUNLIGHT) if last else (turn + 1, ACTIONS)
    nxt_fields = fields_hash(nxt_turn, nxt_phase, 2, _NOTHING_USED, 0, ())
    # the guesses of the ninth turn's sunlight outcomes by (rows, payable kinds)
    sun_seen: dict[tuple[tuple[int, ...], frozenset[str]], float] = {}

    for count, (key, path) in enumerate(_actions_step(state, tick).items(), 1):
        if count % TICK_EVERY == 0:
            tick()
        cols, rows = key
        left = actions_left - len(path)  # the path's Done, when left, is added when needed
        here = by_rows.get(rows)
        if here is None:
            here = by_rows[rows] = ((*[lent[p][r] for p, r in enumerate(rows)], 0), {})
        kinds = payable(cols, here[0]) if soil else _NONE
        can_grow = bool(kinds) and (anything or not wanted.isdisjoint(kinds))
        if can_grow and growers is None:
            explore(make_state(table, make_garden(cols, rows, grown, glass, side), turn, GROW,
                               left),
                    out, (*path, done) if left else path, seen, tick)
            continue
        # no growing (or, in a light expansion, not growing yet): damage and advance (the
        # critter steps right; on the ninth turn it stays, and the sunlight phase begins)
        hurt = damage(cols, rows)
        after = cols if last else (*cols[:k], cols[k + 1], CRITTER, *cols[k + 2:])
        garden = make_garden(after, hurt, grown, glass, next_side)
        made = len(stepped)
        stepped.add(garden)  # (one hash call where a test and an add took two)
        if len(stepped) == made:  # an outcome already made (this way)
            if can_grow:
                ranked.append((-_guess(here, rows, kinds, guess_of), count, key, left, path))
            continue
        nxt = make_state(table, garden, nxt_turn, nxt_phase, 2, _NOTHING_USED, 0, (),
                         garden._hash ^ nxt_fields)
        made = len(out)
        out.setdefault(nxt, (*path, done, done) if left else (*path, done))
        if len(out) > made and guesses is not None and not last:  # a new outcome
            assert next_payable is not None
            then = by_rows.get(hurt)
            if then is None:
                then = by_rows[hurt] = ((*[lent[p][r] for p, r in enumerate(hurt)], 0), {})
            after_kinds = _NONE if all_grown else next_payable(after, then[0])
            guesses[nxt] = _guess(then, hurt, after_kinds, guess_of)
        elif last and sun_guesses is not None and len(out) > made:  # a new sunlight outcome
            then = by_rows.get(hurt)
            if then is None:
                then = by_rows[hurt] = ((*[lent[p][r] for p, r in enumerate(hurt)], 0), {})
            after_kinds = _NONE if all_grown else payable(cols, then[0])
            sun_key = (hurt, after_kinds)
            value = sun_seen.get(sun_key)
            if value is None:
                value = sun_seen[sun_key] = guess_sun(deck, hurt, grown, glass, after_kinds,
                                                      True)
            sun_guesses[nxt] = value
        if can_grow:  # ranked by the guess of the state about to grow
            ranked.append((-_guess(here, rows, kinds, guess_of), count, key, left, path))
    if growers is not None:
        ranked.sort()
        for _, _, (cols, rows), left, path in ranked[:growers]:
            explore(make_state(table, make_garden(cols, rows, grown, glass, side), turn, GROW,
                               left),
                    out, (*path, done) if left else path, seen, tick)
    return out


def _guess(here: tuple[tuple[int, ...], dict[frozenset[str], float]], rows: tuple[int, ...],
           kinds: frozenset[str], guess_of: Callable[[tuple[int, ...], frozenset[str]], float]
           ) -> float:
    """``guess_of(rows, kinds)``, remembered in ``here`` (the entry of ``rows`` in
    :func:`outcomes`' table by rows): many gardens of a turn differ only in their columns."""
    value = here[1].get(kinds)
    if value is None:
        value = here[1][kinds] = guess_of(rows, kinds)
    return value
