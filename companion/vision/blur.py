"""How blurred a photo is, measured where it shows something known sharp, so that templates
can be blurred alike before they are compared with it.

Two kinds of blur spoil a photo from above a table: focus (round: a Gaussian) and motion (a
bumped table or a slow shutter smears every point along a short line). A sharp template
compared with a smeared photo fits badly, and two look-alike faces then fit it about
equally badly; the same faces smeared alike tell them apart again.

The blur is measured on the part of the photo that shows something known: for a game board,
its printed border, against the enrolled image of it. Both are high-passed, so uneven light
and shadows do not pass for blur, and the enrolled image, blurred by each candidate, is
correlated with the photo. Motion's direction comes first, in closed form, from the
direction in which the photo's gradients are weakened most against the enrolled image's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

#: Focus blurs tried (Gaussian sigma, px of the image measured).
SIGMAS = (0.0, 0.35, 0.7, 1.0, 1.35, 1.7, 2.1)
#: Motion smears tried (length, px), along the direction the gradients give.
LENGTHS = (2.0, 3.0, 4.0, 5.0, 6.0, 7.0)
#: A little focus blur tried under every smear (sigma, px).
SMEAR_FOCUS = (0.0, 0.5)
#: A smear is taken only when it explains the photo this much better (in correlation) than
#: focus blur alone.
MOTION_GAIN = 0.01
#: Gradients weakened alike in every direction (the weakest over the strongest weakening
#: above this) are focus blur: no smear is looked for. On simulated photos, focus blur
#: gave 0.90-1.0 and smears long enough to be found 0.42-0.91.
ISOTROPIC = 0.93
HIGH_PASS = 3.0  # px: structure finer than this is what blur is judged on


@dataclass(frozen=True)
class Blur:
    """A Gaussian of ``sigma`` px, then (motion) a line ``length`` px long at ``angle``
    degrees (x right, y down). All zero: no blur."""

    sigma: float = 0.0
    length: float = 0.0
    angle: float = 0.0

    def scaled(self, k: float) -> Blur:
        """The same blur in an image ``k`` times larger."""
        return Blur(self.sigma * k, self.length * k, self.angle)

    @property
    def key(self) -> tuple[float, float, float]:
        """Rounded (focus to a quarter px, none below that; motion to half a px, none below
        1 px, and 15 degrees), so templates blurred once serve photos blurred alike."""
        sigma = round(self.sigma * 4) / 4 if self.sigma >= 0.25 else 0.0
        length = round(self.length * 2) / 2 if self.length >= 1.0 else 0.0
        angle = (round(self.angle / 15) * 15) % 180 if length else 0.0
        return sigma, length, float(angle)

    def apply(self, image: np.ndarray, border: int | None = None) -> np.ndarray:
        """``image`` (float32, any number of channels) blurred by this blur, rounded as
        :attr:`key` says; ``border`` is OpenCV's border mode (its defaults if None)."""
        sigma, length, angle = self.key
        out = image
        if sigma:
            out = cv2.GaussianBlur(out, (0, 0), sigma, borderType=(
                cv2.BORDER_DEFAULT if border is None else border))
        if length:
            out = cv2.filter2D(out, -1, line_kernel(length, angle), borderType=(
                cv2.BORDER_REFLECT if border is None else border))
        return out


@dataclass(frozen=True)
class MeasuredBlur:
    """A photo's blur: ``focus`` is the Gaussian sigma that fits it best, ``blur`` the best
    of that and a motion smear (the same as ``focus`` when no smear fits clearly better)."""

    focus: float
    blur: Blur


@lru_cache(maxsize=512)
def line_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised smear kernel: a line ``length`` px long through the centre at ``angle``
    degrees, anti-aliased (each sample split bilinearly between its four pixels)."""
    half = math.ceil(length / 2) + 1
    n = 2 * half + 1
    kern = np.zeros((n, n), np.float32)
    dx, dy = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    for t in np.linspace(-length / 2, length / 2, max(int(length * 8), 2)):
        x, y = half + t * dx, half + t * dy
        x0, y0 = math.floor(x), math.floor(y)
        fx, fy = x - x0, y - y0
        kern[y0, x0] += (1 - fx) * (1 - fy)
        kern[y0, x0 + 1] += fx * (1 - fy)
        kern[y0 + 1, x0] += (1 - fx) * fy
        kern[y0 + 1, x0 + 1] += fx * fy
    return kern / kern.sum()


def kernel_bank(rounds: tuple[float, ...], smears: tuple[int, ...], step: float,
                reach: int = 0, smooth: float = 0.0
                ) -> list[tuple[str, float, float, np.ndarray]]:
    """Blurs to try on a drawing, as (kind, size, direction, kernel): a round blur (Gaussian)
    of each sigma in ``rounds``, then a straight smear of each length in ``smears`` at every
    ``step`` degrees, drawn 8 times larger and area-reduced (a line ``2 * (length + reach)``
    of the small kernel's pixels long), optionally smoothed by ``smooth``; each sums to 1."""
    out: list[tuple[str, float, float, np.ndarray]] = []
    for s in rounds:
        k = cv2.getGaussianKernel(int(2 * math.ceil(3 * s) + 1), s)
        out.append(("round", s, 0.0, (k @ k.T).astype(np.float32)))
    for length in smears:
        n = max(5, (length + 3) | 1)
        for a in np.arange(0.0, 180.0, step):
            big = np.zeros((n * 8, n * 8), np.float32)
            c, r, ar = n * 4, (length + reach) * 4, math.radians(float(a))
            cv2.line(big, (int(c - math.cos(ar) * r), int(c - math.sin(ar) * r)),
                     (int(c + math.cos(ar) * r), int(c + math.sin(ar) * r)), 1.0, 8)
            k = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)
            if smooth:
                k = cv2.GaussianBlur(k, (0, 0), smooth)
            out.append(("smear", float(length), float(a), (k / k.sum()).astype(np.float32)))
    return out


def _high_pass(gray: np.ndarray) -> np.ndarray:
    return gray - cv2.GaussianBlur(gray, (0, 0), HIGH_PASS)


def _tensor(img: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The gradient tensor of ``img`` over its pixels ``at`` (flat indices), normalised."""
    gx = np.take(cv2.Sobel(img, cv2.CV_32F, 1, 0), at)
    gy = np.take(cv2.Sobel(img, cv2.CV_32F, 0, 1), at)
    t = np.array([[gx @ gx, gx @ gy], [gx @ gy, gy @ gy]], np.float64)
    return t / max(float(np.trace(t)), 1e-9)


def weakest_direction(photo: np.ndarray, ref: np.ndarray, mask: np.ndarray,
                      ref_tensor: np.ndarray | None = None) -> tuple[float, float]:
    """The direction (degrees, 0-180) in which the photo's gradients are weakest against the
    reference's, over ``mask`` (a smear along a line weakens them along it), and how alike
    the weakening is in every direction (1: alike, as focus blur does; towards 0: one
    direction only). From the generalised eigenvectors of the two gradient tensors
    (``ref_tensor``: the reference's over ``mask``, when already worked out)."""
    at = np.flatnonzero(mask)  # (np.take of these: boolean indexing's values, quicker)
    try:
        vals, vecs = np.linalg.eig(np.linalg.solve(
            _tensor(ref, at) if ref_tensor is None else ref_tensor, _tensor(photo, at)))
    except np.linalg.LinAlgError:  # a reference with no structure: no direction
        return 0.0, 1.0
    vals = np.real(vals)
    weakest = int(np.argmin(vals))
    u = np.real(vecs[:, weakest])
    alike = float(vals[weakest] / vals.max()) if vals.max() > 0 else 1.0
    return math.degrees(math.atan2(u[1], u[0])) % 180, alike


class BlurReference:
    """What :func:`measure_blur` makes of an enrolled image alone: its grey, high-passed,
    and over the pixels measured on (the last ``where`` met), each focus blur's values there
    (centred, and their spread) and the gradient tensor. The same board is scanned photo
    after photo, so a scanner keeps one per enrolled image and passes it to each measure
    (the Glade's in its model's cache, templates.Cache.blur_reference), not made anew. Its
    image is not to change while it is kept."""

    def __init__(self, ref: np.ndarray) -> None:
        self.gray = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY).astype(np.float32)
        self.fine = _high_pass(self.gray)  # blurring and high-passing commute: once
        self.where = np.zeros(0, np.intp)
        self.focus: dict[float, tuple[np.ndarray, np.floating]] = {}
        self.tensor: np.ndarray | None = None

    def over(self, where: np.ndarray) -> None:
        """Measure over the pixels ``where`` (flat indices) from now on."""
        if not np.array_equal(where, self.where):
            self.where, self.focus, self.tensor = where.copy(), {}, None

    def values(self, blur: Blur) -> tuple[np.ndarray, np.floating]:
        """``blur.apply(self.fine)`` over the pixels measured: less their mean, and their
        spread. Kept for the focus blurs of SIGMAS."""
        kept = not blur.length and blur.sigma in SIGMAS
        if kept and blur.sigma in self.focus:
            return self.focus[blur.sigma]
        b = np.take(blur.apply(self.fine), self.where)
        found = (b - b.mean(), b.std())  # (numpy's float32 std: the same sums after)
        if kept:
            self.focus[blur.sigma] = found
        return found

    def gradient_tensor(self) -> np.ndarray:
        if self.tensor is None:
            self.tensor = _tensor(self.gray, self.where)
        return self.tensor


def measure_blur(view: np.ndarray, ref: np.ndarray, mask: np.ndarray,
                 reference: BlurReference | None = None) -> MeasuredBlur:
    """How much blurrier ``view`` (a photo's BGR view) is than ``ref`` (the enrolled image of
    the same place, BGR, aligned with it), judged on the pixels where ``mask`` is true.
    ``reference``: what was made of ``ref`` for earlier photos, kept (made anew if None)."""
    photo = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY).astype(np.float32)
    known = BlurReference(ref) if reference is None else reference
    where = np.flatnonzero(mask)
    known.over(where)
    a = np.take(_high_pass(photo), where)
    a = (a - a.mean()) / (a.std() + 1e-6)

    def score(blur: Blur) -> float:  # correlation with the photo's fine structure
        centred, spread = known.values(blur)
        return float(a @ centred / len(where) / (spread + 1e-6))

    focus_scores = [score(Blur(sigma=s)) for s in SIGMAS]
    best = int(np.argmax(focus_scores))
    focus, top = SIGMAS[best], focus_scores[best]
    angle, alike = weakest_direction(photo, known.gray, mask, known.gradient_tensor())
    if alike > ISOTROPIC:
        return MeasuredBlur(focus, Blur(sigma=focus))
    smears = [Blur(s0, length, angle) for s0 in SMEAR_FOCUS for length in LENGTHS]
    smeared = [score(b) for b in smears]
    k = int(np.argmax(smeared))
    # then the direction, a little either way
    s0, length = smears[k].sigma, smears[k].length
    smears += [Blur(s0, length, (angle + t) % 180) for t in (-15.0, 15.0)]
    smeared += [score(b) for b in smears[-2:]]
    k = int(np.argmax(smeared))
    blur = smears[k] if smeared[k] > top + MOTION_GAIN else Blur(sigma=focus)
    return MeasuredBlur(focus, blur)
