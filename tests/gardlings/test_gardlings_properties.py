"""Properties (hypothesis) over gardens built from legal placements of the SAMPLE tiles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.gardlings.advice import gems_gained
from companion.gardlings.catalogue import sample_catalogue
from companion.gardlings.garden import Garden
from companion.gardlings.gems import complete_gems, count_gems, empty_joins, ponds
from companion.gardlings.missions import count_all
from companion.gardlings.placement import garden_breaches, legal_placements
from companion.gardlings.state_file import parse_garden

CATALOGUE = sample_catalogue()
TILES = sorted(t.id for t in CATALOGUE.tiles.values() if t.edges and not t.is_mission)
MISSIONS = sorted(t.id for t in CATALOGUE.missions)


@st.composite
def gardens(draw: st.DrawFn, most: int = 25) -> Garden:
    """A garden laid tile by tile, each at one of its legal placements (a mission first,
    sometimes)."""
    g = Garden(CATALOGUE)
    if draw(st.booleans()):
        g = legal_tile(draw, g, draw(st.sampled_from(MISSIONS)))
    order = draw(st.permutations(TILES))
    for tile in order[:draw(st.integers(1, most))]:
        g = legal_tile(draw, g, tile)
    return g


def legal_tile(draw: st.DrawFn, g: Garden, tile: str) -> Garden:
    options = legal_placements(g, CATALOGUE[tile])
    if not options:
        return g
    return g.with_tile(draw(st.sampled_from(options)))


def counts(g: Garden) -> tuple:
    mission = next((p.tile for p in g if CATALOGUE[p.tile].is_mission), None)
    return (count_gems(g), count_all(g, mission).mission, ponds(g), empty_joins(g),
            len(garden_breaches(g)))


@settings(max_examples=40, deadline=None)
@given(gardens(), st.integers(1, 3))
def test_turning_a_whole_garden_changes_no_count(g: Garden, turns: int) -> None:
    assert counts(g.turned_whole(turns)) == counts(g)


@settings(max_examples=40, deadline=None)
@given(gardens())
def test_a_garden_of_legal_placements_always_validates(g: Garden) -> None:
    assert garden_breaches(g) == []
    again = parse_garden([p.to_dict() for p in g], "garden", CATALOGUE)
    assert again == g


@settings(max_examples=40, deadline=None)
@given(gardens(), st.data())
def test_removing_a_tile_never_adds_a_complete_gem(g: Garden, data: st.DataObject) -> None:
    tile = data.draw(st.sampled_from([p.tile for p in g]))
    smaller = g.without(tile)
    before = {frozenset(gem.cells) for gem in complete_gems(g)}
    after = {frozenset(gem.cells) for gem in complete_gems(smaller)}
    assert after <= before
    assert count_gems(smaller).total <= count_gems(g).total


@settings(max_examples=30, deadline=None)
@given(gardens(most=15), st.sampled_from(TILES))
def test_what_a_placement_gains_is_the_change_of_the_count(g: Garden, tile: str) -> None:
    if tile in g.index:
        return
    mission = next((p.tile for p in g if CATALOGUE[p.tile].is_mission), None)
    for p in legal_placements(g, CATALOGUE[tile])[:10]:
        full = count_all(g.with_tile(p), mission).total - count_all(g, mission).total
        assert gems_gained(g, p, mission) == full
