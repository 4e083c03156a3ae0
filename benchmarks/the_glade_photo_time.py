"""Wall time of a forest photo's whole scan with its store (issue #25: each scan <= 0.5 s idle).

The service's way: the forest and glade models loaded once, then each photo decoded, its
board read and its store read. Each photo is scanned ``--rounds`` times after a first round
left out (the models' caches made), and the medians of the wall times (board with the
decoding, store, whole) are printed with the CPU of a whole scan (all threads) and the load
average, since wall time means something only on an idle machine.

    .venv/bin/python benchmarks/the_glade_photo_time.py                 # the bundled game
    .venv/bin/python benchmarks/the_glade_photo_time.py --per-photo     # glade model per photo
    .venv/bin/python benchmarks/the_glade_photo_time.py --no-rings      # store.USE_RINGS off
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "config" / "games" / "the-glade" / "photos" / "game"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", nargs="*", type=Path,
                        default=[GAME / "toni.jpg", GAME / "emma.jpg", GAME / "liz.jpg"])
    parser.add_argument("--model", type=Path, help="an enrolled model folder (default: the "
                        "bundled SAMPLE pack enrolled into a temporary folder)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--per-photo", action="store_true",
                        help="load the glade model for every photo (the store before f23de32)")
    parser.add_argument("--no-rings", action="store_true", help="store.USE_RINGS off")
    args = parser.parse_args()

    from companion.the_glade.recognition import store
    from companion.the_glade.recognition.glade_model import load_glade_model
    from companion.the_glade.recognition.jobs import enrol
    from companion.the_glade.recognition.model import load_model
    from companion.the_glade.recognition.reader import read_board
    from companion.vision.image import load_image

    store.USE_RINGS = not args.no_rings
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.model
        if folder is None:
            folder = Path(tmp) / "model"
            enrol(ROOT / "config" / "games" / "the-glade" / "sample-pack", out=folder,
                  quiet=True)
        forest = load_model(folder)
        glade = folder if args.per_photo else load_glade_model(folder)
        board, stores, whole, cpu = [], [], [], []
        for r in range(args.rounds + 1):
            for photo in args.photos:
                c0, w0 = time.process_time(), time.perf_counter()
                image = load_image(photo)
                reading = read_board(forest, image)
                w1 = time.perf_counter()
                store.store_fields(glade, forest, reading, image)
                w2 = time.perf_counter()
                if r:
                    board.append(w1 - w0)
                    stores.append(w2 - w1)
                    whole.append(w2 - w0)
                    cpu.append(time.process_time() - c0)
    med = statistics.median
    print(f"forest photo with its store ({len(whole)} scans of {len(args.photos)} photos): "
          f"median {med(whole):.3f} s wall (max {max(whole):.3f}; board {med(board):.3f}, "
          f"store {med(stores):.3f}), {med(cpu):.3f} s CPU; load average "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
