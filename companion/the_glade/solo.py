"""The solo game: neutral counters on the glade, turns counted, fewest turns wins.

Setup puts 12 neutral counters (a non-player colour), single side up, on the glade spaces of
12 different tiles drawn from the bag. A set of 3 that lands on a neutral counter sends it
back to the box (handled by :mod:`set_rewards`, since neutral colours have no owner). Claiming a
neutral counter places the tile on your own board (:mod:`claim`).

The game ends at the end of the turn in which the twelfth counter leaves your side; that turn
draws no tiles. Turns are counted by the face-down tiles: one at setup and one per turn but
the last, so their number equals the turns played.

>>> SoloResult(10, 25) < SoloResult(11, 34)   # fewer turns beats more points
True
>>> best_solo([SoloResult(11, 34), SoloResult(10, 25), SoloResult(10, 30)])
SoloResult(turns=10, points=30)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import total_ordering

from companion.the_glade.forest import Forest
from companion.the_glade.names import BoardGeometry, Counter, Tile
from companion.the_glade.table import (
    COUNTERS_PER_COLOUR,
    RACK_SIZE,
    TILES_IN_GAME,
    GameState,
    IllegalAction,
    Player,
)


@total_ordering
@dataclass(frozen=True)
class SoloResult:
    """A finished solo game. Ordering: better results sort first (fewer turns, then points)."""

    turns: int
    points: int

    @property
    def key(self) -> tuple[int, int]:
        return (self.turns, -self.points)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, SoloResult):
            return NotImplemented
        return self.key < other.key


def best_solo(results: Iterable[SoloResult]) -> SoloResult:
    """The best of several solo results: fewest turns first, most points second."""
    return min(results, key=lambda r: r.key)


def rank_solo(results: Iterable[SoloResult]) -> list[SoloResult]:
    """Solo results, best first."""
    return sorted(results, key=lambda r: r.key)


def solo_setup(name: str, colour: str, neutral: str, drawn: Sequence[Tile], *,
               geometry: BoardGeometry | None = None, rack: Sequence[Tile] | None = None
               ) -> GameState:
    """The table after solo setup: 12 neutral singles on the spaces of 12 different tiles."""
    if neutral == colour:
        raise IllegalAction("the neutral colour must differ from the player's colour", "setup")
    if len(drawn) != COUNTERS_PER_COLOUR or len(set(drawn)) != COUNTERS_PER_COLOUR:
        raise IllegalAction("solo setup needs 12 different tiles (redraw identical ones)",
                            "setup")
    glade = {t: Counter(neutral, "single") for t in drawn}
    geo = geometry or BoardGeometry()
    player = Player(name, colour, forest=Forest(geo),
                    rack=tuple(rack) if rack is not None else None,
                    rack_size=len(rack) if rack is not None else RACK_SIZE, turns=0)
    return GameState((player,), variant="solo", geometry=geo,
                     glade=glade, start_player=name, current=name,
                     bag=TILES_IN_GAME - RACK_SIZE - 1, neutral=neutral)
