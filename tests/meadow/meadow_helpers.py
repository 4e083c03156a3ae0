"""A small hand-made catalogue and a short text form of a player area, for Meadow's rule tests.

``area("start-1a+OW | G2", hand="OB OT")``: columns split by ``|``, cards in a column by ``+``
(bottom first); the surroundings as ``lands="L1:D1 L2"`` (a landscape, ``:`` its discovery).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.meadow.catalogue import Catalogue, parse_catalogue
from companion.meadow.meadow import Landscape, PlayerArea

RULEBOOK = Path(__file__).resolve().parents[2].parent / "shared" / "rulebooks" / "meadow.txt"
QUOTED: list[str] = []


def quote(sentence: str) -> Any:
    """Marks a test with the rulebook sentence it checks (checked to be in the rulebook)."""
    QUOTED.append(sentence)

    def mark(fn: Any) -> Any:
        fn.__doc__ = f"Rulebook: {sentence}"
        return fn

    return mark


def _c(cid: str, kind: str, points: int, symbols: list[str], requires: list[str] | None = None,
       ground: str | None = None, deck: str = "W", **extra: Any) -> dict[str, Any]:
    card: dict[str, Any] = {"id": cid, "name": cid, "deck": deck, "type": kind,
                            "points": points, "symbols": symbols, **extra}
    if requires is not None:
        card["requires"] = requires
    if ground is not None:
        card["ground"] = ground
    return card


MINI: dict[str, Any] = {
    "game": "meadow",
    "symbols": ["worm", "bug", "bird", "tree", "paw", "larva"],
    "cards": [
        _c("start-1a", "ground", 0, ["larva"], ground="grass", deck="start",
           other_side="start-1b"),
        _c("start-1b", "ground", 0, [], ground="rocks", deck="start", other_side="start-1a"),
        _c("start-2a", "ground", 0, ["bug"], ground="sands", deck="start",
           other_side="start-2b"),
        _c("start-2b", "ground", 0, ["worm"], ground="wetlands", deck="start",
           other_side="start-2a"),
        _c("G1", "ground", 1, [], ground="grass"),
        _c("G2", "ground", 0, ["worm"], ground="wetlands"),
        _c("G3", "ground", 0, ["bug"], ground="rocks"),
        _c("G4", "ground", 0, ["tree"], ground="sands"),
        _c("G5", "ground", 0, ["bird"], ground="litterfall"),
        _c("OW", "observation", 2, ["bird"], ["worm"]),
        _c("OWB", "observation", 3, ["bird"], ["worm", "bug"]),
        _c("OS", "observation", 2, ["tree"], ["worm/bug"], deck="S"),
        _c("OA", "observation", 4, ["paw"], ["<tree>"], deck="S"),
        _c("OM", "observation", 4, ["paw"], ["<tree>", "bird"], deck="S"),
        _c("OG", "observation", 3, ["larva"], ["grass", "bird"], deck="S"),
        _c("OT", "observation", 1, ["worm", "bug"], ["larva"], deck="E"),
        _c("OE", "observation", 5, ["encounter"], ["bug"], deck="E", envelope="U"),
        _c("OWW", "observation", 3, [], ["worm", "worm"], deck="E"),
        _c("OB", "observation", 2, ["worm"], ["bird"], deck="E"),
        _c("OP", "observation", 1, ["bird"], ["paw"], deck="N"),
        _c("L1", "landscape", 2, ["road"], ["road"], deck="N"),
        _c("L2", "landscape", 3, ["road"], ["road", "bird"], deck="N"),
        _c("D1", "discovery", 3, ["discovery"], ["discovery"], deck="N"),
        _c("D2", "discovery", 5, ["discovery"], ["discovery", "bird", "worm"], deck="N"),
        _c("X1", "observation", 0, [], ["paw"], deck="W"),
        _c("X2", "observation", 0, [], ["paw"], deck="S"),
        _c("X3", "observation", 0, [], ["paw"], deck="E"),
        _c("X4", "observation", 0, [], ["paw"], deck="N"),
    ],
    "goal_tokens": [{"id": "Gw", "symbol": "worm"}, {"id": "Gb", "symbol": "bird"},
                    {"id": "Gg", "symbol": "grass"}, {"id": "Gt", "symbol": "tree"},
                    {"id": "GU", "symbol": "encounter", "envelope": "U"}],
    "path_tokens": [{"token": t, "action": a} for t, a in (
        ("1", "take-card"), ("2", "take-roads"), ("3", "look-three"), ("4", "play-two"),
        ("?", "any"))],
    "campfire_boards": [
        {"players": p, "notches": 6 if p < 4 else 8, "benches": 1, "blocks": b, "rounds": r,
         "goal_spots": 3, "pairs": [[1, 2], [2, 3], [3, 1]]}
        for p, b, r in ((1, 2, 6), (2, 2, 6), (3, 1, 6), (4, 0, 8))],
}


def mini() -> Catalogue:
    return parse_catalogue(MINI, "mini")


CAT = mini()


def area(meadow: str = "start-1a", hand: str = "", lands: str = "", unused: int = 1,
         name: str = "Ada") -> PlayerArea:
    """A player area from the short text form."""
    columns = tuple(tuple(c.strip() for c in col.split("+")) for col in meadow.split("|")
                    if col.strip())
    surroundings = []
    for item in lands.split():
        land, _, found = item.partition(":")
        surroundings.append(Landscape(land, found or None))
    return PlayerArea(name, columns, tuple(surroundings), unused, len(surroundings),
                      tuple(hand.split()), ())
