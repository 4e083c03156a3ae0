"""Enrolment packs for card games (the spec's ``cards.md``): ``pack.yaml`` plus one image per
card face, read whole and checked before anything is learnt.

Generic: the game says which cards exist and which faces each has (``faces_of``); a mistake is
one :class:`~companion.errors.ModelError` naming the entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from companion.errors import CompanionError, ModelError
from companion.storage import read_data_file
from companion.vision.pack_files import read_pack_image, write_png

#: Face images narrower than this (pixels) are refused: the spec asks for 100 px or more.
MIN_SIDE = 100


@dataclass
class Face:
    """One face of one card, its image upright (BGR)."""

    card: str
    face: str
    image: np.ndarray
    file: str = ""
    size_mm: tuple[float, float] | None = None


@dataclass
class CardPack:
    game: str
    deck: str                      # "sample" or the deck file's absolute path
    card_size_mm: tuple[float, float]
    faces: list[Face]
    back: np.ndarray | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _bad(where: str, problem: str) -> ModelError:
    return ModelError(f"enrolment pack: {where}: {problem}; fix pack.yaml (see the spec's "
                      "'Enrolment pack for card games') and enrol again")


def _size(value: Any, where: str) -> tuple[float, float]:
    if (not isinstance(value, list | tuple) or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int | float) or not 10 <= v <= 500
                   for v in value)):
        raise _bad(where, f"must be [width, height] in mm (10-500), not {value!r}")
    return float(value[0]), float(value[1])


def _image(folder: Path, name: Any, where: str) -> np.ndarray:
    image = read_pack_image(folder, name, where, _bad)
    if min(image.shape[:2]) < MIN_SIDE:
        raise _bad(where, f"image {name!r} is {image.shape[1]}x{image.shape[0]} pixels; "
                          f"photograph the face at {MIN_SIDE} px or more across")
    return image


def read_card_pack(folder: Path, game: str,
                   cards_of: Callable[[str], dict[str, tuple[str, ...]]]) -> CardPack:
    """Read and check a pack for ``game``. ``cards_of(deck_ref)`` gives every card of the
    deck the pack names ("sample" or an absolute path) with its faces; a card is looked up
    whatever its case, and every face of every card must be there."""
    folder = Path(folder)
    if folder.is_file():
        folder = folder.parent
    spec = folder / "pack.yaml"
    if not spec.is_file():
        raise ModelError(f"{folder} is not an enrolment pack (no pack.yaml in it); point "
                         "'companion enrol' at the folder that holds pack.yaml")
    try:
        data = read_data_file(spec, "pack.yaml", error=ModelError)
    except ModelError:
        raise
    except CompanionError as exc:
        raise ModelError(str(exc)) from None
    if not isinstance(data, dict):
        raise ModelError(f"{spec} must hold a mapping (game, deck, card_size_mm, faces)")
    if data.get("game") != game:
        raise ModelError(f"{spec} is a pack for {data.get('game')!r}, not {game}; enrol it "
                         f"with 'companion enrol {data.get('game')} ...'")
    deck = data.get("deck", "sample")
    if not isinstance(deck, str) or not deck:
        raise _bad("deck", "must be 'sample' or the deck file's path")
    if deck != "sample":
        path = (folder / deck).resolve()
        if not path.is_file():
            raise _bad("deck", f"no deck file at {path}")
        deck = str(path)
    size = _size(data.get("card_size_mm", [63, 88]), "card_size_mm")
    try:
        cards = cards_of(deck)
    except CompanionError as exc:
        raise _bad("deck", str(exc)) from None
    by_lower = {name.lower(): name for name in cards}
    entries = data.get("faces")
    if not isinstance(entries, list) or not entries:
        raise _bad("faces", "must list the card faces")
    faces: list[Face] = []
    seen: dict[tuple[str, str], int] = {}
    for i, entry in enumerate(entries):
        where = f"faces[{i}]"
        if not isinstance(entry, dict):
            raise _bad(where, "must be {image: FILE, card: NAME, face: SIDE}")
        card = entry.get("card")
        name = by_lower.get(card.lower()) if isinstance(card, str) else None
        if name is None:
            raise _bad(where, f"card {card!r} is not a card of the deck")
        sides = cards[name]
        face = entry.get("face")
        if face not in sides:
            raise _bad(where, f"face {face!r} of {name} is not one of {', '.join(sides)}")
        if (name, face) in seen:
            raise _bad(where, f"{name} {face} is already faces[{seen[(name, face)]}]")
        seen[(name, face)] = i
        own = _size(entry["size_mm"], f"{where}.size_mm") if "size_mm" in entry else None
        faces.append(Face(name, str(face), _image(folder, entry.get("image"), where),
                          str(entry.get("image")), own))
    for name, sides in cards.items():
        for side in sides:
            if (name, side) not in seen:
                raise _bad("faces", f"{name} {side} is missing (every card needs all its "
                                    f"faces: {', '.join(sides)})")
    back = _image(folder, data["back"], "back") if data.get("back") else None
    extra = {k: v for k, v in data.items()
             if k not in ("game", "deck", "card_size_mm", "back", "faces")}
    return CardPack(game, deck, size, faces, back, extra)


def write_card_pack(folder: Path, game: str, deck: str, card_size_mm: tuple[float, float],
                    faces: list[Face], back: np.ndarray | None = None,
                    extra: dict[str, Any] | None = None) -> Path:
    """Write a pack (pack.yaml and PNG faces under faces/) into ``folder``."""
    folder = Path(folder)
    (folder / "faces").mkdir(parents=True, exist_ok=True)
    entries = []
    for i, face in enumerate(faces, 1):
        name = f"faces/{i:04d}.png"
        write_png(folder / name, face.image)
        entries.append({"image": name, "card": face.card, "face": face.face})
    data: dict[str, Any] = {"game": game}
    data.update(extra or {})
    data.update({"deck": deck, "card_size_mm": list(card_size_mm)})
    if back is not None:
        write_png(folder / "back.png", back)
        data["back"] = "back.png"
    data["faces"] = entries
    text = yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100)
    (folder / "pack.yaml").write_text(text, encoding="utf-8")
    return folder


