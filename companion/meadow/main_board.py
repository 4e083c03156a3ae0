"""The main board: 4 columns of 4 face-up cards fed by deck holders, and its 12 notches.

The columns take their cards from the W, S, S and E decks (W, N, N, E after the halfway
point). Spots are ``r1c1`` (row 1 is the row under the deck holders) to ``r4c4``.

Notches (the rulebook's illustration, read here): ``L1``-``L4`` left of each row, pointing
right (a token counts columns from the left); ``R1``-``R4`` right of each row, pointing left;
``B1``-``B4`` below each column, pointing up (a token counts rows from the bottom). Clockwise
round the board: R1, R2, R3, R4, B4, B3, B2, B1, L4, L3, L2, L1.

>>> spot_of("L2", 3), spot_of("R1", 1), spot_of("B4", 1)
('r2c3', 'r1c4', 'r4c4')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace

NOTCHES: tuple[str, ...] = ("L1", "L2", "L3", "L4", "R1", "R2", "R3", "R4",
                            "B1", "B2", "B3", "B4")
CLOCKWISE: tuple[str, ...] = ("R1", "R2", "R3", "R4", "B4", "B3", "B2", "B1",
                              "L4", "L3", "L2", "L1")
SPOTS: tuple[str, ...] = tuple(f"r{r}c{c}" for r in range(1, 5) for c in range(1, 5))
DECK_ORDER = ("N", "W", "S", "E")
EARLY_COLUMNS = ("W", "S", "S", "E")
LATE_COLUMNS = ("W", "N", "N", "E")


def spot_of(notch: str, count: int) -> str:
    """The spot a token in ``notch`` counting ``count`` (1-4) spaces points at."""
    side, line = notch[0], int(notch[1])
    if side == "L":
        return f"r{line}c{count}"
    if side == "R":
        return f"r{line}c{5 - count}"
    return f"r{5 - count}c{line}"


def line_of(notch: str) -> tuple[str, ...]:
    """The four spots of the notch's row or column, in counting order."""
    return tuple(spot_of(notch, n) for n in range(1, 5))


@dataclass(frozen=True)
class Board:
    """The face-up cards (None: an empty spot) and the four decks, each top card first."""

    spots: tuple[str | None, ...]
    decks: tuple[tuple[str, ...], ...]
    late: bool = False

    @property
    def columns(self) -> tuple[str, ...]:
        return LATE_COLUMNS if self.late else EARLY_COLUMNS

    def card_at(self, spot: str) -> str | None:
        return self.spots[SPOTS.index(spot)]

    def deck(self, name: str) -> tuple[str, ...]:
        return self.decks[DECK_ORDER.index(name)]

    def deck_of_spot(self, spot: str) -> str:
        return self.columns[int(spot[3]) - 1]

    def on_board_decks(self) -> tuple[str, ...]:
        """The decks in holders on the board (not the unused one)."""
        return tuple(dict.fromkeys(self.columns))

    def with_deck(self, name: str, cards: tuple[str, ...]) -> Board:
        i = DECK_ORDER.index(name)
        return replace(self, decks=tuple(cards if j == i else d for j, d in enumerate(self.decks)))

    def draw(self, name: str, n: int = 1) -> tuple[tuple[str, ...], Board]:
        """The top ``n`` cards of a deck (fewer when it runs out), and the board without them."""
        deck = self.deck(name)
        return deck[:n], self.with_deck(name, deck[n:])

    def to_bottom(self, cards: tuple[str, ...], decks_of: Mapping[str, str]) -> Board:
        """The board with ``cards`` put at the bottom of their own decks, in order."""
        board = self
        for c in cards:
            d = decks_of[c]
            board = board.with_deck(d, (*board.deck(d), c))
        return board

    def take(self, spot: str) -> tuple[str | None, Board]:
        """The card at ``spot`` (None: empty) and the board with the spot refilled from its
        deck (left empty when the deck has run out)."""
        i = SPOTS.index(spot)
        card = self.spots[i]
        top, board = self.draw(self.deck_of_spot(spot))
        spots = list(board.spots)
        spots[i] = top[0] if top else None
        return card, replace(board, spots=tuple(spots))

    def refill(self) -> Board:
        """Every empty spot filled from its column's deck (row 1 first)."""
        board = self
        for i, spot in enumerate(SPOTS):
            if board.spots[i] is None:
                top, board = board.draw(board.deck_of_spot(spot))
                if top:
                    spots = list(board.spots)
                    spots[i] = top[0]
                    board = replace(board, spots=tuple(spots))
        return board

    def halfway(self, rng: random.Random, decks_of: Mapping[str, str]) -> Board:
        """The halfway point: every face-up card to the bottom of its deck in random order,
        the S deck holder replaced by the N one, and the board refilled."""
        cards = [c for c in self.spots if c is not None]
        rng.shuffle(cards)
        board = replace(self, spots=(None,) * 16).to_bottom(tuple(cards), decks_of)
        return replace(board, late=True).refill()


def new_board(decks: Mapping[str, tuple[str, ...]]) -> Board:
    """A board with the four shuffled decks, every spot filled."""
    return Board((None,) * 16, tuple(tuple(decks.get(d, ())) for d in DECK_ORDER)).refill()


__all__ = ["CLOCKWISE", "DECK_ORDER", "NOTCHES", "SPOTS", "Board", "line_of", "new_board",
           "spot_of"]
