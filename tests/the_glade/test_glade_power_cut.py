"""Pull the plug at random moments of a game at the table: it always resumes with every
accepted state (SIGKILL, 50 times, at random points of a scripted game)."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.session import SessionStore

CHILD = Path(__file__).with_name("glade_power_cut_child.py")


def tiles_of(state: dict) -> list[dict]:
    return [p["forest"]["tiles"] for p in state["players"]]


def test_power_cuts_never_lose_an_accepted_state(tmp_path: Path) -> None:
    rng = random.Random(2026)
    acknowledged: dict[str, int] = {}  # per game (its start time): states reported saved
    history: list[dict] = []
    game = ""
    kills = survived = 0
    for run in range(200):
        if kills >= 50:
            break
        proc = subprocess.Popen([sys.executable, str(CHILD), str(tmp_path), str(run)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(rng.uniform(0.3, 1.0))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        out, err = proc.communicate(timeout=30)
        for line in out.splitlines():
            if line.startswith("accepted "):
                _, started, count = line.split()
                acknowledged[started] = max(acknowledged.get(started, 0), int(count))
        session = SessionStore(tmp_path).load()  # never torn: loads, or raises and fails
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
    assert kills >= 50
    assert survived >= 10, survived  # the game went on across the cuts
    print(f"{kills} cuts, {survived} accepted states saved across them")
