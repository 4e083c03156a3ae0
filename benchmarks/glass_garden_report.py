"""Glass Garden: the figures and the plot of benchmark runs already made, taken together.

    .venv/bin/python benchmarks/glass_garden_report.py RUN.json:10 OTHER.json:2.5 \\
        --best-known benchmarks/glass_garden_best_known.json --plot PNG

Each ``PATH:SECONDS`` is the ``--json`` output of ``glass_garden_solver.py`` and the time limit
it was run with (a run tells what any shorter limit gives, not a longer one). For each mark it
reports, over the deals whose run lasted at least that long, the share proven optimal and the
mean score against the best score known for each deal (the runs' own, and ``--best-known``).
Runs that share deals (the issue's 40 at 10 s and all 200 at 2.5 s) are reported and drawn
each on its own: taken together they would count those deals twice. Rows of a portfolio
(``--workers``, fields ``workers``, ``searches``, ``rss_mb_total``) are read as the others are
(their ``events`` and ``proven_at`` are the portfolio's), with their summed memory reported.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from glass_garden_solver import MARKS, key, proven_by, score_at


def plot(curves: list[tuple[str, float, list[dict[str, Any]]]], path: Path, title: str,
         clock: str = "cpu") -> None:
    """The share of deals proven optimal against the time (log scale), one curve per run up to
    its limit, the marks as dots with their value; drawn with Pillow. ``clock``: the runs'
    clock (``cpu`` or ``wall``, as benchmarks/glass_garden_solver.py's ``--clock``), named on
    the time axis."""
    import math

    from PIL import Image, ImageDraw

    w, h, left, right, top, bottom = 760, 440, 70, 30, 50, 60
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    longest = max(10.0, *(limit for _, limit, _ in curves))
    lo, hi = math.log10(0.1), math.log10(longest)

    def xy(t: float, share: float) -> tuple[float, float]:
        x = left + (math.log10(max(t, 0.1)) - lo) / (hi - lo) * (w - left - right)
        return x, h - bottom - share * (h - top - bottom)

    d.text((left, 15), title, fill="black")
    for share in (0, 0.25, 0.5, 0.75, 0.95, 1.0):
        x0, y = xy(0.1, share)
        x1, _ = xy(longest, share)
        d.line([(x0, y), (x1, y)], fill=(255, 170, 170) if share == 0.95 else (225, 225, 225))
        d.text((10, y - 6), f"{100 * share:.0f}%", fill="black")
    for t in (0.1, 0.2, 0.5, 1, 2, 2.5, 5, 10, 20, 60):
        if t <= longest:
            x, y = xy(t, 0)
            d.line([(x, y), (x, y + 5)], fill="black")
            d.text((x - 8, y + 8), f"{t:g}", fill="black")
    axis = "CPU seconds" if clock == "cpu" else "seconds (wall clock)"
    d.text((w // 2 - 60, h - 25), f"{axis} per deal (log scale)", fill="black")
    colours = [(20, 90, 200), (220, 110, 20), (30, 150, 60), (120, 120, 120), (185, 185, 185)]
    for i, (label, limit, rows) in enumerate(curves):
        colour = colours[i % len(colours)]
        ts = [0.1 * (10 ** (k / 40)) for k in range(int(40 * (hi - lo)) + 1)]
        pts = [xy(t, sum(proven_by(r, t) for r in rows) / len(rows)) for t in ts if t <= limit]
        d.line(pts, fill=colour, width=2)
        for t in MARKS:
            if t <= limit:
                share = sum(proven_by(r, t) for r in rows) / len(rows)
                x, y = xy(t, share)
                d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
                # each curve's value a line lower than the one before's: apart where the
                # dots of several curves meet
                dy = -18 + 13 * i
                d.text((x + 6, y + dy), f"{100 * share:.0f}%", fill=colour)
        d.text((left + 10, top + 5 + 14 * i), label, fill=colour)
    img.save(path)


def read_runs(specs: list[str], *, issue_only: bool) -> list[tuple[float, dict[str, Any]]]:
    """Each deal's row of the runs named ``PATH:SECONDS``, with its run's limit (the issue's 40
    deals only, seeds 0-9 of each critter, when ``issue_only``)."""
    rows: list[tuple[float, dict[str, Any]]] = []
    for spec in specs:
        path, limit = spec.rsplit(":", 1)
        rows.extend((float(limit), r) for r in json.loads(Path(path).read_text()))
    return [(t, r) for t, r in rows if r["seed"] < 10] if issue_only else rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="PATH:SECONDS of each run")
    parser.add_argument("--best-known", type=Path, action="append", default=[])
    parser.add_argument("--issue", action="store_true",
                        help="only the issue's 40 deals (seeds 0-9 of each critter)")
    parser.add_argument("--plot", type=Path)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="the clock the runs were timed by (glass_garden_solver.py's "
                        "--clock), named on the plot")
    parser.add_argument("--before", action="append", default=[], metavar="PATH:SECONDS",
                        help="runs of an earlier solver: drawn as one more curve (all their "
                        "deals, up to their shortest limit) and summed up at the marks")
    args = parser.parse_args(argv)
    rows = read_runs(args.runs, issue_only=args.issue)
    best = {key(r): r["score"] for _, r in rows}
    for extra in args.best_known:
        for r in json.loads(extra.read_text()):
            if key(r) in best:
                best[key(r)] = max(best[key(r)], r["score"])
    print(f"deals: {len(rows)}")
    overlap = len({key(r) for _, r in rows}) < len(rows)
    groups = ([(f"{limit:g} s run", [(t, r) for t, r in rows if t == limit])
               for limit in sorted({t for t, _ in rows}, reverse=True)] if overlap
              else [("", rows)])
    for name, group in groups:
        for t in MARKS:
            sub = [r for limit, r in group if limit >= t]
            if not sub:
                continue
            proven = sum(proven_by(r, t) for r in sub)
            scores = [score_at(r, t) for r in sub]
            gap = statistics.mean(best[key(r)] - s for r, s in zip(sub, scores, strict=True))
            print(f"{name + ', ' if name else ''}at {t:4g} s ({len(sub)} deals): proven optimal "
                  f"{proven}/{len(sub)} ({100 * proven / len(sub):.1f}%), mean score "
                  f"{statistics.mean(scores):.3f}, best known "
                  f"{statistics.mean(best[key(r)] for r in sub):.3f} (gap {gap:.3f})")
    wrong = [key(r) for _, r in rows if r["optimal"] and r["score"] < best[key(r)]]
    print(f"'optimal' below the best known score: {len(wrong)} {wrong}")
    below = [f"{key(r)} {r['score']}/{best[key(r)]}" for _, r in rows
             if r["score"] < best[key(r)]]
    print(f"below the best known at the run's limit: {len(below)}: {', '.join(below)}")
    print(f"peak memory of a deal's process: max {max(r['rss_mb'] for _, r in rows):.0f} MB")
    portfolios = [r for _, r in rows if r.get("workers", 1) > 1]
    if portfolios:  # rows of a portfolio (--workers): its processes' peaks summed
        print(f"deals searched by a portfolio: {len(portfolios)} "
              f"({', '.join(sorted({'+'.join(r['portfolio']) for r in portfolios}))}); "
              f"the parent's and its workers' peak memory summed: max "
              f"{max(r['rss_mb_total'] for r in portfolios):.0f} MB")
    over = max(max([r["seconds"], *(s["seconds"] for s in r.get("searches", []))]) / limit
               for limit, r in rows)
    print(f"longest run against its limit: {100 * over:.1f}%")
    before = read_runs(args.before, issue_only=args.issue)
    for t in MARKS:
        sub = [r for limit, r in before if limit >= t]
        if sub:
            proven = sum(proven_by(r, t) for r in sub)
            print(f"before, at {t:4g} s ({len(sub)} deals): proven optimal {proven}/{len(sub)} "
                  f"({100 * proven / len(sub):.1f}%), mean score "
                  f"{statistics.mean(score_at(r, t) for r in sub):.3f}")
    if args.plot:
        unit = "CPU s" if args.clock == "cpu" else "s (wall)"
        curves = []
        for limit in sorted({t for t, _ in rows}, reverse=True):
            sub = [r for t, r in rows if t == limit]
            workers = max(r.get("workers", 1) for r in sub)
            each = f", {workers} searches" if workers > 1 else ""
            curves.append((f"{len(sub)} deals, {limit:g} {unit} each{each}", limit, sub))
        every = [r for _, r in rows]
        if len(curves) > 1 and not overlap:
            shortest = min(t for t, _ in rows)
            curves.append((f"all {len(every)} deals, up to {shortest:g} s", shortest, every))
        if before:  # the earlier solver's longest run and all its deals, in greys
            longest = max(t for t, _ in before)
            sub = [r for t, r in before if t == longest]
            curves.append((f"before: {len(sub)} deals, {longest:g} {unit} each", longest,
                           sub))
            shortest = min(t for t, _ in before)
            if shortest < longest:
                curves.append((f"before: all {len(before)} deals, up to {shortest:g} s",
                               shortest, [r for _, r in before]))
        plot(curves, args.plot, "Glass Garden solver: share of deals proven optimal",
             args.clock)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
