"""``companion demo``: the real service on simulated devices, driven by a scripted button sequence.

Nothing here is special to the demo but the devices: the same pages and loop as ``companion
run``, a recording display instead of the OLED (frames printed in the terminal and written as an
animated GIF, 4x, white on black like the panel) and a script instead of fingers.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.display import RecordingDisplay, open_display
from companion.ui.service import Context, Service

#: The demo's button presses: a look at a game still to come, then a game scored from a state.
SCRIPT: tuple[Key, ...] = (
    Key.DOWN, Key.OK, Key.OK,            # Glass Garden: coming
    Key.UP, Key.OK,                      # The Glade's menu
    Key.OK, Key.OK,                      # score the bundled sample game
    Key.DOWN, Key.DOWN, Key.DOWN, Key.DOWN, Key.DOWN, Key.DOWN,  # read the breakdown
    Key.BACK, Key.BACK, Key.BACK,        # back to the games
    Key.POWER, Key.DOWN, Key.OK,         # stop the service
)


def run_demo(out: Path, *, quiet: bool = False, config_file: str | None = None,
             script: tuple[Key, ...] = SCRIPT) -> int:
    """Play ``script`` through the service; write ``out/frames.gif`` and ``out/last-frame.png``."""
    config = load_config(config_file)
    settings = copy.deepcopy(dict(config.values))
    settings["display"].update(driver="preview", preview_dir=str(out))
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as data:
        ctx = Context(settings, Path(data))
        display = open_display(settings["display"], Path(data), echo=not quiet)
        if isinstance(display, RecordingDisplay):
            display.frame_ms = 900
        with ScriptedButtons(script) as buttons:
            status = Service(ctx, display, buttons, idle_poll=0).run()
    shown = len(display.frames) if isinstance(display, RecordingDisplay) else 0
    print(f"demo: {shown} screens written to {out / 'frames.gif'}")
    return status
