"""The Glade's jobs for the command line and the service: ``score``, ``check`` and ``hint``.

Each reads its files, refuses unusable input with a :class:`~companion.errors.CompanionError`
(never a traceback) and returns a :class:`~companion.report.Report` whose ``data`` is the
spec's JSON object and whose ``text`` is the same for people.
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import replace
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.report import Report
from companion.storage import read_data_file
from companion.the_glade.coach import advise
from companion.the_glade.forest import Forest, parse_tile
from companion.the_glade.matching import reward_matches
from companion.the_glade.names import BoardGeometry, Tile
from companion.the_glade.placement import (
    PlacementRuling,
    Violation,
    placed_between,
    rule_placement,
)
from companion.the_glade.scoring import score_game, score_text
from companion.the_glade.set_rewards import reward_sets
from companion.the_glade.state_file import (
    forest_only,
    load_forest,
    load_state,
    load_state_file,
)
from companion.the_glade.table import COUNTERS_PER_COLOUR, GameState

# --- score ---------------------------------------------------------------------------------


def score(state: Path) -> Report:
    """Final score of every player, winner and tie-break (spec: ``companion score``)."""
    return score_state(load_state_file(state))


def score_state(game: GameState) -> Report:
    """The score report of a game state, however it was made (a file, photos)."""
    result = score_game(game)
    data = result.to_dict()
    warnings = short_colours(game)
    if warnings:
        data["warnings"] = warnings
    text = score_text(result)
    if warnings:
        text += "\n" + "\n".join(f"Note: {w}" for w in warnings)
    return Report(data, text)


def short_colours(game: GameState) -> list[str]:
    """Player colours with fewer than 12 counters accounted for (the file may miss some)."""
    out = []
    for p in game.players:
        total = game.colour_total(p.colour)
        if total < COUNTERS_PER_COLOUR:
            out.append(f"only {total} of {p.name}'s 12 {p.colour} counters are in the state file "
                       "(supply, glade, stores, enclosures); missing ones score nothing")
    return out


# --- check ---------------------------------------------------------------------------------


def _read_side(path: Path, label: str) -> tuple[Forest, GameState | None, dict[str, Any]]:
    data = read_data_file(path)
    try:
        if forest_only(data):
            board = data.get("board", {"rows": 7, "cols": 7, "centre": "D4"})
            if not isinstance(board, dict):
                raise StateError("board must be an object like {rows: 7, cols: 7, centre: D4}")
            geo = BoardGeometry.from_dict({k: v for k, v in board.items() if k != "icons"})
            unknown = sorted(set(data) - {"board", "forest", "game", "variant", "uncertain"})
            if unknown:
                raise StateError(f"unknown field(s) {', '.join(unknown)} beside board and forest")
            return load_forest(data["forest"], geo), None, data
        state = load_state(data, strict=False, name="this file")
        return state.players[0].forest, state, data
    except StateError as exc:
        raise StateError(f"{label} ({path}): {exc}") from None


def rule_check(before: Forest, after: Forest) -> PlacementRuling:
    """Rule on the tiles that ``after`` adds to ``before`` (one Place-tiles action)."""
    return rule_placement(before, placed_between(before, after))


def check(before: Path, after: Path) -> Report:
    """Rule on one Place-tiles action (spec: ``companion check``)."""
    f_before, s_before, raw_before = _read_side(before, "BEFORE")
    f_after, s_after, _raw_after = _read_side(after, "AFTER")
    uncertain = raw_before.get("uncertain") or _raw_after.get("uncertain")
    if uncertain:
        raise StateError(f"the scan left squares uncertain ({', '.join(map(str, uncertain))}): "
                         "settle them before asking for a ruling")
    if s_before is not None and s_after is not None and \
            s_before.players[0].name != s_after.players[0].name:
        raise StateError(f"BEFORE's first player is {s_before.players[0].name} but AFTER's is "
                         f"{s_after.players[0].name}: both must list the placer first")
    ruling = rule_check(f_before, f_after)
    if s_before is not None and s_before.finished:
        # the placement may fit the board, but a finished game takes no more placements
        over = Violation("game-over", tuple(sorted(ruling.placed)),
                         "the game is over (BEFORE is marked finished): no more tiles are "
                         "placed")
        ruling = replace(ruling, violations=(over, *ruling.violations), sets_of_3=(),
                         sets_of_4=(), enclosures=())
    data = ruling.to_dict()
    if ruling.legal and s_before is not None:
        data["counters"] = [e.to_dict() for e in placement_events(s_before, ruling)]
    return Report(data, check_text(ruling))


def placement_events(state: GameState, ruling: PlacementRuling) -> list[Any]:
    """The counters a legal placement by the state's first player moves (sets, matches)."""
    placer = state.players[0]
    state = state.with_player(replace(placer, forest=placer.forest.with_tiles(ruling.placed)))
    state, events = reward_sets(state, placer.name, ruling)
    _state, matched = reward_matches(state, placer.name, placer.name, ruling.placed)
    return [*events, *matched]


def check_text(ruling: PlacementRuling) -> str:
    placed = ", ".join(f"{s.name} {t}" for s, t in sorted(ruling.placed.items())) or "nothing"
    if not ruling.legal:
        lines = [f"Illegal placement ({placed}):"]
        lines += [f"  - {v.message}" for v in ruling.violations]
        return "\n".join(lines)
    lines = [f"Legal placement: {placed}."]
    for s3 in ruling.sets_of_3:
        lines.append(f"  Set of 3 on {', '.join(q.name for q in s3.squares)}: missing "
                     f"{s3.missing} ({s3.missing.describe()}), {s3.side} toadstool to the glade.")
    for s4 in ruling.sets_of_4:
        what = ("the counter on the placed tile's glade space, else a single toadstool"
                if s4.added == 1 else f"a {s4.side} toadstool")
        lines.append(f"  Set of 4 on {', '.join(q.name for q in s4.squares)} ({s4.added} added): "
                     f"{what} into the store.")
    if ruling.enclosures:
        lines.append(f"  New enclosure(s): {', '.join(s.name for s in ruling.enclosures)}.")
    if len(lines) == 1:
        lines.append("  No set of 3 or 4: the action ends.")
    return "\n".join(lines)


# --- hint ----------------------------------------------------------------------------------


def parse_rack(rack: list[str], game: GameState) -> list[Tile]:
    """The rack's tiles; refuses unknown names, more than 8 tiles, impossible copies."""
    tiles = []
    for i, text in enumerate(rack):
        try:
            tiles.append(parse_tile(text.strip()))
        except StateError as exc:
            raise StateError(f"rack[{i}]: {exc}") from None
    if len(tiles) > 8:
        raise StateError(f"rack: {len(tiles)} tiles given, a rack holds at most 8")
    on_boards = Tally(t for p in game.players for t in p.forest.tiles.values())
    for tile, n in Tally(tiles).items():
        if n > 2:
            raise StateError(f"rack: {n} copies of {tile}; the game has only 2 of each tile")
        if n + on_boards[tile] > 2:
            raise StateError(f"rack: {tile} appears {n} time(s) on the rack and "
                             f"{on_boards[tile]} time(s) on the forest boards; the game has "
                             "only 2 of each tile")
    return tiles


def hint(state: Path, *, player: str, rack: list[str], limit: int | None) -> Report:
    """Every legal Place-tiles action from ``rack``, best first (spec: ``companion hint``).

    A game marked finished is refused: there is no placement left to make in it."""
    game = load_state_file(state)
    if game.finished:
        raise StateError(f"{state} is a finished game (finished: true), so no placement is "
                         "left to hint; use 'companion score the-glade' for its final scores, "
                         "or set finished to false if the game goes on")
    names = [p.name for p in game.players]
    if player not in names:
        raise StateError(f"--player: no player called {player!r} in the state file "
                         f"(players: {', '.join(names)})")
    tiles = parse_rack(rack, game)
    advice = advise(game, player, tiles)
    shown = advice if limit is None else advice[:limit]
    data = {"player": player, "count": len(advice),
            "placements": [a.to_dict() for a in shown]}
    lines = [f"{player}: {len(advice)} legal placement(s)"
             + (f", best {len(shown)} shown" if len(shown) < len(advice) else "")]
    for a in shown:
        tiles_text = ", ".join(f"{s.name} {t}" for s, t in sorted(a.ruling.placed.items()))
        bits = []
        if a.ruling.sets_of_3:
            bits.append(f"{len(a.ruling.sets_of_3)} set(s) of 3")
        if a.ruling.sets_of_4:
            bits.append(f"{len(a.ruling.sets_of_4)} set(s) of 4")
        if a.ruling.enclosures:
            bits.append(f"enclosure {', '.join(s.name for s in a.ruling.enclosures)}")
        extra = f" ({'; '.join(bits)})" if bits else ""
        lines.append(f"  {a.points:+d}  {tiles_text}{extra}")
    return Report(data, "\n".join(lines))


__all__ = ["check", "hint", "rule_check", "score"]
