"""Gardlings' section of the configuration (``games.gardlings``): what each key may hold.

Empty for now: the defaults file (``config/companion.yaml``, shared) has no Gardlings keys,
and the loader refuses a schema key its defaults lack. The keys meant to come (once the
defaults carry them): ``variant`` (basic | expert, for the table flow; today the service's
session variant is read), ``long_game`` (the victory tile at 20) and ``catalogue`` (a tile
catalogue path; null = the SAMPLE).
"""

from __future__ import annotations

from typing import Any

SETTINGS: dict[str, Any] = {}
