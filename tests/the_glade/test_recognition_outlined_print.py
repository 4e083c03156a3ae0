"""A "tile or empty?" doubt on a tile whose outline and print plainly show keeps its name
(outlined_print.py, #20).

The evidence is built here square by square with the measures the step judges on (outline,
print, light, the best face's misfit), each case in the place of one rule; the doubt itself
comes from the reader's own judgement of such a square (reader._judge)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from test_recognition_hard import MODEL, _square

from companion.the_glade.recognition import outlined_print
from companion.the_glade.recognition.reader import (
    EMPTY_TILE_RATIO,
    MAX_DISTANCE,
    SquareReading,
    _judge,
)

A = "mouse/acorn/oak"


def _bare_like(square: str, tile: float, empty: float) -> SquareReading:
    """The reader's reading of a tile square whose best face (A) misfits it ``tile`` and
    the bare board ``empty`` (over half of it: "tile or empty?")."""
    ev = _square(empty, tile, 3.0, 1.0, edge=False, outline=0.8)
    ev.templates = np.array([[0.0, 0.0], [0.1, 0.1]], np.float32)  # a clear first look
    r = _judge(MODEL, ev, 0, square)
    assert (r.kind, r.doubt, r.name) == ("uncertain", "bare-like", A)
    return r


def _which_kind(square: str, tile: float, empty: float) -> SquareReading:
    """The reader's reading of a tile square whose best face (A) fits it nearly as ill as
    the bare board does (the nearer tie: "tile or empty?" as a which-kind doubt)."""
    ev = _square(empty, tile, 3.0, 1.0, edge=False, outline=0.8)
    ev.templates = np.array([[0.0, 0.0], [0.1, 0.1]], np.float32)
    r = _judge(MODEL, ev, 0, square)
    assert (r.kind, r.doubt, r.name) == ("uncertain", "which-kind", A)
    return r


def _setting(cases: list[dict], tiles: float = 1.0
             ) -> tuple[SimpleNamespace, list[SquareReading]]:
    """Three sure tiles of light ``tiles`` (the photo's usual tile light, over the bare
    board's 1), then one "tile or empty?" doubt per case (outline, structure, light, tile
    and empty misfits; ``which``: the which-kind doubt, else the bare-like one)."""
    rows = [dict(outline=0.9, structure=5.0, light=tiles, tile=0.002, empty=0.05,
                 sure=True)] * 3
    rows += cases
    ev = SimpleNamespace(
        outline=np.array([c["outline"] for c in rows]),
        structure=np.array([c["structure"] for c in rows]),
        bright=np.array([c["light"] for c in rows]),
        empty=np.array([c["empty"] for c in rows]),
        tiles=[((c["tile"], 0, A), (c["tile"] * 1.5, 1, A)) for c in rows])
    readings = [SquareReading(f"A{k + 1}", "tile", A, 0, "spring", confidence=0.9)
                if c.get("sure") else (_which_kind if c.get("which") else _bare_like)(
                    f"A{k + 1}", c["tile"], c["empty"])
                for k, c in enumerate(rows)]
    return ev, readings


#: tuning family 7, photo 3, F2: a tile a shadow's edge crosses, its face misfitting it at
#: 0.73 of the bare board's misfit, its outline and print plain, in the photo's usual light
SHADOW_EDGE = dict(outline=0.717, structure=5.7, light=0.75, tile=0.045, empty=0.062)


def test_a_tile_showing_its_outline_and_print_keeps_its_name() -> None:
    ev, readings = _setting([SHADOW_EDGE])
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    r = readings[3]
    assert (r.kind, r.name, r.doubt, r.reason) == ("tile", A, "", "")
    assert r.distances["outlined_print"] == 1.0
    assert 0.0 < r.confidence < 1.0


@pytest.mark.parametrize("change", [
    dict(outline=0.6),                 # no clear square outline: the bare board may lie there
    dict(structure=0.8),               # fainter than the faintest tile face
    dict(light=0.5),                   # in shade, where such names were guessed wrong
    dict(tile=MAX_DISTANCE * 1.2, empty=MAX_DISTANCE * 1.5),  # no face fits it at all
])
def test_a_square_any_rule_speaks_against_stays_a_doubt(change: dict) -> None:
    ev, readings = _setting([{**SHADOW_EDGE, **change}])
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert (readings[3].kind, readings[3].doubt) == ("uncertain", "bare-like")
    assert "outlined_print" not in readings[3].distances


def test_an_empty_square_showing_print_is_left_to_its_doubt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"empty or tile?" (bare-like, read as empty: no name) is not this step's; and the
    switch off leaves every doubt as it is."""
    ev, readings = _setting([SHADOW_EDGE, SHADOW_EDGE])
    readings[4] = SquareReading("A5", "uncertain")
    readings[4].doubted("bare-like", "empty or tile?")
    monkeypatch.setattr(outlined_print, "OUTLINED_PRINT", False)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert [r.kind for r in readings[3:]] == ["uncertain", "uncertain"]
    monkeypatch.setattr(outlined_print, "OUTLINED_PRINT", True)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert [r.kind for r in readings[3:]] == ["tile", "uncertain"]


#: tuning family 8204, photo 15 of a 7x7 board (normal), D4: a pale tile on a dark board,
#: fitting its face (0.046) hardly better than the bare board (0.053); its outline and print
#: plain, lit 1.50 times the bare board where the photo's tiles are 1.54
PALE_ON_DARK = dict(outline=0.86, structure=4.97, light=1.50, tile=0.0461, empty=0.053,
                    which=True)


def test_a_near_tie_with_the_board_in_the_tiles_light_keeps_its_name() -> None:
    """The which-kind doubt, where the light tells tiles from the board: named."""
    assert PALE_ON_DARK["tile"] / PALE_ON_DARK["empty"] > EMPTY_TILE_RATIO
    ev, readings = _setting([PALE_ON_DARK], tiles=1.54)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    r = readings[3]
    assert (r.kind, r.name, r.doubt) == ("tile", A, "")
    assert r.distances["outlined_print"] == 1.0


@pytest.mark.parametrize(("change", "tiles"), [
    (dict(light=1.2), 1.54),     # lit nearer the bare board than the tiles (family 8189)
    (dict(light=1.1), 1.1),      # tiles as light as the board: light tells nothing
    (dict(outline=0.6), 1.54),   # the rules of the bare-like doubt hold too
    (dict(structure=0.8), 1.54),
])
def test_a_near_tie_the_light_or_print_does_not_settle_stays_a_doubt(change: dict,
                                                                    tiles: float) -> None:
    ev, readings = _setting([{**PALE_ON_DARK, **change}], tiles=tiles)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert (readings[3].kind, readings[3].doubt) == ("uncertain", "which-kind")


def test_a_tie_with_a_counter_or_the_switch_off_is_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A which-kind doubt where a counter fits better than the board is not this step's;
    WHICH_KIND off leaves the nearer tie a doubt."""
    ev, readings = _setting([PALE_ON_DARK, PALE_ON_DARK], tiles=1.54)
    readings[4].distances["counter"] = PALE_ON_DARK["empty"] / 2
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert [r.kind for r in readings[3:]] == ["tile", "uncertain"]
    ev, readings = _setting([PALE_ON_DARK], tiles=1.54)
    monkeypatch.setattr(outlined_print, "WHICH_KIND", False)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert readings[3].kind == "uncertain"


#: seen 8182 normal photo 11, G7: a tile under a soft patch of light, its outline fainter
#: (0.56) than OUTLINE, both looks naming it and the closer look clearly (3.1)
FAINT_BUT_CLEAR = dict(outline=0.563, structure=4.68, light=0.85, tile=0.0201, empty=0.0295)


def _clear(readings: list[SquareReading], clearness: float, agree: float = 1.0) -> None:
    readings[3].distances.update(detail_clearness=clearness, agree=agree)


def test_a_fainter_outline_keeps_its_name_when_the_closer_look_is_clear() -> None:
    ev, readings = _setting([FAINT_BUT_CLEAR])
    _clear(readings, 3.1)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert (readings[3].kind, readings[3].name, readings[3].doubt) == ("tile", A, "")
    assert readings[3].distances["outlined_print"] == 1.0


@pytest.mark.parametrize(("change", "clearness", "agree"), [
    ({}, 2.0, 1.0),                 # the closer look not clear enough
    ({}, 3.1, 0.0),                 # the two looks named different faces
    (dict(outline=0.45), 3.1, 1.0),  # hardly any outline at all
    (dict(light=0.5), 3.1, 1.0),    # in shade, where such names were guessed wrong
])
def test_a_fainter_outline_without_a_clear_agreeing_look_stays_a_doubt(
        change: dict, clearness: float, agree: float) -> None:
    ev, readings = _setting([{**FAINT_BUT_CLEAR, **change}])
    _clear(readings, clearness, agree)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert (readings[3].kind, readings[3].doubt) == ("uncertain", "bare-like")


def test_the_clear_look_switch_off_leaves_a_fainter_outline_in_doubt(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ev, readings = _setting([FAINT_BUT_CLEAR])
    _clear(readings, 3.1)
    monkeypatch.setattr(outlined_print, "CLEAR", None)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert readings[3].kind == "uncertain"


#: tuning family 8178, normal photo 19 of a 7x7 board, C4: a tile whose best face misfits it
#: (0.0745) over reader.MAX_DISTANCE and whose outline is faint (0.66); its true colours fit
#: the bare board 15 times worse than the face, and the closer look named it clearly (3.95)
COLOURED = dict(outline=0.661, structure=2.72, light=0.91, tile=0.0745, empty=0.0944)


def _coloured(readings: list[SquareReading], ratio: float, clearness: float,
              agree: float = 1.0) -> None:
    readings[3].distances.update(board_over_tile=ratio, detail_clearness=clearness,
                                 agree=agree)


@pytest.mark.parametrize("agree", [1.0, 0.0])
def test_a_tile_its_colours_say_is_named_by_a_clear_closer_look(agree: float) -> None:
    """Named whether or not the two looks agreed (tuning 8181's 8x8 photo 3, B2: the
    closer look overruled the first, and was right)."""
    ev, readings = _setting([COLOURED])
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert readings[3].kind == "uncertain"  # no outline nor fit to go by: a doubt
    _coloured(readings, 15.2, 3.95, agree)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    r = readings[3]
    assert (r.kind, r.name, r.doubt) == ("tile", A, "")
    assert r.distances["outlined_print"] == 2.0


@pytest.mark.parametrize(("change", "ratio", "clearness"), [
    ({}, 3.0, 3.95),                # the colours fit the board hardly worse: no tile sure
    ({}, 15.2, 2.0),                # the closer look not clear enough to name it
    (dict(light=0.37), 7.9, 2.67),  # in shade (hard 8169 photo 7, G7: named the wrong creature)
    (dict(structure=0.8), 15.2, 3.95),  # fainter than the faintest tile face
])
def test_a_tile_the_colours_or_the_look_do_not_vouch_for_stays_a_doubt(
        change: dict, ratio: float, clearness: float) -> None:
    ev, readings = _setting([{**COLOURED, **change}])
    _coloured(readings, ratio, clearness)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert (readings[3].kind, readings[3].doubt) == ("uncertain", "bare-like")


def test_the_colour_route_off_leaves_the_doubt(monkeypatch: pytest.MonkeyPatch) -> None:
    ev, readings = _setting([COLOURED])
    _coloured(readings, 15.2, 3.95)
    monkeypatch.setattr(outlined_print, "TILE_COLOURS", None)
    outlined_print.settle(ev, readings, MAX_DISTANCE)
    assert readings[3].kind == "uncertain"
