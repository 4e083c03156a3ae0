"""The examples in the Gardlings modules' docstrings run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["actions", "catalogue", "garden", "gnome_alarm", "missions", "rules", "solo", "table"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.gardlings.{name}")
    result = doctest.testmod(module)
    assert result.attempted and result.failed == 0
