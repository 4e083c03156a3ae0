"""Where the project's own files and the user's data live."""

from __future__ import annotations

import os
from pathlib import Path

#: The checkout (or install) root: the folder holding ``companion/`` and ``config/``.
PROJECT_ROOT = Path(__file__).resolve().parent.parent


def config_dir() -> Path:
    """The folder of default configuration and bundled game data (``config/``).

    ``COMPANION_CONFIG_DIR`` points elsewhere, for an install that keeps it apart from the code.
    """
    override = os.environ.get("COMPANION_CONFIG_DIR")
    return Path(override) if override else PROJECT_ROOT / "config"


def game_data_dir(game: str) -> Path:
    """Bundled data of one game, e.g. ``config/games/the-glade``."""
    return config_dir() / "games" / game


def user_config_candidates() -> list[Path]:
    """User configuration files, most specific first (the first that exists is used)."""
    home = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return [home / "companion" / "companion.yaml", Path("/etc/companion/companion.yaml")]
