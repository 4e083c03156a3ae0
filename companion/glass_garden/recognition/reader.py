"""Reading a Glass Garden from one photo: the 9 columns and the 6 glass cards.

How: (1) what is not table (:func:`~companion.vision.cards.find.foreground`), at a working
size; (2) outlines where the garden may be: the two glass columns, the only places three cards
stand one above the other (:func:`~companion.vision.cards.find.stacks`), whose outer corners
are the garden's corners; (3) the garden rectified through an outline and each glass card
found there by its own face (:func:`~companion.vision.cards.find.align`: the faces it looks
likeliest to be, matched by normalised correlation, which needs no contrast between card and
table); fewer than four glass cards found, and the outline is passed over for the next, or,
found only roughly, tried again as they give it; (4) the garden's grid drawn through the
glass cards found, and in each column each row looked at the same way: the card is in the row
its face matches best, unless another row matches nearly as well and shows a face for sure;
(5) each card cut upright from the photo where it was found and identified among the faces it
may be (a glass position: the glass faces, read as sunlight or dark; a column: the plants and
critters). When no outline stands out (cards the table's colour), the glass cards are looked
for by their faces all over the photo (:func:`glass_outlines`). Anything not read with
confidence is left out and listed in ``uncertain``, never guessed; a plant read twice is
unsure in both places; a critter not in the middle row is unsure.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.errors import RecognitionError
from companion.glass_garden.deck import GLASS_POSITIONS, ROWS
from companion.glass_garden.recognition.art import CRITTER_FACES, GLASS_FACES
from companion.vision.cards.faces import Verdict
from companion.vision.cards.find import (
    WORK_WIDTH,
    align,
    card_height,
    card_quad,
    cut_card,
    extreme,
    foreground,
    search,
    settle,
    stacks,
)
from companion.vision.cards.model import CardModel

#: How far (share of the card's height) a card is settled in the mask around its slot.
REACH = 0.09
#: A slot this much covered by card in the mask, with no other row of its column covered
#: ``SECOND`` as much, is the mask's clear say on the column's row: the faces must agree.
FULL, SECOND = 0.6, 0.3
#: How many faces (the likeliest by the rough cut) a card is then looked for by, how far
#: around its rough place (share of the card's height), and how well at least one must match
#: (normalised correlation) for a column's card to be looked at.
SHORTLIST, ALIGN_REACH, ALIGN_MIN = 3, 0.2, 0.3
#: A glass card is surely where its face matches this well (the grid is drawn through those);
#: a column's card is in the row its face matches best, at least ``ROW_MATCH`` and ``ROW_LEAD``
#: ahead of any other row's match (one not of this same card), else the column is unsure.
CARD_MATCH, ROW_MATCH, ROW_LEAD = 0.6, 0.45, 0.25
#: Glass cards matching this well (not ``CARD_MATCH``) only give an outline to try again.
ROUGH_MATCH = 0.45
#: The garden's corners may stand this far from square (degrees) in the photo.
SKEW_MAX = 5.0
#: At most this many outlines are tried.
OUTLINES = 4
#: When nothing is outlined, glass cards are looked for all over the photo shown this tall
#: (pixels), the photo turned by each of these angles (degrees).
SEARCH_HEIGHT, SEARCH_TURNS = 40, (0.0, -4.0, 4.0, -8.0, 8.0)
#: ... and taken where one matches at least this well (the outline is then checked as any).
SEARCH_MATCH = 0.5
#: The sizes (share of the size measured) a card is looked for at: before the grid is known,
#: and once the glass cards gave it.
SCALES = (0.91, 0.94, 0.97, 1.0, 1.03, 1.06, 1.09)
NEAR_SCALES = (0.97, 1.0, 1.03)


def _grid(found: list[tuple[tuple[float, float, float, float], float]], sure: list[int]
          ) -> np.ndarray | None:
    """The garden's grid (column and row -> card centre) through the glass cards ``sure``
    (indices into ``found``, the six glass cards' boxes and matches): a perspective when two
    or more stand on each side, else the nearest affine map; None with fewer than four or
    none on a side."""
    left = [i for i in sure if i < 3]
    if len(sure) < 4 or not left or len(left) == len(sure):
        return None
    src = np.float32([[0 if i < 3 else 10, i % 3] for i in sure])
    dst = np.float32([[b[0] + b[2] / 2, b[1] + b[3] / 2] for b, _c in (found[i] for i in sure)])
    if min(len(left), len(sure) - len(left)) >= 2:
        grid, _ok = cv2.findHomography(src, dst, 0)
        return grid
    affine, _ok = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)
    return None if affine is None else np.vstack([affine, [0, 0, 1]])


def _skew(grid: np.ndarray, to_photo: np.ndarray, w: float, h: float) -> float:
    """How far (degrees) from square the garden's corners stand in the photo, through
    ``grid``: a camera tilted a little keeps them near 90 degrees, a garden whose glass
    column was found a row off on one side does not."""
    corners = np.array([_at(grid, 0, 0, w, h)[:2], np.add(_at(grid, 10, 0, w, h)[:2], (w, 0)),
                        np.add(_at(grid, 10, 2, w, h)[:2], (w, h)),
                        np.add(_at(grid, 0, 2, w, h)[:2], (0, h))], np.float32)
    quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_photo).reshape(4, 2)
    worst = 0.0
    for i in range(4):
        a, b = quad[i - 1] - quad[i], quad[(i + 1) % 4] - quad[i]
        cos = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
        worst = max(worst, abs(float(np.degrees(np.arccos(np.clip(cos, -1, 1)))) - 90.0))
    return worst


def _at(grid: np.ndarray, col: float, row: float, w: float, h: float
        ) -> tuple[float, float, float, float]:
    """The box of size ``w`` x ``h`` centred where ``grid`` puts column ``col``, row ``row``."""
    x, y = cv2.perspectiveTransform(np.float32([[[col, row]]]), grid).reshape(2)
    return (float(x) - w / 2, float(y) - h / 2, w, h)


@dataclass
class Card:
    """One card read: its slot ('1'-'9' or a glass position), row, outline in the photo and
    what it shows (``verdict.face`` None: not sure)."""

    slot: str
    row: int
    quad: np.ndarray
    verdict: Verdict | None
    label: str = ""


@dataclass
class Reading:
    """A garden read from a photo: the state file (with ``uncertain``) and the cards."""

    data: dict[str, Any]
    cards: list[Card] = field(default_factory=list)
    outline: np.ndarray | None = None
    seconds: float = 0.0


def _no_garden(why: str) -> RecognitionError:
    return RecognitionError(f"no garden found in the photo ({why}); photograph the whole garden "
                            "from above, both glass columns in view")


def locate(photo: np.ndarray, aspect: float) -> tuple[np.ndarray, np.ndarray, float]:
    """The garden's corners in the photo (TL, TR, BR, BL), the working-view mask and the
    working scale (working px per photo px): the first of :func:`outlines`."""
    for found in outlines(photo, aspect):
        return found
    raise AssertionError("outlines() raises when it finds nothing")  # pragma: no cover


def outlines(photo: np.ndarray, aspect: float
             ) -> Iterator[tuple[np.ndarray, np.ndarray, float]]:
    """Where the garden may be, likeliest first: its corners in the photo (TL, TR, BR, BL),
    the working-view mask and the working scale (working px per photo px). Raises 'no garden'
    when there is no outline at all."""
    h, w = photo.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(photo, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    mask = foreground(small)
    guess = card_height(mask, aspect)
    # the lone cards' height first; then, if no two glass columns stand that tall, other
    # heights a garden in view can have (a card is 1/12 to 1/3 of the view's height)
    tries = ([guess] if guess else []) + list(small.shape[0] * np.geomspace(1 / 12, 1 / 3, 14))
    why = "no glass column of three cards"
    given: list[np.ndarray] = []
    for card_h in tries:
        found = stacks(mask, card_h)
        if not found:
            continue
        left, right = found[0], found[-1]
        if len(found) == 1 and np.ptp(left[:, 0]) < 2.0 * np.ptp(left[:, 1]):
            why = "only one glass column"
            continue
        tl, bl = extreme(left, (-1, -1)), extreme(left, (-1, 1))
        tr, br = extreme(right, (1, -1)), extreme(right, (1, 1))
        quad = np.array([tl, tr, br, bl], np.float64)
        width = np.linalg.norm(tr - tl) + np.linalg.norm(br - bl)
        height = np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)
        if not 2.0 <= width / max(height, 1) <= 3.6:
            why = "the glass columns are not where a garden's would be"
            continue
        if any(np.abs(quad - q).max() < 0.1 * card_h for q in given):
            continue  # the same outline again
        given.append(quad)
        yield quad / scale, mask, scale
    if not given:
        raise _no_garden(why)


def _gaps(profile: np.ndarray, size: float) -> tuple[float, float]:
    """The two row gaps (pixels) in a glass column's coverage ``profile`` (top to bottom)."""
    out = []
    n = len(profile)
    for k in (1, 2):
        c = k * n / 3
        lo, hi = int(max(0, c - 0.12 * n)), int(min(n, c + 0.12 * n))
        seg = profile[lo:hi] < 0.5
        out.append(float(seg.sum()) if seg.any() else 0.0)
    del size
    return out[0], out[1]


def read_garden(model: CardModel, photo: np.ndarray, deck: Any) -> Reading:
    """Read ``photo`` with ``model``; names as ``deck`` (a Deck) spells them. Each outline
    where the garden may be is tried until its glass cards are found there by their faces."""
    start = time.perf_counter()
    cw_mm, ch_mm = model.card_size_mm
    aspect = cw_mm / ch_mm
    why = "no glass cards where the garden's corners seemed to be"
    try:
        for n, (quad, mask, scale) in enumerate(outlines(photo, aspect)):
            if n >= OUTLINES:
                break
            reading = _read_at(model, photo, deck, quad, mask, scale, aspect)
            if reading is not None:
                reading.seconds = time.perf_counter() - start
                return reading
    except RecognitionError as exc:
        why = str(exc)
    # the cards stand out too little from the table: the glass cards looked for by their faces
    for quad, mask, scale in glass_outlines(model, photo, aspect):
        reading = _read_at(model, photo, deck, quad, mask, scale, aspect)
        if reading is not None:
            reading.seconds = time.perf_counter() - start
            return reading
    if why.startswith("no garden found"):
        raise RecognitionError(why)
    raise _no_garden(why)


def glass_outlines(model: CardModel, photo: np.ndarray, aspect: float
                   ) -> Iterator[tuple[np.ndarray, np.ndarray, float]]:
    """Where the garden may be by its glass cards alone, each looked for by its faces all over
    the photo (at the lone cards' height or a few a garden in view can have, turned a little
    either way): outlines as :func:`outlines` gives them. For photos whose cards stand out too
    little from the table to be outlined."""
    h, w = photo.shape[:2]
    scale = min(1.0, WORK_WIDTH / w)
    small = cv2.resize(photo, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    mask = foreground(small)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    glass = {i: model.model.templates[i] for i, (_c, f) in enumerate(model.faces)
             if f in GLASS_FACES}
    guess = card_height(mask, aspect)
    heights = (([guess * k for k in (1.0, 0.93, 1.07)] if guess else [])
               + list(small.shape[0] * np.geomspace(1 / 9, 1 / 4, 8)))
    th = SEARCH_HEIGHT
    tw = round(th * aspect)
    sh, sw = gray.shape
    for card_h in heights:
        for angle in SEARCH_TURNS:
            f = th / card_h
            turn = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, f)
            out_w, out_h = round(sw * f * 1.1), round(sh * f * 1.1)
            turn[:, 2] += (out_w / 2 - sw / 2, out_h / 2 - sh / 2)
            view = cv2.warpAffine(gray, turn, (out_w, out_h), flags=cv2.INTER_AREA,
                                  borderMode=cv2.BORDER_REPLICATE)
            quad = _glass_quad(search(view, glass, (tw, th), SEARCH_MATCH), tw, th)
            if quad is None:
                continue
            back = cv2.invertAffineTransform(turn)
            quad = quad @ back[:, :2].T + back[:, 2]
            yield quad / scale, mask, scale


def _glass_quad(peaks: list[tuple[float, float, float, int]], tw: int, th: int
                ) -> np.ndarray | None:
    """The garden's corners from the glass cards found (top-left corners ``peaks``, cards
    ``tw`` x ``th``): the leftmost and rightmost stacks of two or three; None when they do not
    stand as a garden's glass columns."""
    if len(peaks) < 4:
        return None
    xs = np.array([p[0] for p in peaks])
    ys = np.array([p[1] for p in peaks])
    left = xs <= xs.min() + tw / 2
    right = xs >= xs.max() - tw / 2
    if left.sum() < 2 or right.sum() < 2 or xs.max() - xs.min() < 5 * tw:
        return None
    spans = []
    for side in (left, right):
        top, bottom = ys[side].min(), ys[side].max() + th
        if side.sum() > 3 or bottom - top > 3.6 * th:
            return None
        spans.append((top, bottom, side.sum() == 3))
    # a column of two (one card not matched) takes its top and bottom from the other
    (lt, lb, l3), (rt, rb, r3) = spans
    if l3 and not r3:
        rt, rb = rt + (lt - lt), rt + (lb - lt) if abs(rt - lt) < th / 2 else rb - (lb - lt)
    elif r3 and not l3:
        lt, lb = lt, lt + (rb - rt) if abs(lt - rt) < th / 2 else lb - (rb - rt)
    x0, x1 = xs[left].min(), xs[right].max() + tw
    quad = np.array([[x0, lt], [x1, rt], [x1, rb], [x0, lb]], np.float64)
    width, height = x1 - x0, (lb - lt + rb - rt) / 2
    return quad if 2.0 <= width / max(height, 1) <= 3.6 else None


def _read_at(model: CardModel, photo: np.ndarray, deck: Any, quad: np.ndarray,
             mask: np.ndarray, scale: float, aspect: float, refine: bool = True
             ) -> Reading | None:
    """The garden read from ``photo`` in the outline ``quad``; None when fewer than four of
    its glass cards are found there by their faces (not a garden, or not this outline). With
    ``refine``, glass cards matched only roughly give a better outline, read again once."""
    got = _read_in(model, photo, deck, quad, mask, scale, aspect, None)
    if isinstance(got, tuple) and refine:
        again = _read_in(model, photo, deck, got[0].astype(np.float64), mask, scale, aspect,
                         got[1])
        return again if isinstance(again, Reading) else None
    return got if isinstance(got, Reading) else None


def _read_in(model: CardModel, photo: np.ndarray, deck: Any, quad: np.ndarray,
             mask: np.ndarray, scale: float, aspect: float,
             size: tuple[float, float] | None
             ) -> Reading | tuple[np.ndarray, tuple[float, float]] | None:
    """:func:`_read_at`'s one reading: a Reading, None, or the outline (photo corners) and
    card size (rectified view) to read again with. ``size``: the card size measured by a
    reading before (else it is measured down the glass columns of the mask)."""
    top = np.linalg.norm(quad[1] - quad[0])
    bottom = np.linalg.norm(quad[2] - quad[3])
    side = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    # the rectified view: about the working view's pixels
    k = scale
    wr, hr = (top + bottom) / 2 * k, side * k
    rect = np.float32([[0, 0], [wr, 0], [wr, hr], [0, hr]])
    to_photo = cv2.getPerspectiveTransform(rect, quad.astype(np.float32))
    work_to_rect = cv2.getPerspectiveTransform((quad * k).astype(np.float32), rect)
    rmask = cv2.warpPerspective(mask, work_to_rect, (int(np.ceil(wr)), int(np.ceil(hr))),
                                flags=cv2.INTER_NEAREST)
    binary = (rmask > 0).astype(np.uint8)
    # card height and row gaps down both glass columns
    w0 = hr / 3.1 * aspect
    gaps = []
    for x0 in (0.0, wr - w0):
        strip = binary[:, int(x0 + 0.25 * w0):int(x0 + 0.75 * w0)]
        if strip.size:
            gaps.append(_gaps(strip.mean(axis=1), hr))
    g1 = float(np.mean([g[0] for g in gaps])) if gaps else 0.0
    g2 = float(np.mean([g[1] for g in gaps])) if gaps else 0.0
    h = (hr - g1 - g2) / 3
    w = h * aspect
    if size is not None:
        w, h = size
        g1 = g2 = max(0.0, (hr - 3 * h) / 2)
    gy = (g1 + g2) / 2
    gx = max(-0.03 * w, (wr - 11 * w) / 10)
    if not -0.1 * w < gx < 0.6 * w:
        return None  # the cards between the glass columns do not fit 9 columns
    integral = cv2.integral(binary)
    reach = REACH * h

    def box(col: int, row: int) -> tuple[float, float, float, float]:
        return (col * (w + gx), row * (h + gy), w, h)

    faces = model.model
    glass_ids = [i for i, (_, f) in enumerate(model.faces) if f in GLASS_FACES]
    column_ids = [i for i, (_, f) in enumerate(model.faces) if f not in GLASS_FACES]
    # the rectified view (gray, with room around) in which cards are found by their faces
    small = cv2.resize(photo, (mask.shape[1], mask.shape[0]), interpolation=cv2.INTER_AREA)
    pad = int(np.ceil(0.4 * h))
    shift = np.array([[1, 0, pad], [0, 1, pad], [0, 0, 1]], np.float64)
    view = cv2.warpPerspective(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), shift @ work_to_rect,
                               (int(np.ceil(wr)) + 2 * pad, int(np.ceil(hr)) + 2 * pad),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    cache: dict = {}

    def find(boxes: list[tuple[float, float, float, float]], kinds: list[list[int]],
             scales: tuple[float, ...]) -> list[tuple[tuple[float, float, float, float], float]]:
        """Each box's card found by the faces it looks likeliest to be: where, how well."""
        rough = np.stack([cut_card(photo, to_photo, b) for b in boxes])
        picks = faces.shortlist(rough, kinds, SHORTLIST)
        out = []
        for (bx, by, bw, bh), pick in zip(boxes, picks, strict=True):
            (ax, ay, aw, ah), corr, _i = align(
                view, (bx + pad, by + pad, bw, bh), {i: faces.templates[i] for i in pick},
                ALIGN_REACH * h, scales, cache)
            out.append(((ax - pad, ay - pad, aw, ah), corr))
        return out

    # (slot, row, where the card lies, whether a card was found there)
    slots: list[tuple[str, int, tuple[float, float, float, float], bool]] = []
    # the glass first: settled by the mask, then found by their faces
    glass_boxes = []
    for i in range(6):
        b = box(0 if i < 3 else 10, i % 3)
        (dx, dy), _cover = settle(integral, b, reach)
        glass_boxes.append((b[0] + dx, b[1] + dy, w, h))
    glass_found = find(glass_boxes, [glass_ids] * 6, SCALES)
    sure = [i for i, (_b, corr) in enumerate(glass_found) if corr >= CARD_MATCH]
    grid = _grid(glass_found, sure)
    if grid is None:
        # matched only roughly (the outline a little turned or off)? then through the
        # glass cards matched at all, the outline they give is tried again
        rough_ids = [i for i, (_b, corr) in enumerate(glass_found) if corr >= ROUGH_MATCH]
        rough = _grid(glass_found, rough_ids)
        if rough is None or size is not None:
            return None
        rw = float(np.median([glass_found[i][0][2] for i in rough_ids]))
        rh = float(np.median([glass_found[i][0][3] for i in rough_ids]))
        corners = np.array([_at(rough, 0, 0, rw, rh)[:2],
                            np.add(_at(rough, 10, 0, rw, rh)[:2], (rw, 0)),
                            np.add(_at(rough, 10, 2, rw, rh)[:2], (rw, rh)),
                            np.add(_at(rough, 0, 2, rw, rh)[:2], (0, rh))], np.float32)
        outline = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), to_photo).reshape(4, 2)
        return outline, (rw, rh)
    w = float(np.median([glass_found[i][0][2] for i in sure]))
    h = float(np.median([glass_found[i][0][3] for i in sure]))
    if _skew(grid, to_photo, w, h) > SKEW_MAX:
        return None  # rows not square to the columns: the glass cards found are misplaced
    for i, pos in enumerate(GLASS_POSITIONS):
        b, corr = glass_found[i]
        if corr < CARD_MATCH:
            b = _at(grid, 0 if i < 3 else 10, i % 3, w, h)
        slots.append((pos, i % 3, b, True))  # glass stays in place: always looked at
    column_unsure: set[int] = set()
    boxes = [_at(grid, c + 1, r, w, h) for c in range(9) for r in range(3)]
    found = find(boxes, [column_ids] * 27, NEAR_SCALES)
    rival_boxes: list[tuple[int, tuple[float, float, float, float]]] = []
    for c in range(9):
        tries = sorted(((found[3 * c + r][1], r, found[3 * c + r][0]) for r in range(3)),
                       reverse=True)
        best = tries[0]
        bx, by = best[2][0] + best[2][2] / 2, best[2][1] + best[2][3] / 2
        # another row matching well, where it did not find this same card, is a rival
        rivals = [t for t in tries[1:] if t[0] > best[0] - ROW_LEAD
                  and np.hypot(t[2][0] + t[2][2] / 2 - bx, t[2][1] + t[2][3] / 2 - by) > h / 2]
        # the mask's clear say (one row full of card, no other nearly so) must agree
        covers = [settle(integral, boxes[3 * c + r], reach)[1] for r in range(3)]
        clear = [r for r in range(3) if covers[r] >= FULL]
        if len(clear) == 1 and sorted(covers)[1] < SECOND and clear[0] != best[1]:
            column_unsure.add(c)
        if best[0] < ROW_MATCH:
            column_unsure.add(c)
        elif rivals:  # unsure unless none of them shows a face for sure (looked at below)
            column_unsure.add(c)
            rival_boxes += [(c, t[2]) for t in rivals]
        slots.append((str(c + 1), best[1], best[2], best[0] >= ALIGN_MIN))
    # identify
    # a glass card is read for its side: every sunlight face gives one answer, every dark one
    answers = np.array([GLASS_FACES.index(f) if f in GLASS_FACES else 2 + i
                        for i, (_, f) in enumerate(model.faces)])
    crops, allowed, where = [], [], []
    for n, (slot, _row, b, found_here) in enumerate(slots):
        if not found_here:
            continue
        crops.append(cut_card(photo, to_photo, b))
        allowed.append(glass_ids if slot in GLASS_POSITIONS else column_ids)
        where.append(n)
    verdicts: list[Verdict | None] = [None] * len(slots)
    if crops:
        told = faces.identify_many(np.stack(crops), allowed, answers)
        for n, v in zip(where, told, strict=True):
            verdicts[n] = v
    if rival_boxes:
        # a column whose rival rows show no face for sure has its card where it matched best
        told = faces.identify_many(np.stack([cut_card(photo, to_photo, b)
                                             for _c, b in rival_boxes]),
                                   [column_ids] * len(rival_boxes))
        shown = {c for (c, _b), v in zip(rival_boxes, told, strict=True) if v.face is not None}
        column_unsure -= {c for c, _b in rival_boxes} - shown
    cards = [Card(slot, row, card_quad(to_photo, b), verdicts[n])
             for n, (slot, row, b, _found) in enumerate(slots)]
    data = _state(model, deck, cards, column_unsure, [not s[3] for s in slots])
    return Reading(data, cards, quad)


def _state(model: CardModel, deck: Any, cards: list[Card], unsure_cols: set[int],
           missing: list[bool]) -> dict[str, Any]:
    """The state file (plus ``uncertain``) from the cards read."""
    faces = model.faces
    glass: dict[str, str] = {}
    uncertain: list[Any] = []
    garden: list[Any] = [None] * 9
    plant_cols: dict[str, list[int]] = {}
    critter_cols: list[int] = []
    critter: tuple[str, str] | None = None
    for n, card in enumerate(cards):
        v = card.verdict
        if card.slot in GLASS_POSITIONS:
            if v is not None and v.face is not None and not missing[n]:
                glass[card.slot] = faces[v.face][1]
                card.label = faces[v.face][1]
            else:
                card.label = "?"
            continue
        c = int(card.slot) - 1
        if missing[n] or c in unsure_cols or v is None or v.face is None:
            if v is not None and faces[v.best][1] in CRITTER_FACES:
                critter_cols.append(c)  # the critter's place, though unsure which
            card.label = "?"
            continue
        name, face = faces[v.face]
        if face in CRITTER_FACES:
            critter_cols.append(c)
            if card.row != 1:
                card.label = "?"
                continue
            critter = (name, face)
            garden[c] = "critter"
            card.label = f"{name}\n{face}"
        else:
            plant_cols.setdefault(name, []).append(c)
            garden[c] = {"plant": name, "row": ROWS[card.row], "side": face}
            card.label = f"{name}\n{ROWS[card.row]} {face}"
    for cols in plant_cols.values():
        if len(cols) > 1:  # one plant in two places: neither is sure
            for c in cols:
                garden[c] = None
                cards[6 + c].label = "?"
    critter_col = critter_cols[0] if len(set(critter_cols)) == 1 else None
    if len(set(critter_cols)) > 1:
        for c in critter_cols:
            garden[c] = None
            cards[6 + c].label = "?"
        critter = None
    if critter_col is None:
        blanks = [c for c in range(9) if garden[c] is None]
        if len(blanks) == 1 and not any(g == "critter" for g in garden):
            critter_col = blanks[0]
    uncertain += [c + 1 for c in range(9) if garden[c] is None]
    uncertain += [p for p in GLASS_POSITIONS if p not in glass]
    data: dict[str, Any] = {
        "game": "glass-garden", "deck": model.deck,
        "critter": critter[0] if critter else None,
        "turn": critter_col + 1 if critter_col is not None else None,
        "critter_side": critter[1] if critter else None,
        "garden": garden, "glass": glass}
    if critter is None:
        uncertain.append("critter")
    data["uncertain"] = uncertain
    del deck
    return data
