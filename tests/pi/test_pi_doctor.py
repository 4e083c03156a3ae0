"""``companion doctor``: a healthy fake Pi passes, and every failure is faked and explained."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.config import load_config
from companion.devices.buttons import Key
from companion.doctor import Probes, doctor
from companion.doctor.checks import check_libraries, check_model, check_os
from companion.errors import DeviceError

PI_CONFIG = "display: {driver: ssd1306}\n"
SYSTEM = "/usr/lib/python3/dist-packages"
OS_RELEASE = ('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\n'
              'VERSION_CODENAME=bookworm\nID=debian\n')
HEALTHY_VERSIONS = {
    "python": "3.11.2", "executable": "/opt/companion/venv/bin/python",
    "numpy": {"version": "1.24.2", "path": f"{SYSTEM}/numpy/__init__.py"},
    "cv2": {"version": "4.6.0", "path": f"{SYSTEM}/cv2/__init__.py", "aruco": "legacy"},
    "picamera2": {"version": "0.3.22", "path": f"{SYSTEM}/picamera2/__init__.py"},
}


class FakeOled:
    width, height = 128, 64

    def __init__(self) -> None:
        self.shown: list[Any] = []
        self.left_up: Any = None

    def show(self, frame: Any) -> None:
        self.shown.append(frame)

    def close(self, last: Any = None) -> None:
        self.left_up = last


class FakeButtons:
    def __init__(self, keys: list[Key | None]) -> None:
        self.keys = list(keys)

    def get(self, timeout: float | None = None) -> Key | None:
        return self.keys.pop(0) if self.keys else None

    def close(self) -> None:
        pass


class FakeCamera:
    name = "fake"

    def capture(self) -> np.ndarray:
        return np.zeros((1232, 1640, 3), np.uint8)

    def close(self) -> None:
        pass


def healthy(tmp_path: Path, **changes: Any) -> Probes:
    """Probes of a Pi 5 on Bookworm with everything wired right."""
    files = {"/proc/device-tree/model": "Raspberry Pi 5 Model B Rev 1.0\x00",
             "/etc/os-release": OS_RELEASE}
    ticks = itertools.count(0, 0.5)
    probes = Probes(
        read_text=lambda p: files.get(p) if p in files else _read(p),
        exists=lambda p: p in ("/dev/i2c-1",),
        can_open_rw=lambda p: True,
        i2c_write=lambda bus, addr, data: None,
        open_display=lambda s: FakeOled(),
        open_buttons=lambda s: FakeButtons([Key.UP, Key.DOWN, Key.OK]),
        camera_info=lambda: [{"Model": "imx708", "Num": 0}],
        open_camera=lambda s: FakeCamera(),
        versions=lambda: json.loads(json.dumps(HEALTHY_VERSIONS)),
        user_groups=lambda u: ["companion", "gpio", "i2c", "spi", "video"],
        group_exists=lambda g: True,
        disk_free=lambda p: 20 * 1024 ** 3,
        load_config=load_config,
        say=lambda text: None,
        clock=lambda: next(ticks),
    )
    for key, value in changes.items():
        setattr(probes, key, value)
    return probes


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text()
    except OSError:
        return None


@pytest.fixture
def config(tmp_path: Path) -> str:
    path = tmp_path / "companion.yaml"
    path.write_text(PI_CONFIG + f"data_dir: {tmp_path / 'data'}\n")
    return str(path)


def run(config: str, probes: Probes, **kw: Any) -> dict[str, dict[str, Any]]:
    report = doctor(config, buttons=kw.get("buttons", True), timeout=kw.get("timeout", 3),
                    probes=probes)
    checks = {c["name"]: c for c in report.data["checks"]}
    assert report.data["ok"] == all(c["ok"] for c in checks.values())
    for c in checks.values():
        assert set(c) == {"name", "ok", "detail", "fix"}
        assert bool(c["fix"]) == (not c["ok"]), c  # every failure has a fix, a pass has none
        assert "\n" not in c["detail"] + c["fix"]
    return checks


def failed(checks: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {n: c for n, c in checks.items() if not c["ok"]}


def test_healthy_pi_passes(config: str, tmp_path: Path) -> None:
    probes = healthy(tmp_path)
    report = doctor(config, buttons=True, timeout=3, probes=probes)
    assert report.data["ok"], report.text
    lines = report.text.splitlines()
    assert len(lines) == len(report.data["checks"]) + 1
    assert all(line.startswith("✔") for line in lines[:-1])
    assert lines[-1] == "all checks passed"
    assert "imx708" in report.text and "OpenCV 4.6.0" in report.text


def test_text_marks_failures_with_fix(config: str, tmp_path: Path) -> None:
    probes = healthy(tmp_path, exists=lambda p: False)
    report = doctor(config, buttons=False, timeout=1, probes=probes)
    line = next(x for x in report.text.splitlines() if x.startswith("✘ I2C"))
    assert "→ sudo raspi-config nonint do_i2c 0" in line
    assert report.text.splitlines()[-1].startswith("2 problems")


# -- machine ---------------------------------------------------------------------------------
@pytest.mark.parametrize("model, ok", [
    ("Raspberry Pi 4 Model B Rev 1.5", True), ("Raspberry Pi 5 Model B Rev 1.0", True),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", True), ("Raspberry Pi Model B Rev 2", False),
    ("Raspberry Pi Zero W Rev 1.1", False), ("", False)])
def test_model(model: str, ok: bool, tmp_path: Path) -> None:
    settings = dict(load_config(None).values)
    probes = healthy(tmp_path, read_text=lambda p: model or None)
    finding = check_model(settings, probes)
    assert finding.ok is ok
    if not model:
        assert "preview" in finding.fix


def test_not_a_pi_is_fine_with_simulated_devices(tmp_path: Path) -> None:
    settings = dict(load_config(None).values)
    settings.update(display={**settings["display"], "driver": "preview"},
                    buttons={**settings["buttons"], "backend": "keyboard"},
                    camera={**settings["camera"], "source": "simulator"})
    probes = healthy(tmp_path, read_text=lambda p: None)
    assert check_model(settings, probes).ok
    assert check_os(settings, probes).ok


def test_old_os(config: str, tmp_path: Path) -> None:
    release = OS_RELEASE.replace("bookworm", "bullseye").replace("12", "11")
    files = {"/etc/os-release": release, "/proc/device-tree/model": "Raspberry Pi 4 Model B"}
    probes = healthy(tmp_path, read_text=files.get)
    bad = failed(run(config, probes, buttons=False))
    assert list(bad) == ["OS"]
    assert "Bookworm" in bad["OS"]["fix"]


# -- display ---------------------------------------------------------------------------------
def test_i2c_switched_off(config: str, tmp_path: Path) -> None:
    bad = failed(run(config, healthy(tmp_path, exists=lambda p: False), buttons=False))
    assert list(bad) == ["I2C", "OLED"]
    assert "do_i2c 0" in bad["I2C"]["fix"]
    assert "I2C" in bad["OLED"]["fix"]


def test_i2c_no_permission(config: str, tmp_path: Path) -> None:
    bad = failed(run(config, healthy(tmp_path, can_open_rw=lambda p: False), buttons=False))
    assert list(bad) == ["I2C", "OLED"]
    assert "usermod -aG i2c" in bad["I2C"]["fix"]


def _nack(bus: int, addr: int, data: bytes) -> None:
    raise OSError(121, "Remote I/O error")


def test_oled_not_answering(config: str, tmp_path: Path) -> None:
    bad = failed(run(config, healthy(tmp_path, i2c_write=_nack), buttons=False))
    assert list(bad) == ["OLED"]
    assert "0x3c" in bad["OLED"]["detail"] and "i2cdetect -y 1" in bad["OLED"]["fix"]


def test_oled_at_the_other_address(config: str, tmp_path: Path) -> None:
    def only_3d(bus: int, addr: int, data: bytes) -> None:
        assert data == b"\x00\xe3"  # a NOP command: harmless
        if addr != 0x3D:
            _nack(bus, addr, data)

    bad = failed(run(config, healthy(tmp_path, i2c_write=only_3d), buttons=False))
    assert bad["OLED"]["fix"] == "set display.i2c_address: 0x3D"


def test_oled_answers_shows_test_frame_and_driver_hint(config: str, tmp_path: Path) -> None:
    oled = FakeOled()
    checks = run(config, healthy(tmp_path, open_display=lambda s: oled), buttons=False)
    assert checks["OLED"]["ok"]
    assert "display.driver: sh1106" in checks["OLED"]["detail"]
    frame = oled.shown[0]
    assert frame.size == (128, 64) and frame.getpixel((0, 0)) and frame.getpixel((127, 63))
    assert oled.left_up is frame  # left on the panel after the doctor lets go


def test_oled_cannot_be_driven(config: str, tmp_path: Path) -> None:
    def broken(settings: dict) -> Any:
        raise DeviceError("the OLED stopped answering")

    bad = failed(run(config, healthy(tmp_path, open_display=broken), buttons=False))
    assert list(bad) == ["OLED"]


# -- buttons ---------------------------------------------------------------------------------
def test_buttons_missing_press(config: str, tmp_path: Path) -> None:
    said: list[str] = []
    probes = healthy(tmp_path, open_buttons=lambda s: FakeButtons([Key.UP, None, None, None,
                                                                   None, None, None, None,
                                                                   Key.OK]),
                     say=said.append)
    bad = failed(run(config, probes, timeout=3))
    assert list(bad) == ["buttons"]
    assert "DOWN (GPIO 6, pin 31)" in bad["buttons"]["detail"]
    assert any("press UP (GPIO 5, pin 29)" in s for s in said)


def test_buttons_swapped(config: str, tmp_path: Path) -> None:
    probes = healthy(tmp_path, open_buttons=lambda s: FakeButtons([Key.DOWN, Key.UP, Key.OK]))
    bad = failed(run(config, probes))
    assert "swapped" in bad["buttons"]["detail"]
    assert "buttons.pins.up" in bad["buttons"]["fix"]


def test_buttons_busy_and_no_gpio(config: str, tmp_path: Path) -> None:
    def busy(settings: dict) -> Any:
        raise DeviceError("cannot use the button pins: GPIO busy; check buttons.pins and that "
                          "no other program holds them")

    bad = failed(run(config, healthy(tmp_path, open_buttons=busy)))
    assert "systemctl stop companion" in bad["buttons"]["fix"]

    def none(settings: dict) -> Any:
        raise DeviceError("no GPIO here (not a Raspberry Pi, or lgpio missing)")

    bad = failed(run(config, healthy(tmp_path, open_buttons=none)))
    assert "python3-lgpio" in bad["buttons"]["fix"]


def test_buttons_skippable(config: str, tmp_path: Path) -> None:
    def never(settings: dict) -> Any:
        raise AssertionError("buttons must not be opened with --no-buttons")

    checks = run(config, healthy(tmp_path, open_buttons=never), buttons=False)
    assert checks["buttons"]["ok"] and "skipped" in checks["buttons"]["detail"]


# -- camera ----------------------------------------------------------------------------------
def test_camera_not_found(config: str, tmp_path: Path) -> None:
    bad = failed(run(config, healthy(tmp_path, camera_info=lambda: []), buttons=False))
    assert list(bad) == ["camera"] and "ribbon cable" in bad["camera"]["fix"]


def test_camera_held_by_another_program(config: str, tmp_path: Path) -> None:
    def held(settings: dict) -> Any:
        raise DeviceError("the Pi camera is held by another program (Pipeline handler in use): "
                          "stop it")

    bad = failed(run(config, healthy(tmp_path, open_camera=held), buttons=False))
    assert "Pipeline handler in use" in bad["camera"]["detail"]
    assert "systemctl stop companion" in bad["camera"]["fix"]


def test_picamera2_missing(config: str, tmp_path: Path) -> None:
    def missing() -> list:
        raise ImportError("No module named 'picamera2'")

    versions = json.loads(json.dumps(HEALTHY_VERSIONS))
    versions["picamera2"] = {"error": "ModuleNotFoundError: No module named 'picamera2'"}
    bad = failed(run(config, healthy(tmp_path, camera_info=missing, versions=lambda: versions),
                     buttons=False))
    assert "python3-picamera2" in bad["camera"]["fix"]
    assert "python3-picamera2" in bad["numpy/OpenCV/picamera2"]["fix"]


# -- libraries -------------------------------------------------------------------------------
def _versions_with(**parts: dict) -> dict:
    v = json.loads(json.dumps(HEALTHY_VERSIONS))
    v.update(parts)
    return v


@pytest.mark.parametrize("versions, words", [
    (_versions_with(numpy={"version": "2.2.1", "path": "/opt/companion/venv/lib/python3.11/"
                           "site-packages/numpy/__init__.py"}), ("too new", "uninstall")),
    (_versions_with(numpy={"version": "1.26.4", "path": "/opt/companion/venv/lib/python3.11/"
                           "site-packages/numpy/__init__.py"}), ("shadows", "uninstall")),
    (_versions_with(cv2={"error": "ImportError: numpy.core.multiarray failed to import"}),
     ("do not match", "uninstall")),
    (_versions_with(cv2={"error": "ModuleNotFoundError: No module named 'cv2'"}),
     ("does not import", "python3-opencv")),
    (_versions_with(cv2={"version": "4.5.1", "path": "x", "aruco": "legacy"}),
     ("older than 4.6", "full-upgrade")),
    (_versions_with(cv2={"version": "4.6.0", "path": "x", "aruco": ""}),
     ("no ArUco", "python3-opencv")),
    (_versions_with(picamera2={"error": "ImportError: A module that was compiled using NumPy "
                               "1.x cannot be run in NumPy 2.0"}), ("do not match", "uninstall")),
    ({"error": "importing the libraries crashed (status -11): Segmentation fault"},
     ("crashed", "install.sh")),
])
def test_library_clashes(versions: dict, words: tuple[str, str], tmp_path: Path) -> None:
    settings = dict(load_config(None).values)
    finding = check_libraries(settings, healthy(tmp_path, versions=lambda: versions))
    assert not finding.ok
    assert words[0] in finding.detail and words[1] in finding.fix


def test_current_wheels_pass_without_picamera2(tmp_path: Path) -> None:
    settings = dict(load_config(None).values)
    settings["camera"] = {**settings["camera"], "source": "files"}
    versions = _versions_with(numpy={"version": "2.4.0", "path": "/x/numpy/__init__.py"},
                              cv2={"version": "5.0.0", "path": "/x/cv2", "aruco": "detector"},
                              picamera2={"error": "ModuleNotFoundError: picamera2"})
    assert check_libraries(settings, healthy(tmp_path, versions=lambda: versions)).ok


# -- service, disk, config, calibration --------------------------------------------------------
def test_service_user_missing_groups(config: str, tmp_path: Path) -> None:
    bad = failed(run(config, healthy(tmp_path, user_groups=lambda u: ["companion", "video"]),
                     buttons=False))
    assert bad["service user"]["fix"] == "sudo usermod -aG gpio,i2c,spi companion"


def test_service_user_missing_after_install(config: str, tmp_path: Path) -> None:
    probes = healthy(tmp_path, user_groups=lambda u: None,
                     exists=lambda p: p in ("/dev/i2c-1", "/etc/systemd/system/companion.service"))
    bad = failed(run(config, probes, buttons=False))
    assert "install.sh" in bad["service user"]["fix"]


def test_disk_nearly_full(config: str, tmp_path: Path) -> None:
    bad = failed(run(config, healthy(tmp_path, disk_free=lambda p: 100 * 1024 ** 2),
                     buttons=False))
    assert list(bad) == ["disk space"] and "100 MB" in bad["disk space"]["detail"]


def test_config_invalid_still_checks_the_rest(tmp_path: Path) -> None:
    bad_file = tmp_path / "bad.yaml"
    bad_file.write_text("display: {drivr: ssd1306}\n")
    checks = run(str(bad_file), healthy(tmp_path), buttons=False)
    assert not checks["config"]["ok"]
    assert "display.drivr" in checks["config"]["detail"]
    assert "companion config" in checks["config"]["fix"]
    assert len(checks) == 11  # the others ran on the defaults


def test_lens_calibration_stale(config: str, tmp_path: Path) -> None:
    lens = tmp_path / "data" / "calibration" / "lens.json"
    lens.parent.mkdir(parents=True)
    lens.write_text(json.dumps({"camera_matrix": [[1000, 0, 640], [0, 1000, 360], [0, 0, 1]],
                                "dist_coeffs": [0, 0, 0, 0, 0], "image_size": [1280, 720]}))
    bad = failed(run(config, healthy(tmp_path), buttons=False))
    assert "1280x720" in bad["lens calibration"]["detail"]
    lens.write_text("{torn")
    bad = failed(run(config, healthy(tmp_path), buttons=False))
    assert "unusable" in bad["lens calibration"]["detail"]


def test_real_probes_do_not_crash_here(tmp_path: Path) -> None:
    """On this (non-Pi) machine the real probes give findings, never a traceback."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text(f"data_dir: {tmp_path}\ndisplay: {{driver: preview}}\n"
                   "buttons: {backend: keyboard}\ncamera: {source: simulator}\n")
    report = doctor(str(cfg), buttons=False, timeout=1)
    checks = {c["name"]: c for c in report.data["checks"]}
    assert checks["numpy/OpenCV/picamera2"]["ok"], checks
    assert checks["config"]["ok"] and checks["disk space"]["ok"]
