"""The scan's overlay: each card's outline and reading drawn on the photo, unsure cards in red."""

from __future__ import annotations

from typing import Any

import numpy as np

from companion.vision.overlay import Mark, draw


def draw_overlay(photo: np.ndarray, reading: Any) -> np.ndarray:
    """``photo`` with the garden's outline, every card's outline and label; red when unsure."""
    marks = [Mark(card.quad, card.label, card.label != "?") for card in reading.cards]
    outline = reading.outline if reading.outline is not None else None
    return draw(photo, np.eye(3), marks, outline)
