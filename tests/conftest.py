"""Shared fixtures: every test runs without hardware and without the user's own config."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """Keep a developer's ~/.config/companion and /etc/companion out of the tests."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.setattr("companion.paths.user_config_candidates",
                        lambda: [home / "companion" / "companion.yaml"])
    monkeypatch.setattr("companion.config.user_config_candidates",
                        lambda: [home / "companion" / "companion.yaml"])


def check_flow_goldens(shots: list, folder: Path) -> None:
    """Each (caption, screen) against ``folder/flow-NN.png``, and all of them as one contact
    sheet against ``folder/flow-sheet.png``; ``UPDATE_GOLDENS=1`` rewrites them instead."""
    from PIL import Image, ImageChops, ImageDraw

    from companion.ui.screens import font

    update = bool(os.environ.get("UPDATE_GOLDENS"))
    folder.mkdir(exist_ok=True)
    for i, (caption, image) in enumerate(shots):
        path = folder / f"flow-{i:02d}.png"
        if update:
            image.save(path)
        golden = Image.open(path).convert("L")
        assert ImageChops.difference(image.convert("L"), golden).getbbox() is None, caption
    w, h, cols = 256, 128, 4
    rows = -(-len(shots) // cols)
    sheet = Image.new("L", (cols * (w + 10) + 10, rows * (h + 24) + 10), 90)
    draw = ImageDraw.Draw(sheet)
    for i, (caption, image) in enumerate(shots):  # 2x, in reading order, captioned
        x, y = 10 + (i % cols) * (w + 10), 10 + (i // cols) * (h + 24)
        sheet.paste(image.convert("L").resize((w, h), Image.NEAREST), (x, y))
        # the screens' own bitmap font: the same on every Pillow version
        draw.text((x, y + h + 3), f"{i + 1}. {caption}", font=font(), fill=255)
    sheet_path = folder / "flow-sheet.png"
    if update:
        sheet.save(sheet_path)
    assert ImageChops.difference(sheet, Image.open(sheet_path).convert("L")).getbbox() is None


@pytest.fixture
def flow_goldens():
    """:func:`check_flow_goldens`, for the flow contact-sheet tests."""
    return check_flow_goldens
