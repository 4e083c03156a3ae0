"""Meadow: the time to rule on one play on a full meadow, and 10,000 Rover solo games.

Run: ``.venv/bin/python benchmarks/meadow.py [--rulings N] [--games N] [--workers N]``.

1. Ruling: a 60-card meadow (10 columns of a ground card and 5 observation cards, SAMPLE
   catalogue) and a hand of 8; each ruling is ``check``'s work for one card anywhere: every
   legal place with what it covers, and the fewest discards (the requirement cache cleared
   before each, so nothing is reused from an earlier ruling). Target: at most 20 ms.
2. Solo: ``--games`` seeded Rover solo games (seeds 0..N-1) with the simple policy
   (``companion.meadow.advice.SimpleBot``) in the player's seat: the player's score
   distribution against the rulebook's result table, wins against Rover, and Rover's score.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.meadow.advice import SimpleBot
from companion.meadow.catalogue import load_catalogue
from companion.meadow.meadow import PlayerArea
from companion.meadow.requirements import feasible, rule_play
from companion.meadow.rover import RESULTS, rover_score
from companion.meadow.rules import RULES

BANDS = (("< 40 (the table's '< 39', 39 included)", 0, 39), ("40-49", 40, 49),
         ("50-59", 50, 59), ("60+", 60, 10 ** 6))


def full_meadow(seed: int) -> PlayerArea:
    """10 columns of a ground card under 5 observation cards, and 8 cards in hand."""
    cat = load_catalogue()
    rng = random.Random(seed)
    grounds = [c.id for c in cat.cards.values() if c.type == "ground" and not c.starting
               and c.envelope is None]
    obs = [c.id for c in cat.cards.values() if c.type == "observation" and c.envelope is None]
    rng.shuffle(grounds)
    rng.shuffle(obs)
    columns = tuple((grounds[i], *obs[5 * i:5 * i + 5]) for i in range(10))
    hand = tuple(obs[50:58])
    return PlayerArea("Bench", columns, (), 1, 0, hand)


def time_rulings(n: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of ``n`` rulings (CPU time is what a busy machine does not
    inflate)."""
    cat = load_catalogue()
    wall, cpu = [], []
    for i in range(n):
        area = full_meadow(i)
        assert sum(len(c) for c in area.meadow) == 60
        card = area.hand[i % len(area.hand)]
        feasible.cache_clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        rule_play(area, cat, card)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return wall, cpu


def solo_game(seed: int) -> tuple[int, int]:
    state = RULES.new_game(["Solo"], None, {"seed": seed})
    bot, rng = SimpleBot(), random.Random(seed)
    while not state.is_terminal():
        state = state.apply(bot.choose(state, 0, rng))
    return state.score_sheet().players[0].total, rover_score(state)


def solo_games(n: int, workers: int) -> list[tuple[int, int]]:
    if workers <= 1:
        return [solo_game(s) for s in range(n)]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(solo_game, range(n), chunksize=50))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=500)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    load_catalogue()
    wall, cpu = time_rulings(args.rulings)
    print(f"Ruling on one play, 60-card meadow, every legal place + fewest discards "
          f"({len(wall)} rulings; target <= 20 ms):")
    for what, times in (("wall", wall), ("CPU", cpu)):
        ms = sorted(t * 1000 for t in times)
        print(f"  {what:>4}: median {statistics.median(ms):.2f} ms, p90 "
              f"{ms[int(0.9 * len(ms))]:.2f} ms, p99 {ms[int(0.99 * len(ms))]:.2f} ms, "
              f"max {ms[-1]:.2f} ms")
    if args.games <= 0:
        return
    start = time.perf_counter()
    games = solo_games(args.games, args.workers)
    took = time.perf_counter() - start
    scores = sorted(p for p, _r in games)
    rovers = sorted(r for _p, r in games)
    wins = sum(p >= r for p, r in games)
    print(f"{len(games)} Rover solo games, simple policy ({took:.0f} s, {args.workers} "
          f"worker(s)):")
    print(f"  player: mean {statistics.mean(scores):.1f}, median {statistics.median(scores)}, "
          f"p10 {scores[len(scores) // 10]}, p90 {scores[9 * len(scores) // 10]}, "
          f"min {scores[0]}, max {scores[-1]}")
    print(f"  Rover:  mean {statistics.mean(rovers):.1f}, median {statistics.median(rovers)}, "
          f"min {rovers[0]}, max {rovers[-1]}")
    print(f"  player >= Rover (the result table applies): {wins} ({100 * wins / len(games):.1f}%)")
    words = {least: text for least, text in RESULTS}
    bands = Counter()
    for p, r in games:
        if p < r:
            bands["lost"] += 1
            continue
        for name, lo, hi in BANDS:
            if lo <= p <= hi:
                bands[name] += 1
    print(f"  lost to Rover: {bands['lost']} ({100 * bands['lost'] / len(games):.1f}%)")
    for name, lo, _hi in BANDS:
        print(f"  {name:<40} {bands[name]:>6} ({100 * bands[name] / len(games):.1f}%)  "
              f"{words[lo if lo else 0]}")


if __name__ == "__main__":
    main()
