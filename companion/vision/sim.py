"""The table simulator's core: a camera above a table, and everything that spoils its photos.

Game modules draw a flat, top-down "scene" of their board with its pieces; this module places
the scene on a cluttered table as a tilted, turned camera would see it, then spoils the photo
with uneven light, a colour cast, a shadow, glare, blur, sensor noise and JPEG artefacts.
Every call takes a ``numpy.random.Generator``, so a seed gives the same photo every time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import cv2
import numpy as np

FRAME = (1640, 1232)  # width, height of the Raspberry Pi camera's binned mode


@dataclass(frozen=True)
class Degradations:
    """Which spoilers to apply (each on or off); ``strength`` scales all of them."""

    light: bool = True      # uneven illumination and a colour cast
    shadow: bool = True     # a soft shadow (an arm, a lamp) across part of the table
    glare: bool = True      # a specular highlight
    blur: bool = True       # focus or motion blur
    noise: bool = True      # sensor noise
    jpeg: bool = True       # JPEG compression
    clutter: bool = True    # other objects on the table
    strength: float = 1.0

    @classmethod
    def none(cls) -> Degradations:
        return cls(**{f.name: False for f in fields(cls) if f.name != "strength"})

    @classmethod
    def only(cls, name: str) -> Degradations:
        base = {f.name: False for f in fields(cls) if f.name != "strength"}
        if name not in base:
            raise ValueError(f"unknown degradation {name!r}")
        base[name] = True
        return cls(**base)


@dataclass(frozen=True)
class Camera:
    """How the scene lies in the photo: ``coverage`` is the board's larger side as a fraction
    of the frame's height, ``turn`` and ``tilt`` are in degrees."""

    coverage: float
    turn: float
    tilt_x: float
    tilt_y: float
    shift: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def random(cls, rng: np.random.Generator, coverage=(0.55, 0.9), turn=20.0,
               tilt=12.0) -> Camera:
        return cls(float(rng.uniform(*coverage)), float(rng.uniform(-turn, turn)),
                   float(rng.uniform(-tilt, tilt)), float(rng.uniform(-tilt, tilt)),
                   (float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))))


def scene_to_photo(scene_size: tuple[int, int], camera: Camera, frame=FRAME,
                   fit: bool = True) -> np.ndarray:
    """The homography taking scene pixels to photo pixels for ``camera``.

    With ``fit`` the board is shrunk if needed so it stays wholly in frame, and ``shift``
    moves it within the room left over.
    """
    w, h = scene_size
    fw, fh = frame
    corners = np.array([[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0],
                        [-w / 2, h / 2, 0]], float)
    ax, ay = math.radians(camera.tilt_x), math.radians(camera.tilt_y)
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    a = math.radians(camera.turn)
    rz = np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])
    pts = corners @ (rz @ ry @ rx).T
    focal = 1.2 * max(w, h)
    z = pts[:, 2] + 2.0 * focal
    proj = pts[:, :2] * (2.0 * focal / z)[:, None]
    proj *= camera.coverage * fh / max(np.ptp(proj[:, 0]), np.ptp(proj[:, 1]))
    if fit:
        span = np.array([np.ptp(proj[:, 0]), np.ptp(proj[:, 1])])
        room = np.array([fw, fh]) * 0.98
        k = min(1.0, *(room / span))
        proj *= k
    span = np.array([np.ptp(proj[:, 0]), np.ptp(proj[:, 1])])
    centre = proj.min(axis=0) + span / 2
    slack = np.maximum(np.array([fw, fh]) - span, 0) / 2 * 0.95
    target = np.array([fw / 2, fh / 2]) + np.asarray(camera.shift) * slack
    proj += target - centre
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return cv2.getPerspectiveTransform(src, proj.astype(np.float32))


def table(rng: np.random.Generator, frame=FRAME) -> np.ndarray:
    """A wooden or cloth table top filling the frame."""
    fw, fh = frame
    base = np.array(rng.choice([(60, 90, 130), (40, 60, 90), (120, 130, 140), (70, 50, 40),
                                (150, 170, 190)]), np.float32)
    base += rng.uniform(-20, 20, 3)
    grain = rng.normal(0, 1, (fh // 8 + 1, fw // 64 + 1)).astype(np.float32)
    grain = cv2.resize(grain, (fw, fh), interpolation=cv2.INTER_CUBIC) * rng.uniform(4, 14)
    fine = cv2.resize(rng.normal(0, 3, (fh // 4, fw // 4)).astype(np.float32), (fw, fh))
    img = base[None, None, :] + (grain + fine)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def clutter(img: np.ndarray, rng: np.random.Generator, sprites: list[np.ndarray],
            keep_clear: np.ndarray | None = None, count: int = 10) -> None:
    """Scatter ``sprites`` (other tiles, counters), cards, cups and dice about the table.

    ``keep_clear`` is a polygon (the board's outline in the photo) that clutter avoids.
    """
    fh, fw = img.shape[:2]
    clear = np.zeros((fh, fw), np.uint8)
    if keep_clear is not None:
        cv2.fillPoly(clear, [keep_clear.astype(np.int32)], 255)
    for _ in range(count):
        kind = rng.random()
        n = 320
        layer = np.zeros((n, n, 3), np.uint8)
        mask = np.zeros((n, n), np.uint8)
        c = n / 2
        if kind < 0.55 and sprites:
            sprite = sprites[rng.integers(len(sprites))]
            m = cv2.getRotationMatrix2D((sprite.shape[1] / 2, sprite.shape[0] / 2),
                                        rng.uniform(0, 360), rng.uniform(0.6, 1.1))
            m[:, 2] += (c - sprite.shape[1] / 2, c - sprite.shape[0] / 2)
            layer = cv2.warpAffine(sprite, m, (n, n))
            mask = cv2.warpAffine(np.full(sprite.shape[:2], 255, np.uint8), m, (n, n))
        elif kind < 0.8:  # a card
            w, h = rng.uniform(80, 180), rng.uniform(110, 260)
            box = cv2.boxPoints(((c, c), (w, h), rng.uniform(0, 180))).astype(np.int32)
            cv2.fillPoly(layer, [box], tuple(int(v) for v in rng.integers(30, 250, 3)),
                         cv2.LINE_AA)
            cv2.fillPoly(mask, [box], 255, cv2.LINE_AA)
            for _ in range(6):
                p = (int(c + rng.uniform(-w / 3, w / 3)), int(c + rng.uniform(-h / 3, h / 3)))
                cv2.circle(layer, p, int(rng.uniform(5, 20)),
                           tuple(int(v) for v in rng.integers(0, 255, 3)), -1, cv2.LINE_AA)
            layer[mask == 0] = 0
        else:  # a cup or a die seen from above
            r = rng.uniform(20, 90)
            colour = tuple(int(v) for v in rng.integers(20, 250, 3))
            cv2.circle(layer, (int(c), int(c)), int(r), colour, -1, cv2.LINE_AA)
            cv2.circle(layer, (int(c), int(c)), int(r * 0.8), tuple(v // 2 for v in colour), 3,
                       cv2.LINE_AA)
            cv2.circle(mask, (int(c), int(c)), int(r), 255, -1, cv2.LINE_AA)
        x0, y0 = int(rng.uniform(0, fw)) - n // 2, int(rng.uniform(0, fh)) - n // 2
        fx0, fy0, fx1, fy1 = max(x0, 0), max(y0, 0), min(x0 + n, fw), min(y0 + n, fh)
        if fx1 <= fx0 or fy1 <= fy0:
            continue
        sub = (slice(fy0 - y0, fy1 - y0), slice(fx0 - x0, fx1 - x0))
        roi = (slice(fy0, fy1), slice(fx0, fx1))
        # a margin of 24 px round the board stays clear of clutter
        grown = cv2.dilate(mask, np.ones((49, 49), np.uint8))
        if np.any((grown[sub] > 0) & (clear[roi] > 0)):
            continue
        shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), 6), (6, 6), axis=(0, 1))
        shadow = shadow[sub].astype(np.float32)[..., None] / 255 * 0.4
        alpha = mask[sub].astype(np.float32)[..., None] / 255
        base = img[roi].astype(np.float32) * (1 - shadow)
        img[roi] = np.clip(base * (1 - alpha) + layer[sub] * alpha, 0, 255).astype(np.uint8)


def place(img: np.ndarray, scene: np.ndarray, homography: np.ndarray,
          shadow: float = 0.35) -> None:
    """Draw ``scene`` into ``img`` through ``homography``, with a soft contact shadow."""
    fh, fw = img.shape[:2]
    warped = cv2.warpPerspective(scene, homography, (fw, fh), flags=cv2.INTER_LINEAR)
    ones = np.full(scene.shape[:2], 255, np.uint8)
    mask = cv2.warpPerspective(ones, homography, (fw, fh), flags=cv2.INTER_LINEAR)
    soft = cv2.GaussianBlur(mask, (0, 0), 10)
    soft = np.roll(soft, (8, 10), axis=(0, 1)).astype(np.float32) / 255 * shadow
    alpha = mask.astype(np.float32)[..., None] / 255
    base = img.astype(np.float32) * (1 - soft[..., None])
    img[:] = np.clip(base * (1 - alpha) + warped.astype(np.float32) * alpha, 0, 255
                     ).astype(np.uint8)


def degrade(img: np.ndarray, rng: np.random.Generator, spoil: Degradations,
            glare_at: list[tuple[float, float, float]] | None = None) -> np.ndarray:
    """Spoil a clean photo; ``glare_at`` adds strong glare spots (x, y, radius) on purpose."""
    fh, fw = img.shape[:2]
    k = spoil.strength
    out = img.astype(np.float32)
    yy, xx = np.mgrid[0:fh:8, 0:fw:8].astype(np.float32)
    if spoil.light:
        gx, gy = rng.uniform(-1, 1, 2) * 0.35 * k
        field = 1 + gx * (xx / fw - 0.5) + gy * (yy / fh - 0.5)
        cx, cy = rng.uniform(0.2, 0.8) * fw, rng.uniform(0.2, 0.8) * fh
        r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (fw * fw)
        field *= 1 - rng.uniform(0.1, 0.35) * k * r2 * 2
        field *= rng.uniform(0.75, 1.05)  # auto-exposure keeps most highlights in range
        field = cv2.resize(field, (fw, fh), interpolation=cv2.INTER_LINEAR)
        cast = 1 + rng.uniform(-0.12, 0.12, 3) * k
        out *= field[..., None] * cast[None, None, :]
    if spoil.shadow:  # drawn at 1/8 scale: it is soft anyway
        sw, sh = xx.shape[1], xx.shape[0]
        mask = np.zeros((sh, sw), np.float32)
        edge = rng.integers(4)
        p0 = rng.uniform(0.1, 0.9)
        width = rng.uniform(0.15, 0.4) * sw
        angle = rng.uniform(-0.6, 0.6)
        if edge < 2:
            start = np.array([sw * p0, 0 if edge == 0 else sh])
            direction = np.array([math.sin(angle), math.cos(angle) * (1 if edge == 0 else -1)])
        else:
            start = np.array([0 if edge == 2 else sw, sh * p0])
            direction = np.array([math.cos(angle) * (1 if edge == 2 else -1), math.sin(angle)])
        end = start + direction * rng.uniform(0.3, 0.6) * max(sw, sh)
        cv2.line(mask, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])), 1.0,
                 max(1, int(width)))
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2.5, 7.5))
        mask = cv2.resize(mask, (fw, fh), interpolation=cv2.INTER_LINEAR)
        out *= (1 - mask * rng.uniform(0.25, 0.5) * min(k, 1.5))[..., None]
    spots = list(glare_at or [])
    if spoil.glare:
        for _ in range(rng.integers(1, 3)):
            spots.append((rng.uniform(0.1, 0.9) * fw, rng.uniform(0.1, 0.9) * fh,
                          rng.uniform(30, 110) * k))
    if spots:
        glare = np.zeros((yy.shape[0], yy.shape[1]), np.float32)
        for i, (gx, gy, radius) in enumerate(spots):
            peak = 420.0 if i < len(glare_at or []) else rng.uniform(40, 120) * k
            d2 = ((xx - gx) ** 2 + (yy - gy) ** 2) / (radius * radius)
            glare += peak * np.exp(-d2 * (2.0 if i < len(glare_at or []) else 1.0))
        glare = cv2.resize(glare, (fw, fh), interpolation=cv2.INTER_LINEAR)
        out += glare[..., None]
    out = np.clip(out, 0, 255)
    if spoil.blur:
        if rng.random() < 0.5:
            out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.6, 1.6) * k)
        else:
            n = max(3, int(rng.uniform(3, 9) * k)) | 1
            kern = np.zeros((n, n), np.float32)
            a = rng.uniform(0, math.pi)
            c = n // 2
            cv2.line(kern, (int(c - math.cos(a) * c), int(c - math.sin(a) * c)),
                     (int(c + math.cos(a) * c), int(c + math.sin(a) * c)), 1.0, 1)
            out = cv2.filter2D(out, -1, kern / kern.sum())
    if spoil.noise:
        sigma = rng.uniform(2, 6) * k
        out = out + rng.normal(0, 1, out.shape).astype(np.float32) * (
            sigma * np.sqrt(np.maximum(out, 1) / 128))
    result = np.clip(out, 0, 255).astype(np.uint8)
    if spoil.jpeg:
        quality = int(rng.uniform(55, 90) if k <= 1 else 45)
        _ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, quality])
        result = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return result
