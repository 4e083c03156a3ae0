"""Look-alike counter faces, learnt from the pack at enrolment and judged in a store.

Two counter faces of one pack may differ only in a small part (a match counter's pips, a
creature's head, a leaf's colour). :meth:`glade_polar.PolarFaces.pair` compares a store
counter with both where they differ, the faces blurred as the photo is; this module learns,
per pair of look-alike faces, *which* values of the counter's polar image tell the two apart
in a photo, and how far apart they lie, as :mod:`lookalikes` does for the forest tiles:

1. **Which faces are look-alikes**: each face's PAIRS_PER_FACE nearest faces (fitted at their
   best angle), at most MAX_PAIR_FIT apart.
2. **Training photos from the pack itself**: each face is drawn VIEWS times lying on a table
   as a photo shows a store counter (at the photo's own scale, brought to the fine view's;
   turned any way, a little off its place, with a rim and a shadow) and spoilt as the table
   simulator spoils photos (:func:`lookalikes._spoil`: light, colour cast, glare, focus or
   motion blur, noise, JPEG).
3. **Where**: every view is sampled round its centre as a store counter is
   (:func:`features`: the polar image where face ``a`` of the pair fits it best, turned to
   face ``a``'s own angle), and the FEATURES values where the two faces (blurred a little,
   ``b`` turned as it best fits ``a``) differ most are kept.
4. **How**: a linear discriminant (Fisher's, with shrinkage) learnt on half of the views;
   the other half gives each face's mean and spread along it, from which a scan judges how
   sure it is (:func:`verdict`).

Kept in the glade model (``CounterPairs.to_arrays``). Measured and off (LEARN,
``store.USE_LEARNT``): on tuning families 1-8 the views' spreads held for the photos (of 779
counters named by their margin whose two best faces were a learnt pair, 99% lay within 2.4
spreads of their own face, 1% nearer than 5.4 to the other), but the table's grain on a red
table lay by red-double's views as well; held out and fresh it named no doubted counter.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.the_glade.recognition.glade_polar import (
    ANGLES,
    PAIR_SEARCH,
    RINGS,
    SMOOTH,
    PolarFaces,
    _Bank,
    normalise,
    prepare,
)

#: Whether enrolment learns the pairs (off: the store does not use them, store.USE_LEARNT).
LEARN = False
#: Each face is paired with its PAIRS_PER_FACE nearest faces that fit it within MAX_PAIR_FIT
#: (the polar distance, as :meth:`PolarFaces.match` gives it, of one face's image to the
#: other's at the best angle).
PAIRS_PER_FACE = 3
MAX_PAIR_FIT = 0.6
#: Views rendered per face (half to learn from, half to measure the spread), the values of
#: the polar image a pair's discriminant looks at, the covariance's shrinkage.
VIEWS = 40
FEATURES = 384
SHRINK = 0.3
#: The photo's scale as a share of the fine view's (a counter is 42-50 photo px across on
#: the simulator's photos, 56 in the fine view), how far off its place a view's centre lies
#: (fine-view px: what the store's centre search leaves).
PHOTO_SCALE = (0.7, 0.95)
SHIFT_PX = 0.8
#: The blur (fine-view px, on top of SMOOTH) at which the faces' difference is measured.
DIFF_BLUR = 1.0


@dataclass
class CounterPairs:
    """The learnt look-alike pairs (one row a pair)."""

    faces: np.ndarray     # (p, 2) int32: faces a and b
    index: np.ndarray     # (p, FEATURES) int32: values of the polar image (face a's angle)
    weights: np.ndarray   # (p, FEATURES) float32: the discriminant
    stats: np.ndarray     # (p, 4) float32: mean and spread of face a's views, then b's

    @classmethod
    def empty(cls) -> CounterPairs:
        return cls(np.zeros((0, 2), np.int32), np.zeros((0, FEATURES), np.int32),
                   np.zeros((0, FEATURES), np.float32), np.zeros((0, 4), np.float32))

    def __len__(self) -> int:
        return len(self.faces)

    def find(self, x: int, y: int) -> int | None:
        """The row of the pair of faces ``x`` and ``y`` (either order), or None."""
        hit = np.nonzero(((self.faces[:, 0] == x) & (self.faces[:, 1] == y))
                         | ((self.faces[:, 0] == y) & (self.faces[:, 1] == x)))[0]
        return int(hit[0]) if len(hit) else None

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"pair_faces": self.faces, "pair_index": self.index,
                "pair_weights": self.weights, "pair_stats": self.stats}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], faces: int) -> CounterPairs:
        """The pairs kept in a model's arrays (none when it has none); ValueError when they
        disagree with each other or with the ``faces`` enrolled."""
        if "pair_faces" not in arrays:
            return cls.empty()
        out = cls(arrays["pair_faces"].astype(np.int32), arrays["pair_index"].astype(np.int32),
                  arrays["pair_weights"].astype(np.float32),
                  arrays["pair_stats"].astype(np.float32))
        p = len(out.faces)
        if (out.faces.shape != (p, 2) or out.index.shape != (p, FEATURES)
                or out.weights.shape != (p, FEATURES) or out.stats.shape != (p, 4)
                or (p and (out.faces.min() < 0 or out.faces.max() >= faces
                           or out.index.min() < 0 or out.index.max() >= RINGS * ANGLES * 3))):
            raise ValueError("the look-alike pairs disagree with the faces")
        return out


def _offsets() -> np.ndarray:
    half, step = PAIR_SEARCH
    grid = np.arange(-half, half + 1) * step
    return np.array([(dx, dy) for dy in grid for dx in grid])


def _around(polar: PolarFaces, image: np.ndarray, at: tuple[float, float]) -> np.ndarray:
    """The normalised polar images at PAIR_SEARCH round ``at``, angles in half steps too."""
    offsets = _offsets()
    centre = np.asarray(at, np.float64)
    return np.concatenate([normalise(polar._polar(image, centre, offsets, phase))
                           for phase in (0.0, 0.5)])


def _turned(polars: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The polar image (of ``polars``) where a face fits best (``d``: places x angles),
    turned to the face's own angle, flat."""
    place, k = np.unravel_index(int(d.argmin()), d.shape)
    return np.roll(polars[place], -int(k), axis=1).ravel()


def features(polar: PolarFaces, image: np.ndarray, at: tuple[float, float], a: int
             ) -> np.ndarray:
    """The counter near ``at`` of ``image`` (the fine view, prepared) as a pair with face
    ``a`` sees it: its normalised polar image where face ``a`` fits it best (PAIR_SEARCH
    round ``at``, angles in half steps too), turned to face ``a``'s own angle, flat."""
    polars = _around(polar, image, at)
    return _turned(polars, _Bank(polar._normed[[a]]).distances(polars)[:, 0])


def verdict(pairs: CounterPairs, row: int, x: np.ndarray, face: int) -> tuple[float, float]:
    """How many of its own spreads the counter (``x``: its :func:`features` for the pair's
    face a) lies from ``face`` and from the pair's other face."""
    t = float(x[pairs.index[row]] @ pairs.weights[row])
    ma, sa, mb, sb = (float(v) for v in pairs.stats[row])
    za, zb = abs(t - ma) / sa, abs(t - mb) / sb
    return (za, zb) if face == int(pairs.faces[row, 0]) else (zb, za)


def _fisher(xa: np.ndarray, xb: np.ndarray) -> np.ndarray:
    """Fisher's discriminant of two classes' rows, the pooled covariance shrunk towards its
    mean variance (SHRINK), inverted through the few views (Woodbury)."""
    ma, mb = xa.mean(axis=0), xb.mean(axis=0)
    x = np.concatenate([xa - ma, xb - mb]).astype(np.float64)
    m = max(len(x) - 2, 1)
    lam = SHRINK * float(np.einsum("ij,ij->", x, x)) / m / x.shape[1] + 1e-9
    c = (1 - SHRINK) / m
    v = (ma - mb).astype(np.float64)
    inner = np.eye(len(x)) * lam + c * cv2.mulTransposed(x, False)
    _ok, z = cv2.solve(inner, (x @ v)[:, None], flags=cv2.DECOMP_CHOLESKY)
    w = (v - c * (z[:, 0] @ x)) / lam
    return (w / (np.linalg.norm(w) + 1e-12)).astype(np.float32)


def views(face: np.ndarray, count: int, rng: np.random.Generator
          ) -> list[tuple[np.ndarray, tuple[float, float]]]:
    """``count`` spoilt views of a counter ``face`` (FACE_PX, the disc inscribed) lying on
    a table as a store photo shows it, brought to the fine view's scale and prepared as
    the store's fine view is: (view, the counter's centre)."""
    from companion.the_glade.recognition.lookalikes import _spoil

    s = face.shape[0]
    c = 2 * s + 1
    mask0 = np.zeros((s, s), np.float32)
    cv2.circle(mask0, (s // 2, s // 2), s // 2 - 1, 1.0, -1, cv2.LINE_AA)
    out = []
    for _ in range(count):
        r = float(rng.uniform(*PHOTO_SCALE))
        cr = max(16, round(c * r))
        m = cv2.getRotationMatrix2D((s / 2 - 0.5, s / 2 - 0.5), float(rng.uniform(0, 360)),
                                    r * float(rng.uniform(0.97, 1.03)))
        m[:, 2] += (cr / 2 - s / 2, cr / 2 - s / 2)
        table = rng.uniform(40, 220, 3).astype(np.float32)
        canvas = np.empty((cr, cr, 3), np.float32)
        canvas[:] = table
        canvas += rng.normal(0, float(rng.uniform(1, 8)), (cr, cr, 1)).astype(np.float32)
        mask = cv2.warpAffine(mask0, m, (cr, cr), flags=cv2.INTER_LINEAR)
        shade = np.roll(cv2.GaussianBlur(mask, (0, 0), 3 * r), (round(3 * r), round(4 * r)),
                        axis=(0, 1))
        canvas *= (1 - 0.35 * shade)[..., None]
        rim = cv2.warpAffine(cv2.dilate(mask0, np.ones((3, 3), np.float32)), m, (cr, cr))
        canvas = canvas * (1 - rim[..., None]) + 60.0 * rim[..., None]
        disc = cv2.warpAffine(face.astype(np.float32), m, (cr, cr), flags=cv2.INTER_LINEAR)
        canvas = canvas * (1 - mask[..., None]) + disc * mask[..., None]
        spoilt = _spoil(canvas, rng)
        fine = cv2.resize(spoilt, (c, c), interpolation=cv2.INTER_LINEAR)
        at = (c / 2 - 0.5 + rng.uniform(-SHIFT_PX, SHIFT_PX),
              c / 2 - 0.5 + rng.uniform(-SHIFT_PX, SHIFT_PX))
        out.append((prepare(fine, np.ones(3, np.float32)), at))
    return out


def candidates(polar: PolarFaces) -> list[tuple[int, int]]:
    """The look-alike pairs (a < b): each face's PAIRS_PER_FACE nearest within
    MAX_PAIR_FIT."""
    n = len(polar._normed)
    if n < 2:
        return []
    d = polar._faces.distances(polar._normed).min(axis=2)       # faces x faces
    d = np.minimum(d, d.T)
    np.fill_diagonal(d, np.inf)
    pairs = set()
    for a in range(n):
        for b in np.argsort(d[a])[:PAIRS_PER_FACE]:
            if d[a, int(b)] <= MAX_PAIR_FIT:
                pairs.add((min(a, int(b)), max(a, int(b))))
    return sorted(pairs)


def learn(polar: PolarFaces, faces: np.ndarray, seed: int = 0) -> CounterPairs:
    """Every look-alike pair's discriminant, learnt on views of the faces themselves."""
    rows = candidates(polar)
    if not rows:
        return CounterPairs.empty()
    rng = np.random.default_rng(seed)
    # where each pair's faces differ (b turned as it best fits a)
    blurred = normalise(polar._face_polars(faces, float(np.hypot(SMOOTH, DIFF_BLUR))))
    index = []
    for a, b in rows:
        k = int(_Bank(blurred[[a]]).distances(blurred[[b]])[0, 0].argmin())
        diff = np.abs(blurred[a] - np.roll(blurred[b], -k, axis=1)).ravel()
        index.append(np.sort(np.argsort(-diff)[:FEATURES]).astype(np.int32))
    # each face's views, as each of its pairs sees them (only the values kept: a few MB)
    seen: dict[tuple[int, int], list[np.ndarray]] = {}
    for f in sorted({f for row in rows for f in row}):
        mine = [j for j, row in enumerate(rows) if f in row]
        needed = sorted({rows[j][0] for j in mine})
        bank = _Bank(polar._normed[needed])
        for v, at in views(faces[f], VIEWS, rng):
            p = _around(polar, v, at)
            d = bank.distances(p)
            for j in mine:
                a = rows[j][0]
                seen.setdefault((j, f), []).append(
                    _turned(p, d[:, needed.index(a)])[index[j]])
    half = VIEWS // 2
    out_faces, weights, stats = [], [], []
    for j, (a, b) in enumerate(rows):
        xa, xb = np.stack(seen[(j, a)]), np.stack(seen[(j, b)])
        w = _fisher(xa[:half], xb[:half])
        ta, tb = xa[half:] @ w, xb[half:] @ w
        out_faces.append((a, b))
        weights.append(w)
        stats.append((ta.mean(), ta.std() + 1e-6, tb.mean(), tb.std() + 1e-6))
    return CounterPairs(np.array(out_faces, np.int32), np.stack(index),
                        np.stack(weights).astype(np.float32),
                        np.array(stats, np.float32))


def separation(pairs: CounterPairs) -> np.ndarray:
    """Each pair's separation: its faces' means apart over their spreads' root mean
    square (views kept apart from the learning)."""
    ma, sa, mb, sb = pairs.stats.T
    return np.abs(ma - mb) / np.sqrt((sa ** 2 + sb ** 2) / 2)

