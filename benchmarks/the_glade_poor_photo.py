"""Which close calls a poor photo doubts, and which of them are wrong (issue #20).

    .venv/bin/python benchmarks/the_glade_poor_photo.py --families 121,198,287 \
        --models /tmp/hA/models --seven 8 --eight 2 --out /tmp/poor.jsonl [--hard]

The photos are the families benchmark's (benchmarks/the_glade_families.py: the same seeds),
read through the reader (reader.read_board). Each photo is written as one JSON line with its
squares as the reader judged them just before the poor-photo rule (reader._doubt_poor_photo:
kind, name, doubt, distances, the square's light over the photo's tiles', clipped share),
the share the rule counted, and each square's final reading (after every settling step) and
truth. The tally printed: the weak close calls (reader.POOR_Z, not spared) in photos the
rule calls poor, named right and wrong. Only tuning families (families.TUNING_FAMILIES).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from the_glade_families import _families, apply_settings, tuning_photos

from companion.errors import RecognitionError
from companion.the_glade.recognition import reader
from companion.the_glade.recognition.evidence import usual_tile_light
from companion.vision.image import load_image


def _square(r: Any) -> dict[str, Any]:
    """One reading as plain data."""
    return dict(square=r.square, kind=r.kind, name=r.name, doubt=r.doubt,
                candidates=list(r.candidates), distances=dict(r.distances))


def read_photo(model: Any, path: Path) -> tuple[list[dict], int | None, list[Any], Any]:
    """The squares as the poor-photo rule saw them, the share it counted (None: counted
    there), the final readings and the evidence."""
    kept: dict[str, Any] = {}
    gather, doubt = reader.gather, reader._doubt_poor_photo

    def keep(*args: Any, **kwargs: Any) -> Any:
        names, ev = gather(*args, **kwargs)
        kept["ev"] = ev
        return names, ev

    def seen(readings: list[Any], unsure: int | None = None) -> list[Any]:
        kept["pre"] = [_square(r) for r in readings]
        kept["unsure"] = unsure
        return doubt(readings, unsure)

    reader.gather, reader._doubt_poor_photo = keep, seen
    try:
        reading = reader.read_board(model, load_image(path))
    finally:
        reader.gather, reader._doubt_poor_photo = gather, doubt
    return kept["pre"], kept["unsure"], reading.squares, kept["ev"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", required=True)
    parser.add_argument("--seven", type=int, default=8)
    parser.add_argument("--eight", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--models", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    args = parser.parse_args(argv)
    apply_settings(parser, args.set)
    out = args.out.open("w") if args.out else None
    work = Path(tempfile.mkdtemp(prefix="glade-poor-"))
    tally: collections.Counter = collections.Counter()
    for photo in tuning_photos(_families(args.families), args.models,
                               ((7, args.seven), (8, args.eight)), args.seed, args.hard, work):
        truth = photo.truth["forest"]
        try:
            pre, unsure, final, ev = read_photo(photo.model, photo.path)
        except RecognitionError as exc:
            print(f"family {photo.family} {photo.size}-{photo.index}: refused: {exc}")
            continue
        usual = usual_tile_light(ev, final)
        usual = 1.0 if usual is None else usual
        for k, (p, r) in enumerate(zip(pre, final, strict=True)):
            p["truth"] = truth["tiles"].get(r.square) or truth["counters"].get(r.square)
            p["final"] = dict(kind=r.kind, name=r.name, doubt=r.doubt)
            p["light"] = (round(float(ev.bright[k]) / usual, 3)
                          if ev.bright is not None and usual > 0 else None)
            p["white"] = round(float(ev.white[k]), 3)
        counted = unsure if unsure is not None else sum(p["kind"] == "uncertain" for p in pre)
        poor = counted > reader.POOR_PHOTO * len(pre)
        for p in pre:
            if p["final"]["doubt"] == "poor-photo":
                tally["poor-photo " + ("right" if p["name"] == p["truth"] else "wrong")] += 1
            elif p["final"]["kind"] in ("tile", "counter") and p["final"]["name"] != p["truth"]:
                tally["wrong"] += 1
        if out is not None:
            out.write(json.dumps(dict(family=photo.family, size=photo.size, index=photo.index,
                                      hard=args.hard, unsure=unsure, poor=poor,
                                      squares=pre)) + "\n")
            out.flush()
        print(f"family {photo.family} {photo.size}-{photo.index}: poor {poor}", flush=True)
    if out is not None:
        out.close()
    print(dict(tally))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
