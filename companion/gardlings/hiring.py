"""Phase 2, hiring Gardlings: one player's money this round, what it buys, and the winner.

Money is the complete gems (1 each, after what the gnomes steal) plus coins (held, the lucky
piglets' coin, and in the expert variant a coin per pond). Exactly one tile may be bought, the
top of a stack, coins making up what the gems lack; or a lucky piglet and a coin taken
instead. The victory tile (17 gems, 20 in a long game) is bought with gems alone; when several
can, most gems wins, then most coins, else nobody and a new round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.gardlings.expert import mutations
from companion.gardlings.garden import Garden
from companion.gardlings.gems import GemCount, ponds
from companion.gardlings.gnome_alarm import creatures, dragons, gnomes, stolen
from companion.gardlings.market import Market, cost_of
from companion.gardlings.missions import count_all

PIGLETS_FOR_COIN = 3


def victory_target(long_game: bool) -> int:
    return 20 if long_game else 17


@dataclass(frozen=True)
class Buy:
    """A stack the player can afford: its cost, the coins it takes, its reward coin."""

    stack: str
    cost: int
    coins_spent: int
    reward: bool

    def to_dict(self) -> dict[str, Any]:
        return {"stack": self.stack, "cost": self.cost, "coins_spent": self.coins_spent,
                "reward": self.reward}


@dataclass(frozen=True)
class Hiring:
    """One player's hiring this round (the spec's ``score`` entry)."""

    name: str
    gems: GemCount
    gnomes: int
    dragons: int
    alarm: bool
    stolen: int
    lucky_piglets: int
    ponds: int
    coins_held: int
    coins_piglets: int
    coins_ponds: int
    buy: tuple[Buy, ...]
    piglet: bool
    mutate: tuple[tuple[str, str], ...]
    victory: bool
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def total(self) -> int:
        return self.gems.total - self.stolen

    @property
    def coins(self) -> int:
        return self.coins_held + self.coins_piglets + self.coins_ponds

    @property
    def money(self) -> int:
        return self.total + self.coins

    @property
    def gnome_ignored(self) -> bool:
        return self.dragons >= 3

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "gems": self.gems.to_dict(), "gnomes": self.gnomes,
                "dragons": self.dragons, "gnome_ignored": self.gnome_ignored,
                "alarm": self.alarm, "stolen": self.stolen, "total": self.total,
                "lucky_piglets": self.lucky_piglets, "ponds": self.ponds,
                "coins": {"held": self.coins_held, "piglets": self.coins_piglets,
                          "ponds": self.coins_ponds, "total": self.coins},
                "money": self.money, "buy": [b.to_dict() for b in self.buy],
                "piglet": self.piglet,
                "mutate": [{"from": a, "to": b} for a, b in self.mutate],
                "victory": self.victory, **self.extra}


def buy_options(total: int, money: int, market: Market) -> tuple[Buy, ...]:
    """Every non-empty stack the money reaches, dearest first; coins pay what gems lack."""
    buys = []
    for s in sorted(market.stacks, key=lambda s: (-cost_of(s.name), s.name)):
        cost = cost_of(s.name)
        if s.tiles > 0 and cost <= money:
            buys.append(Buy(s.name, cost, max(0, cost - total), s.coin))
    return tuple(buys)


def hiring(name: str, garden: Garden, *, coins: int, alarm: bool, mission: str | None,
           variant: str, long_game: bool, market: Market) -> Hiring:
    """What ``name`` may hire this round from ``garden`` and ``coins`` held."""
    gems = count_all(garden, mission)
    taken = stolen(gems.total, variant) if alarm else 0
    piglets = creatures(garden, "lucky-piglet")
    pond_count = ponds(garden)
    coin_piglets = 1 if variant != "expert" and piglets >= PIGLETS_FOR_COIN else 0
    coin_ponds = pond_count if variant == "expert" else 0
    total = gems.total - taken
    money = total + coins + coin_piglets + coin_ponds
    buys = buy_options(total, money, market)
    mutate = mutations(garden, market) if variant == "expert" and \
        piglets >= PIGLETS_FOR_COIN else ()
    return Hiring(name, gems, gnomes(garden), dragons(garden), alarm, taken, piglets,
                  pond_count, coins, coin_piglets, coin_ponds, buys,
                  market.piglets > 0, mutate, total >= victory_target(long_game))


def winner(hirings: Sequence[Hiring]) -> str | None:
    """Who buys the victory tile: of those who can, most gems, then most coins; else nobody."""
    able = [h for h in hirings if h.victory]
    if not able:
        return None
    best = max(h.total for h in able)
    able = [h for h in able if h.total == best]
    if len(able) > 1:
        most = max(h.coins for h in able)
        able = [h for h in able if h.coins == most]
    return able[0].name if len(able) == 1 else None


__all__ = ["Buy", "Hiring", "buy_options", "hiring", "victory_target", "winner"]
