"""Pull the plug on the table service, over and over: it always comes back with every accepted
state (SIGKILL, 50 times: inside a save, before and after each fsync and the rename, at a key
being handled, and at random moments of a scripted game).

The child counts the places it passes and kills itself at the one it was given, so where the
cuts land does not depend on how loaded the machine is; one run in five is instead killed by
this test at a random moment (a wall-clock cut, which may land anywhere, start-up included).
Nothing here asserts on time: the timeouts only stop a hung child. Each life is a fork of one
server process that imported the companion once (a new process, as a restart is).
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

from companion.session import SessionStore

CHILD = Path(__file__).with_name("glade_power_cut_child.py")
#: a counted cut lands at one of the first POINTS places a life passes (a start-up, then about
#: 11 a turn: some 18 turns); each life resumes the game the last one saved, so the cuts reach
#: every turn of a game across lives without one life having to play it through
POINTS = 200
#: a hung child (never a slow one) is stopped after this long
HANG = 300
#: what a life prints once a state is saved: the game (its start time) and how many it holds
ACCEPTED = re.compile(r"accepted (\S+) (\d+)")


def tiles_of(state: dict) -> list[dict]:
    return [p["forest"]["tiles"] for p in state["players"]]


class Lives:
    """The child in ``--server`` mode: it imports the companion once and starts each life of
    the service in a fork of itself (a fresh process each time, as a restart is, without paying
    for the imports again)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        self.proc = subprocess.Popen([sys.executable, str(CHILD), "--server"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def live(self, data: Path, run: int, rng: random.Random) -> tuple[int, list[str], str]:
        """One life of the service: killed at a counted point, or by us at a random moment.
        Returns its exit code, what it printed and its stderr."""
        timed = run % 5 == 4
        kill_at = 0 if timed else rng.randint(1, POINTS)
        cut_after = rng.uniform(0.2, 2.0)  # start-up (about 0.2 s) included
        err = self.folder / f"stderr-{run}.txt"
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"run {data} {run} {kill_at} {err}\n")
        self.proc.stdin.flush()
        out: list[str] = []
        started = time.monotonic()
        pid = 0
        while True:
            wait = HANG
            if timed and pid:
                wait = max(0.01, started + cut_after - time.monotonic())
            try:
                line = self.lines.get(timeout=wait)
            except queue.Empty:
                if timed and pid and time.monotonic() - started < HANG:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)  # a cut at a random moment
                    timed = False
                    continue
                raise AssertionError(f"life {run} hung: {out[-3:]}") from None
            assert line is not None, "the server stopped"
            if line.startswith("pid "):
                pid = int(line.split()[1])
            elif line.startswith("exit ") and line.split()[1].lstrip("-").isdigit():
                return int(line.split()[1]), out, err.read_text()
            else:
                out.append(line)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=HANG)


def test_power_cuts_never_lose_an_accepted_state(tmp_path: Path) -> None:
    rng = random.Random(2026)
    acknowledged: dict[str, int] = {}  # per game (its start time): states reported saved
    history: list[dict] = []
    game = ""
    kills = survived = 0
    where: Counter[str] = Counter()
    data = tmp_path / "data"
    data.mkdir()
    lives = Lives(tmp_path)
    for run in range(150):
        if kills >= 50:
            break
        code, out, err = lives.live(data, run, rng)
        assert code in (0, -signal.SIGKILL), err  # it ends or is cut, never fails
        assert "Traceback" not in err, err
        kills += code == -signal.SIGKILL
        for line in out:
            said = ACCEPTED.fullmatch(line)  # a line cut short by the kill may lose digits:
            if said:                         # that only asks less of what must survive
                started, count = said[1], int(said[2])
                acknowledged[started] = max(acknowledged.get(started, 0), count)
            elif line.startswith("kill "):
                where[line.split()[1]] += 1
        # what a cut between the write and the rename left is removed by the next start
        assert len(list(data.glob(".session.json.*.tmp"))) <= 1
        session = SessionStore(data).load()  # never torn: loads, or raises and fails
        if session is None:  # cut before the (next) game was set up
            continue
        if session.started_at != game:  # a new game after the last one finished
            game, history = session.started_at, []
        assert len(session.accepted) >= acknowledged.get(game, 0), err
        # what survived is what was there before, plus more: nothing rewritten or lost
        assert session.accepted[:len(history)] == history
        for before, after in zip(session.accepted, session.accepted[1:], strict=False):
            for tb, ta in zip(tiles_of(before), tiles_of(after), strict=True):
                assert tb.items() <= ta.items()  # tiles never move or vanish
        survived += len(session.accepted) - len(history)
        history = session.accepted
    lives.close()
    assert kills >= 50
    # cuts landed inside saves (each step of one) and between keys
    assert {"fsync", "fsynced", "replace", "replaced", "key"} <= set(where), where
    assert survived >= 10, survived  # the game went on across the cuts
    print(f"{kills} cuts ({dict(where)} counted, the rest timed), {survived} accepted states "
          "saved across them")
