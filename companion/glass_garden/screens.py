"""Glass Garden at the table: the solo assistant on the OLED and three buttons.

The player deals the garden and tells the companion what lies where (the critter, then the plant
in each column). Each turn the companion can advise (the best two actions, what will grow, what
the critter will damage, and the best score still reachable, thinking on a worker thread with a
progress bar), and the player enters what they did, step by step, from short menus; every step
is saved at once (power-cut safe) and can be undone. The final score is the game's score sheet;
saving it to the history and leaving the game are the service's (``companion.ui.game_over``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.session import Session, SessionStore
from companion.ui.pages import (
    BACK,
    Choice,
    LiveMenuPage,
    MenuPage,
    Outcome,
    Page,
    Replace,
    TextPage,
)
from companion.ui.task import Progress, TaskPage


def deck_ref(ctx: Any) -> str:
    """The deck named by ``games.glass-garden.deck``, as a state file names it."""
    path = ctx.settings["games"]["glass-garden"].get("deck")
    return str(Path(path).expanduser().resolve()) if path else "sample"


def tracker_of(state: dict[str, Any]) -> Any:
    from companion.glass_garden.state_file import parse_state
    from companion.glass_garden.tracker import GameTracker

    return GameTracker(parse_state(state))


def play_page(ctx: Any, session: Session) -> Page:
    """The registry's hook: deal a new garden, or go on with the saved one."""
    if session.current is None:
        return DealPage(ctx, session)
    return TurnPage(ctx, session, tracker_of(session.current))


class DealPage(MenuPage):
    """Tell the companion the deal: the critter, then the plant in columns 2 to 9."""

    def __init__(self, ctx: Any, session: Session) -> None:
        from companion.glass_garden.state_file import deck_of

        self.ctx, self.session = ctx, session
        self.ref = deck_ref(ctx)
        self.deck = deck_of(self.ref)
        self.critter: str | None = None
        self.plants: list[str] = []
        super().__init__("Which critter?", [
            Choice(c.name, lambda c=c.name: self._critter(c)) for c in self.deck.critters])

    def _critter(self, name: str) -> Outcome:
        self.critter = name
        self._ask_plant()
        return None

    def _ask_plant(self) -> None:
        left = [p.name for p in self.deck.plants if p.name not in self.plants]
        self.title = f"Column {len(self.plants) + 2}?"
        self.choices = [Choice(n, lambda n=n: self._plant(n)) for n in left]
        self.selected = 0

    def _plant(self, name: str) -> Outcome:
        self.plants.append(name)
        if len(self.plants) < len(self.deck.plants):
            self._ask_plant()
            return None
        state = {"game": "glass-garden", "deck": self.ref, "critter": self.critter, "turn": 1,
                 "garden": ["critter", *self.plants]}
        tracker = tracker_of(state)
        save(self.ctx, self.session, tracker)
        return Replace(TurnPage(self.ctx, self.session, tracker))


def save(ctx: Any, session: Session, tracker: Any) -> None:
    """Keep the position (at a step's start, when the state file can hold it)."""
    try:
        snapshot = tracker.snapshot()
    except Exception:  # mid-way through a choice: the last whole step stays saved
        return
    snapshot["deck"] = deck_ref(ctx)
    session.accept(snapshot)
    SessionStore(ctx.data_dir).save(session)


class TurnPage(LiveMenuPage):
    """The garden's turn: advice, entering a step, undo, the score."""

    def __init__(self, ctx: Any, session: Session, tracker: Any) -> None:
        self.ctx, self.session, self.tracker = ctx, session, tracker
        super().__init__()
        self.refresh()

    def current(self) -> tuple[str, list[Choice]]:
        from companion.glass_garden.game import SUNLIGHT_TURN

        state = self.tracker.state
        when = "sun" if state.turn == SUNLIGHT_TURN else f"T{state.turn}"
        title = f"Garden {when} score {state.score()}"  # the status line
        if self.tracker.finished:
            choices = [Choice("Final score", self._final)]
        else:
            choices = [Choice("Advice", self._advice), Choice("Enter a step", self._steps)]
        if self.tracker.history:
            choices.append(Choice("Undo", self._undo))
        choices.append(Choice("Leave (saved)", lambda: BACK))
        return title, choices

    def _advice(self) -> Page:
        seconds = float(self.ctx.settings["games"]["glass-garden"]["think_seconds"])
        state = self.tracker.state

        def work(progress: Progress) -> Page:
            import time

            from companion.glass_garden.advice import best_turn_line
            from companion.glass_garden.jobs import advise
            from companion.glass_garden.solver import Advisor

            progress.update(None, f"Thinking (up to {seconds:.0f} s)...")
            # the search runs on; the best turn so far is shown as it improves
            advisor = Advisor(state, seconds)
            while advisor.running and not progress.cancelled.is_set():
                now = advisor.poll()
                if now is not None:
                    progress.update(min(1.0, now.seconds / seconds), best_turn_line(
                        state, now.plan.turns, now.plan.score, now.optimal))
                time.sleep(0.1)
            result = advisor.stop()
            _data, lines = advise(state, seconds, result)
            return TextPage("Advice", lines)

        return TaskPage("Advice", "Thinking...", work)

    def _steps(self) -> Page:
        return MenuPage("What did you do?", [
            Choice(text, lambda i=i: self._choose(i))
            for i, text in enumerate(self.tracker.options())])

    def _choose(self, index: int) -> Outcome:
        self.tracker.choose(index)
        said = self.tracker.skip_forced()
        save(self.ctx, self.session, self.tracker)
        if said:
            return Replace(TextPage("Garden", said))
        return BACK

    def _undo(self) -> Outcome:
        self.tracker.undo()
        save(self.ctx, self.session, self.tracker)
        return None

    def _final(self) -> Page:
        """The garden's score sheet (one seat: its points, plant by plant, and its title);
        OK offers to save it to the history."""
        from companion.glass_garden.scoring import score_sheet
        from companion.ui.game_over import final_score_page

        state = self.tracker.state
        name = self.session.players[0] if self.session.players else "Player 1"
        sheet = score_sheet(state.deck, state.garden, final=True, seat=name)
        return final_score_page(self.ctx, "glass-garden", sheet)
