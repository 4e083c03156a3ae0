"""Fertile zones, resources, and the sets of 3 that pay a plant's cost.

Zone 0 lies between the top and middle rows, zone 1 between the middle and bottom rows. A
plant lends its *lower* dirt to the zone below its row and its *upper* dirt to the zone above
it: a top-row plant lends only its lower dirt (zone 0), a middle-row plant its upper dirt to
zone 0 and its lower dirt to zone 1, a bottom-row plant only its upper dirt (zone 1).

A resource is named by an id ``plant * 8 + half * 4 + slot`` (half 0 upper, 1 lower). A set
is 3 identical active resources in one zone whose plants all lie within 3 consecutive columns
with the critter's column not between them (the critter always separates, whatever the rows).
A plant may lend more than one resource of a set when its dirt shows more than one.

>>> from companion.glass_garden.deck import load_deck
>>> from companion.glass_garden.garden import Garden
>>> deck = load_deck()
>>> zone_of(1, 0), zone_of(1, 1), zone_of(0, 0), zone_of(2, 1)
(0, 1, None, None)
"""

from __future__ import annotations

from itertools import combinations

from companion.glass_garden.deck import RESOURCES, SPROUT, Deck
from companion.glass_garden.garden import COLUMNS, Garden

Payment = tuple[int, int, int]


def zone_of(row: int, half: int) -> int | None:
    """The zone a plant in ``row`` lends its ``half`` (0 upper, 1 lower) to, or None."""
    zone = row - 1 if half == 0 else row
    return zone if zone in (0, 1) else None


def resource_id(plant: int, half: int, slot: int) -> int:
    return plant * 8 + half * 4 + slot


def resource_kinds(deck: Deck) -> dict[int, str]:
    """The kind of every resource id of the deck."""
    hit = _KINDS_OF.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    kinds = {resource_id(p, half, slot): kind for p, card in enumerate(deck.plants)
             for half, icons in ((0, card.upper), (1, card.lower))
             for slot, kind in enumerate(icons)}
    _KINDS_OF[id(deck)] = (deck, kinds)
    return kinds


_KINDS_OF: dict[int, tuple[Deck, dict[int, str]]] = {}


def describe_resource(deck: Deck, rid: int) -> str:
    plant, rest = divmod(rid, 8)
    half, slot = divmod(rest, 4)
    icons = deck.plants[plant].upper if half == 0 else deck.plants[plant].lower
    return f"{deck.plants[plant].name} {('upper', 'lower')[half]} {icons[slot]}"


def runs(garden: Garden) -> list[tuple[int, ...]]:
    """Every maximal group of columns within 3 consecutive columns not split by the critter."""
    k = garden.critter_col
    found: set[tuple[int, ...]] = set()
    for c in range(COLUMNS - 2):
        window = range(c, c + 3)
        parts = [tuple(range(c, k)), tuple(range(k + 1, c + 3))] if k in window else [
            tuple(window)]
        found.update(p for p in parts if p)
    # drop runs contained in another run
    return sorted(r for r in found if not any(set(r) < set(o) for o in found))


_TABLES: dict[int, tuple[Deck, list[list[list[list[tuple[int, str, bool]]]]]]] = {}
_RUNS: dict[int, list[tuple[int, ...]]] = {}


def _icon_table(deck: Deck) -> list[list[list[list[tuple[int, str, bool]]]]]:
    """table[plant][row][zone]: (resource id, kind, is_sprout) lent by a plant in that row."""
    cached = _TABLES.get(id(deck))
    if cached is not None and cached[0] is deck:
        return cached[1]
    table = []
    for p, card in enumerate(deck.plants):
        per_row = []
        for row in range(3):
            per_zone: list[list[tuple[int, str, bool]]] = [[], []]
            for half, icons in ((0, card.upper), (1, card.lower)):
                zone = zone_of(row, half)
                if zone is not None:
                    per_zone[zone].extend((resource_id(p, half, slot), kind, kind == SPROUT)
                                          for slot, kind in enumerate(icons))
            per_row.append(per_zone)
        table.append(per_row)
    _TABLES[id(deck)] = (deck, table)
    return table


def payments(deck: Deck, garden: Garden, used: frozenset[int] = frozenset()
             ) -> dict[str, list[Payment]]:
    """For each resource kind, every set of 3 that could pay now (resources not in ``used``)."""
    key = (id(deck), garden.cols, garden.rows, garden.grown, used)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is deck:
        return hit[1]
    if len(_MEMO) > 200_000:
        _MEMO.clear()
    result = _payments(deck, garden, used)
    _MEMO[key] = (deck, result)
    return result


#: Payments by deck and garden. Each entry keeps its deck (alive, and checked on a hit):
#: keyed by ``id`` alone, a deck loaded after another was freed could take its id and be
#: answered with the old deck's payments.
_MEMO: dict[tuple[object, ...], tuple[Deck, dict[str, list[Payment]]]] = {}


def _payments(deck: Deck, garden: Garden, used: frozenset[int]) -> dict[str, list[Payment]]:
    table = _icon_table(deck)
    k = garden.critter_col
    run_list = _RUNS.get(k)
    if run_list is None:
        run_list = _RUNS[k] = runs(garden)
    cols, rows, grown = garden.cols, garden.rows, garden.grown
    out: dict[str, set[Payment]] = {}
    for run in run_list:
        for zone in (0, 1):
            by_kind: dict[str, list[int]] = {}
            for c in run:
                p = cols[c]
                for rid, kind, sprout in table[p][rows[p]][zone]:
                    if (sprout and not grown >> p & 1) or rid in used:
                        continue
                    by_kind.setdefault(kind, []).append(rid)
            for kind, ids in by_kind.items():
                if len(ids) >= 3:
                    out.setdefault(kind, set()).update(combinations(sorted(ids), 3))
    return {kind: sorted(v) for kind, v in out.items()}


def payments_for(deck: Deck, cost: str, table: dict[str, list[Payment]]) -> list[Payment]:
    """The sets in ``table`` that pay ``cost`` (a kind, or ``any``)."""
    if cost == "any":
        return sorted(s for sets in table.values() for s in sets)
    return table.get(cost, [])


def payable_kinds(deck: Deck, g: Garden) -> frozenset[str]:
    """The resource kinds of which some set of 3 could pay now: the kinds of
    :func:`payments` (``used`` empty) without listing every set: quick, for ordering the
    search and for telling whether anything can grow at all.

    The icons a plant lends to a zone are counted per kind in 5-bit fields of one integer
    (zone 0 in the low fields, zone 1 in the high ones; at most 12 per kind in 3 columns), so
    a group of columns is one sum; adding 13 to every field sets a field's top bit exactly
    when it holds 3 or more."""
    cache = _PAYABLE.get(id(deck))
    if cache is None or cache[0] is not deck:
        cache = _PAYABLE[id(deck)] = (deck, {})
    table = cache[1]
    hit = table.get(g)
    if hit is not None:
        return hit
    if len(table) > 200_000:
        table.clear()
    packed = _packed(deck)
    k = g.critter_col
    triples = _TRIPLES.get(k)
    if triples is None:  # the groups depend only on the critter's column
        triples = _TRIPLES[k] = [(*run, 9, 9)[:3] for run in runs(g)]
    rows, grown = g.rows, g.grown
    lent = [packed[p][rows[p]][grown >> p & 1] if p >= 0 else 0 for p in g.cols]
    lent.append(0)  # column 9: pads the shorter groups
    hits = 0
    for a, b, c in triples:
        hits |= lent[a] + lent[b] + lent[c] + _ADD
    kinds = table[g] = _KIND_SETS[((hits | hits >> _ZONE) & _TOPS) >> 4]
    return kinds


_FIELD = 5
_ZONE = _FIELD * len(RESOURCES)  # where zone 1's fields start
_TOPS = sum(16 << _FIELD * i for i in range(len(RESOURCES)))
_ADD = sum(13 << _FIELD * i for i in range(2 * len(RESOURCES)))
#: the kinds whose fields' top bits (shifted down by 4) are set, for every such mask
_KIND_SETS = {sum(1 << _FIELD * i for i in range(len(RESOURCES)) if m >> i & 1):
              frozenset(RESOURCES[i] for i in range(len(RESOURCES)) if m >> i & 1)
              for m in range(1 << len(RESOURCES))}
_PACKS: dict[int, tuple[Deck, list[list[list[int]]]]] = {}
_PAYABLE: dict[int, tuple[Deck, dict[Garden, frozenset[str]]]] = {}
_TRIPLES: dict[int, list[tuple[int, ...]]] = {}


def _packed(deck: Deck) -> list[list[list[int]]]:
    """packed[plant][row][grown]: the icons it lends to zones 0 and 1, counted per kind in
    5-bit fields (sprouts only when grown)."""
    hit = _PACKS.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    table = _icon_table(deck)
    out = [[[sum(1 << _FIELD * RESOURCES.index(kind) + _ZONE * zone
                 for zone in (0, 1)
                 for _, kind, sprout in table[p][row][zone] if grown or not sprout)
             for grown in (0, 1)] for row in range(3)] for p in range(8)]
    _PACKS[id(deck)] = (deck, out)
    return out
