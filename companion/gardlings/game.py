"""A whole game of Gardlings as a frozen state: building together, hiring in turn, rounds.

Phase 1 (building) is simultaneous: each seat still building may draw (the bag decides: a
chance node), lay the drawn tile at a legal cell and turn, move a unicorn, or stop. A drawn
tile that would make 6 gnomes (7 with 3+ dragons) sets off the alarm and stops the seat; so
does a tile that fits nowhere. With the second-draw mission unused, the seat may draw again
instead (the first tile goes back into the bag afterwards). When every seat has stopped,
anyone with 17 gems (20 long) after the gnomes' theft may buy the victory tile; if several
can, most gems wins, then most coins, else nobody and the round goes on. Phase 2 (hiring)
goes clockwise from the start player: buy one stack's top tile, take a lucky piglet and a
coin, or pass; in the expert variant 3+ lucky piglets then make one mutate. Then every tile
goes back into its bag, the start player marker and the missions move on.

A seat that stopped may draw again while another still builds (the rulebook: "react to what
others at the table do"); an alarm or a tile that fits nowhere is final. Engine readings
(``docs/gardlings.md``): a unicorn moves between draws, at most once per draw
(the rulebook's "at any time" allows more; one is all a player needs to place the next tile,
and it keeps games finite); a tile that fits nowhere is set aside and goes back into the bag
at the round's end; the coin supply never runs out; ``round_limit`` rounds (default 30; the
terminal game and the benchmark take 60) end a game nobody won, the best last-round gems then
coins sharing the win.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.interface import (
    CHANCE,
    NOT_NOW,
    SIMULTANEOUS,
    TERMINAL,
    Ruling,
    Violation,
)
from companion.games.score import ScoreLine, ScoreSheet, SeatScore, TieBreak
from companion.gardlings.actions import (
    ACTION_TYPES,
    CODES,
    VIOLATION_CODES,
    Accept,
    Action,
    Buy,
    Draw,
    Drawn,
    Move,
    Mutate,
    Pass,
    Place,
    Redraw,
    Stop,
    TakePiglet,
)
from companion.gardlings.catalogue import Catalogue
from companion.gardlings.expert import mutating_tile
from companion.gardlings.garden import ROTATIONS, Garden, Placement
from companion.gardlings.gnome_alarm import sets_off
from companion.gardlings.hiring import Hiring, hiring, victory_target, winner
from companion.gardlings.market import Market, cost_of
from companion.gardlings.missions import has_second_draw, pass_missions
from companion.gardlings.placement import (
    breaches,
    fits,
    fits_somewhere,
    legal_moves,
    legal_placements,
    move_breaches,
)
from companion.gardlings.solo import medal

BUILD, HIRE, OVER = "build", "hire", "over"
#: rounds after which a game nobody won ends (an engine guard: random play must end)
ROUND_LIMIT = 30

# --- the state -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Seat:
    """One player: coins, bag, garden, and where their building stands."""

    name: str
    garden: Garden
    coins: int = 0
    bag: tuple[str, ...] = ()
    hand: str | None = None
    alarm: str | None = None
    aside: str | None = None
    stopped: bool = False
    moved: bool = False
    mission: str | None = None
    second_draw_used: bool = False
    redraw_of: str | None = None
    tiles_used: int = 0
    hired: bool = False

    def owned(self) -> tuple[str, ...]:
        """Every tile of the seat's bag, garden and hand (the mission excluded), sorted."""
        tiles = [*self.bag, *(p.tile for p in self.garden if p.tile != self.mission)]
        tiles += [t for t in (self.hand, self.alarm, self.aside, self.redraw_of) if t]
        return tuple(sorted(tiles))


@dataclass(frozen=True)
class State:
    """A position of a game of Gardlings (frozen, hashable)."""

    catalogue: Catalogue = field(compare=False, hash=False)
    catalogue_ref: str
    seats: tuple[Seat, ...]
    market: Market
    variant: str = "basic"
    long_game: bool = False
    phase: str = BUILD
    round: int = 1
    start: int = 0
    drawing: int | None = None
    to_hire: tuple[int, ...] = ()
    mutating: bool = False
    between: tuple[str | None, ...] = ()
    winners: tuple[str, ...] = ()
    round_limit: int = ROUND_LIMIT
    last_totals: tuple[int, ...] = ()
    #: how the game ended: ``victory`` (the tile was bought) or ``round-limit``
    ended_by: str = ""

    # -- the interface --------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.drawing is not None:
            return CHANCE
        if self.phase == BUILD:
            return SIMULTANEOUS
        return self.to_hire[0]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def chance_outcomes(self) -> list[tuple[Drawn, float]]:
        if self.drawing is None:
            return []
        bag = self.seats[self.drawing].bag
        return [(Drawn(self.drawing, t), 1 / len(bag)) for t in bag]

    def legal_actions(self) -> list[Action]:
        if self.phase == OVER:
            return []
        if self.drawing is not None:
            return [a for a, _p in self.chance_outcomes()]
        if self.phase == BUILD:
            out: list[Action] = []
            for i in range(len(self.seats)):
                out += self.building_actions(i)
            return out
        return self.hiring_actions(self.to_hire[0])

    def building_actions(self, i: int) -> list[Action]:
        seat = self.seats[i]
        if seat.stopped:
            # "you may ... draw another tile even though you had already stopped", while
            # someone else still builds; an alarm or a tile that fits nowhere is final
            resumable = (seat.alarm is None and seat.aside is None and seat.bag and
                         not all(s.stopped for s in self.seats))
            return [Draw(i)] if resumable else []
        if seat.hand is not None:
            tile = self.catalogue[seat.hand]
            acts: list[Action] = []
            if not sets_off(seat.garden, tile):
                acts += [Place(i, p) for p in legal_placements(seat.garden, tile)]
            if self.can_redraw(i):
                acts.append(Redraw(i))
                if not acts[:-1]:
                    acts.append(Accept(i))
            return acts
        acts = [Draw(i)] if seat.bag else []
        acts.append(Stop(i))
        if not seat.moved:
            for p in seat.garden:
                acts += [Move(i, m) for m in legal_moves(seat.garden, p.tile)]
        return acts

    def hiring_actions(self, i: int) -> list[Action]:
        seat = self.seats[i]
        h = self.hiring(i)
        if self.mutating:
            return [Mutate(i, a, f"{b}-{n}") for a, b in h.mutate for n in (1, 2)
                    if self.market.stack(f"{b}-{n}").tiles and
                    mutating_tile(seat.garden, a)]
        acts: list[Action] = [Buy(i, b.stack) for b in h.buy]
        if self.market.piglets > 0:
            acts.append(TakePiglet(i))
        acts.append(Pass(i))
        return acts

    def can_redraw(self, i: int) -> bool:
        seat = self.seats[i]
        return (not seat.second_draw_used and bool(seat.bag) and
                has_second_draw(seat.garden, seat.mission))

    def hiring(self, i: int) -> Hiring:
        seat = self.seats[i]
        return hiring(seat.name, seat.garden, coins=seat.coins, alarm=seat.alarm is not None,
                      mission=seat.mission, variant=self.variant, long_game=self.long_game,
                      market=self.market)

    def rule(self, action: Any) -> Ruling:
        if self.is_legal(action):
            return Ruling(action, (), self._triggers(action))
        return Ruling(action, (self._why_not(action),))

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions` (found without listing them)."""
        seat_no = getattr(action, "seat", None)
        if not isinstance(action, ACTION_TYPES) or not isinstance(seat_no, int) or \
                not 0 <= seat_no < len(self.seats) or self.phase == OVER:
            return False
        seat = self.seats[seat_no]
        if self.drawing is not None:
            return isinstance(action, Drawn) and self.drawing == seat_no and \
                action.tile in seat.bag
        if self.phase == HIRE:
            return seat_no == self.to_hire[0] and action in self.hiring_actions(seat_no)
        if isinstance(action, Draw):
            return action in self.building_actions(seat_no)
        if seat.stopped:
            return False
        placement = getattr(action, "placement", None)
        if placement is not None and (placement.rotation not in ROTATIONS or
                                      not isinstance(placement.cell, tuple)):
            return False
        if isinstance(action, Place):
            tile = self.catalogue[seat.hand] if seat.hand else None
            first = not seat.garden.placements
            return (tile is not None and action.placement.tile == seat.hand and
                    not sets_off(seat.garden, tile) and
                    (action.placement.cell == (0, 0) if first else
                     fits(seat.garden, tile, action.placement)))
        if isinstance(action, Stop):
            return seat.hand is None
        if isinstance(action, Move):
            p = action.placement
            if seat.hand is not None or seat.moved or p.tile not in seat.garden.index or \
                    len(seat.garden) < 2 or p == seat.garden.placement(p.tile):
                return False
            return not move_breaches(seat.garden, p)
        if isinstance(action, (Redraw, Accept)):
            return action in self.building_actions(seat_no)
        return False

    def _triggers(self, action: Any) -> dict[str, Any]:
        if isinstance(action, Drawn):
            seat = self.seats[action.seat]
            return {"alarm": sets_off(seat.garden, self.catalogue[action.tile])}
        return {}

    def _why_not(self, action: Any) -> Violation:
        """The code and words of an action that is not legal now."""
        def no(code: str, text: str) -> Violation:
            return Violation(code, (), text)

        seat_no = getattr(action, "seat", None)
        if not isinstance(seat_no, int) or not 0 <= seat_no < len(self.seats) or \
                self.phase == OVER:
            return no(NOT_NOW, f"not an action of this moment: {action!r}")
        seat = self.seats[seat_no]
        if self.drawing is not None and not isinstance(action, Drawn):
            return no(NOT_NOW, "the bag decides first")
        if isinstance(action, Drawn):
            if self.drawing != seat_no:
                return no(NOT_NOW, "nobody is drawing from that bag")
            return no("not-in-bag", f"{action.tile} is not in {seat.name}'s bag")
        if self.phase == BUILD:
            if isinstance(action, (Buy, TakePiglet, Pass, Mutate)):
                return no(NOT_NOW, "hiring comes after building")
            if seat.stopped and not (isinstance(action, Draw) and seat.alarm is None and
                                     seat.aside is None):
                return no("stopped", f"{seat.name} has stopped building")
            if isinstance(action, Place):
                if seat.hand != action.placement.tile:
                    return no("not-drawn", f"{action.placement.tile} is not the drawn tile")
                tile = self.catalogue[seat.hand]
                if sets_off(seat.garden, tile):
                    return no("alarm", f"{seat.hand} sets off the gnome alarm")
                found = breaches(seat.garden, action.placement)
                if found:
                    return no(found[0].rule, found[0].message)
                if not seat.garden.placements and action.placement.cell != (0, 0):
                    return no("first-cell", "the engine lays a garden's first tile at [0, 0]")
            if isinstance(action, Move):
                tile_id = action.placement.tile
                if seat.hand is not None:
                    return no(NOT_NOW, "lay the drawn tile first")
                if seat.moved:
                    return no(NOT_NOW, "one unicorn move between draws")
                if tile_id not in seat.garden.index:
                    return no("not-unicorn", f"{tile_id} is not in the garden")
                found = move_breaches(seat.garden, action.placement)
                if found:
                    return no(found[0].rule, found[0].message)
            if isinstance(action, Draw) and not seat.bag:
                return no("empty-bag", f"{seat.name}'s bag is empty")
            if isinstance(action, Redraw):
                return no("no-redraw", "the second draw is not available now")
            if isinstance(action, Accept):
                return no("fits", "the drawn tile can be placed")
            return no(NOT_NOW, f"not an action of this moment: {action}")
        if seat_no != self.to_hire[0]:
            return no("not-your-turn", f"{self.seats[self.to_hire[0]].name} hires now")
        if self.mutating and not isinstance(action, Mutate):
            return no("must-mutate", "a lucky piglet mutates first")
        if isinstance(action, Buy):
            stack = self.market.stack(action.stack)
            if stack.tiles <= 0:
                return no("empty-stack", f"{action.stack} is empty")
            return no("cannot-afford", f"{action.stack} costs more than the money")
        if isinstance(action, TakePiglet):
            return no("no-piglets", "the piglet stack is empty")
        if isinstance(action, Mutate):
            return no("no-mutation", "no lucky piglet can mutate that way")
        return no(NOT_NOW, f"not an action of this moment: {action}")

    def apply(self, action: Any) -> State:
        ruling = self.rule(action)
        if not ruling.legal:
            raise ruling.refusal()
        return self._apply(action)

    # -- applying legal actions -----------------------------------------------------------
    def _seat(self, i: int, **changes: Any) -> State:
        seats = list(self.seats)
        seats[i] = replace(seats[i], **changes)
        return replace(self, seats=tuple(seats))

    def _apply(self, action: Action) -> State:
        if isinstance(action, Draw):
            return replace(self._seat(action.seat, stopped=False), drawing=action.seat)
        if isinstance(action, Drawn):
            return self._drawn(action.seat, action.tile)
        if isinstance(action, Place):
            seat = self.seats[action.seat]
            state = self._seat(action.seat, garden=seat.garden.with_tile(action.placement),
                               hand=None)
            return state
        if isinstance(action, Move):
            seat = self.seats[action.seat]
            return self._seat(action.seat, garden=seat.garden.moved(action.placement),
                              moved=True)
        if isinstance(action, Stop):
            return self._seat(action.seat, stopped=True)._after_building()
        if isinstance(action, Redraw):
            seat = self.seats[action.seat]
            state = self._seat(action.seat, second_draw_used=True, redraw_of=seat.hand,
                               hand=None)
            return replace(state, drawing=action.seat)
        if isinstance(action, Accept):
            seat = self.seats[action.seat]
            tile = self.catalogue[seat.hand or ""]
            if sets_off(seat.garden, tile):
                state = self._seat(action.seat, alarm=seat.hand, hand=None, stopped=True)
            else:
                state = self._seat(action.seat, aside=seat.hand, hand=None, stopped=True)
            return state._after_building()
        if isinstance(action, Mutate):
            return self._mutate(action)
        return self._hire(action)

    def _drawn(self, i: int, tile_id: str) -> State:
        seat = self.seats[i]
        bag = list(seat.bag)
        bag.remove(tile_id)
        if seat.redraw_of:
            bag = sorted([*bag, seat.redraw_of])
        state = replace(self._seat(i, bag=tuple(bag), redraw_of=None, moved=False,
                                   hand=tile_id), drawing=None)
        seat = state.seats[i]
        tile = self.catalogue[tile_id]
        alarm = sets_off(seat.garden, tile)
        if alarm or not fits_somewhere(seat.garden, tile):
            if state.can_redraw(i):
                return state
            if alarm:
                return state._seat(i, alarm=tile_id, hand=None, stopped=True)._after_building()
            return state._seat(i, aside=tile_id, hand=None, stopped=True)._after_building()
        return state

    def _after_building(self) -> State:
        if not all(s.stopped for s in self.seats):
            return self
        hirings = [self.hiring(i) for i in range(len(self.seats))]
        totals = tuple(h.total for h in hirings)
        state = replace(self, last_totals=totals)
        name = winner(hirings)
        if name is not None:
            i = [s.name for s in self.seats].index(name)
            state = state._seat(i, tiles_used=self.seats[i].tiles_used + 1)
            return replace(state, phase=OVER, winners=(name,), ended_by="victory")
        n = len(self.seats)
        order = tuple((self.start + k) % n for k in range(n))
        return replace(state, phase=HIRE, to_hire=order)

    def _hire(self, action: Action) -> State:
        i = action.seat  # type: ignore[union-attr]
        seat = self.seats[i]
        h = self.hiring(i)
        market = self.market
        coins = h.coins
        bag = list(seat.bag)
        used = seat.tiles_used
        if isinstance(action, Buy):
            market, tile, reward = market.take(action.stack)
            coins -= max(0, cost_of(action.stack) - h.total)
            coins += 1 if reward else 0
            bag.append(tile or "")
            used += 1
        elif isinstance(action, TakePiglet):
            market, tile = market.take_piglet()
            coins += 1
            bag.append(tile or "")
            used += 1
        state = replace(self._seat(i, coins=coins, bag=tuple(sorted(bag)), tiles_used=used,
                                   hired=True), market=market)
        if self.variant == "expert" and h.mutate and state.hiring_actions_mutate(i):
            return replace(state, mutating=True)
        return state._next_hirer()

    def hiring_actions_mutate(self, i: int) -> bool:
        return bool(replace(self, mutating=True).hiring_actions(i))

    def _mutate(self, action: Mutate) -> State:
        seat = self.seats[action.seat]
        tile_id = mutating_tile(seat.garden, action.back) or ""
        market = self.market.put_under(action.back, tile_id)
        market, new, _coin = market.take(action.stack)
        bag = sorted([*seat.bag, new or ""])
        state = replace(self._seat(action.seat, garden=seat.garden.without(tile_id),
                                   bag=tuple(bag)), market=market, mutating=False)
        return state._next_hirer()

    def _next_hirer(self) -> State:
        rest = self.to_hire[1:]
        if rest:
            return replace(self, to_hire=rest)
        return self._new_round()

    def _new_round(self) -> State:
        n = len(self.seats)
        held = [s.mission for s in self.seats]
        between = self.between
        if any(held):
            held_t, between = pass_missions(held, self.between)
            held = list(held_t)
        if self.round >= self.round_limit > 0:
            return self._round_limit_end()
        seats = []
        for s, mission in zip(self.seats, held, strict=True):
            garden = Garden(self.catalogue)
            if mission:
                garden = garden.with_tile(Placement(mission, (0, 0), 0))
            seats.append(Seat(s.name, garden, s.coins, s.owned(), mission=mission,
                              tiles_used=s.tiles_used))
        return replace(self, seats=tuple(seats), phase=BUILD, round=self.round + 1,
                       start=(self.start + 1) % n, to_hire=(), between=tuple(between),
                       mutating=False)

    def _round_limit_end(self) -> State:
        best = max(self.last_totals)
        able = [i for i, t in enumerate(self.last_totals) if t == best]
        most = max(self.seats[i].coins for i in able)
        able = [i for i in able if self.seats[i].coins == most]
        return replace(self, phase=OVER, to_hire=(), ended_by="round-limit",
                       winners=tuple(self.seats[i].name for i in able))

    # -- the score ------------------------------------------------------------------------
    def score_sheet(self) -> ScoreSheet:
        """Each seat's gems this round (after the gnomes) and coins; the winner is who bought
        the victory tile (or who led when the round limit ended the game)."""
        players = []
        for i, s in enumerate(self.seats):
            h = self.hiring(i)
            lines = (ScoreLine("gems", "gems this round", h.total),
                     ScoreLine("coins", "coins", s.coins),
                     ScoreLine("tiles", "tiles used", 0))
            players.append(SeatScore(s.name, h.total + s.coins, lines))
        result = ""
        if len(self.seats) == 1 and self.ended_by == "victory":
            used = self.seats[0].tiles_used
            result = f"{medal(used, self.long_game)} ({used} tiles)"
        elif self.ended_by == "round-limit":
            result = f"nobody bought the victory tile in {self.round} rounds"
        tie = None
        if self.phase == OVER and len(self.winners) > 1:
            tie = TieBreak(self.winners, "round-limit", {})
        return ScoreSheet("gardlings", tuple(players), self.winners, tie,
                          self.phase == OVER, result)

    def __str__(self) -> str:
        return (f"Gardlings round {self.round}, {self.phase}: " +
                "; ".join(f"{s.name} {s.garden.text() or '-'}" for s in self.seats))


__all__ = ["BUILD", "CODES", "HIRE", "OVER", "ROUND_LIMIT", "VIOLATION_CODES", "Accept",
           "Action", "Buy", "Draw", "Drawn", "Move", "Mutate", "Pass", "Place", "Redraw",
           "Seat", "State", "Stop", "TakePiglet", "victory_target"]
