"""Choosing the players: how many, named from the configuration's short list."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.ui.pages import Choice, MenuPage, Outcome


def seat_names(configured: Sequence[str], count: int) -> list[str]:
    """The first ``count`` configured names, then "Player N" for any seat left over.

    >>> seat_names(["Toni", "Emma"], 3)
    ['Toni', 'Emma', 'Player 3']
    """
    names = [str(n) for n in configured[:count]]
    return names + [f"Player {i}" for i in range(len(names) + 1, count + 1)]


class PlayersPage(MenuPage):
    """Choose how many play; the names come from ``games.players`` in the configuration."""

    def __init__(self, title: str, lowest: int, highest: int, configured: Sequence[str],
                 chosen: Callable[[list[str]], Outcome]) -> None:
        choices = []
        for n in range(lowest, highest + 1):
            names = seat_names(configured, n)
            label = "Solo: " + names[0] if n == 1 else f"{n}: " + ", ".join(names)
            choices.append(Choice(label, lambda names=names: chosen(names)))
        super().__init__(title, choices)
        if highest >= 2 and lowest < 2:
            self.selected = 1  # most games are played by two or more
