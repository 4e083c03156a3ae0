"""``companion demo``: the real service on simulated devices, driven by a scripted button sequence.

Nothing here is special to the demo but the devices and the script: the same pages and loop as
``companion run``; a recording display instead of the OLED (frames printed in the terminal and
written as an animated GIF, 4x, white on black like the panel); the table simulator instead of
the camera, photographing the bundled SAMPLE components; and a script instead of fingers.

The script is a game's own (its ``demo`` in the registry: The Glade's plays the start of a game
between Toni and Emma, see ``companion/the_glade/demo.py``); this module only runs it.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.devices.buttons import ScriptedButtons
from companion.devices.display import RecordingDisplay, open_display
from companion.errors import UnsupportedJobError
from companion.games.registry import GameInfo, all_games
from companion.ui.service import Context, Service


def run_demo(out: Path, *, quiet: bool = False, config_file: str | None = None) -> int:
    """Play ``script`` through the service; write ``out/frames.gif`` and ``out/last-frame.png``."""
    config = load_config(config_file)
    settings = copy.deepcopy(dict(config.values))
    settings["display"].update(driver="preview", preview_dir=str(out))
    demo = demo_game(settings).load_demo()()
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        data = Path(tmp)
        demo.setup(settings, data)
        ctx = Context(settings, data, camera=demo.camera())
        display = open_display(settings["display"], data, echo=not quiet)
        if isinstance(display, RecordingDisplay):
            display.frame_ms = 900
        with ScriptedButtons(demo.script()) as buttons:
            service = Service(ctx, display, buttons, idle_poll=0)
            demo.attach(service)
            status = service.run()
        scan_text, overlay = demo.epilogue(out)
    shown = len(display.frames) if isinstance(display, RecordingDisplay) else 0
    if not quiet:
        print(scan_text)
    print(f"demo: {shown} screens written to {out / 'frames.gif'}; what the recogniser saw in "
          f"a bundled photo: {overlay}")
    return status


def demo_game(settings: dict[str, Any]) -> GameInfo:
    """The game whose demo runs: the configured default game if it has one, else the first."""
    games = [g for g in all_games() if g.demo]
    if not games:
        raise UnsupportedJobError("no game has a demo")
    default = settings.get("games", {}).get("default")
    return next((g for g in games if g.name == default), games[0])


def simulator_frames(settings: dict[str, Any]) -> Callable[[int], Any]:
    """``camera.source: simulator`` for ``companion run``: the demo game's simulated photos."""
    return demo_game(settings).load_demo().frames()
