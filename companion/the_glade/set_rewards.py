"""What sets of 3 and sets of 4 give: toadstool counters moving between supply, glade and store.

Rulebook, "Creating a set of 3 tiles", "Creating a set of 4 tiles" and "Running out of
toadstools". Each step is recorded as an :class:`Move` or a :class:`Flip`, so the tracker can
report it, the coach can value it and tests can compare it with the rulebook's examples.

Choices where the rulebook is silent (each tested):

* Sets of 4 are resolved before sets of 3. The set-of-4 step takes "the counter marking the
  tile you just placed", i.e. the one there before this placement; a set of 3 created by the
  same placement and missing that very tile then marks the glade space afresh.
* A set of 4 to which all 4 tiles were added now (4 tiles placed as one new set of 4) is
  treated like "2-3 tiles added": the leftmost counter, side by shared count.
* When a set of 3 is paid by compensation (no counter left on your side), nothing is placed
  on the glade, so a counter already on that space stays where it is.
* If you run out and hold fewer single-side-up counters than flips due, you flip all you can.
  Without a choice given, the first singles are flipped: glade (tile order), then stores,
  then enclosures (player order).
* Two sets of 3 made by one placement and missing the same tile: the second finds the first's
  counter on the space and hands it to its owner (you), as the rule says for any counter there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from companion.the_glade.names import Counter, MatchCounter, Side, Tile
from companion.the_glade.placement import PlacementRuling, SetOf3, SetOf4
from companion.the_glade.table import CounterRef, GameState, flip_counter, singles_of

SUPPLY = "supply"
BOX = "box"
POOL = "pool"


@dataclass(frozen=True)
class Move:
    """A counter going from one place to another, and why."""

    token: Counter | MatchCounter
    src: CounterRef
    dst: CounterRef
    reason: str

    def to_dict(self) -> dict[str, object]:
        token = str(self.token) if isinstance(self.token, Counter) else self.token.to_dict()
        return {"counter": token, "from": _place(self.src), "to": _place(self.dst),
                "reason": self.reason}


@dataclass(frozen=True)
class Flip:
    """Compensation for running out: a counter of ``colour`` flipped to its double side."""

    colour: str
    ref: CounterRef
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"flip": f"{self.colour}-single", "at": str(self.ref), "reason": self.reason}


Event = Move | Flip


def _place(ref: CounterRef) -> str:
    if ref.place in (SUPPLY,):
        return f"supply:{ref.player}"
    if ref.place in (BOX, POOL):
        return ref.place
    return str(ref)


@dataclass
class Ledger:
    """A state being changed step by step, with the events that changed it."""

    state: GameState
    flips: list[CounterRef] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    # --- primitive steps -----------------------------------------------------------------

    def take_from_supply(self, name: str, side: Side, dst: CounterRef, reason: str) -> bool:
        """Take the leftmost counter of ``name`` to ``dst``; False (and compensation) if none.

        Compensation flips 1 single counter for a single side, 2 for a double side.
        """
        p = self.state.player(name)
        if p.supply <= 0:
            self.compensate(name, 2 if side == "double" else 1, reason)
            return False
        counter = Counter(p.colour, side)
        self.state = self.state.with_player(replace(p, supply=p.supply - 1))
        self._put(counter, dst)
        self.events.append(Move(counter, CounterRef(SUPPLY, player=name), dst, reason))
        return True

    def compensate(self, name: str, n: int, reason: str) -> None:
        colour = self.state.player(name).colour
        for _ in range(n):
            singles = singles_of(self.state, colour)
            if not singles:
                return
            chosen = None
            while self.flips and chosen is None:
                want = self.flips.pop(0)
                if want in singles:
                    chosen = want
                else:
                    from companion.the_glade.table import IllegalAction
                    raise IllegalAction(f"cannot flip a counter at {want}: no single {colour} "
                                        f"counter lies there (choices: "
                                        f"{', '.join(str(s) for s in singles)})")
            ref = chosen or singles[0]
            self.state = flip_counter(self.state, ref, colour)
            self.events.append(Flip(colour, ref, f"{reason}: {name} has no toadstool left, "
                                    f"so flips one at {ref} to its double side"))

    def glade_to_store(self, tile: Tile, name: str, reason: str) -> Counter:
        counter = self.state.glade[tile]
        self.state = self.state.with_glade(tile, None).add_to_store(name, counter)
        self.events.append(Move(counter, CounterRef("glade", tile=tile),
                                CounterRef("store", player=name), reason))
        return counter

    def return_to_owner(self, tile: Tile, reason: str) -> None:
        """The counter on a glade space goes to its owner's store, or to the box if it is
        neutral (solo game: "place it back in the box")."""
        counter = self.state.glade[tile]
        owner = self.state.owner_of(counter.colour)
        self.state = self.state.with_glade(tile, None)
        if owner is None:
            self.state = replace(self.state, boxed=self.state.boxed + 1)
            dst = CounterRef(BOX)
        else:
            self.state = self.state.add_to_store(owner.name, counter)
            dst = CounterRef("store", player=owner.name)
        self.events.append(Move(counter, CounterRef("glade", tile=tile), dst, reason))

    def _put(self, counter: Counter, dst: CounterRef) -> None:
        if dst.place == "glade" and dst.tile is not None:
            self.state = self.state.with_glade(dst.tile, counter)
        elif dst.place == "store" and dst.player is not None:
            self.state = self.state.add_to_store(dst.player, counter)
        else:  # pragma: no cover - programming error
            raise ValueError(f"cannot put a counter at {dst}")

    # --- the rulebook's steps -------------------------------------------------------------

    def set_of_3(self, owner: str, s: SetOf3) -> None:
        """Mark the missing fourth tile on the glade with the owner's counter."""
        reason = (f"set of 3 on {', '.join(q.name for q in s.squares)} misses the "
                  f"{s.missing.describe()}")
        p = self.state.player(owner)
        if p.supply <= 0:
            self.compensate(owner, 2 if s.side == "double" else 1, reason)
            return
        if s.missing in self.state.glade:
            self.return_to_owner(s.missing, f"{reason}: the counter already there goes back")
        self.take_from_supply(owner, s.side, CounterRef("glade", tile=s.missing), reason)

    def set_of_4(self, owner: str, s: SetOf4, placed: dict) -> None:
        """A set of 4 puts a counter into the owner's store."""
        squares = ", ".join(q.name for q in s.squares)
        store = CounterRef("store", player=owner)
        if s.added == 1:
            tile = placed[s.added_squares[0]]
            reason = f"set of 4 on {squares} completed with one tile"
            if tile in self.state.glade:
                self.glade_to_store(tile, owner, f"{reason}: the counter on its glade space")
            else:
                self.take_from_supply(owner, "single", store,
                                      f"{reason}: no counter on its glade space, so the "
                                      "leftmost counter, single side up")
        else:
            self.take_from_supply(owner, s.side, store,
                                  f"set of 4 on {squares}, {s.added} tiles added, "
                                  f"{s.shared} shared: leftmost counter, {s.side} side up")


def reward_sets(state: GameState, owner: str, ruling: PlacementRuling, *,
                fours: Iterable[SetOf4] | None = None,
                flips: Sequence[CounterRef] = ()) -> tuple[GameState, list[Event]]:
    """Pay out every set of 3 and set of 4 a legal placement created on ``owner``'s forest.

    ``fours`` overrides which sets of 4 are paid (the Claim action pays none of the sets it
    completes: the claimed counter is the reward).
    """
    ledger = Ledger(state, list(flips))
    placed = dict(ruling.placed)
    for s4 in (ruling.sets_of_4 if fours is None else fours):
        ledger.set_of_4(owner, s4, placed)
    for s3 in ruling.sets_of_3:
        ledger.set_of_3(owner, s3)
    return ledger.state, ledger.events


__all__ = ["Event", "Flip", "Ledger", "Move", "reward_sets"]
