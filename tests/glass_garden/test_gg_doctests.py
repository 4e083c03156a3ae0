"""The examples in the Glass Garden modules' docstrings."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["deck", "garden", "fertile_zone", "damage", "game", "scoring", "tracker"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"companion.glass_garden.{name}")
    failed, _ = doctest.testmod(module)
    assert failed == 0
