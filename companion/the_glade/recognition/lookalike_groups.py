"""Look-alike pairs that are one difference: the same two icons, drawn alike, at one spot.

A pair of tiles that differ only in the fruit (acorn or blackberry) is one instance of "an
acorn or a blackberry, here on the tile": every tile bearing an acorn shows the same acorn
drawing, mostly at the same spot. Learning each pair from its own two faces gives each side
a few dozen training views, all with the same surroundings; learning once per *group* of
pairs that share the difference gives each side the views of every face bearing that icon
there: hundreds of views, in varied surroundings (other creatures, seasons, leaves), so the
discriminant learns the icon rather than one face's background.

Nothing is assumed of where the icons sit: pairs are grouped only when their names differ in
the same part (``creature/fruit/leaf``: the same two values of one part) AND the pack's own
images agree: the two boxes where the faces differ coincide (to GROUP_BOX of the tile's
side) and each side's icon, compared where the faces differ, is the same drawing (mean
difference under GROUP_DRAWING grey levels). A pair that fits no group is a group of one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

#: Two pairs' boxes (shares of the tile's side) coincide when every edge lies within this.
GROUP_BOX = 0.04
#: Two faces show the same icon when, where their pairs' faces differ, their mean absolute
#: difference (grey levels, at 48 px a tile) is under this.
GROUP_DRAWING = 24.0
#: The side (px) faces are compared at to group their pairs.
GROUP_SIDE = 48


@dataclass
class Group:
    """Pairs that share one difference: ``sides[0]`` faces show one icon, ``sides[1]`` the
    other; ``pairs`` lists (face on side 0, face on side 1) as the candidates gave them."""

    key: tuple
    box: np.ndarray                     # x0, y0, x1, y1 (shares of the tile), the union
    pairs: list[tuple[int, int]] = field(default_factory=list)
    sides: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    mask: np.ndarray | None = None      # where the first pair's faces differ (GROUP_SIDE px)
    icons: tuple[int, int] = (0, 0)     # the first pair's faces, whose icons others match


def _parts_apart(a: str, b: str) -> tuple | None:
    """(part index, value on a, value on b) when two tile names differ in one part only."""
    pa, pb = a.split("/"), b.split("/")
    if len(pa) != len(pb):
        return None
    apart = [k for k in range(len(pa)) if pa[k] != pb[k]]
    if len(apart) != 1:
        return None
    k = apart[0]
    return k, pa[k], pb[k]


def _gray(face: np.ndarray) -> np.ndarray:
    small = cv2.resize(face, (GROUP_SIDE, GROUP_SIDE), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)


def group_pairs(faces: list[np.ndarray], names: list[str],
                candidates: list[tuple[float, int, int, np.ndarray]]) -> list[Group]:
    """The candidates (area, face i, face j, box) in groups that share one difference; each
    pair (i, j) lands in exactly one group, turned so that its side-0 face comes first."""
    grays: dict[int, np.ndarray] = {}

    def gray(i: int) -> np.ndarray:
        if i not in grays:
            grays[i] = _gray(faces[i])
        return grays[i]

    groups: list[Group] = []
    for _area, i, j, box in candidates:
        apart = _parts_apart(names[i], names[j])
        if apart is not None and apart[1] > apart[2]:  # side 0: the lesser value
            i, j = j, i
            apart = (apart[0], apart[2], apart[1])
        home = None
        if apart is not None:
            for g in groups:
                if g.key != apart or np.abs(g.box - box).max() > GROUP_BOX:
                    continue
                m = g.mask
                assert m is not None
                a0, b0 = g.icons
                if (float(np.abs(gray(i) - gray(a0))[m].mean()) < GROUP_DRAWING
                        and float(np.abs(gray(j) - gray(b0))[m].mean()) < GROUP_DRAWING):
                    home = g
                    break
        if home is None:
            key = apart if apart is not None else ("pair", i, j)
            mask = np.abs(gray(i) - gray(j)) > 20
            if not mask.any():
                mask[:] = True
            home = Group(key, np.asarray(box, np.float32).copy(), mask=mask, icons=(i, j))
            groups.append(home)
        home.pairs.append((i, j))
        home.box = np.concatenate([np.minimum(home.box[:2], box[:2]),
                                   np.maximum(home.box[2:], box[2:])]).astype(np.float32)
        for side, face in ((0, i), (1, j)):
            if face not in home.sides[side]:
                home.sides[side].append(face)
    return groups
