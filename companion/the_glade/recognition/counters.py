"""Which counter lies on a square: where exactly, which colour, which side.

A counter lies anywhere in its square at any angle, and may be the colour of the board. So it
is first placed where its colours stand out most from the board's (or, without the light
measured, re-centred on the face whose shape fits best), then named by colour (under the
light measured on the board, see :mod:`counter_colour`) and by side, single or double (by
shape).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.the_glade.names import Counter
from companion.the_glade.recognition.counter_colour import HAZE, CounterColours
from companion.the_glade.recognition.model import COUNTER_PATCH, FINE, Model, disc_mask
from companion.the_glade.recognition.ranking import best_per_name
from companion.vision.blur import Blur
from companion.vision.patches import cut_many, describe, distances

COUNTER_STEPS = (3.0, 1.5, 0.75)  # working px: rounds of a 3 x 3 search round the disc
#: One round of that search: the disc's place and the eight round it, a step apart.
_ROUND = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], np.float64)


@dataclass(frozen=True)
class CounterFaces:
    """The enrolled counter faces as a photo of a given blur shows them: by shape (light-
    flattened, as :attr:`Model.counter_templates`) and by colour (as photographed, 0..1)."""

    shapes: np.ndarray
    colours: np.ndarray


def counter_faces(model: Model, blur: Blur) -> CounterFaces:
    """The counter faces blurred by ``blur`` (patch pixels), as the photo's own blur
    (measured on the board's border) blurs the real counters: in a soft photo one toadstool
    and two look alike when compared sharp, but not when both are compared equally soft."""
    if not any(blur.key) or not len(model.counter_colours):
        return CounterFaces(model.counter_templates, model.counter_colours)
    n = len(model.counter_colours)
    raw = model.counter_colours.reshape(n, COUNTER_PATCH, COUNTER_PATCH, 3)
    soft = np.stack([blur.apply(p, border=cv2.BORDER_REPLICATE) for p in raw])
    shapes = describe(soft * 255.0, plane=False, where=disc_mask())
    return CounterFaces(shapes, soft.reshape(n, -1))


def place_counters(faces: np.ndarray, smooth: np.ndarray, cpos: np.ndarray,
                   side: float) -> np.ndarray:
    """Each counter's centre (working px), moved to where a counter face fits best. The
    disc's outline alone is faint when a counter matches the board's colour, and half a
    toadstool off is enough to take a double for a single."""
    return _place(faces, smooth, cpos, side)[0]


def _place(faces: np.ndarray, smooth: np.ndarray, cpos: np.ndarray,
           side: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`place_counters`, and how well the best face fits where each was placed."""
    out = cpos.astype(np.float64).copy()
    fit = np.full(len(out), np.inf)
    for step in COUNTER_STEPS:
        tries = (out[:, None, :] + _ROUND[None] * step).reshape(-1, 2)
        vecs = describe(cut_many(smooth, tries * FINE, np.zeros(len(tries)), side,
                                 COUNTER_PATCH), plane=False, where=disc_mask())
        best = distances(vecs, faces).min(axis=1).reshape(len(out), -1)
        k = best.argmin(axis=1)
        out = tries.reshape(len(out), -1, 2)[np.arange(len(out)), k]
        fit = best[np.arange(len(out)), k]
    return out, fit


#: A counter placed further than this from its square's centre (working px: as far as
#: placing reaches) is placed again from the centre, and kept there unless a face fits
#: where it was clearly better (its distance below this share of the other's).
OFF_CENTRE = sum(COUNTER_STEPS)
CLEARLY_BETTER = 0.8


def counters_placed(faces: np.ndarray, smooth: np.ndarray, found: np.ndarray,
                    centres: np.ndarray, side: float, colours: CounterColours | None = None,
                    reach: float = np.inf) -> np.ndarray:
    """Each counter's centre (working px), placed as :func:`place_counters` from where its
    round outline was ``found``. Counters are laid by hand near the middle of their square;
    a faint outline (a counter the colour of the board) can lose out to a patch of glare or
    a grid line up to a fifth of a square away. So the counter is placed from its centre
    too, and the place kept is the one where a counter stands out most from the board
    (:func:`place_by_colour`, within ``reach`` of the centre). Without ``colours`` (no
    light measured) a counter placed far off centre is kept there only if a face fits
    clearly better there than near the centre (SAMPLE style 1: on 200 photos, the only two
    counters placed over 6 px off were both misread)."""
    if colours is not None:
        at, far_fit = place_by_colour(colours, smooth, found, centres, side, reach)
        near, near_fit = place_by_colour(colours, smooth, centres, centres, side, reach)
        return np.where((near_fit <= far_fit)[:, None], near, at)
    at, fit = _place(faces, smooth, found, side)
    far = np.flatnonzero(np.hypot(*(at - centres).T) > OFF_CENTRE)
    if len(far):
        near, refit = _place(faces, smooth, centres[far], side)
        closer = ~(fit[far] < CLEARLY_BETTER * refit)
        at[far[closer]] = near[closer]
    return at


#: How many faces (of every name, turn and share of haze) are tried round a counter at each
#: step of placing it by colour: those nearest where it is at the step's start. Placing by
#: shape first and comparing every face, the counter work took 95 ms a scan against 45 ms
#: so, with the same readings on 1,720 analysis and check photos.
NEAREST_FACES = 24


def place_by_colour(colours: CounterColours, smooth: np.ndarray, start: np.ndarray,
                    centres: np.ndarray, side: float, reach: float = np.inf
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Each counter moved from ``start`` (working px; drawn in to ``reach`` of its square's
    centre) to where its colours stand out most from the bare board's
    (:meth:`CounterColours.likeness`), no further than ``reach`` from the centre, and that
    likeness. Shapes, light-flattened, place a counter of the board's colour poorly: its
    disc barely shows, and a double's two toadstools fit where they half overlap a single's
    one. Their colours do not: red on green is red on green, and the same toadstools in the
    bare board's place would have to be missing."""
    off = start - centres
    far = np.hypot(*off.T)
    out = centres + off * np.minimum(1.0, reach / np.maximum(far, 1e-9))[:, None]
    fit = np.full(len(out), np.inf)
    rows = np.arange(len(out))
    for step in COUNTER_STEPS:
        like, tries = _likeness_round(colours, smooth, out, step, side)
        away = np.hypot(*(tries - centres[:, None, :]).T).T
        like[away > reach + 1e-9] = np.inf
        k = like.argmin(axis=1)
        out, fit = tries[rows, k], like[rows, k]
    return out, fit


def may_hide_a_counter(colours: CounterColours, smooth: np.ndarray, centres: np.ndarray,
                       side: float) -> np.ndarray:
    """For squares that look like the bare board (``centres``, working px), whether a
    counter may lie there all the same: at the centre or a placing step round it, a
    counter's colours fit better than the board's. A counter of the board's own colour,
    blurred, can look more like the bare board than any tile does, and would never be
    looked for."""
    if not len(centres):
        return np.zeros(0, bool)
    like, _ = _likeness_round(colours, smooth, centres, COUNTER_STEPS[0], side)
    return like.min(axis=1) < 1.0


def _likeness_round(colours: CounterColours, smooth: np.ndarray, at: np.ndarray, step: float,
                    side: float) -> tuple[np.ndarray, np.ndarray]:
    """The likeness (:meth:`CounterColours.likeness`) at each place of a 3 x 3 grid ``step``
    apart round each counter ``at`` (n, 9), and those places (n, 9, 2). Only the faces
    nearest the counter at its middle place are compared (NEAREST_FACES)."""
    tries = at[:, None, :] + _ROUND[None] * step
    flat = tries.reshape(-1, 2)
    patches = cut_many(smooth, flat * FINE, np.zeros(len(flat)), side, COUNTER_PATCH)
    # each patch's colour vector made once (row by row: the middle ones' the same values as
    # made alone), for the nearest faces and the likeness
    vecs = colours.vectors(patches)
    middle = len(_ROUND) // 2
    near = colours.nearest(
        patches.reshape(len(at), len(_ROUND), *patches.shape[1:])[:, middle], NEAREST_FACES,
        vecs=np.ascontiguousarray(vecs.reshape(len(at), len(_ROUND), -1)[:, middle]))
    like = colours.likeness(patches, flat, near, vecs=vecs)
    return like.reshape(len(at), -1), tries


def colour_then_side(by_colour: tuple[float, str, str], shape: np.ndarray,
                     names: list[str]) -> tuple[float, str, str]:
    """A counter's name from its colour (judged by colour) and its side, single or double
    (judged by shape among that colour's faces): the colours tell the colour best, the
    light-flattened shapes the number of toadstools. The margin is the smaller of the two."""
    colour_margin, best, second = by_colour
    colour = Counter.parse(best).colour
    sides = sorted((float(shape[k]), n) for k, n in enumerate(names)
                   if Counter.parse(n).colour == colour)
    if len(sides) < 2:
        return colour_margin, best, second
    (s1, name), (s2, other) = sides[0], sides[1]
    side_margin = (s2 - s1) / max(s1 + s2, 1e-9)
    if side_margin < colour_margin:
        return side_margin, name, other
    return colour_margin, name, second


def counter_colours(model: Model, colours: CounterColours, patches: np.ndarray,
                    centres: np.ndarray) -> list[tuple[float, str, str, float, float]]:
    """For each counter patch, judged by colour (see :mod:`counter_colour`): the best face's
    margin over the best face of another colour, its name, that other face's name, and the
    colour distances of the best face and of the empty board at the same place (``centres``,
    working px), which say better than shapes whether a counter lies there at all."""
    vecs = colours.vectors(patches)
    per, names, _ = best_per_name(distances(vecs, colours.faces, colours.norms),
                                  model.counter_names * len(HAZE))
    empty = colours.bare_fit(vecs, centres)
    kinds = [Counter.parse(n).colour for n in names]
    out = []
    for row, e in zip(per, empty, strict=True):
        o = [int(k) for k in np.argsort(row)]
        other = [k for k in o if kinds[k] != kinds[o[0]]]  # the best of another colour
        d1 = float(row[o[0]])
        d2 = float(row[other[0]]) if other else float("inf")
        out.append(((d2 - d1) / max(d1 + d2, 1e-9), names[o[0]],
                    names[other[0]] if other else names[o[0]], d1, float(e)))
    return out
