"""The table flows that read photos (issues #24 and #25), and the demo that plays them.

Three figures, each in CPU seconds of this process (``time.process_time``: the worker threads
included), with the load average beside them since the machine is shared:

1. Glass Garden's *Photo* step, as the service does it (``GardenReader``: the scan, the
   doubts settled, the contradictions with the last accepted position) on the four bundled
   demo photos, with the model a user's ``companion enrol`` makes (40 renderings a face):
   CPU per step, whether each reading is exactly the photo's position, and what was found odd.
2. The Glade's *Score from photos* on the bundled finished game: the four photos read (glade
   board, three forests with their stores) and the review, CPU, and whether it scores without
   a doubt to exactly the state file's score.
3. ``companion demo`` in-process (quiet): CPU, and the number of screens.

    .venv/bin/python benchmarks/table_photo_flows.py
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class _Ctx:
    """The little of the service's context the readers use."""

    def __init__(self, settings: dict[str, Any], data_dir: Path) -> None:
        from companion.ui.models import ModelCache

        self.settings, self.data_dir, self.models = settings, data_dir, ModelCache()


def glass_garden(tmp: Path) -> list[str]:
    from companion.glass_garden.demo import DEMO_DIR, SHOTS, truth
    from companion.glass_garden.recognition.jobs import enrol
    from companion.glass_garden.screens import GardenReader, ReadingPage
    from companion.glass_garden.state_file import parse_state
    from companion.vision.image import load_image

    t = time.process_time()
    enrol(ROOT / "config/games/glass-garden/sample-pack", out=tmp / "gg")
    enrol_s = time.process_time() - t
    settings = {"games": {"glass-garden": {"model": str(tmp / "gg"), "deck": None}}}
    ctx = _Ctx(settings, tmp)
    before = None
    lines = [f"Glass Garden: enrol (40 renderings a face) {enrol_s:.1f} s CPU"]
    for name, _seed in SHOTS:
        photo = load_image(DEMO_DIR / f"{name}.jpg")
        reader = GardenReader(ctx, before, lambda s, r: None)  # type: ignore[arg-type,return-value]
        t = time.process_time()
        decision = reader.decide(reader.observe(photo))
        cpu = time.process_time() - t
        if isinstance(decision, ReadingPage):
            exact = decision.state == parse_state(truth(name))
            odd = [c.code for c in decision.odd]
            lines.append(f"  {name}: {cpu:.2f} s CPU, exact {exact}, odd {odd}")
            if not odd:
                before = decision.state
        else:
            lines.append(f"  {name}: {cpu:.2f} s CPU, {type(decision).__name__}: "
                         f"{getattr(decision, 'where', '')}")
    return lines


def the_glade(tmp: Path) -> list[str]:
    from companion.the_glade import photo_flow
    from companion.the_glade.recognition.jobs import enrol
    from companion.the_glade.state_file import load_state
    from companion.vision.image import load_image

    enrol(ROOT / "config/games/the-glade/sample-pack", out=tmp / "glade", quiet=True,
          lookalikes=False)
    settings = {"games": {"the-glade": {"model": str(tmp / "glade")}}}
    ctx = _Ctx(settings, tmp)
    photos = ROOT / "config/games/the-glade/photos/game"
    progress = photo_flow.Progress([("Toni", "yellow"), ("Emma", "blue"), ("Liz", "red")])
    t = time.process_time()
    progress.glade = photo_flow.read_glade_photo(ctx, load_image(photos / "glade.jpg"))
    progress.forests = [photo_flow.read_forest_photo(ctx, load_image(photos / f"{n}.jpg"))
                        for n in ("toni", "emma", "liz")]
    state, doubts, _fixes = photo_flow.doubts_of(progress)
    cpu = time.process_time() - t
    sample = load_state(json.loads((ROOT / "config/games/the-glade/sample-game.json")
                                   .read_text())).score_sheet()
    same = not doubts and load_state(state).score_sheet().players == sample.players
    return [f"The Glade, Score from photos: 4 photos read and reviewed in {cpu:.1f} s CPU; "
            f"doubts {len(doubts)}; scored as the state file: {same}"]


def demo(tmp: Path) -> list[str]:
    from PIL import Image

    from companion.demo import run_demo

    t = time.process_time()
    status = run_demo(tmp / "demo", quiet=True)
    cpu = time.process_time() - t
    frames = Image.open(tmp / "demo" / "frames.gif").n_frames
    return [f"companion demo: status {status}, {frames} screens, {cpu:.1f} s CPU"]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        lines = [*glass_garden(tmp), *the_glade(tmp), *demo(tmp)]
    print("\n".join(lines))
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
