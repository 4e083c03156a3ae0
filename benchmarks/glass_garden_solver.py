"""Glass Garden: the anytime solver on seeded deals of the SAMPLE deck, by CPU or wall seconds.

A plain script, run apart from the tests:

    .venv/bin/python benchmarks/glass_garden_solver.py                # 50 deals per critter, 10 s
    .venv/bin/python benchmarks/glass_garden_solver.py --deals 10     # the issue's 40 deals
    .venv/bin/python benchmarks/glass_garden_solver.py --clock wall --seconds 2.5

Deal ``i`` of a critter is ``new_game(deck, critter, seed=i)``: the 8 plants dealt into the
middle row in ``random.Random(i).shuffle`` order, right of the critter. The first 10 deals of
each critter are the issue's 40 deals; the 50 of each are the benchmark's 200.

The solver's stages run in a fixed order whatever its time limit (see ``solver.py``), so one run
of ``--seconds`` per deal also tells what any shorter limit gives (not for a configuration with
fillers, ``fill`` and ``from4g8f``, which take a wide beam's place only near the deadline: a
shorter run may do a little better than the longer run's mark says): each deal records when its
plan improved and when it was proven optimal, and the report gives the share proven and the
mean score at each of ``--marks`` seconds, and draws them as a curve (``--plot``, a PNG drawn
with Pillow). ``--clock cpu`` (the default) counts the CPU seconds of the process searching,
so a machine shared with other work gives the figures an idle one would (a Raspberry Pi 4 is
about 4 times slower); ``--clock wall`` counts real seconds. Each deal runs in a fresh process,
whose peak resident memory is reported (the search's memory plus about 60 MB of Python and
the engine). The machine's load average is printed at the start and the end.

``--workers W`` (default 1: the solver alone) solves each deal by a portfolio of W searches
(``companion/glass_garden/portfolio.py``; ``--portfolio`` names their configurations, search 0
first; ``--variant`` runs one configuration alone instead). Its workers are started in a pool
of the deal's own and answer before the deal's clock starts, as at the table, where the turn
screen starts them when it opens (``warm_up_seconds``: the fork server's start and the workers'
fork, about 1 s here); ``--cold`` starts them within the deal's time instead. What is counted:
with ``--clock cpu`` each process gets ``--seconds`` of its own CPU, the parent from before it
hands the deal to its workers (sending them the position is in its time), each worker from its
birth (its fork and reading the position included; the fork server's start is not counted: it
is made once per service); with ``--clock wall`` all stop at the same instant, ``--seconds``
after the parent started, the workers' start included. A row's ``events`` and ``proven_at``
are the portfolio's (each on its search's own clock: a deal is proven at t once the best score
found by any search by t meets the least bound proven by any by t); ``searches`` holds each
search's own figures (cut short where the portfolio was proven: search 0's are not a single
solver's run), and ``rss_mb_total`` the peak memory of the parent and its workers summed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.glass_garden import portfolio
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import State, new_game
from companion.glass_garden.portfolio import VARIANTS
from companion.glass_garden.solver import Clock, Result, Solver, greedy

CLOCKS = {"cpu": time.process_time, "wall": time.monotonic}
MARKS = (0.5, 1.0, 2.5, 10.0)


def one_deal(job: tuple[str, int, float, str, bool, str, int, tuple[str, ...], bool]
             ) -> dict[str, Any]:
    critter, seed, seconds, clock_name, with_greedy, variant, workers, names, cold = job
    clock = CLOCKS[clock_name]
    deck = load_deck()
    state = new_game(deck, critter, seed=seed)
    row: dict[str, Any] = {"critter": critter, "seed": seed}
    if with_greedy:
        t0 = clock()
        row["greedy"] = greedy(state).score
        row["greedy_seconds"] = round(clock() - t0, 3)
    start_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if workers > 1:
        result = portfolio_deal(row, state, seconds, clock, workers, names, cold)
    else:
        result = Solver(state, seconds, clock, VARIANTS[variant]).run()
        row["variant"] = variant
    row.update({
        "score": result.plan.score, "bound": result.bound, "optimal": result.optimal,
        "seconds": round(result.seconds, 3), "proven_at": result.proven_at,
        "states": result.nodes, "events": result.events,
        "found_by": result.found_by(),
        "rss_mb_before": round(start_rss / 1024, 1),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})
    return row


def portfolio_deal(row: dict[str, Any], state: State, seconds: float, clock: Clock,
                   workers: int, names: tuple[str, ...], cold: bool) -> Result:
    """One deal by a portfolio of ``workers`` searches (``names``: their configurations), in a
    pool of its own: started and answering before the deal's clock starts (as at the table,
    where a game screen starts the pool when it opens), or within it (``cold``)."""
    if names:
        portfolio.PORTFOLIO = names
    pool = portfolio.WorkerPool()
    try:
        row["warm_up_seconds"] = None if cold else round(pool.warm(workers - 1), 3)
        search = portfolio.Portfolio(state, seconds, clock, workers, pool)
        result = search.run()
    finally:
        pool.close()
    searches = result.searches
    row.update({
        "workers": workers, "portfolio": [s["config"] for s in searches],
        "cold_start": cold, "start_seconds": search.start_seconds, "searches": searches,
        "rss_mb_total": round(sum(s["rss_mb"] or 0.0 for s in searches), 1)})
    return result


def score_at(row: dict[str, Any], t: float) -> int:
    """The best score the run had found by ``t`` seconds."""
    found = [score for when, _, score in row["events"] if when <= t]
    return max(found) if found else 0


def proven_by(row: dict[str, Any], t: float) -> bool:
    return row["proven_at"] is not None and row["proven_at"] <= t


def summarise(rows: list[dict[str, Any]], seconds: float, clock: str,
              marks: tuple[float, ...], best_known: dict[str, int]) -> str:
    n = len(rows)
    out = [f"deals: {n}  time limit: {seconds:g} {clock} s per deal"]
    for t in marks:
        if t > seconds:
            continue
        scores = [score_at(r, t) for r in rows]
        proven = sum(proven_by(r, t) for r in rows)
        gap = statistics.mean(best_known[key(r)] - s for r, s in zip(rows, scores, strict=True))
        out.append(f"at {t:4g} s: proven optimal {proven}/{n} ({100 * proven / n:.1f}%), "
                   f"mean score {statistics.mean(scores):.3f} (best known "
                   f"{statistics.mean(best_known[key(r)] for r in rows):.3f}, gap {gap:.3f})")
    wrong = [r for r in rows if r["optimal"] and r["score"] < best_known[key(r)]]
    out.append(f"'optimal' below the best known score: {len(wrong)}")
    if any("greedy" in r for r in rows):
        out.append(f"greedy baseline: mean {statistics.mean(r['greedy'] for r in rows):.2f}, "
                   f"{statistics.mean(r['greedy_seconds'] for r in rows):.2f} s a deal")
    secs = [r["seconds"] for r in rows]
    out.append(f"time per deal: mean {statistics.mean(secs):.2f} s, max {max(secs):.2f} s "
               f"(limit {seconds:g}); states explored: mean "
               f"{statistics.mean(r['states'] for r in rows):.0f}")
    out.append(f"peak memory of a deal's process: max {max(r['rss_mb'] for r in rows):.0f} MB "
               f"(before the search: {max(r['rss_mb_before'] for r in rows):.0f} MB)")
    if any(r.get("searches") for r in rows):  # a portfolio: each search alone, and memory
        many = [r for r in rows if r.get("searches")]
        for i, search in enumerate(many[0]["searches"]):
            alone = sum(1 for r in many if r["searches"][i]["proven_at"] is not None
                        and r["searches"][i]["proven_at"] <= seconds)
            out.append(f"search {i} ({search['config']}) proved {alone}/{len(many)} itself "
                       "(each stops at the portfolio's proof)")
        out.append(f"the parent's and its workers' peak memory summed: max "
                   f"{max(r['rss_mb_total'] for r in many):.0f} MB, median "
                   f"{statistics.median(r['rss_mb_total'] for r in many):.0f} MB; longest "
                   f"search {max(x['seconds'] for r in many for x in r['searches']):.2f} s")
    out.append("per critter (mean score at the limit / proven):")
    for critter in dict.fromkeys(r["critter"] for r in rows):
        sub = [r for r in rows if r["critter"] == critter]
        out.append(f"  {critter:6s} {statistics.mean(r['score'] for r in sub):5.2f} / "
                   f"{sum(bool(r['optimal']) for r in sub)}/{len(sub)}")
    unproven = [f"{r['critter']} {r['seed']} ({r['score']}, bound {r['bound']})"
                for r in rows if not r["optimal"]]
    out.append("not proven: " + (", ".join(unproven) if unproven else "none"))
    return "\n".join(out)


def key(row: dict[str, Any]) -> str:
    return f"{row['critter']} {row['seed']}"


def plot(curves: list[tuple[str, list[dict[str, Any]]]], seconds: float, path: Path,
         marks: tuple[float, ...], title: str) -> None:
    """The share of deals proven optimal against the time (log scale), one curve per set of
    rows, the marks as dots with their value; drawn with Pillow."""
    import math

    from PIL import Image, ImageDraw

    w, h, left, right, top, bottom = 760, 440, 70, 30, 50, 60
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    lo, hi = math.log10(0.1), math.log10(max(seconds, 10.0))

    def xy(t: float, share: float) -> tuple[float, float]:
        x = left + (math.log10(max(t, 0.1)) - lo) / (hi - lo) * (w - left - right)
        return x, h - bottom - share * (h - top - bottom)

    d.text((left, 15), title, fill="black")
    for share in (0, 0.25, 0.5, 0.75, 0.95, 1.0):
        x0, y = xy(0.1, share)
        x1, _ = xy(max(seconds, 10.0), share)
        d.line([(x0, y), (x1, y)], fill=(255, 170, 170) if share == 0.95 else (225, 225, 225))
        d.text((10, y - 6), f"{100 * share:.0f}%", fill="black")
    for t in (0.1, 0.2, 0.5, 1, 2, 2.5, 5, 10, 20, 60):
        if t > max(seconds, 10.0):
            continue
        x, y = xy(t, 0)
        d.line([(x, y), (x, y + 5)], fill="black")
        d.text((x - 8, y + 8), f"{t:g}", fill="black")
    d.text((w // 2 - 60, h - 25), "seconds per deal (log scale)", fill="black")
    colours = [(20, 90, 200), (220, 110, 20), (30, 150, 60), (140, 40, 160)]
    for i, (label, rows) in enumerate(curves):
        colour = colours[i % len(colours)]
        ts = [0.1 * (10 ** (k / 40)) for k in range(int(40 * (hi - lo)) + 1)]
        pts = [xy(t, sum(proven_by(r, t) for r in rows) / len(rows)) for t in ts if t <= seconds]
        d.line(pts, fill=colour, width=2)
        for t in marks:
            if t <= seconds:
                share = sum(proven_by(r, t) for r in rows) / len(rows)
                x, y = xy(t, share)
                d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=colour)
                d.text((x + 5, y + 4 + 12 * i), f"{100 * share:.0f}%", fill=colour)
        d.text((left + 10, top + 5 + 14 * i), label, fill=colour)
    img.save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals per critter (default 50)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=10.0, help="solver time per deal")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="count CPU seconds of the search (default) or wall seconds")
    parser.add_argument("--marks", default=",".join(f"{m:g}" for m in MARKS),
                        help="times at which to report (comma separated)")
    parser.add_argument("--greedy", action="store_true", help="also play the greedy baseline")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS),
                        help="run this solver configuration (repeat: each deal with each)")
    parser.add_argument("--workers", type=int, default=1,
                        help="searches at once per deal: a portfolio (solver default 1)")
    parser.add_argument("--portfolio", help="the portfolio's configurations, search 0 first "
                        f"(comma separated; default {','.join(portfolio.PORTFOLIO)})")
    parser.add_argument("--cold", action="store_true",
                        help="start the portfolio's workers within the deal's time")
    parser.add_argument("--critters", help="only these critters (comma separated)")
    parser.add_argument("--jobs", type=int, default=2, help="deals solved at once")
    parser.add_argument("--json", type=Path, help="also write every deal's row here")
    parser.add_argument("--best-known", type=Path, action="append", default=[],
                        help="JSON rows of other runs: their scores count as known")
    parser.add_argument("--plot", type=Path, help="draw the share proven against time here")
    args = parser.parse_args(argv)
    marks = tuple(float(m) for m in args.marks.split(","))
    args.variant = args.variant or ["ladder"]
    args.critters = args.critters.split(",") if args.critters else []
    deck = load_deck()
    print(f"deck: {deck.label}")
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    # seed by seed, the four critters of each in turn: a run stopped part-way is still a fair
    # sample of the critters
    critters = [c for c in deck.critters if not args.critters or c.name in args.critters]
    names = tuple(args.portfolio.split(",")) if args.portfolio else ()
    jobs = [(c.name, args.first_seed + i, args.seconds, args.clock, args.greedy, v,
             args.workers, names, args.cold)
            for i in range(args.deals) for c in critters for v in args.variant]
    t0 = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs, max_tasks_per_child=1) as pool:
        rows = []
        for row in pool.map(one_deal, jobs):
            rows.append(row)
            print(f"  {key(row)}: {row['score']}{' proven' if row['optimal'] else ''} "
                  f"(bound {row['bound']}) in {row['seconds']:.2f} s, {row['rss_mb']:.0f} MB; "
                  f"{row['found_by']}", flush=True)
            if args.json:  # every row so far: a run stopped part-way keeps what it measured
                args.json.write_text(json.dumps(rows, indent=1))
    best_known = {key(r): r["score"] for r in rows}
    for extra in args.best_known:
        for r in json.loads(extra.read_text()):
            if key(r) in best_known:
                best_known[key(r)] = max(best_known[key(r)], r["score"])
    print(summarise(rows, args.seconds, args.clock, marks, best_known))
    print(f"wall time {time.monotonic() - t0:.0f} s with {args.jobs} worker(s); load average "
          f"at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    if args.plot:
        label = f"{len(rows)} deals, {args.clock} seconds"
        plot([(label, rows)], args.seconds, args.plot, marks,
             "Glass Garden solver: share of deals proven optimal")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
