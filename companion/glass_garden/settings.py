"""Glass Garden's section of the configuration (``games.glass-garden``): what each key may hold.

The defaults are in ``config/companion.yaml``; the configuration loader checks a user's values
against :data:`SETTINGS` (found through the game's registry record).
"""

from __future__ import annotations

from typing import Any

from companion.config import PATH, number

SETTINGS: dict[str, Any] = {
    "deck": PATH,
    "think_seconds": number(0.1, 600),
    "model": PATH,
}
