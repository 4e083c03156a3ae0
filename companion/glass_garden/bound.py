"""A proven upper bound on the final score still reachable, and a guess for ordering the search.

The score is (succulents) + (succulents in the top row). The bound caps both with relaxations
of the game that can only help the player, so it is never below the true best; "optimal" rests
on it, and ``tests/glass_garden/test_gg_bound.py`` checks it against exhaustive search.

* **Growing.** A soil plant can still grow only if its cost can ever be paid (at least 3
  resources of its kind could become active: nutrients always, sprouts only on plants that are
  or may become succulents) or an effect that can still happen grows it without paying.
* **Growing in the sunlight phase** (:func:`_sunlight_relax`). Plants then move only by glass
  bonuses and effects. A least fixed point over the order of growing: a plant can grow only
  if a set of 3 for it needs no more steps (:func:`_set_cost`: row moves plus shifts, as one
  step is one or the other) and no more shifts than the sunlit glass, the pending steps and
  the plants that could grow before it could give (their effects, the glass their growth
  lights); its own effect comes only after it grows. A growth lights only the glass card of
  its row at its end of the garden, so a lighting gives the steps of the richest card the
  growing plant can reach by row and by end, not of the richest card of all. The whole phase
  is one growing step and a resource pays for at most one plant in a step: a kind with fewer
  than 3 unspent resources pays for no plant, and at most (unspent of a kind) // 3 plants grow
  by paying with it, plus one per grow step still possible (:func:`_growths_cap`).
* **Growing late in the dark phase** (the same fixed point, with at most
  :data:`DARK_RELAX_ACTIONS` actions left). Each action left counts as a row move and as a
  shift of any distance; the critter is left out (it will stand elsewhere, and it never
  reorders the plants); damage may do downward moves for free, but no more rows per plant
  than damage patterns still to come and no more in all than those patterns can hit.
* **Rising.** Each succulent scores 2 only in the top row. A plant rises one row per move; the
  moves still to come are at most: the actions left in the dark phase, the upward move steps
  of the effects still to happen, and the glass bonuses' upward steps (each glass use needs a
  sunlit card: those lit now, plus at most one lighting per growth and per flip_glass step).
  So at most as many plants reach the top row as the cheapest rises fit in that budget.
* **Damage and the critter's advance** (:func:`_least_phi`, dark phase). Damage is mandatory
  and the critter's column and face-up side are known for every turn to come, so each damage
  step hits at least a number of plants that depends only on how many can be in the bottom
  row; a dynamic programme over the sum of the rows gives the least it can be at the end,
  which caps the plants in the top row (see the comment above :func:`_hits_floor`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import combinations, product
from operator import itemgetter
from typing import TYPE_CHECKING

from companion.glass_garden.critter import DARK_TURNS
from companion.glass_garden.deck import RESOURCES, SPROUT, Critter, CritterSide, Deck, Step
from companion.glass_garden.fertile_zone import resource_id
from companion.glass_garden.game import ACTIONS, GROW, OVER, SUNLIGHT_TURN
from companion.glass_garden.payable import payable_kinds as quick_payable
from companion.glass_garden.scoring import MAX_SCORE
from companion.glass_garden.sunlight import in_use

if TYPE_CHECKING:
    from companion.glass_garden.game import Pending, State


def _can_rise(step: Step) -> bool:
    return step.kind == "move" and step.direction in ("up", "either")


def _can_fall(step: Step) -> bool:
    return step.kind == "move" and step.direction in ("down", "either")


def _reach(step: Step) -> int:
    return step.distance if step.distance else 8


def _grows(step: Step, target: int, source: int, deck: Deck) -> bool:
    if step.kind != "grow":
        return False
    if step.plant == "self":
        return target == source
    if step.plant in ("any", "neighbor", "adjacent"):
        return True
    return deck.plant_index(step.plant) == target


class _Facts:
    """What the bound needs to know about a deck, worked out once."""

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        plants = deck.plants
        self.ups = [sum(1 for s in p.effect if _can_rise(s)) for p in plants]
        self.flips = [sum(1 for s in p.effect if s.kind == "flip_glass") for p in plants]
        self.movers = [any(s.kind in ("move", "shift", "flip_glass", "grow") for s in p.effect)
                       for p in plants]
        self.glass_ups = [sum(1 for s in g.bonus if _can_rise(s)) for g in deck.glass]
        # the steps that may move a plant down (the others only move up, or shift)
        self.downs = [sum(1 for s in p.effect if _can_fall(s)) for p in plants]
        self.glass_downs = [sum(1 for s in g.bonus if _can_fall(s)) for g in deck.glass]
        self.max_glass_downs = max(self.glass_downs, default=0)
        self.steps = [sum(1 for s in p.effect if s.kind in ("move", "shift")) for p in plants]
        self.max_glass_steps = max((len(g.bonus) for g in deck.glass), default=0)
        self.shift_steps = [sum(1 for s in p.effect if s.kind == "shift") for p in plants]
        self.glass_shifts = [sum(1 for s in g.bonus if s.kind == "shift") for g in deck.glass]
        self.max_glass_shifts = max(self.glass_shifts, default=0)
        # how far one shift step may carry a plant (8: any distance); 0 without shift steps
        self.shift_reach = [max((_reach(s) for s in p.effect if s.kind == "shift"), default=0)
                            for p in plants]
        self.glass_reach = [max((_reach(s) for s in g.bonus if s.kind == "shift"), default=0)
                            for g in deck.glass]
        self.max_glass_reach = max(self.glass_reach, default=0)
        # the plants a grow step of q may reach only through being q's neighbor
        self.near_only = [all(s.plant in ("neighbor", "adjacent") for s in plants[q].effect
                              if s.kind == "grow") for q in range(8)]
        self.max_glass_ups = max(self.glass_ups, default=0)
        # every resource of the deck: its id (as ``fertile_zone.resource_id``), kind and plant
        self.resources = {resource_id(p, half, slot): (kind, p)
                          for p, card in enumerate(plants)
                          for half, icons in ((0, card.upper), (1, card.lower))
                          for slot, kind in enumerate(icons)}
        self.resources_of = {kind: [(rid, p) for rid, (k, p) in self.resources.items()
                                    if k == kind] for kind in RESOURCES}
        self.grow_steps = [sum(1 for s in p.effect if s.kind == "grow") for p in plants]
        # gains[mask]: for a set of glass cards one lighting may light, the most of each part
        # of a bonus any of them gives (shifts, steps, downward moves, upward moves, reach)
        self.gains = [tuple(max((part[i] for i in range(6) if mask >> i & 1), default=0)
                            for part in (self.glass_shifts,
                                         [len(g.bonus) for g in deck.glass],
                                         self.glass_downs, self.glass_ups, self.glass_reach))
                      for mask in range(64)]
        self.shifts = any(s.kind == "shift" for p in plants for s in p.effect) or any(
            s.kind == "shift" for g in deck.glass for s in g.bonus)
        self.free_from = [[q for q in range(8) if q != p and any(
            _grows(s, p, q, deck) for s in plants[q].effect)] for p in range(8)]
        self.protects = [sum(1 for s in p.effect if s.kind == "protect") for p in plants]
        self.critter_flips = [sum(1 for s in p.effect if s.kind == "flip_critter")
                              for p in plants]
        # a glass bonus that grows a plant without paying: any soil plant may then grow
        self.glass_grows = any(s.kind == "grow" for g in deck.glass for s in g.bonus)
        self.growable: dict[int, int] = {}
        self.costs = [p.cost for p in plants]
        # the upward glass steps of the sunlit cards, for every mask of sunlit cards
        self.lit_ups = [sum(n for i, n in enumerate(self.glass_ups) if mask >> i & 1)
                        for mask in range(64)]
        self.lends = {kind: _lends(deck, kind) for kind in RESOURCES}
        # sun_options[kind][zone][plant][row][active]: a lender's options in the sunlight
        # phase (icons, row moves, 0, downward moves) per dirt half, worked out once
        self.sun_options = {kind: [[[[tuple(
            (n, abs(row - need), 0, max(0, need - row))
            for n, need in self.lends[kind][p][zone][active])
            for active in (0, 1)] for row in range(3)] for p in range(8)] for zone in (0, 1)]
            for kind in RESOURCES}

    def may_grow(self, grown: int) -> int:
        """Bit mask of the plants that are, or may still become, succulents."""
        hit = self.growable.get(grown)
        if hit is not None:
            return hit
        plants = self.deck.plants
        may = 0xFF
        while not self.glass_grows:
            counts: dict[str, int] = {}
            for p, card in enumerate(plants):
                for kind in (*card.upper, *card.lower):
                    if kind != SPROUT or may >> p & 1:
                        counts[kind] = counts.get(kind, 0) + 1
            nxt = grown
            for p, card in enumerate(plants):
                if may >> p & 1 and not grown >> p & 1:
                    payable = (max(counts.values(), default=0) >= 3 if card.cost == "any"
                               else counts.get(card.cost, 0) >= 3)
                    free = any(may >> q & 1 and not grown >> q & 1 for q in self.free_from[p])
                    if payable or free:
                        nxt |= 1 << p
            if nxt == may:
                break
            may = nxt
        self.growable[grown] = may
        return may


_FACTS: dict[int, _Facts] = {}
#: With at most this many dark-phase actions left (turn 9), the growing relaxation of the
#: sunlight phase is used in the dark phase too (:func:`_sunlight_relax` with ``dark``); with
#: more (turn 8 on 4) it ruled out almost no plant in the search and cost more than it saved.
DARK_RELAX_ACTIONS = 2


#: Whether a lighting counts only the glass cards its plant can light, by its row and its end
#: of the garden (:func:`_sunlight_relax`); without it, every lighting counts the richest card.
GLASS_BY_PLACE = True


def _facts(deck: Deck) -> _Facts:
    f = _FACTS.get(id(deck))
    if f is None or f.deck is not deck:
        f = _FACTS[id(deck)] = _Facts(deck)
    return f


def _set_cost(deck: Deck, state: State, kind: str, may: int, shifts: int, reach: int = 8,
              dark: bool = False, downs: int = 99) -> int:
    """The fewest steps (row moves and shifts) that put 3 ``kind`` resources in one zone,
    counting sprouts of plants in ``may``, when at most ``shifts`` shifts, each carrying a
    plant at most ``reach`` columns (8: any distance), may still happen before the set pays.

    A set's lenders (1-3 plants) must end within 3 consecutive columns not split by the
    critter. A shift takes one plant out of the row of cards and puts it back elsewhere; the
    plants it passes close up by one column. So, for the lenders ``U`` that are never shifted
    (the critter never moves within a turn, and nothing passes it): the critter is not between
    them, and every other plant now between them must be shifted away, except as many as the
    3 columns leave room for; every other lender must be shifted itself; and no two lenders
    may now be more than ``shifts * reach + 2`` columns apart (one shift brings two plants at
    most its reach closer: the plant shifted moves that far, the others one column at most).
    Every way of choosing ``U`` is tried; the set is possible only when one needs no more
    than ``shifts``.
    Directions are ignored (a relaxation).

    Row moves and shifts are added up because one step (an action, an effect's or a glass
    bonus's step) is either one row move of one plant or one shift, never both.

    ``dark``: the set may pay on a later dark turn or after the damage still to come. The
    critter will then stand elsewhere, so it is left out: the plants are placed by their order
    alone (which only shifts change), and it separates nothing. Damage moves plants down for
    free, at most one row of one plant per damage pattern still to come and in all at most as
    many rows as those patterns can hit plants, so only the downward moves beyond those are
    counted.

    ``downs``: at most that many of the row moves may be downward (in the sunlight phase many
    steps only move a plant up: a set that needs a plant lowered more often than the steps
    that can lower one is out of reach). Not used with ``dark``."""
    g = state.garden
    falls, hits = _falls(state) if dark else (0, 0)
    downs = 99 if dark else min(downs, 99)
    key = (id(deck), g.cols, g.rows, kind, may, shifts, min(reach, 8), dark, falls, hits, downs)
    hit = _SET_COSTS.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    if len(_SET_COSTS) > 200_000:
        _SET_COSTS.clear()
    k = g.critter_col
    # how far apart two lenders may be now: each shift brings two plants at most its reach
    # closer (the plant shifted moves that far, every other by one column at most)
    near = shifts * max(min(reach, 8), 1) + 2
    facts = _facts(deck)
    lends = facts.lends[kind]
    cols, rows = g.cols, g.rows
    best = 99
    if not dark:  # the options of each plant in its row, from the table
        for table in facts.sun_options[kind]:
            lenders = tuple((c, opts) for c in range(9) if c != k
                            for opts in (table[cols[c]][rows[cols[c]]][may >> cols[c] & 1],)
                            if opts)
            best = min(best, _zone_cost(lenders, k, near, shifts, 0, downs))
        _SET_COSTS[key] = (deck, best)
        return best
    for zone in (0, 1):
        lenders = []
        for c in range(9):
            p = cols[c]
            if c == k:
                continue
            halves = lends[p][zone][may >> p & 1]
            if halves:
                lenders.append((c - (c > k), tuple(
                    (n, max(rows[p] - need, need - rows[p] - falls, 0),
                     max(0, min(need - rows[p], falls)), 0) for n, need in halves)))
        best = min(best, _zone_cost(tuple(lenders), _NO_CRITTER, near, shifts, hits, downs))
    _SET_COSTS[key] = (deck, best)
    return best


#: (icons, row moves, downward rows damage may do instead, downward row moves among the moves)
Option = tuple[int, int, int, int]


@lru_cache(maxsize=100_000)
def _zone_cost(lenders: tuple[tuple[int, tuple[Option, ...]], ...], critter: int, near: int,
               shifts: int, hits: int, downs: int = 99) -> int:
    """The fewest steps (row moves plus shifts) for a set of 3 in one zone from ``lenders``
    (column, options), with at most ``shifts`` shifts, ``hits`` plant-rows of damage and
    ``downs`` downward row moves (see :func:`_set_cost`); 99 when none."""
    best = 99
    for size in (1, 2, 3):
        for combo in combinations(lenders, size):
            moves = _fewest_moves(tuple(opts for _, opts in combo), hits, downs)
            if moves >= best:
                continue
            needed = _shifts_needed(tuple(c for c, _ in combo), critter, near)
            if needed <= shifts:
                best = min(best, moves + needed)
    return best


def _falls(state: State) -> tuple[int, int]:
    """How far damage may still move plants down in the dark phase: (rows for one plant, rows
    in all). One row of a plant per damage pattern of each damage step still to come (this
    turn's included), and a pattern hits at most ``count`` plants (or columns) per side."""
    critter = state.table.critter
    key = (id(critter), state.turn)
    hit = _FALLS.get(key)
    if hit is not None and hit[0] is critter:
        return hit[1]
    steps = max(0, DARK_TURNS - state.turn + 1)
    sides = critter.sides
    patterns = max(len(side.damage) for side in sides)
    per_step = max(sum(p.count * (2 if p.side == "both" else 1) for p in side.damage)
                   for side in sides)
    falls = steps * patterns, steps * per_step
    _FALLS[key] = (critter, falls)
    return falls


#: :func:`_falls` by critter and turn (the set cost asks for it at every call)
_FALLS: dict[tuple[int, int], tuple[Critter, tuple[int, int]]] = {}


@lru_cache(maxsize=50_000)
def _fewest_moves(options: tuple[tuple[Option, ...], ...], hits: int = 0, downs: int = 99
                  ) -> int:
    """Fewest row moves choosing one option per lender for at least 3 icons, when damage may
    move plants down by ``hits`` rows in all and at most ``downs`` moves may be downward."""
    best = 99
    for pick in product(*options):
        if sum(n for n, _, _, _ in pick) >= 3 and sum(d for _, _, _, d in pick) <= downs:
            free = sum(f for _, _, f, _ in pick)
            best = min(best, sum(m for _, m, _, _ in pick) + max(0, free - hits))
    return best


@lru_cache(maxsize=50_000)
def _shifts_needed(cols: tuple[int, ...], critter: int, near: int) -> int:
    """The fewest shifts that can bring lenders in ``cols`` within 3 consecutive columns (see
    :func:`_set_cost`); 99 when none can."""
    if max(cols) - min(cols) > near:
        return 99  # the shifts cannot bring the two farthest within 3 columns
    best = len(cols)  # every lender shifted
    for r in range(1, len(cols) + 1):
        for kept in combinations(cols, r):
            lo, hi = min(kept), max(kept)
            if lo < critter < hi:
                continue
            moved = [c for c in cols if c not in kept]
            between = sum(1 for c in range(lo + 1, hi) if c != critter and c not in cols)
            best = min(best, len(moved) + max(0, between - (3 - len(cols))))
    return best


_SET_COSTS: dict[tuple[object, ...], tuple[Deck, int]] = {}
_NO_CRITTER = 99  # a critter column that is never between two plants


def _lends(deck: Deck, kind: str) -> list[list[list[tuple[tuple[int, int], ...]]]]:
    """lends[plant][zone][active]: what a plant can lend to a zone, as (icons of ``kind``, the
    row it must be in) per dirt half; ``active``: whether its sprouts count."""
    out = []
    for card in deck.plants:
        per_zone = []
        for zone in (0, 1):
            per_zone.append([tuple(
                (n, zone + 1 if half == 0 else zone)
                for half, icons in ((0, card.upper), (1, card.lower))
                for n in [sum(1 for x in icons if x == kind and (x != SPROUT or active))] if n)
                for active in (False, True)])
        out.append(per_zone)
    return out


#: What a tuple of pending steps gives the bound: (steps, shifts, flip_glass steps, steps that
#: may move down, farthest shift, steps that may move up, grow steps), worked out once per tuple
#: (the few pending tuples of a search come back in thousands of states).
PendingSum = tuple[int, int, int, int, int, int, int]
_PENDING_SUMS: dict[tuple[object, ...], PendingSum] = {}
_NO_PENDING: PendingSum = (0, 0, 0, 0, 0, 0, 0)


def _pending_sum(pending: tuple[Pending, ...]) -> PendingSum:
    """:data:`PendingSum` of ``pending`` (remembered by the tuple: it holds steps, no deck)."""
    if not pending:
        return _NO_PENDING
    hit = _PENDING_SUMS.get(pending)
    if hit is not None:
        return hit
    if len(_PENDING_SUMS) > 50_000:
        _PENDING_SUMS.clear()
    steps = [q.step for q in pending]
    hit = _PENDING_SUMS[pending] = (
        len(steps), sum(s.kind == "shift" for s in steps),
        sum(s.kind == "flip_glass" for s in steps), sum(_can_fall(s) for s in steps),
        max((_reach(s) for s in steps if s.kind == "shift"), default=0),
        sum(_can_rise(s) for s in steps), sum(s.kind == "grow" for s in steps))
    return hit


#: (shifts, lightings, row moves, farthest shift, downward moves, upward glass steps) per
#: :func:`_budget` key: the budget of a set of helpers depends only on the key's few fields
Budget = tuple[int, int, int, int, int, int]
_BUDGETS: dict[tuple[object, ...], Budget] = {}


def _budget(facts: _Facts, ready: int, pend: PendingSum, extra: int, dark: bool,
            helpers: tuple[tuple[int, int, int], ...]) -> Budget:
    """The budget of :func:`_sunlight_relax` when only ``helpers`` may grow: (shifts,
    lightings, row moves, farthest shift, downward moves, upward glass steps of the
    lightings) still possible. ``ready``: the sunlit cards whose bonus may still be used;
    ``pend``: the pending steps' :data:`PendingSum`; ``extra``: the dark-phase actions left;
    ``helpers``: (plant, its row, its place in the plants' order) per helper. Those are all it
    reads, so it is remembered by them.

    Each lighting gives one use of the card it lights, and a growth lights only the card of
    the growing plant's row at its end of the garden: the steps (shifts, moves, ...) the
    lightings may give are, per helper, the most of any card it could light, summed over the
    helpers giving the most, as many as can be at the edges (and per flip_glass step, the
    most of the cards it may flip). A least fixed point: the budget only grows, and a
    lighting counted needs only what the budget already allows.

    A glass card ``p`` may light (:func:`_cards`) is one by growing at an edge or by a
    flip_glass step of its effect ("row": a card of its row, "adjacent": the card next to it
    at an edge, "any"), given the budget: its row when it lights one is within the row moves
    of its row now (at most the downward moves' count of them downward; in the dark phase
    damage may lower it for free), and it is at the left (right) edge only if it is no farther
    from that end of the plants' order than the shifts can carry it (one shift moves a plant
    at most ``reach`` places in the order, any other by one)."""
    key = (facts, ready, pend, extra, dark, GLASS_BY_PLACE, helpers)
    hit = _BUDGETS.get(key)
    if hit is not None:
        return hit
    if len(_BUDGETS) > 100_000:
        _BUDGETS.clear()
    n_pending, pending_shifts, pending_flips, pending_downs, pending_reach = pend[:5]
    lit = [i for i in range(6) if ready >> i & 1]
    plants = [p for p, _, _ in helpers]
    flip_steps = [(h, s.glass) for h in helpers for s in facts.deck.plants[h[0]].effect
                  if s.kind == "flip_glass"]
    base_shifts = (sum(facts.shift_steps[p] for p in plants)
                   + sum(facts.glass_shifts[i] for i in lit) + pending_shifts + extra)
    base_moves = (sum(len(facts.deck.glass[i].bonus) for i in lit) + n_pending
                  + sum(facts.steps[p] for p in plants) + extra)
    base_downs = (sum(facts.glass_downs[i] for i in lit) + pending_downs
                  + sum(facts.downs[p] for p in plants) + extra)
    base_reach = max(pending_reach, max((facts.glass_reach[i] for i in lit), default=0),
                     *(facts.shift_reach[p] for p in plants), 8 if extra else 0)
    shifts, moves, downs, reach = base_shifts, base_moves, base_downs, base_reach
    # the two edge plants are the first and the last of the plants' order
    at_edge = sum(1 for _, _, i in helpers if i in (0, 7))
    while True:
        edge = at_edge if shifts == 0 else min(len(helpers), 2 + 2 * shifts)
        lightings = edge + len(flip_steps) + pending_flips
        grows = [facts.gains[m] for h in helpers
                 if (m := _cards(h, shifts, reach, moves, downs, "edge", dark))]
        flips = [facts.gains[_cards(h, shifts, reach, moves, downs, how, dark)]
                 for h, how in flip_steps]
        flips += [facts.gains[0x3F]] * pending_flips
        # each part (shifts, steps, ...) on its own: the ``edge`` largest among the
        # growths, plus every flip's
        gain = [sum(sorted((x[j] for x in grows), reverse=True)[:edge])
                + sum(x[j] for x in flips) for j in range(4)]
        nxt = (base_shifts + gain[0], base_moves + gain[1], base_downs + gain[2],
               max((base_reach, *(x[4] for x in grows), *(x[4] for x in flips))))
        if nxt == (shifts, moves, downs, reach):
            hit = _BUDGETS[key] = (shifts, lightings, moves, reach, downs, gain[3])
            return hit
        shifts, moves, downs, reach = nxt


def _cards(helper: tuple[int, int, int], shifts: int, reach: int, moves: int, downs: int,
           how: str, dark: bool) -> int:
    """Bit mask of the glass cards the helper (plant, row, place in the order) may light (see
    :func:`_budget`)."""
    if how == "any" or not GLASS_BY_PLACE:
        return 0x3F
    _, r, i = helper
    in_rows = [x for x in range(3) if (x <= r and r - x <= moves)
               or (x > r and (dark or (x - r <= moves and x - r <= downs)))]
    if how == "row":
        return sum(9 << x for x in in_rows)
    far = shifts * max(reach, 1)
    mask = 0
    if i <= far:
        mask |= sum(1 << x for x in in_rows)
    if 7 - i <= far:
        mask |= sum(8 << x for x in in_rows)
    return mask


def _sunlight_relax(state: State, facts: _Facts, may: int, extra: int = 0, dark: bool = False,
                    pend: PendingSum | None = None, ready: int = -1) -> tuple[int, int, int]:
    """In the sunlight phase plants move only by glass bonuses and effects. Returns the plants
    that can still be succulents, the most glass lightings still possible and the most upward
    glass steps those lightings can give.

    This is a least fixed point over the order of growing: a plant's own effect (and the glass
    its growth lights) comes only after it grows, so the first plant to grow can use only the
    sunlit glass and the pending steps, the second also what the first plant's effect and
    growth give, and so on. Round after round, a soil plant that :meth:`_Facts.may_grow`
    allows joins the set when a set of 3 for it needs no more row moves than the plants
    already in the set (and the glass and pending steps) could give, or one of them grows it
    free. The test is monotone in the set, so by induction on the real order of growing every
    plant that really grows is in the result: it over-approximates, and the bound stays valid.

    Lightings: a dark glass card lights when an edge plant grows next to it or by a
    ``flip_glass`` step. Without any shift the two edge plants are fixed, so at most those two
    (if still candidates) light a card by growing; each shift brings at most two new plants to
    the edges (:func:`_budget`).

    Late in the dark phase (``dark``) the same holds with ``extra`` more steps, the actions
    still to take, each counted both as a row move and as a shift of any distance (one action
    is one of them: counting it as both only helps the player), and with the set costs of
    :func:`_set_cost` for the dark phase (the critter left out, damage's falls free).

    ``pend`` and ``ready``: the state's :func:`_pending_sum` and :func:`_ready_glass`, when the
    caller has them.
    """
    deck = state.deck
    g = state.garden
    grown = g.grown
    cand = [p for p in range(8) if may >> p & 1 and not grown >> p & 1]
    if pend is None:
        pend = _pending_sum(state.pending)
    if facts.glass_grows or pend[6]:
        lightings = len(cand) + sum(facts.flips[p] for p in cand) + pend[2]
        return may, lightings, lightings * facts.max_glass_ups
    if ready < 0:
        ready = _ready_glass(state)
    order = g.plant_order()
    rows = g.rows
    # the sunlight phase is one growing step: a resource spent in it pays for no other plant
    spent = bool(state.used) and not dark and USE_SPENT_RESOURCES
    grew: list[int] = []  # the least fixed point, built up from nothing
    helpers: tuple[tuple[int, int, int], ...] = ()
    while True:
        active = grown | sum(1 << p for p in grew)
        shifts, lightings, moves, reach, downs, light_ups = _budget(
            facts, ready, pend, extra, dark, helpers)
        nxt = []
        costs: dict[str, int] = {}  # this round's set cost of each kind
        for p in cand:
            # a grow step of a neighbor reaches only plants that can be next to it: those next
            # to it now, or (with shifts) as near as the shifts can carry them
            span = 2 + shifts * (min(reach, 8) + 1)
            if p in grew or any(q in grew and (not facts.near_only[q] or p in g.neighbors(q)
                                               or abs(g.col_of(p) - g.col_of(q)) <= span)
                                for q in facts.free_from[p]):
                nxt.append(p)
                continue
            cost = facts.costs[p]
            for k in (RESOURCES if cost == "any" else (cost,)):
                if spent and _unspent(state, facts, active, k) < 3:
                    continue  # the phase is one growing step: spent resources pay no more
                c = costs.get(k)
                if c is None:
                    c = costs[k] = _set_cost(deck, state, k, active, shifts, reach, dark, downs)
                if c <= moves:
                    nxt.append(p)
                    break
        if len(nxt) == len(grew):
            return active, lightings, light_ups
        grew = nxt
        helpers = tuple((p, rows[p], order.index(p)) for p in grew)


# -- damage and the critter's advance ---------------------------------------------------
#
# Let phi be the sum of the rows of all 8 plants (0 = all top, 16 = all bottom). Only moves
# change it: an action or effect step moving up lowers it by 1, one moving down raises it by 1,
# and every plant the critter damages raises it by 1 (a shift never changes a row). At the end,
# T plants in the top row leave the others in rows 1-2, so phi_final <= 2 * (8 - T), i.e.
# T <= 8 - ceil(phi_final / 2): a lower bound on phi_final caps the number of top succulents.
#
# Damage is mandatory. At a dark turn's damage, at most phi // 2 plants can be in the bottom
# row (each bottom plant adds 2 to phi), and at most the protect steps still possible protect
# others; every other plant in the damaged area is hit. The area is known from the turn alone:
# the critter is in column turn - 1, so it has turn - 1 plants on its left and 9 - turn on its
# right whatever the shifts did, and its face-up side alternates each turn (a flip_critter
# step still possible may toggle it once per such step). So "N plants" on a side with m plants
# hits at least min(N, m - immune) of them, "N columns" at least min(N, m) - immune.
#
# :func:`_least_phi` is an exact dynamic programme over the relaxed game where, each turn, phi
# may drop by at most the actions of that turn, rise freely, and then grows by at least that
# lower bound of hits. The effect steps that move plants up are kept out of the programme and
# subtracted at the end, with the glass bonuses: spending an upward move later never harms in
# this relaxation (a higher phi never means more hits), so using them last gives the least
# phi_final of all the ways to use them.


@lru_cache(maxsize=20_000)
def _hits_floor(side: CritterSide, col: int, immune: int) -> int:
    """The fewest plants the first damage pattern of ``side`` can hit with the critter in
    column ``col`` when at most ``immune`` plants are in the bottom row or protected."""
    if not side.damage:
        return 0
    pat = side.damage[0]
    if not {0, 1} <= set(pat.rows):
        return 0  # a plant may dodge it by its row alone: no floor
    sizes = []
    for s in (("left", "right") if pat.side == "both" else (pat.side,)):
        m = col if s == "left" else 8 - col
        sizes.append(m if pat.unit == "plants" else min(pat.count, m))

    def hit(m: int, safe: int) -> int:
        return min(pat.count, max(0, m - safe))

    if len(sizes) == 1:
        return hit(sizes[0], immune)
    return min(hit(sizes[0], i) + hit(sizes[1], immune - i) for i in range(immune + 1))


@lru_cache(maxsize=200_000)
def _least_phi(critter: Critter, turn: int, col: int, cap: int, side: int, shield: int,
               phi: int, protects: int, flips: int) -> int:
    """The least phi at the end of the dark phase from the damage step of ``turn`` on, in the
    relaxation described above: before the damage phi may drop by ``cap`` (the actions left
    this turn) or rise freely; ``shield`` plants are protected this turn already;
    ``protects`` and ``flips`` steps may still come (each used on one turn)."""
    best = 16
    for y in range(flips + 1):
        up = side ^ (y & 1)
        for q in range(protects + 1):
            for before in range(max(0, phi - cap), 17):
                after = min(16, before + _hits_floor(critter.sides[up], col,
                                                     before // 2 + shield + q))
                if turn >= DARK_TURNS:
                    value = after
                else:
                    value = _least_phi(critter, turn + 1, min(col + 1, 8), 2, 1 - up, 0,
                                       after, protects - q, flips - y)
                if value < best:
                    best = value
                    if best == 0:
                        return 0
    return best


def _top_cap(state: State, facts: _Facts, soil: list[int], glass_ups: int) -> int:
    """The most plants (of any side) that can end in the top row, by damage counting."""
    g = state.garden
    phi = sum(g.rows)
    effect_ups = sum(facts.ups[p] for p in soil) + sum(1 for q in state.pending
                                                       if _can_rise(q.step))
    if state.turn < SUNLIGHT_TURN and state.phase in (ACTIONS, GROW):
        protects = sum(facts.protects[p] for p in soil) + sum(
            q.step.kind == "protect" for q in state.pending)
        flips = sum(facts.critter_flips[p] for p in soil) + sum(
            q.step.kind == "flip_critter" for q in state.pending)
        cap = state.actions_left if state.phase == ACTIONS else 0
        phi = _least_phi(state.table.critter, state.turn, g.critter_col, cap, g.critter_side,
                         bin(state.protected).count("1"), phi, protects, flips)
    final = max(0, phi - effect_ups - glass_ups)
    return 8 - (final + 1) // 2


def _ready_glass(state: State) -> int:
    """The sunlit cards whose bonus may still be used: a card whose bonus is under way is still
    sunlit (it flips back when the bonus is over, see :mod:`sunlight`), but its steps are
    counted among the pending ones."""
    glass = state.garden.glass
    return glass & ~in_use(state) if state.pending else glass


def growable(state: State) -> int:
    """Bit mask of the plants that are, or may still become, succulents."""
    return _facts(state.deck).may_grow(state.garden.grown)


def upper_bound(state: State) -> int:
    """A score the game can never beat from ``state`` (see the module's reasoning)."""
    if state.phase == OVER:
        return state.score()
    deck = state.deck
    facts = _facts(deck)
    g = state.garden
    grown_now = g.grown
    may = facts.may_grow(grown_now)
    pend = _pending_sum(state.pending)
    if pend[6]:
        may = 0xFF  # a pending step of a grown plant may grow any soil plant free
    sunlight = state.turn >= SUNLIGHT_TURN
    actions = 0 if sunlight else (state.actions_left if state.phase == ACTIONS else 0) + 2 * (
        DARK_TURNS - state.turn)
    ready = _ready_glass(state)
    if sunlight or actions <= DARK_RELAX_ACTIONS:
        may, lightings, light_ups = _sunlight_relax(state, facts, may, actions, not sunlight,
                                                    pend, ready)
        soil = [p for p in range(8) if may >> p & 1 and not grown_now >> p & 1]
    else:
        soil = [p for p in range(8) if may >> p & 1 and not grown_now >> p & 1]
        lightings = len(soil) + sum(facts.flips[p] for p in soil) + pend[2]
        light_ups = lightings * facts.max_glass_ups
    budget = actions
    budget += sum(facts.ups[p] for p in soil)
    budget += pend[5]
    # glass: each use needs a sunlit card: those lit now, plus one per lighting still possible
    glass_ups = facts.lit_ups[ready] + light_ups
    budget += glass_ups
    rows = g.rows
    grown = [p for p in range(8) if may >> p & 1 and grown_now >> p & 1]
    cap = len(soil)
    if sunlight and USE_SPENT_RESOURCES:
        cap = min(cap, _growths_cap(state, facts, may, soil, pend[6]))
    # the most plants in the top row: the cheapest rises, of the succulents now and of at most
    # ``cap`` soil plants (as many as can still grow)
    rises = sorted([(rows[p], 0) for p in grown] + [(rows[p], 1) for p in soil])
    top = from_soil = 0
    for r, is_soil in rises:
        if r > budget:
            break
        if is_soil:
            if from_soil == cap:
                continue
            from_soil += 1
        budget -= r
        top += 1
    if not sunlight:
        top = min(top, _top_cap(state, facts, soil, glass_ups))
    return min(MAX_SCORE, len(grown) + cap + top)


#: Whether the sunlight bound counts the resources left to pay with (:func:`_growths_cap`).
USE_SPENT_RESOURCES = True


def _unspent(state: State, facts: _Facts, may: int, kind: str) -> int:
    """The resources of ``kind`` not spent in this growing step (``state.used``) that are or
    may become active (a sprout only on a plant in ``may``). Remembered: the same few spent
    sets come back across the states of a sunlight search."""
    key = (id(facts), state.used, may if kind == SPROUT else 0, kind)
    hit = _UNSPENT.get(key)
    if hit is not None and hit[0] is facts:
        return hit[1]
    if len(_UNSPENT) > 100_000:
        _UNSPENT.clear()
    n = sum(1 for rid, p in facts.resources_of[kind]
            if rid not in state.used and (kind != SPROUT or may >> p & 1))
    _UNSPENT[key] = (facts, n)
    return n


_UNSPENT: dict[tuple[object, ...], tuple[_Facts, int]] = {}


def _growths_cap(state: State, facts: _Facts, may: int, soil: list[int],
                 pending_grows: int = -1) -> int:
    """The most soil plants that can still grow in the sunlight phase. The whole phase is one
    growing step, and a resource pays for at most one plant in a growing step
    (:mod:`growing`), so each plant grown by paying takes 3 resources of one kind not yet
    spent (``state.used``; a sprout only of a plant that is or may become a succulent): at
    most (unspent of that kind) // 3 plants per kind. A grow step (a pending one, or one of a
    soil plant's effect) grows at most one plant without paying. Not used when a glass bonus
    can grow a plant (each of its uses may grow one free). ``pending_grows``: the pending grow
    steps, when the caller has counted them."""
    if facts.glass_grows:
        return len(soil)
    key = (facts, state.used, may)
    paid = _PAID.get(key)
    if paid is None:
        if len(_PAID) > 100_000:
            _PAID.clear()
        paid = _PAID[key] = sum(_unspent(state, facts, may, kind) // 3 for kind in RESOURCES)
    if pending_grows < 0:
        pending_grows = _pending_sum(state.pending)[6]
    free = sum(facts.grow_steps[p] for p in soil) + pending_grows
    return paid + free


#: :func:`_growths_cap`'s plants paid for, by facts, spent set and plants that may grow
_PAID: dict[tuple[object, ...], int] = {}


#: The weights of :func:`guess`: per soil plant payable now, per plant in the top row, per plant
#: in the bottom row (subtracted), per upward glass step the sunlit cards give.
GUESS_WEIGHTS = (0.6, 0.25, 0.15, 0.35)


def guess(state: State) -> float:
    """A quick estimate of the final score, for ordering moves and the beam (not a bound):
    the score now, plus something for each soil plant payable now, for plants high up, and
    for the rises the sunlit glass cards will give at the end. (Worked out for every outcome
    of every turn the search expands, so it avoids the generic helpers.)"""
    g = state.garden
    kinds = quick_payable(state.deck, g) if g.grown != 0xFF else frozenset()
    if state.turn >= SUNLIGHT_TURN:
        return guess_of(state.deck, g.rows, g.grown, _ready_glass(state), kinds, True)
    return _guesser(state.deck, g.grown, _ready_glass(state))(g.rows, kinds)


def _guesser(deck: Deck, grown: int, ready: int) -> Callable[[tuple[int, ...], frozenset[str]],
                                                              float]:
    """:func:`guesser`, remembered (one per grown set and sunlit cards met lately)."""
    key = (id(deck), grown, ready)
    hit = _GUESSERS.get(key)
    if hit is None or hit[0] is not deck:
        if len(_GUESSERS) > 4096:
            _GUESSERS.clear()
        hit = _GUESSERS[key] = (deck, guesser(deck, grown, ready))
    return hit[1]


_GUESSERS: dict[tuple[int, int, int], tuple[Deck, Callable[[tuple[int, ...], frozenset[str]],
                                                           float]]] = {}


def guess_of(deck: Deck, rows: tuple[int, ...], grown: int, ready: int,
             kinds: frozenset[str], sunlight: bool) -> float:
    """:func:`guess` from the parts of a state it reads: the rows, the grown plants, the sunlit
    cards whose bonus may still be used, the payable kinds (:func:`payable_kinds`) and whether
    it is the sunlight phase (the turn expansion has them at hand, without a state)."""
    low = value = 0
    for p in range(8):
        if grown >> p & 1:
            if rows[p]:
                value += 1
                low += 1
            else:
                value += 2
    facts = _facts(deck)
    w_pay, w_top, w_bottom, w_glass = GUESS_WEIGHTS
    if kinds and grown != 0xFF:
        value += w_pay * sum(1 for p, cost in enumerate(facts.costs)
                             if not grown >> p & 1 and (cost == "any" or cost in kinds))
    glass_ups = facts.lit_ups[ready]
    if sunlight:
        return value + min(low, glass_ups)
    top = rows.count(0)
    return (value + w_top * top - w_bottom * rows.count(2)
            + w_glass * min(glass_ups, 8 - top + 2))


def guesser(deck: Deck, grown: int, ready: int) -> Callable[[tuple[int, ...], frozenset[str]],
                                                             float]:
    """:func:`guess_of` for dark-phase gardens with the grown plants ``grown`` and the sunlit
    cards ``ready``, as a function of the rows and the payable kinds: what does not depend on
    them is worked out once (a turn's expansion ranks hundreds of gardens that differ only in
    their columns and rows). Gives exactly :func:`guess_of`'s value, operation for operation."""
    facts = _facts(deck)
    w_pay, w_top, w_bottom, w_glass = GUESS_WEIGHTS
    mine = [p for p in range(8) if grown >> p & 1]
    base = len(mine)
    glass_ups = facts.lit_ups[ready]
    pays: dict[frozenset[str], float] = {}
    all_grown = grown == 0xFF

    # the rows of the grown plants in one call (the guess is made for every outcome)
    pick = itemgetter(*mine) if len(mine) > 1 else None
    one = mine[0] if len(mine) == 1 else -1

    def of(rows: tuple[int, ...], kinds: frozenset[str]) -> float:
        # plus the grown plants in the top row
        if pick is not None:
            value = base + pick(rows).count(0)
        elif one >= 0:
            value = base + (rows[one] == 0)
        else:
            value = base
        if kinds and not all_grown:
            pay = pays.get(kinds)
            if pay is None:
                pay = pays[kinds] = w_pay * sum(
                    1 for p, cost in enumerate(facts.costs)
                    if not grown >> p & 1 and (cost == "any" or cost in kinds))
            value += pay
        top = rows.count(0)
        return (value + w_top * top - w_bottom * rows.count(2)
                + w_glass * min(glass_ups, 8 - top + 2))

    return of
