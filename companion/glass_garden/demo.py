"""Glass Garden's demo: the first turns of the solo game, followed from simulated photos.

Toni deals the garden and the companion reads the deal from a photo; it advises, she plays the
turn, photographs the garden and the companion follows it, then advises from what the camera
saw. On the third photo she has flipped the wrong glass card: the reading says so, naming the
card, she flips the right one and retakes. ``companion demo`` (``companion.demo``) runs this
script through the real service on simulated devices, after The Glade's.

The photos are the table simulator's (SAMPLE art, :mod:`.recognition.sim`; nothing else on the
table: the recogniser's figures with distractors are the benchmark's), rendered once and
bundled in ``config/games/glass-garden/photos/demo/`` with the position each shows
(``NAME.truth.json``): rendering one takes seconds, reading it a tenth of one. The positions
are the advice's own plan from ``sample-start.yaml`` (:func:`plan_positions`, run once);
``python -m companion.glass_garden.demo`` renders the photos from them again, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.devices.buttons import Key
from companion.devices.camera import FunctionCamera
from companion.glass_garden.deck import CONFIG_DIR

K = Key
DEMO_DIR = CONFIG_DIR / "photos" / "demo"
#: (photo, seed): the bundled photos in the order the demo shows them (seeds whose views the
#: recogniser read exactly, committed and in progress, with 10 and 40 renderings a face).
SHOTS = (("deal", 201), ("turn-2", 201), ("turn-3-wrong-glass", 203), ("turn-3", 203))
#: Renderings of each face learnt by the demo's enrolment: a user's ``companion enrol`` learns
#: 40; the demo's bundled photos read the same with fewer, and the demo starts seconds sooner.
DEMO_RENDERS = 10


def truth(name: str) -> dict[str, Any]:
    """The position a bundled demo photo shows (a state file)."""
    data: dict[str, Any] = json.loads((DEMO_DIR / f"{name}.truth.json").read_text())
    return data


class Table:
    """The simulated garden: which photo the camera sees now, and the player's eyes on the
    screen (to retake a photo the companion was not sure of)."""

    def __init__(self) -> None:
        self.name = "deal"
        self.attempt = 0
        self.service: Any = None
        self.retakes = 0
        self._photos: dict[tuple[str, int], Any] = {}

    def show(self, name: str) -> Callable[[], None]:
        """A script step: the garden now looks as the bundled photo ``name`` shows it."""
        def step() -> None:
            self.name, self.attempt = name, 0
        return step

    def photo(self) -> Any:
        """The photo of the garden now: the bundled one, or (a retake) a new view of it."""
        key = (self.name, self.attempt)
        if key not in self._photos:
            if self.attempt == 0:
                from companion.vision.image import load_image

                self._photos[key] = load_image(DEMO_DIR / f"{self.name}.jpg")
            else:
                self._photos[key] = render(self.name, self.attempt)
        return self._photos[key]

    def retake_if_unsure(self) -> list[Any]:
        """A script step: on "Not sure" choose "Retake", on a photo that could not be read
        "OK: try again" (up to 3 times in all), with a new view of the same garden."""
        from companion.ui.task import RetryPage

        page = self.service.page if self.service is not None else None
        if page is None or self.retakes >= 3 or not (
                page.title == "Not sure" or isinstance(page, RetryPage)):
            return []
        self.retakes += 1
        self.attempt += 1
        return [K.OK, self.retake_if_unsure]


def render(name: str, attempt: int = 0) -> Any:
    """A photo of the position ``name`` (attempt 0: the bundled photo's view)."""
    import numpy as np

    from companion.glass_garden.deck import load_deck
    from companion.glass_garden.recognition.make_samples import SAMPLE_FAMILY
    from companion.glass_garden.recognition.sim import photo

    seed = dict(SHOTS)[name]
    shown = {k: v for k, v in truth(name).items() if k != "note"}
    return photo(load_deck(), SAMPLE_FAMILY, np.random.default_rng(seed + 1000 * attempt),
                 truth=shown, distractors=False).photo


def demo_script(table: Table) -> tuple[Key | Callable[[], Any], ...]:
    """The button presses (and the garden between them), from the games menu back to it."""
    from companion.demo import choose

    def pick(label: str) -> Callable[[], list[Key]]:
        return choose(lambda: table.service, label)

    sure = table.retake_if_unsure
    return (
        pick("Glass Garden"),
        pick("New game"), pick("Replace it"),   # The Glade's game was saved: asked, replaced
        K.OK,                                   # Solo: Toni
        table.show("deal"),                     # Toni deals the garden
        pick("Photo of the deal"), sure,        # the companion reads it
        K.DOWN, K.DOWN, K.OK, K.OK,             # each column as read; accept; to the turn
        pick("Advice"), K.DOWN, K.DOWN, K.BACK,  # the best turn, what grows, the plan
        table.show("turn-2"),                   # she plays it; the critter moves on
        pick("Photo"), sure, K.OK,              # read, accepted: the game follows the table
        K.OK, K.DOWN, K.BACK,                   # advice from what the camera saw
        table.show("turn-3-wrong-glass"),       # she flips the wrong glass card
        pick("Photo"), sure, K.DOWN,            # the reading names it
        table.show("turn-3"),                   # she flips the right one
        K.BACK, sure, K.OK,                     # retake; accept
        K.OK, K.BACK,                           # advice
        pick("Leave (saved)"), K.BACK,          # back to the games
    )


def sample_model(data_dir: Path) -> Path:
    """Enrol the bundled SAMPLE pack into ``data_dir`` (as a user enrols their own cards,
    with :data:`DEMO_RENDERS` renderings of each face)."""
    from companion.glass_garden.recognition.enrol import build_model, read_pack
    from companion.vision.cards.model import save_card_model

    out = data_dir / "models" / "glass-garden-sample"
    save_card_model(build_model(read_pack(CONFIG_DIR / "sample-pack"), renders=DEMO_RENDERS),
                    out)
    return out


def scan_bundled_photo(model: Path, out: Path) -> str:
    """``companion scan glass-garden`` on a bundled photo, its overlay written to ``out``."""
    from companion.glass_garden.recognition.jobs import scan

    photo = CONFIG_DIR / "photos" / "garden-1.jpg"
    out.mkdir(parents=True, exist_ok=True)
    report = scan(photo, model=model, overlay=out / "gg-scan-overlay.png")
    return f"companion scan glass-garden {photo.name}:\n{report.text}"


class GardenDemo:
    """What ``companion demo`` needs from Glass Garden: a model, a camera, a script."""

    def __init__(self) -> None:
        self.table = Table()
        self.model: Path | None = None

    def setup(self, settings: dict[str, Any], data_dir: Path) -> None:
        """Enrol the SAMPLE pack, point the game at it, and think briefly (a demo)."""
        self.model = sample_model(data_dir)
        settings["games"]["glass-garden"].update(model=str(self.model), think_seconds=2.0)

    def camera(self) -> FunctionCamera:
        return FunctionCamera(lambda n: self.table.photo(), "table simulator")

    def script(self) -> tuple[Key | Callable[[], Any], ...]:
        return demo_script(self.table)

    @staticmethod
    def frames(seed: int = 1) -> Callable[[int], Any]:
        """``camera.source: simulator``: photos of random SAMPLE gardens."""
        import numpy as np

        from companion.glass_garden.deck import load_deck
        from companion.glass_garden.recognition.make_samples import SAMPLE_FAMILY
        from companion.glass_garden.recognition.sim import photo

        deck = load_deck()
        return lambda n: photo(deck, SAMPLE_FAMILY, np.random.default_rng(seed + n)).photo

    def attach(self, service: Any) -> None:
        self.table.service = service

    def epilogue(self, out: Path) -> tuple[str, str]:
        assert self.model is not None
        return scan_bundled_photo(self.model, out), str(out / "gg-scan-overlay.png")


DEMO = GardenDemo


# -- making the bundled photos ------------------------------------------------------------

def plan_positions(seconds: float = 3.0) -> list[dict[str, Any]]:
    """The deal and the starts of turns 2 and 3 when the advice's best turn is played (the
    search is anytime: run once, its answer kept in the truth files)."""
    from companion.glass_garden.deck import SAMPLE_START
    from companion.glass_garden.state_file import dump_state
    from companion.glass_garden.tracker import GameTracker

    tracker = GameTracker.from_file(SAMPLE_START)
    out = [dump_state(tracker.state)]
    for _ in range(2):
        tracker.confirm_turn(tracker.advise(seconds).plan.turns[0])
        out.append(dump_state(tracker.state))
    return out


def wrong_glass(position: dict[str, Any]) -> dict[str, Any]:
    """``position`` with a glass card lit that no succulent at its edge lit: the right-top
    card the player meant, and the right-bottom one flipped by mistake."""
    wrong = json.loads(json.dumps(position))
    wrong["glass"]["right-top"] = "dark"
    wrong["glass"]["right-bottom"] = "sunlight"
    return wrong


def make_demo_photos(folder: Path = DEMO_DIR) -> list[Path]:
    """Render the bundled demo photos from their truth files (JPEG, as the camera gives)."""
    import cv2

    out = []
    for name, _seed in SHOTS:
        ok, buf = cv2.imencode(".jpg", render(name), [cv2.IMWRITE_JPEG_QUALITY, 60])
        if not ok:
            raise OSError(f"could not encode {name}")
        path = folder / f"{name}.jpg"
        path.write_bytes(buf.tobytes())
        out.append(path)
    return out


def write_truths(folder: Path = DEMO_DIR) -> None:
    """Write the truth files from :func:`plan_positions` (once: the search's answer)."""
    deal, turn2, turn3 = plan_positions()
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in (("deal", deal), ("turn-2", turn2), ("turn-3", turn3),
                       ("turn-3-wrong-glass", wrong_glass(turn3))):
        (folder / f"{name}.truth.json").write_text(json.dumps(data, indent=1) + "\n",
                                                   encoding="utf-8")


if __name__ == "__main__":
    import sys

    if "--plan" in sys.argv or not (DEMO_DIR / "deal.truth.json").exists():
        write_truths()
    for p in make_demo_photos():
        print(p)
