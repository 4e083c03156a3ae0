"""The table simulator's "sheet photo": tile faces laid in a rough grid on a plain sheet.

It is the source of the tests of :mod:`companion.the_glade.recognition.sheet` (the helper that
cuts tile photos out of such a photo)::

    pack = sample_pack(style=2)
    faces = [face.image for face in pack.tiles[:24]]
    photo, truth = render_sheet(faces, seed=3, cols=6)

The tiles lie upright in reading order (row by row, left to right), each a little off its grid
place and askew, as a hand lays them; the camera looks down a little tilted and turned, and the
photo is spoilt by uneven light, a soft shadow, blur, noise and JPEG, as in
:func:`companion.the_glade.recognition.sim.render_photo`. The sheet fills the whole photo, as
the helper asks of a user's photo. Everything is drawn from ``seed``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np

from companion.the_glade.recognition.sim import _paste
from companion.vision.sim import FRAME, Camera, Degradations, degrade, place, scene_to_photo

#: Plain sheets that contrast with pale wooden tiles (BGR): dark blue felt, black card, dark
#: green baize, dark grey cloth.
SHEETS: tuple[tuple[int, int, int], ...] = ((70, 42, 28), (30, 30, 32), (42, 72, 38),
                                            (62, 60, 58))

#: The spoilers a sheet photo gets by default: no clutter (the sheet fills the photo) and no
#: glare spot (a matt sheet is asked for).
SHEET_SPOIL = Degradations(glare=False, clutter=False)


def render_sheet(faces: Sequence[np.ndarray], seed: int, *, cols: int | None = None,
                 tile_px: int = 128, gap: float = 0.4, jitter: float = 0.07,
                 askew: float = 5.0, sheet: tuple[int, int, int] | None = None,
                 camera: Camera | None = None, spoil: Degradations | None = None,
                 nudge: Mapping[int, tuple[float, float]] | None = None,
                 frame: tuple[int, int] = FRAME) -> tuple[np.ndarray, dict[str, Any]]:
    """A photo (BGR) of ``faces`` laid upright in reading order on a plain sheet, and its truth.

    ``cols`` tiles to a row (default: a near-square grid); ``gap`` is the space between
    neighbours as a fraction of a tile; ``jitter`` moves each tile off its place by up to that
    fraction of the grid pitch and ``askew`` turns it by up to that many degrees. ``nudge``
    moves chosen tiles (by index) by (dx, dy) grid pitches, e.g. to make two tiles touch.

    The truth holds ``centres`` (each face's centre in the photo, in the order of ``faces``),
    ``angles`` (each tile's own askew, degrees), ``cols``, ``rows``, ``tile_px`` (a tile's
    mean side in the photo) and ``homography`` (sheet scene to photo, 3x3 list).
    """
    if not faces:
        raise ValueError("render_sheet needs at least one face")
    rng = np.random.default_rng(seed)
    n = len(faces)
    cols = cols or max(1, math.ceil(math.sqrt(n * 4 / 3)))
    rows = math.ceil(n / cols)
    pitch = tile_px * (1 + gap)
    margin = pitch * 0.6
    width, height = round(cols * pitch + 2 * margin), round(rows * pitch + 2 * margin)
    colour = SHEETS[int(rng.integers(len(SHEETS)))] if sheet is None else sheet
    scene = np.empty((height, width, 3), np.uint8)
    scene[:] = colour
    centres, angles = [], []
    nudge = nudge or {}
    for i, face in enumerate(faces):
        r, c = divmod(i, cols)
        dx, dy = nudge.get(i, (0.0, 0.0))
        cx = margin + (c + 0.5 + dx) * pitch + rng.uniform(-jitter, jitter) * pitch
        cy = margin + (r + 0.5 + dy) * pitch + rng.uniform(-jitter, jitter) * pitch
        angle = float(rng.uniform(-askew, askew))
        fh, fw = face.shape[:2]
        m = cv2.getRotationMatrix2D((fw / 2, fh / 2), angle, tile_px / fw)
        m[:, 2] += (cx - fw / 2, cy - fh / 2)
        _paste(scene, face, np.full((fh, fw), 255, np.uint8), m, rim=95.0, shadow=0.25)
        centres.append((cx, cy))
        angles.append(angle)
    fw, fh = frame
    if camera is None:  # the tiles fill 80-90 % of the frame's width or height
        scale = float(rng.uniform(0.8, 0.9)) * min(fw / width, fh / height)
        camera = Camera(scale * max(width, height) / fh, float(rng.uniform(-6, 6)),
                        float(rng.uniform(-8, 8)), float(rng.uniform(-8, 8)),
                        (float(rng.uniform(-0.3, 0.3)), float(rng.uniform(-0.3, 0.3))))
    homography = scene_to_photo((width, height), camera, frame, fit=True)
    # the sheet runs on beyond the scene, out of the frame: the same plain colour, no seam
    photo = np.empty((fh, fw, 3), np.uint8)
    photo[:] = colour
    place(photo, scene, homography, shadow=0.0)
    fibre = cv2.resize(rng.normal(0, 2.5, (fh // 3, fw // 3)).astype(np.float32), (fw, fh))
    photo = np.clip(photo.astype(np.float32) + fibre[..., None], 0, 255).astype(np.uint8)
    photo = degrade(photo, rng, SHEET_SPOIL if spoil is None else spoil)
    points = cv2.perspectiveTransform(np.array([centres], np.float32), homography)[0]
    scale = math.sqrt(abs(np.linalg.det(homography[:2, :2])))
    truth = {"centres": [(float(x), float(y)) for x, y in points], "angles": angles,
             "cols": cols, "rows": rows, "tile_px": tile_px * scale,
             "homography": homography.tolist()}
    return photo, truth
