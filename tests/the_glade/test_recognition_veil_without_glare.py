"""A "veiled by glare" doubt where no glare lies is read bare (veil_without_glare.py, #20).

The evidence is built here square by square with the measures the step judges on (light,
the bare board's and the best face's misfits), each case in the place of one rule."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.the_glade.recognition import veil_without_glare
from companion.the_glade.recognition.reader import SquareReading

A = "mouse/hazelnut/beech"


def _veiled(square: str) -> SquareReading:
    r = SquareReading(square, "uncertain", distances={"empty": 0.001})
    r.doubted("veiled", "empty, or a tile veiled by glare?")
    return r


def _setting(cases: list[dict]) -> tuple[SimpleNamespace, list[SquareReading]]:
    """Three sure tiles of light 2.0 (the photo's usual tile light), then one veiled doubt
    per case (light, tile and empty misfits)."""
    rows = [dict(tile=0.001, empty=0.02, light=2.0, sure=True)] * 3 + cases
    ev = SimpleNamespace(
        empty=np.array([c["empty"] for c in rows]),
        tiles=[((c["tile"], 0, 0), (c["tile"] * 1.01, 0, 0)) for c in rows],
        bright=np.array([c["light"] for c in rows]),
        centres=np.array([[10.0 * k, 5.0] for k in range(len(rows))]))
    readings = [SquareReading(f"A{k + 1}", "tile", A, 0, "spring", confidence=0.9)
                if c.get("sure") else _veiled(f"A{k + 1}") for k, c in enumerate(rows)]
    return ev, readings


#: as bright as the photo's tiles (2.0 against the bare board's light: "glare" to the first
#: look), the bare board fitting far better than any face
BARE = dict(tile=0.008, empty=0.001, light=2.0)


def test_a_veiled_doubt_as_bright_as_the_tiles_is_read_bare() -> None:
    ev, readings = _setting([BARE])
    veil_without_glare.settle(ev, readings)
    r = readings[3]
    assert (r.kind, r.name, r.doubt, r.candidates) == ("empty", None, "", ())
    assert r.distances["unglared_veil"] == 1.0
    assert r.centre == (30.0, 5.0)
    assert 0.0 < r.confidence <= 1.0
    assert [x.kind for x in readings[:3]] == ["tile"] * 3


@pytest.mark.parametrize("change", [
    dict(light=2.4),                   # brighter than the tiles: glare may veil a tile there
    dict(empty=0.007),                 # the bare board fits hardly better than a face
    dict(empty=0.009),                 # ... or worse
])
def test_a_square_any_rule_speaks_against_stays_a_doubt(change: dict) -> None:
    ev, readings = _setting([{**BARE, **change}])
    veil_without_glare.settle(ev, readings)
    assert (readings[3].kind, readings[3].doubt) == ("uncertain", "veiled")
    assert "unglared_veil" not in readings[3].distances


def test_only_veiled_doubts_are_read_bare_and_the_switch_turns_it_off(monkeypatch) -> None:
    ev, readings = _setting([BARE, BARE])
    readings[3].doubted("which-kind", "tile or empty?")
    veil_without_glare.settle(ev, readings)
    assert [r.kind for r in readings[3:]] == ["uncertain", "empty"]
    monkeypatch.setattr(veil_without_glare, "UNGLARED_VEIL", False)
    ev, readings = _setting([BARE])
    veil_without_glare.settle(ev, readings)
    assert readings[3].doubt == "veiled"


def test_without_a_tile_read_there_is_no_usual_light_and_nothing_changes() -> None:
    ev, readings = _setting([BARE])
    for r in readings[:3]:
        r.kind = "empty"
    veil_without_glare.settle(ev, readings)
    assert readings[3].doubt == "veiled"
