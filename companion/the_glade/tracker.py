"""The game tracker: the whole table, actions applied one by one, illegal ones refused.

A turn: one action (place tiles or claim a toadstool), then any number of extra actions (a
counter from the store into an empty enclosure, then another action), then the end of the
turn (refill the rack to 8 from the bag). The end is triggered when a player's side of the
glade is empty or the bag cannot refill a rack; play goes on until the player to the right of
the start player (the last in each round) has finished their turn.

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

Choices (tested):

* After an extra action the player must act again; if no action is possible at all (no
  legal placement from a known rack and no claim), the turn may end anyway. Likewise a
  player who can take no action at all passes (the rulebook does not say).
* With an unknown rack the tracker trusts the tiles it is told and only counts them.
* The solo game also ends when the bag cannot refill the rack (the rulebook's general end
  rule), at the end of that turn.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.the_glade.actions import Outcome, can_extra_action, extra_action, place_tiles
from companion.the_glade.claim import claim_options, claim_toadstool
from companion.the_glade.forest import parse_tile
from companion.the_glade.names import BoardGeometry, Icon, MatchCounter, Square, Tile, Token
from companion.the_glade.table import (
    RACK_SIZE,
    TILES_IN_GAME,
    CounterRef,
    GameState,
    IllegalAction,
    Player,
)


def _square(text: str | Square) -> Square:
    return text if isinstance(text, Square) else Square.parse(text)


def _tile(text: str | Tile) -> Tile:
    return text if isinstance(text, Tile) else parse_tile(text)


def _refs(flips: Iterable[str | CounterRef] | None) -> list[CounterRef]:
    return [f if isinstance(f, CounterRef) else CounterRef.parse(f) for f in flips or ()]


class Game:
    """A game in progress. ``state`` is the current frozen :class:`GameState`."""

    def __init__(self, state: GameState) -> None:
        if state.current is None:
            state = replace(state, current=state.starter)
        self.state = state
        self.log: list[Outcome] = []

    # --- set up --------------------------------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[tuple[str, str]], *, variant: str = "basic",
            geometry: BoardGeometry | None = None, start_player: str | None = None,
            racks: Mapping[str, Sequence[str | Tile]] | None = None,
            icons: Mapping[str, str] | None = None) -> Game:
        """A new multi-player game: 12 counters on each side of the glade, 8 tiles per rack."""
        if not 1 <= len(players) <= 4:
            raise IllegalAction("The Glade takes 1-4 players")
        geo = geometry or BoardGeometry()
        racks = racks or {}
        made = []
        for name, colour in players:
            rack = racks.get(name)
            tiles = tuple(_tile(t) for t in rack) if rack is not None else None
            made.append(Player(name, colour, rack=tiles,
                               rack_size=len(tiles) if tiles is not None else RACK_SIZE))
        icon_map = ({geo.parse_square(k): Icon.parse(v) for k, v in icons.items()}
                    if icons else None)
        state = GameState(tuple(made), variant=variant, geometry=geo, icons=icon_map,
                          start_player=start_player or players[0][0],
                          bag=TILES_IN_GAME - RACK_SIZE * len(players))
        return cls(state)

    # --- looking ---------------------------------------------------------------------------

    @property
    def current(self) -> str:
        return self.state.current or self.state.starter

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def finished(self) -> bool:
        return self.state.finished

    def _require(self, player: str | None, phases: Sequence[str], what: str) -> str:
        if self.state.finished:
            raise IllegalAction("the game is over")
        name = player or self.current
        if name != self.current:
            raise IllegalAction(f"it is {self.current}'s turn, not {name}'s")
        if self.state.phase not in phases:
            why = {"action": "the turn's action comes first",
                   "extra": "an extra action was started: take another action first",
                   "done": "this turn's action is done: start an extra action or end the turn"}
            raise IllegalAction(f"{name} cannot {what} now: {why[self.state.phase]}")
        return name

    # --- actions ---------------------------------------------------------------------------

    def place(self, tiles: Mapping[str | Square, str | Tile], *, player: str | None = None,
              flips: Iterable[str | CounterRef] | None = None) -> Outcome:
        """Action 1: place 1-4 tiles (``{"C4": "hedgehog/acorn/oak"}``)."""
        name = self._require(player, ("action", "extra"), "place tiles")
        placed = {_square(k): _tile(v) for k, v in tiles.items()}
        state, outcome = place_tiles(self.state, name, placed, _refs(flips))
        return self._after_action(state, outcome)

    def claim(self, tile: str | Tile, square: str | Square | None = None, *,
              player: str | None = None, flips: Iterable[str | CounterRef] | None = None
              ) -> Outcome:
        """Action 2: claim the counter on ``tile``'s glade space; ``square`` chooses where the
        tile goes when there is a choice."""
        name = self._require(player, ("action", "extra"), "claim a toadstool")
        sq = _square(square) if square is not None else None
        state, outcome = claim_toadstool(self.state, name, _tile(tile), sq, _refs(flips))
        return self._after_action(state, outcome)

    def claim_squares(self, tile: str | Tile) -> tuple[str, list[Square], bool]:
        """Where the current player could put ``tile`` when claiming: board, squares, completes."""
        opts = claim_options(self.state, self.current, _tile(tile))
        return opts.board, list(opts.squares), opts.completes

    def extra_action(self, counter: str | Token, square: str | Square, *,
                     player: str | None = None) -> Outcome:
        """Put a counter from the store into an empty enclosure; another action is then due."""
        name = self._require(player, ("done",), "start an extra action")
        token: Token
        if isinstance(counter, str):
            from companion.the_glade.names import Counter
            token = Counter.parse(counter)
        else:
            token = counter
        state, outcome = extra_action(self.state, name, token, _square(square))
        self.state = replace(state, phase="extra")
        self.log.append(outcome)
        return outcome

    def _after_action(self, state: GameState, outcome: Outcome) -> Outcome:
        if any(p.supply == 0 for p in state.players):
            state = replace(state, end_triggered=True)
        self.state = replace(state, phase="done")
        self.log.append(outcome)
        return outcome

    def can_act(self, name: str | None = None) -> bool:
        """Whether any action is possible: a claim, or a placement from a known rack."""
        from companion.the_glade.coach import legal_placements

        p = self.state.player(name or self.current)
        rack = p.rack
        if rack is None:
            return p.rack_size > 0
        for tile in set(rack):
            if tile in self.state.glade and claim_options(self.state, p.name, tile).squares:
                return True
        return bool(legal_placements(p.forest, rack))

    def end_turn(self, drawn: Sequence[str | Tile] | None = None, *,
                 player: str | None = None, cannot_refill: bool = False) -> None:
        """End the turn: refill the rack from the bag, check the end, pass to the left.

        ``drawn`` are the tiles drawn (a known rack stays known); ``cannot_refill`` says the
        bag ran short when the bag's count is not tracked.
        """
        name = player or self.current
        if self.state.finished:
            raise IllegalAction("the game is over")
        if name != self.current:
            raise IllegalAction(f"it is {self.current}'s turn, not {name}'s")
        if self.state.phase == "action" and self.can_act(name):
            raise IllegalAction(f"{name} must take an action (place tiles or claim a toadstool) "
                                "before ending the turn")
        if self.state.phase == "extra" and self.can_act(name):
            raise IllegalAction(f"{name} put a counter into an enclosure and must now take "
                                "another action")
        state = self.state
        p = state.player(name)
        last = name == state.last_in_round
        triggered = state.end_triggered or any(q.supply == 0 for q in state.players)
        solo = state.variant == "solo"
        finishing = triggered and last
        tiles = [_tile(t) for t in drawn] if drawn is not None else None
        if not finishing:
            need_rack = RACK_SIZE - p.rack_size
            need = need_rack + (1 if solo else 0)  # solo: one face-down tile counts the turn
            if state.bag is not None:
                short = state.bag < need
                to_rack = min(need_rack, state.bag)
                bag: int | None = max(0, state.bag - need)
            else:
                short = cannot_refill
                to_rack = (len(tiles) if tiles is not None else 0) if short else need_rack
                bag = None
            if tiles is not None and len(tiles) != to_rack:
                raise IllegalAction(f"{name} must draw {to_rack} tiles, not {len(tiles)}")
            if p.rack is not None and tiles is not None:
                p = replace(p, rack=(*p.rack, *tiles), rack_size=p.rack_size + to_rack)
            else:
                p = replace(p, rack=None if to_rack else p.rack,
                            rack_size=p.rack_size + to_rack)
            state = replace(state, bag=bag)
            triggered = triggered or short
            finishing = triggered and last
        p = replace(p, turns=p.turns + 1)
        state = state.with_player(p)
        names = [q.name for q in state.players]
        nxt = names[(names.index(name) + 1) % len(names)]
        rnd = state.round + (1 if nxt == state.starter else 0)
        self.state = replace(state, current=nxt, phase="action", round=rnd,
                             end_triggered=triggered, finished=finishing)

    # --- for playouts and the service -------------------------------------------------------

    def flip_choices(self, name: str | None = None) -> list[CounterRef]:
        """Where a player's single-side-up counters lie: the choices when they run out."""
        from companion.the_glade.table import singles_of

        return singles_of(self.state, self.state.player(name or self.current).colour)

    def extra_options(self) -> list[tuple[Token, Square]]:
        """Every (store counter, empty enclosure) pair the current player could use now."""
        if self.state.phase != "done" or self.state.finished:
            return []
        p = self.state.player(self.current)
        if not can_extra_action(p):
            return []
        tokens: list[Token] = []
        for t in p.store:
            if t not in tokens:
                tokens.append(t)
        return [(t, sq) for t in tokens for sq in p.forest.empty_enclosures()]

    def placements(self) -> list[Any]:
        """The coach's advice for the current player's known rack (empty if unknown)."""
        from companion.the_glade.coach import advise

        p = self.state.player(self.current)
        if p.rack is None or self.state.finished or self.state.phase == "done":
            return []
        return advise(self.state, p.name, p.rack)

    def claims(self) -> list[tuple[Tile, str, list[Square]]]:
        """Every claim the current player could make: tile, board, squares."""
        p = self.state.player(self.current)
        if self.state.finished or self.state.phase == "done":
            return []
        tiles = sorted(set(p.rack)) if p.rack is not None else sorted(self.state.glade)
        out = []
        for tile in tiles:
            if tile in self.state.glade:
                opts = claim_options(self.state, p.name, tile)
                if opts.squares:
                    out.append((tile, opts.board, list(opts.squares)))
        return out

    def to_dict(self) -> dict[str, Any]:
        from companion.the_glade.state_file import dump_state
        return dump_state(self.state)


__all__ = ["Game", "MatchCounter"]
