"""The tracker's check of a position read from a photo against the last accepted one, and how
a reading's doubtful slots are kept from it (never guessed from the photo)."""

from __future__ import annotations

import copy
from typing import Any

from companion.glass_garden.deck import SAMPLE_START
from companion.glass_garden.state_file import parse_state
from companion.glass_garden.tracker import (
    COLUMN_ORDER,
    CRITTER_BACK,
    GLASS_WITHOUT_EDGE,
    JUMPED_ROWS,
    TURNED_BACK,
    GameTracker,
    follow_on,
    settle_reading,
)
from companion.storage import read_data_file


def _start() -> dict[str, Any]:
    data = read_data_file(SAMPLE_START, "state file")
    return copy.deepcopy(dict(data))


def _tracker() -> GameTracker:
    return GameTracker.from_file(SAMPLE_START)


def _codes(found: list[Any]) -> list[tuple[str, tuple[str, ...]]]:
    return [(c.code, c.cards) for c in found]


def test_a_legal_looking_change_is_no_contradiction() -> None:
    after = _start()
    after["garden"][2] = {"plant": "Jade", "row": "top", "side": "soil"}
    assert _tracker().contradictions(after) == []


def test_each_kind_of_contradiction_names_the_cards() -> None:
    tracker = _tracker()
    jumped = _start()
    jumped["garden"][1] = {"plant": "Kalanchoe", "row": "top", "side": "soil"}
    tracker.sync(jumped)
    grown_back = copy.deepcopy(jumped)
    grown_back["garden"][1] = {"plant": "Kalanchoe", "row": "bottom", "side": "soil"}
    assert _codes(tracker.contradictions(grown_back)) == [(JUMPED_ROWS, ("Kalanchoe",))]
    lit = copy.deepcopy(jumped)
    lit["glass"] = dict(lit.get("glass") or {}, **{"left-middle": "sunlight"})
    assert _codes(tracker.contradictions(lit)) == [
        (GLASS_WITHOUT_EDGE, ("left-middle", "Kalanchoe"))]


def test_two_shifts_a_turn_explain_a_column_order_three_do_not() -> None:
    tracker = _tracker()
    two = _start()
    g = two["garden"]
    g[2], g[3], g[5], g[6] = g[3], g[2], g[6], g[5]  # two plants shifted by one
    assert tracker.contradictions(two) == []
    three = copy.deepcopy(two)
    g = three["garden"]
    g[7], g[8] = g[8], g[7]
    found = tracker.contradictions(three)
    assert [c.code for c in found] == [COLUMN_ORDER]
    assert len(found[0].cards) == 3


def test_a_succulent_turned_back_and_a_critter_gone_back() -> None:
    tracker = _tracker()
    grown = _start()
    grown["garden"][4] = {"plant": "Lithops", "row": "middle", "side": "succulent"}
    tracker.sync(grown)
    assert _codes(tracker.contradictions(_start())) == [(TURNED_BACK, ("Lithops",))]
    on = copy.deepcopy(grown)
    on["garden"][0], on["garden"][1] = on["garden"][1], on["garden"][0]
    on["turn"] = 2
    tracker.sync(on)
    assert CRITTER_BACK in [c.code for c in tracker.contradictions(grown)]


def test_doubtful_slots_are_kept_from_the_last_accepted_position() -> None:
    before = parse_state(_start())
    reading = _start()
    plant = reading["garden"][3]
    reading["garden"][3] = None
    reading["glass"] = {}
    reading["critter"] = None
    reading["uncertain"] = [4, "critter", "left-top"]
    settled, kept, unsure = settle_reading(before, reading)
    assert unsure == []
    assert settled["garden"][3]["plant"] == (plant if isinstance(plant, str) else plant["plant"])
    assert settled["critter"] == before.table.critter.name
    assert parse_state(settled) == before
    assert len(kept) == 1 + 6 + 1  # the critter, the six glass cards, column 4
    assert "uncertain" not in settled


def test_two_doubtful_columns_keep_the_order_before_and_an_unplaceable_critter_is_unsure(
) -> None:
    before = parse_state(_start())
    reading = _start()
    reading["garden"][2] = reading["garden"][5] = None
    settled, _kept, unsure = settle_reading(before, reading)
    assert unsure == [] and parse_state(settled) == before
    lost = _start()
    lost["garden"][0] = lost["garden"][1] = lost["garden"][2] = None  # critter and 2 plants
    lost["turn"] = None
    _settled, _kept, unsure = settle_reading(before, lost)
    # the critter may be where it was (column 1) or one on (column 2): both blank, not guessed
    assert unsure == ["the critter's column", "column 1", "column 2", "column 3"]


def test_a_photo_in_the_same_turn_keeps_the_tracker_step() -> None:
    tracker = _tracker()
    tracker.choose(0)  # one action taken
    same = follow_on(tracker.state, _start())
    assert same["actions_left"] == tracker.state.actions_left == 1
    later = _start()
    later["garden"][0], later["garden"][1] = later["garden"][1], later["garden"][0]
    later["turn"] = 2
    assert "actions_left" not in follow_on(tracker.state, later)
