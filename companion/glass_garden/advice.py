"""Turn plans in words: what to do, what grows, what the critter damages, and the score.

Used by the assist job, the terminal game and the tracker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.glass_garden.actions import (
    Action,
    Done,
    Grow,
    Move,
    Shift,
    Skip,
    UseGlass,
    describe,
)
from companion.glass_garden.critter import side_up
from companion.glass_garden.damage import apply_damage
from companion.glass_garden.game import GROW, OVER, SUNLIGHT_TURN, State


@dataclass
class TurnStory:
    """One turn of a plan, replayed through the engine."""

    turn: int
    actions: list[str] = field(default_factory=list)
    growth: list[str] = field(default_factory=list)  # grows and effect choices, in order
    grown: list[str] = field(default_factory=list)
    glass: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    score_after: int = 0
    garden_after: str = ""

    def line(self) -> str:
        label = "sunlight" if self.turn == SUNLIGHT_TURN else f"turn {self.turn}"
        parts = []
        if self.turn != SUNLIGHT_TURN:
            parts.append("; ".join(self.actions) if self.actions else "no actions")
        if self.growth:
            parts.append(", ".join(self.growth))
        elif self.turn == SUNLIGHT_TURN:
            parts.append("nothing to do")
        if self.turn != SUNLIGHT_TURN:
            parts.append("damage: " + (", ".join(self.damaged) if self.damaged else "none"))
        return f"{label}: " + " | ".join(parts) + f" -> score {self.score_after}"

    def data(self) -> dict[str, Any]:
        return {"turn": "sunlight" if self.turn == SUNLIGHT_TURN else self.turn,
                "actions": self.actions, "growth": self.growth, "grows": self.grown,
                "glass": self.glass, "damaged": self.damaged, "score_after": self.score_after,
                "garden_after": self.garden_after, "summary": self.line()}


def tell_turn(state: State, path: tuple[Action, ...]) -> tuple[TurnStory, State]:
    """Replay ``path`` from ``state`` (checked) and describe it."""
    deck = state.deck
    story = TurnStory(state.turn)
    for action in path:
        if isinstance(action, Done) and state.phase == GROW and not state.pending:
            before = state.garden
            hit = apply_damage(before, side_up(state.table.critter, before).damage,
                               state.protected)
            story.damaged = [deck.plants[p].name for p in range(8)
                             if hit.rows[p] != before.rows[p]]
        words = describe(action, deck)
        if state.phase == "actions" and isinstance(action, Shift | Move):
            story.actions.append(words)
        elif not isinstance(action, Done | Skip):
            if isinstance(action, Grow):
                story.grown.append(deck.plants[action.plant].name)
            if isinstance(action, UseGlass):
                story.glass.append(deck.glass[action.glass].name)
            story.growth.append(words)
        state = state.apply(action)
    story.score_after = state.score()
    story.garden_after = state.garden.text()
    return story, state


def tell_plan(state: State, turns: list[tuple[Action, ...]]) -> tuple[list[TurnStory], State]:
    stories = []
    for path in turns:
        story, state = tell_turn(state, path)
        stories.append(story)
    if state.phase != OVER:
        raise ValueError("the plan does not reach the end of the game")
    return stories, state


def best_turn_line(state: State, turns: list[tuple[Action, ...]], score: int,
                   optimal: bool = False) -> str:
    """One short line for a screen while the search goes on: the best plan's score so far and
    what to do this turn (its actions, or the growth in the sunlight phase)."""
    if not turns:
        return f"score {score}"
    story, _ = tell_turn(state, turns[0])
    doing = story.actions if state.turn != SUNLIGHT_TURN else story.growth
    what = "; ".join(doing) if doing else "no actions"
    return f"{'Best' if optimal else 'So far'} {score}: {what}"
