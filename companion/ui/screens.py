"""Screens: pure functions from a view to a 1-bit Pillow image of the panel's size.

The layout is a status line on top and at most four lines of text below it, in Pillow's
built-in 6x11 bitmap font (the same glyphs on every Pillow version, so golden images hold).
"""

from __future__ import annotations

import textwrap
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from companion.ui.views import BusyView, MenuView, TextView, View

LINE_HEIGHT = 12
CHAR_WIDTH = 6
STATUS_HEIGHT = 11
SPINNER = "|/-\\"


@cache
def font() -> ImageFont.ImageFont:
    """Pillow's bitmap font (``load_default`` is a scalable font on newer Pillow)."""
    loader = getattr(ImageFont, "load_default_imagefont", None)
    return loader() if loader else ImageFont.load_default()  # type: ignore[return-value]


def visible_lines(height: int) -> int:
    """How many text lines fit below the status line."""
    return max(1, (height - STATUS_HEIGHT - 1) // LINE_HEIGHT)


def columns(width: int) -> int:
    return width // CHAR_WIDTH


def wrap(lines: tuple[str, ...] | list[str], width: int) -> list[str]:
    """Lines wrapped to the panel's width in characters (empty lines kept)."""
    out: list[str] = []
    for line in lines:
        out.extend(textwrap.wrap(line, columns(width), break_long_words=True) or [""])
    return out


def _status(draw: ImageDraw.ImageDraw, width: int, text: str, invert: bool = False) -> None:
    if invert:
        draw.rectangle((0, 0, width - 1, STATUS_HEIGHT - 1), fill=1)
    draw.text((1, 0), text[: columns(width)], font=font(), fill=0 if invert else 1)
    if not invert:
        draw.line((0, STATUS_HEIGHT, width - 1, STATUS_HEIGHT), fill=1)


def _scrollbar(draw: ImageDraw.ImageDraw, width: int, height: int, first: int, shown: int,
               total: int) -> None:
    if total <= shown:
        return
    top = STATUS_HEIGHT + 2
    span = height - top
    bar = max(4, span * shown // total)
    y = top + (span - bar) * first // max(1, total - shown)
    draw.rectangle((width - 2, y, width - 1, y + bar - 1), fill=1)


def render_menu(view: MenuView, size: tuple[int, int]) -> Image.Image:
    width, height = size
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    _status(draw, width, view.status or view.title)
    rows = visible_lines(height)
    first = min(max(0, view.selected - rows + 1), max(0, len(view.items) - rows))
    first = max(0, min(first, view.selected))
    for i, item in enumerate(view.items[first:first + rows]):
        y = STATUS_HEIGHT + 2 + i * LINE_HEIGHT
        text = item[: columns(width) - 2]
        if first + i == view.selected:
            draw.rectangle((0, y - 1, width - 4, y + LINE_HEIGHT - 2), fill=1)
            draw.text((2, y), text, font=font(), fill=0)
        else:
            draw.text((2, y), text, font=font(), fill=1)
    _scrollbar(draw, width, height, first, rows, len(view.items))
    return img


def render_text(view: TextView, size: tuple[int, int]) -> Image.Image:
    width, height = size
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    _status(draw, width, view.status or view.title, invert=view.alert)
    lines = wrap(view.lines, width - 3)
    rows = visible_lines(height)
    first = max(0, min(view.offset, len(lines) - rows))
    for i, line in enumerate(lines[first:first + rows]):
        draw.text((1, STATUS_HEIGHT + 2 + i * LINE_HEIGHT), line, font=font(), fill=1)
    _scrollbar(draw, width, height, first, rows, len(lines))
    return img


def render_busy(view: BusyView, size: tuple[int, int]) -> Image.Image:
    width, height = size
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    _status(draw, width, view.status or view.title)
    lines = wrap([view.message], width)[:2]
    for i, line in enumerate(lines):
        draw.text((1, STATUS_HEIGHT + 2 + i * LINE_HEIGHT), line, font=font(), fill=1)
    y = height - 12
    if view.progress is None:
        draw.text((width // 2 - 3, y), SPINNER[view.tick % len(SPINNER)], font=font(), fill=1)
    else:
        done = int((width - 5) * max(0.0, min(1.0, view.progress)))
        draw.rectangle((2, y, width - 3, y + 8), outline=1, fill=0)
        if done:
            draw.rectangle((3, y + 1, 2 + done, y + 7), fill=1)
    return img


def render(view: View, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """The screen for any view."""
    if isinstance(view, MenuView):
        return render_menu(view, size)
    if isinstance(view, TextView):
        return render_text(view, size)
    return render_busy(view, size)
