"""Accuracy and speed of The Glade's board scan, on art the recogniser never saw.

    .venv/bin/python benchmarks/the_glade_scan.py [--quick] [--style 2] [--seed 9000]

Renders a fresh seeded set with the table simulator in SAMPLE art style ``--style`` (the
bundled pack and the tuning used style 1), writes that style's own enrolment pack, enrols it
with ``companion enrol``'s code path, then scans every photo from a JPEG file through the same
code path as ``companion scan`` and prints: per-square error rate (wrong answers, not
"uncertain" ones), uncertain rate, boards exactly right, seconds per scan (wall and CPU),
and peak memory. Run it apart from the tests: the full set takes several minutes.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.the_glade.recognition.jobs import enrol, scan
from companion.the_glade.recognition.pack import write_pack
from companion.the_glade.recognition.sim import (
    random_forest,
    render_photo,
    sample_pack,
)

SCAN_ONLY = """
import sys
from pathlib import Path
from companion.the_glade.recognition.jobs import scan
for photo in sys.argv[2:]:
    scan(Path(photo), model=Path(sys.argv[1]))
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        print(int(line.split()[1]) / 1024)
"""


def _scan_only_peak(work: Path, photos: list[Path]) -> float:
    """Peak resident memory of a fresh process that loads the model and scans ``photos``."""
    import subprocess

    out = subprocess.run([sys.executable, "-c", SCAN_ONLY, str(work / "model"),
                          *map(str, photos)], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="30 + 10 photos instead of 200 + 50")
    parser.add_argument("--style", type=int, default=2, help="SAMPLE art style (not 1)")
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--seven", type=int, default=None, help="photos of a 7x7 board")
    parser.add_argument("--eight", type=int, default=None, help="photos of an 8x8 board")
    parser.add_argument("--show-errors", action="store_true",
                        help="name every wrong and uncertain square (with its reason)")
    args = parser.parse_args(argv)
    n7 = args.seven if args.seven is not None else (30 if args.quick else 200)
    n8 = args.eight if args.eight is not None else (10 if args.quick else 50)

    work = Path(tempfile.mkdtemp(prefix="glade-bench-"))
    pack = sample_pack(args.style)
    write_pack(pack, work / "pack")
    start = time.perf_counter()
    enrolled = enrol(work / "pack", out=work / "model")
    enrol_s = time.perf_counter() - start
    print(f"style {args.style}, seeds {args.seed}..: {enrolled.text.splitlines()[0]}")
    print(f"enrol: {enrol_s:.2f} s")

    jobs = [(7, i) for i in range(n7)] + [(8, i) for i in range(n8)]
    squares = wrong = unsure = boards_right = no_wrong = 0
    by_size = {7: [0, 0], 8: [0, 0]}
    wall, cpu, failures = [], [], []
    for size, i in jobs:
        seed = args.seed + size * 1000 + i
        board = pack.board_for(size, size)
        state = random_forest(np.random.default_rng(seed), board.geometry, pack)
        image, truth = render_photo(pack, state, seed)
        photo = work / f"{size}-{i}.jpg"
        cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            data = scan(photo, model=work / "model").data
        except Exception as exc:  # a refused photo counts as every square uncertain
            failures.append(f"{photo.name}: {exc}")
            data = {"board": truth["board"], "forest": {"tiles": {}, "counters": {}},
                    "uncertain": [f"{chr(65 + c)}{r + 1}" for r in range(size)
                                  for c in range(size)]}
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
        bad = 0
        unsure_here = set(data["uncertain"])
        for r in range(size):
            for c in range(size):
                sq = f"{chr(65 + c)}{r + 1}"
                squares += 1
                if sq in unsure_here:
                    unsure += 1
                    if args.show_errors:
                        reason = data.get("reasons", {}).get(sq, "")
                        print(f"  uncertain {photo.name} {sq}: {reason}")
                    continue
                want = (truth["forest"]["tiles"].get(sq), truth["forest"]["counters"].get(sq))
                got = (data["forest"]["tiles"].get(sq), data["forest"]["counters"].get(sq))
                if want != got:
                    wrong += 1
                    bad += 1
                    if args.show_errors:
                        print(f"  wrong {photo.name} {sq}: {want} read as {got}")
        no_wrong += bad == 0
        exact = bad == 0 and not unsure_here
        boards_right += exact
        by_size[size][0] += 1
        by_size[size][1] += exact
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    scan_mb = _scan_only_peak(work, [work / f"{s}-{i}.jpg" for s, i in jobs[:10]])
    print(f"photos: {len(jobs)} ({n7} of 7x7, {n8} of 8x8), 1640x1232 JPEG, {squares} squares")
    print(f"per-square error rate: {wrong / squares:.4%} ({wrong} wrong)")
    print(f"uncertain rate:        {unsure / squares:.4%} ({unsure} squares)")
    print(f"boards exactly right:  {boards_right / len(jobs):.2%} ({boards_right}/{len(jobs)}; "
          + ", ".join(f"{s}x{s}: {v[1]}/{v[0]}" for s, v in by_size.items() if v[0]) + ")")
    print(f"boards with no wrong square: {no_wrong / len(jobs):.2%} ({no_wrong}/{len(jobs)})")
    print(f"seconds per scan (wall): median {np.median(wall):.3f}, "
          f"90th percentile {np.percentile(wall, 90):.3f}")
    print(f"seconds per scan (CPU):  median {np.median(cpu):.3f}, "
          f"90th percentile {np.percentile(cpu, 90):.3f}")
    print(f"peak memory, a process that only scans (as the CLI): {scan_mb:.0f} MB "
          f"(VmHWM; this benchmark process, rendering too: {peak_mb:.0f} MB ru_maxrss)")
    for line in failures:
        print(f"refused: {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
