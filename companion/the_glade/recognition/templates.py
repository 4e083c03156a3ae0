"""The enrolled faces as each photo needs them: arranged once per model for quick lookups,
and blurred as the photo is blurred (measured on the board's own border).

Blurring the templates, rather than sharpening the photo, keeps noise out of the comparison;
each blur's templates are kept for the next scans, a few blurs at a time.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

import cv2
import numpy as np

from companion.the_glade.recognition.counters import CounterFaces, counter_faces
from companion.the_glade.recognition.model import (
    CELL_PX,
    TILE_PATCH,
    BoardModel,
    Model,
    template_cell,
)
from companion.the_glade.recognition.structure import (
    board_structure,
    faintest_tiles,
    tile_structure,
)
from companion.vision.blur import Blur, BlurReference
from companion.vision.patches import hazy_distances, hazy_terms, template_sums

T = TypeVar("T")

COARSE = 4  # the shortlist is drawn at 1/COARSE of the patch's resolution


def coarse_patches(vecs: np.ndarray, size: int) -> np.ndarray:
    """Reduce flattened (n, size*size*3) patches to 1/COARSE of their resolution."""
    n, k = len(vecs), COARSE
    # the patches stacked into one tall image: an exact-factor area resize is the block mean
    tall = np.ascontiguousarray(vecs, dtype=np.float32).reshape(n * size, size, 3)
    small = cv2.resize(tall, (size // k, n * size // k), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(small.reshape(n, -1))


class Cache:
    """Per-model arrays derived once and kept for the next scans."""

    def __init__(self, model: Model) -> None:
        names = sorted(set(model.tile_names))
        self.names = names
        code = {n: i for i, n in enumerate(names)}
        self.codes = np.array([code[n] for n in model.tile_names])
        self.by_name = [np.flatnonzero(self.codes == k) for k in range(len(names))]
        # templates in name order, so one reduceat gives every name's best
        self.order = np.concatenate(self.by_name)
        self.starts = np.cumsum([0] + [len(b) for b in self.by_name[:-1]])
        self.empty: dict[int, np.ndarray] = {}
        self.blurred: dict[tuple[float, float, float], Templates] = {}
        self.detail = DetailFaces()
        self.counters: dict[tuple[float, float, float], CounterFaces] = {}
        self.structure: dict[tuple[int, float], np.ndarray] = {}  # the boards' fine structure
        #: tile faces' printed middles, smoothed (leaf_colours), by (template, side, px)
        self.printed: dict[tuple[int, int, float], np.ndarray] = {}
        self._faint: np.ndarray | None = None
        #: the board the last scan found (reader.locate tries it first)
        self.last_board: BoardModel | None = None
        #: what blur is measured against: each board's enrolled window (blur_reference)
        self._blur_refs: dict[tuple[int, tuple[int, ...]], BlurReference] = {}

    def blur_reference(self, board: BoardModel, ref: np.ndarray) -> BlurReference:
        """What :func:`measure_blur` makes of ``board``'s enrolled window ``ref`` (its
        working view's, the same for every scan of that board), made once."""
        key = (id(board), ref.shape)
        found = self._blur_refs.get(key)
        if found is None:
            found = self._blur_refs[key] = BlurReference(ref)
        return found

    def faintest(self, model: Model) -> np.ndarray:
        """The faintest sharp tile templates (see :func:`faintest_tiles`): from the model,
        or worked out here for a model enrolled before it kept them."""
        if self._faint is None:
            self._faint = (model.tile_faintest if len(model.tile_faintest)
                           else faintest_tiles(model.tile_templates, TILE_PATCH,
                                               template_cell(model.tile_size)))
        return self._faint


#: How many blurs' detail faces :class:`DetailFaces` keeps, the least recently used dropped
#: first: fewer than the templates' BLURS_KEPT, as a blur's detail faces are quick to make
#: again (on the SAMPLE photos 20-52 faces a scan, 1.4-4.4 ms of CPU), while each blur's
#: take 1.3-3.4 MB all through the scan. With 4 kept, the service benchmark's four photos
#: (four blurs) kept 8.4 MB of them.
DETAIL_BLURS_KEPT = 1


class DetailFaces(dict):
    """The tile faces' detail views blurred as photos are (close_calls._detail_face), keyed
    (template, blur key), kept for the ``kept`` blurs met last (by default
    DETAIL_BLURS_KEPT). Each face takes 64 KB: a service running for hours meets a new blur
    key with nearly every change of light or focus, and without this bound kept every face
    of every blur (up to the 4,096 faces, 260 MB, at which _detail_face starts afresh)."""

    def __init__(self, kept: int | None = None) -> None:
        super().__init__()
        self._blurs: list[Any] = []  # blur keys, the most recently used last
        self.kept = DETAIL_BLURS_KEPT if kept is None else kept

    def _use(self, blur: Any) -> None:
        if self._blurs and self._blurs[-1] == blur:
            return
        if blur in self._blurs:
            self._blurs.remove(blur)
        self._blurs.append(blur)
        while len(self._blurs) > self.kept:
            old = self._blurs.pop(0)
            for key in [k for k in self if k[1] == old]:
                super().__delitem__(key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._use(key[1])
        return super().get(key, default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._use(key[1])
        super().__setitem__(key, value)

    def clear(self) -> None:
        super().clear()
        self._blurs.clear()


_CACHES: dict[int, tuple[weakref.ref[Model], Cache]] = {}


def cache_for(model: Model) -> Cache:
    """The scan caches of ``model``, made at its first scan; one model's at a time. Found by
    the model's id and kept with a weak reference to it: a model freed and another made at
    the same address (a service loading a new enrolment, a test after another) gets caches
    of its own, never the first one's (templates of another pack, read out of bounds)."""
    key = id(model)
    found = _CACHES.get(key)
    if found is None or found[0]() is not model:
        _CACHES.clear()
        found = _CACHES[key] = (weakref.ref(model), Cache(model))
    return found[1]


class Templates:
    """Tile templates at one blur, with what the distances need of them precomputed."""

    def __init__(self, full: np.ndarray) -> None:
        self.full = full
        self.coarse = coarse_patches(full, TILE_PATCH)
        self.sums = template_sums(full)
        self.coarse_sums = template_sums(self.coarse)
        self._least: float | None = None

    def least_structure(self, model: Model, among: np.ndarray) -> float:
        """The least fine structure a tile face shows at this blur (see :mod:`structure`),
        looked for ``among`` a few templates."""
        if self._least is None:
            self._least = float(tile_structure(self.full[among], TILE_PATCH,
                                               template_cell(model.tile_size)).min())
        return self._least

    def near(self, vecs: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """Hazy distances of ``vecs`` to the templates ``idx``."""
        return hazy_distances(vecs, self.full[idx], sums=(self.sums[0][idx], self.sums[1][idx]))

    def near_names(self, cache: Cache, vecs: np.ndarray, names: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
        """For each of several squares, :meth:`near` of its vectors (``vecs``: (squares,
        vectors, length)) to every template of its names (``names``: (squares, k), numbers
        into ``cache.names``), in that order: (squares, vectors, most templates; a square
        with fewer is padded at the end) and the templates' numbers (squares, most
        templates). The same values as :meth:`near` square by square (every distance is
        worked out from its own products: :func:`hazy_terms`), with each name's templates
        compared with all the squares that ask for it in one go, not copied once per square."""
        count, per, length = vecs.shape
        sizes = np.array([len(b) for b in cache.by_name])[names]     # (squares, k)
        starts = np.cumsum(sizes, axis=1) - sizes
        width = int(sizes.sum(axis=1).max())
        idx = np.zeros((count, width), int)
        vt = np.zeros((count, per, width), np.float32)
        for code in np.unique(names):
            rows, slot = np.nonzero(names == code)
            block = cache.by_name[code]
            cols = starts[rows, slot][:, None] + np.arange(len(block))
            idx[rows[:, None], cols] = block
            dots = np.einsum("ij,kj->ik", vecs[rows].reshape(-1, length), self.full[block],
                             optimize=False)
            vt[rows[:, None], :, cols] = dots.reshape(len(rows), per, -1).transpose(0, 2, 1)
        flat = vecs.reshape(-1, length)
        vv = np.einsum("ij,ij->i", flat, flat).reshape(count, per, 1)
        sv = flat.sum(axis=1).reshape(count, per, 1)
        return hazy_terms(vt, vv, sv, self.sums[0][idx][:, None, :],
                          self.sums[1][idx][:, None, :], length), idx


#: How many blurs' templates (and boards' fine structure) are kept for the next scans, the
#: least recently used dropped first. A camera fixed above the table gives a few blurs (they
#: are rounded, see Blur.key): at 3 kept, first in first out, the service benchmark's four
#: photos in turn never met their blur again and every scan blurred 512 templates anew
#: (about 25 ms). Each set is about 7 MB.
BLURS_KEPT = 4


def _kept(store: dict[Any, T], key: Any, make: Callable[[], T]) -> T:
    """``store[key]``, made the first time it is asked for; the least recently used of more
    than BLURS_KEPT is dropped."""
    if key in store:
        store[key] = store.pop(key)  # now the most recently used
        return store[key]
    if len(store) >= BLURS_KEPT:
        store.pop(next(iter(store)))
    store[key] = make()
    return store[key]


def blurred_templates(model: Model, cache: Cache, blur: Blur) -> Templates:
    """Tile templates blurred by ``blur`` (patch pixels), cached."""
    key = blur.key

    def make() -> Templates:
        t = model.tile_templates
        if any(key):
            t = np.stack([blur.apply(x)
                          for x in t.reshape(-1, TILE_PATCH, TILE_PATCH, 3)]).reshape(len(t), -1)
        return Templates(t)

    return _kept(cache.blurred, key, make)


def blurred_counters(model: Model, cache: Cache, blur: Blur) -> CounterFaces:
    """Counter faces blurred by ``blur`` (patch pixels), cached."""
    return _kept(cache.counters, blur.key, lambda: counter_faces(model, blur))


def board_fine_structure(cache: Cache, board: BoardModel, ref: np.ndarray,
                         blur: float) -> np.ndarray:
    """The fine structure of ``board``'s enrolled view ``ref`` (BGR, the working view's
    window) blurred by ``blur`` working pixels as the photo is, cached."""
    return _kept(cache.structure, (id(board), blur), lambda: board_structure(
        cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY).astype(np.float32), CELL_PX, blur))
