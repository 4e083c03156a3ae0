"""The cards as data: plants, critters and glass, read from a deck file and validated.

The printed contents of the cards are not public, so a deck file transcribes them in a small
vocabulary (documented in ``config/games/glass-garden/deck.yaml``). Every error names the card
and the field.

>>> deck = load_deck(SAMPLE_DECK)
>>> deck.sample, len(deck.plants), [c.name for c in deck.critters]
(True, 8, ['Fly', 'Snail', 'Ant', 'Worm'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import ConfigError

CONFIG_DIR = Path(__file__).resolve().parents[2] / "config" / "games" / "glass-garden"
SAMPLE_DECK = CONFIG_DIR / "deck.yaml"
SAMPLE_START = CONFIG_DIR / "sample-start.yaml"

NUTRIENTS: tuple[str, ...] = ("box", "cloud", "lightning", "droplet")
SPROUT = "sprout"
RESOURCES: tuple[str, ...] = (*NUTRIENTS, SPROUT)
ROWS: tuple[str, ...] = ("top", "middle", "bottom")
GLASS_POSITIONS: tuple[str, ...] = (
    "left-top", "left-middle", "left-bottom", "right-top", "right-middle", "right-bottom")
STEP_KINDS: tuple[str, ...] = ("move", "shift", "grow", "flip_glass", "protect", "flip_critter")
#: Who a step acts on. ``self`` is the succulent just grown (plants only); ``adjacent`` and
#: ``neighbor`` are relative to it (for a glass card: the edge plant adjacent to that glass).
SELECTORS: tuple[str, ...] = ("self", "any", "neighbor", "adjacent")
MAX_ICONS = 4  # per dirt half


@dataclass(frozen=True, slots=True)
class Step:
    """One instruction of a succulent effect or a glass bonus.

    ``plant`` is a selector or a plant's name; ``only`` limits targets to ``soil`` or
    ``succulent`` plants; ``direction`` is ``up``/``down``/``either`` for a move and
    ``arrow``/``left``/``right``/``either`` for a shift; ``distance`` bounds a shift (0 = any);
    ``glass`` is ``adjacent``/``row``/``any`` for flip_glass; ``optional`` makes it a "may".
    """

    kind: str
    plant: str = "any"
    only: str = "any"
    direction: str = "either"
    distance: int = 0
    glass: str = "adjacent"
    optional: bool = False

    def describe(self) -> str:
        who = {"self": "this succulent", "any": "any plant", "neighbor": "a neighboring plant",
               "adjacent": "an adjacent plant"}.get(self.plant, self.plant)
        if self.only != "any":
            who += f" ({self.only} side)"
        may = "may " if self.optional else ""
        if self.kind == "move":
            how = "up or down" if self.direction == "either" else self.direction
            return f"{may}move {who} 1 row {how}"
        if self.kind == "shift":
            far = "any distance" if self.distance == 0 else f"up to {self.distance}"
            way = "in the critter's arrow direction" if self.direction == "arrow" else (
                "left or right" if self.direction == "either" else self.direction)
            return f"{may}shift {who} {far} {way}"
        if self.kind == "grow":
            return f"{may}grow {who} without paying"
        if self.kind == "flip_glass":
            where = {"adjacent": "an adjacent", "row": "a same-row", "any": "any"}[self.glass]
            return f"{may}flip {where} dark glass card to sunlight"
        if self.kind == "protect":
            return f"{may}protect {who} from damage this turn"
        return f"{may}flip the critter"


@dataclass(frozen=True, slots=True)
class Plant:
    name: str
    upper: tuple[str, ...]
    lower: tuple[str, ...]
    cost: str  # a resource kind, or "any" (3 identical of any one kind)
    effect: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class DamagePattern:
    """Damage ``count`` plants (or all plants in ``count`` columns) on ``side``, counted from
    the ``closest`` to the critter or the ``farthest``; only plants in ``rows`` are hit."""

    side: str  # left | right | both
    start: str  # closest | farthest
    count: int
    unit: str  # plants | columns
    rows: tuple[int, ...] = (0, 1)

    def describe(self) -> str:
        sides = "both sides" if self.side == "both" else f"the {self.side} side"
        what = "plant" if self.unit == "plants" else "column"
        many = f"{self.count} {self.start} {what}{'s' if self.count != 1 else ''}"
        if self.unit == "columns":
            many = f"all plants in the {many}"
        rows = "" if self.rows == (0, 1) else " (" + "/".join(ROWS[r] for r in self.rows) + " row)"
        return f"{many} on {sides}{rows}"


@dataclass(frozen=True, slots=True)
class CritterSide:
    arrow: str  # left | right
    damage: tuple[DamagePattern, ...]


@dataclass(frozen=True, slots=True)
class Critter:
    name: str
    sides: tuple[CritterSide, CritterSide]  # sides[0] is face up at setup (right arrow)


@dataclass(frozen=True, slots=True)
class Glass:
    name: str
    bonus: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    sample: bool
    plants: tuple[Plant, ...]
    critters: tuple[Critter, ...]
    glass: tuple[Glass, ...]  # in GLASS_POSITIONS order
    # each plant's index by its name in lower case: effects name their plant on every use
    _index: dict[str, int] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {})
        for i, p in enumerate(self.plants):
            self._index.setdefault(p.name.lower(), i)

    def plant_index(self, name: str) -> int:
        try:
            return self._index[name.lower()]
        except KeyError:
            raise KeyError(name) from None

    def critter(self, name: str) -> Critter:
        for c in self.critters:
            if c.name.lower() == name.lower():
                return c
        raise KeyError(name)

    @property
    def label(self) -> str:
        return f"{self.name} (SAMPLE deck, not the printed cards)" if self.sample else self.name


def _err(where: str, msg: str) -> ConfigError:
    return ConfigError(f"deck: {where}: {msg}")


def _choice(value: Any, allowed: tuple[str, ...], where: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise _err(where, f"{value!r} is not one of {', '.join(allowed)}")
    return value


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _err(where, f"{value!r} must be a whole number from {low} to {high}")
    return value


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _err(where, "must be a mapping")
    return value


def _unknown(data: dict[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise _err(where, f"unknown field {extra[0]!r} (known: {', '.join(sorted(allowed))})")


def _step(raw: Any, where: str, names: set[str], on_glass: bool) -> Step:
    if isinstance(raw, str):
        raw = {raw: {}}
    data = _mapping(raw, where)
    if len(data) != 1:
        raise _err(where, f"a step is one of {', '.join(STEP_KINDS)} with its options")
    kind, opts = next(iter(data.items()))
    _choice(kind, STEP_KINDS, where)
    where = f"{where}.{kind}"
    opts = {} if opts is None else _mapping(opts, where)
    _unknown(opts, {"plant", "only", "direction", "distance", "glass", "optional"}, where)
    default_plant = "neighbor" if kind == "grow" else ("self" if kind == "protect" else "any")
    if on_glass and default_plant in ("self", "neighbor"):
        default_plant = "adjacent"
    plant = opts.get("plant", default_plant)
    if not isinstance(plant, str) or (plant not in SELECTORS and plant not in names):
        raise _err(f"{where}.plant", f"{plant!r} is neither one of {', '.join(SELECTORS)} "
                   "nor the name of a plant in this deck")
    if on_glass and plant in ("self", "neighbor"):
        raise _err(f"{where}.plant", f"{plant!r} needs a plant; a glass card may use "
                   "any, adjacent or a plant's name")
    only = _choice(opts.get("only", "soil" if kind == "grow" else "any"),
                   ("any", "soil", "succulent"), f"{where}.only")
    dirs = ("up", "down", "either") if kind == "move" else ("arrow", "left", "right", "either")
    direction = _choice(opts.get("direction", "either" if kind == "move" else "arrow"),
                        dirs, f"{where}.direction")
    distance = opts.get("distance", "any")
    distance = 0 if distance == "any" else _int(distance, f"{where}.distance", 1, 8)
    glass = _choice(opts.get("glass", "adjacent"), ("adjacent", "row", "any"), f"{where}.glass")
    optional = opts.get("optional", on_glass)
    if not isinstance(optional, bool):
        raise _err(f"{where}.optional", "must be true or false")
    if on_glass and kind == "flip_glass":
        raise _err(where, "a glass card's bonus cannot flip glass (it could light itself "
                   "again and again)")
    if kind == "grow" and only == "succulent":
        raise _err(f"{where}.only", "a grow step can only target soil-side plants")
    return Step(kind, plant, only, direction, distance, glass, optional)


def _steps(raw: Any, where: str, names: set[str], on_glass: bool) -> tuple[Step, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raw = [raw]
    return tuple(_step(s, f"{where}[{i}]", names, on_glass) for i, s in enumerate(raw))


def _icons(raw: Any, where: str) -> tuple[str, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise _err(where, "must be a list of resources")
    if len(raw) > MAX_ICONS:
        raise _err(where, f"at most {MAX_ICONS} resources fit in one dirt half")
    return tuple(_choice(r, RESOURCES, where) for r in raw)


def _plant(raw: Any, i: int, names: set[str]) -> Plant:
    data = _mapping(raw, f"plants[{i}]")
    name = data.get("name")
    where = f"plant {name!r}" if isinstance(name, str) else f"plants[{i}]"
    if not isinstance(name, str) or not name.strip():
        raise _err(f"{where}.name", "every plant needs a name")
    _unknown(data, {"name", "upper", "lower", "cost", "effect"}, where)
    cost = _choice(data.get("cost"), (*RESOURCES, "any"), f"{where}.cost")
    return Plant(name, _icons(data.get("upper"), f"{where}.upper"),
                 _icons(data.get("lower"), f"{where}.lower"), cost,
                 _steps(data.get("effect"), f"{where}.effect", names, on_glass=False))


def _pattern(raw: Any, where: str) -> DamagePattern:
    data = _mapping(raw, where)
    _unknown(data, {"side", "from", "count", "unit", "rows"}, where)
    rows = data.get("rows", ["top", "middle"])
    if not isinstance(rows, list) or not rows:
        raise _err(f"{where}.rows", "must be a list drawn from top, middle")
    row_ids = tuple(sorted({ROWS.index(_choice(r, ("top", "middle"), f"{where}.rows"))
                            for r in rows}))
    return DamagePattern(_choice(data.get("side"), ("left", "right", "both"), f"{where}.side"),
                         _choice(data.get("from"), ("closest", "farthest"), f"{where}.from"),
                         _int(data.get("count"), f"{where}.count", 1, 8),
                         _choice(data.get("unit", "plants"), ("plants", "columns"),
                                 f"{where}.unit"), row_ids)


def _critter(raw: Any, i: int) -> Critter:
    data = _mapping(raw, f"critters[{i}]")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _err(f"critters[{i}].name", "every critter needs a name")
    where = f"critter {name!r}"
    _unknown(data, {"name", "sides"}, where)
    sides = data.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise _err(f"{where}.sides", "needs exactly two sides (the setup side first)")
    out = []
    for s, side in enumerate(sides):
        sw = f"{where}.sides[{s}]"
        side = _mapping(side, sw)
        _unknown(side, {"arrow", "damage"}, sw)
        arrow = _choice(side.get("arrow"), ("left", "right"), f"{sw}.arrow")
        dmg = side.get("damage")
        if not isinstance(dmg, list):
            raise _err(f"{sw}.damage", "must be a list of damage patterns")
        out.append(CritterSide(arrow, tuple(_pattern(d, f"{sw}.damage[{k}]")
                                            for k, d in enumerate(dmg))))
    if out[0].arrow != "right":
        raise _err(f"{where}.sides[0].arrow", "the first side is placed face up at setup, "
                   "which the rulebook says shows the right shift arrow")
    return Critter(name, (out[0], out[1]))


def parse_deck(data: Any, source: str = "deck") -> Deck:
    """A :class:`Deck` from parsed YAML/JSON data; :class:`ConfigError` names card and field."""
    data = _mapping(data, source)
    _unknown(data, {"name", "sample", "plants", "critters", "glass"}, source)
    plants_raw = data.get("plants")
    if not isinstance(plants_raw, list) or len(plants_raw) != 8:
        raise _err("plants", "the game has exactly 8 plant cards")
    names = {p.get("name") for p in plants_raw if isinstance(p, dict)}
    plants = tuple(_plant(p, i, {n for n in names if isinstance(n, str)})
                   for i, p in enumerate(plants_raw))
    if len({p.name.lower() for p in plants}) != 8:
        raise _err("plants", "two plants share a name")
    critters_raw = data.get("critters")
    if not isinstance(critters_raw, list) or not critters_raw:
        raise _err("critters", "list at least one critter")
    critters = tuple(_critter(c, i) for i, c in enumerate(critters_raw))
    glass_raw = _mapping(data.get("glass"), "glass")
    _unknown(glass_raw, set(GLASS_POSITIONS), "glass")
    glass = []
    for pos in GLASS_POSITIONS:
        if pos not in glass_raw:
            raise _err(f"glass.{pos}", "missing: the garden has six glass cards")
        g = _mapping(glass_raw[pos], f"glass.{pos}")
        _unknown(g, {"name", "bonus"}, f"glass.{pos}")
        glass.append(Glass(str(g.get("name", pos)),
                           _steps(g.get("bonus"), f"glass.{pos}.bonus", names, on_glass=True)))
    sample = data.get("sample", False)
    if not isinstance(sample, bool):
        raise _err("sample", "must be true or false")
    return Deck(str(data.get("name", "Glass Garden deck")), sample, plants, critters, tuple(glass))


_CACHE: dict[Path, Deck] = {}


def load_deck(path: Path | str = SAMPLE_DECK) -> Deck:
    """Read and validate a deck file (YAML or JSON); cached per path. The file is read through
    the bounded reader (:func:`~companion.storage.read_data_file`: at most 10 MB, 64 levels,
    no YAML anchors, no 30-digit numbers), so ``/dev/zero`` or an anchors bomb is one
    :class:`ConfigError` naming the file."""
    from companion.errors import InputFileError
    from companion.storage import read_data_file

    path = Path(path).resolve()
    if path in _CACHE:
        return _CACHE[path]
    try:
        data = read_data_file(path, "deck file", error=ConfigError)
    except InputFileError as exc:  # missing, a folder, no permission
        why = " ".join(str(exc).split()).removeprefix(f"deck file {path} ")
        raise ConfigError(f"deck file {path} cannot be read: {why}") from None
    deck = parse_deck(data, str(path.name))
    _CACHE[path] = deck
    return deck
