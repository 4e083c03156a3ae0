"""The Glade's section of the configuration (``games.the-glade``): what each key may hold.

The defaults are in ``config/companion.yaml``; the configuration loader checks a user's values
against :data:`SETTINGS` (found through the game's registry record).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.config import PATH, Field, choice


def _board(value: Any) -> bool:
    from companion.the_glade.names import BoardGeometry

    try:
        BoardGeometry.from_dict(value)
    except Exception:
        return False
    return True


def board_squares(settings: Mapping[str, Any]) -> int:
    """Squares across the longer side of the forest board the camera frames."""
    board = settings["board"]
    return max(int(board["rows"]), int(board["cols"]))


SETTINGS: dict[str, Any] = {
    "variant": choice("basic", "matching", "solo"),
    "board": Field((dict,), "{rows: R, cols: C, centre: SQUARE} with the centre on the board, "
                   "e.g. {rows: 7, cols: 7, centre: D4}", _board),
    "model": PATH,
}
