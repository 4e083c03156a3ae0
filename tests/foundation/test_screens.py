"""Screens are pure functions of their views, checked against committed golden images.

Regenerate the goldens after a deliberate change with ``UPDATE_GOLDENS=1 pytest``; the
contact sheet ``tests/foundation/golden/contact-sheet.png`` then shows every one side by side.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from luma.core.device import dummy
from PIL import Image, ImageChops

from companion.ui.screens import render, wrap
from companion.ui.views import BusyView, MenuView, TextView

GOLDEN = Path(__file__).parent / "golden"

VIEWS = {
    "menu-top": MenuView("Table Companion", ("The Glade", "Glass Garden", "Gardlings",
                                            "Meadow"), 0),
    "menu-scrolled": MenuView("Players", tuple(f"Player {i}" for i in range(1, 8)), 5),
    "text": TextView("The Glade score", ("Winner: Toni", "Toni: 23", "Emma: 19")),
    "text-long": TextView("Rule", ("C4 makes column C three hedgehogs with two acorns, "
                                   "which is not a set.",), offset=1),
    "alert": TextView("Problem", ("No board in the photo: move the camera so the whole board "
                                  "is in view.",), alert=True),
    "busy-spinner": BusyView("Scanning", "Looking at the board...", tick=1),
    "busy-progress": BusyView("Thinking", "Best plan so far: 14", progress=0.6),
}


def shown_on_dummy(image: Image.Image) -> Image.Image:
    device = dummy(mode="1")
    device.display(image)
    return device.image.convert("1")


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_screen_matches_golden(name: str) -> None:
    image = shown_on_dummy(render(VIEWS[name]))
    path = GOLDEN / f"{name}.png"
    if os.environ.get("UPDATE_GOLDENS"):
        GOLDEN.mkdir(exist_ok=True)
        image.save(path)
    golden = Image.open(path).convert("L")
    assert ImageChops.difference(image.convert("L"), golden).getbbox() is None, \
        f"{name} differs from its golden image"


def test_contact_sheet_is_current() -> None:
    """All goldens side by side, 2x, for the README."""
    names = sorted(VIEWS)
    cols = 3
    rows = -(-len(names) // cols)
    sheet = Image.new("L", (cols * 266, rows * 138), 90)
    for i, name in enumerate(names):
        tile = Image.open(GOLDEN / f"{name}.png").convert("L").resize((256, 128), Image.NEAREST)
        sheet.paste(tile, ((i % cols) * 266 + 5, (i // cols) * 138 + 5))
    path = GOLDEN / "contact-sheet.png"
    if os.environ.get("UPDATE_GOLDENS"):
        sheet.save(path)
    assert ImageChops.difference(sheet, Image.open(path).convert("L")).getbbox() is None


def test_every_screen_is_panel_sized_and_one_bit() -> None:
    for view in VIEWS.values():
        image = render(view)
        assert image.size == (128, 64) and image.mode == "1"


def test_wrap_keeps_blank_lines_and_fits_width() -> None:
    lines = wrap(["a " * 40, "", "b"], 128)
    assert "" in lines and all(len(line) <= 21 for line in lines)


@pytest.mark.parametrize("name", ["pages", "players", "models", "ruling"])
def test_ui_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"companion.ui.{name}"))
    assert result.failed == 0 and result.attempted > 0


def test_history_docstring_examples() -> None:
    import doctest

    import companion.history

    result = doctest.testmod(companion.history)
    assert result.failed == 0 and result.attempted > 0
