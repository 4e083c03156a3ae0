"""Small image patches made comparable across lights: cut out, flattened, normalised.

A photo's light differs from the enrolment pack's (brighter, warmer, a shadow edge across a
tile), so every patch is divided by a plane fitted to its brightest pixels, channel by
channel. What is left is close to the printed colours relative to the paper, which is what
tells a light green leaf from a dark green one.

Distances use :func:`numpy.einsum` rather than a BLAS matrix product: on a busy two-core Pi
a threaded BLAS call can take fifty times longer than a plain loop.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

_DESIGNS: dict[int, np.ndarray] = {}
HAZE_PENALTY = 0.0


def _design(size: int) -> np.ndarray:
    if size not in _DESIGNS:
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        _DESIGNS[size] = np.stack([np.ones(size * size, np.float32), xx.ravel() / size - 0.5,
                                   yy.ravel() / size - 0.5], axis=1)
    return _DESIGNS[size]


def _blocks(patches: np.ndarray) -> tuple[np.ndarray, int]:
    """Block means of (n, s, s, 3) patches on a grid of at most 8 x 8 (the light is smooth,
    so it is fitted on these), and the block size."""
    n, s = patches.shape[0], patches.shape[1]
    k = max(1, s // 8)
    while s % k:
        k -= 1
    # the patches stacked into one tall image: an exact-factor area resize is the block mean,
    # and far quicker than numpy's reduction over two strided axes
    tall = np.ascontiguousarray(patches, dtype=np.float32).reshape(n * s, s, 3)
    b = cv2.resize(tall, (s // k, n * s // k), interpolation=cv2.INTER_AREA)
    return b.reshape(n, (s // k) ** 2, 3), k


def _luminance(pixels: np.ndarray) -> np.ndarray:
    """The mean of the last axis (3 colour channels): the same float32 values as
    ``mean(axis=-1)``, without numpy's slow reduction over a short last axis."""
    return (pixels[..., 0] + pixels[..., 1] + pixels[..., 2]) / np.float32(3)


@lru_cache(maxsize=8)
def _quantile_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype ``np.quantile`` gives for ``dtype`` input: float32 stays float32 on numpy 2,
    but becomes float64 on numpy 1.x (Raspberry Pi OS Bookworm's 1.24)."""
    return np.quantile(np.zeros((1, 2), dtype), 0.5, axis=1).dtype


def _quantile_rows(values: np.ndarray, q: float) -> np.ndarray:
    """``np.quantile(values, q, axis=1)`` (its default, linear method) by partial sorting:
    the same values, several times quicker on many short rows."""
    m = values.shape[1]
    h = q * (m - 1)
    lo = int(np.floor(h))
    hi = min(lo + 1, m - 1)
    part = np.partition(values, (lo, hi), axis=1)
    # numpy's own interpolation, in the dtype it would use, so the result is the same to
    # the last bit: the difference taken in the input's dtype, the weight a Python float
    # (numpy 2 keeps it one; numpy 1.x works in float64, where that changes nothing)
    dtype = _quantile_dtype(values.dtype)
    a, b = part[:, lo].astype(dtype), part[:, hi].astype(dtype)
    diff = (part[:, hi] - part[:, lo]).astype(dtype)
    t = h - lo
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def flatten_light(patches: np.ndarray, bright: float = 0.6, plane: bool = True,
                  where: np.ndarray | None = None) -> np.ndarray:
    """Divide each square float BGR patch (n, s, s, 3) by a plane fitted, channel by channel,
    to its brightest parts (luminance quantile ``bright`` and up); with ``plane`` False, by
    their mean only (for patches whose bright pixels may bunch up in one place). ``where``
    (s*s booleans) limits the fit to some pixels, e.g. a round counter's disc. The fit is
    made on block means, which is as good for smooth light and much cheaper."""
    n, s = patches.shape[0], patches.shape[1]
    # read only: no copy of float32 patches (every result below is a new array, divided and
    # clipped in place: the same values as dividing and clipping into new arrays, with
    # fewer patch-sized arrays alive at once)
    flat = patches.reshape(n, s * s, 3).astype(np.float32, copy=False)
    if where is not None:
        lum = _luminance(flat)
        cut_at = _quantile_rows(lum[:, where], bright)[:, None]
        w = ((lum >= cut_at) & where[None]).astype(np.float32)
        gain = np.einsum("np,npc->nc", w, flat) / np.maximum(w.sum(axis=1), 1)[:, None]
        return _clip(flat / np.maximum(gain[:, None, :], 8.0)).reshape(patches.shape)
    blocks, k = _blocks(patches)
    lum = _luminance(blocks)
    cut_at = _quantile_rows(lum, bright)[:, None]
    w = (lum >= cut_at).astype(np.float32)                # (n, b)
    if not plane:
        gain = np.einsum("nb,nbc->nc", w, blocks) / np.maximum(w.sum(axis=1), 1)[:, None]
        return _clip(flat / np.maximum(gain[:, None, :], 8.0)).reshape(patches.shape)
    coarse = _design(s // k)                              # (b, 3), same frame as the patch
    wd = w[:, :, None] * coarse[None]                     # (n, b, 3)
    gram = np.einsum("nbi,bj->nij", wd, coarse, optimize=False)
    gram += np.eye(3, dtype=np.float32) * 1e-3
    rhs = np.einsum("nbi,nbc->nic", wd, blocks, optimize=False)
    coef = np.linalg.solve(gram, rhs)                     # (n, 3, 3ch)
    # the plane at every pixel: a stack of (pixels x 3) @ (3 x 3) products, far too small
    # for BLAS to spread over threads, so matmul is safe here (unlike the distances below)
    light = np.maximum(np.matmul(_design(s)[None], coef), 8.0)
    if light.shape == flat.shape and light.dtype == flat.dtype:
        return _clip(np.divide(flat, light, out=light)).reshape(patches.shape)
    return _clip(flat / light).reshape(patches.shape)


def _clip(light_free: np.ndarray) -> np.ndarray:
    """``np.clip(light_free, 0, 1.6)`` written over its input (a new array of the caller's)."""
    return np.clip(light_free, 0, 1.6, out=light_free)


#: A colour channel this bright is clipped: its true value is unknown.
CLIPPED = 250


def clipped(image: np.ndarray, every: bool = False) -> np.ndarray:
    """Where (1.0, float32) an image's pixels (..., 3 colours) have a clipped colour channel,
    or with ``every`` all three (washed out). Channel by channel: numpy's reduction over a
    short last axis is slow."""
    pick = np.minimum if every else np.maximum
    level = pick(pick(image[..., 0], image[..., 1]), image[..., 2])
    return (level >= CLIPPED).astype(np.float32)


def cut(image: np.ndarray, centre: tuple[float, float], angle: float, side: float,
        out: int) -> np.ndarray:
    """The square of ``side`` px centred at ``centre``, turned by ``angle`` degrees
    (counter-clockwise, as OpenCV), resampled to ``out`` x ``out`` px."""
    scale = out / side
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), float(angle), scale)
    m[:, 2] += (out / 2 - centre[0], out / 2 - centre[1])
    return cv2.warpAffine(image, m, (out, out), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def parabola_peak(line: np.ndarray, k: int) -> float:
    """Sub-pixel offset (-0.5..0.5) of the maximum at ``k`` of ``line``, from a parabola
    through it and its two neighbours (0 at an edge or a flat top)."""
    if 0 < k < len(line) - 1:
        top = parabola_vertex(float(line[k - 1]), float(line[k]), float(line[k + 1]))
        if top is not None:
            return max(-0.5, min(0.5, top))
    return 0.0


def parabola_vertex(left: float, mid: float, right: float) -> float | None:
    """Where the top of a parabola through three evenly spaced values lies, in steps from
    the middle one (unbounded); None when they make no top (a straight line or a dip)."""
    den = left - 2 * mid + right
    return 0.5 * (left - right) / den if den < 0 else None


def _rotation_matrices(centres: np.ndarray, angles: np.ndarray, scale: float) -> np.ndarray:
    """``cv2.getRotationMatrix2D`` of each centre and angle (n, 2, 3), to the bit: worked
    out as OpenCV does, in double precision from the centre rounded to float (its
    Point2f)."""
    t = angles * (np.pi / 180)
    alpha, beta = np.cos(t) * scale, np.sin(t) * scale
    x = centres[:, 0].astype(np.float32).astype(np.float64)
    y = centres[:, 1].astype(np.float32).astype(np.float64)
    return np.stack([np.stack([alpha, beta, (1 - alpha) * x - beta * y], axis=1),
                     np.stack([-beta, alpha, beta * x + (1 - alpha) * y], axis=1)], axis=1)


def cut_many(image: np.ndarray, centres, angles, side: float, out: int) -> np.ndarray:
    """:func:`cut` at each centre and angle, stacked (n, out, out, channels): the same
    pixels, the warp matrices worked out together and each patch written in place."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    angles = np.asarray(angles, np.float64).reshape(-1)
    if len(centres) != len(angles):
        raise ValueError("cut_many: as many centres as angles")
    if not len(centres):  # as np.stack of no patches did
        raise ValueError("need at least one array to stack")
    ms = _rotation_matrices(centres, angles, out / side)
    ms[:, 0, 2] += out / 2 - centres[:, 0]
    ms[:, 1, 2] += out / 2 - centres[:, 1]
    patches = np.empty((len(centres), out, out, *image.shape[2:]), image.dtype)
    for m, patch in zip(ms, patches, strict=True):
        cv2.warpAffine(image, m, (out, out), dst=patch, flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return patches


def describe(patches: np.ndarray, plane: bool = True,
             where: np.ndarray | None = None) -> np.ndarray:
    """Light-flattened patches (n, s, s, 3) as float32 vectors (n, s*s*3); with ``where``
    (s*s booleans) only those pixels count, the others are zero."""
    patches = np.asarray(patches, np.float32)
    if patches.ndim == 3:
        patches = patches[None]
    out = flatten_light(patches, plane=plane, where=where)
    if where is not None:  # (flatten_light's result is a new array: masked in place)
        out *= where.reshape(1, patches.shape[1], patches.shape[2], 1)
    return out.reshape(len(patches), -1)


def distances(vecs: np.ndarray, templates: np.ndarray,
              template_norms: np.ndarray | None = None) -> np.ndarray:
    """Mean squared difference of each vector (rows) to each template (rows)."""
    if len(templates) == 0 or len(vecs) == 0:
        return np.zeros((len(vecs), len(templates)), np.float32)
    a = np.einsum("ij,ij->i", vecs, vecs)[:, None]
    b = (np.einsum("ij,ij->i", templates, templates) if template_norms is None
         else template_norms)[None, :]
    d = a + b - 2.0 * np.einsum("ij,kj->ik", vecs, templates, optimize=False)
    return np.maximum(d, 0) / vecs.shape[1]


def template_sums(templates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-template constants of :func:`hazy_distances` (squared norm, sum), to cache."""
    return np.einsum("ij,ij->i", templates, templates), templates.sum(axis=1)


#: The most a veil of glare may lighten a print: a share ``h`` of even light on top,
#: ``(1 - h) t + h``, ``h`` at most this (a stronger veil leaves too little print to read).
MAX_HAZE = 0.4


def hazy_distances(vecs: np.ndarray, templates: np.ndarray, max_haze: float = MAX_HAZE,
                   penalty: float = HAZE_PENALTY,
                   sums: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Like :func:`distances`, but each template may first be veiled by haze: a share
    ``h`` (0..``max_haze``) of even light added on top (glare, a bright window), which makes
    dark prints look lighter: ``t' = (1 - h) t + h``. The best ``h`` is found per pair in
    closed form, so a dark brown under glare is not taken for a light brown. ``penalty``
    (0: none) makes haze cost something. ``sums`` are the templates' :func:`template_sums`.
    """
    if len(templates) == 0 or len(vecs) == 0:
        return np.zeros((len(vecs), len(templates)), np.float32)
    tt, st = template_sums(templates) if sums is None else sums
    vt = np.einsum("ij,kj->ik", vecs, templates, optimize=False)
    vv = np.einsum("ij,ij->i", vecs, vecs)[:, None]
    return hazy_terms(vt, vv, vecs.sum(axis=1)[:, None], tt[None, :], st[None, :],
                      vecs.shape[1], max_haze, penalty)


def hazy_terms(vt: np.ndarray, vv: np.ndarray, sv: np.ndarray, tt: np.ndarray, st: np.ndarray,
               n: int, max_haze: float = MAX_HAZE, penalty: float = HAZE_PENALTY) -> np.ndarray:
    """:func:`hazy_distances` from its products, element by element (any shapes that
    broadcast): ``vt`` each vector's dot with each template, ``vv`` and ``sv`` the vectors'
    squared norms and sums, ``tt`` and ``st`` the templates' (:func:`template_sums`), ``n``
    the vectors' length. Each distance depends on its own products only, so distances
    worked out in any grouping are the same to the bit."""
    ww = vv - 2 * vt + tt                       # |v - t|^2
    wu = sv - vt - st + tt                      # (v - t).(1 - t)
    uu = np.maximum(n - 2 * st + tt, 1e-6)      # |1 - t|^2
    h = np.clip(wu / ((1 + penalty) * uu), 0.0, max_haze)
    d = ww - 2 * h * wu + (1 + penalty) * h * h * uu
    return np.maximum(d, 0) / n


def hazy_pairs(vecs: np.ndarray, templates: np.ndarray,
               max_haze: float = MAX_HAZE) -> np.ndarray:
    """:func:`hazy_distances` of each vector to the template in the same row only."""
    n = vecs.shape[1]
    vt = np.einsum("ij,ij->i", vecs, templates)
    vv = np.einsum("ij,ij->i", vecs, vecs)
    tt = np.einsum("ij,ij->i", templates, templates)
    sv, st = vecs.sum(axis=1), templates.sum(axis=1)
    ww = vv - 2 * vt + tt
    wu = sv - vt - st + tt
    uu = np.maximum(n - 2 * st + tt, 1e-6)
    h = np.clip(wu / uu, 0.0, max_haze)
    return np.maximum(ww - 2 * h * wu + h * h * uu, 0) / n


class LightFit:
    """A patch and a mask on it, ready for fitting a gain and offset per colour of many
    drawings to it (the patch's sums over the mask worked out once): how a drawing of what
    may lie there is compared with a photo whose light is unknown."""

    def __init__(self, patch: np.ndarray, mask: np.ndarray) -> None:
        self.w = mask.astype(np.float32)[..., None]
        self.n = max(float(self.w.sum()), 1.0)
        self.patch = patch
        pw = patch * self.w
        self.sp = pw.sum(axis=(0, 1))
        self.spp = (pw * patch).sum(axis=(0, 1))

    def light(self, blurred: np.ndarray, prior: np.ndarray | None = None,
              backing: float = 0.0) -> tuple[float, np.ndarray, np.ndarray]:
        """The gain and offset per colour bringing ``blurred`` nearest the patch on the
        mask, and the mean squared misfit left (summed over colours). With a ``prior`` gain
        per colour, the gain is shrunk towards it (a ridge fit) as if ``backing`` more values
        a value of the mask backed it: where the mask is too flat to fix a gain of its own,
        the prior's holds."""
        bw = blurred * self.w
        sb = bw.sum(axis=(0, 1))
        sbb = (bw * blurred).sum(axis=(0, 1)) - sb * sb / self.n
        sbp = (bw * self.patch).sum(axis=(0, 1)) - sb * self.sp / self.n
        spp = self.spp - self.sp * self.sp / self.n
        if prior is None:
            gain = sbp / np.maximum(sbb, 1e-6)
            left = spp - gain * sbp
        else:
            weight = backing * self.n
            gain = (sbp + weight * prior) / np.maximum(sbb + weight, 1e-6)
            left = spp - 2 * gain * sbp + gain * gain * sbb
        offset = (self.sp - gain * sb) / self.n
        res = float(np.maximum(left, 0).sum()) / self.n
        return res, gain.astype(np.float32), offset.astype(np.float32)
