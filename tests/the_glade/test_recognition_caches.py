"""What the scanner keeps between scans stays bounded, whatever a long session meets."""

from __future__ import annotations

import pytest

from companion.the_glade.recognition.templates import (
    BLURS_KEPT,
    DETAIL_BLURS_KEPT,
    DetailFaces,
)


@pytest.mark.parametrize("kept", [None, 1, BLURS_KEPT])
def test_detail_faces_are_kept_for_the_last_blurs_only(kept):
    faces = DetailFaces(kept)
    kept = DETAIL_BLURS_KEPT if kept is None else kept
    blurs = [(float(k), 0.0, 0.0) for k in range(kept + 3)]
    for blur in blurs:
        for j in range(10):
            faces[(j, blur)] = j
    assert len(faces) == 10 * kept
    assert {key[1] for key in faces} == set(blurs[-kept:])


def test_a_detail_face_looked_up_keeps_its_blur():
    faces = DetailFaces(BLURS_KEPT)
    faces[(0, "a")] = 1
    for k in range(BLURS_KEPT - 1):
        faces[(0, k)] = 1
    assert faces.get((0, "a")) == 1  # now the most recently used blur
    faces[(0, "new")] = 1
    assert (0, "a") in faces and (0, 0) not in faces
    assert faces.get((5, "missing")) is None
    faces.clear()
    assert not faces


def test_kept_counter_colours_are_bounded_and_the_same():
    import numpy as np

    from companion.the_glade.recognition import counter_colour as cc

    rng = np.random.default_rng(5)
    mask = rng.random(16) > 0.3
    for _ in range(cc.UNCLIPPED_KEPT + 2):
        faces = rng.random((7, 16 * 3)).astype(np.float32) * 0.9
        for clip in (np.array([2.0, 1.5, 1.2]), np.array([0.8, 2.0, 2.0])):  # none / some
            kept = cc._unclipped(faces, mask)
            assert np.array_equal(cc.colour_templates(faces, mask, clip, kept),
                                  cc.colour_templates(faces, mask, clip))
    assert len(cc._UNCLIPPED) <= cc.UNCLIPPED_KEPT


def test_pose_search_all_at_once_finds_what_one_by_one_does():
    import cv2
    import numpy as np

    from companion.the_glade.recognition.pose import pose_search
    from companion.vision.patches import parabola_peak

    def one_by_one(gray, templates, centres, radius):  # pose_search's loop, as it was
        n = len(centres)
        best, which = np.full(n, -2.0, np.float32), np.zeros(n, int)
        pos = centres.astype(np.float32)
        th, tw = templates.shape[1:3]
        results = [cv2.matchTemplate(gray, t, cv2.TM_CCOEFF_NORMED) for t in templates]
        for i, (cx, cy) in enumerate(centres):
            u0, v0 = round(cx - tw / 2) - radius, round(cy - th / 2) - radius
            u0c, v0c = max(u0, 0), max(v0, 0)
            for a in range(len(templates)):
                win = results[a][v0c:v0 + 2 * radius + 1, u0c:u0 + 2 * radius + 1]
                if win.size == 0:
                    continue
                vy, ux = divmod(int(np.argmax(win)), win.shape[1])
                if win[vy, ux] <= best[i]:
                    continue
                best[i], which[i] = win[vy, ux], a
                pos[i] = (u0c + ux + parabola_peak(win[vy, :], ux) + tw / 2,
                          v0c + vy + parabola_peak(win[:, ux], vy) + th / 2)
        return best, pos, which

    rng = np.random.default_rng(3)
    gray = cv2.GaussianBlur(rng.random((150, 170)).astype(np.float32), (0, 0), 1.5)
    templates = cv2.GaussianBlur(rng.random((21, 21, 4)).astype(np.float32), (0, 0), 1.5)
    templates = np.ascontiguousarray(np.moveaxis(templates, 2, 0))
    centres = rng.uniform(0, 170, (80, 2))  # inside, and near or past the edges
    for got, want in zip(pose_search(gray, templates, centres, 5),
                         one_by_one(gray, templates, centres, 5), strict=True):
        assert np.array_equal(got, want)


def test_a_model_made_where_a_freed_one_lay_gets_caches_of_its_own(monkeypatch) -> None:
    """The scan caches are found by the model's id; a model freed and another made at the
    same address (a service loading a new enrolment; in a fresh clone's test run, a test
    after another) got the first one's caches, templates of another pack (an IndexError in
    the first look). The entry keeps a weak reference to its model and is checked."""
    import weakref

    from companion.the_glade.recognition import templates

    class Model:  # what cache_for needs of a model: an identity
        pass

    monkeypatch.setattr(templates, "Cache", lambda model: ("caches of", model))
    monkeypatch.setattr(templates, "_CACHES", {})
    first, second = Model(), Model()
    assert templates.cache_for(first) == ("caches of", first)
    assert templates.cache_for(first) is templates.cache_for(first)
    # as if ``second`` had been made where a freed model lay: its id finds that one's entry
    templates._CACHES[id(second)] = (weakref.ref(first), ("caches of", first))
    assert templates.cache_for(second) == ("caches of", second)
    assert len(templates._CACHES) == 1
