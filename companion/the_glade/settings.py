"""The Glade's section of the configuration (``games.the-glade``): what each key may hold.

The defaults are in ``config/companion.yaml``; the configuration loader checks a user's values
against :data:`SETTINGS` (found through the game's registry record).
"""

from __future__ import annotations

from typing import Any

from companion.config import PATH, Field, choice


def _board(value: Any) -> bool:
    from companion.the_glade.names import BoardGeometry

    try:
        BoardGeometry.from_dict(value)
    except Exception:
        return False
    return True


SETTINGS: dict[str, Any] = {
    "variant": choice("basic", "matching", "solo"),
    "board": Field((dict,), "{rows: R, cols: C, centre: SQUARE} with the centre on the board, "
                   "e.g. {rows: 7, cols: 7, centre: D4}", _board),
    "model": PATH,
}
