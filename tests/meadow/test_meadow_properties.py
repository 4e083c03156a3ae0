"""Hypothesis properties of the meadow: covering, visible symbols, and the score."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.meadow.catalogue import load_catalogue
from companion.meadow.meadow import PlayerArea, visible
from companion.meadow.requirements import (
    candidate_places,
    fewest_discards,
    place_covers,
    play_card,
    works,
)
from companion.meadow.scoring import area_score

CAT = load_catalogue()
PLAYABLE = sorted(c.id for c in CAT.cards.values() if not c.starting)
STARTS = sorted(c.id for c in CAT.cards.values() if c.starting)


def options(area: PlayerArea) -> list[tuple[str, object, tuple[str, ...]]]:
    """Every (card, place, discards) legal now with the fewest discards (first ones in hand)."""
    out = []
    for card_id in area.hand:
        card = CAT.cards[card_id]
        rest = [c for c in area.hand if c != card_id]
        fewest = fewest_discards(area, CAT, card, len(rest))
        if fewest is None:
            continue
        for place in candidate_places(area, card):
            if works(area, CAT, card, place, fewest // 2):
                out.append((card_id, place, tuple(rest[:fewest])))
    return out


@st.composite
def games(draw: st.DrawFn) -> list[tuple[PlayerArea, PlayerArea, tuple[str, ...], str]]:
    """A run of legal plays: (before, after, covers, card) for each."""
    start = draw(st.sampled_from(STARTS))
    hand = draw(st.lists(st.sampled_from(PLAYABLE), min_size=6, max_size=30, unique=True))
    area = PlayerArea("P", ((start,),), roads_unused=draw(st.integers(0, 3)), hand=tuple(hand))
    steps = []
    for _ in range(draw(st.integers(1, 25))):
        legal = options(area)
        if not legal:
            break
        card, place, discards = draw(st.sampled_from(legal))
        covered = place_covers(area, CAT, CAT.cards[card], place)  # type: ignore[arg-type]
        after = play_card(area, CAT, card, place, discards)  # type: ignore[arg-type]
        steps.append((area, after, covered, card))
        area = after
    return steps


@settings(max_examples=60, deadline=None)
@given(games())
def test_a_covered_symbol_is_never_visible_again(steps) -> None:  # type: ignore[no-untyped-def]
    covered_cards: set[str] = set()
    for _before, after, _c, _card in steps:
        tops = {col[-1] for col in after.meadow}
        now_covered = {c for col in after.meadow for c in col[1:-1]} | {
            col[0] for col in after.meadow if len(col) > 1}
        assert covered_cards <= now_covered
        covered_cards = now_covered
        assert not covered_cards & tops
        shown: Counter[str] = Counter()
        for col in after.meadow:
            shown[CAT.cards[col[0]].ground] += 1
            shown.update(CAT.cards[col[-1]].card_symbols)
        assert visible(after, CAT) == shown


@settings(max_examples=60, deadline=None)
@given(games())
def test_visible_changes_only_by_grants_and_covers(steps) -> None:  # type: ignore[no-untyped-def]
    for before, after, covered, card_id in steps:
        card = CAT.cards[card_id]
        expect = visible(before, CAT)
        if card.type in ("ground", "observation"):
            expect.subtract(Counter(s for s in covered))
            expect.update(card.card_symbols)
            if card.type == "ground":
                expect[card.ground or ""] += 1
        expect = +expect
        assert visible(after, CAT) == expect


@settings(max_examples=60, deadline=None)
@given(games())
def test_score_is_played_points_plus_bonus(steps) -> None:  # type: ignore[no-untyped-def]
    if not steps:
        return
    final = steps[-1][1]
    played = [c for col in final.meadow for c in col] + [
        c for land in final.surroundings for c in (land.card, land.discovery) if c]
    total = sum(CAT.cards[c].points for c in played) + sum(b.value for b in final.bonus)
    assert area_score(final, CAT)["total"] == total
    assert len(played) == len(set(played)) == 1 + len(steps)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10 ** 6), st.integers(1, 2))
def test_game_score_is_played_points_plus_bonus_tokens(seed: int, players: int) -> None:
    """Whole random games: each seat's total is its played cards' points plus bonus tokens."""
    import random

    from companion.meadow.rules import RULES

    rng = random.Random(seed)
    state = RULES.new_game(["Ann", "Ben"][:players], None, {"seed": seed})
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    sheet = state.score_sheet()
    for area, seat in zip(state.players, sheet.players, strict=True):
        points = sum(CAT.cards[c].points for c in area.played())
        assert seat.total == points + sum(b.value for b in area.bonus)
