"""Doubts the game's own rules settle, when a finished game is put together from photos.

A square or glade space the recogniser hesitated on between two names (its ``candidates``:
two look-alike tiles, or two counters) is settled when the rest of the game, as the photos
show it *surely*, leaves only one of the two possible. The rules used are the rulebook's
(``../shared/rulebooks/the-glade.txt``) and the state file's checks
(:func:`companion.the_glade.state_file.validate`), each under its code:

- ``tile-copies``: "The game includes 2 sets of 64 forest tiles" (2 of each tile, the
  seasons aside): a square cannot show a tile both of whose copies lie surely on the forest
  boards (any player's, the doubted forest's other squares included).
- ``not-a-set``: "The tiles placed must form a set with themselves and any other tiles they
  are orthogonally adjacent to": on a finished forest every row or column line of 2 or more
  tiles is a set. A name that would make the line through the square no set is ruled out,
  but only when every other square of that line, and the square just past each of its ends,
  is surely read (a line with a doubt in it, or at its end, says nothing).
- ``colour-count``: "48 Toadstool counters, 12 in each of the 4 player colours": a counter
  cannot be of a colour whose 12 counters are all surely found elsewhere (supply spaces,
  glade, stores, enclosures).
- ``colour-not-in-play``: each player plays one colour's 12 counters; no other colour is in
  a game of 2-4 players (the state check refuses it).
- ``colour-count`` for a seat's supply space in doubt (its counter, or bare): "12 toadstool
  counters in their chosen player colour. Place these on the 12 toadstool spaces at your
  edge of the glade board", and counters only ever leave those spaces ("Remove the leftmost
  toadstool counter from your side"), so a supply space at a player's seat holds that
  player's colour or nothing; when all 12 of that colour are surely found (the seat's
  other supply spaces, glade, stores, enclosures) the space is bare.
- ``supply-order``: counters leave a seat's supply spaces leftmost first ("Remove the
  leftmost toadstool counter from your side", every time one is taken), so the counters left
  lie on its rightmost spaces: a supply space in doubt right of a space read surely holding
  a counter holds one too, and one left of a space read surely bare is bare. It reasons
  from the glade scan's ``supply_spaces`` (the spaces read holding a counter); a seat whose
  sure spaces are out of that order (a bare space right of a held one) settles nothing.

Soundness: only sure readings are evidence; a doubt never settles another (no chains); a
name is settled only when exactly one of the two survives; and when the names settled would
break a rule between them (three copies of a tile, 13 counters of a colour) or the state built
with them fails any check, nothing is settled and the doubts stand as read. The settled
readings are recorded (``settled`` in each reading changed, and :class:`Settled` for the
report and the table's review), so a person sees what was decided by the rules, and why.

The same counter rules settle a thing in a store the scan hesitated on between two toadstool
counters (its ``store_doubts`` entry's ``candidates``), as they settle a counter on a square.

A square the recogniser knew held a tile but doubted that tile's name (glare or shade on it,
or a poor photo's close call: the scan's ``likeliest`` gives the name it would have read) is
settled under ``only-tile`` when ``tile-copies`` and ``not-a-set`` leave one tile of all 64
possible there and that tile is the recogniser's own name: the rules confirm what the photo
half showed. The rules alone are not enough: a name they leave that the recogniser did not
see is no evidence against a wrong sure reading beside it. (On the finished games of tuning
families 41-60 the rules leave one tile on 37% of the tiled squares.)

Not used: a doubt between a name and "empty" on a square or a centre space, or with no
candidates (glare, a square not in the photo), a store thing that fits no face, and one
between two match counters: each of the 48 is one of a kind, but the truth need not be either
of the two, and of all the counters it may be (any creature of the leaf, say) those read
elsewhere would rarely leave one; the table counts such a doubt moot when every way scores
alike (:mod:`moot`).
"""

from __future__ import annotations

import copy
from collections import Counter as Tally
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import StateError
from companion.the_glade.doubt_entries import no_longer_in_doubt, supply_space_held
from companion.the_glade.forest import Forest
from companion.the_glade.names import ALL_TILES, Counter, Square, Tile, supply_space
from companion.the_glade.table import COUNTERS_PER_COLOUR, TILES_IN_GAME

#: Copies of each tile in the game: 2 sets of 64 (the rulebook's "Forest Tiles").
TILE_COPIES = TILES_IN_GAME // 64

#: What a supply space settled bare holds (``Settled.name``).
EMPTY = "empty"

#: A store thing's label: STORE and its place (1 on) in the reading's ``store_doubts``.
STORE = "store:"

#: The rules' codes (what ``Settled.rule`` holds).
TILE_COPIES_RULE, NOT_A_SET, COLOUR_COUNT, COLOUR_NOT_IN_PLAY, ONLY_TILE, SUPPLY_ORDER = (
    "tile-copies", "not-a-set", "colour-count", "colour-not-in-play", "only-tile",
    "supply-order")


@dataclass(frozen=True)
class Settled:
    """A doubt the rules settled: on ``photo`` at ``label`` (a square, or a glade space by
    its tile), ``name`` stands and ``ruled_out`` cannot be, by ``rule`` (a code above);
    ``why`` says it in words."""

    photo: str
    label: str
    name: str
    ruled_out: str
    rule: str
    why: str

    @property
    def where(self) -> str:
        if self.label.startswith(STORE):
            return f"thing {self.label[len(STORE):]} in doubt in the store"
        if _is_square(self.label):
            return f"square {self.label}"
        if (supply := supply_space(self.label)) is not None:
            seat, space = supply
            return f"supply space {space} of seat {seat}"
        return f"glade space {self.label}"

    def __str__(self) -> str:
        return (f"{self.photo}: {self.where} is {self.name}, not {self.ruled_out} "
                f"({self.why})")

    def to_dict(self) -> dict[str, str]:
        return {"photo": self.photo, "where": self.label, "name": self.name,
                "ruled_out": self.ruled_out, "rule": self.rule, "why": self.why}


@dataclass(frozen=True)
class Doubted:
    """One reading in doubt between two names, or a tile's name alone in doubt (one name,
    the recogniser's likeliest): ``forest`` is the forest's index, or None for the glade
    board."""

    photo: str
    forest: int | None
    label: str
    names: tuple[str, ...]


def _is_square(label: str) -> bool:
    try:
        Square.parse(label)
    except StateError:
        return False
    return True


def _tile(name: str) -> Tile | None:
    try:
        return Tile.parse(name)
    except StateError:
        return None


def _counter(name: str) -> Counter | None:
    try:
        return Counter.parse(name)
    except StateError:
        return None


class Evidence:
    """What the photos show surely: the tiles on every forest (where each lies) and the
    counters of each colour (supply, glade, stores, enclosures)."""

    def __init__(self, seats: Sequence[tuple[str, str]], glade: Mapping[str, Any],
                 forests: Sequence[Mapping[str, Any] | None]) -> None:
        """``seats``: (forest photo, colour) in seat order; ``forests`` the readings in that
        order (None: a photo not read, which shows nothing)."""
        self.colours = [colour for _photo, colour in seats]
        self.tiles: dict[str, list[str]] = {}
        self.counters: Tally[str] = Tally()
        supply = glade.get("supply") or {}
        for n, colour in enumerate(self.colours, start=1):
            self.counters[colour] += int(supply.get(str(n), 0) or 0)
        found = list((glade.get("glade") or {}).values())
        for (photo, _colour), reading in zip(seats, forests, strict=True):
            if reading is None:
                continue
            forest = reading.get("forest") or {}
            for square, name in sorted((forest.get("tiles") or {}).items()):
                self.tiles.setdefault(str(name), []).append(f"{photo} {square}")
            found += list((forest.get("counters") or {}).values())
            found += list(reading.get("store") or ())
        for name in found:
            counter = _counter(str(name))
            if counter is not None:
                self.counters[counter.colour] += 1
        #: each forest as surely read (None: a photo not read)
        self.forests = [SureForest(r) if r is not None else None for r in forests]


def doubted(seats: Sequence[tuple[str, str]], glade_photo: str, glade: Mapping[str, Any],
            forests: Sequence[Mapping[str, Any] | None]) -> list[Doubted]:
    """Every reading in doubt between exactly two different names (its ``candidates``), still
    listed as uncertain: the glade board's centre spaces first, then each forest's squares
    (a reading naming one name twice, which no scan gives, is left a doubt), with the
    squares whose tile's name alone is in doubt (``likeliest``, one name)."""
    out = []
    unsure = {str(u) for u in glade.get("uncertain") or ()}
    for label, names in sorted((glade.get("candidates") or {}).items()):
        if (str(label) in unsure and not str(label).startswith("seat-") and len(names) == 2
                and str(names[0]) != str(names[1])):
            out.append(Doubted(glade_photo, None, str(label), (str(names[0]), str(names[1]))))
    for i, ((photo, _colour), reading) in enumerate(zip(seats, forests, strict=True)):
        if reading is None:
            continue
        unsure = {str(u) for u in reading.get("uncertain") or ()}
        pairs = reading.get("candidates") or {}
        for label, names in sorted(pairs.items()):
            if (str(label) in unsure and len(names) == 2 and str(names[0]) != str(names[1])
                    and _is_square(str(label))):
                out.append(Doubted(photo, i, str(label), (str(names[0]), str(names[1]))))
        likeliest = reading.get("likeliest")
        for label, name in sorted(likeliest.items() if isinstance(likeliest, dict) else ()):
            if (str(label) in unsure and label not in pairs and _is_square(str(label))
                    and _tile(str(name)) is not None):
                out.append(Doubted(photo, i, str(label), (str(name),)))
        out += _store_doubted(photo, i, reading)
    return out


def _store_doubted(photo: str, forest: int, reading: Mapping[str, Any]) -> list[Doubted]:
    """The store things of a forest's reading in doubt between two toadstool counters (its
    ``store_doubts``, as many as ``store_uncertain`` counts)."""
    doubts = reading.get("store_doubts")
    if not isinstance(doubts, list) or len(doubts) > int(reading.get("store_uncertain") or 0):
        return []  # not the scan's own list: nothing to reason from
    out = []
    for k, entry in enumerate(doubts, start=1):
        names = entry.get("candidates") if isinstance(entry, dict) else None
        if (isinstance(names, list) and len(names) == 2
                and all(isinstance(n, str) and _counter(n) for n in names)
                and names[0] != names[1]):
            out.append(Doubted(photo, forest, f"{STORE}{k}", (names[0], names[1])))
    return out


def supply_doubted(seats: Sequence[tuple[str, str]], glade_photo: str,
                   glade: Mapping[str, Any]) -> list[Doubted]:
    """Every supply space in doubt at a seat a player sits at (``seat-N:K``, N within the
    players): it holds that player's counter (single side up, as laid out at the start) or
    nothing."""
    out = []
    for label in glade.get("uncertain") or ():
        seat = (supply_space(str(label)) or ("", ""))[0]
        if seat.isdigit() and 1 <= int(seat) <= len(seats):
            colour = seats[int(seat) - 1][1]
            out.append(Doubted(glade_photo, None, str(label), (f"{colour}-single", EMPTY)))
    return out


def _supply_order(glade: Mapping[str, Any], label: str) -> str | None:
    """What ``supply-order`` says of supply space ``label`` (``seat-N:K``) in doubt: "held"
    (a space left of it read surely holding a counter), "bare" (a space right of it read
    surely bare), or None (neither, the scan's ``supply_spaces`` missing or malformed, or the
    seat's sure spaces out of order)."""
    seat, space = supply_space(label) or ("", "")
    held = (glade.get("supply_spaces") or {}).get(seat)
    if not space.isdigit() or not isinstance(held, list):
        return None
    spaces = range(1, COUNTERS_PER_COLOUR + 1)
    if not all(isinstance(k, int) and k in spaces for k in held):
        return None
    unsure = {int(p[1]) for u in glade.get("uncertain") or ()
              if (p := supply_space(str(u))) is not None and p[0] == seat and p[1].isdigit()}
    full = set(held) - unsure
    bare = set(spaces) - full - unsure
    if full and bare and min(full) < max(bare):
        return None  # a sure reading is wrong somewhere: reason from none of them
    k = int(space)
    if any(f < k for f in full):
        return "held"
    if any(b > k for b in bare):
        return "bare"
    return None


class SureForest:
    """One forest as its photo shows it surely: the tiles read surely (``forest``) and the
    squares whose content is unknown (``unsure``: its doubts, and a tile name that is no
    tile), both within the reading's board."""

    def __init__(self, reading: Mapping[str, Any]) -> None:
        board = reading.get("board") or {}
        rows, cols = int(board.get("rows", 0) or 0), int(board.get("cols", 0) or 0)

        def inside(sq: Square) -> bool:
            return 0 <= sq.row < rows and 0 <= sq.col < cols

        self.unsure = {sq for u in reading.get("uncertain") or () if _is_square(str(u))
                       if inside(sq := Square.parse(str(u)))}
        tiles: dict[Square, Tile] = {}
        for label, name in ((reading.get("forest") or {}).get("tiles") or {}).items():
            square = Square.parse(str(label))
            if not inside(square) or square in self.unsure:
                continue
            tile = _tile(str(name))
            if tile is None:
                self.unsure.add(square)
            else:
                tiles[square] = tile
        self.forest = Forest(tiles=tiles)

    def known(self, run: Sequence[Square], axis: str) -> bool:
        """Whether ``run`` (a line of tiles along ``axis``) is known to end where it does:
        no square just past either end is in doubt."""
        dr, dc = (0, 1) if axis == "row" else (1, 0)
        first, last = run[0], run[-1]
        return (Square(first.row - dr, first.col - dc) not in self.unsure
                and Square(last.row + dr, last.col + dc) not in self.unsure)


def _tile_ruled_out(evidence: Evidence, sure: SureForest, square: str,
                    name: str) -> Iterator[tuple[str, str]]:
    """Why tile ``name`` cannot lie on ``square`` of the forest ``sure``: (rule, words)."""
    from companion.the_glade.sets import is_set, why_not_a_set

    where = evidence.tiles.get(name, [])
    if len(where) >= TILE_COPIES:
        yield TILE_COPIES_RULE, (f"both copies of {name} are read surely elsewhere: "
                                 f"{' and '.join(where[:TILE_COPIES])}")
    tile = _tile(name)
    if tile is None:
        return
    at = Square.parse(square)
    for axis in ("row", "column"):
        run = sure.forest.run(at, axis, {at: tile})  # type: ignore[arg-type]
        if len(run) < 2 or not sure.known(run, axis):
            continue
        tiles = [sure.forest.tiles.get(sq, tile) for sq in run]
        if not is_set(tiles):
            squares = ", ".join(sq.name for sq in run)
            yield NOT_A_SET, (f"with {name} the {axis} {squares} would be no set: "
                              f"{why_not_a_set(tiles)}")


def _counter_ruled_out(evidence: Evidence, name: str) -> Iterator[tuple[str, str]]:
    """Why counter ``name`` cannot be in this game: (rule, words)."""
    counter = _counter(name)
    if counter is None:
        return
    if counter.colour not in evidence.colours:
        yield COLOUR_NOT_IN_PLAY, (f"no player has {counter.colour} counters (players: "
                                   f"{', '.join(evidence.colours)})")
    elif evidence.counters[counter.colour] >= COUNTERS_PER_COLOUR:
        yield COLOUR_COUNT, (f"all {COUNTERS_PER_COLOUR} {counter.colour} counters are read "
                             "surely elsewhere (supply, glade, stores, enclosures)")


#: Which names a doubted square may hold, the rules to rule out all but one of: "all" (any
#: tile for a tile doubt; for a counter doubt, any side where the two differ in side and any
#: players' colour where they differ in colour), "traits" (what the two candidates agree on
#: kept) or "pair" (the two alone). The recogniser's two best names are not always the
#: truth's, nor do they always share the truth's traits: on 32 tuning games (families 1-4,
#: 41-44) 7 of 54 doubts had the truth outside the pair (a mouse/acorn/beech doubted as
#: mouse/blackberry/beech or mouse/mushroom/beech; a mouse/mushroom/horse-chestnut as
#: mouse/blackberry/oak or mouse/mushroom/oak): ruling one of two out must not name the other.
OPEN = "all"


def open_names(a: str, b: str, colours: Sequence[str], mode: str = "") -> list[str] | None:
    """The names a square doubted between ``a`` and ``b`` may hold (:data:`OPEN`). None when
    the two are not both tiles or both counters."""
    from itertools import product

    from companion.the_glade.names import ALL_TILES, CREATURES, FRUITS, LEAVES, SIDES

    mode = mode or OPEN
    ta, tb = _tile(a), _tile(b)
    if ta is not None and tb is not None:
        if mode == "pair":
            return [a, b]
        if mode == "all":
            return [str(t) for t in ALL_TILES]
        options = [[x] if x == y else list(every) for x, y, every in
                   zip(ta.traits, tb.traits, (CREATURES, FRUITS, LEAVES), strict=True)]
        return ["/".join(t) for t in product(*options)]
    ca, cb = _counter(a), _counter(b)
    if ca is not None and cb is not None:
        if mode == "pair":
            return [a, b]
        every = list(dict.fromkeys([*colours, ca.colour, cb.colour]))
        cols = [ca.colour] if ca.colour == cb.colour else every
        sides = [ca.side] if ca.side == cb.side else list(SIDES)
        return [f"{c}-{s}" for c, s in product(cols, sides)]
    return None


def settle(seats: Sequence[tuple[str, str]], glade_photo: str, glade: Mapping[str, Any],
           forests: Sequence[Mapping[str, Any] | None], mode: str = ""
           ) -> tuple[dict[str, Any], list[dict[str, Any] | None], list[Settled]]:
    """The readings with every doubt the rules settle put in as read (copies: the readings
    given are not changed), and what was settled. ``seats``: (forest photo, colour) in seat
    order, ``forests`` the readings in that order (None: a photo not read).

    A doubt is settled when of the names it may hold (:func:`open_names`) the rules rule out
    all but one, and that one is one of its two candidates or agrees with all they agree on.
    Nothing is settled when the sure readings break a rule themselves (:func:`broken`) or
    leave some doubt no name at all: a sure reading is then wrong somewhere, and the rules
    would reason from it."""
    evidence = Evidence(seats, glade, forests)
    if broken(evidence):
        return dict(glade), [dict(f) if f is not None else None for f in forests], []
    found: list[tuple[Doubted, Settled]] = []
    for d in doubted(seats, glade_photo, glade, forests):
        if len(d.names) == 1:  # a tile's name alone in doubt
            left, only = _only_tile(evidence, d)
            if not left:  # no tile fits: a sure reading is wrong somewhere
                return dict(glade), [dict(f) if f is not None else None for f in forests], []
            if only is not None:
                found.append((d, only))
            continue
        names = open_names(*d.names, evidence.colours, mode)
        if names is None or (d.forest is None and _tile(d.names[0])):
            continue
        sure = evidence.forests[d.forest] if d.forest is not None else None
        out = {n: (next(_tile_ruled_out(evidence, sure or SureForest({}), d.label, n), None)
                   if _tile(n)
                   else next(_counter_ruled_out(evidence, n), None)) for n in names}
        left = [n for n in names if out[n] is None]
        if not left:  # no name fits: a sure reading is wrong somewhere
            return dict(glade), [dict(f) if f is not None else None for f in forests], []
        if len(left) != 1 or not (left[0] in d.names or _agrees(left[0], d.names)):
            continue  # several possible, or one the recogniser saw nothing of
        name = left[0]
        others = [n for n in d.names if n != name]
        rule, why = out[others[0]]  # type: ignore[misc]
        rest = len(names) - 1 - len(others)
        if rest:
            why += f"; {rest} other {'tiles' if _tile(name) else 'counters'} by these rules too"
        found.append((d, Settled(d.photo, d.label, name, " or ".join(others), rule, why)))
    for d in supply_doubted(seats, glade_photo, glade):
        ruled = next(_counter_ruled_out(evidence, d.names[0]), None)
        order = _supply_order(glade, d.label)
        if ruled is not None and order != "held":  # all 12 of its colour found: bare
            found.append((d, Settled(d.photo, d.label, EMPTY, d.names[0], *ruled)))
        elif ruled is None and order == "bare":
            found.append((d, Settled(d.photo, d.label, EMPTY, d.names[0], SUPPLY_ORDER,
                                     "a space right of it is read bare, and counters leave "
                                     "from the left")))
        elif ruled is None and order == "held":
            found.append((d, Settled(d.photo, d.label, d.names[0], EMPTY, SUPPLY_ORDER,
                                     "a space left of it is read holding a counter, and "
                                     "counters leave from the left")))
    found = _consistent(evidence, found)
    new_glade = copy.deepcopy(dict(glade))
    new_forests = [copy.deepcopy(dict(f)) if f is not None else None for f in forests]
    for d, s in found:
        target = new_glade if d.forest is None else new_forests[d.forest]
        assert target is not None
        _put(target, d, s)
    for f in new_forests:  # the store things settled leave their place in the list
        if f is not None and isinstance(f.get("store_doubts"), list):
            f["store_doubts"] = [e for e in f["store_doubts"] if e is not None]
    return new_glade, new_forests, [s for _d, s in found]


def _rulings(evidence: Evidence, forest: int, square: str) -> dict[str, tuple[str, str] | None]:
    """For each of the 64 tiles, why the rules (``tile-copies``, ``not-a-set``) rule it out
    on ``square`` of forest ``forest`` as the sure readings show the game, or None."""
    sure = evidence.forests[forest] or SureForest({})
    return {str(t): next(_tile_ruled_out(evidence, sure, square, str(t)), None)
            for t in ALL_TILES}


def _only_tile(evidence: Evidence, d: Doubted) -> tuple[list[str], Settled | None]:
    """The tiles the rules leave on the square of ``d`` (a tile's name in doubt), and the
    doubt settled (``only-tile``) when they leave one, the recogniser's likeliest
    (``d.names[0]``); else None."""
    assert d.forest is not None
    why = _rulings(evidence, d.forest, d.label)
    left = [n for n, out in why.items() if out is None]
    if left != [d.names[0]]:
        return left, None
    rules = Tally(out[0] for out in why.values() if out is not None)
    words = (f"the only tile the rules allow there: {rules[NOT_A_SET]} others would make its "
             f"row or column no set, {rules[TILE_COPIES_RULE]} have both copies read surely "
             "elsewhere")
    return left, Settled(d.photo, d.label, d.names[0], "any other tile", ONLY_TILE, words)


def allowed_tiles(seats: Sequence[tuple[str, str]], glade: Mapping[str, Any],
                  forests: Sequence[Mapping[str, Any] | None], forest: int,
                  square: str) -> list[str] | None:
    """The tiles ``tile-copies`` and ``not-a-set`` allow on ``square`` of forest ``forest``
    (an index into ``forests``), as the sure readings show the game; None when those
    readings break a rule themselves (:func:`broken`: one of them is wrong). For the table,
    which offers them when a person puts a doubt right."""
    evidence = Evidence(seats, glade, forests)
    if broken(evidence):
        return None
    return [n for n, out in _rulings(evidence, forest, square).items() if out is None]


def _agrees(name: str, candidates: Sequence[str]) -> bool:
    """Whether ``name`` has every characteristic (a tile's creature, fruit, leaf; a counter's
    colour, side) that all ``candidates`` share."""
    def traits(n: str) -> tuple[str, ...]:
        tile, counter = _tile(n), _counter(n)
        return tile.traits if tile else (counter.colour, counter.side) if counter else ()

    own = traits(name)
    theirs = [traits(c) for c in candidates]
    return bool(own) and all(len(t) == len(own) for t in theirs) and all(
        x == t[k] for k, x in enumerate(own) for t in theirs
        if all(u[k] == theirs[0][k] for u in theirs))


def broken(evidence: Evidence) -> list[str]:
    """The rules the sure readings break by themselves (more copies of a tile than the game
    has, more counters of a colour, a line of sure tiles that is no set): then one of them
    is wrong, and no doubt is settled from them."""
    from companion.the_glade.sets import is_set

    out = [f"{len(where)} copies of {name}" for name, where in evidence.tiles.items()
           if len(where) > TILE_COPIES]
    out += [f"{n} {colour} counters" for colour, n in evidence.counters.items()
            if n > COUNTERS_PER_COLOUR]
    for sure in evidence.forests:
        if sure is None:
            continue
        out += [f"the {axis} through {run[0]}" for axis, run in sure.forest.lines()
                if sure.known(run, axis) and not is_set([sure.forest.tiles[sq] for sq in run])]
    return out


def _consistent(evidence: Evidence, found: list[tuple[Doubted, Settled]]
                ) -> list[tuple[Doubted, Settled]]:
    """The settled names that break no count between them: a tile settled on more squares
    than its copies left, or a colour settled more often than its counters left, settles
    none of those doubts."""
    tiles = Tally(s.name for _d, s in found if _tile(s.name))
    colours = Tally(c.colour for _d, s in found if (c := _counter(s.name)) is not None)
    out = []
    for d, s in found:
        counter = _counter(s.name)
        if s.name == EMPTY:
            pass  # a bare supply space adds nothing to any count
        elif counter is None:
            if len(evidence.tiles.get(s.name, [])) + tiles[s.name] > TILE_COPIES:
                continue
        elif evidence.counters[counter.colour] + colours[counter.colour] > COUNTERS_PER_COLOUR:
            continue
        out.append((d, s))
    return out


def _put(reading: dict[str, Any], d: Doubted, s: Settled) -> None:
    """Put the settled name into a reading: no longer uncertain, read as ``s.name``, and
    listed under ``settled`` with its rule. A store thing's entry in ``store_doubts`` is
    left None (:func:`settle` drops those once all are put, so the places stay right)."""
    if d.label.startswith(STORE):
        reading["store_uncertain"] = max(0, int(reading.get("store_uncertain") or 0) - 1)
        reading["store_doubts"][int(d.label[len(STORE):]) - 1] = None
        reading["store"] = sorted([*(reading.get("store") or []), s.name])
    else:
        no_longer_in_doubt(reading, [d.label])
        if s.name == EMPTY:
            pass  # a bare supply space: the seat's count stands as read
        elif supply_space(d.label) is not None:  # holding its seat's counter
            supply_space_held(reading, d.label)
        elif d.forest is None:
            reading.setdefault("glade", {})[d.label] = s.name
        else:
            forest = reading.setdefault("forest", {})
            kind = "tiles" if _tile(s.name) else "counters"
            forest[kind] = {**(forest.get(kind) or {}), d.label: s.name}
    reading["settled"] = {**(reading.get("settled") or {}),
                          d.label: {"name": s.name, "ruled_out": s.ruled_out, "rule": s.rule,
                                    "why": s.why}}
