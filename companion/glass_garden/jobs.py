"""The command line's jobs for Glass Garden: ``assist`` (advice from a state file) and ``play``
(a whole game in the terminal: the garden with its key, the options in columns, the advice
on request, and what the critter damaged at the end of each turn)."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.errors import CompanionError, StateError
from companion.glass_garden.advice import tell_plan
from companion.glass_garden.deck import ROWS, load_deck
from companion.glass_garden.game import GROW, OVER, SUNLIGHT_TURN, State
from companion.glass_garden.scoring import plant_points, title
from companion.glass_garden.solver import Result, solve
from companion.glass_garden.state_file import load_state
from companion.glass_garden.tracker import GameTracker
from companion.report import Report

SAMPLE_WARNING = ("NOTE: this uses the SAMPLE deck (invented cards, not the printed ones); "
                  "transcribe your own deck for real advice.")


def advise(state: State, seconds: float, result: Result | None = None, workers: int = 1
           ) -> tuple[dict[str, Any], list[str]]:
    """The advice for ``state`` as the report's data and text lines (from ``result`` when a
    search already ran, e.g. on the screen's worker thread; else by ``workers`` searches at
    once: the solver's portfolio)."""
    if state.phase == OVER:
        raise StateError("turn: the game is over, there is nothing left to advise")
    if result is None:
        result = solve(state, seconds, workers=workers)
    stories, final = tell_plan(state, result.plan.turns)
    if final.score() != result.plan.score:
        raise CompanionError("internal error: the plan does not replay to its score")
    deck = state.deck
    first = stories[0]
    data: dict[str, Any] = {
        "game": "glass-garden",
        "deck": deck.name,
        "sample_deck": deck.sample,
        "critter": state.table.critter.name,
        "turn": "sunlight" if state.turn == SUNLIGHT_TURN else state.turn,
        "score_now": state.score(),
        "best_turn": {"actions": first.actions, "growth": first.growth, "grows": first.grown,
                      "glass": first.glass, "damaged": first.damaged,
                      "score_after": first.score_after, "garden_after": first.garden_after},
        "plan": [s.data() for s in stories],
        "score": result.plan.score,
        "title": title(result.plan.score),
        "bound": result.bound,
        "optimal": result.optimal,
        "greedy_score": result.greedy_score,
        "states_explored": result.nodes,
        "seconds": round(result.seconds, 2),
        "searches": len(result.searches) or 1,
    }
    if deck.sample:
        data["warning"] = SAMPLE_WARNING
    lines = []
    if deck.sample:
        lines.append(SAMPLE_WARNING)
    where = "sunlight phase" if state.turn == SUNLIGHT_TURN else f"turn {state.turn}"
    lines.append(f"Glass Garden, {state.table.critter.name}, {where}, score now {state.score()}")
    lines.append("Best turn: " + (", ".join(first.actions) if first.actions else
                                  ("no actions" if state.turn != SUNLIGHT_TURN else "")))
    lines.append("  then: " + (", ".join(first.growth) or "nothing grows"))
    if state.turn != SUNLIGHT_TURN:
        lines.append("  the critter damages: " + (", ".join(first.damaged) or "nothing"))
    verdict = "optimal" if result.optimal else f"best found; no plan can beat {result.bound}"
    lines.append(f"Final score of the plan: {result.plan.score} ({title(result.plan.score)}), "
                 f"{verdict}")
    lines.append("Plan:")
    lines.extend("  " + s.line() for s in stories)
    by = f" by {len(result.searches)} searches" if len(result.searches) > 1 else ""
    lines.append(f"(first plan {result.greedy_score}; {result.nodes} states explored{by} "
                 f"in {result.seconds:.1f}s)")
    return data, lines


def assist(state: Path, *, seconds: float = 10.0, workers: int = 1) -> Report:
    """``companion assist glass-garden STATE``: the best turn, the plan, and a proven bound
    (``workers`` searches at once)."""
    if not seconds > 0:
        raise StateError(f"--seconds: {seconds} must be more than 0")
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 8:
        raise StateError(f"--workers: {workers!r} is not a number of searches from 1 to 8")
    data, lines = advise(load_state(Path(state)), seconds, workers=workers)
    return Report(data, "\n".join(lines))


# -- the terminal game ------------------------------------------------------------------
#: The menu is laid out in columns to fit this many characters (a usual terminal).
MENU_WIDTH = 100


def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str | None:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line:
        return None
    return line.strip().lower()


def _number(answer: str, most: int) -> int | None:
    """``answer`` as a choice 1-``most`` (None if it is not one); ``²`` or a thousand digits
    are not numbers here."""
    if not answer.isascii() or not answer.isdigit() or len(answer) > 6:
        return None
    value = int(answer)
    return value if 1 <= value <= most else None


def legend(names: tuple[str, ...]) -> str:
    """What each symbol of :meth:`Garden.picture <companion.glass_garden.garden.Garden.picture>`
    means, to print under it."""
    lines, line = [], "Key:"
    for i, name in enumerate(names):
        item = f"{name[:3].lower()} {name}" + ("," if i < len(names) - 1 else "")
        if len(line) + 1 + len(item) > MENU_WIDTH:
            lines.append(line)
            line = "    "
        line += " " + item
    lines.append(line)
    lines.append("     lower case: soil side up (no points); UPPER CASE: succulent side up "
                 "(1 point, 2 in the top row)")
    lines.append("     CRIT: the critter; ..: empty; * or # at a row's ends: its glass card, "
                 "sunlit or dark side up")
    return "\n".join(lines)


def menu(options: list[str], width: int = MENU_WIDTH) -> str:
    """The numbered options in as many columns as fit ``width`` (numbered down each column),
    under an ``Options:`` line."""
    if not options:
        return "Options: none"
    digits = len(str(len(options)))
    cells = [f"{i + 1:>{digits}}. {words}" for i, words in enumerate(options)]
    cell = max(len(c) for c in cells) + 3
    cols = max(1, min(len(cells), (width - 2) // cell))
    rows = -(-len(cells) // cols)
    lines = ["Options:"]
    for r in range(rows):
        row = [cells[c * rows + r] for c in range(cols) if c * rows + r < len(cells)]
        lines.append("  " + "".join(text.ljust(cell) for text in row).rstrip())
    return "\n".join(lines)


def damage_report(before: State, after: State) -> str:
    """What the critter's damage did between ``before`` (growing step, about to end) and
    ``after`` (the next turn, or the sunlight phase): each damaged plant, its rows and the
    points it lost."""
    deck = before.deck
    hits = []
    for p in range(len(deck.plants)):
        was, now = before.garden.rows[p], after.garden.rows[p]
        if was == now:
            continue
        lost = plant_points(before.garden, p) - plant_points(after.garden, p)
        cost = f", -{lost} point{'s' if lost > 1 else ''}" if lost > 0 else ""
        hits.append(f"{deck.plants[p].name} ({ROWS[was]} -> {ROWS[now]} row{cost})")
    critter = before.table.critter.name
    what = " and ".join([", ".join(hits[:-1]), hits[-1]] if len(hits) > 1 else hits) or "nothing"
    return f"End of turn {before.turn}: the {critter} damaged {what}; score {after.score()}."


def _damage_since(tracker: GameTracker, seen: int) -> list[str]:
    """A damage report for every turn that ended since ``tracker.history[seen]``."""
    states = [*tracker.history[seen:], tracker.state]
    return [damage_report(a, b) for a, b in itertools.pairwise(states)
            if a.phase == GROW and not a.pending and b.turn != a.turn]


def play(*, seed: int, stdin: TextIO | None = None, stdout: TextIO | None = None,
         advice_seconds: float = 2.0) -> int:
    """A whole game against the engine: numbers choose, 'a' asks for advice, '?' shows the
    options and the key again, 'q' quits."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise StateError(f"--seed: {seed!r} is not a deal number; use a whole number, 0 or more")
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    deck = load_deck()
    names = tuple(p.name for p in deck.plants)
    out.write(f"Glass Garden - deal #{seed}. {SAMPLE_WARNING}\n")
    crit_menu = ", ".join(f"{i + 1} {c.name}" for i, c in enumerate(deck.critters))
    while True:
        answer = _ask(f"Critter? ({crit_menu}; Enter = {deck.critters[0].name}) ", stdin, out)
        if answer is None or answer == "q":
            out.write("Bye.\n")
            return 0
        index = 1 if answer == "" else _number(answer, len(deck.critters))
        if index is not None:
            break
        out.write(f"Please type a number from 1 to {len(deck.critters)}, press Enter, or 'q'.\n")
    tracker = GameTracker.deal(deck, deck.critters[index - 1].name, seed=seed)
    shown: tuple[int, str] | None = None
    menu_of: State | None = None
    seen = 0
    while True:
        for note in tracker.skip_forced():
            out.write(note + "\n")
        for line in _damage_since(tracker, seen):
            out.write(line + "\n")
        seen = len(tracker.history)
        state = tracker.state
        if state.is_terminal():
            break
        options = tracker.options()
        if shown != (state.turn, state.garden.text()) or state.pending:
            shown = (state.turn, state.garden.text())
            where = "Sunlight phase" if state.turn == SUNLIGHT_TURN else f"Turn {state.turn}"
            side = state.table.critter.sides[state.garden.critter_side]
            step = (f"actions ({state.actions_left} left)" if state.phase == "actions"
                    else state.phase)
            out.write(f"\n{where} - {step}; score {state.score()}; critter arrow "
                      f"{side.arrow}\n{state.garden.picture(names)}\n{legend(names)}\n")
        if menu_of is not state:
            menu_of = state
            out.write(menu(options) + "\n")
        answer = _ask(f"Choose 1-{len(options)}, 'a' for advice, '?' for the options again, "
                      "'q' to quit: ", stdin, out)
        if answer is None or answer == "q":
            out.write(f"Quit with score {state.score()}.\n")
            return 0
        if answer == "?":
            out.write(f"{state.garden.picture(names)}\n{legend(names)}\n{menu(options)}\n")
            continue
        if answer == "a":
            try:
                _, lines = advise(state, advice_seconds)
            except CompanionError as exc:
                out.write(f"No advice: {exc}\n")
                continue
            out.write("\n".join(line for line in lines if line != SAMPLE_WARNING) + "\n")
            continue
        choice = _number(answer, len(options))
        if choice is None:
            out.write(f"Please type a number from 1 to {len(options)}, 'a', '?' or 'q'.\n")
            continue
        tracker.choose(choice - 1)
    points = tracker.state.score()
    out.write(f"\nGame over: {points} points - {title(points)}\n"
              f"{tracker.state.garden.picture(names)}\n{legend(names)}\n")
    return 0
