"""Following a real game at the table: the bookkeeping of rounds, tokens, Rover and plays.

At the table the decks are face down and the cards physical, so this model knows only what
the players tell it: where each path token went, each card played (ruled on by the play
validator before it is kept), each bonus token, and for a solo game the points of each card
Rover takes. It runs Rover's side by itself: it keeps Rover's shuffled pile, flips the token,
names the notch (the colour marker's, or the closest clockwise unused one) and the spot of
the card Rover takes. The model is plain data (``to_dict``/``from_dict``), independent of how
plays are entered (menus today, the card recogniser later).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import StateError
from companion.games.score import ScoreLine, ScoreSheet, SeatScore
from companion.meadow.campfire import benches, open_notches
from companion.meadow.catalogue import Catalogue
from companion.meadow.main_board import CLOCKWISE, NOTCHES, spot_of
from companion.meadow.meadow import Bonus, PlayerArea
from companion.meadow.path_tokens import COLOURS, rover_tokens, tokens_for
from companion.meadow.requirements import Place, PlayRuling, play_card, rule_play
from companion.meadow.rover import SOLO_SPOTS, result
from companion.meadow.scoring import area_score, winners

#: stand-ins for the cards of a hand the companion does not see (discards are counted only)
HIDDEN = tuple(f"hand-{i}" for i in range(1, 13))


@dataclass(frozen=True)
class TableGame:
    """A game followed at the table."""

    areas: tuple[PlayerArea, ...]
    rounds: int
    tokens: int
    seed: int
    round: int = 1
    seat: int = 0
    first: int = 0
    used: tuple[int, ...] = ()
    #: notches taken this round: (notch, seat or -1 for Rover)
    notches: tuple[tuple[str, int], ...] = ()
    pile: tuple[str, ...] = ()
    markers: tuple[tuple[str, str], ...] = ()
    rover_points: int = 0
    rover_cards: int = 0
    #: Rover took a card whose points the player has not told yet
    rover_pending: bool = False
    log: tuple[str, ...] = ()
    over: bool = False
    #: the current player's path token is placed (their turn ends when they say so)
    placed: bool = False
    #: the catalogue played with: a path, or ``sample``
    catalogue: str = "sample"

    @property
    def solo(self) -> bool:
        return len(self.areas) == 1

    def free_notches(self, cat: Catalogue) -> list[str]:
        board = cat.board(len(self.areas))
        taken = {n for n, _s in self.notches}
        return [n for n in (*NOTCHES, *open_notches(board), *benches(board)) if n not in taken]

    def to_dict(self) -> dict[str, Any]:
        return {"game": "meadow", "table": True,
                "players": [{"name": a.name, "meadow": [list(c) for c in a.meadow],
                             "surroundings": [{"landscape": s.card, "discovery": s.discovery}
                                              for s in a.surroundings],
                             "road_tokens": {"unused": a.roads_unused, "used": a.roads_used},
                             "bonus": [{"value": b.value, "goals": list(b.goals)}
                                       for b in a.bonus]} for a in self.areas],
                "rounds": self.rounds, "tokens": self.tokens, "seed": self.seed,
                "round": self.round, "seat": self.seat, "first": self.first,
                "used": list(self.used), "notches": [list(n) for n in self.notches],
                "pile": list(self.pile), "markers": [list(m) for m in self.markers],
                "rover_points": self.rover_points, "rover_cards": self.rover_cards,
                "rover_pending": self.rover_pending, "log": list(self.log),
                "over": self.over, "placed": self.placed, "catalogue": self.catalogue}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableGame:
        from companion.meadow.meadow import Landscape

        try:
            areas = tuple(PlayerArea(
                p["name"], tuple(tuple(c) for c in p["meadow"]),
                tuple(Landscape(s["landscape"], s["discovery"]) for s in p["surroundings"]),
                p["road_tokens"]["unused"], p["road_tokens"]["used"], (),
                tuple(Bonus(b["value"], tuple(b["goals"])) for b in p["bonus"]))
                for p in data["players"])
            return cls(areas, data["rounds"], data["tokens"], data["seed"], data["round"],
                       data["seat"], data["first"], tuple(data["used"]),
                       tuple((n, s) for n, s in data["notches"]), tuple(data["pile"]),
                       tuple((c, n) for c, n in data["markers"]), data["rover_points"],
                       data["rover_cards"], data["rover_pending"], tuple(data["log"]),
                       data["over"], data.get("placed", False),
                       str(data.get("catalogue", "sample")))
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"the saved Meadow table game is damaged ({exc})") from None


def new_table(cat: Catalogue, names: list[str], starts: list[str], seed: int) -> TableGame:
    """A game for ``names``, each starting with the starting ground card side in ``starts``."""
    n = len(names)
    if not 1 <= n <= 4 or len(starts) != n:
        raise StateError("a Meadow table game is for 1 to 4 players, each with a start card")
    board = cat.board(n)
    areas = tuple(PlayerArea(name, ((side,),), roads_unused=1)
                  for name, side in zip(names, starts, strict=True))
    game = TableGame(areas, board.rounds, len(tokens_for(n)), seed, used=(0,) * n,
                     catalogue="sample" if cat.name == "sample" else cat.path)
    if n == 1:
        rng = random.Random(seed)
        others = [c for c in COLOURS if c != COLOURS[0]]
        rng.shuffle(others)
        game = replace(game, markers=tuple(zip(others, SOLO_SPOTS, strict=True)))
        game = _reshuffle(game)
        game = rover_turn(game, cat)
    return game


def _reshuffle(game: TableGame) -> TableGame:
    pile = list(rover_tokens(COLOURS[0]))
    random.Random(f"{game.seed}:{game.round}:rover").shuffle(pile)
    return replace(game, pile=tuple(pile))


def rover_turn(game: TableGame, cat: Catalogue) -> TableGame:
    """Rover flips the top token: where it goes, and which card Rover takes."""
    token, pile = game.pile[0], game.pile[1:]
    colour, _, number = token.partition(":")
    taken = {n for n, _s in game.notches}
    if number == "?":
        free = [n for n in open_notches(cat.board(1)) if n not in taken]
        if free:
            line = f"Rover: {colour} ? to campfire notch {free[0]}; nothing else."
            notches = (*game.notches, (free[0], -1))
        else:
            line = f"Rover: {colour} ? is discarded (campfire notches all used)."
            notches = game.notches
        return replace(game, pile=pile, notches=notches, log=(*game.log, line))
    start = CLOCKWISE.index(dict(game.markers)[colour])
    notch = next(CLOCKWISE[(start + i) % 12] for i in range(12)
                 if CLOCKWISE[(start + i) % 12] not in taken)
    spot = spot_of(notch, int(number))
    line = (f"Rover: {colour} {number} in notch {notch}: put the card at row {spot[1]}, "
            f"column {spot[3]} on Rover's deck and refill it.")
    return replace(game, pile=pile, notches=(*game.notches, (notch, -1)),
                   log=(*game.log, line), rover_pending=True)


def rover_card(game: TableGame, points: int | None) -> TableGame:
    """The points of the card Rover took (None: the spot was empty)."""
    if points is None:
        return replace(game, rover_pending=False)
    return replace(game, rover_pending=False, rover_points=game.rover_points + points,
                   rover_cards=game.rover_cards + 1)


def token_placed(game: TableGame, cat: Catalogue, notch: str) -> TableGame:
    """The current player put a path token in ``notch`` (their cards may be played next;
    :func:`end_turn` passes the turn)."""
    if game.over:
        raise StateError("the game is over")
    if game.placed:
        raise StateError("this turn's path token is placed already; end the turn first")
    if notch not in game.free_notches(cat):
        raise StateError(f"notch {notch} is taken or does not exist")
    used = tuple(u + 1 if i == game.seat else u for i, u in enumerate(game.used))
    return replace(game, notches=(*game.notches, (notch, game.seat)), used=used, placed=True)


def end_turn(game: TableGame, cat: Catalogue) -> TableGame:
    """The current player's turn is over: Rover's turn (solo), the next player's, or the end
    of the round."""
    if not game.placed:
        raise StateError("a turn places a path token first")
    game = replace(game, placed=False)
    if all(u >= game.tokens for u in game.used):
        return _end_round(game, cat)
    if game.solo:
        return rover_turn(game, cat)
    return replace(game, seat=(game.seat + 1) % len(game.areas))


def _end_round(game: TableGame, cat: Catalogue) -> TableGame:
    n = len(game.areas)
    if game.round >= game.rounds:
        return replace(game, over=True, log=(*game.log, "The last round is over: score."))
    first = 0 if game.solo else (game.first + 1) % n
    note = ("Halfway: discard the board to the bottom of the decks, swap the S deck for the N "
            "deck, refill." if game.round == game.rounds // 2 else "")
    game = replace(game, round=game.round + 1, first=first, seat=first, used=(0,) * n,
                   notches=(), log=(*game.log, f"Round {game.round + 1} begins. {note}".strip()))
    if game.solo:
        game = rover_turn(_reshuffle(game), cat)
    return game


def rule(game: TableGame, cat: Catalogue, card: str, place: Place | None,
         discards: int) -> PlayRuling:
    """The ruling on the current player playing ``card`` with ``discards`` cards discarded."""
    area = game.areas[game.seat]
    area = replace(area, hand=(card, *HIDDEN[:max(discards, 8)]))
    return rule_play(area, cat, card, place, HIDDEN[:discards])


def keep_play(game: TableGame, cat: Catalogue, card: str, place: Place,
              discards: int) -> TableGame:
    """The current player's play, ruled legal, added to their area."""
    ruling = rule(game, cat, card, place, discards)
    if not ruling.legal:
        raise StateError(ruling.violations[0][1])
    area = replace(game.areas[game.seat], hand=(card, *HIDDEN[:discards]))
    area = replace(play_card(area, cat, card, place, HIDDEN[:discards]), hand=())
    return replace(game, areas=tuple(area if i == game.seat else a
                                     for i, a in enumerate(game.areas)))


def bonus_placed(game: TableGame) -> TableGame:
    """The current player placed their next bonus token (2, then 3, then 4)."""
    area = game.areas[game.seat]
    value = area.next_bonus()
    if value is None:
        raise StateError("all three bonus tokens are placed")
    area = replace(area, bonus=(*area.bonus, Bonus(value, ("table", str(len(area.bonus) + 1)))))
    return replace(game, areas=tuple(area if i == game.seat else a
                                     for i, a in enumerate(game.areas)))


def played_cards(game: TableGame) -> set[str]:
    """Every card in play (a card is played once; a starting card's other side is taken)."""
    return {c for a in game.areas for c in a.played()}


def table_sheet(game: TableGame, cat: Catalogue) -> ScoreSheet:
    """The score sheet of the game so far (final once over)."""
    scores = [area_score(a, cat) for a in game.areas]
    seats = tuple(SeatScore(s["name"], s["total"], (
        ScoreLine("meadow", "Meadow", s["breakdown"]["meadow"]),
        ScoreLine("surroundings", "Surroundings", s["breakdown"]["surroundings"]),
        ScoreLine("bonus", "Bonus tokens", s["breakdown"]["bonus"]))) for s in scores)
    won, tie = winners(scores)
    words = ""
    if game.solo and game.over:
        words = f"Rover {game.rover_points}: {result(scores[0]['total'], game.rover_points)}"
    elif game.solo:
        words = f"Rover {game.rover_points} so far"
    return ScoreSheet("meadow", seats, tuple(won), tie, game.over, words)


__all__ = ["HIDDEN", "TableGame", "bonus_placed", "end_turn", "keep_play", "new_table",
           "played_cards",
           "rover_card", "rover_turn", "rule", "table_sheet", "token_placed"]
