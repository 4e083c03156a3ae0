"""Meadow's symbols and requirements, in the spec's words.

Ground symbols lie at the foot of ground cards and are never covered; card symbols sit on
cards and are lost when the card is covered; ``road`` and ``discovery`` belong to the
surroundings; ``encounter`` (Envelope U, Big Encounters) forbids covering its card.

A requirement is one entry of a card's ``requires`` list: ``worm``, a choice ``worm/bug`` (one
requirement met by either symbol), or either of those between arrows, ``<tree>``, which asks
for the symbol in a column immediately adjacent to the card's column.

>>> Requirement.parse("<worm/bug>")
Requirement(options=('worm', 'bug'), arrows=True)
>>> str(Requirement.parse("grass"))
'grass'
"""

from __future__ import annotations

from dataclasses import dataclass

GROUND_SYMBOLS: tuple[str, ...] = ("litterfall", "grass", "sands", "rocks", "wetlands")
ROAD = "road"
DISCOVERY = "discovery"
ENCOUNTER = "encounter"
#: symbols with a fixed meaning, never a card symbol a catalogue may list again
RESERVED: frozenset[str] = frozenset({*GROUND_SYMBOLS, ROAD, DISCOVERY})


@dataclass(frozen=True, order=True)
class Requirement:
    """One requirement symbol of a card: ``options`` (two for a slash choice), ``arrows``
    when it must be shown by a column immediately adjacent to the card's column."""

    options: tuple[str, ...]
    arrows: bool = False

    @classmethod
    def parse(cls, text: str) -> Requirement:
        """``worm``, ``worm/bug``, ``<tree>`` or ``<worm/bug>`` (ValueError when malformed)."""
        raw = text.strip()
        arrows = raw.startswith("<") and raw.endswith(">")
        if arrows:
            raw = raw[1:-1]
        options = tuple(p.strip() for p in raw.split("/"))
        if not raw or "<" in raw or ">" in raw or any(not p for p in options) \
                or len(options) > 2 or len(set(options)) != len(options):
            raise ValueError(f"{text!r} is not a requirement (worm, worm/bug, <tree>)")
        return cls(options, arrows)

    @property
    def surroundings(self) -> bool:
        """A ``road`` or ``discovery`` requirement: met in the surroundings, never ignored."""
        return self.options in ((ROAD,), (DISCOVERY,))

    def met_by(self, symbol: str) -> bool:
        return symbol in self.options

    def words(self) -> str:
        """The requirement in words: ``a worm or a bug``, ``a tree in a neighbouring column``."""
        text = " or ".join(f"a {o}" for o in self.options)
        return text + (" in a column next to it" if self.arrows else "")

    def __str__(self) -> str:
        text = "/".join(self.options)
        return f"<{text}>" if self.arrows else text


def requirement_list(texts: tuple[str, ...] | list[str]) -> tuple[Requirement, ...]:
    """Requirements from their texts, in order."""
    return tuple(Requirement.parse(t) for t in texts)


__all__ = ["DISCOVERY", "ENCOUNTER", "GROUND_SYMBOLS", "RESERVED", "ROAD", "Requirement",
           "requirement_list"]
