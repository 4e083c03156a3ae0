"""The recognition model folder: what enrolment learnt, in a versioned format.

A model folder holds ``manifest.json`` (game, format version, what was learnt, from which
pack) and ``model.npz`` (board features and component templates). :func:`load_model` refuses a
folder of another game or format version with a message saying to enrol again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import ModelError
from companion.storage import read_data_file
from companion.the_glade.names import BoardGeometry
from companion.the_glade.recognition.detail import DETAIL
from companion.the_glade.recognition.lookalikes import LookAlikes
from companion.the_glade.recognition.pack import GAME, Grid
from companion.vision.board import BoardFinder

FORMAT = "the-glade-recognition"
VERSION = 2  # 2: detail faces for close calls, counters by colour

#: Working resolution: rectified boards have this many pixels per square.
CELL_PX = 48
#: Patches are cut from a view FINE times sharper than the working view.
FINE = 2
#: Side of a tile descriptor patch, and the share of the tile's side it covers.
TILE_PATCH = 32
TILE_INSET = 0.86
#: Patches are smoothed (sigma in fine-view pixels) before cutting, against aliasing.
SMOOTH = 1.0
#: Side of a counter descriptor patch, the share of the disc's diameter it covers, and how
#: many turns of each counter face are stored (counters lie at any angle).
COUNTER_PATCH = 20
COUNTER_INSET = 0.94
COUNTER_TURNS = 24


def disc_mask(size: int = COUNTER_PATCH) -> np.ndarray:
    """The pixels of a counter patch on the disc (the corners show the board)."""
    yy, xx = np.mgrid[0:size, 0:size] + 0.5 - size / 2
    return (xx ** 2 + yy ** 2 <= (size / 2) ** 2).ravel()


def template_cell(tile_size: float) -> float:
    """Pixels a board square in tile templates (a template spans TILE_INSET of a tile,
    which spans ``tile_size`` of a square)."""
    return TILE_PATCH / (TILE_INSET * tile_size)


#: Tile askew angles tried when placing a tile in its square (degrees).
ANGLES = (-8.0, -4.0, 0.0, 4.0, 8.0)


@dataclass
class BoardModel:
    grid: Grid
    geometry: BoardGeometry
    finder: BoardFinder
    working: np.ndarray       # the empty board at CELL_PX per square (BGR uint8)


@dataclass
class Model:
    """Everything a scan needs."""

    boards: list[BoardModel]
    tile_names: list[str]          # one per tile template
    tile_turns: np.ndarray         # quarter turns clockwise of each template
    tile_seasons: list[str]
    tile_templates: np.ndarray     # (n, TILE_PATCH*TILE_PATCH*3) float32
    tile_pose: np.ndarray          # gray mean tile with a ring of board (float32)
    counter_names: list[str]
    counter_templates: np.ndarray  # (n, COUNTER_PATCH**2*3) float32
    counter_pose: np.ndarray
    tile_size: float
    counter_size: float
    manifest: dict[str, Any]
    #: every tile face at turn 0 as a detail descriptor (faces, DETAIL, DETAIL, 3); template
    #: ``j`` shows face ``j // 4`` at turn ``tile_turns[j]``
    tile_detail: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1, 3), np.float32))
    #: counter faces as photographed (0..1), one per counter template, to compare colours
    #: under the photo's light (recognition/counter_colour.py)
    counter_colours: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))
    #: the indexes of the tile templates with the least fine structure (structure.py); kept
    #: since format 2 was first written, so a model without them still loads (the scanner
    #: then works them out at its first scan)
    tile_faintest: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32))
    #: no board's features find it in another's image (vision.board.boards_apart), so a scan
    #: stops at the first board it finds; False for a model enrolled before this was kept
    boards_apart: bool = False
    #: the pack's look-alike pairs as enrolment learnt them (recognition/lookalikes.py);
    #: empty for a model enrolled before they were learnt (the closer look alone then judges)
    lookalikes: LookAlikes = field(default_factory=LookAlikes.empty)
    #: every tile face at turn 0 as the pack draws it, at the fine view's size (faces, n, n,
    #: 3; BGR uint8, unsmoothed): look-alike doubts are settled by rendering the candidates
    #: through the photo's own blur (recognition/drawn_parts.py); empty for a model enrolled
    #: before they were kept (that step is then skipped)
    tile_faces: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1, 3), np.uint8))


def check_out(out: Path) -> None:
    """Refuse an ``out`` that is a file or a folder holding other files (before a minute's
    enrolment, not after)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ModelError(f"{out} is a file; give --out a folder name for the model")
    if out.is_dir() and any(out.iterdir()) and not (out / "manifest.json").is_file():
        raise ModelError(f"{out} is a folder that holds other files; give --out a new or empty "
                         "folder (or an old model folder to replace)")


def save_model(model: Model, out: Path) -> None:
    out = Path(out)
    check_out(out)
    out.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    for i, board in enumerate(model.boards):
        arrays.update(board.finder.to_arrays(f"b{i}_"))
        arrays[f"b{i}_working"] = board.working
    arrays.update(tile_turns=model.tile_turns.astype(np.int8),
                  tile_templates=model.tile_templates.astype(np.float16),
                  tile_pose=model.tile_pose.astype(np.float32),
                  counter_templates=model.counter_templates.astype(np.float16),
                  counter_pose=model.counter_pose.astype(np.float32),
                  tile_detail=model.tile_detail.astype(np.float16),
                  counter_colours=model.counter_colours.astype(np.float16),
                  tile_faintest=model.tile_faintest.astype(np.int32))
    arrays.update(model.lookalikes.to_arrays())
    if len(model.tile_faces):
        arrays["tile_faces"] = model.tile_faces.astype(np.uint8)
    # uncompressed: 10 MB rather than 4, but read in a tenth of the time, and every
    # 'companion scan' reads it afresh
    with open(out / "model.npz", "wb") as fh:
        np.savez(fh, **arrays)
    manifest = dict(model.manifest)
    manifest.update({
        "game": GAME, "format": FORMAT, "version": VERSION,
        "boards": [{"grid": b.grid.to_dict(), "board": b.geometry.to_dict()}
                   for b in model.boards],
        "tile_names": model.tile_names, "tile_seasons": model.tile_seasons,
        "counter_names": model.counter_names, "boards_apart": model.boards_apart,
        "lookalike_pairs": len(model.lookalikes),
        "tile_size": model.tile_size, "counter_size": model.counter_size,
        "params": {"cell_px": CELL_PX, "tile_patch": TILE_PATCH, "tile_inset": TILE_INSET,
                   "counter_patch": COUNTER_PATCH, "counter_inset": COUNTER_INSET,
                   "counter_turns": COUNTER_TURNS, "detail": DETAIL},
    })
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def _again(folder: Path, problem: str) -> ModelError:
    return ModelError(f"model folder {folder}: {problem}; make it again with "
                      "'companion enrol the-glade PACK --out MODEL'")


def load_model(folder: Path) -> Model:
    folder = Path(folder)
    if not folder.is_dir():
        raise ModelError(f"model folder {folder} does not exist; make one with "
                         "'companion enrol the-glade PACK --out MODEL'")
    path = folder / "manifest.json"
    if not path.is_file():
        raise _again(folder, "no manifest.json, so it is not a recognition model")
    try:  # the bounded reader: a huge or hostile manifest is refused cheaply
        manifest = read_data_file(path, "model manifest", error=ModelError)
    except ModelError:
        raise _again(folder, "manifest.json is corrupt") from None
    if not isinstance(manifest, dict):
        raise _again(folder, "manifest.json is corrupt")
    if manifest.get("game") != GAME:
        raise ModelError(f"model folder {folder} is for the game {manifest.get('game')!r}, "
                         f"not The Glade; use a model made by 'companion enrol the-glade'")
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise _again(folder, f"it is in format {manifest.get('format')!r} version "
                             f"{manifest.get('version')!r}, but this companion reads {FORMAT!r} "
                             f"version {VERSION}")
    params = manifest.get("params", {})
    if (params.get("cell_px") != CELL_PX or params.get("tile_patch") != TILE_PATCH
            or params.get("detail") != DETAIL):
        raise _again(folder, "it was made with other recognition settings")
    try:
        with np.load(folder / "model.npz") as z:
            arrays = {k: z[k] for k in z.files}
        boards = []
        for i, b in enumerate(manifest["boards"]):
            g = b["grid"]
            boards.append(BoardModel(Grid(g["rows"], g["cols"], g["left"], g["top"], g["cell"]),
                                     BoardGeometry.from_dict(b["board"]),
                                     BoardFinder.from_arrays(arrays, f"b{i}_"),
                                     arrays[f"b{i}_working"]))
        apart = manifest.get("boards_apart", False)
        if not isinstance(apart, bool):
            raise ValueError(f"boards_apart is {apart!r}, not true or false")
        faintest = arrays.get("tile_faintest", np.zeros(0, np.int32)).astype(np.int32)
        if len(faintest) and not (faintest.min() >= 0 and faintest.max()
                                  < len(arrays["tile_templates"])):
            raise ValueError("tile_faintest names tile templates it does not hold")
        pairs = LookAlikes.from_arrays(arrays, len(arrays["tile_detail"]))
        drawn = arrays.get("tile_faces", np.zeros((0, 1, 1, 3), np.uint8))
        if len(drawn) and (drawn.ndim != 4 or len(drawn) != len(arrays["tile_detail"])
                           or drawn.shape[3] != 3 or drawn.shape[1] != drawn.shape[2]):
            raise ValueError("tile_faces do not fit the tile faces")
        return Model(boards, list(manifest["tile_names"]), arrays["tile_turns"].astype(int),
                     list(manifest["tile_seasons"]),
                     arrays["tile_templates"].astype(np.float32), arrays["tile_pose"],
                     list(manifest["counter_names"]),
                     arrays["counter_templates"].astype(np.float32), arrays["counter_pose"],
                     float(manifest["tile_size"]), float(manifest["counter_size"]), manifest,
                     arrays["tile_detail"].astype(np.float32),
                     arrays["counter_colours"].astype(np.float32), faintest, apart, pairs,
                     drawn.astype(np.uint8))
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise _again(folder, f"model.npz is missing or damaged ({exc})") from None
