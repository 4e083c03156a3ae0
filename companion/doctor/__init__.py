"""``companion doctor``: is this Pi set up right? One line per check, each failure with its fix.

Checks, in order: the configuration; the Pi model and OS; I2C and the OLED at its address
(a test frame shows whether SSD1306 or SH1106 is the right driver); the buttons, pressed in
turn (``buttons=False`` skips them); the camera (found, and not held by another program);
numpy/OpenCV/picamera2 (importable and from the same build); the service user's groups; free
disk for the data folder; the lens calibration. Each check is a small function over injectable
probes (:mod:`companion.doctor.probes`), so every failure is tested with a fake.
"""

from __future__ import annotations

from companion.doctor.checks import (
    Finding,
    check_buttons,
    check_calibration,
    check_camera,
    check_config,
    check_disk,
    check_i2c,
    check_libraries,
    check_model,
    check_oled,
    check_os,
    check_service_user,
)
from companion.doctor.probes import Probes, real_probes
from companion.report import Report

__all__ = ["Finding", "Probes", "doctor", "real_probes"]


def doctor(config_file: str | None, *, buttons: bool = True, timeout: float = 10.0,
           probes: Probes | None = None) -> Report:
    """Run every check; ``Report.data`` is ``{"checks": [...], "ok": bool}``."""
    probes = probes or real_probes()
    config_finding, config = check_config(config_file, probes)
    findings = [config_finding]
    if config is None:
        findings.append(Finding("everything else", False, "not checked: the default "
                                "configuration itself is broken", "reinstall the companion"))
    else:
        settings = dict(config.values)
        findings += [check_model(settings, probes), check_os(settings, probes)]
        i2c = check_i2c(settings, probes)
        findings += [i2c, check_oled(settings, probes, i2c.ok),
                     check_buttons(settings, probes, enabled=buttons, timeout=timeout),
                     check_camera(settings, probes), check_libraries(settings, probes),
                     check_service_user(settings, probes), check_disk(settings, probes),
                     check_calibration(settings, probes)]
    ok = all(f.ok for f in findings)
    failed = sum(not f.ok for f in findings)
    summary = ("all checks passed" if ok else
               f"{failed} problem{'s' if failed > 1 else ''}: fix {'them' if failed > 1 else 'it'}"
               " and run 'companion doctor' again")
    text = "\n".join([*(f.line() for f in findings), summary])
    return Report({"checks": [f.to_dict() for f in findings], "ok": ok}, text)
