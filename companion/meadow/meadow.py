"""A player's area: the meadow's columns, the surroundings, road tokens, hand and bonus tokens.

The meadow is a tuple of columns, left to right, each bottom (a ground card) to top. What it
shows is the spec's reading 1: each column's ground symbol and its top card's card symbols
(a lone ground card's own); covered cards show nothing.

>>> from companion.meadow.catalogue import load_catalogue
>>> area = PlayerArea("Ada", meadow=(("start-1a",),))
>>> sorted(visible(area, load_catalogue()).items())
[('bug', 1), ('grass', 1)]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from companion.meadow.catalogue import Catalogue

#: the most ground cards (columns) a meadow holds
MAX_COLUMNS = 10


@dataclass(frozen=True)
class Landscape:
    """A landscape card in the surroundings, and the discovery card on it (None: unused)."""

    card: str
    discovery: str | None = None


@dataclass(frozen=True)
class Bonus:
    """A bonus token on the campfire board, between the two goal tokens named."""

    value: int
    goals: tuple[str, str]


@dataclass(frozen=True)
class PlayerArea:
    """Everything in front of one player."""

    name: str
    meadow: tuple[tuple[str, ...], ...] = ()
    surroundings: tuple[Landscape, ...] = ()
    roads_unused: int = 0
    roads_used: int = 0
    hand: tuple[str, ...] = ()
    bonus: tuple[Bonus, ...] = ()

    def played(self) -> tuple[str, ...]:
        """Every card played, covered or not: the meadow's, then the surroundings'."""
        cards = [c for column in self.meadow for c in column]
        for land in self.surroundings:
            cards.append(land.card)
            if land.discovery:
                cards.append(land.discovery)
        return tuple(cards)

    def unused_landscapes(self) -> tuple[str, ...]:
        return tuple(land.card for land in self.surroundings if land.discovery is None)

    def discoveries(self) -> int:
        return sum(1 for land in self.surroundings if land.discovery)

    def next_bonus(self) -> int | None:
        """The value of the next bonus token to place (2, then 3, then 4), None when all are."""
        placed = len(self.bonus)
        return (2, 3, 4)[placed] if placed < 3 else None

    def without(self, *cards: str) -> PlayerArea:
        """The area with ``cards`` taken out of the hand."""
        hand = list(self.hand)
        for c in cards:
            hand.remove(c)
        return replace(self, hand=tuple(hand))


def column_shows(area: PlayerArea, cat: Catalogue, column: int) -> tuple[str, ...]:
    """What column ``column`` (0-based) shows: its ground symbol, then its top card's symbols."""
    cards = area.meadow[column]
    ground = cat.cards[cards[0]].ground
    top = cat.cards[cards[-1]]
    return (ground or "", *top.card_symbols) if ground else top.card_symbols


def visible(area: PlayerArea, cat: Catalogue) -> Counter[str]:
    """The meadow's visible symbols with counts (two worms on two columns are two)."""
    seen: Counter[str] = Counter()
    for i in range(len(area.meadow)):
        seen.update(column_shows(area, cat, i))
    return seen


def covers(area: PlayerArea, cat: Catalogue, column: int) -> tuple[str, ...]:
    """The symbols a card played on column ``column`` (0-based) covers: the top card's card
    symbols (both of two), never the ground symbol."""
    return cat.cards[area.meadow[column][-1]].card_symbols


__all__ = ["MAX_COLUMNS", "Bonus", "Landscape", "PlayerArea", "column_shows", "covers",
           "visible"]
