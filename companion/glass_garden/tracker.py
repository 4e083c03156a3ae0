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
from companion.glass_garden.deck import GLASS_POSITIONS, ROWS, Deck
from companion.glass_garden.game import GROW, OVER, State, new_game
from companion.glass_garden.solver import Result, solve
from companion.glass_garden.state_file import dump_state, load_state, parse_state


def contradictions(before: State, after: State) -> list[str]:
    """What in ``after`` (a position read from a photo) the rules cannot explain since
    ``before`` (the last accepted position), each naming its cards: a plant that jumped two
    rows, a column order that no single shift explains, a succulent turned back to soil, a
    glass card lit without a succulent at that row's edge. Empty when nothing is odd; the
    player then confirms or retakes."""
    deck = before.deck
    old, new = before.garden, after.garden
    out = []
    for p, plant in enumerate(deck.plants):
        if abs(old.rows[p] - new.rows[p]) == 2:
            out.append(f"{plant.name} jumped two rows ({ROWS[old.rows[p]]} -> "
                       f"{ROWS[new.rows[p]]})")
        if old.is_grown(p) and not new.is_grown(p):
            out.append(f"{plant.name} turned back from succulent to soil")
    a, b = old.plant_order(), new.plant_order()
    if a != b and not any(tuple(x for x in a if x != p) == tuple(x for x in b if x != p)
                          for p in a):
        moved = [deck.plants[p].name for i, p in enumerate(b) if a[i] != p]
        out.append("the column order changed more than one shift can: "
                   + ", ".join(moved[:4]) + (" ..." if len(moved) > 4 else ""))
    left, right = new.edge_plants()
    for g, pos in enumerate(GLASS_POSITIONS):
        if old.is_sunlit(g) or not new.is_sunlit(g):
            continue
        edge = left if g < 3 else right
        if not (new.rows[edge] == g % 3 and new.is_grown(edge)):
            out.append(f"the {pos} glass lit, but {deck.plants[edge].name} at that edge is "
                       f"not a succulent in its row")
    return out


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

    def contradictions(self, data: dict[str, Any] | State) -> list[str]:
        """What a reading (a scan's state file, ``uncertain`` left out, or a state) contradicts
        since the current position; see :func:`contradictions`."""
        new = data if isinstance(data, State) else parse_state(
            {k: v for k, v in data.items() if k != "uncertain"})
        return contradictions(self.state, new)

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
