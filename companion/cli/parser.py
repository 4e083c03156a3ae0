"""The command line's grammar (kept apart from what the commands do, to start fast)."""

from __future__ import annotations

import argparse

from companion import __version__

GAME_HELP = "the game: the-glade, glass-garden, gardlings or meadow"


def _common(json_output: bool = True) -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--config", metavar="FILE",
                   help="a configuration file (default: ~/.config/companion/companion.yaml, "
                        "then /etc/companion/companion.yaml)")
    p.add_argument("-v", "--verbose", action="store_true", help="log details for debugging")
    if json_output:
        p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    return p


def build_parser() -> argparse.ArgumentParser:
    common = _common()
    plain = _common(json_output=False)
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: scores, rules and advice for board games on the table.",
        parents=[plain])
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_text: str, parents: list[argparse.ArgumentParser] | None = None,
            ) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_text, description=help_text,
                              parents=parents if parents is not None else [common])

    add("run", "run the table service on the configured camera, display and buttons",
        [plain])
    demo = add("demo", "run the service on simulated devices over bundled photos, with a "
               "scripted button sequence; writes the screens as an animated GIF", [plain])
    demo.add_argument("--out", metavar="DIR", default="companion-demo",
                      help="where to write frames.gif and last-frame.png (default: %(default)s)")
    demo.add_argument("--quiet", action="store_true", help="do not print each frame")

    add("games", "list the games and what the companion can do for each")
    add("config", "check the configuration and print the settings in force", [plain])
    add("history", "list the finished games the service has recorded, newest first")
    doctor = add("doctor", "check the Pi, OLED, buttons, camera, versions and configuration; "
                 "say how to fix what is wrong")
    doctor.add_argument("--no-buttons", action="store_true",
                        help="skip the button check (it asks you to press each button)")
    doctor.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for each button (default: %(default)s)")
    calibrate = add("calibrate", "calibrate the camera's lens, or check the table set-up")
    calibrate.add_argument("what", choices=["camera", "table"],
                           help="camera: lens calibration from the printed ChArUco board; "
                                "table: where the board is seen, sharpness and exposure")
    calibrate.add_argument("--photos", metavar="DIR",
                           help="camera: use these photos of the ChArUco board instead of "
                                "capturing")
    calibrate.add_argument("--frames", type=int, default=20,
                           help="camera: how many views to capture (default: %(default)s)")
    calibrate.add_argument("--photo", metavar="FILE",
                           help="table: use this photo instead of capturing")
    calibrate.add_argument("--overlay", metavar="OUT.png", default="table-setup.png",
                           help="table: where to draw what the camera sees "
                                "(default: %(default)s)")

    score = add("score", "print the final score of every player from a state file")
    score.add_argument("game", help=GAME_HELP)
    score.add_argument("state", help="the game state file (JSON or YAML)")

    check = add("check", "rule on one placement: is it legal, and what does it trigger?")
    check.add_argument("game", help=GAME_HELP)
    check.add_argument("before", help="the forest before the placement (state file)")
    check.add_argument("after", help="the forest after the placement (state file)")

    hint = add("hint", "list the legal placements from a rack, best first")
    hint.add_argument("game", help=GAME_HELP)
    hint.add_argument("state", help="the game state file")
    hint.add_argument("--player", required=True, help="whose forest")
    hint.add_argument("--rack", required=True, metavar="TILE,TILE,...",
                      help="the tiles on the rack, comma-separated")
    hint.add_argument("--limit", type=int, metavar="N", help="list at most N placements")

    enrol = add("enrol", "learn the look of a game's components from an enrolment pack")
    enrol.add_argument("game", help=GAME_HELP)
    enrol.add_argument("pack", help="the pack folder (holding pack.yaml)")
    enrol.add_argument("--out", required=True, metavar="MODEL", help="the model folder to write")

    cut = add("cut-sheet", "cut tile photos for an enrolment pack out of one photo of tiles "
              "laid in rows on a plain sheet")
    cut.add_argument("game", help=GAME_HELP)
    cut.add_argument("photo", help="the photo of the sheet, taken from above (JPEG or PNG)")
    cut.add_argument("--pack", required=True, metavar="DIR",
                     help="the pack folder (made if missing): writes tiles/NNNN.png and a "
                          "contact sheet to check them by, and adds their entries to its "
                          "pack.yaml, keeping what is there")
    cut.add_argument("--names", metavar="FILE",
                     help="the tiles' names in reading order (rows top to bottom, each left "
                          "to right), one a line: 'hedgehog/acorn/oak spring'; without it "
                          "the entries get placeholders to fill in")
    cut.add_argument("--season", choices=["spring", "summer"],
                     help="the season of every tile whose line gives none")
    cut.add_argument("--size", type=int, default=128, metavar="PX",
                     help="width of each cut tile image in pixels (default: %(default)s)")
    cut.add_argument("--start", type=int, metavar="N",
                     help="number of the first tile file (default: after the pack's last)")

    scan = add("scan", "read what lies on a board from one photo")
    scan.add_argument("game", help=GAME_HELP)
    scan.add_argument("photo", help="the photo (JPEG or PNG)")
    scan.add_argument("--model", required=True, help="a model folder made by 'companion enrol'")
    scan.add_argument("--overlay", metavar="OUT.png", help="draw what was seen onto the photo")
    scan.add_argument("--previous", metavar="STATE",
                      help="the last known state of this board, to catch contradictions")

    assist = add("assist", "advise the solo player: the best turn and the plan behind it")
    assist.add_argument("game", help=GAME_HELP)
    assist.add_argument("state", help="the game state file")
    assist.add_argument("--seconds", type=float, default=10.0,
                        help="how long to think (default: %(default)s)")

    play = add("play", "play a game in the terminal, with the assistant's advice on request",
               [plain])
    play.add_argument("game", help=GAME_HELP)
    play.add_argument("--seed", type=int, default=1, help="which deal (default: %(default)s)")
    return parser
