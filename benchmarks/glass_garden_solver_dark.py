"""Glass Garden: where the bound is loose in the dark phase, on deals left unproven.

    .venv/bin/python benchmarks/glass_garden_solver_dark.py --deals "Ant 1,Ant 6" --per-turn 12

For each deal, a search of ``--seconds`` CPU seconds from the deal collects the states whose
bound it worked out; ``--per-turn`` of them per turn (7, 8, 9 by default, the turns where a
proof is within reach of a search of the rest of the game) are then solved on their own with
``--solve-seconds`` each. Printed per turn, for the states that search proves: how many have a
bound above their value, the sum of the excess, and the same for the bound with the glass
bonuses left out (not sound: it shows how much of the excess the glass count makes, the
largest term of the dark phase's rising budget); for the states it cannot prove in that time,
how far the bound stands above the best score it found (the excess is at most that).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.glass_garden import bound
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import State, new_game
from companion.glass_garden.solver import Solver


def without_glass(state: State) -> int:
    """The bound with no glass bonus counted (not sound: a measure of the glass term)."""
    facts = bound._facts(state.deck)
    lit, top = facts.lit_ups, facts.max_glass_ups
    facts.lit_ups, facts.max_glass_ups = [0] * 64, 0
    try:
        return bound.upper_bound(state)
    finally:
        facts.lit_ups, facts.max_glass_ups = lit, top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="Ant 1,Ant 6")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--turns", default="7,8,9")
    parser.add_argument("--per-turn", type=int, default=12)
    parser.add_argument("--solve-seconds", type=float, default=4.0)
    args = parser.parse_args()
    deck = load_deck()
    turns = [int(t) for t in args.turns.split(",")]
    rows: dict[int, list[tuple[int, int, int]]] = {t: [] for t in turns}
    open_: dict[int, list[tuple[int, int]]] = {t: [] for t in turns}
    for deal in args.deals.split(","):
        critter, seed = deal.split()
        solver = Solver(new_game(deck, critter, seed=int(seed)), args.seconds,
                        clock=time.process_time)
        solver.run()
        rng = random.Random(0)
        for t in turns:
            pool = [s for s in solver.bounds if s.turn == t]
            for s in rng.sample(pool, min(args.per_turn, len(pool))):
                r = Solver(s, args.solve_seconds, clock=time.process_time).run()
                if r.optimal:
                    rows[t].append((bound.upper_bound(s), r.plan.score, without_glass(s)))
                else:
                    open_[t].append((bound.upper_bound(s), r.plan.score))
    for t in turns:
        got = rows[t]
        gaps = [b - v for b, v in open_[t]]
        print(f"turn {t}: {len(gaps)} states not proven in {args.solve_seconds:g} s; bound minus "
              f"the best found: {sorted(gaps)}")
        if not got:
            continue
        loose = sum(b > v for b, v, _ in got)
        loose_ng = sum(b > v for _, v, b in got)
        print(f"turn {t}: {len(got)} states proven; bound above the value on {loose} "
              f"(excess {sum(b - v for b, v, _ in got)}); without glass: above on {loose_ng}, "
              f"excess {sum(max(0, b - v) for _, v, b in got)}, below on "
              f"{sum(b < v for _, v, b in got)}")


if __name__ == "__main__":
    main()
