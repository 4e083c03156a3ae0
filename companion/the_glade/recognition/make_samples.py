"""Regenerate the bundled SAMPLE pack and demo photos, deterministically.

    python -m companion.the_glade.recognition.make_samples [--root config/games/the-glade]

Writes ``sample-pack/`` (pack.yaml, a README and the images of sample style 1) and
``photos/`` (a few camera-sized JPEGs, each with its truth as ``NAME.truth.json``).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import cv2
import numpy as np

from companion.the_glade.names import BoardGeometry
from companion.the_glade.recognition.art import SampleArt
from companion.the_glade.recognition.glade_sim import sample_glade_pack, write_glade_pack
from companion.the_glade.recognition.pack import write_pack
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack

STYLE = 1
PHOTOS = (  # (file stem, rows, cols, seed, fill)
    ("forest-7x7-a", 7, 7, 101, 0.45),
    ("forest-7x7-b", 7, 7, 102, 0.75),
    ("forest-7x7-c", 7, 7, 103, 0.25),
    ("forest-8x8-a", 8, 8, 104, 0.6),
)

README = """# The Glade: SAMPLE enrolment pack

SAMPLE art drawn by Table Companion's table simulator (style {style}). It is NOT the
publisher's art and does not look like your copy of the game: it exists so the recogniser,
its tests and the demo can run without anyone's photos.

To recognise your own copy, make a pack of the same shape from photos of your components
(see docs/recognition.md, "Making a pack from your own copy"), then run
`companion enrol the-glade YOUR-PACK --out YOUR-MODEL`.

Regenerate this folder with `python -m companion.the_glade.recognition.make_samples`.
"""


def make(root: Path) -> list[Path]:
    pack = sample_pack(STYLE)
    pack_dir = root / "sample-pack"
    if pack_dir.exists():
        shutil.rmtree(pack_dir)
    write_pack(pack, pack_dir)
    # the glade board and match counters (score from photos), in the same SAMPLE art
    write_glade_pack(sample_glade_pack(SampleArt(STYLE)), pack_dir)
    (pack_dir / "README.md").write_text(README.format(style=STYLE), encoding="utf-8")
    photo_dir = root / "photos"
    photo_dir.mkdir(parents=True, exist_ok=True)
    written = [pack_dir]
    for stem, rows, cols, seed, fill in PHOTOS:
        geometry = BoardGeometry.from_dict({"rows": rows, "cols": cols, "centre": "D4"})
        state = random_forest(np.random.default_rng(seed), geometry, pack, fill=fill)
        image, truth = render_photo(pack, state, seed)
        truth.pop("homography", None)
        path = photo_dir / f"{stem}.jpg"
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 88])
        if not ok:
            raise RuntimeError(f"could not encode {path}")
        path.write_bytes(buf.tobytes())
        truth["note"] = f"SAMPLE photo rendered by the table simulator (style {STYLE}, seed {seed})"
        (photo_dir / f"{stem}.truth.json").write_text(json.dumps(truth, indent=1) + "\n",
                                                     encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("config/games/the-glade"))
    args = parser.parse_args(argv)
    for path in make(args.root):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
