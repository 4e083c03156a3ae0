"""The Glade on the shared game interface: its actions, its rule codes, new games, state files.

An action is a small frozen value with a one-line form in the state file's notation (squares
``C4``, tiles ``creature/fruit/leaf``, counters ``colour-side``, counter places
``glade:TILE``), so a game reads, logs and replays one line per action:

>>> str(PlaceTiles.of({"D4": "hedgehog/acorn/oak", "C4": "hedgehog/mushroom/oak"}))
'place C4=hedgehog/mushroom/oak D4=hedgehog/acorn/oak'
>>> parse_action("claim mouse/mushroom/oak E6")
Claim(tile=Tile('mouse/mushroom/oak'), square=Square('E6'), flips=(), player=None)
>>> str(EndTurn()), str(Draw(Tile.parse("toad/acorn/beech")))
('end', 'draw toad/acorn/beech')

An action may name its ``player``; one naming someone whose turn it is not is refused with
``not-your-turn`` (the listed actions name nobody: they are the current player's).

A game the engine deals (``RULES.new_game(seats, options={"seed": 7})``) knows every rack and
the bag's tiles, so it can be played to the end: ending a turn leaves the bag to draw (a
chance node, :class:`Draw` outcomes). Without a seed the racks and the bag are unknown, as at
the table, and the tracker trusts the tiles it is told.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import StateError
from companion.the_glade.deal import COLOURS, NEUTRAL, deal_table, new_table
from companion.the_glade.forest import parse_tile
from companion.the_glade.names import (
    BoardGeometry,
    Counter,
    Icon,
    MatchCounter,
    Square,
    Tile,
    Token,
)
from companion.the_glade.state_file import EXTRA_FIELDS
from companion.the_glade.table import CounterRef, GameState, IllegalAction

# --- the codes of every refusal ------------------------------------------------------------

#: Every code an :class:`IllegalAction` or a violation of The Glade carries, with its meaning.
CODES: tuple[tuple[str, str], ...] = (
    # placing tiles (the ``rule`` names of companion.the_glade.placement and check's JSON)
    ("count", "an action places 1 to 4 tiles"),
    ("off-board", "a tile or counter would lie off the board"),
    ("occupied", "a square already holds a tile (tiles never move)"),
    ("counter", "a square holds a counter: nothing else can be placed there"),
    ("line", "the tiles are not in one row or one column"),
    ("gap", "the tiles do not connect, directly or through tiles on the board"),
    ("centre", "the first tiles on a board cover the centre square"),
    ("set", "a line the tiles touch is no set"),
    ("rack", "the tiles do not come from the player's rack"),
    # claiming a toadstool
    ("no-counter", "no toadstool counter lies on that glade space"),
    ("no-square", "the tile has no legal square, so the toadstool cannot be claimed"),
    ("choose-square", "the tile could go on several squares: say which"),
    ("wrong-square", "the tile cannot go on that square"),
    # extra actions and running out of toadstools
    ("not-in-store", "the store holds no such counter"),
    ("no-enclosure", "the square is no enclosure"),
    ("enclosure-taken", "the enclosure already holds a counter"),
    ("flip", "no single-side-up counter of the player lies where a flip was asked"),
    # the turn
    ("game-over", "the game is over"),
    ("not-your-turn", "it is another player's turn"),
    ("action-first", "the turn's action (place tiles or claim) comes first"),
    ("another-action-due", "a counter went into an enclosure: another action is due"),
    ("action-done", "the turn's action is done: an extra action, or end the turn"),
    # drawing from the bag
    ("draw-due", "tiles are being drawn from the bag: draw them first"),
    ("draw-not-due", "no tile is being drawn now"),
    ("draw-count", "the wrong number of tiles drawn"),
    ("not-in-bag", "the bag holds no such tile"),
    # setting up, and things that are no action of this game
    ("setup", "the game cannot be set up like that"),
    ("unknown-player", "no player of that name"),
    ("not-an-action", "not an action of The Glade"),
)
VIOLATION_CODES: frozenset[str] = frozenset(code for code, _meaning in CODES)


# --- actions -------------------------------------------------------------------------------

def as_square(value: str | Square) -> Square:
    return value if isinstance(value, Square) else Square.parse(value)


def as_tile(value: str | Tile) -> Tile:
    return value if isinstance(value, Tile) else parse_tile(value)


def as_refs(flips: Iterable[str | CounterRef] | None) -> tuple[CounterRef, ...]:
    return tuple(f if isinstance(f, CounterRef) else CounterRef.parse(f) for f in flips or ())


def as_token(value: str | Token) -> Token:
    if not isinstance(value, str):
        return value
    if value.startswith("match:"):
        kind, _, rest = value[len("match:"):].partition(":")
        number, _, icon = rest.partition(":")
        return MatchCounter(kind, int(number), Icon.parse(icon) if icon else None)
    return Counter.parse(value)


def token_text(token: Token) -> str:
    """A store token in one word: ``yellow-double``, or ``match:leaf:4:oak`` for a match
    counter (kind, points, icon when known)."""
    if isinstance(token, Counter):
        return str(token)
    icon = f":{token.icon}" if token.icon is not None else ""
    return f"match:{token.kind}:{token.value}{icon}"


def _who(player: str | None) -> str:
    return f"{player}: " if player else ""


def _flip_text(flips: Sequence[CounterRef]) -> str:
    return "".join(f" flip {f}" for f in flips)


def _reading_order(item: tuple[Square, Tile]) -> tuple[int, int, Tile]:
    return (item[0].row, item[0].col, item[1])


@dataclass(frozen=True)
class PlaceTiles:
    """Action 1: place 1-4 tiles from the rack. ``flips`` choose which counters are flipped
    if the player runs out of toadstools (none given: the first single ones)."""

    tiles: tuple[tuple[Square, Tile], ...]
    flips: tuple[CounterRef, ...] = ()
    player: str | None = None

    def __post_init__(self) -> None:  # one order (reading order), so equal actions compare equal
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles, key=_reading_order)))
        object.__setattr__(self, "flips", tuple(self.flips))

    @classmethod
    def of(cls, placed: Mapping[str | Square, str | Tile],
           flips: Iterable[str | CounterRef] | None = None,
           player: str | None = None) -> PlaceTiles:
        """From ``{"C4": "hedgehog/acorn/oak"}`` (squares and tiles as text or values)."""
        return cls(tuple((as_square(k), as_tile(v)) for k, v in placed.items()), as_refs(flips),
                   player)

    @property
    def placed(self) -> dict[Square, Tile]:
        return dict(self.tiles)

    def __str__(self) -> str:
        tiles = " ".join(f"{sq}={t}" for sq, t in self.tiles)
        return f"{_who(self.player)}place {tiles}{_flip_text(self.flips)}"


@dataclass(frozen=True)
class Claim:
    """Action 2: claim the counter on ``tile``'s glade space and place the tile on
    ``square`` (of the board the rules say; None: the only square there is)."""

    tile: Tile
    square: Square | None = None
    flips: tuple[CounterRef, ...] = ()
    player: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "flips", tuple(self.flips))

    def __str__(self) -> str:
        where = f" {self.square}" if self.square is not None else ""
        return f"{_who(self.player)}claim {self.tile}{where}{_flip_text(self.flips)}"


@dataclass(frozen=True)
class ExtraAction:
    """A counter from the store into an empty enclosure (same side up): another action is
    then due."""

    counter: Token
    square: Square
    player: str | None = None

    def __str__(self) -> str:
        return f"{_who(self.player)}extra {token_text(self.counter)} {self.square}"


@dataclass(frozen=True)
class EndTurn:
    """End the turn and refill the rack. ``drawn`` names the tiles drawn (a known rack stays
    known); none named, a known bag is drawn from by chance (:class:`Draw`), an unknown one
    leaves the rack unknown. ``cannot_refill`` says the bag ran short when its count is not
    tracked."""

    drawn: tuple[Tile, ...] | None = None
    cannot_refill: bool = False
    player: str | None = None

    def __post_init__(self) -> None:
        if self.drawn is not None:
            object.__setattr__(self, "drawn", tuple(self.drawn))

    def __str__(self) -> str:
        text = f"{_who(self.player)}end"
        if self.drawn is not None:
            text += " drew " + (",".join(str(t) for t in self.drawn) or "nothing")
        if self.cannot_refill:
            text += " cannot-refill"
        return text


@dataclass(frozen=True)
class Draw:
    """A chance outcome: the bag gives ``tile`` (to the rack, or face down in the solo game
    once the rack is full)."""

    tile: Tile

    def __str__(self) -> str:
        return f"draw {self.tile}"


Action = PlaceTiles | Claim | ExtraAction | EndTurn | Draw
ACTION_TYPES = (PlaceTiles, Claim, ExtraAction, EndTurn, Draw)


_VERBS = ("place", "claim", "extra", "end", "draw")


def parse_action(text: str) -> Action:
    """An action from its one-line form (what ``str`` gives); :class:`StateError` if it is
    not one."""
    player, sep, rest = text.partition(": ")
    if not sep or rest.split()[:1] == [] or rest.split()[0] not in _VERBS:
        player, rest = "", text
    words = rest.split()
    who = player or None
    if not words:
        raise StateError(f"action {text!r} is empty")
    verb, args = words[0], words[1:]
    flips: list[str] = []
    while len(args) >= 2 and args[-2] == "flip":
        flips.insert(0, args[-1])
        args = args[:-2]
    if verb == "place" and args:
        pairs = [a.partition("=") for a in args]
        if all(sep for _k, sep, _v in pairs):
            return PlaceTiles.of({k: v for k, _s, v in pairs}, flips, who)
    elif verb == "claim" and 1 <= len(args) <= 2:
        square = as_square(args[1]) if len(args) == 2 else None
        return Claim(as_tile(args[0]), square, as_refs(flips), who)
    elif verb == "extra" and len(args) == 2 and not flips:
        return ExtraAction(as_token(args[0]), as_square(args[1]), who)
    elif verb == "end" and not flips:
        cannot = "cannot-refill" in args
        args = [a for a in args if a != "cannot-refill"]
        if not args:
            return EndTurn(None, cannot, who)
        if len(args) == 2 and args[0] == "drew":
            drawn = () if args[1] == "nothing" else tuple(as_tile(t) for t in args[1].split(","))
            return EndTurn(drawn, cannot, who)
    elif verb == "draw" and len(args) == 1 and not flips and not who:
        return Draw(as_tile(args[0]))
    raise StateError(f"action {text!r} is not one of: place SQUARE=TILE..., claim TILE "
                     "[SQUARE], extra COUNTER SQUARE, end [drew TILE,...] [cannot-refill], "
                     "draw TILE")


def _field(where: str, fn: Any, *args: Any) -> Any:
    try:
        return fn(*args)
    except StateError as exc:
        raise StateError(f"{where}: {exc}") from None


# --- the rules object ----------------------------------------------------------------------

def _icon_map(data: Mapping[str, str] | None, geo: BoardGeometry) -> dict[Square, Icon] | None:
    if not data:
        return None
    return {geo.parse_square(k, "icons"): Icon.parse(v) for k, v in data.items()}


@dataclass(frozen=True)
class GladeRules:
    """The :class:`~companion.games.interface.Rules` of The Glade."""

    name: str = "the-glade"
    variants: tuple[str, ...] = ("basic", "matching", "solo")
    violation_codes: frozenset[str] = field(default=VIOLATION_CODES)

    def new_game(self, seats: Sequence[str], variant: str | None = None,
                 options: Mapping[str, Any] | None = None) -> GameState:
        """A game for ``seats`` (names, clockwise; the first starts).

        ``variant`` defaults to ``solo`` for one seat, else ``basic``. Options:

        * ``seed``: deal known racks from a known, shuffled bag (the engine can play it out);
          without it racks and bag are unknown, as at the table;
        * ``colours``: the players' colours in seat order (default yellow, blue, red, green);
        * ``board``: ``{"rows", "cols", "centre"}``; ``icons``: the matching side,
          ``{square: icon}``;
        * solo: ``neutral`` (default purple) and, without a seed, ``marked``: the 12 tiles
          whose glade spaces get the neutral counters.
        """
        options = dict(options or {})
        variant = variant or ("solo" if len(seats) == 1 else "basic")
        if variant not in self.variants:
            raise IllegalAction(f"variant must be one of {', '.join(self.variants)}, not "
                                f"{variant!r}", "setup")
        if not 1 <= len(seats) <= 4 or len(set(seats)) != len(seats):
            raise IllegalAction(f"The Glade takes 1-4 players with different names, not "
                                f"{list(seats)}", "setup")
        colours = list(options.get("colours") or COLOURS)
        if len(colours) < len(seats):
            raise IllegalAction(f"colours: {len(seats)} players need {len(seats)} colours",
                                "setup")
        players = list(zip(seats, colours, strict=False))
        geo = (BoardGeometry.from_dict(options["board"]) if options.get("board")
               else BoardGeometry())
        icons = _icon_map(options.get("icons"), geo)
        neutral = str(options.get("neutral") or NEUTRAL)
        if options.get("seed") is not None:
            rng = random.Random(options["seed"])
            return deal_table(players, rng, variant=variant, geometry=geo, icons=icons,
                              neutral=neutral)
        if variant == "solo":
            from companion.the_glade.solo import solo_setup

            if len(seats) != 1:
                raise IllegalAction(f"the solo game has 1 player, not {len(seats)}", "setup")
            marked = [as_tile(t) for t in options.get("marked") or ()]
            return solo_setup(seats[0], colours[0], neutral, marked, geometry=geo)
        return new_table(players, variant=variant, geometry=geo, icons=icons)

    def load(self, data: Mapping[str, Any]) -> GameState:
        """A state from the spec's state file, with the optional fields of a dealt game."""
        from companion.the_glade.state_file import load_state

        return load_state(data)

    def dump(self, state: GameState) -> dict[str, Any]:
        """The spec's state file of ``state``, plus ``bag_tiles`` and ``to_draw`` when the
        bag is known (:data:`EXTRA_FIELDS`: only a game the engine dealt has them; read
        such a file with :meth:`load`)."""
        from companion.the_glade.state_file import dump_state

        return dump_state(state)


RULES = GladeRules()

__all__ = ["ACTION_TYPES", "CODES", "EXTRA_FIELDS", "RULES", "VIOLATION_CODES", "Action",
           "Claim", "Draw", "EndTurn", "ExtraAction", "GladeRules", "PlaceTiles", "as_refs",
           "as_square", "as_tile", "as_token", "parse_action", "token_text"]
