"""Step 2: growing succulents.

A plant grows when a set of 3 identical active resources pays its cost (see
:mod:`fertile_zone`). Then: (1) it flips to its succulent side, (2) if it is an edge plant next
to a dark glass card, that glass flips to sunlight, (3) its effect is performed (mandatory).

Rulings: growing is optional (the step says "grow any number"); a resource pays for at most
one plant in one growing step (the sunlight phase counts as one step), but resources are never
spent, so they pay again on a later turn; a plant may lend its own resources to its own set.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from companion.errors import StateError
from companion.glass_garden.actions import Grow
from companion.glass_garden.deck import RESOURCES
from companion.glass_garden.fertile_zone import (
    _ADD,
    _FIELD,
    _KIND_SETS,
    _TOPS,
    _ZONE,
    _icon_table,
    _packed,
    payments_for,
)
from companion.glass_garden.garden import CRITTER, Garden, make_garden
from companion.glass_garden.payable import Lent, groups_of, lent_of

if TYPE_CHECKING:
    from companion.glass_garden.deck import Deck
    from companion.glass_garden.game import Pending, State


def grow_actions(state: State) -> list[Grow]:
    """Every (plant, set) that could grow now."""
    found = _grow_actions(state.deck, state.garden)
    used = state.used
    if not used or not found:
        return list(found)
    # a set with a spent resource pays no more (the sets of no resource spent, in order)
    return [a for a in found if used.isdisjoint(a.paid)]


def _grow_actions(deck: Deck, garden: Garden) -> tuple[Grow, ...]:
    """:func:`grow_actions` with no resource spent yet: for each soil plant in deck order,
    every set of 3 that pays its cost, in :func:`fertile_zone.payments_for`'s order.

    The sets are :func:`fertile_zone.payments`' (``used`` empty), found on the packed
    counts of :mod:`payable`: a column group's icons are summed per kind and zone in one
    integer, and only the (group, zone, kind) fields holding 3 or more are looked into, and
    only for the kinds a soil plant's cost asks for."""
    lent, ids, soil, costs = _lenders(deck, garden.grown)
    if not soil:
        return ()
    cols, rows = garden.cols, garden.rows
    k = cols.index(CRITTER)
    v = [lent[p][rows[p]] for p in cols]  # lent[CRITTER], the last entry, lends nothing
    full: list[tuple[tuple[int, ...], int]] = []  # (group, fields with 3 or more)
    hits = 0
    for group in groups_of(k):
        a, b, c = group
        tops = (v[a] + v[b] + v[c] + _ADD) & _ALL_TOPS
        if tops:
            full.append((group, tops))
            hits |= tops
    if not hits:
        return ()
    kinds = _KIND_SETS[((hits | hits >> _ZONE) & _TOPS) >> 4]
    wanted = kinds if "any" in costs else kinds & costs
    if not wanted:
        return ()
    sets: dict[str, set[tuple[int, int, int]]] = {}
    for group, tops in full:
        for field_no, kind in _FIELDS:
            if tops >> field_no * _FIELD + 4 & 1 and kind in wanted:
                zone = field_no >= len(RESOURCES)
                found: list[int] = []
                for c in group:
                    if c != k:
                        p = cols[c]
                        found.extend(ids[p][rows[p]][zone].get(kind, ()))
                sets.setdefault(kind, set()).update(combinations(sorted(found), 3))
    table = {kind: sorted(v) for kind, v in sets.items()}
    grows = _GROWS
    out = []
    for p in soil:
        for pay in payments_for(deck, deck.plants[p].cost, table):
            action = grows.get((p, pay))
            if action is None:
                action = grows[(p, pay)] = Grow(p, pay)
            out.append(action)
    return tuple(out)


#: Each Grow action made once (a value: equal to any made anew), with the resources it
#: spends as a set: the growing step lists the same few hundred again and again
_GROWS: dict[tuple[int, tuple[int, ...]], Grow] = {}
_PAID: dict[tuple[int, ...], frozenset[int]] = {}


_ALL_TOPS = _TOPS | _TOPS << _ZONE
#: (field number, kind) of each of the packed fields: zone 0's kinds, then zone 1's
_FIELDS = tuple(enumerate(RESOURCES * 2))
Ids = list[list[tuple[dict[str, tuple[int, ...]], dict[str, tuple[int, ...]]]]]


def _lenders(deck: Deck, grown: int) -> tuple[Lent, Ids, list[int], frozenset[str]]:
    """For the grown plants ``grown``: what each plant lends in each row, packed
    (:func:`payable.lent_of`, with a last entry for the critter, which lends nothing), the
    ids of the resources it lends to each zone by kind (sprouts only when grown), the soil
    plants and their costs, worked out once per deck and grown set."""
    table = _LENDERS.get(id(deck))
    if table is None or table[0] is not deck:
        table = _LENDERS[id(deck)] = (deck, {})
    hit = table[1].get(grown)
    if hit is None:
        icons = _icon_table(deck)
        ids: Ids = []
        for p in range(8):
            per_row = []
            for row in range(3):
                zones: list[dict[str, tuple[int, ...]]] = []
                for zone in (0, 1):
                    by_kind: dict[str, list[int]] = {}
                    for rid, kind, sprout in icons[p][row][zone]:
                        if not sprout or grown >> p & 1:
                            by_kind.setdefault(kind, []).append(rid)
                    zones.append({kind: tuple(r) for kind, r in by_kind.items()})
                per_row.append((zones[0], zones[1]))
            ids.append(per_row)
        soil = [p for p in range(8) if not grown >> p & 1]
        hit = table[1][grown] = ([*lent_of(_packed(deck), grown), (0, 0, 0)], ids, soil,
                                 frozenset(deck.plants[p].cost for p in soil))
    return hit


_LENDERS: dict[int, tuple[Deck, dict[int, tuple[Lent, Ids, list[int], frozenset[str]]]]] = {}


def _effect_steps(deck: Deck, plant: int) -> tuple[Pending, ...]:
    """The pending steps of ``plant``'s effect (made once per deck and plant)."""
    from companion.glass_garden.game import Pending

    hit = _STEPS.get(id(deck))
    if hit is None or hit[0] is not deck:
        hit = _STEPS[id(deck)] = (deck, [tuple(Pending(s, p) for s in card.effect)
                                         for p, card in enumerate(deck.plants)])
    return hit[1][plant]


_STEPS: dict[int, tuple[Deck, list[tuple[Pending, ...]]]] = {}


def grow_plant(state: State, plant: int, used: frozenset[int] | None = None) -> State:
    """Flip ``plant``, light its adjacent dark glass, and queue its effect (``used``: the
    spent resources after it, when it paid)."""
    from companion.glass_garden.game import make_state

    g = state.garden
    if g.grown >> plant & 1:
        raise StateError(f"{state.deck.plants[plant].name} has already grown")
    # an edge plant lights the glass of its row at its end (Garden.adjacent_glass; a lit
    # card stays lit)
    cols, glass = g.cols, g.glass
    if plant == (cols[0] if cols[0] != CRITTER else cols[1]):
        glass |= 1 << g.rows[plant]
    elif plant == (cols[-1] if cols[-1] != CRITTER else cols[-2]):
        glass |= 1 << 3 + g.rows[plant]
    garden = make_garden(cols, g.rows, g.grown | 1 << plant, glass, g.critter_side)
    return make_state(state.table, garden, state.turn, state.phase, state.actions_left,
                      state.used if used is None else used, state.protected,
                      _effect_steps(state.deck, plant) + state.pending)


def grow_paid(state: State, action: Grow) -> State:
    paid = _PAID.get(action.paid)
    if paid is None:
        paid = _PAID[action.paid] = frozenset(action.paid)
    return grow_plant(state, action.plant, state.used | paid)
