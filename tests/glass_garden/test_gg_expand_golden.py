"""The solver's turn expansion, guess and bound give exactly what they gave before their speed-ups.

The search's results (which plans it finds, in what order, and when it proves one) depend on
every outcome of every turn expansion, its path, its order, and on each outcome's guess and
bound. ``test_gg_search.py`` checks the full expansion against the rules engine, but nothing
else pins the light expansion's choice of gardens to grow from, the guesses it hands back, or
the exact values of the guess and the bound. The digests below were computed with the code of
5447585 (before the #26 expansion speed-ups): a change that alters any of them fails here.

States: for each critter, two deals, and at every dark turn of a fixed descent (the outcome at
a fixed place in each turn's list) the full and the light expansion (``growers`` 16, the
solver's beams) with their guesses, and the guess and bound of every outcome of the full one.
"""

from __future__ import annotations

import hashlib

import pytest

from companion.glass_garden import expand
from companion.glass_garden.bound import guess, upper_bound
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import SUNLIGHT, State, new_game

#: sha256 (first 16 hex digits) of each critter's expansions, by :func:`digest`, from 5447585
GOLDEN = {
    "Fly": "add2de6124f36d14",
    "Snail": "c064d166b9a535df",
    "Ant": "2c604fd1480e54ab",
    "Worm": "0cd87d01fe48fb53",
}
SEEDS = (3, 26)


def _canon(state: State) -> tuple[object, ...]:
    """Everything that tells states apart, in a form whose text does not depend on the hash
    seed or on how the classes print."""
    g = state.garden
    return (g.cols, g.rows, g.grown, g.glass, g.critter_side, state.turn, state.phase,
            state.actions_left, tuple(sorted(state.used)), state.protected,
            tuple((repr(q.step), q.source) for q in state.pending))


def digest(critter: str) -> str:
    """The digest of the expansions along two deals' fixed descents (see the module)."""
    deck = load_deck()
    h = hashlib.sha256()
    for seed in SEEDS:
        state = new_game(deck, critter, seed=seed)
        while state.phase != SUNLIGHT:
            for growers in (None, 16):
                known: dict[State, float] = {}
                found = expand.outcomes(state, growers=growers, guesses=known)
                h.update(repr([(_canon(t), path) for t, path in found.items()]).encode())
                h.update(repr([(_canon(t), v) for t, v in known.items()]).encode())
                if growers is None:
                    kids = list(found)
                    h.update(repr([(guess(t), upper_bound(t)) for t in kids]).encode())
            state = kids[(7 * state.turn + seed) % len(kids)]
    return h.hexdigest()[:16]


@pytest.mark.parametrize("critter", sorted(GOLDEN))
def test_expansion_guess_and_bound_unchanged(critter: str) -> None:
    assert digest(critter) == GOLDEN[critter]
