"""SIGTERM (systemd's stop) ends ``companion run`` cleanly, leaving the "stopped" screen."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image, ImageChops

from companion.ui.service import stopped_frame


def test_sigterm_leaves_stopped_screen(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n"
                      f"display: {{driver: preview, preview_dir: {frames}}}\n"
                      "buttons: {backend: keyboard}\n")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config", str(config)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "serving" not in (proc.stderr.readline() or ""):
            pass
        proc.stdin.write("s")  # a key press: the service is alive and reading keys
        proc.stdin.flush()
        time.sleep(0.5)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
    last = Image.open(frames / "last-frame.png").convert("L")
    expected = stopped_frame((128, 64)).convert("L")
    assert ImageChops.difference(last, expected).getbbox() is None
    assert Image.open(frames / "frames.gif").n_frames >= 3  # menu, moved selection, stopped
