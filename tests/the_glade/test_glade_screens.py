"""The Glade at the table: rulings from (stubbed) scans, accept and reject, not-sure squares,
claims, the end of a turn and the final score, all through the service's loop."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.camera import FunctionCamera
from companion.devices.display import open_display
from companion.session import Session, SessionStore
from companion.the_glade import screens
from companion.ui.service import Context, Service
from companion.ui.views import MenuView, TextView

BOARD = {"rows": 7, "cols": 7, "centre": "D4"}
TONI = {"D3": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
        "D5": "hedgehog/mushroom/oak"}


class Table:
    """What the stub scanner 'sees' next."""

    def __init__(self) -> None:
        self.tiles: dict[str, str] = {}
        self.uncertain: list[str] = []

    def lay(self, tiles: dict[str, str], uncertain: tuple[str, ...] = ()):
        def step() -> None:
            self.tiles = tiles
            self.uncertain = list(uncertain)
        return step


@pytest.fixture
def table(monkeypatch: pytest.MonkeyPatch) -> Table:
    t = Table()

    def fake_scan(ctx: Any, photo: Any) -> dict[str, Any]:
        tiles = {k: v for k, v in t.tiles.items() if k not in t.uncertain}
        return {"board": BOARD, "forest": {"tiles": tiles, "counters": {}},
                "uncertain": t.uncertain}

    monkeypatch.setattr(screens, "scan_forest", fake_scan)
    return t


def service(tmp_path: Path, script: list) -> Service:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["players"] = ["Toni", "Emma"]
    camera = FunctionCamera(lambda n: np.zeros((8, 8, 3), np.uint8))
    ctx = Context(settings, tmp_path, camera=camera)
    return Service(ctx, open_display(settings["display"]), ScriptedButtons(script), idle_poll=0)


NEW_GAME = [Key.OK, Key.OK, Key.OK]  # The Glade, New game, 2 players (Toni, Emma)


def lines(svc: Service) -> tuple[str, ...]:
    view = svc.page.view("")
    assert isinstance(view, TextView | MenuView)
    return view.lines if isinstance(view, TextView) else view.items


def saved(tmp_path: Path) -> Session:
    session = SessionStore(tmp_path).load()
    assert session is not None
    return session


def test_legal_placement_is_ruled_and_accepted(tmp_path: Path, table: Table) -> None:
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI), Key.OK])
    svc.run()
    assert svc.page.title == "Toni: legal"
    assert lines(svc)[:2] == ("LEGAL", "Set of 3 (D3, D4, D5): single counter on "
                                       "hedgehog/hazelnut/horse-chestnut")
    svc.dispatch(Key.OK)  # accept
    assert svc.page.title == "Accepted"  # what moved, in words
    assert lines(svc) == ("Toni's yellow single toadstool to the glade space of "
                          "hedgehog/hazelnut/horse-chestnut",)
    state = saved(tmp_path).current
    assert state is not None
    toni = state["players"][0]
    assert toni["forest"]["tiles"] == TONI and toni["supply"] == 11
    assert state["glade"] == {"hedgehog/hazelnut/horse-chestnut": "yellow-single"}


def test_rejected_reading_records_nothing(tmp_path: Path, table: Table) -> None:
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI), Key.OK, Key.BACK])
    svc.run()
    assert svc.page.title.startswith("Glade R1 Toni")
    assert saved(tmp_path).accepted == []


def test_illegal_placement_says_why(tmp_path: Path, table: Table) -> None:
    bad = {"D4": "hedgehog/acorn/beech", "D5": "mouse/blackberry/maple"}
    svc = service(tmp_path, [*NEW_GAME, table.lay(bad), Key.OK])
    svc.run()
    assert svc.page.title == "Toni: illegal"
    text = " ".join(lines(svc))
    assert "ILLEGAL" in text and "column D" in text
    svc.dispatch(Key.OK)
    assert svc.page.title.startswith("Glade R1 Toni") and saved(tmp_path).accepted == []


def test_not_sure_squares_are_named_then_retake_or_keep(tmp_path: Path, table: Table) -> None:
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI, uncertain=("D5",)), Key.OK])
    svc.run()
    assert svc.page.title == "Not sure"
    view = svc.page.view("")
    assert isinstance(view, MenuView) and view.status == "Not sure: D5"
    assert view.items == ("Retake", "Keep as empty", "Details")
    svc.dispatch(Key.DOWN)
    svc.dispatch(Key.DOWN)
    svc.dispatch(Key.OK)  # Details: the doubt in words
    assert lines(svc)[0] == ("Not sure of D5: clear glare or hands and retake, or keep the "
                             "reading with D5 as empty.")
    svc.dispatch(Key.OK)
    table.lay(TONI)()  # the glare is gone
    svc.dispatch(Key.UP)
    svc.dispatch(Key.UP)
    svc.dispatch(Key.OK)  # Retake
    while svc.page.busy:
        svc.page.wait(10)  # type: ignore[attr-defined]
        svc.tick()
    assert svc.page.title == "Toni: legal"
    assert saved(tmp_path).accepted == []


def test_keeping_a_doubtful_reading_rules_on_it_as_read(tmp_path: Path, table: Table) -> None:
    """Keep: the doubtful square is taken as empty (as it was), and the ruling says so."""
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI, uncertain=("D5",)), Key.OK,
                             Key.DOWN, Key.OK])
    svc.run()
    assert svc.page.title == "Toni: legal"
    assert "Not sure of D5: kept as empty" in lines(svc)
    svc.dispatch(Key.OK)  # accept
    toni = saved(tmp_path).current["players"][0]["forest"]["tiles"]
    assert toni == {"D3": TONI["D3"], "D4": TONI["D4"]}


def test_moved_tile_is_a_contradiction(tmp_path: Path, table: Table) -> None:
    moved = {"D2": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
             "D5": "hedgehog/mushroom/oak"}
    emma = {"C4": "mouse/acorn/beech", "D4": "squirrel/acorn/maple", "E4": "toad/acorn/oak"}
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI), Key.OK, Key.OK, Key.OK, Key.OK,
                             table.lay(emma), Key.OK, Key.OK, Key.OK, Key.OK,
                             # Toni again: her D3 tile now shows at D2
                             table.lay(moved), Key.OK])
    svc.run()
    assert svc.page.title == "Board changed"
    assert "D3" in lines(svc)[0]


def test_turns_pass_and_resume_after_restart(tmp_path: Path, table: Table) -> None:
    script = [*NEW_GAME, table.lay(TONI), Key.OK, Key.OK, Key.OK, Key.OK]  # ..., End turn
    svc = service(tmp_path, script)
    svc.run()
    assert svc.page.title == "Glade R1 Emma"
    again = service(tmp_path, [Key.OK])  # a restart: the offer to resume, accepted
    again.run()
    assert again.page.title == "Glade R1 Emma"
    assert saved(tmp_path).current["players"][0]["forest"]["tiles"] == TONI


def test_claim_a_toadstool_from_the_menu(tmp_path: Path, table: Table) -> None:
    script = [*NEW_GAME, table.lay(TONI), Key.OK, Key.OK, Key.OK, Key.OK,
              # Emma claims Toni's counter with the missing tile: it completes Toni's set
              Key.DOWN, Key.OK, Key.OK]
    svc = service(tmp_path, script)
    svc.run()
    assert svc.page.title in ("Claimed", "Tile on Toni's")
    if svc.page.title == "Tile on Toni's":  # a choice of two squares: take the first
        svc.dispatch(Key.OK)
    assert lines(svc)[0] == ("Toni's yellow single toadstool from the glade space of "
                             "hedgehog/hazelnut/horse-chestnut to Emma's store")
    svc.dispatch(Key.OK)  # back to the turn, past the claim's menus
    assert svc.page.title == "Glade R1 Emma" and len(svc.stack) == 3
    state = saved(tmp_path).current
    emma_state = state["players"][1]
    assert emma_state["store"] == ["yellow-single"]
    toni_tiles = state["players"][0]["forest"]["tiles"]
    assert "hedgehog/hazelnut/horse-chestnut" in toni_tiles.values()
    assert state["players"][1]["forest"]["tiles"] == {}


def test_score_so_far(tmp_path: Path, table: Table) -> None:
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI), Key.OK, Key.OK, Key.OK,
                             Key.DOWN, Key.OK])
    svc.run()
    assert svc.page.title == "Score so far"
    assert lines(svc)[0] == "Leading: Toni"


def test_a_third_copy_of_a_tile_is_a_misreading(tmp_path: Path, table: Table) -> None:
    emma = {"D4": "hedgehog/acorn/beech"}  # Toni has one; a second is fine
    toni_again = {**TONI, "C3": "hedgehog/acorn/beech"}  # a third in play: impossible
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI), Key.OK, Key.OK, Key.OK, Key.OK,
                             table.lay(emma), Key.OK, Key.OK, Key.OK, Key.OK,
                             table.lay(toni_again), Key.OK])
    svc.run()
    assert svc.page.title == "Check the board"
    assert "third hedgehog/acorn/beech" in lines(svc)[0]


def test_doubtful_squares_that_held_tiles_keep_them(tmp_path: Path, table: Table) -> None:
    """Tiles never move: a doubtful square that held a tile keeps it, and the ruling says so;
    a doubtful square that was empty still needs a retake."""
    more = {**TONI, "E4": "hedgehog/blackberry/oak"}
    emma = {"C4": "mouse/acorn/beech", "D4": "squirrel/acorn/maple", "E4": "toad/acorn/oak"}
    svc = service(tmp_path, [*NEW_GAME, table.lay(TONI), Key.OK, Key.OK, Key.OK, Key.OK,
                             table.lay(emma), Key.OK, Key.OK, Key.OK, Key.OK,
                             table.lay(more, uncertain=("D3", "D5")), Key.OK])
    svc.run()
    assert svc.page.title == "Toni: legal"
    assert "Not sure of D3, D5: kept as accepted before (tiles never move)" in lines(svc)
    svc.dispatch(Key.OK)  # accept
    toni = saved(tmp_path).current["players"][0]["forest"]["tiles"]
    assert toni == more
    svc2 = service(tmp_path / "b", [*NEW_GAME, table.lay(TONI, uncertain=("D3",)), Key.OK])
    svc2.run()
    assert svc2.page.title == "Not sure"  # D3 was empty before: it could be new


def test_the_model_comes_from_the_shared_cache(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The Glade asks the service's cache for the model in its folder: loaded once, and a
    missing setting says what to run."""
    import companion.the_glade.recognition.model as model_module
    from companion.errors import CompanionError

    loads: list[Path] = []
    monkeypatch.setattr(model_module, "load_model", lambda path: loads.append(path) or "model")
    svc = service(tmp_path, [])
    with pytest.raises(CompanionError, match="run 'companion enrol the-glade"):
        screens.forest_model(svc.ctx)
    svc.ctx.settings["games"]["the-glade"]["model"] = str(tmp_path / "m")
    assert screens.forest_model(svc.ctx) == screens.forest_model(svc.ctx) == "model"
    assert loads == [tmp_path / "m"] and (tmp_path / "m") in svc.ctx.models


def test_the_glades_screens_leave_capture_to_the_service() -> None:
    """No threads, cameras, stillness or doubt pages of its own: only a reader and its lines."""
    source = Path(screens.__file__).read_text()
    for word in ("Thread", "capture_still", "StillnessDetector", "ctx.cache", "ctx.camera",
                 "TaskPage", "Pop("):
        assert word not in source, word


# -- Score from photos (issue #25): the readings stubbed from the bundled finished game -----

SAMPLE = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade" / \
    "sample-game.json"
GOLDEN_PHOTOS = Path(__file__).parent / "golden" / "photos"


def sample_readings() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What the recognisers read of a finished game's photos when they read it all right."""
    import json

    game = json.loads(SAMPLE.read_text())
    glade = {"glade": dict(game["glade"]), "uncertain": [], "reasons": {},
             "supply": {str(i + 1): p["supply"] for i, p in enumerate(game["players"])}}
    forests = [{"board": game["board"], "forest": copy.deepcopy(p["forest"]), "uncertain": [],
                "store": list(p["store"]), "store_uncertain": 0} for p in game["players"]]
    return glade, forests


class Photos:
    """What the stubbed recognisers read next: the glade reading, and the forests in turn."""

    def __init__(self) -> None:
        self.glade, self.forests = sample_readings()
        self.next_forest = 0
        self.fail: Exception | None = None

    def read_glade(self, ctx: Any, photo: Any) -> dict[str, Any]:
        if self.fail is not None:
            raise self.fail
        return copy.deepcopy(self.glade)

    def read_forest(self, ctx: Any, photo: Any) -> dict[str, Any]:
        reading = self.forests[self.next_forest % len(self.forests)]
        self.next_forest += 1
        return copy.deepcopy(reading)


@pytest.fixture
def photos(monkeypatch: pytest.MonkeyPatch) -> Photos:
    from companion.the_glade import photo_flow

    p = Photos()
    monkeypatch.setattr(photo_flow, "read_glade_photo", p.read_glade)
    monkeypatch.setattr(photo_flow, "read_forest_photo", p.read_forest)
    return p


def photo_service(tmp_path: Path, model: str | None = "model") -> Service:
    svc = service(tmp_path, [])
    svc.ctx.settings["games"]["players"] = ["Toni", "Emma", "Liz", "Sam"]
    svc.ctx.settings["games"]["the-glade"]["model"] = model
    return svc


def title(svc: Service) -> str:
    """The title of the page in front, as drawn now (a live menu's is rebuilt on drawing)."""
    return svc.page.view("").title


def press(svc: Service, *keys: Key) -> None:
    """Keys as a person presses them: each waits for the work it starts."""
    for key in keys:
        svc.dispatch(key)
        while svc.page.busy:
            wait = getattr(svc.page, "wait", None)
            if wait is not None:
                wait(10)
            svc.tick()


def to_score_from_photos(svc: Service) -> None:
    press(svc, Key.OK)  # The Glade
    entries = lines(svc)
    index = next(i for i, e in enumerate(entries) if e.startswith("Score from photos"))
    press(svc, *[Key.DOWN] * index, Key.OK)


THREE = [Key.DOWN, Key.OK]  # who played: 3 (Toni, Emma, Liz)


def sample_sheet() -> Any:
    import json

    from companion.the_glade.state_file import load_state

    return load_state(json.loads(SAMPLE.read_text())).score_sheet()


def test_a_finished_game_is_scored_from_its_photos_and_saved(tmp_path: Path,
                                                             photos: Photos) -> None:
    from companion.history import History
    from companion.ui.pages import score_lines

    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE)
    assert title(svc) == "Photos 0/4" and lines(svc)[0] == "Photo: glade board"
    press(svc, Key.OK)
    assert title(svc) == "Glade board"
    press(svc, Key.OK)
    for name in ("Toni", "Emma", "Liz"):
        assert lines(svc)[0] == f"Photo: {name}'s board+store"
        press(svc, Key.OK, Key.OK)
    assert title(svc) == "Photos 4/4" and lines(svc)[0] == "Review and score"
    press(svc, Key.OK)
    assert title(svc) == "Final score"
    assert list(lines(svc)) == score_lines(sample_sheet(), final=True)
    press(svc, Key.OK, Key.OK, Key.OK)  # Game over: Save to history; Saved: OK
    finished = History(tmp_path).games()[0]
    assert finished.game == "the-glade"
    assert finished.totals == tuple((p.name, p.total) for p in sample_sheet().players)
    assert not (tmp_path / "photo-score.json").exists()
    assert title(svc) == "The Glade"  # the flow left, back to the game's menu


def test_each_doubt_is_named_and_put_right_with_the_buttons(tmp_path: Path,
                                                            photos: Photos) -> None:
    from companion.the_glade import photo_flow

    glade, forests = photos.glade, photos.forests
    space, counter = sorted(glade["glade"].items())[0]
    del glade["glade"][space]
    glade["uncertain"] = [space]
    toni = forests[0]
    square, tile = sorted(toni["forest"]["tiles"].items())[0]
    del toni["forest"]["tiles"][square]
    toni["uncertain"] = [square]
    toni["candidates"] = {square: ["mouse/acorn/oak", tile]}
    emma = forests[1]
    unnamed = emma["store"].pop(0)
    emma["store_uncertain"] = 1
    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE, *[Key.OK] * 8, Key.OK)  # four photos, each read; Review
    review = svc.page
    assert isinstance(review, photo_flow.ReviewPage) and review.alert
    assert [(f.code, f.photo, f.what) for f in review.fixes] == [
        (photo_flow.GLADE_SPACE, 0, space), (photo_flow.SQUARE, 1, square),
        (photo_flow.STORE_THING, 2, "store")]
    assert len(review.doubts) == 3
    press(svc, Key.OK)  # put right: the glade space first
    assert title(svc) == "Put right"
    press(svc, Key.OK)
    options = list(lines(svc))
    assert options[0] == "Empty" and options[-1] == "Retake glade board"
    press(svc, *[Key.DOWN] * options.index(counter.replace("-", " ")), Key.OK)
    assert isinstance(svc.page, photo_flow.ReviewPage) and len(svc.page.fixes) == 2
    press(svc, Key.OK, Key.OK)  # the square: the look-alikes first
    options = list(lines(svc))
    assert options[:2] == ["mouse/acorn/oak", tile]
    press(svc, Key.DOWN, Key.OK)
    press(svc, Key.OK, Key.OK)  # the thing in Emma's store
    options = list(lines(svc))
    press(svc, *[Key.DOWN] * options.index(unnamed.replace("-", " ")), Key.OK)
    assert title(svc) == "Final score"
    assert list(lines(svc))[:4] == list(lines_of_sample()[:4])
    saved_progress = photo_flow.ProgressStore(tmp_path).load()
    assert saved_progress is not None and saved_progress.glade["glade"][space] == counter


def test_a_store_thing_in_doubt_offers_its_two_candidates_first(tmp_path: Path,
                                                                 photos: Photos) -> None:
    """The scan's ``store_doubts`` name the two faces a "which counter?" doubt is between:
    the fix says them and offers them first; choosing one puts it in the store."""
    from companion.the_glade import photo_flow

    emma = photos.forests[1]
    unnamed = emma["store"].pop(0)
    other = "blue-double" if unnamed != "blue-double" else "blue-single"
    emma["store_uncertain"] = 1
    emma["store_doubts"] = [{"at": [-300.0, 700.0], "candidates": [other, unnamed]}]
    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE, *[Key.OK] * 8, Key.OK)
    assert [(f.code, f.photo, f.at, f.words) for f in svc.page.fixes] == [  # type: ignore[attr-defined]
        (photo_flow.STORE_THING, 2, (-300.0, 700.0),
         f"Emma store: {other.replace('-', ' ')} or {unnamed.replace('-', ' ')}")]
    press(svc, Key.OK, Key.OK)
    options = list(lines(svc))
    assert options[:2] == [other.replace("-", " "), unnamed.replace("-", " ")]
    assert options.count(unnamed.replace("-", " ")) == 1  # not offered twice
    press(svc, Key.DOWN, Key.OK)
    assert title(svc) == "Final score"
    assert list(lines(svc)) == lines_of_sample()
    saved = photo_flow.ProgressStore(tmp_path).load()
    assert saved is not None and saved.forests[1] is not None
    assert saved.forests[1]["store_doubts"] == [] and unnamed in saved.forests[1]["store"]


def test_a_match_counter_in_doubt_is_put_right_in_the_matching_game() -> None:
    """In the matching game a store doubt between two match counters offers both; the one
    chosen joins the store's match counters. In the basic game they are not offered."""
    from companion.the_glade import photo_flow

    mouse = {"kind": "creature", "icon": "mouse/beech", "value": 1}
    toad = {"kind": "creature", "icon": "toad/beech", "value": 1}
    reading = {"store": ["yellow-single"], "store_match_counters": [], "store_uncertain": 1,
               "store_doubts": [{"at": [-1.0, 2.0], "candidates": [toad, mouse]}]}
    players = [("Ana", "yellow"), ("Ben", "blue")]
    progress = photo_flow.Progress(players, "matching", {}, [copy.deepcopy(reading), {}])
    at, looks = photo_flow.store_candidates(reading, 0, "matching")
    fix = photo_flow.Fix(photo_flow.STORE_THING, 1, "store", "Ana store", at, tuple(looks))
    options = photo_flow.fix_options(progress, fix)
    assert [w for w, _ in options[:2]] == ["toad/beech 1", "mouse/beech 1"]
    options[1][1](progress)
    assert progress.forests[0] == {
        "store": ["yellow-single"], "store_match_counters": [mouse], "store_uncertain": 0,
        "store_doubts": []}
    basic = photo_flow.Progress(players, "basic", {}, [copy.deepcopy(reading), {}])
    at, looks = photo_flow.store_candidates(reading, 0, "basic")
    assert (at, looks) == ((-1.0, 2.0), [])
    fix = photo_flow.Fix(photo_flow.STORE_THING, 1, "store", "Ana store", at, ())
    assert [w for w, _ in photo_flow.fix_options(basic, fix)][:2] == [
        "yellow single", "yellow double"]


def test_a_square_put_right_by_the_buttons_leaves_every_doubt_entry() -> None:
    """A look-alike doubt on a forest square, put right with the buttons: the tile chosen
    is read there, and the square is in none of the reading's doubt entries (no reason,
    code, candidates or likeliest name outlives it)."""
    from companion.the_glade import photo_flow
    from companion.the_glade.doubt_entries import PER_SQUARE

    pair = ["toad/acorn/oak", "toad/hazelnut/oak"]
    reading = {"forest": {"tiles": {"A1": "mouse/acorn/oak"}, "counters": {}},
               "uncertain": ["B2", "C3"],
               "reasons": {"B2": "looks like two", "C3": "glare"},
               "doubts": {"B2": "look-alike", "C3": "glare"},
               "candidates": {"B2": pair}, "likeliest": {"B2": pair[0]},
               "store": [], "store_uncertain": 0}
    players = [("Ana", "yellow"), ("Ben", "blue")]
    progress = photo_flow.Progress(players, "basic", {}, [copy.deepcopy(reading), {}])
    fix = photo_flow.Fix(photo_flow.SQUARE, 1, "B2", "Ana square B2")
    options = dict(photo_flow.fix_options(progress, fix))
    options[pair[1]](progress)
    fixed = progress.forests[0]
    assert fixed["forest"]["tiles"] == {"A1": "mouse/acorn/oak", "B2": pair[1]}
    assert fixed["uncertain"] == ["C3"]
    assert all("B2" not in fixed[key] for key in PER_SQUARE)
    assert fixed["doubts"] == {"C3": "glare"}


def lines_of_sample() -> list[str]:
    from companion.ui.pages import score_lines

    return score_lines(sample_sheet(), final=True)


def test_a_counter_the_photos_missed_is_placed_by_the_players(tmp_path: Path,
                                                              photos: Photos) -> None:
    from companion.the_glade import photo_flow

    liz = photos.forests[2]
    liz["store"].remove("red-double")  # one counter the scan missed without a doubt
    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE, *[Key.OK] * 8, Key.OK)
    assert [(f.code, f.what) for f in svc.page.fixes] == [  # type: ignore[attr-defined]
        (photo_flow.MISSING_COUNTER, "red")]
    press(svc, Key.OK, Key.OK)
    options = list(lines(svc))
    press(svc, *[Key.DOWN] * options.index("Liz's store, double"), Key.OK)
    assert list(lines(svc)) == lines_of_sample()


def test_photos_taken_survive_a_restart(tmp_path: Path, photos: Photos) -> None:
    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE, Key.OK, Key.OK, Key.OK, Key.OK)  # the glade board and Toni's
    again = photo_service(tmp_path)
    press(again, Key.OK)
    assert "Score from photos (resume 2/4)" in lines(again)
    to_score = [e for e in lines(again)].index("Score from photos (resume 2/4)")
    press(again, *[Key.DOWN] * to_score, Key.OK)
    assert title(again) == "Photos 2/4" and lines(again)[0] == "Photo: Emma's board+store"


def test_bad_input_is_one_line_and_the_service_keeps_running(tmp_path: Path,
                                                             photos: Photos) -> None:
    from companion.errors import RecognitionError
    from companion.ui.task import RetryPage

    svc = photo_service(tmp_path, model=None)
    to_score_from_photos(svc)
    assert svc.page.alert and "games.the-glade.model" in lines(svc)[0]  # type: ignore[attr-defined]
    press(svc, Key.OK)
    assert title(svc) == "The Glade"
    svc = photo_service(tmp_path / "b")
    to_score_from_photos(svc)
    press(svc, *THREE)
    photos.fail = RecognitionError("no glade board found in the photo")
    press(svc, Key.OK)
    assert isinstance(svc.page, RetryPage)
    photos.fail = None
    press(svc, Key.OK)  # OK: try again
    assert title(svc) == "Glade board"
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "photo-score.json").write_text("{not json")
    svc = photo_service(tmp_path / "c")
    press(svc, Key.OK)
    assert title(svc) == "Score from photos" and svc.page.alert  # type: ignore[attr-defined]
    assert list((tmp_path / "c").glob("photo-score.damaged-*.json"))
    press(svc, Key.OK)
    assert "Score from photos" in lines(svc)


def test_the_photo_scoring_screens_match_their_goldens(tmp_path: Path, photos: Photos,
                                                       flow_goldens) -> None:
    from companion.ui.screens import render

    glade = photos.glade
    space = sorted(glade["glade"])[0]
    del glade["glade"][space]
    glade["uncertain"] = [space]
    svc = photo_service(tmp_path)
    shots = []
    press(svc, Key.OK)
    shots.append(("the game's menu", render(svc.page.view(""))))
    to = list(lines(svc)).index("Score from photos")
    press(svc, *[Key.DOWN] * to, Key.OK, *THREE)
    shots.append(("the glade board first", render(svc.page.view(""))))
    press(svc, Key.OK)
    shots.append(("what it read", render(svc.page.view(""))))
    press(svc, Key.OK, Key.OK)
    shots.append(("a forest and its store", render(svc.page.view(""))))
    press(svc, *[Key.OK] * 5)
    shots.append(("all in: review", render(svc.page.view(""))))
    press(svc, Key.OK)
    shots.append(("the doubt, counts", render(svc.page.view(""))))
    press(svc, Key.OK)
    shots.append(("put right", render(svc.page.view(""))))
    press(svc, Key.OK)
    shots.append(("what it can be", render(svc.page.view(""))))
    flow_goldens(shots, GOLDEN_PHOTOS)


def test_a_counter_read_where_there_is_none_is_taken_away_by_the_players(
        tmp_path: Path, photos: Photos) -> None:
    from companion.the_glade import photo_flow

    photos.forests[2]["store"].append("yellow-single")  # read as certain, but not there
    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE, *[Key.OK] * 8, Key.OK)
    review = svc.page
    assert isinstance(review, photo_flow.ReviewPage)
    assert (photo_flow.EXTRA_COUNTER, "yellow") in [(f.code, f.what) for f in review.fixes]
    press(svc, Key.OK, Key.OK)
    options = list(lines(svc))
    press(svc, *[Key.DOWN] * options.index("Not in Liz's store: single"), Key.OK)
    assert list(lines(svc)) == lines_of_sample()


def test_a_disk_that_refuses_the_photos_is_named_and_nothing_half_written_stays(
        tmp_path: Path, photos: Photos, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from companion import storage
    from companion.the_glade import photo_flow
    from companion.ui.task import RetryPage

    svc = photo_service(tmp_path)
    to_score_from_photos(svc)
    press(svc, *THREE)
    real = storage.atomic_write_json

    def full(path: Path, data: Any) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(photo_flow, "atomic_write_json", full)
    press(svc, Key.OK)  # the glade board's photo, read, but not kept
    assert isinstance(svc.page, RetryPage) and "full" in svc.page.message
    monkeypatch.setattr(photo_flow, "atomic_write_json", real)
    press(svc, Key.OK)  # try again: kept now
    assert title(svc) == "Glade board"
    (tmp_path / ".photo-score.json.123.tmp").write_text("{")  # a write a power cut cut short
    assert photo_flow.ProgressStore(tmp_path).load() is not None
    assert not (tmp_path / ".photo-score.json.123.tmp").exists()


def test_a_match_counter_in_an_enclosure_is_put_right_and_scored() -> None:
    """The forest scan reads no match counter on a square (a doubt there): in the matching
    game the square's fix offers the 48 match counters after the toadstool ones, and the
    one chosen is scored in its enclosure (the state file's score exactly)."""
    from test_glade_photo_game import CONFIG, readings

    from companion.the_glade import jobs, photo_flow
    from companion.the_glade.photo_game import score_readings

    plan, glade, forests = readings("sample-matching-game.json")
    liz = forests[0]
    square, counter = sorted(liz["forest"]["match_counters"].items())[0]
    del liz["forest"]["match_counters"][square]
    liz["uncertain"] = [square]
    players = [(s.name, s.colour) for s in plan.seats]
    progress = photo_flow.Progress(players, "matching", copy.deepcopy(glade),
                                   copy.deepcopy(forests))
    _state, doubts, fixes = photo_flow.doubts_of(progress)
    assert [(d.part, d.place) for d in doubts] == [("forest-square", square)]
    assert [(f.code, f.photo, f.what) for f in fixes] == [(photo_flow.SQUARE, 1, square)]
    options = photo_flow.fix_options(progress, fixes[0])
    words = [w for w, _ in options]
    assert words.index(f"match {photo_flow.thing_words(counter)}") > words.index("Empty")
    assert sum(w.startswith(f"{photo_flow.MATCH} ") for w in words) == 48
    dict(options)[f"match {photo_flow.thing_words(counter)}"](progress)
    assert photo_flow.doubts_of(progress)[1] == []
    assert progress.forests[0]["forest"]["match_counters"] == readings(
        "sample-matching-game.json")[2][0]["forest"]["match_counters"]
    report = score_readings(plan, progress.glade, progress.forests)
    assert report.data == jobs.score(CONFIG / "sample-matching-game.json").data
    basic = photo_flow.Progress(players, "basic", glade, forests)
    assert not any(w.startswith("match ") for w, _ in photo_flow.fix_options(basic, fixes[0]))


def test_a_forest_photos_page_counts_its_match_counters() -> None:
    """In the matching game the page after a forest photo counts the match counters read in
    its enclosures and its store beside the toadstool counters."""
    from test_glade_photo_game import readings

    from companion.the_glade import photo_flow

    plan, glade, forests = readings("sample-matching-game.json")
    progress = photo_flow.Progress([(s.name, s.colour) for s in plan.seats], "matching",
                                   glade, forests)
    liz = forests[0]
    lines = photo_flow.reading_lines(progress, 1)
    assert lines[0] == (f"{len(liz['forest']['tiles'])} tiles, "
                        f"{len(liz['forest']['counters'])} in enclosures (+3 match)")
    assert lines[1] == f"Store: {len(liz['store'])} counters (+2 match)"


def test_the_match_counters_for_a_square_are_offered_a_leaf_at_a_time(monkeypatch) -> None:
    """The square's menu offers "Match counter...", then the four leaves, then that leaf's
    12 counters (4 creatures, 4 fruits, its 4 leaf counters); choosing one puts it there."""
    from test_glade_photo_game import readings

    from companion.the_glade import photo_flow
    from companion.ui.pages import MenuPage

    plan, glade, forests = readings("sample-matching-game.json")
    forests[0]["uncertain"] = ["G7"]
    progress = photo_flow.Progress([(s.name, s.colour) for s in plan.seats], "matching",
                                   glade, forests)
    fix = photo_flow.Fix(photo_flow.SQUARE, 1, "G7", "Liz square G7")
    chosen = []
    monkeypatch.setattr(photo_flow.FixMenu, "_apply",
                        lambda self, change: chosen.append(change) or "applied")
    menu = photo_flow.FixMenu(None, progress, [fix], None)  # type: ignore[arg-type]
    page = menu._fix(fix)
    labels = [c.label for c in page.choices]
    assert "Match counter..." in labels and not any(lb.startswith("match ") for lb in labels)
    leaves = page.choices[labels.index("Match counter...")].action()
    assert isinstance(leaves, MenuPage)
    assert [c.label for c in leaves.choices] == ["beech", "horse-chestnut", "maple", "oak"]
    oak = leaves.choices[3].action()
    assert isinstance(oak, MenuPage) and len(oak.choices) == 12
    assert [c.label for c in oak.choices][-4:] == ["oak 1", "oak 2", "oak 3", "oak 4"]
    assert oak.choices[0].action() == "applied"
    chosen[0](progress)
    assert progress.forests[0]["forest"]["match_counters"]["G7"] == {
        "kind": "creature", "icon": "hedgehog/oak", "value": 1}
