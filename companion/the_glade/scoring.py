"""Final scoring: every line of the score pad, the winner and the tie-break.

Score pad lines (the ``breakdown`` keys, in the pad's order):

=================================  ============================================================
``toadstools_in_glade``            1 per own counter on the centre of the glade board
``toadstools_claimed_by_others``   1 per own counter in other players' stores and enclosures
``toadstools_in_store``            2 per toadstool counter (any colour) in your store
``toadstools_in_enclosures``       3 per toadstool counter (any colour) in your enclosures
``double_toadstools``              1 per own counter showing its double side, wherever it is
``match_counters``                 the points printed on your match counters (1-4)
``match_counters_in_enclosures``   1 per match counter in your enclosures
``unconnected_groups``             -1 per group of tiles not connected to the centre square
=================================  ============================================================

Ties: the tied player with the fewest counters left on their side of the glade wins; if that
is equal too, the game is tied (``winner`` is None).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.score import ScoreLine, ScoreSheet, SeatScore, TieBreak
from companion.the_glade.names import Counter, MatchCounter, Token
from companion.the_glade.table import CounterRef, GameState, Player

LINES: tuple[tuple[str, str], ...] = (
    ("toadstools_in_glade", "1 per own toadstool in the glade"),
    ("toadstools_claimed_by_others", "1 per own toadstool claimed by others"),
    ("toadstools_in_store", "2 per toadstool in the store"),
    ("toadstools_in_enclosures", "3 per toadstool in enclosures"),
    ("double_toadstools", "1 per own double toadstool"),
    ("match_counters", "match counters (1-4 each)"),
    ("match_counters_in_enclosures", "1 per match counter in enclosures"),
    ("unconnected_groups", "-1 per unconnected group"),
)


@dataclass(frozen=True)
class PlayerScore:
    name: str
    breakdown: dict[str, int]
    supply: int

    @property
    def total(self) -> int:
        return sum(self.breakdown.values())

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "total": self.total, "breakdown": dict(self.breakdown),
                "toadstools_left": self.supply}


@dataclass(frozen=True)
class GameScore:
    players: tuple[PlayerScore, ...]
    winner: str | None
    tie_break: dict[str, object] | None
    solo: dict[str, object] | None = None

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"players": [p.to_dict() for p in self.players],
                                   "winner": self.winner}
        if self.tie_break is not None:
            data["tie_break"] = self.tie_break
        if self.solo is not None:
            data["solo"] = self.solo
        return data

    def sheet(self, final: bool = True) -> ScoreSheet:
        """This score as the shared :class:`ScoreSheet` (what the screens and history read)."""
        labels = dict(LINES)
        seats = tuple(SeatScore(p.name, p.total, tuple(ScoreLine(k, labels[k], v)
                                                       for k, v in p.breakdown.items()))
                      for p in self.players)
        tie = None
        if self.tie_break is not None:
            tb = self.tie_break
            tie = TieBreak(tuple(tb["tied"]), str(tb["rule"]),  # type: ignore[arg-type]
                           dict(tb["toadstools_left"]), self.winner)  # type: ignore[call-overload]
        if self.winner is not None:
            winners: tuple[str, ...] = (self.winner,)
        elif self.tie_break is not None:
            winners = tuple(self.tie_break["tied"])  # type: ignore[arg-type]
        else:
            winners = ()
        result = ""
        if self.solo is not None:
            result = f"{self.solo['turns']} turns, {self.solo['points']} points"
        return ScoreSheet("the-glade", seats, winners, tie, final, result)


def token_value(state: GameState, player: Player, token: Token, ref: CounterRef) -> int:
    """What ``token`` lying at ``ref`` is worth to ``player`` at the end (all lines at once).

    Places: ``supply`` and ``box``/``pool`` are worth nothing. The coach values a move as
    ``value(to) - value(from)``, so scoring and advice never disagree.
    """
    if isinstance(token, MatchCounter):
        if ref.player != player.name or ref.place not in ("store", "forest"):
            return 0
        return token.value + (1 if ref.place == "forest" else 0)
    own = token.colour == player.colour
    if ref.place == "glade":
        base = 1 if own else 0
    elif ref.place == "store":
        base = 2 if ref.player == player.name else (1 if own else 0)
    elif ref.place == "forest":
        base = 3 if ref.player == player.name else (1 if own else 0)
    else:
        return 0
    return base + (1 if own and token.side == "double" else 0)


def player_breakdown(state: GameState, player: Player) -> dict[str, int]:
    """Every score pad line for one player."""
    lines = dict.fromkeys((k for k, _ in LINES), 0)
    for ref, c in state.counters():
        own = c.colour == player.colour
        if own and c.side == "double":
            lines["double_toadstools"] += 1
        if ref.place == "glade" and own:
            lines["toadstools_in_glade"] += 1
        elif ref.place == "store":
            if ref.player == player.name:
                lines["toadstools_in_store"] += 2
            elif own:
                lines["toadstools_claimed_by_others"] += 1
        elif ref.place == "forest":
            if ref.player == player.name:
                lines["toadstools_in_enclosures"] += 3
            elif own:
                lines["toadstools_claimed_by_others"] += 1
    for mc, square in player.match_counters:
        lines["match_counters"] += mc.value
        if square is not None:
            lines["match_counters_in_enclosures"] += 1
    lines["unconnected_groups"] = -len(player.forest.unconnected_groups())
    return lines


def score_game(state: GameState) -> GameScore:
    """Score every player, pick the winner, apply the tie-break."""
    scores = tuple(PlayerScore(p.name, player_breakdown(state, p), p.supply)
                   for p in state.players)
    if state.variant == "solo" or len(scores) == 1:
        only = scores[0]
        player = state.players[0]
        solo = {"turns": player.turns, "points": only.total,
                "finished": player.supply == 0 or state.finished}
        return GameScore(scores, only.name, None, solo)
    best = max(s.total for s in scores)
    tied = [s for s in scores if s.total == best]
    if len(tied) == 1:
        return GameScore(scores, tied[0].name, None)
    fewest = min(s.supply for s in tied)
    still = [s for s in tied if s.supply == fewest]
    winner = still[0].name if len(still) == 1 else None
    tie_break = {"tied": [s.name for s in tied],
                 "rule": "fewest toadstools left on their side of the glade board",
                 "toadstools_left": {s.name: s.supply for s in tied},
                 "result": winner if winner else "tied"}
    return GameScore(scores, winner, tie_break)


def score_text(score: GameScore) -> str:
    """A table for people: one column per player, one row per score pad line."""
    names = [p.name for p in score.players]
    width = max(12, *(len(n) for n in names))
    head = f"{'':38}" + "".join(f"{n:>{width}}" for n in names)
    rows = [head]
    for key, label in LINES:
        rows.append(f"{label:38}" + "".join(f"{p.breakdown[key]:>{width}}"
                                             for p in score.players))
    rows.append(f"{'Total':38}" + "".join(f"{p.total:>{width}}" for p in score.players))
    if score.solo is not None:
        rows.append(f"Solo: {score.solo['turns']} turns, {score.solo['points']} points"
                    + ("" if score.solo["finished"] else " (not finished yet)"))
    elif score.winner:
        extra = ""
        if score.tie_break:
            extra = " (tie broken: fewest toadstools left on the glade)"
        rows.append(f"Winner: {score.winner}{extra}")
    else:
        rows.append("The game is tied: " + ", ".join(
            str(n) for n in (score.tie_break or {}).get("tied", [])))  # type: ignore[union-attr]
    return "\n".join(rows)


__all__ = ["LINES", "Counter", "GameScore", "PlayerScore", "player_breakdown", "score_game",
           "score_text", "token_value"]
