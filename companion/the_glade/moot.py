"""Moot doubts: forest squares left in doubt that cannot change the score of a finished game.

The score pad ("Game End and Scoring" in the rulebook) reads a forest board only through
which squares hold a tile: "-1 point for each group of 1 or more tiles that does not connect
back to the centre square", and the counters in enclosures ("a square ... surrounded by a
forest tile on each of the 4 orthogonally adjacent squares"; a counter lies only in one).
No line reads which tile lies where. So a square in doubt ("looks like A or B", "tile or
empty?", glare) can change the score only by holding a tile or not, or a counter; and when
every player colour's 12 counters are all found elsewhere, it holds no counter (the colours
not in play never are; in the matching game a match counter may lie in an enclosure, and
nothing counts those, so only the basic game's doubts are moot). Each such square is then a
tile or bare: when every way of the
doubted squares the rules allow (a counter lies in an enclosure; the centre square is
covered) gives every player the same score pad and the same winner, the doubts are moot.

In the matching game, a thing in a store the scan hesitated on between two creature or fruit
match counters (its ``store_doubts`` entry's two ``candidates``) is moot in the same way:
"each match counter is worth 1 point except for the leaf match counters, which are worth the
points printed on them", so any creature or fruit counter scores alike; when every way of the
store things so doubted (each one of its two, the state file's checks passed) scores alike,
they are moot, and the state scored is the first of those ways (its score is every way's). It
takes the thing to be a creature or fruit counter, as its two best faces are (on tuning store
photos, families 41-90, each of the 7 such doubts on match counters was one of its two); a
doubt with a leaf counter among its two, or beside any other doubt, is not moot.

This is for the table (:mod:`photo_flow`), where players would rather not put right a doubt
that changes nothing; ``score the-glade --photos`` still refuses any doubt, as the spec says.

Soundness: only the game's sure readings are evidence; every way the doubted squares may be
(2 to the number of squares, at most MAX_SQUARES of them, each tile named so that no tile
has more than its 2 copies) is scored; a way is ruled out only by a rule that needs no tile's
name (a counter outside an enclosure, the bare centre); and the state scored must pass every
check the state file gets, the lines of tiles being sets included, with the doubted squares
one allowed way (bare, unless the rules need a tile there: then none of the ways is checked
this far, and nothing is moot).
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter as Tally
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import StateError
from companion.the_glade.names import ALL_TILES

if TYPE_CHECKING:
    from companion.the_glade.photo_game import Built, Doubt

#: The most doubted squares looked through (2 ** MAX_SQUARES ways, each a state built and
#: scored: a few milliseconds each here).
MAX_SQUARES = 6


@dataclass(frozen=True)
class Moot:
    """Doubts that change no score: ``state`` is the game with the doubted squares bare (a
    state every check passes; for store things, the first allowed way of them), scored as
    every allowed way scores; ``ways``: how many ways
    of the doubted squares the rules allow."""

    state: dict[str, Any]
    doubts: tuple[Doubt, ...]
    ways: int


def moot(built: Built, photos: Sequence[str]) -> Moot | None:
    """The game's doubts when all are moot (see the module's text), else None. ``photos``:
    each player's forest photo, in seat order (a doubt names its photo)."""
    from companion.the_glade.photo_game import found_counters
    from companion.the_glade.scoring import score_game
    from companion.the_glade.state_file import load_state
    from companion.the_glade.table import COUNTERS_PER_COLOUR

    doubts = tuple(built.doubts)
    if not doubts or len(doubts) > MAX_SQUARES:
        return None
    if built.state.get("variant") == "matching" and all(d.part == "store" for d in doubts):
        return _store_moot(built, photos, doubts)
    if any(d.part != "forest-square" or d.photo not in photos or not d.place for d in doubts):
        return None
    state = copy.deepcopy(built.state)
    state.pop("uncertain", None)
    if state.get("variant", "basic") != "basic":
        return None  # a match counter may lie in an enclosure, and no count says it is not
    found = found_counters(state)
    if any(found.get(p["colour"], 0) != COUNTERS_PER_COLOUR for p in state["players"]):
        return None  # a doubted square may hold a counter (or the count is wrong anyway)
    centre = str((state.get("board") or {}).get("centre", ""))
    places = [(photos.index(d.photo), d.place) for d in doubts]
    if any(place == centre for _, place in places):
        return None  # the centre holds a tile: which way is then checked only by its name
    try:
        load_state(state)  # the doubted squares bare: every check, lines of tiles included
    except StateError:
        return None
    scores = set()
    ways = 0
    for tiled in itertools.product((False, True), repeat=len(places)):
        way = _way(state, places, tiled)
        try:
            game = load_state(way, strict=False)
        except StateError:
            continue  # a counter outside an enclosure, say: not a way the game can be
        ways += 1
        scores.add(repr(score_game(game).to_dict()))
        if len(scores) > 1:
            return None
    if ways == 0:
        return None
    return Moot(state, doubts, ways)


def _store_moot(built: Built, photos: Sequence[str], doubts: tuple[Doubt, ...]
                ) -> Moot | None:
    """The matching game's store doubts when each is between two match counters and every
    way of them scores alike (see the module's text), else None."""
    from companion.the_glade.photo_game import missing_counters
    from companion.the_glade.scoring import score_game
    from companion.the_glade.state_file import load_state

    things: list[tuple[int, list[dict[str, Any]]]] = []  # (player, its two candidates)
    for d in doubts:
        if d.photo not in photos:
            return None
        player = photos.index(d.photo)
        reading = built.forests[player]
        entries = reading.get("store_doubts")
        if (not isinstance(entries, list)
                or len(entries) != int(reading.get("store_uncertain") or 0)):
            return None  # a store thing without its candidates, or the store unseen
        for e in entries:
            two = e.get("candidates") if isinstance(e, dict) else None
            if not (isinstance(two, list) and len(two) == 2 and all(
                    isinstance(c, dict) and {"kind", "icon", "value"} <= set(c)
                    and c["kind"] in ("creature", "fruit") for c in two)):
                return None  # a leaf counter's value, a counter's colour and side: they score
            things.append((player, [dict(c) for c in two]))
    if not things or len(things) > MAX_SQUARES:
        return None
    state = copy.deepcopy(built.state)
    state.pop("uncertain", None)
    if missing_counters(state):
        return None  # a counter the photos missed: a doubt of its own once these are put right
    scores, first, ways = set(), None, 0
    for pick in itertools.product((0, 1), repeat=len(things)):
        way = copy.deepcopy(state)
        for (player, two), k in zip(things, pick, strict=True):
            way["players"][player].setdefault("match_counters", []).append(two[k])
        try:
            game = load_state(way)
        except StateError:
            continue  # a leaf counter held twice, say: not a way the game can be
        ways += 1
        first = way if first is None else first
        scores.add(repr(score_game(game).to_dict()))
        if len(scores) > 1:
            return None
    if first is None:
        return None
    return Moot(first, doubts, ways)


def _way(state: dict[str, Any], places: list[tuple[int, str]], tiled: tuple[bool, ...]
         ) -> dict[str, Any]:
    """``state`` with a tile on each place ``tiled`` says, named so that no tile has more
    than its 2 copies (the name changes no score)."""
    way = copy.deepcopy(state)
    copies = Tally(t for p in way["players"] for t in (p.get("forest") or {})
                   .get("tiles", {}).values())
    for (player, square), tile in zip(places, tiled, strict=True):
        if not tile:
            continue
        name = min((str(t) for t in ALL_TILES), key=lambda n: (copies[n], n))
        copies[name] += 1
        way["players"][player]["forest"]["tiles"][square] = name
    return way
