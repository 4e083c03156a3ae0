"""What each subcommand does: the service's commands here, a game's verbs through its hook."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import Any

from companion.cli import emit
from companion.cli.hooks import UsageError
from companion.errors import UnknownGameError
from companion.games.registry import JOBS, GameInfo, all_games, find_game

log = logging.getLogger(__name__)


def cmd_games(args: argparse.Namespace) -> int:
    rows = [{"name": g.name, "title": g.title, "jobs": list(g.jobs)} for g in all_games()]
    lines = []
    for g in all_games():
        able = ", ".join(g.jobs) or "nothing yet (coming)"
        lines.append(f"{g.name:13} {g.title:13} {able}")
    emit({"games": rows}, "\n".join(lines), args.json)
    return 0


def cmd_config(args: argparse.Namespace) -> int:
    from companion.config import dump_config, load_config

    config = load_config(args.config)
    if args.json:
        emit({"config": dict(config.values), "data_dir": str(config.data_dir)}, "", True)
    else:
        print(dump_config(config), end="")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from companion.config import load_config
    from companion.history import History

    entries = History(load_config(args.config).data_dir).entries()
    games = entries.games
    lines = [g.line() for g in games] or ["no finished games recorded yet"]
    if entries.damaged:
        numbers = ", ".join(str(i + 1) for i in entries.damaged)
        lines.append(f"{len(entries.damaged)} damaged entry(ies) in {entries.path} skipped "
                     f"(number {numbers})")
    emit({"games": [g.to_dict() for g in games], "damaged": [i + 1 for i in entries.damaged]},
         "\n".join(lines), args.json)
    return 0


def cmd_doctor(args: argparse.Namespace) -> int:
    from companion.doctor import doctor

    if args.timeout <= 0:
        raise UsageError("--timeout must be more than 0")
    report = doctor(args.config, buttons=not args.no_buttons, timeout=args.timeout)
    emit(report.data, report.text, args.json)
    return 0 if report.data.get("ok") else 1


def cmd_calibrate(args: argparse.Namespace) -> int:
    from companion.calibration import calibrate_camera, calibrate_table

    if args.what == "camera":
        if args.frames < 3:
            raise UsageError("--frames must be 3 or more")
        report = calibrate_camera(args.config, photos=Path(args.photos) if args.photos else None,
                                  frames=args.frames)
    else:
        report = calibrate_table(args.config, photo=Path(args.photo) if args.photo else None,
                                 overlay=Path(args.overlay), game=args.game)
    emit(report.data, report.text, args.json)
    return 0


def _service_context(config: Any) -> Any:
    from companion.devices.camera import RetryingCamera
    from companion.ui.service import Context

    settings = dict(config.values)

    def opener() -> Any:
        simulator = None
        if settings["camera"]["source"] == "simulator":
            from companion.demo import simulator_frames

            simulator = simulator_frames(settings)
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
    display = open_display(config["display"], config.data_dir)
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


SERVICE_COMMANDS = {"games": cmd_games, "config": cmd_config, "run": cmd_run, "demo": cmd_demo,
                    "history": cmd_history, "doctor": cmd_doctor, "calibrate": cmd_calibrate}


def parse_game_command(parser: argparse.ArgumentParser, args: argparse.Namespace,
                       ) -> tuple[GameInfo, argparse.ArgumentParser, argparse.Namespace]:
    """The game of ``companion VERB GAME ...`` and the rest of the line, parsed by the game's
    own parser (``--help`` there shows that game's flags)."""
    from companion.cli.parser import game_parser

    try:
        game = find_game(args.game)
    except UnknownGameError as exc:
        parser.error(str(exc))  # exits with status 2: a wrong command line
        raise  # pragma: no cover
    sub = game_parser(args.command, game)  # UnsupportedJobError: exit 1, naming who can
    rest = sub.parse_args(args.rest)
    # --json, --verbose and --config may stand before the game's name or after it
    for key in ("json", "verbose", "config"):
        value = getattr(rest, key, None) or getattr(args, key, None)
        setattr(rest, key, value)
        setattr(args, key, value)  # what main reports errors by
    rest.command, rest.game = args.command, game.name
    return game, sub, rest


#: commands that read photos (score only with --photos)
PHOTO_COMMANDS = ("scan", "enrol", "cut-sheet")


def _photo_limit(args: argparse.Namespace) -> None:
    """Every photo a command reads is bounded by ``camera.max_megapixels`` (configuration)."""
    from companion.config import load_config
    from companion.vision.image import set_max_pixels

    set_max_pixels(round(load_config(getattr(args, "config", None))["camera.max_megapixels"]
                         * 1_000_000))


def run_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Dispatch one parsed command line."""
    if args.command in SERVICE_COMMANDS:
        try:
            return SERVICE_COMMANDS[args.command](args)
        except UsageError as exc:
            parser.error(str(exc))
    game, sub, game_args = parse_game_command(parser, args)
    command = game.command(args.command)
    if args.command in PHOTO_COMMANDS or getattr(game_args, "photos", None):
        _photo_limit(game_args)
    try:
        outcome = command.run(game_args)
    except UsageError as exc:
        sub.error(str(exc))
    if isinstance(outcome, int):
        return outcome
    emit(outcome.data, outcome.text, getattr(game_args, "json", False))
    return 0


__all__ = ["JOBS", "run_command"]
