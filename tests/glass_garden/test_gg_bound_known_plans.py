"""The bound is never below a score a known plan reaches, in the dark phase too.

The exhaustive checks (``test_gg_bound.py``) reach back only to turn 9: from earlier a game is
too big to search to the end. The best known plans of the benchmark's deals
(``benchmarks/glass_garden_best_known.json``: each turn's actions, for 197 of the 200 deals)
are lines that really score 16 from the deal, so the bound must be at least 16 at every
state along them, from the deal's first action to the end (dark-phase states of every
critter, each a state the search met on its way to a 16). Each plan is also
replayed with the checked ``State.apply``: it is legal and scores what the file says.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from companion.glass_garden import actions
from companion.glass_garden.actions import Action
from companion.glass_garden.bound import upper_bound
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import OVER, State, new_game

BEST_KNOWN = Path(__file__).resolve().parents[2] / "benchmarks" / "glass_garden_best_known.json"
DECK = load_deck()


def _rows_with_plans() -> list[dict[str, Any]]:
    return [r for r in json.loads(BEST_KNOWN.read_text()) if r.get("plan")]


def parse_action(text: str) -> Action:
    """An action from its ``repr`` (``Move(plant=3, dy=-1)``), literals only."""
    call = ast.parse(text.strip(), mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and not call.args
    kind = getattr(actions, call.func.id)
    return kind(**{k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg})


def replay(row: dict[str, Any]) -> list[State]:
    """Every state along the row's plan, the deal first and the finished game last."""
    s = new_game(DECK, row["critter"], seed=row["seed"])
    states = [s]
    for turn in row["plan"]:
        for text in turn.split(";"):
            action = parse_action(text)
            assert action in s.legal_actions(), f"{row['critter']} {row['seed']}: {text}"
            s = s.apply(action)
            states.append(s)
    return states


ROWS = _rows_with_plans()


def test_the_file_holds_plans() -> None:
    assert len(ROWS) >= 197
    assert {r["critter"] for r in ROWS} == {"Fly", "Snail", "Ant", "Worm"}


@pytest.mark.parametrize("row", ROWS, ids=[f"{r['critter']}-{r['seed']}" for r in ROWS])
def test_bound_is_never_below_a_known_plan(row: dict[str, Any]) -> None:
    states = replay(row)
    assert states[-1].phase == OVER and states[-1].score() == row["score"]
    low = [(s.turn, s.phase, upper_bound(s)) for s in states if upper_bound(s) < row["score"]]
    assert not low, f"the bound is below the plan's {row['score']} at {low[:3]}"
