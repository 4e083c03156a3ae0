"""A tile washed out by glare is named when a closer look vouches for it, and it gets that
look whatever its first look (evidence.WASHED_LOOK, issue #20). The closer look was made
only for close calls, so a washed-out tile whose first look was firm had none, and was a
"glare" doubt however plain its print: two such tiles refused a whole game of game family
7474 (run fresh for issue #25, then looked at, so a tuning family now)."""

from __future__ import annotations

import pytest
from glade_family import game_forest_photo, glade_family

from companion.the_glade.recognition import evidence, reader
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.families import TUNING_FAMILIES

FAMILY, GAME, PLAYER = 7474, 3, 1
WASHED = ("F1", "F3")  # hedgehog/acorn/maple, squirrel/acorn/beech: plain under the glare


@pytest.fixture(scope="module")
def photo():
    assert FAMILY in TUNING_FAMILIES
    pack, glade, _ = glade_family(FAMILY)
    image, _, player = game_forest_photo(pack, glade, FAMILY, GAME, PLAYER)
    return build_model(pack, lookalikes=False), image, player["forest"]["tiles"]


def _squares(model, image) -> dict:
    return {r.square: r for r in reader.read_board(model, image).squares}


def test_a_washed_out_tile_with_a_firm_first_look_is_named_by_its_closer_look(photo):
    model, image, tiles = photo
    read = _squares(model, image)
    for square in WASHED:
        r = read[square]
        assert (r.kind, r.name, r.doubt) == ("tile", tiles[square], "")
        assert r.distances["detail_clearness"] > 1.5  # the closer look vouched for it


def test_without_the_look_they_are_glare_doubts(photo, monkeypatch):
    model, image, _ = photo
    monkeypatch.setattr(evidence, "WASHED_LOOK", False)
    read = _squares(model, image)
    assert [read[s].doubt for s in WASHED] == ["glare", "glare"]
