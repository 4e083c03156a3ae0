"""Which resource kinds some set of 3 could pay for now, on plain tuples: the payable test of
:func:`fertile_zone.payable_kinds`, for the solver's hot loops (every garden of every turn the
search expands is tested, and every outcome's :func:`bound.guess` needs it).

What a plant lends depends only on its row and whether it is grown, so a table of it per grown
set (:func:`lent_of`) and the column groups per critter column (:func:`groups_of`) are worked
out once; :func:`kinds_of` then sums the packed fields of each group's three columns
(``fertile_zone``'s 5-bit fields per kind and zone; the critter's column lends nothing).
"""

from __future__ import annotations

from companion.glass_garden.deck import Deck
from companion.glass_garden.fertile_zone import _ADD, _KIND_SETS, _TOPS, _ZONE, _packed, runs
from companion.glass_garden.garden import COLUMNS, CRITTER, Garden

Lent = list[tuple[int, ...]]  # lent[p][row]: what plant p lends in that row (fields)


def lent_of(packed: list[list[list[int]]], grown: int) -> Lent:
    """What each plant lends to the zones in each row (``fertile_zone._packed``'s fields),
    for the grown plants ``grown``."""
    return [(packed[p][0][grown >> p & 1], packed[p][1][grown >> p & 1],
             packed[p][2][grown >> p & 1]) for p in range(8)]


def groups_of(k: int) -> list[tuple[int, ...]]:
    """The column groups of a set with the critter in column ``k`` (``fertile_zone.runs``),
    each padded to 3 with the critter's own column, which lends nothing."""
    hit = _GROUPS.get(k)
    if hit is None:
        cols = [CRITTER if c == k else 0 for c in range(COLUMNS)]
        garden = Garden(tuple(cols), (1,) * 8)
        hit = _GROUPS[k] = [(*run, k, k)[:3] for run in runs(garden)]
    return hit


_GROUPS: dict[int, list[tuple[int, ...]]] = {}


def kinds_of(lent: Lent, groups: list[tuple[int, ...]], cols: tuple[int, ...],
             rows: tuple[int, ...]) -> frozenset[str]:
    """:func:`fertile_zone.payable_kinds` on tuples (``lent``: :func:`lent_of` of the grown
    plants; ``groups``: :func:`groups_of` of the critter's column)."""
    l0, l1, l2, l3, l4, l5, l6, l7 = lent
    r0, r1, r2, r3, r4, r5, r6, r7 = rows
    # by plant, and 0 for the critter (CRITTER is -1: the last entry)
    v = (l0[r0], l1[r1], l2[r2], l3[r3], l4[r4], l5[r5], l6[r6], l7[r7], 0)
    hits = 0
    for a, b, c in groups:
        hits |= v[cols[a]] + v[cols[b]] + v[cols[c]] + _ADD
    return _KIND_SETS[((hits | hits >> _ZONE) & _TOPS) >> 4]


def payable_kinds(deck: Deck, garden: Garden) -> frozenset[str]:
    """:func:`fertile_zone.payable_kinds` without its memo (quicker than a look-up keyed by
    the garden)."""
    key = (id(deck), garden.grown)
    hit = _LENT.get(key)
    if hit is None or hit[0] is not deck:
        if len(_LENT) > 4096:
            _LENT.clear()
        hit = _LENT[key] = (deck, lent_of(_packed(deck), garden.grown))
    return kinds_of(hit[1], groups_of(garden.critter_col), garden.cols, garden.rows)


_LENT: dict[tuple[int, int], tuple[Deck, Lent]] = {}
