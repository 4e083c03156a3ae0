"""Glass Garden at the table: dealing from menus, advice on a worker thread, steps entered,
saved and undone, and the game resumed after a restart."""

from __future__ import annotations

import copy
from pathlib import Path

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.display import open_display
from companion.session import SessionStore
from companion.ui.service import Context, Service
from companion.ui.views import MenuView, TextView

K = Key
# main menu: The Glade, Glass Garden...; its menu: New game; players: Solo
NEW_GAME = [K.DOWN, K.OK, K.OK, K.OK]
DEAL = [K.OK] * 9  # the first critter, then the first plant left for each column 2-9


def service(tmp_path: Path, script: list) -> Service:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["games"]["glass-garden"]["think_seconds"] = 0.5
    ctx = Context(settings, tmp_path)
    return Service(ctx, open_display(settings["display"]), ScriptedButtons(script), idle_poll=0)


def test_deal_then_a_step_then_undo(tmp_path: Path) -> None:
    svc = service(tmp_path, NEW_GAME)
    svc.run()
    view = svc.page.view("")
    assert isinstance(view, MenuView) and view.title == "Which critter?"
    assert view.items == ("Fly", "Snail", "Ant", "Worm")
    for _ in DEAL:
        svc.dispatch(K.OK)
    assert svc.page.title == "Garden T1 score 0"
    saved = SessionStore(tmp_path).load()
    assert saved is not None and saved.current["garden"][0] == "critter"
    assert saved.current["critter"] == "Fly" and len(saved.current["garden"]) == 9
    svc.dispatch(K.DOWN)  # Enter a step
    svc.dispatch(K.OK)
    steps = svc.page.view("")
    assert isinstance(steps, MenuView) and steps.title == "What did you do?"
    svc.dispatch(K.OK)  # the first legal step
    assert len(SessionStore(tmp_path).load().accepted) == 2
    turn = svc.page.view("")  # back on the turn page, which can undo now
    assert isinstance(turn, MenuView) and "Undo" in turn.items
    svc.dispatch(K.DOWN)
    svc.dispatch(K.DOWN)
    svc.dispatch(K.OK)  # Undo
    again = SessionStore(tmp_path).load()
    assert again.current == saved.current


def test_advice_runs_beside_the_loop_and_names_the_best_turn(tmp_path: Path) -> None:
    svc = service(tmp_path, [*NEW_GAME, *DEAL, K.OK])  # ... then Advice
    svc.run()
    view = svc.page.view("")
    assert isinstance(view, TextView) and view.title == "Advice"
    text = " ".join(view.lines)
    assert "SAMPLE deck" in text and "Best turn:" in text and "Final score of the plan" in text


def test_resume_after_restart(tmp_path: Path) -> None:
    service(tmp_path, [*NEW_GAME, *DEAL]).run()
    svc = service(tmp_path, [K.OK])  # the offer to resume, accepted
    svc.run()
    assert svc.page.title == "Garden T1 score 0"


def test_final_score_is_the_gardens_sheet_and_saving_leaves_the_game(tmp_path: Path) -> None:
    """Game over: the score sheet (points, plant by plant, the title), saved to the history
    with its title, and the game left, however it was reached."""
    from companion.glass_garden import screens
    from companion.glass_garden.deck import load_deck
    from companion.glass_garden.scoring import title
    from companion.glass_garden.tracker import GameTracker
    from companion.history import History
    from companion.session import Session
    from companion.ui.pages import flow_root

    tracker = GameTracker.deal(load_deck(), "Fly", seed=1)
    while not tracker.finished:
        tracker.choose(len(tracker.options()) - 1)  # "done" each step
    points = tracker.state.score()
    svc = service(tmp_path, [])
    session = Session("glass-garden", ["Toni"])
    SessionStore(tmp_path).save(session)
    svc.apply(flow_root(screens.TurnPage(svc.ctx, session, tracker)))
    turn = svc.page.view("")
    assert isinstance(turn, MenuView) and turn.items[0] == "Final score"
    svc.dispatch(K.OK)
    final = svc.page.view("")
    assert isinstance(final, TextView) and final.title == "Final score"
    assert final.lines[0] == f"{points} points: {title(points)}"
    assert len(final.lines) == 9  # the eight plants, each with its points
    for key in (K.OK, K.OK, K.OK):  # Game over -> Save to history -> Saved: OK
        svc.dispatch(key)
    assert [p.title for p in svc.stack] == ["Table Companion"]
    finished = History(tmp_path).games()[0]
    assert finished.game == "glass-garden" and finished.totals == (("Toni", points),)
    assert finished.result == title(points) and SessionStore(tmp_path).load() is None
