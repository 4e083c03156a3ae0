"""Gardlings' section of the configuration (``games.gardlings``): what each key may hold.

The defaults are in ``config/companion.yaml``; the configuration loader checks a user's values
against :data:`SETTINGS` (found through the game's registry record). The variant (basic or
expert) is chosen for each game at the table.
"""

from __future__ import annotations

from typing import Any

from companion.config import BOOL, PATH

SETTINGS: dict[str, Any] = {
    # the players' own tile catalogue (docs/gardlings.md); null = the bundled SAMPLE
    "catalogue": PATH,
    # the long game: the victory tile at 20 gems instead of 17
    "long_game": BOOL,
}
