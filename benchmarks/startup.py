"""How long ``companion --help`` takes to start (target: under 0.3 s here).

Run: ``.venv/bin/python benchmarks/startup.py [--runs N]``. Each run is a fresh process, as a
user's would be; the script prints the median and the 90th percentile.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "companion", "--help"], check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    times.sort()
    p90 = times[int(0.9 * (len(times) - 1))]
    print(f"companion --help: median {statistics.median(times) * 1000:.0f} ms, "
          f"p90 {p90 * 1000:.0f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
