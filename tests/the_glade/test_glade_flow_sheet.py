"""Every screen of The Glade's table flow, each against its golden image, and all of them side
by side in one contact sheet for the README (``tests/the_glade/golden/flow-sheet.png``).

The scans are stubbed (what the camera 'sees' is set by the script), so the screens are the
same on every machine. Regenerate after a deliberate change: ``UPDATE_GOLDENS=1 pytest
tests/the_glade/test_glade_flow_sheet.py``.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest
from PIL import Image

from companion import games
from companion.config import load_config
from companion.devices.buttons import Key
from companion.devices.camera import FunctionCamera
from companion.devices.display import open_display
from companion.the_glade import screens
from companion.ui.screens import render
from companion.ui.service import Context, Service

GOLDEN = Path(__file__).parent / "golden"
BOARD = {"rows": 7, "cols": 7, "centre": "D4"}
TONI = {"D3": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
        "D5": "hedgehog/mushroom/oak"}
EMMA = {"C4": "mouse/acorn/beech", "D4": "squirrel/acorn/maple", "E4": "toad/acorn/oak"}
TONI_BAD = {**TONI, "C4": "mouse/mushroom/beech"}
K = Key


class Table:
    """What the stub scanner 'sees' next (one table per test run)."""

    tiles: ClassVar[dict[str, str]] = {}
    uncertain: ClassVar[list[str]] = []


def lay(tiles: dict[str, str], uncertain: tuple[str, ...] = ()) -> Any:
    def step() -> None:
        Table.tiles, Table.uncertain = tiles, list(uncertain)
    return step


#: (caption, script step): a caption names the screen shown after its step
FLOW: list[tuple[str, Any]] = [
    ("games", None),
    ("game menu", K.OK),
    ("who plays", K.OK),
    ("Toni's turn", K.OK),
    ("", lay(TONI)),
    ("ruling: legal", K.OK),
    ("accepted, counter moves", K.OK),
    ("after the action", K.OK),
    ("Emma's turn", K.OK),
    ("", lay(EMMA, uncertain=("E4",))),
    ("not sure: retake or keep", K.OK),
    ("", lay(EMMA)),
    ("Emma: legal", K.OK),
    ("", K.OK),
    ("", K.OK),
    ("Toni, round 2", K.OK),
    ("", lay(TONI_BAD)),
    ("ruling: illegal", K.OK),
    ("its reasons", K.DOWN),
    ("", K.OK),
    ("claim a toadstool", K.DOWN),
    ("which glade space", K.OK),
    ("which square", K.OK),
    ("claimed", K.OK),
    ("", K.OK),
    ("", K.DOWN),
    ("score so far", K.OK),
    ("back to the turn", K.BACK),
    ("stop?", K.POWER),
]


@pytest.fixture(autouse=True)
def only_the_glade(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other games as "coming", whatever they can do: these screens are The Glade's."""
    registry = {g.name: g if g.name == "the-glade" else replace(g, commands="", flow="")
                for g in games.all_games()}
    monkeypatch.setattr(games.registry, "_REGISTRY", registry)


@pytest.fixture(autouse=True)
def stub_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_scan(ctx: Any, photo: Any) -> dict[str, Any]:
        tiles = {k: v for k, v in Table.tiles.items() if k not in Table.uncertain}
        return {"board": BOARD, "forest": {"tiles": tiles, "counters": {}},
                "uncertain": Table.uncertain}

    monkeypatch.setattr(screens, "scan_forest", fake_scan)


def frames(tmp_path: Path) -> list[tuple[str, Image.Image]]:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["players"] = ["Toni", "Emma"]
    ctx = Context(settings, tmp_path, camera=FunctionCamera(
        lambda n: np.zeros((4, 4, 3), np.uint8)))
    service = Service(ctx, open_display(settings["display"]), None, idle_poll=0)  # type: ignore[arg-type]
    shots = []
    for caption, step in FLOW:
        if isinstance(step, Key):
            service.dispatch(step)
        elif step is not None:
            step()
        while service.page.busy:  # a scan: wait for it as a person would
            service.page.wait(10)  # type: ignore[attr-defined]
            service.tick()
        if caption:
            shots.append((caption, render(service.page.view(""))))
    return shots


def test_every_flow_screen_matches_its_golden(tmp_path: Path, flow_goldens) -> None:
    flow_goldens(frames(tmp_path), GOLDEN)
