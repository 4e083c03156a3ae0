"""Gardlings: counting a 40-tile garden, listing a drawn tile's placements, and solo games.

A plain script, run apart from the tests:

    .venv/bin/python benchmarks/gardlings.py                  # all three, 10,000 solo games
    .venv/bin/python benchmarks/gardlings.py --games 500      # fewer solo games
    .venv/bin/python benchmarks/gardlings.py --skip-solo      # the two timings only

1. Gem count of 40-tile gardens of the SAMPLE tiles (a shape mission first, then 39 tiles
   laid at random legal placements: strips, gardeners, mushroom heads, eggs), every effect
   counted (plain, triple, bonus and mission gems, ponds, gnomes, the hiring record).
   Each count starts from a fresh garden value, so nothing cached is reused. Target <= 5 ms.
2. Every legal placement of a drawn tile (each cell and turn) with the gems each gains, as
   ``companion hint`` lists them, on the same gardens, for every tile not in the garden.
   Target <= 20 ms.
3. Seeded solo games (seed 0 .. N-1) played by the simple bot (draw while the alarm chance
   is at most 25%, lay each tile where it gains most, buy the dearest tile the money
   reaches, else a lucky piglet): the tiles-used distribution against the rulebook's
   Gold/Silver/Bronze table, as a check that the SAMPLE catalogue is plausible.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.interface import CHANCE, sample_chance
from companion.gardlings.advice import SimpleBot, ranked_placements
from companion.gardlings.catalogue import sample_catalogue
from companion.gardlings.garden import Garden, Placement
from companion.gardlings.hiring import hiring
from companion.gardlings.market import setup_market
from companion.gardlings.placement import legal_placements
from companion.gardlings.rules import RULES
from companion.gardlings.solo import medal

SIZE = 40
#: rounds before a solo game nobody won is given up (far beyond the rulebook's table)
LIMIT = 60


def big_garden(seed: int) -> Garden:
    """A garden of :data:`SIZE` tiles (the shape mission X1 and 39 tiles at random legal
    placements, each the first tile of a shuffled order that fits somewhere)."""
    catalogue = sample_catalogue()
    rng = random.Random(seed)
    tiles = [t.id for t in catalogue.tiles.values() if t.edges and not t.is_mission]
    garden = Garden(catalogue).with_tile(Placement("X1", (0, 0), 0))
    rng.shuffle(tiles)
    while len(garden) < SIZE:
        for tile in tiles:
            if tile in garden.index:
                continue
            options = legal_placements(garden, catalogue[tile])
            if options:
                garden = garden.with_tile(rng.choice(options))
                break
        else:
            raise RuntimeError("no tile fits any more")
    return garden


def fresh(garden: Garden) -> Garden:
    return Garden(garden.catalogue, garden.placements)


Times = tuple[list[float], list[float]]


def timed(work: object) -> tuple[float, float, object]:
    """Wall-clock and this thread's CPU milliseconds of ``work()``, and its result (on a busy
    machine the CPU time is what the code costs; the wall clock adds the waiting)."""
    w0, c0 = time.perf_counter(), time.thread_time()
    result = work()  # type: ignore[operator]
    return (time.perf_counter() - w0) * 1000, (time.thread_time() - c0) * 1000, result


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[int(0.9 * (len(values) - 1))]
    return f"median {statistics.median(values):.2f} ms, p90 {p90:.2f} ms, max {values[-1]:.2f} ms"


def bench_count(gardens: list[Garden]) -> Times:
    market = setup_market(sample_catalogue(), 1)
    wall, cpu = [], []
    for g in gardens:
        for _ in range(20):
            w, c, _r = timed(lambda g=g: hiring("x", fresh(g), coins=0, alarm=False,
                                                mission="X1", variant="expert",
                                                long_game=False, market=market))
            wall.append(w)
            cpu.append(c)
    return wall, cpu


def bench_placements(gardens: list[Garden]) -> tuple[Times, list[int]]:
    catalogue = sample_catalogue()
    wall, cpu, counts = [], [], []
    for g in gardens:
        for tile in [t for t in catalogue.tiles.values() if t.edges and not t.is_mission
                     and t.id not in g.index][::4]:
            w, c, found = timed(lambda g=g, tile=tile: ranked_placements(fresh(g), tile.id,
                                                                         "X1"))
            wall.append(w)
            cpu.append(c)
            counts.append(len(found))  # type: ignore[arg-type]
    return (wall, cpu), counts


def solo_game(seed: int) -> tuple[int, str, int]:
    """(tiles used, how it ended, rounds) of one seeded solo game of the simple bot."""
    rng = random.Random(seed)
    bot = SimpleBot()
    state = RULES.new_game(["Solo"], None, {"seed": seed, "round_limit": LIMIT})
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state._apply(sample_chance(state, rng))
        else:
            state = state._apply(bot.choose(state, 0, rng))
    return state.seats[0].tiles_used, state.ended_by, state.round


def bench_solo(games: int, workers: int) -> str:
    t0 = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(solo_game, range(games), chunksize=50))
    seconds = time.perf_counter() - t0
    won = [used for used, how, _r in results if how == "victory"]
    medals = Counter(medal(u) for u in won)
    dist = Counter(won)
    lines = [f"{games} solo games in {seconds:.0f} s ({workers} workers): "
             f"{len(won)} won, {games - len(won)} stopped by the {LIMIT}-round limit"]
    if won:
        lines.append(f"tiles used: median {statistics.median(won):.0f}, mean "
                     f"{statistics.mean(won):.1f}, min {min(won)}, max {max(won)}")
        lines.append("result (rulebook's table, game to 17): " + ", ".join(
            f"{name} {medals[name]} ({medals[name] / games:.1%})"
            for name in ("Gold", "Silver", "Bronze", "Try again!")))
        lines.append("distribution: " + " ".join(f"{k}:{dist[k]}" for k in sorted(dist)))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="solo games (10,000)")
    parser.add_argument("--workers", type=int, default=2, help="processes for solo games")
    parser.add_argument("--gardens", type=int, default=10, help="40-tile gardens (10)")
    parser.add_argument("--skip-solo", action="store_true", help="the two timings only")
    args = parser.parse_args()
    sample_catalogue()
    gardens = [big_garden(seed) for seed in range(args.gardens)]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    wall, cpu = bench_count(gardens)
    print(f"gem count of a {SIZE}-tile garden (every effect, fresh garden; target <= 5 ms):\n"
          f"  CPU {quantiles(cpu)}\n  wall {quantiles(wall)}")
    (wall, cpu), counts = bench_placements(gardens)
    print(f"every legal placement of a drawn tile on a {SIZE}-tile garden, with its gems "
          f"(target <= 20 ms; {statistics.mean(counts):.0f} placements on average over "
          f"{len(wall)} draws):\n  CPU {quantiles(cpu)}\n  wall {quantiles(wall)}")
    if not args.skip_solo:
        print(bench_solo(args.games, args.workers))


if __name__ == "__main__":
    main()
