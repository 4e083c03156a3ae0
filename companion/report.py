"""What a game's job hands back to the command line and to the service."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Report:
    """The outcome of one job: ``data`` is the spec's JSON object, ``text`` the same for people.

    The command line prints ``data`` with ``--json`` and ``text`` otherwise; the service draws
    its screens from ``data``.
    """

    data: dict[str, Any]
    text: str
    extras: dict[str, Any] = field(default_factory=dict)
