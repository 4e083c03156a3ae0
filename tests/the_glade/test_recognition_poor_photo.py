"""Hard photos (issue #20): which close calls a poor photo still lets stand.

A photo with more than POOR_PHOTO of its squares in doubt doubts every close call too (z
under POOR_Z); a tile named firmly enough by its first look (POOR_FIRM_Z) and by a closer
look that agrees and fits the photo well (POOR_NOISE) keeps its name. A photo nearing poor
(over POOR_FROM) doubts its weakest overruled close calls, more as its share rises
(POOR_GRADED). On evidence built by hand.
"""

from __future__ import annotations

from companion.the_glade.recognition import reader
from companion.the_glade.recognition.reader import (
    POOR_FIRM_Z,
    POOR_NOISE,
    POOR_PHOTO,
    POOR_Z,
    SquareReading,
    _doubt_poor_photo,
)


def _poor_photo(close: SquareReading) -> list[SquareReading]:
    """Three look-alike doubts among ten squares (a poor photo), and ``close``."""
    squares = [SquareReading(f"A{k}", "uncertain", reason="looks like A or B",
                             doubt="look-alike")
               for k in range(1, 4)]
    squares += [SquareReading(f"B{k}", "empty") for k in range(1, 7)]
    return [*squares, close]


def _close(z: float, agree: float, noise: float | None) -> SquareReading:
    """A tile named A by a close call: the first look's ``z``, whether the closer look named
    A too (``agree``) and how its best face misfits the photo (``noise``; None: no look)."""
    distances = {"z": z, "agree": agree}
    if noise is not None:
        distances["detail_noise"] = noise
    return SquareReading("C1", "tile", name="A", distances=distances)


def test_a_firm_call_both_looks_agree_on_in_a_good_fit_stands_in_a_poor_photo() -> None:
    assert POOR_PHOTO * 10 < 3 and POOR_FIRM_Z < POOR_Z
    firm = _close(POOR_FIRM_Z + 0.1, 1.0, POOR_NOISE / 2)
    read = _doubt_poor_photo(_poor_photo(firm))[-1]
    assert (read.kind, read.name) == ("tile", "A")


def test_a_weaker_call_in_a_poor_photo_is_still_doubted() -> None:
    for weak in (_close(POOR_FIRM_Z - 0.1, 1.0, POOR_NOISE / 2),  # first look not firm
                 _close(POOR_FIRM_Z + 0.1, 0.0, POOR_NOISE / 2),  # the looks disagree
                 _close(POOR_FIRM_Z + 0.1, 1.0, POOR_NOISE * 2),  # the closer look misfits
                 _close(POOR_FIRM_Z + 0.1, 1.0, None)):            # no closer look
        read = _doubt_poor_photo(_poor_photo(weak))[-1]
        assert read.kind == "uncertain" and read.doubt == "poor-photo", weak.distances
    # in a photo that is not poor, even the weakest close call keeps its name
    good = [SquareReading(f"B{k}", "empty") for k in range(1, 10)]
    weak = _close(0.1, 0.0, POOR_NOISE * 2)
    assert _doubt_poor_photo([*good, weak])[-1].kind == "tile"


def _poorish_photo(unsure: int, close: SquareReading) -> list[SquareReading]:
    """``unsure`` look-alike doubts among 20 squares (under POOR_PHOTO), and ``close``."""
    squares = [SquareReading(f"A{k}", "uncertain", reason="looks like A or B",
                             doubt="look-alike") for k in range(unsure)]
    squares += [SquareReading(f"B{k}", "empty") for k in range(19 - unsure)]
    return [*squares, close]


def test_an_overruled_close_call_is_doubted_as_a_photo_nears_poor(monkeypatch) -> None:
    """Between POOR_FROM and POOR_PHOTO of the squares in doubt, a close call the closer
    look named against the first look is doubted when its first look's z is under POOR_Z
    scaled by how far the share has risen towards POOR_PHOTO; one both looks agree on, a
    firmer one, or one in a photo at POOR_FROM or under, stands."""
    monkeypatch.setattr(reader, "POOR_GRADED", True)
    unsure = 3  # 3 of 20 squares in doubt (0.15): between POOR_FROM and POOR_PHOTO
    share = unsure / 20
    assert reader.POOR_FROM < share < POOR_PHOTO
    limit = POOR_Z * (share - reader.POOR_FROM) / (POOR_PHOTO - reader.POOR_FROM)
    overruled = _close(limit - 0.1, 0.0, POOR_NOISE / 2)
    read = _doubt_poor_photo(_poorish_photo(unsure, overruled))[-1]
    assert (read.kind, read.doubt, read.name) == ("uncertain", "poor-photo", "A")
    for stands in (_close(limit - 0.1, 1.0, POOR_NOISE / 2),   # the looks agree
                   _close(limit + 0.1, 0.0, POOR_NOISE / 2)):  # a firmer first look
        assert _doubt_poor_photo(_poorish_photo(unsure, stands))[-1].kind == "tile"
    few = int(reader.POOR_FROM * 20)  # at POOR_FROM or under: a good photo
    weakest = _close(0.0, 0.0, POOR_NOISE / 2)
    assert _doubt_poor_photo(_poorish_photo(few, weakest))[-1].kind == "tile"
