"""Gardlings followed at the table: the market, coins, piglets and rounds, from what players
enter (pure functions over a plain, saveable record; the OLED pages are in ``screens``).

Building happens on the table. For each player the flow takes their garden's count as
entered or confirmed (gems, whether the alarm went off, 3+ lucky piglets, ponds), works out
the money and what it buys, applies each hire to the market and the coins, and moves the
start player on. A garden entered tile by tile (or, one day, read from a photo) gives the same
count through :mod:`companion.gardlings.hiring`; this record does not care how it came.

>>> table = new_table(["Ann"])
>>> table = enter(table, 0, gems=9, alarm=True)
>>> money(table, 0)["total"], money(table, 0)["money"]
(6, 6)
>>> table = hire(end_building(table), "green-1")
>>> table["round"], table["players"][0]["tiles_used"], table["market"]["stacks"]["green-1"]
(2, 1, {'tiles': 11})
"""

from __future__ import annotations

import copy
from typing import Any

from companion.errors import StateError
from companion.games.score import ScoreLine, ScoreSheet, SeatScore
from companion.gardlings.catalogue import Catalogue, catalogue_for
from companion.gardlings.gnome_alarm import stolen
from companion.gardlings.hiring import PIGLETS_FOR_COIN, buy_options, victory_target
from companion.gardlings.market import STEP_UP, Market, cost_of, parse_market, setup_market
from companion.gardlings.solo import medal

BUILD, HIRE, OVER = "build", "hire", "over"


def new_table(names: list[str], variant: str = "basic", long_game: bool = False,
              catalogue: str | None = None) -> dict[str, Any]:
    """A game as at setup: no coins, the market's stacks full with their reward coins.

    ``catalogue`` is the path of the players' own tile catalogue (None: the SAMPLE one)."""
    ref = catalogue or "sample"
    market = setup_market(catalogue_for(ref), len(names))
    return {"game": "gardlings", "table": True, "variant": variant, "long_game": long_game,
            "catalogue": ref,
            "round": 1, "start_player": 0, "phase": BUILD, "to_hire": [], "winners": [],
            "players": [{"name": n, "coins": 0, "tiles_used": 0, "entry": None}
                        for n in names],
            "market": market.to_dict(with_ids=False)}


def _catalogue(table: dict[str, Any]) -> Catalogue:
    return catalogue_for(table.get("catalogue", "sample"))


def _market(table: dict[str, Any]) -> Market:
    return parse_market(table["market"], _catalogue(table), len(table["players"]))


def check_table(table: Any) -> dict[str, Any]:
    """A saved table record, checked enough to resume it (a StateError names the field)."""
    if not isinstance(table, dict) or not table.get("table") or \
            table.get("game") != "gardlings":
        raise StateError("the saved game is not a Gardlings table record")
    players = table.get("players")
    if not isinstance(players, list) or not players:
        raise StateError("players: must list the players")
    if table.get("phase") not in (BUILD, HIRE, OVER):
        raise StateError(f"phase: {table.get('phase')!r} is not build, hire or over")
    _market(table)
    return table


def enter(table: dict[str, Any], seat: int, *, gems: int, alarm: bool = False,
          piglets: bool = False, ponds: int = 0) -> dict[str, Any]:
    """The table with seat ``seat``'s garden count for this round."""
    if table["phase"] != BUILD:
        raise StateError("gardens are entered while building")
    table = copy.deepcopy(table)
    table["players"][seat]["entry"] = {"gems": gems, "alarm": alarm, "piglets": piglets,
                                       "ponds": ponds}
    return table


def money(table: dict[str, Any], seat: int) -> dict[str, Any]:
    """What seat ``seat`` has to hire with: gems after the theft, coins, money, buys."""
    p = table["players"][seat]
    entry = p["entry"] or {"gems": 0, "alarm": False, "piglets": False, "ponds": 0}
    expert = table["variant"] == "expert"
    taken = stolen(entry["gems"], table["variant"]) if entry["alarm"] else 0
    total = entry["gems"] - taken
    piglet_coin = 1 if entry["piglets"] and not expert else 0
    pond_coins = entry["ponds"] if expert else 0
    coins = p["coins"] + piglet_coin + pond_coins
    market = _market(table)
    return {"total": total, "stolen": taken, "coins": coins, "money": total + coins,
            "buy": buy_options(total, total + coins, market), "piglet": market.piglets > 0,
            "victory": total >= victory_target(table["long_game"]),
            "mutate": expert and entry["piglets"]}


def end_building(table: dict[str, Any]) -> dict[str, Any]:
    """Every garden entered: the victory tile to whoever can buy it (most gems, then coins;
    still tied, nobody), else hiring from the start player."""
    if any(p["entry"] is None for p in table["players"]):
        raise StateError("enter every garden first")
    table = copy.deepcopy(table)
    n = len(table["players"])
    able = [(money(table, i)["total"], money(table, i)["coins"], i) for i in range(n)
            if money(table, i)["victory"]]
    if able:
        best = max(able)
        if sum(1 for a in able if a[:2] == best[:2]) == 1:
            winner = table["players"][best[2]]
            winner["tiles_used"] += 1  # the victory tile
            table["phase"], table["winners"] = OVER, [winner["name"]]
            return table
    table["phase"] = HIRE
    table["to_hire"] = [(table["start_player"] + k) % n for k in range(n)]
    return table


def hire(table: dict[str, Any], choice: str) -> dict[str, Any]:
    """The hiring seat buys ``choice`` (a stack), takes a ``piglet`` and a coin, or ``pass``es;
    after the last, a new round."""
    if table["phase"] != HIRE:
        raise StateError("nobody hires now")
    table = copy.deepcopy(table)
    seat = table["to_hire"].pop(0)
    p = table["players"][seat]
    m = money(table, seat)
    market = _market(table)
    coins = m["coins"]
    if choice == "piglet":
        market, _tile = market.take_piglet()
        coins += 1
        p["tiles_used"] += 1
    elif choice != "pass":
        if choice not in [b.stack for b in m["buy"]]:
            raise StateError(f"{choice}: not a stack the money reaches")
        market, _tile, reward = market.take(choice)
        coins -= max(0, cost_of(choice) - m["total"])
        coins += 1 if reward else 0
        p["tiles_used"] += 1
    p["coins"] = coins
    table["market"] = market.to_dict(with_ids=False)
    if not table["to_hire"]:
        n = len(table["players"])
        table["round"] += 1
        table["start_player"] = (table["start_player"] + 1) % n
        table["phase"] = BUILD
        for q in table["players"]:
            q["entry"] = None
    return table


def mutation_options(table: dict[str, Any]) -> list[tuple[str, str]]:
    """Expert: the (piglet's back, stack) ways a mutating lucky piglet may go: it goes under
    its own colour's stack and the top tile of a stack of the next colour goes to its owner."""
    market = _market(table)
    return [(back, f"{up}-{n}") for back, up in STEP_UP.items() for n in (1, 2)
            if market.stack(f"{up}-{n}").tiles > 0]


def mutate(table: dict[str, Any], back: str, stack: str) -> dict[str, Any]:
    """The market after a lucky piglet of ``back`` mutated, taking ``stack``'s top tile."""
    if (back, stack) not in mutation_options(table):
        raise StateError(f"a {back} lucky piglet cannot mutate into {stack}")
    market, _tile, _coin = _market(table).put_under(back, "").take(stack)
    table = copy.deepcopy(table)
    table["market"] = market.to_dict(with_ids=False)
    return table


def score_sheet(table: dict[str, Any]) -> ScoreSheet:
    """Each seat's gems this round and coins; the victory tile's buyer wins (a solo game:
    the rulebook's result by tiles used)."""
    seats = []
    for i, p in enumerate(table["players"]):
        m = money(table, i)
        lines = (ScoreLine("gems", "gems this round", m["total"]),
                 ScoreLine("coins", "coins", p["coins"]))
        seats.append(SeatScore(p["name"], m["total"] + p["coins"], lines))
    result = ""
    if len(table["players"]) == 1 and table["winners"]:
        used = table["players"][0]["tiles_used"]
        result = f"{medal(used, table['long_game'])} ({used} tiles)"
    return ScoreSheet("gardlings", tuple(seats), tuple(table["winners"]), None,
                      table["phase"] == OVER, result)


__all__ = ["PIGLETS_FOR_COIN", "check_table", "end_building", "enter", "hire", "money",
           "new_table", "score_sheet"]
