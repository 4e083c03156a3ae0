"""A beam's layer ranked lazily (``solver.Ranked`` over ``solver._merged``).

A beam used to put every child of a layer in one table (each once, where its first parent put
it) and sort them all by guess; it now merges its parents' lists, each already in guess order,
and reads the merge only as far as ``Solver.keep`` looks. The order must be exactly the old
one: children tied on guess run to hundreds, and which of them a beam keeps decides what it
finds. Checked on real layers (training deals, seeds 100 and up), with children met under
several parents and long ties.
"""

from __future__ import annotations

import pytest

from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import State, new_game
from companion.glass_garden.solver import GROWERS, Plan, Ranked, Solver, _merged
from companion.glass_garden.turns import Path

DECK = load_deck()


def _layer(critter: str, seed: int, parents: int, depth: int
           ) -> tuple[Solver, list[tuple[int, list[tuple[State, Path]]]]]:
    """A solver and a layer of ``parents`` states ``depth`` turns from the deal's start (the
    first children of the first ones, by guess), each with its light children."""
    solver = Solver(new_game(DECK, critter, seed=seed), None)
    states = [solver.root]
    for _ in range(depth):
        states = [child for s in states[:2] for child, _ in solver.light(s, GROWERS)[:parents]]
    states = states[:parents]
    return solver, [(i, solver.light(s, GROWERS)) for i, s in enumerate(states)]


def _sorted_layer(solver: Solver, lists: list[tuple[int, list[tuple[State, Path]]]]
                  ) -> list[tuple[State, tuple[int, Path]]]:
    """The old way: each child once, where it first comes in parent order, then a stable
    sort by guess."""
    nxt: dict[State, tuple[int, Path]] = {}
    for i, kids in lists:
        for child, path in kids:
            if child not in nxt:
                nxt[child] = (i, path)
    return sorted(nxt.items(), key=lambda kv: -solver.guess(kv[0]))


@pytest.mark.parametrize(("critter", "seed", "parents", "depth"), [
    ("Ant", 102, 8, 1), ("Ant", 116, 16, 2), ("Worm", 105, 6, 3), ("Snail", 104, 12, 1)])
def test_the_merged_layer_is_the_sorted_layer(critter: str, seed: int, parents: int,
                                              depth: int) -> None:
    solver, lists = _layer(critter, seed, parents, depth)
    want = _sorted_layer(solver, lists)
    got = Ranked(_merged(lists, solver.guess)).all()
    assert [(c, w) for c, w in got] == want
    # the layers checked have ties and children met under more than one parent
    guesses = [solver.guess(c) for c, _ in want]
    assert len(set(guesses)) < len(guesses)
    assert len(want) < sum(len(kids) for _, kids in lists)


@pytest.mark.parametrize("width", [1, 4, 16])
@pytest.mark.parametrize("floor", [9, 14, 15])
def test_keep_reads_a_lazy_layer_as_the_whole_list(width: int, floor: int) -> None:
    solver, lists = _layer("Ant", 116, 16, 2)
    whole = _sorted_layer(solver, lists)
    lazy = Ranked(_merged(lists, solver.guess))
    assert solver.keep(lazy, width, floor) == solver.keep(whole, width, floor)
    # and it ranked no more of the layer than it read
    assert len(lazy.items) < len(whole)


def test_ranked_draws_only_what_is_read() -> None:
    drawn: list[int] = []

    def items() -> object:
        for k in range(10):
            drawn.append(k)
            yield (k, k)

    ranked = Ranked(items())  # type: ignore[arg-type]
    assert ranked.has(2) and drawn == [0, 1, 2]
    assert ranked[1] == (1, 1)
    assert not ranked.has(10) and len(drawn) == 10
    assert ranked.all() == [(k, k) for k in range(10)]


def _second_turn(root: State, skip: int) -> tuple[State, State]:
    """The states after the first and second turns of a width-1 beam's plan from ``root``
    whose second layer passes over its first ``skip`` children (``Beam.skip_layer`` 2)."""
    solver = Solver(root, None)
    solver.best = Plan(-1, [], [])  # any plan beats it: the beam's own is kept
    solver.beam(1, GROWERS, skip, skip_layer=2)
    assert solver.best.score >= 0 and len(solver.best.states) > 2
    return solver.best.states[1], solver.best.states[2]


@pytest.mark.parametrize("skip", [0, 3, 9])
def test_a_beam_passes_over_the_first_children_of_its_second_layer(skip: int) -> None:
    root = new_game(DECK, "Ant", seed=120)
    solver = Solver(root, None)
    first = solver.light(root, GROWERS)[0][0]  # the first turn is the best by guess
    kids = solver.light(first, GROWERS)  # best guess first, as the beam ranks them
    assert _second_turn(root, skip) == (first, kids[skip][0])
