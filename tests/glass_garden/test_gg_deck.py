"""The deck file: the sample deck loads, and mistakes are named by card and field."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from companion.errors import ConfigError
from companion.glass_garden.deck import SAMPLE_DECK, STEP_KINDS, load_deck, parse_deck


def sample() -> dict[str, Any]:
    return yaml.safe_load(SAMPLE_DECK.read_text())


def test_sample_deck_is_labelled_and_complete() -> None:
    deck = load_deck()
    assert deck.sample and "SAMPLE" in deck.label
    assert "SAMPLE DECK" in SAMPLE_DECK.read_text()
    assert len(deck.plants) == 8 and len(deck.glass) == 6
    assert [c.name for c in deck.critters] == ["Fly", "Snail", "Ant", "Worm"]


def test_sample_deck_exercises_the_whole_vocabulary() -> None:
    deck = load_deck()
    steps = [s for p in deck.plants for s in p.effect] + [s for g in deck.glass for s in g.bonus]
    assert {s.kind for s in steps} == set(STEP_KINDS)
    plants = {s.plant for s in steps}
    assert {"self", "any", "neighbor", "adjacent"} <= plants
    assert any(s.plant not in ("self", "any", "neighbor", "adjacent") for s in steps)
    assert {s.glass for s in steps if s.kind == "flip_glass"} >= {"row", "any"}
    assert {s.direction for s in steps} >= {"up", "either", "arrow"}
    assert any(s.optional for s in steps) and any(s.distance for s in steps)
    assert any(s.only == "succulent" for s in steps)
    patterns = [d for c in deck.critters for side in c.sides for d in side.damage]
    assert {d.side for d in patterns} == {"left", "right", "both"}
    assert {d.start for d in patterns} == {"closest", "farthest"}
    assert {d.unit for d in patterns} == {"plants", "columns"}
    assert any(d.rows != (0, 1) for d in patterns)
    assert {p.cost for p in deck.plants} >= {"box", "cloud", "lightning", "droplet", "sprout",
                                              "any"}


def broken(path: list[Any], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(sample())
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(("path", "value", "message"), [
    (["plants", 0, "cost"], "rain", r"plant 'Aloe'\.cost: 'rain'"),
    (["plants", 1, "upper"], ["box", "fog"], r"plant 'Echeveria'\.upper: 'fog'"),
    (["plants", 2, "effect"], [{"teleport": {}}], r"plant 'Haworthia'\.effect\[0\]"),
    (["plants", 3, "effect"], [{"move": {"plant": "Rose"}}],
     r"plant 'Jade'\.effect\[0\]\.move\.plant"),
    (["plants", 3, "effect"], [{"move": {"direction": "sideways"}}], r"move\.direction"),
    (["plants", 3, "effect"], [{"shift": {"distance": 0}}], r"shift\.distance"),
    (["plants", 3, "effect"], [{"move": {"colour": 1}}], r"unknown field 'colour'"),
    (["plants", 4, "name"], "Aloe", r"two plants share a name"),
    (["plants", 5, "upper"], ["box"] * 5, r"at most 4"),
    (["critters", 0, "sides", 0, "arrow"], "left", r"critter 'Fly'\.sides\[0\]\.arrow"),
    (["critters", 1, "sides", 1, "damage", 0, "from"], "middle", r"critter 'Snail'.*from"),
    (["critters", 2, "sides", 0, "damage", 0, "count"], 0, r"critter 'Ant'.*count"),
    (["critters", 3, "sides", 1, "damage", 0, "rows"], ["bottom"], r"critter 'Worm'.*rows"),
    (["glass", "left-top", "bonus"], [{"move": {"plant": "self"}}], r"glass\.left-top\.bonus"),
    (["glass", "right-top", "bonus"], [{"flip_glass": {}}], r"glass\.right-top\.bonus\[0\]"),
])
def test_mistakes_are_named_by_card_and_field(path: list[Any], value: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_deck(broken(path, value))


def test_wrong_counts_are_refused() -> None:
    data = sample()
    data["plants"] = data["plants"][:7]
    with pytest.raises(ConfigError, match="exactly 8"):
        parse_deck(data)
    data = sample()
    del data["glass"]["right-bottom"]
    with pytest.raises(ConfigError, match="glass.right-bottom"):
        parse_deck(data)


def test_unreadable_and_invalid_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        load_deck(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("plants: [\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_deck(bad)
