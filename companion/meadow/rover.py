"""Rover, the solo game's dummy player: a pile of path tokens, the colour markers, a deck.

Each of Rover's turns flips the top token of the pile. A ? goes to the lowest unused notch of
the campfire board (or is discarded when all are used) and does nothing else. Any other token
goes to the main-board notch its colour's marker names (the closest clockwise unused notch
when that one is taken), and Rover takes the card the token points at into Rover's deck; the
spot is refilled. Rover's score is the points of Rover's deck.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.meadow.campfire import open_notches
from companion.meadow.main_board import CLOCKWISE, spot_of
from companion.meadow.path_tokens import rover_tokens

if TYPE_CHECKING:
    from companion.meadow.game import State

#: the main-board notches the solo game token's three marker spots point at (a reading of
#: the rulebook's illustration: spread evenly round the board, clockwise from R1)
SOLO_SPOTS: tuple[str, ...] = ("R1", "B4", "L4")


def rover_notch(state: State, colour: str) -> str | None:
    """The main-board notch for a token of ``colour``: its marker's, or the closest clockwise
    unused one."""
    start = dict(state.table.markers)[colour]
    taken = state.taken()
    i = CLOCKWISE.index(start)
    for step in range(len(CLOCKWISE)):
        notch = CLOCKWISE[(i + step) % len(CLOCKWISE)]
        if notch not in taken:
            return notch
    return None


def rover_turn(state: State) -> State:
    """Rover flips and places the top token of the pile (the state's log says what it did)."""
    assert state.rover is not None
    rover = state.rover
    if not rover.pile:
        return state
    token, pile = rover.pile[0], rover.pile[1:]
    colour, _, number = token.partition(":")
    if number == "?":
        free = [n for n in open_notches(state.campfire) if n not in state.taken()]
        if free:
            line = f"Rover: {colour} ? to campfire notch {free[0]}"
            notches = (*state.notches, (free[0], -1, token))
        else:
            line = f"Rover: {colour} ? discarded (every campfire notch is used)"
            notches = state.notches
        return replace(state, notches=notches,
                       rover=replace(rover, pile=pile, log=(*rover.log, line)))
    notch = rover_notch(state, colour)
    if notch is None:
        line = f"Rover: {colour} {number} found no free notch"
        return replace(state, rover=replace(rover, pile=pile, log=(*rover.log, line)))
    spot = spot_of(notch, int(number))
    card, board = state.board.take(spot)
    deck = (*rover.deck, card) if card else rover.deck
    what = (f"took {card} ({state.cat.cards[card].points} points)" if card
            else "found the spot empty")
    line = f"Rover: {colour} {number} at {notch}, {spot}: {what}"
    return replace(state, board=board, notches=(*state.notches, (notch, -1, token)),
                   rover=replace(rover, pile=pile, deck=deck, log=(*rover.log, line)))


def reshuffle(state: State, rng: random.Random) -> State:
    """The round is over: all of Rover's tokens are shuffled into a new face-down pile."""
    assert state.rover is not None
    pile = list(rover_tokens(state.table.colours[0]))
    rng.shuffle(pile)
    return replace(state, rover=replace(state.rover, pile=tuple(pile), log=()))


def rover_setup(state: State) -> State:
    """Rover's starting deck: the cards of the row under the deck holders and 1 N card; the
    board is refilled."""
    assert state.rover is not None
    board = state.board
    cards = []
    for col in range(1, 5):
        card, board = board.take(f"r1c{col}")
        if card:
            cards.append(card)
    top, board = board.draw("N")
    cards += top
    line = f"Rover's deck starts with {', '.join(cards)}"
    return replace(state, board=board,
                   rover=replace(state.rover, deck=(*state.rover.deck, *cards),
                                 log=(*state.rover.log, line)))


def rover_score(state: State) -> int:
    """The points of Rover's deck."""
    assert state.rover is not None
    return sum(state.cat.cards[c].points for c in state.rover.deck)


#: the solo result table (score at least this: the words)
RESULTS: tuple[tuple[int, str], ...] = (
    (60, "Your collection is worth displaying."),
    (50, "Amazing species! The memories of this trek will stay with you for a long time."),
    (40, "It was a fruitful trek. However, you observed only a few fascinating species."),
    (0, "You were distracted. You managed to immortalize only a few interesting species."),
)
LOST = "You did not observe enough interesting things during this trek."


def result(player: int, rover: int) -> str:
    """The solo result: lost to Rover, or the line of the result table (39 reads as < 40)."""
    if player < rover:
        return LOST
    return next(words for least, words in RESULTS if player >= least)


__all__ = ["LOST", "RESULTS", "SOLO_SPOTS", "reshuffle", "result", "rover_notch",
           "rover_score", "rover_setup", "rover_turn"]
