"""Seeded fuzzing of every reader (issue #21): mutated Glass Garden and The Glade state files,
saved games (of both games), histories, decks, configurations and photos, each through the
readers a user or the service reaches it by (``score``/``hint the-glade`` and the service's
*Score a game*, Glass Garden's state reader that ``assist`` uses, the service starting over a
saved game and resuming it, the history command and page, the deck loader, the configuration
loader, the files camera and ``scan``'s loader).

Every case must be read, or refused in one line; none may reach the user as an internal error,
and none may take over 10 s of CPU. The cases run in one child process
(``fuzz_readers_child.py``), watched line by line, so a hang is named by its case; the time
limits are on CPU time, which load does not stretch, and the wall-clock timeout is only a hang
guard.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

CHILD = Path(__file__).with_name("fuzz_readers_child.py")
SEED = 21
#: the kinds of file, each mutated PER_KIND times
KINDS = {"glade", "garden", "session", "garden-session", "history", "deck", "config", "photo"}
#: cases of each kind: 240 files, about 1 in 12 a whole hostile file (a bomb, 100000 deep, ...)
PER_KIND = 30
#: the most CPU one case may take (the issue's "no hang over 10 s")
CPU_LIMIT = 10.0
#: a case that says nothing for this long has hung (only a guard: nothing waits this long)
HANG = 300.0


def run_cases(tmp_path: Path) -> list[dict[str, Any]]:
    proc = subprocess.Popen([sys.executable, str(CHILD), str(SEED), str(PER_KIND),
                             str(tmp_path / "cases")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    results, started = [], None
    try:
        while True:
            try:
                line = lines.get(timeout=HANG)
            except queue.Empty:
                pytest.fail(f"case {started} hung (nothing said for {HANG:.0f} s)")
            if line is None:
                break
            data = json.loads(line)
            if "start" in data:
                started = data
            elif "done" in data:
                assert data["done"] == len(KINDS) * PER_KIND
            else:
                results.append(data)
    finally:
        proc.kill()
        _, err = proc.communicate()
    assert proc.returncode in (0, -9), err
    assert results, err
    return results


def test_every_reader_refuses_a_mutated_file_in_one_line(tmp_path: Path) -> None:
    results = run_cases(tmp_path)
    cases = {r["case"] for r in results}
    assert len(cases) == len(KINDS) * PER_KIND
    internal = [r for r in results if r["internal"]]
    assert not internal, internal[:5]
    slow = [r for r in results if r["cpu"] > CPU_LIMIT]
    assert not slow, slow[:5]
    long_messages = []
    for r in results:
        lines = [ln for ln in r["message"].splitlines() if ln.strip()]
        if len(lines) > 1:
            long_messages.append(r)
    assert not long_messages, long_messages[:5]
    refused = Counter(r["kind"] for r in results if r["message"])
    read = Counter(r["kind"] for r in results if not r["message"])
    # the mutations reach past the parsers: each kind has refusals, most have files still read
    assert set(refused) == KINDS
    assert sum(read.values()) >= 20, read
    print(f"{len(cases)} files, {len(results)} readings: refused {dict(refused)}, read "
          f"{dict(read)}")


def test_scans_loader_says_one_line_for_a_damaged_png(tmp_path: Path,
                                                     capfd: pytest.CaptureFixture[str]) -> None:
    import cv2
    import numpy as np

    from companion.errors import CompanionError
    from companion.vision.image import load_image

    _ok, png = cv2.imencode(".png", np.full((48, 64, 3), 90, np.uint8))
    data = bytearray(png.tobytes())
    data[-20] ^= 0xFF  # inside the image data: the checksum no longer matches
    path = tmp_path / "photo.png"
    path.write_bytes(bytes(data))
    with pytest.raises(CompanionError):
        load_image(path)
    assert capfd.readouterr().err == ""


def test_glass_garden_refuses_a_fractional_actions_left(tmp_path: Path) -> None:
    from companion.errors import StateError
    from companion.glass_garden.state_file import load_state

    sample = Path(__file__).resolve().parents[2] / "config/games/glass-garden/sample-start.yaml"
    path = tmp_path / "state.yaml"
    path.write_text(sample.read_text().replace("turn: 1", "turn: 1\nactions_left: 1.0"))
    with pytest.raises(StateError, match="actions_left"):
        load_state(path)
