"""Glass Garden's recognition jobs for the command line and the service.

``companion enrol glass-garden PACK --out MODEL`` and
``companion scan glass-garden PHOTO --model MODEL [--deck DECK] [--overlay OUT.png] [--json]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from companion.errors import CompanionError, ModelError
from companion.glass_garden.deck import Deck
from companion.glass_garden.recognition.enrol import GAME, deck_cards, deck_for
from companion.glass_garden.recognition.enrol import enrol as _enrol
from companion.report import Report


def enrol(pack: Path, *, out: Path) -> Report:
    """Learn every face of an enrolment pack; write a model folder."""
    return _enrol(Path(pack), out=Path(out))


def scan_deck(model: Any, deck: Path | None) -> tuple[Deck, str]:
    """The deck a scan names cards by (``--deck``, else the pack's) and how the state file
    refers to it; refused when the model's cards are not the deck's."""
    if deck is not None:
        ref = str(Path(deck).expanduser().resolve())
        try:
            from companion.storage import read_data_file

            read_data_file(Path(ref), "deck file", error=ModelError)
            loaded = deck_for(ref)
        except CompanionError as exc:
            raise ModelError(f"--deck {deck}: {exc}") from None
    else:
        ref = model.deck
        if ref != "sample" and not Path(ref).is_file():
            raise ModelError(f"the model's deck file {ref} is gone; give --deck DECK")
        loaded = deck_for(ref)
    known = {(c, f) for c, f in model.faces}
    wanted = {(c, f) for c, faces in deck_cards(loaded).items() for f in faces}
    if known != wanted:
        odd = sorted(wanted - known) or sorted(known - wanted)
        card = odd[0][0]
        raise ModelError(f"the deck {Path(ref).name if ref != 'sample' else 'sample'} has "
                         f"cards the model does not know (e.g. {card}); enrol a pack made for "
                         "this deck, or give the deck the pack names with --deck")
    return loaded, ref


def read_photo(model: Any, image: np.ndarray, deck: Deck, ref: str) -> Any:
    """The reading of ``image``, its state file naming the deck as ``ref``."""
    from companion.glass_garden.recognition.reader import read_garden

    reading = read_garden(model, image, deck)
    reading.data["deck"] = ref
    return reading


def describe(data: dict[str, Any]) -> str:
    """Without --json: the same as YAML (the spec)."""
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100).rstrip()


def scan(photo: Path, *, model: Path, deck: Path | None = None,
         overlay: Path | None = None) -> Report:
    """Read one photo of a garden: a Glass Garden state file plus ``uncertain``."""
    from companion.glass_garden.recognition.show import draw_overlay
    from companion.vision.cards.model import load_card_model
    from companion.vision.image import load_image
    from companion.vision.overlay import write_png

    loaded = load_card_model(Path(model), GAME)
    the_deck, ref = scan_deck(loaded, deck)
    image = load_image(Path(photo))
    reading = read_photo(loaded, image, the_deck, ref)
    if overlay is not None:
        write_png(Path(overlay), draw_overlay(image, reading))
    return Report(reading.data, describe(reading.data), extras={"seconds": reading.seconds})
