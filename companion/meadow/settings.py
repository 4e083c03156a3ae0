"""Meadow's section of the configuration (``games.meadow``): what each key may hold.

The defaults are in ``config/companion.yaml``; the configuration loader checks a user's values
against :data:`SETTINGS` (found through the game's registry record).
"""

from __future__ import annotations

from typing import Any

from companion.config import PATH

SETTINGS: dict[str, Any] = {
    # the players' own card catalogue (docs/meadow.md); null = the bundled SAMPLE
    "catalogue": PATH,
}
