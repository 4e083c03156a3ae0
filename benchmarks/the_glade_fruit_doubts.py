"""The Glade's look-alike fruit doubts on tuning families: is the first candidate right, and
what does each judge say? (issue #20; analysis, not a figure of record)

    .venv/bin/python benchmarks/the_glade_fruit_doubts.py --families 8042,8043,8035,8036 \\
        --seed 9000 --seven 8 --eight 2 --models /tmp/m --out /tmp/doubts.jsonl
    .venv/bin/python benchmarks/the_glade_fruit_doubts.py --summary /tmp/doubts.jsonl

Photos are rendered as ``the_glade_families.py`` renders them (the same seeds give the same
photos; ``--hard`` as there). Every look-alike doubt ("looks like A or B") left after the
photo's exemplars, just before the round robin, is written as one JSON line: the truth,
the two candidates, whether the photo is poor, the closer look's clearness, every learnt
pair verdict of either candidate (:mod:`round_robin`), and the pack's drawings' misfits
through the photo's blur (:mod:`drawn_parts`, run whether or not the step is on). The
summary says where the truth lies (first candidate, second, neither) and how many doubts
the drawings' settle would name, right and wrong, with and without the learnt pair's
guard. Tuning families only (``families.TUNING_FAMILIES``): the script refuses others.
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

from the_glade_families import _families, tuning_photos

from companion.the_glade.recognition import drawn_parts, reader, round_robin
from companion.the_glade.recognition.enrol import tile_side
from companion.the_glade.recognition.model import FINE, TILE_INSET
from companion.the_glade.recognition.photo_exemplars import _placed
from companion.vision.image import load_image

_SETTLE = round_robin.settle


def _record(model, ev, readings, fine, faces, index) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Each look-alike doubt's evidence (see the module's doc)."""
    poor = reader.poor_photo(readings)
    by = round_robin.partners(index)
    photo = drawn_parts._Photo(side=0, tside=tile_side(model.tile_size) * TILE_INSET * FINE)
    photo.side = round(photo.tside)
    out = []
    for i, r in enumerate(readings):
        look = ev.looks.get(i)
        if not r.lookalike_doubt or look is None or look.at is None:
            continue
        c1, c2 = r.candidates
        f1, f2 = faces.get((c1, r.season)), faces.get((c2, r.season))
        rec: dict[str, Any] = dict(sq=r.square, c1=c1, c2=c2, look=look.names[0], poor=poor,
                                   clear=look.clearness, noise=look.noise, z=r.distances.get("z"))
        rec["pairs"] = {name: [(model.tile_names[4 * v.winner], model.tile_names[4 * v.loser],
                                round(v.fits, 2), round(v.against, 2))
                               for v in round_robin.verdicts(model, fine, look.at, int(r.turn), f,
                                                             by[f])]
                        for name, f in ((c1, f1), (c2, f2)) if f is not None and f in by}
        if f1 is not None and f2 is not None and (f1, f2) in index:
            found = drawn_parts.judge(model, photo, fine, _placed(ev, i), int(r.turn),
                                      drawn_parts.candidates_of(model, index, f1, f2))
            if found is not None:
                misfits, d12, blur, shared = found
                rec.update(drawn={model.tile_names[4 * g]: m for g, m in misfits.items()},
                           d12=d12, blur=blur, shared=shared)
        out.append(rec)
    return out


def collect(args: argparse.Namespace) -> None:
    caught: list[list[dict[str, Any]]] = []

    def spy(model, ev, readings, fine, faces, index):  # type: ignore[no-untyped-def]
        caught.append(_record(model, ev, readings, fine, faces, index))
        return _SETTLE(model, ev, readings, fine, faces, index)

    round_robin.settle = spy  # photo_exemplars calls round_robin.settle
    work = Path(tempfile.mkdtemp(prefix="glade-doubts-"))
    with open(args.out, "a") as out:
        for photo in tuning_photos(_families(args.families), args.models,
                                   ((7, args.seven), (8, args.eight)), args.seed, args.hard,
                                   work, announce=True):
            caught.clear()
            reading = reader.read_board(photo.model, load_image(photo.path))
            final = {r.square: r for r in reading.squares}
            for rec in (rec for recs in caught for rec in recs):
                end = final[rec["sq"]]
                rec.update(family=photo.family, seed=photo.seed, hard=args.hard,
                           truth=photo.truth["forest"]["tiles"].get(rec["sq"]),
                           final_kind=end.kind, final_name=end.name)
                out.write(json.dumps(rec) + "\n")


def _drawn_settles(rec: dict[str, Any], guard: float | None) -> str | None:
    """The name drawn_parts' thresholds would settle the doubt to (None: left), with the
    learnt pair's guard at ``guard`` spreads (None: no guard)."""
    d = rec.get("drawn")
    if not d or rec["poor"]:
        return None
    best, second = sorted(d, key=d.get)[:2]
    r1, r2 = d[best], d[second]
    lean = (r2 - r1) / max(rec["d12"], 1e-9)
    if not (best in (rec["c1"], rec["c2"]) and r1 <= drawn_parts.RATIO * r2
            and drawn_parts.LEAN_MIN <= lean <= drawn_parts.LEAN_MAX
            and rec["d12"] >= drawn_parts.SEPARATION * rec["shared"]):
        return None
    other = rec["c2"] if best == rec["c1"] else rec["c1"]
    for winner, loser, fits, against in rec["pairs"].get(best, []):
        if (guard is not None and {winner, loser} == {best, other} and winner == other
                and against - fits >= guard):
            return None
    return best


def summary(path: Path) -> None:
    with open(path) as lines:
        rows = list({(r["family"], r["seed"], r["hard"], r["sq"]): r
                     for r in map(json.loads, lines)}.values())  # each doubt once
    for hard in (False, True):
        part = [r for r in rows if r["hard"] == hard and not r["poor"]]
        if not part:
            continue
        where = collections.Counter(
            "first" if r["truth"] == r["c1"] else "second" if r["truth"] == r["c2"]
            else "neither" for r in part)
        print(f"{'hard' if hard else 'normal'}: {len(part)} look-alike doubts in photos not "
              f"poor ({sum(r['hard'] == hard and r['poor'] for r in rows)} in poor ones); "
              f"the truth is the {dict(where)} candidate")
        for guard in (None, drawn_parts.PAIR_AGAINST):
            named = [(r, _drawn_settles(r, guard)) for r in part]
            right = sum(n == r["truth"] for r, n in named if n)
            wrong = sum(n != r["truth"] for r, n in named if n)
            print(f"  drawings settle (guard {guard}): {right} right, {wrong} wrong")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default="8042,8043,8035,8036")
    parser.add_argument("--seven", type=int, default=8)
    parser.add_argument("--eight", type=int, default=2)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("/tmp/glade-doubts.jsonl"))
    parser.add_argument("--summary", type=Path, default=None,
                        help="only summarise a JSONL file written before")
    args = parser.parse_args(argv)
    if args.summary is None:
        collect(args)
    summary(args.summary or args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
