"""A table service that plays The Glade on and on, for the power-cut test to kill.

It resumes the saved game when there is one (as the real service offers), then each turn lays
a legal placement in front of a stub camera, rules it, accepts it and ends the turn. After each
acceptance it prints how many states are saved on disk: what the test may expect to survive.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.camera import FunctionCamera
from companion.devices.display import open_display
from companion.session import SessionStore
from companion.the_glade import screens
from companion.the_glade.coach import legal_placements
from companion.the_glade.names import ALL_TILES
from companion.the_glade.state_file import dump_state, load_state
from companion.ui.service import Context, Service

data_dir = Path(sys.argv[1])
rng = random.Random(int(sys.argv[2]))


def fake_scan(ctx: Any, photo: Any) -> dict[str, Any]:
    """The current player's forest with a legal placement from a random rack added."""
    session = SessionStore(ctx.data_dir).load()
    state = load_state(session.current, strict=False) if session and session.current else None
    if state is None:
        forest_tiles: dict[str, str] = {}
        from companion.the_glade.forest import Forest
        from companion.the_glade.names import BoardGeometry
        forest = Forest(BoardGeometry())
    else:
        player = state.player(state.current or state.starter)
        forest = player.forest
        forest_tiles = dump_state(state)["players"][state.players.index(player)][
            "forest"]["tiles"]
    used: dict[Any, int] = {}
    if state is not None:  # the box holds two of each tile
        for p in state.players:
            for t in p.forest.tiles.values():
                used[t] = used.get(t, 0) + 1
    for _ in range(50):
        rack = rng.sample([t for t in ALL_TILES if used.get(t, 0) == 0], 8)
        options = legal_placements(forest, rack)
        if options:
            placed = rng.choice(options)
            break
    else:
        placed = {}
    tiles = {**forest_tiles, **{sq.name: str(t) for sq, t in placed.items()}}
    return {"board": forest.geometry.to_dict(), "forest": {"tiles": tiles, "counters": {}},
            "uncertain": []}


screens.scan_forest = fake_scan


def report() -> None:
    session = SessionStore(data_dir).load()
    if session:
        print(f"accepted {session.started_at} {len(session.accepted)}", flush=True)


def pause() -> None:
    """A person's pace, so that cuts land anywhere in a turn."""
    time.sleep(rng.uniform(0.0, 0.06))


saved = SessionStore(data_dir).load()
if saved is not None and saved.current is not None and load_state(saved.current,
                                                                   strict=False).finished:
    SessionStore(data_dir).clear()  # that game is over: start another
    saved = None
start = [Key.OK] if saved is not None else [Key.OK, Key.OK, Key.OK]
# rule, accept, (saved), read, end turn
turn = [pause, Key.OK, pause, Key.OK, report, pause, Key.OK, pause, Key.OK]
settings = copy.deepcopy(dict(load_config(candidates=[]).values))
settings["display"]["driver"] = "dummy"
camera = FunctionCamera(lambda n: np.zeros((4, 4, 3), np.uint8))
ctx = Context(settings, data_dir, camera=camera)
Service(ctx, open_display(settings["display"]), ScriptedButtons(start + turn * 40),
        idle_poll=0).run()
print("done", flush=True)
