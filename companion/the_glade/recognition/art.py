"""SAMPLE art for The Glade, drawn by code: tiles, toadstool counters and a forest board.

Nobody has published the game's art, so the table simulator draws its own stand-ins. Every
``style`` (an integer seed) gives a different look: other creature, fruit and leaf shapes,
other greens and browns, other board decorations. The recogniser is tuned on one style and
measured on others, so it can only succeed by learning from an enrolment pack.

Everything here is SAMPLE art, not the publisher's.

>>> art = SampleArt(style=1)
>>> art.tile("hedgehog/acorn/oak", "spring").shape
(96, 96, 3)
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import cv2
import numpy as np

from companion.the_glade.names import CREATURES, FRUITS, LEAVES, Counter, Tile

#: Player colours of the box plus two non-player colours for the solo game (BGR).
COUNTER_COLOURS: dict[str, tuple[int, int, int]] = {
    "yellow": (40, 200, 235),
    "blue": (190, 110, 40),
    "red": (50, 50, 200),
    "green": (70, 150, 60),
    "purple": (140, 60, 120),
    "white": (225, 225, 225),
}

_SS = 4  # supersampling factor for anti-aliased drawing


def _rng(*key: object) -> np.random.Generator:
    """A generator seeded by a stable hash of ``key`` (same art on every machine)."""
    return np.random.default_rng(zlib.crc32(repr(key).encode()))


def _blob(rng: np.random.Generator, n: int = 96, harmonics: int = 5,
          rough: float = 0.28) -> np.ndarray:
    """A random closed outline around the origin, radius about 1 (n x 2 float points)."""
    theta = np.linspace(0, 2 * math.pi, n, endpoint=False)
    r = np.ones(n)
    for k in range(1, harmonics + 1):
        r += rng.uniform(0, rough / k ** 0.6) * np.cos(k * theta + rng.uniform(0, 2 * math.pi))
    r = np.clip(r, 0.35, None)
    r /= r.max()
    return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)


def _poly(points: np.ndarray, cx: float, cy: float, size: float, angle: float = 0.0
          ) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    rot = points @ np.array([[c, s], [-s, c]])
    return np.round(np.stack([cx + rot[:, 0] * size, cy + rot[:, 1] * size], axis=1) * 16
                    ).astype(np.int32)


def _fill(img: np.ndarray, pts: np.ndarray, colour, outline=None, width: int = 0) -> None:
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, 4)
    if outline is not None and width > 0:
        cv2.polylines(img, [pts], True, outline, width, cv2.LINE_AA, 4)


def _jitter(rng: np.random.Generator, colour, amount: float) -> tuple[int, int, int]:
    c = np.asarray(colour, float) + rng.uniform(-amount, amount, 3)
    return tuple(int(v) for v in np.clip(c, 0, 255))


def _shade(colour, factor: float) -> tuple[int, int, int]:
    return tuple(int(np.clip(v * factor, 0, 255)) for v in colour)


@dataclass(frozen=True)
class _Icon:
    """One icon: a few random outlines drawn together (body plus parts)."""

    parts: tuple[tuple[np.ndarray, float, float, float, float], ...]  # pts, dx, dy, size, angle
    eye: tuple[float, float] | None

    def draw(self, img, cx, cy, size, colour, outline, bg) -> None:
        for pts, dx, dy, s, a in self.parts:
            _fill(img, _poly(pts, cx + dx * size, cy + dy * size, s * size, a), colour, outline,
                  max(1, int(size * 0.06)))
        if self.eye is not None:
            ex, ey = cx + self.eye[0] * size, cy + self.eye[1] * size
            cv2.circle(img, (int(ex * 16), int(ey * 16)), int(size * 0.12 * 16), bg, -1,
                       cv2.LINE_AA, 4)
            cv2.circle(img, (int(ex * 16), int(ey * 16)), int(size * 0.05 * 16), outline, -1,
                       cv2.LINE_AA, 4)


def _make_icon(rng: np.random.Generator, parts: int, eye: bool) -> _Icon:
    out = [(_blob(rng), 0.0, 0.0, 0.8, 0.0)]
    for _ in range(parts):
        ang = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(0.45, 0.75)
        out.append((_blob(rng, harmonics=3, rough=0.2), math.cos(ang) * dist,
                    math.sin(ang) * dist, rng.uniform(0.25, 0.45), rng.uniform(0, math.pi)))
    e = (rng.uniform(-0.35, 0.35), rng.uniform(-0.4, 0.0)) if eye else None
    return _Icon(tuple(out), e)


class SampleArt:
    """The SAMPLE look of one ``style``: tile faces, counters and forest boards as BGR images."""

    def __init__(self, style: int = 1, tile_px: int = 96, counter_px: int = 64) -> None:
        self.style = style
        self.tile_px = tile_px
        self.counter_px = counter_px
        rng = _rng("palette", style)
        self.leaf_colours = {
            "beech": _jitter(rng, (70, 185, 120), 14),          # light green (BGR)
            "horse-chestnut": _jitter(rng, (50, 125, 45), 12),  # dark green
            "maple": _jitter(rng, (60, 135, 190), 14),          # light brown
            "oak": _jitter(rng, (35, 75, 120), 10),             # dark brown
        }
        self.backgrounds = {
            "spring": _jitter(rng, (205, 238, 222), 8),  # pale green
            "summer": _jitter(rng, (190, 236, 245), 8),  # pale yellow
        }
        self.creatures = {c: _make_icon(_rng("creature", style, c), 3, True) for c in CREATURES}
        self.fruits = {f: _make_icon(_rng("fruit", style, f), 2, False) for f in FRUITS}
        self.leaves = {v: _make_icon(_rng("leaf", style, v), 0, False) for v in LEAVES}
        self.layout = {
            "creature": (0.5 + rng.uniform(-0.04, 0.04), 0.40 + rng.uniform(-0.04, 0.04),
                         0.27 + rng.uniform(-0.02, 0.03)),
            "fruit": (0.76 + rng.uniform(-0.02, 0.02), 0.77 + rng.uniform(-0.02, 0.02), 0.14),
            "leaf": (0.24 + rng.uniform(-0.02, 0.02), 0.78 + rng.uniform(-0.02, 0.02), 0.13),
            "season": (0.83, 0.16, 0.08),
        }
        self.edge = _jitter(rng, (120, 170, 200), 15)  # the wooden rim colour

    # -- tiles ---------------------------------------------------------------------------
    def tile(self, name: str | Tile, season: str) -> np.ndarray:
        """The upright face of one tile (tile_px square, BGR)."""
        tile = name if isinstance(name, Tile) else Tile.parse(name)
        n = self.tile_px * _SS
        bg = self.backgrounds[season]
        img = np.empty((n, n, 3), np.uint8)
        img[:] = bg
        rng = _rng("tile-texture", self.style, str(tile), season)
        noise = cv2.GaussianBlur(rng.normal(0, 6, (n // 8, n // 8)).astype(np.float32), (0, 0), 1)
        img = np.clip(img + cv2.resize(noise, (n, n))[..., None], 0, 255).astype(np.uint8)
        colour = self.leaf_colours[tile.leaf]
        outline = _shade(colour, 0.55)
        for kind, icon in (("creature", self.creatures[tile.creature]),
                           ("fruit", self.fruits[tile.fruit]),
                           ("leaf", self.leaves[tile.leaf])):
            x, y, s = self.layout[kind]
            icon.draw(img, x * n, y * n, s * n, colour, outline, bg)
        self._season_mark(img, season, n)
        cv2.rectangle(img, (0, 0), (n - 1, n - 1), self.edge, max(2, n // 40))
        return cv2.resize(img, (self.tile_px, self.tile_px), interpolation=cv2.INTER_AREA)

    def _season_mark(self, img: np.ndarray, season: str, n: int) -> None:
        x, y, s = (v * n for v in self.layout["season"])
        if season == "spring":  # grass: three blades
            for dx, h in ((-0.5, 0.9), (0.0, 1.2), (0.5, 0.8)):
                p0 = (int((x + dx * s) * 16), int((y + s) * 16))
                p1 = (int((x + dx * s * 1.6) * 16), int((y + s - h * s * 1.6) * 16))
                cv2.line(img, p0, p1, (40, 140, 40), max(2, n // 60), cv2.LINE_AA, 4)
        else:  # flower: petals round a heart
            for k in range(5):
                a = 2 * math.pi * k / 5
                c = (int((x + math.cos(a) * s * 0.6) * 16), int((y + math.sin(a) * s * 0.6) * 16))
                cv2.circle(img, c, int(s * 0.45 * 16), (200, 120, 230), -1, cv2.LINE_AA, 4)
            cv2.circle(img, (int(x * 16), int(y * 16)), int(s * 0.35 * 16), (30, 200, 240), -1,
                       cv2.LINE_AA, 4)

    # -- counters ------------------------------------------------------------------------
    def counter(self, name: str | Counter) -> np.ndarray:
        """One face of a toadstool counter: a disc inscribed in a counter_px square (BGR)."""
        counter = name if isinstance(name, Counter) else Counter.parse(name)
        n = self.counter_px * _SS
        base = COUNTER_COLOURS.get(counter.colour)
        if base is None:
            base = _jitter(_rng("colour", counter.colour), (128, 128, 128), 100)
        base = _jitter(_rng("counter", self.style, counter.colour), base, 10)
        img = np.empty((n, n, 3), np.uint8)
        img[:] = _shade(base, 0.5)
        c = n // 2
        cv2.circle(img, (c * 16, c * 16), (n // 2 - 1) * 16, base, -1, cv2.LINE_AA, 4)
        cv2.circle(img, (c * 16, c * 16), int(n * 0.42 * 16), _shade(base, 0.75),
                   max(2, n // 30), cv2.LINE_AA, 4)
        spots = [(0.0, 0.0, 1.0)] if counter.side == "single" else [(-0.17, -0.05, 0.8),
                                                                   (0.2, 0.1, 0.65)]
        cap = (60, 60, 210) if counter.colour != "red" else (230, 230, 240)
        for dx, dy, k in spots:
            self._toadstool(img, c + dx * n, c + dy * n, n * 0.22 * k, cap)
        return cv2.resize(img, (self.counter_px, self.counter_px), interpolation=cv2.INTER_AREA)

    @staticmethod
    def _toadstool(img, x, y, s, cap) -> None:
        stem = np.array([[x - s * 0.25, y], [x + s * 0.25, y], [x + s * 0.3, y + s * 1.0],
                         [x - s * 0.3, y + s * 1.0]]) * 16
        cv2.fillPoly(img, [stem.astype(np.int32)], (235, 240, 245), cv2.LINE_AA, 4)
        cv2.ellipse(img, (int(x * 16), int(y * 16)), (int(s * 16), int(s * 0.7 * 16)), 0, 180,
                    360, cap, -1, cv2.LINE_AA, 4)
        for dx, dy in ((-0.5, -0.3), (0.1, -0.55), (0.55, -0.2)):
            cv2.circle(img, (int((x + dx * s) * 16), int((y + dy * s) * 16)), int(s * 0.13 * 16),
                       (250, 250, 250), -1, cv2.LINE_AA, 4)

    # -- boards --------------------------------------------------------------------------
    def board(self, rows: int, cols: int, cell: int = 100, margin: int = 110,
              centre: tuple[int, int] | None = None) -> np.ndarray:
        """An empty forest board (basic side), grid at (margin, margin) with ``cell`` px squares.

        The border carries many small decorations (and the words SAMPLE ART), which is what
        lets the scanner find the board when tiles cover the whole grid.
        """
        rng = _rng("board", self.style, rows, cols)
        h, w = rows * cell + 2 * margin, cols * cell + 2 * margin
        base = _jitter(rng, (60, 105, 75), 15)
        noise = rng.normal(0, 1, (h // 6 + 1, w // 6 + 1)).astype(np.float32)
        noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), 2), (w, h)) * 14
        img = np.clip(np.asarray(base, np.float32) + noise[..., None], 0, 255).astype(np.uint8)
        big = cv2.resize(img, (w * 2, h * 2), interpolation=cv2.INTER_LINEAR)
        palette = [(40, 160, 220), (200, 200, 210), (60, 60, 170), (40, 90, 130),
                   (90, 190, 110), (160, 90, 140), (30, 50, 60), (180, 220, 230)]
        # decorations everywhere on the border, fewer and fainter inside the grid
        count = int((w * h) / 900)
        gx0, gy0, gx1, gy1 = margin, margin, margin + cols * cell, margin + rows * cell
        for _ in range(count):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            inside = gx0 - 4 < x < gx1 + 4 and gy0 - 4 < y < gy1 + 4
            if inside and rng.random() < 0.85:
                continue
            size = rng.uniform(5, 16) if not inside else rng.uniform(4, 9)
            colour = palette[rng.integers(len(palette))]
            if inside:
                colour = tuple(int(0.35 * c + 0.65 * b) for c, b in zip(colour, base, strict=True))
            pts = _poly(_blob(rng, 24, 3, 0.5), 2 * x, 2 * y, 2 * size, rng.uniform(0, 6.3))
            _fill(big, pts, colour, _shade(colour, 0.5), 2)
        img = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
        # the grid: each square a little lighter than the border, with its own texture
        for r in range(rows):
            for c in range(cols):
                x0, y0 = gx0 + c * cell, gy0 + r * cell
                sq = img[y0:y0 + cell, x0:x0 + cell].astype(np.float32)
                sq = sq * 0.55 + np.asarray(_jitter(rng, (95, 150, 120), 10), np.float32) * 0.45
                img[y0:y0 + cell, x0:x0 + cell] = np.clip(sq, 0, 255).astype(np.uint8)
        line = (30, 55, 40)
        for r in range(rows + 1):
            cv2.line(img, (gx0, gy0 + r * cell), (gx1, gy0 + r * cell), line, 2, cv2.LINE_AA)
        for c in range(cols + 1):
            cv2.line(img, (gx0 + c * cell, gy0), (gx0 + c * cell, gy1), line, 2, cv2.LINE_AA)
        cr, cc = centre if centre is not None else (rows // 2, cols // 2)
        x0, y0 = gx0 + cc * cell, gy0 + cr * cell
        cv2.rectangle(img, (x0 + 3, y0 + 3), (x0 + cell - 4, y0 + cell - 4), (20, 40, 30), 5,
                      cv2.LINE_AA)
        font = cv2.FONT_HERSHEY_SIMPLEX
        cv2.putText(img, "SAMPLE ART", (margin, margin // 2 + 10), font, margin / 90,
                    (220, 235, 240), 2, cv2.LINE_AA)
        cv2.putText(img, f"the glade - style {self.style}", (margin, h - margin // 3), font,
                    margin / 160, (200, 220, 230), 1, cv2.LINE_AA)
        return img
