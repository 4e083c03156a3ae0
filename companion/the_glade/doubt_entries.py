"""Where a scan's reading keeps a square in doubt, and how a later step takes it out.

A forest or glade scan lists what it could not name under ``uncertain`` and keeps, per
square or space, why (``reasons``, and its code under ``doubts``), what it may be
(``candidates``) and its likeliest name (``likeliest``): see
recognition.reader.BoardReading.to_dict. A step that names the square later (the game's
rules in deduction, a match counter read in an enclosure, a player's fix at the table) takes
it out of all of them at once, so no entry outlives its doubt. A glade supply space found
holding its counter is added to the seat's count and to the spaces read holding one
(:func:`supply_space_held`), which the rules reason from.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from companion.the_glade.names import supply_space

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


def supply_space_held(reading: dict[str, Any], label: str) -> None:
    """A glade scan's ``reading`` with supply space ``label`` (``seat-N:K``), out of doubt,
    counted as holding its seat's counter: one more in ``supply``, and K among the seat's
    ``supply_spaces`` where the reading lists them."""
    seat, space = supply_space(label) or ("", "")
    no_longer_in_doubt(reading, [label])
    supply = dict(reading.get("supply") or {})
    supply[seat] = int(supply.get(seat, 0) or 0) + 1
    reading["supply"] = supply
    held = reading.get("supply_spaces")
    if isinstance(held, dict) and space.isdigit():
        held[seat] = sorted({*(held.get(seat) or []), int(space)})
