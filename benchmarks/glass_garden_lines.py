"""Glass Garden: where known best plans rank in the solver's move order (issue #26's diagnosis).

A plain script, run apart from the tests: for each deal with a plan in the best-known file
(``benchmarks/glass_garden_best_known.json``: each turn's actions as text), the plan is replayed
and, at each dark turn, the state it reaches is looked for among its parent's outcomes:

- ``L``: its rank (0 = first) in the beams' light expansion (:data:`solver.GROWERS` growers),
  by :func:`bound.guess`, ``-`` when the light expansion does not make it;
- ``F``: its rank among all the turn's outcomes, with how many outcomes have a higher guess
  (``above``) and how many the same (``tied``, itself included), of how many;
- at the sunlight phase, ``sun``: the sunlight-search nodes (from an empty memo, asked to beat
  the plan's score minus 1) that find the plan's score, against the beams' budget
  (:data:`solver.BEAM_SUN_NODES`).

A beam of width ``w`` keeps a line only while it ranks among the ``w`` best of the whole
layer (every parent's children), so the ranks here are the least it needs. The summary gives
the share of dark turns where the line is first, in the first 4 and in the first 8 of its
parent's light outcomes, and the largest tie it sat in.

    .venv/bin/python benchmarks/glass_garden_lines.py --critters Ant,Worm
    .venv/bin/python benchmarks/glass_garden_lines.py --critters Ant --seeds 0-9 --turns

Tune nothing on the benchmark's own deals (seeds 0-49): this tells where the search loses
the lines, to design a change then chosen on other seeds.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.glass_garden import actions as actions_module
from companion.glass_garden.actions import Action
from companion.glass_garden.deck import Deck, load_deck
from companion.glass_garden.game import SUNLIGHT, State, new_game
from companion.glass_garden.solver import BEAM_SUN_NODES, GROWERS, Search
from companion.glass_garden.sunsearch import SunSearch

BEST_KNOWN = Path(__file__).resolve().parent / "glass_garden_best_known.json"
_CALL = re.compile(r"^\s*([A-Za-z]+)\((.*)\)\s*$")
_ACTIONS: dict[str, type] = {name: getattr(actions_module, name) for name in (
    "Shift", "Move", "Grow", "UseGlass", "FlipGlass", "Protect", "FlipCritter", "Skip", "Done")}
#: the most sunlight nodes spent looking for a plan's score
SUN_LIMIT = 100_000


def parse_action(text: str) -> Action:
    """One action as the best-known file writes it (``Move(plant=2, dy=-1)``), read without
    ``eval``: the class by name, each keyword's value by :func:`ast.literal_eval`."""
    m = _CALL.match(text)
    if m is None or m.group(1) not in _ACTIONS:
        raise ValueError(f"not an action: {text!r}")
    kwargs: dict[str, Any] = {}
    if m.group(2).strip():
        call = ast.parse(f"f({m.group(2)})", mode="eval").body
        if not isinstance(call, ast.Call) or call.args:
            raise ValueError(f"not an action: {text!r}")
        for kw in call.keywords:
            if kw.arg is None:
                raise ValueError(f"not an action: {text!r}")
            kwargs[kw.arg] = ast.literal_eval(kw.value)
    try:
        action: Action = _ACTIONS[m.group(1)](**kwargs)
    except TypeError as exc:  # a keyword the action does not take, or one missing
        raise ValueError(f"not an action: {text!r}") from exc
    return action


def parse_turn(text: str) -> list[Action]:
    return [parse_action(part) for part in text.split(";") if part.strip()]


def rank_of(kids: list[tuple[State, Any]], target: State) -> int | None:
    return next((i for i, (child, _) in enumerate(kids) if child == target), None)


def line_ranks(deck: Deck, critter: str, seed: int, plan: list[str], score: int
               ) -> dict[str, Any]:
    """The plan's ranks turn by turn (see the module's text)."""
    state = new_game(deck, critter, seed=seed)
    search = Search()
    turns: list[dict[str, Any]] = []
    sun_nodes: int | None = None
    for text in plan:
        if state.phase == SUNLIGHT:
            sun = SunSearch(node_limit=SUN_LIMIT)
            value, _, _, _ = sun.solve(state, score - 1)
            sun_nodes = sun.nodes if value >= score else None
            break
        nxt = state
        for action in parse_turn(text):
            nxt = nxt.apply(action)
        light = search.light(state, GROWERS)
        full = search.outcomes(state)
        g = search.guess(nxt)
        turns.append({
            "turn": state.turn, "light": rank_of(light, nxt), "full": rank_of(full, nxt),
            "above": sum(1 for child, _ in full if search.guess(child) > g),
            "tied": sum(1 for child, _ in full if search.guess(child) == g),
            "outcomes": len(full)})
        state = nxt
    return {"critter": critter, "seed": seed, "turns": turns, "sun_nodes": sun_nodes}


def seeds_of(text: str | None) -> set[int] | None:
    if not text:
        return None
    out: set[int] = set()
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--best-known", type=Path, default=BEST_KNOWN,
                        help="rows with a plan (default: the benchmark's best-known file)")
    parser.add_argument("--critters", help="only these critters (comma separated)")
    parser.add_argument("--seeds", help="only these seeds (e.g. 0-9,20)")
    parser.add_argument("--turns", action="store_true", help="print every deal's ranks")
    parser.add_argument("--json", type=Path, help="also write every deal's ranks here")
    args = parser.parse_args(argv)
    try:
        rows = json.loads(args.best_known.read_text())
    except (OSError, ValueError) as exc:
        print(f"cannot read {args.best_known}: {exc}", file=sys.stderr)
        return 2
    critters = set(args.critters.split(",")) if args.critters else None
    seeds = seeds_of(args.seeds)
    deck = load_deck()
    found: list[dict[str, Any]] = []
    t0 = time.process_time()
    for row in rows:
        if not row.get("plan") or (critters and row["critter"] not in critters):
            continue
        if seeds is not None and row["seed"] not in seeds:
            continue
        try:
            got = line_ranks(deck, row["critter"], row["seed"], row["plan"], row["score"])
        except (ValueError, SyntaxError) as exc:  # a plan that does not replay
            print(f"{row['critter']} {row['seed']}: plan not replayed ({exc})")
            continue
        found.append(got)
        if args.turns:
            cells = [f"t{t['turn']}:L{'-' if t['light'] is None else t['light']}"
                     f"/F{t['full']}({t['above']}+{t['tied']}/{t['outcomes']})"
                     for t in got["turns"]]
            print(f"{got['critter']} {got['seed']}: {' '.join(cells)} sun {got['sun_nodes']}")
    if not found:
        print("no deal with a plan matched")
        return 1
    dark = [t for got in found for t in got["turns"]]
    light = [t["light"] for t in dark]
    n = len(dark)
    print(f"deals: {len(found)}, dark turns: {n} ({time.process_time() - t0:.0f} CPU s)")
    print(f"the line's rank in its parent's light outcomes: first {sum(r == 0 for r in light)}"
          f", first 4 {sum(r is not None and r < 4 for r in light)}, first 8 "
          f"{sum(r is not None and r < 8 for r in light)}, not made "
          f"{sum(r is None for r in light)} (of {n})")
    for turn in sorted({t["turn"] for t in dark}):
        at = [t for t in dark if t["turn"] == turn]
        ranks = [t["light"] for t in at if t["light"] is not None]
        print(f"  turn {turn}: median rank {statistics.median(ranks) if ranks else '-'}, "
              f"max {max(ranks, default='-')}, largest tie {max(t['tied'] for t in at)}")
    sun = [got["sun_nodes"] for got in found]
    within = sum(1 for s in sun if s is not None and s <= BEAM_SUN_NODES)
    print(f"sunlight phase: the plan's score found within the beams' {BEAM_SUN_NODES} nodes in "
          f"{within} of {len(sun)} (not within {SUN_LIMIT}: {sum(s is None for s in sun)})")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
