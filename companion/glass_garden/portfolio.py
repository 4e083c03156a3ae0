"""The solver's portfolio: several configurations of the anytime solver searching at once.

Beams of different shapes find *different* 16-point plans (see :class:`solver.Config`), and a
Raspberry Pi 4 has 4 cores where the solver uses one. A portfolio of ``W`` searches runs search
0, the solver's own configuration (:data:`solver.DEFAULT_CONFIG`), in the parent process as a
plain :class:`solver.Solver` (so ``W = 1`` is exactly the single solver, and a worker's crash
never costs the parent's own plan), and searches ``1 .. W-1`` in worker processes, each with
the configuration :data:`PORTFOLIO` names for it. Each worker sends every better plan it finds
(its turns' action paths: the parent replays them, checked, from the root) with its proven
bound; the portfolio's plan is the best of all (ties: the lowest search), its bound the least
of the searches' proven bounds (each is a bound on the same optimum), and it is ``optimal`` only
when the plan meets that bound. As soon as it is (a 16 is found anywhere, or one search's bound
meets another's plan) every search is stopped.

Processes. The workers are started with ``forkserver`` (not ``fork``: the service is
multi-threaded), the server preloading this module, so a worker starts in milliseconds once the
server runs (the server itself: one interpreter start and the imports, once per service). They
are kept warm in a :class:`WorkerPool` (:func:`shared_pool`: one per process, reused by every
advice of a game session) and exit by themselves after :data:`IDLE_SECONDS` without work.
Workers are daemons, and each reads its pipe on a thread of its own: the parent gone (killed
too), the pipe ends and the worker exits at once, so none is left behind.

Time. With the wall clock (the service) every search stops at the same instant: ``seconds``
after the portfolio was made, the workers' start-up and the hand-over included. With the CPU
clock (``time.process_time``, the benchmark on a shared machine) each process gets ``seconds``
of its own CPU: the parent from the portfolio's creation (starting the workers and sending
them the position are counted in its time), a new worker from its birth (the fork from the
server and reading the position included; the server's own start-up, once per session, is
not counted), a warm worker from the moment it takes the job.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import gc
import itertools
import multiprocessing
import os
import pickle
import queue
import resource
import threading
import time
import traceback
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from typing import Any

from companion.glass_garden.game import ACTIONS, GROW, OVER, SUNLIGHT, Pending, State, Table
from companion.glass_garden.garden import Garden
from companion.glass_garden.scoring import MAX_SCORE
from companion.glass_garden.solver import (
    BEAM_WIDTHS,
    CACHE_CHILDREN,
    DEFAULT_CONFIG,
    FILLERS,
    PLAIN_LADDER,
    SECOND_SKIPS,
    SKIP1_LADDER,
    Beam,
    Clock,
    Config,
    Plan,
    Result,
    Solver,
)
from companion.glass_garden.turns import Path

#: ``from4g8f``'s fillers (:attr:`solver.Config.fillers`; see :data:`solver.FILLERS`): width-4
#: beams of 8 growers over the root's children from the 17th on, 4 at a time (its widths 8 and
#: 16 took the first 16).
FROM4G8_FILLERS: tuple[Beam, ...] = tuple(Beam(4, 8, skip=k) for k in range(16, 100, 4))
#: The configurations a search may run, by name (see :class:`solver.Config`).
VARIANTS: dict[str, Config] = {
    "ladder": DEFAULT_CONFIG,
    "g8": Config("g8", tuple(Beam(w, 8) for w in BEAM_WIDTHS)),
    "g4": Config("g4", tuple(Beam(w, 4) for w in BEAM_WIDTHS)),
    "first32": Config("first32", first_layer=32),
    "look32": Config("look32", lookahead=32),
    "look64": Config("look64", lookahead=64),
    "from4g8": Config("from4g8", tuple(Beam(w, 8) for w in BEAM_WIDTHS if w >= 4)),
    "look64g8": Config("look64g8", tuple(Beam(w, 8) for w in BEAM_WIDTHS), lookahead=64),
    "first32g8": Config("first32g8", tuple(Beam(w, 8) for w in BEAM_WIDTHS), first_layer=32),
    "plain": Config("plain", PLAIN_LADDER),
    # width 32 and wider from the start (not adopted): alone it found a 16 on 2 of the 9
    # training Ant deals (seeds 100-129) HEAD's pair leaves unproven within 2.5 CPU s (3 of
    # 9 within 3 s), but as the second search instead of ``from4g8`` it proved 19/30 of those
    # Ant deals against 19/30, run at the same time (2026-12-04, load 12-15)
    "w32": Config("w32", tuple(Beam(w) for w in BEAM_WIDTHS if w >= 32)),
    # with fillers (solver.FILLERS, FROM4G8_FILLERS; not adopted: 180 and 179 against 179 and
    # 179 on the 200)
    "fill": replace(DEFAULT_CONFIG, name="fill", fillers=FILLERS),
    "from4g8f": Config("from4g8f", tuple(Beam(w, 8) for w in BEAM_WIDTHS if w >= 4),
                       fillers=FROM4G8_FILLERS),
    # beams rooted at one first turn each (Beam.early: one child of the root, then width 8;
    # not adopted: as the second search 20/30 against 20/30 on training Ant seeds 100-129)
    "rooted8": Config("rooted8", tuple(Beam(8, skip=i, early=(1,)) for i in range(16))),
    # the ladder of 2dcaf40-b4c31cb: beams over other first turns only (SKIP1_LADDER)
    "skip1": Config("skip1", SKIP1_LADDER),
    # its beams over other second turns (Beam.skip_layer 2) all after the first-turn ones
    # (not adopted: on training Ant 100-159 38/60 with from4g8t2, the default's ladder 39/60)
    "t2": Config("t2", (*SKIP1_LADDER[:8], *(Beam(4, skip=k, skip_layer=2)
                                             for k in SECOND_SKIPS), *SKIP1_LADDER[8:])),
    # from4g8 with width-4 beams of 8 growers over other second turns after its width 16
    "from4g8t2": Config("from4g8t2", (*(Beam(w, 8) for w in BEAM_WIDTHS if 4 <= w <= 16),
                                      *(Beam(4, 8, skip=k, skip_layer=2) for k in SECOND_SKIPS),
                                      *(Beam(w, 8) for w in BEAM_WIDTHS if w > 16))),
}
#: The configuration of each search of a portfolio: search 0 (the parent's) the solver's own,
#: search ``k`` the ``k``-th name (beyond the list, round again from its second). Chosen by
#: what each adds to search 0 on the deals it proves least (Ant and Worm seeds 10-22, 2.5 CPU
#: s each, every configuration run alone and the proofs counted by deal, load 10-19): search 0
#: alone proved 11/26; with ``from4g8`` (beams of width 4-128 exploring 8 gardens' growing:
#: search 0 runs widths 1 and 2 itself) 18/26, with ``g4`` 17, ``first32``, ``g8``, ``look32``
#: or ``look64`` 16; three searches 21/26 with ``from4g8`` and ``look32`` (or ``first32``,
#: ``look64``); four 22/26 with ``g4`` (or ``g8``) added. Alone, ``from4g8`` proved 15/26 and
#: ``look32`` (the turn-1 look-ahead on 32 children) 14/26, against 11/26. Since 5 December
#: search 1 is ``from4g8t2`` (``from4g8`` with width-4 beams over other second
#: turns after its width 16) and search 0's ladder has such beams too (solver.BEAM_LADDER; the
#: pair named ``t2mix,from4g8t2`` when measured): on training Ant seeds 100-159 at 2.5 CPU s
#: 39/60 against 36/60 (3abe394's pair, run at the same time); on the benchmark's 200 at 2.5
#: CPU s beside 6fd5957's tree (each from its own git archive, run at the same time, --workers
#: 2 --jobs 1): 182 against 178 (07:23-07:33, load 5-7) and 181 against 176 (07:33-07:47, load
#: 4-9), mean 15.89 and 15.875 against 15.87 and 15.845; at 0.5 s 116/113 against 114/109, at
#: 1 s 151/147 against 148/145; no "optimal" below the best known; summed peak 160-164 MB.
PORTFOLIO: tuple[str, ...] = ("ladder", "from4g8t2", "look32", "g4")
#: Turn outcomes the expansion caches of a portfolio's searches hold together (each search
#: ``PORTFOLIO_CACHE // searches``; a single solver :data:`solver.CACHE_CHILDREN`): each search
#: keeps its own caches. The issue's 40 at 10 CPU s with two searches: at 150,000 each the
#: parent's and worker's peaks summed reached 267 MB (40/40 proven), at 75,000 each 190 MB
#: (39/40: Ant 1 not, whose 16 the worker had found at 7.8 s; 35/40 at 2.5 s against 34/40).
#: At 2.5 s a search's caches stay below 75,000 on the 200 deals (its process peaks at 79 MB).
PORTFOLIO_CACHE = CACHE_CHILDREN
#: Searches at once by default (the game's ``think_workers``): the parent's and one worker.
WORKERS = 2
#: How worker processes are started (never plain ``fork`` from the threaded service).
START_METHOD = "forkserver"
#: A warm worker with no job for this long exits (its memory back to the system).
IDLE_SECONDS = 600.0
#: With the wall clock, how long past the deadline the parent waits for a worker's last word,
#: as a share of ``seconds`` (the searches stop at the same instant; ``--seconds`` is kept to
#: 10%): a worker later than that is left out of the result (not ended: it stops by itself).
GRACE_SHARE = 0.03
#: With the CPU clock (workers may run slower than the parent on a loaded machine), the most
#: wall time the parent waits for a worker's last word: this many times ``seconds``, plus a
#: fixed part.
CPU_WAIT_FACTOR, CPU_WAIT_SECONDS = 20.0, 60.0
#: How long the workers of a search stopped early (proven, or by the caller) get to answer;
#: with no deadline at all (tests), :data:`NO_DEADLINE_WAIT`.
STOP_WAIT, NO_DEADLINE_WAIT = 0.5, 60.0
#: How long a search waits for the pool while another search is giving it back.
BUSY_WAIT = 0.25
CLOCKS: dict[str, Clock] = {"wall": time.monotonic, "cpu": time.process_time}
_PHASES = {p: p for p in (ACTIONS, GROW, SUNLIGHT, OVER)}


def config_of(search: int) -> Config:
    """The configuration search ``search`` of a portfolio runs (see :data:`PORTFOLIO`)."""
    if search < len(PORTFOLIO):
        return VARIANTS[PORTFOLIO[search]]
    return VARIANTS[PORTFOLIO[1 + (search - 1) % (len(PORTFOLIO) - 1)]]


def clock_name(clock: Clock) -> str:
    """The workers' clock for a parent's ``clock``: the CPU clock for ``time.process_time``,
    otherwise the wall clock (a test's own clock cannot cross a process)."""
    return "cpu" if clock is time.process_time else "wall"


# -- a position across processes ----------------------------------------------------------

def pack_state(state: State) -> tuple[bytes, bytes]:
    """``state`` as bytes a worker rebuilds (:func:`unpack_state`): its table (deck and
    critter) and its values. Not the state itself: states and gardens keep their hash, which
    hashes strings, and a string's hash differs from one process to the next."""
    g = state.garden
    values = ((g.cols, g.rows, g.grown, g.glass, g.critter_side), state.turn, state.phase,
              state.actions_left, state.used, state.protected,
              tuple((p.step, p.source) for p in state.pending))
    return pickle.dumps(state.table), pickle.dumps(values)


def unpack_state(packed: tuple[bytes, bytes], tables: dict[bytes, Table]) -> State:
    """The state :func:`pack_state` packed, its hashes worked out here. ``tables`` keeps each
    table met (by its bytes) alive and reused: the engine's caches are keyed by the deck's
    ``id``, which must not be reused by another deck."""
    table_bytes, value_bytes = packed
    table = tables.get(table_bytes)
    if table is None:
        table = tables[table_bytes] = pickle.loads(table_bytes)
    garden, turn, phase, actions_left, used, protected, pending = pickle.loads(value_bytes)
    return State(table, Garden(*garden), turn, _PHASES.get(phase, phase), actions_left, used,
                 protected, tuple(Pending(step, source) for step, source in pending))


def replay(root: State, turns: list[Path], score: int) -> Plan | None:
    """A worker's plan as the parent's :class:`Plan` (each turn's starting state), every action
    checked by the engine; None if it is not legal or does not score ``score``."""
    states: list[State] = []
    state = root
    try:
        for path in turns:
            states.append(state)
            for action in path:
                state = state.apply(action)
    except Exception:  # a wrong plan from a worker is dropped, never used
        return None
    if state.phase != OVER or state.score() != score:
        return None
    return Plan(score, [tuple(p) for p in turns], states)


# -- the worker process ---------------------------------------------------------------------

def _peak_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _trim() -> None:
    """Give freed memory back to the system (glibc), so a warm worker holds little between
    searches."""
    gc.collect()
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _worker(conn: Connection, index: int) -> None:
    """A worker process (its entry point): searches the jobs its pipe brings, one at a time,
    and sends each better plan and its last word back. A thread reads the pipe: ``stop`` halts
    the current search, and the pipe's end (the parent gone, however) ends the process at
    once."""
    jobs: queue.Queue[tuple[Any, ...]] = queue.Queue()
    lock = threading.Lock()
    current: dict[str, Any] = {"job": None, "solver": None}
    stopped: set[int] = set()

    def listen() -> None:
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                os._exit(0)
            if msg is None:
                os._exit(0)
            if msg[0] == "ping":
                send(("pong", index, msg[1]))
            elif msg[0] == "stop":
                with lock:
                    stopped.add(msg[1])
                    if current["job"] == msg[1] and current["solver"] is not None:
                        current["solver"].halt()
            else:
                jobs.put(msg)

    send_lock = threading.Lock()

    def send(msg: tuple[Any, ...]) -> None:
        with send_lock:
            conn.send(msg)

    threading.Thread(target=listen, name="portfolio-pipe", daemon=True).start()
    tables: dict[bytes, Table] = {}
    fresh = True
    while True:
        try:
            _, job, packed, seconds, clock, wall_start, config = jobs.get(timeout=IDLE_SECONDS)
        except queue.Empty:
            os._exit(0)
        read = CLOCKS[clock]
        # the wall clock: the parent's start; the CPU clock: this process's birth for its
        # first job (0: a process's CPU time starts at nothing, the fork from the server
        # included), now for a warm worker's
        start = wall_start if clock == "wall" else (0.0 if fresh else read())
        fresh = False
        try:
            _search(job, index, unpack_state(packed, tables), seconds, read, config, start,
                    send, lock, current, stopped)
        except Exception:  # told to the parent, which searches on without it
            send(("error", index, job, traceback.format_exc(limit=8)))
        finally:
            with lock:
                current.update(job=None, solver=None)
            _trim()  # the search's own tables are gone with _search's frame


def _search(job: int, index: int, root: State, seconds: float | None, read: Clock,
            config: Config, start: float, send: Any, lock: threading.Lock,
            current: dict[str, Any], stopped: set[int]) -> None:
    """One job of a worker: the search, each better plan sent at once, and its last word."""
    solver = Solver(root, seconds, read, config, start=start)

    def improved(plan: Plan) -> None:
        send(("plan", index, job, round(solver.elapsed(), 4), solver.nodes + solver.sun.nodes,
              plan.score, plan.turns, solver.root_bound()))

    solver.on_improve = improved
    with lock:
        current.update(job=job, solver=solver)
        if job in stopped:
            solver.halt()
    result = solver.run()
    solver.on_improve = None
    send(("done", index, job, {
        "config": config.name, "score": result.plan.score, "turns": result.plan.turns,
        "bound": result.bound, "optimal": result.optimal, "nodes": result.nodes,
        "seconds": round(result.seconds, 4), "proven_at": result.proven_at,
        "events": result.events, "rss_mb": _peak_mb(),
        "found_by": result.found_by()}))


@dataclass
class _Process:
    """One worker process and the parent's end of its pipe."""

    process: Any
    conn: Connection

    def alive(self) -> bool:
        return self.process.is_alive() and not self.conn.closed

    def end(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(0.5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(1.0)
        with contextlib.suppress(Exception):
            self.conn.close()


class WorkerPool:
    """Worker processes kept warm between searches (:func:`shared_pool`); one search uses
    them at a time (:meth:`acquire`)."""

    def __init__(self, method: str = START_METHOD) -> None:
        self.method = method
        self.context = multiprocessing.get_context(method)
        if method == "forkserver":
            self.context.set_forkserver_preload(["companion.glass_garden.portfolio"])
        self.procs: dict[int, _Process] = {}  # by search index (1 ..)
        self._busy = threading.Lock()
        self._lock = threading.Lock()
        self.started = 0  # processes started in all

    def _start(self, index: int) -> _Process:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=_worker, args=(child, index),
                                       name=f"glass-garden-worker-{index}", daemon=True)
        process.start()
        child.close()
        self.started += 1
        return _Process(process, parent)

    def acquire(self, count: int, wait: float = 0.0) -> list[tuple[int, _Process]] | None:
        """Searches ``1 .. count``'s processes, started if need be; None if another search
        holds the pool (after ``wait`` seconds)."""
        if not self._busy.acquire(timeout=wait) if wait > 0 else not self._busy.acquire(False):
            return None
        try:
            with self._lock:
                out = []
                for index in range(1, count + 1):
                    proc = self.procs.get(index)
                    if proc is None or not proc.alive():
                        if proc is not None:
                            proc.end()
                        proc = self.procs[index] = self._start(index)
                    out.append((index, proc))
                return out
        except BaseException:
            self._busy.release()
            raise

    def release(self) -> None:
        self._busy.release()

    def warm(self, count: int, timeout: float = 60.0) -> float:
        """Start searches ``1 .. count``'s processes now, and wait until each answers (a game
        screen does it when it opens, so that its first advice finds them ready); the wall
        seconds it took. Nothing if another search holds the pool."""
        t0 = time.monotonic()
        procs = self.acquire(count)
        if procs is None:
            return 0.0
        try:
            for _, proc in procs:
                proc.conn.send(("ping", 0))
            for index, proc in procs:
                if not proc.conn.poll(timeout):
                    self.discard(index)
                    continue
                with contextlib.suppress(EOFError, OSError):
                    proc.conn.recv()
        finally:
            self.release()
        return time.monotonic() - t0

    def discard(self, index: int) -> None:
        """End search ``index``'s process (it did not answer in time, or failed): the next
        search starts a new one."""
        with self._lock:
            proc = self.procs.pop(index, None)
        if proc is not None:
            proc.end()

    def close(self) -> None:
        """End every worker process."""
        with self._lock:
            procs, self.procs = list(self.procs.values()), {}
        for proc in procs:
            proc.end()

    def pids(self) -> list[int]:
        return [p.process.pid for p in self.procs.values() if p.process.pid is not None]


_SHARED: WorkerPool | None = None
_JOBS = itertools.count(1)
_SHARED_LOCK = threading.Lock()


def shared_pool() -> WorkerPool:
    """The process's pool of warm workers, made on first use and closed at exit."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = WorkerPool()
            atexit.register(_SHARED.close)
        return _SHARED


def warm_up(searches: int) -> None:
    """Start the shared pool's workers for portfolios of ``searches`` searches in the
    background (a game screen opening): the first advice then finds them running."""
    if searches > 1:
        threading.Thread(target=lambda: shared_pool().warm(searches - 1),
                         name="glass-garden-warm-up", daemon=True).start()


# -- what the searches found, together ------------------------------------------------------

@dataclass
class SearchView:
    """The parent's view of one search: its best plan, its proven bounds over time (on its own
    clock), and its last word."""

    config: str
    score: int = -1
    plan: Plan | None = None
    bound: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    proven_at: float | None = None
    events: list[tuple[float, int, int]] = field(default_factory=list)
    bounds: list[tuple[float, int]] = field(default_factory=list)
    done: bool = False
    failed: str | None = None
    rss_mb: float | None = None
    found_by: str = ""

    def offer(self, t: float, nodes: int, plan: Plan | None, score: int, bound: int | None
              ) -> None:
        """A plan and bound the search reported at ``t`` (its own clock)."""
        self.nodes = max(self.nodes, nodes)
        if plan is not None and score > self.score:
            self.score, self.plan = score, plan
            self.events.append((t, nodes, score))
        if bound is not None:
            self.bound = bound if self.bound is None else min(self.bound, bound)
            self.bounds.append((t, bound))

    def data(self) -> dict[str, Any]:
        return {"config": self.config, "score": self.score, "bound": self.bound,
                "optimal": self.bound is not None and self.score >= self.bound,
                "states": self.nodes, "seconds": self.seconds, "proven_at": self.proven_at,
                "events": self.events, "rss_mb": self.rss_mb, "done": self.done,
                "failed": self.failed, "found_by": self.found_by}


def combine(views: list[SearchView]) -> tuple[int, int, int, bool, float | None]:
    """The portfolio's verdict from its searches' views: the index of the best plan (ties:
    the lowest), its score, the proven bound (the least the searches proved, never below the
    plan: each search's bound holds for the same optimum), whether the plan is optimal, and
    when it was first so (the earliest time, on the searches' own clocks, by which the best
    score found anywhere met the least bound proven anywhere)."""
    best = max(range(len(views)), key=lambda i: (views[i].score, -i))
    score = views[best].score
    known = [v.bound for v in views if v.bound is not None]
    bound = max(score, min(known)) if known else MAX_SCORE
    optimal = score >= bound
    proven_at = None
    if optimal:
        times = sorted({t for v in views for t, *_ in (*v.events, *v.bounds)})
        for t in times:
            top = max((s for v in views for when, _, s in v.events if when <= t), default=-1)
            low = min((b for v in views for when, b in v.bounds if when <= t), default=None)
            if low is not None and top >= low:
                proven_at = t
                break
        if proven_at is None:
            proven_at = max(times, default=0.0)
    return best, score, bound, optimal, proven_at


# -- one search over the portfolio ----------------------------------------------------------

class Portfolio:
    """``searches`` searches from ``root`` at once (see the module's text): search 0 a
    :class:`Solver` in this process, run by :meth:`run` on the caller's thread; the others on
    ``pool``'s workers (the shared pool by default), started and heard by a thread of its own.
    :meth:`result` at any moment (from another thread too), :meth:`halt` to stop them all."""

    def __init__(self, root: State, seconds: float | None = None, clock: Clock = time.monotonic,
                 searches: int = WORKERS, pool: WorkerPool | None = None,
                 configs: tuple[Config, ...] | None = None) -> None:
        """``configs``: each search's configuration (default :func:`config_of`)."""
        self.count = max(1, searches)
        self.configs = configs or tuple(
            config_of(i) if self.count == 1 else
            replace(config_of(i), cache_children=PORTFOLIO_CACHE // self.count)
            for i in range(self.count))
        self.start = clock()
        self.wall_start = time.monotonic()
        self.root = root
        self.seconds = seconds
        self.clock = clock
        self.clock_name = clock_name(clock)
        self.solver = Solver(root, seconds, clock, self.configs[0], start=self.start)
        if searches > 1:  # each better plan of its own may meet a worker's bound
            self.solver.on_improve = self._own_improved
        self._pool = pool
        self.views = [SearchView(self.configs[i].name) for i in range(self.count)]
        self.log: list[str] = []
        self.job = next(_JOBS)  # the workers' words name it: an earlier search's are dropped
        self._lock = threading.Lock()
        self._abandon = threading.Event()  # the parent waits no more for the workers
        # the parent wakes its listener through this pipe (stopped, done, given up)
        self._wake_r, self._wake_w = multiprocessing.Pipe(duplex=False)
        self._stopped = False
        self._procs: list[tuple[int, _Process]] = []
        self._thread: threading.Thread | None = None
        self.start_seconds: float | None = None  # wall seconds to start the workers
        self.finished = False
        self._final: Result | None = None

    # -- the workers' side --------------------------------------------------------------
    def _hear(self) -> None:
        """Start the workers, send them the job, and take in what they say until each has
        given its last word (or failed, or is given up on)."""
        if self.count < 2:
            return
        pool = self._pool or shared_pool()
        t0 = time.monotonic()
        try:
            # the last search's listener may still be winding down (a few hundredths of a s)
            procs = pool.acquire(self.count - 1, BUSY_WAIT)
        except Exception as exc:  # the parent's own search goes on
            self._note(f"workers not started: {exc!r}")
            for view in self.views[1:]:
                view.failed = "not started"
            return
        if procs is None:
            self._note("workers busy with another search: this one searches alone")
            for view in self.views[1:]:
                view.failed = "busy"
            return
        self.start_seconds = round(time.monotonic() - t0, 4)
        try:
            if self._abandon.is_set():  # the parent is done before the workers started
                for view in self.views[1:]:
                    view.failed = "started too late"
                return
            packed = pack_state(self.root)
            live: dict[Connection, tuple[int, _Process]] = {}
            for index, proc in procs:
                try:
                    proc.conn.send(("solve", self.job, packed, self.seconds, self.clock_name,
                                    self.wall_start, self.configs[index]))
                    live[proc.conn] = (index, proc)
                except Exception as exc:
                    self._fail(index, f"not reached: {exc!r}", pool)
            with self._lock:
                self._procs = list(live.values())
                if self._stopped:
                    self._stop_workers()
            sentinels = {proc.process.sentinel: conn for conn, (_, proc) in live.items()}
            while live and not self._abandon.is_set():
                # woken only by a word, a worker's end or the parent (no polling: each wake-up
                # would take the interpreter's lock from the parent's own search)
                ready = wait_for([*live, *(s for s, c in sentinels.items() if c in live),
                                  self._wake_r])
                heard = False
                for conn in ready:
                    if conn is self._wake_r:
                        with contextlib.suppress(EOFError, OSError):
                            self._wake_r.recv_bytes()
                        continue
                    if isinstance(conn, int):  # a worker's end: seen below
                        continue
                    index, proc = live[conn]  # type: ignore[index]
                    try:
                        msg = conn.recv()  # type: ignore[union-attr]
                    except (EOFError, OSError):
                        self._fail(index, "the worker process ended", pool)
                        del live[conn]  # type: ignore[arg-type]
                        continue
                    heard = True
                    if self._take(msg):
                        del live[conn]  # type: ignore[arg-type]
                for conn, (index, proc) in list(live.items()):
                    if not proc.process.is_alive() and not conn.poll():
                        self._fail(index, f"the worker process died ({proc.process.exitcode})",
                                   pool)
                        del live[conn]
                if heard and self.optimal_now():  # a worker's plan or bound settles it
                    self.stop_all()
            for index, _ in live.values():
                self._fail(index, "no last word in time: left out", None)
        finally:
            with self._lock:
                self._procs = []
            pool.release()

    def _patience(self) -> float:
        """Wall seconds to wait for the workers' last words once the parent's search is over."""
        if self.seconds is None:
            return NO_DEADLINE_WAIT
        if self._stopped:
            return STOP_WAIT
        if self.clock_name == "cpu":
            return CPU_WAIT_FACTOR * self.seconds + CPU_WAIT_SECONDS
        left = self.wall_start + self.seconds - time.monotonic()
        return max(0.0, left) + GRACE_SHARE * self.seconds

    def _take(self, msg: tuple[Any, ...]) -> bool:
        """Take in one message; True if it was the worker's last word for this search."""
        kind, index, job = msg[0], msg[1], msg[2]
        if job != self.job or not 0 < index < self.count:
            return False  # a word of an earlier search
        view = self.views[index]
        if kind == "pong":
            return False
        if kind == "plan":
            t, nodes, score, turns, bound = msg[3:]
            plan = replay(self.root, turns, score) if score > view.score else None
            if score > view.score and plan is None:
                self._note(f"search {index}: a plan that does not replay, dropped")
            with self._lock:
                view.offer(t, nodes, plan, score, bound)
            return False
        if kind == "done":
            data = msg[3]
            plan = (replay(self.root, data["turns"], data["score"])
                    if data["score"] > view.score else None)
            with self._lock:
                view.offer(data["seconds"], data["nodes"], plan, data["score"], data["bound"])
                view.seconds, view.proven_at = data["seconds"], data["proven_at"]
                view.rss_mb, view.found_by, view.done = data["rss_mb"], data["found_by"], True
                view.events = [tuple(e) for e in data["events"]]  # type: ignore[misc]
                if data["proven_at"] is not None:
                    view.bounds.append((data["proven_at"], data["bound"]))
            return True
        self._fail(index, msg[3].strip().splitlines()[-1] if msg[3] else "error", None)
        return True

    def _fail(self, index: int, why: str, pool: WorkerPool | None) -> None:
        with self._lock:
            self.views[index].failed = why
        self._note(f"search {index} ({self.views[index].config}): {why}")
        if pool is not None:
            pool.discard(index)

    def _note(self, line: str) -> None:
        with self._lock:
            self.log.append(line)

    def _stop_workers(self) -> None:
        for _, proc in self._procs:
            with contextlib.suppress(Exception):
                proc.conn.send(("stop", self.job))

    def stop_all(self) -> None:
        """Stop every search (the plan is proven, or the caller asked)."""
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
            self._stop_workers()
        self.solver.halt()

    def _wake(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._wake_w.send_bytes(b"!")

    # -- the parent's side --------------------------------------------------------------
    def _own_improved(self, plan: Plan) -> None:
        if any(v.bound is not None for v in self.views[1:]) and self.optimal_now():
            self.stop_all()

    def optimal_now(self) -> bool:
        """Whether the searches' best plan already meets their least bound."""
        if self.solver.best is None:
            return False
        return self._verdict()[3]

    def _own_view(self) -> SearchView:
        """Search 0's view, read from the solver in this process."""
        s = self.solver
        assert s.best is not None
        r = s.result()
        view = SearchView(s.config.name, r.plan.score, r.plan, r.bound, r.nodes,
                          round(r.seconds, 4), r.proven_at, list(r.events),
                          [(0.0, s.bound(s.root) if s.root.phase != OVER else r.bound),
                           (r.proven_at if r.proven_at is not None else round(r.seconds, 4),
                            r.bound)],
                          s.finished, rss_mb=_peak_mb(), found_by=r.found_by())
        return view

    def _verdict(self) -> tuple[int, int, int, bool, float | None]:
        own = self._own_view()
        with self._lock:
            views = [own, *self.views[1:]]
            return combine(views)

    def run(self, deadline: float | None = None) -> Result:
        """Search until the deadline, the proof, or :meth:`halt`; the portfolio's result."""
        if self.count > 1:
            self._thread = threading.Thread(target=self._hear, name="glass-garden-portfolio",
                                            daemon=True)
            self._thread.start()
        try:
            self.solver.run(deadline)
        finally:
            if self.count > 1 and self.solver.best is not None and self.optimal_now():
                self.stop_all()
            if self._thread is not None:
                self._thread.join(self._patience())
                if self._thread.is_alive():
                    self._abandon.set()
                    self._wake()
                    self._note("workers not done in time: left out")
                    self._thread.join(STOP_WAIT)
            if self._thread is None or not self._thread.is_alive():
                for end in (self._wake_r, self._wake_w):
                    end.close()
        self.finished = True
        self._final = self.result()
        return self._final

    def halt(self) -> None:
        """Stop every search (from another thread); :meth:`run` returns soon after."""
        self.stop_all()

    def result(self) -> Result:
        """The best plan of the searches so far, their least proven bound, and the searches'
        own figures (:attr:`Result.searches`)."""
        if self._final is not None:
            return self._final
        own = self._own_view()
        with self._lock:
            views = [own, *self.views[1:]]
            best, score, bound, optimal, proven_at = combine(views)
            plan = views[best].plan
            assert plan is not None
            events = sorted((e for v in views for e in v.events), key=lambda e: e[0])
            rising: list[tuple[float, int, int]] = []
            for e in events:
                if not rising or e[2] > rising[-1][2]:
                    rising.append(e)
            log = [*self.solver.log, *self.log]
            if best:
                when = next((t for t, _, s in views[best].events if s == score), 0.0)
                log.append(f"{when:.2f}s search {best} ({views[best].config}): {score}")
            searches = [v.data() for v in views]
        return Result(plan, bound, optimal, sum(v.nodes for v in views),
                      round(self.solver.elapsed(), 4), self.solver.first_score, log, rising,
                      proven_at, searches)
