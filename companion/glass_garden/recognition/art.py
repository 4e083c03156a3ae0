"""SAMPLE card art for Glass Garden, drawn procedurally in several art families.

The printed cards' art is not public, so the simulator, the tests and the bundled pack draw
their own: every face says SAMPLE on it. A *family* is one art style (palette, border, title
place, font, background pattern, how plants and icons are drawn) chosen from its number, so
the recogniser can be tuned on some families and measured on families it never saw; within a
family each card is drawn from its deck entry (its dirt icons, its name, its side).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import cv2
import numpy as np

from companion.glass_garden.deck import GLASS_POSITIONS, Deck

#: Faces of each kind of card, as the spec names them.
PLANT_FACES = ("soil", "succulent")
CRITTER_FACES = ("setup", "other")
GLASS_FACES = ("sunlight", "dark")
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX)


def card_faces(deck: Deck) -> list[tuple[str, str]]:
    """Every (card, face) of the deck: plants, critters, glass."""
    out = [(p.name, f) for p in deck.plants for f in PLANT_FACES]
    out += [(c.name, f) for c in deck.critters for f in CRITTER_FACES]
    out += [(g.name, f) for g in deck.glass for f in GLASS_FACES]
    return out


def _hash(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "little")


@dataclass(frozen=True)
class Family:
    """One art style."""

    number: int
    hue: float          # the palette's base hue (0-180, OpenCV)
    border: tuple[int, int, int]
    border_width: float  # share of the card's width
    title_top: bool
    font: int
    pattern: int        # 0 plain, 1 stripes, 2 dots, 3 gradient, 4 checks
    leaves: int
    round_icons: bool

    @classmethod
    def of(cls, number: int) -> Family:
        rng = np.random.default_rng(_hash("family", number))
        light = rng.random() < 0.8
        border = (tuple(int(v) for v in rng.integers(200, 250, 3)) if light
                  else tuple(int(v) for v in rng.integers(20, 70, 3)))
        return cls(number, float(rng.uniform(0, 180)), border, float(rng.uniform(0.03, 0.07)),
                   bool(rng.random() < 0.5), int(rng.choice(FONTS[:4])),
                   int(rng.integers(5)), int(rng.integers(5, 11)), bool(rng.random() < 0.5))


def _hsv(h: float, s: float, v: float) -> tuple[int, int, int]:
    px = np.uint8([[[int(h) % 180, int(np.clip(s, 0, 255)), int(np.clip(v, 0, 255))]]])
    b, g, r = cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0]
    return int(b), int(g), int(r)


def _pattern(img: np.ndarray, fam: Family, colour: tuple[int, int, int], rng) -> None:
    h, w = img.shape[:2]
    step = max(6, w // 9)
    if fam.pattern == 1:
        for x in range(-h, w, step):
            cv2.line(img, (x, 0), (x + h, h), colour, max(1, step // 4), cv2.LINE_AA)
    elif fam.pattern == 2:
        for y in range(step // 2, h, step):
            for x in range(step // 2 + (y // step % 2) * step // 2, w, step):
                cv2.circle(img, (x, y), max(1, step // 5), colour, -1, cv2.LINE_AA)
    elif fam.pattern == 3:
        ramp = np.linspace(0.75, 1.15, h, dtype=np.float32)[:, None, None]
        img[:] = np.clip(img * ramp, 0, 255).astype(np.uint8)
    elif fam.pattern == 4:
        for y in range(0, h, step):
            for x in range((y // step % 2) * step, w, 2 * step):
                cv2.rectangle(img, (x, y), (x + step - 1, y + step - 1), colour, -1)


def _icon(img: np.ndarray, kind: str, centre: tuple[int, int], r: int, fam: Family,
          active: bool) -> None:
    x, y = centre
    col = {"box": (60, 90, 170), "cloud": (230, 220, 210), "lightning": (40, 210, 240),
           "droplet": (220, 140, 40), "sprout": (60, 190, 60) if active else (150, 150, 150)}[kind]
    dark = (30, 30, 30)
    if fam.round_icons:
        cv2.circle(img, (x, y), r + 3, dark, -1, cv2.LINE_AA)
        cv2.circle(img, (x, y), r + 1, (245, 245, 245), -1, cv2.LINE_AA)
    if kind == "box":
        cv2.rectangle(img, (x - r + 2, y - r + 2), (x + r - 2, y + r - 2), col, -1)
        cv2.rectangle(img, (x - r + 2, y - r + 2), (x + r - 2, y + r - 2), dark, 1)
    elif kind == "cloud":
        for dx in (-r // 2, 0, r // 2):
            cv2.circle(img, (x + dx, y + (0 if dx else -r // 4)), r // 2 + 1, col, -1,
                       cv2.LINE_AA)
        cv2.ellipse(img, (x, y), (r, r // 2), 0, 0, 360, dark, 1, cv2.LINE_AA)
    elif kind == "lightning":
        pts = np.int32([[x + r // 3, y - r], [x - r // 2, y + r // 6], [x, y + r // 6],
                        [x - r // 3, y + r], [x + r // 2, y - r // 6], [x, y - r // 6]])
        cv2.fillPoly(img, [pts], col, cv2.LINE_AA)
        cv2.polylines(img, [pts], True, dark, 1, cv2.LINE_AA)
    elif kind == "droplet":
        cv2.circle(img, (x, y + r // 4), r * 2 // 3, col, -1, cv2.LINE_AA)
        pts = np.int32([[x, y - r], [x - r * 2 // 3 + 1, y + r // 4], [x + r * 2 // 3, y + r // 4]])
        cv2.fillPoly(img, [pts], col, cv2.LINE_AA)
    else:  # sprout
        cv2.line(img, (x, y + r), (x, y - r // 3), col, max(1, r // 4), cv2.LINE_AA)
        cv2.ellipse(img, (x - r // 3, y - r // 3), (r // 2, r // 4), -30, 0, 360, col, -1,
                    cv2.LINE_AA)
        cv2.ellipse(img, (x + r // 3, y - r // 2), (r // 2, r // 4), 30, 0, 360, col, -1,
                    cv2.LINE_AA)


def _text(img: np.ndarray, text: str, centre_y: int, size: float, colour, font: int,
          thick: int) -> None:
    _h, w = img.shape[:2]
    scale = size
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    if tw > w * 0.84:
        scale *= w * 0.84 / tw
        (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(img, text, ((w - tw) // 2, centre_y + th // 2), font, scale, colour, thick,
                cv2.LINE_AA)


def _rosette(img, centre, r, colour, leaves, turn, grown: bool) -> None:
    x, y = centre
    for k in range(leaves):
        a = turn + 360.0 * k / leaves
        dx, dy = np.cos(np.radians(a)) * r * 0.5, np.sin(np.radians(a)) * r * 0.5
        shade = tuple(int(c * (0.75 + 0.25 * (k % 2))) for c in colour)
        cv2.ellipse(img, (int(x + dx), int(y + dy)), (int(r * 0.55), int(r * 0.2)), a, 0, 360,
                    shade, -1, cv2.LINE_AA)
    if grown:
        cv2.circle(img, (x, y), max(2, r // 5), (80, 80, 230), -1, cv2.LINE_AA)


def draw_face(deck: Deck, card: str, face: str, family: int, size: tuple[int, int] = (100, 140)
              ) -> np.ndarray:
    """The SAMPLE art of one face (BGR, ``size`` = width, height), upright."""
    fam = Family.of(family)
    w, h = size
    rng = np.random.default_rng(_hash(family, card, face))
    own = (_hash(family, card) % 1000) / 1000.0
    kind = ("plant" if face in PLANT_FACES else "critter" if face in CRITTER_FACES
            else "glass")
    s = w / 100.0
    if kind == "glass":
        bg = _hsv(22 + 10 * own, 150, 245) if face == "sunlight" else _hsv(115 + 10 * own, 160, 70)
    elif kind == "critter":
        bg = _hsv(fam.hue + 90 + 60 * own, 110, 200 if face == "setup" else 150)
    else:
        sat, val = (70, 215) if face == "soil" else (140, 225)
        bg = _hsv(fam.hue + 140 * own, sat, val)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = fam.border
    bw = max(2, round(fam.border_width * w))
    inner = np.empty((h - 2 * bw, w - 2 * bw, 3), np.uint8)
    inner[:] = bg
    accent = tuple(int(c * 0.82) for c in bg)
    _pattern(inner, fam, accent, rng)
    img[bw:h - bw, bw:w - bw] = inner
    ink = (20, 20, 20) if np.mean(bg) > 110 else (235, 235, 235)
    thick = max(1, round(1.4 * s))
    title_y = int(h * (0.3 if fam.title_top else 0.56))
    if kind == "plant":
        plant = deck.plants[deck.plant_index(card)]
        band = int(h * 0.2)
        dirt = _hsv(15, 120, 110 if face == "soil" else 130)
        cv2.rectangle(img, (bw, bw), (w - bw - 1, bw + band), dirt, -1)
        cv2.rectangle(img, (bw, h - bw - band), (w - bw - 1, h - bw - 1), dirt, -1)
        r = int(7 * s)
        for icons, cy in ((plant.upper, bw + band // 2), (plant.lower, h - bw - band // 2)):
            for j, icon in enumerate(icons):
                cx = int(w / 2 + (j - (len(icons) - 1) / 2) * 2.6 * r)
                _icon(img, icon, (cx, cy), r, fam, face == "succulent")
        pic_y = int(h * (0.6 if fam.title_top else 0.38))
        if face == "succulent":
            _rosette(img, (w // 2, pic_y), int(22 * s), _hsv(fam.hue + 60 + 50 * own, 170, 170),
                     fam.leaves + int(own * 4), 90 * own, True)
        else:
            cv2.ellipse(img, (w // 2, pic_y + int(8 * s)), (int(24 * s), int(9 * s)), 0, 180, 360,
                        _hsv(12, 140, 90), -1, cv2.LINE_AA)
            _icon(img, "sprout", (w // 2, pic_y - int(2 * s)), int(8 * s), fam, False)
        cost = plant.cost if plant.cost != "any" else "box"
        for j in range(3):
            _icon(img, cost, (w - bw - int((8 + 11 * j) * s), pic_y - int(14 * s)), int(4 * s),
                  fam, True)
        _text(img, card, title_y, 0.5 * s, ink, fam.font, thick)
    elif kind == "critter":
        critter = deck.critter(card)
        side = critter.sides[0 if face == "setup" else 1]
        _text(img, card, int(h * 0.14), 0.55 * s, ink, fam.font, thick)
        y = int(h * 0.34)
        a, b = (int(w * 0.25), int(w * 0.75)) if side.arrow == "right" else (int(w * 0.75),
                                                                             int(w * 0.25))
        cv2.arrowedLine(img, (a, y), (b, y), ink, max(2, int(5 * s)), cv2.LINE_AA,
                        tipLength=0.35)
        gx0, gy0, cell = int(w * 0.12), int(h * 0.5), (w * 0.76) / 9
        marks = {(r, c) for r in range(3) for c in range(9)
                 if _hash(family, card, face, r, c) % 3 == 0}
        for r in range(3):
            for c in range(9):
                p0 = (int(gx0 + c * cell), int(gy0 + r * cell * 1.3))
                p1 = (int(gx0 + (c + 1) * cell) - 1, int(gy0 + (r + 1) * cell * 1.3) - 1)
                fill = (40, 40, 200) if (r, c) in marks else (235, 235, 235)
                cv2.rectangle(img, p0, p1, fill, -1)
                cv2.rectangle(img, p0, p1, (30, 30, 30), 1)
        cv2.circle(img, (int(gx0 + 4.5 * cell), int(gy0 + 1.95 * cell)), int(cell * 0.45),
                   (20, 20, 20), -1, cv2.LINE_AA)
    else:
        index = [g.name for g in deck.glass].index(card)
        centre = (w // 2, int(h * (0.62 if fam.title_top else 0.34)))
        if face == "sunlight":
            for k in range(12):
                a = np.radians(30 * k + 15 * own)
                p = (int(centre[0] + np.cos(a) * 30 * s), int(centre[1] + np.sin(a) * 30 * s))
                cv2.line(img, centre, p, (40, 200, 250), max(1, int(3 * s)), cv2.LINE_AA)
            cv2.circle(img, centre, int(16 * s), (60, 230, 255), -1, cv2.LINE_AA)
        else:
            cv2.circle(img, centre, int(16 * s), (210, 220, 230), -1, cv2.LINE_AA)
            cv2.circle(img, (centre[0] + int(7 * s), centre[1] - int(4 * s)), int(14 * s), bg, -1,
                       cv2.LINE_AA)
        _text(img, card, title_y, 0.5 * s, ink, fam.font, thick)
        _text(img, GLASS_POSITIONS[index], int(h * 0.88), 0.32 * s, ink,
              cv2.FONT_HERSHEY_SIMPLEX, max(1, thick - 1))
    label_y = int(h * (0.24 if kind == "critter" else 0.77))
    _text(img, "SAMPLE", label_y, 0.35 * s, (0, 0, 200), cv2.FONT_HERSHEY_SIMPLEX,
          max(1, thick - 1))
    return img


def draw_back(family: int, size: tuple[int, int] = (100, 140)) -> np.ndarray:
    """The common card back (a face-down card): a pattern and SAMPLE."""
    fam = Family.of(family)
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = fam.border
    bw = max(2, round(fam.border_width * w))
    inner = np.empty((h - 2 * bw, w - 2 * bw, 3), np.uint8)
    inner[:] = _hsv(fam.hue + 30, 120, 120)
    _pattern(inner, Family(fam.number, fam.hue, fam.border, fam.border_width, fam.title_top,
                           fam.font, 2, fam.leaves, fam.round_icons),
             _hsv(fam.hue + 60, 160, 190), np.random.default_rng(0))
    img[bw:h - bw, bw:w - bw] = inner
    _text(img, "SAMPLE", h // 2, 0.5 * w / 100, (240, 240, 240), cv2.FONT_HERSHEY_SIMPLEX, 1)
    return img
