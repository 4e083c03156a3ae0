"""Goals: which pairs of goal tokens a player may claim with a bonus token now.

A pair is claimable when both its symbols are visible in the player's meadow (each by a symbol
of its own: a pair of two worm tokens needs two visible worms), nobody's bonus token lies
between it yet, and the player has a bonus token left (placed 2, then 3, then 4).
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.meadow.catalogue import Catalogue
from companion.meadow.meadow import PlayerArea, visible
from companion.meadow.requirements import unmatched
from companion.meadow.symbols import Requirement


def pair_met(area: PlayerArea, cat: Catalogue, pair: tuple[str, str]) -> bool:
    """Whether both goal tokens' symbols of ``pair`` are visible in the meadow."""
    reqs = [Requirement((cat.goal(g).symbol,)) for g in pair]
    return not unmatched(reqs, visible(area, cat))


def claimed_pairs(areas: Iterable[PlayerArea]) -> frozenset[tuple[str, str]]:
    return frozenset(b.goals for a in areas for b in a.bonus)


def claimable(area: PlayerArea, cat: Catalogue, pairs: Iterable[tuple[str, str]],
              taken: frozenset[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs ``area``'s player may claim now."""
    if area.next_bonus() is None:
        return []
    return [p for p in pairs if p not in taken and pair_met(area, cat, p)]


__all__ = ["claimable", "claimed_pairs", "pair_met"]
