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


class _Twice(StateError):
    """A key written twice in one object (named with its file by :func:`read_data_file`)."""


def _no_duplicates(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Twice(k)
        out[k] = v
    return out


def read_text(path: Path, what: str, not_text: Exception) -> str:
    """A UTF-8 text file's text; a missing, unreadable or folder path is one clear
    :class:`InputFileError` naming ``what`` it should have been, and a file that is not text
    raises ``not_text`` (which says what text was expected)."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFileError(f"{what} {path} does not exist; check the path") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} {path} is a folder, not a file") from None
    except UnicodeDecodeError:
        raise not_text from None
    except OSError as exc:
        raise InputFileError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None


def read_data_file(path: Path, what: str = "state file") -> Any:
    """A JSON or YAML file as data, with one clear error for each way it can be unusable.

    A key written twice in one object is refused (in a state file that is two things on one
    square), where plain ``json.loads`` and PyYAML would silently keep the last one. A file
    that is not ``.json`` is read as JSON if it parses, else as YAML.
    """
    path = Path(path)
    text = read_text(path, what, StateError(
        f"{what} {path} is not a text file (JSON or YAML expected)"))
    if not text.strip():
        raise StateError(f"{what} {path} is empty")
    try:
        return _parse(text, path, what)
    except _Twice as twice:
        raise StateError(f"{what} {path}: the key {twice.args[0]!r} appears twice in one "
                         "object; keep one") from None


def _parse(text: str, path: Path, what: str) -> Any:
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml"):
        try:
            return json.loads(text, object_pairs_hook=_no_duplicates)
        except json.JSONDecodeError as exc:
            if suffix == ".json":
                raise StateError(f"{what} {path} is not valid JSON: {exc.msg} at line "
                                 f"{exc.lineno}, column {exc.colno}") from None
    return _load_yaml(text, path, what)


def _load_yaml(text: str, path: Path, what: str) -> Any:
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
        return _no_duplicates([(loader.construct_object(k, deep=True),
                                loader.construct_object(v, deep=True)) for k, v in node.value])

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        return yaml.load(text, Loader=Loader)  # a SafeLoader subclass: no arbitrary objects
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise StateError(f"{what} {path} is not valid JSON or YAML{where}: "
                         f"{getattr(exc, 'problem', None) or exc}") from None
