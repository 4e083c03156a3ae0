"""How a turn moves on: applying an action, the end of a turn, of a round, of the game.

:meth:`State.apply <companion.meadow.game.State.apply>` rules on an action and hands a legal
one to :func:`apply_action`. After the special action of a campfire notch a goal may be
claimed; then the next player's turn (Rover's first, solo), or the end of the round: tokens
collected, the first player token passed left, the round marker moved, and at the hourglass
the halfway point (the board to the decks' bottoms, the S deck swapped for the N deck, the
board refilled). After the last round the game is over.
"""

from __future__ import annotations

import random
from dataclasses import replace

from companion.games.interface import IllegalAction
from companion.meadow import rover as rover_mod
from companion.meadow.actions import (
    Action,
    ChooseRow,
    ChooseSide,
    Claim,
    Done,
    Keep,
    Look,
    PlaceToken,
    Play,
    Take,
)
from companion.meadow.game import State, Turn
from companion.meadow.main_board import NOTCHES, SPOTS, spot_of
from companion.meadow.meadow import Bonus, PlayerArea
from companion.meadow.path_tokens import tokens_for
from companion.meadow.requirements import play_card


def _rng(state: State, purpose: str) -> random.Random:
    return random.Random(f"{state.table.seed}:{state.round}:{purpose}")


def _set_area(state: State, seat: int, area: PlayerArea) -> State:
    return replace(state, players=tuple(area if i == seat else a
                                        for i, a in enumerate(state.players)))


def apply_action(state: State, action: Action) -> State:
    """The state after a legal ``action`` (ruled on by :meth:`State.apply`)."""
    seat = state.current_player()
    area = state.players[seat]
    turn = state.turn
    if isinstance(action, ChooseRow):
        return _choose_row(state, seat, action.row)
    if isinstance(action, ChooseSide):
        return _choose_side(state, seat, action.card)
    if isinstance(action, Claim):
        bonus = Bonus(area.next_bonus() or 0, action.goals)
        state = _set_area(state, seat, replace(area, bonus=(*area.bonus, bonus)))
        state = replace(state, turn=replace(turn, claimed=True))
        return end_turn(state) if turn.step == "claim" else state
    if isinstance(action, Done):
        return end_turn(state)
    if isinstance(action, PlaceToken):
        return _place_token(state, seat, action)
    if isinstance(action, Play):
        area = play_card(area, state.cat, action.card, action.place, action.discards)
        state = _set_area(state, seat, area)
        state = replace(state, board=state.board.to_bottom(action.discards, state.decks_of()))
        left = turn.plays_left - 1
        state = replace(state, turn=replace(turn, plays_left=left))
        return after_action(state) if left == 0 else state
    if isinstance(action, Take):
        card, board = state.board.take(action.spot)
        state = replace(state, board=board)
        if card:
            state = _set_area(state, seat, replace(area, hand=(*area.hand, card)))
        return after_action(state)
    if isinstance(action, Look):
        top, board = state.board.draw(action.deck, 3)
        return replace(state, board=board, turn=replace(turn, step="keep", looking=top,
                                                        look_deck=action.deck))
    if isinstance(action, Keep):
        rest = tuple(c for c in turn.looking if c != action.card)
        board = state.board.with_deck(turn.look_deck, (*state.board.deck(turn.look_deck),
                                                       *rest))
        state = replace(state, board=board, turn=replace(turn, looking=(), look_deck=""))
        state = _set_area(state, seat, replace(area, hand=(*area.hand, action.card)))
        return after_action(state)
    raise IllegalAction(f"{action!r} is not an action of Meadow", "not-an-action")


def _place_token(state: State, seat: int, action: PlaceToken) -> State:
    area = state.players[seat]
    tokens = list(state.tokens[seat])
    tokens.remove(action.token)
    state = replace(state, tokens=tuple(tuple(tokens) if i == seat else t
                                        for i, t in enumerate(state.tokens)),
                    notches=(*state.notches, (action.notch, seat, action.token)))
    base = Turn("place", seat, action.notch)
    if action.notch in NOTCHES:
        spot = spot_of(action.notch, action.count or int(action.token))
        card, board = state.board.take(spot)
        state = replace(state, board=board, turn=replace(base, step="play", plays_left=1))
        if card:
            state = _set_area(state, seat, replace(area, hand=(*area.hand, card)))
        return state
    if action.notch.startswith("bench"):
        return replace(state, turn=replace(base, step="play", plays_left=1))
    special = action.special or state.cat.path_actions[action.token]
    turn = replace(base, campfire=True)
    if special == "take-card":
        if any(state.board.spots):
            return replace(state, turn=replace(turn, step="pick"))
    elif special == "take-roads":
        state = _set_area(state, seat, replace(area, roads_unused=area.roads_unused + 2))
    elif special == "look-three":
        if any(state.board.deck(d) for d in state.board.on_board_decks()):
            return replace(state, turn=replace(turn, step="look"))
    else:
        return replace(state, turn=replace(turn, step="play", plays_left=2))
    return after_action(replace(state, turn=turn))


def after_action(state: State) -> State:
    """The special action is done: claim a goal if one can be, else the turn ends."""
    turn = replace(state.turn, step="claim", plays_left=0)
    state = replace(state, turn=turn)
    if state._claims():
        return state
    return end_turn(state)


def end_turn(state: State) -> State:
    """The next player's turn, Rover's in between (solo), or the end of the round."""
    seat = state.turn.seat
    if state.solo:
        if not state.tokens[0]:
            return end_round(state)
        state = rover_mod.rover_turn(state)
        return replace(state, turn=Turn("place", 0))
    nxt = (seat + 1) % len(state.players)
    if not state.tokens[nxt]:
        return end_round(state)
    return replace(state, turn=Turn("place", nxt))


def end_round(state: State) -> State:
    """Collect the tokens, pass the first player token left, move the round marker (and at
    the hourglass: the halfway point); after the last round, the game is over."""
    n = len(state.players)
    done = state.round
    if done >= state.rounds:
        return replace(state, notches=(), turn=Turn("over"),
                       tokens=tuple(() for _ in state.players))
    board = state.board
    if done == state.campfire.halfway:
        board = board.halfway(_rng(state, "halfway"), state.decks_of())
    first = 0 if state.solo else (state.first + 1) % n
    state = replace(state, board=board, round=done + 1, first=first, notches=(),
                    tokens=tuple(tokens_for(1 if state.solo else n) for _ in state.players))
    if state.solo:
        state = rover_mod.reshuffle(state, _rng(state, "rover"))
        state = rover_mod.rover_turn(state)
        return replace(state, turn=Turn("place", 0))
    return replace(state, turn=Turn("place", first))


def _choose_row(state: State, seat: int, row: int) -> State:
    cards = tuple(c for c in (state.board.card_at(f"r{row}c{col}") for col in range(1, 5)) if c)
    board = replace(state.board, spots=tuple(None if s.startswith(f"r{row}") else c
                                             for s, c in zip(SPOTS, state.board.spots,
                                                             strict=True)))
    top, board = board.draw("N")
    area = state.players[seat]
    state = _set_area(state, seat, replace(area, hand=(*area.hand, *cards, *top)))
    state = replace(state, board=board.refill())
    order = state.turn.order[1:]
    if order:
        return replace(state, turn=replace(state.turn, order=order))
    if state.solo:
        state = rover_mod.rover_setup(state)
    return replace(state, turn=Turn("side", order=tuple(range(len(state.players)))))


def _choose_side(state: State, seat: int, card: str) -> State:
    state = _set_area(state, seat, replace(state.players[seat], meadow=((card,),)))
    order = state.turn.order[1:]
    if order:
        return replace(state, turn=replace(state.turn, order=order))
    return start_play(state)


def start_play(state: State) -> State:
    """Round 1 begins: the first player's turn (Rover's first, solo)."""
    if state.solo:
        state = rover_mod.rover_turn(state)
        return replace(state, turn=Turn("place", 0))
    return replace(state, turn=Turn("place", state.first))


__all__ = ["after_action", "apply_action", "end_round", "end_turn", "start_play"]
