"""The line-rank diagnosis (``benchmarks/glass_garden_lines.py``): it reads the best-known
file's actions without ``eval``, refuses what is not an action, and finds a known plan among
its parents' outcomes turn by turn."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from companion.glass_garden.actions import (
    Done,
    FlipCritter,
    FlipGlass,
    Grow,
    Move,
    Protect,
    Shift,
    Skip,
    UseGlass,
)
from companion.glass_garden.deck import load_deck

ROOT = Path(__file__).resolve().parents[2]


def _lines() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "glass_garden_lines", ROOT / "benchmarks" / "glass_garden_lines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


LINES = _lines()


@pytest.mark.parametrize("action", [
    Shift(3, -2), Move(0, 1), Grow(5, (8, 20, 40)), Grow(1), UseGlass(4), FlipGlass(0),
    Protect(4), FlipCritter(), Skip(), Done()])
def test_an_action_is_read_back_from_its_text(action: object) -> None:
    assert LINES.parse_action(repr(action)) == action


@pytest.mark.parametrize("text", [
    "os.system('true')", "Move(plant=__import__('os'), dy=1)", "Teleport(plant=1)", "Move(",
    "Move(1, **x)", "Move(1, dy=1)", "Move(plant=1)", "Move(plant=1, dy=1, z=0)", ""])
def test_what_is_not_an_action_is_refused(text: str) -> None:
    with pytest.raises((ValueError, SyntaxError)):
        LINES.parse_action(text)


def test_a_known_plan_is_found_among_its_parents_outcomes() -> None:
    rows = json.loads((ROOT / "benchmarks" / "glass_garden_best_known.json").read_text())
    row = next(r for r in rows if r["critter"] == "Worm" and r["seed"] == 3 and r.get("plan"))
    got = LINES.line_ranks(load_deck(), "Worm", 3, row["plan"], row["score"])
    assert [t["turn"] for t in got["turns"]] == list(range(1, 10))
    for t in got["turns"]:  # every state of the plan is an outcome of its parent's turn
        assert t["full"] is not None and t["above"] <= t["full"] < t["above"] + t["tied"]
    assert got["sun_nodes"] is not None  # the plan's score is found in its sunlight phase
