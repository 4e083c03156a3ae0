"""The Glade's verbs on the command line: score, check, hint, enrol, scan and cut-sheet."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.cli.hooks import Command, UsageError, existing, lazy, positive, state_argument


def _score_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("state", nargs="?", help="the game state file (JSON or YAML); or give "
                                            "--photos")
    p.add_argument("--photos", nargs="+", metavar="PHOTO",
                   help="score a finished game from photos: the glade board's, then one "
                        "forest photo per player in seat order (or one .yaml/.json list)")
    p.add_argument("--model", metavar="MODEL", help="with --photos: a model folder made by "
                                                    "'companion enrol'")
    p.add_argument("--players", metavar="NAME:COLOUR,...",
                   help="with --photos GLADE FOREST...: the players in seat order")
    p.add_argument("--variant", choices=["basic", "matching"],
                   help="with --photos: the game played (default basic)")
    p.add_argument("--write-state", metavar="OUT",
                   help="with --photos: write the state built from the photos (also when it "
                        "cannot be scored, with its doubts)")


def _score(args: argparse.Namespace) -> Any:
    if args.photos:
        if args.state:
            raise UsageError("give a state file or --photos, not both")
        if not args.model:
            raise UsageError("--photos needs --model MODEL")
        return lazy("companion.the_glade.recognition.glade_jobs:score_photos")(
            args.photos, model=existing(args.model, "model folder", folder=True),
            players=args.players, variant=args.variant,
            write_state=Path(args.write_state) if args.write_state else None)
    if any(v is not None for v in (args.model, args.players, args.variant, args.write_state)):
        raise UsageError("--model, --players, --variant and --write-state go with --photos")
    if not args.state:
        raise UsageError("give a state file, or --photos GLADE FOREST... --model MODEL")
    return lazy("companion.the_glade.jobs:score")(existing(args.state, "state file"))


def _check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("before", help="the forest before the placement (state file)")
    p.add_argument("after", help="the forest after the placement (state file)")


def _check(args: argparse.Namespace) -> Any:
    return lazy("companion.the_glade.jobs:check")(existing(args.before, "state file"),
                                                 existing(args.after, "state file"))


def _hint_arguments(p: argparse.ArgumentParser) -> None:
    state_argument(p)
    p.add_argument("--player", required=True, help="whose forest")
    p.add_argument("--rack", required=True, metavar="TILE,TILE,...",
                   help="the tiles on the rack, comma-separated")
    p.add_argument("--limit", type=int, metavar="N", help="list at most N placements")


def _hint(args: argparse.Namespace) -> Any:
    positive(args.limit, "--limit", least=1, strict=False)
    rack = [t.strip() for t in args.rack.split(",") if t.strip()]
    return lazy("companion.the_glade.jobs:hint")(existing(args.state, "state file"),
                                                player=args.player, rack=rack,
                                                limit=args.limit)


def _enrol_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", help="the pack folder (holding pack.yaml)")
    p.add_argument("--out", required=True, metavar="MODEL", help="the model folder to write")


def _enrol(args: argparse.Namespace) -> Any:
    return lazy("companion.the_glade.recognition.jobs:enrol")(
        existing(args.pack, "pack folder", folder=True), out=Path(args.out))


def _scan_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("photo", help="the photo (JPEG or PNG)")
    p.add_argument("--model", required=True, help="a model folder made by 'companion enrol'")
    p.add_argument("--overlay", metavar="OUT.png", help="draw what was seen onto the photo")
    p.add_argument("--previous", metavar="STATE",
                   help="the last known state of this board, to catch contradictions")
    p.add_argument("--glade", action="store_true",
                   help="the photo shows the glade board: read its centre spaces and each "
                        "seat's supply")


def _scan(args: argparse.Namespace) -> Any:
    if args.glade:
        if args.previous:
            raise UsageError("--previous is for a forest board, not with --glade")
        return lazy("companion.the_glade.recognition.glade_jobs:scan_glade")(
            existing(args.photo, "photo"),
            model=existing(args.model, "model folder", folder=True),
            overlay=Path(args.overlay) if args.overlay else None)
    previous = existing(args.previous, "state file") if args.previous else None
    return lazy("companion.the_glade.recognition.jobs:scan")(
        existing(args.photo, "photo"), model=existing(args.model, "model folder", folder=True),
        overlay=Path(args.overlay) if args.overlay else None, previous=previous)


def _cut_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("photo", help="the photo of the sheet, taken from above (JPEG or PNG)")
    p.add_argument("--pack", required=True, metavar="DIR",
                   help="the pack folder (made if missing): writes tiles/NNNN.png and a "
                        "contact sheet to check them by, and adds their entries to its "
                        "pack.yaml, keeping what is there")
    p.add_argument("--names", metavar="FILE",
                   help="the tiles' names in reading order (rows top to bottom, each left "
                        "to right), one a line: 'hedgehog/acorn/oak spring'; without it "
                        "the entries get placeholders to fill in")
    p.add_argument("--season", choices=["spring", "summer"],
                   help="the season of every tile whose line gives none")
    p.add_argument("--size", type=int, default=128, metavar="PX",
                   help="width of each cut tile image in pixels (default: %(default)s)")
    p.add_argument("--start", type=int, metavar="N",
                   help="number of the first tile file (default: after the pack's last)")


def _cut(args: argparse.Namespace) -> Any:
    if not 32 <= args.size <= 1024:
        raise UsageError("--size must be between 32 and 1024")
    positive(args.start, "--start", least=1, strict=False)
    names = existing(args.names, "names file") if args.names else None
    return lazy("companion.the_glade.recognition.cut_sheet:cut_sheet")(
        existing(args.photo, "photo"), pack=Path(args.pack).expanduser(), names=names,
        season=args.season, size=args.size, start=args.start)


COMMANDS = {
    "score": Command("print the final score of every player from a state file (or from "
                     "photos of a finished game)", _score_arguments, _score),
    "check": Command("rule on one placement: is it legal, and what does it trigger?",
                     _check_arguments, _check),
    "hint": Command("list the legal placements from a rack, best first", _hint_arguments,
                    _hint),
    "enrol": Command("learn the look of the tiles, counters and boards from an enrolment "
                     "pack", _enrol_arguments, _enrol),
    "scan": Command("read what lies on one forest board (and its store) or on the glade "
                    "board from one photo", _scan_arguments,
                    _scan),
    "cut-sheet": Command("cut tile photos for an enrolment pack out of one photo of tiles "
                         "laid in rows on a plain sheet", _cut_arguments, _cut),
}
