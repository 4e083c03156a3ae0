"""A forest-board pack, glade pack and glade model drawn in one art family, for the tests of
the glade board and the stores on art the recogniser never saw before the test."""

from __future__ import annotations

import random
from types import SimpleNamespace

import cv2
import numpy as np

from companion.the_glade.playout import deal, play_game
from companion.the_glade.recognition.enrol import working_board
from companion.the_glade.recognition.families import FamilyArt
from companion.the_glade.recognition.glade_model import GladeModel, build_glade_model
from companion.the_glade.recognition.glade_pack import GladePack
from companion.the_glade.recognition.glade_sim import (
    random_store,
    render_forest_photo,
    sample_glade_pack,
)
from companion.the_glade.recognition.pack import Pack
from companion.the_glade.recognition.sim import random_forest, render_photo, sample_pack
from companion.the_glade.recognition.store import StoreReading, _Look, border_views, read_store
from companion.the_glade.state_file import dump_state
from companion.vision.sim import Camera, Degradations


def glade_family(family: int, matches: bool = True, legible: bool = True,
                 rulebook_ink: bool = True) -> tuple[Pack, GladePack, GladeModel]:
    """The pack (one 7x7 board), the glade pack (with the matching game's match counters
    when ``matches``) and the model learnt from them, all in art family ``family``
    (``legible`` and ``rulebook_ink``: see FamilyArt)."""
    art = FamilyArt(family, legible=legible, rulebook_ink=rulebook_ink)
    pack = sample_pack(art=art, boards=((7, 7, "D4"),))
    glade = sample_glade_pack(art, matches=matches)
    return pack, glade, build_glade_model(pack, glade)


def one_counter_photo(pack: Pack, glade: GladePack, item: str | dict
                      ) -> tuple[np.ndarray, dict, np.ndarray, float]:
    """A forest photo with ``item`` (a counter's name, or a match counter) alone in the store
    (no glare, no clutter), its truth, and where the counter lies in the photo: its centre
    and radius in photo pixels."""
    forest = random_forest(np.random.default_rng(2), pack.boards[0].geometry, pack)
    counters, matches = ([], [item]) if isinstance(item, dict) else ([item], [])
    photo, truth = render_forest_photo(pack, glade, forest, counters, matches, 21,
                                       spoil=Degradations(glare=False, clutter=False))
    hm = np.array(truth["homography"])
    at = truth["store_at"][0]["at"]
    c = cv2.perspectiveTransform(np.array([[at]], np.float32), hm)[0, 0]
    e = cv2.perspectiveTransform(np.array([[[at[0] + 60, at[1]]]], np.float32), hm)[0, 0]
    return photo, truth, c, float(np.hypot(*(e - c)))


def lit_store_reading(pack: Pack, model: GladeModel, photo: np.ndarray, truth: dict
                      ) -> StoreReading:
    """As :func:`store_reading`, in the photo's light measured on the board's border as the
    forest scan measures it (``store.border_views``)."""
    board = pack.boards[0]
    size = (board.image.shape[1], board.image.shape[0])
    hm = np.array(truth["homography"])
    views = border_views(photo, hm, board.grid, size,
                         working_board(board.image, board.grid.cell))
    return read_store(model, size, pack.counter_size * board.grid.cell, hm, photo, *views)


def store_reading(pack: Pack, model: GladeModel, photo: np.ndarray, truth: dict
                  ) -> StoreReading:
    """The store of ``photo`` (of the pack's first board) read at the board's true place in
    it, as the forest scan would once the board is found: so a store test needs no board
    scan."""
    board = pack.boards[0]
    return read_store(model, (board.image.shape[1], board.image.shape[0]),
                      pack.counter_size * board.grid.cell, np.array(truth["homography"]),
                      photo, None, None)


#: The store benchmark's counter colours (benchmarks/the_glade_glade.py).
STORE_COLOURS = ("yellow", "blue", "red", "green")


def benchmark_store_photo(pack: Pack, glade: GladePack, family: int, photo: int
                          ) -> tuple[np.ndarray, dict]:
    """Store photo ``photo`` (numbered from 0) of art ``family`` drawn as the store benchmark
    draws it (its forests and stores from one stream per family, the photo's seed from both),
    and its truth: so a test reproduces a benchmark photo by its family and number."""
    rng = np.random.default_rng(family + 7)
    for _ in range(photo + 1):
        forest = random_forest(rng, pack.boards[0].geometry, pack)
        store, matches = random_store(rng, STORE_COLOURS, glade,
                                      matches=int(rng.integers(0, 3)))
    return render_forest_photo(pack, glade, forest, store, matches, family * 1000 + 500 + photo)


def benchmark_board_photo(pack: Pack, family: int, size: int, photo: int, hard: bool = False
                          ) -> tuple[np.ndarray, dict]:
    """Photo ``photo`` of a ``size`` board (numbered from 0) of art ``family``, normal or
    ``hard``, as benchmarks/the_glade_families.py draws and saves it (its seed, its hard
    spoilers, tilt and dim light; JPEG at quality 92), and its truth: so a test reproduces a
    board benchmark photo by its family and number."""
    seed = 9000 + family * 100_000 + size * 1000 + photo
    state = random_forest(np.random.default_rng(seed), pack.board_for(size, size).geometry,
                          pack)
    if hard:
        return hard_photo(pack, state, seed)
    image, truth = render_photo(pack, state, seed)
    _ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), truth


def hard_photo(pack: Pack, state: dict, seed: int) -> tuple[np.ndarray, dict]:
    """A photo of the forest ``state`` as the board benchmark draws a hard one from
    ``seed`` (spoilers 1.6 times as strong, tilt to 18 degrees, 0.55-0.8 of the light),
    JPEG-coded at quality 92, and its truth."""
    rng = np.random.default_rng(seed + 77)
    camera = Camera.random(rng, tilt=18.0)
    image, truth = render_photo(pack, state, seed, spoil=Degradations(strength=1.6),
                                camera=camera)
    dim = float(rng.uniform(0.55, 0.8))
    image = np.clip(image.astype(np.float32) * dim, 0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), truth


def misread(squares: list, truth: dict) -> list[str]:
    """The squares of a forest reading not read surely as the truth has them."""
    out = []
    for r in squares:
        want = (truth["forest"]["tiles"].get(r.square), truth["forest"]["counters"].get(r.square))
        got = (r.name if r.kind == "tile" else None, r.name if r.kind == "counter" else None)
        if r.kind == "uncertain" or got != want:
            out.append(r.square)
    return out


def fake_look(names: list[str], matches: list[dict | None], pair: float) -> _Look:
    """A store look over faces ``names`` (their match counters ``matches``) whose pair
    comparison says ``pair`` whatever it is asked, its view a plain patch with a counter's
    outline: to test the store's naming rules on given scores."""
    look = _Look.__new__(_Look)
    look.glade = SimpleNamespace(face_names=names, face_matches=matches,
                                 polar=SimpleNamespace(pair=lambda *_a, **_k: pair))
    look.smooth = np.full((80, 80, 3), 100.0, np.float32)
    look.grad = np.full((80, 80), 6.0, np.float32)
    look.level = 1.0
    look.scale = 1.0
    look.box = (0.0, 0.0, 80.0, 80.0)
    look.fine = None
    return look


def game_forest_photo(pack: Pack, glade: GladePack, family: int, game: int, player: int
                      ) -> tuple[np.ndarray, dict, dict]:
    """The forest photo (with its store) of ``player`` in game ``game`` of game family
    ``family``, drawn as the #25 games benchmark draws it (benchmarks/the_glade_glade.py,
    games_part: the basic game), its truth, and the player as the finished game's state
    holds them."""
    rnd = random.Random(family)
    for _ in range(game + 1):
        n = rnd.randint(2, 4)
        names = ["Ana", "Ben", "Cleo", "Dev"][:n]
        dealt, bag = deal(list(zip(names, STORE_COLOURS[:n], strict=True)), rnd,
                          variant="basic")
        state = dump_state(play_game(dealt, bag, rnd))
    p = state["players"][player]
    forest = {"board": state["board"], "forest": {"tiles": p["forest"]["tiles"],
                                                  "counters": dict(p["forest"]["counters"])}}
    photo, truth = render_forest_photo(pack, glade, forest, p["store"], [],
                                       family * 100 + game * 10 + player + 1)
    return photo, truth, p
