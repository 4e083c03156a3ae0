"""Steady captures: still frames averaged, exposure and white balance locked; printables."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.calibration import CalibrationError, charuco
from companion.calibration.capture import (
    apply_locked,
    average_still,
    capture_still,
    load_exposure,
    locked_controls,
    picamera2_of,
    save_exposure,
    settle_and_lock,
)
from companion.calibration.lens import CalibratedCamera, LensCalibration
from companion.calibration.printables import PAPERS_MM, charuco_page, corner_markers_page
from companion.calibration.table import CORNER_DICTIONARY

ROOT = Path(__file__).resolve().parents[2]


def _scene(rng: np.random.Generator) -> np.ndarray:
    base = np.zeros((240, 320, 3), np.uint8)
    base[60:180, 80:240] = (200, 150, 90)
    return base


def test_still_frames_are_averaged_and_noise_falls() -> None:
    rng = np.random.default_rng(0)
    clean = _scene(rng).astype(np.float32) + 20
    frames = [np.clip(clean + rng.normal(0, 8, clean.shape), 0, 255).astype(np.uint8)
              for _ in range(8)]
    image, averaged = average_still(frames)
    assert averaged and image.dtype == np.uint8 and image.shape == clean.shape
    single = np.std(frames[0].astype(np.float32) - clean)
    mean = np.std(image.astype(np.float32) - clean)
    assert mean < single / 2.5  # about sqrt(8) = 2.8 times less noise


def test_moving_scene_keeps_the_newest_frame() -> None:
    rng = np.random.default_rng(1)
    frames = [_scene(rng) for _ in range(3)]
    frames[1] = frames[1].copy()
    frames[1][0:120, 0:160] = 255  # a hand over the board
    image, averaged = average_still(frames)
    assert not averaged and image is frames[-1]
    assert average_still(frames[:1]) == (frames[0], False)
    with pytest.raises(ValueError):
        average_still([])


def test_capture_still_from_a_camera() -> None:
    class Cam:
        def capture(self) -> np.ndarray:
            return np.full((120, 160, 3), 100, np.uint8)

    image, averaged = capture_still(Cam(), 3)
    assert averaged and int(image[0, 0, 0]) == 100


class FakePicamera2:
    def __init__(self, metadata: dict) -> None:
        self.metadata = metadata
        self.controls: list[dict] = []
        self.reads = 0

    def capture_metadata(self) -> dict:
        self.reads += 1
        return self.metadata

    def set_controls(self, controls: dict) -> None:
        self.controls.append(controls)


def test_settle_and_lock_freezes_the_settled_values(tmp_path: Path) -> None:
    cam = FakePicamera2({"ExposureTime": 20000, "AnalogueGain": 2.0,
                         "ColourGains": (2.1, 1.4), "Lux": 250.0})
    controls = settle_and_lock(cam, settle_frames=5, sleep=lambda s: None)
    assert cam.reads == 5
    assert cam.controls[0] == {"AeEnable": True, "AwbEnable": True}
    assert cam.controls[-1] == controls == {"AeEnable": False, "AwbEnable": False,
                                            "ExposureTime": 20000, "AnalogueGain": 2.0,
                                            "ColourGains": [2.1, 1.4]}
    save_exposure(tmp_path, controls)
    assert load_exposure(tmp_path) == controls
    apply_locked(cam, controls)
    assert cam.controls[-1]["ColourGains"] == (2.1, 1.4)  # picamera2 wants a tuple
    assert load_exposure(tmp_path / "none") is None


def test_lock_needs_a_pi_camera() -> None:
    with pytest.raises(CalibrationError, match="picamera2"):
        locked_controls({"Lux": 3})


def test_picamera2_found_through_wrappers() -> None:
    inner = FakePicamera2({})

    class PiCam:
        name = "Pi camera"

        def __init__(self) -> None:
            self._cam = inner

    lens = LensCalibration(((1.0, 0, 0), (0, 1.0, 0), (0, 0, 1.0)), (0,) * 5, (4, 3))
    assert picamera2_of(PiCam()) is inner
    assert picamera2_of(CalibratedCamera(PiCam(), lens)) is inner  # type: ignore[arg-type]
    assert picamera2_of(object()) is None


# -- printables -----------------------------------------------------------------------------
@pytest.mark.parametrize("paper", sorted(PAPERS_MM))
def test_committed_pdfs_are_the_right_paper(paper: str) -> None:
    for name in ("charuco", "corner-markers"):
        pdf = (ROOT / "calibration" / f"{name}-{paper}.pdf").read_bytes()
        box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
        assert box, name
        w_mm, h_mm = (float(v) * 25.4 / 72 for v in box.groups())
        assert (w_mm, h_mm) == pytest.approx(PAPERS_MM[paper], abs=0.5)


def _small(page: Image.Image, factor: int = 3) -> np.ndarray:
    grey = page.convert("L")
    return np.array(grey.resize((grey.width // factor, grey.height // factor)))


def test_printed_board_is_found_whole() -> None:
    det = charuco.detect(_small(charuco_page("letter")))
    assert det is not None and len(det) == charuco.TARGET.inner_corners


def test_corner_markers_page_has_ids_0_to_3() -> None:
    _, ids = charuco.detect_markers(_small(corner_markers_page("a4")), CORNER_DICTIONARY)
    assert sorted(ids.tolist()) == [0, 1, 2, 3]


def test_every_printable_a_message_names_is_one_that_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    from companion.calibration import calibrate_camera, calibrate_table, printables

    # the names write_all gives its files (the pages themselves are tested above)
    monkeypatch.setattr(printables, "write_pdf", lambda image, path: path)
    monkeypatch.setattr(printables, "charuco_page", lambda paper: None)
    monkeypatch.setattr(printables, "corner_markers_page", lambda paper: None)
    made = {path.name for path in printables.write_all(tmp_path / "out")}
    assert made == set(printables.file_names())
    assert made <= {path.name for path in (ROOT / "calibration").iterdir()}  # committed
    # the messages: no board on the table, too few views of the lens board
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "blank.png"), np.full((600, 800, 3), 60, np.uint8))
    report = calibrate_table(str(config), photo=photos / "blank.png",
                             overlay=tmp_path / "overlay.png")
    assert not report.data["found"]
    with pytest.raises(CalibrationError) as too_few:
        calibrate_camera(str(config), photos=photos, frames=5)
    messages = [report.text, *report.data["advice"], str(too_few.value)]
    mentioned = re.findall(r"[\w./-]+\.pdf", " ".join(messages))
    assert {"calibration/corner-markers-a4.pdf", "corner-markers-letter.pdf",
            "calibration/charuco-a4.pdf", "charuco-letter.pdf"} <= set(mentioned)
    for name in mentioned:
        assert Path(name).name in made, name
        assert (ROOT / "calibration" / Path(name).name).exists(), name
    assert printables.real_names("calibration/charuco-a4.pdf") == "calibration/charuco-a4.pdf"


def test_open_calibrated_camera_applies_the_locked_exposure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inner = FakePicamera2({})

    class PiCam:
        name = "Pi camera"
        closed = False

        def __init__(self) -> None:
            self._cam = inner

        def capture(self) -> np.ndarray:
            return np.zeros((3, 4, 3), np.uint8)

        def close(self) -> None:
            self.closed = True

    monkeypatch.setattr("companion.devices.camera.open_camera", lambda s, sim=None: PiCam())
    from companion.calibration.lens import open_calibrated_camera, save_lens

    controls = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 9000,
                "AnalogueGain": 1.0, "ColourGains": [2.0, 1.5]}
    save_exposure(tmp_path, controls)
    camera = open_calibrated_camera({"source": "picamera2"}, tmp_path)
    assert inner.controls[-1]["ExposureTime"] == 9000
    assert not isinstance(camera, CalibratedCamera)  # no lens calibration yet
    save_lens(tmp_path, LensCalibration(((1.0, 0, 1.5), (0, 1.0, 1.0), (0, 0, 1.0)), (0,) * 5,
                                        (4, 3)))
    assert isinstance(open_calibrated_camera({"source": "picamera2"}, tmp_path),
                      CalibratedCamera)
    (tmp_path / "calibration" / "exposure.json").write_text("{torn")
    with pytest.raises(CalibrationError, match="calibrate table"):
        open_calibrated_camera({"source": "picamera2"}, tmp_path)
