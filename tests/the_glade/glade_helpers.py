"""Shared builders for The Glade's tests: short tiles, forests from text, Toni's game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from companion.the_glade.forest import Forest, parse_tile
from companion.the_glade.names import Counter, Square, Tile
from companion.the_glade.table import GameState, Player
from companion.the_glade.tracker import Game


def T(text: str) -> Tile:
    """A tile from its name or 3-letter code (``Hao``)."""
    return parse_tile(text)


def S(text: str) -> Square:
    return Square.parse(text)


def tiles(mapping: Mapping[str, str]) -> dict[Square, Tile]:
    return {S(k): T(v) for k, v in mapping.items()}


def forest(mapping: Mapping[str, str] | None = None, counters: Mapping[str, str] | None = None
           ) -> Forest:
    """A 7x7 forest (centre D4) from ``{"D4": "Hao"}``."""
    return Forest(tiles=tiles(mapping or {}),
                  counters={S(k): Counter.parse(v) for k, v in (counters or {}).items()})


def table(*players: Player, glade: Mapping[str, str] | None = None, **kw: object) -> GameState:
    return GameState(tuple(players), glade={T(k): Counter.parse(v)
                                            for k, v in (glade or {}).items()}, **kw)


def with_forest(game: Game, name: str, f: Forest) -> None:
    game.state = game.state.with_player(replace(game.state.player(name), forest=f))


# Toni's turns 1-5 from the rulebook, laid out so every sentence of the examples holds.
TONI_1 = {"C4": "hedgehog/acorn/maple", "D4": "hedgehog/blackberry/beech",
          "E4": "hedgehog/mushroom/oak"}
TONI_2 = {"A3": "toad/hazelnut/beech", "B3": "squirrel/blackberry/beech",
          "C3": "mouse/acorn/beech"}
TONI_3 = {"E3": "squirrel/mushroom/oak", "E5": "toad/mushroom/oak"}
TONI_4 = {"B2": "squirrel/blackberry/horse-chestnut", "C2": "squirrel/acorn/horse-chestnut",
          "D2": "squirrel/hazelnut/horse-chestnut"}
TONI_5 = {"E6": "mouse/mushroom/oak", "F6": "toad/mushroom/maple"}
# Emma (blue) makes a set of 3 missing the dark brown toad with an acorn, double side.
EMMA_1 = {"C4": "hedgehog/acorn/oak", "D4": "mouse/acorn/oak", "E4": "squirrel/acorn/oak"}
EMMA_FILLERS = [{"C5": "hedgehog/blackberry/oak"}, {"A1": "mouse/hazelnut/maple"},
                {"A7": "mouse/hazelnut/beech"}]


def toni_game(upto: int = 5) -> Game:
    """Toni (yellow, start player) and Emma (blue) play until Toni's turn ``upto`` is done."""
    game = Game.new([("Toni", "yellow"), ("Emma", "blue")])
    emma = [EMMA_1, *EMMA_FILLERS]
    for i, turn in enumerate([TONI_1, TONI_2, TONI_3, TONI_4, TONI_5][:upto]):
        game.place(turn)
        if i == upto - 1:
            break
        game.end_turn()
        game.place(emma[i])
        game.end_turn()
    return game
