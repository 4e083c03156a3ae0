"""What the scanner keeps between scans stays bounded, whatever a long session meets."""

from __future__ import annotations

from companion.the_glade.recognition.templates import BLURS_KEPT, DetailFaces


def test_detail_faces_are_kept_for_the_last_blurs_only():
    faces = DetailFaces()
    blurs = [(float(k), 0.0, 0.0) for k in range(BLURS_KEPT + 3)]
    for blur in blurs:
        for j in range(10):
            faces[(j, blur)] = j
    assert len(faces) == 10 * BLURS_KEPT
    assert {key[1] for key in faces} == set(blurs[-BLURS_KEPT:])


def test_a_detail_face_looked_up_keeps_its_blur():
    faces = DetailFaces()
    faces[(0, "a")] = 1
    for k in range(BLURS_KEPT - 1):
        faces[(0, k)] = 1
    assert faces.get((0, "a")) == 1  # now the most recently used blur
    faces[(0, "new")] = 1
    assert (0, "a") in faces and (0, 0) not in faces
    assert faces.get((5, "missing")) is None
    faces.clear()
    assert not faces
