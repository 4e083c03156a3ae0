"""Why squares of hard photos are read wrong or doubted: every such square of tuning
families, by the reader's reason, the truth, and what the photo shows there (issue #20).

    .venv/bin/python benchmarks/the_glade_hard_causes.py --families 8060-8064,1-8 \
        --models /tmp/hB/models --out /tmp/hB/causes.jsonl

The photos are the families benchmark's (benchmarks/the_glade_families.py: the same seeds,
``--hard`` by default, 8 of a 7x7 board a family, and ``--eight`` of an 8x8 one), read
through the reader (reader.read_board) with its evidence kept, so each square is written (JSON
lines, with ``--out``) with its truth, its reading, the reason and the measures the reader
judged on; the table printed counts wrong squares and doubts by cause. What the photo shows on a
square is said from the evidence: *glare* (over GLARE of the photo's tiles' light, or
over WASHED of its pixels clipped white), *shade* (under SHADE of it), *frame* (not wholly
in view), *far* (the square under FAR of the board's median size in the photo: the far
side of a tilted board), else *plain*; and the photo's share of doubts (*poor* over
reader.POOR_PHOTO). Only tuning families (families.TUNING_FAMILIES) are read: the script
refuses held-out ones.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from the_glade_families import _families, apply_settings, tuning_photos

from companion.errors import RecognitionError
from companion.the_glade.recognition import reader
from companion.the_glade.recognition.evidence import usual_tile_light
from companion.vision.board import project
from companion.vision.image import load_image

GLARE = 1.5    # a square this much brighter than the photo's tiles: under glare
WASHED = 0.3   # ... or this share of its pixels clipped white
SHADE = 0.65   # ... this much darker: in shade
FAR = 0.85     # a square this small against the board's median size: the far side


def _what_differs(want: str | None, got: str | None) -> str:
    """Which part of a tile's name (creature/fruit/leaf) a wrong name got wrong."""
    if want is None or got is None:
        return f"{'tile' if want else 'empty'}-as-{'tile' if got else 'empty'}"
    a, b = want.split("/"), got.split("/")
    parts = [p for p, x, y in zip(("creature", "fruit", "leaf"), a, b, strict=False) if x != y]
    return "+".join(parts) or "same"


def _sizes(board: Any, hm: np.ndarray) -> np.ndarray:
    """Each square's side in photo pixels (the root of its projected area), row-major."""
    g = board.grid
    out = []
    for r in range(g.rows):
        for c in range(g.cols):
            xs = g.left + (c + np.array([0.0, 1, 1, 0])) * g.cell
            ys = g.top + (r + np.array([0.0, 0, 1, 1])) * g.cell
            p = project(hm, np.stack([xs, ys], axis=1))
            x, y = p[:, 0], p[:, 1]
            out.append(np.sqrt(abs(0.5 * np.sum(x * np.roll(y, 1) - y * np.roll(x, 1)))))
    return np.array(out)


def _seen(ev: Any, k: int, usual: float, size: float) -> list[str]:
    """What the photo shows on square ``k``, from the evidence (see the module's text)."""
    out = []
    light = float(ev.bright[k]) / usual if ev.bright is not None and usual > 0 else 1.0
    if light > GLARE or float(ev.white[k]) > WASHED:
        out.append("glare")
    elif light < SHADE:
        out.append("shade")
    if float(ev.frame_share[k]) < 1.0:
        out.append("frame")
    if size < FAR:
        out.append("far")
    return out or ["plain"]


def read_photo(model: Any, path: Path) -> tuple[list[Any], Any, np.ndarray, Any]:
    """The readings of the photo at ``path``, the evidence they were judged on, each
    square's size over the median, and the board read."""
    kept: dict[str, Any] = {}
    gather = reader.gather

    def keep(*args: Any, **kwargs: Any) -> Any:
        names, ev = gather(*args, **kwargs)
        kept["ev"] = ev
        return names, ev

    reader.gather = keep
    try:
        reading = reader.read_board(model, load_image(path))
    finally:
        reader.gather = gather
    sizes = _sizes(reading.board, reading.located.homography)
    return reading.squares, kept["ev"], sizes / np.median(sizes), reading.board


def _tally(rows: list[dict[str, Any]], family: int, last: bool) -> None:
    """After a family's ``last`` photo, its wrong squares and doubts."""
    if last:
        mine = collections.Counter(r["outcome"] for r in rows if r["family"] == family)
        print(f"family {family}: {mine['wrong']} wrong, {mine['doubt']} doubts", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", required=True)
    parser.add_argument("--seven", type=int, default=8)
    parser.add_argument("--eight", type=int, default=0,
                        help="photos of an 8x8 board a family too (after the 7x7 ones)")
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--normal", action="store_true", help="normal photos, not hard")
    parser.add_argument("--models", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE")
    args = parser.parse_args(argv)
    apply_settings(parser, args.set)
    rows: list[dict[str, Any]] = []
    out = args.out.open("w") if args.out else None
    work = Path(tempfile.mkdtemp(prefix="glade-causes-"))
    counts = tuple((size, n) for size, n in ((7, args.seven), (8, args.eight)) if n)
    last = counts[-1] if counts else (7, 0)
    for photo in tuning_photos(_families(args.families), args.models, counts,
                               args.seed, not args.normal, work):
        family, i, truth = photo.family, photo.index, photo.truth
        final = (photo.size, i) == (last[0], last[1] - 1)
        try:
            squares, ev, sizes, _ = read_photo(photo.model, photo.path)
        except RecognitionError as exc:
            print(f"family {family} photo {i} ({photo.size}x{photo.size}): refused: {exc}")
            _tally(rows, family, final)
            continue
        doubts = sum(r.kind == "uncertain" for r in squares)
        usual = usual_tile_light(ev, squares)
        usual = 1.0 if usual is None else usual
        for k, r in enumerate(squares):
            want_t = truth["forest"]["tiles"].get(r.square)
            want_c = truth["forest"]["counters"].get(r.square)
            got_t = r.name if r.kind == "tile" else None
            got_c = r.name if r.kind == "counter" else None
            if r.kind == "uncertain":
                outcome = "doubt"
            elif (want_t, want_c) != (got_t, got_c):
                outcome = "wrong"
            else:
                outcome = "right"
            truth_kind = "tile" if want_t else "counter" if want_c else "empty"
            row = dict(family=family, photo=i, board=photo.size, square=r.square,
                       outcome=outcome,
                       truth=want_t or want_c, truth_kind=truth_kind, read=r.name,
                       kind=r.kind, reason=r.reason, code=r.doubt or "-",
                       candidates=list(r.candidates),
                       truth_in=bool(want_t and want_t in r.candidates),
                       differs=(_what_differs(want_t, r.name) if r.kind != "counter"
                                and truth_kind != "counter" else ""),
                       seen=_seen(ev, k, usual, float(sizes[k])),
                       light=round(float(ev.bright[k]) / usual, 3)
                       if ev.bright is not None else None,
                       usual=round(usual, 3),
                       bright=round(float(ev.bright[k]), 3) if ev.bright is not None else None,
                       disc=round(float(ev.disc[k]), 3),
                       white=round(float(ev.white[k]), 3),
                       size=round(float(sizes[k]), 3),
                       poor=doubts > reader.POOR_PHOTO * len(squares),
                       confidence=round(r.confidence, 3),
                       second=ev.tiles[k][1][2],
                       look=list(ev.looks[k].names[::2]) if ev.looks.get(k) else None,
                       distances=r.distances)
            if outcome != "right":
                rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
        _tally(rows, family, final)
    if out is not None:
        out.close()
    for outcome in ("wrong", "doubt"):
        table = collections.Counter()
        for r in rows:
            if r["outcome"] != outcome:
                continue
            if outcome == "wrong":
                key = (r["code"], r["truth_kind"], r["differs"], "+".join(r["seen"]),
                       "poor" if r["poor"] else "")
            else:
                key = (r["code"], r["truth_kind"],
                       "truth-in" if r["truth_in"] else "", "+".join(r["seen"]),
                       "poor" if r["poor"] else "")
            table[key] += 1
        print(f"\n{outcome} squares: {sum(table.values())}")
        for key, n in table.most_common():
            print(f"  {n:5d}  {' | '.join(k for k in key if k)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
