"""Reading a player's store from the forest photo: the loose counters on the table left of
the forest board as its owner sees it (spec: ``store``, ``store_match_counters``,
``store_uncertain``).

The store area is the table beside the board's left edge, STORE_REACH of the board's width
out and level with it, seen through the board's own homography: the board found in the photo
says where the store is and how large a counter looks there. The area is rectified at the
working scale of :mod:`glade_model`; the table's look is estimated by a wide median (counters
are small beside it), and whatever stands out from it is a thing lying there. Each disc of a
counter's size in that mask (counters touch at most lightly, so their centres are a diameter
apart) is named by the best counter face at any angle, toadstool or match counter, with the
photo's light colour (measured on the board's border) divided out. A disc whose best face is
not clearly one face, or a thing there that is no counter at all, is counted in
``store_uncertain`` and left out of both lists. When the area is not wholly in the photo the
fields are left out: the scan cannot say what lies in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.the_glade.recognition.counter_colour import board_light
from companion.the_glade.recognition.glade_board import best_faces
from companion.the_glade.recognition.glade_model import WORK_COUNTER, GladeModel, disc
from companion.vision.board import project, rectify

#: The store's reach left of the board, as a share of the board image's width, and the gap
#: left next to the board's edge (its shadow).
STORE_REACH = 0.8
EDGE_GAP = 0.01
#: A pixel stands out from the table by this much (sum of |BGR| differences) at least, and
#: by GRAIN times the table's median difference (its grain).
STANDS_OUT = 30.0
GRAIN = 5.0
#: A disc of a counter's size this much covered by what stands out may be a counter (a
#: counter face must then fit it).
COVERED = 0.6
#: Decision thresholds (tuned on families.TUNING_FAMILIES only).
NAME_MARGIN = 0.12  # (second face - best) / (second + best) below this: which counter?
MAX_FIT = 0.22      # the best face's distance above this: no counter enrolled
#: Votes (of the accumulator) a counter-sized circle needs to be looked at.
CIRCLE_VOTES = 18
#: A counter's print spreads its disc's values this much (grey levels) at least: a patch of
#: light on the table fits a plain counter face once its contrast is scaled up.
MIN_SPREAD = 6.0
LEFT_OVER = 0.3     # a thing left over of this share of a counter's area: not named
#: A thing has an outline: the gradient round a disc (or over a thing left over) this many
#: times the table's median. Glare on the table stands out from it, but smoothly; a disc
#: that a counter face fits is kept whatever its outline.
EDGE = 3.0


@dataclass
class StoreThing:
    """One thing in the store: a counter's name (or a match counter), or None if unnamed."""

    at: tuple[float, float]                    # board-image px
    name: str | None
    match: dict[str, Any] | None = None
    reason: str = ""
    distances: dict[str, float] = field(default_factory=dict)


@dataclass
class StoreReading:
    things: list[StoreThing]
    in_view: bool
    box: tuple[float, float, float, float]     # board-image px

    def result(self, with_matches: bool) -> dict[str, Any]:
        """The spec's store fields (none when the area is not wholly in the photo)."""
        if not self.in_view:
            return {}
        store = sorted(t.name for t in self.things if t.name is not None and t.match is None)
        out: dict[str, Any] = {"store": store}
        if with_matches:
            out["store_match_counters"] = sorted(
                (dict(t.match) for t in self.things if t.match is not None),
                key=lambda m: (m["kind"], m["icon"], m["value"]))
        out["store_uncertain"] = sum(t.name is None for t in self.things)
        return out


def store_box(size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The store area in board-image pixels, for a board image of ``size`` (w, h)."""
    w, h = size
    return (-STORE_REACH * w, 0.0, -EDGE_GAP * w, float(h))


def read_store(glade: GladeModel, board_image_size: tuple[int, int], counter_px: float,
               homography: np.ndarray, photo: np.ndarray, board_view: np.ndarray | None,
               board_working: np.ndarray | None) -> StoreReading:
    """Read the store beside a forest board found in ``photo`` by ``homography`` (board-image
    px to photo px). ``counter_px`` is a counter's diameter in board-image pixels;
    ``board_view``/``board_working`` are the board as photographed and as enrolled, at one
    scale, to measure the photo's light on (None: the light is not corrected)."""
    box = store_box(board_image_size)
    x0, y0, x1, y1 = box
    fh, fw = photo.shape[:2]
    corners = project(homography, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    in_view = bool(((corners[:, 0] >= 0) & (corners[:, 0] < fw) & (corners[:, 1] >= 0)
                    & (corners[:, 1] < fh)).all())
    if not in_view:
        return StoreReading([], False, box)
    scale = WORK_COUNTER / counter_px
    view, _ = rectify(photo, homography, scale, box, 1)
    gain = np.ones(3, np.float32)
    if board_view is not None and board_working is not None:
        measured = board_light(board_view, board_working, board_view.max(axis=2) > 0)
        if measured is not None:
            gain = np.maximum(measured, 1e-3).astype(np.float32)
    return StoreReading(_things(glade, view, gain, scale, box), True, box)


def _things(glade: GladeModel, view: np.ndarray, gain: np.ndarray, scale: float,
            box: tuple[float, float, float, float]) -> list[StoreThing]:
    d = WORK_COUNTER
    k = 4 * d + 1
    table = cv2.medianBlur(view, k if k % 2 else k + 1)
    diff = np.abs(view.astype(np.int16) - table.astype(np.int16)).sum(axis=2)
    out_mask = (diff > max(STANDS_OUT, GRAIN * float(np.median(diff)))).astype(np.uint8)
    out_mask = cv2.morphologyEx(out_mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    kernel = np.zeros((d, d), np.float32)
    cv2.circle(kernel, (d // 2, d // 2), d // 2 - 1, 1.0, -1)
    kernel /= kernel.sum()
    cover = cv2.filter2D(out_mask.astype(np.float32), -1, kernel,
                         borderType=cv2.BORDER_CONSTANT)
    centres = _peaks(cover, COVERED, 0.8 * d)
    corrected = cv2.GaussianBlur(view.astype(np.float32) / gain[None, None, :], (0, 0), 1.0)
    gray = cv2.GaussianBlur(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0),
                            1.0)
    grad = np.hypot(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    level = float(np.median(grad)) + 2.0
    centres = _with_circles(gray, centres, d)
    things: list[StoreThing] = []
    explained = np.zeros_like(out_mask)
    if len(centres):
        at, per_face, _ = best_faces(glade, corrected, centres)
        spread = _spread(corrected, at)
        for (x, y), row, sd in zip(at, per_face, spread, strict=True):
            if sd < MIN_SPREAD and _ring_edge(grad, np.array([x, y]), d / 2) < EDGE * level:
                continue  # a smooth patch without an outline: light on the table
            order = np.argsort(row)
            d1 = float(row[order[0]])
            d2 = float(row[order[1]]) if len(order) > 1 else float("inf")
            margin = (d2 - d1) / max(d1 + d2, 1e-9)
            best = int(order[0])
            thing = StoreThing((box[0] + x / scale, box[1] + y / scale), glade.face_names[best],
                               glade.face_matches[best],
                               distances={"fit": round(d1, 4), "margin": round(margin, 3),
                                          "spread": round(float(sd), 1)})
            if d1 > MAX_FIT:
                if _ring_edge(grad, np.array([x, y]), d / 2) < EDGE * level:
                    continue  # no outline: glare or a shadow on the table, not a thing
                thing.reason = "matches no counter enrolled"
            elif margin < NAME_MARGIN:
                thing.reason = f"{glade.face_names[best]} or {glade.face_names[int(order[1])]}?"
            if thing.reason:
                thing.name, thing.match = None, None
            things.append(thing)
            cv2.circle(explained, (round(x), round(y)), round(d * 0.62), 1, -1)
    # what stands out and no counter explains: a thing that cannot be named
    left = (out_mask & (1 - explained)).astype(np.uint8)
    count, labels, stats, cents = cv2.connectedComponentsWithStats(left)
    area = np.pi * d * d / 4
    for i in range(1, count):
        if (stats[i, cv2.CC_STAT_AREA] >= LEFT_OVER * area
                and float(grad[labels == i].mean()) >= EDGE * level):
            x, y = cents[i]
            things.append(StoreThing((box[0] + x / scale, box[1] + y / scale), None,
                                     reason="a thing that is no counter enrolled"))
    return things


def _with_circles(gray: np.ndarray, centres: np.ndarray, d: float) -> np.ndarray:
    """``centres`` and the centres of round outlines of a counter's size (Hough) not near
    one: a counter of the table's own colour barely stands out from it, but its edge and
    shadow still draw a circle."""
    found = cv2.HoughCircles(np.clip(gray, 0, 255).astype(np.uint8), cv2.HOUGH_GRADIENT, 1,
                             0.8 * d, param1=60, param2=CIRCLE_VOTES,
                             minRadius=int(0.42 * d), maxRadius=int(0.6 * d) + 1)
    out = [tuple(c) for c in centres]
    for x, y, _r in ([] if found is None else found[0]):
        if all((x - u) ** 2 + (y - v) ** 2 >= (0.6 * d) ** 2 for u, v in out):
            out.append((float(x), float(y)))
    return np.array(out, np.float64).reshape(-1, 2)


def _spread(view: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The spread (grey levels, channel by channel) of each disc patch at ``at``: a
    counter's print has some."""
    from companion.the_glade.recognition.glade_model import INSET, PATCH
    from companion.vision.patches import cut_many

    patches = cut_many(view, at, np.zeros(len(at)), WORK_COUNTER * INSET, PATCH)
    return patches.reshape(len(at), -1, 3)[:, disc()].std(axis=1).mean(axis=1)


def _ring_edge(grad: np.ndarray, centre: np.ndarray, radius: float) -> float:
    """The mean gradient on a circle of ``radius`` round ``centre`` (a counter's outline)."""
    a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    best = 0.0
    for r in (radius - 1.5, radius - 0.5, radius + 0.5):
        xs = np.clip(np.round(centre[0] + r * np.cos(a)).astype(int), 0, grad.shape[1] - 1)
        ys = np.clip(np.round(centre[1] + r * np.sin(a)).astype(int), 0, grad.shape[0] - 1)
        best = max(best, float(grad[ys, xs].mean()))
    return best


def _peaks(cover: np.ndarray, least: float, apart: float) -> np.ndarray:
    """Centres (x, y) of discs: the highest cover first, each at least ``apart`` from those
    taken before."""
    size = max(3, int(apart) | 1)
    local = cover >= cv2.dilate(cover, np.ones((size, size), np.uint8))
    ys, xs = np.nonzero(local & (cover >= least))
    order = np.argsort(-cover[ys, xs])
    taken: list[tuple[float, float]] = []
    for i in order:
        x, y = float(xs[i]), float(ys[i])
        if all((x - u) ** 2 + (y - v) ** 2 >= apart * apart for u, v in taken):
            taken.append((x, y))
    return np.array(taken, np.float64).reshape(-1, 2)


def disc_pixels() -> np.ndarray:
    """The disc mask used by the store's counter patches (for tests)."""
    return disc()


def store_fields(model_folder: Any, model: Any, reading: Any, photo: np.ndarray
                 ) -> dict[str, Any]:
    """The spec's store fields for a forest scan (hook of ``jobs.scan``): ``model`` is the
    forest model, ``reading`` its :class:`~reader.BoardReading` of ``photo``. Empty when the
    model folder has no glade model (enrolled before stores were read) or the store is not
    wholly in the photo."""
    from pathlib import Path

    from companion.the_glade.recognition.glade_model import load_glade_model
    from companion.the_glade.recognition.model import CELL_PX

    glade = load_glade_model(Path(model_folder))
    if glade is None or not glade.face_names:
        return {}
    board = reading.board
    g = board.grid
    size = board.finder.size
    hm = reading.located.homography
    s = CELL_PX / g.cell
    view, _ = rectify(photo, hm, s, (0, 0, size[0], size[1]), 1)
    working = board.working[:view.shape[0], :view.shape[1]]
    view = view[:working.shape[0], :working.shape[1]]
    border = np.ones(view.shape[:2], bool)
    border[int(g.top * s):int((g.top + g.rows * g.cell) * s),
           int(g.left * s):int((g.left + g.cols * g.cell) * s)] = False
    view = np.where(border[..., None], view, 0).astype(np.uint8)
    found = read_store(glade, size, model.counter_size * g.cell, hm, photo, view,
                       np.where(border[..., None], working, 0).astype(np.uint8))
    return found.result(glade.has_matches)
