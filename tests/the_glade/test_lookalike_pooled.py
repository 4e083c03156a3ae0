"""Look-alike pairs learnt together when they share one difference (issue #20).

The packs here are drawn by a seed of the art-family generator that no benchmark or tuning
run uses, so the pooled judge meets fruit pairs it was never tuned on.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.the_glade.names import Tile
from companion.the_glade.recognition.enrol import tile_side
from companion.the_glade.recognition.families import HELD_OUT_FROM, TUNING_FAMILIES, family_pack
from companion.the_glade.recognition.lookalike_groups import group_pairs
from companion.the_glade.recognition.lookalikes import (
    _candidates,
    canvases,
    cut_views,
    features,
    learn,
)
from companion.the_glade.recognition.model import FINE, TILE_INSET
from companion.the_glade.recognition.pack import Pack

FAMILY = 7031  # never tuned on, never benchmarked
assert FAMILY not in TUNING_FAMILIES and FAMILY >= HELD_OUT_FROM
BOARD = np.array([90.0, 140.0, 110.0], np.float32)


def small_pack(family: int) -> Pack:
    """16 spring tiles: hedgehog and toad, beech and oak, every fruit."""
    pack = family_pack(family)
    pack.tiles = [f for f in pack.tiles if f.season == "spring"
                  and Tile.parse(f.tile).creature in ("hedgehog", "toad")
                  and Tile.parse(f.tile).leaf in ("beech", "oak")]
    return pack


@pytest.fixture(scope="module")
def pack() -> Pack:
    return small_pack(FAMILY)


def _fruit(name: str) -> str:
    return Tile.parse(name).fruit


def test_fruit_pairs_drawn_alike_at_one_spot_are_one_group(pack) -> None:
    faces = [f.image for f in pack.tiles]
    names = [f.tile for f in pack.tiles]
    groups = group_pairs(faces, names, _candidates(faces, [f.season for f in pack.tiles]))
    fruit_groups = [g for g in groups if g.key[0] == 1]
    assert fruit_groups
    for g in fruit_groups:
        # every pair of the group differs in the same two fruits, side 0 first
        assert {(_fruit(names[i]), _fruit(names[j])) for i, j in g.pairs} == {g.key[1:]}
        # ... and each side's faces all bear that side's fruit
        assert {_fruit(names[i]) for i in g.sides[0]} == {g.key[1]}
        assert {_fruit(names[j]) for j in g.sides[1]} == {g.key[2]}
    # pooled: a fruit pair's group holds the pairs of every creature and leaf (4 here)
    assert max(len(g.pairs) for g in fruit_groups) == 4
    # every candidate pair lands in exactly one group
    pairs = [p for g in groups for p in g.pairs]
    assert len(pairs) == len(set(pairs)) == len(_candidates(faces, [f.season
                                                                    for f in pack.tiles]))


def test_a_fruit_drawn_otherwise_is_not_pooled_with_the_rest(pack) -> None:
    """The pack's own images decide: an acorn drawn otherwise on one face (here its colours
    turned round where it differs from its blackberry twin) starts a group of its own."""
    faces = [f.image.copy() for f in pack.tiles]
    names = [f.tile for f in pack.tiles]
    odd = names.index("toad/acorn/oak")
    twin = names.index("toad/blackberry/oak")
    differ = np.abs(faces[odd].astype(int) - faces[twin].astype(int)).max(axis=2) > 40
    faces[odd][differ] = 255 - faces[odd][differ]
    groups = group_pairs(faces, names, _candidates(faces, [f.season for f in pack.tiles]))
    with_odd = [g for g in groups if odd in g.sides[0] + g.sides[1]]
    assert any(g.pairs == [(odd, twin)] for g in with_odd)
    # the odd acorn is an acorn of no other face's drawing: alone on its side
    assert all(g.sides[0] == [odd] for g in with_odd)
    # the other acorns are still pooled
    assert any(g.key == (1, "acorn", "blackberry") and len(g.pairs) == 3 for g in groups)


def test_the_pooled_judge_names_fresh_views_of_a_fruit_pair_never_tuned_on(
        pack, monkeypatch) -> None:
    """Learnt on the pack's pooled views, one discriminant per group: fresh views of both
    faces of each fruit pair of one creature and leaf, cut 0.7 px off their place, are
    each named right (nearer their own face's mean, in spreads)."""
    from companion.the_glade.recognition import lookalikes

    monkeypatch.setattr(lookalikes, "POOLED", True)  # off in enrolment (see its comment)
    tile_px = tile_side(pack.tile_size) * FINE
    tside = tile_px * TILE_INSET
    faces = [f.image for f in pack.tiles]
    names = [f.tile for f in pack.tiles]
    pairs = learn(faces, [f.season for f in pack.tiles], tile_px, tside, seed=3, board=BOARD,
                  names=names)
    # the pairs of one group share one discriminant
    weights = {}
    for k, (a, b) in enumerate(pairs.faces):
        key = tuple(sorted((_fruit(names[a]), _fruit(names[b]))))
        w = pairs.weights[pairs.offsets[k]:pairs.offsets[k + 1]]
        if key in weights:
            assert np.array_equal(weights[key], w)
        weights[key] = w
    rng = np.random.default_rng(77)
    named = []
    for k, (a, b) in enumerate(pairs.faces):
        if Tile.parse(names[a]).creature != "toad" or Tile.parse(names[a]).leaf != "oak":
            continue
        w = pairs.weights[pairs.offsets[k]:pairs.offsets[k + 1]]
        ma, sa, mb, sb = (float(v) for v in pairs.stats[k])
        for face, own in ((a, 0), (b, 1)):
            views = canvases(faces[face], tile_px, 6, rng, BOARD)
            for shift in ((0.7, 0.7), (-0.7, 0.7)):
                for patch in cut_views(views, tside, int(pairs.sides[k]), shift):
                    t = float(features(patch, pairs.boxes[k]) @ w)
                    named.append((abs(t - ma) / sa > abs(t - mb) / sb) == bool(own))
    assert len(named) == 6 * 2 * 2 * 6  # the 6 fruit pairs of toad/oak, both faces
    assert all(named), f"{named.count(False)} of {len(named)} views named wrong"
