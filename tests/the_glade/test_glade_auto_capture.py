"""Auto-capture at the table: no ruling while the board stands as it was or a hand moves over
it; one ruling, by itself, once new tiles lie still."""

from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.config import load_config
from companion.devices.buttons import Key
from companion.devices.camera import FunctionCamera
from companion.devices.display import open_display
from companion.the_glade import screens
from companion.ui.capture import CaptureMenuPage
from companion.ui.service import Context, Service

TONI = {"D3": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
        "D5": "hedgehog/mushroom/oak"}
RNG = np.random.default_rng(3)


class Scene:
    """What the camera sees: a grey table, some bright 'tiles', maybe a dark 'hand'."""

    def __init__(self) -> None:
        self.tiles = 0
        self.hand: int | None = None

    def frame(self, n: int) -> np.ndarray:
        img = np.full((240, 320, 3), 90, np.uint8)
        for i in range(self.tiles):
            img[60:100, 40 + i * 50:80 + i * 50] = 220
        if self.hand is not None:
            x = (self.hand + 37 * n) % 250  # moving
            img[100:220, x:x + 70] = 40
        noise = RNG.normal(0, 3, img.shape)
        return np.clip(img + noise, 0, 255).astype(np.uint8)


def run_ticks(service: Service, n: int) -> list[str]:
    titles = []
    for _ in range(n):
        service.tick()
        while service.page.busy and not isinstance(service.page, CaptureMenuPage):
            service.page.wait(10)  # type: ignore[attr-defined]
            service.tick()
        titles.append(service.page.title)
        time.sleep(0.01)
    return titles


def test_rules_by_itself_once_new_tiles_lie_still(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    scene = Scene()
    seen: list[int] = []

    def fake_scan(ctx: Any, photo: Any) -> dict[str, Any]:
        seen.append(1)
        return {"board": {"rows": 7, "cols": 7, "centre": "D4"},
                "forest": {"tiles": TONI, "counters": {}}, "uncertain": []}

    monkeypatch.setattr(screens, "scan_forest", fake_scan)
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["camera"].update(auto_capture=True, still_frames=2)
    ctx = Context(settings, tmp_path, camera=FunctionCamera(scene.frame))
    service = Service(ctx, open_display(settings["display"]), None, idle_poll=0)  # type: ignore[arg-type]
    for key in (Key.OK, Key.OK, Key.OK):  # The Glade, New game, 2 players
        service.dispatch(key)
    assert service.page.busy  # watching the table
    assert set(run_ticks(service, 40)) == {"Glade R1 Player 1"} and not seen  # nothing new
    scene.hand = 0
    assert set(run_ticks(service, 30)) == {"Glade R1 Player 1"} and not seen  # a hand moving
    scene.hand, scene.tiles = None, 3
    titles = run_ticks(service, 40)
    assert "Player 1: legal" in titles and len(seen) == 1
