"""Close tile calls: a square whose best two names are near is looked at again.

First each of its few best names gets its own best small shift and turn of the patch (a
pixel of misplacement should not decide a close call); then the closer look of
:mod:`detail` compares the faces at full detail where they differ. The thresholds here say
when such a look is sure, alone or together with the first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.the_glade.recognition.detail import (
    DETAIL,
    VEIL_MAX,
    Candidate,
    Differ,
    Verdict,
    compare_on,
    differ,
    differ_refitted,
    place,
)
from companion.the_glade.recognition.model import TILE_PATCH, Model
from companion.the_glade.recognition.templates import Cache, Templates
from companion.vision.blur import Blur
from companion.vision.patches import clipped, cut, describe

#: A call whose best two names are less than this apart in units of the photo's own misfit
#: (see misfit_z) is a close call, however wide its margin. 3 let a blackberry be named a
#: mushroom as sure at z 3.3 on art style 9, and its leaf shades too: at 4, the style 9
#: benchmark's wrong squares went from 7 to 5 (0.054% to 0.038%) and its boards exactly
#: right from 92.0% to 92.8%, at no measurable cost in time. Its price: style 6 lost 3 boards
#: to doubts (no more wrong), the tuning photos one of 400; a wrong answer is worse.
#: 4.5 since 5 December (issue #20): it sends the firm first looks at z 4-4.5 to the
#: closer look too. Hard tuning photos (seed 9000, 8 each) of 8060-8064, 1-8, 8000-8004, 8035,
#: 8036, 8066, 8068, 8069, 4fdf1db's change on, 8e4d74d's tree: 14 / 999 / 61 -> 12 / 998 / 61
#: wrong / uncertain / exactly right (5 photo 7 F7 and 8036 photo 7 G6, fruits named at z
#: 4.19 and 4.13, now right or doubted); normal (8 + 2 each) of 1, 121, 198, 287, 44, 54, 61,
#: 80, 8035, 8036, 8042, 8043, 8054, 8059, 8069: 13 / 586 / 55 -> 11 / 590 / 54 (54's two
#: wrong fruits); no square wrong that was not (--set evidence.REFINE_Z=4.5: evidence imports
#: the name). Of the saved hard readings, 226 right names and those 2 wrong lay at z 4-4.5.
#: Fresh 8142-8146 (never run before; 4.0 then 4.5, dc50b68's tree, the same models): hard
#: (8 each) 3 / 88 / 16 -> 2 / 88 / 17 (8142 2 -> 1 wrong, every other family as before),
#: normal (20 + 6 each) 1 / 24 / 111 -> 1 / 27 / 111; scan CPU median normal 0.267 ->
#: 0.283 s, hard 0.594 -> 0.591 s (one after the other, idle).
REFINE_Z = 4.5
REFINE_BELOW = 0.6  # refine a tile's place when its name margin is below this


def misfit_z(d1: float, d2: float, gap: float) -> float:
    """The gap between the best two names in units of the photo's own misfit (blur, noise
    and misplacement raise the misfit and lower this)."""
    return float((d2 - d1) * np.sqrt(TILE_PATCH * TILE_PATCH * 3 / 16)
                 / (2 * np.sqrt(max(gap * d1, 1e-12))))


def template_gap(templates: np.ndarray, j1: int, j2: int) -> float:
    return float(((templates[j1] - templates[j2]) ** 2).mean())


#: The small moves (x, y in the fine view's pixels) and turns (degrees) at which a close call's
#: patch is cut again (evidence._rerank), so that a pixel of misplacement does not lose it.
SHIFTS = [(0, 0, 0.0), (-2, 0, 0.0), (2, 0, 0.0), (0, -2, 0.0), (0, 2, 0.0), (0, 0, -2.5),
          (0, 0, 2.5)]


def rerank(templates: Templates, cache: Cache, vecs: np.ndarray,
           names: list[str]) -> list[tuple[float, int, str]]:
    """Give each of a few close names its own best small shift and turn of the patch
    (``vecs``, one per shift), and rank them again: a close call should not be lost to a
    pixel of misplacement. Every name's templates are compared in one go (each distance is
    worked out on its own, so the same values as one comparison per name)."""
    return rerank_all(templates, cache, vecs[None], [names])[0]


def rerank_all(templates: Templates, cache: Cache, vecs: np.ndarray,
               names: list[list[str]]) -> list[list[tuple[float, int, str]]]:
    """:func:`rerank` of several close calls (``vecs``: (calls, shifts, length); ``names``:
    each call's names), every name's templates compared with all the calls that ask for it
    in one go (:meth:`Templates.near_names`: the same values as one call at a time)."""
    if not names:
        return []
    if len({len(n) for n in names}) > 1:  # as many names each, else one call at a time
        return [rerank_all(templates, cache, v[None], [n])[0]
                for v, n in zip(vecs, names, strict=True)]
    code = {n: k for k, n in enumerate(cache.names)}
    asked = np.array([[code[name] for name in row] for row in names])
    every, idx = templates.near_names(cache, vecs, asked)
    out = []
    for d_all, row, codes, t in zip(every, names, asked, idx, strict=True):
        ranked = []
        start = 0
        for name, k in zip(row, codes, strict=True):
            size = len(cache.by_name[k])
            d = d_all[:, start:start + size]
            j = int(np.argmin(d.min(axis=0)))
            ranked.append((float(d[:, j].min()), int(t[start + j]), name))
            start += size
        ranked.sort()
        out.append(ranked)
    return out


#: When a closer look is sure. Its margin is in units of the two faces' difference where
#: they differ (1: the photo is the best face there; 0: halfway), its noise the best face's
#: own misfit there in the same units. That misfit can move the margin by at most twice its
#: square root (Cauchy-Schwarz: a residual of energy e shifts the margin at most 2 sqrt(e /
#: gap)), and in practice by a fraction of that, so a look is judged by its clearness,
#: margin / sqrt(noise), with a floor under the margin itself; and a look whose best face
#: misfits the photo by more than the two faces differ (noise over MAX_NOISE) says nothing.
#: Before, margin and noise had each their own bound, which let a look with margin 0.2 and
#: noise 0.5 (clearness 0.28, where wrong looks lie) count as sure and kept a margin of 0.38
#: with noise 0.2 (clearness 0.85) from overruling. Measured over 1,440 photos of six art
#: styles (the tuning and check photos, and 200 each of styles 5, 6, 8 and 9): 25 more boards
#: exactly right than the bounds gave, and no more wrong answers. Overruling at 0.7 made 2
#: wrong (a leaf shade, and a fruit in a misfit of 1.7) on art styles 8 and 9.
AGREED_CLEARNESS = 0.4   # a closer look this clear confirms a first look that agrees,
AGREED_MARGIN = 0.2      # ... if its margin is at least this
STRONG_CLEARNESS = 0.8   # a closer look this clear overrules a first look that named another,
STRONG_MARGIN = 0.3      # ... if its margin is at least this
MAX_NOISE = 1.0          # no closer look is sure with more misfit than this
#: Weigh a close call's faces refitted round where they differ (detail.differ_refitted), not as
#: placed for the whole tile (detail.differ), with the refitted look only confirming
#: (LOCAL_CONFIRM, :func:`confirmed`): it counts where it names the face that the look with the
#: faces as placed and the first look both name (looser variants, either of the two or one
#: alone, were measured and dropped); elsewhere the look as placed stands, and where the two
#: closer looks name different faces the square is a doubt (LOCAL_TORN, Look.torn). With
#: reader.PAIR_WITH_LOOK. Held out and fresh (wrong / uncertain squares, same seeds and models
#: as 608afe6's): families 1000-1004 normal 3 / 215 -> 3 / 203, hard 5 / 243 -> 4 / 245;
#: fresh 4000-4004 normal 9 / 536 -> 4 / 525, hard 9 / 412 -> 8 / 415. The refit overruling
#: (LOCAL_FIT alone) raised wrong squares on hard photos (held out 5 -> 8); confirming without
#: LOCAL_TORN made sure a fruit the first look and the look as placed both named wrongly
#: (tuning family 287, 10 normal photos: 6 -> 9 wrong; torn: 4) and held out hard 5 -> 6.
#: Cost: about 2.4 ms CPU more a close call, 58 ms a scan of a tiny-fruit family (0.37 ->
#: 0.43 s; see benchmarks/RESULTS.md, issue #20).
LOCAL_FIT = True
LOCAL_CONFIRM = True
LOCAL_TORN = True


@dataclass(frozen=True)
class Look:
    names: tuple[str, int, str]   # best name, its template, second name
    margin: float
    noise: float
    clipped: float = 0.0          # share of clipped pixels where the two differ
    #: where the tile was placed for the look: centre (fine-view px) and cut angle
    at: tuple[float, float, float] | None = None
    #: the look with the faces weighed as placed, kept beside a refitted one (LOCAL_CONFIRM)
    plain: Look | None = None
    #: the refitted look and the look as placed named different faces (LOCAL_TORN): a doubt
    torn: bool = False

    @property
    def clearness(self) -> float:
        """The margin over the square root of the best face's own misfit where the two
        faces differ (see AGREED_CLEARNESS)."""
        return self.margin / float(np.sqrt(max(self.noise, 1e-6)))

    def sure(self, clearness: float, margin: float) -> bool:
        """Clear enough: at least ``clearness``, raised where clipped pixels hide part of
        what tells the two faces apart, a margin of at least ``margin``, and the best face
        fitting the photo there (noise at most MAX_NOISE)."""
        return (self.clearness >= clearness * (1 + 2 * self.clipped)
                and self.margin >= margin and self.noise <= MAX_NOISE)


def _detail_face(model: Model, cache: Cache, j: int,
                 blur: Blur) -> tuple[np.ndarray, np.ndarray]:
    """Template ``j``'s detail face, turned and blurred like the photo, and the same in gray
    (for placing it); cached."""
    key = (j, blur.key)
    hit = cache.detail.get(key)
    if hit is None:
        face = np.ascontiguousarray(np.rot90(model.tile_detail[j // 4], -int(model.tile_turns[j])))
        face = blur.apply(face)
        if len(cache.detail) > 4096:
            cache.detail.clear()
        hit = cache.detail[key] = (face, cv2.cvtColor(face, cv2.COLOR_BGR2GRAY))
    return hit


#: The closer look also compares every look-alike that the two best faces share (learnt
#: pairs of both, lookalikes.py: the other fruits of a fruit call), not only the first
#: look's best LOOKED_AT names (evidence.py). A tile has four fruits, so three names leave
#: one out: on tuning families 8035 and 8036 (benchmark photos) the true fruit lay outside
#: the three compared in at least 5 of the 10 fruits named wrongly as sure. Measured
#: (wrong / uncertain / exact; 47181b9's tree, then with this on): tuning 8035, 8036, 8042,
#: 8043 normal 11 / 325 / 31 -> 6 / 316 / 31 (8042's doubts 59 -> 74); fresh 8045-8049
#: (never run before) normal 0 / 45 / 101 -> 0 / 45 / 103, but hard 10 / 271 / 9 -> 11 /
#: 277 / 7 (8046 0 -> 1 wrong): one wrong square more on a fresh set, so off (not adopted).
ALL_LOOKALIKES = False


#: A closer look is placed by the mean of the faces the first look ranked only (see
#: closer_looks): faces added unranked (evidence.LEAF_SIBLINGS) are compared there. With the
#: siblings in the mean, a fruit doubt on a glare-lit square of a hard tuning photo (family
#: 1) was placed so that the closer look named a wrong fruit clearly enough to overrule.
#: On with evidence.LEAF_SIBLINGS (measured together: its figures there); it would also move
#: ALL_LOOKALIKES' looks, measured without it.
PLACE_BY_RANKED = True


def with_lookalikes(model: Model, cache: Cache, ranked: list[tuple[float, int, str]]
                    ) -> list[tuple[float, int, str]]:
    """``ranked`` (distance, template, name) with every face that is a learnt look-alike of
    both its best two faces added at the best's turn (distance inf: ranked last), once."""
    if len(ranked) < 2 or not len(model.lookalikes):
        return ranked
    partners = getattr(cache, "lookalike_partners", None)
    if partners is None:
        partners = {}
        for a, b in model.lookalikes.faces:
            partners.setdefault(int(a), set()).add(int(b))
            partners.setdefault(int(b), set()).add(int(a))
        cache.lookalike_partners = partners  # type: ignore[attr-defined]
    j1, j2 = ranked[0][1], ranked[1][1]
    shared = partners.get(j1 // 4, set()) & partners.get(j2 // 4, set())
    present = {j // 4 for _, j, _ in ranked}
    turn = j1 % 4
    extra = [(float("inf"), 4 * f + turn, model.tile_names[4 * f])
             for f in sorted(shared - present)]
    return ranked + extra if extra else ranked


def one_place(view: np.ndarray, centre: tuple[float, float], angle: float, side: float,
              gray_faces: list[np.ndarray]) -> tuple[float, float, float]:
    """Where (fine-view px) and how turned a tile that shows one of ``gray_faces`` lies:
    where their mean face fits best (see :func:`closer_looks`)."""
    mean = np.mean(gray_faces, axis=0).astype(np.float32)
    return place(view, centre, angle, side, [mean])[0]


#: A leaf question's veil bounded by the square's light (:func:`veil_bounds`). The rulebook
#: prints a tile's creature and fruit in its leaf's colour, and each colour comes light and
#: dark (beech and horse chestnut, maple and oak), so two tiles that differ in the leaf
#: alone differ in how dark all their print is; a veil of glare lightens a dark print, so a
#: light tile is also a dark tile veiled, and the closer look, which fits each face its own
#: veil (detail.as_seen, up to VEIL_MAX), cannot tell them apart. But glare is light added
#: to the square, which the square's brightness shows: a square ``light`` times as bright as
#: the photo's usual tile carries a veil of about ``1 - 1 / light`` over its whole face.
#: Measured on the art as the rulebook prints it (tuning families 1-8 and 41-48, seed 9000),
#: a blanket cap of 0.3 settled 6 doubts on normal photos (family 3's light maple read as
#: dark oak veiled, on squares at 1.00-1.06 of the usual light) but named 5 tiles wrong,
#: dark prints truly veiled on squares at 1.24-1.89, and cost 3 hard boards.
LIT_VEIL = True
#: A veil of up to VEIL_PER_LIGHT times the square's mean veil (a glare spot smaller than
#: the tile veils it thicker where it falls), and VEIL_SLACK more (a tile's own print makes
#: its light differ from the usual tile's by that much without any glare).
VEIL_PER_LIGHT = 2.0
VEIL_SLACK = 0.15


def veil_bounds(light: np.ndarray | None) -> np.ndarray | None:
    """Per square, the thickest veil a leaf question's closer look allows, from the square's
    light over the photo's usual tile's (see LIT_VEIL); None (each up to detail.VEIL_MAX)
    when the light is unmeasured or LIT_VEIL is off."""
    if light is None or not LIT_VEIL:
        return None
    mean_veil = 1.0 - 1.0 / np.maximum(np.asarray(light, np.float64), 1.0)
    return np.clip(VEIL_PER_LIGHT * mean_veil + VEIL_SLACK, VEIL_SLACK, VEIL_MAX)


def leaf_of(name: str) -> str:
    """The leaf of a tile named creature/fruit/leaf ('' when the name has no leaf part)."""
    parts = name.split("/")
    return parts[2] if len(parts) == 3 else ""


def _leaf_question(faces: list[tuple[str, int, np.ndarray]]) -> bool:
    """Whether the faces compared name more than one leaf."""
    return len({leaf_of(name) for name, _, _ in faces}) > 1


def closer_looks(model: Model, cache: Cache, view: np.ndarray, squares: list[
        tuple[np.ndarray, float, list[tuple[float, int, str]]]], side: float,
        blur: Blur, veils: list[float] | None = None) -> list[Look | None]:
    """Compare each close call's few names at full detail (see :mod:`detail`); ``squares``
    holds each square's tile centre (fine px), angle and ranked names. All the photo's
    patches are described in one go. ``veils`` (one per square, :func:`veil_bounds`) bounds
    the veil where the names differ in the leaf.

    The faces are compared on one patch, cut where their mean face fits best: the tile lies
    in one place, whichever face it shows. Each face aligned on its own let a wrong fruit
    shift by a pixel or two and turn a degree or two to lie over the photo's fruit, which
    halved the margin of the right one (SAMPLE style 6, where the fruits are blobs of the
    creature's colour: 42 right closer looks fell short of overruling the first look). The
    mean face is aligned by what the faces share; where they differ it is a faint blend that
    favours none of them."""
    if len(model.tile_detail) * 4 != len(model.tile_names) or not squares:
        return [None] * len(squares)
    jobs = []
    for centre, angle, ranked in squares:
        if ALL_LOOKALIKES:
            ranked = with_lookalikes(model, cache, ranked)
        looked_up = [(name, j, *_detail_face(model, cache, j, blur)) for _, j, name in ranked]
        faces = [(name, j, face) for name, j, face, _ in looked_up]
        at = (float(centre[0]), float(centre[1]))
        # placed by the first look's own names: faces added unranked (distance inf: leaf
        # siblings, evidence.LEAF_SIBLINGS) are compared, not let move the place
        own = [gray for (d, _, _), (*_, gray) in zip(ranked, looked_up, strict=True)
               if not (PLACE_BY_RANKED and np.isinf(d))] or [g for *_, g in looked_up]
        jobs.append((faces, one_place(view, at, angle, side, own)))
    stack = np.stack([cut(view, (cx, cy), a, side, DETAIL) for _, (cx, cy, a) in jobs])
    patches, hot = describe(stack), clipped(stack)
    looks: list[Look | None] = []
    for k, (faces, where) in enumerate(jobs):
        cap = veils[k] if veils is not None and _leaf_question(faces) else VEIL_MAX
        found = compare_on(faces, patches[k], where, hot[k], cap)
        looks.append(_verdict(found, where))
    return looks


def confirmed(look: Look | None, first: str) -> Look | None:
    """The look to judge by when the refitted look only confirms (LOCAL_CONFIRM): the refitted
    one where it names the face that the look with the faces as placed and the first look
    (``first``) both name; else the look as placed, torn when the two closer looks name
    different faces (LOCAL_TORN)."""
    if look is None or look.plain is None:
        return look
    plain = look.plain
    if look.names[0] == plain.names[0] == first:
        return replace(look, plain=None)
    return replace(plain, torn=LOCAL_TORN and look.names[0] != plain.names[0])


def _verdict(found: list[Candidate], at: tuple[float, float, float] | None = None) -> Look:
    """The candidate that beats every other where the two differ, and its margin over the
    closest of them (the faces refitted round where they differ with LOCAL_FIT, the look as
    placed kept beside it with LOCAL_CONFIRM)."""
    if not LOCAL_FIT:
        return _best(found, {}, at)
    # the pairs refitted (detail.differ_refitted), each worked out only when _best asks for it
    # (the pairs its best face is in: of three candidates' three pairs, mostly two); the
    # pairs weighed as placed on the way, and the weights of those refitted, kept for the
    # look as placed
    plain: dict[tuple[int, int], Differ | None] = {}
    weights: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    look = _best(found, {}, at, lambda i, j: differ_refitted(found, i, j, plain, weights))
    if not LOCAL_CONFIRM:
        return look
    return replace(look, plain=_best(found, plain, at, lambda i, j: differ(
        found[i], found[j], weights.get((i, j)))))


def _best(found: list[Candidate], pairs: dict[tuple[int, int], Differ | None],
          at: tuple[float, float, float] | None,
          make: Callable[[int, int], Differ | None] | None = None) -> Look:
    """The candidate that beats every other where the two differ, and its margin over the
    closest of them. Not only over the second-best whole fit: that may differ from it in a
    whole creature (a clear margin), while a third face, differing only in a fruit, is the
    real rival. Each pair is worked out once (``pairs``: those worked out already), by
    ``make`` (the lower index first; :func:`detail.differ` by default)."""

    def judge(a: int, b: int) -> Verdict:
        key = (min(a, b), max(a, b))
        if key not in pairs:
            pairs[key] = (differ(found[key[0]], found[key[1]]) if make is None
                          else make(*key))
        stats = pairs[key]
        if stats is not None and a > b:  # the pair was worked out the other way round
            stats = (stats[1], stats[0], stats[2], stats[3])
        return Verdict.of(stats)

    best = 0
    for k in range(1, len(found)):
        if judge(best, k).margin < 0:
            best = k
    verdict, rival = min(((judge(best, k), k) for k in range(len(found)) if k != best),
                         key=lambda pair: pair[0].margin)
    return Look((found[best].name, found[best].template, found[rival].name), verdict.margin,
                verdict.noise, verdict.clipped, at)
