"""Enrolment: learn a board and every tile and counter face (all turns) from a pack."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from companion.errors import ModelError
from companion.report import Report
from companion.the_glade.recognition.detail import DETAIL, DETAIL_SMOOTH, detail_face
from companion.the_glade.recognition.glade_model import enrol_glade
from companion.the_glade.recognition.glade_pack import read_glade_pack
from companion.the_glade.recognition.lookalikes import LookAlikes, learn
from companion.the_glade.recognition.model import (
    ANGLES,
    CELL_PX,
    COUNTER_INSET,
    COUNTER_PATCH,
    COUNTER_TURNS,
    FINE,
    SMOOTH,
    TILE_INSET,
    TILE_PATCH,
    BoardModel,
    Model,
    check_out,
    disc_mask,
    save_model,
    template_cell,
)
from companion.the_glade.recognition.pack import Pack, read_pack
from companion.the_glade.recognition.structure import faintest_tiles
from companion.vision.board import BoardFinder, boards_apart
from companion.vision.patches import cut, describe


def tile_side(tile_size: float) -> float:
    return tile_size * CELL_PX


def fine_tile_side(tile_size: float) -> float:
    """A tile's printed face (its side inset by TILE_INSET) in the fine view's pixels: the
    side every tile patch of a scan is cut at."""
    return tile_side(tile_size) * TILE_INSET * FINE


def counter_side(counter_size: float) -> float:
    return counter_size * CELL_PX


def working_board(image: np.ndarray, cell: float) -> np.ndarray:
    s = CELL_PX / cell
    h, w = image.shape[:2]
    return cv2.resize(image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)


def _smooth(image: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(image.astype(np.float32), (0, 0), SMOOTH)


def tile_detail(face: np.ndarray, tile_size: float) -> np.ndarray:
    """The face's detail descriptor at turn 0, for the closer look at close calls."""
    n = max(8, round(tile_side(tile_size) * FINE))
    small = cv2.GaussianBlur(cv2.resize(face, (n, n), interpolation=cv2.INTER_AREA).astype(
        np.float32), (0, 0), DETAIL_SMOOTH)
    return detail_face(small, n * TILE_INSET, 0)


def tile_drawn(face: np.ndarray, tile_size: float) -> np.ndarray:
    """The face at turn 0 at the fine view's size, unsmoothed (BGR uint8): how the pack
    draws it, for rendering look-alike candidates through a photo's blur (drawn_parts.py)."""
    n = max(8, round(tile_side(tile_size) * FINE))
    return cv2.resize(face, (n, n), interpolation=cv2.INTER_AREA)


def tile_descriptors(face: np.ndarray, tile_size: float) -> np.ndarray:
    """Descriptors of a tile face at each of its 4 turns (k quarter turns clockwise), made as
    the scanner makes them from a photo: at fine-view size, smoothed, cut inside the rim."""
    n = max(8, round(tile_side(tile_size) * FINE))
    small = _smooth(cv2.resize(face, (n, n), interpolation=cv2.INTER_AREA))
    patches = [cut(np.ascontiguousarray(np.rot90(small, -k)), (n / 2, n / 2), 0.0,
                   n * TILE_INSET, TILE_PATCH) for k in range(4)]
    return describe(np.stack(patches))


def counter_descriptors(face: np.ndarray, counter_size: float) -> tuple[np.ndarray, np.ndarray]:
    """Descriptors of a counter face at COUNTER_TURNS angles (counters lie any way round):
    by shape and shading (light-flattened, as tiles) and by colour (as photographed, see
    :mod:`counter_colour`)."""
    n = max(8, round(counter_side(counter_size) * FINE))
    small = _smooth(cv2.resize(face, (n, n), interpolation=cv2.INTER_AREA))
    patches = np.stack([cut(small, (n / 2, n / 2), 360.0 * k / COUNTER_TURNS,
                            n * COUNTER_INSET, COUNTER_PATCH) for k in range(COUNTER_TURNS)])
    return (describe(patches, plane=False, where=disc_mask()),
            (patches / 255.0).reshape(len(patches), -1))


def _ring(inner: np.ndarray, ring: int, fill) -> np.ndarray:
    n = inner.shape[0] + 2 * ring
    out = np.empty((n, n, *inner.shape[2:]), np.float32)
    out[:] = fill
    out[ring:ring + inner.shape[0], ring:ring + inner.shape[1]] = inner
    return out


def pose_templates(mean_face: np.ndarray, fill, angles=ANGLES) -> np.ndarray:
    """Templates of a (mean) face on a ring of board, turned by each of ``angles``."""
    ring = 4
    base = _ring(mean_face, ring, fill)
    n = base.shape[0]
    out = [cv2.warpAffine(base, cv2.getRotationMatrix2D((n / 2, n / 2), a, 1.0), (n, n),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
           for a in angles]
    return np.stack(out).astype(np.float32)


def _turned_all_round(face: np.ndarray, side: int, fill) -> np.ndarray:
    """A counter face averaged over all angles (its pose template does not care about
    angle), on the board's colour outside the disc."""
    img = cv2.resize(face, (side, side), interpolation=cv2.INTER_AREA).astype(np.float32)
    turned = np.zeros_like(img)
    for k in range(12):
        m = cv2.getRotationMatrix2D((side / 2, side / 2), 30.0 * k, 1.0)
        turned += cv2.warpAffine(img, m, (side, side), borderMode=cv2.BORDER_REPLICATE)
    turned /= 12
    yy, xx = np.mgrid[0:side, 0:side]
    outside = (xx - side / 2 + 0.5) ** 2 + (yy - side / 2 + 0.5) ** 2 > (side / 2) ** 2
    turned[outside] = fill
    return turned


def build_model(pack: Pack, source: str = "",
                progress: Callable[[str], None] | None = None,
                lookalikes: bool = True) -> Model:
    """Everything a scan needs, learnt from ``pack``; ``progress`` is told how the learning of
    look-alike pairs (the slow part) goes. ``lookalikes=False`` leaves the pairs out (the
    closer look alone judges close calls, as in a model enrolled before pairs were learnt):
    for tests of other parts, which need not pay the pairs' seconds."""
    boards = []
    ring_values = []
    for i, board in enumerate(pack.boards):
        try:
            g = board.grid
            finder = BoardFinder.learn(board.image, (g.left, g.top, g.left + g.cols * g.cell,
                                                     g.top + g.rows * g.cell))
        except ValueError as exc:
            raise ModelError(f"enrolment pack: boards[{i}]: {exc}; photograph the whole board "
                             "in even light") from None
        working = working_board(board.image, board.grid.cell)
        boards.append(BoardModel(board.grid, board.geometry, finder, working))
        ring_values.append(float(cv2.cvtColor(working, cv2.COLOR_BGR2GRAY).mean()))
    fill = float(np.mean(ring_values))
    names, turns, seasons, templates = [], [], [], []
    side = round(tile_side(pack.tile_size))
    mean_face = np.zeros((side, side), np.float32)
    details, drawn = [], []
    for face in pack.tiles:
        details.append(tile_detail(face.image, pack.tile_size))
        drawn.append(tile_drawn(face.image, pack.tile_size))
        for k, vec in enumerate(tile_descriptors(face.image, pack.tile_size)):
            names.append(face.tile)
            turns.append(k)
            seasons.append(face.season)
            templates.append(vec)
        gray = cv2.cvtColor(cv2.resize(face.image, (side, side), interpolation=cv2.INTER_AREA),
                            cv2.COLOR_BGR2GRAY).astype(np.float32)
        for k in range(4):
            mean_face += np.rot90(gray, k)
    mean_face /= 4 * len(pack.tiles)
    counter_names, counter_templates, counter_pose, colours = [], [], [], []
    cside = round(counter_side(pack.counter_size))
    board_colour = np.mean([b.working.reshape(-1, 3).mean(axis=0) for b in boards], axis=0)
    for face in pack.counters:
        shapes, tints = counter_descriptors(face.image, pack.counter_size)
        for vec, tint in zip(shapes, tints, strict=True):
            counter_names.append(face.counter)
            counter_templates.append(vec)
            colours.append(tint)
        counter_pose.append(pose_templates(_turned_all_round(face.image, cside, board_colour),
                                           board_colour, angles=(0.0,))[0])
    dim = 3 * COUNTER_PATCH * COUNTER_PATCH
    tile_templates = np.stack(templates).astype(np.float32)
    model = Model(
        boards=boards, tile_names=names, tile_turns=np.array(turns), tile_seasons=seasons,
        tile_templates=tile_templates,
        tile_pose=pose_templates(mean_face, fill),
        counter_names=counter_names,
        counter_templates=(np.stack(counter_templates).astype(np.float32) if counter_templates
                           else np.zeros((0, dim), np.float32)),
        counter_pose=(np.stack(counter_pose) if counter_pose
                      else np.zeros((0, cside + 8, cside + 8, 3), np.float32)),
        tile_size=pack.tile_size, counter_size=pack.counter_size,
        manifest={"pack": source, "note": pack.note, "sample": bool(pack.extra.get("sample"))},
        tile_detail=(np.stack(details) if details
                     else np.zeros((0, DETAIL, DETAIL, 3), np.float32)),
        counter_colours=(np.stack(colours).astype(np.float32) if colours
                         else np.zeros((0, dim), np.float32)),
        tile_faintest=faintest_tiles(tile_templates, TILE_PATCH,
                                     template_cell(pack.tile_size)),
        boards_apart=boards_apart([b.finder for b in boards], [b.image for b in pack.boards]),
        lookalikes=(learn([f.image for f in pack.tiles], [f.season for f in pack.tiles],
                          tile_side(pack.tile_size) * FINE,
                          fine_tile_side(pack.tile_size), progress,
                          board=np.asarray(board_colour, np.float32)) if lookalikes
                    else LookAlikes.empty()),
        tile_faces=(np.stack(drawn).astype(np.uint8) if drawn
                    else np.zeros((0, 1, 1, 3), np.uint8)))
    return model


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def enrol(pack: Path, *, out: Path, progress: Callable[[str], None] | None = _say,
          lookalikes: bool = True) -> Report:
    """Learn the board(s), tile faces and counter faces of ``pack`` and its look-alike pairs
    (training views rendered from the pack itself, see :mod:`lookalikes`); write a model to
    ``out``. ``progress`` (stderr by default; None: quiet) hears how it goes: learning the
    pairs takes most of the time."""
    start = time.perf_counter()
    data = read_pack(Path(pack))
    glade = read_glade_pack(Path(pack))  # the glade board and stores (issue #25)
    check_out(Path(out))
    if progress is not None:
        progress(f"Learning {len(data.tiles)} tile faces, their look-alikes and "
                 f"{len(data.boards)} board(s) from {pack} ...")
    model = build_model(data, str(pack), progress, lookalikes)
    save_model(model, Path(out))
    glade_note = enrol_glade(data, glade, Path(out))  # issue #25
    seconds = time.perf_counter() - start
    tile_names = sorted(set(model.tile_names))
    counters = sorted(set(model.counter_names))
    boards = [b.geometry.to_dict() for b in model.boards]
    report = {"model": str(out), "boards": boards, "tiles": len(tile_names),
              "tile_faces": len(data.tiles), "counters": counters,
              "seconds": round(seconds, 2), "sample": bool(data.extra.get("sample")),
              "lookalike_pairs": len(model.lookalikes)}
    sizes = ", ".join(f"{b['rows']}x{b['cols']}" for b in boards)
    text = (f"Enrolled {len(data.tiles)} tile faces ({len(tile_names)} tiles, 4 turns each), "
            f"{len(counters)} counter faces and {len(boards)} board(s) ({sizes}) "
            f"in {seconds:.1f} s; {len(model.lookalikes)} look-alike pairs learnt from "
            f"training views of the pack.\nModel written to {out}.")
    if len(tile_names) < 64:
        text += (f"\nNote: only {len(tile_names)} of the 64 tiles are enrolled; others will be "
                 "reported as uncertain or mistaken for enrolled ones.")
    return Report(report, text + glade_note)
