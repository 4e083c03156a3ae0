"""The expert variant: greedier gnomes, ponds, and lucky piglets that mutate.

* Gnome alarm: the gnomes steal half the gems, rounded down
  (:func:`companion.gardlings.gnome_alarm.stolen`).
* Ponds: each gap wholly surrounded by tiles pays 1 coin at hiring
  (:func:`companion.gardlings.gems.ponds`).
* Piglets: with 3+ lucky piglets in the garden one mutates after hiring: it goes under a
  stack of its own colour and a tile of the next colour up is taken (beige, green, blue,
  pink, gold; a gold one cannot mutate). Reading: one option per back that a lucky-piglet
  tile in the garden has, while a stack of the next colour has a tile; the piglet goes under
  the first stack of its colour (``green-1``; a beige one under the piglet stack).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.gardlings.market import STEP_UP, Market

if TYPE_CHECKING:
    from companion.gardlings.garden import Garden


def mutations(garden: Garden, market: Market) -> tuple[tuple[str, str], ...]:
    """The (from back, to back) steps a mutating lucky piglet of this garden may take."""
    backs = []
    for p in garden:
        tile = garden.tile(p.tile)
        if "lucky-piglet" in tile.creatures and tile.back in STEP_UP and \
                tile.back not in backs:
            backs.append(tile.back)
    order = list(STEP_UP)
    return tuple((b, STEP_UP[b]) for b in sorted(backs, key=order.index)
                 if any(market.stack(f"{STEP_UP[b]}-{n}").tiles for n in (1, 2)))


def mutating_tile(garden: Garden, back: str) -> str | None:
    """The lucky-piglet tile of ``back`` that mutates (the first laid)."""
    for p in garden:
        tile = garden.tile(p.tile)
        if tile.back == back and "lucky-piglet" in tile.creatures:
            return p.tile
    return None


__all__ = ["mutating_tile", "mutations"]
