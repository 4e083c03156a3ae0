"""The jobs of issue #25 for the command line and the service: ``scan the-glade PHOTO
--glade`` (the glade board) and ``score the-glade --photos ...`` (a finished game from
photos, scored by :mod:`companion.the_glade.photo_game` exactly as its state file)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, ModelError, StateError
from companion.report import Report


def _glade_model(model: Path) -> Any:
    from companion.the_glade.recognition.glade_model import load_glade_model

    glade = load_glade_model(Path(model))
    if glade is None:
        raise ModelError(f"model folder {model} was enrolled before glade boards and stores "
                         "were read; enrol again with 'companion enrol the-glade PACK --out "
                         "MODEL'")
    return glade


def scan_glade(photo: Path, *, model: Path, overlay: Path | None = None) -> Report:
    """Read one photo of the glade board: every centre space and each seat's supply."""
    from companion.the_glade.recognition.glade_board import (
        describe_glade,
        draw_glade_overlay,
        read_glade,
    )
    from companion.vision.image import load_image
    from companion.vision.overlay import write_png

    glade = _glade_model(Path(model))
    image = load_image(Path(photo))
    reading = read_glade(glade, image)
    data = reading.result()
    if overlay is not None:
        write_png(Path(overlay), draw_glade_overlay(image, reading))
    return Report(data, describe_glade(data), extras={"seconds": reading.seconds})


def forest_reading(photo: Path, forest_model: Any, glade: Any) -> dict[str, Any]:
    """The forest scan's JSON of one photo file, with its store fields (``glade``: the glade
    model, or the model folder; see :func:`store.store_fields`)."""
    from companion.vision.image import load_image

    return forest_and_store(load_image(Path(photo)), forest_model, glade)


def forest_and_store(image: Any, forest_model: Any, glade: Any) -> dict[str, Any]:
    """The forest scan's JSON of one decoded photo, with its store fields (as ``score
    --photos`` and the table's Score from photos read a player's board; ``glade``: the
    glade model loaded once for them all, or the model folder)."""
    from companion.the_glade.recognition.glade_model import GladeModel, load_glade_model
    from companion.the_glade.recognition.reader import read_board

    if not isinstance(glade, GladeModel):
        glade = load_glade_model(Path(glade))
    reading = read_board(forest_model, image)
    data: dict[str, Any] = reading.result()
    beside_the_board(glade, forest_model, reading, image, data)
    return data


def beside_the_board(glade: Any, forest_model: Any, reading: Any, image: Any,
                     data: dict[str, Any]) -> Any:
    """The forest scan ``data`` of ``reading`` with what the glade model reads besides:
    the store's fields and the match counters in the enclosures, both in the photo's light
    measured once. Returns the store reading (for the overlay), or None without a glade
    model."""
    from companion.the_glade.recognition.enclosed_matches import add_enclosed_matches
    from companion.the_glade.recognition.store import scan_store

    store = scan_store(glade, forest_model, reading, image) if glade is not None else None
    if store is None:
        return None
    found, with_matches = store
    data.update(found.result(with_matches))
    add_enclosed_matches(glade, forest_model, reading, image, data, found.gain)
    return found


def score_photos(photos: Sequence[str], *, model: Path, players: str | None = None,
                 variant: str | None = None, write_state: Path | None = None) -> Report:
    """Score a finished game from the glade board's photo and one forest photo per player
    (or a ``--photos LIST`` file), or refuse naming the first doubt."""
    from companion.the_glade.photo_game import (
        Doubt,
        photo_list_of,
        read_photo_list,
        score_readings,
    )
    from companion.the_glade.recognition.glade_board import read_glade
    from companion.the_glade.recognition.model import load_model
    from companion.vision.image import load_image

    if len(photos) == 1 and Path(photos[0]).suffix.lower() in (".yaml", ".yml", ".json"):
        if players:
            raise StateError("--players is given by the photo list's players:; leave it out "
                             "with --photos LIST")
        plan = read_photo_list(Path(photos[0]))
        if variant is not None and variant != plan.variant:
            raise StateError(f"--variant {variant} but the photo list says {plan.variant}; "
                             "give one")
    else:
        if len(photos) < 3:
            raise StateError("--photos needs the glade board's photo and one forest photo per "
                             "player (2-4), or one .yaml/.json photo list")
        if not players:
            raise StateError("--players NAME:COLOUR,... is needed with --photos GLADE "
                             "FOREST...")
        plan = photo_list_of(photos[0], list(photos[1:]), players, variant or "basic")
    glade_model = _glade_model(Path(model))
    forest_model = load_model(Path(model))
    failed: list[Doubt] = []
    try:
        glade: dict[str, Any] = read_glade(glade_model, load_image(Path(plan.glade_photo))
                                           ).result()
    except CompanionError as exc:
        glade = {"glade": {}, "supply": {}, "uncertain": []}
        failed.append(Doubt(plan.glade_photo, str(exc), "photo"))
    forests = []
    for seat in plan.seats:
        try:
            forests.append(forest_reading(Path(seat.forest_photo), forest_model, glade_model))
        except CompanionError as exc:
            forests.append({"uncertain": [], "store": [], "store_uncertain": 0})
            failed.append(Doubt(seat.forest_photo, str(exc), "photo"))
    return score_readings(plan, glade, forests, write_state, extra=failed)
