"""The whole game of Meadow as one frozen state: preparation, rounds of turns, the end.

A :class:`State` knows the main board with its decks, every player's area and tokens, the
campfire board's notches and goals, and (solo) Rover's pile and deck. It lists the legal
actions of the moment, rules on any action with codes, and applies one, returning a new state.
Rover's turns (solo) are taken by the state itself, so the player is always the one to act.

Steps of a turn: ``place`` (a path token in a notch), then by the notch ``play`` (play up to
``plays_left`` cards, or ``done``), ``pick`` (take any face-up card), ``look``/``keep`` (look
at a deck's top 3, keep one), and ``claim`` (a goal after a campfire action). Preparation has
``row`` (take a main-board row) and ``side`` (lay the starting card). ``over`` ends the game.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from companion.games.interface import TERMINAL, Ruling, Violation
from companion.games.score import ScoreSheet
from companion.meadow.actions import (
    Action,
    ChooseRow,
    ChooseSide,
    Claim,
    Done,
    Keep,
    Look,
    PlaceToken,
    Play,
    Take,
)
from companion.meadow.campfire import benches, goal_pairs, open_notches
from companion.meadow.catalogue import Catalogue
from companion.meadow.goals import claimable, claimed_pairs
from companion.meadow.main_board import NOTCHES, SPOTS, Board
from companion.meadow.meadow import PlayerArea, visible
from companion.meadow.path_tokens import SPECIAL_ACTIONS
from companion.meadow.requirements import (
    PLAY_CODES,
    Place,
    candidate_places,
    diagnose,
    place_covers,
    works,
)
from companion.meadow.scoring import score_sheet

#: every code a refusal of Meadow carries, with its meaning
CODES: dict[str, str] = {
    **PLAY_CODES,
    "discards": "discard exactly as many cards as the place needs (2 per ignored requirement)",
    "not-in-hand": "the card is not in the player's hand",
    "no-play-left": "no card may be played now (campfire actions 1-3 play none)",
    "no-token": "the player has no such path token left this round",
    "notch-taken": "the notch is taken (or blocked)",
    "no-notch": "no such notch",
    "no-card": "no such card on the board or among those looked at",
    "no-goal": "no such pair of goal tokens, or its symbols are not both visible",
    "goal-taken": "a bonus token already lies between that pair",
    "claimed": "one bonus token a turn, and only after a campfire notch",
    "no-bonus": "all three bonus tokens are placed",
    "setup": "not a choice of the player preparation",
    "not-now": "not an action of this moment",
    "game-over": "the game is over",
    "not-an-action": "not an action of Meadow",
}
VIOLATION_CODES: frozenset[str] = frozenset(CODES)
STEPS = ("row", "side", "place", "play", "pick", "look", "keep", "claim", "over")


@dataclass(frozen=True)
class Table:
    """What the set-up settles for the whole game."""

    seed: int
    goals: tuple[str, ...]
    envelopes: tuple[str, ...] = ()
    colours: tuple[str, ...] = ()
    #: solo: the colour markers by the solo game token, (colour, main-board notch)
    markers: tuple[tuple[str, str], ...] = ()
    first_game: bool = False
    #: each seat's two-sided starting ground card (side a, side b)
    starts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Turn:
    """Where the current turn stands."""

    step: str
    seat: int = 0
    notch: str = ""
    plays_left: int = 0
    #: a goal may be claimed this turn (the token lies in a campfire notch)
    campfire: bool = False
    claimed: bool = False
    looking: tuple[str, ...] = ()
    look_deck: str = ""
    #: preparation: the seats still to choose, in order
    order: tuple[int, ...] = ()


@dataclass(frozen=True)
class Rover:
    """Solo: Rover's face-down pile (top first), Rover's deck, and what Rover last did."""

    pile: tuple[str, ...]
    deck: tuple[str, ...] = ()
    log: tuple[str, ...] = ()


@dataclass(frozen=True)
class State:
    """A moment of a game of Meadow (frozen, hashable)."""

    cat: Catalogue = field(compare=False, hash=False, repr=False)
    players: tuple[PlayerArea, ...]
    board: Board
    table: Table
    turn: Turn
    round: int = 1
    first: int = 0
    tokens: tuple[tuple[str, ...], ...] = ()
    #: path tokens on the boards this round: (notch, seat or -1 for Rover, token)
    notches: tuple[tuple[str, int, str], ...] = ()
    rover: Rover | None = None
    catalogue_ref: str = ""

    # -- what the table holds ------------------------------------------------------------
    @property
    def solo(self) -> bool:
        return self.rover is not None

    @property
    def campfire(self) -> Any:
        return self.cat.board(len(self.players))

    @property
    def rounds(self) -> int:
        return int(self.campfire.rounds)

    def taken(self) -> frozenset[str]:
        return frozenset(n for n, _s, _t in self.notches)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        return goal_pairs(self.campfire, self.table.goals)

    def decks_of(self) -> dict[str, str]:
        return self.cat.decks_of

    # -- the interface --------------------------------------------------------------------
    def current_player(self) -> int:
        if self.turn.step == "over":
            return TERMINAL
        if self.turn.step in ("row", "side"):
            return self.turn.order[0]
        return self.turn.seat

    def is_terminal(self) -> bool:
        return self.turn.step == "over"

    def legal_actions(self) -> list[Action]:
        step = self.turn.step
        if step == "over":
            return []
        if step == "row":
            return [ChooseRow(r) for r in range(1, 5)]
        if step == "side":
            return [ChooseSide(c) for c in self.table.starts[self.turn.order[0]]]
        if step == "place":
            return self._placements()
        actions: list[Action] = []
        if step == "play":
            actions += self.plays()
            actions.append(Done())
        elif step == "pick":
            actions += [Take(s) for s in SPOTS if self.board.card_at(s)]
        elif step == "look":
            actions += [Look(d) for d in self.board.on_board_decks() if self.board.deck(d)]
        elif step == "keep":
            actions += [Keep(c) for c in self.turn.looking]
        elif step == "claim":
            actions.append(Done())
        return actions + self._claims()

    def _placements(self) -> list[Action]:
        seat = self.turn.seat
        taken = self.taken()
        out: list[Action] = []
        for token in dict.fromkeys(self.tokens[seat]):
            for notch in NOTCHES:
                if notch in taken:
                    continue
                counts = range(1, 5) if token == "?" else (0,)
                out += [PlaceToken(token, notch, count=n) for n in counts]
            for notch in open_notches(self.campfire):
                if notch in taken:
                    continue
                specials = SPECIAL_ACTIONS if token == "?" else ("",)
                out += [PlaceToken(token, notch, special=s) for s in specials]
            out += [PlaceToken(token, b) for b in benches(self.campfire) if b not in taken]
        return out

    def _claims(self) -> list[Action]:
        if not self.turn.campfire or self.turn.claimed:
            return []
        area = self.players[self.turn.seat]
        return [Claim(p) for p in claimable(area, self.cat, self.pairs(),
                                             claimed_pairs(self.players))]

    def plays(self) -> list[Play]:
        """Every legal play now: each card, place, and choice of the fewest discards there."""
        if self.turn.step != "play" or self.turn.plays_left < 1:
            return []
        area = self.players[self.turn.seat]
        seen = visible(area, self.cat)
        out: list[Play] = []
        for card_id in area.hand:
            card = self.cat.cards[card_id]
            rest = [c for c in area.hand if c != card_id]
            for place in candidate_places(area, card):
                k = self._least_k(area, card_id, place, len(rest), seen)
                if k is None:
                    continue
                for discards in itertools.combinations(rest, 2 * k):
                    out.append(Play(card_id, place, tuple(discards)))
        return out

    def _least_k(self, area: PlayerArea, card_id: str, place: Place, spare: int,
                 seen: Any = None) -> int | None:
        card = self.cat.cards[card_id]
        for k in range(min(spare // 2, len(card.requires)) + 1):
            if works(area, self.cat, card, place, k, seen):
                return k
        return None

    # -- ruling -----------------------------------------------------------------------------
    def rule(self, action: Any) -> Ruling:
        violations = tuple(self._violations(action))
        triggers: dict[str, Any] = {}
        if not violations and isinstance(action, Play):
            area = self.players[self.turn.seat]
            card = self.cat.cards[action.card]
            triggers = {"points": card.points,
                        "covers": list(place_covers(area, self.cat, card, action.place))}
        return Ruling(action, violations, triggers)

    def _violations(self, action: Any) -> list[Violation]:
        step = self.turn.step
        if not isinstance(action, (ChooseRow, ChooseSide, PlaceToken, Take, Look, Keep, Play,
                                   Claim, Done)):
            return [Violation("not-an-action", (), f"{action!r} is not an action of Meadow")]
        if step == "over":
            return [Violation("game-over", (), "the game is over")]
        if isinstance(action, Play):
            return self._play_violations(action)
        if isinstance(action, Claim):
            return self._claim_violations(action)
        if isinstance(action, PlaceToken) and step == "place":
            return [] if self._placement_ok(action) else [self._placement_violation(action)]
        if isinstance(action, Done):
            return [] if step in ("play", "claim") else [
                Violation("not-now", (), f"'done' is not an action of step {step}")]
        if action in self.legal_actions():
            return []
        if isinstance(action, (ChooseRow, ChooseSide)):
            code = "setup" if step in ("row", "side") else "not-now"
            return [Violation(code, (), f"{action} is not a choice now")]
        if isinstance(action, PlaceToken) and step == "place":
            return [self._placement_violation(action)]
        if isinstance(action, (Take, Keep)) and step in ("pick", "keep"):
            return [Violation("no-card", (), f"{action}: no such card to take")]
        return [Violation("not-now", (), f"{action} is not an action of this moment "
                                         f"(step {step})")]

    def _placement_ok(self, a: PlaceToken) -> bool:
        if a.token not in self.tokens[self.turn.seat] or a.notch in self.taken():
            return False
        if a.notch in NOTCHES:
            return a.special == "" and (a.count in range(1, 5) if a.token == "?"
                                        else a.count == 0)
        if a.notch in open_notches(self.campfire):
            return a.count == 0 and (a.special in SPECIAL_ACTIONS if a.token == "?"
                                     else a.special == "")
        return a.notch in benches(self.campfire) and a.count == 0 and a.special == ""

    def _placement_violation(self, action: PlaceToken) -> Violation:
        seat = self.turn.seat
        if action.token not in self.tokens[seat]:
            return Violation("no-token", (action.notch,), f"no path token {action.token} left")
        every = (*NOTCHES, *open_notches(self.campfire), *benches(self.campfire))
        if action.notch not in every and not action.notch.startswith("C"):
            return Violation("no-notch", (action.notch,), f"no notch {action.notch}")
        if action.notch in self.taken() or action.notch not in every:
            return Violation("notch-taken", (action.notch,), f"{action.notch} is taken")
        return Violation("not-now", (action.notch,), f"{action} is not a placement of token "
                                                     f"{action.token} there")

    def _play_violations(self, action: Play) -> list[Violation]:
        if self.turn.step != "play" or self.turn.plays_left < 1:
            return [Violation("no-play-left", (), "no card may be played now")]
        area = self.players[self.turn.seat]
        where = (action.card,)
        if action.card not in area.hand or action.card not in self.cat.cards:
            return [Violation("not-in-hand", where, f"{action.card} is not in the hand")]
        rest = list(area.hand)
        rest.remove(action.card)
        if len(set(action.discards)) != len(action.discards) or any(
                d not in rest for d in action.discards) or len(action.discards) % 2:
            return [Violation("discards", where, "discards must be an even number of other "
                                                 "cards of the hand")]
        card = self.cat.cards[action.card]
        seen = visible(area, self.cat)
        k = len(action.discards) // 2
        if not works(area, self.cat, card, action.place, k, seen):
            return [Violation(code, where, text) for code, text in
                    diagnose(area, self.cat, card, action.place, k, seen)] or [
                Violation("place", where, f"{action.card} cannot go {action.place.words()}")]
        least = self._least_k(area, action.card, action.place, len(rest), seen)
        if least is not None and least != k:
            return [Violation("discards", where, f"{action.card} {action.place.words()} needs "
                                                 f"{2 * least} discards, not {2 * k}")]
        return []

    def _claim_violations(self, action: Claim) -> list[Violation]:
        if not self.turn.campfire:
            return [Violation("claimed", (), "a goal is claimed only after placing a path "
                                            "token in a campfire notch")]
        if self.turn.claimed:
            return [Violation("claimed", (), "one bonus token a turn")]
        area = self.players[self.turn.seat]
        if area.next_bonus() is None:
            return [Violation("no-bonus", (), "all three bonus tokens are placed")]
        if action.goals not in self.pairs():
            return [Violation("no-goal", action.goals, "no such pair of goal tokens")]
        if action.goals in claimed_pairs(self.players):
            return [Violation("goal-taken", action.goals, "a bonus token lies there already")]
        if Claim(action.goals) not in self._claims():
            return [Violation("no-goal", action.goals, "both symbols must be visible")]
        return []

    # -- applying -----------------------------------------------------------------------------
    def apply(self, action: Any) -> State:
        ruling = self.rule(action)
        if not ruling.legal:
            raise ruling.refusal()
        from companion.meadow.turns import apply_action

        return apply_action(self, action)

    def score_sheet(self) -> ScoreSheet:
        return score_sheet(self)


__all__ = ["CODES", "STEPS", "VIOLATION_CODES", "Rover", "State", "Table", "Turn"]
