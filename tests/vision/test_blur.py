"""Measuring a photo's blur against a known sharp image: focus and motion."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision.blur import ISOTROPIC, Blur, line_kernel, measure_blur, weakest_direction


def _printed(seed: int, size: int = 240) -> np.ndarray:
    """A sharp printed border-like image: small blobs of many colours on a mottled ground."""
    rng = np.random.default_rng(seed)
    img = np.full((size, size, 3), (60, 105, 75), np.uint8)
    for _ in range(260):
        centre = (int(rng.integers(size)), int(rng.integers(size)))
        colour = tuple(int(v) for v in rng.integers(20, 240, 3))
        cv2.circle(img, centre, int(rng.integers(2, 7)), colour, -1, cv2.LINE_AA)
    return img


def _strip(size: int = 240, inset: int = 40) -> np.ndarray:
    mask = np.ones((size, size), bool)
    mask[inset:-inset, inset:-inset] = False
    return mask


def _spoilt(img: np.ndarray, kernel: np.ndarray, light: float = 0.8) -> np.ndarray:
    out = cv2.filter2D(img.astype(np.float32), -1, kernel, borderType=cv2.BORDER_REFLECT)
    ramp = np.linspace(light, 1.0, img.shape[1], dtype=np.float32)[None, :, None]
    return np.clip(out * ramp, 0, 255).astype(np.uint8)


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 12.0), st.floats(0.0, 180.0))
def test_line_kernel_is_normalised_and_centred(length, angle):
    k = line_kernel(round(length * 2) / 2, round(angle))
    assert k.sum() == pytest.approx(1.0, abs=1e-5)
    assert (k >= 0).all()
    ys, xs = np.mgrid[0:k.shape[0], 0:k.shape[1]]
    c = (k.shape[0] - 1) / 2
    assert float((k * xs).sum()) == pytest.approx(c, abs=0.05)
    assert float((k * ys).sum()) == pytest.approx(c, abs=0.05)


def test_a_sharp_photo_measures_no_blur():
    ref = _printed(1)
    found = measure_blur(_spoilt(ref, np.ones((1, 1), np.float32)), ref, _strip())
    assert found.focus <= 0.35  # the smallest step above none (rounding to 8 bits)
    assert found.blur.length == 0.0


@pytest.mark.parametrize("sigma", [0.7, 1.35])
def test_focus_blur_is_measured_and_not_taken_for_motion(sigma):
    ref = _printed(2)
    g = cv2.getGaussianKernel(int(sigma * 8) | 1, sigma)
    found = measure_blur(_spoilt(ref, g @ g.T), ref, _strip())
    assert found.focus == pytest.approx(sigma, abs=0.36)
    assert found.blur.length == 0.0
    assert found.blur.sigma == found.focus


@pytest.mark.parametrize(("length", "angle"), [(5.0, 0.0), (6.0, 60.0), (4.0, 135.0)])
def test_motion_smear_is_measured_with_its_direction(length, angle):
    ref = _printed(3)
    found = measure_blur(_spoilt(ref, line_kernel(length, angle)), ref, _strip())
    assert found.blur.length == pytest.approx(length, abs=1.0)
    turned = abs(found.blur.angle - angle) % 180
    assert min(turned, 180 - turned) <= 15
    assert found.focus > 0  # the best Gaussian alone is some blur, the smear fits better


def test_blur_scales_and_rounds_for_reuse():
    b = Blur(0.6, 3.2, 62.0).scaled(2.0)
    assert (b.sigma, b.length, b.angle) == pytest.approx((1.2, 6.4, 62.0))
    assert b.key == (1.25, 6.5, 60.0)
    assert Blur(0.2, 0.8, 40.0).key == (0.0, 0.0, 0.0)
    img = np.zeros((21, 21, 3), np.float32)
    img[10, 10] = 1.0
    smeared = Blur(0.0, 6.0, 0.0).apply(img)[..., 0]
    assert smeared.sum() == pytest.approx(1.0, abs=1e-5)
    assert np.count_nonzero(smeared[10] > 1e-3) >= 6   # along the line
    assert np.count_nonzero(smeared[:, 10] > 1e-3) == 1  # not across it


def test_focus_blur_weakens_every_direction_alike_and_a_smear_one():
    ref = _printed(4)
    gray = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mask = _strip()
    g = cv2.getGaussianKernel(9, 1.2)
    soft = cv2.cvtColor(_spoilt(ref, g @ g.T), cv2.COLOR_BGR2GRAY).astype(np.float32)
    smeared = cv2.cvtColor(_spoilt(ref, line_kernel(5.0, 45.0)), cv2.COLOR_BGR2GRAY)
    _, alike = weakest_direction(soft, gray, mask)
    assert alike > ISOTROPIC
    angle, alike = weakest_direction(smeared.astype(np.float32), gray, mask)
    assert alike < ISOTROPIC - 0.1
    assert min(abs(angle - 45.0), 180 - abs(angle - 45.0)) <= 10


def test_a_kept_reference_gives_the_blur_a_fresh_one_gives():
    # a scanner keeps what measure_blur makes of the enrolled image (BlurReference) and
    # passes it with each photo: the blur is the same as measured afresh, photo after
    # photo, and over other pixels (a board partly out of the frame) it is measured anew
    from companion.vision.blur import BlurReference

    ref = _printed(3)
    kept = BlurReference(ref)
    for sigma in (0.7, 1.5, 0.7):
        g = cv2.getGaussianKernel(11, sigma)
        photo = _spoilt(ref, g @ g.T)
        assert measure_blur(photo, ref, _strip(), kept) == measure_blur(photo, ref, _strip())
    part = _strip()
    part[:, : part.shape[1] // 2] = False
    assert measure_blur(photo, ref, part, kept) == measure_blur(photo, ref, part)
    assert measure_blur(photo, ref, _strip(), kept) == measure_blur(photo, ref, _strip())
