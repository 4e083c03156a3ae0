"""``companion play meadow``: a scripted game to the end, advice, odd answers, quitting."""

from __future__ import annotations

import io

import pytest

from companion.errors import StateError
from companion.meadow.advice import Advisor, SimpleBot
from companion.meadow.rules import RULES
from companion.meadow.terminal import play


def test_solo_game_to_the_end_with_advice_and_odd_answers() -> None:
    answers = io.StringIO("a\nzz\n99\n?\n" + "1\n" * 600)
    out = io.StringIO()
    assert play(seed=2, players=1, stdin=answers, stdout=out) == 0
    text = out.getvalue()
    assert "advice:" in text and "Please type a number" in text
    assert "Game over." in text and "Rover " in text


def test_bots_game_and_quit() -> None:
    out = io.StringIO()
    assert play(seed=1, players=3, stdin=io.StringIO("1\n1\n1\nq\n"), stdout=out) == 0
    assert "Quit with" in out.getvalue() and "Bot 1:" in out.getvalue()


def test_negative_seed_refused() -> None:
    with pytest.raises(StateError):
        play(seed=-1, stdin=io.StringIO(""), stdout=io.StringIO())


def test_advice_and_bot_choose_legal_actions() -> None:
    import random

    state = RULES.new_game(["Ann", "Ben"], None, {"seed": 4})
    bot, rng = SimpleBot(), random.Random(4)
    for _ in range(80):
        if state.is_terminal():
            break
        for _v, action, why in Advisor().advise(state, state.current_player()):
            assert state.rule(action).legal and why
        action = bot.choose(state, state.current_player(), rng)
        assert state.rule(action).legal
        state = state.apply(action)
