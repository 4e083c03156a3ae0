"""``companion calibrate camera`` and ``companion calibrate table``: the jobs behind the CLI.

Each takes the configuration file (None for the usual search), gathers photos from a folder or
the configured camera, and returns a :class:`~companion.report.Report`. What a user can fix
(no board in view, a blurred photo, a data folder they may not write) is a
:class:`CalibrationError` naming the problem and what to do.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.calibration.errors import CalibrationError
from companion.report import Report

if TYPE_CHECKING:
    import numpy as np

    from companion.calibration.charuco import Detection

MAX_RMS = 1.0          # px: a worse fit means bad photos (a bent board, motion blur)
GOOD_RMS = 0.5
MIN_VIEWS = 5


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _photo_files(photos: Path) -> list[Path]:
    from companion.devices.camera import IMAGE_SUFFIXES

    photos = Path(photos).expanduser()
    if photos.is_file():
        return [photos]
    if not photos.is_dir():
        raise CalibrationError(f"{photos} does not exist; give a folder of photos of the "
                               "calibration board")
    files = sorted(p for p in photos.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise CalibrationError(f"{photos} holds no photos ({', '.join(IMAGE_SUFFIXES)})")
    return files


def _is_new_view(det: Detection, kept: list[Detection], diagonal: float) -> bool:
    """A view adds information when the board moved, turned or tilted since every kept view."""
    import numpy as np

    for other in kept:
        common, a, b = np.intersect1d(det.ids, other.ids, return_indices=True)
        if len(common) < 0.5 * min(len(det), len(other)):
            continue
        shift = float(np.mean(np.linalg.norm(det.image[a] - other.image[b], axis=1)))
        if shift < 0.04 * diagonal:
            return False
    return True


def _open_raw_camera(config: Any) -> Any:
    from companion.devices.camera import open_camera

    if config["camera.source"] == "simulator":
        raise CalibrationError("camera.source is simulator, which has no lens to calibrate; "
                               "give --photos FOLDER or set camera.source")
    return open_camera(config["camera"])


def _capture_views(camera: Any, frames: int, say: Callable[[str], None],
                   clock: Callable[[], float], sleep: Callable[[float], None],
                   interval: float, timeout: float,
                   ) -> tuple[list[Detection], tuple[int, int], int]:
    from companion.calibration.charuco import detect

    kept: list[Detection] = []
    size: tuple[int, int] | None = None
    seen = 0
    say(f"hold the printed board under the camera; move and tilt it between views "
        f"({frames} views wanted)")
    deadline = clock() + timeout
    while len(kept) < frames and clock() < deadline:
        image = camera.capture()
        seen += 1
        h, w = image.shape[:2]
        size = size or (w, h)
        det = detect(image)
        if det is None:
            say("  board not seen: show the whole board, flat and in focus")
        elif not _is_new_view(det, kept, (w * w + h * h) ** 0.5):
            say("  same view as before: move or tilt the board")
        else:
            kept.append(det)
            say(f"  view {len(kept)}/{frames}: {len(det)} corners")
        if len(kept) < frames:
            sleep(interval)
    if size is None:
        raise CalibrationError("the camera gave no picture; run 'companion doctor'")
    return kept, size, seen


def calibrate_camera(config_file: str | None, *, photos: Path | None = None, frames: int = 20,
                     camera: Any = None, say: Callable[[str], None] = _say,
                     clock: Callable[[], float] = time.monotonic,
                     sleep: Callable[[float], None] = time.sleep, interval: float = 1.0,
                     timeout: float | None = None) -> Report:
    """Fit the lens from photos of the printed ChArUco board and store it in the data folder.

    ``photos`` is a folder (or one photo) taken at the camera's resolution; without it,
    ``frames`` views are captured from the configured camera (or ``camera``), one about every
    ``interval`` seconds, keeping only views that differ from those already kept.
    """
    from companion.calibration.charuco import TARGET, calibrate, detect
    from companion.calibration.lens import LensCalibration, save_lens
    from companion.config import load_config
    from companion.devices.camera import read_image

    config = load_config(config_file)
    if frames < MIN_VIEWS:
        raise CalibrationError(f"--frames must be {MIN_VIEWS} or more (15 to 25 is best)")
    rejected: list[dict[str, str]] = []
    if photos is not None:
        views: list[Detection] = []
        size: tuple[int, int] | None = None
        for path in _photo_files(photos):
            image = read_image(path)
            h, w = image.shape[:2]
            if size is not None and (w, h) != size:
                rejected.append({"photo": str(path), "reason": f"{w}x{h}, not {size[0]}x"
                                 f"{size[1]} like the first photo"})
                continue
            size = size or (w, h)
            det = detect(image)
            if det is None:
                rejected.append({"photo": str(path), "reason": "board not found"})
                continue
            views.append(det)
        seen = len(views) + len(rejected)
    else:
        own = camera is None
        camera = _open_raw_camera(config) if own else camera
        try:
            views, size, seen = _capture_views(
                camera, frames, say, clock, sleep, interval,
                timeout if timeout is not None else 30 + frames * interval * 4)
        finally:
            if own:
                camera.close()
    if len(views) < MIN_VIEWS:
        from companion.calibration.printables import named

        raise CalibrationError(
            f"the board was found in only {len(views)} of {seen} photos ({MIN_VIEWS} needed): "
            f"print {named('charuco')} at 100% scale, lay it flat, and show it whole, sharp "
            "and well lit from different angles")
    assert size is not None
    fit = calibrate(views, size)
    if len(views) > MIN_VIEWS:  # drop views far worse than the rest (a bent sheet, a blur)
        import numpy as np

        limit = max(3 * float(np.median(fit.per_view)), 0.3)
        keep = [v for v, e in zip(views, fit.per_view, strict=True) if e <= limit]
        if MIN_VIEWS <= len(keep) < len(views):
            rejected.extend({"photo": f"view {i + 1}", "reason": f"reprojection {e:.2f} px"}
                            for i, e in enumerate(fit.per_view) if e > limit)
            views = keep
            fit = calibrate(views, size)
    if fit.rms > MAX_RMS:
        raise CalibrationError(
            f"the lens model fits poorly (reprojection error {fit.rms:.2f} px, at most "
            f"{MAX_RMS} allowed): the board may be bent or the photos blurred; glue the print "
            "to card and calibrate again")
    lens = LensCalibration.from_fit(fit.camera_matrix, fit.dist_coeffs, size, fit.rms,
                                    len(views))
    path = save_lens(config.data_dir, lens)
    k, d = fit.camera_matrix, fit.dist_coeffs
    data = {"file": str(path), "views": len(views), "rejected": rejected,
            "rms_px": round(fit.rms, 4), "good": fit.rms <= GOOD_RMS,
            "image_size": list(size), "target": {"squares": [TARGET.squares_x,
                                                             TARGET.squares_y],
                                                 "square_mm": TARGET.square_mm},
            **{key: value for key, value in lens.to_dict().items()
               if key in ("camera_matrix", "dist_coeffs")}}
    quality = "good" if fit.rms <= GOOD_RMS else "usable; more varied views would improve it"
    text = "\n".join([
        f"lens calibrated from {len(views)} views ({len(rejected)} set aside): reprojection "
        f"error {fit.rms:.3f} px ({quality})",
        f"focal length {k[0, 0]:.1f} x {k[1, 1]:.1f} px, centre ({k[0, 2]:.1f}, "
        f"{k[1, 2]:.1f}), photos {size[0]}x{size[1]}",
        "distortion " + " ".join(f"{n} {v:+.4f}" for n, v in
                                 zip(("k1", "k2", "p1", "p2", "k3"), d, strict=False)),
        f"saved to {path}; every capture is corrected from now on"])
    return Report(data, text)


def _table_photo(config: Any, photo: Path | None, camera: Any,
                 ) -> tuple[np.ndarray, bool, Any]:
    """The photo to judge (lens-corrected when a calibration exists) and the camera used."""
    from companion.calibration.capture import capture_still
    from companion.calibration.lens import load_lens, undistort
    from companion.devices.camera import read_image

    lens = load_lens(config.data_dir)
    if photo is not None:
        image, averaged = read_image(Path(photo).expanduser()), False
    else:
        camera = camera or _open_raw_camera(config)
        image, averaged = capture_still(camera, 4)
    if lens is not None:
        image = undistort(image, lens)
    return image, averaged, camera


def _board_squares(config: Any, game: str | None) -> int | None:
    """Squares across the longer side of the game's board, from its settings."""
    from companion.games.registry import find_game

    info = find_game(game or config["games.default"])
    return info.board_squares(config["games"].get(info.name, {}))


def calibrate_table(config_file: str | None, *, photo: Path | None = None, overlay: Path,
                    camera: Any = None, lock_exposure: bool = True,
                    game: str | None = None) -> Report:
    """Judge the set-up from one photo (or a still burst from the camera): board found, its
    size, sharpness and exposure; write an overlay PNG; on a Pi camera, lock exposure and
    white balance at their settled values.

    The size check uses the grid of ``game``'s board (default: the configured default game);
    a game without a grid of squares is judged on the rest."""
    import cv2

    from companion.calibration.capture import picamera2_of, save_exposure, settle_and_lock
    from companion.calibration.printables import real_names
    from companion.calibration.table import assess, draw_overlay
    from companion.config import load_config
    from companion.storage import atomic_write_bytes, atomic_write_json

    config = load_config(config_file)
    own = camera is None and photo is None
    image, averaged, camera = _table_photo(config, photo, camera)
    try:
        result = assess(image, squares=_board_squares(config, game))
        locked = None
        picam2 = picamera2_of(camera) if camera is not None and lock_exposure else None
        if picam2 is not None and result.ok:
            locked = settle_and_lock(picam2)
            save_exposure(config.data_dir, locked)
    finally:
        if own and camera is not None:
            camera.close()
    _, png = cv2.imencode(".png", draw_overlay(image, result))
    overlay = Path(overlay).expanduser()
    try:
        atomic_write_bytes(overlay, png.tobytes())
    except OSError as exc:
        raise CalibrationError(f"cannot write the overlay {overlay} ({exc.strerror or exc}); "
                               "choose another --overlay path") from None
    data = result.to_dict()
    advice = [real_names(a) for a in result.advice]  # each printable named by its real files
    data.update({"advice": advice, "overlay": str(overlay), "averaged_frames": averaged,
                 "exposure_locked": locked})
    table_file = config.data_dir / "calibration" / "table.json"
    try:
        atomic_write_json(table_file, data)
        data["file"] = str(table_file)
    except OSError:
        data["file"] = None  # the overlay and the report still stand
    lines = [("set-up is good: " if result.ok else "set-up needs work: ")
             + "; ".join(result.lines())]
    lines += [f"- {a}" for a in advice]
    if locked:
        lines.append(f"exposure locked at {locked['ExposureTime']} us, gain "
                     f"{locked['AnalogueGain']:.2f}")
    lines.append(f"overlay written to {overlay}")
    return Report(data, "\n".join(lines))
