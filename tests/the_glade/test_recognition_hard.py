"""Hard photos (glare, shadow, dim light): what a square's brightness and faint print say.

A tile washed out by glare and a bare square both look flat once each patch is divided by
its own light, so the reader also weighs how bright the square is over the bare board under
the light measured on the border (evidence._brightness), and how little print it shows.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.the_glade.recognition import reader
from companion.the_glade.recognition.counter_colour import board_light
from companion.the_glade.recognition.evidence import Evidence, _brightness
from companion.the_glade.recognition.reader import (
    BRIGHT_BARE,
    EMPTY_TILE_RATIO,
    FAINT_STRUCTURE,
    _judge,
)
from companion.the_glade.recognition.structure import BARE_STRUCTURE

MODEL = SimpleNamespace(tile_turns=np.array([0, 0]), tile_seasons=["spring", "spring"],
                        tile_names=["mouse/acorn/oak"] * 4 + ["mouse/hazelnut/oak"] * 4)


def _square(empty: float, tile: float, structure: float, bright: float | None,
            edge: bool = True, outline: float = 0.3) -> Evidence:
    """Evidence for one square: its distance to the bare board and to the best tile, its
    fine structure, its brightness over the bare board's, on the edge or not."""
    return Evidence(
        centres=np.zeros((1, 2)), frame_share=np.ones(1), sat=np.zeros(1),
        tile_clipped=np.zeros(1), white=np.zeros(1), empty=np.array([empty]),
        structure=np.array([structure]), outline=np.array([outline]),
        tile_at=np.zeros((1, 2)), tile_angle=np.zeros(1), fine_angle=None,
        tiles=[((tile, 0, "mouse/acorn/oak"), (tile * 3, 1, "mouse/hazelnut/oak"))],
        looks={}, counters={}, tint={}, disc=np.zeros(1),
        templates=np.array([[0.0, 0.0], [1.0, 1.0]], np.float32),
        bright=None if bright is None else np.array([bright]), edge=np.array([edge]))


def test_a_flat_square_far_brighter_than_the_bare_board_is_doubted_not_read_empty():
    """The bare board fits a washed-out tile (both flat), and it shows no print: read as
    empty in a photo's even light, doubted when glare has made it that bright."""
    plain = _judge(MODEL, _square(0.001, 0.006, 0.05, 1.0), 0, "G4")
    assert plain.kind == "empty"
    washed = _judge(MODEL, _square(0.001, 0.006, 0.05, BRIGHT_BARE + 0.4), 0, "G4")
    assert washed.kind == "uncertain"
    unmeasured = _judge(MODEL, _square(0.001, 0.006, 0.05, None), 0, "G4")
    assert unmeasured.kind == "empty"


def test_a_faint_tie_of_board_and_tile_on_an_edge_square_is_bare():
    """Too little print for any tile (under FAINT_STRUCTURE, above BARE_STRUCTURE) and a near
    tie of the bare board and a tile: bare on an edge square, in doubt where a counter may
    lie or where glare may have washed a tile's print away."""
    structure = (BARE_STRUCTURE + FAINT_STRUCTURE) / 2
    tile = 0.0090
    empty = tile / (EMPTY_TILE_RATIO + 0.1)  # the tile a little closer: a near tie
    edge = _judge(MODEL, _square(empty, tile, structure, 0.9), 0, "A3")
    assert edge.kind == "empty", edge.reason
    inner = _judge(MODEL, _square(empty, tile, structure, 0.9, edge=False), 0, "C3")
    assert inner.kind == "uncertain"
    glare = _judge(MODEL, _square(empty, tile, structure, BRIGHT_BARE + 0.5), 0, "A3")
    assert glare.kind == "uncertain"
    printed = _judge(MODEL, _square(empty, tile, FAINT_STRUCTURE * 3, 0.9), 0, "A3")
    assert printed.kind == "uncertain"  # enough print for a tile: the tie stands


def test_a_clear_tile_is_not_made_bare_by_faint_print():
    """Faint print alone does not overrule a tile that fits clearly better than the board."""
    structure = (BARE_STRUCTURE + FAINT_STRUCTURE) / 2
    reading = _judge(MODEL, _square(0.0100, 0.0010, structure, 0.9), 0, "A3")
    assert reading.kind != "empty"


def test_brightness_is_about_one_on_the_bare_board_and_high_on_a_pale_tile():
    """Measured against the enrolled board under the light of the border (here a dim photo,
    0.6 of the enrolled light, with a warm cast)."""
    board = np.full((144, 144, 3), (40, 90, 50), np.uint8)
    board[::8] = (30, 70, 40)  # some print on the board
    light = np.array([0.5, 0.6, 0.7])
    photo = np.clip(board * light, 0, 255).astype(np.uint8)
    photo[60:84, 60:84] = np.clip(np.array([235, 240, 238]) * light, 0, 255)  # a pale tile
    strip = np.ones(board.shape[:2], bool)
    strip[20:-20, 20:-20] = False
    centres = np.array([[72.0, 72.0], [30.0, 30.0]])
    bright = _brightness(photo, board, board_light(photo, board, strip), centres)
    assert bright is not None
    assert bright[0] > BRIGHT_BARE
    assert abs(bright[1] - 1.0) < 0.1



@pytest.mark.parametrize(("outline", "disc", "kind"), [
    (0.8, 0.55, "tile"),     # a tile's square outline, no strong round one: no counter there
    (0.5, 0.55, "counter"),  # no clear square outline: the counter fits best
    (0.8, 0.85, "counter"),  # a strong round outline: a counter, whatever else shows
    # OUTLINE_OVER_DISC: the tile outline clearer than the round one (seen 8182 normal photo
    # 14, B3: a ring creature on a light tile; 8184 photo 9, B2), and the two counters seen
    # with a tile's outline over 0.7, each rounder than square
    (0.794, 0.694, "tile"),
    (0.811, 0.609, "tile"),
    (0.752, 0.864, "counter"),
    (0.728, 0.793, "counter"),
])
def test_a_tile_outline_with_no_strong_round_one_holds_no_counter(
        outline: float, disc: float, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """reader.OUTLINED_TILE: a tile whose creature is a ring (as a white counter) fitted a
    counter better than any face; its square outline says it is a tile. Off, it is the
    counter again."""
    ev = _square(0.03, 0.004, 5.0, 1.0, edge=False, outline=outline)
    ev.counters = {0: (0.002, 0.5, "white-double", "white-single", (0.0, 0.0))}
    ev.disc = np.array([disc])
    ev.templates = np.array([[0.0, 0.0], [0.1, 0.1]], np.float32)
    assert _judge(MODEL, ev, 0, "C3").kind == kind
    if disc >= reader.OUTLINED_DISC:  # only the clearer tile outline names these tiles
        monkeypatch.setattr(reader, "OUTLINE_OVER_DISC", None)
        assert _judge(MODEL, ev, 0, "C3").kind == "counter"
    monkeypatch.setattr(reader, "OUTLINED_TILE", False)
    assert _judge(MODEL, ev, 0, "C3").kind == "counter"


@pytest.mark.parametrize(("outline", "disc", "kind"), [
    (0.184, 0.477, "counter"),    # seen 8215 hard photo 1, B4: a green counter in a near tie
    (0.5, 0.477, "uncertain"),    # a tile's square outline shows too: the tie stands
    (0.184, 0.40, "uncertain"),   # no clear round outline: the tie stands
])
def test_a_round_outline_with_hardly_a_square_one_holds_no_tile(
        outline: float, disc: float, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """reader.ROUND_COUNTER: a counter whose best face fits hardly better than a tile's
    ("counter or tile?") shows a counter's round outline and hardly a tile's square one:
    a counter. Off, the tie stands. (COUNTER_NOT_TILE, which names such a counter by its
    square outline alone, is off here.)"""
    monkeypatch.setattr(reader, "COUNTER_NOT_TILE", None)
    ev = _square(0.0252, 0.0187, 0.49, 1.0, edge=False, outline=outline)
    ev.counters = {0: (0.016, 0.5, "green-double", "green-single", (0.0, 0.0))}
    ev.disc = np.array([disc])
    ev.tint = {0: (0.01, 0.05)}  # its colours a counter's, clearly
    r = _judge(MODEL, ev, 0, "B4")
    assert r.kind == kind
    if kind == "counter":
        assert r.name == "green-double"
    monkeypatch.setattr(reader, "ROUND_COUNTER", False)
    assert _judge(MODEL, ev, 0, "B4").kind == "uncertain"


@pytest.mark.parametrize(("outline", "kind"), [
    (0.081, "counter"),    # seen 8174 normal photo 11, C4: no tile shows so faint an outline
    (0.34, "uncertain"),   # the faintest tile outline seen: the tie stands
])
def test_a_counter_with_hardly_a_square_outline_is_no_tile(
        outline: float, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """reader.COUNTER_NOT_TILE: a green counter on the green board, its face fitting hardly
    better than a tile's and its round outline faint, shows hardly any square outline: no
    tile. Off, the "counter or tile?" tie stands."""
    ev = _square(0.0416, 0.0346, 0.65, 1.0, edge=False, outline=outline)
    ev.counters = {0: (0.026, 0.5, "green-single", "green-double", (0.0, 0.0))}
    ev.disc = np.array([0.437])
    ev.tint = {0: (0.01, 0.05)}  # its colours a counter's, clearly
    r = _judge(MODEL, ev, 0, "C4")
    assert (r.kind, r.doubt) == (kind, "" if kind == "counter" else "which-kind")
    if kind == "counter":
        assert r.name == "green-single"
    monkeypatch.setattr(reader, "COUNTER_NOT_TILE", None)
    assert _judge(MODEL, ev, 0, "C4").doubt == "which-kind"


def test_a_counter_far_ahead_of_every_tile_stays_sure() -> None:
    """COUNTER_NOT_TILE judges only a near tie of counter and tile: a white counter fitting
    25 times as closely as any tile (seen 8366 hard photo 6, F4), its colours near the bare
    board's under glare, stays a sure counter rather than being weighed against the board."""
    ev = _square(0.1652, 0.1347, 18.8, 1.0, edge=False, outline=0.203)
    ev.counters = {0: (0.0046, 0.5, "white-single", "white-double", (0.0, 0.0))}
    ev.disc = np.array([0.941])
    ev.tint = {0: (0.0104, 0.0144)}
    r = _judge(MODEL, ev, 0, "F4")
    assert (r.kind, r.name, r.doubt) == ("counter", "white-single", "")


@pytest.mark.parametrize("tint, kind", [
    ((0.0156, 0.0883), "uncertain"),  # tuning 46: a green counter on a green board, in shade
    ((0.0191, 0.0390), "uncertain"),  # tuning 8: the same under glare, its colours 0.49
    ((0.0300, 0.0330), "empty"),      # colours as near the board's as a counter's: bare
    (None, "empty"),                  # no counter looked for there
])
def test_a_square_read_empty_whose_colours_are_a_counters_is_a_doubt(
        tint: tuple[float, float] | None, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """No round outline, hardly any print (a green counter on a green board, blurred or
    in shade), so no counter is read there, and the bare board fits better than any tile:
    read as empty, sure, before; where the counter's colours fit the square far better than
    the board's (under evidence.TINT_COUNTER of them) it is "empty or counter?" (which-kind)."""
    ev = _square(0.018, 0.030, 0.28, 1.0, edge=False, outline=0.25)
    if tint is not None:
        ev.tint = {0: tint}
    r = _judge(MODEL, ev, 0, "C2")
    assert r.kind == kind
    if kind == "uncertain":
        assert (r.doubt, r.candidates) == ("which-kind", ())
    monkeypatch.setattr(reader, "TINT_DOUBT", False)
    assert _judge(MODEL, ev, 0, "C2").kind == "empty"
