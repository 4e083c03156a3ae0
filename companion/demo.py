"""``companion demo``: the real service on simulated devices, driven by a scripted button sequence.

Nothing here is special to the demo but the devices and the script: the same pages and loop as
``companion run``; a recording display instead of the OLED (frames printed in the terminal and
written as an animated GIF, 4x, white on black like the panel); the table simulator instead of
the camera, photographing the bundled SAMPLE components; and a script instead of fingers.

The script plays the start of a game of The Glade between Toni and Emma: three placements ruled
from photos (one of them illegal, and rejected), the score so far, then the final score of the
bundled finished sample game, saved to the history.
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
from companion.paths import game_data_dir
from companion.ui.service import Context, Service

K = Key
BOARD = {"rows": 7, "cols": 7, "centre": "D4"}
TONI_1 = {"D3": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
          "D5": "hedgehog/mushroom/oak"}
EMMA_1 = {"C4": "mouse/acorn/beech", "D4": "squirrel/acorn/maple", "E4": "toad/acorn/oak"}
TONI_ILLEGAL = {**TONI_1, "C4": "mouse/mushroom/beech"}
TONI_2 = {**TONI_1, "E4": "hedgehog/blackberry/oak", "F4": "hedgehog/blackberry/beech"}


class Table:
    """The simulated table: which forest board lies under the camera now, and the players'
    eyes on the screen (to retake a photo the companion was not sure of, as people would)."""

    def __init__(self) -> None:
        self.tiles: dict[str, str] = {}
        self.service: Service | None = None
        self.retakes = 0

    def lay(self, tiles: dict[str, str]) -> Callable[[], None]:
        """A script step: the player's board now holds ``tiles``."""
        return lambda: setattr(self, "tiles", tiles)

    def retake_if_unsure(self) -> list[Any]:
        """A script step: on "Not sure", choose "Retake" (up to 5 times in all)."""
        if self.service is None or self.service.page.title != "Not sure" or self.retakes >= 5:
            return []
        self.retakes += 1
        return [K.OK, self.retake_if_unsure]


def demo_script(table: Table) -> tuple[Key | Callable[[], Any], ...]:
    """The button presses (and the tiles laid between them), with what each does."""
    sure = table.retake_if_unsure
    return (
        K.OK,                                   # The Glade
        K.OK, K.OK,                             # New game, two players: Toni and Emma
        table.lay(TONI_1),                      # Toni lays three hedgehogs in column D
        K.OK, sure,                             # rule (legal, set of 3; retake if unsure)
        K.OK, K.OK,                             # accept, read which counter moved
        K.OK,                                   # end Toni's turn
        table.lay(EMMA_1),                      # Emma lays three acorns in row 4
        K.OK, sure, K.OK, K.OK,                 # rule (legal, set of 3), accept, read
        K.OK,                                   # end Emma's turn
        table.lay(TONI_ILLEGAL),                # Toni tries a mouse at C4
        K.OK, sure, K.DOWN, K.OK,               # rule: illegal, read why, back
        table.lay(TONI_2),                      # she takes it back and lays E4 and F4
        K.OK, sure, K.OK, K.OK,                 # rule (legal, set of 3, double), accept
        K.DOWN, K.OK, K.DOWN, K.DOWN, K.BACK,   # the score so far
        K.DOWN, K.OK,                           # leave the game (it stays saved)
        K.DOWN, K.OK, K.OK,                     # score the bundled finished sample game
        K.DOWN, K.DOWN, K.DOWN, K.OK,           # read the breakdown
        K.OK, K.OK,                             # save it to the history
        K.DOWN, K.OK, K.BACK,                   # the history holds it
        K.BACK,                                 # back to the games
        K.POWER, K.OK,                          # stop the service
    )


def demo_camera(table: Table, seed: int = 1) -> FunctionCamera:
    """The table simulator photographing the board on :class:`Table`, a new view each time."""
    from companion.the_glade.recognition.pack import read_pack
    from companion.the_glade.recognition.sim import render_photo

    pack = read_pack(game_data_dir("the-glade") / "sample-pack")

    def frame(n: int) -> Any:
        state = {"board": BOARD, "forest": {"tiles": table.tiles, "counters": {}}}
        return render_photo(pack, state, seed=seed + n)[0]

    return FunctionCamera(frame, "table simulator")


def random_forest_frames(seed: int = 1) -> Callable[[int], Any]:
    """``camera.source: simulator`` for ``companion run``: photos of random SAMPLE forests."""
    import numpy as np

    from companion.the_glade.names import BoardGeometry
    from companion.the_glade.recognition.pack import read_pack
    from companion.the_glade.recognition.sim import random_forest, render_photo

    pack = read_pack(game_data_dir("the-glade") / "sample-pack")

    def frame(n: int) -> Any:
        state = random_forest(np.random.default_rng(seed + n), BoardGeometry(), pack)
        return render_photo(pack, state, seed=seed + n)[0]

    return frame


def scan_bundled_photo(model: Path, out: Path) -> str:
    """``companion scan`` on a bundled photo, with its overlay written to ``out``."""
    from companion.the_glade.recognition.jobs import scan

    photo = game_data_dir("the-glade") / "photos" / "forest-7x7-a.jpg"
    out.mkdir(parents=True, exist_ok=True)
    report = scan(photo, model=model, overlay=out / "scan-overlay.png", previous=None)
    return f"companion scan the-glade {photo.name}:\n{report.text}"


def sample_model(data_dir: Path) -> Path:
    """Enrol the bundled SAMPLE pack into ``data_dir`` (as a user enrols their own copy)."""
    from companion.the_glade.recognition.jobs import enrol

    out = data_dir / "models" / "the-glade-sample"
    enrol(game_data_dir("the-glade") / "sample-pack", out=out)
    return out


def run_demo(out: Path, *, quiet: bool = False, config_file: str | None = None) -> int:
    """Play ``script`` through the service; write ``out/frames.gif`` and ``out/last-frame.png``."""
    config = load_config(config_file)
    settings = copy.deepcopy(dict(config.values))
    settings["display"].update(driver="preview", preview_dir=str(out))
    settings["games"]["players"] = ["Toni", "Emma", "Liz", "Sam"]
    with tempfile.TemporaryDirectory(prefix="companion-demo-") as tmp:
        data = Path(tmp)
        settings["games"]["the-glade"]["model"] = str(sample_model(data))
        table = Table()
        ctx = Context(settings, data, camera=demo_camera(table))
        display = open_display(settings["display"], data, echo=not quiet)
        if isinstance(display, RecordingDisplay):
            display.frame_ms = 900
        with ScriptedButtons(demo_script(table)) as buttons:
            service = Service(ctx, display, buttons, idle_poll=0)
            table.service = service
            status = service.run()
        scan_text = scan_bundled_photo(Path(settings["games"]["the-glade"]["model"]), out)
    shown = len(display.frames) if isinstance(display, RecordingDisplay) else 0
    if not quiet:
        print(scan_text)
    print(f"demo: {shown} screens written to {out / 'frames.gif'}; what the recogniser saw in "
          f"a bundled photo: {out / 'scan-overlay.png'}")
    return status
