"""The command line's grammar (kept apart from what the commands do, to start fast).

Game verbs (``score``, ``check``, ``hint``, ``assist``, ``play``, ``enrol``, ``scan``,
``cut-sheet``) read ``companion VERB GAME ...``: the first parser takes the verb and the game,
and the game's own parser (built from its ``commands`` hook by :func:`game_parser`) takes the
rest, so ``companion score the-glade --help`` shows only the flags The Glade's scoring takes.
"""

from __future__ import annotations

import argparse

from companion import __version__
from companion.games.registry import JOBS, GameInfo, all_games


def _common(json_output: bool = True, suppress: bool = False) -> argparse.ArgumentParser:
    """``--config``, ``--verbose`` and ``--json``: accepted before and after the game's name
    (``suppress`` leaves them unset when absent, so a later parser's value is kept)."""
    default = {"default": argparse.SUPPRESS} if suppress else {}
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--config", metavar="FILE",
                   help="a configuration file (default: ~/.config/companion/companion.yaml, "
                        "then /etc/companion/companion.yaml)", **default)
    p.add_argument("-v", "--verbose", action="store_true", help="log details for debugging",
                   **default)
    if json_output:
        p.add_argument("--json", action="store_true", help="print machine-readable JSON",
                       **default)
    return p


def _game_help(job: str) -> str:
    able = [g.name for g in all_games() if g.can(job)]
    return "the game: " + (", ".join(able) if able else "none can yet")


def build_parser() -> argparse.ArgumentParser:
    common = _common(suppress=True)
    plain = _common(json_output=False, suppress=True)
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: scores, rules and advice for board games on the table.",
        epilog="Game commands take the game's name first: 'companion score the-glade --help' "
               "lists what The Glade's scoring takes.",
        parents=[plain])
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_text: str, parents: list[argparse.ArgumentParser] | None = None,
            **kwargs: object) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text,
                              parents=parents if parents is not None else [common],
                              **kwargs)  # type: ignore[arg-type]

    add("run", "run the table service on the configured camera, display and buttons",
        [plain])
    demo = add("demo", "run the service on simulated devices over bundled photos, with a "
               "scripted button sequence; writes the screens as an animated GIF", [plain])
    demo.add_argument("--out", metavar="DIR", default="companion-demo",
                      help="where to write frames.gif and last-frame.png (default: %(default)s)")
    demo.add_argument("--quiet", action="store_true", help="do not print each frame")

    add("games", "list the games and what the companion can do for each")
    add("config", "check the configuration and print the settings in force")
    add("history", "list the finished games the service has recorded, newest first")
    doctor = add("doctor", "check the Pi, OLED, buttons, camera, versions and configuration; "
                 "say how to fix what is wrong")
    doctor.add_argument("--no-buttons", action="store_true",
                        help="skip the button check (it asks you to press each button)")
    doctor.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for each button (default: %(default)s)")
    _calibrate(add("calibrate", "calibrate the camera's lens, or check the table set-up"),
               common)

    for job in JOBS:
        verb = add(job, f"{JOBS[job]}: 'companion {job} GAME --help' for the game's flags",
                   usage=f"companion {job} GAME ...")
        verb.add_argument("game", metavar="GAME", help=_game_help(job))
        verb.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    return parser


def _calibrate(calibrate: argparse.ArgumentParser, common: argparse.ArgumentParser) -> None:
    what = calibrate.add_subparsers(dest="what", required=True, metavar="WHAT")
    camera = what.add_parser(
        "camera", parents=[common], help="lens calibration from the printed ChArUco board",
        description="Calibrate the camera's lens from views of the printed ChArUco board.")
    camera.add_argument("--photos", metavar="DIR",
                        help="use these photos of the ChArUco board instead of capturing")
    camera.add_argument("--frames", type=int, default=20,
                        help="how many views to capture, 3 or more (default: %(default)s)")
    table = what.add_parser(
        "table", parents=[common], help="where the board is seen, sharpness and exposure",
        description="Check the table set-up: where the board is seen, sharpness and exposure.")
    table.add_argument("--photo", metavar="FILE", help="use this photo instead of capturing")
    table.add_argument("--game", metavar="GAME",
                       help="the game whose board is laid out (default: games.default)")
    table.add_argument("--overlay", metavar="OUT.png", default="table-setup.png",
                       help="where to draw what the camera sees (default: %(default)s)")


def game_parser(job: str, game: GameInfo) -> argparse.ArgumentParser:
    """The parser of ``companion JOB GAME``: the game's own flags for that verb."""
    command = game.command(job)
    p = argparse.ArgumentParser(prog=f"companion {job} {game.name}",
                                description=f"{game.title}: {command.help}",
                                parents=[_common(json_output=command.json)])
    command.arguments(p)
    return p
