"""Glass Garden's verbs on the command line: score, assist, play, enrol and scan."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.cli.hooks import Command, existing, lazy, positive, state_argument


def _assist_arguments(p: argparse.ArgumentParser) -> None:
    state_argument(p)
    p.add_argument("--seconds", type=float, default=10.0,
                   help="how long to think (default: %(default)s)")
    p.add_argument("--workers", type=int, default=2,
                   help="searches at once, one core each: this process's and the rest in "
                        "worker processes; 1 = one search (default: %(default)s)")


def _assist(args: argparse.Namespace) -> Any:
    positive(args.seconds, "--seconds")
    return lazy("companion.glass_garden.jobs:assist")(existing(args.state, "state file"),
                                                     seconds=args.seconds,
                                                     workers=args.workers)


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


def _enrol_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", help="the pack folder (holding pack.yaml)")
    p.add_argument("--out", required=True, metavar="MODEL", help="the model folder to write")


def _enrol(args: argparse.Namespace) -> Any:
    return lazy("companion.glass_garden.recognition.jobs:enrol")(
        existing(args.pack, "pack folder", folder=True), out=Path(args.out).expanduser())


def _scan_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("photo", help="the photo of the garden (JPEG or PNG)")
    p.add_argument("--model", required=True,
                   help="a model folder made by 'companion enrol glass-garden'")
    p.add_argument("--deck", metavar="DECK",
                   help="the deck file the names come from (default: the one the pack named)")
    p.add_argument("--overlay", metavar="OUT.png", help="draw what was seen onto the photo")


def _scan(args: argparse.Namespace) -> Any:
    return lazy("companion.glass_garden.recognition.jobs:scan")(
        existing(args.photo, "photo"), model=existing(args.model, "model folder", folder=True),
        deck=existing(args.deck, "deck file") if args.deck else None,
        overlay=Path(args.overlay).expanduser() if args.overlay else None)


COMMANDS = {
    "score": Command("print the garden's score (2 per top-row succulent, 1 per other) and "
                     "its title, from a state file", state_argument, _score),
    "assist": Command("advise the solo player: the best turn and the plan behind it",
                      _assist_arguments, _assist),
    "play": Command("play a game in the terminal, with the assistant's advice on request",
                    _play_arguments, _play, json=False),
    "enrol": Command("learn the look of every card face from an enrolment pack",
                     _enrol_arguments, _enrol),
    "scan": Command("read a garden from one photo: a state file, plus what is uncertain",
                    _scan_arguments, _scan),
}
