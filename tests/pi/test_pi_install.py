"""The Pi install: install.sh is shellcheck-clean and keeps apt's numpy/OpenCV; the unit
verifies with systemd-analyze; the /etc configuration it writes is valid."""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.config import load_config

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "hardware" / "install.sh"
UNIT = ROOT / "hardware" / "companion.service"
ETC_CONFIG = ROOT / "hardware" / "companion.yaml"


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(re.sub(r"^Environment=.*$", "", UNIT.read_text(), flags=re.M))
    return parser


@pytest.mark.skipif(shutil.which("shellcheck") is None,
                    reason="shellcheck is not installed (apt-get install shellcheck)")
def test_install_script_is_shellcheck_clean() -> None:
    done = subprocess.run(["shellcheck", "--severity=style", str(INSTALL)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_script_parses_and_is_strict() -> None:
    done = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    text = INSTALL.read_text()
    assert text.startswith("#!/usr/bin/env bash")
    assert "\nset -euo pipefail\n" in text


def test_install_script_keeps_apt_numpy_and_opencv() -> None:
    text = INSTALL.read_text()
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "--system-site-packages" in code
    assert re.search(r"pip install .*--no-deps", code)
    assert "numpy==$numpy_version" in code  # the constraints pin the system's numpy
    for wheel in ("opencv-python", "opencv-contrib-python", '"numpy'):
        assert wheel not in code, f"install.sh must never pip-install {wheel}"
    for package in ("python3-picamera2", "python3-opencv", "python3-numpy", "python3-lgpio",
                    "python3-venv", "i2c-tools"):
        assert package in code
    assert "--no-install-recommends" in code
    assert "raspi-config nonint do_i2c 0" in code
    assert "COMPANION_CONFIG_DIR" in code
    # the user's settings are written only when absent
    assert re.search(r'if \[ ! -e "\$ETC_DIR/companion.yaml" \]', code)


def test_install_script_is_rerunnable() -> None:
    code = INSTALL.read_text()
    assert 'if ! id -u "$SERVICE_USER"' in code  # the user is added once
    assert 'if [ ! -x "$VENV/bin/python" ]' in code  # the venv is made once
    assert "groupadd --system" in code and "getent group" in code


def test_unit_has_what_the_service_needs() -> None:
    unit = _unit()
    service = unit["Service"]
    assert service["User"] == "companion"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi", "video"}
    assert service["ConfigurationDirectory"] == "companion"
    assert service["StateDirectory"] == "companion"
    assert service["Restart"] == "on-failure"
    assert service["KillSignal"] == "SIGTERM"
    assert service["StandardOutput"] == service["StandardError"] == "journal"
    assert service["ExecStart"].split()[:2] == ["/opt/companion/venv/bin/companion", "run"]
    assert "--config /etc/companion/companion.yaml" in service["ExecStart"]
    assert "Environment=COMPANION_CONFIG_DIR=/opt/companion/config" in UNIT.read_text()
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    assert "PrivateDevices" not in service  # it needs /dev/i2c-*, /dev/gpiochip*, /dev/video*


def _host_units() -> Path | None:
    for folder in (Path("/usr/lib/systemd/system"), Path("/lib/systemd/system")):
        if (folder / "sysinit.target").exists():
            return folder
    return None


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed (apt-get install systemd)")
@pytest.mark.skipif(_host_units() is None, reason="no systemd unit files on this machine")
def test_unit_verifies(tmp_path: Path) -> None:
    """systemd-analyze verify, in a scratch root that holds the unit, a stand-in for the
    installed program (verify checks that ExecStart's file is executable) and the host's
    systemd units (for the targets the unit refers to)."""
    root = tmp_path / "root"
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(UNIT, root / "etc/systemd/system/companion.service")
    program = root / _unit()["Service"]["ExecStart"].split()[0].lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    units = _host_units()
    assert units is not None
    shutil.copytree(units, root / "usr/lib/systemd/system", symlinks=True)
    done = subprocess.run(["systemd-analyze", "verify", f"--root={root}", "companion.service"],
                          capture_output=True, text=True, check=False, timeout=60)
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 0 and not output, output


def test_etc_config_is_valid_and_uses_the_state_directory() -> None:
    config = load_config(ETC_CONFIG)
    assert str(config.data_dir) == "/var/lib/companion"
    assert config["display.driver"] == "ssd1306" and config["camera.source"] == "picamera2"
    assert config["buttons.backend"] == "gpio"
