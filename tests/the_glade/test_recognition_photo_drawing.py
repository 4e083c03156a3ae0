"""Look-alike doubts settled by drawing each candidate into the photo (photo_drawing, #20).

Round trips through the simulator on an art family built here and never tuned on (730520:
fruit 0.07 of the tile, a few photo pixels, drawn as the generator drew it before its
legibility check, the look-alikes the step was built for): each tile's own face, drawn into
the photo where the board's homography puts it, must out-fit the faces with its other fruits; the
settling rule must name a doubt only as its rules say (the reader's first candidate, a
photo whose sure tiles the drawings name right).
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from glade_family import benchmark_board_photo, misread

from companion.the_glade.names import CREATURES, FRUITS, LEAVES, Square
from companion.the_glade.recognition import photo_drawing, reader, sim
from companion.the_glade.recognition.enrol import build_model, tile_drawn
from companion.the_glade.recognition.families import family_pack
from companion.the_glade.recognition.reader import SquareReading
from companion.vision.board import project
from companion.vision.patches import LightFit
from companion.vision.sim import Degradations

FAMILY = 730520


@pytest.fixture(autouse=True)
def switched_on(monkeypatch) -> None:
    """The step is built and off by default (see photo_drawing.PHOTO_DRAWING): on here."""
    monkeypatch.setattr(photo_drawing, "PHOTO_DRAWING", True)


def _photographed(pack, spoil: Degradations | None = None) -> tuple[np.ndarray, dict]:
    """The table's 7x7 board of ``pack`` laid straight (no jitter: a reading's place is the
    square's centre) and photographed (``spoil``: the simulator's default), with its
    truth: the same board and camera on every call."""
    board = pack.board_for(7, 7)
    state = sim.random_forest(np.random.default_rng(11), board.geometry, pack, fill=0.8)
    mp = pytest.MonkeyPatch()
    mp.setattr(sim, "board_scene", partial(sim.board_scene, askew=0.0, offset=0.0))
    try:
        return sim.render_photo(pack, state, 4242, spoil=spoil)
    finally:
        mp.undo()


@pytest.fixture(scope="module")
def table(request):
    """A 7x7 board of the family laid straight (no jitter: a reading's place is the
    square's centre), its photo, truth, a model stub with the pack's own faces."""
    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack = family_pack(FAMILY, legible=False, rulebook_ink=False)
    board = pack.board_for(7, 7)
    photo, truth = _photographed(pack)
    names = [n for t in pack.tiles for n in [t.tile] * 4]
    seasons = [s for t in pack.tiles for s in [t.season] * 4]
    model = SimpleNamespace(tile_faces=np.stack([tile_drawn(t.image, pack.tile_size)
                                                 for t in pack.tiles]),
                            tile_names=names, tile_seasons=seasons, tile_size=pack.tile_size)
    faces = {(t.tile, t.season): f for f, t in enumerate(pack.tiles)}
    return SimpleNamespace(pack=pack, board=SimpleNamespace(grid=board.grid), photo=photo,
                           truth=truth, model=model, faces=faces,
                           homography=np.array(truth["homography"]))


def _reading(t, square: str, name: str, kind: str = "tile", **kw) -> SquareReading:
    r = SquareReading(square, kind, name, t.truth["turns"][square], t.truth["seasons"][square],
                      confidence=1.0, **kw)
    r.centre = sim.square_centre(t.board.grid, Square.parse(square))
    return r


def _siblings(name: str) -> list[str]:
    creature, fruit, leaf = name.split("/")
    return [f"{creature}/{f}/{leaf}" for f in FRUITS if f != fruit]


def _board(t) -> list[SquareReading]:
    """Every tile read surely with its true name, every other square empty."""
    tiles = t.truth["forest"]["tiles"]
    out = []
    for r in range(7):
        for c in range(7):
            sq = f"{chr(65 + c)}{r + 1}"
            out.append(_reading(t, sq, tiles[sq]) if sq in tiles
                       else SquareReading(sq, "empty"))
    return out


def _tiles(t, count: int) -> list[str]:
    inner = [s for s in sorted(t.truth["forest"]["tiles"])
             if s[0] not in "AG" and s[1:] not in ("1", "7")]
    return inner[:count]


def test_each_tile_s_own_fruit_outfits_its_other_fruits(table) -> None:
    """Every inner tile judged among its four fruits (its own listed second) is named
    right, clearly (z) and where its drawing predicts (lean near 1); a tile under the
    photo's glare may go unjudged (its fruit washed out), not misjudged."""
    photo = photo_drawing._Photo(table.photo)
    judged = 0
    for square in _tiles(table, 8):
        name = table.truth["forest"]["tiles"][square]
        season = table.truth["seasons"][square]
        group = photo_drawing.group_of((*_siblings(name)[:1], name), season, table.faces)
        assert len(group) == 4
        v = photo_drawing.judge(table.model, table.board, table.homography, photo,
                                _reading(table, square, name), group)
        if v is None:
            continue
        judged += 1
        assert v.winner == name, (square, v)
        assert v.z >= photo_drawing.MIN_Z and photo_drawing.LEAN_MIN <= v.lean \
            <= photo_drawing.LEAN_MAX, (square, v)
        assert v.ecc >= photo_drawing.MIN_ECC
    assert judged >= 6


def test_a_reading_placed_two_pixels_off_is_aligned_again(table) -> None:
    square = _tiles(table, 1)[0]
    name = table.truth["forest"]["tiles"][square]
    r = _reading(table, square, name)
    r.centre = (r.centre[0] + 2.0, r.centre[1] - 2.0)
    group = photo_drawing.group_of((name,), r.season, table.faces)
    v = photo_drawing.judge(table.model, table.board, table.homography,
                            photo_drawing._Photo(table.photo), r, group)
    assert v is not None and v.winner == name and v.z >= photo_drawing.MIN_Z


def _doubt(table, square: str, first: str, second: str) -> list[SquareReading]:
    readings = _board(table)
    i = next(k for k, r in enumerate(readings) if r.square == square)
    readings[i] = _reading(table, square, first, kind="uncertain",
                           reason=f"looks like {first} or {second}", doubt="look-alike",
                           candidates=(first, second))
    return readings


def test_a_doubt_whose_first_candidate_the_drawings_name_is_settled(table) -> None:
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _doubt(table, square, name, _siblings(name)[0])
    out = _settle(table, readings)
    r = next(r for r in readings if r.square == square)
    assert [readings[i].square for i, v in out.items() if v.settled] == [square]
    assert (r.kind, r.name, r.reason, r.candidates) == ("tile", name, "", ())
    assert r.distances["photo_drawing"] == 1.0


def _settle(table, readings: list[SquareReading]) -> dict:
    """The photo-drawing step on ``readings`` of the table's photo (they change in place)."""
    return photo_drawing.settle(table.model, table.board, table.homography, table.photo,
                                readings)


def _second_named(table) -> tuple[str, SquareReading, dict]:
    """A doubt whose truth is the reader's second candidate, after the step: the true
    name, the square's reading and the step's verdicts."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _doubt(table, square, _siblings(name)[0], name)
    out = _settle(table, readings)
    return name, next(r for r in readings if r.square == square), out


def test_the_second_candidate_is_never_named_by_the_drawings_alone(table, monkeypatch
                                                                    ) -> None:
    """Without OTHER two looks must agree: the drawings naming the reader's second
    candidate leave the doubt as it is (see the module's doc)."""
    monkeypatch.setattr(photo_drawing, "OTHER", False)
    name, r, out = _second_named(table)
    assert r.kind == "uncertain" and r.candidates == (_siblings(name)[0], name)
    assert not any(v.settled for v in out.values())
    assert out  # judged, and the verdict names the truth
    assert next(iter(out.values())).winner == name


def test_the_second_candidate_is_named_only_very_clearly(table, monkeypatch) -> None:
    """OTHER: a verdict naming the reader's second candidate settles the doubt when its z
    reaches OTHER_Z (its ECC OTHER_ECC), not merely MIN_Z."""
    name, r, out = _second_named(table)
    v = next(iter(out.values()))
    assert v.settled and v.z >= photo_drawing.OTHER_Z and v.ecc >= photo_drawing.OTHER_ECC
    assert (r.kind, r.name, r.candidates) == ("tile", name, ())
    # the same verdict under an OTHER_Z above its z, though over MIN_Z: left
    monkeypatch.setattr(photo_drawing, "OTHER_Z", v.z + 1.0)
    assert v.z >= photo_drawing.MIN_Z
    _name, r, out = _second_named(table)
    assert r.kind == "uncertain" and not any(v.settled for v in out.values())


def test_the_second_candidate_is_named_on_a_looser_alignment(table, monkeypatch) -> None:
    """SECOND: a verdict naming the reader's own second candidate as clearly as OTHER asks
    (z OTHER_Z) settles the doubt on an alignment down to LOOSE_ECC, under MIN_ECC and
    OTHER_ECC (a hard photo's blur and glare lower the correlation of a tile that lies
    where it is drawn); off, or LOOSE_ECC above the verdict's ECC: left."""
    name, _r, out = _second_named(table)
    v = next(iter(out.values()))
    monkeypatch.setattr(photo_drawing, "MIN_ECC", v.ecc + 0.001)
    monkeypatch.setattr(photo_drawing, "OTHER_ECC", v.ecc + 0.001)
    monkeypatch.setattr(photo_drawing, "SECOND", False)
    _name, r, out = _second_named(table)
    assert r.kind == "uncertain" and not any(v.settled for v in out.values())
    monkeypatch.setattr(photo_drawing, "SECOND", True)
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", v.ecc - 0.001)
    _name, r, out = _second_named(table)
    assert (r.kind, r.name, r.candidates) == ("tile", name, ())
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", v.ecc + 0.001)
    _name, r, out = _second_named(table)
    assert r.kind == "uncertain"
    # not as clearly as OTHER asks: left, however well aligned
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", 0.0)
    monkeypatch.setattr(photo_drawing, "OTHER_Z", v.z + 1.0)
    _name, r, out = _second_named(table)
    assert r.kind == "uncertain"


def test_the_first_candidate_named_very_clearly_on_a_looser_alignment(table, monkeypatch
                                                                       ) -> None:
    """FIRST_CLEAR: the reader's first candidate named as clearly as OTHER asks (z
    OTHER_Z, not merely MIN_Z) settles the doubt on an alignment down to LOOSE_ECC, under
    MIN_ECC; off, LOOSE_ECC above its ECC, or its z under OTHER_Z: left."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]

    def settled() -> bool:
        readings = _doubt(table, square, name, _siblings(name)[0])
        _settle(table, readings)
        r = next(r for r in readings if r.square == square)
        return (r.kind, r.name) == ("tile", name)

    readings = _doubt(table, square, name, _siblings(name)[0])
    v = next(iter(_settle(table, readings).values()))
    assert v.winner == name and v.z >= photo_drawing.OTHER_Z
    monkeypatch.setattr(photo_drawing, "MIN_ECC", v.ecc + 0.001)
    monkeypatch.setattr(photo_drawing, "BEYOND", False)  # (its own gate: ECC OTHER_ECC)
    monkeypatch.setattr(photo_drawing, "FIRST_CLEAR", False)
    assert not settled()
    monkeypatch.setattr(photo_drawing, "FIRST_CLEAR", True)
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", v.ecc - 0.001)
    assert settled()
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", v.ecc + 0.001)
    assert not settled()
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", 0.0)
    monkeypatch.setattr(photo_drawing, "OTHER_Z", v.z + 1.0)
    assert not settled()


def test_a_photo_beyond_the_winner_s_drawing_is_named_when_very_clear(table, monkeypatch
                                                                        ) -> None:
    """BEYOND: a doubt's own candidate named as clearly as OTHER asks, on a tile aligned to
    OTHER_ECC, settles though the photo lies beyond its drawing (lean over LEAN_MAX, up to
    BEYOND_LEAN); off, BEYOND_LEAN under its lean, or aligned under OTHER_ECC: left. Short
    of the winner's drawing (lean under LEAN_MIN) nothing changes."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]

    def settled() -> bool:
        readings = _doubt(table, square, name, _siblings(name)[0])
        _settle(table, readings)
        return next(r for r in readings if r.square == square).kind == "tile"

    readings = _doubt(table, square, name, _siblings(name)[0])
    v = next(iter(_settle(table, readings).values()))
    assert v.z >= photo_drawing.OTHER_Z and v.ecc >= photo_drawing.OTHER_ECC
    monkeypatch.setattr(photo_drawing, "LEAN_MAX", v.lean - 0.01)  # the photo lies beyond
    monkeypatch.setattr(photo_drawing, "BEYOND", False)
    assert not settled()
    monkeypatch.setattr(photo_drawing, "BEYOND", True)
    monkeypatch.setattr(photo_drawing, "BEYOND_LEAN", v.lean + 0.01)
    assert settled()
    monkeypatch.setattr(photo_drawing, "BEYOND_LEAN", v.lean - 0.005)
    assert not settled()
    monkeypatch.setattr(photo_drawing, "BEYOND_LEAN", v.lean + 0.01)
    monkeypatch.setattr(photo_drawing, "OTHER_ECC", v.ecc + 0.001)
    assert not settled()
    monkeypatch.setattr(photo_drawing, "OTHER_ECC", 0.0)
    monkeypatch.setattr(photo_drawing, "LEAN_MAX", 10.0)
    monkeypatch.setattr(photo_drawing, "LEAN_MIN", v.lean + 0.01)  # short of it
    assert not settled()


def test_a_missed_fruit_is_not_named_on_a_looser_alignment(table, monkeypatch) -> None:
    """SECOND names only the reader's own second candidate: a verdict for a fruit neither
    candidate has (the doubt's two names both wrong) keeps OTHER_ECC."""
    square = _tiles(table, 1)[0]
    name = table.truth["forest"]["tiles"][square]
    first, second = _siblings(name)[:2]
    readings = _doubt(table, square, first, second)
    out = _settle(table, readings)
    v = next(iter(out.values()))
    assert v.winner == name and v.settled  # the drawings find the missed fruit (OTHER)
    monkeypatch.setattr(photo_drawing, "MIN_ECC", v.ecc + 0.001)
    monkeypatch.setattr(photo_drawing, "OTHER_ECC", v.ecc + 0.001)
    monkeypatch.setattr(photo_drawing, "SECOND", True)
    monkeypatch.setattr(photo_drawing, "LOOSE_ECC", 0.0)
    readings = _doubt(table, square, first, second)
    out = _settle(table, readings)
    r = next(r for r in readings if r.square == square)
    assert r.kind == "uncertain" and not any(v.settled for v in out.values())


def _called(table, square: str, name: str, doubt: str, reason: str) -> list[SquareReading]:
    """The board read right but ``square``, a close call named ``name`` doubted as
    ``doubt``."""
    readings = _board(table)
    i = next(k for k, r in enumerate(readings) if r.square == square)
    readings[i] = _reading(table, square, name, kind="uncertain", reason=reason, doubt=doubt)
    return readings


def _close_call(table, square: str, name: str) -> list[SquareReading]:
    """The board read right but ``square``, a poor photo's close call named ``name``."""
    return _called(table, square, name, photo_drawing.POOR_DOUBT, "poor photo: a close call")


def test_a_poor_photo_s_close_call_the_drawings_name_is_settled(table, monkeypatch) -> None:
    """CLOSE_CALLS: a close call doubted only because the photo is poor is named when the
    drawings name it among its fruits (and it holds among its leaves and creatures);
    switched off, it stays."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _close_call(table, square, name)
    out = _settle(table, readings)
    r = next(r for r in readings if r.square == square)
    assert (r.kind, r.name, r.doubt) == ("tile", name, "")
    assert [readings[i].square for i, v in out.items() if v.settled] == [square]
    monkeypatch.setattr(photo_drawing, "CLOSE_CALLS", False)
    readings = _close_call(table, square, name)
    assert _settle(table, readings) == {}
    assert next(r for r in readings if r.square == square).kind == "uncertain"


def test_a_close_call_on_another_fruit_is_not_renamed(table) -> None:
    """A close call names one tile: the drawings naming another fruit leave it in doubt
    (OTHER is for a look-alike doubt's two names)."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    wrong = _siblings(name)[0]
    readings = _close_call(table, square, wrong)
    out = _settle(table, readings)
    r = next(r for r in readings if r.square == square)
    assert (r.kind, r.name, r.doubt) == ("uncertain", wrong, photo_drawing.POOR_DOUBT)
    assert next(iter(out.values())).winner == name and not any(
        v.settled for v in out.values())


def test_a_close_call_on_another_creature_is_vetoed(table, monkeypatch) -> None:
    """The fruits' comparison does not judge the creature: a close call naming the right
    fruit and leaf on another creature that passes the fruit gates (here made loose) is
    vetoed by its creature's rivals, where the true creature fits best."""
    monkeypatch.setattr(photo_drawing, "MIN_Z", 1e-3)
    monkeypatch.setattr(photo_drawing, "LEAN_MIN", -1e9)
    monkeypatch.setattr(photo_drawing, "LEAN_MAX", 1e9)
    monkeypatch.setattr(photo_drawing, "MAX_FIT", 1e9)
    monkeypatch.setattr(photo_drawing, "MIN_ECC", 0.0)
    vetoed = 0
    for square in _tiles(table, 12):
        name = table.truth["forest"]["tiles"][square]
        creature, fruit, leaf = name.split("/")
        for other in (c for c in ("hedgehog", "mouse", "squirrel", "toad") if c != creature):
            wrong = f"{other}/{fruit}/{leaf}"
            readings = _close_call(table, square, wrong)
            out = photo_drawing.settle(table.model, table.board, table.homography,
                                       table.photo, readings)
            v = next(iter(out.values()), None)
            if v is None or v.winner != wrong:
                continue  # not placed, or the fruits' verdict already elsewhere
            r = next(r for r in readings if r.square == square)
            assert r.kind == "uncertain", (square, wrong, v)
            rivals = photo_drawing.creatures_of(wrong, r.season, table.faces)
            assert len(rivals) == 4 and table.faces[(name, r.season)] in rivals
            vetoed += 1
    assert vetoed >= 2


def test_a_doubt_between_two_wrong_fruits_stays(table, monkeypatch) -> None:
    """Without OTHER only the reader's first candidate is named: a doubt between two
    wrong fruits stays though the drawings find the true one; a tile the drawings cannot
    judge (no verdict) stays either way."""
    for square in _tiles(table, 3)[::2]:
        name = table.truth["forest"]["tiles"][square]
        a, b = _siblings(name)[:2]
        monkeypatch.setattr(photo_drawing, "OTHER", False)
        readings = _doubt(table, square, a, b)
        out = _settle(table, readings)
        assert next(r for r in readings if r.square == square).kind == "uncertain"
        assert not any(v.settled for v in out.values())
        monkeypatch.setattr(photo_drawing, "OTHER", True)
        readings = _doubt(table, square, a, b)
        out = _settle(table, readings)
        r = next(r for r in readings if r.square == square)
        assert r.kind == ("tile" if out else "uncertain")
        assert r.name == (name if out else a)


def test_a_photo_whose_sure_tiles_the_drawings_contradict_settles_nothing(table, monkeypatch
                                                                          ) -> None:
    """The exam: sure tiles given another fruit's name (as a misread photo would) make the
    drawings disagree with them, so the photo's doubts are left alone (but for a very clear
    verdict, CLEAR_DESPITE_EXAM: off here)."""
    monkeypatch.setattr(photo_drawing, "CLEAR_DESPITE_EXAM", False)
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _doubt(table, square, name, _siblings(name)[0])
    for r in readings:
        if r.kind == "tile" and r.square != square:
            r.name = _siblings(r.name)[0]
    out = _settle(table, readings)
    assert not any(v.settled for v in out.values())
    assert next(r for r in readings if r.square == square).kind == "uncertain"


def _one_misread(table) -> tuple[list[SquareReading], str, str, str]:
    """The board read right but a look-alike doubt and the first sure tile (in square order:
    always examined) named surely on another fruit, its first look firm (no veto checks
    it): the readings, the doubt's square, the misread square and its truth."""
    doubted = _tiles(table, 2)[1]
    truth = table.truth["forest"]["tiles"]
    readings = _doubt(table, doubted, truth[doubted], _siblings(truth[doubted])[0])
    first = next(r for r in readings if r.kind == "tile")
    for r in readings:
        if r.kind == "tile":
            r.distances["z"] = photo_drawing.LEAF_VETO_Z * 3
    first.name = _siblings(first.name)[0]
    return readings, doubted, first.square, truth[first.square]


def test_one_sure_tile_the_exam_s_drawings_name_otherwise_clearly_is_the_one_wrong(
        table, monkeypatch) -> None:
    """DISSENT: the exam failed by a single sure tile, the drawings naming another fruit
    as clearly as a doubt's other candidate must be named, the others all passing: that
    name is vetoed (here named the truth, VETO_NAMES) and the photo's doubts are settled.
    Off, or with fewer marks than DISSENT_MIN, the exam fails and nothing is settled
    (CLEAR_DESPITE_EXAM off)."""
    monkeypatch.setattr(photo_drawing, "CLEAR_DESPITE_EXAM", False)
    readings, doubted, misread, truth = _one_misread(table)
    _settle(table, readings)
    r = next(x for x in readings if x.square == misread)
    assert (r.kind, r.name, r.doubt) == ("tile", truth, "")
    assert r.distances["exam_dissent"] >= photo_drawing.OTHER_Z
    assert next(x for x in readings if x.square == doubted).kind == "tile"
    for switch, value in (("DISSENT", False), ("DISSENT_MIN", photo_drawing.EXAM + 1)):
        with monkeypatch.context() as m:
            m.setattr(photo_drawing, switch, value)
            readings, doubted, misread, truth = _one_misread(table)
            wrong = next(x for x in readings if x.square == misread).name
            _settle(table, readings)
        assert next(x for x in readings if x.square == doubted).kind == "uncertain"
        assert next(x for x in readings if x.square == misread).name == wrong


def test_switched_off_or_without_faces_nothing_is_judged(table, monkeypatch) -> None:
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _doubt(table, square, name, _siblings(name)[0])
    monkeypatch.setattr(photo_drawing, "PHOTO_DRAWING", False)
    assert _settle(table, readings) == {}
    monkeypatch.setattr(photo_drawing, "PHOTO_DRAWING", True)
    bare = SimpleNamespace(**{**vars(table.model),
                              "tile_faces": np.zeros((0, 1, 1, 3), np.uint8)})
    assert photo_drawing.settle(bare, table.board, table.homography, table.photo,
                                readings) == {}


def test_a_tile_off_the_photo_s_edge_is_not_judged(table) -> None:
    square = _tiles(table, 1)[0]
    name = table.truth["forest"]["tiles"][square]
    r = _reading(table, square, name)
    r.centre = (-5000.0, -5000.0)
    group = photo_drawing.group_of((name,), r.season, table.faces)
    assert photo_drawing.judge(table.model, table.board, table.homography,
                               photo_drawing._Photo(table.photo), r, group) is None


def test_kernels_and_their_neighbours() -> None:
    """Every kernel sums to 1; a kernel's neighbours include itself and stay of its kind."""
    for k, (kind, _size, _a, kern) in enumerate(photo_drawing.KERNELS):
        assert abs(float(kern.sum()) - 1.0) < 1e-4
        near = photo_drawing._neighbours(k)
        assert k in near
        assert {photo_drawing.KERNELS[j][0] for j in near} == {kind}


def test_a_doubt_on_the_wrong_leaf_is_not_settled(table) -> None:
    """Both candidates on another leaf than the tile's: the fruits' comparison names the
    first (its fruit is right), and the leaf check finds the true leaf fits better."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    creature, fruit, leaf = name.split("/")
    other = next(lf for lf in LEAVES if lf != leaf)
    wrong = f"{creature}/{fruit}/{other}"
    readings = _doubt(table, square, wrong, _siblings(wrong)[0])
    _settle(table, readings)
    r = next(r for r in readings if r.square == square)
    assert r.kind == "uncertain" and r.candidates[0] == wrong
    # the check itself: among the leaves of the wrong name, the true leaf fits best
    leaves = photo_drawing.leaves_of(wrong, r.season, table.faces)
    assert len(leaves) == 4 and table.faces[(name, r.season)] in leaves
    v = photo_drawing.judge(table.model, table.board, table.homography,
                            photo_drawing._Photo(table.photo), _reading(table, square, wrong),
                            leaves)
    assert v is not None and v.winner == name


def test_a_doubt_between_two_leaves_on_the_wrong_fruit_is_not_settled(table, monkeypatch
                                                                      ) -> None:
    """FRUIT_CHECK: a doubt between two leaves is judged between its two names alone, so
    both on another fruit than the tile's, the leaves' comparison names the first (its leaf
    is right); the fruit check finds the true fruit fits better and leaves the doubt.
    Switched off, the wrong fruit is named."""
    square = _tiles(table, 5)[4]  # C2: its leaves' drawings fit closely (B3's do not)
    name = table.truth["forest"]["tiles"][square]
    creature, _fruit, leaf = name.split("/")
    wrong = _siblings(name)[0]
    other = next(lf for lf in LEAVES if lf != leaf)
    rival = f"{creature}/{wrong.split('/')[1]}/{other}"

    def settled() -> SquareReading:
        readings = _doubt(table, square, wrong, rival)
        _settle(table, readings)
        return next(r for r in readings if r.square == square)

    r = settled()
    assert (r.kind, r.candidates) == ("uncertain", (wrong, rival))
    monkeypatch.setattr(photo_drawing, "FRUIT_CHECK", False)
    r = settled()
    assert (r.kind, r.name) == ("tile", wrong)


def test_exam_tiles_that_cannot_be_judged_are_replaced(table, monkeypatch) -> None:
    """EXAM_MORE: when the exam's chosen tiles cannot be drawn (here moved off the photo),
    the photo's other sure tiles sit the exam instead, and the doubt is settled; without
    it too few are judged and nothing is (CLEAR_DESPITE_EXAM off)."""
    monkeypatch.setattr(photo_drawing, "CLEAR_DESPITE_EXAM", False)
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]

    def doubted() -> list[SquareReading]:
        readings = _doubt(table, square, name, _siblings(name)[0])
        sure = photo_drawing._sure_tiles(readings, table.faces)
        chosen = sure[::max(1, len(sure) // photo_drawing.EXAM)][:photo_drawing.EXAM]
        for r, _f in chosen:
            r.centre = (-5000.0, -5000.0)
        return readings

    readings = doubted()
    out = _settle(table, readings)
    assert [readings[i].square for i, v in out.items() if v.settled] == [square]
    monkeypatch.setattr(photo_drawing, "EXAM_MORE", False)
    monkeypatch.setattr(photo_drawing, "FEW_SURE", False)  # too few judged: nothing settles
    readings = doubted()
    out = _settle(table, readings)
    assert out and not any(v.settled for v in out.values())
    assert next(r for r in readings if r.square == square).kind == "uncertain"


def _fruit_on_paper(star: bool) -> np.ndarray:
    """A 40 px window of pale paper with faint stripes and a dark fruit in its middle: a
    star or a square of like size (BGR, float)."""
    yy, xx = np.mgrid[0:40, 0:40].astype(np.float32)
    img = np.repeat((220 + 4 * np.sin(xx + yy))[..., None], 3, axis=-1)
    if star:
        a = np.arctan2(yy - 20, xx - 20)
        inside = np.hypot(yy - 20, xx - 20) < 5 + 2.5 * np.cos(5 * a)
    else:
        inside = (abs(yy - 20) < 4) & (abs(xx - 20) < 4)
    img[inside] = (70, 60, 130)
    return img


def test_a_fruit_on_flat_paper_is_lit_by_the_tile_s_gain(monkeypatch) -> None:
    """LIGHT_PRIOR: round a fruit in its own ink on plain paper the shared parts hold only
    the paper's faint texture, which the photo's blur wipes out. Lit there alone, the gain
    is near nothing and both fruits are drawn as paper, alike; backed by the tile's gain
    the true fruit fits the photo far better than the other."""
    photo = _fruit_on_paper(True)
    photo[:] = np.where(photo[..., :1] > 200, 221.0, photo)  # the photo's paper: flat
    photo = photo * 0.8 + 10  # another light
    shared = np.ones((40, 40), bool)
    shared[10:31, 10:31] = False  # the fruit's place and round it: not shared
    fit = LightFit(photo, shared)
    tile_gain = np.full(3, 0.8, np.float32)

    def misfits(prior: np.ndarray | None) -> list[float]:
        out = []
        for star in (True, False):
            drawn = _fruit_on_paper(star)
            _m, gain, offset = fit.light(drawn, prior, photo_drawing.LIGHT_PRIOR)
            out.append(float(((photo - drawn * gain - offset)[~shared] ** 2).sum()))
        return out

    monkeypatch.setattr(photo_drawing, "LIGHT_PRIOR", 400.0)
    true, other = misfits(tile_gain)
    assert true * 20 < other
    alone_true, alone_other = misfits(None)
    assert alone_true > 0.5 * alone_other  # the place's own gain: alike
    assert true * 20 < alone_true


def _all_doubted(table, square: str, first: str, second: str) -> list[SquareReading]:
    """A poor photo with no sure tile: ``square`` a look-alike doubt (``first`` or
    ``second``), every other tile a close call named right."""
    readings = _doubt(table, square, first, second)
    for i, r in enumerate(readings):
        if r.kind == "tile":
            readings[i] = _reading(table, r.square, r.name, kind="uncertain",
                                   reason="poor photo: a close call",
                                   doubt=photo_drawing.POOR_DOUBT)
    assert not photo_drawing._sure_tiles(readings, table.faces)
    return readings


def test_a_photo_without_sure_tiles_settles_what_two_looks_agree_on(table, monkeypatch
                                                                    ) -> None:
    """FEW_SURE: with no sure tile to sit the exam, the drawings still settle a doubt
    whose first candidate they name (and close calls they name); switched off, a photo
    with too few sure tiles settles nothing (CLEAR_DESPITE_EXAM off)."""
    monkeypatch.setattr(photo_drawing, "CLEAR_DESPITE_EXAM", False)
    monkeypatch.setattr(photo_drawing, "FEW_SURE", True)
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _all_doubted(table, square, name, _siblings(name)[0])
    out = _settle(table, readings)
    r = next(r for r in readings if r.square == square)
    assert (r.kind, r.name, r.candidates) == ("tile", name, ())
    settled = [readings[i] for i, v in out.items() if v.settled]
    assert len(settled) >= 10 and all(
        s.name == table.truth["forest"]["tiles"][s.square] for s in settled)
    monkeypatch.setattr(photo_drawing, "FEW_SURE", False)
    readings = _all_doubted(table, square, name, _siblings(name)[0])
    out = _settle(table, readings)
    assert out and not any(v.settled for v in out.values())


def test_without_sure_tiles_the_second_candidate_is_not_named(table, monkeypatch) -> None:
    """A photo sitting the exam with too few sure tiles settles only what two looks agree
    on: a verdict for the doubt's second candidate, however clear, leaves it (OTHER is
    for photos that passed the exam; CLEAR_DESPITE_EXAM, off here, names it)."""
    monkeypatch.setattr(photo_drawing, "CLEAR_DESPITE_EXAM", False)
    monkeypatch.setattr(photo_drawing, "FEW_SURE", True)
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    readings = _all_doubted(table, square, _siblings(name)[0], name)
    out = _settle(table, readings)
    i = next(k for k, r in enumerate(readings) if r.square == square)
    assert out[i].winner == name and out[i].z >= photo_drawing.OTHER_Z
    assert not out[i].settled and readings[i].kind == "uncertain"


def test_the_exam_s_outcome(monkeypatch) -> None:
    """PASSED with EXAM_MIN marks each at least EXAM_Z; FAILED with any lower mark; FEW
    with fewer marks, none low (FEW_SURE), else FAILED."""
    monkeypatch.setattr(photo_drawing, "FEW_SURE", True)
    z, n = photo_drawing.EXAM_Z, photo_drawing.EXAM_MIN
    assert photo_drawing.exam_outcome([z + 1] * n) == photo_drawing.PASSED
    assert photo_drawing.exam_outcome([z + 1] * n + [z - 1]) == photo_drawing.FAILED
    assert photo_drawing.exam_outcome([z + 1] * (n - 1)) == photo_drawing.FEW
    assert photo_drawing.exam_outcome([]) == photo_drawing.FEW
    assert photo_drawing.exam_outcome([z - 1]) == photo_drawing.FAILED
    monkeypatch.setattr(photo_drawing, "FEW_SURE", False)
    assert photo_drawing.exam_outcome([z + 1] * (n - 1)) == photo_drawing.FAILED
    assert photo_drawing.exam_outcome([]) == photo_drawing.FAILED


def _glared(table, square: str, peak: float = 100.0) -> np.ndarray:
    """The table's photo, its exposure lowered (as the simulator's camera keeps highlights
    in range), with a patch of glare over ``square``'s tile: a round veil of white light
    about half a tile across, ``peak`` grey levels at its centre (100: as bright as the
    simulator's strong glare)."""
    cx, cy = sim.square_centre(table.board.grid, Square.parse(square))
    x, y = project(table.homography, np.array([[cx, cy]], np.float64))[0]
    side = float(np.linalg.norm(project(table.homography, np.array(
        [[cx + table.board.grid.cell, cy]], np.float64))[0] - [x, y]))
    h, w = table.photo.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    veil = peak * np.exp(-((xx - x) ** 2 + (yy - y) ** 2) / (2 * (0.3 * side) ** 2))
    return np.clip(0.75 * table.photo.astype(np.float32) + veil[..., None], 0, 255
                   ).astype(np.uint8)


def _glare_lit(table, square: str, name: str, doubt: str = "glare-lit",
               veiled: bool = False) -> list[SquareReading]:
    """The board read right but ``square``, a close call under glare named ``name``
    (reader._doubt_glare_lit: no candidates; ``veiled``: veiled_leaves found a leaf sibling
    fitting it better under a heavier veil)."""
    readings = _called(table, square, name, doubt, f"glare on the tile: {name}, or another?")
    if veiled:
        next(r for r in readings if r.square == square).distances["veiled_leaf"] = 0.8
    return readings


def test_a_close_call_under_glare_the_drawings_name_is_settled(table, monkeypatch) -> None:
    """GLARE_CALLS: a tile named by a close call under a patch of glare is judged as a poor
    photo's close call, its alignment held to GLARE_ECC only (the glare lowers the
    correlation MIN_ECC asks of a tile in plain light): named when the drawings name it;
    left a doubt when a leaf sibling fits it better under a heavier veil (here the tile
    cannot be placed among its leaves: VEILED_CALLS keeps no name then), when the name is
    another fruit's, or switched off. The same tile as a poor photo's close call is held to
    MIN_ECC and stays a doubt."""
    monkeypatch.setattr(photo_drawing, "GLARE_CALLS", True)
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]
    glared = SimpleNamespace(**{**vars(table), "photo": _glared(table, square)})
    readings = _glare_lit(glared, square, name)
    out = _settle(glared, readings)
    r = next(r for r in readings if r.square == square)
    verdict = out[readings.index(r)]
    assert (r.kind, r.name, r.doubt) == ("tile", name, "")
    assert photo_drawing.GLARE_ECC <= verdict.ecc < photo_drawing.MIN_ECC
    cases = (("glare-lit", True, name), ("glare-lit", False, _siblings(name)[0]),
             (photo_drawing.POOR_DOUBT, False, name))
    for doubt, veiled, said in cases:
        readings = _glare_lit(glared, square, said, doubt, veiled)
        _settle(glared, readings)
        r = next(r for r in readings if r.square == square)
        assert (r.kind, r.name, r.doubt) == ("uncertain", said, doubt)
    monkeypatch.setattr(photo_drawing, "GLARE_CALLS", False)
    readings = _glare_lit(glared, square, name)
    _settle(glared, readings)
    assert next(r for r in readings if r.square == square).kind == "uncertain"


def _weak_wrong_leaf(table, z: float, part: str = "leaf"
                     ) -> tuple[list[SquareReading], int, str, str]:
    """The board read right but a look-alike doubt (so the drawings are prepared) and one
    tile named surely on another leaf (``part`` "creature": with another creature, "fruit":
    with another fruit) than its own by a first look of ``z``: the readings, that tile's
    index, its wrong name and its truth."""
    doubted, square = _tiles(table, 3)[1:3]
    if part == "fruit":  # B4's fruits lie too near its rim to compare: C5, not examined
        square = _tiles(table, 8)[7]
    truth = table.truth["forest"]["tiles"]
    readings = _doubt(table, doubted, truth[doubted], _siblings(truth[doubted])[0])
    creature, fruit, leaf = truth[square].split("/")
    if part == "leaf":
        wrong = f"{creature}/{fruit}/{next(lf for lf in LEAVES if lf != leaf)}"
    elif part == "fruit":
        wrong = _siblings(truth[square])[0]
    else:
        wrong = f"{next(c for c in CREATURES if c != creature)}/{fruit}/{leaf}"
    for r in readings:  # every tile named by as weak a first look: each is checked
        if r.kind == "tile":
            r.distances["z"] = z
    i = next(k for k, r in enumerate(readings) if r.square == square)
    readings[i] = _reading(table, square, wrong, distances={"z": z})
    return readings, i, wrong, truth[square]


def test_a_weak_sure_name_the_drawings_put_on_another_leaf_is_named_or_doubted(
        table, monkeypatch) -> None:
    """LEAF_VETO: in a photo the drawings are prepared for, a tile a weak first look named
    surely on the wrong leaf is named the leaf the drawings name clearly (VETO_NAMES: the
    truth) or, drawn less clearly than a doubt's other candidate must be (OTHER_Z), a
    look-alike doubt between the two names; a firm first look is not checked, nor anything
    switched off; the tiles named right stay named."""
    readings, i, wrong, truth = _weak_wrong_leaf(table, photo_drawing.LEAF_VETO_Z / 3)
    _settle(table, readings)
    r = readings[i]
    assert (r.kind, r.name, r.doubt) == ("tile", truth, "")
    assert r.distances["leaf_veto"] >= photo_drawing.OTHER_Z
    assert r.distances["photo_drawing"] == 1.0
    vetoed = [x.square for x in readings if "leaf_veto" in x.distances]
    assert vetoed == [r.square]  # every tile named right keeps its name
    for switch, value in (("OTHER_Z", r.distances["leaf_veto"] + 1), ("VETO_NAMES", False)):
        with monkeypatch.context() as m:
            m.setattr(photo_drawing, switch, value)
            readings, i, wrong, truth = _weak_wrong_leaf(table, photo_drawing.LEAF_VETO_Z / 3)
            _settle(table, readings)
        r = readings[i]
        assert (r.kind, r.doubt, r.candidates) == ("uncertain", "look-alike", (wrong, truth))
        assert r.distances["leaf_veto"] >= photo_drawing.MIN_Z
    readings, i, wrong, _truth = _weak_wrong_leaf(table, photo_drawing.LEAF_VETO_Z * 2)
    _settle(table, readings)
    assert (readings[i].kind, readings[i].name) == ("tile", wrong)
    monkeypatch.setattr(photo_drawing, "LEAF_VETO", False)
    readings, i, wrong, _truth = _weak_wrong_leaf(table, photo_drawing.LEAF_VETO_Z / 3)
    _settle(table, readings)
    assert (readings[i].kind, readings[i].name) == ("tile", wrong)


@pytest.mark.parametrize(("part", "switch"), [("creature", "CREATURE_VETO"),
                                              ("fruit", "FRUIT_VETO")])
def test_a_weak_sure_name_on_another_creature_or_fruit_is_named_or_doubted(
        table, monkeypatch, part: str, switch: str) -> None:
    """CREATURE_VETO and FRUIT_VETO: the same among the tile's creatures (its fruit and leaf
    right) and among its fruits (its creature and leaf right): named the truth, every other
    tile, named right by as weak a look, keeping its name; with VETO_NAMES off a doubt;
    switched off, the wrong name is kept."""
    z = photo_drawing.LEAF_VETO_Z / 3
    readings, i, wrong, truth = _weak_wrong_leaf(table, z, part)
    _settle(table, readings)
    r = readings[i]
    assert (r.kind, r.name, r.doubt) == ("tile", truth, "")
    assert [x.square for x in readings if "leaf_veto" in x.distances] == [r.square]
    monkeypatch.setattr(photo_drawing, "VETO_NAMES", False)
    readings, i, wrong, truth = _weak_wrong_leaf(table, z, part)
    _settle(table, readings)
    r = readings[i]
    assert (r.kind, r.doubt, r.candidates) == ("uncertain", "look-alike", (wrong, truth))
    monkeypatch.setattr(photo_drawing, switch, False)
    readings, i, wrong, _truth = _weak_wrong_leaf(table, z, part)
    _settle(table, readings)
    assert (readings[i].kind, readings[i].name) == ("tile", wrong)


def test_weak_names_alone_prepare_a_photo_only_when_switched_on(table, monkeypatch) -> None:
    """A photo with no doubt to settle is not prepared for its weak sure names (the cost:
    WEAK_PREPARE off), so a wrong one stays; switched on, it is vetoed there too."""
    readings, i, wrong, truth = _weak_wrong_leaf(table, photo_drawing.LEAF_VETO_Z / 3, "fruit")
    doubted = next(r for r in readings if r.kind == "uncertain")
    doubted.kind, doubted.doubt, doubted.candidates = "tile", "", ()
    before = [(r.kind, r.name) for r in readings]
    assert _settle(table, readings) == {}
    assert [(r.kind, r.name) for r in readings] == before
    assert readings[i].name == wrong
    monkeypatch.setattr(photo_drawing, "WEAK_PREPARE", True)
    _settle(table, readings)
    assert (readings[i].kind, readings[i].name) == ("tile", truth)
    assert readings[i].distances["leaf_veto"] >= photo_drawing.OTHER_Z


def test_halved_colour_spreads_an_icon_s_colour_not_its_light() -> None:
    """_chroma_halved: a one-pixel orange dot on grey paper keeps its light (luma) where it
    lies, while its colour is spread over the 2x2 cell JPEG's 4:2:0 keeps one colour for
    and its neighbours (upsampled), none of it lost; flat paper is left as it is."""
    img = np.full((12, 12, 3), 128.0, np.float32)
    img[5, 5] = (40, 140, 240)  # BGR: orange
    out = photo_drawing._chroma_halved(img)
    luma = np.array([0.114, 0.587, 0.299], np.float32)
    assert np.allclose(out @ luma, img @ luma, atol=1e-3)
    chroma, before = out - (out @ luma)[..., None], img - (img @ luma)[..., None]
    assert np.allclose(chroma.sum((0, 1)), before.sum((0, 1)), atol=1e-2)  # none lost
    strength = np.abs(chroma).max(-1) / np.abs(before).max()
    assert strength.max() < 0.25  # spread: no pixel keeps a quarter of it
    assert (strength > 0.1).sum() >= 4  # over the 2x2 cell at least
    assert (strength > 0).sum() <= 16  # and no further than its neighbours
    assert np.allclose(out[0, 0], 128.0)


def _rendered_raw(table) -> np.ndarray:
    """The table's board photographed again by the same camera, its frame never made a
    JPEG (a camera's raw frame)."""
    raw, truth = _photographed(table.pack, Degradations(jpeg=False))
    assert truth["forest"] == table.truth["forest"]
    return raw


def test_a_jpeg_s_halved_colour_is_found_on_its_sure_tiles(table, monkeypatch) -> None:
    """CHROMA: the photo's softening is chosen with and without halved colour on its sure
    tiles: the frame never made a JPEG keeps its colour whole, the same frame saved as a
    JPEG (4:2:0, as phones and OpenCV save them) is found halved; CHROMA off never."""
    raw = _rendered_raw(table)
    jpeg = cv2.imdecode(cv2.imencode(".jpg", raw, [cv2.IMWRITE_JPEG_QUALITY, 70])[1],
                        cv2.IMREAD_COLOR)
    readings = _board(table)

    def chosen(image: np.ndarray) -> bool:
        photo, marks = photo_drawing.prepare(table.model, table.board, table.homography,
                                             image, readings, table.faces)
        assert photo_drawing.exam_outcome(marks) == photo_drawing.PASSED
        return photo.chroma

    monkeypatch.setattr(photo_drawing, "CHROMA", True)
    assert not chosen(raw)
    assert chosen(jpeg)
    monkeypatch.setattr(photo_drawing, "CHROMA", False)
    assert not chosen(jpeg)


def _unprinted_leaf(square: str, table, peak: float) -> SimpleNamespace:
    """The table with ``square``'s tile printed without its leaf (painted the tile's paper
    where its leaf siblings differ from it) and glare over it (``peak``, as _glared): a
    print the glare washed out, the model still holding the pack's printed faces."""
    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack = family_pack(FAMILY, legible=False, rulebook_ink=False)
    name = table.truth["forest"]["tiles"][square]
    season = table.truth["seasons"][square]
    creature, fruit, _leaf = name.split("/")
    face = next(t for t in pack.tiles if (t.tile, t.season) == (name, season))
    img = face.image.astype(np.int16)
    differ = np.zeros(img.shape[:2], bool)
    for t in pack.tiles:
        if t.season == season and t.tile != name and t.tile.split("/")[:2] == [creature, fruit]:
            differ |= np.abs(t.image.astype(np.int16) - img).max(-1) > photo_drawing.DIFFER
    differ = cv2.dilate(differ.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    face.image = face.image.copy()
    face.image[differ] = np.median(face.image[~differ].reshape(-1, 3), axis=0)
    photo, _truth = _photographed(pack)
    washed = SimpleNamespace(**{**vars(table), "photo": photo})
    return SimpleNamespace(**{**vars(table), "photo": _glared(washed, square, peak)})


def test_a_veiled_close_call_under_glare_is_kept_when_its_leaf_shows(table, monkeypatch
                                                                     ) -> None:
    """VEILED_CALLS: a close call under glare whose leaf a heavier veil puts in question is
    named when the drawings name its leaf clearly among its leaves and tell it from no leaf
    at all (BLANK), under a light glare; under a strong one this family's leaves, large,
    leave too little of the tile shared to place it by among its leaves: a check that
    cannot judge fails, and it stays a doubt, where a close call under the same glare whose
    leaf no veil puts in question is named. Switched off, it stays a doubt."""
    square = _tiles(table, 3)[2]
    name = table.truth["forest"]["tiles"][square]

    def settled(peak: float, veiled: bool = True) -> SquareReading:
        glared = SimpleNamespace(**{**vars(table), "photo": _glared(table, square, peak)})
        readings = _glare_lit(glared, square, name, veiled=veiled)
        _settle(glared, readings)
        return next(r for r in readings if r.square == square)

    monkeypatch.setattr(photo_drawing, "VEILED_CALLS", True)
    r = settled(40.0)
    assert (r.kind, r.name, r.doubt) == ("tile", name, "")
    assert settled(100.0).kind == "uncertain"
    assert settled(100.0, veiled=False).kind == "tile"
    monkeypatch.setattr(photo_drawing, "VEILED_CALLS", False)
    assert settled(40.0).kind == "uncertain"


def test_a_leaf_is_told_from_no_leaf_where_it_shows(table) -> None:
    """The BLANK pseudo-face (the tile's face, its leaf unprinted): the printed tile's own
    face beats it, and a tile printed without its leaf is named BLANK ('') against its
    face, so _leaf_shown fails there."""
    square = _tiles(table, 3)[2]
    name = table.truth["forest"]["tiles"][square]
    for t, printed in ((SimpleNamespace(**{**vars(table), "photo": _glared(table, square, 40.0)}),
                        True), (_unprinted_leaf(square, table, 40.0), False)):
        r = _reading(t, square, name)
        photo = photo_drawing._Photo(t.photo)
        v = photo_drawing.judge(table.model, table.board, table.homography, photo, r,
                                [table.faces[(name, r.season)], photo_drawing.BLANK])
        assert v is not None and v.winner == (name if printed else "")
        assert photo_drawing._leaf_shown(table.model, table.board, table.homography, photo,
                                         r, name, table.faces, photo_drawing.GLARE_ECC,
                                         False) == printed


def test_a_fruit_partly_clipped_by_glare_is_compared_where_it_is_not(table, monkeypatch
                                                                    ) -> None:
    """UNCLIPPED (with MAX_SATURATED raised to 0.3 by it): under a glare that clips part of
    a tile's print, its fruit (more than 0.05 of it clipped) is compared on its unclipped
    pixels, lit from the unclipped paper round it, and the close call is named; as before
    (0.05, every pixel compared) the place is not compared and the call stays a doubt with
    no verdict."""
    monkeypatch.setattr(photo_drawing, "GLARE_CALLS", True)
    square = _tiles(table, 3)[2]
    name = table.truth["forest"]["tiles"][square]
    glared = SimpleNamespace(**{**vars(table), "photo": _glared(table, square, 130.0)})

    def settled() -> SquareReading:
        readings = _glare_lit(glared, square, name)
        _settle(glared, readings)
        return next(r for r in readings if r.square == square)

    monkeypatch.setattr(photo_drawing, "UNCLIPPED", True)
    monkeypatch.setattr(photo_drawing, "MAX_SATURATED", 0.3)
    r = settled()
    assert (r.kind, r.name, r.doubt) == ("tile", name, "")
    monkeypatch.setattr(photo_drawing, "UNCLIPPED", False)
    monkeypatch.setattr(photo_drawing, "MAX_SATURATED", 0.05)
    r = settled()
    assert r.kind == "uncertain" and "photo_z" not in r.distances


def test_a_leaf_mostly_clipped_by_glare_is_judged_on_the_rest(monkeypatch) -> None:
    """VEILED_SATURATED: tuning family 45's normal photo (the benchmark's 7x7 photo 12), a
    tile under glare whose leaf a heavier veil puts in question (F6, mouse/hazelnut/maple):
    the glare clipped 70% of the place where its leaves differ, so with only a third of a
    place allowed clipped (MAX_SATURATED) nothing was compared and it stayed glare-lit. The
    unclipped rest names its leaf: read right, every square of the photo sure and right.
    (With the closer look comparing leaf siblings, evidence.LEAF_SIBLINGS, the square is a
    glare doubt before this step is reached: the case was found with those switches off.)"""
    from companion.the_glade.recognition import close_calls, evidence

    for module, switch in ((evidence, "LEAF_SIBLINGS"), (reader, "SIBLING_RIVAL"),
                           (reader, "GLARE_LEAF_DOUBT"), (close_calls, "PLACE_BY_RANKED")):
        monkeypatch.setattr(module, switch, False)
    # the art this case was found in (before the rulebook's colours: FamilyArt)
    pack = family_pack(45, rulebook_ink=False)
    model = build_model(pack, lookalikes=False)
    image, truth = benchmark_board_photo(pack, 45, 7, 12)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(photo_drawing, "VEILED_SATURATED", photo_drawing.MAX_SATURATED)
        before = {r.square: r for r in reader.read_board(model, image).squares}
    assert before["F6"].doubt == "glare-lit"
    squares = reader.read_board(model, image).squares
    got = {r.square: r for r in squares}
    assert (got["F6"].kind, got["F6"].name) == ("tile", "mouse/hazelnut/maple")
    assert misread(squares, truth) == []


def test_a_very_clear_verdict_settles_its_doubt_whatever_the_exam(table, monkeypatch
                                                                  ) -> None:
    """CLEAR_DESPITE_EXAM: in a photo whose exam failed (its sure tiles misnamed) a doubt
    whose drawings name one of its own candidates at CLEAR_Z on a tile aligned to CLEAR_ECC
    is settled to it; under CLEAR_Z it is left, and a clear verdict for a face that is
    neither candidate (here the doubt's two are both wrong fruits) never settles so."""
    square = _tiles(table, 2)[1]
    name = table.truth["forest"]["tiles"][square]

    def contradicted(first: str, second: str) -> list[SquareReading]:
        readings = _doubt(table, square, first, second)
        for r in readings:
            if r.kind == "tile" and r.square != square:
                r.name = _siblings(r.name)[0]
        return readings

    readings = contradicted(name, _siblings(name)[0])
    out = _settle(table, readings)
    i = next(k for k, r in enumerate(readings) if r.square == square)
    assert readings[i].distances["photo_exam"] == 0.0  # the exam failed
    assert out[i].z >= photo_drawing.CLEAR_Z and out[i].ecc >= photo_drawing.CLEAR_ECC
    assert (readings[i].kind, readings[i].name) == ("tile", name)
    with monkeypatch.context() as m:
        m.setattr(photo_drawing, "CLEAR_Z", out[i].z + 1)
        readings = contradicted(name, _siblings(name)[0])
        _settle(table, readings)
    assert readings[i].kind == "uncertain"
    wrong = _siblings(name)
    readings = contradicted(wrong[0], wrong[1])
    out = _settle(table, readings)
    assert out[i].winner == name and readings[i].kind == "uncertain"
