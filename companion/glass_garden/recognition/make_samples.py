"""Make the bundled SAMPLE pack and photos under ``config/games/glass-garden/``.

``python -m companion.glass_garden.recognition.make_samples`` writes ``sample-pack/`` (pack.yaml
and 36 SAMPLE faces of art family :data:`SAMPLE_FAMILY`, 100 x 140 px) and ``photos/``: a few
garden photos from the simulator with their truth (``NAME.truth.json``). Deterministic: the
same files every time.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.glass_garden.deck import CONFIG_DIR, load_deck
from companion.glass_garden.recognition.art import card_faces, draw_back, draw_face
from companion.glass_garden.recognition.sim import photo
from companion.vision.cards.pack import Face, write_card_pack

SAMPLE_FAMILY = 4
PACK_DIR = CONFIG_DIR / "sample-pack"
PHOTO_DIR = CONFIG_DIR / "photos"
#: (file name, seed, hard): the bundled photos.
PHOTOS = (("garden-1.jpg", 11, False), ("garden-hard.jpg", 13, True))


def make_pack(folder: Path = PACK_DIR, family: int = SAMPLE_FAMILY,
              size: tuple[int, int] = (100, 140)) -> Path:
    """Write the SAMPLE pack of ``family`` into ``folder``."""
    deck = load_deck()
    faces = [Face(c, f, draw_face(deck, c, f, family, size)) for c, f in card_faces(deck)]
    return write_card_pack(folder, "glass-garden", "sample", (63, 88), faces,
                           draw_back(family, size),
                           {"note": "SAMPLE art drawn by the simulator (art family "
                                    f"{family}), not the printed cards", "sample": True})


def make_photos(folder: Path = PHOTO_DIR, family: int = SAMPLE_FAMILY) -> list[Path]:
    """Write the bundled photos (JPEG) and their truth files into ``folder``."""
    deck = load_deck()
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, seed, hard in PHOTOS:
        shot = photo(deck, family, np.random.default_rng(seed), hard=hard)
        path = folder / name
        ok, buf = cv2.imencode(".jpg", shot.photo, [cv2.IMWRITE_JPEG_QUALITY, 60])
        if not ok:
            raise OSError(f"could not encode {name}")
        path.write_bytes(buf.tobytes())
        truth = dict(shot.truth, washed=shot.washed)
        (folder / (path.stem + ".truth.json")).write_text(json.dumps(truth, indent=1) + "\n",
                                                          encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":
    print(make_pack())
    for p in make_photos():
        print(p)
