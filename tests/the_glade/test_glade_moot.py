"""Moot doubts (``companion.the_glade.moot``): forest squares in doubt whose tile, or none,
changes no score, so the table can score the game without the players putting them right.
Each case is the bundled finished game (3 players) with readings made doubts as the forest
scan reports them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_glade_deduction import LIZ, doubt_square, truth
from test_glade_photo_game import CONFIG, readings

from companion.errors import StateError
from companion.the_glade import moot as moot_module
from companion.the_glade.moot import moot
from companion.the_glade.photo_game import assemble
from companion.the_glade.state_file import load_state

PHOTOS = ["toni.jpg", "emma.jpg", "liz.jpg"]
SAMPLE = json.loads((CONFIG / "sample-game.json").read_text())
#: a look-alike that is no tile of the sample's boards' lines (nothing settles it)
OTHER, SECOND = "toad/acorn/beech", "toad/acorn/oak"


def _doubted(*places: tuple[int, str]) -> tuple[Any, Any]:
    plan, glade, forests = readings()
    for player, square in places:
        real = forests[player]["forest"]["tiles"].get(square, OTHER)
        doubt_square(forests[player], square, [OTHER if real != OTHER else SECOND, real])
    return plan, assemble(plan, glade, forests)


def _score(state: dict[str, Any]) -> dict[str, Any]:
    from companion.the_glade.jobs import score_state

    return score_state(load_state(state)).data


def test_a_tile_whose_place_changes_no_score_is_moot_and_scores_as_the_game() -> None:
    _plan, built = _doubted((LIZ, "G3"))
    assert [d.place for d in built.doubts] == ["G3"]
    found = moot(built, PHOTOS)
    assert found is not None and found.ways == 2
    assert "G3" not in found.state["players"][LIZ]["forest"]["tiles"]
    assert "uncertain" not in found.state
    assert _score(found.state) == truth()


def test_a_tile_that_joins_a_group_to_the_centre_is_no_moot_doubt() -> None:
    _plan, built = _doubted((LIZ, "B5"))  # bare, B5's group would not reach the centre
    assert built.doubts and moot(built, PHOTOS) is None


def test_every_square_of_every_board_moot_or_not_as_scoring_says() -> None:
    """Exhaustive over the sample's boards: a doubt on a square is moot exactly when the
    game scores the same with the square bare as with its tile (no counter can be there:
    all 12 of each colour lie elsewhere), and then the moot state scores as the truth."""
    want = truth()
    for player, p in enumerate(SAMPLE["players"]):
        for square in sorted(p["forest"]["tiles"]):
            _plan, built = _doubted((player, square))
            if not built.doubts:
                continue  # the game's rules settled it
            found = moot(built, PHOTOS)
            bare = json.loads(json.dumps(SAMPLE))
            del bare["players"][player]["forest"]["tiles"][square]
            try:
                same = _score(bare) == want
            except StateError:  # a state the rules refuse (a counter outside an enclosure)
                same = False
            centre = square == SAMPLE["board"]["centre"]
            assert (found is not None) is (same and not centre), (player, square)
            if found is not None:
                assert _score(found.state) == want


def test_two_moot_doubts_on_two_boards_are_moot_together() -> None:
    _plan, built = _doubted((LIZ, "G3"), (LIZ, "F6"), (1, sorted(
        SAMPLE["players"][1]["forest"]["tiles"])[-1]))
    found = moot(built, PHOTOS)
    if found is None:  # Emma's last square changes her score: then nothing is moot
        _plan, alone = _doubted((1, sorted(SAMPLE["players"][1]["forest"]["tiles"])[-1]))
        assert moot(alone, PHOTOS) is None
    else:
        assert found.ways == 8 and _score(found.state) == truth()


def test_the_centre_square_in_doubt_is_never_moot() -> None:
    _plan, built = _doubted((LIZ, SAMPLE["board"]["centre"]))
    assert built.doubts and moot(built, PHOTOS) is None


def test_a_counter_missing_from_the_count_may_lie_on_the_doubted_square() -> None:
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "G3", [OTHER, forests[LIZ]["forest"]["tiles"]["G3"]])
    glade["supply"]["1"] -= 1  # a yellow counter unaccounted for
    assert moot(assemble(plan, glade, forests), PHOTOS) is None


@pytest.mark.parametrize("other", ["glade", "store"])
def test_any_doubt_but_a_forest_square_is_never_moot(other: str) -> None:
    plan, glade, forests = readings()
    doubt_square(forests[LIZ], "G3", [OTHER, forests[LIZ]["forest"]["tiles"]["G3"]])
    if other == "glade":
        space = sorted(glade["glade"])[0]
        del glade["glade"][space]
        glade["uncertain"] = [space]
    else:
        forests[0]["store_uncertain"] = 1
    assert moot(assemble(plan, glade, forests), PHOTOS) is None


def test_more_doubts_than_it_looks_through_are_not_moot(monkeypatch) -> None:
    _plan, built = _doubted((LIZ, "G3"), (LIZ, "F6"))
    assert moot(built, PHOTOS) is not None
    monkeypatch.setattr(moot_module, "MAX_SQUARES", 1)
    assert moot(built, PHOTOS) is None


def test_the_table_offers_to_score_moot_doubts_or_put_them_right() -> None:
    from companion.devices.buttons import Key
    from companion.the_glade.photo_flow import FixMenu, MootPage, Progress, review_page
    from companion.ui.pages import MenuPage, Replace

    _plan, glade, forests = readings()
    doubt_square(forests[LIZ], "G3", [OTHER, forests[LIZ]["forest"]["tiles"]["G3"]])
    progress = Progress([("Toni", "yellow"), ("Emma", "blue"), ("Liz", "red")], "basic",
                        glade, forests)
    page = review_page(None, progress, None)  # type: ignore[arg-type]
    assert isinstance(page, MootPage)
    assert [(d.part, d.place) for d in page.found.doubts] == [("forest-square", "G3")]
    menu = page.handle(Key.OK)
    assert isinstance(menu, MenuPage)
    assert [c.label for c in menu.choices] == ["Score now", "Put right first"]
    assert isinstance(menu.choices[1].action(), FixMenu)
    scored = menu.choices[0].action()
    assert isinstance(scored, Replace) and scored.page.title == "Final score"


def test_the_matching_game_has_no_moot_doubts() -> None:
    """A doubted square there may hold a match counter in an enclosure: nothing counts them."""
    _plan, built = _doubted((LIZ, "G3"))
    assert moot(built, PHOTOS) is not None
    built.state["variant"] = "matching"
    assert moot(built, PHOTOS) is None


def _matching_with_store_doubts(*pairs: tuple[int, dict[str, Any], dict[str, Any]]
                                ) -> tuple[Any, Any, list[dict[str, Any]]]:
    """The bundled matching game's readings with store match counters made "which
    counter?" doubts: (player, the counter, the other face it was taken for)."""
    plan, glade, forests = readings("sample-matching-game.json")
    for player, real, other in pairs:
        f = forests[player]
        f["store_match_counters"].remove(real)
        f["store_uncertain"] = f.get("store_uncertain", 0) + 1
        f.setdefault("store_doubts", []).append(
            {"at": [-200.0, 50.0 * len(f["store_doubts"])], "candidates": [other, real]})
    return plan, glade, forests


HEDGEHOG = {"kind": "creature", "value": 1, "icon": "hedgehog/beech"}
MOUSE = {"kind": "creature", "value": 1, "icon": "mouse/beech"}
BEECH4 = {"kind": "leaf", "value": 4, "icon": "beech"}
BEECH3 = {"kind": "leaf", "value": 3, "icon": "beech"}  # Liz's, in her enclosure E2
BEECH2 = {"kind": "leaf", "value": 2, "icon": "beech"}


def test_a_store_doubt_between_two_one_point_match_counters_is_moot() -> None:
    """Liz's hedgehog on beech taken for a mouse on beech: either is worth 1 point, so the
    table scores the game as read without asking (the same score either way)."""
    plan, glade, forests = _matching_with_store_doubts((0, HEDGEHOG, MOUSE))
    built = assemble(plan, glade, forests)
    assert [d.part for d in built.doubts] == ["store"]
    found = moot(built, [s.forest_photo for s in plan.seats])
    assert found is not None and found.ways == 2
    _plan, glade, forests = readings("sample-matching-game.json")
    assert _score(found.state) == _score(assemble(plan, glade, forests).state)


@pytest.mark.parametrize("other", [BEECH2, BEECH3, HEDGEHOG])
def test_a_store_doubt_with_a_leaf_counter_among_its_two_is_not_moot(other: dict) -> None:
    """Toni's beech leaf counter of 4 taken for another counter: a leaf counter's value
    scores, so such a doubt is never moot (even where one of the two cannot be: Liz holds
    the beech 3)."""
    plan, glade, forests = _matching_with_store_doubts((1, BEECH4, other))
    built = assemble(plan, glade, forests)
    assert [d.part for d in built.doubts] == ["store"]
    assert moot(built, [s.forest_photo for s in plan.seats]) is None


def test_a_store_doubt_with_no_match_counters_to_choose_from_is_not_moot() -> None:
    """Without its candidates (a thing that fits no face), beside a square in doubt, or in
    the basic game, a store doubt is never moot."""
    plan, glade, forests = _matching_with_store_doubts((0, HEDGEHOG, MOUSE))
    photos = [s.forest_photo for s in plan.seats]
    bare = [dict(f, store_doubts=[{"at": [0.0, 0.0], "candidates": []}]) if i == 0 else f
            for i, f in enumerate(forests)]
    assert moot(assemble(plan, glade, bare), photos) is None
    forests[1]["uncertain"].append("E5")
    assert moot(assemble(plan, glade, forests), photos) is None
    plan, glade, forests = readings()
    forests[0]["store_uncertain"] = 1
    forests[0]["store_doubts"] = [{"at": [0.0, 0.0], "candidates": [HEDGEHOG, MOUSE]}]
    assert moot(assemble(plan, glade, forests), PHOTOS) is None
