"""The game tracker: a game in progress, actions applied one by one, illegal ones refused.

A thin, mutable holder of the frozen :class:`GameState`: each method builds the action value
(:mod:`companion.the_glade.rules`) and applies it, so the rules live in one place
(:mod:`companion.the_glade.turn`, which says what a turn is and when the game ends). The table
service and the tests speak to it in the players' words: squares and tiles as text.

>>> from companion.the_glade.names import Square, Tile
>>> game = Game.new([("Toni", "yellow"), ("Emma", "blue")])
>>> game.current
'Toni'
>>> out = game.place({"C4": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
...                   "E4": "hedgehog/mushroom/oak"})
>>> str(game.state.glade[Tile.parse("hedgehog/hazelnut/horse-chestnut")])
'yellow-single'
>>> game.end_turn(); game.current
'Emma'
>>> [str(a) for a in game.log_actions]
['place C4=hedgehog/acorn/beech D4=hedgehog/blackberry/maple E4=hedgehog/mushroom/oak', 'end']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.the_glade.actions import Outcome
from companion.the_glade.claim import claim_options
from companion.the_glade.deal import new_table
from companion.the_glade.names import BoardGeometry, Icon, MatchCounter, Square, Tile, Token
from companion.the_glade.rules import (
    Action,
    Claim,
    EndTurn,
    ExtraAction,
    PlaceTiles,
    as_refs,
    as_square,
    as_tile,
    as_token,
)
from companion.the_glade.table import CounterRef, GameState


class Game:
    """A game in progress. ``state`` is the current frozen :class:`GameState`; ``log`` what
    each action did, ``log_actions`` every action applied."""

    def __init__(self, state: GameState) -> None:
        if state.current is None:
            state = replace(state, current=state.starter)
        self.state = state
        self.log: list[Outcome] = []
        self.log_actions: list[Action] = []

    # --- set up --------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[tuple[str, str]], *, variant: str = "basic",
            geometry: BoardGeometry | None = None, start_player: str | None = None,
            racks: Mapping[str, Sequence[str | Tile]] | None = None,
            icons: Mapping[str, str] | None = None) -> Game:
        """A new multi-player game: 12 counters on each side of the glade, 8 tiles per rack."""
        geo = geometry or BoardGeometry()
        icon_map = ({geo.parse_square(k): Icon.parse(v) for k, v in icons.items()}
                    if icons else None)
        return cls(new_table(players, variant=variant, geometry=geo, icons=icon_map,
                             start_player=start_player, racks=racks))

    # --- looking ---------------------------------------------------------------------------

    @property
    def current(self) -> str:
        return self.state.turn_player

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def finished(self) -> bool:
        return self.state.finished

    # --- actions ---------------------------------------------------------------------------

    def act(self, action: Action) -> Outcome | None:
        """Apply ``action`` (refused with :class:`IllegalAction`, the state unchanged)."""
        self.state, outcome = self.state.resolve(action)
        self.log_actions.append(action)
        if outcome is not None:
            self.log.append(outcome)
        return outcome

    def place(self, tiles: Mapping[str | Square, str | Tile], *, player: str | None = None,
              flips: Iterable[str | CounterRef] | None = None) -> Outcome:
        """Action 1: place 1-4 tiles (``{"C4": "hedgehog/acorn/oak"}``)."""
        return self._outcome(PlaceTiles.of(tiles, flips, player))

    def claim(self, tile: str | Tile, square: str | Square | None = None, *,
              player: str | None = None, flips: Iterable[str | CounterRef] | None = None
              ) -> Outcome:
        """Action 2: claim the counter on ``tile``'s glade space; ``square`` chooses where the
        tile goes when there is a choice."""
        sq = as_square(square) if square is not None else None
        return self._outcome(Claim(as_tile(tile), sq, as_refs(flips), player))

    def extra_action(self, counter: str | Token, square: str | Square, *,
                     player: str | None = None) -> Outcome:
        """Put a counter from the store into an empty enclosure; another action is then due."""
        return self._outcome(ExtraAction(as_token(counter), as_square(square), player))

    def end_turn(self, drawn: Sequence[str | Tile] | None = None, *,
                 player: str | None = None, cannot_refill: bool = False) -> None:
        """End the turn: refill the rack from the bag, check the end, pass to the left.

        ``drawn`` are the tiles drawn (a known rack stays known); ``cannot_refill`` says the
        bag ran short when the bag's count is not tracked. In a game whose bag is known and
        no tiles are named, the bag is left to draw (the state is a chance node).
        """
        tiles = tuple(as_tile(t) for t in drawn) if drawn is not None else None
        self.act(EndTurn(tiles, cannot_refill, player))

    def _outcome(self, action: Action) -> Outcome:
        outcome = self.act(action)
        assert outcome is not None
        return outcome

    # --- asking ----------------------------------------------------------------------------

    def claim_squares(self, tile: str | Tile) -> tuple[str, list[Square], bool]:
        """Where the current player could put ``tile`` when claiming: board, squares, completes."""
        opts = claim_options(self.state, self.current, as_tile(tile))
        return opts.board, list(opts.squares), opts.completes

    def can_act(self, name: str | None = None) -> bool:
        """Whether any action is possible: a claim, or a placement from a known rack."""
        from companion.the_glade.turn import can_act

        return can_act(self.state, name or self.current)

    def flip_choices(self, name: str | None = None) -> list[CounterRef]:
        """Where a player's single-side-up counters lie: the choices when they run out."""
        from companion.the_glade.table import singles_of

        return singles_of(self.state, self.state.player(name or self.current).colour)

    def extra_options(self) -> list[tuple[Token, Square]]:
        """Every (store counter, empty enclosure) pair the current player could use now."""
        from companion.the_glade.turn import extra_actions

        return [(a.counter, a.square) for a in extra_actions(self.state)]

    def placements(self) -> list[Any]:
        """The coach's advice for the current player's known rack (empty if unknown)."""
        from companion.the_glade.coach import advise

        p = self.state.player(self.current)
        if p.rack is None or self.state.finished or self.state.phase == "done":
            return []
        return advise(self.state, p.name, p.rack)

    def claims(self) -> list[tuple[Tile, str, list[Square]]]:
        """Every claim the current player could make: tile, board, squares."""
        from companion.the_glade.turn import claim_choices

        if self.state.finished or self.state.phase == "done":
            return []
        return [(tile, opts.board, list(opts.squares))
                for tile, opts in claim_choices(self.state, self.current)]

    def to_dict(self) -> dict[str, Any]:
        from companion.the_glade.state_file import dump_state
        return dump_state(self.state)


__all__ = ["Game", "MatchCounter"]
