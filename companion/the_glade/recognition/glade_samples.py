"""The bundled photos of a finished SAMPLE game (``config/games/the-glade/photos/game/``):
the glade board and each player's forest with its store, drawn by the table simulator from
``sample-game.json`` in the SAMPLE pack's art (style 1), so ``companion score the-glade
--photos config/games/the-glade/photos/game/game.yaml --model MODEL`` runs from a fresh
clone. Regenerate with ``python -m companion.the_glade.recognition.glade_samples``.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import yaml

from companion.the_glade.recognition.art import SampleArt
from companion.the_glade.recognition.glade_sim import (
    glade_of_state,
    render_forest_photo,
    render_glade_photo,
    sample_glade_pack,
)
from companion.the_glade.recognition.pack import read_pack
from companion.vision.sim import Degradations

CONFIG = Path(__file__).resolve().parents[3] / "config" / "games" / "the-glade"
#: Milder spoilers than the benchmark's, so the photos stay small (noise costs JPEG bytes).
SPOIL = Degradations(noise=False, strength=0.6)
QUALITY = 72


def make_photos(out: Path = CONFIG / "photos" / "game", seed: int = 31) -> Path:
    """Render the sample game's photos, its photo list and the truth into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    state = json.loads((CONFIG / "sample-game.json").read_text(encoding="utf-8"))
    pack = read_pack(CONFIG / "sample-pack")
    glade = sample_glade_pack(SampleArt(1))
    counters, supply = glade_of_state(state)
    photo, _ = render_glade_photo(pack, glade, counters, supply, seed, spoil=SPOIL)
    _jpeg(out / "glade.jpg", photo)
    players = []
    for i, p in enumerate(state["players"]):
        forest = {"board": state["board"], "forest": p["forest"]}
        photo, _ = render_forest_photo(pack, glade, forest, p.get("store", []), [],
                                       seed + 1 + i, spoil=SPOIL)
        name = f"{p['name'].lower()}.jpg"
        _jpeg(out / name, photo)
        players.append({"name": p["name"], "colour": p["colour"], "forest": name})
    (out / "game.yaml").write_text(
        "# A finished SAMPLE game (sample-game.json) photographed by the table simulator.\n"
        + yaml.safe_dump({"glade": "glade.jpg", "variant": "basic", "players": players},
                         sort_keys=False), encoding="utf-8")
    return out


def _jpeg(path: Path, image) -> None:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
    if not ok:
        raise ValueError(f"could not encode {path}")
    path.write_bytes(buf.tobytes())


if __name__ == "__main__":
    print(make_photos())
