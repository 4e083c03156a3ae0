"""``companion demo``: the real service on simulated devices, driven by a scripted button sequence.

Nothing here is special to the demo but the devices and the script: the same pages and loop as
``companion run``; a recording display instead of the OLED (frames printed in the terminal and
written as an animated GIF, 4x, white on black like the panel); the table simulator instead of
the camera, photographing the bundled SAMPLE components; and a script instead of fingers.

Each game with a ``demo`` in the registry brings its own part (``companion/the_glade/demo.py``:
the start of a game between Toni and Emma; ``companion/glass_garden/demo.py``: turns of the solo
game followed from photos), and a part may bring a ``finale`` played after every game's part
(The Glade's: a finished game scored from its photos). This module only strings them together:
the configured default game first, one service, the camera of the part being played, and
POWER at the end.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.camera import FunctionCamera
from companion.devices.display import RecordingDisplay, open_display
from companion.errors import UnsupportedJobError
from companion.games.registry import GameInfo, all_games
from companion.ui.service import Context, Service

Step = Key | Callable[[], Any]


def run_demo(out: Path, *, quiet: bool = False, config_file: str | None = None) -> int:
    """Play every game's part through one service; write ``out/frames.gif`` and
    ``out/last-frame.png``, and each part's epilogue (a bundled photo scanned)."""
    config = load_config(config_file)
    settings = copy.deepcopy(dict(config.values))
    settings["display"].update(driver="preview", preview_dir=str(out))
    demos = [g.load_demo()() for g in demo_games(settings)]
    playing = [demos[0]]

    def on(demo: Any) -> Callable[[], None]:
        """A script step: ``demo``'s part begins (its camera is the one photographing)."""
        return lambda: playing.__setitem__(0, demo)

    script: list[Step] = []
    for demo in demos:
        script += [on(demo), *demo.script()]
    for demo in demos:
        finale = getattr(demo, "finale", None)
        if finale is not None:
            script += [on(demo), *finale()]
    script += [Key.POWER, Key.OK]  # stop the service
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        data = Path(tmp)
        cameras = {}
        for demo in demos:
            demo.setup(settings, data)
            cameras[id(demo)] = demo.camera()
        camera = FunctionCamera(lambda n: cameras[id(playing[0])].capture(), "table simulator")
        ctx = Context(settings, data, camera=camera)
        display = open_display(settings["display"], data, echo=not quiet)
        if isinstance(display, RecordingDisplay):
            display.frame_ms = 900
        with ScriptedButtons(script) as buttons:
            service = Service(ctx, display, buttons, idle_poll=0)
            for demo in demos:
                demo.attach(service)
            status = service.run()
        said = [demo.epilogue(out) for demo in demos]
    shown = len(display.frames) if isinstance(display, RecordingDisplay) else 0
    if not quiet:
        print("\n\n".join(text for text, _overlay in said))
    print(f"demo: {shown} screens written to {out / 'frames.gif'}; what the recognisers saw in "
          f"bundled photos: {', '.join(overlay for _text, overlay in said)}")
    return status


def choose(service: Callable[[], Any], label: str) -> Callable[[], list[Key]]:
    """A script step: move to the entry of the menu in front whose words begin with ``label``
    and press OK, as a person reads the screen (none such: nothing is pressed)."""

    def step() -> list[Key]:
        page = service().page
        labels = [c.label for c in getattr(page, "choices", ())]
        found = [i for i, text in enumerate(labels) if text.startswith(label)]
        if not found:
            return []
        return [Key.DOWN] * ((found[0] - page.selected) % len(labels)) + [Key.OK]

    return step


def demo_games(settings: dict[str, Any]) -> list[GameInfo]:
    """Every game with a demo, the configured default game first."""
    default = demo_game(settings)
    return [default, *(g for g in all_games() if g.demo and g is not default)]


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
