"""The ruling on an action read from the table, for any game: LEGAL and what it sets off, or
every rule it breaks; the players accept it into the game (OK) or reject it (BACK).

A game hands over a :class:`Proposal`: whose action, the rules' :class:`Ruling` on it (the
shared one of :mod:`companion.games.interface`) and what accepting it does. Nothing here knows
a game's rules or words beyond the ruling's own: each violation's message, and each trigger's
sentences.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.devices.buttons import Key
from companion.games.interface import Ruling
from companion.ui.pages import BACK, Outcome, Page, Replace, TextPage


@dataclass(frozen=True)
class Proposal:
    """An action read from the table and ruled on, waiting for the players' word.

    ``accept`` records the action in the game (and saves it) and returns the page that says
    what it did; it is called only for a legal ruling. ``notes`` are shown under the ruling
    (what the reading assumed, e.g. squares kept as they were).
    """

    seat: str
    ruling: Ruling
    accept: Callable[[], Page]
    notes: tuple[str, ...] = ()


def trigger_lines(triggers: Mapping[str, Any]) -> list[str]:
    """What a legal action sets off, one line per sentence: a trigger's value is a sentence or
    a list of them (its key is for programs); any other value is shown as ``key: value``.

    >>> trigger_lines({"sets": ["Set of 3 (D3, D4, D5)"], "enclosures": "New enclosure E5",
    ...                "gems": 2})
    ['Set of 3 (D3, D4, D5)', 'New enclosure E5', 'gems: 2']
    """
    lines: list[str] = []
    for key, value in triggers.items():
        if isinstance(value, str):
            lines.append(value)
        elif isinstance(value, Sequence) and all(isinstance(v, str) for v in value):
            lines.extend(value)
        else:
            lines.append(f"{key}: {value}")
    return lines


def ruling_lines(ruling: Ruling) -> list[str]:
    """LEGAL and what it sets off, or ILLEGAL and every broken rule, in the game's words.

    >>> from companion.games.interface import Violation
    >>> ruling_lines(Ruling("C4", (Violation("line", ("C4",), "C4 is not in line"),)))
    ['ILLEGAL', 'C4 is not in line']
    """
    if not ruling.legal:
        return ["ILLEGAL", *(v.message or v.code for v in ruling.violations)]
    return ["LEGAL", *trigger_lines(ruling.triggers)]


class RulingPage(TextPage):
    """The ruling. Legal: OK accepts it into the game (its result takes this page's place),
    BACK rejects it. Illegal: OK or BACK returns, nothing recorded."""

    def __init__(self, proposal: Proposal) -> None:
        self.proposal = proposal
        legal = proposal.ruling.legal
        lines = [*ruling_lines(proposal.ruling), *proposal.notes,
                 "OK: accept  BACK: reject" if legal else "OK: back"]
        super().__init__(f"{proposal.seat}: {'legal' if legal else 'illegal'}", lines,
                         alert=not legal)

    def handle(self, key: Key) -> Outcome:
        if key is Key.OK and self.proposal.ruling.legal:
            return Replace(self.proposal.accept())
        if key in (Key.OK, Key.BACK):
            return BACK
        return super().handle(key)
