"""A leaf named under glare that the haze cap may have chosen: a doubt.

Every face is compared with a square's tile under a veil of even light (haze,
:func:`companion.vision.patches.hazy_distances`: ``t' = (1 - h) t + h``), ``h`` at most
``patches.MAX_HAZE`` (0.4). Under a patch of glare a tile's print needs more veil than that:
each art family draws two leaves of one colour, a light and a dark one (beech and
horse-chestnut, maple and oak), and a dark leaf veiled beyond the cap looks like the light
one veiled within it. The light face then fits at the cap, the true dark one is held back
by it, and every judge after the first look (the closer look, the learnt pair, the rounds
of settling) is shown only the light leaf's faces: three of them may agree on the wrong
leaf.

So on a square brighter than VEIL_LIGHT times the photo's tiles' usual light, a tile named
surely whose face fits only under a heavy veil (its haze at least VEIL_HAZE) is compared
with its leaf siblings (the same creature and fruit, season and turn, on each other leaf),
each allowed a veil up to VEIL_CAP: a sibling that then fits better than the named face did
(VEIL_RATIO of its misfit), needing more veil than the cap allowed, makes the name a doubt,
without candidates (the truth is often neither of the best two the judges compared, and a
drawing of either face under glare is no better judge; reader._doubt_glare_lit's doubts
are made alike). The patch is the first look's own (evidence.Evidence.patches), the faces
the templates at the photo's blur.

Measured (issue #20) on hard photos (seed 9000, 8 of a 7x7 board each) of tuning families
8060-8064, 1-8, 8000-8004, 8035, 8036, 8066, 8068 and 8069 (184 photos, one refused; 8e4d74d's
code): of the 21 tiles named wrong, 10 were a dark leaf named as the light one at 1.22-1.68
times the photo's tiles' light (5 of them with the three judges agreeing); for all 10 a dark
sibling fits better under more veil (0.17-0.99 of the named face's misfit, at haze
0.43-0.79), the named face at haze 0.32-0.4; so do 8 of the 4,159 right names (at 1.09-1.55
times the light), and no other wrong one. Normal photos of those families (8 + 2 each): 1 of
10 wrong names (horse-chestnut as beech) and 1 of 6,561 right ones.

Benchmark (benchmarks/the_glade_families.py, wrong / uncertain / boards exactly right, the
switch off -> on side by side, ``--set veiled_leaves.VEILED_LEAVES=False``): hard, those 23
families, 24 / 981 / 64 -> **14 / 999 / 61** (the 10 dark leaves doubted, no square wrong
that was not); the 15 tuning families 1, 121, 198, 287, 44, 54, 61, 80, 8035, 8036, 8042,
8043, 8054, 8059, 8069 hard 14 / 1,588 / 7 -> 14 / 1,592 / 7 and normal (8 + 2 each) 13 / 585
/ 56 -> 13 / 586 / 55, the same squares wrong. Every one of these runs from 8e4d74d's tree
(a git archive) with this change. **Fresh 8115-8119** (never run before; 8e4d74d's
tree, a git archive, then it with this module, the same models): hard 8 / 226 / 10 -> **7 /
231 / 10** (0.41% -> 0.36% wrong; 8118 1 -> 0, every other family as many wrong as before),
normal 2 / 40 / 107 -> 2 / 43 / 105.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.the_glade.recognition.evidence import (
    Evidence,
    faces_by_name,
    other_leaves,
    usual_tile_light,
)
from companion.the_glade.recognition.model import Model
from companion.vision.patches import MAX_HAZE

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: On: its figures are the module's text's (fresh 8115-8119 hard 8 -> 7 wrong squares).
VEILED_LEAVES = True
VEIL_LIGHT = 1.15
VEIL_HAZE = 0.3
VEIL_CAP = 0.9
VEIL_RATIO = 1.0
#: at least this many tiles read give the photo's usual tile light
VEIL_TILES = 5


def hazy_fit(patch: np.ndarray, face: np.ndarray, cap: float) -> tuple[float, float]:
    """The misfit of ``patch`` (a light-flattened row) to ``face`` (a template row) under
    the best veil of haze up to ``cap`` (as patches.hazy_distances), and that haze."""
    p = patch.astype(np.float64)
    t = face.astype(np.float64)
    dv, ut = p - t, 1.0 - t
    ww, wu = float(dv @ dv), float(dv @ ut)
    uu = max(float(ut @ ut), 1e-6)
    h = float(np.clip(wu / uu, 0.0, cap))
    return max(ww - 2 * h * wu + h * h * uu, 0.0) / len(p), h


def veiled_sibling(faces: dict[tuple[str, str, int], int], ev: Evidence, k: int, name: str,
                   season: str, turn: int) -> tuple[str, float] | None:
    """The leaf sibling of ``name`` (at ``season`` and ``turn``; ``faces``: template numbers,
    :func:`faces_by_name`) that fits square ``k``'s first-look patch better than ``name``
    under a veil over the haze cap (see the module's text), with its misfit over the named
    face's; None when none does."""
    if ev.patches is None:
        return None
    siblings = other_leaves(name)
    j = faces.get((name, season, turn))
    if not siblings or j is None:
        return None
    patch = ev.patches[k]
    own, haze = hazy_fit(patch, ev.templates[j], MAX_HAZE)
    if haze < VEIL_HAZE:
        return None
    best: tuple[str, float] | None = None
    for sibling in siblings:
        s = faces.get((sibling, season, turn))
        if s is None:
            continue
        d, h = hazy_fit(patch, ev.templates[s], VEIL_CAP)
        ratio = d / max(own, 1e-12)
        if h > MAX_HAZE and ratio < VEIL_RATIO and (best is None or ratio < best[1]):
            best = (sibling, ratio)
    return best


def doubt(model: Model, ev: Evidence, readings: list[SquareReading]
          ) -> list[SquareReading]:
    """Sure tiles under glare whose leaf the haze cap may have chosen (``readings``:
    reader.SquareReading, row-major as ``ev``) doubted as glare-lit, without candidates."""
    if not VEILED_LEAVES:
        return readings
    usual = usual_tile_light(ev, readings, VEIL_TILES)
    if usual is None or ev.patches is None:
        return readings
    assert ev.bright is not None  # measured, as the usual light is
    faces: dict[tuple[str, str, int], int] | None = None
    for k, r in enumerate(readings):
        if r.name is None or r.season is None or r.turn is None:
            continue
        glare_lit = r.kind == "uncertain" and r.doubt == "glare-lit"
        if r.kind != "tile" and not glare_lit:
            continue
        light = float(ev.bright[k]) / max(usual, 1e-9)
        if light <= VEIL_LIGHT:
            continue
        if faces is None:
            faces = faces_by_name(model)
        found = veiled_sibling(faces, ev, k, r.name, r.season, r.turn)
        if found is None:
            continue
        if glare_lit:  # a doubt already: marked, so that no later step names its leaf
            r.distances["veiled_leaf"] = round(found[1], 3)
            continue
        r.kind, r.confidence, r.candidates = "uncertain", 0.0, ()
        r.doubted("glare-lit", f"glare on the tile: {r.name}, or another leaf?")
        r.distances["veiled_leaf"] = round(found[1], 3)
        r.distances["glare_lit"] = round(light, 3)
    return readings
