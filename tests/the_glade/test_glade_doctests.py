"""The examples in the modules' docstrings run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["names", "sets", "forest", "placement", "solo", "tracker", "frozen"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.the_glade.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
