"""Benchmark of issue #25 (the matching game): match counters played into enclosures, read by
the forest scan (``enclosed_matches``) on art families never looked at.

    .venv/bin/python benchmarks/the_glade_enclosed_matches.py --families 1000 1001 1002 \\
        --photos 8

Each photo is a random forest (85% of its squares tiles) whose enclosed empty squares (3 at
most) hold match counters of the family's glade pack, drawn and photographed as the forest
scan's photos are (spoilers, tilt, clutter). Counted per match counter: named right, left a
doubt, read as something else (a toadstool counter: the forest reader's certain reading,
kept), named wrong; and per photo with toadstool counters in those squares instead
(``--basic``), any square named a match counter (wrong). Tuning used families 41-60 only.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections import Counter

import numpy as np

from companion.the_glade.names import Square
from companion.the_glade.recognition.enclosed_matches import add_enclosed_matches
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.families import FamilyArt
from companion.the_glade.recognition.glade_model import build_glade_model
from companion.the_glade.recognition.glade_sim import sample_glade_pack
from companion.the_glade.recognition.reader import read_board
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack

COUNTERS = ("red-single", "green-double", "yellow-single", "blue-double", "green-single")


def _enclosed(state: dict) -> list[str]:
    forest = state["forest"]
    g = state["board"]
    return [Square(r, c).name for r in range(g["rows"]) for c in range(g["cols"])
            if Square(r, c).name not in forest["tiles"]
            and Square(r, c).name not in forest["counters"]
            and all(n.name in forest["tiles"] for n in Square(r, c).neighbours())]


def family_part(family: int, photos: int, basic: bool, cpu: list[float]) -> Counter:
    art = FamilyArt(family)
    pack = sample_pack(art=art, boards=((7, 7, "D4"),))
    glade = sample_glade_pack(art)
    glade_model = build_glade_model(pack, glade)
    model = build_model(pack, lookalikes=False)
    faces = {m.file: m for m in glade.match_counters}
    drawn = pack.counter_image
    out: Counter = Counter()
    for k in range(photos):
        rng = np.random.default_rng(family * 100 + k)
        state = random_forest(rng, pack.boards[0].geometry, pack, fill=0.85)
        put: dict[str, object] = {}
        for square in _enclosed(state)[:3]:
            if basic:
                put[square] = state["forest"]["counters"][square] = COUNTERS[
                    int(rng.integers(len(COUNTERS)))]
            else:
                face = list(faces.values())[int(rng.integers(len(faces)))]
                state["forest"]["counters"][square] = "match:" + face.file
                put[square] = {"kind": face.kind, "icon": face.icon, "value": face.value}
        try:
            pack.counter_image = lambda name: (faces[name[6:]].image
                                               if name.startswith("match:") else drawn(name))
            photo, _truth = render_photo(pack, state, family * 1000 + k)
        finally:
            pack.counter_image = drawn
        reading = read_board(model, photo)
        data = reading.result()
        c0 = time.process_time()
        add_enclosed_matches(glade_model, model, reading, photo, data)
        cpu.append(time.process_time() - c0)
        named = (data.get("forest") or {}).get("match_counters") or {}
        out["photos"] += 1
        for square, thing in put.items():
            out["squares"] += 1
            if square in named:
                out["right" if named[square] == thing else "WRONG"] += 1
            elif basic:
                out["right"] += data["forest"]["counters"].get(square) == thing
            elif square in data.get("uncertain", []):
                out["doubt"] += 1
            else:
                out["read_as_other"] += 1
        out["named_elsewhere"] += sum(1 for sq in named if sq not in put)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", type=int, nargs="+", default=[1000, 1001, 1002])
    parser.add_argument("--photos", type=int, default=8)
    parser.add_argument("--basic", action="store_true",
                        help="toadstool counters in the enclosures instead (none may be named "
                             "a match counter)")
    args = parser.parse_args()
    total: Counter = Counter()
    cpu: list[float] = []
    for family in args.families:
        part = family_part(family, args.photos, args.basic, cpu)
        print(f"family {family}: {dict(part)}", flush=True)
        total.update(part)
    print(f"total: {dict(total)}")
    print(f"match counters in enclosures read, CPU s a photo: median {np.median(cpu):.3f} "
          f"max {max(cpu):.3f}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")


if __name__ == "__main__":
    main()
