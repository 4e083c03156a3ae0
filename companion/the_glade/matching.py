"""The matching game: icons printed on the board's squares, and the match counters they give.

A tile placed so that one of its icons matches the icon printed on its square earns the player
who placed it a match counter (also on an opponent's board, by the Claim action). Per the BGG
errata the tile must also connect back to the centre square when it is placed.

Choices (each tested):

* "Connects back to the centre square at placement time" is judged after all the tiles of
  the action are on the board, so a tile may connect through another tile placed with it.
* Ring icons (creatures and fruits) are unique to each board, so each ring square's counter
  can be won once (tiles never move). The ring counter is therefore always available; it
  is worth 1 point.
* Leaf counters: 4 per leaf (4, 3, 2, 1 points); the placer takes the highest value no one
  holds yet. A held leaf counter whose icon the state file does not name blocks nothing.
  When all four are gone a matching leaf earns nothing.
* The board's icons are data. The state file's ``board.icons`` maps squares to icons for
  every board; a player's ``forest.icons`` overrides it for that player's board.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.the_glade.forest import Forest
from companion.the_glade.names import Icon, MatchCounter, Square, Tile
from companion.the_glade.set_rewards import POOL, Move
from companion.the_glade.table import CounterRef, GameState

LEAF_VALUES = (4, 3, 2, 1)


def leaf_values_left(state: GameState, leaf: str) -> list[int]:
    """The leaf counters of ``leaf`` nobody holds yet, highest first."""
    held = {mc.value for p in state.players for mc, _sq in p.match_counters
            if mc.kind == "leaf" and mc.icon is not None and mc.icon.leaf == leaf}
    return [v for v in LEAF_VALUES if v not in held]


def match_counter_for(state: GameState, icon: Icon) -> MatchCounter | None:
    """The match counter a matched icon gives now, or None (all leaf counters gone)."""
    if icon.kind != "leaf":
        return MatchCounter(icon.kind, 1, icon)
    left = leaf_values_left(state, icon.leaf)
    return MatchCounter("leaf", left[0], icon) if left else None


def matches(icons: Mapping[Square, Icon], after: Forest, placed: Mapping[Square, Tile]
            ) -> list[tuple[Square, Icon]]:
    """The placed tiles that match their square's icon and connect to the centre square."""
    if not icons:
        return []
    linked = after.connected_to_centre()
    return [(sq, icons[sq]) for sq in sorted(placed)
            if sq in icons and icons[sq].matches(placed[sq]) and sq in linked]


def reward_matches(state: GameState, actor: str, board_owner: str,
                   placed: Mapping[Square, Tile]) -> tuple[GameState, list[Move]]:
    """Give ``actor`` the match counters earned by tiles placed on ``board_owner``'s forest.

    ``state`` already shows the tiles on the board.
    """
    if state.variant != "matching":
        return state, []
    owner = state.player(board_owner)
    events: list[Move] = []
    for sq, icon in matches(state.icons_for(owner), owner.forest, placed):
        counter = match_counter_for(state, icon)
        if counter is None:
            continue
        state = state.add_to_store(actor, counter)
        events.append(Move(counter, CounterRef(POOL), CounterRef("store", player=actor),
                           f"{placed[sq].describe()} on {sq.name} matches the "
                           f"{icon.describe()} icon"))
    return state, events
