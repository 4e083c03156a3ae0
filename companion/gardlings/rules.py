"""Gardlings on the shared game interface: new games, state files of any moment, rule codes.

>>> state = RULES.new_game(["Ann", "Ben"], None, {"seed": 1})
>>> state.current_player() == SIMULTANEOUS, sorted(map(str, state.legal_actions()))
(True, ['0: draw', '0: stop', '1: draw', '1: stop'])
>>> RULES.load(RULES.dump(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.games.interface import SIMULTANEOUS
from companion.gardlings.catalogue import Catalogue, catalogue_for
from companion.gardlings.game import CODES, VIOLATION_CODES, State
from companion.gardlings.setup import new_game
from companion.gardlings.state_file import VARIANTS, dump_state, parse_state


class GardlingsRules:
    """The :class:`~companion.games.interface.Rules` of Gardlings."""

    name = "gardlings"
    variants = VARIANTS
    violation_codes = VIOLATION_CODES
    codes = CODES

    def __init__(self, catalogue: str | None = None, base: Path = Path(".")) -> None:
        self.catalogue_ref = catalogue or "sample"
        self.base = base

    @property
    def catalogue(self) -> Catalogue:
        return catalogue_for(self.catalogue_ref, self.base)

    def new_game(self, seats: Sequence[str], variant: str | None = None,
                 options: Mapping[str, Any] | None = None) -> State:
        """A game for ``seats`` (clockwise; the first holds the start player marker).
        Options: ``seed``, ``missions`` (the mini-expansion), ``long_game`` (to 20),
        ``round_limit`` (default 40; 0: none)."""
        variant = variant or "basic"
        if variant not in VARIANTS:
            raise StateError(f"variant: {variant!r} is not one of {', '.join(VARIANTS)}")
        return new_game(self.catalogue, list(seats), variant, options, self.catalogue_ref)

    def load(self, data: Mapping[str, Any]) -> State:
        return parse_state(dict(data), self.base)

    def dump(self, state: State) -> dict[str, Any]:
        return dump_state(state)


RULES = GardlingsRules()

__all__ = ["RULES", "SIMULTANEOUS", "GardlingsRules"]
