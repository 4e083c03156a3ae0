"""Hard photos: a tile fitting its square hardly better than the bare board is a doubt
(reader.BARE_LIKE), so is a square read as empty that the bare board misfits while it shows
a tile's print (reader.BARE_PRINT), and under glare a fruit pair's agreement does not vouch
for the leaf (reader.GLARE_LEAF).

On hard photos of art families 8045-8049 (issue #20) bare squares in shade were named as
tiles, sure, at 0.61-0.70 of the bare board's misfit, where right names fitted at 0.40 at
most; a tile whose face no look placed well was read as empty though it showed a tile's
print; and a dark leaf under a glare spot was named as the light one of its colour while the
three judges agreed on the tile's fruit.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_recognition_glare_lit import _evidence
from test_recognition_hard import MODEL, _square

from companion.the_glade.recognition import reader
from companion.the_glade.recognition.evidence import Evidence
from companion.the_glade.recognition.reader import (
    BARE_LIKE_RATIO,
    BARE_MISFIT,
    GLARE_TILE,
    GLARE_TILES,
    GLARE_Z,
    PRINTED,
    SquareReading,
    _doubt_glare_lit,
    _judge,
)


def _shaded(empty: float, tile: float) -> Evidence:
    """An inner square in shade with a tile's print, its best face far ahead of the next
    (templates close together: a clear first look)."""
    ev = _square(empty, tile, 1.2, 0.5, edge=False)
    ev.templates = np.array([[0.0, 0.0], [0.1, 0.1]], np.float32)
    return ev


def test_a_tile_fitting_hardly_better_than_the_bare_board_is_a_doubt() -> None:
    """A square the best face fits at 0.7 of the bare board's misfit, with a tile's print
    and a clear first look, was named surely (the code before: EMPTY_TILE_RATIO 0.85 alone);
    it is "tile or empty?" now. A face fitting at well under BARE_LIKE_RATIO stays named."""
    empty = 0.004
    shaded = _judge(MODEL, _shaded(empty, 0.7 * empty), 0, "C2")
    assert shaded.kind == "uncertain"
    assert (shaded.doubt, shaded.reason) == ("bare-like", "tile or empty?")
    assert shaded.confidence == 0.0
    clear = _judge(MODEL, _shaded(empty, 0.6 * BARE_LIKE_RATIO * empty), 0, "C2")
    assert (clear.kind, clear.name) == ("tile", "mouse/acorn/oak")


def _agreed(square: str, z: float, leaf_pair: bool) -> SquareReading:
    """A tile the three judges agreed on (their pair between two leaves, or two fruits)."""
    distances = {"z": z, "three_agree": 1.0}
    if leaf_pair:
        distances["pair_leaf"] = 1.0
    return SquareReading(square, "tile", "toad/acorn/beech", 0, "spring", 0.5,
                         distances=distances)


def test_under_glare_a_fruit_pair_agreeing_does_not_keep_the_leaf(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With GLARE_LEAF on (built, off by default), under a glare spot a close call the three
    judges agreed on through a pair of two fruits is doubted (kept before: the agreement
    exempted it); through a pair of two leaves it keeps its name, and so does a fruit pair's
    agreement in the photo's usual light. Off, the agreement keeps every name as before."""
    monkeypatch.setattr(reader, "GLARE_LEAF", True)
    usual = [1.7] * GLARE_TILES
    lit = 1.7 * GLARE_TILE * 1.1
    readings = ([_agreed(f"A{k + 1}", 1.0, False) for k in range(GLARE_TILES)]
                + [_agreed("B1", GLARE_Z / 2, False), _agreed("B2", GLARE_Z / 2, True)])
    out = _doubt_glare_lit(_evidence([*usual, lit, lit]), readings)
    assert [r.kind for r in out] == ["tile"] * GLARE_TILES + ["uncertain", "tile"]
    assert out[GLARE_TILES].doubt == "glare-lit"
    assert out[GLARE_TILES].candidates == ()
    assert np.isclose(out[GLARE_TILES].distances["glare_lit"], GLARE_TILE * 1.1, atol=1e-3)
    monkeypatch.setattr(reader, "GLARE_LEAF", False)
    again = ([_agreed(f"A{k + 1}", 1.0, False) for k in range(GLARE_TILES)]
             + [_agreed("B1", GLARE_Z / 2, False), _agreed("B2", GLARE_Z / 2, True)])
    out = _doubt_glare_lit(_evidence([*usual, lit, lit]), again)
    assert [r.kind for r in out] == ["tile"] * (GLARE_TILES + 2)


def test_a_square_read_empty_showing_print_the_board_misfits_is_a_doubt() -> None:
    """Read as empty (a tile fits worse still) where the bare board misfits the square and
    it shows more print than the faintest tile: read as empty, sure, before; "empty or
    tile?" now. With the board fitting, or with little print, it stays empty."""
    misfit = 2 * BARE_MISFIT
    printed = _judge(MODEL, _square(misfit, 3 * misfit, 2 * PRINTED, 1.0, edge=False), 0, "C5")
    assert printed.kind == "uncertain"
    assert (printed.doubt, printed.reason) == ("bare-like", "empty or tile?")
    for evidence in (_square(misfit, 3 * misfit, PRINTED / 2, 1.0, edge=False),
                     _square(BARE_MISFIT / 3, BARE_MISFIT, 2 * PRINTED, 1.0, edge=False)):
        assert _judge(MODEL, evidence, 0, "C5").kind == "empty"
