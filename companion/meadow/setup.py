"""Setting up a game: decks, the main board, the campfire's goals, the players' tokens.

``new_game`` shuffles with ``seed`` so a game is reproducible. Player preparation follows: in
a usual game each player, beginning with the one to the right of the starting player and
going counter-clockwise, takes a main-board row and 1 N card; for a first game
(``first_game``) each is dealt 1 W, 2 S, 1 E and 1 N card. Then each lays a side of the
starting ground card. Solo: Rover's pile is shuffled, the colour markers laid by the solo
game token, and after the player's cards Rover's deck gets the row under the deck holders and
1 N card.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.errors import StateError
from companion.meadow.catalogue import DECKS, Catalogue
from companion.meadow.game import Rover, State, Table, Turn
from companion.meadow.main_board import new_board
from companion.meadow.meadow import PlayerArea
from companion.meadow.path_tokens import COLOURS, rover_tokens, tokens_for
from companion.meadow.rover import SOLO_SPOTS, rover_setup


def new_game(cat: Catalogue, seats: Sequence[str], *, seed: int = 0, first_game: bool = False,
             envelopes: Sequence[str] = (), catalogue_ref: str = "") -> State:
    """A game set up for ``seats`` (1 is the solo variant against Rover)."""
    n = len(seats)
    if not 1 <= n <= 4:
        raise StateError(f"players: Meadow is for 1 to 4 players, not {n}")
    if len(set(seats)) != n or not all(isinstance(s, str) and s.strip() for s in seats):
        raise StateError("players: each player needs a name of their own")
    letters = sorted({e.upper() for e in envelopes})
    known = {c.envelope for c in cat.cards.values() if c.envelope}
    for e in letters:
        if e not in known:
            raise StateError(f"envelopes: the catalogue has no envelope {e}")
    rng = random.Random(seed)
    decks = {}
    for d in DECKS:
        cards = list(cat.deck(d, tuple(letters)))
        rng.shuffle(cards)
        decks[d] = tuple(cards)
    board = new_board(decks)
    campfire = cat.board(n)
    goals = [g.id for g in cat.goal_tokens if g.envelope is None or g.envelope in letters]
    rng.shuffle(goals)
    starts = list(cat.starting_cards())
    rng.shuffle(starts)
    if len(starts) < n:
        raise StateError(f"catalogue: {len(starts)} starting ground cards for {n} players")
    colours = COLOURS[:n]
    markers: tuple[tuple[str, str], ...] = ()
    rover = None
    if n == 1:
        others = [c for c in COLOURS if c != colours[0]]
        rng.shuffle(others)
        markers = tuple(zip(others, SOLO_SPOTS, strict=True))
        pile = list(rover_tokens(colours[0]))
        rng.shuffle(pile)
        rover = Rover(tuple(pile))
    table = Table(seed, tuple(goals[:campfire.goal_spots]), tuple(letters), colours, markers,
                  first_game, tuple(starts[:n]))
    players = tuple(PlayerArea(name, roads_unused=1) for name in seats)
    tokens = tuple(tokens_for(n) for _ in seats)
    state = State(cat, players, board, table, Turn("row", order=tuple(range(n - 1, -1, -1))),
                  tokens=tokens, rover=rover, catalogue_ref=catalogue_ref)
    if not first_game:
        return state
    from dataclasses import replace

    for seat in range(n):
        hand: list[str] = []
        for d in ("W", "S", "S", "E", "N"):
            top, b = state.board.draw(d)
            state = replace(state, board=b)
            hand += top
        area = state.players[seat]
        state = replace(state, players=tuple(replace(area, hand=tuple(hand)) if i == seat
                                             else a for i, a in enumerate(state.players)))
    if state.solo:
        state = rover_setup(state)
    return replace(state, turn=Turn("side", order=tuple(range(n))))


__all__ = ["new_game"]
