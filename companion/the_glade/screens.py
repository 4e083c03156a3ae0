"""The Glade at the table: the service's pages for a game in progress.

Each turn the player acts and presses OK on "Rule my placement": the camera takes the board,
the recogniser reads it, and the arbiter compares it with that player's last accepted forest.
The screen says LEGAL or the broken rule in one sentence, and what the placement earned (sets of
3 and 4, enclosures, counters to move). OK accepts the reading into the game record (saved at
once, power-cut safe); BACK rejects it. Squares the recogniser is not sure of are named, and the
players retake the photo. Claims and extra actions, which the camera cannot see on the glade
board, are entered from short menus.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from companion.devices.buttons import Key
from companion.errors import CompanionError, DeviceError, StateError
from companion.session import Session, SessionStore
from companion.ui.pages import (
    BACK,
    Choice,
    LiveMenuPage,
    MenuPage,
    Outcome,
    Page,
    Pop,
    Replace,
    TextPage,
)
from companion.ui.task import Progress, TaskPage

#: The colours players take, in seat order (the box's four player colours).
COLOURS = ("yellow", "blue", "red", "green")


def model_for(ctx: Any) -> Any:
    """The recognition model named by ``games.the-glade.model``, loaded once."""
    from companion.the_glade.recognition.model import load_model

    path = ctx.settings["games"]["the-glade"].get("model")
    if not path:
        raise CompanionError("The Glade needs a model of your copy: run 'companion enrol "
                             "the-glade PACK --out MODEL', then set games.the-glade.model")
    key = ("the-glade-model", str(path))
    if key not in ctx.cache:
        ctx.cache[key] = load_model(Path(path).expanduser())
    return ctx.cache[key]


def scan_forest(ctx: Any, photo: Any) -> dict[str, Any]:
    """What lies on the board in ``photo``: the spec's scan JSON."""
    from companion.the_glade.recognition.reader import read_board

    return read_board(model_for(ctx), photo).result()


def restore(session: Session, ctx: Any) -> Any:
    """The tracker for ``session``: from its last accepted state, or a new game."""
    from companion.the_glade.names import BoardGeometry
    from companion.the_glade.state_file import load_state
    from companion.the_glade.tracker import Game

    if session.current is not None:
        return Game(load_state(session.current, strict=False))
    options = ctx.settings["games"]["the-glade"]
    geometry = BoardGeometry.from_dict(options["board"])
    variant = session.variant
    if variant == "solo" or len(session.players) < 2:
        raise CompanionError("the solo game cannot be followed at the table yet: score it with "
                             "'companion score the-glade STATE'; choose 2-4 players here")
    seats = [(name, COLOURS[i]) for i, name in enumerate(session.players)]
    return Game.new(seats, variant=variant, geometry=geometry)


def save(ctx: Any, session: Session, game: Any) -> None:
    from companion.the_glade.state_file import dump_state

    session.accept(dump_state(game.state))
    SessionStore(ctx.data_dir).save(session)


def play_page(ctx: Any, session: Session) -> Page:
    """The registry's hook: the page for a game of The Glade in progress."""
    return TurnPage(ctx, session, restore(session, ctx))


class Watcher:
    """Auto-capture: frames taken one at a time on a worker thread while the turn page is up;
    a still scene that differs from the last reading is handed over for a ruling."""

    def __init__(self, camera: Any, still_frames: int) -> None:
        from companion.vision.stillness import StillnessDetector

        self.camera = camera
        self.detector = StillnessDetector(still_frames=still_frames)
        self.future: Future[Any] | None = None
        self.primed = False  # the first still scene is the board as it stands: no ruling

    def poll(self) -> Any:
        """The photo to rule on, once the scene is still and new; else None."""
        if self.future is None:
            self.future = _POOL.submit(self.camera.capture)
            return None
        if not self.future.done():
            return None
        future, self.future = self.future, None
        try:
            frame = future.result()
        except CompanionError:
            return None  # a failing camera: the manual "Rule my placement" says why
        if not self.detector.update(frame):
            return None
        if not self.primed:
            self.primed = True
            return None
        return frame

    def seen(self, photo: Any) -> None:
        """``photo`` was ruled on: only a change from it starts the next ruling."""
        self.detector.reset(captured=photo)
        self.primed = True


_POOL = ThreadPoolExecutor(max_workers=1, thread_name_prefix="auto-capture")


class TurnPage(LiveMenuPage):
    """Whose turn it is, and what they can do now."""

    def __init__(self, ctx: Any, session: Session, game: Any) -> None:
        self.ctx, self.session, self.game = ctx, session, game
        super().__init__()
        camera_settings = ctx.settings.get("camera", {})
        self.watcher = (Watcher(ctx.camera, camera_settings.get("still_frames", 3))
                        if camera_settings.get("auto_capture") and ctx.camera is not None
                        else None)
        self.refresh()

    @property
    def busy(self) -> bool:  # type: ignore[override]
        """Watching the table (auto-capture) while a placement may come."""
        return (self.watcher is not None and not self.game.finished
                and self.game.phase in ("action", "extra"))

    def tick(self) -> Outcome:
        if not self.busy or self.watcher is None:
            return None
        photo = self.watcher.poll()
        if photo is None:
            return None
        self.watcher.seen(photo)
        player = self.game.current
        return TaskPage("Scanning", f"Reading {player}'s forest...",
                        lambda progress: self._read(progress, player, photo))

    def current(self) -> tuple[str, list[Choice]]:
        g = self.game
        # the status line: game, round, whose turn (and the last round when it has begun)
        title = f"Glade R{g.state.round} {g.current}" + (" last" if g.state.end_triggered
                                                          else "")
        choices = []
        if g.finished:
            choices.append(Choice("Final score", self._final))
        else:
            if g.phase in ("action", "extra"):
                choices.append(Choice("Rule my placement", self._rule))
                if g.state.glade:
                    choices.append(Choice("Claim a toadstool", self._claim))
            if g.phase == "done" and g.extra_options():
                choices.append(Choice("Extra action", self._extra))
            choices.append(Choice("End turn", self._end_turn))
            choices.append(Choice("Score so far", self._final))
        choices.append(Choice("Leave (saved)", lambda: BACK))
        return title, choices

    # --- placements ------------------------------------------------------------------------

    def _rule(self) -> Page:
        player = self.game.current
        return TaskPage("Scanning", f"Reading {player}'s forest...",
                        lambda progress: self._read(progress, player))

    def _read(self, progress: Progress, player: str, photo: Any = None) -> Page:
        from companion.the_glade.placement import placed_between, rule_placement
        from companion.the_glade.state_file import load_forest

        if photo is None:
            camera = self.ctx.camera
            if camera is None:
                raise DeviceError("no camera is configured: set camera.source")
            from companion.calibration.capture import capture_still

            progress.update(0.2, "Taking the photo...")
            frames = int(self.ctx.settings.get("camera", {}).get("average_frames", 1))
            photo, _averaged = capture_still(camera, frames)
            if self.watcher is not None:
                self.watcher.seen(photo)
        progress.update(0.5, "Reading the board...")
        result = scan_forest(self.ctx, photo)
        before = self.game.state.player(player).forest
        forest, kept, unsure = settle_uncertain(result, before)
        if unsure:
            return TextPage("Not sure", [f"Not sure of {', '.join(unsure)}: clear glare or "
                                         "hands and retake.", "OK: back"], alert=True)
        after = load_forest(forest, before.geometry, "scan")
        try:
            placed = placed_between(before, after)
        except StateError as exc:
            return TextPage("Board changed", [f"{exc}. Check the board and retake.",
                                              "OK: back"], alert=True)
        if not placed:
            return TextPage("Nothing new", ["No new tiles on the board since the last "
                                            "accepted state.", "OK: back"])
        extra = third_copies(self.game.state, placed)
        if extra:
            return TextPage("Check the board", [
                f"The photo shows a third {extra[0]}, but the game has only 2 of each tile: "
                "check the board and retake.", "OK: back"], alert=True)
        ruling = rule_placement(before, placed)
        return RulingPage(self, player, ruling, kept)

    # --- claims and extra actions -----------------------------------------------------------

    def _claim(self) -> Page:
        choices = [Choice(space_label(t), lambda t=t: self._claim_tile(t))
                   for t, _c in sorted(self.game.state.glade.items())]
        return MenuPage("Claim which space?", choices)

    def _claim_tile(self, tile: Any) -> Outcome:
        board, squares, _completes = self.game.claim_squares(tile)
        if len(squares) <= 1:
            return self._do_claim(tile, squares[0] if squares else None, pages=1)
        return MenuPage(f"Tile on {board}'s", [
            Choice(f"square {sq.name}", lambda sq=sq: self._do_claim(tile, sq, pages=2))
            for sq in squares])

    def _do_claim(self, tile: Any, square: Any, pages: int) -> Outcome:
        """Claim, then show what moved; OK returns past the ``pages`` menus to the turn."""
        outcome = self.game.claim(tile, square)
        save(self.ctx, self.session, self.game)
        return Replace(TextPage("Claimed", outcome_lines(outcome), on_ok=lambda: Pop(pages)))

    def _extra(self) -> Page:
        choices = [Choice(f"{token} in {sq.name}", lambda t=token, s=sq: self._do_extra(t, s))
                   for token, sq in self.game.extra_options()]
        return MenuPage("Extra action", choices)

    def _do_extra(self, token: Any, square: Any) -> Outcome:
        self.game.extra_action(token, square)
        save(self.ctx, self.session, self.game)
        return BACK

    # --- turns and the end ------------------------------------------------------------------

    def _end_turn(self) -> Outcome:
        self.game.end_turn()
        save(self.ctx, self.session, self.game)
        if self.game.finished:
            return self._final()
        return None

    def _final(self) -> Page:
        from companion.the_glade.scoring import score_game
        from companion.ui.game_over import game_over_menu
        from companion.ui.pages import score_lines

        data = score_game(self.game.state).to_dict()
        if not self.game.finished:
            return TextPage("Score so far", score_lines(data, final=False))
        over = game_over_menu(self.ctx, "the-glade", data, back=3, end_session=True,
                              message="The game is in the history.")
        return TextPage("Final score", score_lines(data), on_ok=lambda: Replace(over))


def settle_uncertain(result: dict[str, Any], before: Any,
                     ) -> tuple[dict[str, Any], list[str], list[str]]:
    """The scanned forest with doubtful squares settled by the rules where they can be.

    A square the recogniser is not sure of but that held a tile or a counter in the last
    accepted state keeps it: tiles never move and nothing is placed on a counter. The players
    see those squares named on the ruling and confirm by accepting it. Doubtful squares that
    were empty could hold a new tile: those need a retake. Returns the forest, the squares kept
    and the squares still unsure.
    """
    from companion.the_glade.names import Counter, Square

    tiles = dict(result["forest"]["tiles"])
    counters = dict(result["forest"]["counters"])
    kept, unsure = [], []
    for name in result["uncertain"]:
        square = Square.parse(name)
        if square in before.tiles:
            tiles[name] = str(before.tiles[square])
            kept.append(name)
        elif isinstance(before.counters.get(square), Counter):
            counters[name] = str(before.counters[square])
            kept.append(name)
        else:
            unsure.append(name)
    return {"tiles": tiles, "counters": counters}, kept, unsure


def third_copies(state: Any, placed: dict[Any, Any]) -> list[str]:
    """Tiles that ``placed`` would put on the boards a third time (a misreading, since the box
    holds two of each): refused before any ruling, as the state file would refuse them."""
    from collections import Counter as Tally

    counts = Tally(t for p in state.players for t in p.forest.tiles.values())
    counts.update(placed.values())
    return [str(t) for t, n in sorted(counts.items()) if n > 2]


#: Leaf colours as two letters, so a glade space fits one line of the panel.
LEAF_CODES = {"beech": "LG", "horse-chestnut": "DG", "maple": "LB", "oak": "DB"}


def space_label(tile: Any) -> str:
    """A glade space as players find it: colour code, creature, fruit ("DB toad acorn")."""
    return f"{LEAF_CODES[tile.leaf]} {tile.creature} {tile.fruit}"


def outcome_lines(outcome: Any) -> list[str]:
    """What an action did, one short line per counter moved."""
    lines = []
    for event in outcome.events:
        d = event.to_dict()
        if "flip" in d:
            lines.append(f"Flip {d['flip']} at {d['at']}")
        else:
            lines.append(f"{d['counter']}: {d['from']} to {d['to']}")
    return lines or ["No counters move."]


def ruling_lines(ruling: Any) -> list[str]:
    """LEGAL and what it earns, or every broken rule, in players' words."""
    if not ruling.legal:
        return ["ILLEGAL", *[v.message for v in ruling.violations]]
    lines = ["LEGAL"]
    for s in ruling.sets_of_3:
        lines.append(f"Set of 3 ({', '.join(q.name for q in s.squares)}): {s.side} counter "
                     f"on {s.missing}")
    for s in ruling.sets_of_4:
        lines.append(f"Set of 4 ({', '.join(q.name for q in s.squares)}): {s.added} added")
    for sq in ruling.enclosures:
        lines.append(f"New enclosure {sq.name}")
    if len(lines) == 1:
        lines.append("No set of 3 or 4: the action ends.")
    return lines


class RulingPage(TextPage):
    """The arbiter's ruling. Legal: OK accepts into the record, BACK rejects. Illegal: OK or
    BACK returns, nothing recorded."""

    def __init__(self, turn: TurnPage, player: str, ruling: Any,
                 kept: list[str] | None = None) -> None:
        self.turn, self.player, self.ruling = turn, player, ruling
        lines = ruling_lines(ruling)
        if kept:
            lines.append(f"Not sure of {', '.join(kept)}: kept as accepted before "
                         "(tiles never move)")
        lines.append("OK: accept  BACK: reject" if ruling.legal else "OK: back")
        super().__init__(f"{player}: {'legal' if ruling.legal else 'illegal'}", lines,
                         alert=not ruling.legal)

    def handle(self, key: Key) -> Outcome:
        if key is Key.OK and self.ruling.legal:
            outcome = self.turn.game.place(dict(self.ruling.placed), player=self.player)
            save(self.turn.ctx, self.turn.session, self.turn.game)
            return Replace(TextPage("Accepted", outcome_lines(outcome)))
        if key in (Key.OK, Key.BACK):
            return BACK
        return super().handle(key)
