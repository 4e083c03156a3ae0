"""The catalogue and the state file: counts, and refusals naming card and field."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from meadow_helpers import MINI, QUOTED, RULEBOOK

from companion.errors import StateError
from companion.meadow.catalogue import load_catalogue, parse_catalogue
from companion.meadow.rules import RULES
from companion.meadow.state_file import load_state, parse_state

SAMPLE_GAME = Path(__file__).resolve().parents[2] / "config/games/meadow/sample-game.json"


def test_sample_catalogue_counts() -> None:
    cat = load_catalogue()
    assert cat.sample
    base = [c for c in cat.cards.values() if c.envelope is None]
    for deck in "NWSE":
        assert sum(c.deck == deck for c in base) == 45
    assert len(cat.starting_cards()) == 4 and sum(c.starting for c in base) == 8
    assert len(base) == 180 + 8  # 4 decks of 45, 4 starting cards of 2 sides: 184 cards
    envelopes = {c.envelope for c in cat.cards.values() if c.envelope}
    assert envelopes == set("TUWXY")
    for e in envelopes:
        assert sum(c.envelope == e for c in cat.cards.values()) == 6
    assert any("encounter" in c.symbols for c in cat.cards.values() if c.envelope == "U")
    assert len([g for g in cat.goal_tokens if g.envelope is None]) == 11
    assert [g.symbol for g in cat.goal_tokens if g.envelope == "U"] == ["encounter"]
    assert {b.players: b.rounds for b in cat.campfire_boards.values()} == {1: 6, 2: 6, 3: 6,
                                                                          4: 8}
    ground_t = {c.ground for c in cat.cards.values() if c.envelope == "T" and c.ground}
    assert len(ground_t) <= 2


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["cards"][9].update(points="x"), "card OW: points"),
    (lambda d: d["cards"][9].update(requires=["<worm"]), "card OW: requires"),
    (lambda d: d["cards"][9].update(requires=["road"]), "card OW: requires"),
    (lambda d: d["cards"][9].update(symbols=["elf"]), "card OW: symbols"),
    (lambda d: d["cards"][4].update(ground="lava"), "card G1: ground"),
    (lambda d: d["cards"][20].update(requires=["bird"]), "card L1: requires"),
    (lambda d: d["cards"][22].update(requires=["discovery", "<bird>"]), "card D1: requires"),
    (lambda d: d["cards"][9].update(deck="Q"), "card OW: deck"),
    (lambda d: d["cards"].append(dict(d["cards"][9])), "card OW: id"),
    (lambda d: d["cards"][0].update(other_side="G1"), "card start-1a: other_side"),
    (lambda d: d["goal_tokens"].append({"id": "Gx", "symbol": "elf"}), "goal Gx: symbol"),
    (lambda d: d["campfire_boards"].pop(), "campfire_boards"),
])
def test_bad_catalogue_names_card_and_field(change, words) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(MINI)
    change(data)
    with pytest.raises(StateError) as info:
        parse_catalogue(data)
    assert words in str(info.value) and "\n" not in str(info.value)


def _sample() -> dict:  # type: ignore[type-arg]
    return json.loads(SAMPLE_GAME.read_text())


def test_sample_state_loads() -> None:
    state = load_state(SAMPLE_GAME)
    assert [p.name for p in state.players] == ["Ada", "Ben"]
    assert state.players[0].roads_used == 1


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d["players"][0]["hand"].append("ZZ9"), "unknown card"),
    (lambda d: d["players"][0]["hand"].append("N01"), "twice"),
    (lambda d: d["players"][1]["hand"].append("start-1b"), "twice"),
    (lambda d: d["players"][0]["meadow"].append(["S31"]), "starts with a ground card"),
    (lambda d: d["players"][0]["meadow"][1].append("N05"), "only observation cards"),
    (lambda d: d["players"][0].update(meadow=[[f"N0{i}"] for i in range(1, 9)]
                                      + [["W01"], ["W02"], ["W03"]]), "at most 10"),
    (lambda d: d["players"][0]["surroundings"].append({"landscape": "S31"}), "not a landscape"),
    (lambda d: d["players"][0].update(road_tokens={"unused": 1, "used": 0}), "used"),
    (lambda d: d["players"][0]["bonus"][0].update(value=3), "2, then 3"),
    (lambda d: d["players"][1].update(bonus=[{"value": 2, "goals": ["G3", "G7"]}]),
     "two bonus tokens"),
    (lambda d: d["players"][1].update(bonus=[{"value": 2, "goals": ["G3", "Q"]}]),
     "unknown goal"),
    (lambda d: d.update(game="the-glade"), "not meadow"),
])
def test_bad_state_file_refused(change, words) -> None:  # type: ignore[no-untyped-def]
    data = _sample()
    change(data)
    with pytest.raises(StateError) as info:
        parse_state(data, SAMPLE_GAME.parent)
    assert words in str(info.value) and "\n" not in str(info.value)


def test_encounter_card_cannot_be_covered_in_a_file() -> None:
    cat = load_catalogue()
    enc = next(c.id for c in cat.cards.values() if "encounter" in c.symbols)
    other = next(c.id for c in cat.cards.values() if c.type == "observation" and c.id != enc
                 and c.envelope is None)
    data = _sample()
    data["players"][0]["meadow"][1] += [enc, other]
    with pytest.raises(StateError, match="encounter"):
        parse_state(data, SAMPLE_GAME.parent)


def test_round_trip_through_json() -> None:
    state = RULES.new_game(["Ann"], None, {"seed": 9})
    assert RULES.load(json.loads(json.dumps(RULES.dump(state)))) == state


def test_rulebook_quotes_are_in_the_rulebook() -> None:
    """Every sentence a test quotes is the rulebook's own (when the rulebook is at hand)."""
    import test_meadow_game  # noqa: F401
    import test_meadow_requirements  # noqa: F401
    import test_meadow_rover  # noqa: F401
    import test_meadow_scoring  # noqa: F401

    if not RULEBOOK.is_file():
        pytest.skip("the shared rulebook is not beside the repository")
    text = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    missing = [q for q in QUOTED if " ".join(q.split()) not in text]
    assert not missing
    assert len(QUOTED) >= 40


def test_damaged_game_fields_are_one_line() -> None:
    data = RULES.dump(RULES.new_game(["Ann", "Ben"], None, {"seed": 2}))
    data["turn"]["player"] = "Nobody"
    with pytest.raises(StateError, match="game in progress"):
        RULES.load(data)
    data = RULES.dump(RULES.new_game(["Ann"], None, {"seed": 2}))
    data["rover"] = {"pile": 3}
    with pytest.raises(StateError):
        RULES.load(data)
