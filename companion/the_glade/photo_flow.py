"""The Glade at the table: score a finished game from photos (issue #25, "Score from photos").

Nobody tracked the game and nobody types it in: the service asks for a photo of the glade board,
then of each player's forest board with its store on the left, reads each on a worker thread
(the recognisers of ``companion scan the-glade --glade`` and the forest scan with its store),
and says at once what it read. Once every photo is in, the review shows the counters found per
player and every doubt that stops the score (:func:`companion.the_glade.photo_game.build_state`,
the same checks ``companion score the-glade --photos`` makes). Each doubt can be put right with
the buttons, as the players see it on the table: what lies on a glade space or a square the
recogniser was not sure of (the look-alikes it hesitated between are offered), what a thing in
a store it could not name is, where a counter the photos missed lies; or its photo retaken.
With no doubt left, the game is scored by the existing scorer and its score pad and winner
shown, and saved to the history.

Nothing the players entered is lost: the players, every reading and every fix are written
atomically to ``<data_dir>/photo-score.json`` as they happen; the game's menu offers to resume
it ("Score from photos (resume 2/4)") until the score is in the history or the players start
again. A file that cannot be read is moved aside and named, never deleted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, ModelError
from companion.storage import (
    atomic_write_json,
    clean_stale_temp,
    move_aside,
    read_data_file,
    storage_error,
)
from companion.the_glade.doubt_entries import no_longer_in_doubt, supply_space_held
from companion.the_glade.names import supply_space
from companion.ui.capture import CaptureTask, Decision
from companion.ui.game_over import game_over_menu
from companion.ui.pages import (
    BACK,
    LEAVE_FLOW,
    TO_FLOW_ROOT,
    Choice,
    LiveMenuPage,
    MenuPage,
    Outcome,
    Page,
    Replace,
    TextPage,
    error_page,
    flow_root,
    score_lines,
)
from companion.ui.players import PlayersPage

log = logging.getLogger(__name__)

#: The colours players take, in seat order (as at the table: Toni yellow, Emma blue, ...).
COLOURS = ("yellow", "blue", "red", "green")
SIDES = ("single", "double")
FILE = "photo-score.json"
NO_MODEL = ("Score from photos needs a model of your copy: run 'companion enrol the-glade PACK "
            "--out MODEL', then set games.the-glade.model")
#: The first word of a match counter offered for a square ("match mouse/beech 1").
MATCH = "match"
#: What a fix's code means (the review's doubts are these, each with its place).
GLADE_SPACE, SUPPLY_SPACE, SQUARE, STORE_THING, MISSING_COUNTER, EXTRA_COUNTER, RETAKE = (
    "glade-space", "supply-space", "square", "store-thing", "missing-counter", "extra-counter",
    "retake")


# -- what the players entered, kept on the disk -------------------------------------------

@dataclass
class Progress:
    """A game being scored from photos: the players (name, colour) in seat order, the variant,
    the glade board's reading and each forest's (None: not taken yet)."""

    players: list[tuple[str, str]]
    variant: str = "basic"
    glade: dict[str, Any] | None = None
    forests: list[dict[str, Any] | None] | None = None

    def __post_init__(self) -> None:
        if self.forests is None:
            self.forests = [None] * len(self.players)

    @property
    def readings(self) -> list[dict[str, Any] | None]:
        assert self.forests is not None
        return [self.glade, *self.forests]

    @property
    def taken(self) -> int:
        return sum(r is not None for r in self.readings)

    @property
    def wanted(self) -> int:
        return 1 + len(self.players)

    def label(self, photo: int) -> str:
        """Photo 0 is the glade board's; photo n, the n-th player's forest with its store."""
        return "glade board" if photo == 0 else f"{self.players[photo - 1][0]}'s board"

    def to_dict(self) -> dict[str, Any]:
        return {"game": "the-glade", "players": [list(p) for p in self.players],
                "variant": self.variant, "glade": self.glade, "forests": self.forests}

    @classmethod
    def from_dict(cls, data: Any) -> Progress:
        """The saved progress; :class:`CompanionError` naming what is wrong."""
        if not isinstance(data, dict) or data.get("game") != "the-glade":
            raise CompanionError("it is not a game of The Glade being scored from photos")
        players = data.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4 or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p)
                for p in players):
            raise CompanionError("players must list 2-4 [name, colour] pairs")
        forests = data.get("forests")
        if not isinstance(forests, list) or len(forests) != len(players) or not all(
                f is None or isinstance(f, dict) for f in forests):
            raise CompanionError("forests must hold one reading (or null) per player")
        glade = data.get("glade")
        if glade is not None and not isinstance(glade, dict):
            raise CompanionError("glade must be a reading or null")
        variant = data.get("variant", "basic")
        if variant not in ("basic", "matching"):
            raise CompanionError(f"variant must be basic or matching, not {variant!r}")
        return cls([(p[0], p[1]) for p in players], variant, glade, list(forests))


class ProgressStore:
    """``<data_dir>/photo-score.json``, written atomically after every photo and every fix."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / FILE

    def load(self, ctx: Any = None) -> Progress | None:
        """The game being scored, if any. A file that cannot be read is moved aside (named
        to the players through ``ctx.notify``), and scoring starts afresh; what a power cut
        left of a write (``.photo-score.json.*.tmp``) is removed first."""
        clean_stale_temp([self.path])
        if not self.path.exists():
            return None
        try:
            return Progress.from_dict(read_data_file(self.path, "photo scoring file"))
        except CompanionError as exc:
            aside = move_aside(self.path, "damaged")
            message = (f"The game being scored from photos could not be read ({exc}); it was "
                       f"moved to {aside}")
            if ctx is not None:
                ctx.notify("Score from photos", message)
            else:
                log.warning("%s", message)
            return None

    def save(self, progress: Progress) -> None:
        """Write atomically; a disk that refuses is named in one line (full, read-only, ...)
        and the step can be tried again."""
        try:
            atomic_write_json(self.path, progress.to_dict())
        except OSError as exc:
            raise storage_error(exc, self.path) from None

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


# -- the recognisers, through the service's model cache -----------------------------------

def model_folder(ctx: Any) -> Path:
    folder = ctx.settings["games"]["the-glade"].get("model")
    if not folder or not str(folder).strip():
        raise ModelError(NO_MODEL)
    return Path(folder).expanduser()


def glade_model(ctx: Any) -> Any:
    """The glade-board model of ``games.the-glade.model`` (cached apart from the forest
    model of the same folder)."""
    from companion.the_glade.recognition.glade_model import load_glade_model

    folder = model_folder(ctx)

    def load(path: Path) -> Any:
        model = load_glade_model(path.parent)
        if model is None:
            raise ModelError(f"model folder {path.parent} was enrolled before glade boards "
                             "and stores were read; enrol again with 'companion enrol "
                             "the-glade PACK --out MODEL'")
        return model

    return ctx.models.get(folder / "glade.json", load, missing=NO_MODEL)


def read_glade_photo(ctx: Any, photo: Any) -> dict[str, Any]:
    """The glade board's scan (``scan the-glade PHOTO --glade``) of ``photo``."""
    from companion.the_glade.recognition.glade_board import read_glade

    return read_glade(glade_model(ctx), photo).result()


def read_forest_photo(ctx: Any, photo: Any) -> dict[str, Any]:
    """The forest scan of ``photo`` with its store fields (as ``score --photos`` reads it)."""
    from companion.the_glade.recognition.glade_jobs import forest_and_store
    from companion.the_glade.screens import forest_model

    return forest_and_store(photo, forest_model(ctx), glade_model(ctx))


# -- the doubts, and how the buttons put each right ---------------------------------------

@dataclass(frozen=True)
class Fix:
    """One doubt the players can put right: its ``code``, the photo it is in (0: the glade
    board, n: the n-th player's forest), what it is about (a space, square or colour) and
    the menu's words; for a store thing, where it lies (``at``, as the reading's
    ``store_doubts`` entry has it: the entry it is) and the two it may be (``candidates``)."""

    code: str
    photo: int
    what: str
    words: str
    at: tuple[float, ...] | None = None
    candidates: tuple[str | dict[str, Any], ...] = ()


def doubts_of(progress: Progress, built: Any = None
              ) -> tuple[dict[str, Any], list[Any], list[Fix]]:
    """The state the readings describe, every doubt that stops its score (as ``score
    --photos`` says them) and, for each, how the buttons can put it right. A doubt the
    game's rules settled (:mod:`companion.the_glade.deduction`) is no doubt here: it is in
    the state as settled, and :func:`settled_of` names it. ``built``: the game as
    :func:`_assembled` put it together already, if it was."""
    from companion.the_glade.photo_game import at_a_seat, found_counters

    built = built or _assembled(progress)
    state, doubts = built.state, built.doubts
    glade, forests = built.glade, built.forests
    fixes: list[Fix] = []
    for label in glade.get("uncertain") or ():
        label = str(label)
        if (supply := supply_space(label)) is not None:
            if not at_a_seat(label, len(progress.players)):
                continue  # nobody sits there: no doubt (photo_game.glade_doubts)
            seat, space = supply
            fixes.append(Fix(SUPPLY_SPACE, 0, label, f"Seat {seat} supply {space}"))
        else:
            fixes.append(Fix(GLADE_SPACE, 0, label, glade_words(label)))
    supply = glade.get("supply") or {}
    if any(str(n) not in supply for n in range(1, len(progress.players) + 1)):
        fixes.append(Fix(RETAKE, 0, "supply", "Glade: a seat unread"))
    for i, reading in enumerate(forests, start=1):
        name = progress.players[i - 1][0]
        squares = list(reading.get("uncertain") or ())
        if progress.variant != "matching":  # a match counter read where none can lie
            squares += sorted((reading.get("forest") or {}).get("match_counters") or {})
        for square in squares:
            fixes.append(Fix(SQUARE, i, str(square), f"{name} square {square}"))
        if "store" not in reading:
            fixes.append(Fix(RETAKE, i, "store", f"{name}: store unseen"))
        for k in range(int(reading.get("store_uncertain") or 0)):
            at, looks = store_candidates(reading, k, progress.variant)
            words = " or ".join(thing_words(c) for c in looks) if looks else "a thing"
            fixes.append(Fix(STORE_THING, i, "store", f"{name} store: {words}", at,
                             tuple(looks)))
    if not fixes and doubts:
        found = found_counters(state)  # too few or too many of a colour: where, by the buttons
        fixes += [Fix(MISSING_COUNTER, 0, colour, f"A {colour} counter missing")
                  for _name, colour in progress.players if found.get(colour, 0) < 12]
        fixes += [Fix(EXTRA_COUNTER, 0, colour, f"A {colour} counter too many")
                  for colour, n in sorted(found.items()) if n > 12]
        named = {progress.label(n) for n in range(progress.wanted)}
        for photo in dict.fromkeys(d.photo for d in doubts if d.photo in named):
            n = next(n for n in range(progress.wanted) if progress.label(n) == photo)
            fixes.append(Fix(RETAKE, n, "photo", f"Retake {photo}"))
    if doubts and not fixes:  # a state the rules refuse: only new photos can say more
        fixes.append(Fix(RETAKE, 0, "photo", "Retake the photos"))
    return state, doubts, fixes


def _assembled(progress: Progress) -> Any:
    """The game the readings describe (:func:`companion.the_glade.photo_game.assemble`)."""
    from companion.the_glade.photo_game import PhotoList, Seat, assemble

    assert progress.glade is not None and progress.forests is not None
    forests = [f or {} for f in progress.forests]
    plan = PhotoList(progress.label(0), tuple(
        Seat(name, colour, progress.label(i + 1))
        for i, (name, colour) in enumerate(progress.players)), progress.variant)
    return assemble(plan, progress.glade, forests)


def settled_of(progress: Progress, built: Any = None) -> list[str]:
    """The doubts the game's rules settled, each in a short line ("Ana D4: toad/acorn/oak,
    both copies of toad/acorn/maple elsewhere"), for the review and the score (``built``:
    as for :func:`doubts_of`)."""
    from companion.the_glade.deduction import (
        COLOUR_COUNT,
        COLOUR_NOT_IN_PLAY,
        ONLY_TILE,
        STORE,
        SUPPLY_ORDER,
        TILE_COPIES_RULE,
    )

    words = {TILE_COPIES_RULE: "both copies of {} elsewhere", COLOUR_COUNT: "all 12 {} found",
             COLOUR_NOT_IN_PLAY: "no player has {}", ONLY_TILE: "only tile its lines allow",
             SUPPLY_ORDER: "taken leftmost first"}
    names = {progress.label(n + 1): name for n, (name, _c) in enumerate(progress.players)}
    lines = []
    for s in (built or _assembled(progress)).settled:
        where = f"{names.get(s.photo, 'Glade')} {s.label if s.photo in names else ''}".strip()
        if s.label.startswith(STORE):
            where = f"{names.get(s.photo, '')} store"
        if s.photo not in names and (supply := supply_space(s.label)) is not None:
            seat, space = supply  # a supply space, bare or holding its counter
            where = f"Glade seat {seat} space {space}"
        ruled = s.ruled_out if s.rule == TILE_COPIES_RULE else _colour(s.ruled_out)
        why = words.get(s.rule, "{} makes a line no set").format(ruled)
        lines.append(f"{where}: {s.name}, {why}")
    return lines


def glade_words(label: str) -> str:
    """A glade space as the claim menu names it ("LG hedgehog hazelnut"), so it fits a line."""
    from companion.the_glade.forest import parse_tile
    from companion.the_glade.screens import space_label

    try:
        return space_label(parse_tile(label))
    except (CompanionError, KeyError, ValueError):
        return f"Glade {label}"


#: The most tiles the rules allow on a square in doubt that the fix menu offers all of.
MAX_ALLOWED = 4


def square_tiles(progress: Progress, photo: int, square: str) -> list[str]:
    """The tiles the fix menu offers for ``square`` of forest ``photo`` (1 on): a look-alike
    doubt's two; for a tile whose name alone is in doubt (glare on it, a poor photo's close
    call), the scan's likeliest name first, then the other tiles the game's rules allow
    there when they allow at most MAX_ALLOWED (:func:`deduction.allowed_tiles`)."""
    from companion.the_glade.deduction import allowed_tiles

    assert progress.glade is not None and progress.forests is not None
    reading = progress.forests[photo - 1] or {}
    tiles = [str(t) for t in (reading.get("candidates") or {}).get(square, [])]
    named = reading.get("likeliest")
    likeliest = named.get(square) if isinstance(named, dict) else None
    if tiles or not isinstance(likeliest, str) or not likeliest:
        return tiles
    seats = [(progress.label(n + 1), colour) for n, (_name, colour)
             in enumerate(progress.players)]
    allowed = allowed_tiles(seats, progress.glade, progress.forests, photo - 1, square) or []
    rest = [t for t in allowed if t != likeliest] if len(allowed) <= MAX_ALLOWED else []
    return [likeliest, *rest]


def store_candidates(reading: dict[str, Any], k: int, variant: str
                     ) -> tuple[tuple[float, ...] | None, list[str | dict[str, Any]]]:
    """Where the ``k``-th store thing in doubt lies and the two things it may be, as the
    scan read them (``store_doubts``; none for a thing that fits no face, or a reading
    without them): a counter's name, or a match counter's fields (in the matching game
    only)."""
    doubts = reading.get("store_doubts")
    if not isinstance(doubts, list) or k >= len(doubts) or not isinstance(doubts[k], dict):
        return None, []
    at = doubts[k].get("at")
    out: list[str | dict[str, Any]] = []
    for c in doubts[k].get("candidates") or ():
        if isinstance(c, str) or (variant == "matching" and isinstance(c, dict)
                                  and {"kind", "icon", "value"} <= set(c)):
            out.append(c)
    return (tuple(at) if isinstance(at, list) else None), out


def match_choices() -> list[dict[str, Any]]:
    """The game's 48 match counters, as a state file names them."""
    from companion.the_glade.names import match_counter_set

    return [{"kind": k, "icon": i, "value": v} for k, i, v in match_counter_set()]


def thing_words(thing: str | dict[str, Any]) -> str:
    """A store thing as a menu names it: "red single", a match counter "mouse/beech 1"."""
    if isinstance(thing, dict):
        return f"{thing['icon']} {thing['value']}"
    return thing.replace("-", " ")


def _match_key(m: dict[str, Any]) -> tuple[str, str, int]:
    return str(m["kind"]), str(m["icon"]), int(m["value"])


def counter_choices(progress: Progress) -> list[str]:
    """Every counter a player's colour can show: "yellow-single", "yellow-double", ..."""
    return [f"{colour}-{side}" for _name, colour in progress.players for side in SIDES]


def fix_options(progress: Progress, fix: Fix) -> list[tuple[str, Callable[[Progress], None]]]:
    """What the players can say of ``fix`` with the buttons: (menu words, the change to the
    readings). A retake is offered by the page itself."""
    assert progress.glade is not None and progress.forests is not None
    glade = progress.glade

    options: list[tuple[str, Callable[[Progress], None]]] = []
    if fix.code == GLADE_SPACE:
        def on_space(counter: str | None) -> Callable[[Progress], None]:
            def change(p: Progress) -> None:
                assert p.glade is not None
                p.glade.setdefault("glade", {}).pop(fix.what, None)
                if counter is not None:
                    p.glade["glade"][fix.what] = counter
                no_longer_in_doubt(p.glade, [fix.what])
            return change
        options.append(("Empty", on_space(None)))
        options += [(c.replace("-", " "), on_space(c)) for c in counter_choices(progress)]
    elif fix.code == SUPPLY_SPACE:
        seat = (supply_space(fix.what) or ("", ""))[0]

        def on_supply(there: bool) -> Callable[[Progress], None]:
            def change(p: Progress) -> None:
                assert p.glade is not None
                if there:  # counted, and among the spaces the rules reason from
                    supply_space_held(p.glade, fix.what)
                else:
                    supply = p.glade.setdefault("supply", {})
                    supply[seat] = int(supply.get(seat, 0))
                    no_longer_in_doubt(p.glade, [fix.what])
            return change
        options += [("A counter there", on_supply(True)), ("Empty", on_supply(False))]
    elif fix.code == SQUARE:
        tiles = square_tiles(progress, fix.photo, fix.what)

        def on_square(kind: str | None, name: str | dict[str, Any] | None
                      ) -> Callable[[Progress], None]:
            def change(p: Progress) -> None:
                assert p.forests is not None
                r = p.forests[fix.photo - 1]
                assert r is not None
                forest = r.setdefault("forest", {"tiles": {}, "counters": {}})
                forest.setdefault("tiles", {}).pop(fix.what, None)
                forest.setdefault("counters", {}).pop(fix.what, None)
                if isinstance(forest.get("match_counters"), dict):
                    forest["match_counters"].pop(fix.what, None)
                if kind is not None:
                    forest.setdefault(kind, {})[fix.what] = name
                no_longer_in_doubt(r, [fix.what])
            return change
        options += [(t, on_square("tiles", t)) for t in tiles]
        options.append(("Empty", on_square(None, None)))
        options += [(c.replace("-", " "), on_square("counters", c))
                    for c in counter_choices(progress)]
        if progress.variant == "matching":  # a match counter played into an enclosure
            options += [(f"{MATCH} {thing_words(m)}", on_square("match_counters", m))
                        for m in match_choices()]
    elif fix.code == STORE_THING:
        def on_thing(thing: str | dict[str, Any] | None) -> Callable[[Progress], None]:
            def change(p: Progress) -> None:
                assert p.forests is not None
                r = p.forests[fix.photo - 1]
                assert r is not None
                r["store_uncertain"] = max(0, int(r.get("store_uncertain") or 0) - 1)
                doubts = r.get("store_doubts")
                if isinstance(doubts, list):  # the entry it was (those settled stay)
                    at = [j for j, e in enumerate(doubts) if isinstance(e, dict)
                          and fix.at is not None and tuple(e.get("at") or ()) == fix.at]
                    r["store_doubts"] = [e for j, e in enumerate(doubts) if j not in at[:1]]
                if isinstance(thing, dict):
                    r["store_match_counters"] = sorted(
                        [*(r.get("store_match_counters") or []), dict(thing)], key=_match_key)
                elif thing is not None:
                    r["store"] = sorted([*r.get("store", []), thing])
            return change
        # the two the scan hesitated between first, then every counter in play
        looks = list(fix.candidates)
        options += [(thing_words(c), on_thing(c)) for c in looks]
        options += [(c.replace("-", " "), on_thing(c)) for c in counter_choices(progress)
                    if c not in looks]
        options.append(("Not a counter", on_thing(None)))
    elif fix.code == MISSING_COUNTER:
        for n, (name, _own) in enumerate(progress.players):
            for side in SIDES:
                def add(p: Progress, n: int = n, side: str = side) -> None:
                    assert p.forests is not None
                    r = p.forests[n]
                    assert r is not None
                    r["store"] = sorted([*r.get("store", []), f"{fix.what}-{side}"])
                options.append((f"{name}'s store, {side}", add))
    elif fix.code == EXTRA_COUNTER:
        # a counter read where there is none (a store's most often): the players say where
        for n, (name, _own) in enumerate(progress.players):
            reading = progress.forests[n] or {}
            for counter in sorted(set(reading.get("store") or ())):
                if _colour(counter) != fix.what:
                    continue

                def drop(p: Progress, n: int = n, counter: str = counter) -> None:
                    assert p.forests is not None
                    r = p.forests[n]
                    assert r is not None
                    store = list(r.get("store") or [])
                    store.remove(counter)
                    r["store"] = store
                options.append((f"Not in {name}'s store: {counter.partition('-')[2]}", drop))
        for space, counter in sorted((glade.get("glade") or {}).items()):
            if _colour(counter) != fix.what:
                continue

            def unglade(p: Progress, space: str = space) -> None:
                assert p.glade is not None
                p.glade["glade"].pop(space, None)
            options.append((f"Not on {glade_words(space)}", unglade))
    return options


# -- the pages ----------------------------------------------------------------------------

def menu_choices(ctx: Any) -> list[Choice]:
    """The registry's ``menu``: The Glade's own entry in its menu at the table."""
    saved = ProgressStore(ctx.data_dir).load(ctx)
    label = "Score from photos"
    if saved is not None:
        label += f" (resume {saved.taken}/{saved.wanted})"
    return [Choice(label, lambda: start(ctx))]


def start(ctx: Any) -> Page:
    """Resume the game being scored, or ask who played."""
    try:
        model_folder(ctx)
    except ModelError as exc:
        return error_page(str(exc))
    saved = ProgressStore(ctx.data_dir).load(ctx)
    if saved is not None:
        return flow_root(PhotosPage(ctx, saved))
    variant = ctx.settings["games"]["the-glade"].get("variant", "basic")
    variant = variant if variant in ("basic", "matching") else "basic"

    def chosen(names: list[str]) -> Outcome:
        progress = Progress([(n, COLOURS[i]) for i, n in enumerate(names)], variant)
        ProgressStore(ctx.data_dir).save(progress)
        return Replace(flow_root(PhotosPage(ctx, progress)))

    return PlayersPage("Who played?", 2, 4, ctx.settings["games"]["players"], chosen)


class PhotosPage(LiveMenuPage):
    """The photos of a finished game (the flow's root): the next one to take first, then the
    review once all are in; any photo can be retaken."""

    def __init__(self, ctx: Any, progress: Progress) -> None:
        self.ctx, self.progress = ctx, progress
        #: a page to open on this one at the next tick (the review after a fix)
        self.next: Page | None = None
        super().__init__()
        self.refresh()

    @property
    def busy(self) -> bool:  # type: ignore[override]
        return self.next is not None

    def tick(self) -> Outcome:
        page, self.next = self.next, None
        return page

    def current(self) -> tuple[str, list[Choice]]:
        p = self.progress
        title = f"Photos {p.taken}/{p.wanted}"
        choices = []
        missing = [n for n, r in enumerate(p.readings) if r is None]
        if missing:
            n = missing[0]
            what = "Photo: glade board" if n == 0 else f"Photo: {p.label(n)}+store"
            choices.append(Choice(what, lambda n=n: self.capture(n)))
        else:
            choices.append(Choice("Review and score", lambda: review_page(self.ctx, p, self)))
        choices += [Choice(f"Retake {p.label(n)}", lambda n=n: self.capture(n))
                    for n, r in enumerate(p.readings) if r is not None]
        choices.append(Choice("Start again", self._again))
        choices.append(Choice("Leave (kept)", lambda: BACK))
        return title, choices

    def capture(self, photo: int) -> Page:
        return CaptureTask(self.ctx, PhotoReader(self.ctx, self.progress, photo))

    def _again(self) -> Outcome:
        ProgressStore(self.ctx.data_dir).clear()
        return LEAVE_FLOW


class PhotoReader:
    """One photo of the finished game: the glade board (photo 0) or a player's forest with
    its store, read and kept; the page says what was read."""

    def __init__(self, ctx: Any, progress: Progress, photo: int) -> None:
        self.ctx, self.progress, self.photo = ctx, progress, photo
        self.title = "Reading"
        self.message = f"Reading the {progress.label(photo)}..."

    def observe(self, photo: Any) -> dict[str, Any]:
        if self.photo == 0:
            return read_glade_photo(self.ctx, photo)
        return read_forest_photo(self.ctx, photo)

    def decide(self, observation: dict[str, Any], keep: bool = False) -> Decision:
        p = self.progress
        if self.photo == 0:
            p.glade = observation
        else:
            assert p.forests is not None
            p.forests[self.photo - 1] = observation
        ProgressStore(self.ctx.data_dir).save(p)
        lines = reading_lines(p, self.photo)
        return TextPage(p.label(self.photo)[:1].upper() + p.label(self.photo)[1:],
                        [*lines, "OK: next"], on_ok=lambda: TO_FLOW_ROOT)


def reading_lines(progress: Progress, photo: int) -> list[str]:
    """What one photo's reading holds, in a few short lines (counts and doubts)."""
    r = progress.readings[photo] or {}
    if photo == 0:
        supply = r.get("supply") or {}
        lines = [f"{len(r.get('glade') or {})} counters on the glade",
                 "Supply: " + ", ".join(
                     f"{progress.players[int(n) - 1][0]} {c}" for n, c in sorted(supply.items())
                     if n.isdigit() and int(n) <= len(progress.players))]
    else:
        forest = r.get("forest") or {}
        # match counters (the matching game) counted beside the toadstool ones
        enclosed, loose = (len(forest.get("match_counters") or {}),
                           len(r.get("store_match_counters") or []))
        lines = [f"{len(forest.get('tiles') or {})} tiles, "
                 f"{len(forest.get('counters') or {})} in enclosures"
                 + (f" (+{enclosed} match)" if enclosed else ""),
                 f"Store: {len(r.get('store') or [])} counters"
                 + (f" (+{loose} match)" if loose else "") if "store" in r
                 else "Store: not in the photo"]
    unsure = [str(u) for u in r.get("uncertain") or ()]
    unnamed = int(r.get("store_uncertain") or 0)
    if unsure:
        lines.append(f"Not sure: {', '.join(unsure)}")
    if unnamed:
        lines.append(f"Not sure: {unnamed} in the store")
    return lines


def _colour(counter: object) -> str:
    return str(counter).rpartition("-")[0]


def counts_lines(state: dict[str, Any]) -> list[str]:
    """The counters found per player, of 12, and where: "sup 2 gl 3 st 5 en 2" (supply,
    glade, in stores, in enclosures)."""
    from companion.the_glade.photo_game import found_counters

    found = found_counters(state)
    lines = []
    for p in state["players"]:
        colour = p["colour"]
        glade = sum(1 for c in (state.get("glade") or {}).values() if _colour(c) == colour)
        stores = sum(1 for q in state["players"] for c in q.get("store", [])
                     if _colour(c) == colour)
        enclosed = sum(1 for q in state["players"] for c in
                       (q.get("forest") or {}).get("counters", {}).values()
                       if _colour(c) == colour)
        lines.append(f"{p['name']} ({colour}): {found.get(colour, 0)}/12")
        lines.append(f" sup {p.get('supply', 0)} gl {glade} st {stores} en {enclosed}")
    return lines


def review_page(ctx: Any, progress: Progress, root: PhotosPage) -> Page:
    """What the photos say: counts per player and the doubts; with none, the score."""
    built = _assembled(progress)  # put together once for both
    state, doubts, fixes = doubts_of(progress, built)
    settled = settled_of(progress, built)
    if not doubts:
        if settled:  # say what the rules decided before the score
            return TextPage("Settled by the rules", [*settled, "OK: the score"],
                            on_ok=lambda: Replace(score_page(ctx, state)))
        return score_page(ctx, state)
    from companion.the_glade.moot import moot

    found = moot(built, [progress.label(n + 1) for n in range(len(progress.players))])
    if found is not None:
        return MootPage(ctx, progress, found, fixes, root, settled)
    return ReviewPage(ctx, progress, state, doubts, fixes, root, settled)


class MootPage(TextPage):
    """Doubts that change no score (:mod:`companion.the_glade.moot`: squares that are a
    tile of some name, or bare, and score alike either way); OK: score now, or put them right
    first."""

    def __init__(self, ctx: Any, progress: Progress, found: Any, fixes: list[Fix],
                 root: PhotosPage, settled: list[str] | None = None) -> None:
        self.found = found
        n = len(found.doubts)
        lines = [f"{n} doubt{'s' if n != 1 else ''}, no score changes:",
                 *(f"? {d}" for d in found.doubts), *(f"= {s}" for s in settled or ()),
                 "OK: score or put right"]
        choices = [Choice("Score now", lambda: Replace(score_page(ctx, found.state))),
                   Choice("Put right first", lambda: FixMenu(ctx, progress, fixes, root))]
        super().__init__(f"Review: {n} moot", lines,
                         on_ok=lambda: MenuPage("Score?", choices))


class ReviewPage(TextPage):
    """Counts per player and every doubt that stops the score; OK: put them right."""

    def __init__(self, ctx: Any, progress: Progress, state: dict[str, Any], doubts: list[Any],
                 fixes: list[Fix], root: PhotosPage, settled: list[str] | None = None) -> None:
        self.ctx, self.progress, self.doubts, self.fixes = ctx, progress, doubts, fixes
        n = len(doubts)
        lines = [f"{n} doubt{'s stop' if n != 1 else ' stops'} the score:",
                 *(f"? {d}" for d in doubts), *(f"= {s}" for s in settled or ()),
                 *counts_lines(state), "OK: put right"]
        super().__init__(f"Review: {n} doubt{'s' if n != 1 else ''}", lines, alert=True,
                         on_ok=lambda: FixMenu(ctx, progress, fixes, root))


class FixMenu(MenuPage):
    """Each doubt the buttons can put right; choosing one offers what it can be."""

    def __init__(self, ctx: Any, progress: Progress, fixes: list[Fix],
                 root: PhotosPage) -> None:
        self.ctx, self.progress, self.root = ctx, progress, root
        super().__init__("Put right", [Choice(f.words, lambda f=f: self._fix(f))
                                       for f in fixes])

    def _fix(self, fix: Fix) -> Page:
        every = fix_options(self.progress, fix)
        matches = [(w, c) for w, c in every if w.startswith(f"{MATCH} ")]
        options = [Choice(words, lambda c=change: self._apply(c))
                   for words, change in every if not words.startswith(f"{MATCH} ")]
        if matches:  # the 48 match counters, a leaf and then its 12
            options.append(Choice("Match counter...", lambda: self._by_leaf(matches)))
        options.append(Choice(f"Retake {self.progress.label(fix.photo)}",
                              lambda: Replace(CaptureTask(self.ctx, PhotoReader(
                                  self.ctx, self.progress, fix.photo)))))
        return MenuPage(fix.words, options)

    def _by_leaf(self, matches: list[tuple[str, Callable[[Progress], None]]]) -> Page:
        """The match counters offered, one menu a leaf ("match mouse/beech 1" under beech,
        "match oak 4" under oak): four short lists, not one of 48."""
        leaves: dict[str, list[Choice]] = {}
        for words, change in matches:
            icon = words.split()[1]
            leaves.setdefault(icon.rpartition("/")[2], []).append(
                Choice(words.partition(" ")[2], lambda c=change: self._apply(c)))
        return MenuPage("Match counter", [
            Choice(leaf, lambda leaf=leaf: MenuPage(f"Match counter: {leaf}", leaves[leaf]))
            for leaf in leaves])

    def _apply(self, change: Callable[[Progress], None]) -> Outcome:
        """Change the readings as the players said, keep them, and review again: the menus
        of this fix close (to the photos page) and the new review opens on it."""
        change(self.progress)
        ProgressStore(self.ctx.data_dir).save(self.progress)
        self.root.next = review_page(self.ctx, self.progress, self.root)
        return TO_FLOW_ROOT


def score_page(ctx: Any, state: dict[str, Any]) -> Page:
    """The game's score pad and winner, by the existing scorer; OK offers to save it to the
    history (which ends the scoring: its file goes)."""
    from companion.the_glade.state_file import load_state

    sheet = load_state(state).score_sheet()
    over = game_over_menu(ctx, "the-glade", sheet, message="The score is in the history.")
    save = over.choices[0]

    def record() -> Outcome:
        outcome = save.action()
        ProgressStore(ctx.data_dir).clear()
        return outcome

    over.choices[0] = Choice(save.label, record)
    return TextPage("Final score", score_lines(sheet, final=True),
                    on_ok=lambda: Replace(over))
