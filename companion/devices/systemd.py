"""Telling systemd how the service is (``Type=notify`` and ``WatchdogSec=`` in the unit).

``READY=1`` once the first screen is up, ``WATCHDOG=1`` from the loop (at most every half
watchdog period), ``STOPPING=1`` on the way out. If the loop ever hangs, systemd stops hearing
from it and restarts the service. Outside systemd (no ``NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable, Mapping


class Notifier:
    """The sd_notify protocol over the socket systemd names in ``NOTIFY_SOCKET``."""

    def __init__(self, env: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # an abstract socket
            address = "\0" + address[1:]
        self.address = address
        usec = env.get("WATCHDOG_USEC", "")
        self.interval = int(usec) / 2e6 if usec.isdigit() and int(usec) > 0 else None
        self._clock = clock
        self._last_ping = float("-inf")

    @property
    def active(self) -> bool:
        return bool(self.address)

    def send(self, message: str) -> None:
        if not self.address:
            return
        with contextlib.suppress(OSError), \
                socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.sendto(message.encode(), self.address)

    def ready(self) -> None:
        self.send("READY=1")

    def ping(self) -> None:
        """Tell the watchdog the loop is alive (rate-limited to half its period)."""
        if self.interval is None:
            return
        now = self._clock()
        if now - self._last_ping >= self.interval:
            self._last_ping = now
            self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")
