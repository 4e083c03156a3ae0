"""A table simulator for Glass Garden: photos of a garden laid by hand, with what they show.

Cards are drawn in a SAMPLE art family (:mod:`.art`), laid as a player lays them (a few mm off
their row and column, turned a degree or two, gaps differing from game to game, sometimes
touching), with the critters set aside, a face-down card and a phone beside the garden; the
table is photographed by a tilted, turned camera (:mod:`companion.vision.sim`) and the photo
spoilt (uneven light, shadow, glare, blur, noise, JPEG). A *hard* photo adds strong glare over
one card and makes the photo dim or soft. Every photo comes with its truth: the state file it
should read as, and which card the strong glare washed out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.glass_garden.deck import GLASS_POSITIONS, ROWS, Deck
from companion.glass_garden.recognition.art import draw_back, draw_face
from companion.vision.sim import FRAME, Camera, Degradations, clutter, degrade, scene_to_photo
from companion.vision.sim import table as table_top

#: Scene pixels per mm.
PX_MM = 2.5


@dataclass
class Shot:
    """One simulated photo and what it shows."""

    photo: np.ndarray
    truth: dict[str, Any]          # the state file (with deck 'sample')
    washed: str | None = None      # the slot under the strong glare: "3" or "left-top"
    corners: dict[str, np.ndarray] = field(default_factory=dict)  # slot -> card quad (photo)


def random_truth(deck: Deck, rng: np.random.Generator) -> dict[str, Any]:
    """A garden as it may lie at the start of some turn (any rows and sides)."""
    col = int(rng.integers(9))
    plants = [p.name for p in deck.plants]
    rng.shuffle(plants)
    garden: list[Any] = []
    it = iter(plants)
    for c in range(9):
        if c == col:
            garden.append("critter")
        else:
            garden.append({"plant": next(it), "row": ROWS[int(rng.integers(3))],
                           "side": "succulent" if rng.random() < 0.4 else "soil"})
    return {"game": "glass-garden", "deck": "sample",
            "critter": deck.critters[int(rng.integers(len(deck.critters)))].name,
            "turn": col + 1, "critter_side": "setup" if rng.random() < 0.5 else "other",
            "garden": garden,
            "glass": {pos: "sunlight" if rng.random() < 0.3 else "dark"
                      for pos in GLASS_POSITIONS}}


def _paste(scene: np.ndarray, alpha: np.ndarray, face: np.ndarray, centre: tuple[float, float],
           angle: float) -> np.ndarray:
    """Draw ``face`` into the scene centred at ``centre`` (px) turned ``angle`` degrees;
    returns the card's corners in scene px."""
    h, w = face.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (centre[0] - w / 2, centre[1] - h / 2)
    sh, sw = scene.shape[:2]
    warped = cv2.warpAffine(face, m, (sw, sh), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (sw, sh), flags=cv2.INTER_LINEAR)
    a = mask.astype(np.float32)[..., None] / 255
    scene[:] = (scene * (1 - a) + warped * a).astype(np.uint8)
    np.maximum(alpha, mask, out=alpha)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    return corners @ m[:, :2].T + m[:, 2]


def photo(deck: Deck, family: int, rng: np.random.Generator, *, hard: bool = False,
          truth: dict[str, Any] | None = None, card_mm: tuple[float, float] = (63, 88),
          distractors: bool = True, size: tuple[int, int] = FRAME) -> Shot:
    """A photo of a random garden (or ``truth``) in art ``family``."""
    truth = truth or random_truth(deck, rng)
    cw, ch = card_mm[0] * PX_MM, card_mm[1] * PX_MM
    gx = rng.uniform(0.0, 9.0) * PX_MM   # the player's gaps
    gy = rng.uniform(0.0, 9.0) * PX_MM
    if rng.random() < 0.2:
        gx = rng.uniform(0.0, 1.0) * PX_MM  # cards laid touching
    margin = 150 * PX_MM
    gw, gh = 11 * cw + 10 * gx, 3 * ch + 2 * gy
    sw, sh = int(gw + 2 * margin), int(gh + 2 * margin)
    scene = np.zeros((sh, sw, 3), np.uint8)
    alpha = np.zeros((sh, sw), np.uint8)
    size_px = (round(cw), round(ch))
    jitter = 2.5 * PX_MM
    corners: dict[str, np.ndarray] = {}

    def lay(slot: str, col: int, row: float, card: str, face: str) -> None:
        x = margin + col * (cw + gx) + cw / 2 + rng.uniform(-jitter, jitter)
        y = margin + row * (ch + gy) + ch / 2 + rng.uniform(-jitter, jitter)
        if col in (0, 10):  # glass stays in place, but was laid by hand too
            x = margin + col * (cw + gx) + cw / 2 + rng.uniform(-jitter, jitter) * 0.6
        image = draw_face(deck, card, face, family, size_px)
        corners[slot] = _paste(scene, alpha, image, (x, y), float(rng.uniform(-2.0, 2.0)))

    glass = truth.get("glass") or {}
    for i, pos in enumerate(GLASS_POSITIONS):
        col = 0 if i < 3 else 10
        lay(pos, col, i % 3, deck.glass[i].name, glass.get(pos, "dark"))
    critter = truth["critter"]
    for c, entry in enumerate(truth["garden"]):
        if entry == "critter":
            lay(str(c + 1), c + 1, 1, critter, truth.get("critter_side") or "setup")
        else:
            lay(str(c + 1), c + 1, ROWS.index(entry["row"]), entry["plant"], entry["side"])
    if distractors:
        _beside(scene, alpha, deck, family, critter, rng, margin, gw, gh, size_px)
    # the camera: the garden's width fills most of the frame
    cam = Camera(float(rng.uniform(1.0, 1.22)) * size[0] / size[1] * gw / max(gw, gh) * 0.98,
                 float(rng.uniform(-8, 8)), float(rng.uniform(-7, 7)), float(rng.uniform(-7, 7)),
                 (float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))))
    garden_h = scene_to_photo((int(gw), int(gh)), cam, size)
    shift = np.array([[1, 0, -margin], [0, 1, -margin], [0, 0, 1]], float)
    hom = garden_h @ shift
    img = table_top(rng, size)
    fw, fh = size
    warped = cv2.warpPerspective(scene, hom, (fw, fh), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(alpha, hom, (fw, fh), flags=cv2.INTER_LINEAR)
    soft = cv2.GaussianBlur(mask, (0, 0), 3)
    soft = np.roll(soft, (3, 4), axis=(0, 1)).astype(np.float32) / 255 * 0.3
    a = mask.astype(np.float32)[..., None] / 255
    base = img.astype(np.float32) * (1 - soft[..., None])
    img = np.clip(base * (1 - a) + warped.astype(np.float32) * a, 0, 255).astype(np.uint8)
    outline = cv2.perspectiveTransform(np.float32([[[margin - 75, margin - 75]],
                                                   [[margin + gw + 75, margin - 75]],
                                                   [[margin + gw + 75, margin + gh + 75]],
                                                   [[margin - 75, margin + gh + 75]]]), hom)
    clutter(img, rng, [], keep_clear=outline.reshape(4, 2), count=3)
    photo_corners = {k: cv2.perspectiveTransform(v.reshape(-1, 1, 2).astype(np.float64),
                                                 hom).reshape(4, 2)
                     for k, v in corners.items()}
    washed = None
    glare: list[tuple[float, float, float]] = []
    spoil = Degradations(clutter=False, strength=float(rng.uniform(0.6, 1.0)))
    if hard:
        washed = list(photo_corners)[int(rng.integers(len(photo_corners)))]
        quad = photo_corners[washed]
        cx, cy = quad.mean(axis=0)
        glare.append((float(cx), float(cy), float(np.linalg.norm(quad[1] - quad[0]) * 1.1)))
        kind = rng.integers(2)
        if kind == 0:  # dim
            img = (img.astype(np.float32) * rng.uniform(0.4, 0.6)).astype(np.uint8)
            spoil = Degradations(clutter=False, strength=1.0)
        else:  # soft
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.5, 2.2))
            spoil = Degradations(clutter=False, strength=1.0)
    out = degrade(img, rng, spoil, glare_at=glare or None)
    return Shot(out, truth, washed, photo_corners)


def _beside(scene, alpha, deck: Deck, family: int, critter: str, rng, margin: float,
            gw: float, gh: float, size_px: tuple[int, int]) -> None:
    """The critters set aside, a face-down card and a phone, beside the garden (at least
    3 cm from it)."""
    gap = 30 * PX_MM
    w, h = size_px
    others = [c.name for c in deck.critters if c.name != critter]
    things = [np.full((int(150 * PX_MM), int(72 * PX_MM), 3), 25, np.uint8),
              draw_back(family, size_px)]
    cv2.rectangle(things[0], (8, 20), (things[0].shape[1] - 9, things[0].shape[0] - 21),
                  tuple(int(v) for v in rng.integers(40, 200, 3)), -1)
    things += [draw_face(deck, name, "setup", family, size_px) for name in others[:2]]
    placed: list[tuple[float, float, float]] = []
    for thing in things:
        reach = math.hypot(*thing.shape[:2]) / 2  # turned any way, it stays this close
        for _ in range(10):
            if rng.random() < 0.5:  # above or below
                y = (margin - gap - reach - rng.uniform(0, 30 * PX_MM) if rng.random() < 0.5
                     else margin + gh + gap + reach + rng.uniform(0, 30 * PX_MM))
                x = rng.uniform(margin, margin + gw)
            else:
                x = (margin - gap - reach - rng.uniform(0, 30 * PX_MM) if rng.random() < 0.5
                     else margin + gw + gap + reach + rng.uniform(0, 30 * PX_MM))
                y = rng.uniform(margin, margin + gh)
            if all(math.hypot(x - a, y - b) > reach + r for a, b, r in placed):
                placed.append((x, y, reach))
                _paste(scene, alpha, thing, (x, y), float(rng.uniform(-30, 30)))
                break
    del w, h
