"""A table service that plays The Glade on and on, for the power-cut test to kill.

``glade_power_cut_child.py DATA_DIR SEED KILL_AT`` (or ``--server``: lives started from stdin,
each in a fork, see :func:`serve`): it resumes the saved game when there is one
(as the real service offers), then each turn lays a legal placement in front of a stub camera,
rules it, accepts it and ends the turn, pressing the keys a player would for what the screen
shows (so it never drifts out of step with the game). After each acceptance it prints how many
states are saved on disk: what the test may expect to survive.

It pulls its own plug (SIGKILL) at the KILL_AT-th point it passes (0: never): a key about to be
handled, or a step of a save (before and after the data's fsync, the rename and the folder's
fsync), and first prints which. Points are counted, not timed, so the cuts land in the same
places however loaded the machine is; the test may also kill it at a random moment.
"""

from __future__ import annotations

import copy
import os
import random
import signal
import sys
import traceback
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
from companion.ui import service as service_module
from companion.ui.pages import LiveMenuPage, MenuPage, TextPage
from companion.ui.ruling import RulingPage
from companion.ui.service import Context, Service

# one life's settings (see :func:`life`)
data_dir = Path(".")
rng = random.Random(0)
kill_at = 0
passed = 0


def point(name: str) -> None:
    """One more place the plug may be pulled at."""
    global passed
    passed += 1
    if passed == kill_at:
        print(f"kill {name}", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)


real_fsync, real_replace = os.fsync, os.replace


def fsync(fd: int) -> None:
    point("fsync")
    real_fsync(fd)
    point("fsynced")


def replace(src: Any, dst: Any, **kw: Any) -> None:
    point("replace")
    real_replace(src, dst, **kw)
    point("replaced")


os.fsync, os.replace = fsync, replace  # type: ignore[assignment]
real_dispatch = Service.dispatch


def dispatch(self: Service, key: Key) -> None:
    point("key")
    real_dispatch(self, key)


Service.dispatch = dispatch  # type: ignore[method-assign]
service_module.BUSY_POLL = 0.002  # no person's pace to wait for


def fake_scan(ctx: Any, photo: Any) -> dict[str, Any]:
    """The current player's forest with a legal placement from a random rack added (none when
    no tile is left to lay or none fits)."""
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
    pool = [t for t in ALL_TILES if used.get(t, 0) < 2]
    placed: dict[Any, Any] = {}
    for _ in range(10 if pool else 0):
        rack = rng.sample(pool, min(6, len(pool)))
        options = legal_placements(forest, rack)
        if options:
            placed = rng.choice(options)
            break
    tiles = {**forest_tiles, **{sq.name: str(t) for sq, t in placed.items()}}
    return {"board": forest.geometry.to_dict(), "forest": {"tiles": tiles, "counters": {}},
            "uncertain": []}


screens.scan_forest = fake_scan


def report() -> None:
    session = SessionStore(data_dir).load()
    if session:
        print(f"accepted {session.started_at} {len(session.accepted)}", flush=True)


def choose(page: MenuPage, label: str) -> list[Key]:
    """The keys that move to the entry starting with ``label`` and choose it."""
    labels = [c.label for c in page.choices]
    target = next(i for i, text in enumerate(labels) if text.startswith(label))
    return [Key.DOWN] * ((target - page.selected) % len(labels)) + [Key.OK]


ruled = [False]


def play() -> list[Any]:
    """What a player does next, from what the screen shows: start or resume, rule, accept (and
    say it was saved), end the turn. Once the game is over, nothing: the run ends."""
    page = service.page
    if isinstance(page, LiveMenuPage):
        page.refresh()
    if isinstance(page, RulingPage):
        return [Key.OK, report] if page.proposal.ruling.legal else [Key.OK]
    if isinstance(page, MenuPage):
        labels = [c.label for c in page.choices]
        # one placement ruled each turn (legal or not, or nothing seen), then the turn ends
        wants = ("Resume", "New game", "End turn" if ruled[0] else "Rule my placement",
                 "End turn", "The Glade")
        for wanted in wants:
            if any(text.startswith(wanted) for text in labels):
                ruled[0] = wanted == "Rule my placement"
                return choose(page, wanted)
        if page.title in ("Who plays?", "Replace saved game?"):
            return [Key.OK]
        if any(text.startswith("Final score") for text in labels):
            return []  # the game is over: the next run starts another
        return [Key.BACK]
    if isinstance(page, TextPage) and page.alert and "before ending the turn" in page.lines[0]:
        # no tile fits any more: the game cannot go on; the next run starts another
        STUCK.write_text(service.ctx.session().started_at)
        return []
    return [Key.OK]  # a page to read (Accepted, a notice): read it


def life(data: Path, seed: int, kill: int) -> None:
    """One run of the service over ``data`` until its game is over, stuck, or it is killed."""
    global data_dir, rng, kill_at, passed, service, STUCK
    data_dir, rng, kill_at, passed = data, random.Random(seed), kill, 0
    STUCK = data_dir / "stuck"
    saved = SessionStore(data_dir).load()
    if saved is not None and ((saved.current is not None and load_state(
            saved.current, strict=False).finished) or (
            STUCK.exists() and STUCK.read_text() == saved.started_at)):
        SessionStore(data_dir).clear()  # that game is over (or cannot go on): start another
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    settings["camera"]["auto_capture"] = False
    camera = FunctionCamera(lambda n: np.zeros((4, 4, 3), np.uint8))
    ctx = Context(settings, data_dir, camera=camera)
    service = Service(ctx, open_display(settings["display"]), ScriptedButtons([play] * 3000),
                      idle_poll=0)
    service.run()
    print("done", flush=True)


def serve() -> None:
    """Start each life in a fork of this process, which has imported everything once: a line
    ``run DATA SEED KILL_AT STDERR_FILE`` on stdin starts one; ``pid N`` says which process it
    is (to be killed at a random moment), ``exit CODE`` that it ended (-9: killed)."""
    for line in sys.stdin:
        _, data, seed, kill, err = line.split()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the service's life
            code = 0
            try:
                os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
                print(f"pid {os.getpid()}", flush=True)
                life(Path(data), int(seed), int(kill))
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        # on a line of its own: a life killed mid-print leaves half a line behind
        print(f"\nexit {os.waitstatus_to_exitcode(status)}", flush=True)


service: Service
STUCK = Path("stuck")

if __name__ == "__main__":
    if sys.argv[1] == "--server":
        serve()
    else:
        life(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 0)
