"""Meadow's verbs on the command line: score, check, hint and play."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.hooks import Command, UsageError, existing, lazy, positive, state_argument


def _score(args: argparse.Namespace) -> Any:
    return lazy("companion.meadow.jobs:score")(existing(args.state, "state file"))


def _check_arguments(p: argparse.ArgumentParser) -> None:
    state_argument(p)
    p.add_argument("--player", required=True, help="whose hand and meadow")
    p.add_argument("--play", required=True, metavar="CARD", help="the card played from hand")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--on", metavar="COLUMN|LANDSCAPE",
                       help="a column number (observation card) or a landscape card "
                            "(discovery card)")
    where.add_argument("--new-ground", choices=["left", "right"],
                       help="a ground card's side of the meadow")
    p.add_argument("--discard", metavar="ID,ID,...", default="",
                   help="cards discarded from hand to ignore requirements (2 per requirement)")


def _check(args: argparse.Namespace) -> Any:
    discard = [d.strip() for d in args.discard.split(",") if d.strip()]
    return lazy("companion.meadow.jobs:check")(
        existing(args.state, "state file"), player=args.player, card=args.play, on=args.on,
        new_ground=args.new_ground, discard=discard)


def _hint_arguments(p: argparse.ArgumentParser) -> None:
    state_argument(p)
    p.add_argument("--player", required=True, help="whose hand and meadow")


def _hint(args: argparse.Namespace) -> Any:
    return lazy("companion.meadow.jobs:hint")(existing(args.state, "state file"),
                                             player=args.player)


def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--solo", action="store_true", help="the solo variant, against Rover")
    p.add_argument("--players", type=int, default=2,
                   help="players in all, you in the first seat and simple bots in the "
                        "others (2-4; default: %(default)s)")
    p.add_argument("--seed", type=int, default=1, help="which deal: 0 or more (default: "
                                                       "%(default)s)")
    p.add_argument("--first-game", action="store_true",
                   help="deal the starting cards (W, S, S, E, N) instead of choosing rows")


def _play(args: argparse.Namespace) -> int:
    positive(args.seed, "--seed", strict=False)
    if not args.solo and not 2 <= args.players <= 4:
        raise UsageError("--players must be 2, 3 or 4 (or use --solo)")
    return int(lazy("companion.meadow.terminal:play")(
        seed=args.seed, players=1 if args.solo else args.players, first_game=args.first_game))


COMMANDS = {
    "score": Command("score every player from a state file: every played card's points, "
                     "covered or not, plus bonus tokens", state_argument, _score),
    "check": Command("rule on playing one card: legal or not, why, every legal place and the "
                     "fewest discards", _check_arguments, _check),
    "hint": Command("list every playable card in a player's hand, its fewest discards and "
                    "places", _hint_arguments, _hint),
    "play": Command("play a game in the terminal (solo against Rover, or with simple bots), "
                    "'a' for advice", _play_arguments, _play, json=False),
}
