"""Running numpy's linear algebra on one thread while the card recogniser works.

OpenBLAS starts a thread per core for every matrix product. On a Pi 4 (or any machine whose
cores are busy with other work) the recogniser's products are small and the threads mostly
wait for each other: measured here under load, an eigen-decomposition took 4 times the CPU
and 3 times the wall time on two threads that it took on one. :func:`one_thread` asks OpenBLAS
for one thread and gives the old count back; where numpy's BLAS is not OpenBLAS it does
nothing.
"""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator

_LIB: ctypes.CDLL | bool | None = None


def _openblas() -> ctypes.CDLL | None:
    global _LIB
    if _LIB is None:
        _LIB = False
        try:
            import numpy  # noqa: F401  (loads its BLAS)

            with open("/proc/self/maps", encoding="utf-8") as maps:
                paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
            for path in paths:
                lib = ctypes.CDLL(path)
                if hasattr(lib, "scipy_openblas_set_num_threads64_"):
                    _LIB = lib
                    break
        except OSError:
            _LIB = False
    return _LIB or None


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Within the block, numpy's BLAS uses one thread."""
    lib = _openblas()
    if lib is None:
        yield
        return
    before = int(lib.scipy_openblas_get_num_threads64_())
    lib.scipy_openblas_set_num_threads64_(1)
    try:
        yield
    finally:
        lib.scipy_openblas_set_num_threads64_(before)
