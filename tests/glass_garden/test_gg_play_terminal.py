"""The terminal game (``companion play glass-garden``), played from scripted input: the key
under the garden, the damage said at each turn's end, the compact options and the advice
after them, and what it refuses."""

from __future__ import annotations

import io
import re

import pytest

from companion.errors import CompanionError, StateError
from companion.glass_garden.actions import Done
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import GROW, State, Table
from companion.glass_garden.garden import Garden
from companion.glass_garden.jobs import damage_report, legend, menu, play

NAMES = tuple(p.name for p in load_deck().plants)


class Script(io.StringIO):
    """Answers in turn; ``done`` is answered with the number the latest options give it."""

    def __init__(self, answers: list[str], out: io.StringIO) -> None:
        super().__init__("\n".join(answers) + "\n")
        self.out = out

    def readline(self, *args: object) -> str:  # type: ignore[override]
        line = super().readline()
        if line.strip() != "done":
            return line
        options = self.out.getvalue().rsplit("Options:", 1)[-1]
        return re.findall(r"(\d+)\. done\b", options)[-1] + "\n"


def run(answers: list[str], seed: int = 3) -> str:
    out = io.StringIO()
    assert play(seed=seed, stdin=Script(answers, out), stdout=out, advice_seconds=0.2) == 0
    return out.getvalue()


def grid_symbols(picture: str) -> set[str]:
    """Every symbol a garden picture prints (row labels aside)."""
    return {token for line in picture.splitlines() for token in line.split()[1:]}


def explained(symbol: str, key: str) -> bool:
    if symbol.isalpha() and symbol != "CRIT":  # a plant, either side up
        return re.search(rf"\b{symbol.lower()} {symbol[:1].upper()}", key) is not None
    return re.search(rf"(^|\s){re.escape(symbol)}[\s:]", key) is not None


def test_the_key_explains_every_symbol_of_the_garden() -> None:
    deck = load_deck()
    # a garden with both sides of plants, all three rows, and both sides of glass
    garden = Garden.parse("a^ B- @ c_ D^ e- f- g- h-", glass=0b100101)
    picture = garden.picture(NAMES)
    key = legend(NAMES)
    assert {"CRIT", "..", "*", "#"} <= grid_symbols(picture)
    assert {s for s in grid_symbols(picture) if not explained(s, key)} == set()
    assert "UPPER CASE" in key and "lower case" in key
    assert all(p.name in key for p in deck.plants)
    assert max(len(line) for line in key.splitlines()) <= 100


def test_the_key_is_under_the_first_grid_and_the_last() -> None:
    text = run(["", "q"])
    grid_and_key = text.split("critter arrow right\n", 1)[1]
    picture = "\n".join(grid_and_key.splitlines()[:3])
    assert grid_and_key.splitlines()[3].startswith("Key:")
    key = grid_and_key.split("Options:", 1)[0]
    assert {s for s in grid_symbols(picture) if not explained(s, key)} == set()


def test_the_end_of_each_turn_says_what_the_critter_damaged() -> None:
    # seed 3, the Fly: turn 1 hits nothing left of column 1; on turn 2 (its left-arrow side)
    # it hits the closest plant on its right, Lithops, which moves from the middle row down
    text = run(["", "done", "done", "q"])
    assert "mid # alo  CRIT lit " in text  # turn 2's garden: Lithops right of the critter
    ends = re.findall(r"End of turn (\d+): the Fly damaged (.*); score (\d+)\.", text)
    assert ends == [("1", "nothing", "0"), ("2", "Lithops (middle -> bottom row)", "0")]
    assert text.index("End of turn 1") < text.index("Turn 2 - actions")


def test_the_damage_report_names_the_points_lost() -> None:
    deck = load_deck()
    fly = deck.critter("Fly")
    # the Fly's other side hits the closest plant on its right: the succulent B, top row
    garden = Garden.parse("a- @ B^ C^ d- e- f- g- h-", critter_side=1)
    before = State(Table(deck, fly), garden, 2, GROW, 0)
    after = before.apply(Done())
    line = damage_report(before, after)
    assert f"{deck.plants[1].name} (top -> middle row, -1 point)" in line
    assert deck.plants[2].name not in line
    assert line.startswith("End of turn 2: the Fly damaged") and line.endswith(
        f"score {after.score()}.")


def test_the_options_are_compact_and_the_advice_comes_after_them() -> None:
    text = run(["", "a", "q"])
    first = text.split("Options:\n", 1)[1].split("Choose", 1)[0]
    numbers = [int(n) for n in re.findall(r"(\d+)\. ", first)]
    assert sorted(numbers) == list(range(1, max(numbers) + 1))
    assert len(first.splitlines()) <= max(numbers) // 2  # columns, not one option a line
    assert max(len(line) for line in first.splitlines()) <= 100
    # the advice is the last thing before the next prompt: no menu printed over it
    advice = text.index("Best turn:")
    assert text.rfind("Options:") < advice
    assert "Options:" not in text[advice:]


def test_question_mark_shows_the_options_again() -> None:
    text = run(["", "?", "q"])
    assert text.count("Options:") == 2 and text.count("Key:") == 2


def test_menu_layout() -> None:
    assert menu([]) == "Options: none"
    assert menu(["done"]) == "Options:\n  1. done"
    lines = menu([f"option {i}" for i in range(1, 13)], width=60).splitlines()
    assert lines[1].split() == ["1.", "option", "1", "5.", "option", "5", "9.", "option", "9"]
    assert len(lines) == 5


@pytest.mark.parametrize("seed", [-1, -7, True])
def test_a_negative_seed_is_refused(seed: int) -> None:
    out = io.StringIO()
    with pytest.raises(StateError, match="--seed") as refused:
        play(seed=seed, stdin=io.StringIO("q\n"), stdout=out)
    assert isinstance(refused.value, CompanionError)
    assert "\n" not in str(refused.value) and out.getvalue() == ""


def test_odd_answers_are_asked_again_not_crashes() -> None:
    text = run(["7", "x", "", "\u00b2", "9" * 5000, "0", "q"])
    assert text.count("Please type a number from 1 to 4, press Enter") == 2  # the critter
    assert text.count("Please type a number from 1 to 45") == 3  # the options
    assert "Quit with score 0" in text
