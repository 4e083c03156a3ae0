"""Meadow's section of the configuration (``games.meadow``): no keys yet.

The catalogue is named in each state file (default: the SAMPLE one); a key for a user's own
catalogue needs a default in ``config/companion.yaml`` (a shared file), so it waits.
"""

from __future__ import annotations

from typing import Any

SETTINGS: dict[str, Any] = {}
