"""The Glade on the simulated table: random forests, sample packs and photos with their truth.

It is the demo's camera and the benchmark's source::

    pack = sample_pack(style=2)
    state = random_forest(np.random.default_rng(5), pack.boards[0].geometry, pack)
    image, truth = render_photo(pack, state, seed=5)

``truth`` has the spec's scan shape (``board``, ``forest``, ``uncertain``) plus ``turns``
(quarter turns clockwise of each tile) and ``seasons``. Random forests ignore the game's set
rules on purpose: recognition must not lean on legality.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from companion.the_glade.names import ALL_TILES, SEASONS, BoardGeometry, Square
from companion.the_glade.recognition.art import SampleArt
from companion.the_glade.recognition.pack import (
    BoardFace,
    CounterFace,
    Grid,
    Pack,
    TileFace,
    square_centre,
)
from companion.vision.sim import (
    FRAME,
    Camera,
    Degradations,
    clutter,
    degrade,
    place,
    scene_to_photo,
    table,
)

SAMPLE_NOTE = ("SAMPLE art drawn by Table Companion's table simulator (style {style}); "
               "not the publisher's art. Make your own pack from photos of your copy.")
PLAYER_COLOURS = ("yellow", "blue", "red", "green")
SOLO_COLOURS = ("purple", "white")


def sample_pack(style: int = 1, boards=((7, 7, "D4"), (8, 8, "D4")), tile_px: int = 96,
                cell: int = 100, counter_colours=PLAYER_COLOURS + SOLO_COLOURS,
                art: SampleArt | None = None) -> Pack:
    """A pack of SAMPLE art in one ``style``: all 128 tile faces, counters and boards; or
    drawn by ``art`` (an art family of :mod:`families`) when given."""
    art = SampleArt(style, tile_px=tile_px, counter_px=64) if art is None else art
    style = art.style
    faces = []
    for rows, cols, centre in boards:
        geometry = BoardGeometry.from_dict({"rows": rows, "cols": cols, "centre": centre})
        margin = int(cell * 1.1)
        image = art.board(rows, cols, cell, margin, (geometry.centre.row, geometry.centre.col))
        faces.append(BoardFace(image, Grid(rows, cols, margin, margin, cell), geometry))
    tiles = [TileFace(art.tile(t, s), str(t), s) for s in SEASONS for t in ALL_TILES]
    counters = [CounterFace(art.counter(f"{c}-{side}"), f"{c}-{side}")
                for c in counter_colours for side in ("single", "double")]
    return Pack(faces, tiles, counters, note=SAMPLE_NOTE.format(style=style),
                extra={"sample": True, "style": style})


def inner(geometry: BoardGeometry, square: Square) -> bool:
    return 0 < square.row < geometry.rows - 1 and 0 < square.col < geometry.cols - 1


def random_forest(rng: np.random.Generator, geometry: BoardGeometry, pack: Pack,
                  fill: float | None = None, counters: float = 0.3) -> dict[str, Any]:
    """A random (not necessarily legal) forest: tiles at all turns, both seasons, empty
    squares, and counters on some empty inner squares."""
    fill = float(rng.uniform(0.25, 0.85)) if fill is None else fill
    names = sorted({f.tile for f in pack.tiles})
    counter_names = [f.counter for f in pack.counters]
    tiles, turns, seasons, placed = {}, {}, {}, {}
    for square in geometry.squares():
        if rng.random() < fill:
            name = names[rng.integers(len(names))]
            tiles[square.name] = name
            turns[square.name] = int(rng.integers(4))
            seasons[square.name] = SEASONS[int(rng.integers(2))]
    for square in geometry.squares():
        if (square.name not in tiles and counter_names and inner(geometry, square)
                and rng.random() < counters):
            placed[square.name] = counter_names[rng.integers(len(counter_names))]
    return {"board": geometry.to_dict(),
            "forest": {"tiles": tiles, "counters": placed},
            "turns": turns, "seasons": seasons}


def _paste(scene: np.ndarray, sprite: np.ndarray, mask: np.ndarray, m: np.ndarray,
           rim: float = 0.0, shadow: float = 0.3) -> None:
    """Paste ``sprite`` into ``scene`` through the 2x3 affine ``m`` with a drop shadow and,
    for wooden pieces, a darker rim (the piece's thickness). Works on a small window only."""
    h, w = scene.shape[:2]
    sh, sw = sprite.shape[:2]
    corners = np.array([[0, 0, 1], [sw, 0, 1], [sw, sh, 1], [0, sh, 1]], float) @ m.T
    x0 = max(int(corners[:, 0].min()) - 12, 0)
    y0 = max(int(corners[:, 1].min()) - 12, 0)
    x1 = min(int(corners[:, 0].max()) + 14, w)
    y1 = min(int(corners[:, 1].max()) + 14, h)
    if x1 <= x0 or y1 <= y0:
        return
    local = m.copy()
    local[:, 2] -= (x0, y0)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(sprite, local, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpAffine(mask, local, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    out = scene[y0:y1, x0:x1].astype(np.float32)
    if shadow:
        soft = np.roll(cv2.GaussianBlur(alpha, (0, 0), 3), (3, 4), axis=(0, 1))
        out *= (1 - shadow * soft)[..., None]
    if rim:
        side = np.roll(alpha, (2, 2), axis=(0, 1))[..., None]
        out = out * (1 - side) + rim * side
    a = alpha[..., None]
    out = out * (1 - a) + warped * a
    scene[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)


def board_scene(pack: Pack, board: BoardFace, state: dict[str, Any],
                rng: np.random.Generator, askew: float = 6.0, offset: float = 0.05
                ) -> np.ndarray:
    """The board seen straight from above with its tiles and counters laid on it."""
    scene = board.image.copy()
    grid = board.grid
    forest = state["forest"]
    turns = state.get("turns", {})
    seasons = state.get("seasons", {})
    rim_colour = 95.0
    for name, tile in forest.get("tiles", {}).items():
        square = Square.parse(name)
        season = seasons.get(name, SEASONS[int(rng.integers(2))])
        try:
            image = pack.tile_image(tile, season)
        except KeyError:
            image = pack.tile_image(tile)
        k = int(turns.get(name, 0)) % 4
        image = np.ascontiguousarray(np.rot90(image, -k))  # k quarter turns clockwise
        cx, cy = square_centre(grid, square)
        cx += rng.uniform(-offset, offset) * grid.cell
        cy += rng.uniform(-offset, offset) * grid.cell
        size = pack.tile_size * grid.cell
        scale = size / image.shape[1]
        m = cv2.getRotationMatrix2D((image.shape[1] / 2, image.shape[0] / 2),
                                    float(rng.uniform(-askew, askew)), scale)
        m[:, 2] += (cx - image.shape[1] / 2, cy - image.shape[0] / 2)
        mask = np.full(image.shape[:2], 255, np.uint8)
        _paste(scene, image, mask, m, rim=rim_colour)
    for name, counter in forest.get("counters", {}).items():
        square = Square.parse(name)
        image = pack.counter_image(counter)
        n = image.shape[0]
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.circle(mask, (n * 8, n * 8), (n // 2 - 1) * 16, 255, -1, cv2.LINE_AA, 4)
        cx, cy = square_centre(grid, square)
        cx += rng.uniform(-offset, offset) * 1.5 * grid.cell
        cy += rng.uniform(-offset, offset) * 1.5 * grid.cell
        scale = pack.counter_size * grid.cell / n
        m = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 360)), scale)
        m[:, 2] += (cx - n / 2, cy - n / 2)
        _paste(scene, image, mask, m, rim=rim_colour * 0.7)
    return scene


def truth_of(state: dict[str, Any]) -> dict[str, Any]:
    """The scan result a perfect recogniser would give for ``state``."""
    forest = state["forest"]
    return {"board": dict(state["board"]),
            "forest": {"tiles": dict(forest.get("tiles", {})),
                       "counters": dict(forest.get("counters", {}))},
            "uncertain": [],
            "turns": dict(state.get("turns", {})),
            "seasons": dict(state.get("seasons", {}))}


def forest_scene(pack: Pack, state: dict[str, Any], rng: np.random.Generator
                 ) -> tuple[dict[str, Any], BoardFace, np.ndarray]:
    """``state`` with each tile's turn and season drawn where it names none, its board, and
    the board image with everything laid on it (before the camera sees it)."""
    geometry = BoardGeometry.from_dict(state["board"])
    board = pack.board_for(geometry.rows, geometry.cols)
    state = dict(state)
    state.setdefault("turns", {s: int(rng.integers(4)) for s in state["forest"]["tiles"]})
    state.setdefault("seasons", {s: SEASONS[int(rng.integers(2))]
                                 for s in state["forest"]["tiles"]})
    return state, board, board_scene(pack, board, state, rng)


def render_photo(pack: Pack, state: dict[str, Any], seed: int, *,
                 spoil: Degradations | None = None, camera: Camera | None = None,
                 fit: bool = True, glare_squares: tuple[str, ...] = (),
                 frame: tuple[int, int] = FRAME) -> tuple[np.ndarray, dict[str, Any]]:
    """A camera photo (BGR) of ``state``'s forest on a cluttered table, and its truth.

    ``glare_squares`` puts strong, saturating glare on those squares (for tests of "not sure").
    The truth also carries ``homography`` (board image to photo, 3x3 list).
    """
    rng = np.random.default_rng(seed)
    spoil = Degradations() if spoil is None else spoil
    state, board, scene = forest_scene(pack, state, rng)
    camera = camera or Camera.random(rng)
    h, w = scene.shape[:2]
    homography = scene_to_photo((w, h), camera, frame, fit=fit)
    photo = table(rng, frame)
    outline = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), homography)[0]
    if spoil.clutter:
        sprites = [pack.tiles[int(i)].image for i in rng.integers(len(pack.tiles), size=6)]
        sprites += [pack.counters[int(i)].image for i in rng.integers(len(pack.counters), size=3)
                    ] if pack.counters else []
        clutter(photo, rng, sprites, keep_clear=outline, count=int(rng.integers(6, 16)))
    place(photo, scene, homography)
    spots = []
    for name in glare_squares:
        cx, cy = square_centre(board.grid, Square.parse(name))
        p = cv2.perspectiveTransform(np.array([[[cx, cy]]], np.float32), homography)[0, 0]
        scale = math.sqrt(abs(np.linalg.det(homography[:2, :2])))
        spots.append((float(p[0]), float(p[1]), board.grid.cell * scale * 0.6))
    photo = degrade(photo, rng, spoil, glare_at=spots)
    truth = truth_of(state)
    truth["homography"] = homography.tolist()
    return photo, truth
