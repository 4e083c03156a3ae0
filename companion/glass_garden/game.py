"""The game state and its interface: legal actions, apply, terminal, returns (OpenSpiel style).

A :class:`State` is a frozen value; :meth:`State.apply` returns a new one. Damage and the
critter's advance happen by themselves when the growing step ends (``Done``).

>>> from companion.glass_garden.deck import load_deck
>>> state = new_game(load_deck(), "Fly", order=range(8))
>>> state.phase, state.turn, len(state.legal_actions()) > 10
('actions', 1, True)
>>> state.apply(Done()).apply(Done()).turn
2
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from companion.errors import StateError
from companion.games.interface import NOT_NOW, TERMINAL, IllegalAction, Ruling, Violation
from companion.games.score import ScoreSheet
from companion.glass_garden import effects, growing, sunlight
from companion.glass_garden.actions import Action, Done, Grow, Move, Shift, UseGlass
from companion.glass_garden.critter import DARK_TURNS, advance, arrow, side_up
from companion.glass_garden.damage import apply_damage
from companion.glass_garden.deck import Critter, Deck, Step
from companion.glass_garden.garden import BOTTOM, TOP, Garden
from companion.glass_garden.scoring import score, score_sheet

ACTIONS, GROW, SUNLIGHT, OVER = "actions", "grow", "sunlight", "over"
#: the codes of Glass Garden's refusals (with the interface's ``not-now``: an action of this
#: step that the garden does not allow, such as a shift against the critter's arrow)
GAME_OVER, WRONG_STEP = "game-over", "wrong-step"
VIOLATION_CODES = frozenset({GAME_OVER, WRONG_STEP, NOT_NOW})
SUNLIGHT_TURN = DARK_TURNS + 1


@dataclass(frozen=True, eq=False)
class Table:
    """What stays fixed for a whole game: the deck and the critter in play."""

    deck: Deck
    critter: Critter
    #: the name of the one seat, as the score sheet shows it
    player: str = "Solo"


@dataclass(frozen=True, slots=True)
class Pending:
    """An effect or glass-bonus step still to perform; ``source`` is a plant number, or
    ``8 + position`` for a glass card."""

    step: Step
    source: int
    # the hash, worked out once: every state's hash takes in its pending steps
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.step, self.source)))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True, slots=True)
class State:
    table: Table = field(compare=False, hash=False, repr=False)
    garden: Garden
    turn: int = 1  # 1-9 dark turns, 10 sunlight phase
    phase: str = ACTIONS
    actions_left: int = 2
    used: frozenset[int] = frozenset()  # resources that paid during this growing step
    protected: int = 0  # bit p: plant p cannot be damaged this turn
    pending: tuple[Pending, ...] = ()
    # the hash, worked out once, when first asked for (-1: not yet; no hash is -1): states are
    # looked up in many tables during a search, and many made on the way never are. It is the
    # garden's hash XOR that of the other fields compared (:func:`fields_hash`), so a maker of
    # many states that differ only in their gardens works the second part out once
    _hash: int = field(init=False, repr=False, compare=False, default=-1)

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = self.garden._hash ^ hash((self.turn, self.phase, self.actions_left, self.used,
                                          self.protected, self.pending))
            object.__setattr__(self, "_hash", h)
        return h

    def __eq__(self, other: object) -> bool:
        """The dataclass's comparison (every field but the table and the hash, in order),
        field by field instead of on two tuples made for it: a state met again by another
        way is compared in every table that finds it."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        o: State = other  # type: ignore[assignment]
        return (self.garden == o.garden and self.turn == o.turn and self.phase == o.phase
                and self.actions_left == o.actions_left and self.used == o.used
                and self.protected == o.protected and self.pending == o.pending)

    # -- the game interface -------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.pending:
            return effects.options(self, self.pending[0])
        if self.phase == ACTIONS:
            return [*self.shift_actions(), *self.move_actions(), Done()]
        if self.phase == GROW:
            return [*growing.grow_actions(self), Done()]
        if self.phase == SUNLIGHT:
            return [*growing.grow_actions(self), *sunlight.glass_actions(self), Done()]
        return []

    def rule(self, action: Action) -> Ruling:
        """Legal when listed; otherwise the game is over, the action belongs to another
        step (``wrong-step``), or it is of this step but the garden does not allow it."""
        if action in self.legal_actions():
            return Ruling(action)
        if self.is_terminal():
            code = GAME_OVER
        elif type(action) not in {type(a) for a in self.legal_actions()}:
            code = WRONG_STEP
        else:
            code = NOT_NOW
        where = (f"turn {self.turn}", self.phase)
        return Ruling(action, (Violation(code, where, f"not a legal action now: {action!r}"),))

    def apply(self, action: Action) -> State:
        """The state after ``action``; :class:`IllegalAction` (a :class:`StateError`) with
        the code of :meth:`rule` if it is not legal now."""
        if action not in self.legal_actions():
            raise self.rule(action).refusal()
        return self.apply_unchecked(action)

    def apply_unchecked(self, action: Action) -> State:
        if self.pending:
            state = effects.perform(self, action)
        elif self.phase == ACTIONS:
            state = self._take_action(action)
        elif isinstance(action, Done):
            state = self._end_growing() if self.phase == GROW else replace(self, phase=OVER)
        elif isinstance(action, UseGlass):
            state = sunlight.use_glass(self, action)
        elif isinstance(action, Grow):
            state = growing.grow_paid(self, action)
        else:
            raise IllegalAction(f"not an action of the {self.phase} step: {action!r}", WRONG_STEP)
        if self.phase == SUNLIGHT:  # a glass card flips back once its bonus is over
            return sunlight.after_step(self, action, state.settle())
        return state.settle()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        return [float(self.score())] if self.is_terminal() else [0.0]

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else 0

    def score(self) -> int:
        return score(self.garden)

    def score_sheet(self) -> ScoreSheet:
        """The garden's points, plant by plant (2 top row, 1 middle or bottom, 0 soil),
        with the rulebook's title for the total."""
        return score_sheet(self.table.deck, self.garden, final=self.is_terminal(),
                           seat=self.table.player)

    def __str__(self) -> str:
        where = "sunlight phase" if self.turn == SUNLIGHT_TURN else f"turn {self.turn}"
        return f"{where} ({self.phase}): {self.garden.text()}"

    # -- helpers ------------------------------------------------------------------------
    def changed(self, *, garden: Garden | None = None, pending: tuple[Pending, ...] | None = None,
                used: frozenset[int] | None = None, protected: int | None = None) -> State:
        """This state with some of the fields that change within a step replaced: what
        ``dataclasses.replace`` does, without its generic cost (the search's inner loop)."""
        return make_state(self.table, self.garden if garden is None else garden, self.turn,
                          self.phase, self.actions_left, self.used if used is None else used,
                          self.protected if protected is None else protected,
                          self.pending if pending is None else pending)

    @property
    def deck(self) -> Deck:
        return self.table.deck

    def shift_actions(self) -> list[Shift]:
        return shift_actions(self.table.critter, self.garden)

    def move_actions(self) -> list[Move]:
        return move_actions(self.garden)

    def _take_action(self, action: Action) -> State:
        if isinstance(action, Done):
            return replace(self, phase=GROW)
        if not isinstance(action, Shift | Move):
            raise IllegalAction(f"not an action of the actions step: {action!r}", WRONG_STEP)
        garden = moved(self.garden, action)
        left = self.actions_left - 1
        return make_state(self.table, garden, self.turn, GROW if left == 0 else ACTIONS, left,
                          self.used, self.protected, self.pending)

    def _end_growing(self) -> State:
        garden = apply_damage(self.garden, side_up(self.table.critter, self.garden).damage,
                              self.protected)
        if self.turn >= DARK_TURNS:
            # the actions left over from turn 9 mean nothing in the sunlight phase: one value
            # (2, as a state file gives) keeps equal positions equal states
            return replace(self, garden=garden, turn=SUNLIGHT_TURN, phase=SUNLIGHT,
                           actions_left=2, used=frozenset(), protected=0)
        return make_state(self.table, advance(garden, self.turn), self.turn + 1)

    def settle(self) -> State:
        """Drop pending steps that have nothing to act on (a step that cannot be done is
        skipped, even a mandatory one)."""
        state = self
        while state.pending and not effects.has_options(state, state.pending[0]):
            state = state.changed(pending=state.pending[1:])
        return state


_NOTHING_USED: frozenset[int] = frozenset()


def _state_maker() -> Callable[..., State]:
    """A maker of states equal to ``State(table, garden, turn, ...)`` (the same fields, the
    hash left to work out when first asked for), that sets the slots directly instead of
    through the frozen dataclass's generic ``__init__``: about a third of the time, and a
    search makes hundreds of thousands of states."""
    new = object.__new__
    setters = [getattr(State, name).__set__ for name in (
        "table", "garden", "turn", "phase", "actions_left", "used", "protected", "pending",
        "_hash")]
    s_table, s_garden, s_turn, s_phase, s_left, s_used, s_protected, s_pending, s_hash = setters

    def make_state(table: Table, garden: Garden, turn: int = 1, phase: str = ACTIONS,
                   actions_left: int = 2, used: frozenset[int] = _NOTHING_USED,
                   protected: int = 0, pending: tuple[Pending, ...] = (),
                   hashed: int = -1) -> State:
        s = new(State)
        s_table(s, table)
        s_garden(s, garden)
        s_turn(s, turn)
        s_phase(s, phase)
        s_left(s, actions_left)
        s_used(s, used)
        s_protected(s, protected)
        s_pending(s, pending)
        s_hash(s, hashed)
        return s

    return make_state


#: ``State(...)`` for the search's hot paths (the same value, made quicker). ``hashed``: the
#: state's hash when the caller has it (``garden._hash ^ fields_hash(...)`` of the same
#: fields); -1, worked out when first asked for.
make_state = _state_maker()


def fields_hash(turn: int = 1, phase: str = ACTIONS, actions_left: int = 2,
                used: frozenset[int] = _NOTHING_USED, protected: int = 0,
                pending: tuple[Pending, ...] = ()) -> int:
    """What a state's hash takes in besides its garden's (:meth:`State.__hash__`)."""
    return hash((turn, phase, actions_left, used, protected, pending))


def shift_actions(critter: Critter, garden: Garden) -> list[Shift]:
    """The shifts of the actions step in ``garden``: any plant, in the direction of the
    critter's arrow, any legal distance."""
    d = arrow(critter, garden)
    return [Shift(p, s) for p in garden.plant_order() for s in garden.shift_targets(p, d)]


def move_actions(garden: Garden) -> list[Move]:
    """The moves of the actions step in ``garden``: any plant one row up or down."""
    return [Move(p, dy) for p in range(8) for dy in (-1, 1)
            if TOP <= garden.rows[p] + dy <= BOTTOM]


def moved(garden: Garden, action: Shift | Move) -> Garden:
    """``garden`` after one shift or move of the actions step."""
    if isinstance(action, Shift):
        return garden.shift(action.plant, action.steps)
    return garden.move(action.plant, action.dy)


def new_game(deck: Deck, critter: str | Critter, *, order: Iterable[int] | None = None,
             seed: int | None = None) -> State:
    """The dealt start: plants shuffled (or in ``order``) right of the critter, middle row."""
    if isinstance(critter, str):
        try:
            critter = deck.critter(critter)
        except KeyError:
            names = ", ".join(c.name for c in deck.critters)
            raise StateError(f"critter: {critter!r} is not in the deck ({names})") from None
    if order is None:
        plants = list(range(8))
        random.Random(seed).shuffle(plants)
        order = plants
    return State(Table(deck, critter), Garden.start(tuple(order)))
