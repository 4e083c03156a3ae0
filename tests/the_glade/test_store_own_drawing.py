"""A face named against the drawing by its own colours must show a counter's drawing of its
own (store.USE_OWN_DRAWING, issue #25): on tuning family 54 a mouse-on-beech match counter
faded to 30% of its contrast was named mouse on oak, wrong as certain (fit 0.106, margin
0.21; mouse on oak's own drawing 0.87 with no outline, the colours compared +0.26), because
the drawing's tests were asked of the best drawing of any face (the rival's, 0.35)."""

from __future__ import annotations

import numpy as np
import pytest
from glade_family import fake_look, glade_family, one_counter_photo, store_reading
from test_store_faded import _faded

from companion.the_glade.recognition.glade_polar import PolarMatch

NAMES = ["match:creature:mouse/oak:1", "match:creature:mouse/beech:1", "yellow-double"]
MATCHES = [{"kind": "creature", "icon": "mouse/oak", "value": 1},
           {"kind": "creature", "icon": "mouse/beech", "value": 1}, None]


@pytest.mark.parametrize(("own", "edge", "named"), [
    (0.87, 1.6, False),   # tuning family 54's faded mouse: no drawing of its own, no outline
    (0.87, 6.0, True),    # the same loose drawing with a counter's clear outline
    (0.38, 1.6, True),    # its own drawing a counter's
])
def test_a_face_named_by_its_colours_needs_its_own_drawing(own: float, edge: float,
                                                           named: bool) -> None:
    look = fake_look(NAMES, MATCHES, 0.26)
    look.grad = np.full((80, 80), edge, np.float32)
    f = PolarMatch(np.array([0.106, 0.33, 0.9]), np.array([own, 0.30, 0.8]), (81.0, 81.0))
    thing, ok = look._describe(f, 3.6, 2.8, 3.0)
    assert ok is named
    assert thing.distances["colour_pair"] == 0.26
    if not named:
        assert thing.reason == f"{NAMES[0]} or {NAMES[1]}?"


def test_tuning_family_54s_faded_mouse_is_not_named_as_its_look_alike() -> None:
    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack, glade, model = glade_family(54, rulebook_ink=False)
    item = {"kind": "creature", "icon": "mouse/beech", "value": 1}
    photo, truth, centre, radius = one_counter_photo(pack, glade, item)
    photo = _faded(photo, centre, radius, 0.3)
    result = store_reading(pack, model, photo, truth).result(with_matches=True)
    assert result["store"] == []
    assert (result["store_match_counters"], result["store_uncertain"]) in (([item], 0),
                                                                           ([], 1)), result
