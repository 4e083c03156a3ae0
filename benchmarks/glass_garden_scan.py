"""Benchmark: reading Glass Garden gardens from simulated photos (issue #24's targets).

For each SAMPLE art family a pack is drawn (36 faces), enrolled, and photos of random gardens
are read: ``--photos`` in normal light and ``--hard`` hard ones (strong glare over one card,
and dim or soft). Per card slot (each column's content, row and side; each glass side; the
critter and its side) a reading is right, wrong or uncertain; a garden is exactly right when
every slot is right. On hard photos the glare-washed card is counted apart: in doubt, right,
or wrong (guessed). Times are CPU seconds (``time.process_time``) and wall seconds, with the
load average, since the machine is shared. Memory: the peak RSS of one ``companion scan`` run
in a fresh process (its VmHWM).

    python benchmarks/glass_garden_scan.py --families 20,21,22,23 --photos 25 --hard 10

Families 0-3 were looked at while tuning; 20 and above never were.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.errors import CompanionError
from companion.glass_garden.deck import GLASS_POSITIONS, load_deck
from companion.glass_garden.recognition.art import card_faces, draw_face
from companion.glass_garden.recognition.enrol import enrol
from companion.glass_garden.recognition.reader import read_garden
from companion.glass_garden.recognition.sim import photo
from companion.vision.cards.model import load_card_model
from companion.vision.cards.pack import Face, write_card_pack
from companion.vision.image import decode_image


def slots(data: dict | None, truth: dict) -> dict[str, str]:
    """Each slot's outcome: right, wrong or unsure (every slot unsure when nothing was read)."""
    out: dict[str, str] = {}
    for c in range(9):
        got = None if data is None else data["garden"][c]
        out[str(c + 1)] = ("unsure" if got is None else
                           "right" if got == truth["garden"][c] else "wrong")
    for pos in GLASS_POSITIONS:
        got = None if data is None else data["glass"].get(pos)
        out[pos] = ("unsure" if got is None else
                    "right" if got == truth["glass"][pos] else "wrong")
    if data is None or data["critter"] is None:
        out["critter"] = "unsure"
    else:
        same = (data["critter"], data["critter_side"], data["turn"]) == (
            truth["critter"], truth["critter_side"], truth["turn"])
        out["critter"] = "right" if same else "wrong"
    return out


def run_family(family: int, photos: int, hard: int, work: Path) -> dict:
    deck = load_deck()
    faces = [Face(c, f, draw_face(deck, c, f, family, (126, 176))) for c, f in card_faces(deck)]
    pack = write_card_pack(work / f"pack{family}", "glass-garden", "sample", (63, 88), faces)
    cpu, wall = time.process_time(), time.perf_counter()
    enrol(pack, out=work / f"model{family}")
    enrol_cpu, enrol_wall = time.process_time() - cpu, time.perf_counter() - wall
    model = load_card_model(work / f"model{family}", "glass-garden")
    result: dict = {"family": family, "enrol_cpu": enrol_cpu, "enrol_wall": enrol_wall,
                    "normal": {"right": 0, "wrong": 0, "unsure": 0, "gardens": 0, "exact": 0,
                               "not_found": 0},
                    "hard": {"right": 0, "wrong": 0, "unsure": 0, "gardens": 0, "exact": 0,
                             "not_found": 0, "washed_unsure": 0, "washed_right": 0,
                             "washed_wrong": 0},
                    "scan_cpu": [], "scan_wall": [], "wrong_examples": []}
    rng = np.random.default_rng(10_000 + family)
    for k in range(photos + hard):
        is_hard = k >= photos
        shot = photo(deck, family, rng, hard=is_hard)
        _ok, buf = cv2.imencode(".jpg", shot.photo, [cv2.IMWRITE_JPEG_QUALITY, 85])
        data_bytes = buf.tobytes()
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            image = decode_image(data_bytes)
            data = read_garden(model, image, deck).data
        except CompanionError:
            data = None
        result["scan_cpu"].append(time.process_time() - cpu)
        result["scan_wall"].append(time.perf_counter() - wall)
        group = result["hard" if is_hard else "normal"]
        group["gardens"] += 1
        group["not_found"] += data is None
        outcome = slots(data, shot.truth)
        for slot, what in outcome.items():
            group[what] += 1
            if what == "wrong":
                result["wrong_examples"].append((k, slot))
        group["exact"] += all(v == "right" for v in outcome.values())
        if is_hard and shot.washed is not None:
            what = outcome[shot.washed]
            group[f"washed_{what}"] += 1
    return result


def scan_memory(work: Path, family: int) -> float:
    """Peak RSS (MB) of one 'companion scan' in a fresh process (its VmHWM)."""
    deck = load_deck()
    shot = photo(deck, family, np.random.default_rng(1))
    path = work / "mem.jpg"
    _ok, buf = cv2.imencode(".jpg", shot.photo, [cv2.IMWRITE_JPEG_QUALITY, 85])
    path.write_bytes(buf.tobytes())
    # VmHWM, not ru_maxrss: a forked child's ru_maxrss starts at its parent's peak
    code = ("import sys; from companion.cli import main; "
            f"main(['scan', 'glass-garden', {str(path)!r}, '--model', "
            f"{str(work / f'model{family}')!r}, '--json']); "
            "print([line.split()[1] for line in open('/proc/self/status') "
            "if line.startswith('VmHWM')][0], file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], check=True)
    return int(done.stderr.strip().splitlines()[-1]) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default="20,21,22,23")
    parser.add_argument("--photos", type=int, default=25, help="normal photos per family")
    parser.add_argument("--hard", type=int, default=10, help="hard photos per family")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    families = [int(f) for f in args.families.split(",")]
    start = time.perf_counter()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        results = [run_family(f, args.photos, args.hard, work) for f in families]
        memory = scan_memory(work, families[0])
    load_after = os.getloadavg()
    total = {}
    for group in ("normal", "hard"):
        agg = {k: sum(r[group][k] for r in results) for k in results[0][group]}
        n = agg["right"] + agg["wrong"] + agg["unsure"]
        agg["slots"] = n
        agg["wrong_pct"] = round(100 * agg["wrong"] / max(n, 1), 3)
        agg["unsure_pct"] = round(100 * agg["unsure"] / max(n, 1), 3)
        agg["exact_pct"] = round(100 * agg["exact"] / max(agg["gardens"], 1), 1)
        total[group] = agg
    cpu = [t for r in results for t in r["scan_cpu"]]
    wall = [t for r in results for t in r["scan_wall"]]
    report = {
        "families": families, "photos": args.photos, "hard": args.hard,
        "normal": total["normal"], "hard_photos": total["hard"],
        "scan_cpu_median": round(statistics.median(cpu), 3),
        "scan_wall_median": round(statistics.median(wall), 3),
        "enrol_cpu": [round(r["enrol_cpu"], 1) for r in results],
        "enrol_wall": [round(r["enrol_wall"], 1) for r in results],
        "scan_peak_rss_mb": round(memory, 1),
        "load_before": [round(v, 2) for v in load_before],
        "load_after": [round(v, 2) for v in load_after],
        "wrong_examples": {r["family"]: r["wrong_examples"] for r in results},
        "seconds": round(time.perf_counter() - start, 1),
        "self_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
