"""Setting up a game of Gardlings by the rulebook, shuffled by a seed."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.errors import StateError
from companion.gardlings.catalogue import Catalogue
from companion.gardlings.game import ROUND_LIMIT, Seat, State
from companion.gardlings.garden import Garden, Placement
from companion.gardlings.market import setup_market


def new_game(catalogue: Catalogue, seats: Sequence[str], variant: str = "basic",
             options: Mapping[str, Any] | None = None, catalogue_ref: str = "sample"
             ) -> State:
    """A game set up by the rulebook, shuffled by ``seed``: bags of 4 gnomes, 2 double gnomes
    and 2 lucky piglets, the market's stacks, and (option ``missions``) a mission each."""
    options = dict(options or {})
    unknown = sorted(set(options) - {"seed", "missions", "long_game", "round_limit"})
    if unknown:
        raise StateError(f"options: unknown option {unknown[0]!r}")
    if not 1 <= len(seats) <= 4 or len(set(seats)) != len(seats):
        raise StateError("players: Gardlings takes 1 to 4 players with different names")
    rng = random.Random(options.get("seed"))
    gnomes = [t.id for t in catalogue.of_back("gnome")]
    doubles = [t.id for t in catalogue.of_back("double-gnome")]
    piglets = [t.id for t in catalogue.of_back("piglet")]
    n = len(seats)
    if len(gnomes) < 4 * n or len(doubles) < 2 * n or len(piglets) < 2 * n:
        raise StateError(f"catalogue: too few gnome, double-gnome or piglet tiles for {n} "
                         "players (each bag takes 4, 2 and 2)")
    for pool in (gnomes, doubles, piglets):
        rng.shuffle(pool)
    market = setup_market(catalogue, n, rng)
    market = replace(market, piglets=len(piglets) - 2 * n, piglet_ids=tuple(piglets[2 * n:]))
    missions_on = bool(options.get("missions", False))
    held: list[str | None] = [None] * n
    between: tuple[str | None, ...] = ()
    if missions_on:
        ids = [m.id for m in catalogue.missions]
        need = n if n == 4 else 2 * n
        if len(ids) < need:
            raise StateError(f"catalogue: {need} mission tiles needed, {len(ids)} listed")
        rng.shuffle(ids)
        held = list(ids[:n])
        between = tuple(ids[n:need]) if n < 4 else ()
    table = []
    for k, name in enumerate(seats):
        bag = (*gnomes[4 * k:4 * k + 4], *doubles[2 * k:2 * k + 2], *piglets[2 * k:2 * k + 2])
        garden = Garden(catalogue)
        if held[k]:
            garden = garden.with_tile(Placement(held[k] or "", (0, 0), 0))
        table.append(Seat(name, garden, 0, tuple(sorted(bag)), mission=held[k]))
    limit = options.get("round_limit", ROUND_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise StateError("options.round_limit: must be a whole number, 0 for none")
    return State(catalogue, catalogue_ref, tuple(table), market, variant,
                 bool(options.get("long_game", False)), round_limit=limit, between=between)


__all__ = ["new_game"]
