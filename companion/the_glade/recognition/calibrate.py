"""How far photos stray from each look-alike pair's training views, measured at enrolment.

A pair's discriminant (:mod:`lookalikes`) is learnt on tile views spoilt one by one, and its
spread on views kept apart from the learning says how sure a scan may be. Photos stray
further: the tile is resampled by the camera's perspective, placed by the scanner to a pixel
or so, blurred and lit across the whole board at once; and for some art the learnt
direction leans on a detail the photo renders otherwise, so every photo of one face lies
towards the other face (art family 6, tuned on: its two star-shaped fruits were named the
wrong way round at 9-10 spreads from the right face).

So enrolment renders a few photos of the pack itself with the table simulator (every
spoiler: tilt, turn, uneven light, shadow, glare, blur, noise, JPEG), every face of a pair
laid on the board CALIBRATION_SAMPLES times, reads them through the scanner's own steps
(board found, rectified, each tile placed) and measures, for each pair, how far the photos
of its two faces lie from their faces' training views, in those views' spreads: the root
mean square ``kappa`` (at least 1). A scan judges the pair in units of ``kappa`` spreads
(:func:`lookalikes.judge`), so one threshold serves every pair: a pair whose photos stray
far (or lean towards the other face) must be that much further from the other face before
it names one, and a pair that photos do not fool may decide a close call the looks leave
open. Pairs no photo sampled (a face that fell off the board) keep UNSAMPLED.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from companion.the_glade.recognition.lookalikes import projection
from companion.the_glade.recognition.model import FINE, TILE_INSET, Model
from companion.the_glade.recognition.pack import Pack

#: Times each face of a learnt pair is laid on the calibration photos.
CALIBRATION_SAMPLES = 3
#: A pair's kappa is measured from at least this many photos of its faces ...
MIN_SAMPLES = 3
#: ... else this is assumed (about the 90th percentile measured on the tuning families).
UNSAMPLED = 2.5


def pair_spread(model: Model, pack: Pack, progress: Callable[[str], None] | None = None,
                seed: int = 7) -> np.ndarray:
    """Each learnt pair's ``kappa``: how far photos of its faces, rendered from ``pack``
    and read by the scanner, lie from the faces' training views (rms, in their spreads)."""
    from companion.errors import RecognitionError
    from companion.the_glade.recognition.enrol import tile_side
    from companion.the_glade.recognition.evidence import gather
    from companion.the_glade.recognition.model import CELL_PX
    from companion.the_glade.recognition.reader import PAD, _in_frame, locate
    from companion.the_glade.recognition.sim import render_photo
    from companion.vision.board import rectify

    pairs = model.lookalikes
    kappa = np.full(len(pairs), UNSAMPLED, np.float32)
    if not len(pairs) or not pack.boards:
        return kappa
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    board = max(pack.boards, key=lambda b: b.grid.rows * b.grid.cols)
    geometry = board.geometry
    squares = [sq.name for sq in geometry.squares()]
    used = sorted({int(f) for f in pairs.faces.ravel()})
    queue = [f for _ in range(CALIBRATION_SAMPLES) for f in rng.permutation(used)]
    by_face: dict[int, list[int]] = {}
    for k, (a, b) in enumerate(pairs.faces):
        by_face.setdefault(int(a), []).append(k)
        by_face.setdefault(int(b), []).append(k)
    face_of = {(model.tile_names[4 * f], model.tile_seasons[4 * f]): f
               for f in range(len(model.tile_names) // 4)}
    tside = tile_side(model.tile_size) * TILE_INSET * FINE
    sums = np.zeros(len(pairs))
    counts = np.zeros(len(pairs))
    shots = math.ceil(len(queue) / len(squares))
    for shot in range(shots):
        laid = queue[shot * len(squares):(shot + 1) * len(squares)]
        spots = rng.permutation(squares)[:len(laid)]
        tiles = {sq: pack.tiles[f].tile for sq, f in zip(spots, laid, strict=True)}
        state = {"board": geometry.to_dict(), "forest": {"tiles": tiles, "counters": {}},
                 "turns": {sq: int(rng.integers(4)) for sq in tiles},
                 "seasons": {sq: pack.tiles[f].season
                             for sq, f in zip(spots, laid, strict=True)}}
        photo, _truth = render_photo(pack, state, seed * 1000 + shot)
        try:
            found, located = locate(model, photo)
        except RecognitionError:
            continue
        g = found.grid
        h, w = photo.shape[:2]
        s = CELL_PX / g.cell
        box = (g.left - PAD * g.cell, g.top - PAD * g.cell, g.left + (g.cols + PAD) * g.cell,
               g.top + (g.rows + PAD) * g.cell)
        view, fine = rectify(photo, located.homography, s, box, FINE)
        names, ev = gather(model, found, view, fine, _in_frame(found, located.homography,
                                                                (w, h)))
        for i, sq in enumerate(names):
            if sq not in tiles:
                continue
            face = face_of.get((tiles[sq], state["seasons"][sq]))
            look = ev.looks.get(i)
            # the turn as the scanner found it, where it named the right face
            if look is not None and look.at is not None and look.names[0] == tiles[sq]:
                j = look.names[1]
                cx, cy, angle = look.at
            elif ev.tiles[i][0][2] == tiles[sq]:
                j = ev.tiles[i][0][1]
                cx, cy = ev.tile_at[i] * FINE
                angle = -float(ev.tile_angle[i])
            else:
                continue
            if face is None or model.tile_seasons[j] != state["seasons"][sq]:
                continue
            turn = int(model.tile_turns[j])
            for k in by_face.get(face, []):
                t = projection(pairs, k, fine, (float(cx), float(cy)), float(angle), turn,
                               tside)
                a = int(pairs.faces[k][0])
                mean, spread = pairs.stats[k][:2] if face == a else pairs.stats[k][2:]
                sums[k] += ((t - float(mean)) / float(spread)) ** 2
                counts[k] += 1
        if progress is not None:
            progress(f"  calibration photos: {shot + 1} of {shots} read "
                     f"({time.perf_counter() - start:.0f} s)")
    seen = counts >= MIN_SAMPLES
    kappa[seen] = np.maximum(1.0, np.sqrt(sums[seen] / counts[seen]))
    return kappa
