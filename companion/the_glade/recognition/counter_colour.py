"""Counter faces compared by their true colours, with the light measured on the board itself.

Counters differ mostly by colour (blue from purple, red from yellow) and by one or two
toadstools. Normalising a counter patch by its own brightest pixels, as tiles are, would
divide part of that colour away. Instead the photo's light is measured on the board's own
border, against the enrolled empty board: that ratio, per colour channel, is the light's
colour cast, and dividing it out leaves the counter's own colours. A last division by the
disc's mean brightness makes the comparison indifferent to local shade and to the exposure
the pack's counter photos were taken at.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from companion.vision.patches import clipped, cut_many, distances


def colour_vectors(patches: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Flatten (n, s, s, 3) counter patches already freed of the photo's light: keep the disc
    (``mask``, s*s booleans) and divide by its mean brightness."""
    n = len(patches)
    flat = patches.reshape(n, -1, 3).astype(np.float32, copy=False) * mask[None, :, None]
    level = flat.sum(axis=(1, 2)) / max(float(mask.sum()) * 3, 1.0)
    return (flat / np.maximum(level, 1e-3)[:, None, None]).reshape(n, -1)


#: Glare veils a counter with even light: the faces are compared under these shares of it.
HAZE = (0.0, 0.2, 0.4)


def colour_templates(faces: np.ndarray, mask: np.ndarray, clip: np.ndarray,
                     unclipped: _Unclipped | None = None) -> np.ndarray:
    """Colour vectors of enrolled counter faces (n, s*s*3, as photographed, 0..1) under each
    share of :data:`HAZE` (haze-major: all faces under the first share, then the next), each
    channel clipped where the photo's is (``clip``, 3 values: 255 over the light's gain).
    ``unclipped``: the same faces' vectors with nothing clipped, and each share's brightest
    value, already worked out (see :func:`_unclipped`); returned as they are (read-only)
    when the clip reaches none of them."""
    n = len(faces)
    flat = faces.reshape(n, -1, 3)
    if unclipped is not None and max(unclipped.brightest) <= np.min(clip):
        return unclipped.vectors
    out = []
    for k, h in enumerate(HAZE):
        if unclipped is not None and unclipped.brightest[k] <= np.min(clip):
            out.append(unclipped.vectors[k * n:(k + 1) * n])  # nothing to clip under it
            continue
        hazed = (1 - h) * flat + h if h else flat  # (the same values: 1 x + 0 is x)
        if hazed.max() > np.min(clip):  # else clipping changes nothing
            hazed = np.minimum(hazed, clip[None, None, :])
        out.append(colour_vectors(hazed, mask))
    return np.concatenate(out)


@dataclass(frozen=True)
class _Unclipped:
    """Counter faces' colour vectors under every share of HAZE with no channel clipped (as
    :func:`colour_templates` stacks them), and each share's brightest value (above a photo's
    clip, that share is worked out anew)."""

    faces: weakref.ref  # the faces they were made from (their id is the key)
    mask: np.ndarray
    brightest: tuple[float, ...]
    vectors: np.ndarray


#: The faces' unclipped colour vectors of the last sets of faces met (one set per blur, see
#: templates.blurred_counters), least recently used dropped: the same set comes back scan
#: after scan from a camera fixed above the table, and a photo's light seldom clips the
#: faces' colours (none of the SAMPLE or held-out family 1000 photos did), so each scan's
#: making of them (864 vectors of 1,200 values, 3.4 ms of CPU) is mostly a lookup, and the
#: scan uses the kept array itself. Each set takes 4 MB all through a scan: with 4 kept, the
#: service benchmark's four photos (four blurs met in turn) kept 16 MB of them, and its
#: peak fell by 13 MB when these and the detail faces (templates.DETAIL_BLURS_KEPT) kept
#: one blur's each, for about 6 ms more CPU a scan there (every scan there meets another
#: blur than the last).
_UNCLIPPED: dict[int, _Unclipped] = {}
UNCLIPPED_KEPT = 1


def _unclipped(faces: np.ndarray, mask: np.ndarray) -> _Unclipped:
    """:class:`_Unclipped` of ``faces`` (as :func:`colour_templates` takes them), kept."""
    key = id(faces)
    found = _UNCLIPPED.pop(key, None)
    if found is None or found.faces() is not faces or not np.array_equal(found.mask, mask):
        n = len(faces)
        flat = faces.reshape(n, -1, 3)
        brightest = []
        stacked = np.empty((len(HAZE) * n, flat.shape[1] * 3), np.float32)
        for k, h in enumerate(HAZE):  # each share written in place: no second stack made
            hazed = (1 - h) * flat + h if h else flat
            brightest.append(float(hazed.max()))
            stacked[k * n:(k + 1) * n] = colour_vectors(hazed, mask)
        stacked.setflags(write=False)
        found = _Unclipped(weakref.ref(faces), mask.copy(), tuple(brightest), stacked)
    _UNCLIPPED[key] = found  # now the most recently used
    while len(_UNCLIPPED) > UNCLIPPED_KEPT:
        _UNCLIPPED.pop(next(iter(_UNCLIPPED)))
    return found


def board_light(view: np.ndarray, board: np.ndarray, where: np.ndarray) -> np.ndarray | None:
    """The photo's light per colour channel (photo / enrolled board, least squares) over the
    pixels ``where`` of two aligned views, leaving out clipped and near-black pixels; None
    when too few remain. Measured over the whole border strip: a colour cast is the same
    across the board, and a local estimate on a dark board square is swayed by the
    counter's own blurred edge. Local brightness does not matter: colour vectors are
    divided by their own level."""
    # np.take of the pixels' numbers: the same rows as boolean indexing, several times quicker
    at = np.flatnonzero(where)
    v = np.take(view.reshape(-1, 3), at, axis=0).astype(np.float32)
    b = np.take(board.reshape(-1, 3), at, axis=0).astype(np.float32)
    usable = np.flatnonzero((clipped(v) == 0)
                            & (np.minimum(np.minimum(b[:, 0], b[:, 1]), b[:, 2]) > 8))
    if len(usable) < 200:
        return None
    v, b = np.take(v, usable, axis=0), np.take(b, usable, axis=0)
    return (v * b).sum(axis=0) / np.maximum((b * b).sum(axis=0), 1e-3)


@dataclass(frozen=True)
class CounterColours:
    """The counter faces' colours and the bare board's, freed of one photo's light: what
    names a counter's colour, and says whether and where one lies."""

    gain: np.ndarray    # the photo's light per channel (see board_light)
    faces: np.ndarray   # the faces' colour vectors under each share of HAZE (haze-major)
    board: np.ndarray   # the enrolled board's view aligned with the photo's (BGR)
    side: float         # a counter patch's side, working px
    mask: np.ndarray    # the disc's pixels in a patch

    @classmethod
    def measure(cls, faces: np.ndarray, view: np.ndarray, board: np.ndarray,
                where: np.ndarray, side: float, mask: np.ndarray,
                gain: np.ndarray | None = None) -> CounterColours | None:
        """The colours of ``faces`` (n, s*s*3, as photographed, 0..1) and of the ``board``
        under the light of ``view``, measured on its pixels ``where`` (or ``gain``, that
        light already measured so); None without faces or too little border to measure the
        light on."""
        if not len(faces) or board.shape != view.shape:
            return None
        if gain is None:
            gain = board_light(view, board, where)
        if gain is None:
            return None
        gain = np.maximum(gain, 1e-3)
        return cls(gain, colour_templates(faces, mask, 1.0 / gain, _unclipped(faces, mask)),
                   board, side, mask)

    @cached_property
    def norms(self) -> np.ndarray:
        """The faces' squared norms (what every distance to them needs), worked out once."""
        return np.einsum("kd,kd->k", self.faces, self.faces)

    @cached_property
    def _board32(self) -> np.ndarray:
        """The bare board in float32, as patches are cut from it (once, not at every cut)."""
        return self.board.astype(np.float32)

    def vectors(self, patches: np.ndarray) -> np.ndarray:
        """Colour vectors of counter patches (n, s, s, 3) cut from the photo."""
        return colour_vectors(patches / self.gain[None, None, None, :] / 255.0, self.mask)

    def bare(self, centres: np.ndarray) -> np.ndarray:
        """Colour vectors of the bare board at ``centres`` (working px) under each share of
        HAZE: (haze, n, s*s*3)."""
        n = len(centres)
        size = int(np.sqrt(self.mask.size))
        boards = cut_many(self._board32, centres, np.zeros(n), self.side, size) / 255.0
        return colour_templates(boards.reshape(n, -1), self.mask,
                                1.0 / self.gain).reshape(len(HAZE), n, -1)

    def bare_fit(self, vecs: np.ndarray, centres: np.ndarray) -> np.ndarray:
        """The colour distance of each vector (from :meth:`vectors`) to the bare board at
        the same place (``centres``, working px), at its best share of haze."""
        return np.min([((vecs - b) ** 2).mean(axis=1) for b in self.bare(centres)], axis=0)

    def nearest(self, patches: np.ndarray, count: int, vecs: np.ndarray | None = None
                ) -> np.ndarray:
        """The ``count`` faces (indices into :attr:`faces`) nearest each patch, best first
        (``vecs``: the patches' :meth:`vectors`, when already made)."""
        d = distances(self.vectors(patches) if vecs is None else vecs, self.faces, self.norms)
        count = min(count, d.shape[1])
        near = np.argpartition(d, count - 1, axis=1)[:, :count]
        return np.take_along_axis(near, np.argsort(np.take_along_axis(d, near, 1), 1), 1)

    def likeness(self, patches: np.ndarray, centres: np.ndarray,
                 faces: np.ndarray | None = None, vecs: np.ndarray | None = None
                 ) -> np.ndarray:
        """The best counter face's colour distance to each patch over the bare board's at
        the same place (``centres``, working px), each at its best share of haze: below 1,
        a counter fits better than the board it would lie on. ``faces`` (indices, a row per
        group of patches) limits the faces compared: each row holds the faces of as many
        consecutive patches as ``len(patches) // len(faces)`` (one patch a row, or the places
        tried round one counter). ``vecs``: the patches' :meth:`vectors`, when already made."""
        vecs = self.vectors(patches) if vecs is None else vecs
        if faces is None:
            best = distances(vecs, self.faces, self.norms).min(axis=1)
        else:
            # each group's faces gathered once, not once per patch: the same sums, term by term
            n, d = len(faces), vecs.shape[1]
            group = len(vecs) // max(n, 1)
            cross = np.einsum("ngd,ntd->ngt", vecs.reshape(n, group, d), self.faces[faces])
            best = (np.einsum("nd,nd->n", vecs, vecs)[:, None]
                    + np.repeat(self.norms[faces], group, axis=0)
                    - 2.0 * cross.reshape(len(vecs), -1)).min(axis=1)
            best = np.maximum(best, 0.0) / d
        return best / np.maximum(self.bare_fit(vecs, centres), 1e-9)
