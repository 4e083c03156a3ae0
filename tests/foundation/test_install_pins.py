"""The Pi install pins what it installs with pip, and the unit keeps the service off the network
(issue #21): hardware/requirements-pi.txt holds exact versions, the ones tested here, and it is
the only thing install.sh gives pip besides the companion itself."""

from __future__ import annotations

import importlib.metadata
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "hardware" / "install.sh"
PINS = ROOT / "hardware" / "requirements-pi.txt"
UNIT = ROOT / "hardware" / "companion.service"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([0-9][0-9A-Za-z.+-]*)$")


def pins() -> dict[str, str]:
    out = {}
    for line in PINS.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"{PINS.name}: {line!r} is not NAME==VERSION"
        out[match[1].lower()] = match[2]
    return out


def code_of(script: Path) -> str:
    """The script without comments, its continued lines joined."""
    lines = [ln for ln in script.read_text().splitlines() if not ln.lstrip().startswith("#")]
    return "\n".join(lines).replace("\\\n", " ")


def test_every_pip_package_is_pinned_to_an_exact_version() -> None:
    found = pins()
    assert {"luma.oled", "luma.core"} <= set(found)
    for banned in ("numpy", "opencv-python", "opencv-contrib-python", "picamera2"):
        assert banned not in found


def test_the_pins_are_the_versions_tested_here() -> None:
    for name, version in pins().items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pytest.skip(f"{name} is not installed here")
        assert installed == version, f"{name}: pinned {version}, tested with {installed}"


def test_the_pins_are_complete_for_what_they_need() -> None:
    """Installed with --no-deps, so every dependency of a pinned package is pinned too, or
    comes from apt (Pillow, PyYAML, gpiozero: python3-pil, python3-yaml, python3-gpiozero)."""
    from_apt = {"pillow", "pyyaml", "gpiozero", "numpy"}
    pinned = set(pins())
    for name in pinned:
        try:
            requires = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for req in requires:
            if "extra ==" in req or "python_version <" in req:
                continue
            dep = re.split(r"[ ;<>=!~\[(]", req, maxsplit=1)[0].lower()
            assert dep in pinned | from_apt, f"{name} needs {dep}, which is not pinned"


def test_install_sh_gives_pip_only_the_pins_and_the_companion() -> None:
    code = code_of(INSTALL)
    calls = [c for c in re.findall(r"pip install[^\n]*", code)]
    assert len(calls) == 2, calls
    assert all("--no-deps" in c for c in calls)
    assert any('--requirement "$CHECKOUT/hardware/requirements-pi.txt"' in c for c in calls)
    assert any(c.rstrip().endswith('"$src"') for c in calls)
    for call in calls:  # no loose versions or bare names on the command line
        assert not re.search(r"[<>]=|\"[a-z.]+\"", call.replace('"$src"', "")), call


def test_the_unit_restricts_address_families_to_local_ones() -> None:
    text = UNIT.read_text()
    lines = [ln.split("=", 1)[1].split() for ln in text.splitlines()
             if ln.startswith("RestrictAddressFamilies=")]
    assert len(lines) == 1
    assert "AF_UNIX" in lines[0]
    assert not {"AF_INET", "AF_INET6", "AF_PACKET"} & set(lines[0])
    # sd_notify, the one socket the service opens itself, is a unix one
    source = (ROOT / "companion" / "devices" / "systemd.py").read_text()
    assert re.findall(r"socket\.(AF_\w+)", source) == ["AF_UNIX"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_the_unit_still_verifies(tmp_path: Path) -> None:
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/companion/venv/bin/companion", "/bin/true"))
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, check=False)
    problems = [ln for ln in done.stderr.splitlines() if "RestrictAddressFamilies" in ln]
    assert not problems, done.stderr
