"""Power-cut-safe files: what the companion writes survives the plug being pulled at any moment.

Every write goes to a temporary file in the same folder, is flushed to the disk (fsync), then
renamed over the old file (an atomic step on POSIX file systems), and the folder itself is
synced so that the rename is on the disk too. A reader therefore sees the old file or the new
one, never half of one.

Reading is bounded the other way: :func:`read_data_file` refuses, in one line naming the file,
a data file too large, too deeply nested, with YAML anchors or with absurdly long numbers,
before it can exhaust the stack or the memory.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from companion.errors import CompanionError, InputFileError, StateError

log = logging.getLogger(__name__)


class StorageError(CompanionError, OSError):
    """A file could not be written or moved: the disk is full, read-only, or not ours.

    ``kind`` says which, for code and tests ("disk-full", "read-only", "permission" or
    "other"); the message says it in words, with what to do, in one line.
    """

    def __init__(self, message: str, kind: str, path: Path) -> None:
        super().__init__(message)
        self.kind = kind
        self.path = path

    def __str__(self) -> str:  # OSError's own would print an errno tuple
        return str(self.args[0])


#: The errno values that mean the same thing to a player.
_KINDS = {errno.ENOSPC: "disk-full", errno.EDQUOT: "disk-full", errno.EROFS: "read-only",
          errno.EACCES: "permission", errno.EPERM: "permission"}


def storage_error(exc: OSError, path: Path, doing: str = "save") -> StorageError:
    """``exc`` (raised writing ``path``) named for what it is, in one line with what to do.

    >>> import errno
    >>> err = storage_error(OSError(errno.ENOSPC, "No space left"), Path("/data/session.json"))
    >>> err.kind, str(err).split(": ")[1].split(";")[0]
    ('disk-full', 'the disk is full')
    """
    if isinstance(exc, StorageError):
        return exc
    kind = _KINDS.get(exc.errno or 0, "other")
    folder = Path(path).parent
    why = {
        "disk-full": "the disk is full; free some space (old photos, frames) and the companion "
                     "saves again",
        "read-only": "the disk is read-only (an SD card that failed is often set so); check "
                     "the card, then restart",
        "permission": f"no permission to write in {folder}; make the service's user its owner "
                      f"(sudo chown -R companion: {folder})",
        "other": f"{_one_line(exc.strerror or exc)}; check the disk",
    }[kind]
    return StorageError(f"cannot {doing} {path}: {why}", kind, Path(path))



def temp_files_of(path: Path) -> list[Path]:
    """Temporary files left by writes of ``path`` that never finished (a power cut between the
    write and the rename leaves one)."""
    path = Path(path)
    try:
        return sorted(p for p in path.parent.glob(f".{path.name}.*.tmp") if p.is_file())
    except OSError:
        return []


def clean_stale_temp(paths: list[Path]) -> list[Path]:
    """Remove the temporary files of unfinished writes of ``paths`` (call it at start, before
    anything writes them); returns those removed. A file that cannot be removed is logged and
    left: it harms nothing but space."""
    removed = []
    for path in paths:
        for tmp in temp_files_of(path):
            try:
                tmp.unlink()
            except OSError as exc:
                log.warning("cannot remove the unfinished write %s: %s", tmp, exc.strerror)
                continue
            log.info("removed %s, left by a write that a power cut or a kill cut short", tmp)
            removed.append(tmp)
    return removed


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


def atomic_write_json(path: Path, data: Any, *, compact: bool = False) -> None:
    """Write ``data`` as JSON atomically (see :func:`atomic_write_bytes`): indented for a
    person to read and correct, or ``compact`` (one line, written by the C encoder, about ten
    times faster) for files only the companion reads that grow through a game, such as the
    saved game holding every accepted state."""
    if compact:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False, sort_keys=False) + "\n"
    atomic_write_bytes(path, text.encode("utf-8"))


#: The largest data file read (state files, saved games, history, decks): real ones are a few KB.
MAX_DATA_BYTES = 10 * 1024 * 1024
#: The deepest nesting of lists and mappings accepted (a state file needs about 6).
MAX_DEPTH = 64
#: The most digits a whole number in a data file may have (counters and turns need 3).
MAX_INT_DIGITS = 30


class _Refused(StateError):
    """Data a state file cannot hold; :func:`read_data_file` names the file before it."""


class _Twice(_Refused):
    """A key written twice in one object."""

    def __init__(self, key: Any) -> None:
        super().__init__(f"the key {_short(key)} appears twice in one object; keep one")


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters: a message stays one short line."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def _no_duplicates(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    for k, v in pairs:
        try:
            twice = k in out
        except TypeError:  # a YAML key that is a list or a mapping
            raise _Refused(f"a key is a {type(k).__name__}, not a name or a number; "
                           "write keys as plain text") from None
        if twice:
            raise _Twice(k)
        out[k] = v
    return out


def read_text(path: Path, what: str, not_text: Exception, *,
              too_big: Exception | None = None, max_bytes: int = MAX_DATA_BYTES) -> str:
    """A UTF-8 text file's text; a missing, unreadable or folder path is one clear
    :class:`InputFileError` naming ``what`` it should have been, and a file that is not text
    raises ``not_text`` (which says what text was expected).

    At most ``max_bytes`` are read: a longer file raises ``too_big`` (by default an
    :class:`InputFileError` saying so), so a huge or endless file never fills the memory.
    """
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputFileError(f"{what} {path} does not exist; check the path") from None
    except IsADirectoryError:
        raise InputFileError(f"{what} {path} is a folder, not a file") from None
    except OSError as exc:
        raise InputFileError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise too_big or InputFileError(
            f"{what} {path} is larger than {max_bytes // (1024 * 1024)} MB, far more than "
            f"a {what} needs; check that it is the right file")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark (Windows editors) is dropped
    except UnicodeDecodeError:
        raise not_text from None


def read_data_file(path: Path, what: str = "state file", *,
                   error: type[CompanionError] = StateError) -> Any:
    """A JSON or YAML file as data, with one clear error for each way it can be unusable.

    A key written twice in one object is refused (in a state file that is two things on one
    square), where plain ``json.loads`` and PyYAML would silently keep the last one. A file
    that is not ``.json`` is read as JSON if it parses, else as YAML.

    The reading is bounded, so a damaged or hostile file costs little and is refused with a
    :class:`StateError` naming it: at most :data:`MAX_DATA_BYTES`, lists and mappings nested
    at most :data:`MAX_DEPTH` deep (checked before anything recurses), whole numbers of at
    most :data:`MAX_INT_DIGITS` digits, no NUL bytes, and no YAML anchors or aliases (a
    "billion laughs" file is refused at its first anchor, never expanded).

    ``error`` is the class of those refusals (a configuration or deck reader passes
    :class:`~companion.errors.ConfigError`); a missing or unreadable file is always an
    :class:`InputFileError`.
    """
    path = Path(path)
    try:
        text = read_text(path, what, StateError(
            f"{what} {path} is not a text file (JSON or YAML expected)"), too_big=StateError(
            f"{what} {path} is larger than {MAX_DATA_BYTES // (1024 * 1024)} MB, far more "
            f"than any {what}; check that it is the right file"))
        if "\x00" in text:
            raise StateError(f"{what} {path} holds NUL bytes, so it is binary or damaged, not "
                             "JSON or YAML; check that it is the right file")
        if not text.strip():
            raise StateError(f"{what} {path} is empty")
        return parse_data(text, path, what)
    except StateError as exc:
        if error is StateError:
            raise
        raise error(str(exc)) from None


def parse_data(text: str, path: Path, what: str = "state file", *,
               error: type[CompanionError] = StateError) -> Any:
    """The data in ``text`` (JSON, else YAML; only JSON for a ``.json`` path, only YAML for
    ``.yaml``/``.yml``), read within the bounds :func:`read_data_file` describes; ``error``
    (by default :class:`StateError`) names ``what`` and ``path`` when it cannot be used."""
    path = Path(path)
    try:
        try:
            return _parse(text, path, what)
        except _Refused as refused:
            raise StateError(f"{what} {path}: {refused}") from None
    except StateError as exc:
        if error is StateError:
            raise
        raise error(str(exc)) from None


def _parse(text: str, path: Path, what: str) -> Any:
    suffix = path.suffix.lower()
    if suffix not in (".yaml", ".yml"):
        if nesting_exceeds(text, MAX_DEPTH):
            if suffix == ".json":
                raise _Refused(_too_deep())
            return _load_yaml(text, path, what)  # not JSON-shaped: the YAML reader decides
        try:
            return json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_json_int)
        except json.JSONDecodeError as exc:
            if suffix == ".json":
                msg = _one_line(exc.msg).removesuffix(" at")  # "Unterminated string starting at"
                raise StateError(f"{what} {path} is not valid JSON: {msg} at line "
                                 f"{exc.lineno}, column {exc.colno}") from None
    return _load_yaml(text, path, what)


def _too_deep() -> str:
    return (f"lists and objects are nested more than {MAX_DEPTH} deep (a state file needs "
            "about 6); the file is damaged or not a state file")


def _too_long(digits: int) -> str:
    return (f"a whole number has {digits} digits (at most {MAX_INT_DIGITS} are accepted); "
            "the file is damaged or not a state file")


def _json_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise _Refused(_too_long(digits))
    return int(text)


# An escaped character, then a JSON string (or an unclosed one, to the end), whose brackets
# do not count: simple patterns, matched in linear time and constant memory.
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_JSON_STRING = re.compile(r'"[^"]*"?')
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_ONE_KIND = bytes.maketrans(b"{}", b"[]")


def nesting_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when JSON ``text`` nests lists and objects more than ``limit`` deep, found without
    recursion: strings and everything but brackets are cut away, then each round removes
    every innermost ``[]`` pair at once, so a well-formed text of depth D is empty after D
    rounds. Each step is one pass of a C loop (a 10 MB file takes a fraction of a second).

    >>> nesting_exceeds('[[1], "[[[", {}]', 2), nesting_exceeds('[[[1]], "]]]"]', 2)
    (False, True)
    """
    brackets = _JSON_STRING.sub("", _ESCAPE.sub("", text)).encode("utf-8", "replace")
    brackets = brackets.translate(_ONE_KIND, _NOT_BRACKET)
    for _ in range(limit):
        if b"[]" not in brackets:
            return False
        brackets = brackets.replace(b"[]", b"")
    return b"[]" in brackets


def _load_yaml(text: str, path: Path, what: str) -> Any:
    import yaml

    class Loader(yaml.SafeLoader):
        depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            # Checked before each node is built, so neither an anchors bomb nor a deep file
            # gets far: the composer recurses once per level.
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise _Refused(f"line {event.start_mark.line + 1} uses a YAML anchor or alias "
                               "(&name, *name), which state files do not use; write the "
                               "values out in full")
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise _Refused(_too_deep())
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
        return _no_duplicates([(loader.construct_object(k, deep=True),
                                loader.construct_object(v, deep=True)) for k, v in node.value])

    def whole_number(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
        digits = len(str(node.value).replace("_", "").lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            raise _Refused(_too_long(digits))
        return loader.construct_yaml_int(node)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    Loader.add_constructor("tag:yaml.org,2002:int", whole_number)
    try:
        return yaml.load(text, Loader=Loader)  # a SafeLoader subclass: no arbitrary objects
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        kinds = "YAML" if path.suffix.lower() in (".yaml", ".yml") else "JSON or YAML"
        raise StateError(f"{what} {path} is not valid {kinds}{where}: "
                         f"{_one_line(getattr(exc, 'problem', None) or exc)}") from None


def move_aside(path: Path, label: str) -> Path:
    """Move a file that cannot be used to ``<stem>.<label>-<time>.json`` beside it (a name
    not yet taken, so nothing set aside earlier is lost), and return where it went; a move the
    disk refuses is a :class:`StorageError`."""
    import datetime as dt

    path = Path(path)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")
    aside = path.with_name(f"{path.stem}.{label}-{stamp}.json")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = path.with_name(f"{path.stem}.{label}-{stamp}-{n}.json")
    try:
        os.replace(path, aside)
    except OSError as exc:
        raise storage_error(exc, path, "move aside") from None
    return aside
