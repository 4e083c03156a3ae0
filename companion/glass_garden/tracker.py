"""A game tracker for the table service: one game, advanced turn by turn.

The player either confirms each step (``choose``/``confirm_turn``) or a whole new position
arrives from a scan or the buttons (``sync``); the tracker keeps the history, can undo, and
gives advice at any start of a turn.

>>> from companion.glass_garden.deck import load_deck
>>> t = GameTracker.deal(load_deck(), "Fly", seed=1)
>>> t.state.turn, t.options()[-1]
(1, 'done')
>>> t.choose(len(t.options()) - 1).phase
'grow'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.errors import StateError
from companion.glass_garden.actions import Action, Done, describe
from companion.glass_garden.advice import TurnStory, tell_turn
from companion.glass_garden.deck import GLASS_POSITIONS, ROWS, Deck
from companion.glass_garden.game import GROW, OVER, State, new_game
from companion.glass_garden.solver import Result, solve
from companion.glass_garden.state_file import dump_state, load_state, parse_state

#: The codes of :class:`Contradiction` (what programs and tests look at; the text is for people).
JUMPED_ROWS, TURNED_BACK, COLUMN_ORDER, GLASS_WITHOUT_EDGE = (
    "jumped-rows", "turned-back", "column-order", "glass-without-edge")
CRITTER_BACK, OTHER_CRITTER = "critter-back", "other-critter"
#: Actions in a dark turn: as many shifts (or moves) as one turn can explain.
ACTIONS_PER_TURN = 2


@dataclass(frozen=True)
class Contradiction:
    """One thing in a reading the rules cannot explain since the last accepted position:
    ``code`` (one of the codes above), the ``cards`` it concerns (their names) and a sentence
    naming them for the players."""

    code: str
    cards: tuple[str, ...]
    text: str

    def __str__(self) -> str:
        return self.text


def _kept_in_order(a: tuple[int, ...], b: tuple[int, ...]) -> set[int]:
    """The plants that keep their order from ``a`` to ``b`` (a longest common subsequence):
    every other plant must have been shifted to explain ``b``."""
    n, m = len(a), len(b)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = (best[i + 1][j + 1] + 1 if a[i] == b[j]
                          else max(best[i + 1][j], best[i][j + 1]))
    kept, i, j = set(), 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            kept.add(a[i])
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return kept


def _flipped_by_effect(before: State, after: State, glass: int) -> bool:
    """Whether a plant that grew since ``before`` has an effect that may flip the glass card
    ``glass`` (any card; one in its row; the one its edge is adjacent to)."""
    old, new = before.garden, after.garden
    left, right = new.edge_plants()
    for p, plant in enumerate(before.deck.plants):
        if old.is_grown(p) or not new.is_grown(p):
            continue
        for step in plant.effect:
            if step.kind != "flip_glass":
                continue
            if step.glass == "any" or (step.glass == "row" and new.rows[p] == glass % 3):
                return True
            if step.glass == "adjacent" and p == (left if glass < 3 else right) and \
                    new.rows[p] == glass % 3:
                return True
    return False


def contradictions(before: State, after: State) -> list[Contradiction]:
    """What in ``after`` (a position read from a photo) the rules cannot explain since
    ``before`` (the last accepted position), each naming its cards: a plant that jumped two
    rows (read one turn on, at most), a column order more shifts than the turns since allow
    explain (two a turn), a succulent turned back to soil, a glass card lit without a
    succulent at that row's edge (or a plant grown since whose effect flips it), the critter
    back in an earlier column or another critter. Empty when nothing is odd; the player then
    confirms or retakes."""
    deck = before.deck
    old, new = before.garden, after.garden
    out: list[Contradiction] = []
    critter = before.table.critter.name
    if after.table.critter.name != critter:
        out.append(Contradiction(OTHER_CRITTER, (after.table.critter.name, critter),
                                 f"the critter is {after.table.critter.name}, but this game's "
                                 f"is {critter}"))
    if after.turn < before.turn:
        out.append(Contradiction(CRITTER_BACK, (critter,),
                                 f"the {critter} went back from column {old.critter_col + 1} "
                                 f"to {new.critter_col + 1}"))
    turns = max(1, after.turn - before.turn)
    for p, plant in enumerate(deck.plants):
        if turns <= 1 and abs(old.rows[p] - new.rows[p]) == 2:
            out.append(Contradiction(JUMPED_ROWS, (plant.name,),
                                     f"{plant.name} jumped two rows ({ROWS[old.rows[p]]} -> "
                                     f"{ROWS[new.rows[p]]})"))
        if old.is_grown(p) and not new.is_grown(p):
            out.append(Contradiction(TURNED_BACK, (plant.name,),
                                     f"{plant.name} turned back from succulent to soil"))
    a, b = old.plant_order(), new.plant_order()
    kept = _kept_in_order(a, b)
    if len(a) - len(kept) > ACTIONS_PER_TURN * turns:
        moved = tuple(deck.plants[p].name for p in b if p not in kept)
        out.append(Contradiction(COLUMN_ORDER, moved,
                                 "the column order changed more than "
                                 f"{ACTIONS_PER_TURN * turns} shifts can: "
                                 + ", ".join(moved[:4]) + (" ..." if len(moved) > 4 else "")))
    left, right = new.edge_plants()
    for g, pos in enumerate(GLASS_POSITIONS):
        if old.is_sunlit(g) or not new.is_sunlit(g):
            continue
        edge = left if g < 3 else right
        if not (new.rows[edge] == g % 3 and new.is_grown(edge)) and \
                not _flipped_by_effect(before, after, g):
            name = deck.plants[edge].name
            out.append(Contradiction(GLASS_WITHOUT_EDGE, (pos, name),
                                     f"the {pos} glass lit, but {name} at that edge is not a "
                                     "succulent in its row"))
    return out


def slot_words(slot: Any) -> str:
    """A slot of a scan's ``uncertain`` as players find it: "column 3", "the left-top
    glass", "the critter"."""
    if slot == "critter":
        return "the critter"
    if slot in GLASS_POSITIONS:
        return f"the {slot} glass"
    return f"column {slot}"


def settle_reading(before: State, data: dict[str, Any]
                   ) -> tuple[dict[str, Any], list[str], list[str]]:
    """A scan's state file with the slots it was not sure of taken from ``before`` (the last
    accepted position) where that can be done without a guess about what the photo shows.

    The players chose to keep a reading in doubt; what is kept is named to them before they
    confirm. The critter card is the game's; a glass card keeps its side; a column's plant is
    the one plant not read elsewhere (several: in the order they lay before), with its row
    and side as before; the critter's column, when unread, is the one of the two it can be in
    (where it was, or one on) that no card fills. Returns the state file (without
    ``uncertain``), what was kept (in words) and what is still unsure (in words)."""
    out = {k: v for k, v in data.items() if k != "uncertain"}
    out["garden"] = list(out.get("garden") or [None] * 9)
    out["glass"] = dict(out.get("glass") or {})
    deck = before.deck
    old = before.garden
    was = dump_state(before)  # the last accepted position, as a state file writes it
    kept: list[str] = []
    unsure: list[str] = []
    if not out.get("critter"):
        out["critter"] = before.table.critter.name
        kept.append(f"the critter ({before.table.critter.name})")
    for pos in GLASS_POSITIONS:
        if pos not in out["glass"]:
            out["glass"][pos] = was["glass"][pos]
            kept.append(f"the {pos} glass ({out['glass'][pos]})")
    garden = out["garden"]
    if "critter" not in garden:
        places = [c for c in (old.critter_col + 1, old.critter_col)
                  if c < len(garden) and garden[c] is None]
        if len(places) == 1:
            garden[places[0]] = "critter"
            kept.append(f"the critter in column {places[0] + 1}")
        else:
            unsure.append("the critter's column")
    read = {e["plant"] for e in garden if isinstance(e, dict)}
    missing = [p for p in old.plant_order() if deck.plants[p].name not in read]
    blanks = [c for c, e in enumerate(garden) if e is None]
    if len(blanks) == len(missing):
        for c, p in zip(blanks, missing, strict=True):
            garden[c] = entry = dict(was["garden"][old.col_of(p)])
            kept.append(f"column {c + 1} ({entry['plant']}, {entry['row']}, as before)")
    else:
        unsure += [f"column {c + 1}" for c in blanks]
    if "critter" in garden and out.get("turn") is None:
        out["turn"] = garden.index("critter") + 1
    return out, kept, unsure


def follow_on(before: State, data: dict[str, Any]) -> dict[str, Any]:
    """A scan's state file (settled) in the game's time: a photo shows where the critter is,
    not which step of the turn is under way, so the tracker's step is kept for the same turn
    (actions already taken), and the ninth column in the sunlight phase stays the sunlight
    phase."""
    from companion.glass_garden.game import ACTIONS, SUNLIGHT_TURN

    out = dict(data)
    turn = out.get("turn")
    if turn == 9 and before.turn == SUNLIGHT_TURN:
        out["turn"] = "sunlight"
    elif turn == before.turn and before.phase in (ACTIONS, GROW):
        out["actions_left"] = before.actions_left if before.phase == ACTIONS else 0
    return out


@dataclass
class GameTracker:
    state: State
    history: list[State] = field(default_factory=list)
    log: list[str] = field(default_factory=list)

    @classmethod
    def deal(cls, deck: Deck, critter: str, *, seed: int) -> GameTracker:
        return cls(new_game(deck, critter, seed=seed))

    @classmethod
    def from_file(cls, path: Path | str) -> GameTracker:
        return cls(load_state(path))

    # -- the player confirms ------------------------------------------------------------
    def legal(self) -> list[Action]:
        return self.state.legal_actions()

    def options(self) -> list[str]:
        return [describe(a, self.state.deck) for a in self.legal()]

    def choose(self, index: int) -> State:
        actions = self.legal()
        if not 0 <= index < len(actions):
            raise StateError(f"choice {index + 1} is not one of 1-{len(actions)}")
        return self.apply(actions[index])

    def apply(self, action: Action) -> State:
        new = self.state.apply(action)
        self.history.append(self.state)
        self.log.append(describe(action, self.state.deck))
        self.state = new
        return new

    def skip_forced(self) -> list[str]:
        """Apply ``done`` while it is the only thing to do (e.g. nothing can grow)."""
        said = []
        while not self.state.is_terminal():
            actions = self.legal()
            if actions != [Done()]:
                break
            if self.state.phase == GROW:
                said.append("Nothing (more) can grow.")
            self.apply(Done())
        return said

    def confirm_turn(self, path: tuple[Action, ...]) -> TurnStory:
        """Apply a whole turn (e.g. the advice the player followed)."""
        story, state = tell_turn(self.state, path)
        self.history.append(self.state)
        self.log.append(story.line())
        self.state = state
        return story

    def undo(self) -> State:
        if not self.history:
            raise StateError("nothing to undo")
        self.state = self.history.pop()
        if self.log:
            self.log.pop()
        return self.state

    # -- a position arrives -------------------------------------------------------------
    def sync(self, data: dict[str, Any] | State) -> State:
        """Replace the position by one read from a scan or entered with the buttons."""
        new = data if isinstance(data, State) else parse_state(data)
        if new.deck is not self.state.deck and new.deck != self.state.deck:
            raise StateError("deck: the new position uses another deck")
        self.history.append(self.state)
        self.log.append(f"position set: {new}")
        self.state = new
        return new

    def contradictions(self, data: dict[str, Any] | State) -> list[Contradiction]:
        """What a reading (a scan's state file, ``uncertain`` left out, or a state) contradicts
        since the current position; see :func:`contradictions`."""
        new = data if isinstance(data, State) else parse_state(
            {k: v for k, v in data.items() if k != "uncertain"})
        return contradictions(self.state, new)

    # -- advice -------------------------------------------------------------------------
    def advise(self, seconds: float = 1.0) -> Result:
        if self.state.phase == OVER:
            raise StateError("the game is over: there is nothing left to advise")
        return solve(self.state, seconds)

    def snapshot(self) -> dict[str, Any]:
        return dump_state(self.state)

    @property
    def finished(self) -> bool:
        return self.state.is_terminal()
