"""Power-cut-safe files: what the companion writes survives the plug being pulled at any moment.

Every write goes to a temporary file in the same folder, is flushed to the disk (fsync), then
renamed over the old file (an atomic step on POSIX file systems), and the folder itself is
synced so that the rename is on the disk too. A reader therefore sees the old file or the new
one, never half of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from companion.errors import InputFileError, StateError


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step that a power cut cannot tear."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(path.parent)


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems cannot sync a folder; the rename is still atomic
    finally:
        os.close(fd)


def atomic_write_json(path: Path, data: Any) -> None:
    """Write ``data`` as JSON atomically (see :func:`atomic_write_bytes`)."""
    text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))


def read_data_file(path: Path, what: str = "state file") -> Any:
    """A JSON or YAML file as data, with one clear error for each way it can be unusable."""
    import yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFileError(f"{what} {path} does not exist") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} {path} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise StateError(f"{what} {path} is not a text file (JSON or YAML expected)") from None
    except OSError as exc:
        raise InputFileError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    if not text.strip():
        raise StateError(f"{what} {path} is empty")
    if path.suffix.lower() == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(f"{what} {path} is not valid JSON: {exc.msg} at line {exc.lineno}, "
                             f"column {exc.colno}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise StateError(f"{what} {path} is not valid JSON or YAML{where}: "
                         f"{getattr(exc, 'problem', None) or exc}") from None
