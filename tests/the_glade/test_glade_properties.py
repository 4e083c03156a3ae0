"""Conformance: random legal games keep every promise of the rules and the state file."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.the_glade.coach import legal_placements
from companion.the_glade.names import Icon, Square
from companion.the_glade.playout import deal, play_turn, solo_deal
from companion.the_glade.rules import RULES
from companion.the_glade.scoring import score_game
from companion.the_glade.sets import is_set
from companion.the_glade.state_file import EXTRA_FIELDS, dump_state, load_state
from companion.the_glade.table import GameState

PLAYERS = [("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Di", "white")]
ICONS = {Square.parse(k): Icon.parse(v) for k, v in {
    "A1": "beech", "G1": "horse-chestnut", "A7": "maple", "G7": "oak", "B2": "mouse/oak",
    "D2": "acorn/beech", "F2": "toad/maple", "B4": "hazelnut/oak", "F4": "squirrel/beech",
    "B6": "mushroom/maple", "D6": "hedgehog/horse-chestnut", "F6": "blackberry/oak"}.items()}


def check_invariants(state: GameState) -> None:
    for p in state.players:
        assert state.colour_total(p.colour) == 12, p.colour
        f = p.forest
        assert not set(f.tiles) & set(f.counters), "two things on one square"
        for sq in f.counters:
            assert f.is_enclosure(sq)
        for _axis, run in f.lines():
            assert is_set([f.tiles[s] for s in run])
        if f.tiles:
            assert f.geometry.centre in f.tiles
    if state.neutral is not None:
        assert state.colour_total(state.neutral) + state.boxed == 12
    again = RULES.load(json.loads(json.dumps(RULES.dump(state))))
    assert again == state
    assert score_game(again) == score_game(state)
    # the state file reader takes the engine's fields too; the spec's fields alone keep
    # everything but the known bag
    dumped = json.loads(json.dumps(dump_state(state)))
    assert load_state(dumped) == state
    spec_only = load_state({k: v for k, v in dumped.items() if k not in EXTRA_FIELDS})
    assert spec_only == replace(state, bag_tiles=None, to_draw=0)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 4), st.sampled_from(["basic", "matching"]),
       st.floats(0, 1))
def test_random_legal_games_keep_the_rules(seed: int, n: int, variant: str, greed: float
                                           ) -> None:
    rng = random.Random(seed)
    icons = {name: ICONS for name, _c in PLAYERS[:n]} if variant == "matching" else None
    game, bag = deal(PLAYERS[:n], rng, variant=variant, icons=icons)
    for _ in range(10 * n):
        if game.finished:
            break
        play_turn(game, bag, rng, greed)
        check_invariants(game.state)
        assert game.state.bag == len(bag)


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 2**32))
def test_random_solo_games_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    game, bag = solo_deal("Sol", "yellow", "grey", rng)
    for _ in range(25):
        if game.finished:
            break
        play_turn(game, bag, rng, 0.8)
        check_invariants(game.state)
    assert game.state.player("Sol").turns >= 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)),
                                       min_size=1, max_size=4, unique=True))
def test_the_tracker_applies_exactly_what_the_arbiter_allows(seed: int, cells: list) -> None:
    from companion.the_glade.names import ALL_TILES
    from companion.the_glade.placement import rule_placement
    from companion.the_glade.table import IllegalAction

    rng = random.Random(seed)
    game, bag = deal(PLAYERS[:2], rng)
    for _ in range(rng.randrange(0, 6)):
        play_turn(game, bag, rng, 0.5)
    if game.finished:
        return
    me = game.state.player(game.current)
    placed = {Square(r, c): rng.choice(list(me.rack or ()) or list(ALL_TILES)) for r, c in cells}
    options = legal_placements(me.forest, list(me.rack or ()))
    if options and rng.random() < 0.5:
        placed = rng.choice(options)
    before = game.state
    ruling = rule_placement(me.forest, placed, me.rack)
    if ruling.legal:
        game.place(placed)
        assert game.state.player(me.name).forest.tiles.items() >= placed.items()
    else:
        try:
            game.place(placed)
        except IllegalAction as exc:
            assert all(v.message in str(exc) for v in ruling.violations)
        else:
            raise AssertionError("an illegal placement was applied")
        assert game.state == before
