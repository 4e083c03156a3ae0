"""The Gardlings state file (JSON or YAML, the spec's format), read and written.

::

    {"game": "gardlings", "catalogue": "tiles.yaml", "variant": "basic", "long_game": false,
     "players": [{"name": "Maria", "coins": 3, "alarm": "N07", "mission": "X1",
                  "second_draw_used": false,
                  "garden": [{"tile": "X1", "cell": [0, 0], "rotation": 0}]}],
     "market": {"stacks": {"green-1": {"tiles": 9}, "blue-2": {"tiles": 11, "coin": true}},
                "piglets": 14}}

Every refusal names the field (``players[0].garden[2].rotation: 45 is not 0, 90, 180 or
270``). The engine adds optional fields for positions part-way through a round (``phase``,
``round``, ``start_player``, ``drawing``, ``to_hire``, ``mutating``, ``missions_between``,
``winners``, ``round_limit``, ``last_totals``, ``ended_by``; per player ``bag``, ``hand``,
``aside``, ``stopped``, ``moved``, ``redraw_of``, ``tiles_used``, ``hired``; stacks' ``ids``
and ``market.piglet_ids``) so that ``load(dump(state)) == state`` at every moment.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.games.state_files import refuse_other_game
from companion.gardlings.catalogue import Catalogue, catalogue_for
from companion.gardlings.game import BUILD, HIRE, OVER, ROUND_LIMIT, Seat, State
from companion.gardlings.garden import ROTATIONS, Garden, Placement
from companion.gardlings.market import parse_market
from companion.storage import read_data_file

FIELDS = {"game", "catalogue", "variant", "long_game", "players", "market"}
EXTRA = {"phase", "round", "start_player", "drawing", "to_hire", "mutating",
         "missions_between", "winners", "round_limit", "last_totals", "ended_by"}
PLAYER_FIELDS = {"name", "coins", "alarm", "mission", "second_draw_used", "garden"}
PLAYER_EXTRA = {"bag", "hand", "aside", "stopped", "moved", "redraw_of", "tiles_used",
                "hired"}
VARIANTS = ("basic", "expert")


def _whole(value: Any, where: str, least: int = 0, most: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise StateError(f"{where}: {value!r} must be a whole number {least}-{most}")
    return value


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"{where}: {value!r} must be true or false")
    return value


def _tile_id(value: Any, where: str, catalogue: Catalogue, *, optional: bool = True
             ) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or value not in catalogue:
        raise StateError(f"{where}: unknown tile {value!r} (not in the catalogue "
                         f"{catalogue.name})")
    return value


def parse_garden(raw: Any, where: str, catalogue: Catalogue, strict: bool = True) -> Garden:
    """A garden list; refuses unknown tiles, bad cells or turns, and (``strict``)
    overlapping tiles (``check`` rules on an overlap in AFTER instead)."""
    if not isinstance(raw, list):
        raise StateError(f"{where}: must be a list of {{tile, cell: [x, y], rotation}}")
    garden = Garden(catalogue)
    for k, entry in enumerate(raw):
        at = f"{where}[{k}]"
        if not isinstance(entry, dict) or set(entry) - {"tile", "cell", "rotation"}:
            raise StateError(f"{at}: must be {{tile: ID, cell: [x, y], rotation: 0|90|180|270}}")
        tile_id = _tile_id(entry.get("tile"), f"{at}.tile", catalogue, optional=False) or ""
        tile = catalogue[tile_id]
        if tile.back == "victory":
            raise StateError(f"{at}.tile: the victory tile is never laid in a garden")
        if tile_id in garden.index:
            raise StateError(f"{at}.tile: {tile_id} is used twice")
        cell = entry.get("cell")
        if not isinstance(cell, list) or len(cell) != 2 or not all(
                isinstance(v, int) and not isinstance(v, bool) and abs(v) <= 999 for v in cell):
            raise StateError(f"{at}.cell: {cell!r} must be [x, y], whole numbers")
        rotation = entry.get("rotation", 0)
        if rotation not in ROTATIONS or isinstance(rotation, bool):
            raise StateError(f"{at}.rotation: {rotation!r} is not 0, 90, 180 or 270")
        placement = Placement(tile_id, (cell[0], cell[1]), rotation)
        owner = garden.owner
        clash = [c for c in garden.cells_of(placement) if c in owner]
        if clash and strict:
            other = garden.placements[owner[clash[0]]].tile
            raise StateError(f"{at}: {tile_id} overlaps {other} at {list(clash[0])}")
        garden = garden.with_tile(placement)
    return garden


def _player(raw: Any, i: int, catalogue: Catalogue, used: set[str], strict: bool = True
            ) -> Seat:
    where = f"players[{i}]"
    if not isinstance(raw, dict):
        raise StateError(f"{where}: must be {{name, coins, garden, ...}}")
    extra = sorted(set(raw) - PLAYER_FIELDS - PLAYER_EXTRA)
    if extra:
        raise StateError(f"{where}.{extra[0]}: unknown field")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise StateError(f"{where}.name: must be the player's name")
    coins = _whole(raw.get("coins", 0), f"{where}.coins", 0, 999)
    garden = parse_garden(raw.get("garden", []), f"{where}.garden", catalogue, strict)
    alarm = _tile_id(raw.get("alarm"), f"{where}.alarm", catalogue)
    mission = _tile_id(raw.get("mission"), f"{where}.mission", catalogue)
    if mission is not None:
        if not catalogue[mission].is_mission:
            raise StateError(f"{where}.mission: {mission} is not a mission tile")
        if mission not in garden.index:
            raise StateError(f"{where}.mission: {mission} is not in {name}'s garden")
    for p in garden:
        if catalogue[p.tile].is_mission and p.tile != mission:
            raise StateError(f"{where}.garden: {p.tile} is a mission tile but not "
                             f"{name}'s mission")
    second = _flag(raw.get("second_draw_used", False), f"{where}.second_draw_used")
    bag_raw = raw.get("bag", [])
    if not isinstance(bag_raw, list):
        raise StateError(f"{where}.bag: must be a list of tile ids")
    bag = tuple(sorted(_tile_id(t, f"{where}.bag[{k}]", catalogue, optional=False) or ""
                       for k, t in enumerate(bag_raw)))
    hand = _tile_id(raw.get("hand"), f"{where}.hand", catalogue)
    aside = _tile_id(raw.get("aside"), f"{where}.aside", catalogue)
    redraw_of = _tile_id(raw.get("redraw_of"), f"{where}.redraw_of", catalogue)
    ids = [p.tile for p in garden] + list(bag) + [t for t in (alarm, hand, aside, redraw_of)
                                                  if t]
    for t in ids:
        if t in used:
            raise StateError(f"{where}: tile {t} is used twice")
        used.add(t)
    stopped = _flag(raw.get("stopped", alarm is not None or aside is not None),
                    f"{where}.stopped")
    return Seat(name, garden, coins, bag, hand, alarm, aside, stopped,
                _flag(raw.get("moved", False), f"{where}.moved"), mission, second, redraw_of,
                _whole(raw.get("tiles_used", 0), f"{where}.tiles_used", 0, 9999),
                _flag(raw.get("hired", False), f"{where}.hired"))


def parse_state(data: Any, base: Path = Path("."), strict: bool = True) -> State:
    """A state from the state file's data; ``base`` is the folder the catalogue path is
    relative to. Not ``strict``: the first player's garden may hold overlapping tiles
    (``check``'s AFTER, where an overlap is a ruling, not a bad file)."""
    refuse_other_game(data, "gardlings", FIELDS | EXTRA)
    if not isinstance(data, dict):
        raise StateError("the state file must hold {game: gardlings, players: [...]}")
    extra = sorted(set(data) - FIELDS - EXTRA)
    if extra:
        raise StateError(f"{extra[0]}: unknown field")
    ref = data.get("catalogue")
    catalogue = catalogue_for(ref, base)
    variant = data.get("variant", "basic")
    if variant not in VARIANTS:
        raise StateError(f"variant: {variant!r} is not basic or expert")
    long_game = _flag(data.get("long_game", False), "long_game")
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not 1 <= len(raw_players) <= 4:
        raise StateError("players: must list 1 to 4 players")
    used: set[str] = set()
    seats = tuple(_player(p, i, catalogue, used, strict or i > 0)
                  for i, p in enumerate(raw_players))
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise StateError("players: two players have the same name")
    market = parse_market(data.get("market"), catalogue, len(seats))
    for k, t in enumerate(market.piglet_ids):
        if t in used:
            raise StateError(f"market.piglet_ids[{k}]: tile {t} is used twice")
        used.add(t)
    for s in market.stacks:
        for t in s.ids:
            if t in used:
                raise StateError(f"market.stacks.{s.name}.ids: tile {t} is used twice")
            used.add(t)
    n = len(seats)
    phase = data.get("phase", BUILD)
    if phase not in (BUILD, HIRE, OVER):
        raise StateError(f"phase: {phase!r} is not build, hire or over")
    drawing = data.get("drawing")
    if drawing is not None:
        drawing = _whole(drawing, "drawing", 0, n - 1)
    to_hire_raw = data.get("to_hire", [])
    if not isinstance(to_hire_raw, list):
        raise StateError("to_hire: must be a list of seat numbers")
    to_hire = tuple(_whole(v, "to_hire", 0, n - 1) for v in to_hire_raw)
    if phase == HIRE and not to_hire:
        raise StateError("to_hire: the hiring phase needs the seats still to hire")
    between_raw = data.get("missions_between", [])
    if not isinstance(between_raw, list):
        raise StateError("missions_between: must be a list of mission tiles")
    between = tuple(_tile_id(t, f"missions_between[{k}]", catalogue)
                    for k, t in enumerate(between_raw))
    winners_raw = data.get("winners", [])
    if not isinstance(winners_raw, list) or not set(winners_raw) <= set(names):
        raise StateError("winners: must list players' names")
    totals_raw = data.get("last_totals", [])
    if not isinstance(totals_raw, list):
        raise StateError("last_totals: must be a list of whole numbers")
    ended_by = data.get("ended_by", "")
    if ended_by not in ("", "victory", "round-limit"):
        raise StateError("ended_by: must be victory or round-limit")
    return State(catalogue, "sample" if ref is None else str(ref), seats, market, variant,
                 long_game, phase, _whole(data.get("round", 1), "round", 1),
                 _whole(data.get("start_player", 0), "start_player", 0, n - 1), drawing,
                 to_hire, _flag(data.get("mutating", False), "mutating"), between,
                 tuple(winners_raw), _whole(data.get("round_limit", ROUND_LIMIT), "round_limit", 0),
                 tuple(_whole(v, "last_totals", -999) for v in totals_raw), ended_by)


def dump_state(state: State) -> dict[str, Any]:
    """The state file of ``state`` (the spec's fields, and the engine's where they matter)."""
    data: dict[str, Any] = {"game": "gardlings"}
    if state.catalogue_ref != "sample":
        data["catalogue"] = state.catalogue_ref
    data["variant"] = state.variant
    data["long_game"] = state.long_game
    players = []
    for s in state.seats:
        entry: dict[str, Any] = {"name": s.name, "coins": s.coins, "alarm": s.alarm,
                                 "mission": s.mission, "second_draw_used": s.second_draw_used,
                                 "garden": [p.to_dict() for p in s.garden]}
        entry["bag"] = list(s.bag)
        for key in ("hand", "aside", "redraw_of"):
            if getattr(s, key) is not None:
                entry[key] = getattr(s, key)
        entry["stopped"] = s.stopped
        entry["moved"] = s.moved
        entry["tiles_used"] = s.tiles_used
        entry["hired"] = s.hired
        players.append(entry)
    data["players"] = players
    data["market"] = state.market.to_dict()
    data.update({"phase": state.phase, "round": state.round, "start_player": state.start,
                 "drawing": state.drawing, "to_hire": list(state.to_hire),
                 "mutating": state.mutating, "missions_between": list(state.between),
                 "winners": list(state.winners), "round_limit": state.round_limit,
                 "last_totals": list(state.last_totals), "ended_by": state.ended_by})
    return data


def load_state(path: Path) -> State:
    """A state file from disk, through the bounded reader; errors name the file."""
    path = Path(path)
    data = read_data_file(path)
    try:
        return parse_state(data, path.parent)
    except StateError as exc:
        raise StateError(f"{path.name}: {exc}") from None


__all__ = ["dump_state", "load_state", "parse_garden", "parse_state"]
