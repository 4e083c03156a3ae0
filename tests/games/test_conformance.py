"""The conformance test: every registered game keeps the interface's promises.

Seeded random playouts from ``new_game`` to the end, over every game the registry holds (a
game registered without rules yet is reported as skipped, by name). At every step:

* ``current_player`` is a seat, CHANCE, SIMULTANEOUS or TERMINAL, and only TERMINAL has no
  legal actions;
* every listed action rules legal, and ``apply`` takes the one chosen without raising;
* the state survives ``dump``/``load`` through JSON unchanged;
* an action that is not legal now (one that was legal earlier, or nonsense) is refused by
  ``rule`` and by ``apply`` with codes from the game's own ``violation_codes``;
* ``score_sheet`` names every seat, and the winners are seats.
"""

from __future__ import annotations

import doctest
import json
import random
from collections.abc import Hashable
from typing import Any

import pytest

import companion.games.interface
import companion.games.score
from companion.games import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    IllegalAction,
    ScoreSheet,
    all_games,
)
from companion.games.interface import sample_chance

GAMES = all_games()
NAMES = ("Ann", "Ben", "Cat", "Dan")
#: steps before a playout is cut short (a game that never ends is caught by its own test)
MAX_STEPS = 3000
#: legal actions ruled on per state (all of them when there are fewer)
RULED_PER_STATE = 40


def _rules(game: Any) -> Any:
    rules = game.load_rules()
    if rules is None:
        pytest.skip(f"{game.title} has no rules registered yet")
    return rules


def _seat_counts(game: Any) -> list[int]:
    return sorted({game.min_players, game.max_players})


def _cases() -> list[Any]:
    return [pytest.param(g, n, seed, id=f"{g.name}-{n}p-seed{seed}")
            for g in GAMES for n in _seat_counts(g) for seed in (0, 1)]


def _round_trip(rules: Any, state: Any) -> None:
    data = json.loads(json.dumps(rules.dump(state)))
    again = rules.load(data)
    assert again == state, f"dump/load changed the state: {data}"
    assert rules.dump(again) == data


def _refused(rules: Any, state: Any, action: Any) -> None:
    ruling = state.rule(action)
    assert not ruling.legal, f"{action!r} ruled legal but is not listed"
    assert ruling.codes and set(ruling.codes) <= rules.violation_codes, ruling.codes
    with pytest.raises(IllegalAction) as info:
        state.apply(action)
    assert info.value.code in rules.violation_codes


class _Nonsense:
    """An action of no game at all."""

    def __repr__(self) -> str:
        return "Nonsense()"


@pytest.mark.parametrize(("game", "seats", "seed"), _cases())
def test_random_playout_keeps_every_promise(game: Any, seats: int, seed: int) -> None:
    rules = _rules(game)
    names = list(NAMES[:seats])
    rng = random.Random(seed)
    state = rules.new_game(names, None, {"seed": seed})
    seen: list[Hashable] = []
    for _step in range(MAX_STEPS):
        _round_trip(rules, state)
        player = state.current_player()
        actions = list(state.legal_actions())
        if state.is_terminal():
            assert player == TERMINAL and not actions
            break
        assert player in (CHANCE, SIMULTANEOUS) or 0 <= player < seats, player
        assert actions, f"no legal action in a state that is not over: {state}"
        assert len(set(actions)) == len(actions), "an action is listed twice"
        for action in rng.sample(actions, min(len(actions), RULED_PER_STATE)):
            assert state.rule(action).legal, f"listed action {action!r} ruled illegal"
        stale = [a for a in seen[-50:] if a not in actions]
        if stale:
            _refused(rules, state, rng.choice(stale))
        if player == CHANCE:
            action = sample_chance(state, rng)
            assert action in actions
        else:
            action = rng.choice(actions)
        seen.append(action)
        state = state.apply(action)
    else:
        pytest.fail(f"not over after {MAX_STEPS} steps")
    _refused(rules, state, _Nonsense())
    if seen:
        _refused(rules, state, seen[-1])
    sheet = state.score_sheet()
    assert isinstance(sheet, ScoreSheet) and sheet.final
    assert [p.name for p in sheet.players] == names
    assert set(sheet.winners) <= set(names) and sheet.winners
    for p in sheet.players:
        assert p.total == sum(line.points for line in p.lines) or not p.lines


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_nonsense_is_refused_at_the_start(game: Any) -> None:
    rules = _rules(game)
    state = rules.new_game(list(NAMES[:game.min_players]), None, {"seed": 3})
    _refused(rules, state, _Nonsense())
    sheet = state.score_sheet()
    assert [p.name for p in sheet.players] == list(NAMES[:game.min_players])


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_rules_record(game: Any) -> None:
    rules = _rules(game)
    assert rules.name == game.name
    assert rules.variants and all(isinstance(v, str) for v in rules.variants)
    assert rules.violation_codes and all(c == c.lower() and " " not in c
                                         for c in rules.violation_codes)


@pytest.mark.parametrize("module", [companion.games.interface, companion.games.score])
def test_doctests(module: Any) -> None:
    result = doctest.testmod(module)
    assert result.failed == 0
