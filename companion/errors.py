"""The one family of errors a user may see.

Every error that reaches the command line or the table service is a :class:`CompanionError`;
its message is one sentence that names the problem and what to do about it. The command line
turns it into exit status 1 and one line on stderr; the service shows it on the OLED and keeps
running. Each concrete error also subclasses the matching builtin (as gpiozero does), so callers
may catch either.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error meant for a user: its message says what is wrong and what to do."""


class ConfigError(CompanionError, ValueError):
    """A configuration file or value cannot be used."""


class InputFileError(CompanionError, OSError):
    """A file the user named is missing, unreadable or of the wrong kind."""


class StateError(CompanionError, ValueError):
    """A game state file breaks the format or the game's rules (message names the field)."""


class UnsupportedJobError(CompanionError, LookupError):
    """A game is known, but cannot do the asked job yet."""


class UnknownGameError(CompanionError, LookupError):
    """No game of that name is registered."""


class DeviceError(CompanionError, RuntimeError):
    """A camera, display or button could not be opened or stopped answering."""


class RecognitionError(CompanionError, ValueError):
    """A photo could not be read as a board (no board found, out of frame, corrupt image)."""


class ModelError(CompanionError, ValueError):
    """An enrolment pack or a recognition model folder cannot be used."""
