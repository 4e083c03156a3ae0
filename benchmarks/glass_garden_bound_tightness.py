"""Glass Garden: how tight the bound is on the states a search really asks about.

    # the states of a fixed search, with this tree's bound on them, kept in a file
    .venv/bin/python benchmarks/glass_garden_bound_tightness.py --save /tmp/states.pickle \
        [--critters Ant,Worm] [--seeds 100-109] [--seconds 2.5] [--floor 15]
    # another tree's bound on the same states (from that tree's own directory, this file
    # copied into its benchmarks/ if it has none)
    python benchmarks/glass_garden_bound_tightness.py --states /tmp/states.pickle [--truth 30]

The fixed search: the single solver (``solver.DEFAULT_CONFIG``) on each training deal for
``--seconds`` CPU seconds, recording each state whose bound it works out once its best plan
scores ``--floor`` or more (the states that decide which children the beams keep: a state that
cannot reach 16 there takes the slot of one that can). On those states (each once, turn 4 and
later) it prints, per turn, the states, the mean bound, how many are below 16, and the CPU
time per call (the bound's caches emptied first). Saved, the same states can be given to
another tree's bound: the difference of the two printouts is the tightening, on one search.
``--truth N``: the exact best of N turn-9 states whose bound is 16 (the solver's proof from
each, up to 20 CPU s), i.e. how many of them truly cannot reach 16.
Never measure on seeds 0-49 (the benchmark's record).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.glass_garden import bound, solver  # noqa: E402
from companion.glass_garden.deck import load_deck  # noqa: E402
from companion.glass_garden.game import State, new_game  # noqa: E402


def empty_caches() -> None:
    """Forget what the bound remembered (a fair timing of a pass)."""
    for name in ("_SET_COSTS", "_UNSPENT"):
        table = getattr(bound, name, None)
        if isinstance(table, dict):
            table.clear()
    for name in ("_fewest_moves", "_zone_cost", "_shifts_needed", "_least_phi"):
        cached = getattr(bound, name, None)
        if cached is not None and hasattr(cached, "cache_clear"):
            cached.cache_clear()


def record(critter: str, seed: int, seconds: float, floor: int) -> list[State]:
    """The states whose bound the search works out with ``floor`` or more in hand."""
    deck = load_deck()
    seen: dict[State, None] = {}
    search: list[solver.Solver] = []
    plain = solver.upper_bound

    def spy(state: State) -> int:
        if search and search[0].best is not None and search[0].best.score >= floor:
            seen.setdefault(state, None)
        return plain(state)

    solver.upper_bound = spy
    try:
        s = solver.Solver(new_game(deck, critter, seed=seed), seconds, time.process_time)
        search.append(s)
        result = s.run()
    finally:
        solver.upper_bound = plain
    print(f"{critter} {seed}: {result.plan.score}, bound {result.bound}, "
          f"{'proven' if result.optimal else 'unproven'}, {len(seen)} states recorded",
          flush=True)
    return list(seen)


def report(states: list[State]) -> list[int]:
    """Print the bound on ``states`` per turn; the bounds."""
    empty_caches()
    start = time.process_time()
    values = [bound.upper_bound(s) for s in states]
    cpu = time.process_time() - start
    count: Counter[int] = Counter()
    total: Counter[int] = Counter()
    below: Counter[int] = Counter()
    for s, v in zip(states, values, strict=True):
        count[s.turn] += 1
        total[s.turn] += v
        below[s.turn] += v < bound.MAX_SCORE
    print("turn  states  mean bound  below 16")
    for t in sorted(count):
        label = "sun" if t > 9 else str(t)
        print(f"{label:>4}  {count[t]:6d}  {total[t] / count[t]:10.3f}  {below[t]:8d}")
    mid = [t for t in count if 4 <= t <= 9]
    n = sum(count[t] for t in mid)
    if n:
        print(f"turns 4-9: {n} states, mean bound {sum(total[t] for t in mid) / n:.3f}, "
              f"{sum(below[t] for t in mid)} below 16")
    print(f"CPU per call: {1e6 * cpu / max(len(states), 1):.0f} us ({len(states)} states)")
    return values


def truth(states: list[State], values: list[int], n: int) -> None:
    """The exact best of ``n`` turn-9 states whose bound is 16."""
    late = [s for s, v in zip(states, values, strict=True)
            if s.turn == 9 and v >= bound.MAX_SCORE]
    random.Random(1).shuffle(late)
    solved = below = 0
    for s in late[:n]:
        result = solver.Solver(s, 20, time.process_time).run()
        if result.optimal:
            solved += 1
            below += result.plan.score < bound.MAX_SCORE
    print(f"turn 9, bound 16: {solved} of {min(n, len(late))} solved exactly, {below} of them "
          f"cannot reach 16")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--critters", default="Ant,Worm")
    parser.add_argument("--seeds", default="100-109", help="FIRST-LAST (default 100-109)")
    parser.add_argument("--seconds", type=float, default=2.5)
    parser.add_argument("--floor", type=int, default=15,
                        help="record states once the best plan scores this (default 15)")
    parser.add_argument("--save", type=Path, help="keep the recorded states in this file")
    parser.add_argument("--states", type=Path, help="states saved by --save, instead of a search")
    parser.add_argument("--truth", type=int, default=0,
                        help="turn-9 states of bound 16 whose exact best to find (default 0)")
    args = parser.parse_args()
    if args.states:
        states: list[State] = pickle.loads(args.states.read_bytes())
    else:
        first, _, last = args.seeds.partition("-")
        seeds = range(int(first), int(last or first) + 1)
        if any(seed < 50 for seed in seeds):
            parser.error("seeds 0-49 are the benchmark's record: measure on others")
        states = []
        for critter in args.critters.split(","):
            for seed in seeds:
                states += record(critter, seed, args.seconds, args.floor)
        states = [s for s in dict.fromkeys(states) if s.turn >= 4]
        if args.save:
            args.save.write_bytes(pickle.dumps(states))
    values = report(states)
    if args.truth:
        truth(states, values, args.truth)


if __name__ == "__main__":
    main()
