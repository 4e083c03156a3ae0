"""Checking a scan against the forest as it was before (``--previous``).

Tiles never move or vanish, a turn adds one row or column of 1-4 tiles, and counters lie only
in enclosures. A scan that breaks these is not silently reported as fact: each break is listed
in ``contradictions`` (shaped like the ``check`` command's violations), so the player can look
again. Squares the scan is unsure of are never counted as a contradiction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import CompanionError, InputFileError, StateError
from companion.storage import read_data_file
from companion.the_glade.names import BoardGeometry, Counter, Square, Tile


def load_previous(path: Path) -> dict[str, Any]:
    """Read a state file (JSON or YAML): a full game state, whose first player's forest is
    taken, or ``{"board": ..., "forest": ...}``. Returns ``{"board", "forest"}`` checked."""
    path = Path(path)
    if not path.exists():
        raise InputFileError(f"{path}: no such state file; check the --previous path")
    data = read_data_file(path, "--previous state file")  # bounded: size, depth, aliases
    if not isinstance(data, dict):
        raise StateError(f"{path}: a state file must be an object with board and forest")
    board = data.get("board", {"rows": 7, "cols": 7, "centre": "D4"})
    if "forest" in data:
        forest = data["forest"]
        where = "forest"
    else:
        players = data.get("players")
        if not isinstance(players, list) or not players or not isinstance(players[0], dict):
            raise StateError(f"{path}: needs 'forest' or 'players' with a first player")
        forest = players[0].get("forest", {})
        where = "players[0].forest"
    geometry = BoardGeometry.from_dict(board)
    if not isinstance(forest, dict):
        raise StateError(f"{path}: {where} must be an object with tiles and counters")
    tiles, counters = {}, {}
    for key, parse, out in (("tiles", Tile.parse, tiles), ("counters", Counter.parse, counters)):
        entries = forest.get(key) or {}
        if not isinstance(entries, dict):
            raise StateError(f"{path}: {where}.{key} must map squares to names")
        for square, name in entries.items():
            try:
                sq = geometry.parse_square(str(square), f"{where}.{key}")
                out[sq.name] = str(parse(name))
            except CompanionError as exc:
                raise StateError(f"{path}: {where}.{key}.{square}: {exc}") from None
    both = set(tiles) & set(counters)
    if both:
        raise StateError(f"{path}: {where}: square {sorted(both)[0]} holds a tile and a counter")
    return {"board": geometry.to_dict(), "forest": {"tiles": tiles, "counters": counters}}


def _item(rule: str, squares: list[str], message: str) -> dict[str, Any]:
    return {"rule": rule, "squares": sorted(squares, key=_order), "message": message}


def _order(name: str) -> tuple[int, int]:
    sq = Square.parse(name)
    return (sq.row, sq.col)


def contradictions(previous: dict[str, Any], scanned: dict[str, Any]) -> list[dict[str, Any]]:
    """Every way ``scanned`` (a scan result) cannot follow from ``previous`` in one turn."""
    out: list[dict[str, Any]] = []
    pb, sb = previous["board"], scanned["board"]
    if (pb["rows"], pb["cols"]) != (sb["rows"], sb["cols"]):
        return [_item("board", [], f"the previous state is for a {pb['rows']}x{pb['cols']} "
                                   f"board, but the photo shows a {sb['rows']}x{sb['cols']} one")]
    geometry = BoardGeometry.from_dict(sb)
    unsure = set(scanned.get("uncertain", []))
    before_t, before_c = previous["forest"]["tiles"], previous["forest"]["counters"]
    now_t, now_c = scanned["forest"]["tiles"], scanned["forest"]["counters"]
    for sq, name in before_t.items():
        if sq in unsure:
            continue
        if sq not in now_t:
            seen = f"a counter ({now_c[sq]})" if sq in now_c else "nothing"
            out.append(_item("tile-vanished", [sq], f"{sq} held {name} before, but the photo "
                                                    f"shows {seen} there; tiles never move"))
        elif now_t[sq] != name:
            out.append(_item("tile-changed", [sq], f"{sq} held {name} before, but the photo "
                                                   f"shows {now_t[sq]}; tiles never change"))
    for sq, name in before_c.items():
        if sq in unsure:
            continue
        if now_c.get(sq) != name:
            seen = now_c.get(sq) or now_t.get(sq) or "nothing"
            out.append(_item("counter-vanished", [sq], f"{sq} held the counter {name} before, "
                                                       f"but the photo shows {seen}"))
    new = [sq for sq in now_t if sq not in before_t]
    if len(new) > 4:
        out.append(_item("placement", new, f"{len(new)} new tiles since the previous state; "
                                           "one turn places 1-4 tiles"))
    elif len(new) > 1:
        squares = [Square.parse(sq) for sq in new]
        if len({s.row for s in squares}) > 1 and len({s.col for s in squares}) > 1:
            out.append(_item("placement", new, "the new tiles are not in one row or column; "
                                               "one turn places them in a line"))
    for sq, name in now_c.items():
        square = Square.parse(sq)
        around = [n for n in square.neighbours() if geometry.contains(n)]
        if len(around) < 4:
            out.append(_item("enclosure", [sq], f"counter {name} on {sq}, an edge square; "
                                                "counters lie only in enclosures"))
            continue
        if any(n.name in unsure for n in around):
            continue
        missing = [n.name for n in around if n.name not in now_t]
        if missing:
            out.append(_item("enclosure", [sq, *missing],
                             f"counter {name} on {sq}, but {', '.join(missing)} "
                             f"{'holds' if len(missing) == 1 else 'hold'} no tile; counters "
                             "lie only in enclosures"))
    return out
