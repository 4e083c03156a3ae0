"""Memory of the table service while it scans.

A child process does what ``companion run`` does for a ruling: loads the recognition model
(enrolled beforehand from the bundled SAMPLE pack, as a user enrols their own copy), takes
photos from the camera port (the bundled 1640x1232 photos through the file camera) and reads
each board. It reports its resident memory before the first scan, and its peak, and the
median scan's wall and CPU time (the photo's capture included; on a shared machine the
wall time says more about the load than the scan).

Target (issue "The table service"): under 250 MB while scanning. Run:
``.venv/bin/python benchmarks/service_scanning.py`` (``--threads 1``: OpenCV on one thread,
whose CPU time varies less with the machine's load than that of its threads summed;
``--stages``: also each stage's CPU time a scan, the mean over the scans; ``--scan-threads
0``: the scan on one thread, none beside it). The enrolment and the scanning process run in
the checkout this file lies in (their working directory, first on their import path), so a
baseline is measured by running its own copy of this file (``git archive`` of it, then
``python BASE/benchmarks/service_scanning.py``): PYTHONPATH alone does not reach them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import resource, sys, time
from pathlib import Path
import cv2
if int(sys.argv[3]) > 0:
    cv2.setNumThreads(int(sys.argv[3]))
from companion.devices.camera import FileCamera
from companion.the_glade.recognition.model import load_model
from companion.the_glade.recognition.reader import read_board

def rss():
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

STAGES = {}

def timed(owner, name, label, clock=time.thread_time):
    # owner.name wrapped: its CPU time added up under label: the calling thread's (a scan
    # runs parts on a thread of its own, evidence.THREADS), or the process's (process_time:
    # stages that hold every thread's work)
    f = getattr(owner, name, None)
    if f is None:
        return
    def wrapper(*args, **kwargs):
        c0 = clock()
        try:
            return f(*args, **kwargs)
        finally:
            STAGES[label] = STAGES.get(label, 0.0) + clock() - c0
    setattr(owner, name, wrapper)

from companion.the_glade.recognition import evidence, reader
if int(sys.argv[5]) >= 0:
    evidence.THREADS = int(sys.argv[5])
if sys.argv[4] == "1":
    from companion.vision import board
    timed(reader, "locate", "find the board", time.process_time)
    timed(reader, "PhotoFeatures", "  ORB features of the photo")
    timed(board.BoardFinder, "_match", "  feature matching")
    timed(board.BoardFinder, "refine", "  dense alignment (ECC)")
    timed(reader, "rectify", "rectify", time.process_time)
    timed(reader, "gather", "evidence (all threads)", time.process_time)
    for name in ("measure_blur", "board_light", "_structure", "pose_search", "_first_look",
                 "_rerank", "_closer_look", "_counter_search", "_counters", "_pair_verdicts"):
        timed(evidence, name, "  " + name.strip("_"))
    timed(reader, "_judge", "judge", time.process_time)

model = load_model(Path(sys.argv[1]))
camera = FileCamera(sys.argv[2])
ready = rss()
times, cpu = [], []
scans = 3 * len(camera.files)
for _ in range(scans):
    start, c0 = time.perf_counter(), time.process_time()
    read_board(model, camera.capture())
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - c0)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
times.sort()
cpu.sort()
print(f"{ready:.0f} {peak:.0f} {times[len(times) // 2]:.3f} {len(times)} "
      f"{cpu[len(cpu) // 2]:.3f}")
for label, seconds in STAGES.items():
    print(f"stage {1000 * seconds / scans:.1f} {label}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=0,
                        help="OpenCV's threads in the scanning process (0: its default)")
    parser.add_argument("--stages", action="store_true",
                        help="also each stage's CPU time a scan (mean; pose_search counts the "
                             "tiles' and the counters' searches, the latter also in counters; "
                             "the inner stages in their own thread's CPU time, so with "
                             "--threads 1, where OpenCV keeps its work on that thread)")
    parser.add_argument("--scan-threads", type=int, default=-1,
                        help="threads a scan runs work on beside its own (evidence.THREADS; "
                             "0: none; default: the module's)")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parent.parent
    games = root / "config" / "games" / "the-glade"
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "model"
        # (both run in this checkout: "-m" and "-c" put the working directory first on the
        # import path, so run elsewhere they would measure whatever code lay there)
        subprocess.run([sys.executable, "-m", "companion", "enrol", "the-glade",
                        str(games / "sample-pack"), "--out", str(model)], check=True,
                       stdout=subprocess.DEVNULL, cwd=root)
        lines = subprocess.run([sys.executable, "-c", CHILD, str(model),
                                str(games / "photos"), str(args.threads),
                                "1" if args.stages else "0", str(args.scan_threads)],
                               check=True, capture_output=True, text=True,
                               cwd=root).stdout.splitlines()
    out = lines[0].split()
    ready, peak, median, count = float(out[0]), float(out[1]), float(out[2]), int(out[3])
    cpu = float(out[4])
    threads = "all threads" if args.threads <= 0 else f"OpenCV on {args.threads} thread(s)"
    if args.scan_threads >= 0:
        threads += f", {args.scan_threads} scan thread(s) beside"
    print(f"service scanning ({root}): {ready:.0f} MB resident with the model loaded, "
          f"peak {peak:.0f} MB "
          f"over {count} scans (median {median:.2f} s a scan, {cpu:.2f} s of CPU, {threads}; "
          f"load average {os.getloadavg()[0]:.1f})")
    for line in lines[1:]:  # --stages: "stage MS LABEL"
        _, ms, label = line.split(" ", 2)
        print(f"  {label:32s} {float(ms):6.1f} ms of CPU a scan")


if __name__ == "__main__":
    main()
