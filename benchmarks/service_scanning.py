"""Memory of the table service while it scans.

A child process does what ``companion run`` does for a ruling: loads the recognition model
(enrolled beforehand from the bundled SAMPLE pack, as a user enrols their own copy), takes
photos from the camera port (the bundled 1640x1232 photos through the file camera) and reads
each board. It reports its resident memory before the first scan, and its peak, and the
median scan's wall and CPU time (the photo's capture included; on a shared machine the
wall time says more about the load than the scan).

Target (issue "The table service"): under 250 MB while scanning. Run:
``.venv/bin/python benchmarks/service_scanning.py`` (``--threads 1``: OpenCV on one thread,
whose CPU time varies less with the machine's load than that of its threads summed).
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

model = load_model(Path(sys.argv[1]))
camera = FileCamera(sys.argv[2])
ready = rss()
times, cpu = [], []
for _ in range(3 * len(camera.files)):
    start, c0 = time.perf_counter(), time.process_time()
    read_board(model, camera.capture())
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - c0)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
times.sort()
cpu.sort()
print(f"{ready:.0f} {peak:.0f} {times[len(times) // 2]:.3f} {len(times)} "
      f"{cpu[len(cpu) // 2]:.3f}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=0,
                        help="OpenCV's threads in the scanning process (0: its default)")
    args = parser.parse_args(argv)
    root = Path(__file__).resolve().parent.parent
    games = root / "config" / "games" / "the-glade"
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "model"
        subprocess.run([sys.executable, "-m", "companion", "enrol", "the-glade",
                        str(games / "sample-pack"), "--out", str(model)], check=True,
                       stdout=subprocess.DEVNULL)
        out = subprocess.run([sys.executable, "-c", CHILD, str(model), str(games / "photos"),
                              str(args.threads)],
                             check=True, capture_output=True, text=True).stdout.split()
    ready, peak, median, count = float(out[0]), float(out[1]), float(out[2]), int(out[3])
    cpu = float(out[4])
    threads = "all threads" if args.threads <= 0 else f"OpenCV on {args.threads} thread(s)"
    print(f"service scanning: {ready:.0f} MB resident with the model loaded, peak {peak:.0f} MB "
          f"over {count} scans (median {median:.2f} s a scan, {cpu:.2f} s of CPU, {threads}; "
          f"load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
