"""Which gate of the photo-drawing step leaves each doubt, and what z the truth gets
(issue #20; analysis on tuning families only, not a figure of record).

    .venv/bin/python benchmarks/the_glade_drawing_gates.py --families 8054,8059 \\
        --seven 20 --eight 6 --models /tmp/m --out /tmp/gates.jsonl
    .venv/bin/python benchmarks/the_glade_drawing_gates.py --summary /tmp/gates.jsonl

Photos are rendered as ``the_glade_families.py`` renders them (the same seeds give the same
photos). ``photo_drawing.settle`` runs as in the reader; every square still uncertain when
it is called is written as one JSON line: the truth, the reason, and for a look-alike doubt
or a poor photo's close call (judged among its name's other fruits, with the verdicts among
its other leaves and other creatures) the photo's exam (its marks), the verdict among the
doubt's group, each gate it fails (in settle's order: exam, first candidate or the other's
z and ECC, ECC, fit, z, lean, then leaf or creature), and, with the truth known,
``z_true``: how clearly the truth's drawing beats the best other face of the group (the
verdict's z formula; negative when another fits better; None when the truth is not in the
group). The summary counts doubts by the first gate that stopped them and shows how the
truth's and the wrong winners' z are spread. Tuning families only
(``families.TUNING_FAMILIES``): the script refuses others.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from the_glade_families import _families, tuning_photos

from companion.errors import RecognitionError
from companion.the_glade.recognition import photo_drawing as pd
from companion.the_glade.recognition import reader
from companion.vision.image import load_image

_SETTLE = pd.settle
_PHOTO = pd._Photo
_EXAM = pd.exam


def _pair_z(total: dict[int, float], apart: dict[tuple[int, int], float], values: float,
            a: int, b: int) -> float:
    """The verdict's z of face ``a`` over face ``b`` (negative when ``b`` fits better)."""
    best = min(total[a], total[b])
    d = apart[(min(a, b), max(a, b))]
    fit = best / max(values, 1.0)
    return (total[b] - total[a]) / (2.0 * math.sqrt(max(d, 1e-9)) * math.sqrt(max(1.0, fit)))


def collect(args: argparse.Namespace) -> None:
    seen: dict[str, Any] = {}

    class Photo(_PHOTO):  # type: ignore[misc, valid-type]
        def __init__(self, *a: Any, **k: Any) -> None:
            super().__init__(*a, **k)
            seen["photo"] = self

    def exam(*a: Any, **k: Any) -> list[float]:
        marks = _EXAM(*a, **k)
        seen["marks"] = seen.get("marks", []) + marks  # prepare's second call adds to them
        return marks

    def spy(model, board, homography, image, readings):  # type: ignore[no-untyped-def]
        seen.clear()
        before = [(r.kind, r.reason, r.doubt, r.candidates, r.lookalike_doubt) for r in readings]
        c0 = time.process_time()
        out = _SETTLE(model, board, homography, image, readings)
        seen["cpu"] = time.process_time() - c0
        seen.update(model=model, board=board, homography=homography, readings=readings,
                    image=image,
                    before=before, out=out)
        return out

    pd.settle, pd._Photo, pd.exam = spy, Photo, exam
    work = Path(tempfile.mkdtemp(prefix="glade-gates-"))
    with open(args.out, "a") as out:
        for photo in tuning_photos(_families(args.families), args.models,
                                   ((7, args.seven), (8, args.eight)), args.seed, args.hard,
                                   work, announce=True):
            seen.clear()
            try:
                reader.read_board(photo.model, load_image(photo.path))
            except RecognitionError:  # not read at all: no square reached the step
                continue
            for rec in _records(seen, photo.truth):
                rec.update(family=photo.family, seed=photo.seed, size=photo.size,
                           hard=args.hard)
                out.write(json.dumps(rec) + "\n")


def _records(seen: dict[str, Any], truth: dict[str, Any]) -> list[dict[str, Any]]:
    """One record per square uncertain when settle was called (see the module's doc)."""
    if "readings" not in seen:
        return []
    model, readings = seen["model"], seen["readings"]
    faces = {(model.tile_names[4 * f], model.tile_seasons[4 * f]): f
             for f in range(len(model.tile_faces))}
    photo, marks = seen.get("photo"), seen.get("marks")
    if photo is None and any(k == "uncertain" for k, *_ in seen["before"]):
        readings_then = [replace(r) for r in readings]  # settle left them as they were
        photo, marks = pd.prepare(model, seen["board"], seen["homography"], seen["image"],
                                  readings_then, faces)
    outcome = pd.exam_outcome(marks) if marks is not None else pd.FAILED
    passed = outcome != pd.FAILED
    recs = []
    for i, (kind, reason, doubt, cands, lookalike) in enumerate(seen["before"]):
        if kind != "uncertain":
            continue
        r = readings[i]
        sq = r.square
        rec: dict[str, Any] = dict(
            sq=sq, reason=reason[:40], doubt=doubt, cands=list(cands), lookalike=lookalike,
            truth=truth["forest"]["tiles"].get(sq), truth_season=truth["seasons"].get(sq),
            season=r.season, final_kind=r.kind, final_name=r.name,
            marks=None if marks is None else [round(m, 2) for m in marks], exam=passed,
            cpu=round(seen.get("cpu", 0.0), 4))
        gates: list[str] = []
        close = (not lookalike and doubt == "poor-photo" and r.name is not None
                 and r.season is not None and r.turn is not None)
        if close:  # a poor photo's close call: its name and that name's other fruits
            cands = (r.name,)
            rec["cands"] = [r.name]
        group = pd.group_of(tuple(cands), r.season, faces) if lookalike or close else []
        if close and photo is not None and len(group) >= 2:
            for what, rivals in (("leaf", pd.leaves_of(r.name, r.season, faces)),
                                 ("creature", pd.creatures_of(r.name, r.season, faces))):
                v2 = (pd.judge(model, seen["board"], seen["homography"], photo, r, rivals)
                      if len(rivals) >= 2 else None)
                rec[what] = None if v2 is None else [v2.winner == r.name, round(v2.z, 2),
                                                     round(v2.lean, 2)]
        if not lookalike and not close:
            gates.append("not a look-alike doubt")
        elif len(group) < 2:
            gates.append("no fruit group")
        elif photo is None:
            gates.append("no photo")
        else:
            found = pd.compare(model, seen["board"], seen["homography"], photo, r, group)
            if found is None:
                gates.append("not placed")
            else:
                at, total, apart, values, _raw = found
                names = {f: model.tile_names[4 * f] for f in group}
                order = sorted(total, key=total.__getitem__)
                w, s = order[0], order[1]
                v = pd.PhotoVerdict(names[w], total[w], total[s],
                                    apart[(min(w, s), max(w, s))], values, at.ecc, "")
                rec.update(winner=names[w], z=round(v.z, 2), lean=round(v.lean, 3),
                           fit=round(v.fit, 2), ecc=round(at.ecc, 3),
                           blur=pd.KERNELS[at.kern][:3], soften=photo.soften,
                           misfits={names[f]: round(total[f], 1) for f in group},
                           values=values)
                tf = faces.get((rec["truth"], r.season))
                if tf in group:
                    rz = min(_pair_z(total, apart, values, tf, f) for f in group if f != tf)
                    rec["z_true"] = round(rz, 2)
                if not passed:
                    gates.append("exam")
                if names[w] != cands[0]:
                    if not pd.OTHER or len(cands) < 2 or outcome == pd.FEW:
                        gates.append("not first candidate")
                    else:
                        if v.z < pd.OTHER_Z:
                            gates.append("other's z")
                        if at.ecc < pd.OTHER_ECC:
                            gates.append("other's ECC")
                if at.ecc < pd.MIN_ECC:
                    gates.append("ecc")
                if v.fit > pd.MAX_FIT:
                    gates.append("fit")
                if v.z < pd.MIN_Z:
                    gates.append("z")
                if not pd.LEAN_MIN <= v.lean <= pd.LEAN_MAX:
                    gates.append("lean")
                if close and not pd.CLOSE_CALLS:
                    gates.insert(0, "poor close call")
                elif not gates and r.kind == "uncertain":
                    gates.append("leaf or creature")
        rec["gates"] = gates
        recs.append(rec)
    return recs


def summary(path: Path) -> None:
    with open(path) as lines:
        rows = list({(r["family"], r["seed"], r["hard"], r["sq"]): r
                     for r in map(json.loads, lines)}.values())
    for hard in (False, True):
        part = [r for r in rows if r["hard"] == hard]
        if not part:
            continue
        left = [r for r in part if r["final_kind"] == "uncertain"]
        settled = [r for r in part if r["final_kind"] != "uncertain"]
        right = sum(r["final_name"] == r["truth"] for r in settled)
        print(f"{'hard' if hard else 'normal'}: {len(part)} doubts reach the step; settled "
              f"{right} right, {len(settled) - right} wrong; left {len(left)}")
        first = collections.Counter(r["gates"][0] if r["gates"] else "?" for r in left)
        print("  left, by first gate:", dict(first.most_common()))
        every = collections.Counter(g for r in left for g in r["gates"])
        print("  left, every gate failed:", dict(every.most_common()))
        only = collections.Counter(r["gates"][0] for r in left if len(r["gates"]) == 1)
        print("  left by one gate alone:", dict(only.most_common()))
        judged = [r for r in left if "z_true" in r]
        if judged:
            zt = np.array([r["z_true"] for r in judged])
            print(f"  truth's z (left, judged {len(judged)}): quartiles "
                  f"{np.percentile(zt, [10, 25, 50, 75, 90]).round(1).tolist()}; "
                  f">= 8: {(zt >= 8).sum()}, < 0: {(zt < 0).sum()}")
        wrong = [r for r in part if r.get("winner") and r["winner"] != r["truth"]]
        if wrong:
            zw = np.array([r["z"] for r in wrong])
            print(f"  verdicts naming a wrong face: {len(wrong)}, z "
                  f"{np.percentile(zw, [50, 90, 100]).round(1).tolist()}; "
                  f"first candidate {sum(r['winner'] == r['cands'][0] for r in wrong)}")
        exams = {(r["family"], r["seed"]): (r["exam"], r["marks"]) for r in part}
        failed = [m for ok, m in exams.values() if not ok]
        cpu = {(r["family"], r["seed"]): r.get("cpu", 0.0) for r in part}
        print(f"  the step's CPU s a photo with doubts: median {np.median(list(cpu.values())):.3f}"
              f", 90th {np.percentile(list(cpu.values()), 90):.3f}")
        print(f"  photos with doubts: {len(exams)}, exam failed {len(failed)}: "
              f"{[(len(m) if m else 0, min(m) if m else None) for m in failed]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default="8054,8059")
    parser.add_argument("--seven", type=int, default=20)
    parser.add_argument("--eight", type=int, default=6)
    parser.add_argument("--seed", type=int, default=9000)
    parser.add_argument("--hard", action="store_true")
    parser.add_argument("--models", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=Path("/tmp/glade-gates.jsonl"))
    parser.add_argument("--summary", type=Path, default=None,
                        help="only summarise a JSONL file written before")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="set a photo_drawing constant for this run")
    args = parser.parse_args(argv)
    for setting in args.set:
        name, value = setting.split("=", 1)
        setattr(pd, name, json.loads(value))
    if args.summary is None:
        collect(args)
    summary(args.summary or args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
