"""Auto-capture fires once per new still scene: not while a hand moves over the board, not
for sensor noise, and not again for the same scene."""

from __future__ import annotations

import numpy as np

from companion.vision.stillness import StillnessDetector

RNG = np.random.default_rng(7)


def table(tiles: int = 0, hand_at: int | None = None) -> np.ndarray:
    """A grey 'table' with ``tiles`` bright squares, an optional dark 'hand', and noise."""
    img = np.full((480, 640, 3), 90, np.uint8)
    for i in range(tiles):
        img[100:160, 60 + i * 80:120 + i * 80] = 220
    if hand_at is not None:
        img[200:420, hand_at:hand_at + 150] = 40
    noise = RNG.normal(0, 4, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def feed(detector: StillnessDetector, frames: list[np.ndarray]) -> list[bool]:
    return [detector.update(f) for f in frames]


def test_fires_once_when_still_and_new() -> None:
    d = StillnessDetector(still_frames=3)
    d.reset(table(0))
    assert feed(d, [table(0)] * 6) == [False] * 6  # nothing new on the table
    moving = [table(0, hand_at=x) for x in (50, 150, 250, 350)]
    assert not any(feed(d, moving))  # a hand moving over the board
    fired = feed(d, [table(1)] * 6)
    assert fired == [False, False, False, True, False, False]


def test_noise_alone_is_calm() -> None:
    d = StillnessDetector(still_frames=2)
    assert feed(d, [table(2), table(2), table(2)]) == [False, False, True]


def test_a_hand_held_in_view_then_taken_away() -> None:
    d = StillnessDetector(still_frames=2)
    d.reset(table(1))
    fired = feed(d, [table(1, hand_at=300)] * 3 + [table(2)] * 3)
    # the still hand is "new" too: it is captured, and the scan will be uncertain there;
    # once the hand leaves, the new tile is captured
    assert fired == [False, False, True, False, False, True]
