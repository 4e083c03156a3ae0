"""The examples in the modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import companion.the_glade

#: every module of the game whose docstrings hold examples (a new one is found by itself)
MODULES = sorted(p.stem for p in Path(companion.the_glade.__file__).parent.glob("*.py")
                 if ">>>" in p.read_text(encoding="utf-8"))


def test_the_modules_with_examples_are_found() -> None:
    assert {"names", "rules", "deal", "playout", "tracker"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.the_glade.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
