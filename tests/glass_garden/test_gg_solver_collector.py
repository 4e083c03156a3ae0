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
    reads = iter(range(10**9))  # a clock that moves on by a millisecond each time it is read

    def clock() -> float:
        return next(reads) / 1000

    s = solver.Solver(state, 60.0, clock)
    s.on_improve = lambda plan: seen.append(gc.isenabled())
    assert gc.isenabled()
    s.run()
    assert seen and not any(seen)  # each better plan was found with the collector off
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
