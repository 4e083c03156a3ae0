"""Hard photos: a dark leaf under a bright patch is not named as the light one of its colour
surely (issue #20).

On hard photos of tuning families most wrong leaves were a dark leaf (oak, horse-chestnut)
named as a light one (beech, maple) on a square brighter than the photo's tiles, with the
true face in neither look's best names (the first look ranked two fruits of the light leaf).
So on such squares the closer look also compares the best face's leaf siblings
(evidence.LEAF_SIBLINGS); a first look's margin, measured against another face, does not
make a name sure against a sibling the closer look found nearest (reader.SIBLING_RIVAL); a
leaf doubt under glare keeps no candidates for a later step to settle
(reader.GLARE_LEAF_DOUBT); and the round robin settles no doubt whose closer look misfits
(round_robin.NOISE_GUARD). Each rule on evidence built by hand.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from companion.the_glade.recognition import evidence, reader, round_robin
from companion.the_glade.recognition.close_calls import MAX_NOISE, Look
from companion.the_glade.recognition.reader import GLARE_TILE, SquareReading, _name_tile

LIGHT, DARK, OTHER = "toad/acorn/beech", "toad/acorn/oak", "toad/hazelnut/beech"
NAMES = [LIGHT, DARK, OTHER, "toad/acorn/maple", "toad/acorn/horse-chestnut"]
#: five faces, a face at each turn (templates 4f..4f+3), all in spring
_MODEL = SimpleNamespace(tile_names=[n for n in NAMES for _ in range(4)],
                         tile_seasons=["spring"] * 20, tile_turns=np.tile(np.arange(4), 5))


def test_a_bright_close_call_compares_the_best_faces_leaf_siblings(monkeypatch) -> None:
    """On a lit square the closer look's names gain the best face's other leaves at its
    turn and season (each once); elsewhere they are as ranked."""
    ranked = [(0.1, 4 * 0 + 2, LIGHT), (0.2, 4 * 2 + 2, OTHER)]
    more = evidence._leaf_siblings(_MODEL, np.array([True, False]))
    added = more(0, list(ranked))
    assert added[:2] == ranked
    assert sorted(n for _, _, n in added[2:]) == sorted(
        ["toad/acorn/oak", "toad/acorn/maple", "toad/acorn/horse-chestnut"])
    assert all(j % 4 == 2 and d == float("inf") for d, j, _ in added[2:])
    assert more(1, list(ranked)) == ranked
    assert evidence._leaf_siblings(_MODEL, np.array([False, False])) is None


def test_the_lit_squares_are_brighter_than_the_tiles_usual_light() -> None:
    """_over_usual_tile: each square's light over the median of the squares a tile face
    fits better than the bare board (_usual_tiles: bare ones left out, and none when under
    5); lit over LEAF_LIGHT."""
    n = 8
    bright = np.array([1.0] * 6 + [1.0 * evidence.LEAF_LIGHT + 0.05, 3.0])
    structure = np.ones(n)
    structure[7] = 0.0  # bare: a bright bare square is no tile
    tiles = [((0.01, 0, LIGHT), (0.02, 4, DARK))] * n
    tiled = evidence._usual_tiles(structure, tiles, np.full(n, 0.1))
    light = evidence._over_usual_tile(bright, tiled)
    assert light is not None
    assert light[:6].tolist() == [1.0] * 6
    assert (light > evidence.LEAF_LIGHT).tolist() == [False] * 6 + [True, True]
    assert evidence._over_usual_tile(None, tiled) is None
    assert evidence._usual_tiles(structure, tiles[:4] + [((0.2, 0, LIGHT), (0.3, 4, DARK))]
                                 * 4, np.full(n, 0.1)) is None  # too few tiles


def _read(look: Look) -> SquareReading:
    """A close call whose first look names LIGHT over OTHER surely (margin 0.4, z between
    NAME_Z and FIRM_Z), with ``look`` as its closer look."""
    templates = np.zeros((20, 16), np.float32)
    templates[8:12, :4] = 1.0  # OTHER differs from LIGHT in 4 of 16 values
    gap = float(((templates[0] - templates[8]) ** 2).mean())
    ev = SimpleNamespace(
        tile_clipped=np.zeros(1), tile_at=np.zeros((1, 2)), tile_angle=np.zeros(1), fine_angle=None,
        templates=templates, looks={0: look}, pairs={}, partners=None,
        tiles=[((0.05 * gap, 0, LIGHT), (0.45 * gap, 8, OTHER))])
    reading = SquareReading("A1", "tile")
    _name_tile(_MODEL, ev, 0, reading)
    return reading


def test_a_sibling_the_first_look_never_ranked_needs_a_sure_closer_look(monkeypatch) -> None:
    """The closer look names LIGHT, nearest to DARK (a sibling it was given), without being
    sure (it misfits): a doubt between the two leaves with SIBLING_RIVAL, sure by the first
    look without it. A
    sure closer look, or one whose rival is the first look's own second, keeps the name."""
    unsure = Look((LIGHT, 0, DARK), 0.4, 1.2 * MAX_NOISE)
    monkeypatch.setattr(reader, "SIBLING_RIVAL", True)
    doubt = _read(unsure)
    assert doubt.reason and set(doubt.candidates) == {LIGHT, DARK}
    assert doubt.distances["sibling_rival"] == 1.0
    assert _read(Look((LIGHT, 0, DARK), 0.9, 0.1)).reason == ""
    assert _read(Look((LIGHT, 0, OTHER), 0.4, 1.2 * MAX_NOISE)).reason == ""
    monkeypatch.setattr(reader, "SIBLING_RIVAL", False)
    assert _read(unsure).reason == ""


def _glare_board(candidates: tuple[str, str], light: float) -> tuple[list[SquareReading], object]:
    """Six sure tiles in the usual light and one look-alike doubt at ``light`` times it."""
    readings = [SquareReading(f"A{k + 1}", "tile", LIGHT, 0, "spring",
                              distances={"z": 9.0}) for k in range(6)]
    readings.append(SquareReading("B1", "uncertain", candidates[0], 0, "spring",
                                  reason=f"looks like {candidates[0]} or {candidates[1]}",
                                  doubt="look-alike", candidates=candidates))
    return readings, SimpleNamespace(bright=np.array([1.0] * 6 + [light]))


def test_a_leaf_doubt_under_glare_keeps_no_candidates(monkeypatch) -> None:
    """GLARE_LEAF_DOUBT: a doubt between two leaves under glare is a glare doubt that no
    later step settles (no candidates); a fruit doubt there, or a leaf doubt in the usual
    light, keeps its two candidates."""
    monkeypatch.setattr(reader, "GLARE_LEAF_DOUBT", True)
    readings, ev = _glare_board((LIGHT, DARK), GLARE_TILE + 0.2)
    out = reader._doubt_glare_lit(ev, readings)[-1]
    assert (out.kind, out.candidates, out.lookalike_doubt) == ("uncertain", (), False)
    assert out.doubt == "glare-lit"
    for candidates, light in (((LIGHT, OTHER), GLARE_TILE + 0.2), ((LIGHT, DARK), 1.0)):
        readings, ev = _glare_board(candidates, light)
        assert reader._doubt_glare_lit(ev, readings)[-1].candidates == candidates
    monkeypatch.setattr(reader, "GLARE_LEAF_DOUBT", False)
    readings, ev = _glare_board((LIGHT, DARK), GLARE_TILE + 0.2)
    assert reader._doubt_glare_lit(ev, readings)[-1].candidates == (LIGHT, DARK)


def test_the_round_robin_leaves_a_doubt_whose_closer_look_misfits(monkeypatch) -> None:
    """NOISE_GUARD: a candidate winning all its pairs is not named where the closer look's
    best face misfits the photo (noise over MAX_NOISE); it is in a good fit, and with the
    guard off."""
    a, b = "mouse/acorn/oak", "mouse/blackberry/oak"
    faces, index = {(a, "spring"): 0, (b, "spring"): 1}, {(0, 1): 0, (1, 0): 0}

    def verdicts(model, fine, at, turn, face, ks):  # type: ignore[no-untyped-def]
        from companion.the_glade.recognition.lookalikes import PairVerdict
        return [PairVerdict(0, 1, 0.5, 9.0) for _ in ks]

    monkeypatch.setattr(round_robin, "verdicts", verdicts)
    model = SimpleNamespace(lookalikes=[0])

    def settled(noise: float) -> list[int]:
        readings = [SquareReading("C3", "uncertain", a, 1, "spring",
                                  reason=f"looks like {a} or {b}", doubt="look-alike",
                                  candidates=(a, b)),
                    *(SquareReading(f"A{k + 1}", "empty") for k in range(10))]
        ev = SimpleNamespace(looks={0: Look((a, 1, b), 0.5, noise, at=(10.0, 10.0, 0.0))})
        return round_robin.settle(model, ev, readings, np.zeros((4, 4, 3), np.uint8), faces,
                                  index)

    monkeypatch.setattr(round_robin, "NOISE_GUARD", True)
    assert settled(1.5 * MAX_NOISE) == [] and settled(0.5 * MAX_NOISE) == [0]
    monkeypatch.setattr(round_robin, "NOISE_GUARD", False)
    assert settled(1.5 * MAX_NOISE) == [0]


def test_a_closer_look_is_placed_by_the_first_looks_own_names(monkeypatch) -> None:
    """PLACE_BY_RANKED: faces added unranked (distance inf: leaf siblings) are compared by
    the closer look but left out of the mean face that places it; all of them without the
    switch."""
    from companion.the_glade.recognition import close_calls

    placed: list[int] = []

    def one_place(view, centre, angle, side, gray_faces):  # type: ignore[no-untyped-def]
        placed.append(len(gray_faces))
        return (centre[0], centre[1], angle)

    compared: list[int] = []

    def compare_on(faces, patch, where, hot, max_veil):  # type: ignore[no-untyped-def]
        compared.append(len(faces))
        return []

    monkeypatch.setattr(close_calls, "one_place", one_place)
    monkeypatch.setattr(close_calls, "compare_on", compare_on)
    monkeypatch.setattr(close_calls, "_verdict", lambda found, where: None)
    model = SimpleNamespace(tile_detail=np.zeros((5, 8, 8, 3), np.uint8),
                            tile_names=_MODEL.tile_names, tile_turns=_MODEL.tile_turns)
    cache = SimpleNamespace(detail={})
    blur = SimpleNamespace(key=0, apply=lambda face: face)
    ranked = [(0.1, 0, LIGHT), (0.2, 8, OTHER), (float("inf"), 4, DARK)]
    squares = [(np.array([20.0, 20.0]), 0.0, ranked)]
    view = np.zeros((40, 40, 3), np.uint8)
    for switch, want in ((True, 2), (False, 3)):
        monkeypatch.setattr(close_calls, "PLACE_BY_RANKED", switch)
        placed.clear()
        compared.clear()
        close_calls.closer_looks(model, cache, view, squares, 16.0, blur)
        assert (placed, compared) == ([want], [3])
