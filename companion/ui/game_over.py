"""The end of a game at the table: its score sheet, saved to the history, then the flow left."""

from __future__ import annotations

from typing import Any

from companion.games.score import ScoreSheet
from companion.history import Finished, History
from companion.session import SessionStore
from companion.ui.pages import (
    BACK,
    LEAVE_FLOW,
    Choice,
    MenuPage,
    Page,
    Replace,
    TextPage,
    score_lines,
)


def game_over_menu(ctx: Any, game: str, sheet: ScoreSheet, *, message: str,
                   end_session: bool = False) -> MenuPage:
    """"Save to history" or "Back". Saving records ``sheet``, ends the saved game in progress
    when ``end_session``, and after ``message`` leaves the flow (to where it was started)."""

    def record() -> Page:
        aside = History(ctx.data_dir).add(Finished.from_sheet(game, sheet))
        if end_session:
            SessionStore(ctx.data_dir).clear()
        told = [message]
        if aside is not None:  # the old history could not be read: kept, and a new one begun
            told.append(f"The old history file could not be read; it was moved to {aside}.")
        return TextPage("Saved", [*told, "OK: back"], on_ok=lambda: LEAVE_FLOW)

    return MenuPage("Game over", [Choice("Save to history", record),
                                  Choice("Back", lambda: BACK)])


def final_score_page(ctx: Any, game: str, sheet: ScoreSheet) -> TextPage:
    """A game at the table is over: its final score; OK offers to save it (and ends the saved
    game in progress once it is in the history)."""
    over = game_over_menu(ctx, game, sheet, end_session=True,
                          message="The game is in the history.")
    return TextPage("Final score", score_lines(sheet, final=True), on_ok=lambda: Replace(over))
