"""Succulent effects and glass bonuses: the options of one step, and performing one.

Rulings: an effect is mandatory, but a step with nothing legal to act on (no legal shift, no
plant of the named kind, no dark glass) is skipped; a step marked ``optional`` may be
declined with ``Skip``. Shifts and moves from effects follow the actions' rules (a shift never
passes the critter or leaves the garden; its direction is the face-up arrow unless the step
names one). A free ``grow`` grows the target exactly as paying would (glass, then its own
effect, before the rest of this effect).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.errors import StateError
from companion.glass_garden.actions import (
    MOVES,
    Action,
    FlipCritter,
    FlipGlass,
    Grow,
    Move,
    Protect,
    Shift,
    Skip,
)
from companion.glass_garden.critter import arrow
from companion.glass_garden.garden import BOTTOM, TOP
from companion.glass_garden.growing import grow_plant

if TYPE_CHECKING:
    from companion.glass_garden.deck import Step
    from companion.glass_garden.game import Pending, State


def targets(state: State, step: Step, source: int) -> list[int]:
    g = state.garden
    sel = step.plant
    if sel == "self":
        found = [source]
    elif sel == "any":
        found = list(g.plant_order())
    elif sel == "neighbor":
        found = list(g.neighbors(source))
    elif sel == "adjacent":
        if source >= 8:
            plant = g.glass_plant(source - 8)
            found = [] if plant is None else [plant]
        else:
            found = list(g.adjacent(source))
    else:
        found = [state.deck.plant_index(sel)]
    if step.only == "soil":
        found = [p for p in found if not g.is_grown(p)]
    elif step.only == "succulent":
        found = [p for p in found if g.is_grown(p)]
    return found


def _glass_choices(state: State, step: Step, source: int) -> list[int]:
    g = state.garden
    if step.glass == "any":
        cands = list(range(6))
    elif source >= 8:
        cands = [source - 8]
    elif step.glass == "row":
        cands = [g.rows[source], 3 + g.rows[source]]
    else:
        adj = g.adjacent_glass(source)
        cands = [] if adj is None else [adj]
    return [c for c in cands if not g.is_sunlit(c)]


def options(state: State, pending: Pending, raw: bool = False) -> list[Action]:
    """The choices for one pending step (``raw``: without the optional Skip)."""
    step, source = pending.step, pending.source
    g = state.garden
    out: list[Action] = []
    if step.kind == "move":
        dys = _DYS[step.direction]
        rows = g.rows
        out = [MOVES[p][dy] for p in targets(state, step, source) for dy in dys
               if TOP <= rows[p] + dy <= BOTTOM]
    elif step.kind == "shift":
        if step.direction == "arrow":
            dirs: tuple[int, ...] = (arrow(state.table.critter, g),)
        else:
            dirs = {"left": (-1,), "right": (1,), "either": (-1, 1)}[step.direction]
        out = [Shift(p, s) for p in targets(state, step, source) for d in dirs
               for s in g.shift_targets(p, d, step.distance)]
    elif step.kind == "grow":
        out = [Grow(p) for p in targets(state, step, source) if not g.is_grown(p)]
    elif step.kind == "flip_glass":
        out = [FlipGlass(c) for c in _glass_choices(state, step, source)]
    elif step.kind == "protect":
        out = [Protect(p) for p in targets(state, step, source)
               if not state.protected >> p & 1]
    elif step.kind == "flip_critter":
        out = [FlipCritter()]
    if out and step.optional and not raw:
        out.append(Skip())
    return out


#: the directions of a move step
_DYS = {"up": (-1,), "down": (1,), "either": (-1, 1)}


def has_options(state: State, pending: Pending) -> bool:
    """Whether ``options(state, pending, raw=True)`` is not empty, without making the
    actions of a move step (:meth:`game.State.settle` asks it of every state an action
    leaves with a step pending; most of those steps are moves)."""
    step = pending.step
    if step.kind == "move":
        dys = _DYS[step.direction]
        rows = state.garden.rows
        return any(TOP <= rows[p] + dy <= BOTTOM
                   for p in targets(state, step, pending.source) for dy in dys)
    return bool(options(state, pending, raw=True))


def perform(state: State, action: Action) -> State:
    """Perform ``action`` as the first pending step (assumed legal)."""
    rest = state.pending[1:]
    g = state.garden
    match action:
        case Skip():
            return state.changed(pending=rest)
        case Move(plant, dy):
            return state.changed(garden=g.move(plant, dy), pending=rest)
        case Shift(plant, steps):
            return state.changed(garden=g.shift(plant, steps), pending=rest)
        case Grow(plant, _):
            return grow_plant(state.changed(pending=rest), plant)
        case FlipGlass(glass):
            return state.changed(garden=g.light(glass), pending=rest)
        case Protect(plant):
            return state.changed(protected=state.protected | 1 << plant, pending=rest)
        case FlipCritter():
            return state.changed(garden=replace(g, critter_side=1 - g.critter_side), pending=rest)
    raise StateError(f"not a choice for this step: {action!r}")
