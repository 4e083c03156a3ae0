"""Meadow's state file (the spec's JSON or YAML): read, checked, and written back.

A state file as a player writes it holds each player's meadow, surroundings, road tokens,
hand and bonus tokens. A game the engine runs adds optional fields (``board``, ``decks``,
``round``, ``first_player``, ``campfire``, and ``table``, ``turn``, ``rover``, each player's
``colour`` and ``tokens``) so that ``load(dump(s)) == s`` at every moment of a game. Files
are read through the bounded reader; every refusal is one line naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.games.state_files import refuse_other_game
from companion.meadow.catalogue import Catalogue, load_catalogue
from companion.meadow.game import STEPS, Rover, State, Table, Turn
from companion.meadow.main_board import DECK_ORDER, NOTCHES, SPOTS, Board
from companion.meadow.meadow import MAX_COLUMNS, Bonus, Landscape, PlayerArea
from companion.meadow.symbols import ENCOUNTER


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise StateError(f"{where}: must be a list")
    return value


def _ids(value: Any, where: str) -> tuple[str, ...]:
    items = _list(value, where)
    if not all(isinstance(c, str) for c in items):
        raise StateError(f"{where}: must be a list of card ids")
    return tuple(items)


def _whole(value: Any, where: str, lo: int = 0, hi: int = 999) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StateError(f"{where}: must be a whole number from {lo} to {hi}")
    return value


def catalogue_of(ref: Any, folder: Path | None) -> tuple[Catalogue, str]:
    """The catalogue a state file names (relative to its folder; absent or ``sample``: the
    shipped SAMPLE one), and the reference to write back."""
    if ref in (None, "sample"):
        return load_catalogue(), "sample"
    if not isinstance(ref, str) or not ref.strip():
        raise StateError("catalogue: must be a file path or 'sample'")
    path = Path(ref).expanduser()
    if not path.is_absolute():
        path = (folder or Path.cwd()) / path
    return load_catalogue(path), ref


def _player(raw: Any, i: int, cat: Catalogue, seen: dict[str, str]) -> PlayerArea:
    where = f"players[{i}]"
    if not isinstance(raw, Mapping):
        raise StateError(f"{where}: must be a mapping with name, meadow, ...")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise StateError(f"{where}.name: must be the player's name")
    where = f"player {name}"

    def note(card: str, field: str) -> None:
        if card not in cat.cards:
            raise StateError(f"{where}.{field}: unknown card {card!r}")
        key = min(card, cat.cards[card].other_side or card)
        if key in seen:
            raise StateError(f"{where}.{field}: card {card} appears twice (also in "
                             f"{seen[key]})")
        seen[key] = f"{where}.{field}"

    columns = _list(raw.get("meadow", []), f"{where}.meadow")
    if len(columns) > MAX_COLUMNS:
        raise StateError(f"{where}.meadow: {len(columns)} columns; a meadow holds at most "
                         f"{MAX_COLUMNS} ground cards")
    meadow = []
    for c, col in enumerate(columns, 1):
        cards = _ids(col, f"{where}.meadow column {c}")
        if not cards:
            raise StateError(f"{where}.meadow column {c}: is empty; a column starts with a "
                             "ground card")
        for j, card in enumerate(cards):
            note(card, f"meadow column {c}")
            kind = cat.cards[card].type
            if j == 0 and kind != "ground":
                raise StateError(f"{where}.meadow column {c}: {card} is a {kind} card; a "
                                 "column starts with a ground card")
            if j > 0 and kind != "observation":
                raise StateError(f"{where}.meadow column {c}: {card} is a {kind} card; only "
                                 "observation cards lie on a column")
            if j > 0 and ENCOUNTER in cat.cards[cards[j - 1]].card_symbols:
                raise StateError(f"{where}.meadow column {c}: {card} lies on "
                                 f"{cards[j - 1]}, which shows an encounter (nothing may "
                                 "cover it)")
        meadow.append(cards)
    lands = []
    for k, entry in enumerate(_list(raw.get("surroundings", []), f"{where}.surroundings")):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("landscape"), str):
            raise StateError(f"{where}.surroundings[{k}]: must be {{landscape: ID, "
                             "discovery: ID or null}")
        land, found = entry["landscape"], entry.get("discovery")
        note(land, f"surroundings[{k}].landscape")
        if cat.cards[land].type != "landscape":
            raise StateError(f"{where}.surroundings[{k}].landscape: {land} is a "
                             f"{cat.cards[land].type} card, not a landscape")
        if found is not None:
            if not isinstance(found, str):
                raise StateError(f"{where}.surroundings[{k}].discovery: must be a card id "
                                 "or null")
            note(found, f"surroundings[{k}].discovery")
            if cat.cards[found].type != "discovery":
                raise StateError(f"{where}.surroundings[{k}].discovery: {found} is a "
                                 f"{cat.cards[found].type} card, not a discovery")
        lands.append(Landscape(land, found))
    roads = raw.get("road_tokens", {})
    if not isinstance(roads, Mapping):
        raise StateError(f"{where}.road_tokens: must be {{unused: N, used: N}}")
    unused = _whole(roads.get("unused", 0), f"{where}.road_tokens.unused")
    used = _whole(roads.get("used", len(lands)), f"{where}.road_tokens.used")
    if used != len(lands):
        raise StateError(f"{where}.road_tokens.used: {used}, but {len(lands)} landscape "
                         f"card{'s' if len(lands) != 1 else ''} lie in the surroundings "
                         "(one used road token under each)")
    hand = _ids(raw.get("hand", []), f"{where}.hand")
    for card in hand:
        note(card, "hand")
    bonus = []
    for k, entry in enumerate(_list(raw.get("bonus", []), f"{where}.bonus")):
        if not isinstance(entry, Mapping):
            raise StateError(f"{where}.bonus[{k}]: must be {{value: 2, goals: [G1, G2]}}")
        value = entry.get("value")
        if k >= 3:
            raise StateError(f"{where}.bonus: a player has only 3 bonus tokens (2, 3, 4)")
        if value != (2, 3, 4)[k]:
            raise StateError(f"{where}.bonus[{k}].value: bonus tokens are placed 2, then 3, "
                             f"then 4; this one must be {(2, 3, 4)[k]}, not {value!r}")
        goals = _ids(entry.get("goals"), f"{where}.bonus[{k}].goals")
        if len(goals) != 2:
            raise StateError(f"{where}.bonus[{k}].goals: must name two goal tokens")
        for g in goals:
            if g not in {t.id for t in cat.goal_tokens}:
                raise StateError(f"{where}.bonus[{k}].goals: unknown goal token {g!r}")
        bonus.append(Bonus(int(value), (goals[0], goals[1])))
    return PlayerArea(name, tuple(meadow), tuple(lands), unused, used, hand, tuple(bonus))


def parse_state(data: Any, folder: Path | None = None) -> State:
    """A :class:`State` from a state file's data (``folder``: where relative catalogue paths
    start)."""
    if not isinstance(data, Mapping):
        raise StateError("a Meadow state file is a mapping with game, players, ...")
    if data.get("game") != "meadow":
        refuse_other_game(data, "meadow", ())  # another game's file is named as such
        raise StateError("game: must be meadow")
    cat, ref = catalogue_of(data.get("catalogue"), folder)
    raw_players = _list(data.get("players"), "players")
    if not 1 <= len(raw_players) <= 4:
        raise StateError("players: Meadow is for 1 to 4 players")
    seen: dict[str, str] = {}
    players = tuple(_player(p, i, cat, seen) for i, p in enumerate(raw_players))
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise StateError("players: two players have the same name")
    pairs: set[frozenset[str]] = set()
    for p in players:
        for b in p.bonus:
            key = frozenset(b.goals)
            if key in pairs:
                raise StateError(f"player {p.name}.bonus: two bonus tokens between "
                                 f"{b.goals[0]} and {b.goals[1]}; only one fits a pair")
            pairs.add(key)
    try:
        return _engine(data, cat, ref, players)
    except StateError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise StateError(f"the fields of a game in progress (board, decks, campfire, table, "
                         f"turn, rover, tokens) are damaged: {exc!r}") from None


def _engine(data: Mapping[str, Any], cat: Catalogue, ref: str,
            players: tuple[PlayerArea, ...]) -> State:
    """The optional fields of a game in progress (defaults: a position to score or check)."""
    names = [p.name for p in players]
    raw_board = data.get("board")
    spots: list[str | None] = [None] * 16
    late = False
    if raw_board is not None:
        if not isinstance(raw_board, Mapping):
            raise StateError("board: must be {rows: [[4 card ids or null] x 4], late: bool}")
        rows = _list(raw_board.get("rows"), "board.rows")
        if len(rows) != 4 or not all(isinstance(r, list) and len(r) == 4 for r in rows):
            raise StateError("board.rows: must be 4 rows of 4 card ids (or null)")
        spots = [c for r in rows for c in r]
        for c in spots:
            if c is not None and c not in cat.cards:
                raise StateError(f"board.rows: unknown card {c!r}")
        late = bool(raw_board.get("late", False))
    raw_decks = data.get("decks", {})
    if not isinstance(raw_decks, Mapping):
        raise StateError("decks: must be {N: [...], W: [...], S: [...], E: [...]}")
    decks = []
    for d in DECK_ORDER:
        cards = _ids(raw_decks.get(d, []), f"decks.{d}")
        for c in cards:
            if c not in cat.cards:
                raise StateError(f"decks.{d}: unknown card {c!r}")
        decks.append(cards)
    board = Board(tuple(spots), tuple(decks), late)
    round_no = _whole(data.get("round", 1), "round", 1, 20)
    first = data.get("first_player", names[0])
    if first not in names:
        raise StateError(f"first_player: {first!r} is not a player")
    campfire = data.get("campfire", {})
    if not isinstance(campfire, Mapping):
        raise StateError("campfire: must be {goals: [...], notches: [...]}")
    goals = _ids(campfire.get("goals", []), "campfire.goals")
    for g in goals:
        cat.goal(g)
    notches = []
    for k, entry in enumerate(_list(campfire.get("notches", []), "campfire.notches")):
        if not isinstance(entry, Mapping) or entry.get("player") not in (*names, "Rover"):
            raise StateError(f"campfire.notches[{k}]: must be {{notch, player, token}}")
        who = -1 if entry["player"] == "Rover" else names.index(entry["player"])
        notches.append((str(entry.get("notch")), who, str(entry.get("token"))))
    table_raw = data.get("table", {})
    if not isinstance(table_raw, Mapping):
        raise StateError("table: must be a mapping")
    colours = tuple(str(p.get("colour", "")) for p in data["players"])
    table = Table(_whole(table_raw.get("seed", 0), "table.seed", 0, 10 ** 12), goals,
                  tuple(table_raw.get("envelopes", ())),
                  colours if any(colours) else (),
                  tuple((str(a), str(b)) for a, b in table_raw.get("markers", ())),
                  bool(table_raw.get("first_game", False)),
                  tuple((str(a), str(b)) for a, b in table_raw.get("starts", ())))
    turn_raw = data.get("turn")
    if turn_raw is None:
        turn = Turn("over")
    else:
        if not isinstance(turn_raw, Mapping) or turn_raw.get("step") not in STEPS:
            raise StateError(f"turn.step: must be one of {', '.join(STEPS)}")
        turn = Turn(turn_raw["step"], names.index(turn_raw.get("player", names[0])),
                    str(turn_raw.get("notch", "")), int(turn_raw.get("plays_left", 0)),
                    bool(turn_raw.get("campfire", False)), bool(turn_raw.get("claimed", False)),
                    tuple(turn_raw.get("looking", ())), str(turn_raw.get("look_deck", "")),
                    tuple(names.index(n) for n in turn_raw.get("order", ())))
    tokens = tuple(tuple(str(t) for t in p.get("tokens", ())) for p in data["players"]) \
        if turn_raw is not None else tuple(() for _ in players)
    rover = None
    rover_raw = data.get("rover")
    if rover_raw is not None:
        if not isinstance(rover_raw, Mapping):
            raise StateError("rover: must be {pile, deck, log}")
        rover = Rover(tuple(rover_raw.get("pile", ())), _ids(rover_raw.get("deck", []),
                                                             "rover.deck"),
                      tuple(rover_raw.get("log", ())))
    return State(cat, players, board, table, turn, round_no, names.index(first), tokens,
                  tuple(notches), rover, ref)


def dump_state(state: State) -> dict[str, Any]:
    """The state file of ``state`` (with the optional fields of a game in progress)."""
    names = [p.name for p in state.players]
    players = []
    for i, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "name": p.name, "meadow": [list(col) for col in p.meadow],
            "surroundings": [{"landscape": land.card, "discovery": land.discovery}
                             for land in p.surroundings],
            "road_tokens": {"unused": p.roads_unused, "used": p.roads_used},
            "hand": list(p.hand),
            "bonus": [{"value": b.value, "goals": list(b.goals)} for b in p.bonus]}
        if state.table.colours:
            entry["colour"] = state.table.colours[i]
        if state.turn.step != "over":
            entry["tokens"] = list(state.tokens[i])
        players.append(entry)
    data: dict[str, Any] = {"game": "meadow", "catalogue": state.catalogue_ref or "sample",
                            "players": players}
    board = state.board
    data["board"] = {"rows": [list(board.spots[r * 4:(r + 1) * 4]) for r in range(4)],
                     "late": board.late}
    data["decks"] = {d: list(board.deck(d)) for d in DECK_ORDER}
    data["round"] = state.round
    data["first_player"] = names[state.first]
    who = {-1: "Rover", **dict(enumerate(names))}
    data["campfire"] = {"goals": list(state.table.goals),
                        "notches": [{"notch": n, "player": who[s], "token": t}
                                    for n, s, t in state.notches]}
    t = state.table
    data["table"] = {"seed": t.seed, "envelopes": list(t.envelopes),
                     "markers": [list(m) for m in t.markers], "first_game": t.first_game,
                     "starts": [list(s) for s in t.starts]}
    turn = state.turn
    if turn.step != "over":
        data["turn"] = {"step": turn.step, "player": names[turn.seat], "notch": turn.notch,
                        "plays_left": turn.plays_left, "campfire": turn.campfire,
                        "claimed": turn.claimed, "looking": list(turn.looking),
                        "look_deck": turn.look_deck, "order": [names[i] for i in turn.order]}
    if state.rover is not None:
        data["rover"] = {"pile": list(state.rover.pile), "deck": list(state.rover.deck),
                         "log": list(state.rover.log)}
    return data


def load_state(path: Path) -> State:
    """The state file at ``path``, read through the bounded reader and checked."""
    from companion.storage import read_data_file

    return parse_state(read_data_file(Path(path), "Meadow state file"), Path(path).parent)


__all__ = ["NOTCHES", "SPOTS", "catalogue_of", "dump_state", "load_state", "parse_state"]
