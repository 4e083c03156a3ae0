"""Fixtures shared by The Glade's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

SAMPLE_PACK = Path(__file__).resolve().parents[2] / "config" / "games" / "the-glade" / "sample-pack"


@pytest.fixture(scope="session")
def sample_model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled SAMPLE pack enrolled without look-alike pairs (a model folder), once per
    test process: tests of the scan's machinery (its memory, its quicker paths, the refit,
    scoring from photos) need a real model but none of the pairs, whose learning is most of
    an enrolment's time. Tests must not write into it."""
    from companion.the_glade.recognition.jobs import enrol

    out = tmp_path_factory.mktemp("sample-model") / "model"
    enrol(SAMPLE_PACK, out=out, quiet=True, lookalikes=False)
    return out
