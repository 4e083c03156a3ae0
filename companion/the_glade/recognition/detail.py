"""A closer look at a close call: the few faces a tile square might show, compared at full
detail on the photo's tile, placed to a fraction of a pixel, and judged where they differ.

The first pass compares every enrolled face on small 32 px patches: quick, and enough for
most squares. Two fruits or two leaf shades, though, may differ in a handful of those pixels,
and half a pixel or a degree of misplacement blurs that difference away. Here the tile is
placed on the photo (at the fine view's own resolution) to a fraction of a pixel and a degree
(:func:`place`; :mod:`close_calls` places it once, by the mean of its candidate faces), and
the candidates are compared on the pixels where their faces differ, weighted by
how much they differ: the rest of the tile (the creature they share, the rim) says nothing
about which of them it is, and only adds its misfit.

:func:`differ_refitted` (on: ``close_calls.LOCAL_FIT``; its look only confirms, ``LOCAL_CONFIRM``)
first refits each candidate face round where two differ (:func:`refit`: a fraction of a
pixel's move, a little blur, a gain and offset per colour), for a small icon that the whole
tile's placing and light leave off.

Nothing here knows what the tiles look like: the faces and where they differ come from the
user's enrolment pack.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.patches import cut, describe, parabola_peak

#: Side of a detail patch (px) and the smoothing of the fine view it is cut from (fine px).
DETAIL = 64
DETAIL_SMOOTH = 0.6
#: How far (detail px) and how much turned (degrees) a candidate may be realigned.
SEARCH = 4
TURNS = (-2.0, 0.0, 2.0)
#: Blur (detail px) spread over the map of where two faces differ: a pixel of misplacement
#: should not move a difference out of its own weight.
WEIGHT_BLUR = 1.5


def detail_face(small: np.ndarray, inset_side: float, turn: int) -> np.ndarray:
    """The detail descriptor (DETAIL, DETAIL, 3) of an enrolled face image ``small`` (already
    at fine-view size and smoothed), ``turn`` quarter turns clockwise."""
    img = np.ascontiguousarray(np.rot90(small, -turn))
    n = img.shape[0]
    return describe(cut(img, (n / 2, n / 2), 0.0, inset_side, DETAIL)[None])[0].reshape(
        DETAIL, DETAIL, 3)


@dataclass
class Candidate:
    """One face a square might show, and the photo's patch it is compared with."""

    name: str
    template: int                 # index of the enrolled template (face and turn)
    face: np.ndarray              # the face's detail descriptor, blurred like the photo
    patch: np.ndarray             # the photo's patch where the tile was placed
    fit: float                    # hazy mean squared misfit over the whole patch
    centre: tuple[float, float]   # where the face lies, fine-view px
    angle: float
    clipped: np.ndarray | None = None  # where the photo's patch has a clipped colour (0/1)


def _back(m: np.ndarray, x: float, y: float) -> tuple[float, float]:
    inv = cv2.invertAffineTransform(m)
    return (float(inv[0, 0] * x + inv[0, 1] * y + inv[0, 2]),
            float(inv[1, 0] * x + inv[1, 1] * y + inv[1, 2]))


def place(view: np.ndarray, centre: tuple[float, float], angle: float, side: float,
          gray_faces: list[np.ndarray]) -> list[tuple[float, float, float]]:
    """Where (fine-view px) and how turned each gray face fits best near the tile found at
    ``centre`` / ``angle`` (``side`` fine px across the descriptor's area) in ``view``: the
    photo is cut once per trial turn, and every face searched in it."""
    big = DETAIL + 2 * SEARCH
    best = [(-2.0, float(centre[0]), float(centre[1]), angle)] * len(gray_faces)
    for turn in TURNS:
        m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle + turn,
                                    DETAIL / side)
        m[:, 2] += (big / 2 - centre[0], big / 2 - centre[1])
        patch = cv2.cvtColor(cv2.warpAffine(view, m, (big, big), flags=cv2.INTER_LINEAR,
                                            borderMode=cv2.BORDER_REPLICATE),
                             cv2.COLOR_BGR2GRAY)
        for k, face in enumerate(gray_faces):
            score = cv2.matchTemplate(patch, face, cv2.TM_CCOEFF_NORMED)
            j = int(np.argmax(score))
            v, u = divmod(j, score.shape[1])
            if score[v, u] > best[k][0]:
                x = u + parabola_peak(score[v, :], u) + DETAIL / 2
                y = v + parabola_peak(score[:, u], v) + DETAIL / 2
                best[k] = (float(score[v, u]), *_back(m, x, y), angle + turn)
    return [(cx, cy, a) for _, cx, cy, a in best]


def _haze_terms(n: int) -> np.ndarray:
    """The quadratic terms (n*n, 6) a field of light or glare is made of over an n x n
    patch."""
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    x, y = (xx - n / 2 + 0.5) / (n / 2), (yy - n / 2 + 0.5) / (n / 2)
    return np.stack([t.ravel() for t in (np.ones_like(x), x, y, x * x, x * y, y * y)], axis=1)


#: The terms of :func:`as_seen`'s fields over a detail patch, and at every other pixel of it
#: (where the fields are fitted: they are smooth, and a quarter of the pixels fit them as well).
HAZE_TERMS = _haze_terms(DETAIL)
HAZE_FIT_TERMS = HAZE_TERMS.reshape(DETAIL, DETAIL, -1)[::2, ::2].reshape(
    -1, HAZE_TERMS.shape[1]).copy()
_HAZE_FIT_TERMS_3 = np.repeat(HAZE_FIT_TERMS[:, :, None], 3, axis=2)  # each term per colour
_HAZE_RIDGE = np.eye(2 * HAZE_TERMS.shape[1], dtype=np.float32) * 1e-3  # as_seen's ridge

#: The thickest veil of glare a closer look allows (a share of even light on top of the
#: print). The first look stops at MAX_HAZE (0.4), past which too little print is left to
#: tell every face apart; a closer look compares only a few faces where they differ and
#: judges its own misfit, and glare that clips the paper round a tile veils its print by
#: more than that. At 0.6 (over 0.4), on 200 analysis photos each of art styles 1, 3, 6 and
#: 9: 6 more boards exactly right, 2 fewer wrong squares (see :func:`as_seen` for more).
VEIL_MAX = 0.6
#: The light left on a tile once the photo is divided by its plane of light may still
#: brighten or darken the print by up to this factor (a shadow's soft edge across the tile is
#: no plane): the gain field of :func:`as_seen` stays within GAIN_MIN .. 1 / GAIN_MIN.
GAIN_MIN = 0.6


def as_seen(face: np.ndarray, patch: np.ndarray, max_veil: float = VEIL_MAX) -> np.ndarray:
    """``face`` (DETAIL, DETAIL, 3) as the photo's ``patch`` shows it: in the light left on
    the tile, ``g face``, and under a veil of glare, ``+ h (1 - face)``, where the gain ``g``
    (GAIN_MIN .. 1 / GAIN_MIN) and the veil ``h`` (0 .. ``max_veil``) are smooth fields
    (quadratic over the patch) fitted together in closed form.

    Glare is light added on top of the print: once the photo is divided by the paper's
    light, that is the veil (a print ``f`` under light ``L`` and glare ``G`` shows
    ``(f L + G) / (L + G) = (1 - h) f + h``). A glare spot may be half a tile across, so its
    veil is thick over one fruit and thin over the next; and a shadow's soft edge leaves
    one side of the tile darker than the plane of light the patch was divided by. A face
    misfit by either misfits the photo everywhere, and two look-alikes are then hard to
    tell apart. Both fields are smooth and shared by the whole tile, so neither can make one
    fruit pass for another. Measured on 200 analysis photos each of art styles 1, 3, 6 and
    9, against the veil alone (to 0.6): 9 more boards exactly right, and the last wrong square
    of those photos is gone."""
    some = face[::2, ::2].reshape(-1, 3)
    u = 1.0 - some                    # how much a veil can lighten each pixel
    r = patch.reshape(face.shape)[::2, ::2].reshape(-1, 3) - some
    phi = HAZE_FIT_TERMS
    m = phi.shape[1]

    def moment(a: np.ndarray, b: np.ndarray) -> np.ndarray:  # per pixel, over the colours
        return a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1] + a[:, 2] * b[:, 2]

    # the normal equations of the veil's terms (times 1 - face) and the gain's (times face),
    # their three blocks in one product
    w = np.stack([moment(u, u), moment(u, some), moment(some, some)], axis=1)
    # (numpy broadcasts a length-1 axis against a short one slowly: the terms are repeated
    # per colour beforehand and the weights per term, the products the same)
    terms = _HAZE_FIT_TERMS_3 * np.repeat(w[:, None, :], m, axis=1)
    blocks = (phi.T @ terms.reshape(len(phi), -1)).reshape(m, m, 3)
    gram = np.empty((2 * m, 2 * m), blocks.dtype)  # the blocks laid out (as np.block would)
    gram[:m, :m], gram[:m, m:] = blocks[..., 0], blocks[..., 1]
    gram[m:, :m], gram[m:, m:] = blocks[..., 1], blocks[..., 2]
    gram += _HAZE_RIDGE
    rhs = (phi.T @ np.stack([moment(u, r), moment(some, r)], axis=1)).T.reshape(-1)
    coef = np.linalg.solve(gram, rhs)
    h = np.clip(HAZE_TERMS @ coef[:m], 0.0, max_veil)[:, None]
    g = np.clip(1.0 + HAZE_TERMS @ coef[m:], GAIN_MIN, 1.0 / GAIN_MIN)[:, None]
    f = face.reshape(-1, 3)
    return (g * f + h * (1 - f)).reshape(face.shape).astype(np.float32)


def compare(faces: list[tuple[str, int, np.ndarray]], patches: np.ndarray,
            places: list[tuple[float, float, float]],
            clipped: np.ndarray | None = None) -> list[Candidate]:
    """Each candidate face (name, template, detail descriptor) against the photo's patch
    (descriptor) where it was placed, in the light and under the glare that fit it best
    (:func:`as_seen`); best fit first. ``clipped`` (one DETAIL x DETAIL map per patch) marks
    the photo's pixels with a clipped colour."""
    if clipped is None:
        clipped = np.zeros((len(faces), DETAIL, DETAIL), np.float32)
    out = [_candidate(face, patch, place, hot)
           for face, patch, place, hot in zip(faces, patches, places, clipped, strict=True)]
    return sorted(out, key=lambda c: c.fit)


def compare_on(faces: list[tuple[str, int, np.ndarray]], patch: np.ndarray,
               place: tuple[float, float, float],
               clipped: np.ndarray | None = None,
               max_veil: float = VEIL_MAX) -> list[Candidate]:
    """:func:`compare` of every candidate face on one photo's ``patch`` (descriptor), cut
    at ``place``, with its clipped map: the same candidates, without a copy of the patch
    and the map per face; each seen under a veil of at most ``max_veil``."""
    if clipped is None:
        clipped = np.zeros((DETAIL, DETAIL), np.float32)
    return sorted((_candidate(face, patch, place, clipped, max_veil) for face in faces),
                  key=lambda c: c.fit)


def _candidate(face: tuple[str, int, np.ndarray], patch: np.ndarray,
               place: tuple[float, float, float], clipped: np.ndarray,
               max_veil: float = VEIL_MAX) -> Candidate:
    """One candidate face (name, template, detail descriptor) fitted to the photo's
    ``patch`` as seen (:func:`as_seen`), cut at ``place``."""
    name, template, descriptor = face
    cx, cy, a = place
    seen = as_seen(descriptor, patch, max_veil)
    fit = float(((patch - seen.reshape(-1)) ** 2).mean())
    return Candidate(name, template, seen, patch.reshape(descriptor.shape), fit, (cx, cy), a,
                     clipped)


@dataclass(frozen=True)
class Verdict:
    """How clearly the best candidate beats the second where they differ."""

    margin: float   # 1: the photo is the best face there; 0: halfway between; < 0: the other
    noise: float    # the best face's own misfit there, in units of their difference
    clipped: float = 0.0  # share of the photo's pixels there with a clipped colour

    @classmethod
    def of(cls, found: Differ | None) -> Verdict:
        """The verdict from two candidates' :func:`differ` (first, then second)."""
        if found is None:  # the same face twice
            return cls(1.0, 0.0)
        e1, e2, gap, clipped = found
        return cls((e2 - e1) / gap, e1 / gap, clipped)


def squared_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Squared difference of two (n, n, 3) images summed over the colours: the same values
    as ``((a - b) ** 2).sum(axis=2)``, without numpy's slow reduction over a short axis."""
    d = (a - b) ** 2
    return d[..., 0] + d[..., 1] + d[..., 2]


#: What :func:`differ` finds: each face's misfit, their difference, the clipped share.
Differ = tuple[float, float, float, float]


def _hot(candidate: Candidate) -> np.ndarray | float:
    return 0.0 if candidate.clipped is None else candidate.clipped


def _weight(first: Candidate, second: Candidate) -> tuple[np.ndarray, np.ndarray]:
    """Where two candidates' faces differ: their squared difference, and it blurred (the
    weight each pixel gets)."""
    diff = squared_difference(first.face, second.face)
    return diff, cv2.GaussianBlur(diff, (0, 0), WEIGHT_BLUR)


def differ(first: Candidate, second: Candidate,
           weighted: tuple[np.ndarray, np.ndarray] | None = None) -> Differ | None:
    """Where two candidates' faces differ, weighted by how much: each one's own misfit to
    the photo there, the faces' difference there, and the share of the photo's pixels there
    with a clipped colour (None: the same face twice, as two copies enrolled alike). Clipped
    pixels only matter where the faces differ: an over-exposed paper round two fruits says
    nothing about either, a clipped fruit does. ``weighted``: the two's :func:`_weight`,
    when already worked out."""
    diff, weight = _weight(first, second) if weighted is None else weighted
    total = float(weight.sum())
    if total <= 1e-9:
        return None
    gap = float((weight * diff).sum() / total)
    e1 = float((weight * squared_difference(first.patch, first.face)).sum() / total)
    e2 = float((weight * squared_difference(second.patch, second.face)).sum() / total)
    hot = np.maximum(_hot(first), _hot(second))
    clipped = float((weight * hot).sum() / total)
    return e1, e2, max(gap, 1e-9), clipped


#: :func:`differ_refitted` refits the candidate faces in a window LOCAL_PAD detail px wider than
#: where they differ.
LOCAL_PAD = 5
#: A gain and an offset per colour in :func:`refit`, else one of each for all three colours
#: (a gain per colour may relight one leaf shade into the other: on hard photos of tuning
#: family 7 it made a wrong shade sure). One for all was measured too (off, with LOCAL_FIT):
#: held out, hard photos 5 -> 7 wrong squares and 243 -> 246 doubts; see close_calls.
LOCAL_COLOURS = True
#: The most (detail px) a face may be moved there.
LOCAL_SHIFT = 1.5
#: Where the faces' difference (blurred) is at least this share of its peak is where they
#: differ, for the window.
LOCAL_AT = 0.05
#: Faces differing over more than this share of the patch's side (window and all) are
#: weighed as they were placed (:func:`differ`): they differ in more than a small icon.
LOCAL_MAX = 0.7


def _where(weight: np.ndarray) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) where a blurred difference ``weight`` is at least LOCAL_AT
    of its peak (every part of it: keeping only the parts holding most of its weight, for
    the faint blotches of two tiles' paper grain, was measured and dropped)."""
    _, top, _, _ = cv2.minMaxLoc(weight)
    mask = (weight > LOCAL_AT * top).astype(np.uint8)
    x, y, w, h = cv2.boundingRect(mask)
    return x, y, x + w, y + h


_EYE_3 = np.eye(3, dtype=np.float32)
_REFIT_RIDGE = np.eye(9, dtype=np.float32) * 1e-4  # refit's ridge (per colour)


def refit(faces: np.ndarray, patch: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    """Each of ``faces`` (n, DETAIL, DETAIL, 3, as seen) refitted to the photo's ``patch``
    in the window ``rows`` x ``cols``: moved by a fraction of a pixel (at most
    LOCAL_SHIFT), blurred or sharpened a little, and its light changed by a gain and an
    offset per colour, all fitted together by least squares on the face's linearised change
    (its derivatives, and its Laplacian for the blur); returns the refitted faces over the
    window.

    The tile is placed by its whole face (:func:`place`) and seen in light fitted over the
    whole tile (:func:`as_seen`), so a small icon may lie a fraction of a pixel off and be
    blurred or lit a little otherwise than the tile's average: for an icon a few pixels
    across that misfit is as large as the difference between two icons. Each candidate
    gets the same freedom, none of which turns one icon's shape into another's."""
    f = faces[:, rows.start - 1:rows.stop + 1, cols.start - 1:cols.stop + 1]
    mid = f[:, 1:-1, 1:-1]
    left, right, up, down = f[:, 1:-1, :-2], f[:, 1:-1, 2:], f[:, :-2, 1:-1], f[:, 2:, 1:-1]
    n = len(faces)
    # the change's terms per pixel and colour: moved right, moved down, blurred
    a = np.stack([(right - left) * 0.5, (down - up) * 0.5, right + left + up + down - 4 * mid],
                 axis=-1).reshape(n, -1, 3, 3)
    m = mid.reshape(n, -1, 3)
    r = patch[rows, cols].reshape(1, -1, 3) - m
    if not LOCAL_COLOURS:  # one gain and one offset for all three colours
        design = np.concatenate([a.reshape(n, -1, 3), np.ones((n, m.shape[1] * 3, 1),
                                 np.float32), m.reshape(n, -1, 1)], axis=2)
        coef = np.linalg.solve(
            (design.transpose(0, 2, 1) @ design + np.eye(5, dtype=np.float32) * 1e-4).astype(
                np.float64),
            (design.transpose(0, 2, 1) @ r.reshape(n, -1, 1)).astype(np.float64))
        coef = coef[..., 0].astype(np.float32)
        coef[:, :2] = np.clip(coef[:, :2], -LOCAL_SHIFT, LOCAL_SHIFT)
        return mid + (design @ coef[:, :, None]).reshape(mid.shape)
    flat = a.reshape(n, -1, 3)
    # the normal equations: the three shared terms, then an offset and a gain per colour
    eye = _EYE_3
    gram = np.zeros((n, 9, 9), np.float32)
    gram[:, :3, :3] = flat.transpose(0, 2, 1) @ flat
    gram[:, :3, 3:6] = a.sum(axis=1).transpose(0, 2, 1)
    gram[:, :3, 6:9] = np.einsum("nkct,nkc->ntc", a, m)
    gram[:, 3:6, 3:6] = eye * m.shape[1]
    gram[:, 3:6, 6:9] = eye * m.sum(axis=1)[:, None, :]
    gram[:, 6:9, 6:9] = eye * (m * m).sum(axis=1)[:, None, :]
    gram[:, 3:, :3] = gram[:, :3, 3:].transpose(0, 2, 1)
    gram[:, 6:9, 3:6] = gram[:, 3:6, 6:9]
    gram += _REFIT_RIDGE
    rhs = np.concatenate([(flat.transpose(0, 2, 1) @ r.reshape(n, -1, 1))[..., 0],
                          r.sum(axis=1), (m * r).sum(axis=1)], axis=1)
    coef = np.linalg.solve(gram.astype(np.float64), rhs[..., None].astype(np.float64))
    coef = coef[..., 0].astype(np.float32)
    coef[:, :2] = np.clip(coef[:, :2], -LOCAL_SHIFT, LOCAL_SHIFT)
    moved = (flat @ coef[:, :3, None]).reshape(mid.shape)
    return mid + moved + coef[:, None, None, 3:6] + coef[:, None, None, 6:9] * mid


def differ_refitted(found: list[Candidate], i: int, j: int,
                    plain: dict[tuple[int, int], Differ | None] | None = None,
                    weights: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] | None = None
                    ) -> Differ | None:
    """:func:`differ` of ``found``'s candidates ``i`` and ``j`` (``i`` below ``j``; the
    candidates of :func:`compare_on`, on one patch), with both faces refitted to the photo
    round where they differ (:func:`refit`) before their misfits there are measured: in a
    window LOCAL_PAD wider than where their difference's weight is at least LOCAL_AT of its
    peak. Two faces differing over more than LOCAL_MAX of the patch's side are weighed as
    they were placed (:func:`differ`): they differ in more than a small icon. Each pair has
    its own window: one window for all (where any two differ) let a third face's icon
    elsewhere on the tile into every pair's refit (tuning close calls: 69 looks wrong of
    860, not 51). The pairs weighed as placed are also put in ``plain`` when given (they
    are the look as placed's too: close_calls.LOCAL_CONFIRM), and the refitted pairs'
    :func:`_weight` in ``weights`` (for :func:`differ` of them as placed). Worked out one
    pair at a time, only when asked for (close_calls._best asks for the pairs its best face
    is in)."""
    first, second = found[i], found[j]
    patch = found[0].patch  # (one patch for all: compare_on's candidates)
    side = patch.shape[0]
    diff, weight = _weight(first, second)
    if float(weight.sum()) <= 1e-9:
        if plain is not None:
            plain[i, j] = None
        return None
    x0, y0, x1, y1 = _where(weight)
    if max(x1 - x0, y1 - y0) + 2 * LOCAL_PAD > LOCAL_MAX * side:
        found_plain = differ(first, second, (diff, weight))
        if plain is not None:
            plain[i, j] = found_plain
        return found_plain
    if weights is not None:
        weights[i, j] = (diff, weight)
    rows = slice(max(y0 - LOCAL_PAD, 1), min(y1 + LOCAL_PAD, side - 1))
    cols = slice(max(x0 - LOCAL_PAD, 1), min(x1 + LOCAL_PAD, side - 1))
    a, b = refit(np.stack([first.face, second.face]), patch, rows, cols)
    w = weight[rows, cols]
    total = float(w.sum())
    seen = patch[rows, cols]
    hot = np.maximum(_hot(first), _hot(second))
    return (float((w * squared_difference(seen, a)).sum() / total),
            float((w * squared_difference(seen, b)).sum() / total),
            max(float((w * squared_difference(a, b)).sum() / total), 1e-9),
            float((w * hot[rows, cols]).sum() / total) if np.ndim(hot) else 0.0)


def weighed(first: Candidate, second: Candidate) -> Verdict:
    """Compare two candidates where their faces differ."""
    return Verdict.of(differ(first, second))
