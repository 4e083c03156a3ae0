"""The wiring diagram is drawn from the configuration's pins; the header map is right."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from PIL import Image

from companion.doctor.header import GROUNDS, HEADER, grounds_for, nearest_ground, physical_pin

ROOT = Path(__file__).resolve().parents[2]


def _script():  # hardware/ is not a package: load the script by path
    spec = importlib.util.spec_from_file_location("make_wiring_diagram",
                                                  ROOT / "hardware" / "make_wiring_diagram.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_header_map() -> None:
    assert len(HEADER) == 40 and len(GROUNDS) == 8
    assert sorted(int(v.split()[1]) for v in HEADER.values() if v.startswith("GPIO")) == \
        list(range(28))
    assert physical_pin(2) == 3 and physical_pin(3) == 5 and physical_pin(13) == 33
    with pytest.raises(ValueError):
        physical_pin(40)
    # the README's table: UP 29 -> GND 30, DOWN 31 -> 34, OK 33 -> 39
    assert grounds_for([29, 31, 33]) == [30, 34, 39]
    assert nearest_ground(1) == 6


def test_diagram_is_drawn_from_the_config(tmp_path: Path) -> None:
    script = _script()
    default = script.draw(None)
    committed = Image.open(ROOT / "hardware" / "wiring.png")
    assert committed.size == default.size == (script.W, script.H)
    own = tmp_path / "pins.yaml"
    own.write_text("buttons: {pins: {up: 17, down: 27, ok: 22}}\n")
    other = script.draw(str(own))
    assert other.tobytes() != default.tobytes()
