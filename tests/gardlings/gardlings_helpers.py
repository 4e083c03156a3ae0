"""Shared helpers for the Gardlings tests: the hand-made catalogue and gardens in one line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.gardlings.catalogue import Catalogue, load_catalogue
from companion.gardlings.garden import Garden, Placement

DATA = Path(__file__).parent / "data"
CATALOGUE: Catalogue = load_catalogue(DATA / "catalogue.yaml")
MARIA = DATA / "maria.json"


def garden(text: str, catalogue: Catalogue = CATALOGUE) -> Garden:
    """A garden from ``"P1@0,0 N1@1,0r90"`` (tile@x,y, optional r + rotation)."""
    g = Garden(catalogue)
    for word in text.split():
        tile, _, rest = word.partition("@")
        where, _, rot = rest.partition("r")
        x, y = (int(v) for v in where.split(","))
        g = g.with_tile(Placement(tile, (x, y), int(rot or 0)))
    return g


def player(name: str, g: Garden, **extra: Any) -> dict[str, Any]:
    return {"name": name, "coins": extra.pop("coins", 0), "alarm": extra.pop("alarm", None),
            "mission": extra.pop("mission", None),
            "second_draw_used": extra.pop("second_draw_used", False),
            "garden": [p.to_dict() for p in g], **extra}


def state_data(*players: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"game": "gardlings", "catalogue": str(DATA / "catalogue.yaml"),
            "variant": top.pop("variant", "basic"), "long_game": top.pop("long_game", False),
            "players": list(players), **top}


def write_state(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path
