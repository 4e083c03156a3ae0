"""Glass Garden's section of the configuration (``games.glass-garden``): what each key may hold.

The defaults are in ``config/companion.yaml``; the configuration loader checks a user's values
against :data:`SETTINGS` (found through the game's registry record).
"""

from __future__ import annotations

from typing import Any

from companion.config import PATH, number, whole

SETTINGS: dict[str, Any] = {
    "deck": PATH,
    "think_seconds": number(0.1, 600),
    # searches at once: the solver in the service and think_workers - 1 worker processes
    # (the solver's portfolio, companion/glass_garden/portfolio.py); 1: the solver alone
    "think_workers": whole(1, 8),
    "model": PATH,
}
