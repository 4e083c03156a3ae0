"""Gardlings' jobs for the command line: ``score``, ``check`` and ``hint`` (the spec's JSON).

Each reads its files through the bounded reader, refuses unusable input with one line (a
:class:`~companion.errors.StateError` naming the field) and returns a
:class:`~companion.report.Report`: ``data`` is the spec's JSON, ``text`` the same for people.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.gardlings.advice import ranked_placements
from companion.gardlings.game import Seat, State
from companion.gardlings.garden import Garden, Placement
from companion.gardlings.gems import complete_gems
from companion.gardlings.gnome_alarm import sets_off
from companion.gardlings.hiring import Hiring, winner
from companion.gardlings.missions import count_all, has_second_draw
from companion.gardlings.placement import Breach, breaches, move_breaches
from companion.gardlings.state_file import load_state, parse_state
from companion.report import Report
from companion.storage import read_data_file

SAMPLE_NOTE = ("NOTE: this uses the SAMPLE tile catalogue (invented tiles, not the printed "
               "ones); transcribe your own copy for real rulings (docs/gardlings.md).")


# --- score ---------------------------------------------------------------------------------

def hirings(state: State) -> list[Hiring]:
    return [state.hiring(i) for i in range(len(state.seats))]


def score_text(found: list[Hiring], win: str | None) -> str:
    lines = []
    for h in found:
        g = h.gems
        parts = [f"{g.plain} gems"]
        if g.triple:
            parts.append(f"{g.triple} from triple gems")
        if g.bonus:
            parts.append(f"{g.bonus} bonus")
        if g.mission:
            parts.append(f"{g.mission} mission")
        alarm = f", gnome alarm: -{h.stolen}" if h.alarm else ""
        lines.append(f"{h.name}: {' + '.join(parts)}{alarm} = {h.total}; coins {h.coins}; "
                     f"money {h.money}")
        if h.buy:
            lines.append("  can buy: " + ", ".join(
                f"{b.stack} ({b.cost}" + (f", {b.coins_spent} coins" if b.coins_spent else "")
                + (", + reward coin" if b.reward else "") + ")" for b in h.buy))
        if h.piglet:
            lines.append("  or take a lucky piglet and a coin")
        if h.mutate:
            lines.append("  a lucky piglet mutates: " + ", ".join(
                f"{a} -> {b}" for a, b in h.mutate))
        if h.victory:
            lines.append("  can buy the victory tile")
    if win:
        lines.append(f"Winner: {win} buys the victory tile.")
    elif any(h.victory for h in found):
        lines.append("Tied for the victory tile on gems and coins: nobody buys it, a new "
                     "round begins.")
    return "\n".join(lines)


def score(path: Path) -> Report:
    """Each player's hiring this round and the winner (spec: ``companion score``)."""
    state = load_state(Path(path))
    found = hirings(state)
    win = winner(found)
    data: dict[str, Any] = {"players": [h.to_dict() for h in found], "winner": win}
    text = score_text(found, win)
    if state.catalogue.sample:
        data["sample_catalogue"] = True
        text += "\n" + SAMPLE_NOTE
    return Report(data, text)


# --- check ---------------------------------------------------------------------------------

def _read(path: Path, label: str, strict: bool = True) -> State:
    data = read_data_file(path)
    try:
        return parse_state(data, path.parent, strict=strict)
    except StateError as exc:
        raise StateError(f"{label} ({path.name}): {exc}") from None


def _action(before: Garden, after: Garden) -> tuple[str, Placement]:
    """What AFTER does to BEFORE's garden: lays one tile, or moves one; else refused."""
    old = {p.tile: p for p in before}
    new = {p.tile: p for p in after}
    added = [t for t in new if t not in old]
    gone = [t for t in old if t not in new]
    changed = [t for t in new if t in old and new[t] != old[t]]
    if len(added) == 1 and not gone and not changed:
        return "place", new[added[0]]
    if len(changed) == 1 and not added and not gone:
        return "move", new[changed[0]]
    raise StateError(
        f"AFTER must add one tile to the first player's garden or move one (it adds "
        f"{len(added)}, removes {len(gone)} and moves {len(changed)})")


def rule_action(seat: Seat, kind: str, placement: Placement) -> tuple[list[Breach], bool]:
    """The breaches of laying or moving ``placement`` in the seat's garden, and whether the
    tile sets off the alarm."""
    garden = seat.garden
    tile = garden.tile(placement.tile)
    if kind == "move":
        return move_breaches(garden, placement), False
    if seat.alarm is not None or seat.aside is not None:
        what = "a gnome alarm" if seat.alarm else "a tile that fits nowhere"
        return [Breach("stopped", (), (), f"{what} ended {seat.name}'s garden building")], False
    if sets_off(garden, tile):
        return [Breach("alarm", (), (), f"{placement.tile} sets off the gnome alarm: it is "
                       "laid face down, not placed")], True
    return breaches(garden, placement), False


def check(before_path: Path, after_path: Path) -> Report:
    """Rule on the first player's action between BEFORE and AFTER (spec: ``companion
    check``)."""
    before = _read(Path(before_path), "BEFORE")
    after = _read(Path(after_path), "AFTER", strict=False)
    seat, seat_after = before.seats[0], after.seats[0]
    if seat.name != seat_after.name:
        raise StateError(f"BEFORE's first player is {seat.name} but AFTER's is "
                         f"{seat_after.name}: both must list the player first")
    kind, placement = _action(seat.garden, seat_after.garden)
    found, alarm = rule_action(seat, kind, placement)
    legal = not found
    garden_after = (seat.garden.with_tile(placement) if kind == "place"
                    else seat.garden.moved(placement))
    gems = 0
    completed: list[dict[str, Any]] = []
    if legal:
        gems = (count_all(garden_after, seat.mission).total -
                count_all(seat.garden, seat.mission).total)
        had = {frozenset(g.cells) for g in complete_gems(seat.garden)}
        completed = [g.to_dict() for g in complete_gems(garden_after)
                     if frozenset(g.cells) not in had]
    redraw = alarm and not seat.second_draw_used and has_second_draw(seat.garden,
                                                                      seat.mission)
    data: dict[str, Any] = {
        "legal": legal, "action": kind, "tile": placement.tile,
        "cells": [list(c) for c in garden_after.cells_of(placement)],
        "alarm": alarm, "redraw": redraw, "gems": gems, "completed": completed,
        "violations": [b.to_dict() for b in found]}
    verb = "laying" if kind == "place" else "moving"
    where = f"{placement.tile} at {list(placement.cell)} turned {placement.rotation}"
    if legal:
        text = f"Legal: {verb} {where}; gems {gems:+d}"
        if completed:
            text += f" ({len(completed)} gem(s) completed)"
    else:
        text = "\n".join([f"Illegal: {verb} {where}:", *(f"  - {b.rule}: {b.message}"
                                                         for b in found)])
        if redraw:
            text += "\n  (the unused second-draw mission may draw another tile instead)"
    return Report(data, text)


# --- hint ----------------------------------------------------------------------------------

def hint(path: Path, *, player: str, tile: str, limit: int | None = None) -> Report:
    """Every legal placement of the drawn ``tile`` for ``player``, most gems first (spec:
    ``companion hint``)."""
    state = load_state(Path(path))
    names = [s.name for s in state.seats]
    if player not in names:
        raise StateError(f"--player: no player called {player!r} in the state file "
                         f"(players: {', '.join(names)})")
    seat = state.seats[names.index(player)]
    if tile not in state.catalogue:
        raise StateError(f"--tile: unknown tile {tile!r} (not in the catalogue)")
    if state.catalogue[tile].is_mission or state.catalogue[tile].back == "victory":
        raise StateError(f"--tile: {tile} is never drawn from a bag")
    for s in state.seats:
        if tile in s.garden.index or tile in (s.alarm, s.aside):
            raise StateError(f"--tile: {tile} already lies in {s.name}'s garden")
    alarm = sets_off(seat.garden, state.catalogue[tile])
    stopped = seat.alarm is not None or seat.aside is not None
    options = [] if alarm or stopped else ranked_placements(seat.garden, tile, seat.mission)
    redraw = alarm and not stopped and not seat.second_draw_used and \
        has_second_draw(seat.garden, seat.mission)
    shown = options if limit is None else options[:limit]
    data: dict[str, Any] = {"player": player, "tile": tile, "alarm": alarm, "redraw": redraw,
                            "count": len(options), "placements": [o.to_dict() for o in shown]}
    if stopped:
        data["stopped"] = True
    if stopped:
        text = f"{player} has stopped building (an alarm or a tile that fit nowhere)."
    elif alarm:
        text = f"{tile} sets off {player}'s gnome alarm: it is laid face down, not placed."
        if redraw:
            text += " The unused second-draw mission may draw another tile instead."
    elif not options:
        text = f"{tile} fits nowhere in {player}'s garden: building stops."
    else:
        text = "\n".join([f"{player}: {len(options)} legal placement(s) of {tile}" +
                          (f", best {len(shown)} shown" if len(shown) < len(options) else "")]
                         + [f"  {o.gems:+d}  cell {list(o.placement.cell)} turned "
                            f"{o.placement.rotation}" for o in shown])
    return Report(data, text)


__all__ = ["check", "hint", "hirings", "rule_action", "score"]
