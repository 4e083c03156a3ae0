"""The service at rest: resident memory and CPU use of an idle ``companion run``.

Targets (issue "The table service"): idle memory under 150 MB, an idle loop under 2% of one
core. Run: ``.venv/bin/python benchmarks/service_idle.py [--seconds 20]``. The service runs on
the preview display and keyboard buttons (as off the Pi); on a Pi the OLED adapter adds only
I2C writes when a frame changes, which an idle screen does not.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "c.yaml"
        config.write_text(f"data_dir: {tmp}/data\n"
                          f"display: {{driver: preview, preview_dir: {tmp}/frames}}\n"
                          "buttons: {backend: keyboard}\n")
        proc = subprocess.Popen([sys.executable, "-m", "companion", "run", "--config",
                                 str(config)], stdin=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        try:
            time.sleep(3)  # start-up
            cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
            peak = 0.0
            while time.monotonic() - t0 < args.seconds:
                peak = max(peak, rss_mb(proc.pid))
                time.sleep(0.5)
            cpu = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t0)
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"idle service: resident memory {peak:.0f} MB, CPU {cpu * 100:.2f}% of one core "
          f"over {args.seconds:.0f} s")


if __name__ == "__main__":
    main()
