"""A finished game put together from photos: the glade board's reading and each forest's.

``companion score the-glade --photos`` scores a game nobody typed in: the glade board's scan
gives the glade and each seat's supply, each forest's scan gives that player's board and
store. This module joins those readings into the spec's state file and says what stops it
from being scored. It scores only what it is sure of: any doubt (a space or square the
recogniser left uncertain, a store thing it could not name, a store out of the photo, a
reading missing, a built state the rules refuse) is named with its photo, and nothing is
scored. The state it built is kept either way, with the doubts under ``uncertain``, so a person
can correct it and score it with ``score the-glade``.

The readings are the spec's scan answers (``scan the-glade PHOTO --glade`` and the forest
scan with its ``store`` fields); how a photo became a reading is the recogniser's business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, StateError
from companion.storage import read_data_file
from companion.the_glade.deduction import Settled, settle
from companion.the_glade.names import supply_space

VARIANTS = ("basic", "matching")

#: Where a doubt is (``Doubt.part``): a square of a forest board (its scan, issue #20), the
#: store beside a board, the glade board (a centre space or a seat's supply), the boards of
#: the photos not of one size, a colour's 12 counters not all found, a check of the state
#: built from the readings (two copies of a tile, a row of a forest, ...), or a photo that
#: could not be read at all.
PARTS = ("forest-square", "store", "glade-board", "board-size", "counters-missing",
         "state-check", "photo")


@dataclass(frozen=True)
class Doubt:
    """One thing that stops the score: which photo, and what is in doubt there. ``part``
    says which part of the game it is in (one of PARTS: a program sorts doubts by it, never
    by the sentence), ``place`` the square, space or supply space when it is one."""

    photo: str
    what: str
    part: str = ""
    place: str = ""

    def __str__(self) -> str:
        return f"{self.photo}: {self.what}"


@dataclass(frozen=True)
class Seat:
    """A player at the glade board: seat ``n`` (1-4) is the n-th player listed."""

    name: str
    colour: str
    forest_photo: str


@dataclass(frozen=True)
class PhotoList:
    """What ``--photos`` names: the glade board's photo and each player's forest photo."""

    glade_photo: str
    seats: tuple[Seat, ...]
    variant: str = "basic"


def _seat_name(label: str) -> str:
    """``seat-3:1`` as players say it."""
    number, space = supply_space(label) or ("", "")
    return f"supply space {space} of seat {number}" if space else f"seat {number}"


def at_a_seat(label: str, seats: int) -> bool:
    """Whether supply space ``seat-N:K`` is at a seat one of ``seats`` players sits at."""
    number = (supply_space(label) or ("", ""))[0]
    return not number.isdigit() or 1 <= int(number) <= seats


def glade_doubts(reading: Mapping[str, Any], photo: str, seats: int) -> list[Doubt]:
    """What the glade board's reading leaves in doubt for a game of ``seats`` players. A
    supply space of a seat nobody sits at (seat 4 in a game of 3) is no doubt: players sit at
    seats 1, 2, ... and nothing on another seat's spaces enters the state (a counter of the
    game lying there would be missed, which the count of each colour's 12 says)."""
    out = []
    for label in reading.get("uncertain") or ():
        label = str(label)
        if label.startswith("seat-") and not at_a_seat(label, seats):
            continue
        what = (f"{_seat_name(label)} is uncertain" if label.startswith("seat-")
                else f"glade space {label} is uncertain")
        out.append(Doubt(photo, what, "glade-board", label))
    supply = reading.get("supply") or {}
    for n in range(1, seats + 1):
        if str(n) not in supply:
            out.append(Doubt(photo, f"seat {n}'s supply was not read (is that edge of the "
                                    "glade board in the photo?)", "glade-board", f"seat-{n}"))
    return out


def forest_doubts(reading: Mapping[str, Any], photo: str, variant: str) -> list[Doubt]:
    """What a forest's reading leaves in doubt: squares, and the store beside the board."""
    out = [Doubt(photo, f"square {sq} is uncertain", "forest-square", str(sq))
           for sq in reading.get("uncertain") or ()]
    if variant != "matching":  # a match counter read in an enclosure: none in this game
        out += [Doubt(photo, f"square {sq} looks like a match counter, which the {variant} "
                             "game has none of", "forest-square", str(sq))
                for sq in sorted((reading.get("forest") or {}).get("match_counters") or {})]
    if "store" not in reading:
        out.append(Doubt(photo, "the store (left of the board, as its owner sees it) is not "
                                "in the photo", "store"))
    unnamed = reading.get("store_uncertain") or 0
    if unnamed:
        looks = [" or ".join(_thing_name(c) for c in d["candidates"])
                 for d in reading.get("store_doubts") or ()
                 if isinstance(d, dict) and isinstance(d.get("candidates"), list)
                 and d["candidates"]]
        out.append(Doubt(photo, f"{unnamed} thing{'s' if unnamed > 1 else ''} in the store "
                                "could not be named"
                                + (f" ({'; '.join(looks)}?)" if looks else ""), "store"))
    if variant == "matching" and "store" in reading and "store_match_counters" not in reading:
        out.append(Doubt(photo, "the model knows no match counters, so the store's match "
                                "counters were not read (enrol them: match_counters)", "store"))
    return out


def _thing_name(thing: Any) -> str:
    """A store thing as the state file names it: a counter, or a match counter
    ("match counter mouse/beech 1")."""
    if isinstance(thing, dict):
        return f"match counter {thing.get('icon')} {thing.get('value')}"
    return str(thing)


@dataclass(frozen=True)
class Built:
    """A game put together from photos: the state the readings describe, every doubt that
    stops its score, the doubts the game's own rules settled (:mod:`deduction`), and the
    readings the state was built from (those given, with what was settled put in)."""

    state: dict[str, Any]
    doubts: list[Doubt]
    settled: list[Settled]
    glade: Mapping[str, Any]
    forests: Sequence[Mapping[str, Any]]


def build_state(plan: PhotoList, glade: Mapping[str, Any],
                forests: Sequence[Mapping[str, Any]], extra: Sequence[Doubt] = ()
                ) -> tuple[dict[str, Any], list[Doubt]]:
    """The state file the readings describe, and every doubt that stops it being scored
    (:func:`assemble`'s, the doubts the rules settle put in)."""
    built = assemble(plan, glade, forests, extra)
    return built.state, built.doubts


def assemble(plan: PhotoList, glade: Mapping[str, Any], forests: Sequence[Mapping[str, Any]],
             extra: Sequence[Doubt] = (), deduce: bool = True) -> Built:
    """The state file the readings describe, every doubt that stops it being scored, and the
    doubts settled by the game's rules (``deduce``; :func:`deduction.settle`).

    ``forests`` are the forest readings in seat order; ``extra`` are doubts found before
    (a photo that could not be read at all), named first. The state holds what was read; a
    doubt leaves its space out (the scan already did), so the state is what a person
    corrects. The settled readings are taken only when they add no doubt of their own (a
    check of the state built failing with them): else the doubts stand as read."""
    if len(forests) != len(plan.seats):
        raise StateError(f"{len(plan.seats)} players but {len(forests)} forest photos: give "
                         "one forest photo per player, in seat order")
    state, doubts = _build(plan, glade, forests, extra)
    as_read = Built(state, doubts, [], glade, forests)
    if not doubts or not deduce:
        return as_read
    unread = {d.photo for d in extra}
    seats = [(s.forest_photo, s.colour) for s in plan.seats]
    new_glade, new_forests, settled = settle(
        seats, plan.glade_photo, {} if plan.glade_photo in unread else glade,
        [None if s.forest_photo in unread else f for s, f in zip(plan.seats, forests,
                                                                 strict=True)])
    if not settled:
        return as_read
    if plan.glade_photo not in unread:
        glade = new_glade
    forests = [f if s.forest_photo in unread or new is None else new
               for s, f, new in zip(plan.seats, forests, new_forests, strict=True)]
    state2, doubts2 = _build(plan, glade, forests, extra)
    if not {_same(d) for d in doubts2} <= {_same(d) for d in doubts}:
        return as_read  # the names settled break a check: the doubts stand as read
    return Built(state2, doubts2, settled, glade, forests)


def _same(d: Doubt) -> object:
    """What a doubt is, to tell one the settled names added from those read: its words, or
    for a store's its photo alone (its words count the store's things in doubt, fewer once
    some are settled)."""
    return (d.photo, d.part) if d.part == "store" else str(d)


def _build(plan: PhotoList, glade: Mapping[str, Any], forests: Sequence[Mapping[str, Any]],
           extra: Sequence[Doubt]) -> tuple[dict[str, Any], list[Doubt]]:
    """The state the readings describe and every doubt, as read (nothing deduced)."""
    unread = {d.photo for d in extra}
    doubts = list(extra)
    if plan.glade_photo not in unread:
        doubts += glade_doubts(glade, plan.glade_photo, len(plan.seats))
    boards = {repr(sorted((f.get("board") or {}).items())) for f, seat in
              zip(forests, plan.seats, strict=True) if seat.forest_photo not in unread}
    if len(boards) > 1:
        doubts.append(Doubt(plan.seats[1].forest_photo, "its board is not the size of "
                                                        f"{plan.seats[0].forest_photo}'s",
                            "board-size"))
    supply = glade.get("supply") or {}
    players = []
    for i, (seat, reading) in enumerate(zip(plan.seats, forests, strict=True)):
        if seat.forest_photo not in unread:
            doubts += forest_doubts(reading, seat.forest_photo, plan.variant)
        forest = reading.get("forest") or {}
        player: dict[str, Any] = {
            "name": seat.name, "colour": seat.colour,
            "supply": supply.get(str(i + 1), 0),
            "forest": {"tiles": dict(forest.get("tiles") or {}),
                       "counters": dict(forest.get("counters") or {})},
            "store": list(reading.get("store") or []),
        }
        if plan.variant == "matching":
            # the store's, then those in enclosures (a square's match counter: as the forest
            # scan read it, recognition/enclosed_matches.py, or as a person put it right)
            player["match_counters"] = [dict(m) for m in reading.get("store_match_counters")
                                        or []]
            player["match_counters"] += [
                {**{k: m[k] for k in ("kind", "icon", "value") if k in m}, "square": str(sq)}
                for sq, m in sorted((forest.get("match_counters") or {}).items())
                if isinstance(m, dict)]
        players.append(player)
    state: dict[str, Any] = {
        "game": "the-glade", "variant": plan.variant,
        "board": dict(forests[0].get("board") or {}) if forests else {},
        "players": players, "glade": dict(glade.get("glade") or {}),
        "finished": True}
    if not doubts:
        doubts += missing_counters(state)
    if not doubts:
        from companion.the_glade.state_file import load_state

        try:
            load_state(state)
        except StateError as exc:
            doubts.append(Doubt("the game built from the photos", str(exc), "state-check"))
    if doubts:
        state["uncertain"] = [str(d) for d in doubts]
    return state, doubts


def found_counters(state: Mapping[str, Any]) -> dict[str, int]:
    """Counters of each colour found anywhere in a built state: supply spaces, glade, stores
    and enclosures (a finished game holds all 12 of each player colour)."""
    found: dict[str, int] = {}
    places = [*(state.get("glade") or {}).values()]
    for p in state["players"]:
        found[p["colour"]] = found.get(p["colour"], 0) + int(p.get("supply", 0))
        places += list(p.get("store", []))
        places += list((p.get("forest") or {}).get("counters", {}).values())
    for counter in places:
        colour = str(counter).rpartition("-")[0]
        found[colour] = found.get(colour, 0) + 1
    return found


def missing_counters(state: Mapping[str, Any]) -> list[Doubt]:
    """Every player colour's 12 counters must be found somewhere in a finished game: on its
    supply spaces, on the glade, in a store or in an enclosure (counters only move between
    these; running out flips them, never removes them). Fewer means a counter the photos did
    not show or a scan missed (one the colour of the table, say), so the score would be
    wrong: it is a doubt."""
    from companion.the_glade.table import COUNTERS_PER_COLOUR

    found = found_counters(state)
    return [Doubt("the photos", f"only {found.get(p['colour'], 0)} of the "
                                f"{COUNTERS_PER_COLOUR} {p['colour']} counters were found (one "
                                "missed in a store, or out of the photos?)",
                   "counters-missing", p["colour"])
            for p in state["players"] if found.get(p["colour"], 0) < COUNTERS_PER_COLOUR]


def read_photo_list(path: Path) -> PhotoList:
    """``--photos LIST``: a YAML or JSON file naming the photos (paths relative to it)."""
    data = read_data_file(path, "photo list")
    where = f"photo list {path}"
    if not isinstance(data, dict):
        raise StateError(f"{where} must hold glade:, players: and optionally variant:")
    unknown = sorted(set(data) - {"glade", "players", "variant"})
    if unknown:
        raise StateError(f"{where}: unknown field {unknown[0]!r} (known: glade, players, "
                         "variant)")
    variant = data.get("variant", "basic")
    if variant not in VARIANTS:
        raise StateError(f"{where}: variant must be basic or matching, not {variant!r}")
    glade = data.get("glade")
    if not isinstance(glade, str) or not glade:
        raise StateError(f"{where}: glade must name the glade board's photo")
    raw = data.get("players")
    if not isinstance(raw, list) or not 2 <= len(raw) <= 4:
        raise StateError(f"{where}: players must list 2-4 players, each {{name, colour, "
                         "forest}")
    seats = []
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or set(p) != {"name", "colour", "forest"} or \
                not all(isinstance(v, str) and v for v in p.values()):
            raise StateError(f"{where}: players[{i}] must be {{name: NAME, colour: COLOUR, "
                             "forest: PHOTO}")
        seats.append(Seat(p["name"], p["colour"], str(path.parent / p["forest"])))
    return PhotoList(str(path.parent / glade), tuple(seats), variant)


def photo_list_of(glade: str, forests: Sequence[str], players: str,
                  variant: str = "basic") -> PhotoList:
    """``--photos GLADE FOREST... --players NAME:COLOUR,...`` as a :class:`PhotoList`."""
    seats = []
    for i, item in enumerate(p for p in players.split(",") if p.strip()):
        name, sep, colour = item.partition(":")
        if not sep or not name.strip() or not colour.strip():
            raise StateError(f"--players: {item!r} must be NAME:COLOUR (e.g. Toni:yellow)")
        if i >= len(forests):
            raise StateError(f"--players names {len(players.split(','))} players but "
                             f"--photos gives {len(forests)} forest photos")
        seats.append(Seat(name.strip(), colour.strip(), forests[i]))
    if len(seats) != len(forests):
        raise StateError(f"--photos gives {len(forests)} forest photos but --players names "
                         f"{len(seats)} players: one forest photo per player, in seat order")
    if variant not in VARIANTS:
        raise StateError(f"--variant must be basic or matching, not {variant!r}")
    return PhotoList(glade, tuple(seats), variant)


class CannotScore(CompanionError):
    """A doubt stops the score from photos (the first one is named); ``settled``: the doubts
    the game's rules settled all the same."""

    def __init__(self, doubts: Sequence[Doubt], settled: Sequence[Settled] = ()) -> None:
        more = f" (and {len(doubts) - 1} more)" if len(doubts) > 1 else ""
        super().__init__(f"cannot score: {doubts[0]}{more}")
        self.doubts = tuple(doubts)
        self.settled = tuple(settled)


def score_readings(plan: PhotoList, glade: Mapping[str, Any],
                   forests: Sequence[Mapping[str, Any]],
                   write_state: Path | None = None, extra: Sequence[Doubt] = ()) -> Any:
    """Score the game the readings describe (exactly what ``score the-glade`` prints for its
    state file), or raise :class:`CannotScore` naming the first doubt (``extra``: photos
    that could not be read, named first). ``write_state`` keeps the built state (with its
    doubts) in either case. Doubts the game's rules settled are named in the report: its
    ``settled`` field (:meth:`Settled.to_dict`) and a line each after the score, given only
    when there are any."""
    from companion.the_glade.jobs import score_state
    from companion.the_glade.state_file import load_state

    built = assemble(plan, glade, forests, extra)
    state, doubts = built.state, built.doubts
    if write_state is not None:
        from companion.storage import atomic_write_json

        try:
            atomic_write_json(write_state, state)
        except OSError as exc:
            raise StateError(f"cannot write --write-state {write_state} "
                             f"({exc.strerror or exc}); choose another path") from None
    if doubts:
        raise CannotScore(doubts, built.settled)
    report = score_state(load_state(state))
    if not built.settled:
        return report
    from dataclasses import replace

    return replace(report, data={**report.data,
                                 "settled": [s.to_dict() for s in built.settled]},
                   text=report.text + "\n" + "\n".join(f"Settled by the rules: {s}"
                                                        for s in built.settled))
