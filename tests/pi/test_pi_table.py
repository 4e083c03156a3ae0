"""Table set-up: the board found (corner markers or outline), its size, sharpness and light."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import calibrate_table, synthetic
from companion.calibration.printables import marker_image
from companion.calibration.table import (
    CORNER_DICTIONARY,
    CORNER_MARGIN_MM,
    CORNER_MARKER_MM,
    assess,
    order_corners,
)

SIZE = (1024, 768)
PPM = 3.0
BOARD_MM = 250.0
AROUND_MM = 45.0  # table around the board on the page


def scene(markers: bool, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A 7x7 board on a dark table (page in mm), optionally with the four corner cut-outs;
    returns the page and the board's corners in page pixels... as millimetres."""
    rng = np.random.default_rng(seed)
    side = round((BOARD_MM + 2 * AROUND_MM) * PPM)
    page = np.full((side, side), 55, np.uint8)
    page = (page + rng.integers(0, 12, page.shape)).astype(np.uint8)  # wood grain, roughly
    b0, b1 = round(AROUND_MM * PPM), round((AROUND_MM + BOARD_MM) * PPM)
    cell = (b1 - b0) / 7
    for r in range(7):
        for c in range(7):
            y0, x0 = b0 + round(r * cell), b0 + round(c * cell)
            page[y0:b0 + round((r + 1) * cell), x0:b0 + round((c + 1) * cell)] = \
                rng.integers(120, 230)
            cv2.circle(page, (x0 + round(cell / 2), y0 + round(cell / 2)), round(cell / 4),
                       int(rng.integers(20, 250)), -1)
    cv2.rectangle(page, (b0, b0), (b1 - 1, b1 - 1), 200, 2)
    if markers:
        m, g = round(CORNER_MARKER_MM * PPM), round(CORNER_MARGIN_MM * PPM)
        cut = m + 2 * g
        for k, (x, y) in enumerate(((b0 - cut, b0 - cut), (b1, b0 - cut), (b1, b1),
                                    (b0 - cut, b1))):
            page[y:y + cut, x:x + cut] = 255
            page[y + g:y + g + m, x + g:x + g + m] = marker_image(k, m, CORNER_DICTIONARY)
    corners_mm = np.array([[AROUND_MM, AROUND_MM], [AROUND_MM + BOARD_MM, AROUND_MM],
                           [AROUND_MM + BOARD_MM] * 2, [AROUND_MM, AROUND_MM + BOARD_MM]])
    return page, corners_mm


def photo(markers: bool, tilt: tuple[float, float, float] = (8, -6, 4), distance: float = 620,
          shift: float = 0.0, **kw: float) -> tuple[np.ndarray, np.ndarray]:
    """The scene photographed from above; returns the photo and the true board corners."""
    camera = synthetic.VirtualCamera(synthetic.pi_camera(SIZE).K, np.zeros(5), SIZE)
    page, corners_mm = scene(markers)
    R = synthetic.rotation(*tilt)
    centre = np.array([page.shape[1] / PPM / 2, page.shape[0] / PPM / 2, 0])
    t = np.array([shift, 0, distance]) - R @ centre
    image = synthetic.render_view(page, PPM, camera, R, t, np.random.default_rng(1),
                                  margin_mm=0, background=50, **kw)
    pts = np.column_stack([corners_mm, np.zeros(4)]).astype(np.float64)
    proj, _ = cv2.projectPoints(pts, cv2.Rodrigues(R)[0], t, camera.K, camera.dist)
    return image, proj.reshape(4, 2)


def _config(tmp_path: Path) -> str:
    path = tmp_path / "c.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\ncamera: {{source: files, path: {tmp_path}}}\n")
    return str(path)


@pytest.mark.parametrize("markers", [True, False])
def test_board_found_and_set_up_good(markers: bool) -> None:
    image, truth = photo(markers)
    result = assess(image)
    assert result.found and result.method == ("markers" if markers else "outline")
    error = np.max(np.linalg.norm(np.array(result.corners) - truth, axis=1))
    assert error < (2.0 if markers else 6.0)
    assert result.ok, result.advice
    assert result.px_per_square > 40 and 0.1 < result.fill < 0.8
    assert all(len(line) <= 21 for line in result.lines())


def test_a_hidden_marker_falls_back_to_the_outline() -> None:
    image, truth = photo(True)
    x, y = truth[3].round().astype(int)  # a hand over the bottom-left marker
    cv2.rectangle(image, (x - 60, y - 5), (x + 5, y + 60), (40, 40, 40), -1)
    assert assess(image).method != "markers"


def test_no_board() -> None:
    result = assess(np.full((600, 800, 3), 60, np.uint8))
    assert not result.found and not result.ok
    assert "corner-markers" in result.advice[0]
    assert result.lines()[0] == "Board not found"


def test_small_board_blur_and_light_are_flagged() -> None:
    far, _ = photo(True, distance=1500)
    assert not assess(far).checks["size"]
    assert "lower the camera" in " ".join(assess(far).advice)

    image, _ = photo(True)
    blurred = cv2.GaussianBlur(image, (0, 0), 4)
    result = assess(blurred)
    assert result.found and not result.checks["sharpness"] and "focus" in result.advice[0]

    dark = (image * 0.25).astype(np.uint8)
    result = assess(dark)
    assert not result.checks["exposure"] and "too dark" in " ".join(result.advice)

    bright = cv2.add(image, np.full_like(image, 120))
    result = assess(bright)
    assert not result.checks["exposure"] and "too bright" in " ".join(result.advice)


def test_board_cut_off_by_the_frame() -> None:
    image, _ = photo(True, shift=250)
    result = assess(image)
    assert not result.ok


def test_order_corners() -> None:
    pts = np.array([[10, 90], [90, 10], [10, 10], [90, 90]])
    assert order_corners(pts).tolist() == [[10, 10], [90, 10], [90, 90], [10, 90]]


def test_calibrate_table_job(tmp_path: Path) -> None:
    image, _ = photo(True)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    overlay = tmp_path / "out" / "overlay.png"
    report = calibrate_table(_config(tmp_path), photo=path, overlay=overlay)
    assert report.data["ok"] and report.data["method"] == "markers"
    assert report.text.startswith("set-up is good")
    drawn = cv2.imread(str(overlay))
    assert drawn is not None and drawn.shape[1] == SIZE[0]
    stored = json.loads((tmp_path / "data" / "calibration" / "table.json").read_text())
    assert stored["corners"] == report.data["corners"]


def test_calibrate_table_from_camera_averages_and_locks(tmp_path: Path) -> None:
    image, _ = photo(True)

    class FakePicamera2:
        def __init__(self) -> None:
            self.controls: list[dict] = []

        def set_controls(self, c: dict) -> None:
            self.controls.append(c)

        def capture_metadata(self) -> dict:
            return {"ExposureTime": 12000, "AnalogueGain": 1.5, "ColourGains": (1.8, 1.5)}

    class Cam:
        name = "fake Pi camera"

        def __init__(self) -> None:
            self._cam = FakePicamera2()
            self.n = 0

        def capture(self) -> np.ndarray:
            self.n += 1
            noise = np.random.default_rng(self.n).normal(0, 3, image.shape)
            return np.clip(image + noise, 0, 255).astype(np.uint8)

        def close(self) -> None:
            pass

    cam = Cam()
    report = calibrate_table(_config(tmp_path), overlay=tmp_path / "o.png", camera=cam)
    assert report.data["averaged_frames"] is True and cam.n == 4
    locked = report.data["exposure_locked"]
    assert locked["AeEnable"] is False and locked["ExposureTime"] == 12000
    assert cam._cam.controls[-1] == locked
    assert "exposure locked" in report.text
    stored = json.loads((tmp_path / "data" / "calibration" / "exposure.json").read_text())
    assert stored == locked


def test_size_check_uses_the_games_own_board(tmp_path: Path) -> None:
    """calibrate table judges the size from the chosen game's board: a 7x7 forest board
    seen small fails it; a 26x26 board (many small squares) fails a board the 7x7 passes;
    a game without a grid of squares leaves the check out."""
    image, _ = photo(True)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    config = tmp_path / "c.yaml"
    config.write_text(Path(_config(tmp_path)).read_text()
                      + "games: {the-glade: {board: {rows: 26, cols: 26, centre: M13}}}\n")
    crowded = calibrate_table(str(config), photo=path, overlay=tmp_path / "o.png")
    assert not crowded.data["checks"]["size"]
    gridless = calibrate_table(str(config), photo=path, overlay=tmp_path / "o.png",
                               game="glass-garden")
    assert gridless.data["checks"]["size"] and gridless.data["ok"]
