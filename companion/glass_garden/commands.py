"""Glass Garden's verbs on the command line: score, assist and play."""

from __future__ import annotations

import argparse
from typing import Any

from companion.cli.hooks import Command, existing, lazy, positive, state_argument


def _assist_arguments(p: argparse.ArgumentParser) -> None:
    state_argument(p)
    p.add_argument("--seconds", type=float, default=10.0,
                   help="how long to think (default: %(default)s)")


def _assist(args: argparse.Namespace) -> Any:
    positive(args.seconds, "--seconds")
    return lazy("companion.glass_garden.jobs:assist")(existing(args.state, "state file"),
                                                     seconds=args.seconds)


def _play_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=1,
                   help="which deal: 0 or more (default: %(default)s)")


def _play(args: argparse.Namespace) -> int:
    positive(args.seed, "--seed", strict=False)
    return int(lazy("companion.glass_garden.jobs:play")(seed=args.seed))


def _score(args: argparse.Namespace) -> Any:
    """The garden's score as it stands in the state file (final in the sunlight phase's end)."""
    from companion.glass_garden.state_file import load_state
    from companion.report import Report

    state = load_state(existing(args.state, "state file"))
    sheet = state.score_sheet()
    seat = sheet.players[0]
    grown = ", ".join(f"{line.label} {line.points}" for line in seat.lines if line.points)
    text = f"{seat.total} points: {sheet.result}" + (f" ({grown})" if grown else "")
    return Report(sheet.to_dict(), text)


COMMANDS = {
    "score": Command("print the garden's score (2 per top-row succulent, 1 per other) and "
                     "its title, from a state file", state_argument, _score),
    "assist": Command("advise the solo player: the best turn and the plan behind it",
                      _assist_arguments, _assist),
    "play": Command("play a game in the terminal, with the assistant's advice on request",
                    _play_arguments, _play, json=False),
}
