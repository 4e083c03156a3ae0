"""Meadow at the table: the OLED flow that follows a game's rounds and runs Rover's side.

The players tell the companion, from short menus, where each path token went, each card
played (it rules on the play first: legal, or why not, in one line each), and each bonus
token placed. In a solo game it runs Rover: which token Rover flips, the notch it goes to and
the spot of the card Rover takes (then asks that card's points, to keep Rover's score). Every
step is saved at once; the end of the last round gives the score sheet (Rover's score and the
result table's words for a solo game), which the service saves to the history.
"""

from __future__ import annotations

import random
from typing import Any

from companion.session import Session, SessionStore
from companion.ui.pages import (
    BACK,
    TO_FLOW_ROOT,
    Choice,
    LiveMenuPage,
    MenuPage,
    Outcome,
    Page,
    Replace,
    TextPage,
    error_page,
)


def _cat(ref: str | None) -> Any:
    """The catalogue a game plays with: its path, or ``sample``/None for the SAMPLE one."""
    from companion.meadow.catalogue import load_catalogue

    return load_catalogue(None if ref in (None, "sample") else ref)


def _configured(ctx: Any) -> str | None:
    """``games.meadow.catalogue``: the players' own catalogue (None: the SAMPLE one)."""
    return ctx.settings.get("games", {}).get("meadow", {}).get("catalogue")


def play_page(ctx: Any, session: Session) -> Page:
    """The registry's hook: a new game (starting cards first), or go on with the saved one."""
    from companion.meadow.table import TableGame

    if session.current is None:
        return StartPage(ctx, session)
    return TurnPage(ctx, session, TableGame.from_dict(session.current))


def new_seed() -> int:
    """The seed of Rover's shuffles for a new game (tests fix it)."""
    return random.SystemRandom().randrange(10 ** 9)


def save(ctx: Any, session: Session, game: Any) -> None:
    session.accept(game.to_dict())
    SessionStore(ctx.data_dir).save(session)


class StartPage(MenuPage):
    """Each player's starting ground card, side up (one menu per player)."""

    def __init__(self, ctx: Any, session: Session) -> None:
        self.ctx, self.session = ctx, session
        self.names = list(session.players or ["Player 1"])[:4]
        self.starts: list[str] = []
        super().__init__("", [])
        self._ask()

    def _ask(self) -> None:
        cat = _cat(_configured(self.ctx))
        taken = {s for c in self.starts for s in (c, cat.cards[c].other_side)}
        sides = [c for c in cat.cards.values() if c.starting and c.id not in taken]
        self.title = f"{self.names[len(self.starts)]}: start card?"
        self.choices = [Choice(f"{c.id} {c.ground} {' '.join(c.symbols)}",
                               lambda c=c.id: self._chosen(c)) for c in sides]
        self.selected = 0

    def _chosen(self, card: str) -> Outcome:
        from companion.meadow.table import new_table

        self.starts.append(card)
        if len(self.starts) < len(self.names):
            self._ask()
            return None
        game = new_table(_cat(_configured(self.ctx)), self.names, self.starts, new_seed())
        save(self.ctx, self.session, game)
        return Replace(TurnPage(self.ctx, self.session, game))


class TurnPage(LiveMenuPage):
    """The game's turn: Rover's news, the token placed, a play to rule on, a bonus token."""

    def __init__(self, ctx: Any, session: Session, game: Any) -> None:
        self.ctx, self.session, self.game = ctx, session, game
        self.told = len(game.log)
        super().__init__()
        self.refresh()

    def _set(self, game: Any) -> None:
        self.game = game
        save(self.ctx, self.session, game)

    def current(self) -> tuple[str, list[Choice]]:
        g = self.game
        area = g.areas[g.seat]
        title = f"R{g.round}/{g.rounds} {area.name} {_points(g)}p"
        if g.over:
            return "Game over", [Choice("Final score", self._final),
                                 Choice("Leave (saved)", lambda: BACK)]
        choices = []
        if len(g.log) > self.told or g.log:
            choices.append(Choice("Rover/news", self._news))
        if g.rover_pending:
            choices.append(Choice("Rover's card points", self._rover_points))
        elif g.placed:
            choices.append(Choice("End turn", self._end_turn))
        else:
            choices.append(Choice("Token placed", self._token))
        choices += [Choice("Play a card", self._play), Choice("Bonus token", self._bonus),
                    Choice("Meadow", self._meadow), Choice("Score so far", self._final),
                    Choice("Leave (saved)", lambda: BACK)]
        return title, choices

    def _news(self) -> Page:
        self.told = len(self.game.log)
        return TextPage("News", list(self.game.log[-6:]) or ["Nothing yet."])

    def _rover_points(self) -> Page:
        from companion.meadow.table import rover_card

        def chosen(points: int | None) -> Outcome:
            self._set(rover_card(self.game, points))
            return TO_FLOW_ROOT

        return MenuPage("Rover's card: points?", [
            Choice("spot was empty", lambda: chosen(None)),
            *(Choice(f"{p} point{'' if p == 1 else 's'}", lambda p=p: chosen(p))
              for p in range(10))])

    def _token(self) -> Page:
        from companion.meadow.table import token_placed

        def chosen(notch: str) -> Outcome:
            self._set(token_placed(self.game, _cat(self.game.catalogue), notch))
            return TO_FLOW_ROOT

        free = self.game.free_notches(_cat(self.game.catalogue))
        return MenuPage("Which notch?", [Choice(n, lambda n=n: chosen(n)) for n in free])

    def _end_turn(self) -> Outcome:
        from companion.meadow.table import end_turn

        before = len(self.game.log)
        self._set(end_turn(self.game, _cat(self.game.catalogue)))
        news = list(self.game.log[before:])
        self.told = len(self.game.log)
        return TextPage("Next", news) if news else None

    def _play(self) -> Page:
        cat = _cat(self.game.catalogue)
        played = {c for a in self.game.areas for c in a.played()}
        decks = ["N", "W", "S", "E"]
        return MenuPage("Card's deck?", [Choice(d, lambda d=d: CardPage(self, d, played))
                                        for d in decks if any(c.deck == d for c in
                                                              cat.cards.values())])

    def _bonus(self) -> Outcome:
        from companion.errors import StateError
        from companion.meadow.table import bonus_placed

        try:
            self._set(bonus_placed(self.game))
        except StateError as exc:
            return error_page(str(exc))
        return None

    def _meadow(self) -> Page:
        from companion.meadow.meadow import visible

        g = self.game
        area = g.areas[g.seat]
        seen = visible(area, _cat(self.game.catalogue))
        lines = [f"{i + 1}: {'+'.join(col)}" for i, col in enumerate(area.meadow)]
        lines.append("Sees: " + " ".join(f"{k}{v if v > 1 else ''}"
                                         for k, v in sorted(seen.items())))
        lands = " ".join(s.card + (f"+{s.discovery}" if s.discovery else "")
                         for s in area.surroundings)
        lines.append(f"Roads {area.roads_unused}; lands {lands or '-'}")
        return TextPage(area.name, lines)

    def _final(self) -> Page:
        from companion.meadow.table import table_sheet
        from companion.ui.game_over import final_score_page
        from companion.ui.pages import score_lines

        sheet = table_sheet(self.game, _cat(self.game.catalogue))
        if self.game.over:
            return final_score_page(self.ctx, "meadow", sheet)
        return TextPage("Score so far", score_lines(sheet, final=False))


def _points(game: Any) -> int:
    from companion.meadow.scoring import area_score

    return int(area_score(game.areas[game.seat], _cat(game.catalogue))["total"])


class CardPage(MenuPage):
    """Which card of a deck was played (the cards not in play yet)."""

    def __init__(self, turn: TurnPage, deck: str, played: set[str]) -> None:
        cat = _cat(turn.game.catalogue)
        self.turn = turn
        cards = [c for c in cat.cards.values() if c.deck == deck and c.id not in played]
        super().__init__(f"{deck} card?", [Choice(f"{c.id} {c.name}",
                                                  lambda c=c.id: self._where(c))
                                           for c in cards])

    def _where(self, card: str) -> Page:
        from companion.meadow.requirements import candidate_places

        cat = _cat(self.turn.game.catalogue)
        area = self.turn.game.areas[self.turn.game.seat]
        places = candidate_places(area, cat.cards[card])
        if not places:
            return self._discards(card, None)
        return MenuPage("Where?", [Choice(p.words(), lambda p=p: self._discards(card, p))
                                   for p in places])

    def _discards(self, card: str, place: Any) -> Page:
        return MenuPage("Discarded?", [Choice(f"{n} cards", lambda n=n: self._rule(card, place, n))
                                       for n in (0, 2, 4, 6)])

    def _rule(self, card: str, place: Any, discards: int) -> Page:
        from companion.meadow.table import keep_play, rule

        game = self.turn.game
        cat = _cat(game.catalogue)
        if place is None:
            return error_page(f"{card} has no place of its kind here (no landscape, or no "
                              "column).")
        ruling = rule(game, cat, card, place, discards)
        if ruling.legal:
            covers = f"Covers {', '.join(ruling.covers)}." if ruling.covers else ""

            def keep() -> Outcome:
                self.turn._set(keep_play(game, cat, card, place, discards))
                return TO_FLOW_ROOT

            return TextPage("Legal", [f"{card} {place.words()}: legal.", covers,
                                      "OK: keep it; BACK: not played."], on_ok=keep)
        lines = [m for _c, m in ruling.violations]
        if ruling.fewest_discards is not None:
            lines.append(f"Legal with {ruling.fewest_discards} discards.")
        return TextPage("Not legal", lines, alert=True)


__all__ = ["CardPage", "StartPage", "TurnPage", "play_page"]
