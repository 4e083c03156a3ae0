"""How legible each art family's fruits are as the smallest benchmark photo shows them (#20).

For each family: the fruit's size and the least difference between two of its fruits
(FamilyArt.fruit_legibility: pixels' worth of full black-on-white difference on a
LEGIBLE_TILE_PX tile through a LEGIBLE_BLUR blur, the fruit alone however it is moved by up
to LEGIBLE_SHIFT px, and on every face), as the generator draws them now and as it
drew them before its legibility check (``legible=False``). ``--sheet`` writes a contact sheet
of the fruits as the photo shows them, before and after, for the docs. Art only: no reading
of any family is made, so held-out families may be listed too.

    .venv/bin/python benchmarks/the_glade_fruit_legibility.py --families 1,121,287,6,2
    .venv/bin/python benchmarks/the_glade_fruit_legibility.py --families 121,287,1,6,2 \\
        --sheet docs/images/fruit-legibility.png
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.the_glade.names import FRUITS, Tile
from companion.the_glade.recognition.families import (
    LEGIBLE_BLUR,
    LEGIBLE_LIKENESS,
    LEGIBLE_PIXELS,
    LEGIBLE_TILE_PX,
    FamilyArt,
)

ZOOM = 3


def _shown(legible: tuple[float, float]) -> str:
    return f"{legible[0]:5.1f}, {legible[1]:.3f}"


def fruit_row(family: int, legible: bool) -> np.ndarray:
    """The four fruits of one face (toad, beech, spring) around the fruit's place, as the
    smallest photo shows them (LEGIBLE_TILE_PX tile, LEGIBLE_BLUR blur), enlarged ZOOM
    times."""
    art = FamilyArt(family, tile_px=LEGIBLE_TILE_PX, legible=legible)
    x, y, _ = art.layout["fruit"]
    half = LEGIBLE_TILE_PX // 4
    cells = []
    for fruit in FRUITS:
        face = cv2.GaussianBlur(art.tile(Tile("toad", fruit, "beech"), "spring"), (0, 0),
                                LEGIBLE_BLUR)
        face = cv2.copyMakeBorder(face, half, half, half, half, cv2.BORDER_REPLICATE)
        cx, cy = int(x * LEGIBLE_TILE_PX) + half, int(y * LEGIBLE_TILE_PX) + half
        crop = face[cy - half:cy + half, cx - half:cx + half]
        cells += [cv2.resize(crop, None, fx=ZOOM, fy=ZOOM, interpolation=cv2.INTER_NEAREST),
                  np.full((2 * half * ZOOM, 4, 3), 255, np.uint8)]
    return np.hstack(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--families", default="1,6,121,198,287,8035,2,3")
    parser.add_argument("--sheet", type=Path, help="write the before/after contact sheet here")
    args = parser.parse_args()
    families = [int(f) for f in args.families.split(",")]
    print(f"legible when the least difference >= {LEGIBLE_PIXELS:g} and the likeness <= "
          f"{LEGIBLE_LIKENESS:g} "
          f"({LEGIBLE_TILE_PX} px tile, blur {LEGIBLE_BLUR:g} px)")
    print("family  fruit before -> now   least difference, likeness: before -> now")
    redrawn = 0
    for family in families:
        before, now = (FamilyArt(family, legible=False), FamilyArt(family))
        changed = not all(np.array_equal(before.tile(f"toad/{f}/oak", "spring"),
                                         now.tile(f"toad/{f}/oak", "spring")) for f in FRUITS)
        redrawn += changed
        print(f"{family:>6}  {before.layout['fruit'][2]:.3f} -> {now.layout['fruit'][2]:.3f}"
              f"   {_shown(before.fruit_legibility())} -> {_shown(now.fruit_legibility())}"
              f"{'   redrawn' if changed else ''}")
    print(f"{redrawn} of {len(families)} families redrawn")
    if args.sheet:
        rows = []
        for family in families:
            gap = np.full((2 * (LEGIBLE_TILE_PX // 4) * ZOOM, 24, 3), 255, np.uint8)
            rows += [np.hstack([fruit_row(family, False), gap, fruit_row(family, True)]),
                     np.full((6, 1, 3), 255, np.uint8)]
        width = max(r.shape[1] for r in rows)
        rows = [cv2.copyMakeBorder(r, 0, 0, 0, width - r.shape[1], cv2.BORDER_CONSTANT,
                                   value=(255, 255, 255)) for r in rows]
        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.sheet), np.vstack(rows), [cv2.IMWRITE_PNG_COMPRESSION, 9])
        print(f"wrote {args.sheet}: per row one family (as listed), its four fruits "
              "(acorn, blackberry, hazelnut, mushroom) before | now")


if __name__ == "__main__":
    main()
