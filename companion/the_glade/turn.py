"""A turn of The Glade: whose move it is, what is legal now, and what each action does.

A turn: one action (place tiles or claim a toadstool), then any number of extra actions (a
counter from the store into an empty enclosure, then another action), then the end of the
turn (refill the rack to 8 from the bag). The end is triggered when a player's side of the
glade is empty or the bag cannot refill a rack (or in a stalemate, below), and
:attr:`GameState.end_due` says so; play goes on
until the player to the right of the start player (the last in each round) has finished
their turn (:attr:`GameState.last_turn`). That turn draws nothing.

Choices (tested):

* After an extra action the player must act again; if no action is possible at all (no
  legal placement from a known rack and no claim), the turn may end anyway. Likewise a
  player who can take no action at all passes (the rulebook does not say).
* With an unknown rack the rules trust the tiles they are told and only count them; the
  placements of an unknown rack cannot be listed.
* The solo game also ends when the bag cannot refill the rack (the rulebook's general end
  rule), at the end of that turn. Each solo turn but the last draws one more tile, face down.
* A stalemate triggers the end too: a player passes (no action possible) while no player can
  act and every rack is full, so nothing could ever change (boards filled up by the
  engine's own games come to this). The rulebook does not say; without it, the players
  would pass for ever. Not in the solo game: a stuck solo player passes, each turn drawing
  its face-down tile, until the bag runs short.
* Running out of toadstools, the player chooses which counters to flip (``flips``); the
  listed actions leave the choice to the rules (the first single ones). The choice changes
  no one's score: a double side is worth its point to its owner wherever it lies.
* A known bag is drawn from one tile at a time, rack first, then (solo) face down.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from companion.games.interface import Ruling, Violation
from companion.the_glade.actions import Outcome, can_extra_action, extra_action, place_tiles
from companion.the_glade.claim import ClaimOptions, claim_options, claim_toadstool
from companion.the_glade.names import Tile, Token
from companion.the_glade.rules import (
    ACTION_TYPES,
    Claim,
    Draw,
    EndTurn,
    ExtraAction,
    PlaceTiles,
)
from companion.the_glade.table import RACK_SIZE, GameState, IllegalAction

#: What the phase asks for, when an action of another kind is tried: (code, words).
_NOT_NOW = {"action": ("action-first", "the turn's action comes first"),
            "extra": ("another-action-due",
                      "an extra action was started: take another action first"),
            "done": ("action-done",
                     "this turn's action is done: start an extra action or end the turn")}


# --- asking ----------------------------------------------------------------------------------

def claim_choices(state: GameState, name: str) -> list[tuple[Tile, ClaimOptions]]:
    """Every tile ``name`` could claim with now and where it would go: the tiles of a known
    rack on the glade, or (unknown rack) every glade space, when the tile has a square."""
    p = state.player(name)
    if p.rack is not None:
        tiles = sorted(t for t in set(p.rack) if t in state.glade)
    else:
        tiles = sorted(state.glade) if p.rack_size else []
    out = []
    for tile in tiles:
        opts = claim_options(state, name, tile)
        if opts.squares:
            out.append((tile, opts))
    return out


def placements(state: GameState, name: str) -> list[dict[Any, Tile]]:
    """Every legal placement of ``name``'s known rack (none for an unknown rack)."""
    from companion.the_glade.coach import legal_placements

    p = state.player(name)
    return legal_placements(p.forest, p.rack) if p.rack else []


def can_act(state: GameState, name: str) -> bool:
    """Whether any action is possible: a claim, or a placement from a known rack (an unknown
    rack with tiles on it may always hold one)."""
    p = state.player(name)
    if p.rack is None:
        return p.rack_size > 0
    return bool(claim_choices(state, name)) or bool(placements(state, name))


def stalemate(state: GameState) -> bool:
    """No player can act and every rack is full: nothing can change any more, however long
    the players pass (known racks only; an unknown rack may always hold a placement)."""
    return all(p.rack is not None and p.rack_size == RACK_SIZE and not can_act(state, p.name)
               for p in state.players)


def extra_actions(state: GameState) -> list[ExtraAction]:
    """Every (store counter, empty enclosure) the current player could use now."""
    if state.phase != "done" or state.finished or state.to_draw:
        return []
    p = state.player(state.turn_player)
    if not can_extra_action(p):
        return []
    tokens: list[Token] = []
    for t in p.store:
        if t not in tokens:
            tokens.append(t)
    return [ExtraAction(t, sq) for t in tokens for sq in p.forest.empty_enclosures()]


def legal_actions(state: GameState) -> list[Any]:
    """Every legal action now.

    At a chance node, each tile the bag may give (:class:`Draw`). Else the current player's:
    placements of a known rack (the coach's search, each once), every claim with each square
    the tile may go on, extra actions, and ending the turn when that is allowed (with an
    unknown bag, also saying it cannot refill the rack). Not listed, though legal: naming the
    flips when out of toadstools, and the tiles drawn when ending a turn.
    """
    if state.finished:
        return []
    if state.to_draw:
        return [Draw(t) for t in sorted(set(state.bag_tiles or ()))]
    name = state.turn_player
    if state.phase == "done":
        return [*extra_actions(state), *_end_turns(state)]
    places = [PlaceTiles(tuple(p.items())) for p in placements(state, name)]
    claims = [Claim(tile, sq) for tile, opts in claim_choices(state, name)
              for sq in opts.squares]
    p = state.player(name)
    stuck = not places and not claims and (p.rack is not None or p.rack_size == 0)
    return [*places, *claims, *(_end_turns(state) if stuck else [])]


def _end_turns(state: GameState) -> list[EndTurn]:
    if state.bag is None and not state.last_turn:
        return [EndTurn(), EndTurn(cannot_refill=True)]
    return [EndTurn()]


def chance_outcomes(state: GameState) -> list[tuple[Draw, float]]:
    """At a chance node, each tile the bag may give with its probability (count / total)."""
    if not state.to_draw or not state.bag_tiles:
        return []
    counts = Tally(state.bag_tiles)
    total = len(state.bag_tiles)
    return [(Draw(t), n / total) for t, n in sorted(counts.items())]


# --- ruling and applying ---------------------------------------------------------------------

def rule(state: GameState, action: Any) -> Ruling:
    """Whether ``action`` is legal now, every rule it breaks, and what it sets off."""
    try:
        after, outcome = resolve(state, action)
    except IllegalAction as exc:
        found = exc.violations or (Violation(exc.code, (), str(exc)),)
        return Ruling(action, tuple(found))
    if outcome is not None:
        return Ruling(action, (), outcome.to_dict())
    return Ruling(action, (), {"current": after.turn_player, "to_draw": after.to_draw,
                               "finished": after.finished})


def resolve(state: GameState, action: Any) -> tuple[GameState, Outcome | None]:
    """The state after ``action`` and what it did; :class:`IllegalAction` with a code."""
    if not isinstance(action, ACTION_TYPES):
        raise IllegalAction(f"not an action of The Glade: {action!r}", "not-an-action")
    if state.finished:
        raise IllegalAction("the game is over", "game-over")
    if state.to_draw:
        if not isinstance(action, Draw):
            raise IllegalAction(f"{state.to_draw} tile(s) are being drawn from the bag for "
                                f"{state.turn_player}: draw them first", "draw-due")
        return _draw(state, action.tile), None
    if isinstance(action, Draw):
        raise IllegalAction("no tile is being drawn from the bag now", "draw-not-due")
    name = action.player or state.turn_player
    if name != state.turn_player:
        raise IllegalAction(f"it is {state.turn_player}'s turn, not {name}'s", "not-your-turn")
    if isinstance(action, PlaceTiles):
        _require(state, name, ("action", "extra"), "place tiles")
        if len(action.placed) != len(action.tiles):
            raise IllegalAction("two tiles on one square", "occupied")
        after, outcome = place_tiles(state, name, action.placed, action.flips)
        return _after_action(after), outcome
    if isinstance(action, Claim):
        _require(state, name, ("action", "extra"), "claim a toadstool")
        after, outcome = claim_toadstool(state, name, action.tile, action.square, action.flips)
        return _after_action(after), outcome
    if isinstance(action, ExtraAction):
        _require(state, name, ("done",), "start an extra action")
        after, outcome = extra_action(state, name, action.counter, action.square)
        return replace(after, phase="extra"), outcome
    return _end_turn(state, name, action), None


def _require(state: GameState, name: str, phases: Sequence[str], what: str) -> None:
    if state.phase not in phases:
        code, why = _NOT_NOW[state.phase]
        raise IllegalAction(f"{name} cannot {what} now: {why}", code)


def _after_action(state: GameState) -> GameState:
    return replace(state, phase="done", end_triggered=state.end_due)


def _end_turn(state: GameState, name: str, action: EndTurn) -> GameState:
    """End the turn: refill the rack from the bag (a known bag by chance), pass to the left."""
    if state.phase == "action" and can_act(state, name):
        raise IllegalAction(f"{name} must take an action (place tiles or claim a toadstool) "
                            "before ending the turn", "action-first")
    if state.phase == "extra" and can_act(state, name):
        raise IllegalAction(f"{name} put a counter into an enclosure and must now take "
                            "another action", "another-action-due")
    if state.phase != "done" and state.variant != "solo" and stalemate(state):
        state = replace(state, end_triggered=True)
    state = replace(state, phase="done")
    if state.last_turn:  # the game's last turn draws nothing
        return _pass_turn(state, name)
    p = state.player(name)
    need_rack = RACK_SIZE - p.rack_size
    need = need_rack + (1 if state.variant == "solo" else 0)  # solo: a face-down tile too
    tiles = action.drawn
    if state.bag is None:
        short = action.cannot_refill
        to_rack = (len(tiles) if tiles is not None else 0) if short else need_rack
    else:
        short = state.bag < need
        to_rack = min(need_rack, state.bag)
    if tiles is not None and len(tiles) != to_rack:
        raise IllegalAction(f"{name} must draw {to_rack} tiles, not {len(tiles)}", "draw-count")
    state = replace(state, end_triggered=state.end_due or short)
    if state.bag_tiles is not None:  # a known bag: named tiles come out of it, the rest by chance
        state = replace(state, to_draw=min(need, state.bag or 0))
        for tile in tiles or ():
            state = _take_from_bag(state, tile)
        return state if state.to_draw else _pass_turn(state, name)
    if p.rack is not None and tiles is not None:
        p = replace(p, rack=(*p.rack, *tiles), rack_size=p.rack_size + to_rack)
    else:
        p = replace(p, rack=None if to_rack else p.rack, rack_size=p.rack_size + to_rack)
    bag = None if state.bag is None else max(0, state.bag - need)
    return _pass_turn(replace(state.with_player(p), bag=bag), name)


def _draw(state: GameState, tile: Tile) -> GameState:
    """A chance outcome: one tile from the known bag; the turn passes after the last."""
    state = _take_from_bag(state, tile)
    return state if state.to_draw else _pass_turn(state, state.turn_player)


def _take_from_bag(state: GameState, tile: Tile) -> GameState:
    """One tile out of the known bag: onto the rack, or face down once the rack is full."""
    bag = list(state.bag_tiles or ())
    if tile not in bag:
        raise IllegalAction(f"the bag holds no {tile.describe()} ({tile})", "not-in-bag")
    bag.remove(tile)
    p = state.player(state.turn_player)
    if p.rack_size < RACK_SIZE:
        p = replace(p, rack=None if p.rack is None else (*p.rack, tile),
                    rack_size=p.rack_size + 1)
    return replace(state.with_player(p), bag=len(bag), bag_tiles=tuple(bag),
                   to_draw=state.to_draw - 1)


def _pass_turn(state: GameState, name: str) -> GameState:
    """The turn is over: count it, and pass to the left (or end the game after its last)."""
    finishing = state.last_turn
    p = state.player(name)
    state = state.with_player(replace(p, turns=p.turns + 1))
    names = [q.name for q in state.players]
    nxt = names[(names.index(name) + 1) % len(names)]
    rnd = state.round + (1 if nxt == state.starter else 0)
    return replace(state, current=nxt, phase="action", round=rnd, to_draw=0,
                   end_triggered=state.end_due, finished=finishing)


__all__ = [
    "can_act",
    "chance_outcomes",
    "claim_choices",
    "extra_actions",
    "legal_actions",
    "placements",
    "resolve",
    "rule",
    "stalemate",
]
