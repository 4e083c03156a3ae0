"""The spec's state file (JSON or YAML) to a :class:`GameState` and back, with validation.

Everything wrong is refused with a :class:`~companion.errors.StateError` whose message names the
field (``players[0].forest.tiles.D4``) and the problem: never a traceback, never a guess.

Fields beyond the spec (all optional; ``dump_state`` writes them):

* ``board.icons`` - matching side: ``{square: icon}``, icons ``mouse/oak``, ``acorn/beech``,
  ``oak``; ``players[i].forest.icons`` overrides it for one player's board.
* ``players[i].rack`` (tiles on the rack, when known), ``rack_size``, ``turns`` (turns
  played; the solo score's first goal).
* ``start_player``, ``current_player``, ``phase`` (``action``/``extra``/``done``), ``round``,
  ``bag`` (tiles left in the bag), ``end_triggered``, ``finished``, ``neutral`` (the solo
  game's neutral colour), ``boxed`` (neutral counters sent back to the box).
* A match counter may carry ``icon``.

Players are listed in clockwise seating order.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, StateError
from companion.games.state_files import other_game as _other_game
from companion.games.state_files import refuse_other_game
from companion.storage import read_data_file
from companion.the_glade.forest import Forest
from companion.the_glade.names import (
    MATCH_KINDS,
    BoardGeometry,
    Counter,
    Icon,
    MatchCounter,
    Square,
    Tile,
    Token,
)
from companion.the_glade.sets import is_set, why_not_a_set
from companion.the_glade.table import (
    COUNTERS_PER_COLOUR,
    RACK_SIZE,
    TILES_IN_GAME,
    VARIANTS,
    GameState,
    Player,
)

PHASES = ("action", "extra", "done")


# --- field helpers ---------------------------------------------------------------------------

def _field(where: str, fn: Any, *args: Any) -> Any:
    """Run a parser, prefixing its StateError with the field's name."""
    try:
        return fn(*args)
    except StateError as exc:
        raise StateError(f"{where}: {exc}") from None


def _obj(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise StateError(f"{where} must be an object (key: value), not {type(data).__name__}")
    return data


def _list(data: Any, where: str) -> list[Any]:
    if not isinstance(data, list):
        raise StateError(f"{where} must be a list, not {type(data).__name__}")
    return data


def _int(data: Any, where: str, lo: int, hi: int) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise StateError(f"{where} must be a whole number, not {data!r}")
    if not lo <= data <= hi:
        raise StateError(f"{where} is {data}, but must be {lo}-{hi}")
    return data


def _str(data: Any, where: str) -> str:
    if not isinstance(data, str) or not data.strip():
        raise StateError(f"{where} must be a non-empty text, not {data!r}")
    return data.strip()


def _bool(data: Any, where: str) -> bool:
    if not isinstance(data, bool):
        raise StateError(f"{where} must be true or false, not {data!r}")
    return data


def _square(geo: BoardGeometry, text: Any, where: str) -> Square:
    if not isinstance(text, str):
        raise StateError(f"{where}: a square must be written like C4, not {text!r}")
    return _field(where, geo.parse_square, text, "square")


def _icons(data: Any, geo: BoardGeometry, where: str) -> dict[Square, Icon]:
    out = {}
    for k, v in _obj(data, where).items():
        out[_square(geo, k, f"{where}.{k}")] = _field(f"{where}.{k}", Icon.parse, v)
    return out


def _known(data: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise StateError(f"{where} has unknown field{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(repr(u) for u in unknown)} (known: "
                         f"{', '.join(sorted(allowed))})")


# --- forest and players ----------------------------------------------------------------------

def load_forest(data: Any, geo: BoardGeometry, where: str = "forest") -> Forest:
    """A forest from ``{"tiles": {...}, "counters": {...}}``; squares on the board, one thing
    per square, counters only in enclosures."""
    data = _obj(data, where)
    _known(data, {"tiles", "counters", "icons"}, where)
    tiles = {}
    for k, v in _obj(data.get("tiles", {}), f"{where}.tiles").items():
        tiles[_square(geo, k, f"{where}.tiles.{k}")] = _field(f"{where}.tiles.{k}", Tile.parse, v)
    counters: dict[Square, Token] = {}
    for k, v in _obj(data.get("counters", {}) or {}, f"{where}.counters").items():
        sq = _square(geo, k, f"{where}.counters.{k}")
        if sq in tiles:
            raise StateError(f"{where}.counters.{k}: two things on one square ({sq} holds the "
                             f"tile {tiles[sq]} and the counter {v})")
        counters[sq] = _field(f"{where}.counters.{k}", Counter.parse, v)
    forest = Forest(geo, tiles, counters)
    for sq in counters:
        _check_enclosure(forest, sq, f"{where}.counters.{sq.name}")
    return forest


def _check_enclosure(forest: Forest, sq: Square, where: str) -> None:
    if not forest.is_enclosure(sq):
        missing = [n.name for n in sq.neighbours()
                   if forest.geometry.contains(n) and n not in forest.tiles]
        why = ("an edge square can never be one" if len(missing) < 4 and
               any(not forest.geometry.contains(n) for n in sq.neighbours())
               else f"no tile on {', '.join(missing)}")
        raise StateError(f"{where}: a counter lies on {sq}, which is no enclosure ({why})")


def _match_counter(data: Any, where: str) -> MatchCounter:
    data = _obj(data, where)
    _known(data, {"kind", "value", "icon", "square"}, where)
    kind = data.get("kind")
    if kind not in MATCH_KINDS:
        raise StateError(f"{where}.kind must be one of {', '.join(MATCH_KINDS)}, not {kind!r}")
    value = _int(data.get("value"), f"{where}.value", 1, 4)
    if kind != "leaf" and value != 1:
        raise StateError(f"{where}.value: a {kind} match counter is worth 1, not {value}")
    icon = None
    if data.get("icon") is not None:
        icon = _field(f"{where}.icon", Icon.parse, data["icon"])
        if icon.kind != kind:
            raise StateError(f"{where}.icon {icon} is a {icon.kind} icon, but kind is {kind}")
    return MatchCounter(kind, value, icon)


def load_player(data: Any, geo: BoardGeometry, where: str, variant: str) -> Player:
    data = _obj(data, where)
    _known(data, {"name", "colour", "supply", "forest", "store", "match_counters", "rack",
                  "rack_size", "turns"}, where)
    name = _str(data.get("name"), f"{where}.name")
    colour = _str(data.get("colour"), f"{where}.colour").lower()
    _field(f"{where}.colour", Counter.parse, f"{colour}-single")
    supply = _int(data.get("supply", COUNTERS_PER_COLOUR), f"{where}.supply", 0,
                  COUNTERS_PER_COLOUR)
    forest_data = data.get("forest", {"tiles": {}})
    forest = load_forest(forest_data, geo, f"{where}.forest")
    icons = None
    if isinstance(forest_data, dict) and forest_data.get("icons") is not None:
        icons = _icons(forest_data["icons"], geo, f"{where}.forest.icons")
    store: list[Token] = [_field(f"{where}.store[{i}]", Counter.parse, c)
                          for i, c in enumerate(_list(data.get("store", []), f"{where}.store"))]
    counters = dict(forest.counters)
    for i, m in enumerate(_list(data.get("match_counters", []) or [],
                                f"{where}.match_counters")):
        mw = f"{where}.match_counters[{i}]"
        if variant != "matching":
            raise StateError(f"{mw}: match counters are used only in the matching game "
                             f"(variant is {variant})")
        mc = _match_counter(m, mw)
        if isinstance(m, dict) and m.get("square") is not None:
            sq = _square(geo, m["square"], f"{mw}.square")
            if sq in forest.tiles or sq in counters:
                raise StateError(f"{mw}.square: two things on one square ({sq} is not empty)")
            _check_enclosure(forest, sq, f"{mw}.square")
            counters[sq] = mc
        else:
            store.append(mc)
    forest = Forest(geo, forest.tiles, counters)
    rack = None
    if data.get("rack") is not None:
        rack = tuple(_field(f"{where}.rack[{i}]", Tile.parse, t)
                     for i, t in enumerate(_list(data["rack"], f"{where}.rack")))
        if len(rack) > RACK_SIZE:
            raise StateError(f"{where}.rack holds {len(rack)} tiles; a rack holds at most 8")
    rack_size = _int(data.get("rack_size", len(rack) if rack is not None else RACK_SIZE),
                     f"{where}.rack_size", 0, RACK_SIZE)
    if rack is not None and rack_size != len(rack):
        raise StateError(f"{where}.rack_size is {rack_size} but the rack lists {len(rack)} tiles")
    turns = _int(data.get("turns", 0), f"{where}.turns", 0, 10_000)
    return Player(name, colour, supply, forest, tuple(store), rack, rack_size, icons, turns)


# --- the whole state -------------------------------------------------------------------------

_TOP = {"game", "variant", "board", "players", "glade", "start_player", "current_player",
        "phase", "round", "bag", "end_triggered", "finished", "neutral", "boxed",
        "bag_tiles", "to_draw"}
def other_game(data: Any) -> str | None:
    """The game a state file is for when that is not The Glade (see
    :mod:`companion.games.state_files`)."""
    return _other_game(data, "the-glade", _TOP | {"forest"})


def load_state(data: Any, *, strict: bool = True, name: str | None = None) -> GameState:
    """Validate a parsed state file and build the :class:`GameState`.

    ``strict`` also refuses forests that break the placement rules (a line that is no set,
    tiles away from an empty centre square). ``check`` reads its AFTER file leniently, since
    an illegal placement is what it rules on. Another game's file is refused as that
    (``name`` is what to call the file then).
    """
    data = _obj(data, "the state file")
    refuse_other_game(data, "the-glade", _TOP | {"forest"}, name)
    _known(data, _TOP, "the state file")
    variant = data.get("variant", "basic")
    if variant not in VARIANTS:
        raise StateError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    board = data.get("board", {"rows": 7, "cols": 7, "centre": "D4"})
    geo = _field("board", BoardGeometry.from_dict,
                 {k: v for k, v in _obj(board, "board").items() if k != "icons"})
    icons = _icons(board["icons"], geo, "board.icons") if board.get("icons") else None
    raw_players = _list(data.get("players"), "players")
    if not raw_players:
        raise StateError("players: the list is empty; a game has 1-4 players")
    if len(raw_players) > 4:
        raise StateError(f"players: {len(raw_players)} players listed; The Glade takes 1-4")
    if variant == "solo" and len(raw_players) != 1:
        raise StateError(f"players: a solo game has 1 player, not {len(raw_players)}")
    players = tuple(load_player(p, geo, f"players[{i}]", variant)
                    for i, p in enumerate(raw_players))
    for key in ("name", "colour"):
        seen = Tally(getattr(p, key) for p in players)
        for value, n in seen.items():
            if n > 1:
                raise StateError(f"players: {n} players have the {key} {value!r}")
    glade = {}
    for k, v in _obj(data.get("glade", {}) or {}, "glade").items():
        tile = _field(f"glade.{k}", Tile.parse, k)
        if tile in glade:
            raise StateError(f"glade.{k}: two counters on the glade space of {tile}")
        glade[tile] = _field(f"glade.{k}", Counter.parse, v)
    names = [p.name for p in players]
    start = data.get("start_player")
    current = data.get("current_player")
    for key, value in (("start_player", start), ("current_player", current)):
        if value is not None and value not in names:
            raise StateError(f"{key} {value!r} is not one of the players ({', '.join(names)})")
    phase = data.get("phase", "action")
    if phase not in PHASES:
        raise StateError(f"phase must be one of {', '.join(PHASES)}, not {phase!r}")
    neutral = data.get("neutral")
    if neutral is not None:
        neutral = _str(neutral, "neutral").lower()
    state = GameState(
        players=players, variant=variant, geometry=geo, glade=glade, icons=icons,
        start_player=start, current=current, phase=phase,
        round=_int(data.get("round", 1), "round", 1, 10_000),
        bag=None if data.get("bag") is None else _int(data["bag"], "bag", 0, 128),
        end_triggered=_bool(data.get("end_triggered", False), "end_triggered"),
        finished=_bool(data.get("finished", False), "finished"),
        neutral=neutral, boxed=_int(data.get("boxed", 0), "boxed", 0, COUNTERS_PER_COLOUR))
    validate(state, strict=strict)
    return load_extra(state, data)


def validate(state: GameState, *, strict: bool = True) -> None:
    """Whole-table rules: counter colours and numbers, tile copies, legal forests."""
    colours = {p.colour for p in state.players}
    all_colours = Tally(c.colour for _ref, c in state.counters())
    others = sorted(set(all_colours) - colours)
    if state.variant == "solo":
        if state.neutral is not None and state.neutral in colours:
            raise StateError(f"neutral: {state.neutral!r} is the player's own colour")
        if state.neutral is not None:
            stray = [c for c in others if c != state.neutral]
        else:
            stray = others[1:]
        if stray:
            raise StateError(f"counters of {', '.join(stray)} are in play, but a solo game has "
                             "only the player's colour and one neutral colour")
    elif others:
        raise StateError(f"counters of {', '.join(others)} are in play, but no player has that "
                         f"colour (players: {', '.join(sorted(colours))})")
    for colour in sorted(colours | set(all_colours)):
        total = state.colour_total(colour)
        if state.neutral == colour or colour not in colours:
            total += state.boxed
        if total > COUNTERS_PER_COLOUR:
            raise StateError(f"{total} {colour} counters are in play (supply, glade, stores and "
                             f"enclosures); each colour has only 12")
    copies: Tally[Tile] = Tally()
    for p in state.players:
        copies.update(p.forest.tiles.values())
        copies.update(p.rack or ())
    for tile, n in sorted(copies.items()):
        if n > 2:
            raise StateError(f"{n} copies of {tile} are on the forest boards and racks; the "
                             "game has only 2 of each tile")
    if strict and state.bag is not None:
        in_play = sum(len(p.forest.tiles) + p.rack_size for p in state.players)
        face_down = sum(p.turns for p in state.players) if state.variant == "solo" else 0
        if state.bag + in_play + face_down > TILES_IN_GAME:
            raise StateError(f"bag: {state.bag} tiles in the bag and {in_play + face_down} on "
                             f"boards, racks and face down make more than the game's "
                             f"{TILES_IN_GAME}")
    _check_match_counters(state)
    if strict:
        for i, p in enumerate(state.players):
            _check_forest_rules(p.forest, f"players[{i}].forest")


def _check_match_counters(state: GameState) -> None:
    seen: Tally[tuple[str, int]] = Tally()
    for p in state.players:
        for mc, _sq in p.match_counters:
            if mc.icon is not None:
                key = (str(mc.icon), mc.value if mc.kind == "leaf" else 1)
                seen[key] += 1
    for (icon, value), n in seen.items():
        if n > 1 and Icon.parse(icon).kind == "leaf":
            raise StateError(f"match_counters: the {icon} leaf counter worth {value} is held "
                             f"{n} times; there is one of each")


def _check_forest_rules(forest: Forest, where: str) -> None:
    if forest.tiles and forest.geometry.centre not in forest.tiles:
        raise StateError(f"{where}.tiles: there are tiles but none on the centre square "
                         f"{forest.geometry.centre} (the first placement covers it)")
    for axis, run in forest.lines():
        tiles = [forest.tiles[s] for s in run]
        if not is_set(tiles):
            raise StateError(f"{where}.tiles: {axis} {', '.join(s.name for s in run)} is no set: "
                             f"{why_not_a_set(tiles)}")


def load_state_file(path: Path, *, strict: bool = True) -> GameState:
    """Read and validate a state file (JSON or YAML)."""
    data = read_data_file(path)
    try:
        return load_state(data, strict=strict, name=str(path))
    except CompanionError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:  # pragma: no cover
        raise StateError(f"state file {path} cannot be read as The Glade: {exc}") from None


# --- optional fields: a game in the engine's hands (a known bag) ----------------------

#: Fields the writer adds to the spec's state file when the engine dealt the game and knows
#: the bag (``bag_tiles``: its tiles; ``to_draw``: how many the current refill still draws).
EXTRA_FIELDS = ("bag_tiles", "to_draw")


def dump_extra(state: GameState) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if state.bag_tiles is not None:
        data["bag_tiles"] = [str(t) for t in state.bag_tiles]
    if state.to_draw:
        data["to_draw"] = state.to_draw
    return data


def load_extra(state: GameState, data: Mapping[str, Any]) -> GameState:
    """``state`` with the optional fields of ``data`` read and checked against it."""
    bag_tiles = None
    if data.get("bag_tiles") is not None:
        raw = data["bag_tiles"]
        if not isinstance(raw, list):
            raise StateError(f"bag_tiles must be a list of tiles, not {type(raw).__name__}")
        bag_tiles = tuple(_field(f"bag_tiles[{i}]", Tile.parse, t) for i, t in enumerate(raw))
        if state.bag != len(bag_tiles):
            raise StateError(f"bag_tiles lists {len(bag_tiles)} tiles but bag is {state.bag}")
        copies = Tally(bag_tiles)
        for p in state.players:
            copies.update(p.forest.tiles.values())
            copies.update(p.rack or ())
        for tile, n in sorted(copies.items()):
            if n > 2:
                raise StateError(f"bag_tiles: {n} copies of {tile} are in the bag, on the "
                                 "forest boards and racks; the game has only 2 of each tile")
    to_draw = data.get("to_draw", 0)
    if not isinstance(to_draw, int) or isinstance(to_draw, bool) or to_draw < 0:
        raise StateError(f"to_draw must be a whole number of tiles, not {to_draw!r}")
    if to_draw:
        if bag_tiles is None:
            raise StateError("to_draw: tiles are drawn one by one only from a known bag "
                             "(bag_tiles)")
        if to_draw > len(bag_tiles) or state.finished or state.phase != "done":
            raise StateError(f"to_draw is {to_draw}, but {len(bag_tiles)} tiles are in the "
                             "bag, the phase must be done and the game not finished")
    return replace(state, bag_tiles=bag_tiles, to_draw=to_draw)


# --- writing -------------------------------------------------------------------------------

def dump_player(p: Player, state: GameState) -> dict[str, Any]:
    forest = p.forest.to_dict()
    if p.icons is not None:
        forest["icons"] = {sq.name: str(i) for sq, i in sorted(p.icons.items())}
    data: dict[str, Any] = {
        "name": p.name, "colour": p.colour, "supply": p.supply, "forest": forest,
        "store": [str(t) for t in p.store if isinstance(t, Counter)]}
    if state.variant == "matching" or p.match_counters:
        mcs = []
        for mc, sq in p.match_counters:
            d = mc.to_dict()
            if sq is not None:
                d["square"] = sq.name
            mcs.append(d)
        data["match_counters"] = mcs
    if p.rack is not None:
        data["rack"] = [str(t) for t in p.rack]
    data["rack_size"] = p.rack_size
    data["turns"] = p.turns
    return data


def dump_state(state: GameState) -> dict[str, Any]:
    """The state file as plain data (JSON-ready); ``load_state(dump_state(s)) == s``."""
    board: dict[str, Any] = dict(state.geometry.to_dict())
    if state.icons:
        board["icons"] = {sq.name: str(i) for sq, i in sorted(state.icons.items())}
    data: dict[str, Any] = {
        "game": "the-glade", "variant": state.variant, "board": board,
        "players": [dump_player(p, state) for p in state.players],
        "glade": {str(t): str(c) for t, c in sorted(state.glade.items())},
        "round": state.round, "phase": state.phase,
        "end_triggered": state.end_triggered, "finished": state.finished}
    for key, value in (("start_player", state.start_player),
                       ("current_player", state.current), ("bag", state.bag),
                       ("neutral", state.neutral)):
        if value is not None:
            data[key] = value
    if state.boxed:
        data["boxed"] = state.boxed
    return {**data, **dump_extra(state)}


def forest_only(data: Mapping[str, Any]) -> bool:
    """True for a ``{"board": ..., "forest": ...}`` file (check's short form)."""
    return isinstance(data, dict) and "forest" in data and "players" not in data
