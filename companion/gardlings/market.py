"""The market board: two face-up stacks per colour, the lucky piglets, the reward coins.

Only a stack's top tile may be bought; the costs are green 4, blue 7, pink 10, gold 14. A coin
lies beside each blue, pink and gold stack at the start: whoever buys a stack's first tile
takes it. A stack whose tiles are unknown (a state file gives only how many are left) has
``ids`` empty; the engine's stacks know their tiles, top first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import StateError
from companion.gardlings.catalogue import COSTS, Catalogue

COLOURS = ("green", "blue", "pink", "gold")
STACKS = tuple(f"{c}-{n}" for c in COLOURS for n in (1, 2))
REWARD_COLOURS = ("blue", "pink", "gold")
#: a lucky piglet's step up when it mutates (expert): beige, green, blue, pink, gold
STEP_UP: Mapping[str, str] = {"piglet": "green", "green": "blue", "blue": "pink",
                              "pink": "gold"}


def colour_of(stack: str) -> str:
    return stack.rsplit("-", 1)[0]


def cost_of(stack: str) -> int:
    return COSTS[colour_of(stack)]


@dataclass(frozen=True)
class Stack:
    """One market stack: tiles left (ids top first when known) and its reward coin."""

    name: str
    tiles: int
    ids: tuple[str, ...] = ()
    coin: bool = False

    @property
    def top(self) -> str | None:
        return self.ids[0] if self.ids else None


@dataclass(frozen=True)
class Market:
    """The eight stacks and the face-down piglet stack."""

    stacks: tuple[Stack, ...]
    piglets: int
    piglet_ids: tuple[str, ...] = ()

    def stack(self, name: str) -> Stack:
        for s in self.stacks:
            if s.name == name:
                return s
        return Stack(name, 0)

    def with_stack(self, stack: Stack) -> Market:
        return replace(self, stacks=tuple(stack if s.name == stack.name else s
                                          for s in self.stacks))

    def take(self, name: str) -> tuple[Market, str | None, bool]:
        """The market after buying ``name``'s top tile, the tile, and whether a reward coin
        came with it."""
        s = self.stack(name)
        if s.tiles <= 0:
            raise StateError(f"{name}: the stack is empty")
        tile = s.top
        left = replace(s, tiles=s.tiles - 1, ids=s.ids[1:], coin=False)
        return self.with_stack(left), tile, s.coin

    def take_piglet(self) -> tuple[Market, str | None]:
        if self.piglets <= 0:
            raise StateError("piglets: the stack is empty")
        tile = self.piglet_ids[0] if self.piglet_ids else None
        return replace(self, piglets=self.piglets - 1, piglet_ids=self.piglet_ids[1:]), tile

    def put_under(self, back: str, tile: str) -> Market:
        """A mutated lucky piglet laid under the first stack of its colour (or the piglets)."""
        if back == "piglet":
            return replace(self, piglets=self.piglets + 1,
                           piglet_ids=(*self.piglet_ids, tile))
        name = f"{back}-1"
        s = self.stack(name)
        stack = replace(s, tiles=s.tiles + 1, ids=(*s.ids, tile))
        if name not in [x.name for x in self.stacks]:
            return replace(self, stacks=(*self.stacks, stack))
        return self.with_stack(stack)

    def to_dict(self, with_ids: bool = True) -> dict[str, Any]:
        stacks: dict[str, Any] = {}
        for s in self.stacks:
            if s.tiles <= 0 and not s.coin:
                continue
            entry: dict[str, Any] = {"tiles": s.tiles}
            if s.coin:
                entry["coin"] = True
            if with_ids and s.ids:
                entry["ids"] = list(s.ids)
            stacks[s.name] = entry
        data: dict[str, Any] = {"stacks": stacks, "piglets": self.piglets}
        if with_ids and self.piglet_ids:
            data["piglet_ids"] = list(self.piglet_ids)
        return data


def setup_market(catalogue: Catalogue, players: int, rng: random.Random | None = None
                 ) -> Market:
    """The market as at setup: each colour shuffled and split in two (the larger half first),
    reward coins beside blue, pink and gold, the piglets left after each bag took 2."""
    stacks = []
    for colour in COLOURS:
        ids = [t.id for t in catalogue.of_back(colour)]
        if rng is not None:
            rng.shuffle(ids)
        half = (len(ids) + 1) // 2
        for n, part in ((1, ids[:half]), (2, ids[half:])):
            stacks.append(Stack(f"{colour}-{n}", len(part), tuple(part) if rng else (),
                                colour in REWARD_COLOURS))
    piglets = [t.id for t in catalogue.of_back("piglet")]
    return Market(tuple(stacks), max(0, len(piglets) - 2 * players), ())


def parse_market(raw: Any, catalogue: Catalogue, players: int) -> Market:
    """The state file's ``market`` (absent: as at setup); errors name the field."""
    if raw is None:
        return setup_market(catalogue, players)
    if not isinstance(raw, dict) or set(raw) - {"stacks", "piglets", "piglet_ids"}:
        raise StateError("market: must be {stacks: {green-1: {tiles: N, coin: B}}, piglets: N}")
    stacks_raw = raw.get("stacks", {})
    if not isinstance(stacks_raw, dict):
        raise StateError("market.stacks: must map green-1 ... gold-2 to {tiles, coin}")
    stacks = []
    for name in stacks_raw:
        if name not in STACKS:
            raise StateError(f"market.stacks.{name}: not a stack ({', '.join(STACKS)})")
    for name in STACKS:
        entry = stacks_raw.get(name)
        if entry is None:
            stacks.append(Stack(name, 0))
            continue
        where = f"market.stacks.{name}"
        if not isinstance(entry, dict) or set(entry) - {"tiles", "coin", "ids"}:
            raise StateError(f"{where}: must be {{tiles: N, coin: true|false}}")
        tiles = entry.get("tiles", 0)
        if isinstance(tiles, bool) or not isinstance(tiles, int) or not 0 <= tiles <= 99:
            raise StateError(f"{where}.tiles: {tiles!r} must be a whole number 0-99")
        coin = entry.get("coin", False)
        if not isinstance(coin, bool):
            raise StateError(f"{where}.coin: must be true or false")
        ids = _ids(entry.get("ids", []), f"{where}.ids", catalogue)
        if ids and len(ids) != tiles:
            raise StateError(f"{where}.ids: {len(ids)} ids for {tiles} tiles")
        stacks.append(Stack(name, tiles, ids, coin))
    piglets = raw.get("piglets", 0)
    if isinstance(piglets, bool) or not isinstance(piglets, int) or not 0 <= piglets <= 99:
        raise StateError(f"market.piglets: {piglets!r} must be a whole number 0-99")
    piglet_ids = _ids(raw.get("piglet_ids", []), "market.piglet_ids", catalogue)
    if piglet_ids and len(piglet_ids) != piglets:
        raise StateError(f"market.piglet_ids: {len(piglet_ids)} ids for {piglets} piglets")
    return Market(tuple(stacks), piglets, piglet_ids)


def _ids(raw: Any, where: str, catalogue: Catalogue) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise StateError(f"{where}: must be a list of tile ids")
    for i, t in enumerate(raw):
        if not isinstance(t, str) or t not in catalogue:
            raise StateError(f"{where}[{i}]: unknown tile {t!r}")
    return tuple(raw)


__all__ = ["COLOURS", "REWARD_COLOURS", "STACKS", "STEP_UP", "Market", "Stack", "colour_of",
           "cost_of", "parse_market", "setup_market"]
