"""A read-only dict: the maps inside the frozen table values (tiles, counters, glade).

Unlike ``types.MappingProxyType`` it can be pickled, deep-copied and hashed, so a whole
:class:`~companion.the_glade.table.GameState` can be handed between threads or processes.

>>> m = FrozenMap({"D4": 1})
>>> m["D4"], m == {"D4": 1}
(1, True)
>>> m["E4"] = 2
Traceback (most recent call last):
...
TypeError: FrozenMap is read-only: make a new one instead
"""

from __future__ import annotations

from typing import Any, NoReturn


class FrozenMap(dict):  # type: ignore[type-arg]
    """A dict that refuses changes after it is made."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("FrozenMap is read-only: make a new one instead")

    __setitem__ = _read_only
    __delitem__ = _read_only
    clear = _read_only
    pop = _read_only
    popitem = _read_only
    setdefault = _read_only
    update = _read_only
    __ior__ = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"
