"""Reading a JSON or YAML document the user named, refusing what cannot be used.

Both readers refuse a key that appears twice in one object (in a state file that is two things
on one square), which plain ``json.loads`` and PyYAML would silently let the last one win.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.errors import InputFileError, StateError


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise StateError(f"the key {k!r} appears twice in one object (two things on one "
                             "square?)")
        out[k] = v
    return out


def read_document(path: Path) -> Any:
    """Read a JSON or YAML file; refuse a missing or malformed file with a clear message."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputFileError(f"state file {path} does not exist") from None
    except IsADirectoryError:
        raise InputFileError(f"state file {path} is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFileError(f"state file {path} cannot be read: {exc}") from None
    suffix = Path(path).suffix.lower()
    if suffix in (".yaml", ".yml"):
        return _load_yaml(text, path)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        if suffix == ".json":
            raise StateError(f"state file {path} is not valid JSON: {exc.msg} at line "
                             f"{exc.lineno}, column {exc.colno}") from None
        return _load_yaml(text, path)


def _load_yaml(text: str, path: Path) -> Any:
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    def mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> dict[Any, Any]:
        pairs = []
        for key_node, value_node in node.value:
            pairs.append((loader.construct_object(key_node, deep=True),
                          loader.construct_object(value_node, deep=True)))
        return _no_duplicates(pairs)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    try:
        return yaml.load(text, Loader=Loader)  # a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise StateError(f"state file {path} is neither valid JSON nor valid YAML: "
                         f"{str(exc).splitlines()[0]}") from None
