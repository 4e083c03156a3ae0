"""The game in progress survives a restart; a damaged save is moved aside, never lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import StateError
from companion.session import Session, SessionStore


def test_save_and_resume(tmp_path: Path) -> None:
    store = SessionStore(tmp_path)
    assert store.load() is None
    session = Session("the-glade", ["Toni", "Emma"])
    for turn in range(3):
        session.accept({"turn": turn})
        store.save(session)
    again = store.load()
    assert again is not None and again.accepted == [{"turn": 0}, {"turn": 1}, {"turn": 2}]
    assert again.current == {"turn": 2} and again.players == ["Toni", "Emma"]
    store.clear()
    assert store.load() is None


@pytest.mark.parametrize("content", ['{"format": 1, "game": "the-glade"}', "[1, 2",
                                     '{"format": 9}'])
def test_damaged_save_is_moved_aside(tmp_path: Path, content: str) -> None:
    (tmp_path / "session.json").write_text(content)
    with pytest.raises(StateError, match="moved to .*session.damaged-"):
        SessionStore(tmp_path).load()
    aside = list(tmp_path.glob("session.damaged-*.json"))
    assert len(aside) == 1 and aside[0].read_text() == content
    assert SessionStore(tmp_path).load() is None
