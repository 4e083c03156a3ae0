"""A proven upper bound on the final score still reachable, and a guess for ordering the search.

The bound relaxes the game in ways that can only help the player:

* **Growing.** A soil plant can still grow only if its cost can ever be paid (at least 3
  resources of its kind could become active: nutrients always, sprouts only on plants that are
  or may become succulents) or an effect that can still happen grows it without paying.
* **Growing in the sunlight phase.** Plants then move only by glass bonuses and effects, so a
  soil plant can grow only if, per fertile zone, some group of columns not split by the
  critter can hold 3 of its resources after no more row moves than could still happen (glass
  cards lit now, plus one lighting per growth of an edge plant and per flip_glass step; the
  columns are relaxed away when any shift could still happen).
* **Rising.** Each succulent scores 2 only in the top row. A plant rises one row per move; the
  moves still to come are at most: the actions left in the dark phase, the upward move steps
  of the effects still to happen, and the glass bonuses' upward steps (each glass use needs a
  sunlit card: those lit now, plus at most one lighting per growth and per flip_glass step).
  So at most as many plants reach the top row as the cheapest rises fit in that budget.
  Damage and the critter's advance only lower plants or split groups, so leaving them out
  keeps the bound valid (and loose: see the README's benchmark).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.glass_garden.critter import DARK_TURNS
from companion.glass_garden.deck import SPROUT, Deck, Step
from companion.glass_garden.fertile_zone import payments
from companion.glass_garden.game import SUNLIGHT_TURN
from companion.glass_garden.scoring import MAX_SCORE, score

if TYPE_CHECKING:
    from companion.glass_garden.game import State


def _can_rise(step: Step) -> bool:
    return step.kind == "move" and step.direction in ("up", "either")


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
        self.steps = [sum(1 for s in p.effect if s.kind in ("move", "shift")) for p in plants]
        self.max_glass_steps = max((len(g.bonus) for g in deck.glass), default=0)
        self.shift_steps = [sum(1 for s in p.effect if s.kind == "shift") for p in plants]
        self.glass_shifts = [sum(1 for s in g.bonus if s.kind == "shift") for g in deck.glass]
        self.max_glass_shifts = max(self.glass_shifts, default=0)
        self.max_glass_ups = max(self.glass_ups, default=0)
        self.shifts = any(s.kind == "shift" for p in plants for s in p.effect) or any(
            s.kind == "shift" for g in deck.glass for s in g.bonus)
        self.free_from = [[q for q in range(8) if q != p and any(
            _grows(s, p, q, deck) for s in plants[q].effect)] for p in range(8)]
        self.growable: dict[int, int] = {}

    def may_grow(self, grown: int) -> int:
        """Bit mask of the plants that are, or may still become, succulents."""
        hit = self.growable.get(grown)
        if hit is not None:
            return hit
        plants = self.deck.plants
        may = 0xFF
        while True:
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


def _facts(deck: Deck) -> _Facts:
    f = _FACTS.get(id(deck))
    if f is None or f.deck is not deck:
        f = _FACTS[id(deck)] = _Facts(deck)
    return f


def _set_cost(deck: Deck, state: State, kind: str, may: int, columns: list[list[int]]
              ) -> int:
    """The fewest row moves that put 3 ``kind`` resources in one zone within one of
    ``columns`` (each a group of columns), counting sprouts of plants in ``may``."""
    g = state.garden
    best = 99
    for run in columns:
        for zone in (0, 1):
            options: list[list[tuple[int, int]]] = []  # per plant: (icons, moves)
            for c in run:
                p = g.cols[c]
                card = deck.plants[p]
                opts = [(0, 0)]
                for half, icons in ((0, card.upper), (1, card.lower)):
                    n = sum(1 for k in icons if k == kind and (k != SPROUT or may >> p & 1))
                    if n:
                        need = zone + 1 if half == 0 else zone
                        opts.append((n, abs(g.rows[p] - need)))
                options.append(opts)
            best = min(best, _cheapest(options))
    return best


def _cheapest(options: list[list[tuple[int, int]]]) -> int:
    """Fewest moves choosing one option per plant for at least 3 icons."""
    reach = {0: 0}  # icons (capped at 3) -> moves
    for opts in options:
        nxt: dict[int, int] = {}
        for have, cost in reach.items():
            for n, moves in opts:
                k = min(3, have + n)
                if cost + moves < nxt.get(k, 99):
                    nxt[k] = cost + moves
        reach = nxt
    return reach.get(3, 99)


def _sunlight_growable(state: State, facts: _Facts, may: int) -> int:
    """In the sunlight phase, plants move only by glass bonuses and effects: a soil plant can
    grow only if a set for it needs no more row moves than could still happen."""
    deck = state.deck
    g = state.garden
    soil = [p for p in range(8) if may >> p & 1 and not g.grown >> p & 1]
    if not soil:
        return may
    lit = [i for i in range(6) if g.glass >> i & 1]
    shifts = sum(facts.shift_steps[p] for p in soil) + sum(
        facts.glass_shifts[i] for i in lit) + sum(q.step.kind == "shift" for q in state.pending)
    # a glass card lights only when an edge plant grows (or by flip_glass); the two edge
    # plants change only by shifting, each shift bringing at most two new plants to the edges
    flips = sum(facts.flips[p] for p in soil)
    lightings = min(len(soil), 2 + 2 * shifts) + flips
    shifts += lightings * facts.max_glass_shifts
    lightings = min(len(soil), 2 + 2 * shifts) + flips
    moves = sum(len(deck.glass[i].bonus) for i in lit) + len(state.pending)
    moves += sum(facts.steps[p] for p in soil) + lightings * facts.max_glass_steps
    shifting = shifts > 0
    if shifting:
        columns = [[c for c in range(9) if g.cols[c] >= 0]]  # columns relaxed away
    else:
        from companion.glass_garden.fertile_zone import runs

        columns = [list(r) for r in runs(g)]
    out = g.grown
    free = [p for p in soil if any(may >> q & 1 and not g.grown >> q & 1
                                   for q in facts.free_from[p])]
    for p in soil:
        cost = deck.plants[p].cost
        kinds = ("box", "cloud", "lightning", "droplet", SPROUT) if cost == "any" else (cost,)
        if p in free or min(_set_cost(deck, state, k, may, columns) for k in kinds) <= moves:
            out |= 1 << p
    return out


def growable(state: State) -> int:
    """Bit mask of the plants that are, or may still become, succulents."""
    return _facts(state.deck).may_grow(state.garden.grown)


def upper_bound(state: State) -> int:
    """A score the game can never beat from ``state`` (see the module's reasoning)."""
    if state.phase == "over":
        return state.score()
    deck = state.deck
    facts = _facts(deck)
    g = state.garden
    may = facts.may_grow(g.grown)
    sunlight = state.turn >= SUNLIGHT_TURN
    if sunlight:
        may = _sunlight_growable(state, facts, may)
    soil = [p for p in range(8) if may >> p & 1 and not g.grown >> p & 1]
    budget = 0
    if not sunlight:
        left = state.actions_left if state.phase == "actions" else 0
        budget += left + 2 * (DARK_TURNS - state.turn)
    budget += sum(facts.ups[p] for p in soil)
    budget += sum(1 for q in state.pending if _can_rise(q.step))
    # glass: each use needs a sunlit card: those lit now, plus one per lighting still possible
    flips = sum(facts.flips[p] for p in soil)
    lightings = len(soil) + flips
    if sunlight:
        shifts = sum(facts.shift_steps[p] for p in soil) + sum(
            facts.glass_shifts[i] for i in range(6) if g.glass >> i & 1) + sum(
            q.step.kind == "shift" for q in state.pending)
        shifts += (min(len(soil), 2 + 2 * shifts) + flips) * facts.max_glass_shifts
        lightings = min(len(soil), 2 + 2 * shifts) + flips
    budget += sum(facts.glass_ups[i] for i in range(6) if g.glass >> i & 1)
    budget += lightings * facts.max_glass_ups
    rows = g.rows
    rises = sorted(rows[p] for p in range(8) if may >> p & 1)
    top = 0
    for r in rises:
        if r > budget:
            break
        budget -= r
        top += 1
    return min(MAX_SCORE, len(rises) + top)


def guess(state: State) -> float:
    """A quick estimate of the final score, for ordering moves and the beam (not a bound):
    the score now, plus something for each soil plant payable now, for plants high up, and
    for the rises the sunlit glass cards will give at the end."""
    g = state.garden
    deck = state.deck
    value = float(score(g))
    soil = [p for p in range(8) if not g.grown >> p & 1]
    if soil:
        table = payments(deck, g)
        for p in soil:
            cost = deck.plants[p].cost
            if (cost == "any" and table) or cost in table:
                value += 0.6
    rows = g.rows
    glass_ups = sum(n for i, n in enumerate(_facts(deck).glass_ups) if g.glass >> i & 1)
    if state.turn >= SUNLIGHT_TURN:
        low = sum(1 for p in range(8) if g.grown >> p & 1 and rows[p] > 0)
        return value + min(low, glass_ups)
    value += 0.25 * sum(1 for p in range(8) if rows[p] == 0)
    value -= 0.15 * sum(1 for p in range(8) if rows[p] == 2)
    value += 0.35 * min(glass_ups, 8 - sum(1 for p in range(8) if rows[p] == 0) + 2)
    return value
