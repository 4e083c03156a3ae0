"""The forest model: its short text form, lines, groups and enclosures."""

from __future__ import annotations

import pytest
from glade_helpers import S, T

from companion.errors import StateError
from companion.the_glade.forest import Forest, parse_tile, tile_code
from companion.the_glade.names import ALL_TILES, Counter

TONI_AFTER_4 = """
.   .   .   .   .   .   .
.   Sbc Sac Shc .   .   .
Thb Sbb Mab .   Smo .   .
.   .   Ham Hbb Hmo .   .
.   .   .   .   Tmo .   .
.   .   .   .   .   .   .
.   .   .   .   .   .   .
"""


def test_text_form_round_trip_and_codes() -> None:
    f = Forest.from_text(TONI_AFTER_4, centre="D4")
    assert f.tiles[S("C2")] == T("squirrel/acorn/horse-chestnut")
    assert Forest.from_text(f.to_text(), centre="D4") == f
    for tile in ALL_TILES:
        assert parse_tile(tile_code(tile)) == tile
    with pytest.raises(StateError):
        parse_tile("Xyz")


def test_counters_in_the_text_form() -> None:
    f = Forest.from_text(TONI_AFTER_4.replace("Mab .   Smo", "Mab yellow-double Smo"))
    assert f.counters == {S("D3"): Counter("yellow", "double")}
    assert f.empty_enclosures() == [] and f.enclosures() == [S("D3")]


def test_runs_groups_and_centre_connection() -> None:
    f = Forest.from_text(TONI_AFTER_4)
    assert f.run(S("C3"), "column") == [S("C2"), S("C3"), S("C4")]
    assert f.run(S("A3"), "row") == [S("A3"), S("B3"), S("C3")]
    assert len(f.groups()) == 1 and f.unconnected_groups() == []
    assert S("A3") in f.connected_to_centre()
    lonely = f.with_tiles({S("G7"): T("Hab")})
    assert lonely.unconnected_groups() == [[S("G7")]]
    lines = {tuple(run) for _axis, run in f.lines()}
    assert (S("E3"), S("E4"), S("E5")) in lines


def test_grids_must_be_rectangular() -> None:
    with pytest.raises(StateError, match="equal length"):
        Forest.from_text(". .\n. . .")
