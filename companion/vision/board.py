"""Finding a known board in a photo by its own printed features, and rectifying it.

A :class:`BoardFinder` learns ORB features from the empty board's image (its border art stays
visible however full the grid is). In a photo it matches them, fits a homography with RANSAC
on a reduced image, then refines it once on a rectified view at the reference scale. Only
long-stable OpenCV calls are used (ORB, BFMatcher, findHomography, warpPerspective), so this
runs the same on OpenCV 4.6 (Raspberry Pi OS Bookworm) and 5.x. AKAZE is not used: the
OpenCV 5 wheels leave it out of the main module.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DETECT_SIDE = 1000     # photos are searched at this longer side
REF_SIDE = 480         # the board's reference features are learnt at this longer side
BOARD_FEATURES = 1200
PHOTO_FEATURES = 3000
RETRY_FEATURES = 6000  # a second search, when the first finds no board
MIN_INLIERS = 25
#: When no board is found otherwise (reader.locate's last resort), a fit that GUIDE_MIN to
#: MIN_INLIERS matches agree with is tried again with matches looked for where it puts each
#: board feature (:meth:`BoardFinder._guided_fit`): within
#: GUIDE_RADIUS px of the search image, GUIDE_HAMMING bits, and GUIDE_RATIO nearer than the
#: next photo feature there. Issue #20, tuning family 8002 (hard photo 6: a small board,
#: dim and blurred, fully in view): the ratio test over the whole photo kept 30 matches, 13
#: of them on one right fit, and the board was "not found".
GUIDE_MIN = 10
GUIDE_RADIUS = 6.0
GUIDE_HAMMING = 80
GUIDE_RATIO = 0.9
#: (scale, iterations) of the dense alignment. The feature fit is already within a pixel or
#: two, so a few iterations at half scale reach what more would (ECC oscillates there by a
#: few tenths of a pixel on the photo's noise) and one at full scale places it; that last
#: one costs most (its set-up alone is about 13 ms of CPU). 6 + 1 instead of 12 + 2: the
#: same readings on the held-out families 1000-1004 (normal 130 photos, hard 40; only the
#: reason given for 3 squares already uncertain differed), about 20 ms less a scan.
ECC_LEVELS = ((0.5, 6), (1.0, 1))
#: The dense alignment compares the board's print, not its light: each image is divided by
#: its own local mean brightness (a Gaussian of this sigma, reference px) first. ECC allows
#: one gain and offset for the whole board, so a deep shadow across part of it steered the
#: fit off: a glade photo of game family 7489 (a shadow over a third of the board) diverged
#: (correlation 0.04), was rejected, and the feature fit left spaces 4-6 working px off;
#: flattened, it converged to within a pixel of the truth (correlation 0.97). None: the raw
#: brightness, as before 7 December 2026 (tests whose photos were chosen then use it).
FLATTEN: float | None = 8.0
#: Every PEEK-th of a board's features is matched first when several boards may be in the
#: photo (:meth:`BoardFinder.peek`): the board whose share matches best is searched first,
#: and the rest of its match is made without repeating that share. On the SAMPLE and
#: held-out family 1000 photos the right board's quarter passed the ratio test 25-95 times,
#: another board's 2-9 times.
PEEK = 4


@dataclass(frozen=True)
class Located:
    """Where a board lies in a photo: ``homography`` takes board-image pixels to photo pixels."""

    homography: np.ndarray
    inliers: int
    matches: int


def _orb(n: int) -> cv2.ORB:
    return cv2.ORB_create(nfeatures=n, scaleFactor=1.2, nlevels=8, edgeThreshold=15,
                          patchSize=31, fastThreshold=10)


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image


class PhotoFeatures:
    """ORB features of one photo at the search size, shared by every board tried."""

    def __init__(self, photo: np.ndarray, features: int = PHOTO_FEATURES) -> None:
        self.gray = _gray(photo)
        h, w = self.gray.shape[:2]
        self.factor = min(1.0, DETECT_SIDE / max(w, h))
        small = cv2.resize(self.gray, (round(w * self.factor), round(h * self.factor)),
                           interpolation=cv2.INTER_AREA)
        self.keypoints, self.descriptors = _orb(features).detectAndCompute(small, None)
        #: each board's (finder id) ratio-test matches of every PEEK-th of its features
        self.peeks: dict[int, list[tuple[int, int]]] = {}


def boards_apart(finders: list[BoardFinder], images: list[np.ndarray]) -> bool:
    """Whether no board's features find it in another board's image (BGR). Then the first
    board found in a photo is the only one that can be there, and the rest need not be
    searched for; boards sharing their printed art (two sides of one board) are not apart."""
    photos = [PhotoFeatures(image) for image in images]
    return not any(finder.locate(photo, refine=False) is not None
                   for i, finder in enumerate(finders)
                   for j, photo in enumerate(photos) if i != j)


class BoardFinder:
    """Find one board (known from its image) in photos."""

    def __init__(self, points: np.ndarray, descriptors: np.ndarray, ref_scale: float,
                 size: tuple[int, int], reference: np.ndarray, still: np.ndarray) -> None:
        self.points = points.astype(np.float32)        # in reference pixels
        self.descriptors = descriptors.astype(np.uint8)
        self.ref_scale = float(ref_scale)              # reference px per board-image px
        self.size = size                               # board image (w, h)
        self.reference = reference                     # the board, gray, reference scale
        self.still = still                             # where no piece ever lies (uint8 0/255)
        #: why the last :meth:`locate` found no board, in words ("" after a find)
        self.miss = ""
        #: the dense alignment's reference, flattened (:meth:`_template`), and it and the
        #: mask at each level's size (:meth:`_level`), made once
        self._float: np.ndarray | None = None
        self._flattened: float | None = None  # the FLATTEN it was made with
        self._levels: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def learn(cls, board: np.ndarray, grid_box: tuple[float, float, float, float],
              features: int = BOARD_FEATURES) -> BoardFinder:
        """Learn ``board`` (BGR); ``grid_box`` (x0, y0, x1, y1) is where pieces may lie."""
        h, w = board.shape[:2]
        scale = REF_SIDE / max(w, h)
        ref = cv2.resize(_gray(board), (round(w * scale), round(h * scale)),
                         interpolation=cv2.INTER_AREA)
        kps, des = _orb(features).detectAndCompute(ref, None)
        if des is None or len(kps) < MIN_INLIERS * 2:
            raise ValueError("the board image has too little printed detail to be found in a "
                             "photo")
        pts = np.array([k.pt for k in kps], np.float32)
        still = np.full(ref.shape, 255, np.uint8)
        x0, y0, x1, y1 = (round(v * scale) for v in grid_box)
        still[max(y0 - 3, 0):y1 + 3, max(x0 - 3, 0):x1 + 3] = 0
        return cls(pts, des, scale, (w, h), ref, still)

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {f"{prefix}points": self.points, f"{prefix}descriptors": self.descriptors,
                f"{prefix}meta": np.array([self.ref_scale, *self.size], np.float64),
                f"{prefix}reference": self.reference, f"{prefix}still": self.still}

    @classmethod
    def from_arrays(cls, arrays, prefix: str) -> BoardFinder:
        meta = arrays[f"{prefix}meta"]
        return cls(arrays[f"{prefix}points"], arrays[f"{prefix}descriptors"], float(meta[0]),
                   (int(meta[1]), int(meta[2])), arrays[f"{prefix}reference"],
                   arrays[f"{prefix}still"])

    # -- locating ------------------------------------------------------------------------
    def _match(self, des: np.ndarray, ratio: float, rows: np.ndarray | None = None
               ) -> list[tuple[int, int]]:
        """(board feature, photo feature) of each board feature (of ``rows``, by default
        all) whose nearest photo feature is clearly nearer than its second (the ratio test).
        ``cv2.batchDistance`` is what ``BFMatcher.knnMatch`` runs, without a DMatch object
        per pair and a Python loop over them: the same pairs. Each board feature is matched
        on its own, so the pairs of some rows are those rows' pairs of a whole match."""
        mine = self.descriptors if rows is None else self.descriptors[rows]
        dist, idx = cv2.batchDistance(mine, des, cv2.CV_32S, normType=cv2.NORM_HAMMING, K=2)
        if dist.shape[1] < 2:  # one photo feature: every nearest one passes, as knnMatch's
            keep = np.ones(len(dist), bool)
        else:
            keep = dist[:, 0] < ratio * dist[:, 1].astype(np.float64)
        good = np.flatnonzero(keep)
        board = good if rows is None else rows[good]
        return list(zip(board.tolist(), idx[good, 0].tolist(), strict=True))

    def _usable(self, photo: PhotoFeatures) -> bool:
        return photo.descriptors is not None and len(photo.keypoints) >= MIN_INLIERS

    def peek(self, photo: PhotoFeatures) -> int:
        """How many of every PEEK-th of the board's features pass the ratio test in
        ``photo``: a quick sign of whether the board is there. The pairs are kept with the
        photo for :meth:`locate`, which then matches only the other features."""
        if not self._usable(photo):
            return 0
        key = id(self)
        if key not in photo.peeks:
            photo.peeks[key] = self._match(photo.descriptors, 0.8,
                                           np.arange(0, len(self.descriptors), PEEK))
        return len(photo.peeks[key])

    def _photo_match(self, photo: PhotoFeatures) -> list[tuple[int, int]]:
        """:meth:`_match` of every board feature in ``photo`` (ratio 0.8), the share
        :meth:`peek` matched not matched again: the same pairs in the same order."""
        peeked = photo.peeks.get(id(self))
        if peeked is None:
            return self._match(photo.descriptors, 0.8)
        rest = np.flatnonzero(np.arange(len(self.descriptors)) % PEEK != 0)
        return sorted(peeked + self._match(photo.descriptors, 0.8, rest))

    def locate(self, photo: PhotoFeatures, refine: bool = True, guided: bool = False
               ) -> Located | None:
        """The board's homography in the photo, or ``None`` if it is not there (then
        :attr:`miss` says why, in words). ``guided``: a fit too few matches agree with is
        tried again from matches looked for where it puts the board (:meth:`_guided_fit`),
        a last resort when the board is not found otherwise."""
        self.miss = ""
        kps, f = photo.keypoints, photo.factor
        h, w = photo.gray.shape[:2]
        if not self._usable(photo):
            self.miss = (f"the photo shows almost no detail ({len(kps)} features): it is "
                         "dark, blank or badly out of focus")
            return None
        good = self._photo_match(photo)
        if len(good) < MIN_INLIERS:
            self.miss = (f"only {len(good)} spots of the photo look like the board's printed "
                         f"border ({MIN_INLIERS} needed): the border is out of view, covered, "
                         "in deep shadow or glare, or this is another board")
            return None
        src = self.points[[q for q, _ in good]]
        dst = np.array([kps[t].pt for _, t in good], np.float32)
        hm, inliers = _consensus_fit(src, dst)
        if guided and hm is not None and GUIDE_MIN <= inliers < MIN_INLIERS:
            hm, inliers = self._guided_fit(photo, hm, inliers)
        if hm is None or inliers < MIN_INLIERS:
            self.miss = (f"{len(good)} spots look like the board's border but only {inliers} "
                         f"lie where one flat board would put them ({MIN_INLIERS} needed): "
                         "too little of the border is in view or sharp")
            return None
        # board-image px -> photo px
        hm = np.diag([1 / f, 1 / f, 1.0]) @ hm @ np.diag([self.ref_scale, self.ref_scale, 1.0])
        first = Located(hm, inliers, len(good))
        if not self.plausible(hm, (w, h)):
            self.miss = ("the spots that match the border do not make a flat board seen from "
                         "above (too small, folded or too slanted)")
            return None
        return self.refine(photo.gray, first) if refine else first

    def _guided_fit(self, photo: PhotoFeatures, hm: np.ndarray, inliers: int
                    ) -> tuple[np.ndarray, int]:
        """A fit again from matches looked for where the tentative fit ``hm`` (reference px to
        search px, ``inliers`` agreeing) puts each board feature: its nearest photo feature
        within GUIDE_RADIUS, clearly nearer than the next one there and within GUIDE_HAMMING
        bits. The fit and how many matches agree with it (MIN_INLIERS still needed), or
        ``hm`` and ``inliers`` when the guided fit is not better or not a flat board."""
        w, h = self.size
        quad = project(hm, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
                       * self.ref_scale)
        if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
            return hm, inliers
        pts = np.array([k.pt for k in photo.keypoints], np.float32)
        where = project(hm, self.points)
        matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        src, dst = [], []
        for i in range(0, len(where), 256):  # a block of board features at a time
            near = np.abs(where[i:i + 256, None, :] - pts[None, :, :]).max(axis=2) < GUIDE_RADIUS
            # the two nearest photo features of each board feature among those near it
            for m in matcher.knnMatch(self.descriptors[i:i + 256], photo.descriptors, k=2,
                                      mask=near.astype(np.uint8)):
                if not m or m[0].distance > GUIDE_HAMMING or (
                        len(m) > 1 and m[0].distance >= GUIDE_RATIO * m[1].distance):
                    continue
                src.append(self.points[i + m[0].queryIdx])
                dst.append(pts[m[0].trainIdx])
        if len(src) < MIN_INLIERS:
            return hm, inliers
        fit, agree = _consensus_fit(np.array(src, np.float32), np.array(dst, np.float32))
        if fit is None or agree <= inliers:
            return hm, inliers
        return fit, agree

    def refine(self, gray: np.ndarray, first: Located) -> Located:
        """Align the board's border densely (ECC) on a view rectified by the first fit."""
        s = self.ref_scale
        rh, rw = self.reference.shape[:2]
        to_ref = np.diag([s, s, 1.0])
        ref_to_photo = first.homography @ np.linalg.inv(to_ref)
        view = cv2.warpPerspective(gray, ref_to_photo, (rw, rh),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        warp = np.eye(3, dtype=np.float32)
        template = self._template()
        view = flatten(view.astype(np.float32))
        mask = self.still
        try:
            for k, iters in ECC_LEVELS:  # coarse to fine
                size = (round(rw * k), round(rh * k))
                t, m = self._level(size)
                v = cv2.resize(view, size, interpolation=cv2.INTER_AREA)
                scale = np.diag([k, k, 1.0]).astype(np.float32)
                w = scale @ warp @ np.linalg.inv(scale)
                w = w.astype(np.float32)
                _, w = cv2.findTransformECC(t, v, w, cv2.MOTION_HOMOGRAPHY,
                                            (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT,
                                             iters, 1e-5), m, 5)
                warp = np.linalg.inv(scale) @ w @ scale
        except cv2.error:
            return first
        # the dense fit must stay close to the feature fit, and match the border better
        corners = np.array([[0, 0], [rw, 0], [rw, rh], [0, rh]], np.float32)
        if np.abs(project(warp, corners) - corners).max() > 0.08 * max(rw, rh):
            return first
        moved = cv2.warpPerspective(view, warp, (rw, rh),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
        if _masked_ncc(moved, template, mask) < _masked_ncc(view, template, mask):
            return first
        return Located(ref_to_photo @ warp @ to_ref, first.inliers, first.matches)

    def _template(self) -> np.ndarray:
        """The reference as the dense alignment compares it, flattened (made once)."""
        if self._float is None or self._flattened != FLATTEN:
            self._float, self._flattened = flatten(self.reference.astype(np.float32)), FLATTEN
            self._levels = {}
        return self._float

    def _level(self, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        """The reference (float32) and where no piece lies, resized to ``size`` for one level
        of the dense alignment: the same for every photo, so made once per size."""
        found = self._levels.get(size)
        if found is None:
            found = self._levels[size] = (
                cv2.resize(self._template(), size, interpolation=cv2.INTER_AREA),
                cv2.resize(self.still, size, interpolation=cv2.INTER_NEAREST))
        return found

    def plausible(self, homography: np.ndarray, frame: tuple[int, int]) -> bool:
        """Is the fit a real view of a flat board (convex, not tiny, not wildly skewed)?"""
        w, h = self.size
        quad = project(homography, np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
        if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
            return False
        area = cv2.contourArea(quad.astype(np.float32))
        if area < 0.02 * frame[0] * frame[1]:
            return False
        sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
        return bool(sides.max() / max(sides.min(), 1e-6) < 3.0)


#: Robust fits tried for the board's homography, best first when they tie.
FIT_METHODS = (cv2.USAC_ACCURATE, cv2.USAC_MAGSAC, cv2.RANSAC)
FIT_TOLERANCE = 4.0  # px of the search image: a match this close to the fit agrees with it


def _consensus_fit(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray | None, int]:
    """The homography taking ``src`` to ``dst`` that the most matches agree with (within
    FIT_TOLERANCE), of those the robust methods of FIT_METHODS find, and how many agree.

    No one method is right on every photo. When most matches crowd into one stretch of the
    border, plain RANSAC can stop at a fit only they agree on (SAMPLE style 8, seed 20141:
    152 of 187 matches, 88 px off at the far grid corner, and two fruits there read wrong
    as sure), where USAC's accurate mode and MAGSAC find the fit 175 agree on. With few
    matches, MAGSAC once settled on a fit 49 of 79 agree on, 231 px off (style 6, seed
    17033), and the accurate mode on one 27 px off that 73 of 109 agree on, where another
    method's fit drew 75 (style 7, seed 17001). Counting agreement at one tolerance picks
    the fit most of the board's matches support; each fit takes under a millisecond."""
    best: tuple[int, np.ndarray | None] = (-1, None)
    for method in FIT_METHODS:
        hm, _mask = cv2.findHomography(src, dst, method, FIT_TOLERANCE, maxIters=2000,
                                       confidence=0.995)
        if hm is None:
            continue
        agree = int((np.linalg.norm(project(hm, src) - dst, axis=1) < FIT_TOLERANCE).sum())
        if agree > best[0]:
            best = (agree, hm)
    return best[1], max(best[0], 0)


def flatten(gray: np.ndarray) -> np.ndarray:
    """``gray`` (float32) over its local mean brightness (FLATTEN), about 128 where the
    print is even: the print's pattern without the light across it. Pixels outside the photo
    (0 after rectifying) stay 0 and do not darken their neighbours' mean."""
    if FLATTEN is None:
        return gray
    inside = (gray > 0).astype(np.float32)
    mean = cv2.GaussianBlur(gray, (0, 0), FLATTEN) / np.maximum(
        cv2.GaussianBlur(inside, (0, 0), FLATTEN), 1e-3)
    return np.where(inside > 0, gray * 128.0 / np.maximum(mean, 1.0), 0.0).astype(np.float32)


def _masked_ncc(a: np.ndarray, b: np.ndarray, mask: np.ndarray) -> float:
    sel = (mask > 0) & (a > 0)
    x, y = a[sel].astype(np.float64), b[sel].astype(np.float64)
    if x.size < 100:
        return -1.0
    x, y = x - x.mean(), y - y.mean()
    return float((x * y).sum() / (np.sqrt((x * x).sum() * (y * y).sum()) + 1e-9))


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Map (n, 2) points through a homography."""
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, homography).reshape(-1, 2)


def rectify(photo: np.ndarray, homography: np.ndarray, scale: float,
            box: tuple[float, float, float, float], fine: int = 2
            ) -> tuple[np.ndarray, np.ndarray]:
    """The part ``box`` = (x0, y0, x1, y1) of the board image seen straight on: a working view
    at ``scale`` output pixels per board-image pixel and a ``fine`` times larger view (the
    working view is area-reduced from it, so a large photo does not alias)."""
    x0, y0, x1, y1 = box
    out_w, out_h = round((x1 - x0) * scale), round((y1 - y0) * scale)
    k = float(fine)
    to_out = np.array([[scale * k, 0, -x0 * scale * k], [0, scale * k, -y0 * scale * k],
                       [0, 0, 1]])
    m = homography @ np.linalg.inv(to_out)
    big = cv2.warpPerspective(photo, m, (round(out_w * k), round(out_h * k)),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    return cv2.resize(big, (out_w, out_h), interpolation=cv2.INTER_AREA), big
