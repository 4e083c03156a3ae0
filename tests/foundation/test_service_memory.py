"""Memory stays flat over 300 scans in the service (issue #21): a service left at the table for
an evening keeps no more than a bounded number of screens (the ``preview`` display's frames) and
nothing per scan. Measured with tracemalloc between scan 100 and scan 300, not with a clock."""

from __future__ import annotations

import copy
import gc
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from luma.core.device import dummy

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.camera import FunctionCamera
from companion.devices.display import RecordingDisplay
from companion.the_glade import screens
from companion.ui import service as service_module
from companion.ui.service import Context, Service

#: A legal first placement: three hedgehogs in row 4.
PLACED = {"C4": "hedgehog/acorn/maple", "D4": "hedgehog/blackberry/beech",
          "E4": "hedgehog/mushroom/oak"}


def fake_scan(ctx: Any, photo: Any) -> dict[str, Any]:
    from companion.the_glade.names import BoardGeometry

    return {"board": BoardGeometry().to_dict(),
            "forest": {"tiles": dict(PLACED), "counters": {}}, "uncertain": []}


def test_memory_stays_flat_over_300_scans(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(screens, "scan_forest", fake_scan)
    monkeypatch.setattr(service_module, "BUSY_POLL", 0.002)  # no need to wait at a person's pace
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["camera"]["auto_capture"] = False
    settings["camera"]["average_frames"] = 1
    camera = FunctionCamera(lambda n: np.full((8, 8, 3), n % 256, np.uint8))
    ctx = Context(settings, tmp_path, camera=camera)
    display = RecordingDisplay(dummy(width=128, height=64, mode="1"), echo=False,
                               max_frames=40)
    used: list[int] = []
    rulings: list[str] = []

    def measure() -> None:
        gc.collect()
        used.append(tracemalloc.get_traced_memory()[0])

    def saw() -> None:
        rulings.append(service.page.title)

    scan = [Key.OK, saw, Key.BACK]  # rule my placement, the ruling, reject it
    script = [Key.OK, Key.OK, Key.OK, *scan * 100, measure, *scan * 200, measure]
    service = Service(ctx, display, ScriptedButtons(script), idle_poll=0)
    tracemalloc.start()
    try:
        service.run()
    finally:
        tracemalloc.stop()
    assert len(rulings) == 300 and set(rulings) == {"Player 1: legal"}, set(rulings)
    assert len(display.frames) == 40
    growth = used[1] - used[0]
    print(f"{growth} bytes more after 200 more scans; {used}")
    assert growth < 200_000, f"{growth} bytes more after 200 more scans"
