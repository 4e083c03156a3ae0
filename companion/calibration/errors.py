"""The calibration's own error: a :class:`CompanionError` that says what to do."""

from __future__ import annotations

from companion.errors import CompanionError


class CalibrationError(CompanionError, ValueError):
    """A calibration could not be made or used (no board seen, a poor fit, a stale file)."""
