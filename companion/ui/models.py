"""Recognition models, loaded once per run and shared by every game: keyed by their folder.

A model folder (made by ``companion enrol``) takes seconds to load. The service keeps one
:class:`ModelCache` (``Context.models``); a game's observer asks it for the model in a folder
with the game's own loader, and the first ask loads it, on the worker thread that needs it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.errors import CompanionError


class ModelCache:
    """Models by folder (the resolved path): each is loaded at most once, thread-safe.

    >>> cache, loads = ModelCache(), []
    >>> def load(path):
    ...     loads.append(path.name)
    ...     return f"model of {path.name}"
    >>> cache.get("/tmp/m1", load), cache.get("/tmp/../tmp/m1", load), loads
    ('model of m1', 'model of m1', ['m1'])
    """

    def __init__(self) -> None:
        self._models: dict[str, Any] = {}
        self._lock = threading.Lock()

    def get(self, folder: str | Path | None, load: Callable[[Path], Any], *,
            missing: str = "no model folder is configured") -> Any:
        """The model in ``folder``, loaded by ``load(path)`` the first time it is asked for;
        ``missing`` is the error's words (what to run, what to set) when no folder is set."""
        if not folder or not str(folder).strip():
            raise CompanionError(missing)
        path = Path(folder).expanduser().resolve()
        with self._lock:  # one load per folder, even when two workers ask at once
            key = str(path)
            if key not in self._models:
                self._models[key] = load(path)
            return self._models[key]

    def __contains__(self, folder: str | Path) -> bool:
        return str(Path(folder).expanduser().resolve()) in self._models

    def __len__(self) -> int:
        return len(self._models)
