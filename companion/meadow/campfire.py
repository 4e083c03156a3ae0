"""The campfire board: its notches (some blocked), its benches, and the goal tokens' spots.

Notches are ``C1`` to ``Cn``; the block tokens sit on the last ones (``C5``, ``C6`` on a
6-notch board with 2 blocks). Benches are ``bench1``... Goal tokens lie on spots 1 to n in the
order drawn; ``pairs`` of the board name neighbouring spots, and a bonus token claims the space
between a pair.
"""

from __future__ import annotations

from companion.meadow.catalogue import CampfireBoard


def open_notches(board: CampfireBoard) -> tuple[str, ...]:
    """The campfire notches a token may use (the blocked ones left out)."""
    return tuple(f"C{i}" for i in range(1, board.notches - board.blocks + 1))


def blocked_notches(board: CampfireBoard) -> tuple[str, ...]:
    return tuple(f"C{i}" for i in range(board.notches - board.blocks + 1, board.notches + 1))


def benches(board: CampfireBoard) -> tuple[str, ...]:
    return tuple(f"bench{i}" for i in range(1, board.benches + 1))


def goal_pairs(board: CampfireBoard, goals: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """The pairs of goal tokens (by id) a bonus token may claim, in the board's order."""
    return tuple((goals[a - 1], goals[b - 1]) for a, b in board.pairs
                 if a <= len(goals) and b <= len(goals))


__all__ = ["benches", "blocked_notches", "goal_pairs", "open_notches"]
