"""Glass Garden: the solver against the greedy one-turn policy on seeded deals of the SAMPLE deck.

A plain script, run apart from the tests:

    .venv/bin/python benchmarks/glass_garden_solver.py            # 50 deals per critter, 10 s
    .venv/bin/python benchmarks/glass_garden_solver.py --quick    # 3 deals per critter, 2 s
    .venv/bin/python benchmarks/glass_garden_solver.py --deals 10 --seconds 60

Deal ``i`` of a critter is ``new_game(deck, critter, seed=i)``. For each deal it reports the
greedy score, the solver's score, whether the solver proved it optimal within the time, its
time and the states it explored (turn expansions and sunlight-search nodes); then means, the
bounds it proved, score distributions and titles.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import new_game
from companion.glass_garden.scoring import TITLES, title
from companion.glass_garden.solver import greedy, solve


def one_deal(job: tuple[str, int, float]) -> dict[str, object]:
    critter, seed, seconds = job
    deck = load_deck()
    state = new_game(deck, critter, seed=seed)
    t0 = time.monotonic()
    base = greedy(state)
    greedy_time = time.monotonic() - t0
    result = solve(state, seconds)
    return {"critter": critter, "seed": seed, "greedy": base.score,
            "greedy_seconds": round(greedy_time, 3), "solver": result.plan.score,
            "bound": result.bound, "optimal": result.optimal,
            "seconds": round(result.seconds, 3), "states": result.nodes,
            "found_by": next((line for line in reversed(result.log) if ": " in line), "")}


def summarise(rows: list[dict[str, object]], seconds: float) -> str:
    out = []
    n = len(rows)
    greedy_scores = [int(r["greedy"]) for r in rows]  # type: ignore[call-overload]
    solver_scores = [int(r["solver"]) for r in rows]  # type: ignore[call-overload]
    out.append(f"deals: {n}  time limit: {seconds:g} s per deal")
    gain = statistics.mean(s - g for s, g in zip(solver_scores, greedy_scores, strict=True))
    out.append(f"mean score: solver {statistics.mean(solver_scores):.2f}  greedy "
               f"{statistics.mean(greedy_scores):.2f}  (gain {gain:.2f})")
    worse = sum(s < g for s, g in zip(solver_scores, greedy_scores, strict=True))
    better = sum(s > g for s, g in zip(solver_scores, greedy_scores, strict=True))
    out.append(f"solver better on {better}, equal on {n - better - worse}, worse on {worse}")
    proven = sum(bool(r["optimal"]) for r in rows)
    out.append(f"proven optimal within {seconds:g} s: {proven}/{n} ({100 * proven / n:.0f}%)")
    bounds = [int(r["bound"]) for r in rows]  # type: ignore[call-overload]
    out.append(f"proven bound reported: mean {statistics.mean(bounds):.2f}, below 16 on "
               f"{sum(b < 16 for b in bounds)}/{n}; proven optimal below 16: "
               f"{sum(bool(r['optimal']) and int(r['solver']) < 16 for r in rows)}/{n}")  # type: ignore[call-overload]
    secs = [float(r["seconds"]) for r in rows]  # type: ignore[arg-type]
    states = [int(r["states"]) for r in rows]  # type: ignore[call-overload]
    gsecs = [float(r["greedy_seconds"]) for r in rows]  # type: ignore[arg-type]
    out.append(f"solver time per deal: mean {statistics.mean(secs):.2f} s, max {max(secs):.2f} s;"
               f" greedy: mean {statistics.mean(gsecs):.2f} s")
    out.append(f"states explored per deal: mean {statistics.mean(states):.0f}, "
               f"median {statistics.median(states):.0f}")
    out.append("score distribution (score: solver / greedy):")
    sc, gc = Counter(solver_scores), Counter(greedy_scores)
    for score in range(16, -1, -1):
        if sc[score] or gc[score]:
            out.append(f"  {score:2d}: {sc[score]:4d} / {gc[score]:4d}")
    out.append("titles (solver / greedy):")
    for _, name in TITLES:
        out.append(f"  {name:16s} {sum(title(s) == name for s in solver_scores):4d} / "
                   f"{sum(title(g) == name for g in greedy_scores):4d}")
    out.append("per critter (solver mean / greedy mean / proven):")
    for critter in dict.fromkeys(str(r["critter"]) for r in rows):
        sub = [r for r in rows if r["critter"] == critter]
        out.append(f"  {critter:6s} {statistics.mean(int(r['solver']) for r in sub):5.2f} / "  # type: ignore[call-overload]
                   f"{statistics.mean(int(r['greedy']) for r in sub):5.2f} / "  # type: ignore[call-overload]
                   f"{sum(bool(r['optimal']) for r in sub)}/{len(sub)}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 deals per critter, 2 s each")
    parser.add_argument("--deals", type=int, default=50, help="deals per critter (default 50)")
    parser.add_argument("--seconds", type=float, default=10.0, help="solver time per deal")
    parser.add_argument("--jobs", type=int, default=2, help="deals solved at once")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--json", type=Path, help="also write every deal's row here")
    args = parser.parse_args(argv)
    if args.quick:
        args.deals, args.seconds = 3, 2.0
    deck = load_deck()
    print(f"deck: {deck.label}")
    jobs = [(c.name, args.first_seed + i, args.seconds) for c in deck.critters
            for i in range(args.deals)]
    t0 = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        rows = list(pool.map(one_deal, jobs))
    print(summarise(rows, args.seconds))
    print(f"wall time {time.monotonic() - t0:.0f} s with {args.jobs} worker(s)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
