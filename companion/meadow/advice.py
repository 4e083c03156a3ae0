"""Advice and the simple bots: the best action now by a simple evaluation.

A card's value in play is its points, plus half a point for each symbol it opens (a quarter
more if a goal pair on the campfire wants it), less half a point for each symbol it covers and
one point for each card discarded. A path token is worth what it lets the player play (the
card it draws, or one already in hand), a goal it lets them claim, and a little for a card
drawn. The same evaluation answers ``a`` in ``companion play meadow`` and plays the bots'
seats (and the player's seat in the benchmark's 10,000 solo games).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from companion.meadow.actions import (
    Action,
    ChooseRow,
    ChooseSide,
    Claim,
    Done,
    Keep,
    Look,
    PlaceToken,
    Play,
    Take,
)
from companion.meadow.game import State
from companion.meadow.main_board import NOTCHES, spot_of
from companion.meadow.meadow import MAX_COLUMNS, PlayerArea, visible
from companion.meadow.requirements import (
    Place,
    _column_place_ok,
    _place_blockers,
    candidate_places,
    feasible,
    place_covers,
)


@dataclass(frozen=True)
class BestPlay:
    """The best way to play one card now: place, discards needed, value, and why."""

    card: str
    place: Place
    discards: int
    value: float
    why: str


def _goal_symbols(state: State) -> frozenset[str]:
    return frozenset(state.cat.goal(g).symbol for g in state.table.goals)


def best_play(state: State, area: PlayerArea, card_id: str,
              seen: Counter[str] | None = None, spare: int | None = None) -> BestPlay | None:
    """The best place for ``card_id`` with the fewest discards the rest of the hand allows
    (``spare``: the other cards in hand, when the card is not in it yet)."""
    cat = state.cat
    card = cat.cards[card_id]
    seen = visible(area, cat) if seen is None else seen
    if spare is None:
        spare = len(area.hand) - (1 if card_id in area.hand else 0)
    goals = _goal_symbols(state)
    best: BestPlay | None = None
    key = tuple(sorted(seen.items()))
    places = [p for p in candidate_places(area, card) if not _place_blockers(area, cat, card, p)]
    for k in range(min(spare // 2, len(card.requires)) + 1):
        kept_sets = feasible(card, key, k) if card.type != "ground" else ((),)
        if not kept_sets:
            continue
        for place in places:
            if card.type == "observation" and not any(
                    _column_place_ok(area, cat, place.column - 1, kept) for kept in kept_sets):
                continue
            covered = place_covers(area, cat, card, place)
            opens = [s for s in card.card_symbols if s not in covered]
            if card.type == "ground" and card.ground:
                opens.append(card.ground)
            value = card.points + 0.5 * len(opens) - 0.5 * len(
                [s for s in covered if s != "road"]) - 2 * k
            value += 0.25 * sum(1 for s in opens if s in goals)
            if card.type == "ground" and len(area.meadow) >= MAX_COLUMNS - 1:
                value -= 1
            why = f"{card.points} points"
            if opens:
                why += f", opens {', '.join(opens)}"
            if covered:
                why += f", covers {', '.join(covered)}"
            if k:
                why += f", discarding {2 * k}"
            if best is None or value > best.value:
                best = BestPlay(card_id, place, 2 * k, value, why)
        if best is not None:
            return best
    return best


def _cheapest(state: State, area: PlayerArea, card_id: str, n: int) -> tuple[str, ...]:
    """The ``n`` least valuable other cards of the hand (fewest points first)."""
    rest = sorted((c for c in area.hand if c != card_id),
                  key=lambda c: (state.cat.cards[c].points, c))
    return tuple(rest[:n])


def play_action(state: State, area: PlayerArea, bp: BestPlay) -> Play:
    return Play(bp.card, bp.place, _cheapest(state, area, bp.card, bp.discards))


def _hand_best(state: State, area: PlayerArea) -> list[BestPlay]:
    seen = visible(area, state.cat)
    plays = [best_play(state, area, c, seen) for c in area.hand]
    return sorted((p for p in plays if p is not None), key=lambda p: -p.value)


def _claim_value(state: State, seat: int) -> float:
    actions = state._claims() if state.turn.campfire else []
    area = state.players[seat]
    return float(area.next_bonus() or 0) if actions else 0.0


def _claimable_now(state: State, seat: int) -> bool:
    from companion.meadow.goals import claimable, claimed_pairs

    return bool(claimable(state.players[seat], state.cat, state.pairs(),
                          claimed_pairs(state.players)))


def rank(state: State, limit: int | None = None) -> list[tuple[float, Action, str]]:
    """The current player's actions worth considering, best first, as (value, action, why)."""
    seat = state.current_player()
    area = state.players[seat] if 0 <= seat < len(state.players) else None
    step = state.turn.step
    out: list[tuple[float, Action, str]] = []
    if area is None:
        return out
    if step == "row":
        for r in range(1, 5):
            cards = [state.board.card_at(f"r{r}c{c}") for c in range(1, 5)]
            pts = sum(state.cat.cards[c].points for c in cards if c)
            out.append((float(pts), ChooseRow(r), f"{pts} points in the row"))
    elif step == "side":
        for side in state.table.starts[seat]:
            trial = replace(area, meadow=((side,),))
            n = len(_hand_best(state, trial))
            out.append((float(n), ChooseSide(side), f"{n} cards in hand playable"))
    elif step == "place":
        out = _rank_placements(state, seat, area)
    elif step == "play":
        plays = _hand_best(state, area)
        for bp in plays:
            out.append((bp.value, play_action(state, area, bp),
                        f"{bp.card} {bp.place.words()}: {bp.why}"))
        out.append((0.0, Done(), "play nothing more"))
    elif step in ("pick", "keep"):
        cards = ([(s, state.board.card_at(s)) for s in
                  (a.spot for a in state.legal_actions() if isinstance(a, Take))]
                 if step == "pick" else [(c, c) for c in state.turn.looking])
        for key, card in cards:
            if card is None:
                continue
            trial = replace(area, hand=(*area.hand, card))
            bp = best_play(state, trial, card)
            value = bp.value if bp else state.cat.cards[card].points * 0.3
            action: Action = Take(key) if step == "pick" else Keep(card)
            out.append((value, action, f"{card}: " + (bp.why if bp else "not playable yet")))
    elif step == "look":
        for a in state.legal_actions():
            if isinstance(a, Look):
                out.append((float(len(state.board.deck(a.deck))) / 100, a, f"deck {a.deck}"))
    elif step == "claim":
        out.append((0.0, Done(), "end the turn"))
    for a in state.legal_actions() if state.turn.campfire and not state.turn.claimed else ():
        if isinstance(a, Claim):
            out.append((10.0 + (area.next_bonus() or 0), a,
                        f"bonus token {area.next_bonus()} on {a.goals[0]}+{a.goals[1]}"))
    out.sort(key=lambda t: -t[0])
    return out[:limit] if limit else out


def _rank_placements(state: State, seat: int, area: PlayerArea) -> list[tuple[float, Action,
                                                                              str]]:
    hand = _hand_best(state, area)
    seen = visible(area, state.cat)
    best_hand = hand[0].value if hand else 0.0
    two = sum(p.value for p in hand[:2] if p.value > 0)
    claim = float(area.next_bonus() or 0) if _claimable_now(state, seat) else 0.0
    card_value: dict[str | None, tuple[float, str]] = {None: (best_hand, "empty spot")}
    legal = state.legal_actions()
    out: list[tuple[float, Action, str]] = []
    for a in legal:
        if not isinstance(a, PlaceToken):
            continue
        penalty = 0.3 if a.token == "?" else 0.0
        if a.notch in NOTCHES:
            card = state.board.card_at(spot_of(a.notch, a.count or int(a.token)))
            if card not in card_value:
                bp = best_play(state, area, card, seen, len(area.hand)) if card else None
                value = max(best_hand, bp.value if bp else 0.0)
                card_value[card] = (value + 0.5, f"draw {card}" + (
                    f" and play it ({bp.why})" if bp and bp.value >= best_hand else ""))
            value, why = card_value[card]
            out.append((value - penalty, a, why))
        elif a.notch.startswith("bench"):
            out.append((best_hand - 0.7, a, "play a card from hand"))
        else:
            special = a.special or state.cat.path_actions[a.token]
            if special == "take-card":
                cards = [c for c in state.board.spots if c]
                top = max((state.cat.cards[c].points for c in cards), default=0)
                value, why = 0.3 * top + 0.4, "take the best card on the board"
            elif special == "take-roads":
                lands = any(state.cat.cards[c].type == "landscape" for c in area.hand)
                value = 1.2 if lands and area.roads_unused == 0 else 0.1
                why = "take 2 road tokens"
            elif special == "look-three":
                value, why = 0.6, "look at 3 cards and keep 1"
            else:
                value, why = two, "play two cards"
            if claim:
                value += claim
                why += f" and claim a goal ({int(claim)})"
            out.append((value - penalty, a, why))
    return out


class SimpleBot:
    """The simple policy: the best action by :func:`rank` (a legal one always)."""

    def choose(self, state: State, seat: int, rng: random.Random) -> Any:
        ranked = rank(state)
        if ranked:
            top = ranked[0][0]
            best = [a for v, a, _w in ranked if v >= top - 1e-9]
            choice = rng.choice(best)
            if state.rule(choice).legal:
                return choice
        return rng.choice(state.legal_actions())


class Advisor:
    """``a`` in the terminal game: the best actions now, with the reason for each."""

    def advise(self, state: State, seat: int, *, limit: int | None = 3,
               seconds: float | None = None) -> list[tuple[float, Action, str]]:
        return [t for t in rank(state, limit) if state.rule(t[1]).legal]


__all__ = ["Advisor", "BestPlay", "SimpleBot", "best_play", "play_action", "rank"]
