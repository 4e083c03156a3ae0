"""The examples in Meadow's docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["symbols", "meadow", "main_board", "actions", "rules"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"companion.meadow.{name}")
    result = doctest.testmod(module)
    assert result.attempted and result.failed == 0
