"""The closer look at close tile calls and the colour reading of counters.

Unit tests of the two measures (where two faces differ; the light on the board round a
counter), then the reader on photos built to need them: look-alike tiles under blur, and
counters of every colour under a strong colour cast.
"""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.the_glade.names import BoardGeometry
from companion.the_glade.recognition import detail
from companion.the_glade.recognition.counter_colour import (
    HAZE,
    board_light,
    colour_templates,
    colour_vectors,
)
from companion.the_glade.recognition.detail import (
    DETAIL,
    Candidate,
    as_seen,
    compare,
    place,
    weighed,
)
from companion.the_glade.recognition.enrol import build_model
from companion.the_glade.recognition.model import disc_mask
from companion.the_glade.recognition.reader import read_board
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack
from companion.vision.patches import cut, describe
from companion.vision.sim import Camera, Degradations

G7 = BoardGeometry.from_dict({"rows": 7, "cols": 7, "centre": "D4"})


def _faces(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two faces alike but for one corner."""
    rng = np.random.default_rng(seed)
    a = np.full((DETAIL, DETAIL, 3), 0.8, np.float32)
    a[10:40, 10:40] = rng.uniform(0.2, 0.6, 3)
    b = a.copy()
    b[44:58, 44:58] = (0.3, 0.5, 0.2)
    return a, b


def _candidate(face: np.ndarray, patch: np.ndarray, name: str) -> Candidate:
    return Candidate(name, 0, face, patch, float(((patch - face) ** 2).mean()), (0, 0), 0.0)


def test_weighed_is_sure_of_the_face_shown_and_halfway_between_is_not():
    a, b = _faces()
    sure = weighed(_candidate(a, a, "a"), _candidate(b, a, "b"))
    assert sure.margin == pytest.approx(1.0, abs=0.05) and sure.noise < 0.05
    other = weighed(_candidate(a, b, "a"), _candidate(b, b, "b"))
    assert other.margin < -0.9
    half = (a + b) / 2
    between = weighed(_candidate(a, half, "a"), _candidate(b, half, "b"))
    assert abs(between.margin) < 0.1


def test_weighed_ignores_misfit_where_the_faces_agree():
    """A smudge on the part both faces share does not make the call less sure."""
    a, b = _faces()
    smudged = a.copy()
    smudged[12:38, 12:38] += 0.3
    verdict = weighed(_candidate(a, smudged, "a"), _candidate(b, smudged, "b"))
    assert verdict.margin > 0.9 and verdict.noise < 0.1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(0.0, 0.4))
def test_the_best_faces_own_misfit_moves_the_margin_by_at_most_twice_its_root(seed, size):
    """Whatever spoils the photo (noise, a smudge, a misplaced fruit), a residual of energy
    ``noise`` (in units of the faces' difference) moves the margin from 1 by at most
    2 sqrt(noise): why a closer look is judged by margin / sqrt(noise)."""
    a, b = _faces(seed % 7)
    rng = np.random.default_rng(seed)
    residual = rng.normal(0, 1, a.shape).astype(np.float32) * size
    if seed % 3 == 0:  # a residual shaped like the difference itself: the worst case
        residual = (b - a) * size * 2
    photo = a + residual
    verdict = weighed(_candidate(a, photo, "a"), _candidate(b, photo, "b"))
    assert abs(verdict.margin - 1) <= 2 * np.sqrt(verdict.noise) + 1e-3


def test_a_look_is_judged_by_its_margin_over_the_root_of_its_noise():
    """Measured on the tuning photos: looks that named a wrong face had margin / sqrt(noise)
    of 0.34 or less. A margin of 0.2 in a misfit of 0.5 (0.28) was once sure enough to
    confirm a first look; a margin of 0.38 in a misfit of 0.2 (0.85) was once too small to
    overrule one."""
    from companion.the_glade.recognition.close_calls import (
        AGREED_CLEARNESS,
        AGREED_MARGIN,
        STRONG_CLEARNESS,
        STRONG_MARGIN,
        Look,
    )

    def look(margin: float, noise: float, clipped: float = 0.0) -> Look:
        return Look(("a", 0, "b"), margin, noise, clipped)

    assert not look(0.2, 0.5).sure(AGREED_CLEARNESS, AGREED_MARGIN)
    assert look(0.25, 0.2).sure(AGREED_CLEARNESS, AGREED_MARGIN)
    assert look(0.38, 0.2).sure(STRONG_CLEARNESS, STRONG_MARGIN)
    assert not look(0.358, 0.577).sure(STRONG_CLEARNESS, STRONG_MARGIN)  # a wrong look, style 6
    # a tiny margin is never sure, however small the misfit
    assert not look(0.1, 0.001).sure(AGREED_CLEARNESS, AGREED_MARGIN)
    # nor a look whose best face misfits the photo by more than the faces differ
    assert not look(1.2, 1.5).sure(AGREED_CLEARNESS, AGREED_MARGIN)
    assert look(0.5, 0.9).sure(AGREED_CLEARNESS, AGREED_MARGIN)
    # clipped pixels where the faces differ ask for a clearer look
    assert look(0.38, 0.2).clearness == pytest.approx(0.38 / np.sqrt(0.2))
    assert not look(0.38, 0.2, clipped=0.2).sure(STRONG_CLEARNESS, STRONG_MARGIN)


#: Two tile templates differing in 4 of their 16 values, for evidence built by hand.
_TEMPLATES = np.zeros((2, 16), np.float32)
_TEMPLATES[1, :4] = 1.0
#: A model as far as the reader's naming needs one: both templates at turn 0, spring.
_MODEL = SimpleNamespace(tile_turns=np.zeros(2, int), tile_seasons=["spring", "spring"])


def _square(**figures) -> SimpleNamespace:
    """The evidence of one square (index 0) with the ``figures`` given: the rest is a
    square wholly in the photo, nothing clipped, no closer look, no counter looked for, no
    look-alike pair judged, its brightness and place on the edge unmeasured."""
    evidence = dict(centres=np.zeros((1, 2)), sat=np.zeros(1), white=np.zeros(1),
                    frame_share=np.ones(1), tile_clipped=np.zeros(1), tile_at=np.zeros((1, 2)),
                    tile_angle=np.zeros(1), fine_angle=None, templates=_TEMPLATES, looks={},
                    counters={}, tint={}, disc=np.zeros(1), pairs={}, bright=None, edge=None,
                    partners=None)
    evidence.update(figures)
    return SimpleNamespace(**evidence)


def _named(first_z: float, look_margin: float, look_noise: float) -> tuple[str, str]:
    """The tile name (and reason) the reader gives a square whose first look names A over B
    with margin 0.5 at misfit z ``first_z``, and whose closer look names B over A."""
    from companion.the_glade.recognition.close_calls import Look, misfit_z
    from companion.the_glade.recognition.reader import SquareReading, _name_tile

    gap = float(((_TEMPLATES[0] - _TEMPLATES[1]) ** 2).mean())
    d1 = gap * (0.5 * np.sqrt(32 * 32 * 3 / 16) / (2 * first_z)) ** 2  # z of (d1, d1 + gap / 2)
    assert misfit_z(d1, d1 + 0.5 * gap, gap) == pytest.approx(first_z)
    ev = _square(tiles=[((d1, 0, "A"), (d1 + 0.5 * gap, 1, "B"))],
                 looks={0: Look(("B", 1, "A"), look_margin, look_noise)})
    reading = SquareReading("A1", "tile")
    _name_tile(_MODEL, ev, 0, reading)
    return reading.name, reading.reason


def test_a_firm_first_look_stands_against_a_closer_look_that_cannot_tell():
    """Found on art styles 6 and 9: a first look sure by 4-9 times the photo's misfit, and a
    closer look naming the other fruit by a margin that is the photo's noise tipping a near
    tie. The first look was right each time; the square was doubted for nothing."""
    assert _named(4.0, 0.05, 0.4) == ("A", "")          # the closer look cannot tell
    assert _named(4.0, 0.6, 0.2) == ("B", "")           # a clear closer look overrules
    assert _named(2.0, 0.05, 0.4) == ("B", "looks like B or A")  # first look not firm
    assert _named(4.0, 0.3, 0.4) == ("B", "looks like B or A")   # 0.47 clear: it tells


def test_a_first_look_too_weak_to_name_yields_to_a_closer_look_that_could_confirm_one():
    """Found on art style 6, whose fruits are blobs: a first look under z 1 (too weak to name
    a face by itself) and a closer look naming the other face 0.45-0.8 clear, right every
    time, but doubted because overruling asks 0.8."""
    assert _named(0.5, 0.3, 0.4) == ("B", "")                    # 0.47 clear: enough
    assert _named(0.5, 0.2, 0.5) == ("B", "looks like B or A")   # 0.28 clear: not enough
    assert _named(1.5, 0.3, 0.4) == ("B", "looks like B or A")   # a first look that names A


def test_a_tile_washed_out_by_glare_is_named_only_on_a_clear_closer_look():
    """A square washed out by glare is doubted, unless its tile's name is sure and an
    agreeing closer look is as clear as overruling asks (clipped colours where the faces
    differ asking more)."""
    from companion.the_glade.recognition.close_calls import Look
    from companion.the_glade.recognition.reader import SquareReading, _legible_through_glare

    def named(kind: str = "tile", doubt: str = "") -> SquareReading:
        reading = SquareReading("A1", kind, name="A")
        if doubt:
            reading.doubted(doubt, "looks like A or B")
        return reading

    assert _legible_through_glare(Look(("A", 0, "B"), 0.5, 0.1), named())      # 1.6 clear
    assert not _legible_through_glare(Look(("A", 0, "B"), 0.3, 0.4), named())  # 0.47 clear
    assert not _legible_through_glare(Look(("A", 0, "B"), 0.5, 0.1, clipped=0.5), named())
    assert not _legible_through_glare(Look(("B", 1, "A"), 0.5, 0.1), named())  # another face
    assert not _legible_through_glare(None, named())                           # no closer look
    assert not _legible_through_glare(Look(("A", 0, "B"), 0.5, 0.1),
                                      named(doubt="look-alike"))
    assert not _legible_through_glare(Look(("A", 0, "B"), 0.5, 0.1), named("counter"))


def _judged(look_noise: float, disc: float) -> tuple[str, str | None]:
    """How the reader judges a square seen on art style 12 (photo 20064 D5): a mouse tile
    lit unevenly, so its first look fits poorly, beside a white counter whose search found
    a faint outline on the tile's paper and fitted it better."""
    from companion.the_glade.recognition.close_calls import Look
    from companion.the_glade.recognition.reader import _judge

    ev = _square(
        tiles=[((0.0458, 0, "mouse/hazelnut/oak"), (0.0471, 1, "mouse/acorn/oak"))],
        counters={0: (0.0156, 0.196, "white-double", "white-single", np.zeros(2))},
        disc=np.array([disc]), structure=np.array([2.54]), tint={0: (0.0173, 0.0196)},
        outline=np.array([0.528]), empty=np.array([0.1144]),
        looks={0: Look(("mouse/hazelnut/oak", 0, "mouse/blackberry/oak"), 1.03, look_noise)})
    reading = _judge(_MODEL, ev, 0, "D5")
    return reading.kind, reading.name


def test_a_tile_whose_face_fits_is_not_taken_for_a_counter_with_a_faint_outline():
    """Two tiles, on several art styles, were read as counters (or doubted): lit unevenly,
    they fitted their first look poorly, and a counter search found a faint outline on their
    paper. Their closer look named them clearly, its face misfitting by 0.12-0.22 of the
    faces' difference, where tile faces misfit every one of 1,384 counters by 0.8 or more."""
    assert _judged(0.22, 0.49) == ("tile", "mouse/hazelnut/oak")
    assert _judged(0.9, 0.49) == ("counter", "white-double")   # misfits as on counters
    assert _judged(0.22, 0.6) == ("counter", "white-double")   # a clear counter outline


def _counter_square(tint, disc: float, empty: float, counter: float, tile: float,
                    structure: float, sat: float = 0.0, name: str = "green-single"
                    ) -> tuple[str, str | None, str]:
    """How the reader judges an inner square where a counter was looked for: its kind,
    name and reason, from the figures of a photo (no closer look at its tile call)."""
    from companion.the_glade.recognition.reader import _judge

    ev = _square(
        tiles=[((tile, 0, "mouse/acorn/maple"), (tile + 0.001, 1, "mouse/blackberry/maple"))],
        counters={0: (counter, 0.48, name, "green-double", np.zeros(2))},
        disc=np.array([disc]), structure=np.array([structure]),
        tint={} if tint is None else {0: tint}, outline=np.array([0.35]),
        empty=np.array([empty]), sat=np.array([sat]))
    reading = _judge(_MODEL, ev, 0, "D4")
    return reading.kind, reading.name, reading.reason


def test_a_bare_square_whose_board_fits_better_than_any_counter_holds_none():
    """Photo 20129 D4, in every art style: a bare square in glare that a white counter's
    round outline and shape fit better than the board. The counter, placed where its
    colours stand out most, still fits them worse than the bare board (1.18-1.37 of its
    distance, where 4,157 counters fitted at most 0.81): no counter there. Closer than the
    board, or with clipped colours asking a wider margin, the square stays in doubt."""
    def judged(tint, sat=0.0):
        return _counter_square(tint, 0.511, 0.0535, 0.0327, 0.0637, 0.197, sat,
                               name="white-double")[::2]

    assert judged((0.0190, 0.0156)) == ("empty", "")
    assert judged((0.0150, 0.0156)) == ("uncertain", "counter or empty?")
    assert judged((0.0190, 0.0156), sat=0.3) == ("uncertain", "empty or counter?")
    assert judged((0.0100, 0.0156)) == ("counter", "")  # a counter that stands out


def test_a_faint_counter_whose_colours_stand_out_is_no_mark_on_the_board():
    """Photo 20021 C4: a green single on the green board, its round outline faint (0.45-0.47,
    under the 0.5 that is sure), doubted as "a counter, or a mark on the board?" on three
    art styles. Its colours fit at a third of the bare board's distance, and the bare
    board's own marks are in that distance: it is a counter. Without the light measured,
    or with colours barely nearer than the board's, the doubt stays."""
    def judged(tint):
        return _counter_square(tint, 0.453, 0.0626, 0.026, 0.0609, 1.2254)

    assert judged((0.0356, 0.1041)) == ("counter", "green-single", "")
    mark = ("uncertain", "green-single", "a counter, or a mark on the board?")
    assert judged((0.0650, 0.1041)) == mark
    assert judged(None) == mark


def test_clipped_pixels_count_only_where_the_faces_differ():
    """An over-exposed photo clips the paper round the prints: that tells two faces apart
    no worse, and the closer look asks no more margin for it. Clipping where the faces
    differ (a washed-out fruit) is what the look reports."""
    a, b = _faces()
    paper = np.ones((DETAIL, DETAIL), np.float32)
    paper[44:58, 44:58] = 0.0            # everything clipped but where the faces differ
    fruit = 1.0 - paper                  # only where they differ
    # (the weight is spread by a pixel or two: WEIGHT_BLUR)
    for clipped, low, high in ((paper, 0.0, 0.25), (fruit, 0.75, 1.0)):
        first = Candidate("a", 0, a, a, 0.0, (0, 0), 0.0, clipped)
        second = Candidate("b", 1, b, a, 0.0, (0, 0), 0.0, clipped)
        verdict = weighed(first, second)
        assert low <= verdict.clipped <= high
        assert verdict.margin == pytest.approx(1.0, abs=0.05)
    # without a clipping map (as for faces compared off a photo), nothing is clipped
    assert weighed(_candidate(a, a, "a"), _candidate(b, a, "b")).clipped == 0.0


def test_clipped_share_of_a_tile_is_weighed_where_its_best_two_faces_differ():
    """The first look's version of the same: the share of a tile's clipped pixels, weighted
    by how much its two best faces differ there."""
    from companion.the_glade.recognition.evidence import _clipped_where_they_differ
    from companion.the_glade.recognition.model import TILE_PATCH

    one = np.full((TILE_PATCH, TILE_PATCH, 3), 0.8, np.float32)
    two = one.copy()
    two[20:28, 20:28] = 0.3                      # they differ in the lower right only
    tset = SimpleNamespace(full=np.stack([one.reshape(-1), two.reshape(-1)]))
    side = 64.0                                  # the tile's side in the (fine) view
    hot = np.ones((100, 100), np.float32)        # an over-exposed view ...
    hot[50 + 8:50 + 24, 50 + 8:50 + 24] = 0.0    # ... but for where the faces differ
    fits = [((0.0, 0, "one"), (0.1, 1, "two"))]
    at = np.array([[25.0, 25.0]])                # working px: the fine view is twice as big
    shares = _clipped_where_they_differ(tset, hot, fits, at, np.zeros(1), side)
    assert shares[0] < 0.1
    shares = _clipped_where_they_differ(tset, 1.0 - hot, fits, at, np.zeros(1), side)
    assert shares[0] > 0.9


def _two_fruits() -> tuple[np.ndarray, np.ndarray]:
    """A tile's face with a dark fruit in its lower right, and its look-alike with a
    lighter one."""
    a = np.full((DETAIL, DETAIL, 3), 0.85, np.float32)
    a[8:36, 8:36] = (0.25, 0.35, 0.3)
    a[44:58, 44:58] = (0.2, 0.3, 0.5)
    b = a.copy()
    b[44:58, 44:58] = (0.4, 0.48, 0.62)
    return a, b


def test_a_fruit_under_the_thick_edge_of_a_glare_spot_is_still_its_own():
    """Glare veils a tile unevenly: thick over the fruit in one corner, thin over the
    creature. One even veil for the whole tile leaves the veiled dark fruit nearer a lighter
    look-alike (the code before this test named the look-alike, margin 0.65); a smooth
    veil fitted over the tile sees the dark fruit under it."""
    a, b = _two_fruits()
    yy, xx = np.mgrid[0:DETAIL, 0:DETAIL].astype(np.float32)
    x, y = (xx - 31.5) / 32, (yy - 31.5) / 32
    veil = (0.4 * (x + 1) / 2 * (y + 1) / 2)[..., None]  # thick at the lower right
    photo = ((1 - veil) * a + veil).reshape(-1)
    found = compare([("b", 1, b), ("a", 0, a)], np.stack([photo, photo]), [(0.0, 0.0, 0.0)] * 2)
    assert [c.name for c in found] == ["a", "b"]
    verdict = weighed(found[0], found[1])
    assert verdict.margin > 0.95 and verdict.noise < 0.05
    # the light's fields are smooth and shared by the whole tile: in a darker light the
    # lighter look-alike is not darkened to pass for the dark fruit
    dark = (0.7 * a).reshape(-1)
    found = compare([("b", 1, b), ("a", 0, a)], np.stack([dark, dark]), [(0.0, 0.0, 0.0)] * 2)
    assert [c.name for c in found] == ["a", "b"]
    assert weighed(found[0], found[1]).margin > 0.9


@pytest.mark.parametrize("veil", [0.0, 0.5])
def test_a_fruit_across_a_shadows_soft_edge_is_still_its_own(veil, monkeypatch):
    """A shadow's soft edge across the tile (its light falls from 1 to 0.6 across the
    tile's diagonal: no plane) darkens the fruit's side; then glare on top, thicker than
    the first look allows. The face is fitted in that light and under that glare, and the
    look-alike's fruit stays clearly further. With the veil alone the best face misfits
    the photo ten times as much (and under the glare the look-alike fits better)."""
    a, b = _two_fruits()
    yy, xx = np.mgrid[0:DETAIL, 0:DETAIL].astype(np.float32)
    shade = 1.0 - 0.4 / (1.0 + np.exp(-(xx + yy - DETAIL) / 16.0))
    photo = (shade[..., None] * a * (1 - veil) + veil).reshape(-1)
    assert np.abs(as_seen(a, photo).reshape(-1) - photo).mean() < 0.015
    found = compare([("b", 1, b), ("a", 0, a)], np.stack([photo, photo]),
                    [(0.0, 0.0, 0.0)] * 2)
    assert [c.name for c in found] == ["a", "b"]
    verdict = weighed(found[0], found[1])
    assert verdict.margin > 0.9 and verdict.margin / np.sqrt(verdict.noise) > 2.0
    monkeypatch.setattr(detail, "GAIN_MIN", 1.0)  # the veil alone
    alone = compare([("b", 1, b), ("a", 0, a)], np.stack([photo, photo]),
                    [(0.0, 0.0, 0.0)] * 2)
    assert min(c.fit for c in alone) > 10 * found[0].fit


def test_align_finds_a_face_moved_and_turned():
    a, b = _faces(3)
    n = 200
    view = np.full((n, n, 3), 0.8, np.float32)
    # the face drawn 74 px wide at (101.5, 98.0), turned 1.5 degrees
    side = 74.0
    big = cv2.resize(a, (round(side), round(side)), interpolation=cv2.INTER_LINEAR)
    m = cv2.getRotationMatrix2D((side / 2, side / 2), -1.5, 1.0)
    m[:, 2] += (101.5 - side / 2, 98.0 - side / 2)
    view = cv2.warpAffine(big, m, (n, n), dst=view, borderMode=cv2.BORDER_TRANSPARENT)
    faces = [describe(f[None])[0].reshape(f.shape) for f in (b, a)]
    places = place(view, (100.0, 100.0), 0.0, side,
                   [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in faces])
    patches = describe(np.stack([cut(view, (cx, cy), a, side, DETAIL) for cx, cy, a in places]))
    found = compare([("b", 1, faces[0]), ("a", 0, faces[1])], patches, places)
    assert found[0].name == "a"
    assert found[0].centre == pytest.approx((101.5, 98.0), abs=0.8)
    assert found[0].angle == pytest.approx(1.5, abs=1.0)  # turned back upright


def test_look_alikes_are_compared_where_the_tile_lies_not_where_each_fits_best():
    """Two faces alike but for a fruit 3 px apart. Aligned each on its own, the look-alike
    shifted under a pixel and turned 2 degrees to lay its fruit over the photo's, and the
    right face won by a margin of only 0.46. Compared where the tile lies (where their mean
    face fits), the right face wins clearly."""
    from companion.the_glade.recognition.close_calls import _verdict, one_place

    a = np.full((DETAIL, DETAIL, 3), 0.85, np.float32)
    cv2.circle(a, (24, 24), 14, (0.25, 0.45, 0.3), -1)   # the creature both share
    cv2.circle(a, (46, 46), 6, (0.2, 0.3, 0.5), -1)      # a fruit ...
    b = a.copy()
    b[38:56, 38:56] = 0.85
    cv2.circle(b, (49, 46), 6, (0.2, 0.3, 0.5), -1)      # ... the look-alike's, 3 px over
    n, side = 200, 74.0
    view = np.full((n, n, 3), 0.85, np.float32)
    big = cv2.resize(a, (round(side), round(side)), interpolation=cv2.INTER_LINEAR)
    m = cv2.getRotationMatrix2D((side / 2, side / 2), 0.0, 1.0)
    m[:, 2] += (100 - side / 2, 100 - side / 2)
    view = cv2.warpAffine(big, m, (n, n), dst=view, borderMode=cv2.BORDER_TRANSPARENT)
    fa, fb = (describe(f[None])[0].reshape(f.shape) for f in (a, b))
    where = one_place(view, (101.0, 99.0), 0.0, side,
                      [cv2.cvtColor(f, cv2.COLOR_BGR2GRAY) for f in (fa, fb)])
    assert where[:2] == pytest.approx((100.0, 100.0), abs=0.5)
    patch = describe(cut(view, where[:2], where[2], side, DETAIL)[None])
    look = _verdict(compare([("b", 1, fb), ("a", 0, fa)], np.repeat(patch, 2, axis=0),
                            [where, where]))
    assert look.names[0] == "a" and look.names[2] == "b"
    assert look.margin > 0.7 and look.noise < 0.1


def test_board_light_measures_a_colour_cast_on_the_border():
    rng = np.random.default_rng(1)
    board = rng.uniform(40, 200, (48, 48, 3)).astype(np.float32)
    cast = np.array([0.7, 1.0, 1.3], np.float32)
    view = board * cast
    view[:6, :6] = 255  # glare: clipped pixels are left out
    where = np.ones((48, 48), bool)
    assert board_light(view, board, where) == pytest.approx(cast, rel=0.02)


def test_board_light_gives_up_when_no_border_shows():
    board = np.full((48, 48, 3), 100, np.float32)
    view = np.full((48, 48, 3), 255, np.float32)  # washed out
    assert board_light(view, board, np.ones((48, 48), bool)) is None


def test_colour_vectors_ignore_exposure_but_not_colour():
    mask = disc_mask(20)
    patch = np.random.default_rng(2).uniform(0.1, 0.9, (1, 20, 20, 3)).astype(np.float32)
    same = colour_vectors(patch * 0.6, mask)
    assert np.allclose(colour_vectors(patch, mask), same, atol=1e-5)
    tinted = colour_vectors(patch * np.array([1.0, 0.8, 1.2], np.float32), mask)
    assert not np.allclose(tinted, same, atol=1e-2)


@pytest.fixture(scope="module")
def model4():
    """Unseen SAMPLE art (style 4), enrolled from its own pack."""
    return build_model(sample_pack(4), lookalikes=False), sample_pack(4)


def test_counters_of_every_colour_under_a_strong_colour_cast(model4):
    model, pack = model4
    state = random_forest(np.random.default_rng(11), G7, pack, fill=0.3, counters=1.0)
    seen = 0
    for seed in (21, 22, 23):
        camera = Camera(coverage=0.8, turn=-6.0, tilt_x=3.0, tilt_y=-2.0)
        image, truth = render_photo(pack, state, seed, camera=camera,
                                    spoil=Degradations(shadow=False, glare=False, blur=False,
                                                       strength=1.6))
        result = read_board(model, image).result()
        for square, counter in truth["forest"]["counters"].items():
            if square not in result["uncertain"]:
                assert result["forest"]["counters"].get(square) == counter, square
                seen += 1
    assert seen >= 0.8 * 3 * len(truth["forest"]["counters"])


def test_blurred_look_alike_tiles_are_named_or_doubted_never_swapped(model4):
    model, pack = model4
    for seed in (31, 32):
        state = random_forest(np.random.default_rng(seed), G7, pack)
        camera = Camera(coverage=0.6, turn=12.0, tilt_x=-4.0, tilt_y=5.0)
        image, truth = render_photo(pack, state, seed, camera=camera)
        image = cv2.GaussianBlur(image, (0, 0), 1.4)
        result = read_board(model, image).result()
        tiles = result["forest"]["tiles"]
        for square, tile in truth["forest"]["tiles"].items():
            assert tiles.get(square) in (tile, None), square
        assert len(result["uncertain"]) <= 0.1 * len(truth["forest"]["tiles"])


def test_a_counter_under_glare_keeps_its_colour():
    """A red face veiled by glare (and clipped where the photo clips) is nearer its own hazed
    template than a white face's."""
    mask = disc_mask(20)
    rng = np.random.default_rng(5)
    red = np.tile(np.array([0.2, 0.2, 0.8], np.float32), (1, 400, 1))
    white = np.tile(np.array([0.85, 0.85, 0.85], np.float32), (1, 400, 1))
    red[0, rng.integers(0, 400, 60)] = 0.9  # a white toadstool
    white[0, rng.integers(0, 400, 60)] = (0.2, 0.2, 0.8)  # a red one
    clip = np.array([1.0, 1.0, 1.0], np.float32)
    faces = colour_templates(np.concatenate([red, white]), mask, clip)
    assert len(faces) == 2 * len(HAZE)
    seen = colour_vectors(np.minimum(0.6 * red + 0.4, 1.0), mask)
    d = ((faces - seen) ** 2).sum(axis=1)
    best = int(np.argmin(d))
    assert best % 2 == 0  # a red template (faces are haze-major: red, white, red, ...)
    plain = colour_vectors(red, mask)
    assert ((plain - seen) ** 2).sum() > d[best]  # the veil is what made it fit


def test_an_off_centre_counter_is_recentred(model4):
    """A counter lying a sixth of its width off where the outline search put it is moved back
    onto its face before single or double is judged."""
    from companion.the_glade.recognition.counters import place_counters
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import COUNTER_INSET, FINE

    model, pack = model4
    face = next(c for c in pack.counters if c.counter == "green-double").image
    side = counter_side(model.counter_size) * COUNTER_INSET * FINE
    n = 160
    view = np.full((n, n, 3), 90.0, np.float32)
    size = round(counter_side(model.counter_size) * FINE)
    disc = cv2.resize(face, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
    x0, y0 = 60, 52
    view[y0:y0 + size, x0:x0 + size] = disc
    true_centre = np.array([(x0 + size / 2) / FINE, (y0 + size / 2) / FINE])
    guess = true_centre + np.array([3.5, -2.5])
    found = place_counters(model.counter_templates, view, guess[None], side)[0]
    assert np.abs(found - true_centre).max() < 1.0


def test_closer_look_names_the_face_that_beats_every_other_where_they_differ():
    """Three faces, ranked by whole fit: A, then B (another creature: differs from A over a
    large part, where the photo is A), then C (differs from A only in a small fruit, where
    the photo is C). Judged against the second-best alone, A would be sure; it is C that
    beats both where they differ, and C's margin is over its closest rival."""
    from companion.the_glade.recognition.close_calls import _verdict

    photo = np.full((16, 16, 3), 0.9, np.float32)
    photo[2:8, 2:8] = 0.3        # the creature
    photo[12:14, 12:14] = 0.4    # the fruit, as C prints it
    a = photo.copy()
    a[12:14, 12:14] = 0.9        # A: another fruit (none there)
    a[11:13, 11:13] = 0.4
    b = photo.copy()
    b[2:8, 2:8] = 0.9            # B: another creature
    b[2:10, 8:14] = 0.3

    def candidate(name: str, face: np.ndarray, fit: float) -> Candidate:
        return Candidate(name, len(name), face, photo, fit, (0.0, 0.0), 0.0)

    found = [candidate("A", a, 0.001), candidate("B", b, 0.002), candidate("C", photo, 0.003)]
    assert weighed(found[0], found[1]).margin > 0.9  # A beats B clearly ...
    look = _verdict(found)
    assert look.names[0] == "C"                      # ... but C beats A where they differ
    assert look.names[2] in ("A", "B")
    assert look.margin == pytest.approx(1.0) and look.noise == pytest.approx(0.0)


@pytest.fixture(scope="module")
def model1():
    """SAMPLE art of tuning style 1, whose mouse and squirrel look alike when blurred."""
    return build_model(sample_pack(1), lookalikes=False), sample_pack(1)


@pytest.mark.parametrize(("seed", "size", "square"), [(20089, 7, "F6"), (5045, 8, "E6")])
def test_a_true_face_ranked_fourth_at_first_is_still_looked_at(model1, seed, size, square):
    """Found on tuning photos: a mouse with a blackberry, blurred, fitted a squirrel's two
    fruits and a mouse with an acorn better on the first look's small patches, and the
    closer look, given only those three, named the acorn as sure. Each close call's best
    five names now get their own shift, and the closer look compares the best three after
    that."""
    model, pack = model1
    state = random_forest(np.random.default_rng(seed), pack.board_for(size, size).geometry,
                          pack)
    photo, truth = render_photo(pack, state, seed)
    photo = cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])[1],
                         cv2.IMREAD_COLOR)
    got = {r.square: r for r in read_board(model, photo).squares}[square]
    want = truth["forest"]["tiles"][square]
    assert want.startswith("mouse/blackberry/")
    assert got.kind in ("tile", "uncertain") and (got.kind == "uncertain" or got.name == want), (
        got.name, got.reason)


def _counter_view(model, pack, name: str, at: tuple[float, float], glare=None):
    """A fine view (160 px) of one counter face lying with its centre ``at`` (working px)
    on a board of its own green, with a soft patch of glare centred at ``glare``."""
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import FINE

    face = next(c for c in pack.counters if c.counter == name).image
    n = 160
    view = np.full((n, n, 3), (60.0, 140.0, 70.0), np.float32)
    size = round(counter_side(model.counter_size) * FINE)
    disc = cv2.resize(face, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
    x0, y0 = round(at[0] * FINE - size / 2), round(at[1] * FINE - size / 2)
    inside = np.hypot(*np.mgrid[:size, :size] - (size - 1) / 2) <= size / 2
    view[y0:y0 + size, x0:x0 + size][inside] = disc[inside]
    if glare is not None:
        yy, xx = np.mgrid[:n, :n]
        spot = np.exp(-((xx - glare[0] * FINE) ** 2 + (yy - glare[1] * FINE) ** 2) / 300.0)
        view = np.minimum(view + 80.0 * spot[..., None], 255.0)
    return cv2.GaussianBlur(view, (0, 0), 1.0)


def test_a_counter_found_far_off_centre_by_glare_is_placed_again_from_the_centre(model4):
    """Found on a tuning photo (SAMPLE style 1): the round outline of a green counter on the
    green board lost out to a patch of glare 13 px away, and the single was then read as
    maybe double. Counters are laid near the middle of their square: one placed far off it
    is placed again from the centre, and stays there unless the far place fits clearly
    better, as it does for a counter that really lies far off."""
    from companion.the_glade.recognition.counters import counters_placed
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import COUNTER_INSET, FINE

    model, pack = model4
    side = counter_side(model.counter_size) * COUNTER_INSET * FINE
    centre = np.array([[40.0, 40.0]])
    glare = (50.0, 29.0)
    view = _counter_view(model, pack, "green-single", (40.0, 40.0), glare)
    placed = counters_placed(model.counter_templates, view, np.array([glare]), centre, side)
    assert np.hypot(*(placed[0] - centre[0])) < 1.5, placed
    # a counter really lying 9 px off its square's centre is kept where it lies
    off = (49.0, 40.0)
    view = _counter_view(model, pack, "green-single", off)
    placed = counters_placed(model.counter_templates, view, np.array([off]), centre, side)
    assert np.hypot(*(placed[0] - np.array(off))) < 1.5, placed


def _colours_of(model, view: np.ndarray, green=(60.0, 140.0, 70.0)):
    """The counter faces' colours under the light of a fine ``view`` of a bare board of one
    ``green`` (see :class:`CounterColours`), with its outer 8 working px as the border."""
    from companion.the_glade.recognition.counter_colour import CounterColours
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import COUNTER_INSET, FINE

    n = view.shape[0] // FINE
    working = cv2.resize(view, (n, n), interpolation=cv2.INTER_AREA)
    board = np.full((n, n, 3), green, np.float32)
    strip = np.ones((n, n), bool)
    strip[8:-8, 8:-8] = False
    side = counter_side(model.counter_size) * COUNTER_INSET
    return CounterColours.measure(model.counter_colours, working, board, strip, side,
                                  disc_mask())


@pytest.mark.parametrize("name", ["green-double", "red-single"])
def test_a_counter_is_placed_where_its_colours_stand_out_from_the_board(model4, name):
    """Shapes, light-flattened, barely show a counter of the board's own green; its
    toadstools' colours do. Started 5 px off (where a faint outline or a grid line put it),
    the counter is moved onto its face, and never further than ``reach`` from its square's
    centre."""
    from companion.the_glade.recognition.counters import place_by_colour
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import COUNTER_INSET, FINE

    model, pack = model4
    side = counter_side(model.counter_size) * COUNTER_INSET * FINE
    true = np.array([[41.0, 38.0]])
    view = _counter_view(model, pack, name, tuple(true[0]))
    colours = _colours_of(model, view)
    assert colours is not None
    start = true + np.array([[1.0, -5.0]])
    placed, like = place_by_colour(colours, view, start, np.array([[40.0, 40.0]]), side)
    assert np.hypot(*(placed[0] - true[0])) < 1.0, placed
    assert like[0] < 0.5  # a counter fits far better than the bare board
    # nothing fits a bare board better than the board itself
    bare = np.full_like(view, 0.0) + np.array((60.0, 140.0, 70.0), np.float32)
    _, like = place_by_colour(_colours_of(model, bare), bare, true, true, side)
    assert like[0] >= 0.9
    # held within reach of the centre, however well the counter fits beyond it
    placed, _ = place_by_colour(colours, view, start, np.array([[40.0, 44.0]]), side,
                                reach=3.0)
    assert np.hypot(*(placed[0] - np.array([40.0, 44.0]))) <= 3.0 + 1e-9, placed


def test_a_counter_found_far_off_by_its_outline_is_placed_by_its_colours(model4):
    """With the light measured, the counter is placed from both where its outline was
    found (here on a patch of glare 13 px away) and its square's centre, and kept where
    its colours stand out most from the board: on its face."""
    from companion.the_glade.recognition.counters import counters_placed
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import CELL_PX, COUNTER_INSET, FINE

    model, pack = model4
    side = counter_side(model.counter_size) * COUNTER_INSET * FINE
    centre = np.array([[40.0, 40.0]])
    glare = (50.0, 29.0)
    view = _counter_view(model, pack, "green-double", (42.0, 38.0), glare)
    colours = _colours_of(model, view)
    placed = counters_placed(model.counter_templates, view, np.array([glare]), centre, side,
                             colours, reach=0.2 * CELL_PX)
    assert np.hypot(*(placed[0] - np.array([42.0, 38.0]))) < 1.0, placed


@pytest.mark.parametrize(("style", "seed", "size", "square", "want"), [
    (8, 20170, 8, "D2", "green-double"), (5, 16118, 7, "D3", "purple-double"),
    (12, 20170, 8, "D2", "green-double")])
def test_counters_misplaced_by_their_shape_are_read_right(style, seed, size, square, want):
    """Found on analysis photos: a green double on the green board was placed 5 px off by
    its shape and read as the bare board (SAMPLE style 8), and a purple double placed off
    its toadstools was doubted as maybe single (style 5, a benchmark photo of every style).
    Placed by their colours, both are read right. On style 12 the same green double looked
    so like the bare board that it was never looked for: now its colours say it may be
    there."""
    pack = sample_pack(style)
    model = build_model(pack, lookalikes=False)
    state = random_forest(np.random.default_rng(seed), pack.board_for(size, size).geometry,
                          pack)
    photo, truth = render_photo(pack, state, seed)
    assert truth["forest"]["counters"][square] == want
    photo = cv2.imdecode(cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 92])[1],
                         cv2.IMREAD_COLOR)
    got = {r.square: r for r in read_board(model, photo).squares}[square]
    assert (got.kind, got.name) == ("counter", want), got


def test_a_counter_of_the_boards_colour_may_hide_on_a_square_that_looks_bare(model4):
    """A blurred counter of the board's own green can look more like the bare board than
    any tile does, so it was never looked for (SAMPLE style 12, photo 20170 D2, read as
    bare board). Where a counter's colours fit better than the board's somewhere near a
    bare-looking square's centre, it is looked for; on the bare board itself, never."""
    from companion.the_glade.recognition.counters import may_hide_a_counter
    from companion.the_glade.recognition.enrol import counter_side
    from companion.the_glade.recognition.model import COUNTER_INSET, FINE

    model, pack = model4
    side = counter_side(model.counter_size) * COUNTER_INSET * FINE
    centre = np.array([[40.0, 40.0]])
    view = _counter_view(model, pack, "green-double", (42.5, 38.0))
    assert may_hide_a_counter(_colours_of(model, view), view, centre, side).tolist() == [True]
    bare = np.full_like(view, 0.0) + np.array((60.0, 140.0, 70.0), np.float32)
    bare = bare + np.random.default_rng(1).normal(0.0, 3.0, bare.shape).astype(np.float32)
    assert may_hide_a_counter(_colours_of(model, bare), bare, centre, side).tolist() == [False]
    assert may_hide_a_counter(_colours_of(model, bare), bare, centre[:0], side).size == 0


def test_faces_compared_on_one_patch_are_those_compared_on_copies():
    """:func:`detail.compare_on` (every candidate's face fitted to the one patch) gives the
    very same candidates, to the bit, as :func:`compare` with a copy of it per face."""
    rng = np.random.default_rng(5)
    for n in (1, 2, 5):
        faces = rng.random((n, DETAIL, DETAIL, 3), dtype=np.float32)
        patch = (0.8 * faces[0].reshape(-1) + 0.1
                 + rng.normal(0, 0.05, DETAIL * DETAIL * 3)).astype(np.float32)
        hot = (rng.random((DETAIL, DETAIL)) > 0.9).astype(np.float32)
        listed = [(f"f{k}", k, faces[k]) for k in range(n)]
        one_by_one = compare(listed, np.repeat(patch[None], n, axis=0), [(1.0, 2.0, 3.0)] * n,
                             np.repeat(hot[None], n, axis=0))
        at_once = detail.compare_on(listed, patch, (1.0, 2.0, 3.0), hot)
        for a, b in zip(one_by_one, at_once, strict=True):
            assert (a.name, a.template, a.fit, a.centre, a.angle) == (
                b.name, b.template, b.fit, b.centre, b.angle)
            assert np.array_equal(a.face, b.face) and np.array_equal(a.patch, b.patch)
            assert np.array_equal(a.clipped, b.clipped)


def _tile_as_photographed(image: np.ndarray, n: int, inset: float, shift: tuple[float, float],
                          sigma: float, gain: float) -> np.ndarray:
    """A tile face's detail patch as a photo shows it: at the fine view's size, off its
    place by ``shift`` (fine px), blurred by ``sigma`` and dimmed by ``gain``."""
    small = cv2.resize(image, (n, n), interpolation=cv2.INTER_AREA).astype(np.float32)
    moved = cv2.warpAffine(small, np.float32([[1, 0, shift[0]], [0, 1, shift[1]]]), (n, n),
                           flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return detail.detail_face(cv2.GaussianBlur(moved, (0, 0), sigma) * gain, inset, 0).ravel()


@pytest.mark.parametrize("shift", [(0.86, -1.12), (-1.13, -0.9), (1.0, 1.0), (-0.5, 0.8)])
def test_a_tiny_fruit_off_its_place_is_named_once_each_face_is_refitted_round_it(
        shift, monkeypatch):
    """A new art family's tiny fruit (0.061 of the tile: family 7419, never tuned on), its
    tile a pixel off where the closer look placed it and blurred more than its faces: the
    closer look names it, sure, among its three look-alikes. Each face weighed as placed
    (close_calls.LOCAL_FIT off) named another fruit at (0.86, -1.12) and (-1.13, -0.9)."""
    from companion.the_glade.recognition import close_calls
    from companion.the_glade.recognition.close_calls import (
        AGREED_CLEARNESS,
        AGREED_MARGIN,
        _verdict,
    )
    from companion.the_glade.recognition.enrol import tile_detail, tile_side
    from companion.the_glade.recognition.families import family_pack
    from companion.the_glade.recognition.model import FINE, TILE_INSET

    monkeypatch.setattr(close_calls, "LOCAL_FIT", True)  # on: it only confirms (LOCAL_CONFIRM)
    pack = family_pack(7419)
    faces = {(t.tile, t.season): t.image for t in pack.tiles}
    names = ["hedgehog/acorn/beech", "hedgehog/blackberry/beech", "hedgehog/hazelnut/beech",
             "hedgehog/mushroom/beech"]
    n = max(8, round(tile_side(pack.tile_size) * FINE))
    patch = _tile_as_photographed(faces[names[0], "spring"], n, n * TILE_INSET, shift, 1.2, 0.8)
    seen = [(name, k, cv2.GaussianBlur(tile_detail(faces[name, "spring"], pack.tile_size),
                                       (0, 0), 0.8)) for k, name in enumerate(names)]
    look = _verdict(detail.compare_on(seen, patch, (0.0, 0.0, 0.0)))
    assert look.names[0] == names[0]
    assert look.sure(AGREED_CLEARNESS, AGREED_MARGIN)


def test_two_shades_of_an_icon_stay_apart_when_the_faces_are_refitted(monkeypatch):
    """Two faces alike but for the shade of a small icon (two greens); the photo shows the
    first a little off its place and dimmer. Refitted with one gain and offset for all
    three colours (detail.LOCAL_COLOURS off), the closer look is sure of it; a gain per
    colour could relight one shade into the other and was not sure. (One gain for all is
    off: not adopted held out.)"""
    from companion.the_glade.recognition import close_calls
    from companion.the_glade.recognition.close_calls import STRONG_CLEARNESS, STRONG_MARGIN

    monkeypatch.setattr(close_calls, "LOCAL_FIT", True)
    monkeypatch.setattr(detail, "LOCAL_COLOURS", False)

    def face(colour: tuple[float, float, float]) -> np.ndarray:
        f = np.full((DETAIL, DETAIL, 3), 0.85, np.float32)
        f[8:30, 8:30] = (0.4, 0.3, 0.2)
        cv2.circle(f, (46, 46), 6, colour, -1, cv2.LINE_AA)
        return cv2.GaussianBlur(f, (0, 0), 0.8)

    a, b = face((0.25, 0.55, 0.3)), face((0.3, 0.45, 0.2))
    photo = cv2.warpAffine(a, np.float32([[1, 0, 0.6], [0, 1, -0.4]]), (DETAIL, DETAIL),
                           borderMode=cv2.BORDER_REPLICATE) * 0.9
    look = close_calls._verdict(detail.compare_on([("A", 0, a), ("B", 1, b)], photo.ravel(),
                                                  (0.0, 0.0, 0.0)))
    assert look.names[0] == "A" and look.sure(STRONG_CLEARNESS, STRONG_MARGIN)
