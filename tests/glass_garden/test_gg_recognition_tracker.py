"""The tracker's check of a position read from a photo against the last accepted one."""

from __future__ import annotations

import copy

from companion.glass_garden.deck import SAMPLE_START
from companion.glass_garden.tracker import GameTracker
from companion.storage import read_data_file


def _start() -> dict:
    data = read_data_file(SAMPLE_START, "state file")
    return {k: v for k, v in data.items()}


def _tracker() -> GameTracker:
    return GameTracker.from_file(SAMPLE_START)


def test_a_legal_looking_change_is_no_contradiction() -> None:
    after = _start()
    after["garden"] = copy.deepcopy(after["garden"])
    after["garden"][2] = {"plant": "Jade", "row": "top", "side": "soil"}
    assert _tracker().contradictions(after) == []


def test_each_kind_of_contradiction_names_the_cards() -> None:
    tracker = _tracker()
    jumped = _start()
    jumped["garden"] = copy.deepcopy(jumped["garden"])
    jumped["garden"][1] = {"plant": "Kalanchoe", "row": "top", "side": "soil"}
    tracker.sync(jumped)
    grown_back = copy.deepcopy(jumped)
    grown_back["garden"][1] = {"plant": "Kalanchoe", "row": "bottom", "side": "soil"}
    said = tracker.contradictions(grown_back)
    assert any("Kalanchoe jumped two rows" in s for s in said)
    swapped = copy.deepcopy(jumped)
    g = swapped["garden"]
    g[2], g[3], g[5], g[6] = g[3], g[2], g[6], g[5]
    assert any("column order" in s for s in tracker.contradictions(swapped))
    lit = copy.deepcopy(jumped)
    lit["glass"] = dict(lit["glass"], **{"left-middle": "sunlight"})
    assert any("left-middle glass lit" in s and "Kalanchoe" in s
               for s in tracker.contradictions(lit))


def test_a_succulent_turned_back_is_a_contradiction() -> None:
    tracker = _tracker()
    grown = _start()
    grown["garden"] = copy.deepcopy(grown["garden"])
    grown["garden"][4] = {"plant": "Lithops", "row": "middle", "side": "succulent"}
    tracker.sync(grown)
    assert any("Lithops turned back" in s for s in tracker.contradictions(_start()))
