"""Look-alike doubts settled by every learnt pair of a candidate: a round robin.

A tile with a small fruit has up to three look-alikes (acorn, blackberry, hazelnut,
mushroom on the same creature and leaf), and a leaf look-alike or two besides. At a close
call the reader asks the learnt pair (:mod:`lookalikes`) of the closer look's two best
faces only; when it cannot settle the doubt, nothing else is asked. Yet every face of the
group has a pair learnt with each of its look-alikes, each judging the photo at full
resolution. On the tuning families' photos (8035, 8036, 8042, 8043; seeds 9000+ and 20000+)
the true face won 97.7% of the pair verdicts it took part in, and the truth of 9 of the 10
fruit names read wrongly on 8035/8036's benchmark photos lay *outside* the two faces the
pair judged (a third fruit neither look ranked second).

So a doubt "looks like A or B" (after the photo's exemplars) is settled to the candidate
that wins **every** learnt pair it belongs to, each by at least MARGIN spreads (its
distance from the loser's training views less its distance from its own) and fitting its
own views within FITS spreads, judged where the closer look placed the tile; it must also
be the closer look's own best face (WITH_LOOK), and the closer look must not be torn. A
candidate that loses or only narrowly wins any of its pairs leaves the doubt standing.

Chosen on tuning families only (see the constants). Costs a pair projection (about 0.1 ms)
per pair of each candidate of a look-alike doubt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from companion.the_glade.recognition.close_calls import MAX_NOISE
from companion.the_glade.recognition.enrol import fine_tile_side
from companion.the_glade.recognition.evidence import Evidence
from companion.the_glade.recognition.lookalikes import PairVerdict, judge
from companion.the_glade.recognition.model import Model

if TYPE_CHECKING:
    from companion.the_glade.recognition.reader import SquareReading

#: Settle look-alike doubts by a candidate's every learnt pair (photo_exemplars.settle).
#: Measured (wrong / uncertain / exact; 47181b9's tree, then with this on, each from its own
#: directory): tuning 8035, 8036, 8042, 8043 normal 11 / 325 / 31 -> 11 / 306 / 32; fresh
#: 8045-8049 (never run before) normal 0 / 45 / 101 -> 0 / 43 / 101, hard 10 / 271 / 9 ->
#: 10 / 271 / 9 (the same in every family).
ROUND_ROBIN = True
#: Each of the candidate's pairs must name it by at least this many spreads (distance from
#: the other face's views less the distance from its own). Tuning families 8035, 8036 and
#: 8042 (133 look-alike doubts, seeds 9000+ and 20000+): at 2, 39 settled, none wrong; at
#: 1.5, 46 with 1 wrong (1.78 and 1.91 the nearest wrong ones). Taken with room: 3.
MARGIN = 3.0
#: ... and fit the candidate's own views within this many spreads (reader.PAIR_FITS).
FITS = 4.0
#: The candidate settled must be the closer look's best face.
WITH_LOOK = True
#: A photo the reader calls poor (reader.poor_photo) is left as it is: settling could lift
#: it under reader.POOR_PHOTO and so let its weak close calls stand.
POOR_GUARD = True
#: ... and a doubt whose closer look's best face misfits the photo where the faces differ (its noise
#: over close_calls.MAX_NOISE, as reader.PAIR_NOISE asks of a single pair) is left: the pairs read
#: only the directions they learnt, blind to a misfit outside them. Hard photos (seed 9000) of
#: tuning families 8060-8064, 1-8, 8000-8004, 8035, 8036, 8066, 8068, 8069: of the round robin's
#: settles, the wrong ones misfit 0.68 (one), 1.15-1.28 (three), the right ones 0.40-1.5 (4 of 11
#: over 1.0). Alone (the other switches as they are), those 184 photos read 24 / 1,067 / 63 -> 22 /
#: 1,072 / 63 wrong / uncertain / exactly right, no square wrong that was not (2 wrong and 4 right
#: names doubted, one doubt named right). On a fresh set first only together with
#: evidence.LEAF_SIBLINGS (its figures there; that switch on since 6 December). **On** since 5
#: December 2026 (legible art): hard photos of tuning families 1-8 and 41-56 (192, seed 9000) had 4
#: round-robin settles that stood, 3 of them wrong (misfits 1.15, 1.24 and 0.68; the right one
#: 0.33); fresh sets (never looked at; 130 hard photos each, SHADE_DOUBT off, wrong / uncertain /
#: boards exactly right) 8167-8171 16 / 398 / 68 -> 15 / 402 / 67 and 8162-8166 10 / 327 / 52
#: unchanged; normal photos of 8167-8171 (130) 1 / 14 / 121 unchanged.
NOISE_GUARD = True


def partners(index: dict[tuple[int, int], int]) -> dict[int, list[int]]:
    """Per face, the numbers of the learnt pairs it belongs to."""
    out: dict[int, list[int]] = {}
    for (a, _b), k in index.items():
        out.setdefault(a, []).append(k)
    return out


def verdicts(model: Model, fine: np.ndarray, at: tuple[float, float, float], turn: int,
             face: int, ks: list[int]) -> list[PairVerdict]:
    """Pairs ``ks``' verdicts on the tile lying ``at`` (fine view px, cut angle) at
    ``turn``, ``face`` reported first on a tie."""
    tside = fine_tile_side(model.tile_size)
    return [judge(model.lookalikes, k, fine, at[:2], at[2], turn, tside, face) for k in ks]


def wins_all(face: int, found: list[PairVerdict]) -> bool:
    """``face`` wins every verdict by MARGIN, fitting its own views within FITS."""
    return bool(found) and all(v.winner == face and v.against - v.fits >= MARGIN
                               and v.fits <= FITS for v in found)


def settle(model: Model, ev: Evidence, readings: list[SquareReading], fine: np.ndarray,
           faces: dict[tuple[str, str], int], index: dict[tuple[int, int], int]) -> list[int]:
    """Settle, in place, each look-alike doubt whose candidate wins all its learnt pairs
    (see the module's doc): the square becomes a tile named by it
    (``distances["round_robin"]``). Returns the squares settled."""
    from companion.the_glade.recognition.reader import poor_photo

    if not ROUND_ROBIN or not len(model.lookalikes) or (POOR_GUARD and poor_photo(readings)):
        return []
    by_face: dict[int, list[int]] | None = None
    settled = []
    for i, r in enumerate(readings):
        if not r.lookalike_doubt:
            continue
        look = ev.looks.get(i)
        if look is None or look.at is None or look.torn or (
                NOISE_GUARD and look.noise > MAX_NOISE):
            continue
        if by_face is None:
            by_face = partners(index)
        winners = []
        for name in r.candidates:
            if WITH_LOOK and name != look.names[0]:
                continue
            face = faces.get((name, r.season))
            if face is None or face not in by_face:
                continue
            if wins_all(face, verdicts(model, fine, look.at, int(r.turn), face, by_face[face])):
                winners.append(name)
        if len(winners) != 1:
            continue
        r.settled(winners[0])
        r.confidence = min(1.0, MARGIN / 8)
        r.distances["round_robin"] = 1.0
        settled.append(i)
    return settled
