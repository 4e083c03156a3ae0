"""Lens calibration: ChArUco detection on this OpenCV, the fit, storage and undistortion."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import CalibrationError, calibrate_camera, charuco, synthetic
from companion.calibration.lens import (
    CalibratedCamera,
    LensCalibration,
    lens_file,
    load_lens,
    open_calibrated_camera,
    save_lens,
    undistort,
)
from companion.devices.camera import FunctionCamera

SIZE = (800, 600)
PPM = 3.0


@pytest.fixture(scope="module")
def camera() -> synthetic.VirtualCamera:
    return synthetic.pi_camera(SIZE)


@pytest.fixture(scope="module")
def views(camera: synthetic.VirtualCamera) -> list[np.ndarray]:
    page = charuco.board_image(charuco.TARGET, PPM)
    rng = np.random.default_rng(7)
    out = []
    for _ in range(10):
        R, t = synthetic.random_pose(rng, camera, charuco.TARGET.size_mm, fill=(0.45, 0.75))
        out.append(synthetic.render_view(page, PPM, camera, R, t, rng))
    return out


def _config(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "c.yaml"
    path.write_text(f"data_dir: {tmp_path / 'data'}\n{extra}")
    return str(path)


def _close(a: np.ndarray, b: np.ndarray, rel: float) -> bool:
    return bool(np.all(np.abs(a / b - 1) < rel))


def _intrinsics(k: np.ndarray) -> np.ndarray:
    return np.array([k[0, 0], k[1, 1], k[0, 2], k[1, 2]])


def test_target_has_odd_rows_so_every_opencv_draws_it_alike() -> None:
    assert charuco.TARGET.squares_y % 2 == 1
    assert charuco.api() in ("detector", "legacy")


def test_board_image_is_the_printed_size() -> None:
    img = charuco.board_image(charuco.TARGET, 2.0)
    assert img.shape == (490, 350) and img.dtype == np.uint8


def test_detect_finds_inner_corners(views: list[np.ndarray]) -> None:
    found = [charuco.detect(v) for v in views]
    assert sum(d is not None for d in found) >= 8
    det = next(d for d in found if d is not None)
    assert det.kind == "charuco" and det.image.shape == (len(det), 2)
    assert det.object.shape == (len(det), 3) and np.all(det.object[:, 2] == 0)
    assert charuco.detect(np.full((600, 800, 3), 128, np.uint8)) is None


def test_fit_recovers_the_lens(views: list[np.ndarray], camera: synthetic.VirtualCamera) -> None:
    dets = [d for d in (charuco.detect(v) for v in views) if d is not None]
    fit = charuco.calibrate(dets, SIZE)
    assert fit.rms < 0.5
    assert _close(_intrinsics(fit.camera_matrix), _intrinsics(camera.K), 0.01)


def test_marker_corner_fallback_also_calibrates(views: list[np.ndarray],
                                                camera: synthetic.VirtualCamera) -> None:
    """If an OpenCV had markers but no ChArUco corners, marker corners calibrate instead."""
    dets = [d for d in (charuco.detect(v, method="markers-only") for v in views) if d]
    assert dets and dets[0].kind == "markers"
    fit = charuco.calibrate(dets, SIZE)
    assert fit.rms < 1.0  # marker corners are less sharp than chessboard corners
    assert _close(_intrinsics(fit.camera_matrix), _intrinsics(camera.K), 0.02)


def test_too_few_views() -> None:
    with pytest.raises(CalibrationError, match="at least 3"):
        charuco.calibrate([], SIZE)


def test_calibrate_camera_from_a_folder(tmp_path: Path, views: list[np.ndarray],
                                        camera: synthetic.VirtualCamera) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    for k, v in enumerate(views):
        cv2.imwrite(str(photos / f"{k:02}.png"), v)
    cv2.imwrite(str(photos / "zz-blank.png"), np.full((600, 800, 3), 90, np.uint8))
    cv2.imwrite(str(photos / "zz-other-size.png"), np.full((60, 80, 3), 90, np.uint8))
    report = calibrate_camera(_config(tmp_path), photos=photos, frames=20)
    assert report.data["views"] >= 8 and report.data["rms_px"] < 0.5
    reasons = {Path(r["photo"]).name: r["reason"] for r in report.data["rejected"]}
    assert reasons["zz-blank.png"] == "board not found"
    assert "80x60" in reasons["zz-other-size.png"]
    stored = load_lens(tmp_path / "data")
    assert stored is not None and stored.image_size == SIZE
    assert _close(_intrinsics(np.array(stored.camera_matrix)), _intrinsics(camera.K), 0.01)
    assert "reprojection error" in report.text and "saved to" in report.text
    json.loads(lens_file(tmp_path / "data").read_text())  # valid JSON on disk


def test_calibrate_camera_from_the_camera(tmp_path: Path, views: list[np.ndarray]) -> None:
    """Captures: blank frames and repeated views are set aside until enough new views come."""
    blank = np.full((600, 800, 3), 90, np.uint8)
    script = [blank, views[0], views[0], *views[1:]]
    cam = FunctionCamera(lambda n: script[n % len(script)])
    said: list[str] = []
    now = [0.0]
    report = calibrate_camera(_config(tmp_path), frames=6, camera=cam, say=said.append,
                              clock=lambda: now[0],
                              sleep=lambda s: now.__setitem__(0, now[0] + s))
    assert report.data["views"] >= 5
    assert any("board not seen" in s for s in said)
    assert any("same view" in s for s in said)
    assert not cam.closed  # a camera handed in is the caller's to close


def test_calibrate_camera_without_board(tmp_path: Path) -> None:
    blank = np.full((600, 800, 3), 90, np.uint8)
    cam = FunctionCamera(lambda n: blank)
    now = [0.0]
    with pytest.raises(CalibrationError, match=r"found in only 0 of \d+ photos.*charuco-a4"):
        calibrate_camera(_config(tmp_path), frames=5, camera=cam, say=lambda s: None,
                         clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s),
                         timeout=10)


def test_calibrate_camera_refuses_simulator_and_bad_paths(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="simulator"):
        calibrate_camera(_config(tmp_path, "camera: {source: simulator}\n"), frames=5)
    with pytest.raises(CalibrationError, match="does not exist"):
        calibrate_camera(_config(tmp_path), photos=tmp_path / "nope", frames=5)
    with pytest.raises(CalibrationError, match="frames"):
        calibrate_camera(_config(tmp_path), photos=tmp_path, frames=2)


def _lens(camera: synthetic.VirtualCamera) -> LensCalibration:
    return LensCalibration.from_fit(camera.K, camera.dist, camera.size, 0.1, 10)


def test_unwritable_data_dir_is_explained(tmp_path: Path, camera: synthetic.VirtualCamera,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(path: Path, data: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("companion.storage.atomic_write_json", denied)
    with pytest.raises(CalibrationError, match="sudo -u companion"):
        save_lens(tmp_path, _lens(camera))


def test_storage_round_trip_and_bad_files(tmp_path: Path,
                                          camera: synthetic.VirtualCamera) -> None:
    assert load_lens(tmp_path) is None
    lens = _lens(camera)
    save_lens(tmp_path, lens)
    assert load_lens(tmp_path) == lens
    lens_file(tmp_path).write_text("{torn")
    with pytest.raises(CalibrationError, match="calibrate camera"):
        load_lens(tmp_path)
    for bad in ([], {"camera_matrix": [[1, 0]], "dist_coeffs": [0] * 5, "image_size": [8, 8]},
                {"camera_matrix": [[0, 0, 1], [0, 0, 1], [0, 0, 1]], "dist_coeffs": [0] * 5,
                 "image_size": [8, 8]}, {"dist_coeffs": []}):
        with pytest.raises(CalibrationError, match="calibrate camera"):
            LensCalibration.from_dict(bad)


def test_undistort_straightens_the_board(views: list[np.ndarray],
                                         camera: synthetic.VirtualCamera) -> None:
    """After undistortion the board's corners lie on a plane's perspective image again."""
    lens = _lens(camera)

    def planar_error(image: np.ndarray) -> float:
        det = charuco.detect(image)
        assert det is not None
        H, _ = cv2.findHomography(det.object[:, :2], det.image, 0)
        proj = cv2.perspectiveTransform(det.object[:, :2].reshape(-1, 1, 2), H).reshape(-1, 2)
        return float(np.mean(np.linalg.norm(proj - det.image, axis=1)))

    view = views[0]
    before, after = planar_error(view), planar_error(undistort(view, lens))
    assert before > 0.5 and after < 0.3 and after < before / 3, (before, after)
    assert undistort(view, lens).shape == view.shape


def test_scaled_resolution_and_aspect_mismatch(camera: synthetic.VirtualCamera) -> None:
    lens = _lens(camera)
    k2 = lens.matrix_for((SIZE[0] * 2, SIZE[1] * 2))
    assert k2[0, 0] == pytest.approx(camera.K[0, 0] * 2)
    assert k2[0, 2] == pytest.approx(camera.K[0, 2] * 2 + 0.5)
    with pytest.raises(CalibrationError, match="different crop"):
        undistort(np.zeros((720, 1280, 3), np.uint8), lens)


def test_calibrated_camera_wrapper(tmp_path: Path, views: list[np.ndarray],
                                   camera: synthetic.VirtualCamera) -> None:
    photo = tmp_path / "view.png"
    cv2.imwrite(str(photo), views[0])
    settings = {"source": "files", "path": str(photo)}
    assert not isinstance(open_calibrated_camera(settings, tmp_path), CalibratedCamera)
    save_lens(tmp_path, _lens(camera))
    with open_calibrated_camera(settings, tmp_path) as cam:
        assert isinstance(cam, CalibratedCamera) and "lens-corrected" in cam.name
        frame = cam.capture()
        assert cam.last_file == photo  # the wrapped camera's attributes show through
        np.testing.assert_array_equal(frame, undistort(views[0], _lens(camera)))
    assert cam.closed
    sim = open_calibrated_camera({"source": "simulator"}, tmp_path, simulator=lambda n: views[0])
    assert not isinstance(sim, CalibratedCamera)
