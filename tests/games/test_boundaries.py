"""No module outside a game's package imports that game: the registry is the one place that
names the game packages, and everything else reaches a game through it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.games import all_games
from companion.paths import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "companion"
GAME_PACKAGES = {g.name.replace("-", "_") for g in all_games()}
#: the registry lists the game packages, once
ALLOWED = {PACKAGE / "games" / "registry.py"}


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.startswith("companion."):
            names.add(node.value.partition(":")[0])  # "module:attr" strings count too
    return names


def _game_of(module: str) -> str | None:
    parts = module.split(".")
    if len(parts) >= 2 and parts[0] == "companion" and parts[1] in GAME_PACKAGES:
        return parts[1]
    return None


def _owner(path: Path) -> str | None:
    rel = path.relative_to(PACKAGE).parts
    return rel[0] if rel[0] in GAME_PACKAGES else None


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PROJECT_ROOT)))
def test_only_a_game_imports_itself(path: Path) -> None:
    if path in ALLOWED:
        return
    owner = _owner(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    foreign = sorted({m for m in _imported(tree) if _game_of(m) not in (None, owner)})
    assert not foreign, f"{path.name} reaches into another game: {', '.join(foreign)}"


def test_the_games_interface_is_pure() -> None:
    """The interface and the registry stay cheap and free of OpenCV, numpy and devices."""
    for path in (PACKAGE / "games").glob("*.py"):
        imported = _imported(ast.parse(path.read_text(encoding="utf-8")))
        heavy = {m for m in imported
                 if m.split(".")[0] in {"cv2", "numpy", "gpiozero", "luma", "PIL"}
                 or m.startswith(("companion.ui", "companion.devices", "companion.vision"))}
        assert not heavy, f"{path.name} imports {sorted(heavy)}"
