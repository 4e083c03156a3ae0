"""The Glade's board scan on procedurally varied art families (tune on some, record on others).

    .venv/bin/python benchmarks/the_glade_families.py --families 1-4            # tuning
    .venv/bin/python benchmarks/the_glade_families.py --families 1000-1004      # held out
    .venv/bin/python benchmarks/the_glade_families.py --families 1000-1004 --hard

Each family (:mod:`companion.the_glade.recognition.families`) is a renderer of its own:
icon shapes, sizes, line weights, palettes, where the small icons sit, background texture.
For each family it writes the family's enrolment pack, enrols it through ``companion
enrol``'s code path (timed, CPU and wall), renders ``--seven`` photos of a 7x7 board and
``--eight`` of an 8x8 (1640x1232 JPEG, every spoiler; ``--hard``: spoilers 1.6 times as
strong, tilt to 18 degrees, dimmer), scans each through ``companion scan``'s code path, and
prints per family and over all: wrong squares, uncertain squares, boards exactly right,
boards not found, seconds per scan (CPU and wall). The protocol: families 1-8 are the tuning
families; families from 1000 on are held out, run only to record a result.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import resource
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.the_glade.recognition.families import TUNING_FAMILIES, family_pack
from companion.the_glade.recognition.jobs import enrol, scan
from companion.the_glade.recognition.model import Model, load_model
from companion.the_glade.recognition.pack import write_pack
from companion.the_glade.recognition.sim import random_forest, render_photo
from companion.vision.sim import Camera, Degradations

sys.path.insert(0, str(Path(__file__).resolve().parent))
from the_glade_scan import _scan_only_peak

HARD = Degradations(strength=1.6)


def _families(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


class TuningPhoto(NamedTuple):
    """One photo a diagnostic script reads (:func:`tuning_photos`)."""

    family: int
    model: Model
    size: int      # the board's rows and columns
    index: int     # the photo's number among that family's boards of that size
    seed: int
    path: Path     # the JPEG, as a camera gives it (overwritten by the next photo)
    truth: dict


def tuning_photos(families: list[int], models: Path | None, counts: Sequence[tuple[int, int]],
                  seed: int, hard: bool, work: Path, announce: bool = False
                  ) -> Iterator[TuningPhoto]:
    """The benchmark's photos of ``families``, for the scripts that look into readings: only
    tuning families (a family not in families.TUNING_FAMILIES stops the run, so held-out
    readings are never looked at). ``counts``: (board size, photos) pairs; each family's
    model is loaded from ``models`` (else ``work``), enrolled there first when missing; the
    photos are those :func:`main` scans for the same seed. ``announce``: print "family N"
    as each family begins (progress for a long run)."""
    held = [f for f in families if f not in TUNING_FAMILIES]
    if held:
        raise SystemExit(f"not tuning families (families.TUNING_FAMILIES): {held}")
    for family in families:
        if announce:
            print(f"family {family}", flush=True)
        pack = family_pack(family)
        model_dir = (models or work) / str(family)
        if not (model_dir / "manifest.json").is_file():
            write_pack(pack, work / f"pack{family}")
            enrol(work / f"pack{family}", out=model_dir, quiet=True)
        model = load_model(model_dir)
        for size, count in counts:
            for k in range(count):
                photo_seed = seed + family * 100_000 + size * 1000 + k
                image, truth = photo_of(pack, size, photo_seed, hard)
                path = work / "photo.jpg"
                cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
                yield TuningPhoto(family, model, size, k, photo_seed, path, truth)


def photo_of(pack, size: int, seed: int, hard: bool):
    """One benchmark photo and its truth: normal, or hard (stronger spoilers, more tilt,
    dimmer light)."""
    board = pack.board_for(size, size)
    state = random_forest(np.random.default_rng(seed), board.geometry, pack)
    if not hard:
        return render_photo(pack, state, seed)
    rng = np.random.default_rng(seed + 77)
    camera = Camera.random(rng, tilt=18.0)
    image, truth = render_photo(pack, state, seed, spoil=HARD, camera=camera)
    dim = float(rng.uniform(0.55, 0.8))
    return np.clip(image.astype(np.float32) * dim, 0, 255).astype(np.uint8), truth


def score(data: dict, truth: dict, size: int, show: list[str], name: str) -> tuple[int, int]:
    """(wrong, uncertain) squares of one scan against its truth."""
    wrong = unsure = 0
    doubted = set(data["uncertain"])
    for r in range(size):
        for c in range(size):
            sq = f"{chr(65 + c)}{r + 1}"
            if sq in doubted:
                unsure += 1
                show.append(f"  uncertain {name} {sq}: {data.get('reasons', {}).get(sq, '')}")
                continue
            want = (truth["forest"]["tiles"].get(sq), truth["forest"]["counters"].get(sq))
            got = (data["forest"]["tiles"].get(sq), data["forest"]["counters"].get(sq))
            if want != got:
                wrong += 1
                show.append(f"  wrong {name} {sq}: {want} read as {got}")
    return wrong, unsure


def apply_settings(parser: argparse.ArgumentParser, settings: list[str]) -> None:
    """Set each ``MODULE.NAME=VALUE`` of ``settings`` (a module of
    companion.the_glade.recognition, the value a Python literal) for this process's scans,
    printing it; a name the module lacks is the parser's error (a typo would measure
    nothing)."""
    for setting in settings:
        where, value = setting.split("=", 1)
        module, name = where.rsplit(".", 1)
        target = importlib.import_module(f"companion.the_glade.recognition.{module}")
        if not hasattr(target, name):
            parser.error(f"no switch {where}")
        setattr(target, name, ast.literal_eval(value))
        print(f"set {where} = {getattr(target, name)!r}")

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default="1000-1004")
    parser.add_argument("--seven", type=int, default=20)
    parser.add_argument("--eight", type=int, default=6)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--models", type=Path, default=None,
                        help="keep each family's model in MODELS/FAMILY and reuse it when "
                             "there (enrolment is seeded: the same pack gives the same model)")
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE",
                        help="set a recognition switch for this run, e.g. "
                             "close_calls.LOCAL_FIT=True (a module of "
                             "companion.the_glade.recognition; the scans run in this process)")
    args = parser.parse_args(argv)
    apply_settings(parser, args.set)
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min)")
    totals = dict(squares=0, wrong=0, unsure=0, photos=0, right=0, lost=0)
    cpu_all, wall_all, enrol_cpu = [], [], []
    for family in _families(args.families):
        work = Path(tempfile.mkdtemp(prefix=f"glade-family-{family}-"))
        pack = family_pack(family)
        write_pack(pack, work / "pack")
        model = work / "model" if args.models is None else args.models / str(family)
        t0, c0 = time.perf_counter(), time.process_time()
        if not (model / "manifest.json").is_file():
            enrol(work / "pack", out=model, quiet=True)
        enrol_cpu.append(time.process_time() - c0)
        enrol_wall = time.perf_counter() - t0
        fam = dict(squares=0, wrong=0, unsure=0, photos=0, right=0, lost=0)
        show: list[str] = []
        for size, count in ((7, args.seven), (8, args.eight)):
            for i in range(count):
                seed = args.seed + family * 100_000 + size * 1000 + i
                image, truth = photo_of(pack, size, seed, args.hard)
                photo = work / f"{size}-{i}.jpg"
                cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
                w0, c1 = time.perf_counter(), time.process_time()
                try:
                    data = scan(photo, model=model).data
                except Exception as exc:  # a refused photo: every square uncertain
                    show.append(f"  refused {photo.name}: {exc}")
                    fam["lost"] += 1
                    data = {"uncertain": [f"{chr(65 + c)}{r + 1}" for r in range(size)
                                          for c in range(size)], "forest": {}}
                wall_all.append(time.perf_counter() - w0)
                cpu_all.append(time.process_time() - c1)
                wrong, unsure = score(data, truth, size, show, photo.name)
                fam["squares"] += size * size
                fam["wrong"] += wrong
                fam["unsure"] += unsure
                fam["photos"] += 1
                fam["right"] += wrong == 0 and unsure == 0
        for k in totals:
            totals[k] += fam[k]
        if not fam["photos"]:  # --seven 0 --eight 0: enrol only (e.g. to fill --models)
            print(f"family {family}: enrolled in {enrol_cpu[-1]:.1f} s CPU / {enrol_wall:.1f} s "
                  f"wall, no photos", flush=True)
            continue
        print(f"family {family}: wrong {fam['wrong'] / fam['squares']:.3%} ({fam['wrong']}), "
              f"uncertain {fam['unsure'] / fam['squares']:.2%} ({fam['unsure']}), exactly "
              f"right {fam['right']}/{fam['photos']}, not found {fam['lost']}; enrol "
              f"{enrol_cpu[-1]:.1f} s CPU / {enrol_wall:.1f} s wall", flush=True)
        if args.show_errors:
            print("\n".join(show))
    t = totals
    if not t["photos"]:
        print(f"enrol CPU s: max {max(enrol_cpu):.1f}; no photos asked for (--seven/--eight)")
        return 0
    print(f"ALL {args.families} ({'hard' if args.hard else 'normal'}): {t['photos']} photos, "
          f"{t['squares']} squares")
    print(f"  wrong squares:        {t['wrong'] / t['squares']:.3%} ({t['wrong']})")
    print(f"  uncertain squares:    {t['unsure'] / t['squares']:.2%} ({t['unsure']})")
    print(f"  boards exactly right: {t['right'] / t['photos']:.1%} ({t['right']}/{t['photos']})")
    print(f"  boards not found:     {t['lost']}")
    print(f"  scan CPU s: median {np.median(cpu_all):.3f}, 90th {np.percentile(cpu_all, 90):.3f};"
          f" wall s: median {np.median(wall_all):.3f}")
    print(f"  enrol CPU s: max {max(enrol_cpu):.1f}")
    shots = sorted(work.glob("*.jpg"))[:6]
    if args.models is not None:  # _scan_only_peak reads WORK/model
        (work / "model").symlink_to(model.resolve(), target_is_directory=True)
    print(f"  peak memory of a process that only scans (as the CLI), last family's first 6 "
          f"photos: {_scan_only_peak(work, shots):.0f} MB (VmHWM)")
    print(f"  peak memory (this process, rendering too): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB ru_maxrss")
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1 and 5 min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
