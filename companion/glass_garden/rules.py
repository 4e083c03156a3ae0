"""Glass Garden on the shared game interface: new games, and state files of any moment.

The state file of ``state_file`` describes a position at the start of a step, as a player
writes it. The conformance test and the service also keep positions part-way through a step
(pending effect steps, resources already paid, protected plants), so :meth:`GlassGardenRules.dump`
adds those as optional fields (``phase``, ``used``, ``protected``, ``pending``) that
:meth:`GlassGardenRules.load` reads back: ``load(dump(s)) == s`` for every state of a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.errors import StateError
from companion.glass_garden.deck import SAMPLE_DECK, Deck, load_deck
from companion.glass_garden.game import (
    ACTIONS,
    GROW,
    OVER,
    SUNLIGHT,
    VIOLATION_CODES,
    Pending,
    State,
    new_game,
)
from companion.glass_garden.state_file import dump_state, parse_state

PHASES = (ACTIONS, GROW, SUNLIGHT, OVER)
EXTRA_FIELDS = ("phase", "used", "protected", "pending", "player")


def _sources(deck: Deck, source: int) -> tuple[Any, ...]:
    """The steps a pending step can come from: a plant's effect, or a glass card's bonus."""
    if 0 <= source < 8:
        return deck.plants[source].effect
    if 8 <= source < 8 + len(deck.glass):
        return deck.glass[source - 8].bonus
    raise StateError(f"pending: source {source} is not a plant (0-7) or a glass card (8-13)")


def _int_list(value: Any, field: str) -> list[int]:
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise StateError(f"{field}: must be a list of whole numbers")
    return value


class GlassGardenRules:
    """The :class:`~companion.games.interface.Rules` of Glass Garden (one seat, no chance
    after the deal)."""

    name = "glass-garden"
    variants = ("basic",)
    violation_codes = VIOLATION_CODES

    def __init__(self, deck: Deck | None = None) -> None:
        self._deck = deck

    @property
    def deck(self) -> Deck:
        if self._deck is None:
            self._deck = load_deck(SAMPLE_DECK)
        return self._deck

    def new_game(self, seats: Sequence[str] = ("Solo",), variant: str | None = None,
                 options: Mapping[str, Any] | None = None) -> State:
        """A dealt garden; options ``critter`` (default: chosen by ``seed``) and ``seed``."""
        if len(seats) != 1:
            raise StateError(f"Glass Garden is a solo game, not for {len(seats)} players")
        if variant not in (None, *self.variants):
            raise StateError(f"variant: {variant!r} is not one of {', '.join(self.variants)}")
        options = dict(options or {})
        seed = options.get("seed")
        critter = options.get("critter")
        if critter is None:
            import random

            critter = random.Random(seed).choice(self.deck.critters).name
        state = new_game(self.deck, str(critter), seed=seed)
        return replace(state, table=replace(state.table, player=seats[0]))

    def load(self, data: Mapping[str, Any]) -> State:
        data = dict(data)
        extra = {k: data.pop(k) for k in EXTRA_FIELDS if k in data}
        state = parse_state(data)
        player = extra.pop("player", "Solo")
        if not isinstance(player, str) or not player.strip():
            raise StateError("player: must be the solo player's name")
        if player != state.table.player:
            state = replace(state, table=replace(state.table, player=player))
        if not extra:
            return state
        phase = extra.get("phase", state.phase)
        if phase not in PHASES:
            raise StateError(f"phase: {phase!r} is not one of {', '.join(PHASES)}")
        used = frozenset(_int_list(extra.get("used", []), "used"))
        protected = extra.get("protected", 0)
        if isinstance(protected, bool) or not isinstance(protected, int) or \
                not 0 <= protected < 1 << 8:
            raise StateError("protected: must be a bit mask of plants (0-255)")
        pending_raw = extra.get("pending", [])
        if not isinstance(pending_raw, list):
            raise StateError("pending: must be a list of {source, step}")
        pending = []
        for i, item in enumerate(pending_raw):
            if not isinstance(item, dict) or set(item) != {"source", "step"}:
                raise StateError(f"pending[{i}]: must be {{source: N, step: N}}")
            source, step = _int_list([item["source"], item["step"]], f"pending[{i}]")
            steps = _sources(state.deck, source)
            if not 0 <= step < len(steps):
                raise StateError(f"pending[{i}].step: {step} is not a step of source {source}")
            pending.append(Pending(steps[step], source))
        left = data.get("actions_left", 2) if phase in (ACTIONS, GROW) else 2
        return replace(state, phase=phase, actions_left=left, used=used, protected=protected,
                       pending=tuple(pending))

    def dump(self, state: State, deck_ref: str = "sample") -> dict[str, Any]:
        data = dump_state(state, deck_ref)
        if state.table.player != "Solo":
            data["player"] = state.table.player
        if state.phase in (ACTIONS, GROW):
            data["actions_left"] = state.actions_left
        data["phase"] = state.phase
        data["used"] = sorted(state.used)
        data["protected"] = state.protected
        data["pending"] = [{"source": p.source,
                            "step": _sources(state.deck, p.source).index(p.step)}
                           for p in state.pending]
        return data


RULES = GlassGardenRules()
