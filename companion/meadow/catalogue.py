"""Meadow's card catalogue: every card, goal token, path token and campfire board of a box.

The catalogue is the spec's YAML (``config/games/meadow/cards.yaml`` is a SAMPLE one, invented
cards with the real counts; a user transcribes their own from the box's card booklet, see
``docs/meadow.md``). :func:`load_catalogue` reads it through the bounded reader and checks
every card, naming the card and the field of each problem, so a typing slip in a transcribed
card is found when the file is read, never in the middle of a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.meadow.symbols import (
    DISCOVERY,
    ENCOUNTER,
    GROUND_SYMBOLS,
    RESERVED,
    ROAD,
    Requirement,
)

#: the shipped SAMPLE catalogue
SAMPLE = Path(__file__).resolve().parents[2] / "config" / "games" / "meadow" / "cards.yaml"
DECKS = ("N", "W", "S", "E")
TYPES = ("ground", "observation", "landscape", "discovery")
#: what each path token does on the campfire board
ACTIONS = ("take-card", "take-roads", "look-three", "play-two", "any")
TOKENS = ("1", "2", "3", "4", "?")


@dataclass(frozen=True)
class Card:
    """One card (or one side of a starting ground card)."""

    id: str
    name: str
    deck: str
    type: str
    points: int
    symbols: tuple[str, ...] = ()
    requires: tuple[Requirement, ...] = ()
    ground: str | None = None
    other_side: str | None = None
    envelope: str | None = None

    @property
    def starting(self) -> bool:
        return self.deck == "start"

    @property
    def card_symbols(self) -> tuple[str, ...]:
        """The symbols a covering card takes away (never the ground symbol)."""
        return self.symbols if self.type in ("ground", "observation") else ()


@dataclass(frozen=True)
class GoalToken:
    id: str
    symbol: str
    envelope: str | None = None


@dataclass(frozen=True)
class CampfireBoard:
    """One side of a campfire board: its notches, benches, blocks, rounds and goal spots."""

    players: int
    notches: int
    benches: int
    blocks: int
    rounds: int
    goal_spots: int
    pairs: tuple[tuple[int, int], ...]

    @property
    def halfway(self) -> int:
        """The round after which the round marker passes the hourglass (half the rounds)."""
        return self.rounds // 2


@dataclass(frozen=True)
class Catalogue:
    """A checked catalogue: cards by id, the goal tokens, the path tokens' actions, the boards."""

    name: str
    symbols: tuple[str, ...]
    cards: Mapping[str, Card]
    goal_tokens: tuple[GoalToken, ...]
    path_actions: Mapping[str, str]
    campfire_boards: Mapping[int, CampfireBoard]
    sample: bool = False
    path: str = field(default="", compare=False)

    @cached_property
    def decks_of(self) -> dict[str, str]:
        """Each card's deck, by id (where a discarded card goes back to)."""
        return {c.id: c.deck for c in self.cards.values()}

    def card(self, card_id: str) -> Card:
        try:
            return self.cards[card_id]
        except KeyError:
            raise StateError(f"{card_id!r} is no card of the catalogue {self.name}") from None

    def deck(self, deck: str, envelopes: tuple[str, ...] = ()) -> tuple[str, ...]:
        """The ids of one deck's cards, with the envelopes' cards of that deck mixed in."""
        return tuple(c.id for c in self.cards.values()
                     if c.deck == deck and (c.envelope is None or c.envelope in envelopes))

    def starting_cards(self) -> tuple[tuple[str, str], ...]:
        """The two-sided starting ground cards, each as (side a, side b)."""
        seen: list[tuple[str, str]] = []
        for c in self.cards.values():
            if c.starting and c.other_side and not any(c.id in pair for pair in seen):
                seen.append((c.id, c.other_side))
        return tuple(seen)

    def goal(self, goal_id: str) -> GoalToken:
        for g in self.goal_tokens:
            if g.id == goal_id:
                return g
        raise StateError(f"{goal_id!r} is no goal token of the catalogue {self.name}")

    def board(self, players: int) -> CampfireBoard:
        return self.campfire_boards[players]


def _fail(where: str, problem: str) -> StateError:
    return StateError(f"catalogue: {where}: {problem}")


def _text(entry: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> Any:
    value = entry.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise _fail(where, f"{key} must be a text" + (" or null" if optional else ""))
    return value.strip()


def _whole(entry: Mapping[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    value = entry.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _fail(where, f"{key} must be a whole number from {lo} to {hi}, not {value!r}")
    return value


def _card(entry: Any, index: int, known: frozenset[str]) -> Card:
    if not isinstance(entry, Mapping):
        raise _fail(f"cards[{index}]", "must be a mapping of the card's fields")
    card_id = _text(entry, "id", f"cards[{index}]")
    where = f"card {card_id}"
    name = _text(entry, "name", where)
    deck = _text(entry, "deck", where)
    if deck not in (*DECKS, "start"):
        raise _fail(where, f"deck must be one of N, W, S, E, start, not {deck!r}")
    kind = _text(entry, "type", where)
    if kind not in TYPES:
        raise _fail(where, f"type must be one of {', '.join(TYPES)}, not {kind!r}")
    points = _whole(entry, "points", where, 0, 99)
    envelope = _text(entry, "envelope", where, optional=True)
    if envelope is not None and (len(envelope) != 1 or not envelope.isalpha()):
        raise _fail(where, f"envelope must be one letter or null, not {envelope!r}")
    symbols = entry.get("symbols", [])
    if not isinstance(symbols, list) or not all(isinstance(s, str) for s in symbols):
        raise _fail(where, "symbols must be a list of symbol names")
    raw_req = entry.get("requires", [])
    if not isinstance(raw_req, list) or not all(isinstance(r, str) for r in raw_req):
        raise _fail(where, "requires must be a list of requirements (texts)")
    try:
        requires = tuple(Requirement.parse(r) for r in raw_req)
    except ValueError as exc:
        raise _fail(where, f"requires: {exc}") from None
    ground = entry.get("ground")
    allowed = known | set(GROUND_SYMBOLS)
    for r in requires:
        for o in r.options:
            if o not in allowed | {ROAD, DISCOVERY}:
                raise _fail(where, f"requires: {o!r} is no symbol of the catalogue")
    if kind == "ground":
        if ground not in GROUND_SYMBOLS:
            raise _fail(where, f"ground must be one of {', '.join(GROUND_SYMBOLS)}, "
                               f"not {ground!r}")
        if requires:
            raise _fail(where, "requires: a ground card needs nothing")
    elif ground is not None:
        raise _fail(where, "ground: only ground cards have a ground symbol")
    if kind in ("ground", "observation"):
        if len(symbols) > 2:
            raise _fail(where, "symbols: a card grants at most 2 card symbols")
        for s in symbols:
            if s not in known:
                raise _fail(where, f"symbols: {s!r} is not listed in the catalogue's symbols")
    if kind == "observation":
        if not requires:
            raise _fail(where, "requires: an observation card has at least one requirement")
        if any(r.surroundings or ROAD in r.options or DISCOVERY in r.options
               for r in requires):
            raise _fail(where, "requires: an observation card cannot require road or discovery")
    for kind_name, sym in (("landscape", ROAD), ("discovery", DISCOVERY)):
        if kind != kind_name:
            continue
        if list(symbols) != [sym]:
            raise _fail(where, f"symbols: a {kind_name} card's symbols are [{sym}]")
        own = [r for r in requires if sym in r.options]
        if len(own) != 1 or own[0].options != (sym,):
            raise _fail(where, f"requires: a {kind_name} card requires {sym} exactly once")
        if any(r.arrows for r in requires):
            raise _fail(where, f"requires: a {kind_name} card's requirements have no arrows")
        if any(ROAD in r.options or DISCOVERY in r.options for r in requires if r not in own):
            raise _fail(where, f"requires: a {kind_name} card requires {sym} only once")
    other = entry.get("other_side")
    if deck == "start":
        if kind != "ground" or not isinstance(other, str):
            raise _fail(where, "a starting card is a ground card naming its other_side")
    elif other is not None:
        raise _fail(where, "other_side: only starting cards have another side")
    return Card(card_id, name, deck, kind, points, tuple(symbols), requires,
                ground if kind == "ground" else None, other, envelope)


def parse_catalogue(data: Any, name: str = "catalogue", path: str = "") -> Catalogue:
    """A :class:`Catalogue` from the YAML's data; StateError naming card and field."""
    if not isinstance(data, Mapping):
        raise _fail("top", "must be a mapping (game, symbols, cards, ...)")
    if data.get("game") != "meadow":
        raise _fail("game", f"must be meadow, not {data.get('game')!r}")
    symbols = data.get("symbols")
    if not isinstance(symbols, list) or not symbols or not all(
            isinstance(s, str) and s.strip() for s in symbols):
        raise _fail("symbols", "must be a list of the card symbols' names")
    if set(symbols) & RESERVED:
        raise _fail("symbols", f"{sorted(set(symbols) & RESERVED)} are ground or surroundings "
                               "symbols, not card symbols")
    known = frozenset(symbols) | {ENCOUNTER}
    raw = data.get("cards")
    if not isinstance(raw, list) or not raw:
        raise _fail("cards", "must be a list of cards")
    cards: dict[str, Card] = {}
    for i, entry in enumerate(raw):
        card = _card(entry, i, known)
        if card.id in cards:
            raise _fail(f"card {card.id}", "id: listed twice")
        cards[card.id] = card
    for card in cards.values():
        if card.other_side is not None:
            back = cards.get(card.other_side)
            if back is None or back.other_side != card.id:
                raise _fail(f"card {card.id}", f"other_side: {card.other_side!r} is not a "
                                               "starting card naming this one back")
    goals = _goals(data.get("goal_tokens"), known)
    actions = _path_tokens(data.get("path_tokens"))
    boards = _boards(data.get("campfire_boards"))
    return Catalogue(name, tuple(symbols), cards, goals, actions, boards,
                     bool(data.get("sample", False)), path)


def _goals(raw: Any, known: frozenset[str]) -> tuple[GoalToken, ...]:
    if not isinstance(raw, list) or not raw:
        raise _fail("goal_tokens", "must be a list of {id, symbol}")
    goals: list[GoalToken] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise _fail(f"goal_tokens[{i}]", "must be {id, symbol}")
        gid = _text(entry, "id", f"goal_tokens[{i}]")
        symbol = _text(entry, "symbol", f"goal {gid}")
        if symbol not in known | set(GROUND_SYMBOLS):
            raise _fail(f"goal {gid}", f"symbol: {symbol!r} is no symbol of the catalogue")
        if any(g.id == gid for g in goals):
            raise _fail(f"goal {gid}", "id: listed twice")
        goals.append(GoalToken(gid, symbol, _text(entry, "envelope", f"goal {gid}",
                                                  optional=True)))
    return tuple(goals)


def _path_tokens(raw: Any) -> dict[str, str]:
    if not isinstance(raw, list):
        raise _fail("path_tokens", "must be a list of {token, action}")
    actions: dict[str, str] = {}
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            raise _fail(f"path_tokens[{i}]", "must be {token, action}")
        token = str(entry.get("token"))
        if token not in TOKENS:
            raise _fail(f"path_tokens[{i}]", f"token must be one of {', '.join(TOKENS)}")
        action = entry.get("action")
        if action not in ACTIONS:
            raise _fail(f"path token {token}", f"action must be one of {', '.join(ACTIONS)}")
        actions[token] = str(action)
    if set(actions) != set(TOKENS):
        raise _fail("path_tokens", f"must give the action of each of {', '.join(TOKENS)}")
    return actions


def _boards(raw: Any) -> dict[int, CampfireBoard]:
    if not isinstance(raw, list):
        raise _fail("campfire_boards", "must be a list, one board per player count 1-4")
    boards: dict[int, CampfireBoard] = {}
    for i, entry in enumerate(raw):
        where = f"campfire_boards[{i}]"
        if not isinstance(entry, Mapping):
            raise _fail(where, "must be a mapping")
        players = _whole(entry, "players", where, 1, 4)
        where = f"campfire board for {players}"
        spots = _whole(entry, "goal_spots", where, 2, 20)
        pairs_raw = entry.get("pairs")
        if not isinstance(pairs_raw, list) or not all(
                isinstance(p, list) and len(p) == 2 and all(
                    isinstance(x, int) and 1 <= x <= spots for x in p) for p in pairs_raw):
            raise _fail(where, f"pairs must be [[a, b], ...] of goal spots 1-{spots}")
        board = CampfireBoard(players, _whole(entry, "notches", where, 1, 20),
                              _whole(entry, "benches", where, 0, 5),
                              _whole(entry, "blocks", where, 0, 5),
                              _whole(entry, "rounds", where, 1, 20), spots,
                              tuple((int(a), int(b)) for a, b in pairs_raw))
        if board.blocks >= board.notches:
            raise _fail(where, "blocks: must leave a notch open")
        if players in boards:
            raise _fail(where, "players: a second board for that count")
        boards[players] = board
    if set(boards) != {1, 2, 3, 4}:
        raise _fail("campfire_boards", "must hold one board for each player count 1-4")
    return boards


def load_catalogue(path: Path | str | None = None) -> Catalogue:
    """The catalogue at ``path`` (default: the SAMPLE one), checked; cached by path."""
    return _load(str(Path(path).expanduser().resolve()) if path else str(SAMPLE))


@cache
def _load(path: str) -> Catalogue:
    from companion.storage import read_data_file

    data = read_data_file(Path(path), "Meadow catalogue")
    name = "sample" if Path(path) == SAMPLE else path
    return parse_catalogue(data, name, path)


__all__ = ["ACTIONS", "DECKS", "SAMPLE", "TOKENS", "TYPES", "CampfireBoard", "Card",
           "Catalogue", "GoalToken", "load_catalogue", "parse_catalogue"]
