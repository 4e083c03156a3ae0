"""Button port: gpiozero's MockFactory drives real Button objects; keys come out of one queue."""

from __future__ import annotations

import io
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.buttons import (
    GpioButtons,
    Key,
    KeyboardButtons,
    PressTracker,
    ScriptedButtons,
    open_buttons,
)
from companion.errors import DeviceError

PINS = {"up": 5, "down": 6, "ok": 13}
HOLD = 0.15


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.fixture
def buttons(factory):
    b = GpioButtons(PINS, hold=HOLD, bounce=0, pin_factory=factory)
    yield b
    b.close()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()  # pull-up wiring: pressed pulls the pin to ground


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def keys(b: GpioButtons, wait: float = 0.5) -> list[Key]:
    out = []
    while (k := b.get(timeout=wait)) is not None:
        out.append(k)
        wait = 0.05
    return out


def test_short_presses(factory, buttons) -> None:
    for pin in (5, 6, 13):
        press(factory, pin)
        release(factory, pin)
    assert keys(buttons) == [Key.UP, Key.DOWN, Key.OK]


def test_holding_ok_is_back_and_release_adds_nothing(factory, buttons) -> None:
    press(factory, 13)
    time.sleep(HOLD * 3)
    release(factory, 13)
    assert keys(buttons) == [Key.BACK]


def test_holding_up_and_down_is_power(factory, buttons) -> None:
    press(factory, 5)
    press(factory, 6)
    time.sleep(HOLD * 3)
    release(factory, 5)
    release(factory, 6)
    assert keys(buttons) == [Key.POWER]


def test_tracker_sequences() -> None:
    t = PressTracker()
    assert t.pressed("down") == [] and t.released("down") == [Key.DOWN]
    # a held UP alone gives nothing, not even on release
    assert t.pressed("up") == [] and t.held("up") == [] and t.released("up") == []
    # a stray hold of a button not pressed is ignored
    assert t.held("ok") == []


def test_bad_pin_is_a_device_error(factory) -> None:
    with pytest.raises(DeviceError, match="cannot use the button pins"):
        GpioButtons({"up": 5, "down": 5, "ok": 13}, pin_factory=factory)


def test_open_buttons_mock_backend() -> None:
    settings = {"backend": "mock", "pins": PINS, "pull_up": True, "bounce_seconds": 0.0,
                "long_press_seconds": 0.8}
    with open_buttons(settings) as b:
        assert isinstance(b, GpioButtons)


def test_keyboard_keys_from_a_stream() -> None:
    b = KeyboardButtons(io.StringIO("ws\nbxq"))
    got = []
    while (k := b.get(timeout=1)) is not None:
        got.append(k)
        if len(got) == 5:
            break
    b.close()
    assert got == [Key.UP, Key.DOWN, Key.OK, Key.BACK, Key.POWER]


def test_scripted_buttons_finish() -> None:
    b = ScriptedButtons(["up", Key.OK])
    assert [b.get(), b.get()] == [Key.UP, Key.OK]
    assert b.get() is None and b.finished


@pytest.mark.filterwarnings("ignore::Warning")
@pytest.mark.skipif(__import__("os").path.exists("/proc/device-tree/model"),
                    reason="a real Pi has GPIO")
def test_gpio_backend_off_the_pi_says_what_to_do() -> None:
    settings = {"backend": "gpio", "pins": PINS, "pull_up": True, "bounce_seconds": 0.03,
                "long_press_seconds": 0.8}
    with pytest.raises(DeviceError, match="buttons.backend: keyboard"):
        open_buttons(settings)
