"""Advice: what a placement gains, every legal placement ranked, stopping, and a simple bot.

What a new tile gains is found locally (the gems at its own edges, the bonus lines it
completes on itself and on its neighbours) plus the change of the mission's gems, which is
exact because a tile added never breaks a gem that was complete.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.gardlings.catalogue import EMPTY, gem_colours, gem_value
from companion.gardlings.game import (
    HIRE,
    Accept,
    Action,
    Buy,
    Draw,
    Mutate,
    Pass,
    Place,
    Redraw,
    State,
    Stop,
    TakePiglet,
)
from companion.gardlings.garden import STEP, Cell, Garden, Placement, opposite, unit_edges
from companion.gardlings.gems import complete_at, complete_gems, empty_joins
from companion.gardlings.gnome_alarm import alarm_chance, sets_off
from companion.gardlings.missions import has_shape, mission_gems
from companion.gardlings.placement import legal_placements


@dataclass(frozen=True)
class MissionBase:
    """A mission's standing before a tile is laid, so each placement's change is cheap."""

    mission: str | None
    gems: int = 0
    kind: str = ""
    count: int = 0
    covered: frozenset[Cell] = frozenset()

    @classmethod
    def of(cls, garden: Garden, mission: str | None) -> MissionBase:
        effect = garden.tile(mission).effect if mission in garden.index else None
        if mission is None or effect is None:
            return cls(None)
        gems = mission_gems(garden, mission)
        count = 0
        covered: frozenset[Cell] = frozenset()
        if effect.kind == "empty-joins":
            count = empty_joins(garden)
        elif effect.kind == "colour-gems":
            count = sum(g.value for g in complete_gems(garden) if effect.colour in g.colours)
        elif effect.kind == "shape":
            index = garden.index[mission]
            covered = frozenset(c for c, i in garden.owner.items() if i != index)
        return cls(mission, gems, effect.kind, count, covered)


def gems_gained(garden: Garden, placement: Placement, mission: str | None = None,
                base: MissionBase | None = None) -> int:
    """The change of the garden's gem total when ``placement`` (legal) is laid; ``base``
    (from :meth:`MissionBase.of`) saves recounting the mission for each placement."""
    tile = garden.tile(placement.tile)
    x, y = placement.cell
    halves, placements = garden.halves, garden.placements
    gained = 0
    joins = colour = 0
    complete_own: set[int] = set()
    touched: dict[int, set[int]] = {}
    effect = garden.tile(mission).effect if mission in garden.index else None
    for (dx, dy), side, edge in unit_edges(tile, placement.rotation):
        sx, sy = STEP[side]
        found = halves.get(((x + dx + sx, y + dy + sy), opposite(side)))
        if found is None:
            continue
        other = garden.tile(placements[found[0]].tile).edges[found[1]]
        mine = tile.edges[edge]
        value = gem_value(mine, other)
        if mine == EMPTY and other == EMPTY:
            joins += 1
        if value:
            gained += value
            complete_own.add(edge)
            touched.setdefault(found[0], set()).add(found[1])
            if effect is not None and effect.colour in gem_colours(mine, other):
                colour += value
    gained += sum(1 for a, b in tile.lines if a in complete_own and b in complete_own)
    for index, edges in touched.items():
        for a, b in garden.tile(placements[index].tile).lines:
            if a in edges or b in edges:
                done_a = a in edges or complete_at(garden, index, a)
                done_b = b in edges or complete_at(garden, index, b)
                if done_a and done_b:
                    gained += 1
    if mission is None or effect is None:
        return gained
    base = base if base is not None and base.mission == mission else \
        MissionBase.of(garden, mission)
    if base.gems or effect.kind == "second-draw":
        return gained  # a mission's gems, once earned, stay: laying a tile loses none
    if effect.kind == "shape":
        cells = set(base.covered) | set(garden.cells_of(placement))
        return gained + (effect.gems if has_shape(cells, effect.shape) else 0)
    if effect.kind == "empty-joins":
        return gained + (effect.gems if base.count + joins >= effect.at_least else 0)
    if effect.kind == "colour-gems":
        return gained + (effect.gems if base.count + colour >= effect.at_least else 0)
    after = garden.with_tile(placement)
    return gained + mission_gems(after, mission)


@dataclass(frozen=True)
class Option:
    """One legal placement and the gems it gains."""

    placement: Placement
    gems: int

    def to_dict(self) -> dict[str, object]:
        return {"cell": list(self.placement.cell), "rotation": self.placement.rotation,
                "gems": self.gems}


def ranked_placements(garden: Garden, tile_id: str, mission: str | None = None
                      ) -> list[Option]:
    """Every legal placement of ``tile_id`` (each cell and turn, alike or not), most gems
    first."""
    tile = garden.tile(tile_id)
    base = MissionBase.of(garden, mission)
    options = [Option(p, gems_gained(garden, p, mission, base))
               for p in legal_placements(garden, tile)]
    return sorted(options, key=lambda o: -o.gems)


def stop_advice(state: State, seat: int) -> str:
    """The chance that the next draw sets off the alarm, from the bag's known contents."""
    s = state.seats[seat]
    bag = s.bag
    if not bag:
        return "the bag is empty: stop"
    bad = sum(1 for t in bag if sets_off(s.garden, state.catalogue[t]))
    chance = alarm_chance(s.garden, bag, state.catalogue)
    return (f"next draw sets off the gnome alarm: {chance:.0%} ({bad} of {len(bag)} tiles in "
            "the bag)")


@dataclass(frozen=True)
class SimpleBot:
    """A simple policy: draw while the alarm chance is at most ``risk``, lay each tile where
    it gains most, buy the dearest tile the money reaches, else a lucky piglet."""

    risk: float = 0.25

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        """The bot's action for ``seat`` (which must have one now)."""
        s = state.seats[seat]
        if state.phase == HIRE:
            acts = state.hiring_actions(seat)
            for kind in (Mutate, Buy, TakePiglet):
                found = [a for a in acts if isinstance(a, kind)]
                if found:
                    return found[0]
            return Pass(seat)
        if s.hand is not None:
            tile = state.catalogue[s.hand]
            if not sets_off(s.garden, tile):
                options = ranked_placements(s.garden, s.hand, s.mission)
                if options:
                    return Place(seat, options[0].placement)
            return Redraw(seat) if state.can_redraw(seat) else Accept(seat)
        if s.stopped:
            return Stop(seat)
        if s.bag and alarm_chance(s.garden, s.bag, state.catalogue) <= self.risk:
            return Draw(seat)
        return Stop(seat)


__all__ = ["MissionBase", "Option", "SimpleBot", "gems_gained", "ranked_placements", "stop_advice"]
