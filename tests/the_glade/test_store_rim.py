"""A counter's rim is round and its edges run every way; the table's grain, streaks and
glare are not so (store.USE_RIM, USE_STREAKS, GLARE_HUE; issue #25). Whole games' stores of
game families 7461-7465 (run fresh, then looked at, so tuning families now) were refused by
doubts on bare table: a streaky table's streaks printed and outlined enough to be a thing,
a plain pink table fitting a face closely with no outline, hue or print, a soft glare spot
with a faint hue of the light. Each case below is a doubt on nothing with its rules off (so
each fails on the code before), and is read exactly with them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from glade_family import (
    benchmark_store_photo,
    game_forest_photo,
    glade_family,
    lit_store_reading,
)

from companion.the_glade.recognition import store
from companion.the_glade.recognition.families import TUNING_FAMILIES
from companion.the_glade.recognition.glade_model import WORK_COUNTER


def test_a_round_outline_is_a_rim_and_streaks_or_grain_are_not() -> None:
    size = 4 * WORK_COUNTER
    centre = (size / 2, size / 2)
    disc = np.full((size, size, 3), 120, np.uint8)
    cv2.circle(disc, (size // 2, size // 2), WORK_COUNTER // 2, (40, 160, 200), -1)
    assert store._rim(*store.colour_gradients(disc), centre) > 0.9
    assert store._one_way(*store.colour_gradients(disc), centre) < 0.1
    streaks = np.zeros((size, size, 3), np.uint8)
    streaks[:] = (120 + 40 * np.sin(np.arange(size) / 2.5))[:, None, None].astype(np.uint8)
    assert store._rim(*store.colour_gradients(streaks), centre) < store.NO_RIM + 0.05
    assert store._one_way(*store.colour_gradients(streaks), centre) > 0.95
    grain = np.random.default_rng(3).normal(120, 6, (size, size, 3)).clip(0, 255)
    assert store._rim(*store.colour_gradients(grain.astype(np.uint8)), centre) < store.WEAK_RIM
    plain = np.full((size, size, 3), 120, np.uint8)
    assert store._rim(*store.colour_gradients(plain), centre) == 0.5


def _read(pack, model, photo: np.ndarray, truth: dict) -> dict:
    return lit_store_reading(pack, model, photo, truth).result(with_matches=True)


def _exact(result: dict, truth: dict) -> bool:
    return result == {"store": truth["store"],
                      "store_match_counters": truth["store_match_counters"],
                      "store_uncertain": 0}


# (family, store photo as the benchmark draws it, the rules that set its doubt aside)
BENCHMARK_CASES = [
    (46, 0, ("USE_RIM",)),    # a plain patch fitting a face at 0.12: rim 0.58, hue 0.74
    (71, 2, ("USE_RIM", "USE_STREAKS")),  # rim 0.70, hue 0.63, detail 1.1; one way 0.79
    (86, 13, ("USE_RIM",)),   # a face fitting at 0.09 by a margin of 0.65: rim 0.65
    (78, 11, ("USE_STREAKS",)),  # a streak outlined 4.0: edges one way 0.80
    (66, 5, ("GLARE_HUE",)),  # a glare spot standing 19 with a hue of 1.24
]


@pytest.mark.parametrize(("family", "photo", "rules"), BENCHMARK_CASES)
def test_bare_table_without_a_rim_is_no_doubt(monkeypatch, family: int, photo: int,
                                              rules: tuple[str, ...]) -> None:
    assert family in TUNING_FAMILIES
    pack, glade, model = glade_family(family)
    image, truth = benchmark_store_photo(pack, glade, family, photo)
    assert _exact(_read(pack, model, image, truth), truth)
    for rule in rules:
        monkeypatch.setattr(store, rule, store.GLARE_TINT if rule == "GLARE_HUE" else False)
    off = _read(pack, model, image, truth)
    assert off["store"] == truth["store"] and off["store_uncertain"] == 1


@pytest.mark.parametrize(("family", "game", "player", "rules"), [
    # a streaky table's streaks (print 23.7, outline 3.6): edges one way 0.97
    (7463, 3, 0, ("USE_STREAKS",)),
    # a plain pink table fitting a face at 0.15 (rims 0.53-0.55, hue 0.5, detail 1.2-1.3)
    (7461, 3, 1, ("USE_RIM",)),
    # a red table's grain of hue 3.1 and detail 1.8 beside the board: rim 0.43
    (7462, 2, 0, ("USE_RIM",)),
    # streaks again (print 17.5, outline 3.5): rim 0.44, one way 0.99
    (7465, 3, 1, ("USE_RIM", "USE_STREAKS")),
])
def test_a_whole_games_store_on_bare_table_is_read_exactly(
        monkeypatch, family: int, game: int, player: int, rules: tuple[str, ...]) -> None:
    assert family in TUNING_FAMILIES
    pack, glade, model = glade_family(family)
    photo, truth, _ = game_forest_photo(pack, glade, family, game, player)
    assert _exact(_read(pack, model, photo, truth), truth)
    for rule in rules:
        monkeypatch.setattr(store, rule, False)
    off = _read(pack, model, photo, truth)
    assert off["store"] == truth["store"] and off["store_uncertain"] >= 1
