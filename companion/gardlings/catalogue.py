"""The Gardlings tile catalogue: every tile's back, creatures, gnomes, size and edges.

A catalogue is YAML (or JSON) in the spec's format and is checked as it is read: a bad entry
is refused in one line that names the tile and the field (``tiles[3] (B07).edges[2]: 'teal'
is not a declared colour``). The project ships a SAMPLE catalogue (invented tiles with the
rulebook's counts per back, not the publisher's); a player transcribes their own copy in the
same format (``docs/gardlings.md``).

Edge halves are plain strings, as in the file: ``empty``, a colour (a gem half), ``egg`` (an
egg half, on a bird of paradise) or ``triple-COLOUR`` (a triple-gem half, on a gardener).

>>> half_colour("triple-pink"), half_colour("egg"), matches("egg", "blue")
('pink', None, True)
>>> matches("blue", "triple-blue"), matches("empty", "blue")
(True, False)
>>> gem_value("triple-blue", "triple-blue"), gem_value("triple-blue", "egg")
(3, 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.paths import PROJECT_ROOT
from companion.storage import read_data_file

#: The SAMPLE catalogue shipped with the project (invented tiles, the rulebook's counts).
SAMPLE_CATALOGUE = PROJECT_ROOT / "config" / "games" / "gardlings" / "sample-catalogue.yaml"

BACKS = ("piglet", "green", "blue", "pink", "gold", "gnome", "double-gnome", "victory")
MISSION = "mission"
CREATURES = ("lucky-piglet", "gardener", "mushroom-head", "bird-of-paradise", "unicorn",
             "dragon")
#: The stacks' costs on the market board (the rulebook's 4, 7, 10 and 14).
COSTS: Mapping[str, int] = {"green": 4, "blue": 7, "pink": 10, "gold": 14}
#: The rulebook's number of tiles per back (131 in all).
RULEBOOK_COUNTS: Mapping[str, int] = {
    "piglet": 22, "green": 23, "blue": 23, "pink": 17, "gold": 15, "gnome": 20,
    "double-gnome": 10, "victory": 1}
MISSION_KINDS = ("shape", "empty-joins", "colour-gems", "surrounded", "second-draw")
EMPTY, EGG, TRIPLE = "empty", "egg", "triple-"


def half_colour(half: str) -> str | None:
    """The colour of a gem half (a triple half's too); None for an egg or an empty edge."""
    if half in (EMPTY, EGG):
        return None
    return half[len(TRIPLE):] if half.startswith(TRIPLE) else half


@cache
def matches(a: str, b: str) -> bool:
    """Whether two halves may touch: empty to empty; an egg to any gem half (eggs included);
    a gem half to a half of the same colour (plain or triple)."""
    if a == EMPTY or b == EMPTY:
        return a == b
    if a == EGG or b == EGG:
        return True
    return half_colour(a) == half_colour(b)


@cache
def gem_value(a: str, b: str) -> int:
    """What two touching halves are worth: 0 (no gem: empty or mismatched), 3 (two triple
    halves: a strong triple gem) or 1."""
    if a == EMPTY or not matches(a, b):
        return 0
    return 3 if a.startswith(TRIPLE) and b.startswith(TRIPLE) else 1


def gem_colours(a: str, b: str) -> frozenset[str]:
    """The colours of a complete gem (an egg takes its partner's colour; two eggs: none)."""
    return frozenset(c for c in (half_colour(a), half_colour(b)) if c)


@dataclass(frozen=True)
class MissionEffect:
    """A mission tile's way to gems (the spec's ``effect``)."""

    kind: str
    gems: int = 0
    at_least: int = 0
    colour: str = ""
    shape: tuple[str, ...] = ()

    def describe(self) -> str:
        """The effect in words, for the screens and the terminal game."""
        if self.kind == "shape":
            return f"{self.gems} gems for the shape {'/'.join(self.shape)}"
        if self.kind == "empty-joins":
            return f"{self.gems} gems for {self.at_least}+ joined empty connections"
        if self.kind == "colour-gems":
            return f"{self.gems} gems for {self.at_least}+ complete {self.colour} gems"
        if self.kind == "surrounded":
            return f"{self.gems} gems when built all round"
        return "a second draw once this round"


@dataclass(frozen=True)
class Tile:
    """One tile (or mission tile) as printed, at rotation 0."""

    id: str
    back: str
    creatures: tuple[str, ...] = ()
    gnomes: int = 0
    width: int = 1
    height: int = 1
    edges: tuple[str, ...] = ()
    lines: tuple[tuple[int, int], ...] = ()
    effect: MissionEffect | None = None

    def __hash__(self) -> int:
        # ids are unique in a catalogue: hashing the id keeps the geometry caches cheap
        return hash(self.id)

    def count(self, creature: str) -> int:
        return self.creatures.count(creature)

    @property
    def is_mission(self) -> bool:
        return self.back == MISSION


@dataclass(frozen=True)
class Catalogue:
    """Every tile and mission of one copy of the game, by id (the order of the file)."""

    colours: tuple[str, ...]
    tiles: Mapping[str, Tile] = field(compare=False)
    name: str = "sample"
    sample: bool = False

    def __getitem__(self, tile_id: str) -> Tile:
        return self.tiles[tile_id]

    def __contains__(self, tile_id: object) -> bool:
        return tile_id in self.tiles

    def __hash__(self) -> int:
        return hash((self.name, self.colours))

    def of_back(self, back: str) -> list[Tile]:
        """The tiles with this back, in the file's order."""
        return [t for t in self.tiles.values() if t.back == back]

    @property
    def missions(self) -> list[Tile]:
        return self.of_back(MISSION)

    def counts(self) -> dict[str, int]:
        """Tiles per back (missions included)."""
        return dict(Counter(t.back for t in self.tiles.values()))


# --- reading and checking ------------------------------------------------------------------

def _whole(value: Any, where: str, least: int = 0, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least or \
            (most is not None and value > most):
        span = f"{least}-{most}" if most is not None else f"{least} or more"
        raise StateError(f"{where}: {value!r} must be a whole number {span}")
    return value


def _edges(raw: Any, where: str, size: int, colours: tuple[str, ...],
           creatures: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(raw, list) or len(raw) != size:
        raise StateError(f"{where}.edges: must list {size} connections (2 x (width + height)), "
                         "clockwise from the top-left corner")
    out = []
    for i, half in enumerate(raw):
        at = f"{where}.edges[{i}]"
        if not isinstance(half, str):
            raise StateError(f"{at}: {half!r} must be empty, egg, a colour or triple-COLOUR")
        if half == EGG and "bird-of-paradise" not in creatures:
            raise StateError(f"{at}: an egg half needs a bird-of-paradise on the tile")
        if half.startswith(TRIPLE) and "gardener" not in creatures:
            raise StateError(f"{at}: a triple-gem half needs a gardener on the tile")
        if half not in (EMPTY, EGG) and half_colour(half) not in colours:
            raise StateError(f"{at}: {half!r} is not empty, egg, a declared colour "
                             f"({', '.join(colours)}) or triple-COLOUR")
        out.append(half)
    return tuple(out)


def _lines(raw: Any, where: str, edges: tuple[str, ...],
           creatures: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise StateError(f"{where}.lines: must be a list of [i, j] pairs of edge indices")
    if raw and "mushroom-head" not in creatures:
        raise StateError(f"{where}.lines: bonus lines need a mushroom-head on the tile")
    out = []
    for k, pair in enumerate(raw):
        at = f"{where}.lines[{k}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise StateError(f"{at}: must be a pair [i, j] of edge indices")
        a, b = (_whole(v, at, 0, len(edges) - 1) for v in pair)
        if a == b or EMPTY in (edges[a], edges[b]):
            raise StateError(f"{at}: must join two different gem halves (edges {a} and {b})")
        out.append((a, b))
    return tuple(out)


def _effect(raw: Any, where: str, colours: tuple[str, ...]) -> MissionEffect:
    at = f"{where}.effect"
    if not isinstance(raw, dict) or raw.get("kind") not in MISSION_KINDS:
        raise StateError(f"{at}: must be {{kind: ...}} with kind one of "
                         f"{', '.join(MISSION_KINDS)}")
    kind = raw["kind"]
    allowed = {"shape": {"kind", "shape", "gems"}, "empty-joins": {"kind", "at_least", "gems"},
               "colour-gems": {"kind", "colour", "at_least", "gems"},
               "surrounded": {"kind", "gems"}, "second-draw": {"kind"}}[kind]
    extra = sorted(set(raw) - allowed)
    if extra:
        raise StateError(f"{at}.{extra[0]}: not a field of a {kind} mission")
    gems = _whole(raw.get("gems", 0), f"{at}.gems", 0, 99) if kind != "second-draw" else 0
    if kind != "second-draw" and "gems" not in raw:
        raise StateError(f"{at}.gems: missing (the gems the mission gives)")
    at_least = _whole(raw.get("at_least", 1), f"{at}.at_least", 1, 999)
    colour = raw.get("colour", "")
    if kind == "colour-gems" and colour not in colours:
        raise StateError(f"{at}.colour: {colour!r} is not a declared colour")
    shape: tuple[str, ...] = ()
    if kind == "shape":
        rows = raw.get("shape")
        if not isinstance(rows, list) or not rows or not all(
                isinstance(r, str) and r and set(r) <= {"#", "."} for r in rows) or \
                len({len(r) for r in rows}) != 1 or not any("#" in r for r in rows):
            raise StateError(f"{at}.shape: must be equal rows of # and . with at least one #")
        shape = tuple(rows)
    return MissionEffect(kind, gems, at_least, colour, shape)


def _tile(raw: Any, where: str, colours: tuple[str, ...], mission: bool) -> Tile:
    if not isinstance(raw, dict):
        raise StateError(f"{where}: must be a mapping like {{id: P01, back: piglet, ...}}")
    tile_id = raw.get("id")
    if not isinstance(tile_id, str) or not tile_id.strip() or tile_id != tile_id.strip():
        raise StateError(f"{where}.id: must be a name like P01")
    where = f"{where} ({tile_id})"
    fields = {"id", "width", "height", "edges", "lines", "creatures", "gnomes"}
    fields |= {"effect", "back"} if mission else {"back"}
    extra = sorted(set(raw) - fields)
    if extra:
        raise StateError(f"{where}.{extra[0]}: unknown field")
    back = raw.get("back", MISSION if mission else None)
    if mission and back != MISSION:
        raise StateError(f"{where}.back: a mission's back is mission")
    if not mission and back not in BACKS:
        raise StateError(f"{where}.back: {back!r} is not one of {', '.join(BACKS)}")
    creatures_raw = raw.get("creatures", [])
    if not isinstance(creatures_raw, list) or not all(c in CREATURES for c in creatures_raw):
        bad = next((c for c in creatures_raw if c not in CREATURES), creatures_raw) \
            if isinstance(creatures_raw, list) else creatures_raw
        raise StateError(f"{where}.creatures: {bad!r} is not one of {', '.join(CREATURES)}")
    creatures = tuple(creatures_raw)
    default_gnomes = {"gnome": 1, "double-gnome": 2}.get(back, 0)
    gnomes = _whole(raw.get("gnomes", default_gnomes), f"{where}.gnomes", 0, 9)
    width = _whole(raw.get("width", 1), f"{where}.width", 1, 2)
    height = _whole(raw.get("height", 1), f"{where}.height", 1, 2)
    if back == "victory" and "edges" not in raw:
        return Tile(tile_id, back, creatures, gnomes, width, height)
    edges = _edges(raw.get("edges"), where, 2 * (width + height), colours, creatures)
    lines = _lines(raw.get("lines"), where, edges, creatures)
    effect = _effect(raw.get("effect"), where, colours) if mission else None
    return Tile(tile_id, back, creatures, gnomes, width, height, edges, lines, effect)


def parse_catalogue(data: Any, name: str = "catalogue", sample: bool = False) -> Catalogue:
    """A catalogue from its data (the spec's YAML, read); every error names tile and field."""
    if not isinstance(data, dict):
        raise StateError(f"{name}: must hold colours, tiles and missions")
    extra = sorted(set(data) - {"colours", "tiles", "missions", "sample", "note"})
    if extra:
        raise StateError(f"{name}: unknown field {extra[0]!r} (colours, tiles, missions)")
    colours = data.get("colours")
    if not isinstance(colours, list) or not colours or not all(
            isinstance(c, str) and c.isalpha() and c == c.lower() for c in colours):
        raise StateError("colours: must list the gem colours as lower-case words")
    if {"empty", "egg"} & set(colours):
        raise StateError("colours: empty and egg are not colours")
    tiles: dict[str, Tile] = {}
    for key, mission in (("tiles", False), ("missions", True)):
        raw = data.get(key, [])
        if not isinstance(raw, list):
            raise StateError(f"{key}: must be a list")
        for i, entry in enumerate(raw):
            tile = _tile(entry, f"{key}[{i}]", tuple(colours), mission)
            if tile.id in tiles:
                raise StateError(f"{key}[{i}] ({tile.id}).id: used twice")
            tiles[tile.id] = tile
    if not any(not t.is_mission for t in tiles.values()):
        raise StateError("tiles: the catalogue lists no tiles")
    return Catalogue(tuple(colours), tiles, name,
                     sample=sample or bool(data.get("sample", False)))


def load_catalogue(path: Path | str) -> Catalogue:
    """The catalogue in ``path`` (through the bounded reader); errors name the file too."""
    path = Path(path)
    data = read_data_file(path, "tile catalogue")
    try:
        return parse_catalogue(data, path.name)
    except StateError as exc:
        raise StateError(f"tile catalogue {path.name}: {exc}") from None


@cache
def sample_catalogue() -> Catalogue:
    """The shipped SAMPLE catalogue (read once)."""
    catalogue = load_catalogue(SAMPLE_CATALOGUE)
    return Catalogue(catalogue.colours, catalogue.tiles, "sample", True)


def catalogue_for(ref: str | None, base: Path = Path(".")) -> Catalogue:
    """The catalogue a state file names: ``None``/``sample`` or a path relative to ``base``."""
    if ref in (None, "sample"):
        return sample_catalogue()
    if not isinstance(ref, str):
        raise StateError("catalogue: must be the path of a tile catalogue (or absent)")
    path = Path(ref).expanduser()
    if not path.is_absolute():
        path = base / path
    if not path.is_file():
        raise StateError(f"catalogue: no tile catalogue at {path}")
    return _cached(str(path.resolve()), path.stat().st_mtime_ns)


@cache
def _cached(path: str, _mtime: int) -> Catalogue:
    catalogue = load_catalogue(Path(path))
    return Catalogue(catalogue.colours, catalogue.tiles, path, catalogue.sample)
