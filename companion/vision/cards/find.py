"""Finding cards on a table: what is not table, the outline of a laid-out group of cards, and
where exactly each card lies.

Generic: nothing here knows a game's layout. A game's reader (for Glass Garden,
:mod:`companion.glass_garden.recognition.reader`) takes the group's outline, rectifies it, and
asks :func:`settle` where each card it expects lies; :func:`cut_card` then cuts the card
upright for :mod:`companion.vision.cards.faces`.

The table is told from the cards by colour: its colour is learnt from the photo's top and
bottom edges (where a centred layout of cards leaves table), as a smooth field over the photo
(so uneven light does not turn table into card), and anything far from it in lightness or
hue is "card". Holes inside a card (art the colour of the table) are filled.
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.cards.faces import CUT_SIZE, INSET

#: The working view for finding cards is at most this wide (pixels).
WORK_WIDTH = 820


def _field(values: np.ndarray, ys: np.ndarray, xs: np.ndarray, shape: tuple[int, int],
           cols: int = 4) -> np.ndarray:
    """A smooth field over ``shape`` from samples at the top and bottom strips: medians in
    ``cols`` blocks of each strip, interpolated linearly between them."""
    h, w = shape
    grid = np.zeros((2, cols), np.float32)
    for r, top in enumerate((True, False)):
        band = ys < h / 2 if top else ys >= h / 2
        for c in range(cols):
            sel = band & (xs >= c * w / cols) & (xs < (c + 1) * w / cols)
            grid[r, c] = np.median(values[sel]) if np.any(sel) else np.median(values[band])
    small = cv2.resize(grid, (w, h), interpolation=cv2.INTER_LINEAR)
    return small


def foreground(image: np.ndarray, strip: float = 0.1) -> np.ndarray:
    """A 0/255 mask of what is not table in ``image`` (BGR, working size), holes filled."""
    h, w = image.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.2), cv2.COLOR_BGR2LAB).astype(
        np.float32)
    n = max(2, int(h * strip))
    rows = np.r_[0:n, h - n:h]
    ys, xs = np.meshgrid(rows, np.arange(w), indexing="ij")
    ys, xs = ys.ravel(), xs.ravel()
    sample = lab[rows].reshape(-1, 3)
    fields = [_field(sample[:, k], ys, xs, (h, w)) for k in range(3)]
    spread = np.median(np.abs(sample - np.median(sample, axis=0)), axis=0) * 1.48
    sl = max(float(spread[0]) * 3.5, 22.0)
    sab = max(float(np.hypot(spread[1], spread[2])) * 3.5, 9.0)
    dl = np.abs(lab[..., 0] - fields[0]) / sl
    dab = np.hypot(lab[..., 1] - fields[1], lab[..., 2] - fields[2]) / sab
    score = np.maximum(dl, dab)
    mask = (score > 1.0).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # a card's edge is sharp where the table's grain is soft: closed outlines count as card
    # even where the card is the table's colour
    gray = lab[..., 0]
    grad = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    table_grad = np.percentile(grad[rows], 99)
    edges = (grad > max(1.5 * table_grad, 40.0)).astype(np.uint8) * 255
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    shapes = cv2.morphologyEx(fill_holes(edges), cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    both = cv2.morphologyEx(cv2.bitwise_or(mask, shapes), cv2.MORPH_CLOSE,
                            np.ones((5, 5), np.uint8))  # an outline nearly closed is closed
    return fill_holes(both)


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """``mask`` with every region enclosed by it filled."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, -1)
    return out


def order_corners(quad: np.ndarray) -> np.ndarray:
    """Four points as top-left, top-right, bottom-right, bottom-left (the photo's way up,
    turned less than 45 degrees)."""
    quad = np.asarray(quad, np.float64).reshape(4, 2)
    centre = quad.mean(axis=0)
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]  # from -pi: top-left first when turned < 45 degrees
    start = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -start, axis=0)


def group_outline(mask: np.ndarray, join: int) -> tuple[np.ndarray, float] | None:
    """The outline (4 corners, ordered) of the largest group of cards in ``mask``, cards
    closer than ``join`` pixels counted as one group; and the share of the view it covers.
    None when nothing stands out."""
    k = max(3, join | 1)
    joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_RECT, (k, k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    if count < 2:
        return None
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    pts = cv2.findNonZero(((labels == best) & (mask > 0)).astype(np.uint8))
    if pts is None or len(pts) < 10:
        return None
    hull = cv2.convexHull(pts)
    quad = corners_of(hull.reshape(-1, 2).astype(np.float64))
    share = float(stats[best, cv2.CC_STAT_AREA]) / mask.size
    return order_corners(quad), share


def corners_of(hull: np.ndarray) -> np.ndarray:
    """Four corners of a nearly quadrilateral convex hull: the hull points farthest out along
    the diagonals of its smallest enclosing rectangle, then each side refit as a line through
    the hull points near it."""
    rect = cv2.minAreaRect(hull.astype(np.float32))
    box = order_corners(cv2.boxPoints(rect))
    centre = box.mean(axis=0)
    picks = []
    for corner in box:
        d = corner - centre
        d /= np.linalg.norm(d) + 1e-9
        picks.append(hull[int(np.argmax(hull @ d))])
    quad = np.array(picks)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        ab = b - a
        length = np.linalg.norm(ab) + 1e-9
        normal = np.array([-ab[1], ab[0]]) / length
        # dense points along the hull's edges near this side
        dense = _densify(hull)
        off = np.abs((dense - a) @ normal)
        along = (dense - a) @ (ab / length)
        near = dense[(off < 0.02 * length + 2) & (along > 0.1 * length) & (along < 0.9 * length)]
        if len(near) >= 5:
            vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                         0.01).ravel()
            lines.append((np.array([x0, y0], float), np.array([vx, vy], float)))
        else:
            lines.append((a, ab / length))
    out = []
    for i in range(4):
        p = _cross(lines[(i - 1) % 4], lines[i])
        out.append(quad[i] if p is None or np.linalg.norm(p - quad[i]) > 0.05 * np.ptp(
            hull[:, 0]) else p)
    return np.array(out)


def _densify(hull: np.ndarray, step: float = 2.0) -> np.ndarray:
    pts = []
    for i in range(len(hull)):
        a, b = hull[i], hull[(i + 1) % len(hull)]
        n = max(1, int(np.linalg.norm(b - a) / step))
        t = np.linspace(0, 1, n, endpoint=False)[:, None]
        pts.append(a + (b - a) * t)
    return np.concatenate(pts)


def _cross(l1, l2) -> np.ndarray | None:
    (p, u), (q, v) = l1, l2
    m = np.array([u, -v]).T
    if abs(np.linalg.det(m)) < 1e-9:
        return None
    t = np.linalg.solve(m, q - p)
    return p + t[0] * u


def settle(integral: np.ndarray, box: tuple[float, float, float, float], reach: float,
           step: float = 1.0) -> tuple[tuple[float, float], float]:
    """Where a card of ``box`` (x, y, w, h in a rectified view) lies within ``reach`` of
    it: the shift that covers most card pixels inside and leaves fewest just outside
    (``integral`` is the rectified mask's integral image, 0/1). Returns the shift and the
    share of the shifted box that is card."""
    x, y, w, h = box
    ring = max(2.0, 0.06 * w)
    shifts = np.arange(-reach, reach + 1e-9, step)
    dy, dx = (v.ravel() for v in np.meshgrid(shifts, shifts, indexing="ij"))
    hh, ww = integral.shape[0] - 1, integral.shape[1] - 1

    def area(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
        a0 = np.clip(np.round(x0), 0, ww).astype(np.intp)
        b0 = np.clip(np.round(y0), 0, hh).astype(np.intp)
        a1 = np.clip(np.round(x1), 0, ww).astype(np.intp)
        b1 = np.clip(np.round(y1), 0, hh).astype(np.intp)
        return (integral[b1, a1] - integral[b0, a1] - integral[b1, a0]
                + integral[b0, a0]).astype(np.float64)

    x0, y0 = x + dx, y + dy
    inside = area(x0, y0, x0 + w, y0 + h)
    outer = area(x0 - ring, y0 - ring, x0 + w + ring, y0 + h + ring) - inside
    score = inside - 1.5 * outer - 0.02 * w * (np.abs(dx) + np.abs(dy))
    i = int(np.argmax(score))
    return (float(dx[i]), float(dy[i])), float(inside[i] / (w * h))


def cut_card(photo: np.ndarray, to_photo: np.ndarray, box: tuple[float, float, float, float]
             ) -> np.ndarray:
    """The card at ``box`` (x, y, w, h in the rectified view that ``to_photo`` maps to the
    photo) cut upright from the photo at CUT_SIZE, inside INSET of its edges."""
    x, y, w, h = box
    dx, dy = w * INSET, h * INSET
    src = np.float32([[x + dx, y + dy], [x + w - dx, y + dy], [x + w - dx, y + h - dy],
                      [x + dx, y + h - dy]])
    quad = cv2.perspectiveTransform(src.reshape(-1, 1, 2), to_photo).reshape(4, 2)
    cw, ch = CUT_SIZE
    m = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                    np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]]))
    return cv2.warpPerspective(photo, m, CUT_SIZE, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def card_quad(to_photo: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The corners of ``box`` (rectified view) in the photo."""
    x, y, w, h = box
    src = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(src, to_photo).reshape(4, 2)


def card_height(mask: np.ndarray, aspect: float) -> float | None:
    """The height (pixels) of a lone card in ``mask``: the median long side of the regions
    shaped like one card (``aspect`` = width / height, filling their rectangle)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    sides = []
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < 200:
            continue
        pts = cv2.findNonZero((labels[stats[i, 1]:stats[i, 1] + stats[i, 3],
                                      stats[i, 0]:stats[i, 0] + stats[i, 2]] == i
                               ).astype(np.uint8))
        (_, _), (a, b), _ = cv2.minAreaRect(pts)
        long, short = max(a, b), min(a, b)
        if long <= 0:
            continue
        if abs(short / long - aspect) < 0.08 and stats[i, cv2.CC_STAT_AREA] > 0.85 * a * b:
            sides.append(long)
    return float(np.median(sides)) if sides else None


def stacks(mask: np.ndarray, card_h: float, cards: int = 3, gap: float = 0.2
           ) -> list[np.ndarray]:
    """Point sets of the columns of ``cards`` cards stacked one above the other (gaps under
    ``gap`` of a card's height), left to right: what stands as tall as such a column. Cards
    touching them at the side come along; a game's reader takes only the outer edges."""
    k = max(3, int(card_h * gap) | 1)
    body = max(3, int(card_h * 0.4) | 1)  # what is not card-shaped (glare, crumbs) goes
    solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_RECT, (body, body)))
    mask = cv2.bitwise_and(mask, cv2.dilate(solid, np.ones((5, 5), np.uint8)))
    joined = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (1, k)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    out = []
    for i in range(1, count):
        tall = stats[i, cv2.CC_STAT_HEIGHT] - k + 1
        if cards * card_h * 0.88 <= tall <= cards * card_h * 1.4:
            x, y, w, h = stats[i, :4]
            sub = (labels[y:y + h, x:x + w] == i) & (mask[y:y + h, x:x + w] > 0)
            pts = cv2.findNonZero(sub.astype(np.uint8))
            if pts is not None:
                out.append(pts.reshape(-1, 2).astype(np.float64) + np.array([x, y], np.float64))
    out.sort(key=lambda p: float(p[:, 0].mean()))
    return out


def extreme(points: np.ndarray, direction: tuple[float, float]) -> np.ndarray:
    """The point of ``points`` farthest along ``direction``."""
    return points[int(np.argmax(points @ np.asarray(direction, float)))]


def align(view: np.ndarray, box: tuple[float, float, float, float],
          templates: dict[int, np.ndarray], reach: float,
          scales: tuple[float, ...] = (0.91, 0.94, 0.97, 1.0, 1.03, 1.06, 1.09),
          cache: dict[tuple[int, int, int], np.ndarray] | None = None,
          ) -> tuple[tuple[float, float, float, float], float, int]:
    """Where the card near ``box`` (x, y, w, h in ``view``, a gray uint8 image in which cards
    stand upright) lies, found by its own face: each of ``templates`` (gray, whole faces to
    their edges, by a key such as the face's number) is looked for within ``reach`` pixels of
    the box, at each of ``scales`` of the box's size (every template at the middle one and
    every third from it, the best template at the others), by normalised cross-correlation. This
    needs no contrast between the card and the table, only the face's own drawing. Returns
    the box where the best match lies (to a fraction of a pixel), its correlation (1: the
    face exactly) and the key of the template; correlation -1 and the box unchanged when
    nothing could be compared.

    ``cache`` keeps the templates resized between calls (by key and size: give one cache only
    calls whose keys name the same templates)."""
    cache = {} if cache is None else cache
    best = (-1.0, box, -1)
    mid = len(scales) // 2
    coarse = sorted(set(scales[mid::3]) | set(scales[mid::-3]))
    for s in coarse:  # every template at a few sizes, then the best one at every size
        for i, tpl in templates.items():
            peak, at = _match(view, box, (i, tpl), s, reach, cache, best[0])
            if peak > best[0]:
                best = (peak, at, i)
    if best[2] in templates:
        key = best[2]
        for s in scales:
            if s not in coarse:
                peak, at = _match(view, box, (key, templates[key]), s, reach, cache,
                                  best[0])
                if peak > best[0]:
                    best = (peak, at, key)
    return best[1], best[0], best[2]


def _match(view: np.ndarray, box: tuple[float, float, float, float],
           keyed: tuple[int, np.ndarray],
           s: float, reach: float, cache: dict[tuple[int, int, int], np.ndarray],
           beat: float = -1.0) -> tuple[float, tuple[float, float, float, float]]:
    """The best correlation of the template (``keyed``: its key and image) at ``s`` times
    ``box``'s size, centred within ``reach`` of the box's centre, and the box it fills there
    (found to a fraction of a pixel only when the correlation is above ``beat``)."""
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    vh, vw = view.shape[:2]
    tw, th = max(8, round(w * s)), max(8, round(h * s))
    x0 = max(0, int(np.floor(cx - tw / 2 - reach)))
    y0 = max(0, int(np.floor(cy - th / 2 - reach)))
    x1 = min(vw, int(np.ceil(cx + tw / 2 + reach)) + 1)
    y1 = min(vh, int(np.ceil(cy + th / 2 + reach)) + 1)
    if x1 - x0 < tw + 2 or y1 - y0 < th + 2:
        return -1.0, box
    key = (keyed[0], tw, th)
    small = cache.get(key)
    if small is None:
        small = cv2.resize(keyed[1], (tw, th), interpolation=cv2.INTER_AREA)
        cache[key] = small
    res = cv2.matchTemplate(view[y0:y1, x0:x1], small, cv2.TM_CCOEFF_NORMED)
    _lo, peak, _at, (px, py) = cv2.minMaxLoc(res)
    if peak <= beat:
        return float(peak), box
    fx, fy = float(px) + _vertex(res, py, px, 1), float(py) + _vertex(res, py, px, 0)
    return float(peak), (x0 + fx, y0 + fy, float(tw), float(th))


def _vertex(res: np.ndarray, row: int, col: int, axis: int) -> float:
    """The offset (-0.5..0.5) of a parabola's vertex through the peak of ``res`` at
    (``row``, ``col``) and its two neighbours along ``axis`` (1: x, 0: y)."""
    n = res.shape[axis]
    i = col if axis == 1 else row
    if i <= 0 or i >= n - 1:
        return 0.0
    if axis == 1:
        a, b, c = res[row, col - 1], res[row, col], res[row, col + 1]
    else:
        a, b, c = res[row - 1, col], res[row, col], res[row + 1, col]
    den = a - 2 * b + c
    return float(np.clip(0.5 * (a - c) / den, -0.5, 0.5)) if den < 0 else 0.0


def search(view: np.ndarray, templates: dict[int, np.ndarray], size: tuple[int, int],
           least: float) -> list[tuple[float, float, float, int]]:
    """Every place in ``view`` (gray uint8, cards upright) where one of ``templates`` (gray
    whole faces, by key) shown at ``size`` (width, height, pixels) matches at least ``least``
    (normalised correlation), strongest first, no two closer than half a card: the top-left
    corner, the correlation and the template's key of each. For finding cards when nothing
    else did (slow on a large view: shrink it so a card is some 40 pixels tall)."""
    tw, th = size
    if view.shape[0] <= th or view.shape[1] <= tw:
        return []
    best = None
    which = None
    for key, tpl in templates.items():
        res = cv2.matchTemplate(view, cv2.resize(tpl, (tw, th), interpolation=cv2.INTER_AREA),
                                cv2.TM_CCOEFF_NORMED)
        if best is None:
            best, which = res, np.full(res.shape, key, np.int32)
        else:
            better = res > best
            best[better] = res[better]
            which[better] = key
    assert best is not None and which is not None
    peaks = (best >= least) & (best >= cv2.dilate(best, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    order = np.argsort(-best[ys, xs])
    out: list[tuple[float, float, float, int]] = []
    for i in order:
        x, y = float(xs[i]), float(ys[i])
        if all(abs(x - a) > tw / 2 or abs(y - b) > th / 2 for a, b, _c, _k in out):
            out.append((x, y, float(best[ys[i], xs[i]]), int(which[ys[i], xs[i]])))
    return out
