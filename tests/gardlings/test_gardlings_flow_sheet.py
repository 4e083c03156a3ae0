"""Every screen of Gardlings' table flow against its golden image, and all of them side by
side in one contact sheet (``tests/gardlings/golden/flow-sheet.png``).

Regenerate after a deliberate change:
``UPDATE_GOLDENS=1 pytest tests/gardlings/test_gardlings_flow_sheet.py``.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion import games
from companion.config import load_config
from companion.devices.buttons import Key
from companion.devices.display import open_display
from companion.ui.screens import render
from companion.ui.service import Context, Service

GOLDEN = Path(__file__).parent / "golden"
K = Key

#: (caption, key): a caption names the screen shown after its key
FLOW: list[tuple[str, Any]] = [
    ("games", None),
    ("", K.DOWN),
    ("", K.DOWN),
    ("game menu", K.OK),
    ("who plays", K.OK),
    ("round 1: gardens", K.OK),
    ("Maria's garden", K.OK),
    ("gems?", K.OK),
    *[("", K.DOWN)] * 8,
    ("9 gems", K.DOWN),
    ("gems entered", K.OK),
    ("", K.DOWN),
    ("gnome alarm: yes", K.OK),
    ("", K.DOWN),
    ("", K.DOWN),
    ("Maria entered", K.OK),
    ("", K.DOWN),
    ("Tom's garden", K.OK),
    ("", K.OK),
    *[("", K.DOWN)] * 12,
    ("", K.OK),
    ("", K.DOWN),
    ("", K.DOWN),
    ("", K.DOWN),
    ("both entered", K.OK),
    ("", K.DOWN),
    ("", K.DOWN),
    ("", K.DOWN),
    ("the market", K.OK),
    ("", K.BACK),
    ("", K.UP),
    ("Maria hires", K.OK),
    ("Tom hires", K.OK),
    ("round 2", K.OK),
]


@pytest.fixture(autouse=True)
def only_gardlings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other games as "coming", whatever they can do: these screens are Gardlings'."""
    registry = {g.name: g if g.name == "gardlings" else replace(g, commands="", flow="")
                for g in games.all_games()}
    monkeypatch.setattr(games.registry, "_REGISTRY", registry)


def frames(tmp_path: Path) -> list[tuple[str, Image.Image]]:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["players"] = ["Maria", "Tom"]
    service = Service(Context(settings, tmp_path), open_display(settings["display"]),
                      None, idle_poll=0)  # type: ignore[arg-type]
    shots = []
    for caption, key in FLOW:
        if key is not None:
            service.dispatch(key)
        if caption:
            shots.append((caption, render(service.page.view(""))))
    return shots


def test_every_flow_screen_matches_its_golden(tmp_path: Path, flow_goldens) -> None:
    flow_goldens(frames(tmp_path), GOLDEN)
