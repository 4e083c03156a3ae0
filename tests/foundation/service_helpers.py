"""A service over test doubles (dummy display, scripted buttons), for flow tests."""

from __future__ import annotations

import copy
from pathlib import Path

from companion.config import load_config
from companion.devices.buttons import Key, ScriptedButtons
from companion.devices.display import open_display
from companion.ui.pages import Page
from companion.ui.service import Context, Service


def make_service(tmp_path: Path, keys: list[Key], first: Page | None = None,
                 clock=None) -> Service:
    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    ctx = Context(settings, tmp_path, **({"clock": clock} if clock else {}))
    display = open_display(settings["display"])
    return Service(ctx, display, ScriptedButtons(keys), first=first, idle_poll=0)


