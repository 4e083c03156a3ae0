"""The tile catalogue: the SAMPLE's counts, squares and strips, and refusals naming tile and
field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from companion.errors import StateError
from companion.gardlings.catalogue import (
    RULEBOOK_COUNTS,
    SAMPLE_CATALOGUE,
    gem_value,
    load_catalogue,
    matches,
    parse_catalogue,
    sample_catalogue,
)


def test_sample_has_the_rulebooks_counts_and_seven_missions() -> None:
    sample = sample_catalogue()
    counts = sample.counts()
    assert {k: counts[k] for k in RULEBOOK_COUNTS} == dict(RULEBOOK_COUNTS)
    assert sum(RULEBOOK_COUNTS.values()) == 131
    assert counts["mission"] == 7
    kinds = {m.effect.kind for m in sample.missions if m.effect}
    assert kinds == {"shape", "empty-joins", "colour-gems", "surrounded", "second-draw"}
    assert sample.sample and "SAMPLE" in SAMPLE_CATALOGUE.read_text()


def test_sample_has_squares_and_strips_and_every_creature() -> None:
    tiles = [t for t in sample_catalogue().tiles.values() if t.edges and not t.is_mission]
    assert {(t.width, t.height) for t in tiles} >= {(1, 1), (2, 1)}
    creatures = {c for t in tiles for c in t.creatures}
    assert creatures == {"lucky-piglet", "gardener", "mushroom-head", "bird-of-paradise",
                         "unicorn", "dragon"}
    assert all(t.gnomes == 1 for t in tiles if t.back == "gnome")
    assert all(t.gnomes == 2 for t in tiles if t.back == "double-gnome")


def test_halves_match_by_the_rulebook() -> None:
    assert matches("blue", "blue") and not matches("blue", "pink")
    assert matches("empty", "empty") and not matches("empty", "blue")
    assert matches("egg", "pink") and matches("egg", "triple-blue") and not matches("egg",
                                                                                     "empty")
    assert matches("triple-blue", "blue") and gem_value("triple-blue", "blue") == 1
    assert gem_value("triple-blue", "triple-blue") == 3 and gem_value("empty", "empty") == 0


def _refusal(tmp_path: Path, data: dict) -> str:
    path = tmp_path / "cat.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(StateError) as info:
        load_catalogue(path)
    message = str(info.value)
    assert "\n" not in message
    return message


BASE = {"colours": ["blue"], "tiles": [{"id": "A", "back": "green",
                                         "edges": ["blue", "empty", "empty", "empty"]}]}


@pytest.mark.parametrize(("tile", "words"), [
    ({"id": "B", "back": "purple", "edges": ["empty"] * 4}, ["(B).back"]),
    ({"id": "B", "back": "green", "edges": ["teal", "empty", "empty", "empty"]},
     ["(B).edges[0]", "teal"]),
    ({"id": "B", "back": "green", "edges": ["empty"] * 3}, ["(B).edges", "4 connections"]),
    ({"id": "B", "back": "green", "width": 2, "edges": ["empty"] * 4},
     ["(B).edges", "6 connections"]),
    ({"id": "B", "back": "green", "edges": ["egg", "empty", "empty", "empty"]},
     ["(B).edges[0]", "bird-of-paradise"]),
    ({"id": "B", "back": "green", "edges": ["triple-blue", "empty", "empty", "empty"]},
     ["(B).edges[0]", "gardener"]),
    ({"id": "B", "back": "green", "creatures": ["mushroom-head"],
      "edges": ["blue", "empty", "blue", "empty"], "lines": [[0, 1]]}, ["(B).lines[0]"]),
    ({"id": "B", "back": "green", "creatures": ["yeti"], "edges": ["empty"] * 4},
     ["(B).creatures", "yeti"]),
    ({"id": "B", "back": "green", "width": 3, "edges": ["empty"] * 8}, ["(B).width"]),
    ({"id": "A", "back": "green", "edges": ["empty"] * 4}, ["(A).id", "twice"]),
    ({"id": "B", "back": "green", "colour": "x", "edges": ["empty"] * 4}, ["(B).colour"]),
])
def test_bad_tiles_are_refused_naming_tile_and_field(tmp_path: Path, tile: dict,
                                                      words: list[str]) -> None:
    message = _refusal(tmp_path, {**BASE, "tiles": [*BASE["tiles"], tile]})
    assert "tiles[1]" in message and all(w in message for w in words), message


def test_bad_missions_are_refused(tmp_path: Path) -> None:
    mission = {"id": "X", "width": 2, "height": 2, "edges": ["empty"] * 8,
               "effect": {"kind": "shape", "gems": 3, "shape": ["#x"]}}
    message = _refusal(tmp_path, {**BASE, "missions": [mission]})
    assert "missions[0] (X).effect.shape" in message
    mission["effect"] = {"kind": "colour-gems", "colour": "red", "at_least": 4, "gems": 2}
    assert "(X).effect.colour" in _refusal(tmp_path, {**BASE, "missions": [mission]})
    mission["effect"] = {"kind": "fly"}
    assert "(X).effect" in _refusal(tmp_path, {**BASE, "missions": [mission]})


def test_colours_and_shape_of_the_file() -> None:
    with pytest.raises(StateError, match="colours"):
        parse_catalogue({"colours": ["Blue"], "tiles": []})
    with pytest.raises(StateError, match="no tiles"):
        parse_catalogue({"colours": ["blue"], "tiles": []})


def test_a_hostile_file_is_refused_by_the_bounded_reader(tmp_path: Path) -> None:
    path = tmp_path / "cat.yaml"
    path.write_text("a: &x [1]\nb: *x\n", encoding="utf-8")
    with pytest.raises(StateError):
        load_catalogue(path)
