"""The score sheet: the one shape of a score that the screens, the history and the tests read.

Every game turns its own scoring into a :class:`ScoreSheet`: each seat's total with its
named lines (the game's score pad), who won, and how a tie was broken, so nothing outside a
game needs to know how that game scores.

>>> sheet = ScoreSheet.of("demo", [("Toni", [("sets", "sets", 5)]),
...                                ("Emma", [("sets", "sets", 3)])])
>>> sheet.winner, sheet.total("Emma")
('Toni', 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ScoreLine:
    """One line of a score pad: a stable ``key``, the words on the pad, and the points."""

    key: str
    label: str
    points: int


@dataclass(frozen=True)
class SeatScore:
    """One seat's score: its total and the lines that make it."""

    name: str
    total: int
    lines: tuple[ScoreLine, ...] = ()

    def breakdown(self) -> dict[str, int]:
        return {line.key: line.points for line in self.lines}


@dataclass(frozen=True)
class TieBreak:
    """How a tie on points was settled: who was tied, by which rule, on which values."""

    tied: tuple[str, ...]
    rule: str
    values: Mapping[str, int] = field(default_factory=dict)
    #: the winner after the tie-break, or None when they stay tied
    result: str | None = None


@dataclass(frozen=True)
class ScoreSheet:
    """The score of a game (final once the game is over)."""

    game: str
    players: tuple[SeatScore, ...]
    #: everyone with the best result after any tie-break (more than one: a shared win)
    winners: tuple[str, ...] = ()
    tie_break: TieBreak | None = None
    final: bool = True
    #: a result beyond the totals, in the game's words (a solo game's medal or rank)
    result: str = ""

    @classmethod
    def of(cls, game: str, seats: Iterable[tuple[str, Iterable[tuple[str, str, int]]]], *,
           final: bool = True, result: str = "") -> ScoreSheet:
        """A sheet from ``(name, [(key, label, points), ...])`` per seat; most points wins,
        and players level on points share the win (a game with a tie-break says so itself)."""
        players = tuple(SeatScore(name, sum(p for _k, _l, p in lines),
                                  tuple(ScoreLine(*line) for line in lines))
                        for name, lines in ((n, list(ls)) for n, ls in seats))
        best = max((p.total for p in players), default=0)
        winners = tuple(p.name for p in players if p.total == best)
        return cls(game, players, winners, None, final, result)

    @property
    def winner(self) -> str | None:
        """The one winner, or None for a tie nobody broke."""
        return self.winners[0] if len(self.winners) == 1 else None

    def seat(self, name: str) -> SeatScore:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def total(self, name: str) -> int:
        return self.seat(name).total

    def to_dict(self) -> dict[str, Any]:
        """The common score JSON: ``{"players": [{"name", "total", "breakdown"}], "winner"}``."""
        data: dict[str, Any] = {
            "game": self.game,
            "players": [{"name": p.name, "total": p.total, "breakdown": p.breakdown()}
                        for p in self.players],
            "winner": self.winner, "winners": list(self.winners), "final": self.final}
        if self.tie_break is not None:
            tb = self.tie_break
            data["tie_break"] = {"tied": list(tb.tied), "rule": tb.rule,
                                 "values": dict(tb.values), "result": tb.result or "tied"}
        if self.result:
            data["result"] = self.result
        return data


__all__ = ["ScoreLine", "ScoreSheet", "SeatScore", "TieBreak"]
