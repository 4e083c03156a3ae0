"""The ``companion`` command: parse, dispatch to a game's job, turn errors into one clear line.

Exit status: 0 when the command did its job (an illegal move is a successful ruling), 1 when
the input could not be used (the reason on stderr, and as ``{"error": ...}`` on stdout with
``--json``), 2 for a wrong command line. Heavy modules (OpenCV, numpy, a game's engine) are
imported only by the subcommand that needs them, so ``companion --help`` starts at once.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Sequence
from typing import Any

from companion.cli.parser import build_parser
from companion.errors import CompanionError

log = logging.getLogger("companion")


def _setup_logging(verbose: bool, level: str | None = None) -> None:
    chosen = logging.DEBUG if verbose else getattr(logging, (level or "warning").upper())
    logging.basicConfig(level=chosen, format="%(levelname)s %(name)s: %(message)s",
                        stream=sys.stderr, force=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    for key, default in (("json", False), ("verbose", False), ("config", None)):
        if not hasattr(args, key):
            setattr(args, key, default)
    _setup_logging(args.verbose)
    try:
        from companion.cli.commands import run_command

        return run_command(parser, args)
    except CompanionError as exc:
        return _fail(str(exc), args.json)
    except KeyboardInterrupt:
        print("companion: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head, less, ...: the reader left, all is well
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # a bug: one line for the user, the traceback with --verbose
        log.debug("internal error", exc_info=True)
        return _fail(f"internal error ({type(exc).__name__}: {exc}); run again with --verbose "
                     "for details and please report it", args.json)


def _fail(message: str, want_json: bool) -> int:
    print(f"companion: {message}", file=sys.stderr)
    if want_json:
        print(json.dumps({"error": message}))
    return 1


def emit(data: dict[str, Any], text: str, want_json: bool) -> None:
    """Print a job's outcome: the JSON object, or the text for people."""
    if want_json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(text)
