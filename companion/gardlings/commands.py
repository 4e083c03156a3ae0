"""Gardlings' verbs on the command line: score, check, hint and play."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.hooks import Command, existing, lazy, positive, state_argument


def _score(args: argparse.Namespace) -> Any:
    return lazy("companion.gardlings.jobs:score")(existing(args.state, "state file"))


def _check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("before", help="the state before the action (the first player acts)")
    p.add_argument("after", help="the state after it: one tile added or one moved")


def _check(args: argparse.Namespace) -> Any:
    return lazy("companion.gardlings.jobs:check")(existing(args.before, "state file"),
                                                 existing(args.after, "state file"))


def _hint_arguments(p: argparse.ArgumentParser) -> None:
    state_argument(p)
    p.add_argument("--player", required=True, help="whose garden")
    p.add_argument("--tile", required=True, metavar="ID", help="the tile just drawn")
    p.add_argument("--limit", type=int, metavar="N", help="list at most N placements")


def _hint(args: argparse.Namespace) -> Any:
    positive(args.limit, "--limit", least=1, strict=False)
    return lazy("companion.gardlings.jobs:hint")(existing(args.state, "state file"),
                                                player=args.player, tile=args.tile,
                                                limit=args.limit)


def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1,
                   help="which shuffle: 0 or more (default: %(default)s)")
    p.add_argument("--solo", action="store_true", help="play the solo game")
    p.add_argument("--players", type=int, default=2, metavar="N",
                   help="seats in all, 2-4, you and simple bots (default: %(default)s)")
    p.add_argument("--expert", action="store_true", help="the expert variant")
    p.add_argument("--missions", action="store_true", help="the mission tiles")
    p.add_argument("--long", action="store_true", help="the victory tile at 20")


def _play(args: argparse.Namespace) -> int:
    positive(args.seed, "--seed", strict=False)
    seats = 1 if args.solo else args.players
    if not 1 <= seats <= 4:
        from companion.cli.hooks import UsageError

        raise UsageError("--players must be 2 to 4 (or use --solo)")
    return int(lazy("companion.gardlings.play:play")(
        seed=args.seed, seats=seats, expert=args.expert, missions=args.missions,
        long_game=args.long))


COMMANDS = {
    "score": Command("print each player's gems, money and what they can hire this round, "
                     "and who buys the victory tile, from a state file", state_argument,
                     _score),
    "check": Command("rule on one action (a tile laid or a unicorn moved): legal, and the "
                     "gems it makes?", _check_arguments, _check),
    "hint": Command("list every legal placement of a drawn tile, most gems first",
                    _hint_arguments, _hint),
    "play": Command("play a game in the terminal (simple bots take the other seats), with "
                    "advice on when to stop", _play_arguments, _play, json=False),
}
