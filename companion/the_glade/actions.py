"""The actions of a turn as pure functions: state in, new state and what happened out.

* :func:`place_tiles` - Action 1, Place 1-4 tiles.
* :func:`claim_toadstool` - Action 2 (see :mod:`companion.the_glade.claim` for the squares).
* :func:`extra_action` - a counter from the store into an empty enclosure.

Each raises :class:`~companion.the_glade.table.IllegalAction` naming the broken rule, with
its code (:data:`companion.the_glade.rules.VIOLATION_CODES`); none knows whose turn it is
(that is :mod:`companion.the_glade.turn`'s job).
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from companion.games.interface import Violation as RuleViolation
from companion.the_glade.forest import Forest
from companion.the_glade.matching import reward_matches
from companion.the_glade.names import Counter, MatchCounter, Square, Tile, Token
from companion.the_glade.placement import PlacementRuling, SetOf4, rule_placement
from companion.the_glade.set_rewards import Event, Move, reward_sets
from companion.the_glade.table import CounterRef, GameState, IllegalAction, Player


@dataclass(frozen=True)
class Outcome:
    """What one action did: the ruling on the tiles placed and every counter that moved."""

    action: str
    player: str
    board: str
    ruling: PlacementRuling | None = None
    events: tuple[Event, ...] = ()
    claimed: Counter | None = None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"action": self.action, "player": self.player,
                                   "board": self.board,
                                   "events": [e.to_dict() for e in self.events]}
        if self.ruling is not None:
            data.update(self.ruling.to_dict())
        if self.claimed is not None:
            data["claimed"] = str(self.claimed)
        if self.notes:
            data["notes"] = list(self.notes)
        return data


def take_from_rack(player: Player, tiles: Sequence[Tile]) -> Player:
    """The player without these tiles on the rack (an unknown rack only shrinks)."""
    if player.rack is None:
        if len(tiles) > player.rack_size:
            raise IllegalAction(f"{player.name}'s rack holds only {player.rack_size} tiles",
                                "rack")
        return replace(player, rack_size=player.rack_size - len(tiles))
    rack = list(player.rack)
    for t in tiles:
        if t not in rack:
            raise IllegalAction(f"{player.name}'s rack holds no {t.describe()} ({t})", "rack")
        rack.remove(t)
    return replace(player, rack=tuple(rack), rack_size=len(rack))


def place_tiles(state: GameState, name: str, placed: Mapping[Square, Tile],
                flips: Sequence[CounterRef] = ()) -> tuple[GameState, Outcome]:
    """Action 1: place 1-4 tiles from the rack; pay the sets it creates.

    ``flips`` chooses which counters to flip if the player runs out of toadstools.
    """
    p = state.player(name)
    ruling = rule_placement(p.forest, placed, p.rack)
    if not ruling.legal:
        raise refusal(ruling)
    p = take_from_rack(p, list(placed.values()))
    p = replace(p, forest=p.forest.with_tiles(placed))
    state = state.with_player(p)
    state, events = pay_sets(state, name, ruling, flips=flips)
    state, matches = reward_matches(state, name, name, placed)
    return state, Outcome("place", name, name, ruling, (*events, *matches))


def extra_action(state: GameState, name: str, token: Token, square: Square
                 ) -> tuple[GameState, Outcome]:
    """Put a counter from the store into an empty enclosure (same side up): an extra action.

    Any colour may go in; a match counter too (matching game). One counter per enclosure.
    """
    p = state.player(name)
    if token not in p.store:
        held = ", ".join(str(t) for t in p.store) or "nothing"
        raise IllegalAction(f"{name}'s store holds no {token} (it holds {held})", "not-in-store")
    forest: Forest = p.forest
    if not forest.geometry.contains(square):
        raise IllegalAction(f"{square} is off the board", "off-board")
    if not forest.is_enclosure(square):
        raise IllegalAction(f"{square} is no enclosure: an enclosure has a tile on each of its 4 "
                            "orthogonal neighbours (never on the edge)", "no-enclosure")
    if square in forest.tiles or square in forest.counters:
        raise IllegalAction(f"the enclosure {square} is not empty: only 1 counter per enclosure",
                            "enclosure-taken")
    store = list(p.store)
    store.remove(token)
    p = replace(p, store=tuple(store), forest=forest.with_counter(square, token))
    event = Move(token, CounterRef("store", player=name),
                 CounterRef("forest", player=name, square=square),
                 "extra action: counter into an enclosure")
    return state.with_player(p), Outcome("extra", name, name, None, (event,))


def refusal(ruling: PlacementRuling) -> IllegalAction:
    """The refusal of an illegal placement: every broken rule, the first one's code."""
    found = tuple(RuleViolation(v.rule, tuple(sq.name for sq in v.squares), v.message)
                  for v in ruling.violations)
    return IllegalAction("; ".join(v.message for v in ruling.violations), found[0].code, found)


def pay_sets(state: GameState, owner: str, ruling: PlacementRuling, *,
             fours: list[SetOf4] | None = None, flips: Sequence[CounterRef] = ()
             ) -> tuple[GameState, list[Event]]:
    """:func:`~companion.the_glade.set_rewards.reward_sets`, with the code ``flip`` on a flip
    that cannot be made."""
    try:
        return reward_sets(state, owner, ruling, fours=fours, flips=flips)
    except IllegalAction as exc:
        raise IllegalAction(str(exc), "flip") from None


def can_extra_action(player: Player) -> bool:
    """A counter in the store and an empty enclosure on the board."""
    return bool(player.store) and bool(player.forest.empty_enclosures())


def tokens_in_store(player: Player) -> list[Token]:
    """The distinct tokens of the store (toadstool counters first)."""
    seen = Tally(player.store)
    counters = sorted(t for t in seen if isinstance(t, Counter))
    matches = sorted(t for t in seen if isinstance(t, MatchCounter))
    return [*counters, *matches]


__all__ = ["Outcome", "can_extra_action", "extra_action", "pay_sets", "place_tiles",
           "refusal", "take_from_rack"]
