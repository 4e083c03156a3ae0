"""The enrolment pack's glade board and match counters (spec: "Glade board, stores and
scoring from photos").

``pack.yaml`` may add ``glade:`` (the empty glade board's image, a toadstool counter's
diameter, the 64 centre spaces by tile and each seat's 12 supply spaces) and
``match_counters:`` (one image per match counter with its kind, icon and value). Both are
read here, apart from the forest pack (:mod:`pack`), and checked whole before anything is
learnt: a typo gives one :class:`~companion.errors.ModelError` naming the entry, never a
traceback and never a model that reads spaces in the wrong place.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import CompanionError, ModelError
from companion.storage import read_data_file
from companion.the_glade.names import ALL_TILES, Icon, Tile
from companion.vision.pack_files import read_pack_image

SEAT_SPACES = 12
MAX_SEATS = 4
MATCH_KINDS = ("creature", "fruit", "leaf")
GLADE_FIELDS = ("image", "counter", "spaces", "seats")


@dataclass(frozen=True)
class GladeFace:
    """The empty glade board (BGR, top-down, upright) and where its spaces are, in its
    pixels: ``spaces`` maps each of the 64 tiles to a centre space, ``seats`` each seat
    (1-4) to its 12 supply spaces, leftmost first as that player sees them."""

    image: np.ndarray
    file: str
    counter: float
    spaces: dict[str, tuple[float, float]]
    seats: dict[int, tuple[tuple[float, float], ...]]

    def labelled_spaces(self) -> list[tuple[str, tuple[float, float]]]:
        """Every space with its spec name: centre spaces by tile, then ``seat-N:K``."""
        out = list(self.spaces.items())
        for seat, spaces in sorted(self.seats.items()):
            out += [(f"seat-{seat}:{k}", xy) for k, xy in enumerate(spaces, 1)]
        return out


@dataclass(frozen=True)
class MatchFace:
    """One match counter's face (BGR) with what it shows."""

    image: np.ndarray
    file: str
    kind: str
    icon: str
    value: int

    @property
    def name(self) -> str:
        """A short name for it: ``leaf:oak:4``, ``creature:mouse/oak:1``."""
        return f"{self.kind}:{self.icon}:{self.value}"

    def to_dict(self) -> dict[str, Any]:
        """As the spec's store reading lists it."""
        return {"kind": self.kind, "icon": self.icon, "value": self.value}


@dataclass(frozen=True)
class GladePack:
    """What a pack adds for the glade board and the stores (either may be missing)."""

    glade: GladeFace | None = None
    match_counters: tuple[MatchFace, ...] = field(default_factory=tuple)


def _bad(where: str, problem: str) -> ModelError:
    return ModelError(f"enrolment pack: {where}: {problem}; fix pack.yaml (see the spec's "
                      "'Glade board, stores and scoring from photos' section) and enrol again")


def _image(folder: Path, name: Any, where: str) -> np.ndarray:
    return read_pack_image(folder, name, where, _bad)


def _point(value: Any, where: str, size: tuple[int, int]) -> tuple[float, float]:
    """An ``[x, y]`` pixel inside an image of ``size`` (w, h)."""
    if (not isinstance(value, list | tuple) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int | float) for v in value)):
        raise _bad(where, f"must be a pixel [x, y], not {value!r}")
    x, y = float(value[0]), float(value[1])
    if not (0 <= x < size[0] and 0 <= y < size[1]):
        raise _bad(where, f"[{x:g}, {y:g}] is outside the {size[0]}x{size[1]} glade image")
    return x, y


def read_glade_pack(folder: Path) -> GladePack:
    """The ``glade:`` and ``match_counters:`` sections of the pack in ``folder`` (or of its
    pack.yaml), checked; empty when the pack has neither."""
    folder = Path(folder)
    if folder.is_file():
        folder = folder.parent
    data = read_data_file(folder / "pack.yaml", "enrolment pack", error=ModelError)
    if not isinstance(data, dict):
        return GladePack()
    glade = _glade(folder, data["glade"]) if data.get("glade") is not None else None
    matches = tuple(_match(folder, e, i) for i, e in
                    enumerate(_entries(data.get("match_counters"))))
    return GladePack(glade, matches)


def _glade(folder: Path, entry: Any) -> GladeFace:
    if not isinstance(entry, dict):
        raise _bad("glade", "must be a mapping with image, counter, spaces and seats")
    unknown = sorted(set(entry) - set(GLADE_FIELDS))
    if unknown:
        raise _bad(f"glade.{unknown[0]}", f"is not a glade field (known: "
                                          f"{', '.join(GLADE_FIELDS)})")
    for key in GLADE_FIELDS:
        if key not in entry:
            raise _bad("glade", f"is missing {key!r}")
    image = _image(folder, entry["image"], "glade")
    h, w = image.shape[:2]
    counter = entry["counter"]
    if (isinstance(counter, bool) or not isinstance(counter, int | float)
            or not 16 <= counter <= min(w, h) / 8):
        raise _bad("glade.counter", f"must be a counter's diameter in pixels, 16 to "
                                    f"{min(w, h) / 8:g} for this image, not {counter!r}")
    spaces = _spaces(entry["spaces"], (w, h))
    seats = _seats(entry["seats"], (w, h))
    face = GladeFace(image, entry["image"], float(counter), spaces, seats)
    _apart(face)
    return face


def _spaces(raw: Any, size: tuple[int, int]) -> dict[str, tuple[float, float]]:
    if not isinstance(raw, dict):
        raise _bad("glade.spaces", "must map each of the 64 tiles to its space [x, y]")
    out: dict[str, tuple[float, float]] = {}
    for key, value in raw.items():
        try:
            name = str(Tile.parse(key))
        except CompanionError as exc:
            raise _bad(f"glade.spaces.{key}", str(exc)) from None
        if name in out:
            raise _bad(f"glade.spaces.{key}", f"names the tile {name} twice")
        out[name] = _point(value, f"glade.spaces.{key}", size)
    missing = [str(t) for t in ALL_TILES if str(t) not in out]
    if missing:
        raise _bad("glade.spaces", f"names {len(out)} of the 64 tiles; {missing[0]} "
                                   f"(and {len(missing) - 1} more) missing"
                   if len(missing) > 1 else f"names 63 of the 64 tiles; {missing[0]} is "
                                            "missing")
    return {str(t): out[str(t)] for t in ALL_TILES}


def _seats(raw: Any, size: tuple[int, int]) -> dict[int, tuple[tuple[float, float], ...]]:
    if not isinstance(raw, dict) or not 1 <= len(raw) <= MAX_SEATS:
        raise _bad("glade.seats", "must map 1-4 seats (1, 2, ...) to their 12 supply spaces")
    out: dict[int, tuple[tuple[float, float], ...]] = {}
    for key, spaces in raw.items():
        where = f"glade.seats.{key}"
        seat = int(key) if isinstance(key, int) or (isinstance(key, str) and key.isdigit()) \
            else 0
        if isinstance(key, bool) or not 1 <= seat <= MAX_SEATS:
            raise _bad(where, "a seat is numbered 1-4")
        if seat in out:
            raise _bad(where, f"seat {seat} is given twice")
        if not isinstance(spaces, list) or len(spaces) != SEAT_SPACES:
            raise _bad(where, f"must list the seat's {SEAT_SPACES} supply spaces [x, y], "
                              "leftmost first")
        out[seat] = tuple(_point(p, f"{where}[{k}]", size) for k, p in enumerate(spaces))
    if sorted(out) != list(range(1, len(out) + 1)):
        raise _bad("glade.seats", f"seats must be numbered 1 to {len(out)} without gaps, not "
                                  f"{sorted(out)}")
    return dict(sorted(out.items()))


def _apart(face: GladeFace) -> None:
    """No two spaces closer than a counter's diameter (a typo in a coordinate)."""
    labelled = face.labelled_spaces()
    xy = np.array([p for _, p in labelled])
    d = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])
    np.fill_diagonal(d, np.inf)
    i, j = np.unravel_index(int(np.argmin(d)), d.shape)
    if d[i, j] < face.counter:
        raise _bad(f"glade.spaces/seats: {labelled[i][0]}",
                   f"lies {d[i, j]:.0f} px from {labelled[j][0]}, closer than a counter's "
                   f"diameter ({face.counter:g} px)")


def _entries(raw: Any) -> list[Any]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not raw:
        raise _bad("match_counters", "must be a non-empty list of {image, kind, icon, value}")
    return raw


def _match(folder: Path, entry: Any, i: int) -> MatchFace:
    where = f"match_counters[{i}]"
    if not isinstance(entry, dict):
        raise _bad(where, "must be a mapping like {image: ..., kind: leaf, icon: oak, "
                          "value: 4}")
    unknown = sorted(set(entry) - {"image", "kind", "icon", "value"})
    if unknown:
        raise _bad(f"{where}.{unknown[0]}", "is not a match counter field (known: image, "
                                            "kind, icon, value)")
    kind = entry.get("kind")
    if kind not in MATCH_KINDS:
        raise _bad(where, f"kind must be creature, fruit or leaf, not {kind!r}")
    try:
        icon = Icon.parse(entry.get("icon"))
    except CompanionError as exc:
        raise _bad(where, str(exc)) from None
    if icon.kind != kind:
        raise _bad(where, f"icon {str(icon)!r} is a {icon.kind}, not a {kind}")
    value = entry.get("value")
    top = 4 if kind == "leaf" else 1
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise _bad(where, f"value must be {'1-4' if top == 4 else '1'} for a {kind} "
                          f"counter, not {value!r}")
    return MatchFace(_image(folder, entry.get("image"), where), entry["image"], kind,
                     str(icon), value)


def counter_side_px(face: GladeFace) -> float:
    """The glade image's pixels per counter diameter (for scaling)."""
    return face.counter


def spacing(face: GladeFace) -> float:
    """The least distance between two spaces (px), which bounds how far a counter is
    looked for round its space."""
    labelled = [p for _, p in face.labelled_spaces()]
    best = math.inf
    for i, (x, y) in enumerate(labelled):
        for u, v in labelled[i + 1:]:
            best = min(best, math.hypot(x - u, y - v))
    return best
