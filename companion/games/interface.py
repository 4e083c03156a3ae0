"""The one interface every game fills: rules, a frozen state, rulings and a score sheet.

Modelled on OpenSpiel's Python games and python-chess. A game's :class:`Rules` makes and
reads states; a :class:`GameState` is a frozen value that lists its legal actions, rules on
any action (legal, or which rule it breaks and where), and returns a new state when one is
applied. Everything here is pure: no OpenCV, no devices, no user interface, so the command
line, the table service and the conformance test (``tests/games``) treat every game alike.

Who moves is :meth:`GameState.current_player`: a seat index (0 is the first seat), or

* :data:`CHANCE`: the bag, the deck or the dice decide; :meth:`GameState.chance_outcomes`
  lists what may happen with its probability, and applying one of them moves on;
* :data:`SIMULTANEOUS`: several seats act at once (Gardlings' building); each listed action
  names its seat (``action.seat``) and they may be applied in any order;
* :data:`TERMINAL`: the game is over and :meth:`GameState.score_sheet` is final.

Optional roles a game may add beside its rules (each found through the registry, never
imported by shared code): an advisor (``hint`` / ``assist``), a bot that plays a seat (a
dummy opponent such as Meadow's Rover), an observer (photo to observation) and a table flow
(the service's pages). They are :class:`typing.Protocol` s below so a game fills only those it
has.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from companion.errors import StateError
from companion.games.score import ScoreSheet

CHANCE = -1
SIMULTANEOUS = -2
TERMINAL = -4

#: the code every game may use for "not an action of this moment" (wrong phase, wrong seat)
NOT_NOW = "not-now"


class IllegalAction(StateError):
    """An action the rules refuse: ``code`` is one of the game's own ``violation_codes``.

    A :class:`~companion.errors.StateError` (a move that breaks the rules is a state the rules
    refuse), so every caller that reports bad states reports illegal actions too."""

    def __init__(self, message: str, code: str = NOT_NOW,
                 violations: Sequence[Violation] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.violations = tuple(violations)


@dataclass(frozen=True)
class Violation:
    """One rule an action breaks: the rule's code, where on the table, and why in words.

    ``code`` is stable (tests and scripts compare it); ``message`` is for people and may be
    reworded at any time.
    """

    code: str
    where: tuple[str, ...] = ()
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.code, "where": list(self.where), "message": self.message}


@dataclass(frozen=True)
class Ruling:
    """The rules' answer to "may I do this now, and what does it trigger?"."""

    action: Any
    violations: tuple[Violation, ...] = ()
    #: what a legal action sets off, in the game's own words (sets made, gems, alarms, ...)
    triggers: Mapping[str, Any] = field(default_factory=dict)

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(v.code for v in self.violations)

    def refusal(self) -> IllegalAction:
        """The error :meth:`GameState.apply` raises for an action ruled illegal."""
        first = self.violations[0]
        text = "; ".join(v.message or v.code for v in self.violations)
        return IllegalAction(text, first.code, self.violations)

    @classmethod
    def from_legal_list(cls, state: GameState, action: Any, *,
                        code: str = NOT_NOW) -> Ruling:
        """The ruling of a game whose legal actions are all listed: legal when listed."""
        if action in state.legal_actions():
            return cls(action)
        return cls(action, (Violation(code, (), f"not a legal action now: {action}"),))


@runtime_checkable
class GameState(Protocol):
    """A position of one game: frozen, hashable, and all the rules need to go on."""

    def current_player(self) -> int:
        """A seat index, or :data:`CHANCE`, :data:`SIMULTANEOUS` or :data:`TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[Hashable]:
        """Every action the rules allow now (empty when terminal)."""
        ...

    def rule(self, action: Any) -> Ruling:
        """Whether ``action`` is legal now, which rules it breaks, and what it triggers."""
        ...

    def apply(self, action: Any) -> GameState:
        """The state after ``action``; :class:`IllegalAction` (with a code) if it is not legal."""
        ...

    def is_terminal(self) -> bool:
        ...

    def score_sheet(self) -> ScoreSheet:
        """The score as it stands (final once terminal): every seat, line by line."""
        ...


class Rules(Protocol):
    """What a game provides to make, read and write its states (one object per game)."""

    #: the spec's name of the game (``the-glade``)
    name: str
    #: the variants ``new_game`` takes, the default first
    variants: tuple[str, ...]
    #: every code a :class:`Violation` or :class:`IllegalAction` of this game may carry
    violation_codes: frozenset[str]

    def new_game(self, seats: Sequence[str], variant: str | None = None,
                 options: Mapping[str, Any] | None = None) -> GameState:
        """A game set up for these seats (names, in clockwise order). ``options`` are the
        game's own (``seed`` deals a reproducible game wherever chance sets up the table)."""
        ...

    def load(self, data: Mapping[str, Any]) -> GameState:
        """A state from its state-file data (the spec's format); :class:`StateError` names
        the field that is wrong."""
        ...

    def dump(self, state: GameState) -> dict[str, Any]:
        """The state-file data of ``state``: ``load(dump(s)) == s``, through JSON."""
        ...


def chance_outcomes(state: Any) -> list[tuple[Any, float]]:
    """What may happen at a chance node, each with its probability (they sum to 1)."""
    outcomes = getattr(state, "chance_outcomes", None)
    if outcomes is None:
        actions = list(state.legal_actions())
        return [(a, 1 / len(actions)) for a in actions]
    return list(outcomes())


def sample_chance(state: Any, rng: random.Random) -> Any:
    """One outcome of a chance node, drawn with its probability."""
    outcomes = chance_outcomes(state)
    return rng.choices([a for a, _p in outcomes], [p for _a, p in outcomes])[0]


class Advisor(Protocol):
    """Suggests actions for a seat, best first (``hint``, ``assist``)."""

    def advise(self, state: GameState, seat: int, *, limit: int | None = None,
               seconds: float | None = None) -> Sequence[Any]:
        ...


class Bot(Protocol):
    """Plays a seat by itself (simple bots, Meadow's Rover)."""

    def choose(self, state: GameState, seat: int, rng: random.Random) -> Any:
        ...


class Observer(Protocol):
    """Turns a photo into an observation the game's flow can turn into an action."""

    def observe(self, image: Any) -> Any:
        ...


__all__ = ["CHANCE", "NOT_NOW", "SIMULTANEOUS", "TERMINAL", "Advisor", "Bot", "GameState",
           "IllegalAction", "Observer", "Rules", "Ruling", "Violation", "chance_outcomes",
           "sample_chance"]
