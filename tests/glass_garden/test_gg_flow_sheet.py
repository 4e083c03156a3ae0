"""Every screen of Glass Garden's table flow against its golden image, and all of them side by
side in one contact sheet for the README (``tests/glass_garden/golden/flow-sheet.png``).

The advice's text depends on how far an anytime search gets, so its screens are checked by
``test_gg_screens.py`` instead. Regenerate after a deliberate change:
``UPDATE_GOLDENS=1 pytest tests/glass_garden/test_gg_flow_sheet.py``.
"""

from __future__ import annotations

import copy
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from companion import games
from companion.config import load_config
from companion.devices.buttons import Key
from companion.devices.display import open_display
from companion.ui.screens import font, render
from companion.ui.service import Context, Service

GOLDEN = Path(__file__).parent / "golden"
K = Key

#: (caption, key): a caption names the screen shown after its key
FLOW: list[tuple[str, Any]] = [
    ("games", None),
    ("", K.DOWN),
    ("game menu", K.OK),
    ("who plays", K.OK),
    ("which critter", K.OK),
    ("column 2", K.OK),
    *[("", K.OK)] * 6,
    ("column 9", K.OK),
    ("the turn", K.OK),
    ("enter a step", K.DOWN),
    ("what did you do", K.OK),
    ("after the step", K.OK),
    ("", K.DOWN),
    ("undo", K.DOWN),
    ("undone", K.OK),
]


@pytest.fixture(autouse=True)
def only_glass_garden(monkeypatch: pytest.MonkeyPatch) -> None:
    """The other games as "coming", whatever they can do: these screens are Glass Garden's."""
    registry = {g.name: g if g.name == "glass-garden" else replace(g, jobs={}, screens="")
                for g in games.all_games()}
    monkeypatch.setattr(games, "_REGISTRY", registry)


def frames(tmp_path: Path) -> list[tuple[str, Image.Image]]:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    service = Service(Context(settings, tmp_path), open_display(settings["display"]),
                      None, idle_poll=0)  # type: ignore[arg-type]
    shots = []
    for caption, key in FLOW:
        if key is not None:
            service.dispatch(key)
        if caption:
            shots.append((caption, render(service.page.view(""))))
    return shots


def test_every_flow_screen_matches_its_golden(tmp_path: Path) -> None:
    shots = frames(tmp_path)
    update = bool(os.environ.get("UPDATE_GOLDENS"))
    GOLDEN.mkdir(exist_ok=True)
    for i, (caption, image) in enumerate(shots):
        path = GOLDEN / f"flow-{i:02d}.png"
        if update:
            image.save(path)
        golden = Image.open(path).convert("L")
        assert ImageChops.difference(image.convert("L"), golden).getbbox() is None, caption
    sheet = contact_sheet(shots)
    sheet_path = GOLDEN / "flow-sheet.png"
    if update:
        sheet.save(sheet_path)
    assert ImageChops.difference(sheet, Image.open(sheet_path).convert("L")).getbbox() is None


def contact_sheet(shots: list[tuple[str, Image.Image]], cols: int = 4) -> Image.Image:
    """The screens at 2x in reading order, each with its caption under it."""
    w, h = 256, 128
    rows = -(-len(shots) // cols)
    sheet = Image.new("L", (cols * (w + 10) + 10, rows * (h + 24) + 10), 90)
    draw = ImageDraw.Draw(sheet)
    for i, (caption, image) in enumerate(shots):
        x, y = 10 + (i % cols) * (w + 10), 10 + (i // cols) * (h + 24)
        sheet.paste(image.convert("L").resize((w, h), Image.NEAREST), (x, y))
        # the screens' own bitmap font: the same on every Pillow version
        draw.text((x, y + h + 3), f"{i + 1}. {caption}", font=font(), fill=255)
    return sheet
