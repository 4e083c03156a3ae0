"""The card model folder: what enrolment learnt from a card pack, in a versioned format.

``manifest.json`` (game, format, version, deck, card size, the faces in order, thresholds)
and ``model.npz`` (the face renderings' descriptors). :func:`load_card_model` refuses a
folder of another game or format with one line saying how to make it again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import InputFileError, ModelError
from companion.storage import read_data_file
from companion.vision.cards.faces import DESC_SIZE, FaceModel

FORMAT = "card-faces"
VERSION = 2  # 2: each face's template kept (finding cards by their content)


@dataclass
class CardModel:
    game: str
    deck: str                        # "sample" or a deck file's absolute path
    card_size_mm: tuple[float, float]
    faces: list[tuple[str, str]]     # (card, face) per face index
    model: FaceModel
    manifest: dict[str, Any] = field(default_factory=dict)

    def index(self, card: str, face: str) -> int:
        return self.faces.index((card, face))


def save_card_model(model: CardModel, out: Path) -> None:
    """Write ``model`` into the folder ``out`` (made; an old model folder is replaced)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ModelError(f"{out} is a file; give --out a folder name for the model")
    if out.is_dir() and any(out.iterdir()) and not (out / "manifest.json").is_file():
        raise ModelError(f"{out} is a folder that holds other files; give --out a new or empty "
                         "folder (or an old model folder to replace)")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "model.npz", "wb") as fh:
            np.savez(fh, **model.model.to_arrays())
        manifest = dict(model.manifest)
        manifest.update({"game": model.game, "format": FORMAT, "version": VERSION,
                         "deck": model.deck, "card_size_mm": list(model.card_size_mm),
                         "faces": [{"card": c, "face": f} for c, f in model.faces],
                         "least": model.model.least, "margin": model.model.margin,
                         "desc_size": list(DESC_SIZE)})
        (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                           encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"cannot write the model to {out} ({exc.strerror or exc})") from None


def load_card_model(folder: Path, game: str) -> CardModel:
    """The model in ``folder``, which must be ``game``'s and of this format."""
    folder = Path(folder)
    again = f"make it again with 'companion enrol {game} PACK --out MODEL'"
    if not folder.is_dir():
        raise ModelError(f"model folder {folder} does not exist; {again}")
    path = folder / "manifest.json"
    if not path.is_file():
        raise ModelError(f"model folder {folder} has no manifest.json, so it is not a "
                         f"recognition model; {again}")
    try:  # bounded: a huge or hostile manifest is refused cheaply
        manifest = read_data_file(path, "model manifest", error=ModelError)
    except (ModelError, InputFileError):
        raise ModelError(f"model folder {folder}: manifest.json is corrupt; {again}") from None
    if not isinstance(manifest, dict):
        raise ModelError(f"model folder {folder}: manifest.json is corrupt; {again}")
    if manifest.get("game") != game:
        raise ModelError(f"model folder {folder} is for the game {manifest.get('game')!r}, "
                         f"not {game}; use a model made by 'companion enrol {game}'")
    if (manifest.get("format") != FORMAT or manifest.get("version") != VERSION
            or manifest.get("desc_size") != list(DESC_SIZE)):
        raise ModelError(f"model folder {folder} is in an old format ({manifest.get('format')!r} "
                         f"version {manifest.get('version')!r}); {again}")
    try:
        faces = [(str(f["card"]), str(f["face"])) for f in manifest["faces"]]
        with np.load(folder / "model.npz") as z:
            arrays = {k: z[k] for k in z.files}
        face_model = FaceModel.from_arrays(arrays, len(faces))
        size = manifest["card_size_mm"]
        return CardModel(game, str(manifest["deck"]), (float(size[0]), float(size[1])), faces,
                         face_model, manifest)
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise ModelError(f"model folder {folder}: model.npz is missing or damaged ({exc}); "
                         f"{again}") from None
