"""The Glade's recognition jobs for the command line and the service: ``enrol`` and ``scan``.

``companion enrol the-glade PACK --out MODEL`` and
``companion scan the-glade PHOTO --model MODEL [--overlay OUT.png] [--previous STATE]``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.report import Report
from companion.the_glade.recognition.enrol import enrol as _enrol


def enrol(pack: Path, *, out: Path, quiet: bool = False, lookalikes: bool = True) -> Report:
    """Learn the look of a set of components from an enrolment pack; write a model folder.
    Progress goes to stderr unless ``quiet``; ``lookalikes=False`` skips learning the
    look-alike pairs (for tests of other parts)."""
    if quiet:
        return _enrol(Path(pack), out=Path(out), progress=None, lookalikes=lookalikes)
    return _enrol(Path(pack), out=Path(out), lookalikes=lookalikes)


def scan(photo: Path, *, model: Path, overlay: Path | None = None,
         previous: Path | None = None) -> Report:
    """Read one photo of one forest board: which tile or counter lies on every square."""
    from companion.the_glade.recognition.consistency import contradictions, load_previous
    from companion.the_glade.recognition.glade_jobs import beside_the_board
    from companion.the_glade.recognition.glade_model import load_glade_model
    from companion.the_glade.recognition.model import load_model
    from companion.the_glade.recognition.reader import read_board
    from companion.the_glade.recognition.show import describe_scan, draw_overlay
    from companion.vision.image import load_image
    from companion.vision.overlay import write_png

    loaded = load_model(Path(model))
    before = load_previous(Path(previous)) if previous is not None else None
    image = load_image(Path(photo))
    reading = read_board(loaded, image)
    data: dict[str, Any] = reading.result()
    # the store, and match counters in enclosures (issue #25)
    store = beside_the_board(load_glade_model(Path(model)), loaded, reading, image, data)
    if before is not None:
        data["contradictions"] = contradictions(before, data)
    if overlay is not None:
        write_png(Path(overlay), draw_overlay(
            image, reading, store, (data.get("forest") or {}).get("match_counters")))
    return Report(data, describe_scan(data), extras={"seconds": reading.seconds})
