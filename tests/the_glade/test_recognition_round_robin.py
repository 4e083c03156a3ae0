"""A look-alike doubt settled by every learnt pair of a candidate (round_robin, issue #20).

The pairs' verdicts are given (round_robin.verdicts replaced): these tests pin the rule
itself; the pairs' judging of photos has its own tests (lookalikes).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.the_glade.recognition import round_robin
from companion.the_glade.recognition.close_calls import Look
from companion.the_glade.recognition.lookalikes import LookAlikes, PairVerdict
from companion.the_glade.recognition.reader import SquareReading

A, B, C = "mouse/acorn/oak", "mouse/blackberry/oak", "mouse/hazelnut/oak"
FACES = {(A, "spring"): 0, (B, "spring"): 1, (C, "spring"): 2}
INDEX = {(0, 1): 0, (1, 0): 0, (0, 2): 1, (2, 0): 1, (1, 2): 2, (2, 1): 2}


def _model() -> SimpleNamespace:
    pairs = LookAlikes(np.array([[0, 1], [0, 2], [1, 2]], np.int32), np.zeros((3, 4), np.int32),
                       np.full(3, 8, np.int32), np.ones((3, 4), np.float32),
                       np.arange(4, dtype=np.int64), np.zeros(3, np.float32))
    return SimpleNamespace(lookalikes=pairs)


def _doubt(first: str = A, second: str = B) -> SquareReading:
    return SquareReading("C3", "uncertain", first, 1, "spring", reason=f"looks like {first} or "
                         f"{second}", doubt="look-alike", candidates=(first, second))


def _board(*doubts: SquareReading) -> list[SquareReading]:
    """The doubts first, then ten squares read surely empty (a photo that is not poor)."""
    return [*doubts, *(SquareReading(f"A{k + 1}", "empty") for k in range(10))]


def _evidence(best: str = A, torn: bool = False) -> SimpleNamespace:
    look = Look((best, 1, B), 0.1, 0.2, at=(10.0, 10.0, 0.0), torn=torn)
    return SimpleNamespace(looks={0: look})


def _verdicts(wins: dict[int, tuple[int, float, float]]):
    """verdicts() answering, per pair, (winner, fits, against)."""
    def verdicts(model, fine, at, turn, face, ks):
        out = []
        for k in ks:
            w, fits, against = wins[k]
            a, b = (int(v) for v in model.lookalikes.faces[k])
            out.append(PairVerdict(w, b if w == a else a, fits, against))
        return out
    return verdicts


def _settle(monkeypatch, wins, readings, ev) -> list[int]:
    monkeypatch.setattr(round_robin, "verdicts", _verdicts(wins))
    return round_robin.settle(_model(), ev, readings, np.zeros((4, 4, 3), np.uint8), FACES,
                              INDEX)


@pytest.fixture
def clear() -> dict[int, tuple[int, float, float]]:
    """Face A wins both its pairs by far; B and C as they may."""
    return {0: (0, 0.5, 9.0), 1: (0, 0.7, 12.0), 2: (1, 0.5, 6.0)}


def test_a_candidate_winning_all_its_pairs_is_named(monkeypatch, clear) -> None:
    readings = _board(_doubt())
    assert _settle(monkeypatch, clear, readings, _evidence()) == [0]
    r = readings[0]
    assert (r.kind, r.name, r.reason, r.candidates) == ("tile", A, "", ())
    assert r.distances["round_robin"] == 1.0


def test_a_pair_lost_or_won_narrowly_leaves_the_doubt(monkeypatch, clear) -> None:
    for verdict in ((2, 0.5, 6.0), (0, 2.0, 2.0 + round_robin.MARGIN - 0.01),
                    (0, round_robin.FITS + 0.1, 20.0)):
        readings = _board(_doubt())
        assert _settle(monkeypatch, {**clear, 1: verdict}, readings, _evidence()) == []
        assert readings[0].kind == "uncertain"


def test_only_the_closer_looks_own_face_a_torn_look_or_a_poor_photo(monkeypatch, clear) -> None:
    # A wins every pair, but the closer look names B: only its own face may be named
    readings = _board(_doubt(B, A))
    assert _settle(monkeypatch, clear, readings, _evidence(best=B)) == []
    readings = _board(_doubt())
    assert _settle(monkeypatch, clear, readings, _evidence(torn=True)) == []
    # a poor photo (over reader.POOR_PHOTO of its squares in doubt) is left as it is
    readings = [_doubt() for _ in range(4)] + _board()[:10]
    assert _settle(monkeypatch, clear, readings, _evidence()) == []
