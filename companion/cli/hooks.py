"""What a game gives the command line for one verb: its own flags, and the job that runs.

A game's ``commands`` module maps verbs to :class:`Command` s. The command line builds
``companion VERB GAME`` from them, so ``companion score the-glade --help`` shows exactly the
flags The Glade's scoring takes, and a new game adds its verbs without touching the parser.
Such a module must import nothing heavy: jobs import their engines when they run.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, InputFileError


class UsageError(CompanionError, ValueError):
    """A flag's value is out of range: the command line says so with exit status 2."""


@dataclass(frozen=True)
class Command:
    """One verb of one game: a line of help, its flags, and the job.

    ``run`` takes the parsed arguments and returns a :class:`~companion.report.Report` to
    print (text or ``--json``) or an exit status (an interactive job that printed itself).
    """

    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], Any]
    #: the verb takes --json (interactive jobs do not)
    json: bool = True


def existing(path: str, what: str, folder: bool = False) -> Path:
    """``path`` as a Path, refused in one line when missing or of the wrong kind."""
    p = Path(path).expanduser()
    if not p.exists():
        raise InputFileError(f"{what} {p} does not exist")
    if folder and not p.is_dir():
        raise InputFileError(f"{what} {p} is not a folder")
    if not folder and p.is_dir():
        raise InputFileError(f"{what} {p} is a folder, not a file")
    return p


def positive(value: float | None, flag: str, *, least: float = 0, strict: bool = True) -> None:
    """Refuse a flag's value below its range (``--limit 0``, ``--seconds -1``)."""
    if value is None:
        return
    if value < least or (strict and value == least):
        bound = f"more than {least:g}" if strict else f"{least:g} or more"
        raise UsageError(f"{flag} must be {bound}")


def state_argument(parser: argparse.ArgumentParser, help_text: str = "the game state file "
                   "(JSON or YAML)") -> None:
    parser.add_argument("state", help=help_text)


def lazy(target: str) -> Callable[..., Any]:
    """The job ``"module:function"``, imported when it is first called."""

    def call(*args: Any, **kwargs: Any) -> Any:
        import importlib

        module, _, name = target.partition(":")
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    return call
