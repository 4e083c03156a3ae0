"""The whole game: preparation, the main board, path tokens, the campfire, rounds, the end."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from meadow_helpers import quote

from companion.games.interface import TERMINAL, IllegalAction
from companion.meadow.actions import (
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
from companion.meadow.game import State, Turn
from companion.meadow.main_board import SPOTS, spot_of
from companion.meadow.meadow import Bonus, PlayerArea
from companion.meadow.requirements import Place
from companion.meadow.rules import RULES


def started(n: int = 2, seed: int = 3, variant: str | None = None) -> State:
    """A game past player preparation (each takes row 1.. and side a)."""
    s = RULES.new_game(["Ann", "Ben", "Cat", "Dan"][:n], variant, {"seed": seed})
    while s.turn.step in ("row", "side"):
        s = s.apply(s.legal_actions()[0])
    return s


def play_out(s: State, rng: random.Random, stop: object = None) -> State:
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    return s


@quote("beginning with the player to the right of the starting player and going "
       "counter-clockwise, each player chooses a row on the main board and adds all 4 of the "
       "cards in that row to their hand.")
def test_rows_chosen_counter_clockwise() -> None:
    s = RULES.new_game(["Ann", "Ben", "Cat"], None, {"seed": 1})
    assert s.turn.step == "row" and s.turn.order == (2, 1, 0)
    row = [s.board.card_at(f"r2c{c}") for c in range(1, 5)]
    n_top = s.board.deck("N")[0]
    s2 = s.apply(ChooseRow(2))
    assert s2.players[2].hand == (*row, n_top)
    assert all(s2.board.card_at(f"r2c{c}") for c in range(1, 5))
    assert s2.current_player() == 1


@quote("Thus, deal each player: 1 W card, 2 S cards, 1 E card, and 1 N card.")
def test_first_game_deals_w_s_s_e_n() -> None:
    s = RULES.new_game(["Ann", "Ben"], "first-game", {"seed": 2})
    assert s.turn.step == "side"
    decks = [s.cat.cards[c].deck for c in s.players[0].hand]
    assert sorted(decks) == sorted(["W", "S", "S", "E", "N"])


@quote("Before the 1st round, but after taking the card rows, each player chooses a side of "
       "their starting ground card and places the card in their meadow area – with the chosen "
       "side face up – as their first card.")
def test_starting_side() -> None:
    s = RULES.new_game(["Ann", "Ben"], "first-game", {"seed": 2})
    sides = s.legal_actions()
    assert len(sides) == 2 and all(isinstance(a, ChooseSide) for a in sides)
    s = s.apply(sides[1])
    assert s.players[0].meadow == ((sides[1].card,),)


@quote("The left column will have 4 W cards, the next two columns have 4 S cards each, and "
       "the final column will have 4 E cards.")
def test_board_columns_w_s_s_e() -> None:
    s = RULES.new_game(["Ann", "Ben"], None, {"seed": 5})
    for spot in SPOTS:
        want = "WSSE"[int(spot[3]) - 1]
        assert s.cat.cards[s.board.card_at(spot)].deck == want


@quote("Count a number of spaces from the token equal to the number shown, in the direction "
       "it is pointing.")
def test_draw_by_count_and_direction() -> None:
    s = started()
    for notch, count, spot in (("L2", 3, "r2c3"), ("R2", 1, "r2c4"), ("B1", 2, "r3c1")):
        assert spot_of(notch, count) == spot
    token = "3"
    card = s.board.card_at("r2c3")
    after = s.apply(PlaceToken(token, "L2"))
    assert card in after.players[s.turn.seat].hand
    assert after.board.card_at("r2c3") not in (None, card)


@quote("The ? is any number 1–4 of your choosing.")
def test_question_token_any_count() -> None:
    s = started()
    counts = {a.count for a in s.legal_actions()
              if isinstance(a, PlaceToken) and a.token == "?" and a.notch == "L1"}
    assert counts == {1, 2, 3, 4}


@quote("In the rare case that an empty spot cannot be refilled because there are no cards "
       "left in the deck, it should be left empty.")
def test_empty_spot_left_empty_then_only_play() -> None:
    s = started()
    board = replace(s.board, decks=tuple(() if i == 1 else d
                                         for i, d in enumerate(s.board.decks)))
    s = replace(s, board=board)  # the W deck has run out
    s = s.apply(PlaceToken("1", "L1"))
    assert s.board.card_at("r1c1") is None
    s = s.apply(Done())
    seat = s.turn.seat
    before = s.players[seat].hand
    t = s.apply(PlaceToken("?", "B1", count=4))  # points at r1c1, empty
    assert t.players[seat].hand == before
    assert t.turn.step == "play" and t.turn.plays_left == 1


@quote("You can place your token only in an unoccupied notch.")
def test_unoccupied_notch() -> None:
    s = started()
    s = s.apply(PlaceToken("1", "L1")).apply(Done())
    assert s.rule(PlaceToken("1", "L1")).codes == ("notch-taken",)
    with pytest.raises(IllegalAction) as info:
        s.apply(PlaceToken("1", "L1"))
    assert info.value.code == "notch-taken"


@quote("Take 2 road tokens and place them in your surroundings area with the road symbol "
       "facing up. You cannot play a card this turn.")
def test_take_roads() -> None:
    s = started()
    seat = s.turn.seat
    before = s.players[seat].roads_unused
    after = s.apply(PlaceToken("2", "C1"))
    assert after.players[seat].roads_unused == before + 2
    assert not any(isinstance(a, Play) for a in after.legal_actions())


@quote("If you chose one of the first 3 special actions, you cannot play any cards!")
def test_no_play_after_first_three_specials() -> None:
    s = started()
    for action in (PlaceToken("1", "C1"), PlaceToken("3", "C1"), PlaceToken("2", "C1")):
        t = s.apply(action)
        while t.turn.seat == s.turn.seat and not t.is_terminal() and t.turn.step != "place":
            assert not any(isinstance(a, Play) for a in t.legal_actions())
            assert t.rule(Play("x", Place.on_column(1))).codes == ("no-play-left",)
            t = t.apply(t.legal_actions()[0])


@quote("Take any face-up card from the main board and refill the empty spot with the top card "
       "of the corresponding deck.")
def test_take_any_face_up_card() -> None:
    s = started().apply(PlaceToken("1", "C1"))
    assert s.turn.step == "pick"
    assert {a.spot for a in s.legal_actions() if isinstance(a, Take)} == set(SPOTS)
    card = s.board.card_at("r4c4")
    seat = s.turn.seat
    t = s.apply(Take("r4c4"))
    assert card in t.players[seat].hand and t.board.card_at("r4c4") != card


@quote("Look at the top 3 cards of one deck on the board (not the unused one).")
def test_look_three_not_the_unused_deck() -> None:
    s = started().apply(PlaceToken("3", "C1"))
    assert {a.deck for a in s.legal_actions() if isinstance(a, Look)} == {"W", "S", "E"}
    top = s.board.deck("S")[:3]
    t = s.apply(Look("S"))
    assert t.turn.looking == top
    u = t.apply(Keep(top[1]))
    assert top[1] in u.players[s.turn.seat].hand
    assert u.board.deck("S")[-2:] == (top[0], top[2])


@quote("Play up to 2 cards from your hand into your meadow and/or surroundings area.")
def test_play_two() -> None:
    s = started().apply(PlaceToken("4", "C1"))
    assert s.turn.step == "play" and s.turn.plays_left == 2


@quote("Doing this allows you to play 1 card in your meadow or surroundings area.")
def test_bench_plays_one() -> None:
    s = started().apply(PlaceToken("1", "bench1"))
    assert s.turn.step == "play" and s.turn.plays_left == 1 and not s.turn.campfire


@quote("Placing this token in a campfire board notch allows you to take any special action.")
def test_question_token_any_special() -> None:
    s = started()
    specials = {a.special for a in s.legal_actions()
                if isinstance(a, PlaceToken) and a.token == "?" and a.notch == "C1"}
    assert specials == {"take-card", "take-roads", "look-three", "play-two"}


@quote("When playing a 2-player game, block 2 notches of the campfire board with the block "
       "tokens.")
def test_blocked_notches() -> None:
    s = started()
    notches = {a.notch for a in s.legal_actions() if isinstance(a, PlaceToken)}
    assert {"C1", "C2", "C3", "C4"} <= notches and not {"C5", "C6"} & notches
    assert s.rule(PlaceToken("1", "C6")).codes == ("notch-taken",)


def _claim_ready(s: State) -> State:
    """Ann's meadow shows worm and bird (goal pair Gw/Gb of the sample? any first pair)."""
    pair = s.pairs()[0]
    symbols = [s.cat.goal(g).symbol for g in pair]
    cards = []
    for sym in symbols:
        ground = next(c.id for c in s.cat.cards.values() if c.type == "ground"
                      and (c.ground == sym or sym in c.symbols) and c.id not in cards
                      and not c.starting and c.envelope is None)
        cards.append(ground)
    area = replace(s.players[s.turn.seat], meadow=tuple((c,) for c in cards))
    return replace(s, players=tuple(area if i == s.turn.seat else p
                                    for i, p in enumerate(s.players)))


@quote("If you have both symbols of the pair visible in your meadow area, you may claim the "
       "space between the pair with one of your bonus tokens.")
def test_claim_goal_pair() -> None:
    s = _claim_ready(started())
    pair = s.pairs()[0]
    t = s.apply(PlaceToken("2", "C1"))
    assert Claim(pair) in t.legal_actions()
    u = t.apply(Claim(pair))
    seat = s.turn.seat
    assert u.players[seat].bonus == (Bonus(2, pair),)


@quote("You may only claim it after placing a path token in the notch of the campfire board.")
def test_claim_only_after_campfire_notch() -> None:
    s = _claim_ready(started())
    t = s.apply(PlaceToken("1", "L1"))
    assert not any(isinstance(a, Claim) for a in t.legal_actions())
    assert t.rule(Claim(s.pairs()[0])).codes == ("claimed",)
    b = s.apply(PlaceToken("1", "bench1"))
    assert b.rule(Claim(s.pairs()[0])).codes == ("claimed",)


@quote("Your bonus tokens are placed on the board starting with the lowest valued ones (in "
       "the order 2, 3, 4).")
def test_bonus_order() -> None:
    area = PlayerArea("A", bonus=(Bonus(2, ("a", "b")),))
    assert area.next_bonus() == 3
    assert replace(area, bonus=(*area.bonus, Bonus(3, ("c", "d")),
                                Bonus(4, ("e", "f")))).next_bonus() is None


@quote("Only 1 bonus token can be placed between each pair.")
def test_one_token_per_pair() -> None:
    s = _claim_ready(started())
    pair = s.pairs()[0]
    other = (s.turn.seat + 1) % 2
    ps = list(s.players)
    ps[other] = replace(ps[other], bonus=(Bonus(2, pair),))
    s = replace(s, players=tuple(ps)).apply(PlaceToken("4", "C1"))
    assert s.rule(Claim(pair)).codes == ("goal-taken",)


@quote("During your turn, you can place only 1 bonus token on the campfire board even if you "
       "have more symbols that fulfil several goals.")
def test_one_bonus_a_turn() -> None:
    s = _claim_ready(started()).apply(PlaceToken("4", "C1"))
    pair = s.pairs()[0]
    t = s.apply(Claim(pair))
    assert t.rule(Claim(s.pairs()[1])).codes in (("claimed",),)


@quote("When taking the special action with the number 4 or ? path token (if ? copies the "
       "action of the number 4 token), you can place the bonus token before or after playing "
       "your first or second card.")
def test_claim_between_plays() -> None:
    s = _claim_ready(started()).apply(PlaceToken("4", "C1"))
    pair = s.pairs()[0]
    assert Claim(pair) in s.legal_actions()
    plays = [a for a in s.legal_actions() if isinstance(a, Play)]
    if plays:
        t = s.apply(plays[0])
        assert t.turn.plays_left == 1


@quote("The round lasts until all players have used all of their path tokens.")
def test_round_ends_when_tokens_are_used() -> None:
    s = started()
    rng = random.Random(0)
    while s.round == 1:
        s = s.apply(rng.choice(s.legal_actions()))
    assert s.round == 2 and not s.notches
    assert all(t == ("1", "2", "3", "4", "?") for t in s.tokens)


@quote("The player that started the round passes the first player token to the player on "
       "their left.")
def test_first_player_moves_left() -> None:
    s = started(3)
    assert s.first == 0
    rng = random.Random(1)
    while s.round == 1:
        s = s.apply(rng.choice(s.legal_actions()))
    assert s.first == 1 and s.current_player() == 1


@pytest.mark.parametrize(("players", "rounds"), [(2, 6), (3, 6), (4, 8)])
def test_rounds_by_player_count(players: int, rounds: int) -> None:
    """Rulebook: The game consists of 6 rounds in a 2- and 3-player game, or 8 rounds in a
    4-player game."""
    s = started(players)
    assert s.rounds == rounds
    assert s.tokens[0] == (("1", "2", "3", "4") if players == 4 else ("1", "2", "3", "4", "?"))
    end = play_out(s, random.Random(players))
    assert end.round == rounds and end.current_player() == TERMINAL


@quote("Replace the S deck holder with the N deck holder.")
def test_halfway_point() -> None:
    s = started()
    rng = random.Random(2)
    while s.round <= 3:
        s = s.apply(rng.choice(s.legal_actions()))
    assert s.board.late and s.board.columns == ("W", "N", "N", "E")
    for spot in SPOTS:
        card = s.board.card_at(spot)
        if card and spot[3] in "23":
            assert s.cat.cards[card].deck == "N"


def test_discards_go_to_deck_bottoms() -> None:
    """Rulebook: Place the discarded cards in any order on the bottom of the corresponding
    decks."""
    s = started()
    for _ in range(40):
        plays = [a for a in s.legal_actions() if isinstance(a, Play) and a.discards]
        if plays:
            break
        s = s.apply(random.Random(len(s.notches)).choice(s.legal_actions()))
    else:
        pytest.skip("no play with discards came up")
    play = plays[0]
    t = s.apply(play)
    for d in play.discards:
        assert t.board.deck(s.cat.cards[d].deck)[-2:].count(d) == 1


def test_listed_plays_use_the_fewest_discards() -> None:
    """The engine lists each place's plays with its fewest discards, and refuses more."""
    s = started().apply(PlaceToken("4", "C1"))
    for play in [a for a in s.legal_actions() if isinstance(a, Play)][:20]:
        assert s.rule(play).legal
        rest = [c for c in s.players[s.turn.seat].hand
                if c != play.card and c not in play.discards]
        if len(rest) >= 2:
            more = Play(play.card, play.place, (*play.discards, rest[0], rest[1]))
            assert s.rule(more).codes == ("discards",)


def test_turn_steps_and_nonsense_codes() -> None:
    s = started()
    assert s.rule("hello").codes == ("not-an-action",)
    assert s.rule(Keep("x")).codes == ("not-now",)
    assert s.rule(PlaceToken("7", "L1")).codes == ("no-token",)
    over = replace(s, turn=Turn("over"))
    assert over.rule(Done()).codes == ("game-over",) and over.legal_actions() == []


@quote("You can freely mix them with the base cards by shuffling them into their "
       "corresponding decks.")
def test_envelopes_mixed_into_their_decks() -> None:
    s = RULES.new_game(["Ann", "Ben"], None, {"seed": 1, "envelopes": ["U", "t"]})
    cards = [c for d in "NWSE" for c in s.board.deck(d)] + [c for c in s.board.spots if c]
    envs = {s.cat.cards[c].envelope for c in cards}
    assert envs == {None, "T", "U"}
    plain = RULES.new_game(["Ann", "Ben"], None, {"seed": 1})
    assert not any(plain.cat.cards[c].envelope for d in "NWSE" for c in plain.board.deck(d))


@quote("The punch board includes a red token with this symbol; if you use cards from this "
       "envelope, add this token to the other basic goal tokens.")
def test_big_encounters_goal_token() -> None:
    seen = set()
    for seed in range(30):
        s = RULES.new_game(["Ann", "Ben", "Cat", "Dan"], None,
                           {"seed": seed, "envelopes": ["U"]})
        seen.update(s.table.goals)
        plain = RULES.new_game(["Ann", "Ben", "Cat", "Dan"], None, {"seed": seed})
        assert "GU" not in plain.table.goals
    assert "GU" in seen


@quote("Players take their turns in clockwise order, starting with the first player.")
def test_turns_clockwise() -> None:
    s = started(3)
    order = []
    while len(order) < 6:
        if s.turn.step == "place":
            order.append(s.turn.seat)
            s = s.apply(next(a for a in s.legal_actions() if isinstance(a, PlaceToken)))
        else:
            s = s.apply(s.legal_actions()[-1])
    assert order == [0, 1, 2, 0, 1, 2]


@quote("You cannot move played cards (of any type) – they must stay where played until the "
       "end of the game.")
def test_played_cards_never_move() -> None:
    s = started(2, seed=8)
    rng = random.Random(8)
    while not s.is_terminal():
        t = s.apply(rng.choice(s.legal_actions()))
        for old, new in zip(s.players, t.players, strict=True):
            cols = [c for c in new.meadow if c[0] in {o[0] for o in old.meadow}]
            assert len(cols) == len(old.meadow)
            for before, after in zip(old.meadow, cols, strict=True):
                assert after[:len(before)] == before
            assert [x.card for x in new.surroundings][:len(old.surroundings)] == \
                [x.card for x in old.surroundings]
            for a, b in zip(old.surroundings, new.surroundings, strict=False):
                assert a.discovery is None or a.discovery == b.discovery
        s = t
