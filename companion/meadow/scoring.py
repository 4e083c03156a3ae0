"""End of game scoring: every played card's points (covered or not), plus bonus tokens.

Cards left in hand score nothing; each bonus token placed scores its value. Most points wins;
a tie goes to the most discovery cards played; still tied, the players share the victory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.score import ScoreLine, ScoreSheet, SeatScore, TieBreak
from companion.meadow.catalogue import Catalogue
from companion.meadow.meadow import PlayerArea

if TYPE_CHECKING:
    from companion.meadow.game import State


def area_score(area: PlayerArea, cat: Catalogue) -> dict[str, Any]:
    """One player's score in the spec's JSON shape (name, total, discoveries, breakdown,
    cards)."""
    meadow = sum(cat.cards[c].points for col in area.meadow for c in col)
    surroundings = sum(cat.cards[c].points for land in area.surroundings
                       for c in (land.card, land.discovery) if c)
    bonus = sum(b.value for b in area.bonus)
    return {"name": area.name, "total": meadow + surroundings + bonus,
            "discoveries": area.discoveries(),
            "breakdown": {"meadow": meadow, "surroundings": surroundings, "bonus": bonus},
            "cards": {c: cat.cards[c].points for c in area.played()}}


def winners(scores: list[dict[str, Any]]) -> tuple[list[str], TieBreak | None]:
    """Who wins: most points, then most discovery cards; still tied, all of them."""
    best = max(s["total"] for s in scores)
    tied = [s for s in scores if s["total"] == best]
    if len(tied) == 1:
        return [tied[0]["name"]], None
    most = max(s["discoveries"] for s in tied)
    won = [s["name"] for s in tied if s["discoveries"] == most]
    return won, TieBreak(tuple(s["name"] for s in tied), "most discovery cards",
                         {s["name"]: s["discoveries"] for s in tied},
                         won[0] if len(won) == 1 else None)


def score_areas(areas: tuple[PlayerArea, ...], cat: Catalogue) -> dict[str, Any]:
    """The spec's ``score`` JSON for these player areas."""
    scores = [area_score(a, cat) for a in areas]
    won, _tb = winners(scores)
    return {"players": scores, "winner": won[0] if len(won) == 1 else None, "winners": won}


def score_sheet(state: State) -> ScoreSheet:
    """The state's score as the shared :class:`ScoreSheet` (final once the game is over)."""
    from companion.meadow.rover import result, rover_score

    scores = [area_score(a, state.cat) for a in state.players]
    seats = tuple(SeatScore(s["name"], s["total"], (
        ScoreLine("meadow", "Meadow", s["breakdown"]["meadow"]),
        ScoreLine("surroundings", "Surroundings", s["breakdown"]["surroundings"]),
        ScoreLine("bonus", "Bonus tokens", s["breakdown"]["bonus"]))) for s in scores)
    won, tie = winners(scores)
    words = ""
    if state.rover is not None:
        rover = rover_score(state)
        words = f"Rover {rover}: {result(scores[0]['total'], rover)}"
    return ScoreSheet("meadow", seats, tuple(won), tie, state.is_terminal(), words)


__all__ = ["area_score", "score_areas", "score_sheet", "winners"]
