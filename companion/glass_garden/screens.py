"""Glass Garden at the table: the solo assistant on the OLED and three buttons.

The player deals the garden and tells the companion what lies where (the critter, then the plant
in each column). Each turn the companion can advise (the best two actions, what will grow, what
the critter will damage, and the best score still reachable, thinking on a worker thread with a
progress bar), and the player enters what they did, step by step, from short menus; every step
is saved at once (power-cut safe) and can be undone. The final score is the game's score sheet;
saving it to the history and leaving the game are the service's (``companion.ui.game_over``).

With a card model (``games.glass-garden.model``, made by ``companion enrol glass-garden``) the
camera follows the real table instead: *Photo* (and, with ``camera.auto_capture``, the table
going still after a change) reads the garden (:func:`scan_garden`). Cards the recogniser is
not sure of are named ("Not sure: column 3"): retake, or keep them as they lay before (named
again on the reading). The reading is shown with what in it the rules cannot explain since
the last accepted position (:func:`~companion.glass_garden.tracker.contradictions`, each
naming its cards); OK accepts it into the game (saved at once) and offers the advice from it,
BACK retakes the photo. The deal itself can be read the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.devices.buttons import Key
from companion.errors import StateError
from companion.session import Session, SessionStore
from companion.ui.capture import CaptureMenuPage, CaptureTask, Decision, Doubts, TableWatch
from companion.ui.pages import (
    BACK,
    Choice,
    MenuPage,
    Outcome,
    Page,
    Replace,
    TextPage,
)
from companion.ui.task import Progress, TaskPage

NO_MODEL = ("Photo needs a model of your cards: run 'companion enrol glass-garden PACK --out "
            "MODEL', then set games.glass-garden.model")


def deck_ref(ctx: Any) -> str:
    """The deck named by ``games.glass-garden.deck``, as a state file names it."""
    path = ctx.settings["games"]["glass-garden"].get("deck")
    return str(Path(path).expanduser().resolve()) if path else "sample"


def think_workers(ctx: Any) -> int:
    """The advice's searches at once (``think_workers``; 1 in settings made before it)."""
    return int(ctx.settings["games"]["glass-garden"].get("think_workers", 1))


def photo_enabled(ctx: Any) -> bool:
    """Whether the camera reads the garden here: a card model is configured."""
    return bool(ctx.settings["games"]["glass-garden"].get("model"))


def card_model(ctx: Any) -> Any:
    """The card model named by ``games.glass-garden.model``, from the service's cache."""
    from companion.glass_garden.recognition.enrol import GAME
    from companion.vision.cards.model import load_card_model

    return ctx.models.get(ctx.settings["games"]["glass-garden"].get("model"),
                          lambda path: load_card_model(path, GAME), missing=NO_MODEL)


def scan_garden(ctx: Any, photo: Any) -> dict[str, Any]:
    """The observer: the garden in ``photo`` as the spec's scan (a state file with
    ``uncertain``), naming the deck as the game at the table does."""
    from companion.glass_garden.recognition.jobs import read_photo, scan_deck

    model = card_model(ctx)
    deck_file = ctx.settings["games"]["glass-garden"].get("deck")
    deck, ref = scan_deck(model, Path(deck_file).expanduser() if deck_file else None)
    data: dict[str, Any] = read_photo(model, photo, deck, ref).data
    return data


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
        #: the turn page a deal read from a photo hands over to (on the next tick)
        self.ready: Page | None = None
        photo = [Choice("Photo of the deal", self._photo)] if photo_enabled(ctx) else []
        super().__init__("Which critter?", [*photo, *(
            Choice(c.name, lambda c=c.name: self._critter(c)) for c in self.deck.critters)])

    @property
    def busy(self) -> bool:  # type: ignore[override]
        """A deal read from a photo was accepted: hand over to its turn page."""
        return self.ready is not None

    def tick(self) -> Outcome:
        return Replace(self.ready) if self.ready is not None else None

    def view(self, status: str) -> Any:
        """Once handed over, the turn page is what is shown (not this menu, for a moment)."""
        return self.ready.view(status) if self.ready is not None else super().view(status)

    def _photo(self) -> Page:
        return CaptureTask(self.ctx, GardenReader(self.ctx, None, self._dealt))

    def _dealt(self, state: Any, reader: GardenReader) -> Page:
        from companion.glass_garden.tracker import GameTracker

        tracker = GameTracker(state)
        save(self.ctx, self.session, tracker)
        self.ready = TurnPage(self.ctx, self.session, tracker)
        return TextPage("Garden", [f"The deal, as read: {position_words(state)}.",
                                   "OK: to the turn"], on_ok=lambda: BACK)

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


class TurnPage(CaptureMenuPage):
    """The garden's turn: a photo of the garden, advice, entering a step, undo, the score."""

    def __init__(self, ctx: Any, session: Session, tracker: Any) -> None:
        self.session, self.tracker = session, tracker
        super().__init__(ctx)
        self.refresh()
        if think_workers(ctx) > 1 and not tracker.finished:
            from companion.glass_garden.portfolio import warm_up

            warm_up(think_workers(ctx))  # the advice's worker processes, ready when asked

    def watching(self) -> bool:
        """Auto-capture reads the garden while a model is set and the game goes on."""
        return photo_enabled(self.ctx) and not self.tracker.finished

    def reader(self) -> GardenReader:
        return GardenReader(self.ctx, self.tracker.state, self._follow, self.watch)

    def _follow(self, state: Any, reader: GardenReader) -> Page:
        """The players accepted a reading: the game follows it (saved at once, undoable);
        OK asks for advice from what the camera saw."""
        self.tracker.sync(state)
        save(self.ctx, self.session, self.tracker)
        if self.tracker.finished:
            return TextPage("Garden", [f"Following the photo: {position_words(state)}.",
                                       "OK: back"])
        return TextPage("Garden", [f"Following the photo: {position_words(state)}.",
                                   "OK: advice  BACK: menu"],
                        on_ok=lambda: Replace(self._advice()))

    def current(self) -> tuple[str, list[Choice]]:
        from companion.glass_garden.game import SUNLIGHT_TURN

        state = self.tracker.state
        when = "sun" if state.turn == SUNLIGHT_TURN else f"T{state.turn}"
        title = f"Garden {when} score {state.score()}"  # the status line
        if self.tracker.finished:
            choices = [Choice("Final score", self._final)]
        else:
            photo = [Choice("Photo", self.capture)] if photo_enabled(self.ctx) else []
            choices = [*photo, Choice("Advice", self._advice), Choice("Enter a step", self._steps)]
        if self.tracker.history:
            choices.append(Choice("Undo", self._undo))
        choices.append(Choice("Leave (saved)", lambda: BACK))
        return title, choices

    def _advice(self) -> Page:
        seconds = float(self.ctx.settings["games"]["glass-garden"]["think_seconds"])
        workers = think_workers(self.ctx)
        state = self.tracker.state

        def work(progress: Progress) -> Page:
            import time

            from companion.glass_garden.advice import best_turn_line
            from companion.glass_garden.jobs import advise
            from companion.glass_garden.solver import Advisor

            progress.update(None, f"Thinking (up to {seconds:.0f} s)...")
            # the search runs on; the best turn so far is shown as it improves
            advisor = Advisor(state, seconds, workers=workers)
            while advisor.running and not progress.cancelled.is_set():
                now = advisor.poll()
                if now is not None:
                    progress.update(min(1.0, now.seconds / seconds), best_turn_line(
                        state, now.plan.turns, now.plan.score, now.optimal))
                time.sleep(0.1)
            result = advisor.stop()
            from companion.glass_garden.jobs import SAMPLE_WARNING

            _data, lines = advise(state, seconds, result)
            # the panel shows four lines: the best turn first, the SAMPLE deck's note last
            if SAMPLE_WARNING in lines:
                lines = [line for line in lines if line != SAMPLE_WARNING] + [SAMPLE_WARNING]
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


# -- the camera follows the garden -----------------------------------------------------------

def position_words(state: Any) -> str:
    """Where the game stands, in a few words: "turn 4, score 7" or "sunlight, score 12"."""
    from companion.glass_garden.game import SUNLIGHT_TURN

    when = "sunlight" if state.turn == SUNLIGHT_TURN else f"turn {state.turn}"
    return f"{when}, score {state.score()}"


def garden_lines(state: Any) -> list[str]:
    """The garden as read, one short line per column (its number, the card, row and side up)
    and one for the glass: what the players compare with the table."""
    from companion.glass_garden.deck import GLASS_POSITIONS, ROWS
    from companion.glass_garden.garden import CRITTER

    g, deck = state.garden, state.deck
    lines = []
    for c, p in enumerate(g.cols):
        if p == CRITTER:
            lines.append(f"{c + 1} {state.table.critter.name} (critter)")
        else:
            side = "succ" if g.is_grown(p) else "soil"  # 20 characters: one line of the panel
            lines.append(f"{c + 1} {deck.plants[p].name[:9]} {ROWS[g.rows[p]][:3]} {side}")
    lit = [pos for i, pos in enumerate(GLASS_POSITIONS) if g.is_sunlit(i)]
    lines.append("Glass lit: " + (", ".join(lit) if lit else "none"))
    return lines


class ReadingPage(TextPage):
    """A garden read from a photo, waiting for the player's word: what in it the rules cannot
    explain since the last accepted position (each marked "!", the title says how many), what
    was kept from before, then the garden. OK accepts it (confirms it, when something is
    odd); BACK retakes the photo."""

    def __init__(self, reader: GardenReader, state: Any, odd: list[Any],
                 notes: tuple[str, ...] = ()) -> None:
        self.reader, self.state, self.odd = reader, state, tuple(odd)
        lines = [position_words(state)[:1].upper() + position_words(state)[1:]]
        lines.extend(f"! {c}" for c in odd)
        lines.extend(notes)
        lines.extend(garden_lines(state))
        lines.append("OK: confirm  BACK: retake" if odd else "OK: accept  BACK: retake")
        title = f"Photo: {len(odd)} odd" if odd else "Photo read"
        super().__init__(title, lines, alert=bool(odd))

    def handle(self, key: Key) -> Outcome:
        if key is Key.OK:
            return Replace(self.reader.accept(self.state, self.reader))
        if key is Key.BACK:
            return Replace(CaptureTask(self.reader.ctx, self.reader, watch=self.reader.watch))
        return super().handle(key)


class GardenReader:
    """Glass Garden's part of a capture: a photo of the garden, read, settled and checked
    against ``before`` (the last accepted position; None for the deal). ``accept(state,
    reader)`` takes a reading the player accepted and returns the page that says so."""

    title = "Photo"
    message = "Reading the garden..."

    def __init__(self, ctx: Any, before: Any, accept: Callable[[Any, GardenReader], Page],
                 watch: TableWatch | None = None) -> None:
        self.ctx, self.before, self.accept, self.watch = ctx, before, accept, watch

    def observe(self, photo: Any) -> dict[str, Any]:
        return scan_garden(self.ctx, photo)

    def decide(self, observation: dict[str, Any], keep: bool = False) -> Decision:
        """The reading to confirm, its doubtful cards named (retake or keep as before), or
        why it cannot be used."""
        from companion.glass_garden.state_file import parse_state
        from companion.glass_garden.tracker import (
            contradictions,
            follow_on,
            settle_reading,
            slot_words,
        )

        uncertain = list(observation.get("uncertain") or ())
        if uncertain and not keep:
            return Doubts(tuple(slot_words(u) for u in uncertain),
                          "clear glare or hands over those cards", "as before")
        notes: tuple[str, ...] = ()
        data = {k: v for k, v in observation.items() if k != "uncertain"}
        if uncertain:
            if self.before is None:
                return TextPage("Cannot keep", [
                    "Nothing was accepted before to keep those cards from: retake the photo "
                    "or enter the deal with the buttons.", "OK: back"], alert=True)
            data, kept, unsure = settle_reading(self.before, observation)
            if unsure:
                return TextPage("Cannot keep", [
                    f"Not sure of {', '.join(unsure)}, and the last accepted position cannot "
                    "say: retake the photo.", "OK: back"], alert=True)
            notes = (f"Kept as before: {', '.join(kept)}",)
        if self.before is not None:
            data = follow_on(self.before, data)
        try:
            state = parse_state(data)
        except StateError as exc:
            return TextPage("Not a garden", [f"The photo does not read as a garden ({exc}): "
                                             "check the cards and retake.", "OK: back"],
                            alert=True)
        if self.before is not None and state.deck != self.before.deck:
            return TextPage("Other deck", [
                "The model's cards are not the deck of this game: set games.glass-garden.deck "
                "to the deck the model was enrolled for.", "OK: back"], alert=True)
        odd = contradictions(self.before, state) if self.before is not None else []
        return ReadingPage(self, state, odd, notes)
