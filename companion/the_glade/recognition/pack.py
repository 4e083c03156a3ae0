"""Enrolment packs: ``pack.yaml`` plus the images it names (format in the spec).

A pack is read whole and checked before anything is learnt from it, so a typo gives one
:class:`~companion.errors.ModelError` naming the entry and what to do, never a traceback.
Two optional fields are added to the spec's format: ``tile_size`` and ``counter_size``, the
width of a tile and of a counter as a fraction of a board square (defaults 0.9 and 0.6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from companion.errors import CompanionError, ModelError
from companion.storage import read_data_file
from companion.the_glade.names import SEASONS, BoardGeometry, Counter, Square, Tile
from companion.vision.pack_files import read_pack_image, write_png

GAME = "the-glade"
DEFAULT_TILE_SIZE = 0.9
DEFAULT_COUNTER_SIZE = 0.6


@dataclass(frozen=True)
class Grid:
    """Where the squares lie in a board image: top-left corner and square size, in pixels."""

    rows: int
    cols: int
    left: float
    top: float
    cell: float

    def to_dict(self) -> dict[str, Any]:
        return {"rows": self.rows, "cols": self.cols, "left": self.left, "top": self.top,
                "cell": self.cell}


@dataclass
class BoardFace:
    image: np.ndarray
    grid: Grid
    geometry: BoardGeometry
    file: str = "board.png"


@dataclass
class TileFace:
    image: np.ndarray
    tile: str
    season: str
    file: str = ""


@dataclass
class CounterFace:
    image: np.ndarray
    counter: str
    file: str = ""


@dataclass
class Pack:
    """Everything a pack holds, images loaded (BGR)."""

    boards: list[BoardFace]
    tiles: list[TileFace]
    counters: list[CounterFace]
    tile_size: float = DEFAULT_TILE_SIZE
    counter_size: float = DEFAULT_COUNTER_SIZE
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def tile_image(self, name: str, season: str | None = None) -> np.ndarray:
        for face in self.tiles:
            if face.tile == name and (season is None or face.season == season):
                return face.image
        raise KeyError(f"{name} ({season})")

    def counter_image(self, name: str) -> np.ndarray:
        for face in self.counters:
            if face.counter == name:
                return face.image
        raise KeyError(name)

    def board_for(self, rows: int, cols: int) -> BoardFace:
        for board in self.boards:
            if board.grid.rows == rows and board.grid.cols == cols:
                return board
        raise KeyError(f"{rows}x{cols}")


def _bad(where: str, problem: str) -> ModelError:
    return ModelError(f"enrolment pack: {where}: {problem}; fix pack.yaml (see the spec's "
                      "'Enrolment pack' section) and enrol again")


def _image(folder: Path, entry: dict, where: str) -> np.ndarray:
    return read_pack_image(folder, entry.get("image"), where, _bad)


def _number(value: Any, where: str, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise _bad(where, f"grid.{key} must be a number of pixels, not {value!r}")
    return float(value)


def read_pack(folder: Path) -> Pack:
    """Read and check a pack folder (or a path to its pack.yaml)."""
    folder = Path(folder)
    if folder.is_file():
        folder = folder.parent
    spec = folder / "pack.yaml"
    if not spec.is_file():
        raise ModelError(f"{folder} is not an enrolment pack (no pack.yaml in it); point "
                         "'companion enrol' at the folder that holds pack.yaml")
    try:  # the bounded reader: a huge or hostile pack.yaml is refused cheaply
        data = read_data_file(spec, "enrolment pack file", error=ModelError)
    except ModelError as exc:
        raise ModelError(f"{exc}; fix the file and enrol again") from None
    if not isinstance(data, dict):
        raise _bad("pack.yaml", "must be a mapping with game, boards, tiles and counters")
    if data.get("game") != GAME:
        raise _bad("game", f"is {data.get('game')!r}, but this is The Glade ({GAME!r})")
    boards = [_board(folder, e, i) for i, e in enumerate(_list(data, "boards", required=True))]
    tiles = [_tile(folder, e, i) for i, e in enumerate(_list(data, "tiles", required=True))]
    counters = [_counter(folder, e, i) for i, e in enumerate(_list(data, "counters"))]
    sizes = {}
    for key, default in (("tile_size", DEFAULT_TILE_SIZE),
                         ("counter_size", DEFAULT_COUNTER_SIZE)):
        value = data.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.2 <= value <= 1:
            raise _bad(key, f"must be a fraction of a square between 0.2 and 1, not {value!r}")
        sizes[key] = float(value)
    known = {"game", "boards", "tiles", "counters", "tile_size", "counter_size", "note"}
    return Pack(boards, tiles, counters, sizes["tile_size"], sizes["counter_size"],
                str(data.get("note", "")), {k: v for k, v in data.items() if k not in known})


def _list(data: dict, key: str, required: bool = False) -> list[dict]:
    value = data.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or not value:
        raise _bad(key, "must be a non-empty list")
    for i, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise _bad(f"{key}[{i}]", "must be a mapping like {image: ..., ...}")
    return value


def _board(folder: Path, entry: dict, i: int) -> BoardFace:
    where = f"boards[{i}]"
    grid = entry.get("grid")
    if not isinstance(grid, dict):
        raise _bad(where, "needs grid: {rows, cols, left, top, cell}")
    for key in ("rows", "cols", "left", "top", "cell"):
        if key not in grid:
            raise _bad(where, f"grid is missing {key!r}")
    rows, cols = grid["rows"], grid["cols"]
    for key, value in (("rows", rows), ("cols", cols)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 26:
            raise _bad(where, f"grid.{key} must be a whole number 1-26, not {value!r}")
    left, top = _number(grid["left"], where, "left"), _number(grid["top"], where, "top")
    cell = _number(grid["cell"], where, "cell")
    if cell < 16:
        raise _bad(where, f"grid.cell {cell:g} px is too small (at least 16 px per square)")
    try:
        geometry = BoardGeometry.from_dict({"rows": rows, "cols": cols,
                                            "centre": entry.get("centre")})
    except CompanionError as exc:
        raise _bad(where, str(exc)) from None
    image = _image(folder, entry, where)
    h, w = image.shape[:2]
    if left + cols * cell > w + 1 or top + rows * cell > h + 1:
        raise _bad(where, f"grid ({cols}x{rows} squares of {cell:g} px at {left:g},{top:g}) "
                          f"runs off the {w}x{h} image {entry['image']!r}")
    return BoardFace(image, Grid(rows, cols, left, top, cell), geometry, entry["image"])


def _tile(folder: Path, entry: dict, i: int) -> TileFace:
    where = f"tiles[{i}]"
    try:
        name = str(Tile.parse(entry.get("tile")))
    except CompanionError as exc:
        raise _bad(where, str(exc)) from None
    season = entry.get("season", "spring")
    if season not in SEASONS:
        raise _bad(where, f"season must be spring or summer, not {season!r}")
    return TileFace(_image(folder, entry, where), name, season, entry["image"])


def _counter(folder: Path, entry: dict, i: int) -> CounterFace:
    where = f"counters[{i}]"
    try:
        name = str(Counter.parse(entry.get("counter")))
    except CompanionError as exc:
        raise _bad(where, str(exc)) from None
    return CounterFace(_image(folder, entry, where), name, entry["image"])


def write_pack(pack: Pack, folder: Path) -> Path:
    """Write ``pack`` as pack.yaml plus PNG images into ``folder`` (made if needed)."""
    folder = Path(folder)
    (folder / "tiles").mkdir(parents=True, exist_ok=True)
    (folder / "counters").mkdir(parents=True, exist_ok=True)
    boards, tiles, counters = [], [], []
    for i, board in enumerate(pack.boards):
        name = "board.png" if len(pack.boards) == 1 else (
            f"board-{board.grid.rows}x{board.grid.cols}.png")
        write_png(folder / name, board.image)
        boards.append({"image": name, "grid": board.grid.to_dict(),
                       "centre": board.geometry.centre.name})
        del i
    for i, face in enumerate(pack.tiles, 1):
        name = f"tiles/{i:04d}.png"
        write_png(folder / name, face.image)
        tiles.append({"image": name, "tile": face.tile, "season": face.season})
    for face in pack.counters:
        name = f"counters/{face.counter}.png"
        write_png(folder / name, face.image)
        counters.append({"image": name, "counter": face.counter})
    data: dict[str, Any] = {"game": GAME}
    if pack.note:
        data["note"] = pack.note
    data.update(pack.extra)
    data.update({"tile_size": pack.tile_size, "counter_size": pack.counter_size,
                 "boards": boards, "tiles": tiles, "counters": counters})
    text = yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100)
    (folder / "pack.yaml").write_text(text, encoding="utf-8")
    return folder




def square_centre(grid: Grid, square: Square) -> tuple[float, float]:
    """The centre of ``square`` in board-image pixels."""
    return (grid.left + (square.col + 0.5) * grid.cell, grid.top + (square.row + 0.5) * grid.cell)
