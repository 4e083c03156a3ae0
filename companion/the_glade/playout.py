"""Simulated games: a real bag of 128 tiles and players who pick among the legal actions.

Used by the conformance tests (random legal games keep every invariant), the benchmark and to
make the sample state files. ``greed`` 0 plays uniformly at random among the legal actions;
1 always plays greedily: a claim, or the coach's best of (up to) 40 sampled placements.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.the_glade.claim import claim_options
from companion.the_glade.coach import evaluate, legal_placements
from companion.the_glade.names import ALL_TILES, BoardGeometry, Icon, Square, Tile
from companion.the_glade.table import RACK_SIZE, GameState
from companion.the_glade.tracker import Game


def new_bag(rng: random.Random) -> list[Tile]:
    """Both sets of 64 tiles (the season changes no rule), shuffled."""
    bag = [t for t in ALL_TILES for _ in range(2)]
    rng.shuffle(bag)
    return bag


def deal(players: Sequence[tuple[str, str]], rng: random.Random, *, variant: str = "basic",
         geometry: BoardGeometry | None = None,
         icons: Mapping[str, Mapping[Square, Icon]] | None = None) -> tuple[Game, list[Tile]]:
    """Set up a game with known racks; returns the game and the bag left."""
    bag = new_bag(rng)
    racks = {name: [bag.pop() for _ in range(RACK_SIZE)] for name, _c in players}
    game = Game.new(players, variant=variant, geometry=geometry, racks=racks)
    if icons:
        state = game.state
        for name, layout in icons.items():
            state = state.with_player(replace(state.player(name), icons=dict(layout)))
        game.state = state
    game.state = replace(game.state, bag=len(bag))
    return game, bag


def solo_deal(name: str, colour: str, neutral: str, rng: random.Random) -> tuple[Game, list[Tile]]:
    """Set up a solo game: 12 different tiles mark the neutral counters, then back in the bag."""
    from companion.the_glade.solo import solo_setup

    bag = new_bag(rng)
    marked: list[Tile] = []
    for t in bag:
        if t not in marked:
            marked.append(t)
        if len(marked) == 12:
            break
    rack = [bag.pop() for _ in range(RACK_SIZE)]
    bag.pop()  # the first face-down tile
    state = solo_setup(name, colour, neutral, marked, rack=rack)
    return Game(replace(state, bag=len(bag))), bag


def _one_action(game: Game, rng: random.Random, greed: float) -> bool:
    """Take one action for the current player; False when none is possible."""
    name = game.current
    me = game.state.player(name)
    rack = list(me.rack or ())
    claims = []
    for tile in sorted(set(rack)):
        if tile in game.state.glade:
            opts = claim_options(game.state, name, tile)
            for sq in opts.squares:
                claims.append((tile, sq))
    options = legal_placements(me.forest, rack)
    if not claims and not options:
        return False
    greedy = rng.random() < greed
    if claims and (not options or rng.random() < (0.6 if greedy else 0.3)):
        tile, sq = rng.choice(claims)
        game.claim(tile, sq)
        return True
    if greedy:  # the coach's best of a sample keeps simulated games quick
        sample = rng.sample(options, min(len(options), 40))
        best = max(sample, key=lambda p: (evaluate(game.state, name, p).points, len(p)))
        game.place(best)
    else:
        game.place(rng.choice(options))
    return True


def play_turn(game: Game, bag: list[Tile], rng: random.Random, greed: float = 0.5) -> None:
    """One whole turn: an action, perhaps extra actions, then refill from the bag."""
    acted = _one_action(game, rng, greed)
    while acted:
        options = game.extra_options()
        if not options or rng.random() < 0.3:
            break
        token, square = rng.choice(options)
        game.extra_action(token, square)
        acted = _one_action(game, rng, greed)
    me = game.state.player(game.current)
    last = game.current == game.state.last_in_round
    ending = last and (game.state.end_triggered or any(p.supply == 0 for p in game.state.players))
    drawn: list[Tile] | None = None
    if not ending:
        drawn = [bag.pop() for _ in range(min(RACK_SIZE - me.rack_size, len(bag)))]
        if game.state.variant == "solo" and bag:
            bag.pop()  # the face-down tile that counts the turn
    game.end_turn(drawn)


def play_game(game: Game, bag: list[Tile], rng: random.Random, greed: float = 0.5,
              max_turns: int = 400) -> GameState:
    """Play until the game is over (or ``max_turns``); returns the final state."""
    for _ in range(max_turns):
        if game.finished:
            break
        play_turn(game, bag, rng, greed)
    return game.state
