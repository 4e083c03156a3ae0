"""The whole table as one frozen value: glade board, every forest, stores, racks, bag, turn.

Counters live in exactly one place: a player's side of the glade board (``supply``, a count:
those counters are all alike), a glade-board space (``glade``), a player's ``store``, an
enclosure of a forest, or the box (only the solo game's neutral counters return there).

:class:`GameState` fills the shared game interface (:mod:`companion.games.interface`): who
moves, the legal actions, rulings with codes, ``apply``. The rules themselves live in
:mod:`companion.the_glade.turn` (the turn: phases, refills, the end) and the action modules
it calls; the action values and the list of codes are in :mod:`companion.the_glade.rules`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from companion.games.interface import CHANCE, TERMINAL
from companion.games.interface import IllegalAction as IllegalAction
from companion.the_glade.forest import Forest
from companion.the_glade.frozen import FrozenMap
from companion.the_glade.names import (
    BoardGeometry,
    Counter,
    Icon,
    MatchCounter,
    Square,
    Tile,
    Token,
)

if TYPE_CHECKING:
    from companion.games.interface import Ruling
    from companion.games.score import ScoreSheet
    from companion.the_glade.actions import Outcome

VARIANTS = ("basic", "matching", "solo")
RACK_SIZE = 8
COUNTERS_PER_COLOUR = 12
TILES_IN_GAME = 128


@dataclass(frozen=True)
class Player:
    """One player: colour, counters left on their side of the glade, forest, store, rack.

    ``rack`` is None when the tiles on it are not known (the tracker then trusts the
    actions it is told); ``rack_size`` is always known. ``icons`` is the matching side of
    this player's board, when it differs from the state's shared layout.
    """

    name: str
    colour: str
    supply: int = COUNTERS_PER_COLOUR
    forest: Forest = field(default_factory=Forest)
    store: tuple[Token, ...] = ()
    rack: tuple[Tile, ...] | None = None
    rack_size: int = RACK_SIZE
    icons: Mapping[Square, Icon] | None = None
    turns: int = 0

    def __post_init__(self) -> None:
        # A store is a pile, not a row: keep it in one canonical order so equal tables compare
        # equal (toadstool counters first, then match counters).
        store = sorted(self.store, key=lambda t: (isinstance(t, MatchCounter), str(t)))
        object.__setattr__(self, "store", tuple(store))
        if self.icons is not None:
            object.__setattr__(self, "icons", FrozenMap(self.icons))

    @property
    def match_counters(self) -> list[tuple[MatchCounter, Square | None]]:
        """Every match counter held: in the store (square None) or in an enclosure."""
        out: list[tuple[MatchCounter, Square | None]] = [
            (t, None) for t in self.store if isinstance(t, MatchCounter)]
        out += [(t, sq) for sq, t in sorted(self.forest.counters.items())
                if isinstance(t, MatchCounter)]
        return out


@dataclass(frozen=True)
class GameState:
    """Everything on the table, plus whose turn it is.

    ``players`` are in clockwise seating order. The player to the right of the start player
    is the one before them in this order: they play last in each round.
    ``phase``: ``action`` (the turn's first action is due), ``extra`` (an extra action's
    counter is in an enclosure, another action is due) or ``done`` (actions over; extra
    actions may start, or the turn ends).

    ``bag_tiles`` are the bag's tiles when they are known (a game the engine dealt, see
    :func:`companion.the_glade.rules.deal_table`); then ``bag`` is their number, and ending a
    turn draws them one by one as chance outcomes: ``to_draw`` tiles are still to come, and
    :meth:`current_player` is :data:`~companion.games.interface.CHANCE` meanwhile. At the
    table the bag is unknown (``bag_tiles`` None) and a turn ends in one step.
    """

    players: tuple[Player, ...]
    variant: str = "basic"
    geometry: BoardGeometry = field(default_factory=BoardGeometry)
    glade: Mapping[Tile, Counter] = field(default_factory=dict)
    icons: Mapping[Square, Icon] | None = None
    start_player: str | None = None
    current: str | None = None
    phase: str = "action"
    round: int = 1
    bag: int | None = None
    end_triggered: bool = False
    finished: bool = False
    neutral: str | None = None
    boxed: int = 0
    bag_tiles: tuple[Tile, ...] | None = None
    to_draw: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "glade", FrozenMap(self.glade))
        if self.icons is not None:
            object.__setattr__(self, "icons", FrozenMap(self.icons))
        if self.bag_tiles is not None:  # a bag is a pile: one order, so equal bags compare equal
            object.__setattr__(self, "bag_tiles", tuple(sorted(self.bag_tiles)))

    def __str__(self) -> str:
        if self.finished:
            return f"the-glade {self.variant}: over after round {self.round}"
        who = "the bag" if self.to_draw else self.turn_player
        return (f"the-glade {self.variant}: round {self.round}, {who} ({self.phase}), "
                f"bag {'?' if self.bag is None else self.bag}"
                + (", last round" if self.end_due else ""))

    # --- the end of the game (the one rule) ------------------------------------------------

    @property
    def end_due(self) -> bool:
        """The end is triggered: a player's side of the glade is empty, or it was triggered
        before (a bag that could not refill a rack). Play goes on to the end of the round."""
        return self.end_triggered or any(p.supply == 0 for p in self.players)

    @property
    def last_turn(self) -> bool:
        """This turn is the game's last: the end is triggered and the player to the right of
        the start player is playing (so everyone has had the same number of turns)."""
        return self.end_due and self.turn_player == self.last_in_round

    # --- the game interface (rules in companion.the_glade.turn) -----------------------------

    @property
    def turn_player(self) -> str:
        """The name of the player whose turn it is."""
        return self.current or self.starter

    def current_player(self) -> int:
        """The seat whose turn it is; CHANCE while tiles are drawn from a known bag; TERMINAL."""
        if self.finished:
            return TERMINAL
        if self.to_draw:
            return CHANCE
        return [p.name for p in self.players].index(self.turn_player)

    def legal_actions(self) -> list[Any]:
        """Every legal action now (see :func:`companion.the_glade.turn.legal_actions`)."""
        from companion.the_glade.turn import legal_actions

        return legal_actions(self)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        """At a chance node, each tile the bag may give, with its probability."""
        from companion.the_glade.turn import chance_outcomes

        return chance_outcomes(self)

    def rule(self, action: Any) -> Ruling:
        from companion.the_glade.turn import rule

        return rule(self, action)

    def resolve(self, action: Any) -> tuple[GameState, Outcome | None]:
        """The state after ``action`` and what it did (None for ending a turn or a draw);
        :class:`IllegalAction` with a code if it is not legal now."""
        from companion.the_glade.turn import resolve

        return resolve(self, action)

    def apply(self, action: Any) -> GameState:
        return self.resolve(action)[0]

    def is_terminal(self) -> bool:
        return self.finished

    def score_sheet(self) -> ScoreSheet:
        from companion.the_glade.scoring import score_game

        return score_game(self).sheet(final=self.finished)

    # --- looking up ----------------------------------------------------------------------

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        known = ", ".join(p.name for p in self.players)
        raise IllegalAction(f"no player called {name!r} (players: {known})", "unknown-player")

    def owner_of(self, colour: str) -> Player | None:
        """The player of that colour, or None (a neutral colour: its counters go to the box)."""
        for p in self.players:
            if p.colour == colour:
                return p
        return None

    @property
    def starter(self) -> str:
        return self.start_player or self.players[0].name

    @property
    def last_in_round(self) -> str:
        """The player to the right of the start player: the last to play in each round."""
        names = [p.name for p in self.players]
        return names[(names.index(self.starter) - 1) % len(names)]

    def icons_for(self, player: Player) -> Mapping[Square, Icon]:
        if self.variant != "matching":
            return {}
        return player.icons if player.icons is not None else (self.icons or {})

    def counters(self) -> Iterator[tuple[CounterRef, Counter]]:
        """Every toadstool counter outside the players' supplies, with where it lies."""
        for tile, c in sorted(self.glade.items()):
            yield CounterRef("glade", tile=tile), c
        for p in self.players:
            for c in p.store:
                if isinstance(c, Counter):
                    yield CounterRef("store", player=p.name), c
            for sq, c in sorted(p.forest.counters.items()):
                if isinstance(c, Counter):
                    yield CounterRef("forest", player=p.name, square=sq), c

    def colour_total(self, colour: str) -> int:
        """Counters of ``colour`` in play: on the player's side plus everywhere else."""
        owner = self.owner_of(colour)
        n = owner.supply if owner else 0
        return n + sum(1 for _ref, c in self.counters() if c.colour == colour)

    # --- changing (each returns a new state) ---------------------------------------------

    def with_player(self, player: Player) -> GameState:
        return replace(self, players=tuple(player if p.name == player.name else p
                                           for p in self.players))

    def with_glade(self, tile: Tile, counter: Counter | None) -> GameState:
        glade = dict(self.glade)
        if counter is None:
            glade.pop(tile, None)
        else:
            glade[tile] = counter
        return replace(self, glade=glade)

    def add_to_store(self, name: str, token: Token) -> GameState:
        p = self.player(name)
        return self.with_player(replace(p, store=(*p.store, token)))


@dataclass(frozen=True, order=True)
class CounterRef:
    """Where a counter lies: ``glade:TILE``, ``store:PLAYER`` or ``forest:PLAYER:SQUARE``.

    The tracker uses it for the one free choice about counters: which of your counters to
    flip when you run out of toadstools.
    """

    place: str
    player: str | None = None
    square: Square | None = None
    tile: Tile | None = None

    @classmethod
    def parse(cls, text: str) -> CounterRef:
        kind, _, rest = text.partition(":")
        if kind == "glade":
            from companion.the_glade.forest import parse_tile
            return cls("glade", tile=parse_tile(rest))
        if kind == "store" and rest:
            return cls("store", player=rest)
        if kind == "forest":
            name, _, sq = rest.rpartition(":")
            if name:
                return cls("forest", player=name, square=Square.parse(sq))
        raise IllegalAction(f"counter place {text!r} must be glade:TILE, store:PLAYER or "
                            "forest:PLAYER:SQUARE", "flip")

    def __str__(self) -> str:
        if self.place == "glade":
            return f"glade:{self.tile}"
        if self.place == "store":
            return f"store:{self.player}"
        return f"forest:{self.player}:{self.square}"


def flip_counter(state: GameState, ref: CounterRef, colour: str) -> GameState:
    """Flip one single-side-up counter of ``colour`` at ``ref`` to its double side."""
    single, double = Counter(colour, "single"), Counter(colour, "double")
    if ref.place == "glade":
        if ref.tile is None or state.glade.get(ref.tile) != single:
            raise IllegalAction(f"there is no {single} on the glade space {ref.tile}", "flip")
        return state.with_glade(ref.tile, double)
    p = state.player(ref.player or "")
    if ref.place == "store":
        store = list(p.store)
        if single not in store:
            raise IllegalAction(f"{p.name}'s store holds no {single}", "flip")
        store[store.index(single)] = double
        return state.with_player(replace(p, store=tuple(store)))
    if ref.square is None or p.forest.counters.get(ref.square) != single:
        raise IllegalAction(f"there is no {single} in {p.name}'s enclosure {ref.square}",
                            "flip")
    return state.with_player(replace(p, forest=p.forest.with_counter(ref.square, double)))


def singles_of(state: GameState, colour: str) -> list[CounterRef]:
    """Where this colour's single-side-up counters lie (outside the supply), one ref each."""
    return [ref for ref, c in state.counters() if c == Counter(colour, "single")]
