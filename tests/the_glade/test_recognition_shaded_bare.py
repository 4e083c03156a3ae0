"""Bare squares in shade taken for two look-alike tiles are read bare (shaded_bare.py, #20).

The evidence is built here square by square with the measures the step judges on (print,
misfits, light), one look-alike doubt per square, each case in the place of one rule."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.the_glade.recognition import shaded_bare
from companion.the_glade.recognition.reader import SquareReading

A, B = "mouse/hazelnut/beech", "mouse/acorn/beech"


def _doubt(square: str, counter: float | None = None) -> SquareReading:
    r = SquareReading(square, "uncertain", A, 1, "spring", candidates=(A, B),
                      distances={"tile": 0.01})
    r.doubted("look-alike", f"looks like {A} or {B}")
    if counter is not None:
        r.distances["counter"] = counter
    return r


def _tile(square: str) -> SquareReading:
    return SquareReading(square, "tile", A, 0, "spring", confidence=0.9)


def _setting(cases: list[dict]) -> tuple[SimpleNamespace, list[SquareReading]]:
    """Evidence and readings: three sure tiles of light 1.0 (the photo's usual light), then
    one look-alike doubt per case (structure, tile and empty misfits, light, counter)."""
    rows = [dict(structure=5.0, tile=0.001, empty=0.02, light=1.0, sure=True)] * 3 + cases
    ev = SimpleNamespace(
        structure=np.array([c["structure"] for c in rows]),
        empty=np.array([c["empty"] for c in rows]),
        tiles=[((c["tile"], 0, 0), (c["tile"] * 1.01, 0, 0)) for c in rows],
        bright=np.array([c["light"] for c in rows]),
        centres=np.array([[10.0 * k, 5.0] for k in range(len(rows))]),
        tint={k: c["tint"] for k, c in enumerate(rows) if "tint" in c})
    readings = [_tile(f"A{k + 1}") if c.get("sure") else _doubt(f"A{k + 1}", c.get("counter"))
                for k, c in enumerate(rows)]
    return ev, readings


BARE_IN_SHADE = dict(structure=0.4, tile=0.009, empty=0.01, light=0.4)


def test_a_bare_square_in_shade_doubted_between_two_tiles_is_read_bare() -> None:
    ev, readings = _setting([BARE_IN_SHADE])
    shaded_bare.settle(ev, readings)
    r = readings[3]
    assert (r.kind, r.name, r.doubt, r.candidates) == ("empty", None, "", ())
    assert r.distances["shaded_bare"] == 1.0
    assert r.centre == (30.0, 5.0)
    assert [x.kind for x in readings[:3]] == ["tile"] * 3


@pytest.mark.parametrize("change", [
    dict(structure=0.8, empty=0.03, tile=0.027),  # a tile's print shows (the board no close fit)
    dict(tile=0.004),                  # a face fits far better than the bare board
    dict(light=1.5),                   # under glare, which flattens a tile's print too
    dict(counter=0.008),               # a counter fits better than the bare board
    dict(tint=(0.015, 0.088)),         # a counter's colours fit far better than the board's
    dict(empty=0.13, tile=0.128),      # neither the board nor a face fits
])
def test_a_square_any_rule_speaks_against_stays_a_doubt(change: dict) -> None:
    ev, readings = _setting([{**BARE_IN_SHADE, **change}])
    shaded_bare.settle(ev, readings)
    assert (readings[3].kind, readings[3].doubt) == ("uncertain", "look-alike")
    assert "shaded_bare" not in readings[3].distances


def test_only_doubts_between_two_tiles_or_a_tile_and_the_board_are_read_bare(
        monkeypatch) -> None:
    ev, readings = _setting([BARE_IN_SHADE, BARE_IN_SHADE, BARE_IN_SHADE])
    readings[3].candidates = ("white-single", "white-double")   # two counters
    readings[4].doubted("glare-lit", "glare on the tile")        # another doubt
    shaded_bare.settle(ev, readings)
    assert [r.kind for r in readings[3:]] == ["uncertain", "uncertain", "empty"]
    monkeypatch.setattr(shaded_bare, "SHADED_BARE", False)
    ev, readings = _setting([BARE_IN_SHADE])
    shaded_bare.settle(ev, readings)
    assert readings[3].kind == "uncertain"


@pytest.mark.parametrize(("light", "bare"), [(0.4, True), (0.8, False)])
def test_tile_or_empty_in_shade_with_little_print_is_read_bare(light: float,
                                                               bare: bool) -> None:
    """A which-kind doubt (tile or the bare board) is read bare only in shade (SHADE):
    counters doubted so on the tuning photos were as faint, but not in shade."""
    ev, readings = _setting([{**BARE_IN_SHADE, "light": light}])
    readings[3].candidates = ()
    readings[3].doubted("which-kind", "tile or empty?")
    shaded_bare.settle(ev, readings)
    assert (readings[3].kind == "empty") is bare
    assert ("shaded_bare" in readings[3].distances) is bare


@pytest.mark.parametrize(("structure", "empty", "light", "bare"), [
    (0.8, 0.005, 0.4, True),    # more print than the first rule allows, the board fitting closely
    (0.8, 0.02, 0.4, False),    # the board fitting only fairly: as faint tiles in shade do
    (0.95, 0.005, 0.4, False),  # more print still
    (0.8, 0.005, 0.8, False),   # not in shade
])
@pytest.mark.parametrize("doubt", ["which-kind", "look-alike"])
def test_a_doubt_in_shade_with_some_print_is_bare_only_where_the_board_fits_closely(
        structure: float, empty: float, light: float, bare: bool, doubt: str) -> None:
    """CLOSE_STRUCTURE and CLOSE_FIT, for both doubts, in shade only."""
    case = {**BARE_IN_SHADE, "structure": structure, "empty": empty, "tile": empty * 1.05,
            "light": light}
    ev, readings = _setting([case])
    if doubt == "which-kind":
        readings[3].candidates = ()
        readings[3].doubted("which-kind", "tile or empty?")
    shaded_bare.settle(ev, readings)
    assert (readings[3].kind == "empty") is bare
