"""A forest-board pack, glade pack and glade model drawn in one art family, for the tests of
the glade board and the stores on art the recogniser never saw before the test."""

from __future__ import annotations

from companion.the_glade.recognition.families import FamilyArt
from companion.the_glade.recognition.glade_model import GladeModel, build_glade_model
from companion.the_glade.recognition.glade_pack import GladePack
from companion.the_glade.recognition.glade_sim import sample_glade_pack
from companion.the_glade.recognition.pack import Pack
from companion.the_glade.recognition.sim import sample_pack


def glade_family(family: int, matches: bool = True) -> tuple[Pack, GladePack, GladeModel]:
    """The pack (one 7x7 board), the glade pack (with the matching game's match counters
    when ``matches``) and the model learnt from them, all in art family ``family``."""
    art = FamilyArt(family)
    pack = sample_pack(art=art, boards=((7, 7, "D4"),))
    glade = sample_glade_pack(art, matches=matches)
    return pack, glade, build_glade_model(pack, glade)
