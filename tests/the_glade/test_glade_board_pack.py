"""The pack's glade: and match_counters: sections: read back as written, and every bad entry
refused with one ModelError naming it (never a traceback, never a model reading spaces in
the wrong place)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from companion.errors import ModelError
from companion.the_glade.recognition.glade_pack import (
    GladeFace,
    GladePack,
    MatchFace,
    read_glade_pack,
)
from companion.the_glade.recognition.glade_sim import glade_layout, write_glade_pack


def _pack(folder: Path) -> Path:
    """A small pack folder holding only the glade sections (plain images suffice here)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.yaml").write_text("game: the-glade\n", encoding="utf-8")
    spaces, seats = glade_layout()
    image = np.full((1100, 1100, 3), 120, np.uint8)
    face = GladeFace(image, "glade.png", 56.0, spaces, {1: seats[1], 2: seats[2]})
    matches = (MatchFace(np.full((64, 64, 3), 200, np.uint8), "match/a.png", "leaf", "oak", 4),
               MatchFace(np.full((64, 64, 3), 90, np.uint8), "match/b.png", "creature",
                         "mouse/oak", 1))
    return write_glade_pack(GladePack(face, matches), folder)


def _edit(folder: Path, change) -> None:
    data = yaml.safe_load((folder / "pack.yaml").read_text(encoding="utf-8"))
    change(data)
    (folder / "pack.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")


def test_a_written_pack_reads_back(tmp_path: Path) -> None:
    read = read_glade_pack(_pack(tmp_path / "p"))
    assert read.glade is not None and len(read.glade.spaces) == 64
    assert sorted(read.glade.seats) == [1, 2] and all(len(s) == 12 for s in
                                                      read.glade.seats.values())
    assert read.glade.spaces["hedgehog/acorn/beech"] == glade_layout()[0]["hedgehog/acorn/beech"]
    assert [m.to_dict() for m in read.match_counters] == [
        {"kind": "leaf", "icon": "oak", "value": 4},
        {"kind": "creature", "icon": "mouse/oak", "value": 1}]


def test_a_pack_without_the_sections_has_neither(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text("game: the-glade\n", encoding="utf-8")
    read = read_glade_pack(tmp_path)
    assert read.glade is None and read.match_counters == ()


def _drop_tile(d: dict[str, Any]) -> None:
    d["glade"]["spaces"].pop("toad/mushroom/oak")


def _same_tile_twice(d: dict[str, Any]) -> None:
    d["glade"]["spaces"]["Toad/Mushroom/Oak "] = [10, 10]


BAD = [
    ("glade", lambda d: d.__setitem__("glade", [1, 2])),
    ("glade.spcaes", lambda d: d["glade"].__setitem__("spcaes", {})),
    ("glade", lambda d: d["glade"].pop("seats")),
    ("glade", lambda d: d["glade"].__setitem__("image", "nope.png")),
    ("glade.counter", lambda d: d["glade"].__setitem__("counter", 3)),
    ("glade.counter", lambda d: d["glade"].__setitem__("counter", True)),
    ("glade.spaces", _drop_tile),
    ("glade.spaces.toad/mushroom/oak", _same_tile_twice),
    ("glade.spaces.hedgehog/acorn/beech",
     lambda d: d["glade"]["spaces"].__setitem__("hedgehog/acorn/beech", [5000, 10])),
    ("glade.spaces.hedgehog/acorn/beech",
     lambda d: d["glade"]["spaces"].__setitem__("hedgehog/acorn/beech", "here")),
    ("glade.spaces.bear/acorn/beech",
     lambda d: d["glade"]["spaces"].__setitem__("bear/acorn/beech", [1, 1])),
    ("glade.seats.1", lambda d: d["glade"]["seats"][1].pop()),
    ("glade.seats.5", lambda d: d["glade"]["seats"].__setitem__(5, [list(p) for p in
                                                               d["glade"]["seats"][1]])),
    ("glade.seats", lambda d: d["glade"]["seats"].pop(1)),
    ("glade.spaces/seats",
     lambda d: d["glade"]["seats"][1].__setitem__(0, list(d["glade"]["seats"][1][1]))),
    ("match_counters", lambda d: d.__setitem__("match_counters", {})),
    ("match_counters[0]", lambda d: d["match_counters"][0].__setitem__("kind", "tree")),
    ("match_counters[0]", lambda d: d["match_counters"][0].__setitem__("value", 5)),
    ("match_counters[1]", lambda d: d["match_counters"][1].__setitem__("value", 2)),
    ("match_counters[1]", lambda d: d["match_counters"][1].__setitem__("icon", "oak")),
    ("match_counters[0].colour", lambda d: d["match_counters"][0].__setitem__("colour", 1)),
    ("match_counters[1]", lambda d: d["match_counters"][1].__setitem__("image", "x.png")),
]


@pytest.mark.parametrize("where, change", BAD, ids=[f"{i}-{w}" for i, (w, _) in
                                                   enumerate(BAD)])
def test_every_bad_entry_is_refused_naming_it(tmp_path: Path, where: str, change) -> None:
    folder = _pack(tmp_path / "p")
    _edit(folder, change)
    with pytest.raises(ModelError) as caught:
        read_glade_pack(folder)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"enrolment pack: {where}")
