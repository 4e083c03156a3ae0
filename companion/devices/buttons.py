"""Button port: presses become a queue of keys (UP, DOWN, OK, BACK, POWER) for one loop to read.

Callbacks only put keys on the queue; the service's single loop takes them and owns the display
(luma takes no locks). Short and long presses are told apart here, in :class:`PressTracker`, so
every back-end (gpiozero on the Pi, the keyboard off it, a script in the demo) gives the same
keys: a short press of UP, DOWN or OK is that key; holding OK is BACK; holding UP and DOWN
together is POWER (shut down or restart).
"""

from __future__ import annotations

import contextlib
import queue
import select
import sys
import threading
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, TextIO

from companion.errors import DeviceError

ROLES = ("up", "down", "ok")


class Key(StrEnum):
    """What the service reacts to."""

    UP = "up"
    DOWN = "down"
    OK = "ok"
    BACK = "back"
    POWER = "power"


class PressTracker:
    """Turns press / hold / release of the three buttons into keys.

    >>> t = PressTracker()
    >>> t.pressed("ok"), t.released("ok")
    ([], [<Key.OK: 'ok'>])
    >>> t.pressed("ok"), t.held("ok"), t.released("ok")
    ([], [<Key.BACK: 'back'>], [])
    >>> t.pressed("up"), t.pressed("down"), t.held("up"), t.held("down")
    ([], [], [<Key.POWER: 'power'>], [])
    """

    def __init__(self) -> None:
        self.down: set[str] = set()
        self.held_roles: set[str] = set()
        self._combo_sent = False

    def pressed(self, role: str) -> list[Key]:
        self.down.add(role)
        return []

    def held(self, role: str) -> list[Key]:
        if role not in self.down:
            return []
        self.held_roles.add(role)
        if {"up", "down"} <= self.down:
            if self._combo_sent:
                return []
            self._combo_sent = True
            self.held_roles.update(("up", "down"))
            return [Key.POWER]
        return [Key.BACK] if role == "ok" else []

    def released(self, role: str) -> list[Key]:
        was_held = role in self.held_roles
        self.down.discard(role)
        self.held_roles.discard(role)
        if not self.down:
            self._combo_sent = False
        if was_held or role not in ROLES:
            return []
        return [Key(role)]


class Buttons:
    """A source of keys; ``get`` waits for the next one (``None`` on time-out)."""

    name = "buttons"
    #: a script waits for work under way to finish before its next key, as a person would
    patient = False

    def __init__(self) -> None:
        self.events: queue.Queue[Key] = queue.Queue()
        self.tracker = PressTracker()
        self._lock = threading.Lock()
        self.closed = False
        self.finished = False  # a scripted source that has run out

    def _feed(self, action: str, role: str) -> None:
        with self._lock:
            keys = getattr(self.tracker, action)(role)
        for key in keys:
            self.events.put(key)

    def get(self, timeout: float | None = None) -> Key | None:
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.closed = True

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class GpioButtons(Buttons):
    """Three push buttons on GPIO pins through gpiozero (any pin factory, e.g. MockFactory)."""

    def __init__(self, pins: dict[str, int], *, pull_up: bool = True, bounce: float = 0.03,
                 hold: float = 0.8, pin_factory: Any = None) -> None:
        super().__init__()
        self.name = "GPIO buttons"
        try:
            from gpiozero import Button
            from gpiozero.exc import BadPinFactory, GPIOZeroError
        except ImportError as exc:
            raise DeviceError(f"gpiozero is not installed ({exc}); reinstall the "
                              "companion") from None
        self._buttons: list[Any] = []
        try:
            for role in ROLES:
                b = Button(pins[role], pull_up=pull_up, bounce_time=bounce or None,
                           hold_time=hold, pin_factory=pin_factory)
                b.when_pressed = lambda _b=None, r=role: self._feed("pressed", r)
                b.when_held = lambda _b=None, r=role: self._feed("held", r)
                b.when_released = lambda _b=None, r=role: self._feed("released", r)
                self._buttons.append(b)
        except BadPinFactory:
            self.close()
            raise DeviceError("no GPIO here (not a Raspberry Pi, or lgpio missing: "
                              "'sudo apt install python3-lgpio'); off the Pi set "
                              "buttons.backend: keyboard") from None
        except (GPIOZeroError, OSError) as exc:
            self.close()
            raise DeviceError(f"cannot use the button pins {pins}: {exc}; check buttons.pins "
                              "and that no other program holds them") from None

    def close(self) -> None:
        for b in self._buttons:
            with contextlib.suppress(Exception):
                b.close()
        self._buttons = []
        super().close()


#: Keyboard letters for each button action (off the Pi).
KEYMAP: dict[str, Key] = {
    "w": Key.UP, "k": Key.UP, "\x1b[A": Key.UP,
    "s": Key.DOWN, "j": Key.DOWN, "\x1b[B": Key.DOWN,
    "\r": Key.OK, "\n": Key.OK, " ": Key.OK, "o": Key.OK,
    "b": Key.BACK, "\x7f": Key.BACK, "\x1b": Key.BACK,
    "p": Key.POWER, "q": Key.POWER,
}


class KeyboardButtons(Buttons):
    """Keys from a terminal: w/s or arrows move, Enter is OK, b/Backspace/Esc is BACK, q quits."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__()
        self.name = "keyboard"
        self._stream = stream or sys.stdin
        self._restore: Any = None
        self._make_raw()
        self._thread = threading.Thread(target=self._read, name="keyboard", daemon=True)
        self._thread.start()

    def _make_raw(self) -> None:
        try:
            import termios
            import tty

            fd = self._stream.fileno()
            if not self._stream.isatty():
                return
            old = termios.tcgetattr(fd)
            tty.setcbreak(fd)
            self._restore = lambda: termios.tcsetattr(fd, termios.TCSADRAIN, old)
        except (ImportError, OSError, ValueError, AttributeError):
            self._restore = None

    def _read(self) -> None:
        while not self.closed:
            try:
                if self._stream.isatty():
                    ready, _, _ = select.select([self._stream], [], [], 0.2)
                    if not ready:
                        continue
                ch = self._stream.read(1)
            except (OSError, ValueError):
                break
            if ch == "":
                self.finished = True
                break
            if ch == "\x1b" and self._stream.isatty():
                ready, _, _ = select.select([self._stream], [], [], 0.05)
                if ready:
                    ch += self._stream.read(2)
            key = KEYMAP.get(ch.lower() if len(ch) == 1 else ch)
            if key is not None:
                self.events.put(key)

    def close(self) -> None:
        if self._restore is not None:
            with contextlib.suppress(Exception):
                self._restore()
            self._restore = None
        super().close()


class ScriptedButtons(Buttons):
    """A fixed sequence of keys (the demo's script and flow tests); then ``finished``.

    The script may also hold plain functions, called when their turn comes: what happens at
    the table between presses (a player laying tiles down in front of the simulated camera).
    A function may return more script to play next, at once: a reaction to what the screen
    shows (retaking a photo the companion was not sure of).
    """

    def __init__(self, script: Iterable[Key | str | Callable[[], object]]) -> None:
        super().__init__()
        self.name = "script"
        self.patient = True
        self._script: queue.Queue[Key | Callable[[], object]] = queue.Queue()
        self._next: list[Key | Callable[[], object]] = []
        for item in script:
            self._script.put(item if callable(item) else Key(item))

    def get(self, timeout: float | None = None) -> Key | None:
        while True:
            if self._next:
                item = self._next.pop(0)
            else:
                try:
                    item = self._script.get_nowait()
                except queue.Empty:
                    self.finished = True
                    return None
            if isinstance(item, Key):
                return item
            more = item()
            if more:
                self._next = [m if callable(m) else Key(m) for m in more] + self._next

    @property
    def remaining(self) -> int:
        """Script items not yet used."""
        return self._script.qsize() + len(self._next)


def open_buttons(settings: dict[str, Any], pin_factory: Any = None) -> Buttons:
    """The buttons the ``buttons`` section of the configuration asks for."""
    backend = settings["backend"]
    if backend == "keyboard":
        return KeyboardButtons()
    if backend == "mock":
        from gpiozero.pins.mock import MockFactory

        pin_factory = pin_factory or MockFactory()
    return GpioButtons(settings["pins"], pull_up=settings["pull_up"],
                       bounce=settings["bounce_seconds"], hold=settings["long_press_seconds"],
                       pin_factory=pin_factory)
