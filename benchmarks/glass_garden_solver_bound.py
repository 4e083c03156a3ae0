"""Glass Garden: how tight the sunlight bound is, on exhaustively solved sunlight positions.

    .venv/bin/python benchmarks/glass_garden_solver_bound.py [--seeds 60] [--limit 20000]

The positions are those of ``tests/glass_garden/test_gg_bound.py``: seeded, growth-loving
random play to the sunlight phase, then every state an exhaustive search (no bound) visits
from there. For each it compares ``bound.upper_bound`` with the exact best: the share exact,
the sum of the excess, the share 2 or more too high, and the CPU time the bound took.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "glass_garden"))

from test_gg_bound import _play_to, _TooBig, exact  # noqa: E402

from companion.glass_garden.bound import upper_bound  # noqa: E402
from companion.glass_garden.game import State  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=60, help="random games (default 60)")
    parser.add_argument("--limit", type=int, default=20_000,
                        help="largest exhaustive search per game, in states (default 20000)")
    args = parser.parse_args()
    exact_n = total = excess = far = 0
    bound_cpu = 0.0
    for seed in range(args.seeds):
        s = _play_to(seed, "sunlight")
        memo: dict[State, int] = {}
        try:
            exact(s, memo, args.limit)
        except _TooBig:
            continue
        start = time.process_time()
        bounds = {t: upper_bound(t) for t in memo}
        bound_cpu += time.process_time() - start
        for t, v in memo.items():
            b = bounds[t]
            total += 1
            exact_n += b == v
            excess += b - v
            far += b - v >= 2
    print(f"positions {total}: exact {exact_n} ({100 * exact_n / max(total, 1):.1f}%), "
          f"2+ too high {far} ({100 * far / max(total, 1):.1f}%), excess sum {excess}, "
          f"bound {1e6 * bound_cpu / max(total, 1):.0f} us each (CPU)")


if __name__ == "__main__":
    main()
