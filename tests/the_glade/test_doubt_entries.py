"""A square named after the scan leaves every doubt entry of its reading (doubt_entries)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.the_glade.doubt_entries import PER_SQUARE, no_longer_in_doubt

SQUARES = [f"{c}{r}" for c in "ABCDEFG" for r in range(1, 8)]


def _reading(unsure: list[str]) -> dict:
    """A forest scan's reading with ``unsure`` in doubt, as BoardReading.to_dict writes it."""
    return {"forest": {"tiles": {"A1": "toad/acorn/oak"}, "counters": {}},
            "uncertain": list(unsure),
            "reasons": {sq: "looks like two tiles" for sq in unsure},
            "doubts": {sq: "look-alike" for sq in unsure},
            "candidates": {sq: ["toad/acorn/oak", "toad/hazelnut/oak"] for sq in unsure},
            "likeliest": {sq: "toad/acorn/oak" for sq in unsure}}


def test_a_settled_square_leaves_every_entry_and_the_others_stay() -> None:
    reading = _reading(["B2", "C3"])
    no_longer_in_doubt(reading, ["B2"])
    assert reading["uncertain"] == ["C3"]
    for key in PER_SQUARE:
        assert list(reading[key]) == ["C3"]
    assert reading["forest"] == _reading([])["forest"]


@given(st.lists(st.sampled_from(SQUARES), unique=True),
       st.lists(st.sampled_from(SQUARES), unique=True))
def test_no_entry_outlives_its_doubt(unsure: list[str], named: list[str]) -> None:
    reading = _reading(unsure)
    no_longer_in_doubt(reading, named)
    left = [sq for sq in unsure if sq not in named]
    assert reading["uncertain"] == left
    for key in PER_SQUARE:
        assert list(reading[key]) == left


def test_a_reading_without_the_entries_gets_only_an_empty_doubt_list() -> None:
    reading: dict = {"forest": {"tiles": {}, "counters": {}}}
    no_longer_in_doubt(reading, ["A1"])
    assert reading == {"forest": {"tiles": {}, "counters": {}}, "uncertain": []}
