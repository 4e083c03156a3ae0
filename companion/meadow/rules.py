"""Meadow on the shared game interface: its rule codes, new games, and state files.

>>> state = RULES.new_game(["Ada", "Ben"], options={"seed": 1})
>>> state.current_player(), [str(a) for a in state.legal_actions()][:2]
(1, ['row 1', 'row 2'])
>>> RULES.load(RULES.dump(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.meadow.catalogue import load_catalogue
from companion.meadow.game import CODES, VIOLATION_CODES, State
from companion.meadow.setup import new_game
from companion.meadow.state_file import dump_state, parse_state


class MeadowRules:
    """The :class:`~companion.games.interface.Rules` of Meadow (1 seat: solo against Rover)."""

    name = "meadow"
    variants = ("standard", "first-game")
    violation_codes = VIOLATION_CODES
    codes = CODES

    def new_game(self, seats: Sequence[str], variant: str | None = None,
                 options: Mapping[str, Any] | None = None) -> State:
        """A game for ``seats``; options ``seed``, ``envelopes`` (letters), ``catalogue``
        (a path; default the SAMPLE one). Variant ``first-game`` deals the starting cards."""
        if variant not in (None, *self.variants):
            raise StateError(f"variant: {variant!r} is not one of {', '.join(self.variants)}")
        options = dict(options or {})
        seed = options.get("seed") or 0
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise StateError(f"seed: {seed!r} is not a whole number, 0 or more")
        ref = options.get("catalogue")
        cat = load_catalogue(Path(ref)) if ref else load_catalogue()
        return new_game(cat, list(seats), seed=seed, first_game=variant == "first-game",
                        envelopes=tuple(options.get("envelopes", ())),
                        catalogue_ref=str(Path(ref).resolve()) if ref else "sample")

    def load(self, data: Mapping[str, Any]) -> State:
        return parse_state(data)

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)


RULES = MeadowRules()

__all__ = ["RULES", "MeadowRules"]
