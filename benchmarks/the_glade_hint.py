"""Benchmark: the coach lists every legal placement of a rack of 8 on a busy board.

Plain script (no pytest): builds busy forests (22+ tiles on 7x7) by random legal play, then
times ``advise`` (enumeration + valuation, i.e. what ``companion hint`` does after reading the
file) and the bare enumeration. Prints median and p90 milliseconds. Target: under 50 ms per
rack of 8 on a busy board. For information it also times early-game boards, where a rack of 8
has thousands of legal placements.

    .venv/bin/python benchmarks/the_glade_hint.py [--runs N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import replace

from companion.the_glade.actions import place_tiles
from companion.the_glade.coach import advise, legal_placements
from companion.the_glade.names import ALL_TILES, Tile
from companion.the_glade.tracker import Game


def busy_game(seed: int, min_tiles: int = 22) -> tuple[Game, list[Tile]]:
    """Play random legal placements on Toni's forest until it is busy (counters and all)."""
    rng = random.Random(seed)
    bag = [t for t in ALL_TILES for _ in range(2)]
    rng.shuffle(bag)
    game = Game.new([("Toni", "yellow"), ("Emma", "blue")])
    stuck = 0
    while len(game.state.player("Toni").forest.tiles) < min_tiles and stuck < 40:
        rack = [bag.pop() for _ in range(8)]
        options = legal_placements(game.state.player("Toni").forest, rack)
        big = [o for o in options if len(o) >= 2] or options
        if not big:
            stuck += 1
            bag[:0] = rack
            continue
        placed = rng.choice(big)
        toni = replace(game.state.player("Toni"), rack=tuple(rack), rack_size=len(rack))
        game.state, _ = place_tiles(game.state.with_player(toni), "Toni", placed)
        for t in placed.values():
            rack.remove(t)
        bag[:0] = rack
    return game, [bag.pop() for _ in range(8)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    boards = [busy_game(args.seed + i) for i in range(10)]
    full, bare, counts = [], [], []
    for i in range(args.runs):
        game, rack = boards[i % len(boards)]
        t0 = time.perf_counter()
        advice = advise(game.state, "Toni", rack)
        full.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        legal_placements(game.state.player("Toni").forest, rack)
        bare.append((time.perf_counter() - t0) * 1000)
        counts.append(len(advice))
    tiles = [len(g.state.player("Toni").forest.tiles) for g, _ in boards]

    def p90(xs: list[float]) -> float:
        return sorted(xs)[int(0.9 * (len(xs) - 1))]

    print(f"boards: {len(boards)} forests of {min(tiles)}-{max(tiles)} tiles on 7x7, rack of 8, "
          f"{args.runs} runs; legal placements per rack: median {statistics.median(counts):.0f}, "
          f"max {max(counts)}")
    print(f"hint (enumerate + value): median {statistics.median(full):.2f} ms, "
          f"p90 {p90(full):.2f} ms, max {max(full):.2f} ms")
    print(f"enumerate only:           median {statistics.median(bare):.2f} ms, "
          f"p90 {p90(bare):.2f} ms")
    sparse_boards = [busy_game(args.seed + 100 + i, min_tiles=3) for i in range(5)]
    sparse, sparse_counts = [], []
    for i in range(max(10, args.runs // 10)):
        game, rack = sparse_boards[i % len(sparse_boards)]
        t0 = time.perf_counter()
        sparse_counts.append(len(advise(game.state, "Toni", rack)))
        sparse.append((time.perf_counter() - t0) * 1000)
    print(f"early game (3-4 tiles, median {statistics.median(sparse_counts):.0f} placements): "
          f"median {statistics.median(sparse):.2f} ms, p90 {p90(sparse):.2f} ms")


if __name__ == "__main__":
    main()
