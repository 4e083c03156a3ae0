"""Writes the bundled example state files (on the SAMPLE catalogue) from seeded bot games.

Run from the checkout: ``.venv/bin/python config/games/gardlings/make_examples.py``.

* ``sample-round.json``: Maria and Tom at the end of a round's building (``score``);
* ``sample-check-before.json``, ``sample-check-after.json`` (a legal tile),
  ``sample-check-illegal.json`` (a tile whose halves do not match): ``check``;
  ``sample-check-before.json`` with ``--tile`` the tile of ``-after``: ``hint``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.games.interface import CHANCE, sample_chance
from companion.gardlings.advice import SimpleBot
from companion.gardlings.game import HIRE, Place
from companion.gardlings.placement import breaches, candidates
from companion.gardlings.rules import RULES
from companion.gardlings.state_file import dump_state

HERE = Path(__file__).resolve().parent
SPEC_PLAYER = ("name", "coins", "alarm", "mission", "second_draw_used", "garden")


def spec_only(state: Any) -> dict[str, Any]:
    """The state file with the spec's fields only (as a player would write it)."""
    data = dump_state(state)
    out = {k: data[k] for k in ("game", "variant", "long_game")}
    out["players"] = [{k: p[k] for k in SPEC_PLAYER} for p in data["players"]]
    out["market"] = {"stacks": {name: {k: v for k, v in s.items() if k != "ids"}
                                for name, s in data["market"]["stacks"].items()},
                     "piglets": data["market"]["piglets"]}
    return out


def write(name: str, data: dict[str, Any]) -> None:
    (HERE / name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    rng = random.Random(3)
    bot = SimpleBot()
    state = RULES.new_game(["Maria", "Tom"], None, {"seed": 3})
    check_written = False
    while True:
        if state.current_player() == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        if state.phase == HIRE and state.round == 3:
            write("sample-round.json", spec_only(state))
            break
        seat = state.to_hire[0] if state.phase == HIRE else next(
            i for i, s in enumerate(state.seats) if not s.stopped)
        action = bot.choose(state, seat, rng)
        if (not check_written and state.round == 2 and isinstance(action, Place) and
                seat == 0 and len(state.seats[0].garden) >= 4):
            before = spec_only(state)
            write("sample-check-before.json", before)
            write("sample-check-after.json", spec_only(state.apply(action)))
            garden = state.seats[0].garden
            tile = garden.tile(action.placement.tile)
            bad = next(p for p in candidates(garden, tile)
                       if [b.rule for b in breaches(garden, p)][:1] == ["edge"])
            illegal = json.loads(json.dumps(before))
            illegal["players"][0]["garden"].append(bad.to_dict())
            write("sample-check-illegal.json", illegal)
            print("hint tile:", tile.id)
            check_written = True
        state = state.apply(action)


if __name__ == "__main__":
    main()
