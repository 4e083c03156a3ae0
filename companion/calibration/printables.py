"""Printable targets: the ChArUco calibration board and the board-corner markers, as PDF pages.

Pages are drawn at 300 dpi with Pillow and saved as PDF at that resolution, so they print at
their true size when printed at 100% ("actual size", not "fit to page"). Each page carries a
100 mm scale bar to check. ``calibration/make_targets.py`` writes the committed files.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.calibration.charuco import TARGET, Target, aruco, board_image

DPI = 300
PAPERS_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
#: The printable targets, each written once per paper as ``<target>-<paper>.pdf``.
TARGETS = ("charuco", "corner-markers")
#: Where the committed printables are, as messages name it (from the project's folder).
FOLDER = "calibration"


def file_name(target: str, paper: str) -> str:
    """The file :func:`write_all` writes for ``target`` on ``paper``: ``charuco-a4.pdf``."""
    if target not in TARGETS or paper not in PAPERS_MM:
        raise ValueError(f"no printable {target!r} on {paper!r}")
    return f"{target}-{paper}.pdf"


def file_names() -> tuple[str, ...]:
    """Every file :func:`write_all` writes, in its order."""
    return tuple(file_name(t, paper) for paper in PAPERS_MM for t in TARGETS)


def named(target: str) -> str:
    """How a message names a printable: its real files, A4 first.

    >>> named("corner-markers")
    'calibration/corner-markers-a4.pdf (or corner-markers-letter.pdf)'
    """
    first, *others = (file_name(target, paper) for paper in PAPERS_MM)
    return f"{FOLDER}/{first} (or {', '.join(others)})"


_BARE = re.compile(rf"\b(?:{FOLDER}/)?({'|'.join(map(re.escape, TARGETS))})\.pdf\b")


def real_names(text: str) -> str:
    """``text`` with a printable named without its paper (``calibration/corner-markers.pdf``,
    a file that does not exist) named by its real files instead.

    >>> real_names("print calibration/corner-markers.pdf now")
    'print calibration/corner-markers-a4.pdf (or corner-markers-letter.pdf) now'
    """
    return _BARE.sub(lambda m: named(m.group(1)), text)


def mm(value: float) -> int:
    """Millimetres to page pixels at 300 dpi."""
    return round(value * DPI / 25.4)


def _font(size_px: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size_px)  # Pillow >= 10.1
    except TypeError:
        return ImageFont.load_default()


def _page(paper: str) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    w, h = PAPERS_MM[paper]
    page = Image.new("L", (mm(w), mm(h)), 255)
    return page, ImageDraw.Draw(page)


def _scale_bar(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    draw.rectangle((x, y, x + mm(100), y + mm(2)), fill=0)
    for k in range(11):
        draw.line((x + mm(10 * k), y - mm(2), x + mm(10 * k), y + mm(2)), fill=0, width=3)
    draw.text((x + mm(102), y - mm(2)), "100 mm: measure it; if it is not, print at 100% "
              "(actual size)", fill=0, font=_font(mm(3)))


def marker_image(marker_id: int, side_px: int, dictionary: str) -> np.ndarray:
    """One ArUco marker, ``side_px`` square, on any OpenCV version."""
    a = aruco()
    d = a.getPredefinedDictionary(getattr(a, dictionary))
    if hasattr(a, "generateImageMarker"):
        return a.generateImageMarker(d, marker_id, side_px, borderBits=1)
    return a.drawMarker(d, marker_id, side_px, borderBits=1)


def charuco_page(paper: str = "a4", target: Target = TARGET) -> Image.Image:
    """The calibration board centred on a page, with its description and a scale bar."""
    page, draw = _page(paper)
    w_mm, h_mm = target.size_mm
    board = Image.fromarray(board_image(target, DPI / 25.4))
    board = board.resize((mm(w_mm), mm(h_mm)), Image.Resampling.NEAREST)
    x = (page.width - board.width) // 2
    y = mm(12)
    page.paste(board, (x, y))
    font = _font(mm(3.2))
    text_y = y + board.height + mm(5)
    draw.text((x, text_y), f"Table Companion lens calibration board: {target.squares_x} x "
              f"{target.squares_y} squares of {target.square_mm:g} mm, markers "
              f"{target.marker_mm:g} mm, {target.dictionary}", fill=0, font=font)
    draw.text((x, text_y + mm(5)), "Keep it flat (glue it to card). Run 'companion calibrate "
              "camera' and show it from many angles.", fill=0, font=font)
    _scale_bar(draw, x, text_y + mm(13))
    return page.convert("1")


def _dashed_rect(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, y1 = box
    step, dash = mm(3), mm(1.5)
    for x in range(x0, x1, step):
        draw.line((x, y0, min(x + dash, x1), y0), fill=0, width=3)
        draw.line((x, y1, min(x + dash, x1), y1), fill=0, width=3)
    for y in range(y0, y1, step):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=0, width=3)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=0, width=3)


def corner_markers_page(paper: str = "a4", dictionary: str | None = None) -> Image.Image:
    """Four ArUco markers (ids 0-3) to lay upright outside the game board's four corners.

    Each is cut out with a white margin of ``CORNER_MARGIN_MM`` (markers need a light border
    to be found); the cut-out's corner marked with a dot touches the board's corner.
    """
    from companion.calibration.table import (
        CORNER_DICTIONARY,
        CORNER_IDS,
        CORNER_MARGIN_MM,
        CORNER_MARKER_MM,
    )

    dictionary = dictionary or CORNER_DICTIONARY
    page, draw = _page(paper)
    font = _font(mm(3.5))
    side, margin = mm(CORNER_MARKER_MM), mm(CORNER_MARGIN_MM)
    cell_w, cell_h = mm(90), mm(85)
    left = (page.width - 2 * cell_w) // 2
    draw.text((left, mm(12)), "Table Companion board-corner markers (optional)", fill=0,
              font=_font(mm(5)))
    draw.text((left, mm(20)), "Cut out each square along its dashed outline. Lay each just "
              "outside its corner of the board,", fill=0, font=font)
    draw.text((left, mm(25)), "upright (text readable from your seat), the corner with the dot "
              "touching the board's corner.", fill=0, font=font)
    draw.text((left, mm(30)), "Then run 'companion calibrate table'.", fill=0, font=font)
    for k, (marker_id, name) in enumerate(zip(CORNER_IDS, CORNER_NAMES, strict=True)):
        cx = left + (k % 2) * cell_w
        cy = mm(45) + (k // 2) * cell_h
        mx, my = cx + (cell_w - side) // 2, cy + mm(15)
        page.paste(Image.fromarray(marker_image(marker_id, side, dictionary)), (mx, my))
        box = (mx - margin, my - margin, mx + side + margin, my + side + margin)
        _dashed_rect(draw, box)
        # the cut-out's corner nearest the board: bottom-right of the top-left marker, ...
        dot = ((box[2], box[3]), (box[0], box[3]), (box[0], box[1]), (box[2], box[1]))[k]
        draw.ellipse((dot[0] - mm(1.5), dot[1] - mm(1.5), dot[0] + mm(1.5), dot[1] + mm(1.5)),
                     fill=0)
        draw.text((box[0], cy), f"{name} (id {marker_id})", fill=0, font=font)
    _scale_bar(draw, left, page.height - mm(20))
    return page.convert("1")


def write_pdf(image: Image.Image, path: Path) -> Path:
    """Save a page as a one-page PDF that prints at its true size."""
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, "PDF", resolution=DPI)
    return path


def write_all(folder: Path) -> list[Path]:
    """Every printable, for A4 and US Letter, into ``folder``."""
    out = []
    for paper in PAPERS_MM:
        out.append(write_pdf(charuco_page(paper), folder / file_name("charuco", paper)))
        out.append(write_pdf(corner_markers_page(paper),
                             folder / file_name("corner-markers", paper)))
    return out
