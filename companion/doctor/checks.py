"""The doctor's checks: each a small function of the settings and the probes, giving a Finding.

A finding that passes has an empty ``fix``; one that fails says in one line what to do. A check
that does not apply (an OLED check when the display is a preview) passes and says why.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from companion.doctor.header import physical_pin
from companion.doctor.probes import Probes
from companion.errors import CompanionError, ConfigError

SERVICE_USER = "companion"
SERVICE_UNIT = "/etc/systemd/system/companion.service"
SERVICE_GROUPS = ("gpio", "i2c", "spi", "video")
MIN_FREE_BYTES = 500 * 1024 * 1024
OLED_NOP = b"\x00\xe3"  # control byte "command", then NOP: harmless on SSD1306 and SH1106
INSTALL = "sudo bash hardware/install.sh (from the checkout)"


@dataclass(frozen=True)
class Finding:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        mark = "✔" if self.ok else "✘"
        return f"{mark} {self.name}: {self.detail}" + (f" → {self.fix}" if self.fix else "")


def _pass(name: str, detail: str) -> Finding:
    return Finding(name, True, detail)


def _fail(name: str, detail: str, fix: str) -> Finding:
    return Finding(name, False, detail, fix)


def uses_pi_hardware(settings: dict[str, Any]) -> bool:
    return (settings["display"]["driver"] in ("ssd1306", "sh1106")
            or settings["buttons"]["backend"] == "gpio"
            or settings["camera"]["source"] == "picamera2")


# -- the machine ------------------------------------------------------------------------------
def check_model(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "Pi model"
    model = (probes.read_text("/proc/device-tree/model") or "").replace("\x00", "").strip()
    if not model.startswith("Raspberry Pi"):
        what = f"'{model}'" if model else "no /proc/device-tree/model"
        if not uses_pi_hardware(settings):
            return _pass(name, f"not a Raspberry Pi ({what}); fine: the configuration uses "
                               "no Pi hardware")
        return _fail(name, f"not a Raspberry Pi ({what}), but the configuration asks for Pi "
                           "hardware", "off the Pi set display.driver: preview, "
                           "buttons.backend: keyboard, camera.source: files or simulator")
    found = re.match(r"Raspberry Pi (\d+|Zero 2|Zero|Model|Compute Module \d+)", model)
    generation = found.group(1) if found else ""
    if generation in ("4", "5", "400", "500") or generation.startswith("Compute Module 4") \
            or generation.startswith("Compute Module 5"):
        return _pass(name, model)
    if generation in ("3", "Zero 2"):
        return _pass(name, f"{model}: works, but about half a Pi 4's speed (scans take longer)")
    return _fail(name, f"{model} is too slow for OpenCV recognition",
                 "use a Raspberry Pi 4 or 5")


def check_os(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "OS"
    text = probes.read_text("/etc/os-release") or ""
    info = dict(re.findall(r'^(\w+)="?([^"\n]*)"?$', text, re.MULTILINE))
    pretty = info.get("PRETTY_NAME", "unknown")
    codename = info.get("VERSION_CODENAME", "")
    if codename == "bookworm":
        return _pass(name, pretty)
    if codename in ("trixie", "forky"):
        return _pass(name, f"{pretty}: newer than the tested Bookworm; report any trouble")
    if not uses_pi_hardware(settings):
        return _pass(name, f"{pretty}; fine off the Pi")
    if codename in ("bullseye", "buster", "stretch"):
        return _fail(name, f"{pretty} is too old (no python3-picamera2 with Python 3.11)",
                     "install Raspberry Pi OS Bookworm (64-bit) with Raspberry Pi Imager")
    return _fail(name, f"{pretty} is not Raspberry Pi OS Bookworm", "install Raspberry Pi "
                 "OS Bookworm (64-bit); the install script needs its apt packages")


# -- display ----------------------------------------------------------------------------------
def check_i2c(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "I2C"
    display = settings["display"]
    if display["driver"] not in ("ssd1306", "sh1106"):
        return _pass(name, f"not needed (display.driver is {display['driver']})")
    port = display["i2c_port"]
    dev = f"/dev/i2c-{port}"
    if not probes.exists(dev):
        if port == 1:
            return _fail(name, f"{dev} is missing: I2C is switched off",
                         "sudo raspi-config nonint do_i2c 0, then sudo reboot")
        return _fail(name, f"{dev} is missing", f"enable I2C bus {port} "
                     f"(dtoverlay=i2c{port} in /boot/firmware/config.txt) or set "
                     "display.i2c_port: 1")
    if not probes.can_open_rw(dev):
        return _fail(name, f"{dev} exists but this user may not use it",
                     "sudo usermod -aG i2c $USER, then log out and in (the service has it)")
    return _pass(name, f"{dev} is ready")


def _oled_answers(probes: Probes, port: int, address: int) -> bool:
    try:
        probes.i2c_write(port, address, OLED_NOP)
    except OSError:
        return False
    return True


def _test_frame(width: int, height: int) -> Any:
    from PIL import Image, ImageDraw

    frame = Image.new("1", (width, height), 0)
    draw = ImageDraw.Draw(frame)
    draw.rectangle((0, 0, width - 1, height - 1), outline=1)
    draw.text((4, 4), "companion doctor", fill=1)
    draw.text((4, 18), "a box round the", fill=1)
    draw.text((4, 30), "edge, not shifted?", fill=1)
    return frame


def check_oled(settings: dict[str, Any], probes: Probes, i2c_ok: bool) -> Finding:
    name = "OLED"
    display = settings["display"]
    driver = display["driver"]
    if driver not in ("ssd1306", "sh1106"):
        return _pass(name, f"not used (display.driver is {driver})")
    if not i2c_ok:
        return _fail(name, "not checked: I2C is not ready", "fix I2C first (see above)")
    port, address = display["i2c_port"], display["i2c_address"]
    if not _oled_answers(probes, port, address):
        other = 0x3D if address == 0x3C else 0x3C
        if _oled_answers(probes, port, other):
            return _fail(name, f"nothing answers at {address:#04x}, but a device does at "
                               f"{other:#04x}", f"set display.i2c_address: {other:#04X}"
                               .replace("0X", "0x"))
        return _fail(name, f"no OLED answers at {address:#04x} on I2C bus {port}",
                     "check the wires: VCC to pin 1 (3.3 V), GND to pin 9, SDA to pin 3, SCL "
                     f"to pin 5; 'i2cdetect -y {port}' lists what answers")
    try:
        oled = probes.open_display(display)
        frame = _test_frame(oled.width, oled.height)
        try:
            oled.show(frame)
        finally:
            oled.close(frame)  # the test frame stays up for the user to look at
    except CompanionError as exc:
        return _fail(name, f"answers at {address:#04x} but could not be driven: {exc}",
                     "check display.driver, width and height")
    other = "sh1106" if driver == "ssd1306" else "ssd1306"
    return _pass(name, f"{driver} answers at {address:#04x} and shows a box round its edge; "
                       f"if the box is shifted or a stripe of noise runs down one side, set "
                       f"display.driver: {other} (1.3\" panels are mostly SH1106)")


# -- buttons ----------------------------------------------------------------------------------
def check_buttons(settings: dict[str, Any], probes: Probes, *, enabled: bool,
                  timeout: float) -> Finding:
    name = "buttons"
    buttons = settings["buttons"]
    if buttons["backend"] != "gpio":
        return _pass(name, f"not used (buttons.backend is {buttons['backend']})")
    if not enabled:
        return _pass(name, "skipped (--no-buttons)")
    pins = buttons["pins"]
    try:
        device = probes.open_buttons(buttons)
    except CompanionError as exc:
        text = str(exc)
        low = text.lower()
        if "permission" in low or "denied" in low:
            fix = "sudo usermod -aG gpio $USER, then log out and in (the service has it)"
        elif "busy" in low or "in use" in low or "holds them" in low:
            fix = "stop the service first: sudo systemctl stop companion"
        elif "no gpio" in low:
            fix = "on a Pi: sudo apt install python3-lgpio; off it: buttons.backend: keyboard"
        else:
            fix = "check buttons.pins (BCM numbers) against your wiring"
        return _fail(name, text, fix)
    missing, swapped = [], []
    with contextlib.closing(device):
        for role in ("up", "down", "ok"):
            pin = pins[role]
            probes.say(f"press {role.upper()} (GPIO {pin}, pin {physical_pin(pin)}) within "
                       f"{timeout:g} s")
            deadline = probes.clock() + timeout
            got = None
            while probes.clock() < deadline:
                key = device.get(timeout=min(0.2, max(0.0, deadline - probes.clock())))
                if key is not None and str(getattr(key, "value", key)) in ("up", "down", "ok"):
                    got = str(getattr(key, "value", key))
                    break
            if got is None:
                missing.append(role)
                probes.say("  no press seen")
            elif got != role:
                swapped.append((role, got))
                probes.say(f"  that was {got.upper()}")
            else:
                probes.say("  ok")
    if swapped:
        role, got = swapped[0]
        return _fail(name, f"pressing {role.upper()} gave {got.upper()}: the wires are swapped",
                     f"swap the wires of {role.upper()} and {got.upper()}, or swap "
                     f"buttons.pins.{role} and buttons.pins.{got}")
    if missing:
        where = ", ".join(f"{r.upper()} (GPIO {pins[r]}, pin {physical_pin(pins[r])})"
                          for r in missing)
        return _fail(name, f"no press seen from {where} in {timeout:g} s",
                     "check each button's wire from its GPIO pin through the button to a GND "
                     "pin (hardware/README.md), or buttons.pins")
    return _pass(name, "UP, DOWN and OK each answered")


# -- camera -----------------------------------------------------------------------------------
def check_camera(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "camera"
    camera = settings["camera"]
    source = camera["source"]
    if source == "simulator":
        return _pass(name, "simulated (camera.source: simulator)")
    what = ""
    if source == "picamera2":
        try:
            cameras = probes.camera_info()
        except ImportError:
            return _fail(name, "picamera2 is not installed", "sudo apt install -y "
                         "--no-install-recommends python3-picamera2 (the install script does)")
        except Exception as exc:  # libcamera itself failed
            return _fail(name, f"libcamera failed: {exc}", "sudo apt full-upgrade, then reboot")
        if not cameras:
            return _fail(name, "no camera module found", "check the ribbon cable (contacts "
                         "toward the board on a Pi 4; the narrow 22-pin cable on a Pi 5), "
                         "reboot, then 'rpicam-hello --list-cameras'")
        what = str(cameras[0].get("Model", "camera")) + ", "
    try:
        device = probes.open_camera(camera)
        with contextlib.closing(device):
            frame = device.capture()
    except CompanionError as exc:
        text = str(exc)
        if "in use" in text.lower():
            return _fail(name, "the camera is held by another program (Pipeline handler in "
                         "use)", "stop it: sudo systemctl stop companion, or close any "
                         "rpicam/libcamera app ('sudo fuser -v /dev/media*' shows which)")
        return _fail(name, text, "check camera.source and its cable or path")
    h, w = frame.shape[:2]
    return _pass(name, f"{what}{w}x{h} photos ({source})")


# -- software ---------------------------------------------------------------------------------
def _major_minor(version: str) -> tuple[int, int]:
    found = re.match(r"(\d+)\.(\d+)", version)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)


def _shadow_fix(versions: dict[str, Any]) -> str:
    pip = Path(str(versions.get("executable", "python"))).parent / "pip"
    return (f"{pip} uninstall -y numpy opencv-python-headless opencv-python, so the system's "
            "numpy and OpenCV (apt) are used")


def check_libraries(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "numpy/OpenCV/picamera2"
    v = probes.versions()
    if "error" in v:
        return _fail(name, v["error"], "reinstall: " + INSTALL)
    numpy, cv2, picam = v.get("numpy", {}), v.get("cv2", {}), v.get("picamera2", {})
    if "error" in numpy:
        return _fail(name, f"numpy does not import: {numpy['error']}",
                     "sudo apt install python3-numpy")
    if "error" in cv2:
        if "numpy" in cv2["error"].lower():
            return _fail(name, f"OpenCV and numpy {numpy['version']} do not match: "
                         f"{cv2['error']}", _shadow_fix(v))
        return _fail(name, f"OpenCV does not import: {cv2['error']}",
                     "sudo apt install python3-opencv")
    if _major_minor(cv2["version"]) < (4, 6):
        return _fail(name, f"OpenCV {cv2['version']} is older than 4.6",
                     "sudo apt full-upgrade (Bookworm has 4.6)")
    if not cv2.get("aruco"):
        return _fail(name, f"OpenCV {cv2['version']} has no ArUco module (needed for "
                     "calibration)", "sudo apt install python3-opencv (it includes ArUco)")
    numpy_major = _major_minor(numpy["version"])[0]
    if numpy_major >= 2 and _major_minor(cv2["version"]) < (4, 10):
        return _fail(name, f"numpy {numpy['version']} is too new for OpenCV {cv2['version']}",
                     _shadow_fix(v))
    needs_picam = settings["camera"]["source"] == "picamera2"
    detail = (f"numpy {numpy['version']}, OpenCV {cv2['version']} (ArUco {cv2['aruco']} "
              "API)")
    if "error" in picam:
        if needs_picam:
            if "numpy" in picam["error"].lower():
                return _fail(name, f"picamera2 and numpy {numpy['version']} do not match: "
                             f"{picam['error']}", _shadow_fix(v))
            return _fail(name, f"picamera2 does not import: {picam['error']}",
                         "sudo apt install -y --no-install-recommends python3-picamera2")
        return _pass(name, detail + "; picamera2 not installed (not used)")
    system = "/usr/lib/python3/dist-packages/"
    if picam.get("path", "").startswith(system) and not numpy.get("path", "").startswith(system):
        return _fail(name, f"numpy {numpy['version']} from {numpy.get('path')} shadows the "
                     "system numpy that picamera2 is built for", _shadow_fix(v))
    return _pass(name, detail + f", picamera2 {picam.get('version', '?')}")


def check_service_user(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "service user"
    groups = probes.user_groups(SERVICE_USER)
    if groups is None:
        if probes.exists(SERVICE_UNIT):
            return _fail(name, f"the service is installed but its user '{SERVICE_USER}' is "
                         "missing", "run the install again: " + INSTALL)
        return _pass(name, "no service installed (fine for trying it out)")
    wanted = [g for g in SERVICE_GROUPS if probes.group_exists(g)]
    missing = [g for g in wanted if g not in groups]
    if missing:
        return _fail(name, f"'{SERVICE_USER}' is not in group {', '.join(missing)}",
                     f"sudo usermod -aG {','.join(missing)} {SERVICE_USER}")
    return _pass(name, f"'{SERVICE_USER}' is in {', '.join(wanted) or 'no device groups'}")


def check_disk(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "disk space"
    data_dir = Path(settings["data_dir"]).expanduser()
    try:
        free = probes.disk_free(data_dir)
    except OSError as exc:
        return _fail(name, f"cannot look at {data_dir}: {exc}", "check data_dir")
    gb = free / 1024 ** 3
    if free < MIN_FREE_BYTES:
        return _fail(name, f"only {free // 1024 ** 2} MB free for {data_dir}",
                     "free some space: sudo apt-get clean, and delete old photos or games "
                     "you no longer need")
    return _pass(name, f"{gb:.1f} GB free for {data_dir}")


def check_calibration(settings: dict[str, Any], probes: Probes) -> Finding:
    name = "lens calibration"
    path = Path(settings["data_dir"]).expanduser() / "calibration" / "lens.json"
    if settings["camera"]["source"] == "simulator":
        return _pass(name, "not needed (simulated camera)")
    text = probes.read_text(str(path))
    if text is None and probes.exists(str(path)):
        return _pass(name, f"{path} is there (this user may not read it; the service can)")
    if text is None:
        return _pass(name, "none yet (optional): 'companion calibrate camera' corrects the "
                           "lens for sharper scans")
    from companion.calibration.errors import CalibrationError
    from companion.calibration.lens import LensCalibration
    from companion.storage import parse_data

    try:
        data = parse_data(text, path, "lens calibration", error=CalibrationError)
        lens = LensCalibration.from_dict(data, str(path))
    except (ValueError, CalibrationError) as exc:
        return _fail(name, f"{path} is unusable ({str(exc).split(';')[0]})",
                     "companion calibrate camera")
    w, h = lens.image_size
    cw, ch = settings["camera"]["width"], settings["camera"]["height"]
    if abs(w / h - cw / ch) > 0.01:
        return _fail(name, f"made at {w}x{h}, but the camera now takes {cw}x{ch}",
                     "companion calibrate camera (again, at the new size)")
    return _pass(name, f"{w}x{h}, reprojection error {lens.rms:.2f} px ({lens.made or '?'})")


def check_config(config_file: str | None, probes: Probes) -> tuple[Finding, Any]:
    """The configuration check, and the settings the other checks should use."""
    name = "config"
    try:
        config = probes.load_config(config_file)
    except ConfigError as exc:
        try:
            fallback = probes.load_config(None, candidates=[])
        except ConfigError:
            fallback = None
        return _fail(name, str(exc), "edit the file as the message says, then check it with "
                     "'companion config'"), fallback
    where = ", ".join(str(p) for p in config.sources[1:]) or "defaults only"
    return _pass(name, f"valid ({where})"), config
