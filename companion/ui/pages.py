"""Pages: one screen's worth of behaviour. Each turns keys into a next page and gives its view.

A page's ``handle`` (a key) and ``tick`` (time passing) return another page to open on top,
:class:`Replace` to put a page in its own place, :data:`BACK` to close itself, :data:`QUIT` to
stop the service, or ``None`` to stay. Pages never touch devices: the service's loop draws their
views and owns the display.

A flow (a game in progress, scoring a saved game) starts at a page marked as the flow's root
(:func:`flow_root`). A page deep in the flow never counts the pages under it: it returns
:data:`TO_FLOW_ROOT` to go back to the root (a claim made through two menus returns to the
turn), or :data:`LEAVE_FLOW` to close the root too (a finished game saved to the history
returns to where the game was started from). The service finds the root.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from companion.devices.buttons import Key
from companion.games.score import ScoreSheet
from companion.ui.screens import visible_lines, wrap
from companion.ui.views import MenuView, TextView, View


class _Signal:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


BACK: Final = _Signal("BACK")
QUIT: Final = _Signal("QUIT")
#: close every page above the nearest flow root: back to the root page
TO_FLOW_ROOT: Final = _Signal("TO_FLOW_ROOT")
#: close the nearest flow root and every page above it: the flow is over
LEAVE_FLOW: Final = _Signal("LEAVE_FLOW")


@dataclass(frozen=True)
class Replace:
    """Put ``page`` where the current page is (a finished task gives way to its result)."""

    page: Page


class Page:
    """Base page: BACK closes it; nothing happens as time passes."""

    title = ""
    #: a page with work under way is ticked often (its spinner turns, its result is collected)
    busy = False
    #: the first page of a flow: :data:`TO_FLOW_ROOT` and :data:`LEAVE_FLOW` find it
    flow_root = False

    def view(self, status: str) -> View:
        raise NotImplementedError

    def handle(self, key: Key) -> Outcome:
        return BACK if key is Key.BACK else None

    def tick(self) -> Outcome:
        return None


#: what handling a key or a tick leads to
Outcome = Page | Replace | _Signal | None


def flow_root(page: Page) -> Page:
    """``page``, marked as the first page of a flow (returned, for chaining)."""
    page.flow_root = True
    return page


@dataclass
class Choice:
    """One entry of a menu and what choosing it does."""

    label: str
    action: Callable[[], Outcome]


class MenuPage(Page):
    """A list of choices; UP/DOWN move (wrapping round), OK chooses, BACK closes."""

    def __init__(self, title: str, choices: Sequence[Choice]) -> None:
        self.title = title
        self.choices = list(choices)
        self.selected = 0

    def view(self, status: str) -> View:
        return MenuView(self.title, tuple(c.label for c in self.choices), self.selected,
                        status or self.title)

    def handle(self, key: Key) -> Outcome:
        n = len(self.choices)
        if key is Key.UP and n:
            self.selected = (self.selected - 1) % n
        elif key is Key.DOWN and n:
            self.selected = (self.selected + 1) % n
        elif key is Key.OK and n:
            return self.choices[self.selected].action()
        elif key is Key.BACK:
            return BACK
        return None


class LiveMenuPage(MenuPage):
    """A menu that follows a game as it moves on: its title and choices are rebuilt from
    :meth:`current` before every draw and every key, and the selection goes back to the top
    whenever the choices change."""

    def __init__(self) -> None:
        super().__init__("", [])

    def current(self) -> tuple[str, list[Choice]]:
        raise NotImplementedError

    def refresh(self) -> None:
        title, choices = self.current()
        if [c.label for c in choices] != [c.label for c in self.choices]:
            self.selected = 0
        self.title, self.choices = title, choices

    def view(self, status: str) -> View:
        self.refresh()
        return super().view(status)

    def handle(self, key: Key) -> Outcome:
        self.refresh()  # the game may have moved on since the page was drawn
        return super().handle(key)


class TextPage(Page):
    """Text to read, scrolled with UP/DOWN; OK or BACK closes it."""

    def __init__(self, title: str, lines: Sequence[str], *, alert: bool = False,
                 width: int = 125, height: int = 64,
                 on_ok: Callable[[], Outcome] | None = None) -> None:
        self.title = title
        self.lines = tuple(lines)
        self.alert = alert
        self.offset = 0
        self._rows = visible_lines(height)
        self._total = len(wrap(self.lines, width))
        self._on_ok = on_ok

    def view(self, status: str) -> View:
        return TextView(self.title, self.lines, self.offset,
                        self.title if self.alert else (status or self.title), self.alert)

    def handle(self, key: Key) -> Outcome:
        last = max(0, self._total - self._rows)
        if key is Key.DOWN:
            self.offset = min(last, self.offset + 1)
        elif key is Key.UP:
            self.offset = max(0, self.offset - 1)
        elif key is Key.OK:
            return self._on_ok() if self._on_ok else BACK
        elif key is Key.BACK:
            return BACK
        return None


def error_page(message: str, title: str = "Problem") -> TextPage:
    """A problem the user must know about, in words they can act on."""
    return TextPage(title, [message, "", "OK: back"], alert=True)


def score_lines(sheet: ScoreSheet, final: bool | None = None) -> list[str]:
    """A score sheet as screen lines: who won (or leads), the totals, how a tie was broken, then
    each seat's score pad. Any game's sheet: nothing here knows how a game scores.

    >>> from dataclasses import replace
    >>> from companion.games.score import TieBreak
    >>> sheet = ScoreSheet.of("demo", [("Toni", [("sets", "sets", 5)]),
    ...                                ("Emma", [("sets", "sets", 5)])])
    >>> sheet = replace(sheet, winners=("Emma",),
    ...                 tie_break=TieBreak(("Toni", "Emma"), "fewest left", {"Toni": 3, "Emma": 1}))
    >>> score_lines(sheet)[:4]
    ['Winner: Emma', 'Toni: 5', 'Emma: 5', 'Tie-break: fewest left: Toni 3, Emma 1']
    """
    final = sheet.final if final is None else final
    if len(sheet.players) == 1:  # a solo game: the points, and the result in the game's words
        seat = sheet.players[0]
        head = f"{seat.total} points"
        lines = [f"{head}: {sheet.result}" if sheet.result else head]
        lines.extend(f" {line.label}: {line.points}" for line in seat.lines)
        return lines
    winner = sheet.winner
    if final:
        lines = [f"Winner: {winner}" if winner else "Tied game"]
    else:
        lines = [f"Leading: {winner}" if winner else "Level"]
    for p in sorted(sheet.players, key=lambda p: -p.total):
        lines.append(f"{p.name}: {p.total}")
    if sheet.result:
        lines.append(sheet.result)
    tie = sheet.tie_break
    if tie is not None:
        values = ", ".join(f"{n} {v}" for n, v in tie.values.items())
        lines.append(f"Tie-break: {tie.rule}" + (f": {values}" if values else ""))
    for p in sheet.players:
        lines.append("")
        lines.append(f"{p.name} ({p.total})")
        lines.extend(f" {line.label}: {line.points}" for line in p.lines)
    return lines
