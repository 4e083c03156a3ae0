"""``companion play meadow``: a whole game in the terminal, solo against Rover or with bots.

Every option offered is a legal action of the moment (the state lists them); numbers choose,
``a`` asks for advice (the best actions now by :mod:`companion.meadow.advice`, with why),
``?`` shows the table again and ``q`` quits. Rover's turns and the bots' are told in a line
each.
"""

from __future__ import annotations

import random
import sys
from typing import TextIO

from companion.errors import StateError
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
from companion.meadow.advice import Advisor, SimpleBot
from companion.meadow.catalogue import Card
from companion.meadow.game import State
from companion.meadow.main_board import spot_of
from companion.meadow.meadow import column_shows, visible
from companion.meadow.rules import RULES

SAMPLE_NOTE = "NOTE: the SAMPLE catalogue (invented cards, not the publisher's)."


def card_words(card: Card) -> str:
    """``S12 Heron (3p, obs) needs worm/larva bug, gives bird``."""
    kind = {"ground": "ground", "observation": "obs", "landscape": "land",
            "discovery": "disc"}[card.type]
    text = f"{card.id} {card.name} ({card.points}p, {kind}"
    if card.ground:
        text += f", {card.ground}"
    text += ")"
    if card.requires:
        text += " needs " + " ".join(str(r) for r in card.requires)
    if card.card_symbols:
        text += ", gives " + " ".join(card.card_symbols)
    return text


def describe(state: State, action: Action) -> str:
    """An action in words, for the menu."""
    cat = state.cat
    if isinstance(action, ChooseRow):
        cards = [state.board.card_at(f"r{action.row}c{c}") for c in range(1, 5)]
        return f"take row {action.row}: " + ", ".join(c or "-" for c in cards)
    if isinstance(action, ChooseSide):
        return "start with " + card_words(cat.cards[action.card])
    if isinstance(action, PlaceToken):
        if action.notch.startswith("bench"):
            return f"token {action.token} on the bench: play 1 card"
        if action.notch.startswith("C"):
            special = action.special or cat.path_actions[action.token]
            return f"token {action.token} at campfire {action.notch}: {special}"
        spot = spot_of(action.notch, action.count or int(action.token))
        card = state.board.card_at(spot)
        what = card_words(cat.cards[card]) if card else "empty spot (play only)"
        return f"token {action.token} at {action.notch} -> {spot}: {what}"
    if isinstance(action, Play):
        extra = f", discarding {', '.join(action.discards)}" if action.discards else ""
        return f"play {action.card} {action.place.words()}{extra}"
    if isinstance(action, Take):
        card = state.board.card_at(action.spot) or "-"
        return f"take {action.spot}: {card_words(cat.cards[card]) if card != '-' else '-'}"
    if isinstance(action, Look):
        return f"look at the top 3 of the {action.deck} deck"
    if isinstance(action, Keep):
        return "keep " + card_words(cat.cards[action.card])
    if isinstance(action, Claim):
        a, b = action.goals
        return f"claim goal {cat.goal(a).symbol}+{cat.goal(b).symbol} ({a}+{b})"
    if isinstance(action, Done):
        return "done (end the turn)"
    return str(action)


def table_text(state: State, seat: int) -> str:
    """The table as the player sees it: board, campfire, their meadow, surroundings, hand."""
    cat = state.cat
    lines = [f"Round {state.round} of {state.rounds}" + (" (after the halfway point)"
                                                        if state.board.late else "")]
    lines.append("Main board (columns " + " ".join(state.board.columns) + "):")
    for r in range(1, 5):
        cells = []
        for c in range(1, 5):
            card = state.board.card_at(f"r{r}c{c}")
            cells.append(f"{card} {cat.cards[card].points}p" if card else "--")
        lines.append(f"  row {r}: " + " | ".join(f"{x:<9}" for x in cells))
    taken = ", ".join(f"{n}:{'Rover' if s < 0 else state.players[s].name}"
                      for n, s, _t in state.notches) or "none"
    lines.append(f"Notches taken: {taken}")
    goals = [f"{g}={cat.goal(g).symbol}" for g in state.table.goals]
    lines.append("Campfire goals: " + ", ".join(goals))
    area = state.players[seat]
    lines.append(f"Your meadow ({area.name}):")
    for i, col in enumerate(area.meadow):
        shows = " ".join(s for s in column_shows(area, cat, i) if s)
        lines.append(f"  column {i + 1}: {' + '.join(col)}  shows {shows}")
    seen = visible(area, cat)
    lines.append("  visible: " + ", ".join(f"{k} {v}" for k, v in sorted(seen.items()) if v))
    lands = ", ".join(land.card + (f"+{land.discovery}" if land.discovery else "")
                      for land in area.surroundings) or "none"
    lines.append(f"Surroundings: {lands}; road tokens unused {area.roads_unused}")
    lines.append("Your tokens: " + " ".join(state.tokens[seat]) +
                 f"; bonus placed: {[b.value for b in area.bonus]}")
    lines.append("Hand:")
    lines += [f"  {card_words(cat.cards[c])}" for c in area.hand]
    return "\n".join(lines)


def _ask(prompt: str, stdin: TextIO, out: TextIO) -> str | None:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    return None if not line else line.strip().lower()


def play(*, seed: int, players: int = 1, first_game: bool = False,
         stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """A whole game: the player in seat 1, Rover (solo) or simple bots in the others."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise StateError(f"--seed: {seed!r} is not a deal number; use a whole number, 0 or more")
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    names = ["You", *(f"Bot {i}" for i in range(1, players))]
    state = RULES.new_game(names, "first-game" if first_game else None, {"seed": seed})
    bot, advisor, rng = SimpleBot(), Advisor(), random.Random(seed)
    what = "solo against Rover" if players == 1 else f"{players} players"
    out.write(f"Meadow - deal #{seed}, {what}. "
              + (SAMPLE_NOTE if state.cat.sample else "") + "\n")
    rover_seen = 0
    shown = None
    while not state.is_terminal():
        if state.rover is not None:
            log = state.rover.log
            if len(log) < rover_seen:
                rover_seen = 0
            for line in log[rover_seen:]:
                out.write(line + "\n")
            rover_seen = len(log)
        seat = state.current_player()
        if seat != 0:
            action = bot.choose(state, seat, rng)
            out.write(f"{state.players[seat].name}: {describe(state, action)}\n")
            state = state.apply(action)
            continue
        options = state.legal_actions()
        key = (state.round, len(state.notches), state.turn)
        if shown != key:
            shown = key
            out.write("\n" + table_text(state, 0) + "\n")
            out.write(f"Step: {state.turn.step}\nOptions:\n")
            out.write("".join(f"  {i + 1}. {describe(state, a)}\n"
                              for i, a in enumerate(options)))
        answer = _ask(f"Choose 1-{len(options)}, 'a' for advice, '?' to show again, 'q' to "
                      "quit: ", stdin, out)
        if answer is None or answer == "q":
            out.write(f"Quit with {state.score_sheet().players[0].total} points.\n")
            return 0
        if answer == "?":
            shown = None
            continue
        if answer == "a":
            for value, action, why in advisor.advise(state, 0, limit=3):
                out.write(f"  advice: {describe(state, action)} - {why} (value "
                          f"{value:.1f})\n")
            continue
        if not answer.isdigit() or not 1 <= int(answer) <= len(options):
            out.write(f"Please type a number from 1 to {len(options)}, 'a', '?' or 'q'.\n")
            continue
        state = state.apply(options[int(answer) - 1])
    sheet = state.score_sheet()
    out.write("\nGame over.\n")
    for p in sheet.players:
        lines = ", ".join(f"{line.label} {line.points}" for line in p.lines)
        out.write(f"  {p.name}: {p.total} points ({lines})\n")
    if sheet.result:
        out.write(f"  {sheet.result}\n")
    elif sheet.winner:
        out.write(f"  Winner: {sheet.winner}\n")
    else:
        out.write(f"  Shared victory: {', '.join(sheet.winners)}\n")
    return 0


__all__ = ["card_words", "describe", "play", "table_text"]
