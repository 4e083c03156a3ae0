"""A forest-board pack, glade pack and glade model drawn in one art family, for the tests of
the glade board and the stores on art the recogniser never saw before the test."""

from __future__ import annotations

import cv2
import numpy as np

from companion.the_glade.recognition.families import FamilyArt
from companion.the_glade.recognition.glade_model import GladeModel, build_glade_model
from companion.the_glade.recognition.glade_pack import GladePack
from companion.the_glade.recognition.glade_sim import render_forest_photo, sample_glade_pack
from companion.the_glade.recognition.pack import Pack
from companion.the_glade.recognition.sim import random_forest, sample_pack
from companion.vision.sim import Degradations


def glade_family(family: int, matches: bool = True) -> tuple[Pack, GladePack, GladeModel]:
    """The pack (one 7x7 board), the glade pack (with the matching game's match counters
    when ``matches``) and the model learnt from them, all in art family ``family``."""
    art = FamilyArt(family)
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
