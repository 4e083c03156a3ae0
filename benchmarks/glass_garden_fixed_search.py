"""Glass Garden: a fixed search, to tell whether a change of the solver is exact and what it saves.

    .venv/bin/python benchmarks/glass_garden_fixed_search.py [--quick] [--bound-against TREE]

Beams of width 1-32 (``Solver.beam``, the leaves' sunlight searches with ``BEAM_SUN_NODES``)
without a deadline, on six training deals (seeds 100-159 are training deals; the benchmark's
are 0-49), each from a new solver: the plans, nodes, logs and table sizes are the same for
two exact versions, so their md5 is too. It prints the md5 and the CPU seconds the beams took.
Compare two trees only when run at the same time (the old one from its ``git archive``,
running this file from that tree's directory: the search is imported from the working
directory).

``--bound-against TREE``: also ask ``bound.upper_bound`` of TREE (its
``companion/glass_garden/bound.py`` loaded beside this tree's) for every state the search
asked the bound for, and for the turn outcomes the expansions cached (up to 20,000 a beam),
and count the states where the two differ (an exact change of the bound: none).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.getcwd())

from companion.glass_garden import bound, sunsearch
from companion.glass_garden import solver as S
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import State, new_game

DEALS = [("Ant", 102), ("Ant", 116), ("Ant", 109), ("Worm", 105), ("Fly", 101), ("Snail", 104)]
#: (width, growers, first-layer skip, skipping layer)
BEAMS = [(1, 16), (2, 16), (4, 16), (8, 16), (4, 16, 8), (4, 16, 16, 2), (16, 16), (32, 16),
         (8, 8)]
QUICK_DEALS, QUICK_BEAMS = DEALS[:2], [(4, 16), (4, 16, 16, 2), (32, 16)]


class StepClock:
    """A clock that moves on a microsecond per reading: no deadline is ever met."""

    def __init__(self) -> None:
        self.t = 0

    def __call__(self) -> float:
        self.t += 1
        return self.t * 1e-6


def run(deals: list[tuple[str, int]], beams: list[tuple[int, ...]],
        states: dict[State, None] | None = None) -> tuple[str, float]:
    """(md5 of every beam's outcome, CPU seconds of the beams); ``states`` collects the
    states the bound was asked for and the cached outcomes."""
    deck = load_deck()
    out: list[Any] = []
    cpu = 0.0
    pause = getattr(S, "COLLECTOR_PAUSE", None) or contextlib.nullcontext()
    for critter, seed in deals:
        root = new_game(deck, critter, seed=seed)
        for b in beams:
            s = S.Solver(root, None, StepClock())
            s.best = S.quick_plan(root)
            s.sun.node_limit = S.BEAM_SUN_NODES
            t0 = time.process_time()
            with pause:
                s.beam(b[0], b[1], b[2] if len(b) > 2 else 0, (), b[3] if len(b) > 3 else 1)
            cpu += time.process_time() - t0
            p = s.best
            out.append([critter, seed, list(b), p.score, [list(map(repr, t)) for t in p.turns],
                        s.nodes, s.sun.nodes, s.log, len(s.bounds), len(s.guesses)])
            if states is not None:
                kids = [k for t in (s.cache, *s.light_caches.values()) for v in t.values()
                        for k, _ in v]
                states.update(dict.fromkeys(kids[:20_000]))
    return hashlib.md5(json.dumps(out).encode()).hexdigest(), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two deals, three beams")
    parser.add_argument("--bound-against", metavar="TREE",
                        help="compare upper_bound with TREE's on the states met")
    args = parser.parse_args()
    deals, beams = (QUICK_DEALS, QUICK_BEAMS) if args.quick else (DEALS, BEAMS)
    if not args.bound_against:
        md5, cpu = run(deals, beams)
        print(md5, f"{cpu:.2f}")
        return
    states: dict[State, None] = {}
    asked = bound.upper_bound

    def recording(state: State) -> int:
        states[state] = None
        return asked(state)

    sunsearch.upper_bound = S.upper_bound = recording  # type: ignore[attr-defined]
    md5, cpu = run(deals, beams, states)
    path = Path(args.bound_against) / "companion" / "glass_garden" / "bound.py"
    spec = importlib.util.spec_from_file_location("other_bound", path)
    assert spec is not None and spec.loader is not None
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)
    timed = []
    for fn in (asked, other.upper_bound):
        t0 = time.process_time()
        values = [fn(s) for s in states]
        timed.append((time.process_time() - t0, values))
    differ = sum(a != b for a, b in zip(timed[0][1], timed[1][1], strict=True))
    print(md5, f"{cpu:.2f}")
    print(f"{len(states)} states, {differ} bounds differ; CPU s this tree {timed[0][0]:.2f}, "
          f"{path.parents[2]} {timed[1][0]:.2f}")


if __name__ == "__main__":
    main()
