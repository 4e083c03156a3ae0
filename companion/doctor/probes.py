"""What the doctor asks of the machine, as small replaceable functions.

Every check in :mod:`companion.doctor.checks` reads the world only through a :class:`Probes`,
so each failure (no I2C, an OLED at another address, a camera held by another program, a
pip-installed numpy 2 shadowing the system's) is tested with a fake probe. :func:`real_probes`
gives the real ones.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

I2C_SLAVE = 0x0703  # ioctl: talk to this address (linux/i2c-dev.h)


@dataclass
class Probes:
    """The doctor's senses. Each may raise; the checks turn that into a finding."""

    read_text: Callable[[str], str | None]           # None when the file is missing
    exists: Callable[[str], bool]
    can_open_rw: Callable[[str], bool]
    i2c_write: Callable[[int, int, bytes], None]     # raises OSError when nothing answers
    open_display: Callable[[dict[str, Any]], Any]
    open_buttons: Callable[[dict[str, Any]], Any]
    camera_info: Callable[[], list[dict[str, Any]]]  # picamera2's global_camera_info()
    open_camera: Callable[[dict[str, Any]], Any]
    versions: Callable[[], dict[str, Any]]
    user_groups: Callable[[str], list[str] | None]   # None when there is no such user
    group_exists: Callable[[str], bool]
    disk_free: Callable[[Path], int]                  # bytes free where the path would live
    load_config: Callable[..., Any]
    say: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr,
                                                                   flush=True))
    clock: Callable[[], float] = time.monotonic


def _read_text(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _can_open_rw(path: str) -> bool:
    return os.access(path, os.R_OK | os.W_OK)


def _i2c_write(bus: int, address: int, data: bytes) -> None:
    import fcntl

    fd = os.open(f"/dev/i2c-{bus}", os.O_RDWR)
    try:
        fcntl.ioctl(fd, I2C_SLAVE, address)
        os.write(fd, data)
    finally:
        os.close(fd)


def _camera_info() -> list[dict[str, Any]]:
    from picamera2 import Picamera2  # type: ignore[import-not-found]

    return list(Picamera2.global_camera_info())


_VERSIONS = r"""
import json, sys
out = {"python": sys.version.split()[0], "executable": sys.executable}
def probe(name, attr="__version__"):
    try:
        mod = __import__(name)
        out[name] = {"version": str(getattr(mod, attr, "?")), "path": getattr(mod, "__file__", "")}
        return mod
    except BaseException as exc:
        out[name] = {"error": f"{type(exc).__name__}: {exc}"[:400]}
probe("numpy")
cv2 = probe("cv2")
if cv2 is not None:
    aruco = getattr(cv2, "aruco", None)
    out["cv2"]["aruco"] = ("detector" if hasattr(aruco, "CharucoDetector") else
                           "legacy" if hasattr(aruco, "interpolateCornersCharuco") else
                           "markers-only" if hasattr(aruco, "getPredefinedDictionary") else "")
    try:
        import numpy
        cv2.GaussianBlur(numpy.zeros((8, 8), numpy.uint8), (3, 3), 0)
    except BaseException as exc:
        out["cv2"]["error"] = f"{type(exc).__name__}: {exc}"[:400]
probe("picamera2")
if "version" in out.get("picamera2", {}):
    try:
        from importlib.metadata import version
        out["picamera2"]["version"] = version("picamera2")
    except Exception:
        pass
print(json.dumps(out))
"""


def _versions() -> dict[str, Any]:
    """numpy, OpenCV and picamera2 as this Python imports them, in a child process (an ABI
    clash may crash the importer, which must not take the doctor with it)."""
    try:
        done = subprocess.run([sys.executable, "-c", _VERSIONS], capture_output=True,
                              text=True, timeout=120, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"error": f"could not start {sys.executable}: {exc}"}
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"importing the libraries crashed (status {done.returncode}): {tail}"}


def _user_groups(user: str) -> list[str] | None:
    import grp
    import pwd

    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None
    names = [g.gr_name for g in grp.getgrall() if user in g.gr_mem]
    with contextlib.suppress(KeyError):
        names.append(grp.getgrgid(entry.pw_gid).gr_name)
    return sorted(set(names))


def _group_exists(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def _disk_free(path: Path) -> int:
    path = Path(path).expanduser()
    while not path.exists() and path != path.parent:
        path = path.parent
    return shutil.disk_usage(path).free


def _open_display(settings: dict[str, Any]) -> Any:
    from companion.devices.display import open_display

    return open_display(settings)


def _open_buttons(settings: dict[str, Any]) -> Any:
    from companion.devices.buttons import open_buttons

    with warnings.catch_warnings():  # gpiozero lists every pin library it tried
        warnings.simplefilter("ignore")
        return open_buttons(settings)


def _open_camera(settings: dict[str, Any]) -> Any:
    from companion.devices.camera import open_camera

    return open_camera(settings)


def _load_config(*args: Any, **kwargs: Any) -> Any:
    from companion.config import load_config

    return load_config(*args, **kwargs)


def real_probes(say: Callable[[str], None] | None = None) -> Probes:
    probes = Probes(_read_text, os.path.exists, _can_open_rw, _i2c_write, _open_display,
                    _open_buttons, _camera_info, _open_camera, _versions, _user_groups,
                    _group_exists, _disk_free, _load_config)
    if say is not None:
        probes.say = say
    return probes
