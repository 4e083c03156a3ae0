"""The Glade at the table: what the game gives the service for a game in progress.

Each turn the player acts and presses OK on "Rule my placement" (or, with auto-capture, lets the
table go still): the service takes the photo and asks this module to read it
(:class:`ForestReader`: the photo to a forest reading, then the reading to a placement ruled on
against that player's last accepted forest). The service shows the ruling: LEGAL, or the broken
rule in one sentence, and what the placement earned (sets of 3 and 4, enclosures). OK accepts it
into the game record (saved at once, power-cut safe) and says, in words, which counters moved;
BACK rejects it. Squares the recogniser is not sure of are settled by the rules where they can
be (tiles never move); the others are named, and the players retake or keep the photo. Claims
and extra actions, which the camera cannot see on the glade board, are entered from short menus.

The service owns the camera, the worker threads, the model cache, "Retake or keep", the ruling's
screen and auto-capture (``companion.ui.capture``); this module only says what a photo of a
forest is (:func:`scan_forest`), what it means now (:meth:`ForestReader.decide`) and how the
game stands (:meth:`TurnPage.current`).
"""

from __future__ import annotations

from typing import Any

from companion.errors import CompanionError, StateError
from companion.games.interface import Ruling, Violation
from companion.session import Session, SessionStore
from companion.ui.capture import CaptureMenuPage, Decision, Doubts, Reader
from companion.ui.game_over import final_score_page
from companion.ui.pages import (
    BACK,
    TO_FLOW_ROOT,
    Choice,
    MenuPage,
    Outcome,
    Page,
    Replace,
    TextPage,
    score_lines,
)
from companion.ui.ruling import Proposal

#: The colours players take, in seat order (the box's four player colours).
COLOURS = ("yellow", "blue", "red", "green")

NO_MODEL = ("The Glade needs a model of your copy: run 'companion enrol the-glade PACK --out "
            "MODEL', then set games.the-glade.model")


def forest_model(ctx: Any) -> Any:
    """The recognition model named by ``games.the-glade.model``, from the service's cache."""
    from companion.the_glade.recognition.model import load_model

    return ctx.models.get(ctx.settings["games"]["the-glade"].get("model"), load_model,
                          missing=NO_MODEL)


def scan_forest(ctx: Any, photo: Any) -> dict[str, Any]:
    """The observer: what lies on the board in ``photo``, as the spec's scan JSON."""
    from companion.the_glade.recognition.reader import read_board

    return read_board(forest_model(ctx), photo).result()


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
    """The registry's ``flow``: the page for a game of The Glade in progress."""
    return TurnPage(ctx, session, restore(session, ctx))


class TurnPage(CaptureMenuPage):
    """Whose turn it is, and what they can do now."""

    def __init__(self, ctx: Any, session: Session, game: Any) -> None:
        self.session, self.game = session, game
        super().__init__(ctx)
        self.refresh()

    def watching(self) -> bool:
        """A placement may come from the table now."""
        return not self.game.finished and self.game.phase in ("action", "extra")

    def reader(self) -> Reader:
        return ForestReader(self, self.game.current)

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
                choices.append(Choice("Rule my placement", self.capture))
                if g.state.glade:
                    choices.append(Choice("Claim a toadstool", self._claim))
            if g.phase == "done" and g.extra_options():
                choices.append(Choice("Extra action", self._extra))
            choices.append(Choice("End turn", self._end_turn))
            choices.append(Choice("Score so far", self._final))
        choices.append(Choice("Leave (saved)", lambda: BACK))
        return title, choices

    # --- placements ------------------------------------------------------------------------

    def accept(self, player: str, placed: Any) -> Page:
        """The players accepted the ruling: place the tiles, save, say what moved."""
        outcome = self.game.place(dict(placed), player=player)
        save(self.ctx, self.session, self.game)
        return TextPage("Accepted", outcome_lines(outcome, self.game.state))

    # --- claims and extra actions -----------------------------------------------------------

    def _claim(self) -> Page:
        choices = [Choice(space_label(t), lambda t=t: self._claim_tile(t))
                   for t, _c in sorted(self.game.state.glade.items())]
        return MenuPage("Claim which space?", choices)

    def _claim_tile(self, tile: Any) -> Outcome:
        board, squares, _completes = self.game.claim_squares(tile)
        if len(squares) <= 1:
            return self._do_claim(tile, squares[0] if squares else None)
        return MenuPage(f"Tile on {board}'s", [
            Choice(f"square {sq.name}", lambda sq=sq: self._do_claim(tile, sq))
            for sq in squares])

    def _do_claim(self, tile: Any, square: Any) -> Outcome:
        """Claim, then show what moved; OK returns to the turn (past the claim's menus)."""
        outcome = self.game.claim(tile, square)
        save(self.ctx, self.session, self.game)
        return Replace(TextPage("Claimed", outcome_lines(outcome, self.game.state),
                                on_ok=lambda: TO_FLOW_ROOT))

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

        sheet = score_game(self.game.state).sheet(final=self.game.finished)
        if not self.game.finished:
            return TextPage("Score so far", score_lines(sheet))
        return final_score_page(self.ctx, "the-glade", sheet)


class ForestReader:
    """The Glade's part of a capture: a photo of the player's forest board, read and ruled on."""

    title = "Scanning"

    def __init__(self, turn: TurnPage, player: str) -> None:
        self.turn, self.player = turn, player
        self.message = f"Reading {player}'s forest..."

    def observe(self, photo: Any) -> dict[str, Any]:
        return scan_forest(self.turn.ctx, photo)

    def decide(self, observation: dict[str, Any], keep: bool = False) -> Decision:
        """The reading as a placement, ruled on; or why there is none to rule on."""
        from companion.the_glade.placement import placed_between, rule_placement
        from companion.the_glade.state_file import load_forest

        game = self.turn.game
        before = game.state.player(self.player).forest
        forest, kept, unsure = settle_uncertain(observation, before)
        if unsure and not keep:
            where = tuple(doubt_words(observation, square) for square in unsure)
            if where != tuple(unsure):  # a look-alike doubt: say what to look at
                return Doubts(where, "look at the tile there (the camera could not tell its "
                              "look-alikes apart), clear glare or hands", "as empty")
            return Doubts(tuple(unsure), "clear glare or hands", "as empty")
        notes = []
        if kept:
            notes.append(f"Not sure of {', '.join(kept)}: kept as accepted before "
                         "(tiles never move)")
        if unsure:
            notes.append(f"Not sure of {', '.join(unsure)}: kept as empty")
        after = load_forest(forest, before.geometry, "scan")
        try:
            placed = placed_between(before, after)
        except StateError as exc:
            return TextPage("Board changed", [f"{exc}. Check the board and retake.",
                                              "OK: back"], alert=True)
        if not placed:
            return TextPage("Nothing new", ["No new tiles on the board since the last "
                                            "accepted state.", "OK: back"])
        extra = third_copies(game.state, placed)
        if extra:
            return TextPage("Check the board", [
                f"The photo shows a third {extra[0]}, but the game has only 2 of each tile: "
                "check the board and retake.", "OK: back"], alert=True)
        ruling = rule_placement(before, placed)
        return Proposal(self.player, placement_ruling(ruling),
                        lambda: self.turn.accept(self.player, ruling.placed), tuple(notes))


def doubt_words(result: dict[str, Any], square: str) -> str:
    """``square`` as the players are told to look at it: "E4", or for a look-alike doubt
    what it hesitates between, "E4 (acorn or blackberry?)" (the scan's ``candidates``)."""
    pair = result.get("candidates", {}).get(square)
    if not pair or len(pair) != 2:
        return square
    a, b = (str(p) for p in pair)
    differ = [(x, y) for x, y in zip(a.split("/"), b.split("/"), strict=False) if x != y]
    if "/" in a and len(differ) == 1:
        return f"{square} ({differ[0][0]} or {differ[0][1]}?)"
    return f"{square} ({a} or {b}?)"


def settle_uncertain(result: dict[str, Any], before: Any,
                     ) -> tuple[dict[str, Any], list[str], list[str]]:
    """The scanned forest with doubtful squares settled by the rules where they can be.

    A square the recogniser is not sure of but that held a tile or a counter in the last
    accepted state keeps it: tiles never move and nothing is placed on a counter. The players
    see those squares named on the ruling and confirm by accepting it. Doubtful squares that
    were empty could hold a new tile: those need a retake (or the players keep them empty).
    Returns the forest, the squares kept and the squares still unsure.
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


def placement_ruling(ruling: Any) -> Ruling:
    """The arbiter's :class:`~companion.the_glade.placement.PlacementRuling` as the shared
    :class:`Ruling` the service shows: every broken rule, or what the placement creates, in
    players' words."""
    violations = tuple(Violation(v.rule, tuple(s.name for s in v.squares), v.message)
                       for v in ruling.violations)
    triggers: dict[str, Any] = {}
    sets_of_3 = [f"Set of 3 ({', '.join(q.name for q in s.squares)}): {s.side} counter on "
                 f"{s.missing}" for s in ruling.sets_of_3]
    sets_of_4 = [f"Set of 4 ({', '.join(q.name for q in s.squares)}): {s.added} added"
                 for s in ruling.sets_of_4]
    enclosures = [f"New enclosure {sq.name}" for sq in ruling.enclosures]
    for key, lines in (("sets_of_3", sets_of_3), ("sets_of_4", sets_of_4),
                       ("enclosures", enclosures)):
        if lines:
            triggers[key] = lines
    if not triggers:
        triggers["ends"] = "No set of 3 or 4: the action ends."
    return Ruling(ruling.placed, violations, triggers)


#: Leaf colours as two letters, so a glade space fits one line of the panel.
LEAF_CODES = {"beech": "LG", "horse-chestnut": "DG", "maple": "LB", "oak": "DB"}


def space_label(tile: Any) -> str:
    """A glade space as players find it: colour code, creature, fruit ("DB toad acorn")."""
    return f"{LEAF_CODES[tile.leaf]} {tile.creature} {tile.fruit}"


def place_words(ref: Any) -> str:
    """Where a counter lies, as players say it ("the glade space of hedgehog/acorn/oak")."""
    if ref.place == "glade":
        return f"the glade space of {ref.tile}"
    if ref.place == "supply":
        return f"{ref.player}'s supply"
    if ref.place == "store":
        return f"{ref.player}'s store"
    if ref.place == "forest":
        return f"{ref.player}'s enclosure {ref.square}"
    if ref.place == "pool":
        return "the pool of match counters"
    return f"the {ref.place}"


def counter_words(token: Any, state: Any) -> str:
    """A counter as players say it: "Toni's yellow double toadstool", "a leaf match counter
    worth 3"."""
    from companion.the_glade.names import Counter

    if isinstance(token, Counter):
        owner = state.owner_of(token.colour)
        whose = f"{owner.name}'s" if owner is not None else "the neutral"
        return f"{whose} {token.colour} {token.side} toadstool"
    return f"a {token.kind} match counter worth {token.value}"


def event_words(event: Any, state: Any) -> str:
    """One counter moved or flipped, in a sentence: "Toni's yellow double toadstool to the
    glade space of hedgehog/acorn/oak" (a counter from its owner's supply says no "from")."""
    from companion.the_glade.set_rewards import Flip

    if isinstance(event, Flip):
        owner = state.owner_of(event.colour)
        whose = f"{owner.name}'s" if owner is not None else "the neutral"
        text = (f"{whose} {event.colour} toadstool on {place_words(event.ref)} turns to its "
                "double side")
    else:
        owner = state.owner_of(getattr(event.token, "colour", ""))
        text = counter_words(event.token, state)
        if not (event.src.place == "supply" and owner is not None
                and event.src.player == owner.name):
            text += f" from {place_words(event.src)}"
        text += f" to {place_words(event.dst)}"
    return text[:1].upper() + text[1:]


def outcome_lines(outcome: Any, state: Any) -> list[str]:
    """What an action did, one sentence per counter moved (``state``: whose colour is whose)."""
    return [event_words(e, state) for e in outcome.events] or ["No counters move."]
