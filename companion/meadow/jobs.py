"""Meadow's jobs for the command line and the service: ``score``, ``check`` and ``hint``.

Each reads a state file (bounded reader), refuses unusable input with a one-line
:class:`~companion.errors.CompanionError`, and returns a :class:`~companion.report.Report`
whose ``data`` is exactly the spec's JSON and whose ``text`` says the same for people.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.meadow.game import State
from companion.meadow.meadow import PlayerArea, visible
from companion.meadow.requirements import Place, fewest_discards, legal_places, rule_play
from companion.meadow.scoring import score_areas
from companion.meadow.state_file import load_state
from companion.report import Report

SAMPLE_NOTE = ("NOTE: this uses the SAMPLE catalogue (invented cards); transcribe your own "
               "box's cards for real rulings (docs/meadow.md).")


def _note(state: State) -> list[str]:
    return [SAMPLE_NOTE] if state.cat.sample else []


def score(path: Path) -> Report:
    """Every played card's points, covered or not, plus bonus tokens; winner and tie-break."""
    state = load_state(path)
    data = score_areas(state.players, state.cat)
    lines = _note(state)
    for p in data["players"]:
        b = p["breakdown"]
        lines.append(f"{p['name']}: {p['total']} points (meadow {b['meadow']}, surroundings "
                     f"{b['surroundings']}, bonus {b['bonus']}; {p['discoveries']} "
                     f"discover{'y' if p['discoveries'] == 1 else 'ies'})")
    if data["winner"]:
        lines.append(f"Winner: {data['winner']}")
    else:
        lines.append(f"Shared victory: {', '.join(data['winners'])}")
    return Report(data, "\n".join(lines))


def _area(state: State, name: str) -> PlayerArea:
    for p in state.players:
        if p.name == name:
            return p
    raise StateError(f"--player: no player {name!r} in the state file (players: "
                     f"{', '.join(p.name for p in state.players)})")


def places_json(places: Sequence[tuple[Place, tuple[str, ...]]]) -> list[dict[str, Any]]:
    return [{**p.to_dict(), "covers": list(c)} for p, c in places]


def parse_place(area: PlayerArea, on: str | None, new_ground: str | None) -> Place | None:
    """The place ``--on``/``--new-ground`` names; StateError when there is no such one."""
    if on is not None and new_ground is not None:
        raise StateError("--on and --new-ground name two places; give one")
    if new_ground is not None:
        if new_ground not in ("left", "right"):
            raise StateError(f"--new-ground: {new_ground!r} must be left or right")
        return Place.new_ground(new_ground)
    if on is None:
        return None
    if on.isdigit():
        column = int(on)
        if not 1 <= column <= len(area.meadow):
            raise StateError(f"--on: there is no column {column} (the meadow has "
                             f"{len(area.meadow)})")
        return Place.on_column(column)
    if on not in {land.card for land in area.surroundings}:
        raise StateError(f"--on: {on!r} is neither a column number nor a landscape card in "
                         f"{area.name}'s surroundings")
    return Place.on_landscape(on)


def check(path: Path, *, player: str, card: str, on: str | None = None,
          new_ground: str | None = None, discard: Sequence[str] = ()) -> Report:
    """The ruling on playing ``card`` from ``player``'s hand (spec: ``companion check``)."""
    state = load_state(path)
    area = _area(state, player)
    if card not in area.hand:
        raise StateError(f"--play: {card} is not in {player}'s hand")
    if card in discard:
        raise StateError(f"--discard: names {card}, the card being played")
    if len(set(discard)) != len(discard):
        raise StateError("--discard: names a card twice")
    for d in discard:
        if d not in area.hand:
            raise StateError(f"--discard: {d} is not in {player}'s hand")
    if len(discard) % 2:
        raise StateError(f"--discard: {len(discard)} cards; discards go in twos (2 ignore 1 "
                         "requirement)")
    place = parse_place(area, on, new_ground)
    ruling = rule_play(area, state.cat, card, place, discard)
    data = {"player": player, "card": card, "type": ruling.type, "legal": ruling.legal,
            "place": place.to_dict() if place else None,
            "covers": list(ruling.covers) if ruling.covers is not None else None,
            "violations": [{"rule": c, "message": m} for c, m in ruling.violations],
            "visible": dict(sorted(visible(area, state.cat).items())),
            "places": places_json(ruling.places),
            "fewest_discards": ruling.fewest_discards}
    lines = _note(state)
    where = place.words() if place else "anywhere"
    verdict = "legal" if ruling.legal else "not legal"
    lines.append(f"{player} playing {card} ({state.cat.cards[card].name}) {where}: {verdict}")
    if ruling.legal and place and ruling.covers:
        lines.append(f"  covers {', '.join(ruling.covers)} (lost for good)")
    lines += [f"  [{c}] {m}" for c, m in ruling.violations]
    if ruling.places:
        lines.append("  legal places: " + "; ".join(
            f"{p.words()}" + (f" (covers {', '.join(c)})" if c else "")
            for p, c in ruling.places))
    fewest = ruling.fewest_discards
    lines.append("  fewest discards: " + ("no number of discards makes it legal"
                                          if fewest is None else str(fewest)))
    return Report(data, "\n".join(lines))


def hint(path: Path, *, player: str) -> Report:
    """Every playable card in ``player``'s hand, its fewest discards and its places."""
    state = load_state(path)
    area = _area(state, player)
    seen = visible(area, state.cat)
    plays = []
    for card in area.hand:
        c = state.cat.cards[card]
        k2 = fewest_discards(area, state.cat, c, len(area.hand) - 1, seen)
        if k2 is None:
            continue
        places = legal_places(area, state.cat, c, k2 // 2, seen)
        plays.append({"card": card, "discards": k2, "places": places_json(places)})
    data = {"player": player, "count": len(plays), "plays": plays}
    lines = _note(state)
    lines.append(f"{player} can play {len(plays)} card{'s' if len(plays) != 1 else ''}:")
    for p in plays:
        where = "; ".join(Place(**_place_args(x)).words() + (
            f" (covers {', '.join(x['covers'])})" if x["covers"] else "") for x in p["places"])
        cost = f", discarding {p['discards']}" if p["discards"] else ""
        lines.append(f"  {p['card']} ({state.cat.cards[p['card']].name}){cost}: {where}")
    return Report(data, "\n".join(lines))


def _place_args(entry: dict[str, Any]) -> dict[str, Any]:
    if "column" in entry:
        return {"kind": "column", "column": entry["column"]}
    if "new_ground" in entry:
        return {"kind": "new-ground", "side": entry["new_ground"]}
    if "surroundings" in entry:
        return {"kind": "surroundings"}
    return {"kind": "landscape", "landscape": entry["landscape"]}


__all__ = ["SAMPLE_NOTE", "check", "hint", "parse_place", "places_json", "score"]
