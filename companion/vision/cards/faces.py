"""Identifying card faces: which enrolled face a crop of a card shows, or "not sure".

Independent of any game's layout: a game finds its cards and cuts each one upright (see
:func:`companion.vision.cards.find.cut_card`); this module says which face it is.

Why this method. The art is the player's own and was never seen while the companion was
written, so everything is learnt at enrol time from the pack's own images. Each face is
rendered many times as the camera could show it (cut a little off, turned a degree or two,
under a light gradient and colour cast, with glare, blur, noise and JPEG), and every rendering
is kept as a descriptor: a light-normalised thumbnail, gradient-orientation histograms (HOG,
which care about the drawing's edges, not the light) and a coarse colour map. A crop is then
given to the face of its nearest renderings (cosine similarity, one matrix product), and is
only *sure* when the best face is both close (``least``) and clearly ahead of every other
face (``margin``); those two thresholds are measured at enrol time on renderings of another
seed, so "not sure" comes from the pack's own spread, not from a constant tuned on other art.
A crop washed out by glare (far more clipped pixels than the face itself has) is never sure.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.cards.blas import one_thread

#: Size every crop is described at (width, height), whatever the card's shape.
DESC_SIZE = (48, 64)
#: Crops are cut at twice the descriptor size and shrunk (against aliasing).
CUT_SIZE = (96, 128)
#: Share of the card's width and height left out at each edge when cutting (so a card cut a
#: few mm off shows no table).
INSET = 0.04
#: Gradient-orientation histograms: cells of this many pixels, this many unsigned bins.
CELL, BINS = 8, 9
#: Size (width, height) each face is kept at whole, edges included, for finding the card by its
#: own content (:func:`companion.vision.cards.find.align`).
TEMPLATE_SIZE = (64, 88)
#: Weights of the descriptor's parts: shape (thumbnail), edges (HOG), colour.
WEIGHTS = (0.8, 1.0, 0.6)
#: A pixel this bright (0-255 gray) is clipped; a crop with this much more clipped area than
#: its face has is washed out by glare.
CLIPPED = 248
WASHED = 0.10


def describe(crops: np.ndarray) -> np.ndarray:
    """Descriptors (n, d) float32, unit length, of BGR crops (n, H, W, 3) of CUT_SIZE."""
    out = []
    for crop in crops:
        small = cv2.resize(crop, DESC_SIZE, interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
        gray = lab[..., 0]
        thumb = cv2.resize(gray, (12, 16), interpolation=cv2.INTER_AREA).ravel()
        thumb = thumb - thumb.mean()
        thumb /= np.linalg.norm(thumb) + 1e-6
        hog = gradient_histograms(gray)
        colour = cv2.resize(lab[..., 1:], (6, 8), interpolation=cv2.INTER_AREA).ravel() - 128.0
        colour = colour / 40.0 / np.sqrt(colour.size)
        vec = np.concatenate([WEIGHTS[0] * thumb, WEIGHTS[1] * hog, WEIGHTS[2] * colour])
        out.append(vec / (np.linalg.norm(vec) + 1e-6))
    return np.asarray(out, np.float32).reshape(len(out), -1)


def gradient_histograms(gray: np.ndarray) -> np.ndarray:
    """HOG of a gray image (DESC_SIZE): per CELL x CELL cell a BINS-bin histogram of unsigned
    gradient orientation weighted by magnitude (split between the two nearest bins), each
    cell normalised by the gradient energy of the 3 x 3 cells around it (so light falling off
    across the card does not matter), the whole of unit length."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * BINS
    low = np.floor(ang).astype(np.int32) % BINS
    frac = ang - np.floor(ang)
    h, w = gray.shape
    ch, cw = h // CELL, w // CELL
    cell = (np.arange(h)[:, None] // CELL * cw + np.arange(w)[None, :] // CELL).ravel()
    size = ch * cw * BINS
    hist = (np.bincount(cell * BINS + low.ravel(), (mag * (1 - frac)).ravel(), size)
            + np.bincount(cell * BINS + (low.ravel() + 1) % BINS, (mag * frac).ravel(), size))
    cells = hist.reshape(ch, cw, BINS).astype(np.float32)
    energy = (cells * cells).sum(axis=2)
    around = cv2.boxFilter(energy, -1, (3, 3), normalize=False, borderType=cv2.BORDER_REFLECT)
    cells = np.sqrt(cells / np.sqrt(around + (1e-2 * CELL * CELL) ** 2)[..., None])
    out = cells.ravel()
    return out / (np.linalg.norm(out) + 1e-6)


def template(image: np.ndarray) -> np.ndarray:
    """A face image whole (to its edges), gray, at TEMPLATE_SIZE."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return cv2.resize(gray, TEMPLATE_SIZE, interpolation=cv2.INTER_AREA)


def clipped_share(crop: np.ndarray) -> float:
    """The share of a crop's pixels clipped to white (glare, or a white face)."""
    gray = crop.min(axis=2) if crop.ndim == 3 else crop
    return float(np.mean(gray >= CLIPPED))


def upright(image: np.ndarray) -> np.ndarray:
    """A face image cut as the scanner cuts a card (inside INSET), at CUT_SIZE."""
    h, w = image.shape[:2]
    dx, dy = w * INSET, h * INSET
    src = np.float32([[dx, dy], [w - dx, dy], [w - dx, h - dy], [dx, h - dy]])
    cw, ch = CUT_SIZE
    dst = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(image, m, CUT_SIZE, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def render(image: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """One rendering of a face image as a photo might show it, cut as the scanner cuts: a
    little off (shift, scale, turn), under uneven light and a colour cast, perhaps with glare,
    then blurred, noisy and JPEG-compressed. Used to learn (enrol) and to calibrate."""
    h, w = image.shape[:2]
    k = strength
    dx, dy = w * INSET, h * INSET
    src = np.float32([[dx, dy], [w - dx, dy], [w - dx, h - dy], [dx, h - dy]])
    centre = src.mean(axis=0)
    angle = np.radians(rng.uniform(-2.5, 2.5) * k)
    scale = 1 + rng.uniform(-0.03, 0.03) * k
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]) * scale
    shift = rng.uniform(-0.03, 0.03, 2) * k * np.array([w, h])
    src = ((src - centre) @ rot.T + centre + shift).astype(np.float32)
    src += rng.normal(0, 0.006 * w * k, src.shape).astype(np.float32)  # a corner a bit off
    cw, ch = CUT_SIZE
    dst = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    m = cv2.getPerspectiveTransform(src, dst)
    crop = cv2.warpPerspective(image, m, CUT_SIZE, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    yy, xx = np.mgrid[0:ch, 0:cw].astype(np.float32)
    gain = rng.uniform(0.55, 1.2)
    gx, gy = rng.uniform(-0.3, 0.3, 2) * k
    light = gain * (1 + gx * (xx / cw - 0.5) + gy * (yy / ch - 0.5))
    cast = 1 + rng.uniform(-0.12, 0.12, 3) * k
    crop = crop * light[..., None] * cast[None, None, :]
    if rng.random() < 0.35:
        cx, cy = rng.uniform(0, cw), rng.uniform(0, ch)
        radius = rng.uniform(0.1, 0.4) * cw
        peak = rng.uniform(30, 140) * k
        crop += (peak * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / radius ** 2))[..., None]
    crop = np.clip(crop, 0, 255)
    sigma = rng.uniform(0.0, 2.2) * k
    if sigma > 0.3:
        crop = cv2.GaussianBlur(crop, (0, 0), sigma)
    crop += rng.normal(0, rng.uniform(1, 6) * k, crop.shape).astype(np.float32)
    out = np.clip(crop, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY,
                                              int(rng.uniform(45, 92))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


#: Dimensions of the learnt space, and how much of the within-face spread's mean variance is
#: added before whitening (so a direction the renderings never vary along is not blown up).
SPACE, RIDGE = 96, 0.1


def _learn_space(raw: np.ndarray, labels: np.ndarray, faces: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Where faces are told apart best: the descriptors' main directions (PCA), scaled so
    that what changes between renderings of one face (light, glare, blur, a crop a little
    off) weighs little and what changes between faces weighs much (within-face whitening,
    as in LDA). Returns the mean and the projection."""
    mean = raw.mean(axis=0)
    centred = raw - mean
    cov = (centred.T @ centred).astype(np.float64)
    _values, vectors = np.linalg.eigh(cov)
    pca = vectors[:, ::-1][:, :min(SPACE, cov.shape[0])]
    y = centred @ pca
    means = np.zeros((faces, y.shape[1]))
    np.add.at(means, labels, y)
    means /= np.maximum(np.bincount(labels, minlength=faces), 1)[:, None]
    resid = y - means[labels]
    within = resid.T @ resid / len(y)
    values, vectors = np.linalg.eigh(within)
    values = values + RIDGE * float(values.mean())
    whiten = vectors / np.sqrt(values)[None, :]
    return mean.astype(np.float32), (pca @ whiten).astype(np.float32)


@dataclass(frozen=True)
class Verdict:
    """What a crop shows: ``face`` (an index into the model's faces) or None when unsure, the
    best face even when unsure (``best``), its similarity, its lead over the next face, and
    why it is unsure (``washed``: glare; ``far``: like no face; ``close``: two faces alike)."""

    face: int | None
    best: int
    score: float
    lead: float
    why: str = ""


@dataclass
class FaceModel:
    """Every enrolled face's renderings as descriptors, with the thresholds of sureness."""

    descriptors: np.ndarray   # (n, k) float32 unit rows, in the learnt space
    labels: np.ndarray        # (n,) int: the face each row renders
    faces: int                # how many faces
    clipped: np.ndarray       # (faces,) the share of each face's pixels clipped white
    mean: np.ndarray          # (d,) the raw descriptors' mean
    project: np.ndarray       # (d, k) raw descriptor -> learnt space
    least: float = 0.6        # a sure face is at least this similar
    margin: float = 0.04      # ... and this far ahead of every other face
    templates: np.ndarray | None = None  # (faces, H, W) uint8: each whole face, gray

    def embed(self, raw: np.ndarray) -> np.ndarray:
        """Raw descriptors (n, d) in the learnt space, unit rows."""
        z = (raw - self.mean) @ self.project
        return (z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-6)).astype(np.float32)

    @classmethod
    def learn(cls, images: list[np.ndarray], *, renders: int = 40, seed: int = 0,
              calibrate: int = 8) -> FaceModel:
        """Learn ``images`` (one per face, upright, BGR): the clean cut plus ``renders``
        renderings each; thresholds from ``calibrate`` renderings each of another seed."""
        with one_thread():
            return cls._learn(images, renders, seed, calibrate)

    @classmethod
    def _learn(cls, images: list[np.ndarray], renders: int, seed: int, calibrate: int
               ) -> FaceModel:
        rng = np.random.default_rng(seed)
        descs, labels, clipped = [], [], []
        for i, image in enumerate(images):
            crops = [upright(image)] + [render(image, rng) for _ in range(renders)]
            descs.append(describe(np.stack(crops)))
            labels += [i] * len(crops)
            clipped.append(clipped_share(upright(image)))
        raw = np.concatenate(descs)
        labels_arr = np.asarray(labels, np.int32)
        mean, project = _learn_space(raw, labels_arr, len(images))
        model = cls(np.zeros((0, project.shape[1]), np.float32), labels_arr, len(images),
                    np.asarray(clipped, np.float32), mean, project,
                    templates=np.stack([template(image) for image in images]))
        model.descriptors = model.embed(raw)
        if calibrate:
            model._calibrate(images, calibrate, seed + 1)
        return model

    def _calibrate(self, images: list[np.ndarray], count: int, seed: int) -> None:
        """Set ``least`` below nearly every right answer on fresh renderings, and ``margin``
        above the lead of nearly every wrong one (and never below a floor)."""
        rng = np.random.default_rng(seed)
        right, wrong_leads = [], []
        for i, image in enumerate(images):
            crops = np.stack([render(image, rng, 1.2) for _ in range(count)])
            for vec in self.embed(describe(crops)):
                best, score, lead = self._rank(vec, None)
                if best == i:
                    right.append(score)
                else:
                    wrong_leads.append(lead)
        if right:
            self.least = float(min(0.55, max(0.45, np.percentile(right, 0.5) - 0.03)))
        top = float(np.percentile(wrong_leads, 99)) if wrong_leads else 0.0
        self.margin = float(min(0.05, max(0.03, top + 0.01)))

    def similarities(self, crops: np.ndarray) -> np.ndarray:
        """(n, faces): how like each face (its nearest rendering) each crop (CUT_SIZE) is."""
        with one_thread():
            vecs = self.embed(describe(crops))
        sims = vecs @ self.descriptors.T
        out = np.full((len(crops), self.faces), -2.0, np.float32)
        for face in range(self.faces):
            cols = self.labels == face
            if np.any(cols):
                out[:, face] = sims[:, cols].max(axis=1)
        return out

    def shortlist(self, crops: np.ndarray, allowed: list[list[int] | None], k: int = 3
                  ) -> list[list[int]]:
        """The ``k`` faces (among each crop's ``allowed``) each crop is most like: the faces
        worth looking for around a card found only roughly."""
        sims = self.similarities(crops)
        out = []
        for row, subset in zip(sims, allowed, strict=True):
            ids = np.arange(self.faces) if subset is None else np.asarray(subset)
            out.append([int(i) for i in ids[np.argsort(-row[ids])[:k]]])
        return out

    def _rank(self, vec: np.ndarray, allowed: np.ndarray | None,
              answers: np.ndarray | None = None) -> tuple[int, float, float]:
        """The best face, its similarity, and its lead over the best face giving another
        answer (``answers[face]``; default every face its own answer)."""
        sims = self.descriptors @ vec
        per_face = np.full(self.faces, -2.0, np.float32)
        np.maximum.at(per_face, self.labels, sims)
        if allowed is not None:
            mask = np.ones(self.faces, bool)
            mask[allowed] = False
            per_face[mask] = -2.0
        best = int(np.argmax(per_face))
        rivals = per_face.copy()
        if answers is None:
            rivals[best] = -2.0
        else:
            rivals[answers == answers[best]] = -2.0
        second = float(rivals.max())
        if second < -1.5:  # no rival allowed: its lead is over "nothing like it"
            second = self.least
        return best, float(per_face[best]), float(per_face[best] - second)

    def identify(self, crop: np.ndarray, allowed: list[int] | None = None,
                 answers: np.ndarray | None = None) -> Verdict:
        """Which face ``crop`` (CUT_SIZE, BGR) shows, among ``allowed`` (default all)."""
        return self.identify_many(crop[None], [allowed], answers)[0]

    def identify_many(self, crops: np.ndarray, allowed: list[list[int] | None],
                      answers: np.ndarray | None = None) -> list[Verdict]:
        """:meth:`identify` for many crops at once. With ``answers`` (one key per face),
        faces giving the same answer are no rivals: a glass card read as 'sunlight' is sure
        when every sunlight face is ahead of every dark one, whichever pane it is."""
        with one_thread():
            vecs = self.embed(describe(crops))
        out = []
        for crop, vec, subset in zip(crops, vecs, allowed, strict=True):
            best, score, lead = self._rank(vec, None if subset is None else np.asarray(subset),
                                           answers)
            why = ""
            if clipped_share(crop) - float(self.clipped[best]) > WASHED:
                why = "washed"
            elif score < self.least:
                why = "far"
            elif lead < self.margin:
                why = "close"
            out.append(Verdict(None if why else best, best, score, lead, why))
        return out

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"descriptors": self.descriptors.astype(np.float16), "labels": self.labels,
                "clipped": self.clipped, "mean": self.mean.astype(np.float32),
                "project": self.project.astype(np.float32),
                "thresholds": np.array([self.least, self.margin], np.float32),
                "templates": (self.templates if self.templates is not None
                              else np.zeros((0, TEMPLATE_SIZE[1], TEMPLATE_SIZE[0]), np.uint8))}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], faces: int) -> FaceModel:
        labels = arrays["labels"].astype(np.int32)
        descriptors = arrays["descriptors"].astype(np.float32)
        clipped = arrays["clipped"].astype(np.float32)
        least, margin = (float(v) for v in arrays["thresholds"])
        if (descriptors.ndim != 2 or len(labels) != len(descriptors) or len(clipped) != faces
                or (len(labels) and (labels.min() < 0 or labels.max() >= faces))):
            raise ValueError("the face arrays do not fit together")
        mean, project = arrays["mean"].astype(np.float32), arrays["project"].astype(np.float32)
        if project.shape != (len(mean), descriptors.shape[1]):
            raise ValueError("the learnt space does not fit the descriptors")
        templates = arrays["templates"].astype(np.uint8)
        if templates.shape != (faces, TEMPLATE_SIZE[1], TEMPLATE_SIZE[0]):
            raise ValueError("the face templates do not fit the faces")
        return cls(descriptors, labels, faces, clipped, mean, project, least, margin, templates)
