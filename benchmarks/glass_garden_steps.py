"""Glass Garden: what each step of the issue #26 search work gained, in CPU seconds.

    .venv/bin/python benchmarks/glass_garden_steps.py

On fixed work (the turns of 8 seeded games played by a fixed random choice, and the sunlight
positions they reach), it times the parts the solver spends its time in, before and after:

* a turn's outcomes: the engine's ``turns.turn_outcomes``; ``expand.outcomes`` (the same
  outcomes, checking the clock inside, the actions step, damage and the critter's advance
  worked on tuples); and the light expansions the beams use (``growers=8``, ``growers=16``),
  with the actions step alone (the engine's ``turns.after_actions`` against
  ``expand.after_actions``, the same gardens by the same paths);
* the sunlight phase: ``turns.SunlightSolver`` (the bound only stops a state once reached)
  against ``sunsearch.SunSearch`` (cuts below the best found), both searched to the end, and
  the search for a line beating a given score (``alpha``: what a leaf of the solver needs);
* ``bound.guess`` against the version before (scoring through the generic helpers).

CPU seconds (``time.process_time``), so the figures hold on a shared machine too.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.glass_garden import bound as bound_module
from companion.glass_garden import expand
from companion.glass_garden.bound import _facts, _ready_glass, guess, upper_bound
from companion.glass_garden.deck import load_deck
from companion.glass_garden.fertile_zone import payable_kinds
from companion.glass_garden.game import SUNLIGHT, SUNLIGHT_TURN, State, new_game
from companion.glass_garden.scoring import score
from companion.glass_garden.sunsearch import SunSearch
from companion.glass_garden.turns import SunlightSolver, turn_outcomes
from companion.glass_garden.turns import after_actions as engine_after_actions


def old_guess(state: State) -> float:
    """``bound.guess`` as it was before issue #26 (the same values, slower)."""
    g = state.garden
    deck = state.deck
    facts = _facts(deck)
    value = float(score(g))
    grown = g.grown
    if grown != 0xFF:
        table = payable_kinds(deck, g)
        if table:
            value += 0.6 * sum(1 for p, cost in enumerate(facts.costs)
                               if not grown >> p & 1 and (cost == "any" or cost in table))
    rows = g.rows
    glass_ups = facts.lit_ups[_ready_glass(state)]
    if state.turn >= SUNLIGHT_TURN:
        low = sum(1 for p in range(8) if grown >> p & 1 and rows[p] > 0)
        return value + min(low, glass_ups)
    top = rows.count(0)
    return value + 0.25 * top - 0.15 * rows.count(2) + 0.35 * min(glass_ups, 8 - top + 2)


def _visited(state: State) -> list[State]:
    """The states a sunlight search to the end keeps in its memo."""
    search = SunSearch(node_limit=10**9)
    search.solve(state)
    return list(search.memo)


def timed(fn, *args):  # type: ignore[no-untyped-def]
    t0 = time.process_time()
    out = fn(*args)
    return out, time.process_time() - t0


def main() -> int:
    deck = load_deck()
    rng = random.Random(26)
    starts: list[State] = []
    suns: list[State] = []
    for game in range(8):
        s = new_game(deck, deck.critters[game % 4].name, seed=game)
        while s.phase != SUNLIGHT:
            starts.append(s)
            outs = list(turn_outcomes(s))
            outs.sort(key=lambda c: -guess(c))
            s = rng.choice(outs[:20])
        suns.append(s)
    print(f"{len(starts)} turn starts, {len(suns)} sunlight positions")
    engine = sum(timed(turn_outcomes, s)[1] for s in starts)
    full = sum(timed(expand.outcomes, s)[1] for s in starts)
    light = sum(timed(lambda x: expand.outcomes(x, growers=8), s)[1] for s in starts)
    light16 = sum(timed(lambda x: expand.outcomes(x, growers=16), s)[1] for s in starts)
    print(f"turn outcomes: engine {1000 * engine / len(starts):.1f} ms a turn, expand.outcomes "
          f"{1000 * full / len(starts):.1f} ms, light (growers=8) "
          f"{1000 * light / len(starts):.1f} ms, light (growers=16) "
          f"{1000 * light16 / len(starts):.1f} ms")
    steps_engine = sum(timed(engine_after_actions, s)[1] for s in starts)
    steps_tuples = sum(timed(expand.after_actions, s)[1] for s in starts)
    print(f"the actions step: engine {1000 * steps_engine / len(starts):.1f} ms a turn, on "
          f"tuples {1000 * steps_tuples / len(starts):.1f} ms")
    kids = [k for s in starts[::3] for k in turn_outcomes(s)]
    _, t_old = timed(lambda: [old_guess(k) for k in kids])
    _, t_new = timed(lambda: [guess(k) for k in kids])
    print(f"guess on {len(kids)} outcomes: before {1e6 * t_old / len(kids):.1f} us, after "
          f"{1e6 * t_new / len(kids):.1f} us")
    old_nodes = new_nodes = 0
    t_old = t_new = t_alpha = 0.0
    alpha_nodes = 0
    for s in suns:
        old = SunlightSolver(node_limit=10**9)
        (v_old, _, _), dt = timed(old.solve, s)
        t_old += dt
        old_nodes += old.nodes
        new = SunSearch(node_limit=10**9)
        (v_new, _, proven, _), dt = timed(new.solve, s)
        t_new += dt
        new_nodes += new.nodes
        assert v_old == v_new and proven
        cut = SunSearch(node_limit=10**9)
        _, dt = timed(cut.solve, s, v_new)  # is there a line beating the best? (no)
        t_alpha += dt
        alpha_nodes += cut.nodes
    visited = [state for s in suns for state in _visited(s)]
    bound_module._SET_COSTS.clear()
    _, dt = timed(lambda: [upper_bound(x) for x in visited])
    print(f"upper_bound on the {len(visited)} sunlight states those searches visit: "
          f"{1e6 * dt / len(visited):.0f} us a state (its caches empty at the start)")
    print(f"sunlight, searched to the end: before {old_nodes} states {t_old:.2f} s; after "
          f"{new_nodes} states {t_new:.2f} s; proving nothing beats the best: {alpha_nodes} "
          f"states {t_alpha:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
