"""A game tracker for the table service: one game, advanced turn by turn.

The player either confirms each step (``choose``/``confirm_turn``) or a whole new position
arrives from a scan or the buttons (``sync``); the tracker keeps the history, can undo, and
gives advice at any start of a turn.

>>> from companion.glass_garden.deck import load_deck
>>> t = GameTracker.deal(load_deck(), "Fly", seed=1)
>>> t.state.turn, t.options()[-1]
(1, 'done')
>>> t.choose(len(t.options()) - 1).phase
'grow'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.glass_garden.actions import Action, Done, describe
from companion.glass_garden.advice import TurnStory, tell_turn
from companion.glass_garden.deck import Deck
from companion.glass_garden.game import GROW, OVER, State, new_game
from companion.glass_garden.solver import Result, solve
from companion.glass_garden.state_file import dump_state, load_state, parse_state


@dataclass
class GameTracker:
    state: State
    history: list[State] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @classmethod
    def deal(cls, deck: Deck, critter: str, *, seed: int) -> GameTracker:
        return cls(new_game(deck, critter, seed=seed))

    @classmethod
    def from_file(cls, path: Path | str) -> GameTracker:
        return cls(load_state(path))

    # -- the player confirms ------------------------------------------------------------
    def legal(self) -> list[Action]:
        return self.state.legal_actions()

    def options(self) -> list[str]:
        return [describe(a, self.state.deck) for a in self.legal()]

    def choose(self, index: int) -> State:
        actions = self.legal()
        if not 0 <= index < len(actions):
            raise StateError(f"choice {index + 1} is not one of 1-{len(actions)}")
        return self.apply(actions[index])

    def apply(self, action: Action) -> State:
        new = self.state.apply(action)
        self.history.append(self.state)
        self.log.append(describe(action, self.state.deck))
        self.state = new
        return new

    def skip_forced(self) -> list[str]:
        """Apply ``done`` while it is the only thing to do (e.g. nothing can grow)."""
        said = []
        while not self.state.is_terminal():
            actions = self.legal()
            if actions != [Done()]:
                break
            if self.state.phase == GROW:
                said.append("Nothing (more) can grow.")
            self.apply(Done())
        return said

    def confirm_turn(self, path: tuple[Action, ...]) -> TurnStory:
        """Apply a whole turn (e.g. the advice the player followed)."""
        story, state = tell_turn(self.state, path)
        self.history.append(self.state)
        self.log.append(story.line())
        self.state = state
        return story

    def undo(self) -> State:
        if not self.history:
            raise StateError("nothing to undo")
        self.state = self.history.pop()
        if self.log:
            self.log.pop()
        return self.state

    # -- a position arrives -------------------------------------------------------------
    def sync(self, data: dict[str, Any] | State) -> State:
        """Replace the position by one read from a scan or entered with the buttons."""
        new = data if isinstance(data, State) else parse_state(data)
        if new.deck is not self.state.deck and new.deck != self.state.deck:
            raise StateError("deck: the new position uses another deck")
        self.history.append(self.state)
        self.log.append(f"position set: {new}")
        self.state = new
        return new

    # -- advice -------------------------------------------------------------------------
    def advise(self, seconds: float = 1.0) -> Result:
        if self.state.phase == OVER:
            raise StateError("the game is over: there is nothing left to advise")
        return solve(self.state, seconds)

    def snapshot(self) -> dict[str, Any]:
        return dump_state(self.state)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()
