"""Action 2, Claim a toadstool: take a counter from the glade, then place the matching tile.

Where the tile goes (rulebook 2a/2b):

* Your own counter: on your board, completing the set of 4 if that is legal; otherwise on
  any legal square of your board.
* Another player's counter: on their board completing their set of 4 if legal (with a choice
  of squares, you choose); otherwise on any legal square of your own board.
* A neutral counter (solo game) or one whose colour has no board: any legal square of your
  own board.

Payouts of the tile placed (choices written here and tested):

* When the tile completes the set of 4 the counter marked, no set of 4 it makes is paid:
  the claimed counter is the reward, and "the very rarely" second set of 4 is ignored.
  Sets of 3 it creates are paid to the board's owner as usual.
* When the tile goes to your own board without completing (the fall-back), it is an ordinary
  1-tile placement: sets of 3 and sets of 4 are paid to you by the usual rules.
* If there is no legal square for the tile at all, the claim cannot be made.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.the_glade.actions import Outcome, pay_sets, take_from_rack
from companion.the_glade.forest import Forest
from companion.the_glade.matching import reward_matches
from companion.the_glade.names import Square, Tile
from companion.the_glade.placement import consequences, rule_placement
from companion.the_glade.set_rewards import Move
from companion.the_glade.table import CounterRef, GameState, IllegalAction


@dataclass(frozen=True)
class ClaimOptions:
    """Where a claimed tile may go: which board, which squares, and whether it completes."""

    board: str
    squares: tuple[Square, ...]
    completes: bool


def legal_squares(forest: Forest, tile: Tile) -> list[Square]:
    """Every square where ``tile`` alone is a legal placement."""
    return [sq for sq in forest.geometry.squares()
            if forest.is_empty_square(sq) and rule_placement(forest, {sq: tile}).legal]


def completing_squares(forest: Forest, tile: Tile) -> list[Square]:
    """Squares where ``tile`` legally turns a set of 3 into a set of 4."""
    out = []
    for sq in legal_squares(forest, tile):
        if any(len(forest.run(sq, axis, {sq: tile})) == 4 for axis in ("row", "column")):
            out.append(sq)
    return out


def claim_options(state: GameState, name: str, tile: Tile) -> ClaimOptions:
    """Where ``name`` must or may put ``tile`` after claiming the counter on its space."""
    counter = state.glade.get(tile)
    if counter is None:
        raise IllegalAction(f"no toadstool counter lies on the glade space of the "
                            f"{tile.describe()}", "no-counter")
    me = state.player(name)
    owner = state.owner_of(counter.colour)
    if owner is not None:
        squares = completing_squares(owner.forest, tile)
        if squares:
            return ClaimOptions(owner.name, tuple(squares), True)
    return ClaimOptions(name, tuple(legal_squares(me.forest, tile)), False)


def claim_toadstool(state: GameState, name: str, tile: Tile, square: Square | None = None,
                    flips: Sequence[CounterRef] = ()) -> tuple[GameState, Outcome]:
    """Claim the counter on ``tile``'s glade space and place the tile.

    ``square`` is the player's choice where there is one; without it the only possible
    square is used, and a real choice is refused with the options listed.
    """
    me = state.player(name)
    if me.rack is not None and tile not in me.rack:
        raise IllegalAction(f"{name}'s rack holds no {tile.describe()} ({tile}) to claim with",
                            "rack")
    options = claim_options(state, name, tile)
    if not options.squares:
        raise IllegalAction(f"the {tile.describe()} has no legal square on {name}'s board, so "
                            "the toadstool cannot be claimed", "no-square")
    if square is None:
        if len(options.squares) > 1:
            raise IllegalAction(f"choose the square for the {tile.describe()} on "
                                f"{options.board}'s board: "
                                f"{', '.join(s.name for s in options.squares)}", "choose-square")
        square = options.squares[0]
    if square not in options.squares:
        why = ("it must complete the set of 4" if options.completes
               else "it must be a legal placement")
        raise IllegalAction(f"the {tile.describe()} cannot go on {square} of {options.board}'s "
                            f"board: {why} (possible: "
                            f"{', '.join(s.name for s in options.squares) or 'none'})",
                            "wrong-square")
    counter = state.glade[tile]
    state = state.with_glade(tile, None).add_to_store(name, counter)
    events: list = [Move(counter, CounterRef("glade", tile=tile),
                         CounterRef("store", player=name), f"{name} claims the counter")]
    state = state.with_player(take_from_rack(state.player(name), [tile]))
    board = state.player(options.board)
    ruling = consequences(board.forest, {square: tile})
    state = state.with_player(replace(board, forest=board.forest.with_tiles({square: tile})))
    state, paid = pay_sets(state, options.board, ruling,
                           fours=[] if options.completes else None, flips=flips)
    state, matched = reward_matches(state, name, options.board, {square: tile})
    notes = ("completes the set of 4" if options.completes else "placed on own board",)
    return state, Outcome("claim", name, options.board, ruling, (*events, *paid, *matched),
                          counter, notes)


__all__ = ["ClaimOptions", "claim_options", "claim_toadstool", "completing_squares",
           "legal_squares"]
