"""The Glade's table flow driven by real gpiozero Buttons on MockFactory pins: presses, a hold
for BACK, releases; the service loop runs in its own thread as on the Pi."""

from __future__ import annotations

import copy
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import load_config
from companion.devices.buttons import GpioButtons
from companion.devices.camera import FunctionCamera
from companion.devices.display import open_display
from companion.session import SessionStore
from companion.the_glade import screens
from companion.ui.service import Context, Service

PINS = {"up": 5, "down": 6, "ok": 13}
HOLD = 0.2
TONI = {"D3": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
        "D5": "hedgehog/mushroom/oak"}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def press(factory: MockFactory, name: str, hold: bool = False) -> None:
    pin = factory.pin(PINS[name])
    pin.drive_low()
    time.sleep(HOLD * 2.5 if hold else 0.03)
    pin.drive_high()
    time.sleep(0.15)  # the loop draws and takes the next key


def wait_for(predicate: Any, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_a_turn_with_real_buttons(tmp_path: Path, factory: MockFactory,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(screens, "scan_forest", lambda ctx, photo: {
        "board": {"rows": 7, "cols": 7, "centre": "D4"},
        "forest": {"tiles": TONI, "counters": {}}, "uncertain": []})
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["players"] = ["Toni", "Emma"]
    ctx = Context(settings, tmp_path, camera=FunctionCamera(
        lambda n: np.zeros((4, 4, 3), np.uint8)))
    buttons = GpioButtons(PINS, hold=HOLD, bounce=0, pin_factory=factory)
    service = Service(ctx, open_display(settings["display"]), buttons, idle_poll=0.05)
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    try:
        press(factory, "ok")            # The Glade
        press(factory, "ok")            # New game
        press(factory, "up")            # from "2 players" up, round to "4 players"
        press(factory, "down")          # and down, round to "2 players" again
        press(factory, "ok")            # Toni and Emma
        wait_for(lambda: service.page.title.startswith("Glade R1 Toni"))
        press(factory, "ok")            # rule my placement
        wait_for(lambda: service.page.title == "Toni: legal")
        press(factory, "ok", hold=True)  # BACK: reject the reading
        wait_for(lambda: service.page.title.startswith("Glade R1 Toni"))
        assert SessionStore(tmp_path).load().accepted == []
        press(factory, "ok")            # rule again
        wait_for(lambda: service.page.title == "Toni: legal")
        press(factory, "ok")            # accept
        wait_for(lambda: service.page.title == "Accepted")
        assert len(SessionStore(tmp_path).load().accepted) == 1
        # hold UP and DOWN together: stop, after confirming
        up, down = factory.pin(PINS["up"]), factory.pin(PINS["down"])
        up.drive_low()
        down.drive_low()
        time.sleep(HOLD * 2.5)
        up.drive_high()
        down.drive_high()
        wait_for(lambda: service.page.title == "Stop?")
        press(factory, "ok")            # OK: stop (what was asked for)
        loop.join(10)
        assert not loop.is_alive() and service.stop_requested
    finally:
        service.request_stop()
        loop.join(5)
        buttons.close()
