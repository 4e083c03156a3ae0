"""The solver pauses Python's cyclic garbage collector while it searches, and only then."""

from __future__ import annotations

import gc
import threading

from companion.glass_garden import solver
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import new_game


def test_collector_off_during_a_search_and_back_after() -> None:
    state = new_game(load_deck(), "Fly", seed=0)
    seen: list[bool] = []
    s = solver.Solver(state, None)
    s.on_improve = lambda plan: seen.append(gc.isenabled())
    assert gc.isenabled()
    result = s.run()
    assert result.optimal  # Fly 0 is proven within a few beams
    assert seen and not any(seen)
    assert gc.isenabled()


def test_collector_stays_off_if_it_was_off() -> None:
    gc.disable()
    try:
        with solver.COLLECTOR_PAUSE:
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_pauses_end_with_the_last() -> None:
    pause = solver.CollectorPause()
    entered, leave = threading.Event(), threading.Event()

    def other() -> None:
        with pause:
            entered.set()
            leave.wait(5)

    t = threading.Thread(target=other)
    t.start()
    entered.wait(5)
    with pause:
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other search still runs
    leave.set()
    t.join(5)
    assert gc.isenabled()
