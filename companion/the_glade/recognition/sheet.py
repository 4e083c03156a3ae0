"""Find the tiles on one photo of a sheet of tiles and cut each out upright.

Cropping 128 tile faces by hand is the slow part of making an enrolment pack. Instead the user
lays the tiles upright in rows on a plain sheet that contrasts with them and photographs the
sheet from above (``companion cut-sheet``, see :mod:`.cut_sheet`). This module:

1. finds the sheet: the smooth area joined to the photo's edge (a plain sheet has no sharp
   edges, however unevenly lit, while every tile is ringed by its outline), and models the
   sheet's colour across the photo from it, so uneven light and soft shadows are followed;
2. takes everything whose colour differs from the sheet's there, holes filled; each separate
   shape of about one tile's size is a tile. Its four sides are fitted as lines (so a slightly
   tilted camera's keystone and a tile's rounded corners do not matter) and it is warped to an
   upright square of fixed size. "Upright" is the side nearest the top of the grid: the user
   lays the tiles upright, so that side is the tile's turn 0;
3. puts the tiles in reading order (rows top to bottom, then left to right), measured along
   the grid's own axes, so a turned photo still reads row by row.

Tiles touching each other or the photo's edge, a photo with no tiles, and shapes that are not
whole tiles are each one :class:`~companion.errors.RecognitionError` naming the place and
what to do.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import RecognitionError

DEFAULT_SIZE = 128
#: Detection runs on a copy of the photo whose longer side is at most this (the cut is made
#: from the full photo).
WORK_SIDE = 1400


@dataclass(frozen=True)
class CutTile:
    """One tile found on the sheet: its upright cut and where it lay in the photo."""

    image: np.ndarray      # size x size BGR, upright
    corners: np.ndarray    # (4, 2) photo pixels: top-left, top-right, bottom-right, bottom-left
    row: int               # 0-based row of the grid, in reading order
    col: int               # 0-based place in its row

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return float(x), float(y)

    @property
    def side_px(self) -> float:
        """The tile's mean side in the photo, in pixels."""
        c = self.corners
        return float(np.mean([np.linalg.norm(c[i] - c[(i + 1) % 4]) for i in range(4)]))


@dataclass(frozen=True)
class SheetCut:
    """Everything found on one sheet photo."""

    tiles: list[CutTile]   # in reading order
    turn: float            # the grid's turn in the photo, degrees (clockwise positive)
    ignored: int           # specks too small to be tiles, left out

    @property
    def rows(self) -> int:
        return 1 + max(t.row for t in self.tiles)


# -- finding the tiles ----------------------------------------------------------------------

def _where(x: float, y: float, w: int, h: int) -> str:
    """Words for a place in a ``w`` x ``h`` photo, for error messages.

    >>> _where(120, 80, 1600, 1200)
    'near the top left of the photo (x 120, y 80 px)'
    >>> _where(800, 600, 1600, 1200)
    'near the centre of the photo (x 800, y 600 px)'
    """
    v = "top" if y < h / 3 else "bottom" if y > 2 * h / 3 else "middle"
    u = "left" if x < w / 3 else "right" if x > 2 * w / 3 else "centre"
    place = "centre" if (v, u) == ("middle", "centre") else f"{v} {u}".replace("middle ", "")
    return f"near the {place} of the photo (x {x:.0f}, y {y:.0f} px)"


def _distance(lab: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """How far each pixel's colour is from the sheet's (lightness weighed a little less than
    hue: what light is left uneven by the sheet model changes lightness most)."""
    d = lab - reference
    return np.sqrt((0.7 * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def _smooth_background(lab: np.ndarray, sheet: np.ndarray, sigma: float) -> np.ndarray:
    """The sheet's colour at every pixel, interpolated from the pixels known to be sheet
    (normalised convolution), so a gradient or a soft shadow across the sheet is followed.
    Worked out at an eighth of the size: the light varies slowly."""
    h, w = sheet.shape
    k = 8
    size = (max(1, w // k), max(1, h // k))
    weight = cv2.resize(sheet.astype(np.float32), size, interpolation=cv2.INTER_AREA)
    known = cv2.resize(lab * sheet[..., None], size, interpolation=cv2.INTER_AREA)
    weight_b = cv2.GaussianBlur(weight, (0, 0), sigma / k)
    known_b = cv2.GaussianBlur(known, (0, 0), sigma / k)
    fallback = np.median(lab[sheet], axis=0)
    small = np.where(weight_b[..., None] > 1e-3,
                     known_b / np.maximum(weight_b, 1e-3)[..., None], fallback)
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _plain_sheet(lab: np.ndarray) -> np.ndarray:
    """The pixels surely sheet: the smooth area joined to the photo's edge.

    A plain sheet has no sharp edges (uneven light and soft shadows change slowly), while
    every tile is ringed by its outline; so the low-gradient pixels connected to the photo's
    edge are sheet, and a tile's own plain parts, walled in by its outline, are not.
    """
    h, w = lab.shape[:2]
    gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
    grad = np.sqrt((gx * gx + gy * gy).sum(axis=2))
    ring = max(3, round(0.015 * min(h, w)))
    border = np.zeros((h, w), bool)
    border[:ring], border[-ring:], border[:, :ring], border[:, -ring:] = True, True, True, True
    noise = float(np.median(grad[border]))
    smooth = (grad < max(4 * noise, 6.0)).astype(np.uint8)
    smooth = cv2.erode(smooth, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(smooth, connectivity=4)
    touching = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    touching = touching[touching != 0]  # label 0: the pixels that are not smooth
    keep = np.zeros(count, bool)
    if len(touching):
        # the sheet is the large smooth area; a tile cut by the photo's edge is smooth
        # inside and touches the edge too, but is small
        sizes = stats[touching, cv2.CC_STAT_AREA]
        keep[touching[sizes >= 0.2 * sizes.max()]] = True
    return keep[labels]


def _threshold(dist: np.ndarray, sheet: np.ndarray) -> float:
    """Where "not sheet" begins: well above the sheet's own noise."""
    values = dist[sheet]
    centre = float(np.median(values))
    spread = 1.4826 * float(np.median(np.abs(values - centre)))
    return max(centre + 6 * spread, 8.0)


def _filled(mask: np.ndarray) -> list[np.ndarray]:
    """The outer contours of ``mask``'s shapes (holes inside a shape count as the shape)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return list(contours)


def foreground(small: np.ndarray) -> np.ndarray:
    """A 0/255 mask of everything on the sheet (``small`` is the working-size photo): the
    pixels whose colour differs from the sheet's colour there, holes filled."""
    h, w = small.shape[:2]
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab = cv2.GaussianBlur(lab, (0, 0), 1.0)
    sheet = _plain_sheet(lab)
    if sheet.sum() < 0.02 * h * w:
        return np.zeros((h, w), np.uint8)
    dist = _distance(lab, _smooth_background(lab, sheet, 0.03 * max(h, w)))
    mask = (dist > _threshold(dist, sheet)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    solid = np.zeros_like(mask)
    cv2.drawContours(solid, _filled(mask), -1, 255, cv2.FILLED)
    return solid


def _sides(contour: np.ndarray, box: np.ndarray) -> np.ndarray | None:
    """The tile's corners from lines fitted to its four sides (None if a side is unclear).

    ``box`` is the minimum-area rectangle's corners in order round the shape. Only the middle
    of each side is used, so rounded or chipped corners do not pull the fit.
    """
    pts = contour.reshape(-1, 2).astype(np.float32)
    side = float(np.mean([np.linalg.norm(box[i] - box[(i + 1) % 4]) for i in range(4)]))
    lines = []
    for i in range(4):
        a, b = box[i], box[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        if length < 1:
            return None
        u = along / length
        normal = np.array([-u[1], u[0]])
        rel = pts - a
        t = rel @ u
        d = np.abs(rel @ normal)
        keep = (d < 0.08 * side + 1.5) & (t > 0.2 * length) & (t < 0.8 * length)
        if keep.sum() < 5:
            return None
        vx, vy, x0, y0 = cv2.fitLine(pts[keep], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = []
    for i in range(4):
        (p, r), (q, s) = lines[i - 1], lines[i]
        m = np.array([r, -s]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        t = np.linalg.solve(m, q - p)
        corners.append(p + t[0] * r)
    out = np.array(corners, np.float32)
    if np.max(np.linalg.norm(out - box, axis=1)) > 0.15 * side:
        return None
    return out


def _upright(corners: np.ndarray, turn: float) -> np.ndarray:
    """``corners`` reordered as top-left, top-right, bottom-right, bottom-left, where "top"
    is the side nearest the top of the grid (which is turned by ``turn`` degrees)."""
    centre = corners.mean(axis=0)
    a = math.radians(turn)
    c, s = math.cos(a), math.sin(a)
    rel = corners - centre
    x = rel[:, 0] * c + rel[:, 1] * s       # in the grid's own frame
    y = -rel[:, 0] * s + rel[:, 1] * c
    angles = np.degrees(np.arctan2(y, x))
    order = list(np.argsort(angles))        # ascending from -180: TL, TR, BR, BL round
    best = min(range(4), key=lambda k: abs(((angles[order[k]] + 135) + 180) % 360 - 180))
    order = order[best:] + order[:best]
    return corners[order].astype(np.float32)


def _reading_order(centres: np.ndarray, turn: float, side: float) -> list[tuple[int, int]]:
    """(row, col) of each centre: rows along the grid's turn, split where the gap between
    successive tiles' heights exceeds half a tile.

    Two rows of two, the grid turned 10 degrees clockwise (the right-hand tile of a row
    lies lower in the photo than the left-hand tile of the row below's top):

    >>> centres = np.array([[0, 0], [98, 17], [-17, 98], [81, 116]], float)
    >>> _reading_order(centres, 10.0, 60.0)
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    a = math.radians(turn)
    x = centres[:, 0] * math.cos(a) + centres[:, 1] * math.sin(a)
    y = -centres[:, 0] * math.sin(a) + centres[:, 1] * math.cos(a)
    by_y = np.argsort(y)
    rows: list[list[int]] = []
    for i in by_y:
        if rows and y[i] - np.mean([y[j] for j in rows[-1]]) < 0.5 * side:
            rows[-1].append(int(i))
        else:
            rows.append([int(i)])
    out: list[tuple[int, int]] = [(0, 0)] * len(centres)
    for r, members in enumerate(rows):
        for c, i in enumerate(sorted(members, key=lambda j: x[j])):
            out[i] = (r, c)
    return out


def find_tiles(photo: np.ndarray, size: int = DEFAULT_SIZE) -> SheetCut:
    """Find every tile on a sheet photo and cut each out upright at ``size`` x ``size`` px.

    Raises :class:`RecognitionError` when no tile is found, when tiles touch each other or the
    photo's edge, or when a shape is not a whole tile.
    """
    h, w = photo.shape[:2]
    scale = min(1.0, WORK_SIDE / max(h, w))
    small = photo if scale == 1.0 else cv2.resize(photo, (round(w * scale), round(h * scale)),
                                                  interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    mask = foreground(small)
    shapes = []
    for contour in _filled(mask):
        area = float(cv2.contourArea(contour))
        if area < 1e-4 * sh * sw:
            continue
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(contour)
        x, y, bw, bh = cv2.boundingRect(contour)
        edge = x <= 1 or y <= 1 or x + bw >= sw - 1 or y + bh >= sh - 1
        shapes.append((contour, area, (cx / scale, cy / scale), max(rw, rh) /
                       max(min(rw, rh), 1.0), area / max(rw * rh, 1.0), edge))
    if not shapes:
        raise RecognitionError("no tiles found on the sheet photo; lay the tiles on a plain "
                               "sheet whose colour differs clearly from theirs (dark for pale "
                               "tiles), fill the photo with the sheet and take it again")
    square = [a for _c, a, _p, aspect, fill, edge in shapes
              if aspect < 1.25 and fill > 0.8 and not edge]
    pool = square or [a for _c, a, *_ in shapes]
    tile_area = float(np.median(pool))
    big = [s for s in shapes if s[1] > 0.3 * tile_area]
    ignored = len(shapes) - len(big)
    if len(big) == 1 and big[0][1] > 0.3 * sh * sw:
        raise RecognitionError(
            "one shape covers a large part of the sheet photo: either the tiles touch each "
            "other or "
            "the sheet does not differ enough from them; leave a finger's width between tiles, "
            "use a sheet of a contrasting colour and take the photo again")
    for _c, area, (cx, cy), aspect, fill, edge in big:
        if edge:
            if area > 3 * tile_area:
                raise RecognitionError(
                    f"something that is not the sheet fills part of the photo's edge "
                    f"{_where(cx, cy, w, h)}; let the sheet fill the whole photo (nothing but "
                    "sheet at its edges) and take it again")
            raise RecognitionError(
                f"a tile touches the photo's edge {_where(cx, cy, w, h)}; move it inwards or "
                "step back so every tile is wholly in the photo with sheet all round, and take "
                "it again")
        if area > 1.5 * tile_area or aspect > 1.35:
            count = max(2, round(area / tile_area))
            raise RecognitionError(
                f"about {count} tiles touch each other {_where(cx, cy, w, h)}; leave a "
                "finger's width of sheet between neighbouring tiles and take the photo again")
        if area < 0.6 * tile_area or fill < 0.75:
            what = (f"only {area / tile_area:.0%} of a tile's size" if area < 0.6 * tile_area
                    else "not square")
            raise RecognitionError(
                f"the shape {_where(cx, cy, w, h)} is not a whole tile ({what}); take away "
                "anything that is not a tile, use a sheet whose colour differs more from the "
                "tiles' and take the photo again")
    quads = []
    for contour, *_ in big:
        box = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
        fitted = _sides(contour, box)
        quads.append(((fitted if fitted is not None else box) / scale).astype(np.float32))
    # the grid's turn: the mean of the tiles' own turns, taken modulo a quarter turn
    turns = []
    for q in quads:
        d = q[1] - q[0]
        turns.append(4 * math.atan2(float(d[1]), float(d[0])))
    turn = math.degrees(math.atan2(np.mean(np.sin(turns)), np.mean(np.cos(turns))) / 4)
    quads = [_upright(q, turn) for q in quads]
    centres = np.array([q.mean(axis=0) for q in quads])
    side = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads]))
    places = _reading_order(centres, turn, side)
    tiles = []
    for q, (r, c) in zip(quads, places, strict=True):
        # warped at the tile's own size in the photo, then shrunk by area (a perspective warp
        # cannot average pixels, and would alias a large tile)
        n = max(size, round(max(np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4))))
        target = np.array([[0, 0], [n, 0], [n, n], [0, n]], np.float32)
        m = cv2.getPerspectiveTransform(q, target)
        image = cv2.warpPerspective(photo, m, (n, n), flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_REPLICATE)
        if n != size:
            image = cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
        tiles.append(CutTile(image, q, r, c))
    tiles.sort(key=lambda t: (t.row, t.col))
    return SheetCut(tiles, turn, ignored)
