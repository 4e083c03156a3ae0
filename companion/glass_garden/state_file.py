"""The Glass Garden state file (YAML or JSON): a position at the start of a turn's actions step
(or part-way through it) or at the start of the sunlight phase.

::

    game: glass-garden
    deck: sample            # or a deck file's path, relative to this file
    critter: Fly
    turn: 1                 # 1-9, or sunlight
    actions_left: 2         # optional, dark turns: actions still to take this turn (0-2)
    critter_side: setup     # optional: setup | other (default: what the turn implies)
    garden:                 # the 9 columns, left to right
      - critter
      - {plant: Aloe, row: middle, side: soil}   # or just "Aloe" (middle row, soil side)
    glass: {left-top: dark}  # optional: sunlight | dark per position (default dark)

Every error names the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import ConfigError, StateError
from companion.games.state_files import other_game as _other_game
from companion.games.state_files import refuse_other_game
from companion.glass_garden.critter import DARK_TURNS, expected_side
from companion.glass_garden.deck import GLASS_POSITIONS, ROWS, SAMPLE_DECK, Deck, load_deck
from companion.glass_garden.game import ACTIONS, SUNLIGHT, SUNLIGHT_TURN, State, Table
from companion.glass_garden.garden import CRITTER, Garden
from companion.storage import read_data_file

FIELDS = {"game", "deck", "critter", "turn", "actions_left", "critter_side", "garden", "glass"}

def _deck(value: Any, base: Path) -> Deck:
    if value in (None, "sample"):
        return load_deck(SAMPLE_DECK)
    if not isinstance(value, str):
        raise StateError("deck: must be 'sample' or the path of a deck file")
    path = Path(value)
    if not path.is_absolute():
        path = base / path
    if not path.exists():
        raise StateError(f"deck: no deck file at {path}")
    try:
        read_data_file(path, "deck file")  # refuses a huge, deep or aliased file first
        return load_deck(path)
    except ConfigError as exc:
        detail = str(exc).removeprefix("deck: ")
        raise StateError(f"deck: {path.name}: {detail}") from None


def deck_of(ref: str | None, base: Path = Path(".")) -> Deck:
    """The deck a state file's ``deck`` field names ("sample" or a path)."""
    return _deck(ref, base)


def _column(raw: Any, i: int, deck: Deck) -> tuple[int, int, bool]:
    where = f"garden[{i}]"
    if isinstance(raw, str):
        raw = {"plant": raw}
    if not isinstance(raw, dict):
        raise StateError(f"{where}: must be 'critter', a plant's name, or "
                         "{plant: NAME, row: top|middle|bottom, side: soil|succulent}")
    extra = set(raw) - {"plant", "row", "side"}
    if extra:
        raise StateError(f"{where}: unknown field {sorted(extra)[0]!r}")
    name = raw.get("plant")
    try:
        plant = deck.plant_index(str(name))
    except KeyError:
        names = ", ".join(p.name for p in deck.plants)
        raise StateError(f"{where}.plant: {name!r} is not a plant of the deck ({names})") from None
    row = raw.get("row", "middle")
    if row not in ROWS:
        raise StateError(f"{where}.row: {row!r} is not top, middle or bottom")
    side = raw.get("side", "soil")
    if side not in ("soil", "succulent"):
        raise StateError(f"{where}.side: {side!r} is not soil or succulent")
    return plant, ROWS.index(row), side == "succulent"


def other_game(data: Any) -> str | None:
    """The game a state file is for when that is not Glass Garden (see
    :mod:`companion.games.state_files`)."""
    return _other_game(data, "glass-garden", FIELDS)


def parse_state(data: Any, base: Path = Path("."), *, name: str | None = None) -> State:
    """A :class:`State` from parsed data; :class:`StateError` names the field (or, for
    another game's file, the game; ``name`` is what to call the file then)."""
    if not isinstance(data, dict):
        raise StateError("state: the file must hold a mapping of fields")
    refuse_other_game(data, "glass-garden", FIELDS, name)
    extra = set(data) - FIELDS
    if extra:
        raise StateError(f"{sorted(extra)[0]}: unknown field (known: {', '.join(sorted(FIELDS))})")
    deck = _deck(data.get("deck"), base)
    name = data.get("critter")
    try:
        critter = deck.critter(str(name))
    except KeyError:
        names = ", ".join(c.name for c in deck.critters)
        raise StateError(f"critter: {name!r} is not a critter of the deck ({names})") from None
    turn = data.get("turn", 1)
    if turn == "sunlight":
        turn = SUNLIGHT_TURN
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= SUNLIGHT_TURN:
        raise StateError(f"turn: {turn!r} must be 1-{DARK_TURNS} or 'sunlight'")
    cols_raw = data.get("garden")
    if not isinstance(cols_raw, list) or len(cols_raw) != 9:
        raise StateError("garden: must list the 9 columns left to right")
    cols: list[int] = []
    rows = [1] * 8
    grown = 0
    for i, raw in enumerate(cols_raw):
        if raw == "critter":
            cols.append(CRITTER)
            continue
        plant, row, is_grown = _column(raw, i, deck)
        if plant in cols:
            raise StateError(f"garden[{i}].plant: {deck.plants[plant].name} is already in "
                             f"column {cols.index(plant)}")
        cols.append(plant)
        rows[plant] = row
        grown |= int(is_grown) << plant
    if cols.count(CRITTER) != 1:
        raise StateError("garden: exactly one column holds the critter")
    want = min(turn, DARK_TURNS) - 1
    if cols.index(CRITTER) != want:
        raise StateError(f"garden: on turn {turn if turn <= DARK_TURNS else 'sunlight'} the "
                         f"critter is in column {want + 1} (of 1-9), not "
                         f"{cols.index(CRITTER) + 1}")
    glass_raw = data.get("glass") or {}
    if not isinstance(glass_raw, dict):
        raise StateError("glass: must map positions to sunlight or dark")
    glass = 0
    for pos, side in glass_raw.items():
        if pos not in GLASS_POSITIONS:
            raise StateError(f"glass.{pos}: unknown position ({', '.join(GLASS_POSITIONS)})")
        if side not in ("sunlight", "dark"):
            raise StateError(f"glass.{pos}: {side!r} is not sunlight or dark")
        glass |= int(side == "sunlight") << GLASS_POSITIONS.index(pos)
    side_raw = data.get("critter_side")
    if side_raw is None:
        side = expected_side(turn)
    elif side_raw in ("setup", "other"):
        side = 0 if side_raw == "setup" else 1
    else:
        raise StateError(f"critter_side: {side_raw!r} is not setup or other")
    left = data.get("actions_left", 2)
    if type(left) is not int or left not in (0, 1, 2):  # 1.0 and True are no counts
        raise StateError(f"actions_left: {left!r} must be 0, 1 or 2")
    garden = Garden(tuple(cols), tuple(rows), grown, glass, side)
    table = Table(deck, critter)
    if turn == SUNLIGHT_TURN:
        # actions_left means nothing in the sunlight phase; the engine keeps its default (2)
        # there, so a position read from a file equals the same position reached in play
        return State(table, garden, turn, SUNLIGHT)
    return State(table, garden, turn, ACTIONS if left else "grow", left)


def load_state(path: Path | str) -> State:
    """Read and check a state file (JSON or YAML; a key written twice is refused, and so is
    a file too large, too deep or with YAML aliases: see :func:`read_data_file`)."""
    path = Path(path)
    return parse_state(read_data_file(path, "state file"), path.parent, name=str(path))


def dump_state(state: State, deck_ref: str = "sample") -> dict[str, Any]:
    """The state-file mapping of a state at the start of a step (no pending choices)."""
    g = state.garden
    deck = state.deck
    garden: list[Any] = []
    for p in g.cols:
        if p == CRITTER:
            garden.append("critter")
        else:
            garden.append({"plant": deck.plants[p].name, "row": ROWS[g.rows[p]],
                           "side": "succulent" if g.is_grown(p) else "soil"})
    out: dict[str, Any] = {
        "game": "glass-garden", "deck": deck_ref, "critter": state.table.critter.name,
        "turn": "sunlight" if state.turn == SUNLIGHT_TURN else state.turn,
        "critter_side": "setup" if g.critter_side == 0 else "other",
        "garden": garden,
        "glass": {pos: "sunlight" if g.is_sunlit(i) else "dark"
                  for i, pos in enumerate(GLASS_POSITIONS)},
    }
    if state.turn != SUNLIGHT_TURN and state.actions_left != 2:
        out["actions_left"] = state.actions_left
    return out
