"""What enrolment learns for the glade board and the stores, kept in the model folder in its
own files (``glade.json`` and ``glade.npz``) beside the forest model's.

Counters lie at any angle on the glade board and in a store, so every counter face (the
pack's toadstool counters and its match counters) is kept at TURNS angles as *disc
vectors*: a round patch, smoothed a little against blur, divided by its own mean brightness
(so shade does not matter, colour does). Photos are first freed of their light's colour
cast, measured on the board itself against the enrolled image, so a face's colours compare
directly with the pack's. The glade board itself is learnt as a forest board is: its printed
features (to find it at any turn) and its image at the working scale (a bare space's look).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.errors import ModelError
from companion.storage import read_data_file
from companion.the_glade.recognition.glade_pack import GladePack, MatchFace
from companion.the_glade.recognition.glade_polar import SMOOTH as POLAR_SMOOTH
from companion.the_glade.recognition.glade_polar import PolarFaces
from companion.the_glade.recognition.glade_rings import RingFaces
from companion.the_glade.recognition.pack import Pack
from companion.vision.board import BoardFinder
from companion.vision.patches import cut

FORMAT = "the-glade-glade"
VERSION = 2
#: A counter's diameter in working pixels, the disc patch's side, the share of the
#: diameter it covers, the angles kept per face and the smoothing (working px).
WORK_COUNTER = 28
PATCH = 20
INSET = 0.9
TURNS = 24
SMOOTH = 1.0
#: The least spread (grey levels) a disc vector is divided by.
FLOOR = 12.0
#: Each counter face is kept as an image too, at twice the working scale (a store's
#: counters are named from the photo at that scale, see :mod:`glade_polar`).
FACE_PX = 2 * WORK_COUNTER
_PARAMS = {"work_counter": WORK_COUNTER, "patch": PATCH, "turns": TURNS, "inset": INSET,
           "face_px": FACE_PX}


def disc(size: int = PATCH) -> np.ndarray:
    """The disc's pixels in a patch (size*size booleans)."""
    yy, xx = np.mgrid[0:size, 0:size] + 0.5 - size / 2
    return (xx ** 2 + yy ** 2 <= (size / 2) ** 2).ravel()


_DISC = disc()


def disc_vectors(patches: np.ndarray) -> np.ndarray:
    """(n, PATCH, PATCH, 3) patches (light already divided out, 0..255) as disc vectors: the
    disc's pixels less their mean, over their spread. Shade scales a patch and glare adds
    even white light to it; neither changes this, while colours (one channel against
    another) and the toadstools' drawing do. FLOOR keeps a plain patch's noise small."""
    n = len(patches)
    flat = np.ascontiguousarray(patches.reshape(n, -1, 3)[:, _DISC], np.float32).reshape(n, -1)
    m = flat.shape[1]
    mean = flat.sum(axis=1) / m
    power = np.einsum("ij,ij->i", flat, flat) / m - mean * mean
    spread = np.sqrt(np.maximum(power, 0.0))
    return (flat - mean[:, None]) / np.maximum(spread, FLOOR)[:, None]


def sq_distances(vecs: np.ndarray, templates: np.ndarray, norms: np.ndarray | None = None
                 ) -> np.ndarray:
    """Mean squared difference of every vector to every template (rows)."""
    if not len(vecs) or not len(templates):
        return np.zeros((len(vecs), len(templates)), np.float32)
    a = np.einsum("ij,ij->i", vecs, vecs)[:, None]
    b = (np.einsum("ij,ij->i", templates, templates) if norms is None else norms)[None, :]
    return np.maximum(a + b - 2.0 * (vecs @ templates.T), 0) / vecs.shape[1]


def face_vectors(image: np.ndarray) -> np.ndarray:
    """A counter face (BGR, the disc inscribed in the image) at TURNS angles."""
    side = WORK_COUNTER * 2
    big = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
    small = cv2.resize(big, (WORK_COUNTER, WORK_COUNTER), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), SMOOTH)
    c = (WORK_COUNTER / 2, WORK_COUNTER / 2)
    patches = np.stack([cut(small, c, 360.0 * k / TURNS, WORK_COUNTER * INSET, PATCH)
                        for k in range(TURNS)])
    return disc_vectors(patches)


def face_image(image: np.ndarray) -> np.ndarray:
    """A counter face (BGR, the disc inscribed in the image) at FACE_PX."""
    return cv2.resize(image, (FACE_PX, FACE_PX), interpolation=cv2.INTER_AREA)


@dataclass
class GladeModel:
    """Everything a glade or store scan needs beyond the forest model."""

    face_names: list[str]           # per face: a counter name, or a match counter's name
    face_matches: list[dict | None]  # per face: the match counter (None for a toadstool one)
    templates: np.ndarray           # (faces * TURNS, PATCH*PATCH*3) float32, face-major
    faces: np.ndarray = field(default_factory=lambda: np.zeros((0, FACE_PX, FACE_PX, 3),
                                                               np.uint8))  # upright, BGR
    finder: BoardFinder | None = None
    working: np.ndarray | None = None   # the empty glade board at the working scale (BGR)
    scale: float = 1.0                  # working px per glade-image px
    labels: list[str] = field(default_factory=list)   # spaces: tiles, then seat-N:K
    points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))  # glade-image px
    seats: list[int] = field(default_factory=list)
    counter: float = 0.0                # a counter's diameter, glade-image px
    size: tuple[int, int] = (0, 0)      # the glade image (w, h)

    @property
    def has_glade(self) -> bool:
        return self.finder is not None

    @property
    def has_matches(self) -> bool:
        return any(m is not None for m in self.face_matches)

    @cached_property
    def polar(self) -> PolarFaces:
        """The faces ready to be matched at any angle (made once per loaded model)."""
        return PolarFaces(self.faces)

    @cached_property
    def rings(self) -> RingFaces:
        """The faces' ring means, to find where a face fits anywhere in a store view at half
        the working scale (:mod:`glade_rings`; made once per loaded model)."""
        return RingFaces(self.faces, WORK_COUNTER / 2, POLAR_SMOOTH)

    @property
    def face_of(self) -> np.ndarray:
        """The face number of each template."""
        return np.repeat(np.arange(len(self.face_names)), TURNS)


def build_glade_model(pack: Pack, glade: GladePack) -> GladeModel:
    """Learn the glade board (if the pack has one), and every toadstool and match counter
    face, from the pack's own images."""
    names: list[str] = []
    matches: list[dict | None] = []
    vecs = []
    images = []
    for face in pack.counters:
        names.append(face.counter)
        matches.append(None)
        vecs.append(face_vectors(face.image))
        images.append(face_image(face.image))
    for m in glade.match_counters:
        names.append(_match_name(m))
        matches.append(m.to_dict())
        vecs.append(face_vectors(m.image))
        images.append(face_image(m.image))
    dim = PATCH * PATCH * 3
    model = GladeModel(names, matches, np.concatenate(vecs).astype(np.float32) if vecs
                       else np.zeros((0, dim), np.float32),
                       np.stack(images) if images
                       else np.zeros((0, FACE_PX, FACE_PX, 3), np.uint8))
    if glade.glade is None:
        return model
    g = glade.glade
    labelled = g.labelled_spaces()
    points = np.array([p for _, p in labelled], np.float64)
    h, w = g.image.shape[:2]
    lo = points.min(axis=0) - g.counter
    hi = points.max(axis=0) + g.counter
    try:
        finder = BoardFinder.learn(g.image, (float(lo[0]), float(lo[1]), float(hi[0]),
                                             float(hi[1])))
    except ValueError as exc:
        raise ModelError(f"enrolment pack: glade: {exc}; photograph the whole glade board "
                         "in even light") from None
    # the dense alignment must not lean on the spaces, where counters lie
    still = finder.still.copy()
    s = finder.ref_scale
    still[:] = 255
    for x, y in points:
        cv2.circle(still, (round(x * s), round(y * s)), round(g.counter * 0.75 * s), 0, -1)
    finder.still = still
    scale = WORK_COUNTER / g.counter
    working = cv2.resize(g.image, (round(w * scale), round(h * scale)),
                         interpolation=cv2.INTER_AREA)
    model.finder, model.working, model.scale = finder, working, scale
    model.labels = [label for label, _ in labelled]
    model.points = points
    model.seats = sorted(g.seats)
    model.counter = g.counter
    model.size = (w, h)
    return model


def _match_name(m: MatchFace) -> str:
    return f"match:{m.kind}:{m.icon}:{m.value}"


def save_glade_model(model: GladeModel, out: Path) -> None:
    """Write ``glade.json`` and ``glade.npz`` into the model folder ``out``."""
    out = Path(out)
    arrays: dict[str, np.ndarray] = {"templates": model.templates.astype(np.float16),
                                     "faces": model.faces}
    meta: dict[str, Any] = {"format": FORMAT, "version": VERSION, "face_names": model.face_names,
                            "face_matches": model.face_matches, "params": dict(_PARAMS)}
    if model.finder is not None and model.working is not None:
        arrays.update(model.finder.to_arrays("g_"))
        arrays["working"] = model.working
        arrays["points"] = model.points
        meta.update({"labels": model.labels, "seats": model.seats, "scale": model.scale,
                     "counter": model.counter, "size": list(model.size)})
    with open(out / "glade.npz", "wb") as fh:
        np.savez(fh, **arrays)
    (out / "glade.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")


def load_glade_model(folder: Path) -> GladeModel | None:
    """The glade model of a model folder; None for a model enrolled before glade boards and
    stores were read (enrol again to read them)."""
    folder = Path(folder)
    path = folder / "glade.json"
    if not path.is_file():
        return None
    again = ("; make it again with 'companion enrol the-glade PACK --out MODEL'")
    try:
        meta = read_data_file(path, "model file glade.json", error=ModelError)  # bounded
        if meta.get("format") != FORMAT or meta.get("version") != VERSION or meta.get(
                "params") != _PARAMS:
            raise ModelError(f"model folder {folder}: glade.json is of another format or "
                             f"made with other settings{again}")
        with np.load(folder / "glade.npz") as z:
            arrays = {k: z[k] for k in z.files}
        model = GladeModel(list(meta["face_names"]), list(meta["face_matches"]),
                           arrays["templates"].astype(np.float32),
                           arrays["faces"].astype(np.uint8))
        if len(model.templates) != len(model.face_names) * TURNS or model.faces.shape != (
                len(model.face_names), FACE_PX, FACE_PX, 3):
            raise ValueError("templates, faces and face names disagree")
        if "labels" in meta:
            model.finder = BoardFinder.from_arrays(arrays, "g_")
            model.working = arrays["working"]
            model.points = arrays["points"].astype(np.float64)
            model.labels = list(meta["labels"])
            model.seats = [int(s) for s in meta["seats"]]
            model.scale = float(meta["scale"])
            model.counter = float(meta["counter"])
            model.size = (int(meta["size"][0]), int(meta["size"][1]))
            if len(model.labels) != len(model.points):
                raise ValueError("labels and points disagree")
        return model
    except ModelError:
        raise
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise ModelError(f"model folder {folder}: glade.npz or glade.json is missing or "
                         f"damaged ({exc}){again}") from None


def enrol_glade(pack: Pack, glade: GladePack, out: Path) -> str:
    """Learn and save the glade board and the counter faces (hook of ``enrol``); the line
    the enrolment report adds."""
    model = build_glade_model(pack, glade)
    save_glade_model(model, Path(out))
    matches = sum(m is not None for m in model.face_matches)
    if model.has_glade:
        return (f"\nGlade board enrolled ({len(model.labels) - 12 * len(model.seats)} centre "
                f"spaces, {len(model.seats)} seat(s) of 12 supply spaces); {matches} match "
                "counter(s).")
    return (f"\nNo glade board in the pack (add glade: to read it); {matches} match "
            "counter(s).")
