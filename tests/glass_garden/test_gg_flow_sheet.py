"""Every screen of Glass Garden's table flow against its golden image, and all of them side by
side in one contact sheet for the README (``tests/glass_garden/golden/flow-sheet.png``).

The advice's text depends on how far an anytime search gets, so its screens are checked by
``test_gg_screens.py`` instead. Regenerate after a deliberate change:
``UPDATE_GOLDENS=1 pytest tests/glass_garden/test_gg_flow_sheet.py``.
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
    ("game menu", K.OK),
    ("who plays", K.OK),
    ("which critter", K.OK),
    ("column 2", K.OK),
    *[("", K.OK)] * 6,
    ("column 9", K.OK),
    ("the turn", K.OK),
    ("enter a step", K.DOWN),
    ("what did you do", K.OK),
    ("after the step", K.OK),
    ("", K.DOWN),
    ("undo", K.DOWN),
    ("undone", K.OK),
]


@pytest.fixture(autouse=True)
def only_glass_garden(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other games as "coming", whatever they can do: these screens are Glass Garden's."""
    registry = {g.name: g if g.name == "glass-garden" else replace(g, commands="", flow="")
                for g in games.all_games()}
    monkeypatch.setattr(games.registry, "_REGISTRY", registry)


def frames(tmp_path: Path) -> list[tuple[str, Image.Image]]:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
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
