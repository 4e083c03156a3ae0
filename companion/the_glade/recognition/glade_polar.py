"""Naming a loose counter whatever way it is turned: its face unrolled round its centre.

A counter in a store lies at any angle. Sampled on rings round its centre (radius by angle,
a *polar* image), turning it only shifts that image along the angle; the best angle against
each enrolled face is then one circular cross-correlation, done for every face and every
angle at once by FFT along the angle axis. So every face is compared at every 360/ANGLES
degrees (where disc vectors at TURNS angles leave up to half a step between a face and the
photo: enough to take a leaf counter's four value pips for one), and at the fine view's
resolution (two pixels per working pixel: the pips are a few pixels wide). The centre is
sought on a small grid round where the counter was found, coarse then fine.

Patches are compared as disc vectors are (:mod:`glade_model`): less their mean, over their
spread (so shade and glare's even veil do not matter, colour does), each ring weighted by
its length (the centre is sampled as densely as the rim, but covers far less of the face).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: Ring radii (as shares of a counter's diameter) and angles sampled; the extra smoothing
#: (fine-view px) of faces and photo alike; the least spread a polar image is divided by.
RING_FROM, RING_TO, RINGS = 0.02, 0.46, 22
ANGLES = 96
SMOOTH = 1.2
FLOOR = 12.0
#: Centre search round the counter's place: (grid half-width, step in fine-view px) rounds.
SEARCH = ((2, 3.0), (1, 1.5), (1, 0.75))
#: The least spread (grey levels) a photo's drawing is divided by (a plain patch of table
#: has little drawing: its noise is not scaled up into one).
SHAPE_FLOOR = 6.0
#: Two close faces are each fitted on a finer grid round the place found: (half-width,
#: step in fine-view px), and at half-step angles too.
PAIR_SEARCH = (1, 0.75)
#: The faces are blurred as the photo is: by each of these (fine-view px) more, the one
#: at which the best face fits best taken.
PAIR_BLURS = (0.0, 1.0, 2.0)


#: A counter under glare (USE by :mod:`store` for a thing it cannot name otherwise): the
#: spot adds one grey to every channel, smoothly, so across a counter it is a slope and a
#: curvature of grey; the retry compares faces and photo with those left out (VEIL: the
#: grey's constant, slopes and curvatures round the centre, one span whatever the turn),
#: its centre sought VEIL_SEARCH round the place (rounds of (half-width, step) in shares of
#: a counter's diameter: glare beside a counter draws its place off it).
VEIL_SEARCH = ((3, 0.12), (1, 0.05), (1, 0.025))


def _radii(diameter: float) -> np.ndarray:
    return np.linspace(RING_FROM, RING_TO, RINGS) * diameter


def _maps(diameter: float, offsets: np.ndarray, phase: float = 0.0
          ) -> tuple[np.ndarray, np.ndarray]:
    """remap() maps sampling RINGS x ANGLES round each offset (stacked along the rings),
    the angles ``phase`` steps on."""
    a = (np.arange(ANGLES) + phase) * (2 * np.pi / ANGLES)
    r = _radii(diameter)
    xs = (r[:, None] * np.cos(a)[None]).astype(np.float32)
    ys = (r[:, None] * np.sin(a)[None]).astype(np.float32)
    mx = np.concatenate([xs + np.float32(dx) for dx, _ in offsets])
    my = np.concatenate([ys + np.float32(dy) for _, dy in offsets])
    return mx, my


_WEIGHTS = np.linspace(RING_FROM, RING_TO, RINGS).astype(np.float32)
_WEIGHTS /= _WEIGHTS.sum()


def normalise(polar: np.ndarray) -> np.ndarray:
    """(n, RINGS, ANGLES, 3) polar images less their (ring-weighted) mean, over their spread,
    with each ring scaled by the square root of its weight (so plain sums of squares are
    weighted sums)."""
    w = _WEIGHTS[None, :, None, None]
    size = ANGLES * 3
    mean = (polar * w).sum(axis=(1, 2, 3), keepdims=True) / size
    q = polar - mean
    var = (q * q * w).sum(axis=(1, 2, 3), keepdims=True) / size
    return (q * np.sqrt(w) / np.maximum(np.sqrt(var), FLOOR)).astype(np.float32)


def own_colour(polar: np.ndarray) -> np.ndarray:
    """(n, RINGS, ANGLES, 3) polar images less each channel's own (ring-weighted) mean, over
    their whole spread (at least FLOOR), ring-weighted as :func:`normalise`: the counter's
    colours as they differ within it, to its own contrast. A counter faded towards the
    table (a mix of the face and the table's colour) keeps this; what the table's colour
    adds is one constant a channel, which :func:`normalise` keeps and, divided by the faded
    counter's small spread, weighs as much as the face's own colours."""
    return shape_only(polar, FLOOR)


def shape_only(polar: np.ndarray, floor: float) -> np.ndarray:
    """(n, RINGS, ANGLES, 3) polar images less each channel's own (ring-weighted) mean, over
    their spread (at least ``floor``): a face's drawing without its colour."""
    w = _WEIGHTS[None, :, None, None]
    mean = (polar * w).sum(axis=(1, 2), keepdims=True) / ANGLES
    q = polar - mean
    var = (q * q * w).sum(axis=(1, 2, 3), keepdims=True) / (ANGLES * 3)
    return (q * np.sqrt(w) / np.maximum(np.sqrt(var), floor)).astype(np.float32)


def _veil_basis() -> np.ndarray:
    """An orthonormal basis (k, RINGS * ANGLES * 3) of the grey a glare spot adds to a
    counter, in the ring-weighted space the distances are taken in: the same in every
    channel, constant, sloped (r cos, r sin) or curved (r^2, r^2 cos 2a, r^2 sin 2a) round
    the centre. Turning a counter maps this span onto itself, so leaving it out of photo
    and faces alike keeps the comparison at every angle."""
    r = np.linspace(RING_FROM, RING_TO, RINGS)[:, None] / RING_TO
    a = np.arange(ANGLES)[None, :] * (2 * np.pi / ANGLES)
    grey = [np.ones_like(r * a), r * np.cos(a), r * np.sin(a), r * r + 0 * a,
            r * r * np.cos(2 * a), r * r * np.sin(2 * a)]
    w = np.sqrt(_WEIGHTS)[:, None, None]
    basis = np.stack([(g[..., None] * w * np.ones(3)).ravel() for g in grey], axis=1)
    q, _ = np.linalg.qr(basis.astype(np.float64))
    return q.T.astype(np.float32)


def unveiled(polar: np.ndarray, basis: np.ndarray, floor: float,
             per_channel: bool = False) -> np.ndarray:
    """(n, RINGS, ANGLES, 3) polar images as :func:`normalise` (or :func:`shape_only`,
    ``per_channel``) gives them, less a glare spot's grey (``basis``, see
    :func:`_veil_basis`) fitted by least squares in the weighted space."""
    w = _WEIGHTS[None, :, None, None]
    axes = (1, 2) if per_channel else (1, 2, 3)
    mean = (polar * w).sum(axis=axes, keepdims=True) / (ANGLES if per_channel else ANGLES * 3)
    q = ((polar - mean) * np.sqrt(w)).reshape(len(polar), -1)
    q = q - (q @ basis.T) @ basis
    var = (q * q).sum(axis=1) / (ANGLES * 3)
    q = q / np.maximum(np.sqrt(var), floor)[:, None]
    return q.reshape(polar.shape).astype(np.float32)


class _Bank:
    """Templates (faces, RINGS, ANGLES, 3), ready to be compared at every angle."""

    def __init__(self, t: np.ndarray) -> None:
        self.norms = (t * t).sum(axis=(1, 2, 3))
        spectrum = np.fft.rfft(t, axis=2)                    # faces, rings, freq, 3
        f, r, k, ch = spectrum.shape
        conj = np.conj(spectrum).transpose(2, 1, 3, 0).reshape(k, r * ch, f)
        # the complex product as one real one: [re, im] @ [[re, im], [-im, re]]
        self._t = np.ascontiguousarray(np.concatenate(
            [np.concatenate([conj.real, conj.imag], axis=2),
             np.concatenate([-conj.imag, conj.real], axis=2)], axis=1), np.float32)
        self.count = f

    def distances(self, p: np.ndarray) -> np.ndarray:
        """Mean squared difference of each polar image ``p`` (normalised as the templates)
        to each template at each angle: (images, faces, ANGLES)."""
        spectrum = np.fft.rfft(p, axis=2)                    # images, rings, freq, 3
        o, r, k, ch = spectrum.shape
        s = spectrum.transpose(2, 0, 1, 3).reshape(k, o, r * ch)
        s = np.concatenate([s.real, s.imag], axis=2).astype(np.float32)
        # einsum, not a batched BLAS product: on a busy machine a threaded BLAS call on
        # small matrices takes many times longer
        prod = np.einsum("kor,krf->kof", s, self._t, optimize=False)
        cross = prod[..., :self.count] + 1j * prod[..., self.count:]
        corr = np.fft.irfft(cross.transpose(1, 2, 0), n=ANGLES, axis=2)
        norms = (p * p).sum(axis=(1, 2, 3))
        d = (norms[:, None, None] + self.norms[None, :, None] - 2 * corr) / (ANGLES * 3)
        return np.maximum(d, 0.0)


@dataclass(frozen=True)
class PolarMatch:
    """One counter: each face's best distance at any angle, colours and all (``distances``)
    and by drawing alone (``shapes``), and where its centre is (fine-view px)."""

    distances: np.ndarray
    shapes: np.ndarray
    at: tuple[float, float]


class PolarFaces:
    """The enrolled faces (images of ``diameter`` px, the disc inscribed) ready to be
    matched at every angle."""

    def __init__(self, faces: np.ndarray) -> None:
        self.diameter = float(faces.shape[1])
        polar = self._face_polars(faces, SMOOTH)
        self._normed = normalise(polar)
        self._raw = faces
        self._blurred: dict[tuple[float, bool], np.ndarray] = {(0.0, False): self._normed}
        self._faces = _Bank(self._normed)
        self._shapes = _Bank(shape_only(polar, 1e-3))

    def _polar(self, image: np.ndarray, centre: np.ndarray, offsets: np.ndarray,
               phase: float = 0.0) -> np.ndarray:
        mx, my = _maps(self.diameter, offsets, phase)
        polar = cv2.remap(image, mx + np.float32(centre[0]), my + np.float32(centre[1]),
                          cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return polar.reshape(len(offsets), RINGS, ANGLES, 3)

    def match(self, image: np.ndarray, centre: tuple[float, float]) -> PolarMatch:
        """The counter near ``centre`` of ``image`` (the fine view, float32, smoothed by
        :func:`prepare`): sought coarse then fine (SEARCH) where the best face fits best,
        then every face's best distance at any angle there."""
        at = np.asarray(centre, np.float64)
        for half, step in SEARCH:
            grid = np.arange(-half, half + 1) * step
            offsets = np.array([(dx, dy) for dy in grid for dx in grid])
            d = self._faces.distances(normalise(self._polar(image, at, offsets)))
            best = int(d.min(axis=2).min(axis=1).argmin())
            at = at + offsets[best]
            per = d[best]
        shapes = self._shapes.distances(shape_only(self._polar(image, at, np.zeros((1, 2))),
                                                   SHAPE_FLOOR))[0]
        return PolarMatch(per.min(axis=1), shapes.min(axis=1), (float(at[0]), float(at[1])))

    def match_unveiled(self, image: np.ndarray, centre: tuple[float, float]) -> PolarMatch:
        """As :meth:`match`, with a glare spot's grey left out of faces and photo alike
        (:func:`unveiled`) and the centre sought further round ``centre`` (VEIL_SEARCH)."""
        if not hasattr(self, "_veil"):
            polar = self._face_polars(self._raw, SMOOTH)
            self._veil = _veil_basis()
            self._veil_faces = _Bank(unveiled(polar, self._veil, FLOOR))
            self._veil_shapes = _Bank(unveiled(polar, self._veil, 1e-3, per_channel=True))
        at = np.asarray(centre, np.float64)
        for half, share in VEIL_SEARCH:
            grid = np.arange(-half, half + 1) * share * self.diameter
            offsets = np.array([(dx, dy) for dy in grid for dx in grid])
            d = self._veil_faces.distances(unveiled(self._polar(image, at, offsets),
                                                    self._veil, FLOOR))
            best = int(d.min(axis=2).min(axis=1).argmin())
            at = at + offsets[best]
            per = d[best]
        polar = self._polar(image, at, np.zeros((1, 2)))
        shapes = self._veil_shapes.distances(
            unveiled(polar, self._veil, SHAPE_FLOOR, per_channel=True))[0]
        return PolarMatch(per.min(axis=1), shapes.min(axis=1), (float(at[0]), float(at[1])))

    def _face_polars(self, faces: np.ndarray, sigma: float) -> np.ndarray:
        """The faces smoothed by ``sigma`` px and sampled round their centres (not
        normalised)."""
        c = self.diameter / 2 - 0.5
        mx, my = _maps(self.diameter, np.zeros((1, 2)))
        return np.stack([
            cv2.remap(cv2.GaussianBlur(f.astype(np.float32), (0, 0), sigma), mx + c, my + c,
                      cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE) for f in faces])

    def _blurred_faces(self, blur: float, colour: bool = False) -> np.ndarray:
        """The faces' normalised polar images (``colour``: as :func:`own_colour`), blurred
        by ``blur`` fine-view px more."""
        if (blur, colour) not in self._blurred:
            sigma = float(np.hypot(SMOOTH, blur))
            self._blurred[blur, colour] = (own_colour if colour else normalise)(
                self._face_polars(self._raw, sigma))
        return self._blurred[blur, colour]

    def pair(self, image: np.ndarray, at: tuple[float, float], a: int, b: int,
             colour: bool = False) -> float:
        """Which of faces ``a`` and ``b`` (close in fit) the counter at ``at`` is: each face
        at its own best place (PAIR_SEARCH round ``at``, angles in half steps too), both
        blurred as the photo is (the PAIR_BLURS at which ``a`` fits best), the difference of
        their squared distances over twice the power of their own difference: +0.5 is face
        ``a`` exactly, -0.5 face ``b``, 0 half way. Only where the two faces differ counts,
        and as much as they differ there (two match counters of one leaf differ in their
        pips or icon, a small share of the face); unblurred, the photo's blur drew every
        look-alike towards half way. ``colour``: photo and faces normalised as
        :func:`own_colour` (each channel's mean left out: a counter faded or washed towards
        the table's colour is compared by its colours' differences within it)."""
        norm = own_colour if colour else normalise
        half, step = PAIR_SEARCH
        grid = np.arange(-half, half + 1) * step
        offsets = np.array([(dx, dy) for dy in grid for dx in grid])
        centre = np.asarray(at, np.float64)
        polars = np.concatenate([norm(self._polar(image, centre, offsets, phase))
                                 for phase in (0.0, 0.5)])
        # the faces blurred as the photo is: the blur at which face a fits best
        fits = []
        for blur in PAIR_BLURS:
            normed = self._blurred_faces(blur, colour)
            d = _Bank(normed[[a, b]]).distances(polars)      # places, 2, angles
            fits.append((float(d[:, 0].min()), float(d[:, 1].min()), blur, d))
        da, db, blur, d = min(fits, key=lambda fit: fit[0])
        normed = self._blurred_faces(blur, colour)
        turns = []
        for j, f in enumerate((a, b)):
            place, k = np.unravel_index(int(d[:, j].argmin()), d[:, j].shape)
            # the bank's angle as a turn of the face (either way round)
            t = normed[f]
            turns.append(min((float(((polars[place] - np.roll(t, s, axis=1)) ** 2).sum()), s)
                             for s in (int(k), -int(k)))[1])
        ka, kb = turns
        da, db = da * ANGLES * 3, db * ANGLES * 3
        # the faces' own difference, turned as they fit the photo
        diff = np.roll(normed[a], ka, axis=1) - np.roll(normed[b], kb, axis=1)
        power = float((diff * diff).sum())
        return (db - da) / max(2 * power, 1e-9)


def prepare(fine: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The fine view as :meth:`PolarFaces.match` takes it: the light's colour divided out,
    smoothed as the faces are."""
    return cv2.GaussianBlur(fine.astype(np.float32) / gain[None, None, :].astype(np.float32),
                            (0, 0), SMOOTH)
