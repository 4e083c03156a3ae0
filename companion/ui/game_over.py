"""The end of a game at the table: save its score to the history, then go back."""

from __future__ import annotations

from typing import Any

from companion.history import Finished, History
from companion.session import SessionStore
from companion.ui.pages import BACK, Choice, MenuPage, Page, Pop, TextPage


def game_over_menu(ctx: Any, game: str, score: dict[str, Any], *, back: int, message: str,
                   end_session: bool = False) -> MenuPage:
    """"Save to history" or "Back". Saving records ``score`` (the score JSON), ends the saved
    game in progress when ``end_session``, and after ``message`` closes ``back`` pages."""

    def record() -> Page:
        History(ctx.data_dir).add(Finished.from_score(game, score))
        if end_session:
            SessionStore(ctx.data_dir).clear()
        return TextPage("Saved", [message, "OK: back"], on_ok=lambda: Pop(back))

    return MenuPage("Game over", [Choice("Save to history", record),
                                  Choice("Back", lambda: BACK)])
