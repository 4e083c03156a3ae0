"""What each subcommand does: look up the game, check the named files, call the game's job."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import Any

from companion.cli import emit
from companion.errors import InputFileError, UnknownGameError
from companion.games import JOBS, GameInfo, all_games, find_game

log = logging.getLogger(__name__)


def _existing(path: str, what: str, folder: bool = False) -> Path:
    p = Path(path).expanduser()
    if not p.exists():
        raise InputFileError(f"{what} {p} does not exist")
    if folder and not p.is_dir():
        raise InputFileError(f"{what} {p} is not a folder")
    if not folder and p.is_dir():
        raise InputFileError(f"{what} {p} is a folder, not a file")
    return p


def _game(parser: argparse.ArgumentParser, name: str) -> GameInfo:
    try:
        return find_game(name)
    except UnknownGameError as exc:
        parser.error(str(exc))  # exits with status 2: a wrong command line
        raise  # pragma: no cover


def _job_result(args: argparse.Namespace, report: Any) -> int:
    emit(report.data, report.text, args.json)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    rows = [{"name": g.name, "title": g.title, "jobs": sorted(g.jobs)} for g in all_games()]
    lines = []
    for g in all_games():
        able = ", ".join(j for j in JOBS if g.can(j)) or "nothing yet (coming)"
        lines.append(f"{g.name:13} {g.title:13} {able}")
    emit({"games": rows}, "\n".join(lines), args.json)
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    from companion.config import dump_config, load_config

    print(dump_config(load_config(args.config)), end="")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.history import History

    games = History(load_config(args.config).data_dir).games()
    text = "\n".join(g.line() for g in games) or "no finished games recorded yet"
    emit({"games": [g.to_dict() for g in games]}, text, args.json)
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.doctor import doctor

    report = doctor(args.config, buttons=not args.no_buttons, timeout=args.timeout)
    emit(report.data, report.text, args.json)
    return 0 if report.data.get("ok") else 1


def cmd_calibrate(args: argparse.Namespace) -> int:
    from companion.calibration import calibrate_camera, calibrate_table

    if args.what == "camera":
        report = calibrate_camera(args.config, photos=Path(args.photos) if args.photos else None,
                                  frames=args.frames)
    else:
        report = calibrate_table(args.config, photo=Path(args.photo) if args.photo else None,
                                 overlay=Path(args.overlay))
    emit(report.data, report.text, args.json)
    return 0


def _service_context(config: Any) -> Any:
    from companion.devices.camera import RetryingCamera
    from companion.ui.service import Context

    settings = dict(config.values)

    def opener() -> Any:
        simulator = None
        if settings["camera"]["source"] == "simulator":
            from companion.demo import random_forest_frames

            simulator = random_forest_frames()
        # the lens correction and locked exposure of `companion calibrate`, where there are any
        from companion.calibration.lens import open_calibrated_camera

        return open_calibrated_camera(settings["camera"], config.data_dir, simulator)

    camera = RetryingCamera(opener, settings["camera"]["retry_seconds"])
    return Context(settings, config.data_dir, camera=camera)


def cmd_run(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.devices.buttons import open_buttons
    from companion.devices.display import open_display
    from companion.ui.service import Service

    config = load_config(args.config)
    logging.getLogger().setLevel(logging.DEBUG if args.verbose
                                 else config["log_level"].upper())
    ctx = _service_context(config)
    display = open_display(config["display"], config.data_dir, echo=args.verbose)
    try:
        buttons = open_buttons(config["buttons"])
    except Exception:
        display.close()
        raise
    with buttons:
        log.info("serving with %s and %s", display.name, buttons.name)
        try:
            return Service(ctx, display, buttons).run()
        finally:
            ctx.camera.close()


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.demo import run_demo

    return run_demo(Path(args.out), quiet=args.quiet, config_file=args.config)


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Dispatch one parsed command line."""
    command = args.command
    simple = {"games": cmd_games, "config": cmd_config, "run": cmd_run, "demo": cmd_demo,
              "history": cmd_history, "doctor": cmd_doctor, "calibrate": cmd_calibrate}
    if command == "calibrate" and args.frames < 3:
        parser.error("--frames must be 3 or more")
    if command == "doctor" and args.timeout <= 0:
        parser.error("--timeout must be more than 0")
    if command in simple:
        return simple[command](args)
    game = _game(parser, args.game)
    job = game.job(command)
    if command == "score":
        return _job_result(args, job(_existing(args.state, "state file")))
    if command == "check":
        return _job_result(args, job(_existing(args.before, "state file"),
                                     _existing(args.after, "state file")))
    if command == "hint":
        rack = [t.strip() for t in args.rack.split(",") if t.strip()]
        if args.limit is not None and args.limit < 1:
            parser.error("--limit must be 1 or more")
        return _job_result(args, job(_existing(args.state, "state file"), player=args.player,
                                     rack=rack, limit=args.limit))
    if command == "enrol":
        return _job_result(args, job(_existing(args.pack, "pack folder", folder=True),
                                     out=Path(args.out)))
    if command == "cut-sheet":
        if not 32 <= args.size <= 1024:
            parser.error("--size must be between 32 and 1024")
        if args.start is not None and args.start < 1:
            parser.error("--start must be 1 or more")
        names = _existing(args.names, "names file") if args.names else None
        return _job_result(args, job(_existing(args.photo, "photo"),
                                     pack=Path(args.pack).expanduser(), names=names,
                                     season=args.season, size=args.size, start=args.start))
    if command == "scan":
        previous = _existing(args.previous, "state file") if args.previous else None
        return _job_result(args, job(_existing(args.photo, "photo"),
                                     model=_existing(args.model, "model folder", folder=True),
                                     overlay=Path(args.overlay) if args.overlay else None,
                                     previous=previous))
    if command == "assist":
        if args.seconds <= 0:
            parser.error("--seconds must be more than 0")
        return _job_result(args, job(_existing(args.state, "state file"), seconds=args.seconds))
    if command == "play":
        return int(job(seed=args.seed))
    print(f"companion: unknown command {command}", file=sys.stderr)  # pragma: no cover
    return 2  # pragma: no cover
