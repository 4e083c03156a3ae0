"""Reading one photo of a forest board: find it, rectify it, judge every square.

For each square the reader weighs three readings of the rectified view (gathered by
:mod:`evidence`) and keeps the closest: the empty board (the pack's own board image at that
square), the best tile face at any of 4 turns (after finding the tile's exact place and
askew angle), and, on inner squares, the best counter face at any angle. A square is
*uncertain* when the photo is washed out there, when the square is not wholly in frame, or
when the best and second-best readings are too close. Every threshold here was tuned on the
SAMPLE art of styles 1 and 3 only. Once every square is judged, a doubt between two
look-alike faces may still be settled by the photo's own sure squares showing either face's
fruit (:mod:`photo_exemplars`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import RecognitionError
from companion.the_glade.recognition import (
    bare_colours,
    leaf_colours,
    outlined_print,
    photo_drawing,
    photo_exemplars,
    shaded_bare,
    veil_without_glare,
    veiled_leaves,
)
from companion.the_glade.recognition.close_calls import (
    AGREED_CLEARNESS,
    AGREED_MARGIN,
    STRONG_CLEARNESS,
    STRONG_MARGIN,
    Look,
    leaf_of,
    misfit_z,
    template_gap,
)
from companion.the_glade.recognition.evidence import (
    PAD,
    SATURATED,
    Evidence,
    colours_say_counter,
    gather,
    usual_tile_light,
)
from companion.the_glade.recognition.lookalikes import PairVerdict
from companion.the_glade.recognition.model import (
    CELL_PX,
    FINE,
    BoardModel,
    Model,
)
from companion.the_glade.recognition.structure import BARE_STRUCTURE
from companion.the_glade.recognition.templates import cache_for
from companion.vision.board import (
    MIN_INLIERS,
    PHOTO_FEATURES,
    RETRY_FEATURES,
    Located,
    PhotoFeatures,
    project,
    rectify,
)

# decision thresholds (tuned on the sample styles 1 and 3 only)
NAME_MARGIN = 0.1    # (second - best) / (gap between their templates) below this: not sure
NAME_Z = 1.0         # the same in units of the photo's misfit
#: A first look this firm (z) keeps its name against a closer look that names another face
#: without being clear enough even to confirm a name (see close_calls.AGREED_CLEARNESS): such
#: a look's margin is the photo's noise tipping a near tie. Over 1,440 photos of six art
#: styles, the first looks kept so were all right (z 3.2-9.4, closer looks 0.02-0.30
#: clear), and every closer look that rightly overruled a first look this firm was at
#: least 1.1 clear. Such a name's confidence is at most FIRM_CONFIDENCE.
FIRM_Z = 3.0
FIRM_CONFIDENCE = 0.5
#: A first look this weak (z below it: too weak to name a face by itself, as NAME_Z says)
#: barely speaks against a closer look naming another face, which then needs only the
#: clearness that confirms a name (AGREED_CLEARNESS), not the one that overrules a first look
#: (STRONG_CLEARNESS). Over the 1,440 analysis photos, all 10 such looks 0.45-0.8 clear were
#: right (8 more boards exactly right, all but two on art style 6, whose fruits are blobs);
#: below 0.4, 6 of 11 disagreeing looks were right, so that bar stays.
WEAK_Z = NAME_Z
COUNTER_MARGIN = 0.15  # by colour: (second - best) / (second + best) below this: not sure
KIND_RATIO = 0.68   # best / second-best kind distance above this: not sure
#: ... between an empty square and a tile, the two readings least alike (a tile covers the
#: square's print), so a closer ratio is still sure (tuned on styles 1 and 3)
EMPTY_TILE_RATIO = 0.85
MAX_DISTANCE = 0.06  # best distance above this: not sure
DISC_NONE = 0.42     # a counter's outline matching worse than this: no counter
DISC_SURE = 0.5      # ... worse than this: not sure, unless the counter reading is far
CLEAR_COUNTER = 0.4  # better than the others (best / second-best kind distance below this)
#: Fine structure, over the faintest tile's, below which no counter lies (and below
#: BARE_STRUCTURE no tile): a counter's toadstools show at least 0.11 (1,386 counters of
#: styles 1 and 3, the blurriest a green one on the green board), half the bare squares
#: 0.03 or less.
NO_COUNTER_STRUCTURE = 0.05
PIECE_STRUCTURE = 0.5  # fine structure above which some piece lies (see
                       # _counter_despite_outline)
CLEAR_TINT = 0.5     # a counter's colours this much nearer than the bare board's: clear
#: A counter of the board's own colour (green on a green board) blurred so that its outline
#: and toadstools hardly show (fine structure under PIECE_STRUCTURE, round outline under
#: DISC_NONE) is still looked at as a counter when its colours fit a counter's FAINT_TINT
#: of the bare board's distance or closer (FAINT_COUNTER). Tuning photos (normal 1-8 and
#: 41-64, hard 1-8 and 41-48): such counters stood at 0.18-0.49; of the tiles and bare
#: squares whose colours were measured with so faint an outline and print, none came under
#: 0.91 (any outline: 0.46, a tile). See benchmarks/RESULTS.md (#20).
FAINT_COUNTER = True
FAINT_TINT = 0.5
#: A square read as empty whose colours fit a counter's far better than the bare board's
#: (evidence.colours_say_counter) is "empty or counter?": a counter whose round outline and
#: toadstools the photo hardly shows (a green counter on a green board, under glare or in
#: shade) is still its colours.
TINT_DOUBT = True
#: A closer look whose best face misfits the photo this little where the faces differ (its
#: noise, in units of their difference) sees a tile: over 1,384 counters of art styles 1 and
#: 12 the tile faces' least misfit was 0.80 (median 10), while two tiles taken for counters
#: on some art styles (a faint round outline found on their paper) fitted at 0.12-0.22.
TILE_FITS = 0.5
TILE_OUTLINE = 0.7   # a tile's outline this clear is not seen on a bare square (1% of tiles
                     # show less; no bare square that a tile fitted better showed over 0.55)
#: A square showing a tile's clear outline (TILE_OUTLINE) and no strong round one (under
#: OUTLINED_DISC) holds no counter: a tile whose creature is a ring or a disc (white
#: counters look alike) was taken for a counter. Hard and normal photos of tuning families
#: 1-8 and 41-56: 13 tiles read as counters or doubted between two (outline 0.53-0.85, disc
#: 0.46-0.59), 6 of them with outline over 0.7; of 1,678 counters, outline 0.28 median, 0.59
#: at the 99th percentile, and the two over 0.7 showed a round outline of 0.79 and 0.86.
OUTLINED_TILE = True
OUTLINED_DISC = 0.6
#: ... nor a square whose tile outline is clearer than its round one by at least
#: OUTLINE_OVER_DISC: a ring creature on a light tile (8182 and 8184, normal photos) showed a
#: round outline of 0.61-0.69 under a square one of 0.79-0.81 and was taken for a white
#: counter (a look-alike doubt between two); of 4,444 counters on the tuning photos of
#: 2026-12-06 (1-8 and 41-48, 8167-8186; normal and hard) the two with a square outline over
#: 0.7 (0.73, 0.75) showed rounder ones still (0.79, 0.86). Off -> on, the same models:
#: 8167-8186 normal 0 / 46 / 482 -> 0 / 45 / 483 (one named right, the other a doubt between
#: two tiles now), hard and tuning the same. None: OUTLINED_DISC alone.
OUTLINE_OVER_DISC: float | None = 0.05
#: ... and the mirror (ROUND_COUNTER): a counter whose face fits hardly better than a
#: tile's ("counter or tile?") on a square showing a counter's round outline (at least
#: ROUND_DISC) and hardly a tile's square one (under ROUND_OUTLINE) is named, not doubted
#: (taking the tile out of the ranking instead turned one such counter into a sure bare
#: square, its colours judged against the board's). Hard photos of seen families 8172-8216
#: (8 each): of 9,677 tile squares the 61 with such a round outline showed a square one of
#: 0.48 and more, while 1,085 of 1,197 counters showed both marks (square outline
#: 0.14-0.43), 6 of them doubted "counter or tile?"; normal photos (8 + 2 each): 8 tiles
#: with the round outline, their square one 0.65 and more.
ROUND_COUNTER = True
ROUND_DISC = 0.45
ROUND_OUTLINE = 0.45
#: A square with a counter on it and hardly any tile's square outline (under
#: COUNTER_NOT_TILE) holds no tile, whatever its round outline: of 34,940 tile squares on the
#: tuning photos of 2026-12-06 (1-8 and 41-48, 8167-8186; normal and hard) none showed an
#: outline under 0.34, while green counters on a green board (8174, normal photo 11) showed
#: 0.08-0.15 and no strong round one (0.31-0.44), their faces fitting hardly better than a
#: tile's ("counter or tile?"). Off -> on, the same models (wrong / uncertain / boards exactly
#: right): 8167-8186 normal 0 / 45 / 483 -> 0 / 43 / 484, tuning hard 5 / 200 / 69 ->
#: 5 / 199 / 69 (each named its true counter); 8167-8186 hard and tuning normal the same.
#: Only such a near tie is so judged: taking the tile out of a white counter's ranking far
#: ahead of it (8366, hard photo 6, F4: 0.005 against 0.13) left it weighed against the bare
#: board's colours, a doubt ("counter or empty?"). None: off.
COUNTER_NOT_TILE: float | None = 0.25
#: A square read as empty but this much brighter than the bare board under the photo's
#: light (evidence._brightness) is under glare strong enough to wash a pale tile's print
#: away: the bare board and a washed-out tile then compare alike (both flat once each
#: patch's own light is divided out) and show as little structure. Hard photos of tuning
#: families 2-8 (56): the six tiles read as empty stood at 1.98-4.84, five above 3.0; of
#: 1,017 bare squares two stood above 3.0 (99% under 2.3); normal photos: none above 2.6.
BRIGHT_BARE = 3.0
#: A near tie of the bare board and a tile (EMPTY_TILE_RATIO) on an edge square (where no
#: counter lies) showing less fine structure than this (over the faintest tile's, see
#: structure.py) and not glare-bright (BRIGHT_BARE) is bare: tiles bring their print, and
#: the only tiles seen this faint on the tuning photos were washed out by glare. Tuning
#: families 2-7, normal photos: the bare squares so tied stood at 0.24-0.26, no tile under
#: 0.63; hard photos (families 2-8): 12 bare squares so tied at 0.20-0.39, and the five
#: tiles under 0.4 all glare-bright (3.4-4.8) or not tied. Inner squares are left alone: a
#: counter in shadow showed 0.21 there, its round outline too faint to be looked for.
FAINT_STRUCTURE = 0.4
#: A tile whose best face misfits the square more than BARE_LIKE_RATIO of the bare board's
#: misfit there is "tile or empty?", however far ahead of every other face it is: a tile
#: brings its whole print, which no face fits this poorly while the bare board nearly fits.
#: EMPTY_TILE_RATIO (0.85, tuned on normal photos of the sample styles) let hard photos (dim,
#: shaded, blurred) name tiles on bare squares: on hard photos of families 8045-8049 (issue
#: #20, seen) three bare squares in shade (0.34-0.73 of the photo's tiles' light) were named
#: toad/acorn/maple or beech, sure, at 0.61-0.70 of the board's misfit, and a blurred
#: blackberry read as acorn at 0.69, while the 871 tiles named right there fitted at 0.40 at
#: most (99% under 0.25); hard photos of tuning families 1-8, 8000-8004, 8035, 8036, 8042
#: and 8043 (seed 9000, 144 photos): 6 of their 24 wrong squares over 0.5 (0.52-0.77: leaves
#: and fruits named in a poor fit), and 3 of 2,879 right names (99% under 0.26).
BARE_LIKE = True
BARE_LIKE_RATIO = 0.5
#: A square read as empty where the bare board misfits it (over BARE_MISFIT) and it shows
#: more fine structure than the faintest tile face (over PRINTED: structure.py's measure,
#: 1.0 the faintest tile's) is "empty or tile?": the print of a tile the first look placed
#: or named badly, as no face fitted it. Hard photos (seed 9000): of the tuning families'
#: (1-8, 8000-8004, 8035, 8036, 8042, 8043) 2,454 empties, one such wrong (a tile, 0.039
#: and 3.4) and no right one; of 8045-8049's 692 (issue #20, seen), one wrong (0.014 and
#: 2.2) and 2 right. The bare squares read right there misfit 0.0011-0.0012 (median; 6% over
#: BARE_MISFIT).
BARE_PRINT = True
BARE_MISFIT = 0.01
PRINTED = 1.0


#: Why a square is in doubt (``SquareReading.doubt``, the scan JSON's ``doubts``): programs
#: and tests read these codes, people the ``reason`` sentence beside them.
#: ``look-alike`` two faces (or two counters) it hesitates between, named in ``candidates``;
#: ``which-kind`` tile, counter or bare board?; ``bare-like`` a tile fitting hardly better
#: than the bare board, or an empty square showing print; ``veiled`` empty, or a tile under
#: glare?; ``unmatched`` no enrolled face fits well; ``glare`` the square washed out;
#: ``out-of-frame`` not wholly in the photo; ``counter-or-mark`` a counter, or a mark on the
#: board?; ``glare-lit`` / ``shade-lit`` a tile's name under a bright patch or in deep shade;
#: ``poor-photo`` a close call doubted because so much of the photo is.
DOUBTS = ("look-alike", "which-kind", "bare-like", "veiled", "unmatched", "glare",
          "out-of-frame", "counter-or-mark", "glare-lit", "shade-lit", "poor-photo")
#: The doubts about a tile's name alone: a tile surely lies there (its kind was read sure,
#: then its close call doubted), and the scan JSON's ``likeliest`` gives the name it would
#: have read, for the game's rules to confirm (``deduction``: when the lines through the
#: square allow that tile alone). On hard tuning photos (families 1-8, 41-48) each of 35
#: such doubts was a tile.
TILE_NAME_DOUBTS = ("glare-lit", "shade-lit", "poor-photo")


@dataclass
class SquareReading:
    square: str
    kind: str                      # "empty" | "tile" | "counter" | "uncertain"
    name: str | None = None
    turn: int | None = None
    season: str | None = None
    confidence: float = 0.0
    reason: str = ""
    distances: dict[str, float] = field(default_factory=dict)
    centre: tuple[float, float] = (0.0, 0.0)  # in board-image pixels
    angle: float = 0.0
    #: the two names a look-alike doubt hesitates between (best first), for the overlay and
    #: the table service's "look at" message
    candidates: tuple[str, ...] = ()
    #: why it is in doubt: one of DOUBTS ("" while the reading is sure)
    doubt: str = ""

    def doubted(self, doubt: str, reason: str) -> None:
        """Record why the square is in doubt: the code (DOUBTS) and the sentence."""
        self.doubt, self.reason = doubt, reason

    def settled(self, name: str) -> None:
        """A doubt settled: the square is the tile ``name``, sure."""
        self.kind, self.name, self.reason, self.doubt, self.candidates = "tile", name, "", "", ()

    def settled_bare(self, confidence: float, centre: tuple[float, float], step: str) -> None:
        """A doubt settled: the square is the bare board, with ``confidence``, its centre at
        ``centre``; ``distances[step]`` says which step read it so."""
        self.kind, self.name, self.turn, self.season = "empty", None, None, None
        self.candidates = ()
        self.doubt, self.reason, self.angle = "", "", 0.0
        self.confidence = confidence
        self.centre = centre
        self.distances[step] = 1.0

    @property
    def lookalike_doubt(self) -> bool:
        """A doubt between two look-alike tiles at a known season and turn ("looks like A
        or B"): what the later steps (photo_exemplars, round_robin, drawn_parts) may settle."""
        return (self.kind == "uncertain" and len(self.candidates) == 2
                and self.doubt == "look-alike" and self.season is not None
                and self.turn is not None)


@dataclass
class BoardReading:
    board: BoardModel
    located: Located
    squares: list[SquareReading]
    seconds: dict[str, float] = field(default_factory=dict)

    def result(self) -> dict[str, Any]:
        """The spec's scan JSON, plus per-square ``confidence``, ``turns`` and ``seasons``,
        and for the squares in doubt why (``reasons``, ``doubts``), the two names of a
        look-alike doubt (``candidates``) and the name of a tile whose name alone is in doubt
        (``likeliest``: TILE_NAME_DOUBTS)."""
        tiles, counters, uncertain = {}, {}, []
        turns, seasons, confidence = {}, {}, {}
        for r in self.squares:
            confidence[r.square] = round(r.confidence, 3)
            if r.kind == "tile":
                tiles[r.square] = r.name
                turns[r.square] = r.turn
                seasons[r.square] = r.season
            elif r.kind == "counter":
                counters[r.square] = r.name
            elif r.kind == "uncertain":
                uncertain.append(r.square)
        return {"board": self.board.geometry.to_dict(),
                "forest": {"tiles": tiles, "counters": counters},
                "uncertain": uncertain, "turns": turns, "seasons": seasons,
                "confidence": confidence,
                "reasons": {r.square: r.reason for r in self.squares if r.kind == "uncertain"},
                "doubts": {r.square: r.doubt for r in self.squares if r.kind == "uncertain"},
                "candidates": {r.square: list(r.candidates) for r in self.squares
                               if r.kind == "uncertain" and r.candidates},
                "likeliest": {r.square: r.name for r in self.squares
                              if r.kind == "uncertain" and r.doubt in TILE_NAME_DOUBTS
                              and r.name is not None}}


def locate(model: Model, photo: np.ndarray) -> tuple[BoardModel, Located]:
    """The enrolled board that shows best in ``photo``, and where. When none is found, the
    search is made again with more of the photo's features: on a busy table under heavy
    blur, the table's own texture can crowd out the board's blurred corners; then once more
    with its contrast stretched (STRETCH_RETRY: a dim photo). When still
    none is found, a fit too few of those matches agree with is tried again from matches
    looked for where it puts each board feature (board.GUIDE_MIN): a board found so is in
    view but too faint (dim, blurred, small) to be read safely, and the error says so. When the
    model's boards are apart (none is found in another's image), the first found is the
    one: the others are not searched for. A fit whose printed border matches poorly is
    searched for again with more features (REFIT)."""
    best = None
    cache = cache_for(model)
    # the board found last first: at the table one board is photographed scan after scan,
    # and each board tried costs a feature match (about 30 ms of CPU here)
    boards = (sorted(model.boards, key=lambda b: b is not cache.last_board)
              if model.boards_apart else model.boards)
    for seen, count in _search_views(photo):
        features = PhotoFeatures(seen, count)
        for board in (_likeliest_first(boards, features) if model.boards_apart else boards):
            found = board.finder.locate(features, refine=False)
            if found is not None and (best is None or found.inliers > best[1].inliers):
                best = (board, found)
                if model.boards_apart:
                    break
        if best is not None:
            break
    if best is None:  # matches looked for where a weak fit puts the board: why not found
        for board in boards:
            found = board.finder.locate(features, refine=False, guided=True)
            if found is not None:
                raise RecognitionError(
                    "the board is in view but too faint to be read safely: the photo is dim "
                    "or blurred, or the board small in it (fewer than "
                    f"{MIN_INLIERS} spots of its printed border match clearly on one fit; "
                    f"{found.inliers} match only where a weaker fit put them); add light, "
                    "hold the camera still, or bring it closer")
    if best is None:
        why = "; ".join(dict.fromkeys(b.finder.miss for b in model.boards if b.finder.miss))
        raise RecognitionError("no forest board found in the photo"
                               + (f" ({why})" if why else "")
                               + "; check that the whole board is in view, lit, and the one "
                               "this model was enrolled from")
    board, found = best
    cache.last_board = board
    located = board.finder.refine(features.gray, found)
    if not REFIT:
        return board, located
    return board, _refit_poor_match(board, photo, features, count, located, found)


#: When no board is found in a photo, its features are looked for once more in the photo
#: with its contrast stretched (:func:`stretched`): in a dim, blurred photo the board's
#: corners fall under the feature detector's fixed contrast threshold. Hard photos of tuning
#: families 1-8 and 41-56 (264): 3 boards, fully in view but dim and blurred, were not
#: found; stretched, 2 of them are (32-33 matches agreeing; the third is then "in view but too
#: faint"). Photos whose board is found at first never come here.
STRETCH_RETRY = True


def _search_views(photo: np.ndarray) -> Iterator[tuple[np.ndarray, int]]:
    """The photo as :func:`locate` searches it in turn, with the features to take from it:
    as taken, then with more features (the table's grain crowding out a blurred board's
    corners), then with its contrast stretched (STRETCH_RETRY; made only if reached)."""
    yield photo, PHOTO_FEATURES
    yield photo, RETRY_FEATURES
    if STRETCH_RETRY:
        yield stretched(photo), RETRY_FEATURES


def stretched(photo: np.ndarray) -> np.ndarray:
    """``photo`` (BGR) with its light stretched so that its 1st and 99th percentiles of
    gray become black and white: the same picture, its contrast as a well-lit photo's."""
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) if photo.ndim == 3 else photo
    lo, hi = np.percentile(gray, (1, 99))
    gain = 255.0 / max(float(hi - lo), 1.0)
    return np.clip((photo.astype(np.float32) - float(lo)) * gain, 0, 255).astype(np.uint8)


#: A board fit whose printed border matches the enrolled board's this poorly (the
#: normalised correlation of the border, where no piece lies, in a view rectified by the
#: fit: :func:`border_match`) is searched for again with more of the photo's features
#: (REFIT_FEATURES, more than the first search used); a fit matching REFIT_GAIN better
#: replaces it (a right fit found again matches about as well), and none is refused.
#: Issue #20, family 5014 (made a tuning family for this): two normal photos of 26 were
#: fitted from 35-36 matches crowded in one stretch of the border, 200-330 px off at the
#: far grid corner (border match 0.09-0.14; 0.35 for a third, 54 px off), and read 10
#: squares wrong as sure (bare squares as tiles, tiles as bare, a leaf, a counter's
#: colour) among 41-57 doubts; 6000 or 12000 features fitted them within 3 px (0.56-0.86).
#: Right fits matched 0.27-0.92 on normal tuning photos of families 1, 3 and 121 (one under
#: 0.5 of 30) and down to 0.25 on hard ones, so a poor match only asks for another
#: search: it does not refuse the fit.
#: A fit the dense alignment moved (board.BoardFinder.refine) from a feature fit matching
#: under REFIT_NCC is searched for again too while it matches under REFIT_LIFTED: ECC
#: started that far off may stop on a wrong alignment it has barely lifted. Family 8207
#: (normal photo 8 of a 7x7 board): the feature fit 87 px off at the far grid corner,
#: matching 0.468, was moved to 0.515, 106 px off, and 23 squares were doubts (more
#: features: none). Fits the alignment leaves as they are never match differently, and on
#: normal photos of 8172-8189 and 8207 (206) and hard ones of 8172-8189 (144) the alignment
#: lifted a fit under 0.5 twice, once to 0.715 (2.9 px off: kept, as before).
REFIT = True
REFIT_NCC = 0.5
REFIT_LIFTED = 0.6
REFIT_FEATURES = (RETRY_FEATURES, 2 * RETRY_FEATURES)
REFIT_GAIN = 0.1


def border_match(board: BoardModel, gray: np.ndarray, homography: np.ndarray) -> float:
    """How well the board's printed border (where no piece ever lies) in the grey photo
    ``gray``, rectified by ``homography`` (board-image px to photo px), matches the enrolled
    board's: their normalised correlation there, -1 when too little of it is in view."""
    finder = board.finder
    s = finder.ref_scale
    rh, rw = finder.reference.shape[:2]
    to_photo = homography @ np.diag([1 / s, 1 / s, 1.0])
    view = cv2.warpPerspective(gray, to_photo, (rw, rh),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    sel = (finder.still > 0) & (view > 0)
    if sel.sum() < 100:
        return -1.0
    x = view[sel].astype(np.float64)
    y = finder.reference[sel].astype(np.float64)
    x, y = x - x.mean(), y - y.mean()
    return float((x * y).sum() / (np.sqrt((x * x).sum() * (y * y).sum()) + 1e-9))


def _refit_poor_match(board: BoardModel, photo: np.ndarray, features: PhotoFeatures,
                      used: int, located: Located, found: Located | None = None
                      ) -> Located:
    """``located`` (found among ``used`` features, ``found`` before its dense alignment),
    or a fit of ``board`` from more of the photo's features whose border matches better,
    when ``located``'s matches poorly (REFIT_NCC), or hardly better than a poor ``found``
    (REFIT_LIFTED)."""
    best, score = located, border_match(board, features.gray, located.homography)
    floor = REFIT_NCC
    if (found is not None and found is not located and REFIT_NCC <= score < REFIT_LIFTED
            and border_match(board, features.gray, found.homography) < REFIT_NCC):
        floor = REFIT_LIFTED
    for count in REFIT_FEATURES:
        if score >= floor:
            break
        if count <= used:
            continue
        more = PhotoFeatures(photo, count)
        found = board.finder.locate(more, refine=False)
        if found is None:
            continue
        fit = board.finder.refine(more.gray, found)
        fit_score = border_match(board, more.gray, fit.homography)
        if fit_score > score + REFIT_GAIN:
            best, score = fit, fit_score
    return best


#: The board found last is searched first when this many of every PEEK-th of its features
#: match the photo (board.BoardFinder.peek; another board's share matched 2-9 times on the
#: SAMPLE and held-out family 1000 photos, the right one's 25-95)
SURE_PEEK = 20


def _likeliest_first(boards: list[BoardModel], features: PhotoFeatures) -> list[BoardModel]:
    """``boards`` (apart, the one found last first) in the order to search ``features``
    for them: as they are when a quick match of a share of the first board's features
    (:meth:`BoardFinder.peek`) finds it likely there, else by how much of each board's share
    matches. The order only saves time: apart boards are found only where they are, and
    the share matched is not matched again."""
    if len(boards) < 2 or boards[0].finder.peek(features) >= SURE_PEEK:
        return boards
    return sorted(boards, key=lambda b: -b.finder.peek(features))


def _in_frame(board: BoardModel, hm: np.ndarray, frame: tuple[int, int]) -> np.ndarray:
    """For each square (row-major), the share of its corners' polygon inside the frame."""
    g = board.grid
    w, h = frame
    # every square's points in one go (each point is mapped on its own: the same places)
    r, c = np.divmod(np.arange(g.rows * g.cols), g.cols)
    xs = g.left + (c[:, None] + np.array([0.0, 1, 1, 0, 0.5])) * g.cell
    ys = g.top + (r[:, None] + np.array([0.0, 0, 1, 1, 0.5])) * g.cell
    p = project(hm, np.stack([xs.ravel(), ys.ravel()], axis=1)).reshape(len(r), 5, 2)
    inside = (p[..., 0] >= 1) & (p[..., 0] < w - 1) & (p[..., 1] >= 1) & (p[..., 1] < h - 1)
    return inside.mean(axis=1)


def read_board(model: Model, photo: np.ndarray) -> BoardReading:
    """Find the board in ``photo`` (BGR) and read every square."""
    t0 = time.perf_counter()
    board, located = locate(model, photo)
    t1 = time.perf_counter()
    hm = located.homography
    g = board.grid
    h, w = photo.shape[:2]
    frame_share = _in_frame(board, hm, (w, h))
    if frame_share.mean() < 0.6:
        raise RecognitionError(
            f"the board is mostly out of the frame (only {frame_share.mean():.0%} of its "
            "squares are in view); move the camera or the board so the whole board shows")
    s = CELL_PX / g.cell
    x0, y0 = g.left - PAD * g.cell, g.top - PAD * g.cell
    box = (x0, y0, g.left + (g.cols + PAD) * g.cell, g.top + (g.rows + PAD) * g.cell)
    view, fine = rectify(photo, hm, s, box, FINE)
    t2 = time.perf_counter()
    readings, evidence = _read_squares(model, board, view, fine, frame_share)
    # back to board-image pixels for the overlay
    for r in readings:
        r.centre = (x0 + r.centre[0] / s, y0 + r.centre[1] / s)
    if photo_drawing.PHOTO_DRAWING:  # look-alike doubts drawn into the photo itself
        photo_drawing.settle(model, board, hm, photo, readings)
    # the leaf of a tile under glare or in shade, by its true colours
    leaf_colours.settle(model, evidence, readings, view, board)
    # ... and every tile read surely, checked by them: a clearly better leaf is a doubt
    leaf_colours.check(model, evidence, readings, view, board)
    t3 = time.perf_counter()
    return BoardReading(board, located, readings,
                        {"locate": t1 - t0, "rectify": t2 - t1, "squares": t3 - t2})


def _read_squares(model: Model, board: BoardModel, view: np.ndarray, fine: np.ndarray,
                  frame_share: np.ndarray) -> tuple[list[SquareReading], Evidence]:
    """Every square of the rectified ``view`` (and ``fine``) judged, its doubts settled
    where the evidence allows; with the evidence, for the steps after."""
    names, evidence = gather(model, board, view, fine, frame_share)
    readings = [_judge(model, evidence, i, name) for i, name in enumerate(names)]
    # bare squares in shade taken for two look-alike tiles: bare, before the photo's doubts
    # are counted (they are no sign of a poor photo)
    shaded_bare.settle(evidence, readings)
    # bare squares doubted as veiled by glare where no glare lies: bare, likewise
    veil_without_glare.settle(evidence, readings)
    # doubts between the bare board and tiles whose true colours are the bare board's: bare
    # (still counted among the photo's doubts: see _counts_as_doubt)
    bare_colours.settle(model, evidence, readings, view, board)
    # ... and "empty or tile?" doubts whose true colours are a tile's: named as the looks
    # name them, in doubt still, for the next step to judge
    _named_where_colours_say_tile(model, evidence, readings)
    # tiles doubted as "tile or empty?" whose outline and print plainly show: named
    outlined_print.settle(evidence, readings, MAX_DISTANCE)
    # how poor the photo is, before anything is settled (if POOR_BEFORE_SETTLE)
    before = sum(map(_counts_as_doubt, readings)) if POOR_BEFORE_SETTLE else None
    if photo_exemplars.EXEMPLARS:  # look-alike doubts settled by the photo's sure squares
        photo_exemplars.settle(model, evidence, readings, fine)
    # after the poor photo's doubts: a glare spot's few doubts do not make a photo poor
    return veiled_leaves.doubt(model, evidence, _doubt_glare_lit(
        evidence, _doubt_poor_photo(readings, before))), evidence


#: An "empty or tile?" doubt read empty first (which-kind or bare-like, no name) whose true
#: colours fit the bare board at least outlined_print.TILE_COLOURS times worse than a tile
#: face (bare_colours.py's ``distances["board_over_tile"]``) holds a tile: the looks name it
#: (_name_tile), a look-alike doubt where they hesitate, else a "tile or empty?" doubt with
#: its name, which outlined_print judges as it judges the first look's own. Tuning photos
#: (2026-12-07; families 8167-8186, normal 20 of a 7x7 board and 6 of an 8x8 each, hard 8 of
#: a 7x7, and game family 7497's forests, faint light-green print): of the 8 such doubts on
#: tiles, 5 came at 4 or more, each then named right by the looks (one whose first look's
#: best face was wrong); no bare square nor counter on those photos came over 0.94.
COLOURED_TILE = True


def _named_where_colours_say_tile(model: Model, ev: Evidence, readings: list[SquareReading]
                                  ) -> list[SquareReading]:
    """``readings`` (row-major, judged from ``ev``) with each unnamed "empty or tile?"
    doubt whose colours say a tile (COLOURED_TILE) named as the looks name it, in doubt
    still, in place; returned for chaining."""
    least = outlined_print.TILE_COLOURS
    if not COLOURED_TILE or least is None:
        return readings
    for i, r in enumerate(readings):
        if not (r.kind == "uncertain" and r.name is None
                and r.doubt in ("which-kind", "bare-like")
                and r.distances.get("board_over_tile", 0.0) >= least):
            continue
        named = SquareReading(r.square, "tile", distances=dict(r.distances))
        _name_tile(model, ev, i, named)
        named.kind, named.confidence = "uncertain", 0.0
        if not named.doubt:
            named.doubted("bare-like", "tile or empty?")
        readings[i] = named
    return readings


def _judge(model: Model, ev: Evidence, i: int, square: str) -> SquareReading:
    """Square ``i``: empty, a tile, a counter, or uncertain (with the reason), from the
    evidence."""
    d1 = ev.tiles[i][0][0]
    look = ev.looks.get(i)  # the tile's closer look, if its call was close
    c1, _, _, _, _ = ev.counters.get(i, (float("inf"), 0.0, "", "", ev.centres[i]))
    if ev.disc[i] < DISC_NONE and not _counter_despite_outline(ev.structure[i], ev.tint.get(i)):
        c1 = float("inf")  # no round counter there
    if ev.structure[i] < NO_COUNTER_STRUCTURE:
        c1 = float("inf")  # no print at all: a patch of glare can pass for a disc
    if ev.disc[i] < DISC_SURE and _tile_face_fits(look, ev.tiles[i][0][2]):
        c1 = float("inf")  # a faint outline, and a tile's face fits as none fits a counter
    if OUTLINED_TILE and ev.outline[i] >= TILE_OUTLINE and ev.disc[i] < _outlined_disc(
            float(ev.outline[i])):
        c1 = float("inf")  # a tile's square outline, and no counter's strong round one
    # a square showing none of the sharp structure a tile brings holds no tile, however
    # poorly the bare board matches in its light (False when unmeasured: nan)
    bare = bool(ev.structure[i] < BARE_STRUCTURE)
    veiled = bare and _veiled_tile(float(ev.outline[i]), d1, float(ev.empty[i]))
    no_tile = bare or _counter_not_tile(c1, d1, float(ev.outline[i]), float(ev.sat[i]))
    kinds = {"empty": float(ev.empty[i]), "tile": float("inf") if no_tile else d1,
             "counter": c1}
    ranked = sorted(kinds, key=kinds.get)
    kind, other = ranked[0], ranked[1]
    kd1, kd2 = kinds[kind], kinds[other]
    reading = SquareReading(square, kind, distances={k: round(v, 4) for k, v in
                                                     kinds.items() if np.isfinite(v)})
    reading.distances["tile"] = round(d1, 4)
    reading.distances["outline"] = round(float(ev.outline[i]), 3)
    reading.distances["structure"] = round(float(ev.structure[i]), 4)
    kind_ratio = kd1 / max(kd2, 1e-9)
    no_counter = False  # the board's colours fit better than a counter's where it stands out
    edge, bright = ev.edge, ev.bright  # None where unmeasured (as tests may build evidence)
    glaring = bright is not None and bool(bright[i] > BRIGHT_BARE)
    faint = (not bare and edge is not None and bool(edge[i])
             and {kind, other} == {"empty", "tile"}
             and kind_ratio > EMPTY_TILE_RATIO / (1 + ev.sat[i])
             and bool(ev.structure[i] < FAINT_STRUCTURE) and not glaring)
    if faint:  # a near tie of bare board and tile, and too little print for a tile
        veiled = _veiled_tile(float(ev.outline[i]), d1, float(ev.empty[i]))
        kind, other = "empty", "tile"
        reading.kind = kind
    if {kind, other} == {"empty", "counter"} and i in ev.tint:
        # counter or bare board: their colours, under the same light, say it best
        dc, de = ev.tint[i]
        reading.distances["tint_counter"] = round(dc, 4)
        reading.distances["tint_empty"] = round(de, 4)
        kind, other = ("counter", "empty") if dc < de else ("empty", "counter")
        reading.kind = kind
        kind_ratio = min(dc, de) / max(dc, de, 1e-9)
        no_counter = _board_fits_better(dc, de, float(ev.sat[i]))
    conf = 1.0 - kind_ratio
    if kind == "tile":
        conf = min(conf, _name_tile(model, ev, i, reading))
    elif kind == "counter":
        conf = min(conf, _name_counter(ev, i, reading, kind_ratio))
    else:
        reading.centre = (float(ev.centres[i][0]), float(ev.centres[i][1]))
    limit = EMPTY_TILE_RATIO if {kind, other} == {"empty", "tile"} else KIND_RATIO
    # a counter's round outline and hardly a tile's square one: no tile to doubt it with
    rounded = (ROUND_COUNTER and (kind, other) == ("counter", "tile")
               and ev.disc[i] >= ROUND_DISC and ev.outline[i] < ROUND_OUTLINE)
    if (not reading.doubt and not no_counter and not faint and not rounded
            and kind_ratio > limit / (1 + ev.sat[i])):
        reading.doubted("which-kind", f"{kind} or {other}?")
    if not reading.doubt and (_bare_like(kind, d1, float(ev.empty[i]))
                               or _printed_bare(kind, float(ev.empty[i]),
                                                float(ev.structure[i]))):
        reading.doubted("bare-like", f"{kind} or {'empty' if kind == 'tile' else 'tile'}?")
    if not reading.doubt and (veiled or (kind == "empty" and (
            glaring or _print_under_glare(ev, i)))):
        reading.doubted("veiled", "empty, or a tile veiled by glare?")
    if not reading.doubt and kd1 > MAX_DISTANCE and not (bare and kind == "empty"):
        reading.doubted("unmatched", "matches nothing enrolled well")
    if (TINT_DOUBT and not reading.doubt and kind == "empty"
            and colours_say_counter(ev.tint.get(i))):
        reading.doubted("which-kind", "empty or counter?")
    if ev.white[i] > SATURATED and not _legible_through_glare(look, reading):
        reading.doubted("glare", "glare")
    if ev.frame_share[i] < 1.0:
        reading.doubted("out-of-frame", "not wholly in the photo")
    reading.confidence = max(0.0, min(1.0, float(conf))) if not reading.doubt else 0.0
    if reading.doubt:
        reading.kind = "uncertain"
    return reading


def _counter_not_tile(counter: float, tile: float, outline: float, sat: float) -> bool:
    """COUNTER_NOT_TILE: whether a square whose best counter and tile faces fit it
    ``counter`` and ``tile`` (a near tie: "counter or tile?" by KIND_RATIO) holds no tile,
    showing almost no square ``outline``. A counter far ahead of every tile is left as it is:
    taking the tile out would weigh it against the bare board's colours instead."""
    if COUNTER_NOT_TILE is None or not (np.isfinite(counter) and np.isfinite(tile)):
        return False
    tie = min(counter, tile) / max(counter, tile, 1e-9) > KIND_RATIO / (1 + sat)
    return tie and outline < COUNTER_NOT_TILE


def _outlined_disc(outline: float) -> float:
    """The round outline under which a square showing a tile's clear ``outline`` holds no
    counter (OUTLINED_DISC, OUTLINE_OVER_DISC)."""
    if OUTLINE_OVER_DISC is None:
        return OUTLINED_DISC
    return max(OUTLINED_DISC, outline - OUTLINE_OVER_DISC)


def _name_tile(model: Model, ev: Evidence, i: int, reading: SquareReading) -> float:
    """Name the tile on square ``i`` (its face, turn and season) in ``reading``, with the
    reason when the name is not sure; returns the name's confidence."""
    (d1, j1, name1), (d2, j2, name2) = ev.tiles[i]
    clipped = ev.tile_clipped[i]  # where the two differ: see _clipped_where_they_differ
    reading.centre = (float(ev.tile_at[i][0]), float(ev.tile_at[i][1]))
    reading.angle = float(ev.tile_angle[i] if ev.fine_angle is None else ev.fine_angle[i])
    gap = template_gap(ev.templates, j1, j2)
    margin = (d2 - d1) / max(gap, 1e-9)
    # the same gap in units of the photo's own misfit: blur and noise lower it
    zscore = misfit_z(d1, d2, gap)
    reading.distances["margin"] = round(margin, 3)
    reading.distances["z"] = round(float(zscore), 2)
    reading.distances["clipped"] = round(float(clipped), 3)
    conf = margin
    first_sure = margin >= NAME_MARGIN * (1 + 2 * clipped) and zscore >= NAME_Z
    look = ev.looks.get(i)
    if look is None:
        sure = first_sure
    else:
        # a close call: both looks must name the same face and one of them be sure, or a
        # firm first look must meet a closer look that cannot tell
        reading.distances["detail_margin"] = round(look.margin, 3)
        reading.distances["detail_noise"] = round(look.noise, 3)
        reading.distances["agree"] = float(look.names[0] == name1)
        reading.distances["detail_clipped"] = round(look.clipped, 3)
        reading.distances["detail_clearness"] = round(look.clearness, 3)
        if SIBLING_RIVAL and _unranked_sibling(look, name1, name2):
            first_sure = False  # its margin was not measured against that face
            name2 = look.names[2]  # the doubt, if any, is between the two leaves
            reading.distances["sibling_rival"] = 1.0
        if look.names[0] == name1:  # two looks agree: either sure is enough
            sure = first_sure or look.sure(AGREED_CLEARNESS, AGREED_MARGIN)
            conf = max(look.margin, margin)  # the clearer of two looks that agree
        elif (first_sure and zscore >= FIRM_Z and not look.sure(AGREED_CLEARNESS, 0.0)):
            # they disagree, but the closer look cannot tell the faces apart (not clear
            # enough even to confirm a name) and the first look is firm: it stands
            sure = True
            conf = min(conf, FIRM_CONFIDENCE)
        else:  # they disagree: only a clear closer look overrules the first, unless the
            # first is too weak to name anything
            sure = look.sure(STRONG_CLEARNESS, STRONG_MARGIN) or (
                zscore < WEAK_Z and look.sure(AGREED_CLEARNESS, AGREED_MARGIN))
            name2 = name1
            name1, j1 = look.names[0], look.names[1]
            conf = min(conf, look.margin)
    # both looks name one face, the closer look clearly in a good fit: a pair's veto must be
    # as far from that face as a pair settling a doubt alone (see VETO_CLEARNESS)
    clear = (look is not None and look.names[0] == name1 == ev.tiles[i][0][2]
             and _outweighs_a_veto(look))
    veto = PAIR_SURE if clear else PAIR_VETO
    pair = ev.pairs.get(i)
    if pair is not None and look is not None:
        # a learnt look-alike pair has judged the two faces at full resolution
        reading.distances["pair_fits"] = round(pair.fits, 2)
        reading.distances["pair_against"] = round(pair.against, 2)
        named = model.tile_names[4 * pair.winner]
        fits = pair.fits <= PAIR_FITS
        if _three_agree(look, ev.tiles[i][0][2], named, pair):
            reading.distances["three_agree"] = 1.0
            if leaf_of(named) != leaf_of(model.tile_names[4 * pair.loser]):
                reading.distances["pair_leaf"] = 1.0  # the pair judged the leaf too
        if sure and named != name1 and fits and pair.against >= veto:
            sure, name2 = False, named  # it names the other face: doubt
        elif (not sure and fits and pair.against >= PAIR_SURE and named in (name1, name2)
              and (named == look.names[0] or not PAIR_WITH_LOOK)
              and not (PAIR_NOISE and look.noise > PAIR_MAX_NOISE)):
            if named != name1:
                name1, name2 = named, name1
                j1 = 4 * pair.winner + int(model.tile_turns[look.names[1]])
            sure = True
            reading.distances["pair_sure"] = 1.0
            conf = min(1.0, pair.against / (2 * PAIR_SURE))
    if sure and look is not None and look.torn:  # the refit and the look as placed disagree
        sure = False
        reading.distances["torn"] = 1.0
    if sure and PARTNER_VETO and ev.partners is not None:
        rival = _rejected_by_a_partner(model, ev.partners(i, j1), j1 // 4, veto)
        if rival is not None:
            sure, name2 = False, rival
            reading.distances["partner_veto"] = 1.0
    reading.name = name1
    reading.turn = int(model.tile_turns[j1])
    reading.season = model.tile_seasons[j1]
    if not sure:
        reading.doubted("look-alike", f"looks like {name1} or {name2}")
        reading.candidates = (name1, name2)
    return conf


#: A close call whose closer look names the first look's face with, as its nearest rival, a
#: leaf sibling of it that the first look did not rank second (one evidence.LEAF_SIBLINGS
#: added on a glare-lit square) is sure only when the closer look is: the first look's
#: margin was measured against another face, so it says nothing of the leaf. On with
#: evidence.LEAF_SIBLINGS (measured together: its figures there).
SIBLING_RIVAL = True


def _unranked_sibling(look: Look, first: str, second: str) -> bool:
    """The closer look names ``first`` and its nearest rival is the same creature and fruit
    on another leaf, not the first look's ``second``."""
    best, rival = look.names[0], look.names[2]
    if best != first or rival == second:
        return False
    a, b = best.split("/"), rival.split("/")
    return len(a) == len(b) == 3 and a[:2] == b[:2] and a[2] != b[2]


def _name_counter(ev: Evidence, i: int, reading: SquareReading, kind_ratio: float) -> float:
    """Name the counter on square ``i`` in ``reading``, with the reason when it is not sure;
    returns the name's confidence."""
    _, margin, name, other, at = ev.counters[i]
    reading.name = name
    reading.centre = (float(at[0]), float(at[1]))
    reading.distances["margin"] = round(float(margin), 3)
    reading.distances["disc"] = round(float(ev.disc[i]), 3)
    if margin < COUNTER_MARGIN * (1 + 2 * ev.sat[i]):
        reading.doubted("look-alike", f"looks like {name} or {other}")
        reading.candidates = (name, other)
    elif (ev.disc[i] < DISC_SURE and kind_ratio > CLEAR_COUNTER
          and not _stands_out(ev.tint.get(i))):
        reading.doubted("counter-or-mark", "a counter, or a mark on the board?")
    return margin


def _legible_through_glare(look: Look | None, reading: SquareReading) -> bool:
    """A tile on a square washed out by glare (SATURATED) is still named when its name is
    sure and its closer look agrees as clearly as it would need to overrule a first look,
    with clipped colours where the faces differ asking more, as they always do: the print
    left among the clipped paper is then enough. The closer look fits each face under a veil
    and in the light left on the tile (detail.as_seen), which a washed-out tile needs.

    Measured: on the 1,600 analysis photos, every tile doubted for glare whose closer look
    was that clear was named right (two photos, in every style); photos made 35% too bright
    (60 each of art styles 1, 4, 9 and 12) left 999 squares in doubt before and 525 after,
    with no wrong answer either way; 15% too bright (style 12), 13 before and 9 after."""
    return (reading.kind == "tile" and not reading.doubt and look is not None
            and look.names[0] == reading.name and look.sure(STRONG_CLEARNESS, STRONG_MARGIN))


def _tile_face_fits(look: Look | None, first: str) -> bool:
    """The closer look names the first look's tile clearly enough to confirm it, and that
    face fits the photo as no tile face fits a counter (TILE_FITS). A counter search that
    finds only a faint outline there has found the tile's print."""
    return (look is not None and look.names[0] == first and look.noise <= TILE_FITS
            and look.sure(AGREED_CLEARNESS, AGREED_MARGIN))


def _stands_out(tint: tuple[float, float] | None, bar: float = CLEAR_TINT) -> bool:
    """A counter's colours fit the square clearly better than the bare board's, marks and
    all (``tint``: their colour distances, the counter placed where it stands out most): a
    faint round outline there is a counter's, not a mark on the board. Measured on 200
    analysis photos each of six art styles: every square doubted as "a counter, or a mark
    on the board?" was a counter named right, its colours 0.33-0.46 of the board's distance
    (20021 C4 in three styles, 20170 D2 in one); no bare square or tile came under 0.83.
    ``bar``: the share of the board's distance under which they do (CLEAR_TINT)."""
    return tint is not None and tint[0] < bar * tint[1]


def _board_fits_better(counter: float, bare: float, clipped: float) -> bool:
    """The bare board's colours fit the square better than any counter's (``counter`` and
    ``bare``: colour distances), where the counter was placed to stand out from the board
    most (counters.place_by_colour): no counter lies there. Clipped colours (``clipped``,
    a share of the square) ask for a wider margin, as for every kind.

    Measured on 200 analysis photos each of six art styles: the counters placed so fitted
    at most 0.81 of the board's distance (4,157 counters, 99% under 0.31), the bare
    squares searched for a counter at least 1.17 (206 squares); one bare square in every
    style, in glare that a white counter's round outline fits (20129 D4, 1.18-1.37), was
    doubted as "empty or counter?" by the ratio that judges the other way (KIND_RATIO)."""
    return counter >= (1.0 + clipped) * bare


#: A square read as empty that stands GLARE_LIT times brighter than the bare board under
#: the photo's light (evidence._brightness) and still shows some print (fine structure over
#: GLARE_PRINT of the faintest tile's) and half a tile's outline (GLARE_OUTLINE) may be a
#: tile washed out by glare: a doubt. Hard photos of tuning families (8000-8004, 39 read,
#: and 87 of 1-8, 121, 198 and 287 at seed 31000): of the 6 tiles read as empty under glare
#: (sure, confidence 1.0; 1.58-2.99 bright, print 0.04-0.49, outline 0.49-0.83) 5 are
#: caught, and 12 of the 2,341 bare squares read right.
GLARE_BARE = True
GLARE_LIT = 1.8
GLARE_PRINT = 0.03
GLARE_OUTLINE = 0.45


def _print_under_glare(ev: Evidence, i: int) -> bool:
    """Square ``i`` read as empty is glare-lit (GLARE_LIT), yet shows some print and a
    tile's outline (GLARE_PRINT, GLARE_OUTLINE): a tile the glare may have washed out."""
    return (GLARE_BARE and ev.bright is not None and bool(ev.bright[i] > GLARE_LIT)
            and bool(ev.structure[i] > GLARE_PRINT) and bool(ev.outline[i] > GLARE_OUTLINE))


def _bare_like(kind: str, tile: float, empty: float) -> bool:
    """A square read as a tile whose best face (``tile``: its distance) fits it hardly
    better than the bare board (``empty``): BARE_LIKE_RATIO."""
    return BARE_LIKE and kind == "tile" and tile > BARE_LIKE_RATIO * empty


def _printed_bare(kind: str, empty: float, structure: float) -> bool:
    """A square read as empty that the bare board misfits (``empty``: its distance over
    BARE_MISFIT) while it shows a tile's print (``structure`` over PRINTED; False when
    unmeasured: nan)."""
    return BARE_PRINT and kind == "empty" and empty > BARE_MISFIT and bool(structure > PRINTED)


def _veiled_tile(outline: float, tile: float, empty: float) -> bool:
    """A square too faint for a tile's structure may still hold one veiled by glare: a
    tile's clear outline is there and a tile fits it better than the bare board. Such a
    square is doubted, never read as empty."""
    return outline >= TILE_OUTLINE and tile < empty


def _counter_despite_outline(structure: float, tint: tuple[float, float] | None) -> bool:
    """A counter of the board's own colour shows a faint outline; it may still be read as a
    counter when the square has the sharp structure of a piece on it and its colours match a
    counter clearly better than the bare board's (:func:`_stands_out`); with only a little
    structure (a counter so soft its toadstools hardly show), when they match it within
    FAINT_TINT of the board's distance (FAINT_COUNTER)."""
    if bool(structure >= PIECE_STRUCTURE) and _stands_out(tint):  # (unmeasured: nan)
        return True
    return (FAINT_COUNTER and bool(structure >= NO_COUNTER_STRUCTURE)
            and _stands_out(tint, FAINT_TINT))


#: A learnt look-alike pair (recognition/lookalikes.py) names a close call's face when the
#: photo lies at least PAIR_SURE of the other face's spread from its training views and at
#: most PAIR_FITS of the named face's; it makes a name the looks agreed on a doubt when it
#: names the other face PAIR_VETO spreads away. Tuned on the tuning art families 1 and 3
#: (48 analysis photos, 644 close calls a pair judged): the looks alone left 5 wrong and 87
#: in doubt there, with the pairs 2 wrong and 64 in doubt. The pair alone was wrong on 13
#: of them (the synthetic training views spread less than photos do), so it is one more
#: vote, not the judge. A stricter PAIR_SURE with the pooled pairs (12 with views spoilt
#: up to 1.6 times, 14 without: no wrong settle left on hard tuning photos of families 1, 3
#: and 6) was measured and dropped: held out, families 1000-1004 kept 6 wrong squares (5
#: here) and doubts rose (240 -> 265; see benchmarks/RESULTS.md, issue #20).
PAIR_SURE = 7.0
PAIR_FITS = 4.0
PAIR_VETO = 3.0
#: A pair settles a doubt only for the face the closer look names, never against it. With
#: the faces refitted (close_calls.LOCAL_FIT), on hard photos of tuning families 1, 121,
#: 198 and 287 (6 each, seeds 20000+) the pairs' settles against the closer look were wrong
#: 7 times of 8, those with it 3 of 11 (normal photos: 2, both right and with the look). On,
#: with the refit only confirming (close_calls.LOCAL_CONFIRM; benchmarks/RESULTS.md, #20).
PAIR_WITH_LOOK = True
#: ... and only where the closer look's best face fits the photo where the two faces differ
#: (its noise at most PAIR_NOISE, as close_calls.MAX_NOISE asks of any sure closer look):
#: a pair's verdict is read inside the few directions it learnt, blind to a misfit outside
#: them, so a square that fits neither face (a third face, a poor place) can still lie
#: many spreads from one. Hard photos (seed 9000) of tuning families 1-8, 8000-8004,
#: 8035, 8036, 8042 and 8043: the pairs settled 30 close calls, 8 wrong, 7 of those with
#: the closer look misfitting 1.1-22.6, the right ones over 1.0 11 times; 8045-8049 (seen):
#: 5 settled, all right, 2 over 1.0. Wrong / uncertain / boards exactly right with it on
#: (BARE_LIKE and BARE_PRINT on): hard tuning photos (those 17 families, 136 photos) 17 /
#: 887 / 40 -> 13 / 913 / 40 (1 -> 0 on family 1, 3 -> 2 on 8036, 2 -> 0 on 8042; 8036 +12
#: doubts as a photo turns poor), 8045-8049 hard 5 / 259 / 9 -> 5 / 261 / 9. On since the
#: fresh set 8070-8074 (never run before; the same tree and models, the switch off then on,
#: 2026-12-05 00:09-00:13): hard 7 / 385 / 8 -> 5 / 388 / 8 (0.36% -> 0.26% wrong), normal
#: 0 / 269 / 86 either way; held out 1000-1004 hard 3 / 258 / 12 -> 3 / 260 / 12, normal
#: 2 / 176 / 97 -> 2 / 178 / 97.
PAIR_NOISE = True
PAIR_MAX_NOISE = 1.0

#: A close call whose three judges name the same face (the first look, a closer look this
#: clear with its best face misfitting the photo at most AGREED_NOISE of the two faces'
#: difference there, and a learnt pair at least PAIR_VETO spreads from the other face and
#: within PAIR_FITS of its own) keeps a sure name in a photo called poor (_doubt_poor_photo).
AGREED_NOISE = 0.7


def _three_agree(look: Look, first: str, named: str, pair: PairVerdict) -> bool:
    """The first look's face (``first``), the closer look's and the pair's (``named``) are
    one, the closer look confirms it clearly in a good fit (AGREED_CLEARNESS, AGREED_MARGIN,
    AGREED_NOISE) and the pair is clear of the other face (PAIR_VETO, PAIR_FITS)."""
    return (look.names[0] == first == named and look.noise <= AGREED_NOISE
            and look.sure(AGREED_CLEARNESS, AGREED_MARGIN)
            and pair.fits <= PAIR_FITS and pair.against >= PAIR_VETO)


#: A sure name is doubted when any learnt pair between its face and a look-alike of it (not
#: only the pair of the closer look's two best faces) names the look-alike, fitting it
#: within PAIR_FITS and PAIR_VETO spreads from the named face: with four fruits, the
#: truth may be a third face neither look ranked second.
PARTNER_VETO = True


def _rejected_by_a_partner(model: Model, verdicts: list[PairVerdict], face: int,
                           veto: float = PAIR_VETO) -> str | None:
    """The look-alike (tile name) that a learnt pair of ``face`` names instead of it, clear
    of ``face`` (``veto`` spreads: PAIR_VETO, or PAIR_SURE against a clear closer look) and
    fitting (PAIR_FITS); None when no pair rejects it."""
    for v in verdicts:
        if v.winner != face and v.fits <= PAIR_FITS and v.against >= veto:
            return model.tile_names[4 * v.winner]
    return None


#: A learnt pair's veto (PAIR_VETO, PARTNER_VETO) of a name both looks give needs the pair
#: PAIR_SURE spreads from that face, not PAIR_VETO, when the closer look is clear
#: (VETO_CLEARNESS, raised for clipped pixels as Look.sure does) with its best face
#: misfitting the photo where the two faces differ by at most VETO_NOISE of their
#: difference. On tuning photos (families 2-8 16 normal 7x7 each and 3-7 8 hard; 1, 121,
#: 198, 287 and 5014 10 normal, 1, 121 and 198 8 hard; seeds 30000+) a veto of
#: such a look was wrong 13 times (the pair 3.2-6.9 spreads from the look's face; four in
#: one photo of family 6, the pair's views unlike that photo) and right once, 3.1 spreads
#: away, where the look's best face misfit by 0.57 (the others by 0.08-0.29). Wrong /
#: uncertain / boards exactly right: held out 1000-1004 normal 3 / 203 / 97 -> 3 / 181 /
#: 98, hard 4 / 245 / 15 -> 4 / 239 / 15; fresh 8000-8004 normal 3 / 72 / 98 -> 3 / 69 /
#: 98 (benchmarks/RESULTS.md, issue #20).
VETO_CLEARNESS = 1.5
VETO_NOISE = 0.35


def _outweighs_a_veto(look: Look) -> bool:
    """A closer look clear enough (VETO_CLEARNESS) in a good enough fit (VETO_NOISE) that
    only a pair sure enough to settle a doubt alone (PAIR_SURE) may doubt its name."""
    return look.noise <= VETO_NOISE and look.sure(VETO_CLEARNESS, AGREED_MARGIN)


#: A tile named by a close first look (z under GLARE_Z) on a square GLARE_TILE times
#: brighter than the photo's tiles are (the median of the squares read as tiles, over the
#: bare board under the border's light: evidence._brightness) is under a patch of glare,
#: which veils its print as no template is veiled (the haze comparison takes one veil for
#: the whole tile; a glare spot is about a tile wide): a dark leaf then reads as the light
#: one of its colour, a fruit as another. Hard photos of tuning families (8000-8004, 39
#: read, and 87 of 1-8, 121, 198 and 287 at seed 31000): 6 of the 27 tiles named wrong
#: (1.54-2.54 times the photo's tiles, z 0.47-1.45), 9 of the 2,490 named right, when the
#: names the three judges agree on are kept (_three_agree: 15 more right names and two
#: wrong); normal photos of those families (138): 2 of 3,300 right names, none wrong. At
#: least GLARE_TILES tiles read give the reference.
GLARE_TILE = 1.5
GLARE_Z = 1.5
GLARE_TILES = 5
GLARE_DOUBT = True
#: ... and one named by a closer call still (z under SHADE_Z) on a square under SHADE_TILE
#: of the photo's tiles' brightness (a hard shadow, the dim edge of the light), where the
#: print's contrast sinks towards the photo's noise. Hard tuning photos (8000-8004 and 87 of
#: 1-8, 121, 198 and 287, seed 31000): 6 of 27 tiles named wrong, 18 of 2,490 named right
#: (three judges agreeing kept, as above); normal photos: 1 of 3,300 right names.
#: **Off** since every family's fruits are legible (families.LEGIBLE_*, 5 December 2026):
#: hard photos of tuning families 1-8 and 41-56 (192, seed 9000), of its 44 doubts 43 were
#: named right, one wrong (a dark leaf at 0.45 of the tiles' light, z 0.93, the judges
#: agreeing: nothing set it apart from the right ones at z 0.0-0.92 and 0.28-0.78 of the
#: light); fresh 8162-8166 (never run before; wrong / uncertain / boards exactly right) hard
#: 9 / 342 / 50 -> 10 / 327 / 52 of 130, normal 0 / 18 / 116 -> 0 / 17 / 116; fresh
#: 8167-8171 hard 14 / 431 / 60 -> 16 / 398 / 68 of 130.
SHADE_TILE = 0.65
SHADE_Z = 1.0
SHADE_DOUBT = False
#: Under glare (GLARE_TILE), the three judges agreeing (_three_agree) keeps a close call's
#: name only when their learnt pair told two leaves apart: a glare spot veils a dark leaf
#: into the light one of its colour (oak as maple, horse-chestnut as beech), and a pair
#: between two fruits says nothing of the leaf. Hard photos (seed 9000) of tuning families
#: 1-8, 8000-8004, 8035, 8036, 8042, 8043 and of 8045-8049 (issue #20, seen): the glare
#: spot's close calls so kept on a fruit pair were named right 25 times and wrong twice,
#: both a dark leaf read as the light one (horse-chestnut as beech, 1.60 and 1.78 times the
#: photo's tiles' light); the three kept on a leaf pair were right. Built and **off**: on
#: fresh 8065-8069 (never run before; with BARE_LIKE and BARE_PRINT on, wrong / uncertain /
#: boards exactly right) hard photos 6 / 226 / 9 -> 5 / 235 / 8, but normal ones 2 / 127 /
#: 92 -> 2 / 138 / 88: one wrong square fewer for 20 doubts, 11 of them on normal photos
#: (glare spots of 1.6-1.9 there too) where it caught nothing.
GLARE_LEAF = False
#: A look-alike doubt between two leaves (of one creature and fruit) on a square under glare
#: (GLARE_TILE) is a glare doubt without candidates, so that no later step settles it
#: (photo_exemplars, round_robin, drawn_parts, photo_drawing): the glare veils a dark leaf
#: towards the light one, as no drawing of either is veiled. Hard photos (seed 9000) of tuning
#: families 8060-8064, 1-8, 8000-8004, 8035, 8036, 8066, 8068, 8069 with the closer look
#: comparing leaf siblings (evidence.LEAF_SIBLINGS): the photo-drawing step settled a doubt
#: there at 1.59 times the photo's tiles' light wrongly (horse-chestnut as beech, z 12); its
#: 12 right settles between two leaves lay at 0.3-1.21 of that light, but one at 1.54. On
#: with evidence.LEAF_SIBLINGS (measured together: its figures there).
GLARE_LEAF_DOUBT = True


def _doubt_glare_lit(ev: Evidence, readings: list[SquareReading]) -> list[SquareReading]:
    """Tiles named by a close call under a patch of glare (GLARE_TILE, GLARE_Z), or, with
    SHADE_DOUBT (off), a closer one in deep shade (SHADE_TILE, SHADE_Z), are doubted, unless
    the three judges agree on the name (_three_agree: as a poor photo's close calls,
    _doubt_poor_photo)."""
    if not (GLARE_DOUBT or SHADE_DOUBT):
        return readings
    usual = usual_tile_light(ev, readings, GLARE_TILES)
    if usual is None:
        return readings
    assert ev.bright is not None  # measured, as the usual light is
    for k, r in enumerate(readings):
        if GLARE_LEAF_DOUBT and r.lookalike_doubt and leaf_of(r.candidates[0]) != leaf_of(
                r.candidates[1]) and float(ev.bright[k]) / usual > GLARE_TILE:
            # a leaf doubt under glare: no later step is to settle it between the two
            r.doubted("glare-lit", f"glare on the tile: {r.name}, or another?")
            r.candidates = ()
            r.distances["glare_lit"] = round(float(ev.bright[k]) / usual, 3)
            continue
        if r.kind != "tile":
            continue
        z, light = r.distances.get("z", 99), float(ev.bright[k]) / usual
        agreed = bool(r.distances.get("three_agree"))
        if agreed and light > GLARE_TILE and GLARE_LEAF and not r.distances.get("pair_leaf"):
            agreed = False  # the judges agree on a fruit; the glare veils the leaf
        if agreed:
            continue
        glare = GLARE_DOUBT and z < GLARE_Z and light > GLARE_TILE
        shade = SHADE_DOUBT and z < SHADE_Z and light < SHADE_TILE
        if glare or shade:
            # no candidates: under the glare the truth is often neither of the best two
            # (the deduction from the game's rules settles only a doubt between two names)
            r.kind, r.confidence, r.candidates = "uncertain", 0.0, ()
            r.doubted("glare-lit" if glare else "shade-lit",
                      f"{'glare' if glare else 'shade'} on the tile: {r.name}, or another?")
            r.distances["glare_lit"] = round(light, 3)
    return readings


POOR_PHOTO = 0.2     # this share of squares unsure: the photo itself is poor ...
POOR_Z = 3.0         # ... so every close call is doubted too
POOR_COUNTER = 0.15
#: ... but a tile the first look names with z of at least POOR_FIRM_Z and the closer look
#: names too, its best face misfitting the photo where the faces differ by at most
#: POOR_NOISE of their difference (close_calls.MAX_NOISE: as well as any sure closer look
#: must fit), keeps its name. Hard photos of tuning families (8000-8004, 8035, 8036, 8042,
#: 8043, 7343 at seed 9000; 8035, 8036, 8042, 8043, 7343, 121, 198, 287 at 52000; 1-8 at
#: 31000; 206 photos read, 59 of them poor): of 328 close calls a poor photo doubted, 300
#: were named right and 28 wrong (z 0.01-2.08); this keeps 31 right ones and no wrong one
#: (the wrong ones at z 2.02 and 2.08 misfit by 3.0 and 28, the next at 1.8). z alone at
#: 2.0 kept 2 wrong; at 2.2 none (40 right), a hair above the wrong one at 2.08.
POOR_FIRM_Z = 2.0
POOR_NOISE = 1.0
#: Count the photo's share of doubts before its look-alike doubts are settled by its own
#: squares (photo_exemplars)? Settling names squares, it does not make the photo sharper,
#: and a settle that took the share under POOR_PHOTO let a weak close call stand (a tuning
#: photo of family 287, with drawn_parts on). Off: with photo_exemplars alone it changed no
#: reading of fresh 8040-8044 (normal 3 / 96 / 93, hard 5 / 290 / 11 wrong / uncertain /
#: exact either way) or of tuning 8000-8004 hard, and added 10 doubts (440 -> 450), no wrong
#: square fewer, on tuning 121, 198 and 287; drawn_parts keeps its own guard.
POOR_BEFORE_SETTLE = False


def _firm_in_a_poor_photo(r: SquareReading) -> bool:
    """A tile named firmly enough (POOR_FIRM_Z) by a first look and by a closer look whose
    best face fits the photo well (POOR_NOISE), to stand in a poor photo."""
    noise = r.distances.get("detail_noise")
    return (r.distances.get("z", 0.0) >= POOR_FIRM_Z and r.distances.get("agree") == 1.0
            and noise is not None and noise <= POOR_NOISE)


def poor_photo(readings: list[SquareReading], unsure: int | None = None) -> bool:
    """Whether so many squares are in doubt (``unsure`` of them, else those of ``readings``)
    that the photo itself is poor (POOR_PHOTO): its weak close calls are then doubted too,
    and the steps that settle doubts leave it as it is (settling could lift it under that
    share and so let the weak calls stand)."""
    if unsure is None:
        unsure = sum(map(_counts_as_doubt, readings))
    return unsure > POOR_PHOTO * len(readings)


def _counts_as_doubt(r: SquareReading) -> bool:
    """Whether ``r`` counts among the doubts that say how poor a photo is: a doubt, or a
    doubt bare_colours settled (the glare or shade that left a bare square's print unread is
    a sign of a poor photo all the same; counted so, the step changes no other square's
    reading through the poor-photo rules: on hard tuning photos, uncounted, it let a poor
    photo's close call stand, named wrong)."""
    return r.kind == "uncertain" or "bare_colours" in r.distances


def _doubt_poor_photo(readings: list[SquareReading], unsure: int | None = None
                      ) -> list[SquareReading]:
    """When many squares are unreadable (``unsure`` of them, else those of ``readings``: a
    dim, blurred or badly lit photo), trust the rest less: a reading that would pass in a
    good photo is not sure in a poor one."""
    if unsure is None:
        unsure = sum(map(_counts_as_doubt, readings))
    if not poor_photo(readings, unsure):
        return _doubt_poorish_photo(readings, unsure)
    for r in readings:
        weak = ((r.kind == "tile" and r.distances.get("z", 99) < POOR_Z
                 and not _spared_in_a_poor_photo(r) and not _firm_in_a_poor_photo(r))
                or (r.kind == "counter" and r.distances.get("margin", 1) < POOR_COUNTER))
        if weak:
            _doubt_close_call(r)
    return readings


def _spared_in_a_poor_photo(r: SquareReading) -> bool:
    """A tile named by a learnt pair surely, or by three judges agreeing: never a poor
    photo's close call."""
    return bool(r.distances.get("pair_sure") or r.distances.get("three_agree"))


def _doubt_close_call(r: SquareReading) -> None:
    """``r`` doubted as a poor photo's close call (its name kept, for the later steps)."""
    r.kind, r.confidence = "uncertain", 0.0
    r.doubted("poor-photo", "poor photo: a close call")


#: A photo nearing poor (over POOR_FROM of its squares in doubt, at most POOR_PHOTO) doubts
#: its weakest overruled close calls: a tile the closer look named against the first look,
#: the first look's z under POOR_Z times how far the share has risen from POOR_FROM towards
#: POOR_PHOTO (0 at POOR_FROM, POOR_Z at POOR_PHOTO), unless spared as in a poor photo
#: (pair_sure, three_agree). So the weak calls' doubt rises with the share instead of
#: falling off a cliff at POOR_PHOTO, where a settle that lifts a photo just under it let its
#: weak calls stand. Why only overrules, and why not fewer doubts in poor photos (issue #20;
#: benchmarks/the_glade_poor_photo.py, tuning families 121, 198, 287, 8042, 8043, 1, 54, 61,
#: 80, 8054, 8035, 8036, 8059, 8069 and 44, normal 8 + 2 at seeds 9000 and 31000, hard 8 at
#: 9000 and 52000, 539 photos): of the 169 photos called poor, 126 hold no doubt that speaks
#: of the photo (glare, veiled, bare-like, which-kind: 117 of their 3,083 doubts); their share
#: is look-alike doubts, and their weak close calls are named wrong 2-10% of the time
#: in every kind (both looks agreeing clearly in a good fit too: family 287's normal photo
#: 7-6 at seed 31000, C2, share 0.20, noise 0.70, clearness 1.4) and whatever the photo's
#: median z or closer-look noise, the square's light or its neighbours' doubts, so none can
#: be spared by those. Under
#: POOR_PHOTO the weak calls named wrong are mostly overrules (hard: 5 of 173 overrules named
#: wrong at share 0-0.1, 7 of 116 at 0.1-0.2; normal 2 of 607, 2 of 97). From the saved
#: readings this doubts 29-33 right overrules and catches 2-3 wrong per 120 hard photos, 19-20
#: right and 0-1 wrong per 150 normal ones (POOR_FROM 0.08: 3 more caught over the four sets
#: for 64 more doubts). Tuning (10 families
#: 121, 198, 287, 8042, 8043, 1, 54, 61, 80, 8054; 8e4d74d's tree, the switch off -> on):
#: normal 8 + 2 each 5 / 449 / 40 -> 5 / 451 / 40 wrong / uncertain / exactly right, hard 8
#: each 8 / 1,149 / 6 -> 6 / 1,159 / 6 (8054 photo 6 A6, 287 photo 0 D1 caught). Fresh
#: 8110-8114 (never run before; 8e4d74d's tree, then with this, the same models): normal
#: (20 + 6 each) 4 / 183 / 91 -> 3 / 189 / 91 (8110 photo 7-10 F7 caught), hard (8 each)
#: 12 / 230 / 11 -> 12 / 231 / 11; no square wrong that was not, on either set.
POOR_GRADED = True
POOR_FROM = 0.1


def _doubt_poorish_photo(readings: list[SquareReading], unsure: int) -> list[SquareReading]:
    """A photo over POOR_FROM of its squares in doubt (``unsure`` of them) but not poor:
    its weakest overruled close calls are doubted as a poor photo's, the weaker the call
    the sooner (POOR_GRADED)."""
    if not POOR_GRADED or not readings:
        return readings
    share = unsure / len(readings)
    if share <= POOR_FROM:
        return readings
    limit = POOR_Z * min(1.0, (share - POOR_FROM) / (POOR_PHOTO - POOR_FROM))
    for r in readings:
        if (r.kind == "tile" and r.distances.get("agree") == 0.0
                and r.distances.get("z", 99) < limit and not _spared_in_a_poor_photo(r)):
            _doubt_close_call(r)
    return readings
