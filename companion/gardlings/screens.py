"""Gardlings at the table: rounds on the OLED and three buttons.

Labels fit the 128x64 screen (about 19 characters): ``*Maria: 9g, alarm`` (``*`` marks
the start player), ``blue-2: 7, 3c +coin`` (a stack, its cost, the coins it takes, its reward
coin).

Building happens on the table; the companion follows the rest. Each round the players'
gardens are entered from short menus (gems counted, the alarm, 3+ lucky piglets, ponds in the
expert variant), then hiring goes round from the start player: the screen shows each one's
gems after the gnomes' theft, coins and money, and lists what can be bought, a lucky piglet
and a coin, or nobody; the market and coins follow, every step is saved at once, and the
victory tile ends the game with its score sheet (a solo game's result by tiles used). The
record and its rules are :mod:`companion.gardlings.table`; this module only shows them.
"""

from __future__ import annotations

from typing import Any

from companion.gardlings import table as tb
from companion.session import Session, SessionStore
from companion.ui.pages import BACK, Choice, LiveMenuPage, MenuPage, Outcome, Page, TextPage

MOST_GEMS = 60


def play_page(ctx: Any, session: Session) -> Page:
    """The registry's hook: a new table record, or go on with the saved one."""
    if session.current is None:
        settings = ctx.settings["games"]["gardlings"]
        record = tb.new_table(list(session.players),
                              "expert" if session.variant == "expert" else "basic",
                              long_game=settings["long_game"], catalogue=settings["catalogue"])
        save(ctx, session, record)
    return RoundPage(ctx, session)


def save(ctx: Any, session: Session, record: dict[str, Any]) -> None:
    """Keep the record (power-cut safe)."""
    session.accept(record)
    SessionStore(ctx.data_dir).save(session)


def market_lines(record: dict[str, Any]) -> list[str]:
    """The market in words: tiles left per stack (reward coins marked), piglets left."""
    stacks = record["market"]["stacks"]
    lines = []
    for colour in ("green", "blue", "pink", "gold"):
        parts = []
        for n in (1, 2):
            s = stacks.get(f"{colour}-{n}", {"tiles": 0})
            parts.append(f"{s['tiles']}{'+c' if s.get('coin') else ''}")
        lines.append(f"{colour}: {' / '.join(parts)}")
    lines.append(f"piglets: {record['market']['piglets']}")
    lines.append("+c: its reward coin is still there")
    return lines


class RoundPage(LiveMenuPage):
    """A round: enter each garden, then hire in turn; the market; leave (saved)."""

    def __init__(self, ctx: Any, session: Session) -> None:
        self.ctx, self.session = ctx, session
        super().__init__()
        self.refresh()

    @property
    def record(self) -> dict[str, Any]:
        return tb.check_table(self.session.current)

    def current(self) -> tuple[str, list[Choice]]:
        record = self.record
        if record["phase"] == tb.OVER:
            return "Game over", [Choice("Final score", self._final),
                                 Choice("Leave (saved)", lambda: BACK)]
        choices: list[Choice] = []
        if record["phase"] == tb.BUILD:
            title = f"Round {record['round']}: gardens"
            for i, p in enumerate(record["players"]):
                entry = p["entry"]
                said = "enter" if entry is None else \
                    f"{entry['gems']}g" + (", alarm" if entry["alarm"] else "")
                marker = "*" if i == record["start_player"] else ""
                choices.append(Choice(f"{marker}{p['name']}: {said}",
                                      lambda i=i: EntryPage(self, i)))
            if all(p["entry"] for p in record["players"]):
                choices.append(Choice("Done: hiring", self._end_building))
        else:
            seat = record["to_hire"][0]
            p = record["players"][seat]
            m = tb.money(record, seat)
            title = f"{p['name']}: {m['total']}g {m['coins']}c = {m['money']}"
            for b in m["buy"]:
                extra = f", {b.coins_spent}c" if b.coins_spent else ""
                reward = " +coin" if b.reward else ""
                choices.append(Choice(f"{b.stack}: {b.cost}{extra}{reward}",
                                      lambda s=b.stack: self._hire(s)))
            if m["piglet"]:
                choices.append(Choice("Lucky piglet + coin", lambda: self._hire("piglet")))
            choices.append(Choice("Hire nobody", lambda: self._hire("pass")))
        choices.append(Choice("Market", lambda: TextPage("Market", market_lines(record))))
        choices.append(Choice("Leave (saved)", lambda: BACK))
        return title, choices

    def update(self, record: dict[str, Any]) -> None:
        save(self.ctx, self.session, record)

    def _end_building(self) -> Outcome:
        record = tb.end_building(self.record)
        self.update(record)
        if record["phase"] == tb.OVER:
            return self._final()
        return None

    def _hire(self, choice: str) -> Outcome:
        before = self.record
        seat = before["to_hire"][0]
        mutate = tb.money(before, seat)["mutate"]
        self.update(tb.hire(before, choice))
        options = tb.mutation_options(self.record) if mutate else []
        if options:  # 3+ lucky piglets (expert): one mutates, and the market follows it
            return MenuPage("Piglet mutates:", [
                Choice(f"{back} -> {stack}", lambda b=back, t=stack: self._mutate(b, t))
                for back, stack in options])
        return None

    def _mutate(self, back: str, stack: str) -> Outcome:
        self.update(tb.mutate(self.record, back, stack))
        return BACK

    def _final(self) -> Page:
        from companion.ui.game_over import final_score_page

        return final_score_page(self.ctx, "gardlings", tb.score_sheet(self.record))


class EntryPage(LiveMenuPage):
    """One player's garden this round: gems, the alarm, 3+ lucky piglets, ponds (expert)."""

    def __init__(self, round_page: RoundPage, seat: int) -> None:
        self.round_page, self.seat = round_page, seat
        entry = round_page.record["players"][seat]["entry"] or {}
        self.gems = int(entry.get("gems", 0))
        self.alarm = bool(entry.get("alarm", False))
        self.piglets = bool(entry.get("piglets", False))
        self.ponds = int(entry.get("ponds", 0))
        super().__init__()
        self.refresh()

    def refresh(self) -> None:
        """As :meth:`LiveMenuPage.refresh`, but the cursor stays where it was when a value
        changes (toggling the alarm leaves it on the alarm)."""
        keep = self.selected
        super().refresh()
        if keep < len(self.choices):
            self.selected = keep

    def current(self) -> tuple[str, list[Choice]]:
        record = self.round_page.record
        name = record["players"][self.seat]["name"]
        choices = [
            Choice(f"Gems: {self.gems}", lambda: NumberPage(
                "Gems (all kinds)?", self.gems, MOST_GEMS, self._set_gems)),
            Choice(f"Gnome alarm: {'yes' if self.alarm else 'no'}", self._toggle_alarm),
            Choice(f"3+ piglets: {'yes' if self.piglets else 'no'}",
                   self._toggle_piglets),
        ]
        if record["variant"] == "expert":
            choices.append(Choice(f"Ponds: {self.ponds}", lambda: NumberPage(
                "Ponds?", self.ponds, 12, self._set_ponds)))
        choices.append(Choice("Done", self._done))
        return name, choices

    def _set_gems(self, value: int) -> Outcome:
        self.gems = value
        return BACK

    def _set_ponds(self, value: int) -> Outcome:
        self.ponds = value
        return BACK

    def _toggle_alarm(self) -> Outcome:
        self.alarm = not self.alarm
        return None

    def _toggle_piglets(self) -> Outcome:
        self.piglets = not self.piglets
        return None

    def _done(self) -> Outcome:
        record = tb.enter(self.round_page.record, self.seat, gems=self.gems, alarm=self.alarm,
                          piglets=self.piglets, ponds=self.ponds)
        self.round_page.update(record)
        return BACK


class NumberPage(MenuPage):
    """A number from 0 to ``most``, starting at ``value``; OK chooses."""

    def __init__(self, title: str, value: int, most: int, chosen: Any) -> None:
        super().__init__(title, [Choice(str(n), lambda n=n: chosen(n))
                                 for n in range(most + 1)])
        self.selected = min(max(value, 0), most)


__all__ = ["EntryPage", "NumberPage", "RoundPage", "market_lines", "play_page"]
