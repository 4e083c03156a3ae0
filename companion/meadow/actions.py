"""Meadow's actions: small frozen values, each with a one-line form to log and replay.

>>> str(PlaceToken("?", "L2", count=3)), str(PlaceToken("?", "C1", special="play-two"))
('token ? at L2 count 3', 'token ? at C1 play-two')
>>> parse_action("play S12 on 3 discard N01,W02").discards
('N01', 'W02')
>>> str(parse_action("claim G3+G7"))
'claim G3+G7'
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import StateError
from companion.meadow.requirements import Place


@dataclass(frozen=True)
class ChooseRow:
    """Player preparation: take the 4 cards of a main-board row (and 1 N card)."""

    row: int

    def __str__(self) -> str:
        return f"row {self.row}"


@dataclass(frozen=True)
class ChooseSide:
    """Player preparation: lay the starting ground card with this side up."""

    card: str

    def __str__(self) -> str:
        return f"side {self.card}"


@dataclass(frozen=True)
class PlaceToken:
    """Place a path token in a notch (``L1``.. main board, ``C1``.. campfire, ``bench1``);
    ``count`` is the ?'s number on the main board, ``special`` its action on the campfire."""

    token: str
    notch: str
    count: int = 0
    special: str = ""

    def __str__(self) -> str:
        extra = f" count {self.count}" if self.count else (f" {self.special}"
                                                          if self.special else "")
        return f"token {self.token} at {self.notch}{extra}"


@dataclass(frozen=True)
class Take:
    """Campfire 'take any face-up card': the card at this spot."""

    spot: str

    def __str__(self) -> str:
        return f"take {self.spot}"


@dataclass(frozen=True)
class Look:
    """Campfire 'look at the top 3 cards' of this deck."""

    deck: str

    def __str__(self) -> str:
        return f"look {self.deck}"


@dataclass(frozen=True)
class Keep:
    """Keep this one of the 3 cards looked at (the others go to the deck's bottom)."""

    card: str

    def __str__(self) -> str:
        return f"keep {self.card}"


@dataclass(frozen=True)
class Play:
    """Play a card from the hand at a place, discarding cards to ignore requirements."""

    card: str
    place: Place
    discards: tuple[str, ...] = ()

    def __str__(self) -> str:
        extra = f" discard {','.join(self.discards)}" if self.discards else ""
        return f"play {self.card} on {self.place}{extra}"


@dataclass(frozen=True)
class Claim:
    """Place the next bonus token between this pair of goal tokens."""

    goals: tuple[str, str]

    def __str__(self) -> str:
        return f"claim {self.goals[0]}+{self.goals[1]}"


@dataclass(frozen=True)
class Done:
    """End the turn (playing no more cards, or claiming no goal)."""

    def __str__(self) -> str:
        return "done"


Action = ChooseRow | ChooseSide | PlaceToken | Take | Look | Keep | Play | Claim | Done


def parse_action(text: str) -> Action:
    """An action from its one-line form; StateError when it is none."""
    words = text.split()
    try:
        verb = words[0]
        if verb == "row":
            return ChooseRow(int(words[1]))
        if verb == "side":
            return ChooseSide(words[1])
        if verb == "token":
            token, notch = words[1], words[3]
            if len(words) > 5 and words[4] == "count":
                return PlaceToken(token, notch, count=int(words[5]))
            return PlaceToken(token, notch, special=words[4] if len(words) > 4 else "")
        if verb == "take":
            return Take(words[1])
        if verb == "look":
            return Look(words[1])
        if verb == "keep":
            return Keep(words[1])
        if verb == "play":
            discards = tuple(words[5].split(",")) if len(words) > 5 else ()
            return Play(words[1], Place.parse(words[3]), discards)
        if verb == "claim":
            a, b = words[1].split("+")
            return Claim((a, b))
        if verb == "done" and len(words) == 1:
            return Done()
    except (IndexError, ValueError):
        pass
    raise StateError(f"{text!r} is not a Meadow action (e.g. 'token 3 at L2', 'play S12 on 3')")


__all__ = ["Action", "ChooseRow", "ChooseSide", "Claim", "Done", "Keep", "Look", "Place",
           "PlaceToken", "Play", "Take", "parse_action"]
