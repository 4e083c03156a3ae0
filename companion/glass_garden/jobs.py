"""The command line's jobs for Glass Garden: ``assist`` (advice from a state file) and ``play``
(a whole game in the terminal)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from companion.errors import CompanionError, StateError
from companion.glass_garden.advice import tell_plan
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import OVER, SUNLIGHT_TURN, State
from companion.glass_garden.scoring import title
from companion.glass_garden.solver import Result, solve
from companion.glass_garden.state_file import load_state
from companion.glass_garden.tracker import GameTracker
from companion.report import Report

SAMPLE_WARNING = ("NOTE: this uses the SAMPLE deck (invented cards, not the printed ones); "
                  "transcribe your own deck for real advice.")


def advise(state: State, seconds: float) -> tuple[dict[str, Any], list[str]]:
    """The advice for ``state`` as the report's data and text lines."""
    if state.phase == OVER:
        raise StateError("turn: the game is over, there is nothing left to advise")
    result: Result = solve(state, seconds)
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
    lines.append(f"(greedy would reach {result.greedy_score}; {result.nodes} states explored "
                 f"in {result.seconds:.1f}s)")
    return data, lines


def assist(state: Path, *, seconds: float = 10.0) -> Report:
    """``companion assist glass-garden STATE``: the best turn, the plan, and a proven bound."""
    if not seconds > 0:
        raise StateError(f"--seconds: {seconds} must be more than 0")
    data, lines = advise(load_state(Path(state)), seconds)
    return Report(data, "\n".join(lines))


# -- the terminal game ------------------------------------------------------------------
def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str | None:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line:
        return None
    return line.strip().lower()


def play(*, seed: int, stdin: TextIO | None = None, stdout: TextIO | None = None,
         advice_seconds: float = 2.0) -> int:
    """A whole game against the engine: numbers choose, 'a' asks for advice, 'q' quits."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    try:
        deck = load_deck()
    except CompanionError as exc:
        out.write(f"error: {exc}\n")
        return 1
    names = tuple(p.name for p in deck.plants)
    out.write(f"Glass Garden - deal #{seed}. {SAMPLE_WARNING}\n")
    crit_menu = ", ".join(f"{i + 1} {c.name}" for i, c in enumerate(deck.critters))
    answer = _ask(f"Critter? ({crit_menu}; Enter = {deck.critters[0].name}) ", stdin, out)
    if answer is None or answer == "q":
        out.write("Bye.\n")
        return 0
    index = int(answer) - 1 if answer.isdigit() else 0
    if not 0 <= index < len(deck.critters):
        index = 0
    tracker = GameTracker.deal(deck, deck.critters[index].name, seed=seed)
    shown: tuple[int, str] | None = None
    while True:
        for note in tracker.skip_forced():
            out.write(note + "\n")
        state = tracker.state
        if state.is_terminal():
            break
        if shown != (state.turn, state.garden.text()) or state.pending:
            shown = (state.turn, state.garden.text())
            where = "Sunlight phase" if state.turn == SUNLIGHT_TURN else f"Turn {state.turn}"
            side = state.table.critter.sides[state.garden.critter_side]
            step = (f"actions ({state.actions_left} left)" if state.phase == "actions"
                    else state.phase)
            out.write(f"\n{where} - {step}; score {state.score()}; critter arrow "
                      f"{side.arrow}\n{state.garden.picture(names)}\n")
        options = tracker.options()
        for i, words in enumerate(options):
            out.write(f"  {i + 1:2d}. {words}\n")
        answer = _ask("Choose a number, 'a' for advice, 'q' to quit: ", stdin, out)
        if answer is None or answer == "q":
            out.write(f"Quit with score {state.score()}.\n")
            return 0
        if answer == "a":
            try:
                _, lines = advise(state, advice_seconds)
            except CompanionError as exc:
                out.write(f"No advice: {exc}\n")
                continue
            out.write("\n".join(lines[1:]) + "\n")
            continue
        if not answer.isdigit() or not 1 <= int(answer) <= len(options):
            out.write(f"Please type a number from 1 to {len(options)}, 'a' or 'q'.\n")
            continue
        tracker.choose(int(answer) - 1)
    points = tracker.state.score()
    out.write(f"\nGame over: {points} points - {title(points)}\n"
              f"{tracker.state.garden.picture(names)}\n")
    return 0
