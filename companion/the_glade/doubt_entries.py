"""Where a scan's reading keeps a square in doubt, and how a later step takes it out.

A forest or glade scan lists what it could not name under ``uncertain`` and keeps, per
square or space, why (``reasons``, and its code under ``doubts``), what it may be
(``candidates``) and its likeliest name (``likeliest``): see
recognition.reader.BoardReading.to_dict. A step that names the square later (the game's
rules in deduction, a match counter read in an enclosure, a player's fix at the table) takes
it out of all of them at once, so no entry outlives its doubt.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

#: A reading's entries kept per square in doubt, beside its place in ``uncertain``.
PER_SQUARE = ("reasons", "doubts", "candidates", "likeliest")


def no_longer_in_doubt(reading: dict[str, Any], labels: Collection[str]) -> None:
    """``reading`` with the squares (or spaces) ``labels`` out of ``uncertain`` and of every
    PER_SQUARE entry; what they were read as is the caller's to put in."""
    gone = {str(label) for label in labels}
    reading["uncertain"] = [u for u in reading.get("uncertain") or () if str(u) not in gone]
    for key in PER_SQUARE:
        if isinstance(reading.get(key), dict):
            reading[key] = {k: v for k, v in reading[key].items() if str(k) not in gone}
