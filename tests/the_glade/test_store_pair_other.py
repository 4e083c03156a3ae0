"""Two look-alike counters in the store (issue #25): when the comparison where the two faces
differ (glade_polar.PolarFaces.pair) says clearly that the counter is the second best face,
not the best, the second is named (store.USE_PAIR_OTHER); half way it stays a "which
counter?" doubt. On a tuning photo (family 71) acorn on maple fitted acorn on oak a little
better overall (0.248 against 0.254) while the comparison gave -0.43: it was a doubt."""

from __future__ import annotations

import numpy as np
import pytest
from glade_family import fake_look

from companion.the_glade.recognition.glade_polar import PolarMatch
from companion.the_glade.recognition.store import _Look

NAMES = ["match:fruit:acorn/oak:1", "match:fruit:acorn/maple:1", "red-single"]
MATCHES = [{"kind": "fruit", "icon": "acorn/oak", "value": 1},
           {"kind": "fruit", "icon": "acorn/maple", "value": 1}, None]


def _look(between: float) -> _Look:
    """A look whose glade model has three faces and whose pair comparison says
    ``between``; the view a plain patch (no print), its outline that of a counter."""
    return fake_look(NAMES, MATCHES, between)


@pytest.mark.parametrize(("between", "name"), [
    (-0.43, "match:fruit:acorn/maple:1"),   # clearly the other face
    (0.3, "match:fruit:acorn/oak:1"),       # clearly the best face (PAIR_LINEAR)
    (-0.1, None), (0.1, None),              # half way: a doubt
])
def test_the_pair_comparison_names_either_face_or_neither(between: float,
                                                          name: str | None) -> None:
    f = PolarMatch(np.array([0.248, 0.254, 0.9]), np.array([0.3, 0.3, 0.8]), (81.0, 81.0))
    thing, named = _look(between)._describe(f, 8.0, 6.0, 7.0)
    assert (thing.name if named else None) == name
    if named:
        assert thing.match == MATCHES[NAMES.index(name)]


def test_the_other_face_must_fit_too() -> None:
    """The second face beyond MAX_FIT is never named, whatever the comparison says."""
    f = PolarMatch(np.array([0.33, 0.37, 0.9]), np.array([0.3, 0.3, 0.8]), (81.0, 81.0))
    _thing, named = _look(-0.6)._describe(f, 8.0, 6.0, 7.0)
    assert not named


def test_a_which_counter_doubt_names_its_two_candidates() -> None:
    """A doubt half way between two faces lists both as the result names them (a match
    counter's fields; left out when the model reads no match counters), so the table offers
    them first; a place that fits no face lists none."""
    from companion.the_glade.recognition.store import StoreReading

    f = PolarMatch(np.array([0.248, 0.254, 0.9]), np.array([0.3, 0.3, 0.8]), (81.0, 81.0))
    thing, named = _look(0.1)._describe(f, 8.0, 6.0, 7.0)
    assert not named and thing.candidates == (MATCHES[0], MATCHES[1])
    thing.name = thing.match = None
    loose = PolarMatch(np.array([0.6, 0.7, 0.9]), np.array([0.8, 0.8, 0.8]), (81.0, 81.0))
    nothing, named = _look(0.1)._describe(loose, 8.0, 6.0, 7.0)
    assert not named and nothing.candidates == ()
    nothing.name = nothing.match = None
    reading = StoreReading([thing, nothing], True, (-100.0, 0.0, -1.0, 100.0))
    assert reading.result(True)["store_doubts"] == [
        {"at": [round(thing.at[0], 1), round(thing.at[1], 1)],
         "candidates": [MATCHES[0], MATCHES[1]]},
        {"at": [round(nothing.at[0], 1), round(nothing.at[1], 1)], "candidates": []}]
    assert reading.result(False)["store_doubts"][0]["candidates"] == []
    assert reading.result(True)["store_uncertain"] == 2
    assert "store_doubts" not in StoreReading([], True, (-100.0, 0.0, -1.0, 100.0)).result(True)
