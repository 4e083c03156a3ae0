"""Setting up The Glade: a table at the start of a game, and a game dealt from a known bag.

:func:`new_table` is the table as players set it up (racks and bag unknown unless given);
:func:`deal_table` shuffles a bag of 128 tiles and deals from it, so every rack and the bag's
tiles are known and the engine can play the game out (see
:meth:`companion.the_glade.rules.GladeRules.new_game`).

>>> import random
>>> state = deal_table([("Ann", "red"), ("Bob", "blue")], random.Random(1))
>>> state.bag, len(state.bag_tiles), [len(p.rack) for p in state.players]
(112, 112, [8, 8])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace

from companion.the_glade.forest import Forest, parse_tile
from companion.the_glade.names import ALL_TILES, BoardGeometry, Icon, Square, Tile
from companion.the_glade.table import (
    RACK_SIZE,
    TILES_IN_GAME,
    VARIANTS,
    GameState,
    IllegalAction,
    Player,
)

#: The colours players take, in seat order (the box's four player colours).
COLOURS = ("yellow", "blue", "red", "green")
#: The solo game's neutral colour unless another is chosen (one of the non-player colours).
NEUTRAL = "purple"


def new_table(players: Sequence[tuple[str, str]], *, variant: str = "basic",
              geometry: BoardGeometry | None = None, start_player: str | None = None,
              racks: Mapping[str, Sequence[str | Tile]] | None = None,
              icons: Mapping[Square, Icon] | None = None,
              player_icons: Mapping[str, Mapping[Square, Icon]] | None = None,
              bag_tiles: Sequence[Tile] | None = None) -> GameState:
    """A new multi-player table: 12 counters on each side of the glade, 8 tiles per rack.

    ``racks`` give the tiles of known racks (others are unknown); ``icons`` the matching
    side shared by every board, ``player_icons`` one player's own; ``bag_tiles`` the bag's
    tiles when they are known (else only its count is).
    """
    if not 1 <= len(players) <= 4:
        raise IllegalAction("The Glade takes 1-4 players", "setup")
    if variant not in VARIANTS:
        raise IllegalAction(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}",
                            "setup")
    racks = racks or {}
    geo = geometry or BoardGeometry()
    made = []
    for name, colour in players:
        rack = racks.get(name)
        tiles = (tuple(t if isinstance(t, Tile) else parse_tile(t) for t in rack)
                 if rack is not None else None)
        own = (player_icons or {}).get(name)
        made.append(Player(name, colour, forest=Forest(geo), rack=tiles,
                           rack_size=len(tiles) if tiles is not None else RACK_SIZE,
                           icons=dict(own) if own is not None else None))
    bag = TILES_IN_GAME - RACK_SIZE * len(players) if bag_tiles is None else len(bag_tiles)
    first = start_player or players[0][0]
    return GameState(tuple(made), variant=variant, geometry=geo,
                     icons=icons, start_player=first, current=first, bag=bag,
                     bag_tiles=None if bag_tiles is None else tuple(bag_tiles))


def new_bag(rng: random.Random) -> list[Tile]:
    """Both sets of 64 tiles (the season changes no rule), shuffled."""
    bag = [t for t in ALL_TILES for _ in range(2)]
    rng.shuffle(bag)
    return bag


def deal_table(players: Sequence[tuple[str, str]], rng: random.Random, *,
               variant: str = "basic", geometry: BoardGeometry | None = None,
               icons: Mapping[Square, Icon] | None = None,
               player_icons: Mapping[str, Mapping[Square, Icon]] | None = None,
               neutral: str = NEUTRAL, start_player: str | None = None) -> GameState:
    """A game dealt from a shuffled bag of 128 tiles: every rack and the bag are known.

    The solo game marks the neutral counters' spaces with the first 12 different tiles of
    the shuffled bag (they go back into it), then deals the rack and the first face-down
    tile.
    """
    bag = new_bag(rng)
    if variant == "solo":
        from companion.the_glade.solo import solo_setup

        if len(players) != 1:
            raise IllegalAction(f"the solo game has 1 player, not {len(players)}", "setup")
        marked: list[Tile] = []
        for t in bag:
            if t not in marked:
                marked.append(t)
            if len(marked) == 12:
                break
        rack = [bag.pop() for _ in range(RACK_SIZE)]
        bag.pop()  # the first face-down tile
        name, colour = players[0]
        state = solo_setup(name, colour, neutral, marked, geometry=geometry, rack=rack)
        return replace(state, bag=len(bag), bag_tiles=tuple(bag))
    racks = {name: [bag.pop() for _ in range(RACK_SIZE)] for name, _c in players}
    return new_table(players, variant=variant, geometry=geometry, start_player=start_player,
                     racks=racks, icons=icons, player_icons=player_icons, bag_tiles=bag)


__all__ = ["COLOURS", "NEUTRAL", "deal_table", "new_bag", "new_table"]
