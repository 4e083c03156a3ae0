"""Shared fixtures: every test runs without hardware and without the user's own config."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory):
    """Keep a developer's ~/.config/companion and /etc/companion out of the tests."""
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    monkeypatch.setattr("companion.paths.user_config_candidates",
                        lambda: [home / "companion" / "companion.yaml"])
    monkeypatch.setattr("companion.config.user_config_candidates",
                        lambda: [home / "companion" / "companion.yaml"])
