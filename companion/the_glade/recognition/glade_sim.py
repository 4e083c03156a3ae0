"""The glade board and the stores on the simulated table: SAMPLE art, end-of-game counters
and photos with their truth, for the demo, the tests and the benchmark.

    art = FamilyArt(1003)
    pack, glade = sample_pack(art=art), sample_glade_pack(art)
    photo, truth = render_glade_photo(pack, glade, {"mouse/acorn/oak": "blue-double"},
                                      {1: ("yellow", 7), 2: ("blue", 0)}, seed=5)

The glade board is drawn in the art's own colours (so it varies with the art family): the 64
centre spaces each show their tile, small; each seat's 12 supply spaces are rings along its
edge; the border carries decorations and the words SAMPLE ART (what finds the board in a
photo). Photos are taken from any side of the table (the board turned any way) with a little
tilt, spoiled as :mod:`companion.vision.sim` spoils them, with hands, dice boxes and a rule
book at the photo's edge. Forest photos show the store too: loose counters (any side up,
turned any way, touching at most lightly) and match counters on the table left of the board
as its owner sees it. Everything here is SAMPLE art, not the publisher's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from companion.errors import ModelError
from companion.storage import read_data_file
from companion.the_glade.names import (
    ALL_TILES,
    CREATURES,
    FRUITS,
    Tile,
    match_counter_set,
)
from companion.the_glade.recognition.art import _SS, SampleArt, _blob, _fill, _poly, _shade
from companion.the_glade.recognition.glade_pack import GladeFace, GladePack, MatchFace
from companion.the_glade.recognition.pack import Pack
from companion.the_glade.recognition.sim import _paste, forest_scene, truth_of
from companion.vision.sim import (
    FRAME,
    Camera,
    Degradations,
    clutter,
    degrade,
    place,
    scene_to_photo,
    table,
)

#: The glade image's side (px), its centre spaces' pitch and a counter's diameter on it.
GLADE_SIDE = 1100
PITCH = 100
COUNTER = 56
#: How far out (share of the board's width) the store reaches, and where counters lie in it.
STORE_REACH = 0.8
STORE_FILL = 0.72


def glade_layout() -> tuple[dict[str, tuple[float, float]], dict[int, tuple]]:
    """The SAMPLE glade board's spaces: tiles in an 8 x 8 grid (the order of ALL_TILES), and
    four seats of 12 supply spaces, seat 1 at the bottom edge, then clockwise seen from above
    (left, top, right), each listed leftmost first as that player sees them."""
    lo = (GLADE_SIDE - 8 * PITCH) / 2
    spaces = {str(t): (lo + (i % 8 + 0.5) * PITCH, lo + (i // 8 + 0.5) * PITCH)
              for i, t in enumerate(ALL_TILES)}
    along = [lo + (k + 0.5) * 8 * PITCH / 12 for k in range(12)]
    edge, far = 75.0, GLADE_SIDE - 75.0
    seats = {1: tuple((x, far) for x in along),
             2: tuple((edge, y) for y in along),
             3: tuple((x, edge) for x in reversed(along)),
             4: tuple((far, y) for y in reversed(along))}
    return spaces, seats


def _rng(*key: object) -> np.random.Generator:
    import zlib

    return np.random.default_rng(zlib.crc32(repr(("glade", *key)).encode()))


def glade_image(art: SampleArt) -> np.ndarray:
    """The empty glade board in ``art``'s colours (BGR, GLADE_SIDE square)."""
    rng = _rng("board", art.style)
    n = GLADE_SIDE
    leaf = list(art.leaf_colours.values())
    base = np.asarray(_shade(leaf[int(rng.integers(4))], rng.uniform(0.55, 0.85)), np.float32)
    noise = rng.normal(0, 1, (n // 6 + 1, n // 6 + 1)).astype(np.float32)
    noise = cv2.resize(cv2.GaussianBlur(noise, (0, 0), 2), (n, n)) * rng.uniform(6, 16)
    img = np.clip(base + noise[..., None], 0, 255).astype(np.uint8)
    spaces, seats = glade_layout()
    keep = np.zeros((n, n), np.uint8)
    for x, y in spaces.values():
        cv2.rectangle(keep, (int(x - PITCH / 2), int(y - PITCH / 2)),
                      (int(x + PITCH / 2), int(y + PITCH / 2)), 255, -1)
    for row in seats.values():
        for x, y in row:
            cv2.circle(keep, (int(x), int(y)), COUNTER // 2 + 6, 255, -1)
    big = cv2.resize(img, (2 * n, 2 * n), interpolation=cv2.INTER_LINEAR)
    palette = [*leaf, art.edge, art.backgrounds["spring"], art.backgrounds["summer"],
               (30, 50, 60), (200, 210, 220)]
    for _ in range(int(n * n / 700)):
        x, y = rng.uniform(0, n), rng.uniform(0, n)
        if keep[int(y), int(x)]:
            continue
        size = rng.uniform(4, 13)
        colour = palette[int(rng.integers(len(palette)))]
        pts = _poly(_blob(rng, 24, 3, 0.5), 2 * x, 2 * y, 2 * size, rng.uniform(0, 6.3))
        _fill(big, pts, colour, _shade(colour, 0.5), 2)
    img = cv2.resize(big, (n, n), interpolation=cv2.INTER_AREA)
    side = int(PITCH * 0.86)
    for name, (x, y) in spaces.items():
        face = cv2.resize(art.tile(name, "spring"), (side, side), interpolation=cv2.INTER_AREA)
        x0, y0 = int(x - side / 2), int(y - side / 2)
        window = img[y0:y0 + side, x0:x0 + side].astype(np.float32)
        img[y0:y0 + side, x0:x0 + side] = (0.8 * face + 0.2 * window).astype(np.uint8)
    ring = _shade(art.edge, 0.6)
    for row in seats.values():
        for x, y in row:
            c = (int(x * 16), int(y * 16))
            cv2.circle(img, c, int(COUNTER / 2 * 16), art.backgrounds["summer"], -1,
                       cv2.LINE_AA, 4)
            cv2.circle(img, c, int(COUNTER / 2 * 16), ring, 3, cv2.LINE_AA, 4)
            cv2.ellipse(img, c, (int(COUNTER * 0.2 * 16), int(COUNTER * 0.14 * 16)), 0, 180,
                        360, _shade(ring, 1.3), -1, cv2.LINE_AA, 4)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, "SAMPLE ART", (140, 36), font, 1.1, (235, 240, 240), 2, cv2.LINE_AA)
    cv2.putText(img, f"the glade board - style {art.style}", (660, n - 14), font, 0.6,
                (225, 230, 235), 1, cv2.LINE_AA)
    return img


def match_image(art: SampleArt, kind: str, icon: str, value: int, px: int = 64) -> np.ndarray:
    """A SAMPLE match counter: a disc in the leaf's colour showing the icon as the tiles draw
    it (cut from a tile that carries it), with a dark ring for a creature (a broken one for
    a fruit) or ``value`` pips for a leaf."""
    parts = icon.split("/")
    if kind == "creature":
        tile, spot = Tile(parts[0], FRUITS[0], parts[1]), "creature"
    elif kind == "fruit":
        tile, spot = Tile(CREATURES[0], parts[0], parts[1]), "fruit"
    else:
        tile, spot = Tile(CREATURES[0], FRUITS[0], parts[0]), "leaf"
    face = art.tile(tile, "summer")
    t = face.shape[0]
    x, y, s = art.layout[spot]
    half = max(s * 0.95, 0.08) * t
    crop = cv2.getRectSubPix(face, (int(2 * half), int(2 * half)), (x * t, y * t))
    n = px * _SS
    c = n // 2
    leaf = art.leaf_colours[tile.leaf]
    img = np.empty((n, n, 3), np.uint8)
    img[:] = _shade(leaf, 0.6)
    cv2.circle(img, (c * 16, c * 16), int(n * 0.48 * 16), leaf, -1, cv2.LINE_AA, 4)
    inner = int(n * 0.56)
    icon = cv2.resize(crop, (inner, inner), interpolation=cv2.INTER_CUBIC)
    mask = np.zeros((inner, inner), np.uint8)
    cv2.circle(mask, (inner // 2, inner // 2), inner // 2, 255, -1)
    y0 = c - inner // 2 + (int(n * 0.06) if kind == "leaf" else 0)
    window = img[y0:y0 + inner, c - inner // 2:c - inner // 2 + inner]
    window[mask > 0] = icon[mask > 0]
    ink = (40, 40, 40)
    if kind == "leaf":  # its value as pips along the top of the rim
        cv2.ellipse(img, (c * 16, c * 16), (int(n * 0.4 * 16), int(n * 0.4 * 16)), 0, 200,
                    340, ink, int(n * 0.16), cv2.LINE_AA, 4)
        for k in range(value):
            a = np.radians(270 + (k - (value - 1) / 2) * 30)
            cv2.circle(img, (int((c + np.cos(a) * n * 0.4) * 16),
                             int((c + np.sin(a) * n * 0.4) * 16)),
                       int(n * 0.06 * 16), (245, 245, 245), -1, cv2.LINE_AA, 4)
    else:  # a creature or fruit ring: a dark band, broken at the top for a fruit
        start = 300 if kind == "fruit" else 0
        cv2.ellipse(img, (c * 16, c * 16), (int(n * 0.4 * 16), int(n * 0.4 * 16)), 0, start,
                    start + (300 if kind == "fruit" else 360), ink, max(3, n // 25),
                    cv2.LINE_AA, 4)
    return cv2.resize(img, (px, px), interpolation=cv2.INTER_AREA)


def sample_glade_pack(art: SampleArt, matches: bool = True) -> GladePack:
    """The glade board and (with ``matches``) the 48 match counters in ``art``."""
    spaces, seats = glade_layout()
    face = GladeFace(glade_image(art), "glade.jpg", float(COUNTER), spaces, seats)
    faces = tuple(MatchFace(match_image(art, k, i, v), f"match/{k}-{i.replace('/', '-')}-{v}"
                            ".png", k, i, v) for k, i, v in match_counter_set()) if matches else ()
    return GladePack(face, faces)


def write_glade_pack(glade: GladePack, folder: Path) -> Path:
    """Add ``glade`` to the pack in ``folder``: its images, and its sections in pack.yaml
    (keeping what is there)."""
    folder = Path(folder)
    spec = folder / "pack.yaml"
    data = read_data_file(spec, "enrolment pack file", error=ModelError) \
        if spec.is_file() else {}
    data = data or {"game": "the-glade"}
    if glade.glade is not None:
        g = glade.glade
        _write(folder / g.file, g.image)
        data["glade"] = {
            "image": g.file, "counter": g.counter,
            "spaces": {t: [round(x, 1), round(y, 1)] for t, (x, y) in g.spaces.items()},
            "seats": {n: [[round(x, 1), round(y, 1)] for x, y in row]
                      for n, row in g.seats.items()}}
    if glade.match_counters:
        for m in glade.match_counters:
            _write(folder / m.file, m.image)
        data["match_counters"] = [{"image": m.file, "kind": m.kind, "icon": m.icon,
                                   "value": m.value} for m in glade.match_counters]
    spec.write_text(yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100),
                    encoding="utf-8")
    return folder


def _write(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    jpeg = path.suffix.lower() in (".jpg", ".jpeg")
    ok, buf = cv2.imencode(".jpg" if jpeg else ".png", image,
                           [cv2.IMWRITE_JPEG_QUALITY, 92] if jpeg
                           else [cv2.IMWRITE_PNG_COMPRESSION, 9])
    if not ok:
        raise ValueError(f"could not encode {path.name}")
    path.write_bytes(buf.tobytes())


# -- end-of-game glades ------------------------------------------------------------------

def glade_of_state(state: Mapping[str, Any]) -> tuple[dict[str, str], dict[int, tuple]]:
    """The glade's counters and each seat's (colour, supply) of a state file."""
    supply = {i + 1: (p["colour"], int(p["supply"])) for i, p in enumerate(state["players"])}
    return dict(state.get("glade") or {}), supply


def random_glade(rng: np.random.Generator, colours: Sequence[str]) -> tuple[dict[str, str],
                                                                          dict[int, tuple]]:
    """A random end-of-game glade for players of ``colours`` (not necessarily legal)."""
    names = [str(t) for t in ALL_TILES]
    glade = {}
    for name in rng.choice(names, size=int(rng.integers(4, 30)), replace=False):
        colour = colours[int(rng.integers(len(colours)))]
        glade[str(name)] = f"{colour}-{('single', 'double')[int(rng.integers(2))]}"
    supply = {i + 1: (c, int(rng.integers(0, 13))) for i, c in enumerate(colours)}
    return glade, supply


def _counter_sprite(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = image.shape[0]
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(mask, (n * 8, n * 8), (n // 2 - 1) * 16, 255, -1, cv2.LINE_AA, 4)
    return image, mask


def _lay(scene: np.ndarray, image: np.ndarray, centre: tuple[float, float], diameter: float,
         angle: float, rim: float = 65.0) -> None:
    sprite, mask = _counter_sprite(image)
    n = sprite.shape[0]
    m = cv2.getRotationMatrix2D((n / 2, n / 2), angle, diameter / n)
    m[:, 2] += (centre[0] - n / 2, centre[1] - n / 2)
    _paste(scene, sprite, mask, m, rim=rim)


def glade_scene(pack: Pack, glade: GladePack, counters: Mapping[str, str],
                supply: Mapping[int, tuple], rng: np.random.Generator,
                offset: float = 0.1) -> np.ndarray:
    """The glade board seen from above with ``counters`` (tile -> counter) on its centre
    spaces and each seat's supply (seat -> (colour, count)) on the rightmost of its supply
    spaces as that player sees them (the leftmost are taken first), single side up."""
    face = glade.glade
    assert face is not None
    scene = face.image.copy()
    d = face.counter
    for tile, counter in counters.items():
        x, y = face.spaces[tile]
        jitter = rng.uniform(-offset, offset, 2) * d
        _lay(scene, pack.counter_image(counter), (x + jitter[0], y + jitter[1]), d,
             float(rng.uniform(0, 360)))
    for seat, (colour, count) in supply.items():
        row = face.seats[seat]
        for x, y in row[len(row) - count:]:
            jitter = rng.uniform(-offset, offset, 2) * d
            _lay(scene, pack.counter_image(f"{colour}-single"), (x + jitter[0], y + jitter[1]),
                 d, float(rng.uniform(0, 360)))
    return scene


def glade_truth(face: GladeFace, counters: Mapping[str, str],
                supply: Mapping[int, tuple]) -> dict[str, Any]:
    """The spec's glade reading a perfect scan gives."""
    counts = {str(n): 0 for n in face.seats}
    counts.update({str(n): int(c) for n, (_, c) in supply.items()})
    return {"glade": dict(sorted(counters.items())), "supply": counts, "uncertain": []}


def edge_things(photo: np.ndarray, rng: np.random.Generator, keep_clear: np.ndarray,
                count: int = 3) -> None:
    """Hands, a dice box and a rule book at the photo's edge, kept off ``keep_clear`` (a
    polygon in photo pixels: where the spaces are)."""
    fh, fw = photo.shape[:2]
    clear = np.zeros((fh, fw), np.uint8)
    cv2.fillPoly(clear, [keep_clear.astype(np.int32)], 255)
    for _ in range(count * 4):
        if count <= 0:
            break
        layer = np.zeros_like(photo)
        mask = np.zeros((fh, fw), np.uint8)
        kind = int(rng.integers(3))
        side = int(rng.integers(4))
        t = rng.uniform(0.1, 0.9)
        at = {0: (t * fw, 0), 1: (fw, t * fh), 2: (t * fw, fh), 3: (0, t * fh)}[side]
        inward = {0: (0, 1), 1: (-1, 0), 2: (0, -1), 3: (1, 0)}[side]
        angle = math.degrees(math.atan2(inward[1], inward[0])) + rng.uniform(-25, 25)
        if kind == 0:  # a hand reaching in: palm and fingers
            skin = tuple(int(v) for v in rng.choice([(120, 160, 220), (90, 130, 190),
                                                     (60, 90, 140), (150, 185, 235)]))
            length = rng.uniform(160, 300)
            a = math.radians(angle)
            tip = (at[0] + math.cos(a) * length, at[1] + math.sin(a) * length)
            cv2.line(layer, (int(at[0]), int(at[1])), (int(tip[0]), int(tip[1])), skin, 90)
            cv2.line(mask, (int(at[0]), int(at[1])), (int(tip[0]), int(tip[1])), 255, 90)
            for k in range(4):
                spread = math.radians(angle + (k - 1.5) * 12)
                f0 = tip
                f1 = (f0[0] + math.cos(spread) * 70, f0[1] + math.sin(spread) * 70)
                cv2.line(layer, (int(f0[0]), int(f0[1])), (int(f1[0]), int(f1[1])), skin, 20)
                cv2.line(mask, (int(f0[0]), int(f0[1])), (int(f1[0]), int(f1[1])), 255, 20)
        else:  # a dice box or a rule book lying at the edge
            w, h = (rng.uniform(120, 200), rng.uniform(90, 150)) if kind == 1 else (
                rng.uniform(300, 420), rng.uniform(220, 300))
            centre = (at[0] + inward[0] * h * 0.3, at[1] + inward[1] * h * 0.3)
            box = cv2.boxPoints((centre, (w, h), rng.uniform(0, 180))).astype(np.int32)
            colour = (tuple(int(v) for v in rng.integers(40, 200, 3)) if kind == 1
                      else (225, 232, 236))
            cv2.fillPoly(layer, [box], colour, cv2.LINE_AA)
            cv2.fillPoly(mask, [box], 255, cv2.LINE_AA)
            if kind == 2:  # lines of text
                for k in range(12):
                    y = centre[1] - h * 0.4 + k * h * 0.07
                    cv2.line(layer, (int(centre[0] - w * 0.4), int(y)),
                             (int(centre[0] + w * rng.uniform(0.0, 0.4)), int(y)), (40, 40, 40),
                             3)
                layer[mask == 0] = 0
            else:  # dice on the box's lid
                for _ in range(3):
                    p = (int(centre[0] + rng.uniform(-w, w) * 0.3),
                         int(centre[1] + rng.uniform(-h, h) * 0.3))
                    cv2.circle(layer, p, 8, (250, 250, 250), -1, cv2.LINE_AA)
        if np.any((cv2.dilate(mask, np.ones((9, 9), np.uint8)) > 0) & (clear > 0)):
            continue
        shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), 8), (8, 8), axis=(0, 1))
        alpha = mask.astype(np.float32)[..., None] / 255
        base = photo.astype(np.float32) * (1 - 0.4 * shadow.astype(np.float32)[..., None] / 255)
        photo[:] = np.clip(base * (1 - alpha) + layer * alpha, 0, 255).astype(np.uint8)
        count -= 1


def _spaces_hull(face: GladeFace, homography: np.ndarray) -> np.ndarray:
    pts = np.array([p for _, p in face.labelled_spaces()], np.float32)
    hull = cv2.convexHull(pts).reshape(-1, 2)
    centre = hull.mean(axis=0)
    grown = centre + (hull - centre) * (1 + face.counter / np.ptp(pts[:, 0]))
    return cv2.perspectiveTransform(grown[None].astype(np.float32), homography)[0]


def render_glade_photo(pack: Pack, glade: GladePack, counters: Mapping[str, str],
                       supply: Mapping[int, tuple], seed: int, *,
                       spoil: Degradations | None = None, camera: Camera | None = None,
                       frame: tuple[int, int] = FRAME, hide: Sequence[str] = ()
                       ) -> tuple[np.ndarray, dict[str, Any]]:
    """A photo of the glade board (turned any way: players photograph it from their seat)
    with ``counters`` and ``supply`` on it, and the spec reading a perfect scan gives (plus
    ``homography``, glade image to photo). ``hide`` names spaces (tile or ``seat-N:K``) a
    hand covers: their truth is ``uncertain``."""
    rng = np.random.default_rng(seed)
    spoil = Degradations() if spoil is None else spoil
    face = glade.glade
    assert face is not None
    scene = glade_scene(pack, glade, counters, supply, rng)
    camera = camera or Camera.random(rng, coverage=(0.62, 0.95), turn=180.0, tilt=8.0)
    h, w = scene.shape[:2]
    homography = scene_to_photo((w, h), camera, frame)
    photo = table(rng, frame)
    outline = cv2.perspectiveTransform(
        np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32), homography)[0]
    if spoil.clutter:
        sprites = [pack.tiles[int(i)].image for i in rng.integers(len(pack.tiles), size=4)]
        clutter(photo, rng, sprites, keep_clear=outline, count=int(rng.integers(3, 9)))
    place(photo, scene, homography)
    if spoil.clutter:
        edge_things(photo, rng, _spaces_hull(face, homography), int(rng.integers(1, 4)))
    truth = glade_truth(face, counters, supply)
    if hide:
        where = dict(face.labelled_spaces())
        for label in hide:
            x, y = where[label]
            p = cv2.perspectiveTransform(np.array([[[x, y]]], np.float32), homography)[0, 0]
            scale = math.sqrt(abs(np.linalg.det(homography[:2, :2])))
            cv2.circle(photo, (int(p[0]), int(p[1])), int(face.counter * scale * 0.9),
                       (110, 150, 210), -1, cv2.LINE_AA)
            truth["glade"].pop(label, None)
            truth["uncertain"].append(label)
    photo = degrade(photo, rng, spoil)
    truth["homography"] = homography.tolist()
    return photo, truth


# -- stores --------------------------------------------------------------------------------

def random_store(rng: np.random.Generator, colours: Sequence[str], glade: GladePack,
                 most: int = 9, matches: int = 0) -> tuple[list[str], list[dict[str, Any]]]:
    """A random store: up to ``most`` counters of ``colours`` either side up, and
    ``matches`` match counters of the pack."""
    store = [f"{colours[int(rng.integers(len(colours)))]}-"
             f"{('single', 'double')[int(rng.integers(2))]}"
             for _ in range(int(rng.integers(0, most + 1)))]
    faces = list(glade.match_counters)
    picked = [faces[int(i)].to_dict() for i in rng.choice(len(faces), size=min(matches,
                                                                                len(faces)),
                                                          replace=False)] if faces else []
    return store, picked


def store_spots(rng: np.random.Generator, count: int, area: tuple[float, float],
                diameter: float) -> list[tuple[float, float]]:
    """Centres for ``count`` loose counters in an area (w, h): none overlapping, some
    touching lightly (kept at least a diameter apart)."""
    w, h = area
    spots: list[tuple[float, float]] = []
    for _ in range(count):
        for _attempt in range(400):
            if spots and rng.random() < 0.35:  # beside another, touching it lightly
                x0, y0 = spots[int(rng.integers(len(spots)))]
                a = rng.uniform(0, 2 * math.pi)
                r = diameter * rng.uniform(1.0, 1.04)
                x, y = x0 + math.cos(a) * r, y0 + math.sin(a) * r
            else:
                x, y = rng.uniform(0.6 * diameter, w - 0.6 * diameter), rng.uniform(
                    0.6 * diameter, h - 0.6 * diameter)
            if not (0.6 * diameter <= x <= w - 0.6 * diameter
                    and 0.6 * diameter <= y <= h - 0.6 * diameter):
                continue
            if all(math.hypot(x - u, y - v) >= diameter * 0.999 for u, v in spots):
                spots.append((x, y))
                break
        else:
            raise ValueError(f"no room for {count} counters in the store")
    return spots


def render_forest_photo(pack: Pack, glade: GladePack, state: dict[str, Any],
                        store: Sequence[str], store_matches: Sequence[Mapping[str, Any]],
                        seed: int, *, spoil: Degradations | None = None,
                        camera: Camera | None = None, frame: tuple[int, int] = FRAME
                        ) -> tuple[np.ndarray, dict[str, Any]]:
    """A photo of a forest board (``state`` as :func:`sim.render_photo` takes it) with its
    store on the table to its left (as its owner sees it), and the truth: the forest scan's
    plus ``store`` and ``store_match_counters``, and ``store_at``: each store thing and where
    it lies (board-image px), for benchmarks that say which one was missed."""
    rng = np.random.default_rng(seed)
    spoil = Degradations() if spoil is None else spoil
    state, board, scene = forest_scene(pack, state, rng)
    h, w = scene.shape[:2]
    reach = int(w * STORE_REACH)
    d = pack.counter_size * board.grid.cell
    items = [("counter", c) for c in store] + [("match", m) for m in store_matches]
    order = rng.permutation(len(items))
    spots = store_spots(rng, len(items), (w * STORE_FILL, h), d)
    layer = np.zeros((h, reach, 3), np.uint8)
    alpha = np.zeros((h, reach), np.uint8)
    by_name = {m.name: m for m in glade.match_counters}
    laid: list[dict[str, Any]] = []
    for k, (x, y) in zip(order, spots, strict=True):
        kind, item = items[int(k)]
        if kind == "counter":
            image = pack.counter_image(str(item))
        else:
            image = by_name[f"{item['kind']}:{item['icon']}:{item['value']}"].image
        sprite, mask = _counter_sprite(image)
        n = sprite.shape[0]
        m = cv2.getRotationMatrix2D((n / 2, n / 2), float(rng.uniform(0, 360)), d / n)
        cx = reach - w * STORE_FILL + x - 0.03 * w
        m[:, 2] += (cx - n / 2, y - n / 2)
        laid.append({"thing": item if kind == "counter" else dict(item),
                     "at": [round(cx - reach, 1), round(y, 1)]})
        _paste(layer, sprite, mask, m, rim=60.0, shadow=0.0)
        alpha = np.maximum(alpha, cv2.warpAffine(mask, m, (reach, h)))
    camera = camera or Camera.random(rng, coverage=(1.0, 1.22), turn=15.0, tilt=8.0)
    whole = scene_to_photo((w + reach, h), camera, frame)
    to_board = whole @ np.array([[1.0, 0, reach], [0, 1, 0], [0, 0, 1]])
    photo = table(rng, frame)
    outline = cv2.perspectiveTransform(np.array(
        [[[0, 0], [w + reach, 0], [w + reach, h], [0, h]]], np.float32), whole)[0]
    if spoil.clutter:
        sprites = [pack.tiles[int(i)].image for i in rng.integers(len(pack.tiles), size=4)]
        clutter(photo, rng, sprites, keep_clear=outline, count=int(rng.integers(3, 9)))
    place(photo, scene, to_board)
    fh, fw = photo.shape[:2]
    warped = cv2.warpPerspective(layer, whole, (fw, fh), flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, whole, (fw, fh), flags=cv2.INTER_LINEAR)
    soft = np.roll(cv2.GaussianBlur(a, (0, 0), 3), (3, 4), axis=(0, 1)).astype(np.float32)
    af = a.astype(np.float32)[..., None] / 255
    base = photo.astype(np.float32) * (1 - 0.35 * soft[..., None] / 255)
    photo = np.clip(base * (1 - af) + warped * af, 0, 255).astype(np.uint8)
    if spoil.clutter:
        edge_things(photo, rng, outline, int(rng.integers(0, 3)))
    photo = degrade(photo, rng, spoil)
    truth = truth_of(state)
    truth["store"] = sorted(store)
    truth["store_match_counters"] = sorted((dict(m) for m in store_matches),
                                           key=lambda m: (m["kind"], m["icon"], m["value"]))
    truth["store_uncertain"] = 0
    truth["store_at"] = laid  # where each store thing lies, board-image px
    truth["homography"] = to_board.tolist()
    return photo, truth
