"""What a screen shows, as plain data: each screen is drawn from one of these by a pure function."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class MenuView:
    """A list to move through with UP/DOWN and choose from with OK."""

    title: str
    items: tuple[str, ...]
    selected: int = 0
    status: str = ""


@dataclass(frozen=True)
class TextView:
    """Lines of text, scrolled with UP/DOWN (long lines are wrapped to the panel)."""

    title: str
    lines: tuple[str, ...]
    offset: int = 0
    status: str = ""
    alert: bool = False  # an error: drawn with the title inverted


@dataclass(frozen=True)
class BusyView:
    """Work under way (scanning, thinking): a message and a spinner or a progress bar."""

    title: str
    message: str
    tick: int = 0
    progress: float | None = None
    status: str = ""


View = MenuView | TextView | BusyView


@dataclass(frozen=True)
class Status:
    """The status line: the game, the player, and work in progress."""

    game: str = ""
    player: str = ""
    work: str = ""
    extra: tuple[str, ...] = field(default_factory=tuple)

    def text(self) -> str:
        return "  ".join(p for p in (self.game, self.player, self.work, *self.extra) if p)
