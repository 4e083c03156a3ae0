"""Simulated games: a known bag of 128 tiles and players who pick among the legal actions.

Used by the conformance tests (random legal games keep every invariant), the benchmark and to
make the sample state files. A player picks among ``state.legal_actions()``; the bag's draws
are chance outcomes, sampled with :func:`companion.games.interface.sample_chance`.

``greed`` 0 plays uniformly at random among the legal actions; 1 always plays greedily: a
claim, or the coach's best of (up to) 40 sampled placements.

>>> import random
>>> game, bag = deal([("Ann", "red"), ("Bob", "blue")], random.Random(1))
>>> state = play_game(game, bag, random.Random(2))
>>> state.finished, len(bag) == state.bag
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from companion.games.interface import CHANCE, sample_chance
from companion.the_glade.coach import evaluate
from companion.the_glade.deal import deal_table, new_bag
from companion.the_glade.names import BoardGeometry, Icon, Square, Tile
from companion.the_glade.rules import (
    Action,
    Claim,
    EndTurn,
    ExtraAction,
    PlaceTiles,
)
from companion.the_glade.table import RACK_SIZE, GameState
from companion.the_glade.tracker import Game


def deal(players: Sequence[tuple[str, str]], rng: random.Random, *, variant: str = "basic",
         geometry: BoardGeometry | None = None,
         icons: Mapping[str, Mapping[Square, Icon]] | None = None) -> tuple[Game, list[Tile]]:
    """Set up a game with known racks and a known bag; returns the game and the bag's tiles
    (:func:`play_turn` keeps that list equal to the state's bag)."""
    state = deal_table(players, rng, variant=variant, geometry=geometry, player_icons=icons)
    return Game(state), list(state.bag_tiles or ())


def solo_deal(name: str, colour: str, neutral: str, rng: random.Random) -> tuple[Game, list[Tile]]:
    """Set up a solo game: 12 different tiles mark the neutral counters, then back in the bag."""
    state = deal_table([(name, colour)], rng, variant="solo", neutral=neutral)
    return Game(state), list(state.bag_tiles or ())


def choose(state: GameState, rng: random.Random, greed: float = 0.5) -> Action:
    """A legal action for the current player: an action if one is possible (a claim, or a
    placement: the coach's best of a sample when greedy), then perhaps an extra action
    (7 times in 10), else the end of the turn."""
    actions = state.legal_actions()
    claims = [a for a in actions if isinstance(a, Claim)]
    places = [a for a in actions if isinstance(a, PlaceTiles)]
    if claims or places:
        greedy = rng.random() < greed
        if claims and (not places or rng.random() < (0.6 if greedy else 0.3)):
            return rng.choice(claims)
        if greedy:  # the coach's best of a sample keeps simulated games quick
            name = state.turn_player
            sample = rng.sample(places, min(len(places), 40))
            return max(sample, key=lambda a: (evaluate(state, name, a.placed).points,
                                              len(a.tiles)))
        return rng.choice(places)
    extras = [a for a in actions if isinstance(a, ExtraAction)]
    if extras and rng.random() >= 0.3:
        return rng.choice(extras)
    return next(a for a in actions if isinstance(a, EndTurn))


def play_turn(game: Game, bag: list[Tile], rng: random.Random, greed: float = 0.5) -> None:
    """One whole turn: an action, perhaps extra actions, then the refill from the bag.

    A game with a known bag draws by chance and ``bag`` is kept equal to it; for a game
    whose bag is not known (only counted), the tiles are taken from the end of ``bag``.
    """
    name = game.current
    turns = game.state.player(name).turns
    while not game.finished and game.state.player(name).turns == turns:
        state = game.state
        if state.current_player() == CHANCE:
            game.act(sample_chance(state, rng))
            continue
        action = choose(state, rng, greed)
        if isinstance(action, EndTurn) and state.bag_tiles is None and not state.last_turn:
            me = state.player(name)
            drawn = [bag.pop() for _ in range(min(RACK_SIZE - me.rack_size, len(bag)))]
            if state.variant == "solo" and bag:
                bag.pop()  # the face-down tile that counts the turn
            action = EndTurn(tuple(drawn))
        game.act(action)
    if game.state.bag_tiles is not None:
        bag[:] = game.state.bag_tiles


def play_game(game: Game, bag: list[Tile], rng: random.Random, greed: float = 0.5,
              max_turns: int = 400) -> GameState:
    """Play until the game is over (or ``max_turns``); returns the final state."""
    for _ in range(max_turns):
        if game.finished:
            break
        play_turn(game, bag, rng, greed)
    return game.state


__all__ = ["choose", "deal", "new_bag", "play_game", "play_turn", "solo_deal"]
