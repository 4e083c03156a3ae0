"""The README is a manual: short, and its table of what each game can do is the registry's."""

from __future__ import annotations

import re

from companion.games import all_games
from companion.paths import PROJECT_ROOT

README = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")


def _capability_rows() -> list[tuple[str, str, str]]:
    block = re.search(r"<!-- capabilities:begin -->\n(.*?)<!-- capabilities:end -->", README,
                      re.S)
    assert block, "the README has no capability table between its markers"
    rows = []
    for line in block.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("Game", "") or set(cells[0]) <= set("-: "):
            continue
        rows.append((cells[0].strip("`"), cells[1], cells[2]))
    return rows


def test_capability_table_is_the_registry() -> None:
    expected = [(g.name, g.title, ", ".join(g.jobs) or "nothing yet (coming)")
                for g in all_games()]
    assert _capability_rows() == expected


def test_readme_is_a_manual_of_under_400_lines() -> None:
    assert len(README.splitlines()) < 400
    first = README.split("\n## ", 2)
    # the two set-up commands come first
    assert "bash .ci/" in "\n## ".join(first[:2]) or ".ci/" in first[0]


def test_every_linked_doc_exists() -> None:
    for link in re.findall(r"\]\(((?:docs|benchmarks|hardware)/[^)#]+)", README):
        assert (PROJECT_ROOT / link).exists(), f"README links to missing {link}"
