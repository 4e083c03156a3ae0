"""``companion play gardlings``: a whole game in the terminal, the engine drawing the tiles.

You hold the first seat; simple bots hold the others (none in the solo game). Before each
draw the companion says the chance that the next tile sets off the gnome alarm, counted from
your bag's known contents. Each drawn tile is laid at one of the legal placements listed
(most gems first); then everyone hires in turn from the start player.
"""

from __future__ import annotations

import random
import sys
from typing import TextIO

from companion.errors import StateError
from companion.games.interface import CHANCE, sample_chance
from companion.gardlings.advice import SimpleBot, ranked_placements, stop_advice
from companion.gardlings.game import (
    HIRE,
    Accept,
    Action,
    Buy,
    Draw,
    Move,
    Mutate,
    Pass,
    Place,
    Redraw,
    State,
    Stop,
    TakePiglet,
)
from companion.gardlings.gnome_alarm import alarm_threshold, dragons, gnomes, sets_off
from companion.gardlings.jobs import SAMPLE_NOTE
from companion.gardlings.missions import count_all
from companion.gardlings.placement import legal_moves
from companion.gardlings.rules import RULES


def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str | None:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    return None if not line else line.strip().lower()


def _number(answer: str, most: int) -> int | None:
    if not answer.isascii() or not answer.isdigit() or len(answer) > 6:
        return None
    value = int(answer)
    return value if 1 <= value <= most else None


def describe(state: State, seat: int) -> str:
    """A seat's garden, gems, gnomes and bag, for the terminal."""
    s = state.seats[seat]
    gems = count_all(s.garden, s.mission)
    threshold = alarm_threshold(dragons(s.garden))
    lines = [s.garden.picture(),
             f"gems {gems.total} (plain {gems.plain}, triple {gems.triple}, bonus "
             f"{gems.bonus}, mission {gems.mission}); gnomes {gnomes(s.garden)} (alarm at "
             f"{threshold}); coins {s.coins}; bag {len(s.bag)} tiles"]
    if s.mission:
        effect = state.catalogue[s.mission].effect
        lines.append(f"mission {s.mission}: {effect.describe() if effect else ''}")
    return "\n".join(lines)


def tile_words(state: State, tile_id: str) -> str:
    tile = state.catalogue[tile_id]
    size = f"{tile.width}x{tile.height}"
    bits = [tile.back, size, "edges " + "/".join(tile.edges)]
    if tile.creatures:
        bits.append(", ".join(tile.creatures))
    if tile.gnomes:
        bits.append(f"{tile.gnomes} gnome(s)")
    return f"{tile_id} ({'; '.join(bits)})"


def _menu(options: list[str]) -> str:
    return "\n".join(f"  {i + 1:>2}. {text}" for i, text in enumerate(options))


#: placements listed at first (the best ones); 'all' lists the rest
SHOWN = 12


def _choose(options: list[str], prompt: str, stdin: TextIO, out: TextIO) -> int | None:
    """The index picked (None: quit). Long lists show their first :data:`SHOWN` options
    until 'all' is typed."""
    more = len(options) - SHOWN
    out.write(_menu(options[:SHOWN]) + "\n")
    if more > 0:
        out.write(f"  ... {more} more: type 'all' to list them\n")
    while True:
        answer = _ask(f"{prompt} (1-{len(options)}, q to quit): ", stdin, out)
        if answer is None or answer == "q":
            return None
        if answer == "all":
            out.write(_menu(options) + "\n")
            continue
        number = _number(answer, len(options))
        if number is not None:
            return number - 1
        out.write(f"Please type a number from 1 to {len(options)}, 'all' or q.\n")


def _your_building(state: State, out: TextIO, stdin: TextIO) -> tuple[Action | None, bool]:
    """Your next building action (None and True: quit)."""
    s = state.seats[0]
    if s.hand is not None:
        alarm = sets_off(s.garden, state.catalogue[s.hand])
        options = [] if alarm else ranked_placements(s.garden, s.hand, s.mission)
        labels = [f"cell {list(o.placement.cell)} turned {o.placement.rotation}: "
                  f"{o.gems:+d} gems" for o in options]
        acts: list[Action] = [Place(0, o.placement) for o in options]
        if state.can_redraw(0):
            labels.append("use the mission's second draw")
            acts.append(Redraw(0))
            if not options:
                labels.append("accept (stop building)")
                acts.append(Accept(0))
        why = (": it would set off the gnome alarm" if alarm else
               ": it fits nowhere" if not options else "")
        out.write(f"You drew {tile_words(state, s.hand)}{why}.\n")
        pick = _choose(labels, "Where does it go?", stdin, out)
        return (None, True) if pick is None else (acts[pick], False)
    out.write(f"\nRound {state.round} - your garden:\n{describe(state, 0)}\n"
              f"Advice: {stop_advice(state, 0)}\n")
    labels, acts = [], []
    if s.bag:
        labels.append("draw a tile")
        acts.append(Draw(0))
    labels.append("stop building")
    acts.append(Stop(0))
    if not s.moved:
        for p in s.garden:
            for m in legal_moves(s.garden, p.tile):
                labels.append(f"move unicorn {m.tile} to {list(m.cell)} turned {m.rotation}")
                acts.append(Move(0, m))
    pick = _choose(labels, "Draw or stop?", stdin, out)
    return (None, True) if pick is None else (acts[pick], False)


def _your_hiring(state: State, out: TextIO, stdin: TextIO) -> Action | None:
    h = state.hiring(0)
    out.write(f"\nHiring - you have {h.total} gems and {h.coins} coins: money {h.money}.\n")
    acts = state.hiring_actions(0)
    labels = []
    for a in acts:
        if isinstance(a, Buy):
            b = next(b for b in h.buy if b.stack == a.stack)
            labels.append(f"buy the top of {a.stack} ({b.cost}; {b.coins_spent} coins"
                          + (", + reward coin" if b.reward else "") + ")")
        elif isinstance(a, TakePiglet):
            labels.append("take a lucky piglet and a coin")
        elif isinstance(a, Mutate):
            labels.append(f"mutate a {a.back} lucky piglet, take the top of {a.stack}")
        elif isinstance(a, Pass):
            labels.append("hire nobody")
    pick = _choose(labels, "Hire?", stdin, out)
    return None if pick is None else acts[pick]


def _round_report(state: State, out: TextIO) -> None:
    for i, s in enumerate(state.seats):
        h = state.hiring(i)
        alarm = f", gnome alarm -{h.stolen}" if h.alarm else ""
        out.write(f"  {s.name}: {h.gems.total} gems{alarm} = {h.total}; coins {s.coins}\n")


def play(*, seed: int, seats: int = 2, expert: bool = False, missions: bool = False,
         long_game: bool = False, stdin: TextIO | None = None, stdout: TextIO | None = None
         ) -> int:
    """A whole game; numbers choose, q quits. Returns the exit status."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise StateError(f"--seed: {seed!r} is not a shuffle number; use 0 or more")
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    names = ["You", *(f"Bot {k}" for k in range(1, seats))]
    state = RULES.new_game(names, "expert" if expert else "basic",
                           {"seed": seed, "missions": missions, "long_game": long_game,
                            "round_limit": 60})
    rng = random.Random(seed)
    bot = SimpleBot()
    kind = "solo game" if seats == 1 else f"{seats} players"
    out.write(f"Gardlings - {kind}, shuffle #{seed}. {SAMPLE_NOTE}\n")
    shown_round = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        if state.phase == HIRE:
            if state.round != shown_round:
                shown_round = state.round
                out.write(f"\nEnd of building, round {state.round}:\n")
                _round_report(state, out)
            seat = state.to_hire[0]
            if seat == 0:
                action = _your_hiring(state, out, stdin)
                if action is None:
                    out.write("Bye.\n")
                    return 0
            else:
                action = bot.choose(state, seat, rng)
                out.write(f"{state.seats[seat].name}: {str(action).split(': ', 1)[1]}\n")
            state = state.apply(action)
            continue
        you = state.seats[0]
        if not you.stopped:
            before = you.alarm
            action, quit_ = _your_building(state, out, stdin)
            if quit_ or action is None:
                out.write("Bye.\n")
                return 0
            state = state.apply(action)
            while state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
            now = state.seats[0]
            if now.alarm and not before:
                out.write(f"Gnome alarm! {now.alarm} lies face down; you stop building.\n")
            elif now.aside:
                out.write(f"{now.aside} fits nowhere: you stop building.\n")
            continue
        for seat in range(1, len(state.seats)):
            if not state.seats[seat].stopped or state.drawing is not None:
                break
        else:
            continue
        state = state.apply(bot.choose(state, seat, rng))
    out.write("\nGame over.\n")
    _round_report(state, out)
    sheet = state.score_sheet()
    if state.ended_by == "victory":
        out.write(f"{', '.join(sheet.winners)} bought the victory tile.\n")
    if sheet.result:
        out.write(f"Result: {sheet.result}\n")
    return 0


__all__ = ["describe", "play", "tile_words"]
