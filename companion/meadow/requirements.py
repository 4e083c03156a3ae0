"""The play validator: may this card be played here, with these discards, and what does it cover?

The spec's readings 2-5, in one place:

* requirements (but ``road``/``discovery``) are met by the meadow's visible symbols, each by a
  symbol of its own (a matching, so ``worm/bug, bug`` with one worm and one bug is met);
* an observation card goes on a column whose top card or ground shows a symbol named by a
  requirement without arrows; an arrows-only card next to a column showing each arrow symbol;
  a card with both kinds on either kind of place;
* 2k discards ignore up to k requirements; an observation card keeps one requirement really
  met; ``road``/``discovery`` are never ignored (and are that one for landscapes and
  discoveries); an ignored requirement gives no place.

Every function is pure: a :class:`PlayerArea`, the catalogue, the card and the place in; a
:class:`PlayRuling` (codes from :data:`PLAY_CODES`, never sentences to compare) out.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from companion.meadow.catalogue import Card, Catalogue
from companion.meadow.meadow import (
    MAX_COLUMNS,
    Landscape,
    PlayerArea,
    column_shows,
    covers,
    visible,
)
from companion.meadow.symbols import ENCOUNTER, ROAD, Requirement

#: the codes of a refused play (the spec's ``check`` rules)
PLAY_CODES: dict[str, str] = {
    "missing": "a requirement neither visible nor ignored",
    "ignore-all": "discards would ignore all of an observation card's requirements",
    "place": "not a place of the card",
    "adjacent": "an arrows-only card not next to its symbol",
    "encounter": "the top card shows encounter: nothing may cover it",
    "ground-limit": "an 11th ground card",
    "road": "no unused road token",
    "discovery": "no unused landscape, or the one asked holds one",
    "area": "a place of the wrong kind for the card",
}


@dataclass(frozen=True, order=True)
class Place:
    """Where a card goes: ``column`` N (1-based), ``new-ground`` left/right, ``surroundings``
    (a landscape), or ``landscape`` ID (a discovery on that landscape)."""

    kind: str
    column: int = 0
    side: str = ""
    landscape: str = ""

    @classmethod
    def on_column(cls, column: int) -> Place:
        return cls("column", column=column)

    @classmethod
    def new_ground(cls, side: str) -> Place:
        return cls("new-ground", side=side)

    @classmethod
    def in_surroundings(cls) -> Place:
        return cls("surroundings")

    @classmethod
    def on_landscape(cls, card: str) -> Place:
        return cls("landscape", landscape=card)

    @classmethod
    def parse(cls, text: str) -> Place:
        """The one-word form of :meth:`__str__`: ``3``, ``left``, ``right``, ``surroundings``
        or a landscape card's id."""
        if text.isdigit():
            return cls.on_column(int(text))
        if text in ("left", "right"):
            return cls.new_ground(text)
        if text == "surroundings":
            return cls.in_surroundings()
        return cls.on_landscape(text)

    def to_dict(self) -> dict[str, Any]:
        """The spec's form: ``{"column": 2}``, ``{"new_ground": "left"}``,
        ``{"surroundings": true}``, ``{"landscape": "W40"}``."""
        if self.kind == "column":
            return {"column": self.column}
        if self.kind == "new-ground":
            return {"new_ground": self.side}
        if self.kind == "surroundings":
            return {"surroundings": True}
        return {"landscape": self.landscape}

    def __str__(self) -> str:
        if self.kind == "column":
            return str(self.column)
        if self.kind == "new-ground":
            return self.side
        return "surroundings" if self.kind == "surroundings" else self.landscape

    def words(self) -> str:
        if self.kind == "column":
            return f"on column {self.column}"
        if self.kind == "new-ground":
            return f"as a new column on the {self.side}"
        if self.kind == "surroundings":
            return "in the surroundings"
        return f"on landscape {self.landscape}"


@dataclass(frozen=True)
class PlayRuling:
    """The ruling on playing one card: legal or not, what it covers, every legal place."""

    card: str
    type: str
    legal: bool
    place: Place | None
    covers: tuple[str, ...] | None
    violations: tuple[tuple[str, str], ...]
    places: tuple[tuple[Place, tuple[str, ...]], ...]
    fewest_discards: int | None

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(code for code, _m in self.violations)


# --- matching requirements to visible symbols ----------------------------------------------

def unmatched(requires: Sequence[Requirement], seen: Counter[str]) -> list[Requirement]:
    """The requirements left unmet by a largest matching to the visible symbols (each met by
    a symbol of its own); empty when all are met."""
    free = Counter(seen)
    holder: dict[str, list[int]] = {}
    owner: list[str | None] = [None] * len(requires)

    def augment(i: int, tried: set[str]) -> bool:
        for sym in requires[i].options:
            if sym in tried or seen[sym] <= 0:
                continue
            tried.add(sym)
            if free[sym] > 0:
                free[sym] -= 1
                holder.setdefault(sym, []).append(i)
                owner[i] = sym
                return True
            for j in list(holder.get(sym, [])):
                if augment(j, tried):
                    holder[sym].remove(j)
                    holder[sym].append(i)
                    owner[i] = sym
                    return True
        return False

    for i in range(len(requires)):
        augment(i, set())
    return [r for i, r in enumerate(requires) if owner[i] is None]


def meadow_requirements(card: Card) -> tuple[Requirement, ...]:
    """The requirements met in the meadow (all but ``road``/``discovery``)."""
    return tuple(r for r in card.requires if not r.surroundings)


# --- places ----------------------------------------------------------------------------------

def _neighbours_show(area: PlayerArea, cat: Catalogue, column: int, req: Requirement) -> bool:
    return any(0 <= n < len(area.meadow) and any(
        req.met_by(s) for s in column_shows(area, cat, n)) for n in (column - 1, column + 1))


def _column_place_ok(area: PlayerArea, cat: Catalogue, column: int,
                     kept: Sequence[Requirement]) -> bool:
    """Whether requirements ``kept`` (those not ignored) give column ``column`` (0-based)."""
    shows = column_shows(area, cat, column)
    plain = [r for r in kept if not r.arrows]
    arrows = [r for r in kept if r.arrows]
    by_plain = any(r.met_by(s) for r in plain for s in shows)
    by_arrows = bool(arrows) and all(_neighbours_show(area, cat, column, r) for r in arrows)
    return by_plain or by_arrows


def _ignorable_sets(requires: Sequence[Requirement], k: int) -> Iterable[tuple[int, ...]]:
    idx = [i for i, r in enumerate(requires) if not r.surroundings]
    for size in range(min(k, len(idx)) + 1):
        yield from itertools.combinations(idx, size)


def works(area: PlayerArea, cat: Catalogue, card: Card, place: Place, k: int,
          seen: Counter[str] | None = None) -> bool:
    """Whether ``card`` may go at ``place`` with ``k`` requirements ignorable (2k discards)."""
    if _place_blockers(area, cat, card, place):
        return False
    if card.type == "ground":
        return True
    seen = visible(area, cat) if seen is None else seen
    kept_sets = feasible(card, tuple(sorted(seen.items())), k)
    if card.type != "observation":
        return bool(kept_sets)
    return any(_column_place_ok(area, cat, place.column - 1, kept) for kept in kept_sets)


@lru_cache(maxsize=65536)
def feasible(card: Card, seen: tuple[tuple[str, int], ...],
             k: int) -> tuple[tuple[Requirement, ...], ...]:
    """The sets of requirements kept (not ignored, at most ``k`` ignored) that the visible
    symbols ``seen`` meet, each by a symbol of its own (an observation card keeps one)."""
    counts = Counter(dict(seen))
    out = []
    for ignored in _ignorable_sets(card.requires, k):
        kept = tuple(r for i, r in enumerate(card.requires) if i not in ignored)
        meadow_kept = [r for r in kept if not r.surroundings]
        if card.type == "observation" and not meadow_kept:
            continue
        if not unmatched(meadow_kept, counts):
            out.append(kept)
    return tuple(out)


def _place_blockers(area: PlayerArea, cat: Catalogue, card: Card,
                    place: Place) -> list[tuple[str, str]]:
    """The violations of a place that no requirement or discard can mend."""
    kind = {"ground": "new-ground", "observation": "column", "landscape": "surroundings",
            "discovery": "landscape"}[card.type]
    if place.kind != kind:
        return [("area", f"{card.id} is a {card.type} card; it cannot go {place.words()}.")]
    if card.type == "ground":
        if len(area.meadow) >= MAX_COLUMNS:
            return [("ground-limit", f"The meadow already has {MAX_COLUMNS} ground cards.")]
        if place.side not in ("left", "right"):
            return [("place", f"{place.side!r} is not left or right.")]
        return []
    if card.type == "observation":
        if not 1 <= place.column <= len(area.meadow):
            return [("place", f"There is no column {place.column}.")]
        top = cat.cards[area.meadow[place.column - 1][-1]]
        if ENCOUNTER in top.card_symbols:
            return [("encounter", f"Column {place.column}'s top card {top.id} shows an "
                                  "encounter; nothing may cover it.")]
        return []
    if card.type == "landscape":
        if area.roads_unused < 1:
            return [("road", f"{card.id} needs an unused road token; there is none.")]
        return []
    unused = area.unused_landscapes()
    if place.landscape not in unused:
        why = ("already holds a discovery" if place.landscape in
               {land.card for land in area.surroundings} else "is not in the surroundings")
        return [("discovery", f"{card.id} needs an unused landscape; {place.landscape} {why}.")]
    return []


def candidate_places(area: PlayerArea, card: Card) -> list[Place]:
    """Every place of the right kind for ``card`` (legal or not)."""
    if card.type == "ground":
        return [Place.new_ground("left"), Place.new_ground("right")]
    if card.type == "observation":
        return [Place.on_column(i + 1) for i in range(len(area.meadow))]
    if card.type == "landscape":
        return [Place.in_surroundings()]
    return [Place.on_landscape(c) for c in area.unused_landscapes()]


def place_covers(area: PlayerArea, cat: Catalogue, card: Card, place: Place) -> tuple[str, ...]:
    """What playing ``card`` at ``place`` covers (reading 4)."""
    if place.kind == "column" and 1 <= place.column <= len(area.meadow):
        return covers(area, cat, place.column - 1)
    if place.kind == "landscape":
        return (ROAD,)
    return ()


def legal_places(area: PlayerArea, cat: Catalogue, card: Card, k: int,
                 seen: Counter[str] | None = None) -> list[tuple[Place, tuple[str, ...]]]:
    """Every place ``card`` may go with ``k`` requirements ignorable, with what it covers."""
    seen = visible(area, cat) if seen is None else seen
    return [(p, place_covers(area, cat, card, p)) for p in candidate_places(area, card)
            if works(area, cat, card, p, k, seen)]


def fewest_discards(area: PlayerArea, cat: Catalogue, card: Card, spare: int,
                    seen: Counter[str] | None = None) -> int | None:
    """The fewest discards (0, 2, 4 ...) out of ``spare`` other cards in hand that make the
    play legal somewhere, or None."""
    seen = visible(area, cat) if seen is None else seen
    places = candidate_places(area, card)
    for k in range(spare // 2 + 1):
        if any(works(area, cat, card, p, k, seen) for p in places):
            return 2 * k
        if k >= len(card.requires):
            break
    return None


# --- the ruling, with each broken rule in one sentence ---------------------------------------

def _missing_sentence(card: Card, req: Requirement, seen: Counter[str],
                      requires: Sequence[Requirement]) -> str:
    same = sum(1 for r in requires if r.options == req.options)
    count = sum(seen[o] for o in req.options)
    if count == 0:
        return f"{card.id} needs {req.words()}; none is visible."
    return (f"{card.id} needs {req.words()} {same} times; only {count} "
            f"{'is' if count == 1 else 'are'} visible.")


def diagnose(area: PlayerArea, cat: Catalogue, card: Card, place: Place | None,
             k: int, seen: Counter[str]) -> list[tuple[str, str]]:
    """Why ``card`` cannot be played (at ``place``, or anywhere when None) with ``k``
    requirements ignorable: every broken rule, each in one sentence."""
    out: list[tuple[str, str]] = []
    if place is not None:
        out = _place_blockers(area, cat, card, place)
        if out:
            return out
    elif card.type == "ground" and len(area.meadow) >= MAX_COLUMNS:
        return [("ground-limit", f"The meadow already has {MAX_COLUMNS} ground cards.")]
    elif card.type == "landscape" and area.roads_unused < 1:
        out.append(("road", f"{card.id} needs an unused road token; there is none."))
    elif card.type == "discovery" and not area.unused_landscapes():
        out.append(("discovery", f"{card.id} needs an unused landscape; there is none."))
    reqs = meadow_requirements(card)
    missing = unmatched(reqs, seen)
    if card.type == "observation" and reqs and len(missing) == len(reqs) and k >= len(missing):
        out.append(("ignore-all", f"{card.id}: discards cannot ignore all of its "
                                  "requirements; one must really be met."))
    elif len(missing) > k:
        out.extend(("missing", _missing_sentence(card, r, seen, reqs)) for r in missing)
    if out:
        return out
    arrows_only = all(r.arrows for r in reqs)
    if card.type == "observation":
        if place is None and area.meadow and all(
                _place_blockers(area, cat, card, p) for p in candidate_places(area, card)):
            return [("encounter", f"Every column's top card shows an encounter; nothing may "
                                  f"cover {card.id}.")]
        where = f"column {place.column}" if place else "any column"
        if arrows_only:
            need = " and ".join(r.words() for r in reqs)
            return [("adjacent", f"{card.id} must go next to a column showing {need}; "
                                 f"{where} is not.")]
        return [("place", f"{card.id} must go on a column showing one of its requirement "
                          f"symbols; {where} does not.")]
    return [("place", f"{card.id} cannot go {place.words() if place else 'anywhere'}.")]


def rule_play(area: PlayerArea, cat: Catalogue, card_id: str, place: Place | None = None,
              discards: Sequence[str] = ()) -> PlayRuling:
    """The ruling on playing ``card_id`` from the hand (at ``place``, or anywhere), with
    ``discards`` from the rest of the hand."""
    card = cat.card(card_id)
    seen = visible(area, cat)
    k = len(discards) // 2
    places = tuple(legal_places(area, cat, card, k, seen))
    spare = len(area.hand) - 1 if card_id in area.hand else len(area.hand)
    fewest = fewest_discards(area, cat, card, spare, seen)
    if place is None:
        legal = bool(places)
        cover = None
    else:
        legal = any(p == place for p, _c in places)
        cover = place_covers(area, cat, card, place)
    violations = () if legal else tuple(diagnose(area, cat, card, place, k, seen))
    if not legal and not violations:
        violations = (("place", f"{card.id} cannot be played there."),)
    return PlayRuling(card_id, card.type, legal, place, cover, violations, places, fewest)


__all__ = [
    "PLAY_CODES",
    "Place",
    "PlayRuling",
    "candidate_places",
    "diagnose",
    "fewest_discards",
    "legal_places",
    "meadow_requirements",
    "place_covers",
    "play_card",
    "rule_play",
    "unmatched",
    "works",
]


def play_card(area: PlayerArea, cat: Catalogue, card_id: str, place: Place,
              discards: Sequence[str] = ()) -> PlayerArea:
    """The area after playing ``card_id`` at ``place`` (already ruled legal) and discarding
    ``discards`` from the hand."""
    area = area.without(card_id, *discards)
    card = cat.card(card_id)
    if card.type == "ground":
        column = (card_id,)
        meadow = (column, *area.meadow) if place.side == "left" else (*area.meadow, column)
        return replace(area, meadow=meadow)
    if card.type == "observation":
        i = place.column - 1
        meadow = tuple((*col, card_id) if j == i else col for j, col in enumerate(area.meadow))
        return replace(area, meadow=meadow)
    if card.type == "landscape":
        return replace(area, surroundings=(*area.surroundings, Landscape(card_id)),
                       roads_unused=area.roads_unused - 1, roads_used=area.roads_used + 1)
    lands = tuple(Landscape(land.card, card_id) if land.card == place.landscape else land
                  for land in area.surroundings)
    return replace(area, surroundings=lands)
