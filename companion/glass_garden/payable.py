"""Which resource kinds some set of 3 could pay for now, on plain tuples: the payable test of
:func:`fertile_zone.payable_kinds`, for the solver's hot loops (every garden of every turn the
search expands is tested, and every outcome's :func:`bound.guess` needs it).

What a plant lends depends only on its row and whether it is grown, so a table of it per grown
set (:func:`lent_of`) and the column groups per critter column (:func:`groups_of`) are worked
out once; :func:`payable_at` then sums the packed fields of each group's three columns
(``fertile_zone``'s 5-bit fields per kind and zone; the critter's column lends nothing).
"""

from __future__ import annotations

from collections.abc import Callable

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


def payable_kinds(deck: Deck, garden: Garden) -> frozenset[str]:
    """:func:`fertile_zone.payable_kinds` without its memo (quicker than a look-up keyed by
    the garden)."""
    key = (id(deck), garden.grown)
    hit = _LENT.get(key)
    if hit is None or hit[0] is not deck:
        if len(_LENT) > 4096:
            _LENT.clear()
        hit = _LENT[key] = (deck, lent_of(_packed(deck), garden.grown))
    lent = hit[1]
    rows = garden.rows
    cols = garden.cols
    k = cols.index(CRITTER)
    payable = _PAYABLES.get(k) or payable_at(k)
    return payable(cols, (*[lent[p][r] for p, r in enumerate(rows)], 0))


_LENT: dict[tuple[int, int], tuple[Deck, Lent]] = {}

Payable = Callable[[tuple[int, ...], tuple[int, ...]], frozenset[str]]


def payable_at(k: int) -> Payable:
    """:func:`fertile_zone.payable_kinds` with the critter in column ``k``, as a function of
    the columns and what each plant lends in its row (by plant, then 0 for the critter, -1):
    one expression summing each column group's fields (:func:`groups_of`), written out once
    per column (a loop over the groups, indexing the columns twice each, was a tenth of a
    light expansion's time). The same sums, OR-ed in another order: the same value."""
    hit = _PAYABLES.get(k)
    if hit is not None:
        return hit
    names = ", ".join(f"c{c}" for c in range(COLUMNS))
    lines = [f"def payable(cols, v):\n    {names} = cols\n"]
    lines += [f"    w{c} = v[c{c}]\n" for c in range(COLUMNS) if c != k]
    sums = []
    for group in groups_of(k):
        terms = [f"w{c}" for c in dict.fromkeys(group) if c != k]
        sums.append(f"({' + '.join([*terms, 'ADD'])})")
    lines.append(f"    hits = {' | '.join(sums)}\n")
    lines.append("    return KIND_SETS[((hits | hits >> ZONE) & TOPS) >> 4]\n")
    space = {"ADD": _ADD, "KIND_SETS": _KIND_SETS, "ZONE": _ZONE, "TOPS": _TOPS}
    exec("".join(lines), space)  # code made here from column numbers alone
    hit = _PAYABLES[k] = space["payable"]  # type: ignore[assignment]
    return hit


_PAYABLES: dict[int, Payable] = {}
