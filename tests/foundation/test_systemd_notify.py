"""The service speaks systemd's notify protocol: ready, watchdog pings, stopping."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from service_helpers import make_service

from companion.devices.buttons import Key
from companion.devices.systemd import Notifier


@pytest.fixture
def notify_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "1")  # ping on every turn of the loop
    yield sock
    sock.close()


def messages(sock: socket.socket) -> list[str]:
    out = []
    sock.settimeout(0.2)
    while True:
        try:
            out.append(sock.recv(100).decode())
        except TimeoutError:
            return out


def test_ready_pings_and_stopping(tmp_path: Path, notify_socket: socket.socket) -> None:
    make_service(tmp_path, [Key.DOWN, Key.UP, Key.DOWN]).run()
    got = messages(notify_socket)
    assert got[0] == "READY=1" and got[-1] == "STOPPING=1"
    assert got.count("WATCHDOG=1") >= 3


def test_pings_are_rate_limited() -> None:
    now = [0.0]
    sent: list[str] = []
    n = Notifier({"NOTIFY_SOCKET": "/nonexistent", "WATCHDOG_USEC": "10000000"},
                 clock=lambda: now[0])
    n.send = sent.append  # type: ignore[method-assign]
    for t in (0.0, 1.0, 4.9, 5.0, 6.0, 10.1):
        now[0] = t
        n.ping()
    assert sent == ["WATCHDOG=1"] * 3  # at 0, 5 and 10.1 s: every half of the 10 s period


def test_outside_systemd_nothing_is_sent() -> None:
    n = Notifier({})
    assert not n.active
    n.ready()
    n.ping()
    n.stopping()
