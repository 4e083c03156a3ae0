"""Every screen of Meadow's table flow against its golden image, and a contact sheet of them.

Regenerate after a deliberate change:
``UPDATE_GOLDENS=1 pytest tests/meadow/test_meadow_flow_sheet.py``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from companion.devices.buttons import Key
from companion.meadow import screens
from companion.session import Session
from companion.ui.pages import Replace
from companion.ui.screens import render

GOLDEN = Path(__file__).parent / "golden"


def _choose(page: Any, label: str) -> Any:
    page.refresh() if hasattr(page, "refresh") else None
    labels = [c.label for c in page.choices]
    page.selected = labels.index(label)
    out = page.handle(Key.OK)
    return out.page if isinstance(out, Replace) else out


def frames(tmp_path: Path) -> list[tuple[str, Any]]:
    ctx = SimpleNamespace(data_dir=tmp_path, settings={"games": {}})
    shots: list[tuple[str, Any]] = []

    def shot(caption: str, page: Any) -> Any:
        shots.append((caption, render(page.view(""))))
        return page

    start = shot("start card", screens.play_page(ctx, Session("meadow", ["Ann"])))
    turn = shot("the turn", _choose(start, start.choices[0].label))
    shot("Rover's news", _choose(turn, "Rover/news"))
    points = shot("Rover's card", _choose(turn, "Rover's card points"))
    _choose(points, "3 points")
    notch = shot("which notch", _choose(turn, "Token placed"))
    _choose(notch, "L2")
    deck = shot("card's deck", _choose(turn, "Play a card"))
    card = shot("which card", _choose(deck, "S"))
    where = shot("where", _choose(card, "S34 Lichen"))
    discards = shot("discards", _choose(where, "on column 1"))
    legal = shot("legal", _choose(discards, "0 cards"))
    legal.handle(Key.OK)
    deck = _choose(turn, "Play a card")
    card = _choose(deck, "N")
    where = _choose(card, "N11 Owl")
    shot("not legal", _choose(_choose(where, "on column 1"), "0 cards"))
    shot("meadow", _choose(turn, "Meadow"))
    shot("score so far", _choose(turn, "Score so far"))
    shot("the turn, token placed", turn)
    shot("Rover again", _choose(turn, "End turn"))
    return shots


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(screens, "new_seed", lambda: 11)


def test_every_flow_screen_matches_its_golden(tmp_path: Path, flow_goldens) -> None:
    flow_goldens(frames(tmp_path), GOLDEN)
