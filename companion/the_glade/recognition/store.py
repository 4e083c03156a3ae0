"""Reading a player's store from the forest photo: the loose counters on the table left of
the forest board as its owner sees it (spec: ``store``, ``store_match_counters``,
``store_uncertain``).

The store area is the table beside the board's left edge, STORE_REACH of the board's width
out and level with it, seen through the board's own homography: the board found in the photo
says where the store is and how large a counter looks there. The area is rectified at the
working scale of :mod:`glade_model` and at twice it. The table's look is estimated by a wide
median (counters are small beside it); a place where a counter-sized disc differs from it by
DETECT times the table's own grain (its median difference, so a grainy wooden table or a
cloth does not count as things, and a counter of the table's colour still differs in its
print and rim) may hold a counter; so may a place where such a disc differs from the table
in hue (CIELAB a*, b*) by TINT_DETECT times the table's own hue grain, the table's colour
made paler as it is brighter or darker counting as its own (glare's white veil, a shadow):
a counter of the table's brightness on a streaky table, or veiled by glare beside glare
that stands out more, differs in hue where it hardly stands out in brightness (on tuning
photos a dark match counter on dark streaky wood and a red counter beside glare made no
place at all, and were left out silently); so may a place whose fine detail (a counter's
sharp print and rim, where the table's streaks, glare and shadows are smooth) is
DETAIL_DETECT times the table's own (a counter of the table's brightness and hue on
streaky wood stands out in neither). Such places are taken as disc maxima a few
pixels apart, so two touching counters are two places (a counter between them is
suppressed once one is named: counters touch at most lightly). Each place is named by
:mod:`glade_polar`: every face, toadstool or match counter, compared at every angle in 3.75
degree steps at twice the working scale, with the photo's light colour (measured on the
board's border) divided out.

A place whose best face fits and is clearly that face (a close fit by a smaller margin: a
family's creature icons may look alike; between two faces that fit almost alike, clearly
the one where the two differ, both blurred as the photo is), and whose drawing is a
counter's too, is named;
otherwise it is counted in ``store_uncertain`` (left out of both lists) when it is a thing at
all: its drawing fits a counter's colours aside, or it has an outline or a print (or some of
both: a counter veiled by glare, or wedged between two), or its hue differs from the table's
by TINT_THING times its grain (no glare, shadow or grain did on tuning photos), or its fine
detail is DETAIL_THING times the table's, or it fits
one face fairly well and clearly better than the others, or clearly one of two look-alikes
by the pair comparison (a faint counter, dark on dark wood, has little outline or print;
the table's grain fits the plain faces all alike), or it has both some hue of its own and
some sharp detail (a counter faded towards the table's colour); a place with none of these
is surely the table's grain, glare or a shadow, and so is a place with no counter's round
rim or whose edges all run one way (streaks), unless its drawing, hue or sharp detail
clearly say a thing lies there. A face is named only if its drawing,
colours aside, fits about as well as any other face's, or its own colours (each channel's
mean left out) say it clearly against the face whose drawing fits best: a counter faded or
washed towards the table's colour fitted its look-alike best. The print is measured in
the photo's own grey levels (a dim photo's light divided out would swell the table's grain
into prints). Every threshold was tuned on ``families.TUNING_FAMILIES`` only. When the area
is not wholly in the photo the fields are left out: the scan cannot say what lies in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.the_glade.recognition.counter_colour import board_light
from companion.the_glade.recognition.glade_model import (
    SMOOTH,
    WORK_COUNTER,
    GladeModel,
    disc,
)
from companion.the_glade.recognition.glade_polar import prepare
from companion.vision.board import project, rectify

#: The store's reach left of the board, as a share of the board image's width, and the gap
#: left next to the board's edge (its shadow).
STORE_REACH = 0.8
EDGE_GAP = 0.01
#: A place stands out from the table when a counter-sized disc there differs from the
#: table (a wide median) by DETECT times the table's own grain (its median difference).
DETECT = 2.6
MIN_GRAIN = 2.0
#: Decision thresholds (tuned on families.TUNING_FAMILIES only): a counter is named when its
#: best face fits within MAX_FIT and clearly better than the next (NAME_MARGIN); a place two
#: counters' centres closer than SAME diameters to one named is that one. What is not named
#: is still a thing (counted as a doubt) when its drawing fits a counter's, colours aside,
#: closely (SURE_SHAPE) or fairly (THING_SHAPE) with some outline (OUTLINE times the
#: table's colour gradient round it), or it has a clear outline (THING_EDGE) or a print
#: (THING_SPREAD grey levels); otherwise it is the table's grain, glare or a shadow (glare
#: on a streaky table fits a drawing fairly, but has no outline).
MAX_FIT = 0.35
NAME_MARGIN = 0.15
#: A counter that fits closely (CLOSE_FIT) is named by a smaller margin (CLOSE_MARGIN): on
#: 3,183 store things of tuning families 1-8 (light corrected), every best face that was
#: the wrong one fitted at 0.25 or worse with a margin of 0.08 at most, while look-alike
#: match counters named right fitted within 0.2 by margins of 0.05-0.15.
CLOSE_FIT = 0.2
CLOSE_MARGIN = 0.10
#: A named counter's drawing fits its face, colours aside, within NAME_SHAPE (0.79 at
#: most on those 3,183): a patch of table in a counter's colours with no drawing is none.
NAME_SHAPE = 0.9
#: A drawing that fits only loosely (above LOOSE_SHAPE) names a counter only with an
#: outline (LOOSE_EDGE): glare on a red table fitted red-single at 0.21 by a margin of 0.2
#: (drawing 0.56, outline 2.3), where the 84 counters named right with a drawing above
#: 0.4 on those tuning photos all had an outline of 4.8 or more; a red-single veiled by
#: glare on a red table (tuning family 2, photo 81) was named red-double at fit 0.25,
#: margin 0.27, drawing 0.65 with an outline of 3.3, so the outline asked is 4 (was 3).
LOOSE_SHAPE = 0.4
LOOSE_EDGE = 4.0
#: A loose drawing names a counter without that outline when its face fits very closely
#: (LOOSE_FIT) by the usual margin (NAME_MARGIN) and it differs from the table in hue as
#: only a thing lying there does (TINT_THING): a mouse match counter on a blurred photo
#: (tuning family 44, photo 1: fit 0.08, margin 0.26, drawing 0.57, outline 3.3, hue 32)
#: was a doubt. Of the 2,500 places judged and not named on 552 tuning photos (families
#: 1-8 photos 0-23, 41-64 photos 0-14) it names that one only; the table's grain fitting
#: a plain face as closely (0.096 and up) differed from the table in hue by 1.3 at most,
#: the glare and the veiled counter above fitted at 0.21 and 0.25.
LOOSE_FIT = 0.12
SAME = 0.7
#: A thing that would be a doubt is looked at again as a counter under glare (USE_UNVEIL,
#: :meth:`glade_polar.PolarFaces.match_unveiled`) and named when its face then fits within
#: UNVEIL_FIT by NAME_MARGIN, its drawing within LOOSE_SHAPE, on a patch of another hue
#: than the table's (TINT_THING). On tuning photos the counters so named fitted at
#: 0.05-0.19 with drawings of 0.09-0.37 and hues of 7.2-17; with 0.35, no hue asked and the
#: drawing as :func:`_drawn` asks, fresh family 7034 (its figures recorded, then that one
#: photo's scores looked at) had a leaf counter's place drawn 0.77 diameters off it and
#: named oak 2 for oak 4 (fit 0.27, hue 1.1), and fresh family 7042 one counter named
#: wrong by a loose drawing (LOOSE_FIT; figures only: with LOOSE_FIT or USE_UNVEIL off,
#: none).
USE_UNVEIL = True
UNVEIL_FIT = 0.2
#: A glare spot alone, or left beside a counter it veiled, is nothing (USE_GLARE): it
#: stands out from the table (GLARE_STANDS times its grain) with no hue of its own
#: (GLARE_TINT) and no sharp detail (GLARE_DETAIL). On 552 tuning photos the two glare
#: spots taken for things stood 28 and 42 with hue 0.37-0.55 and detail 1.98-2.46, and
#: a glare remnant beside a veiled counter 15.8, 0.49, 1.73; no counter of 2,600 had hue
#: below 1.1 and detail below 3.9 (a counter faded to 30% of its contrast in a test stands
#: 4.5, hue 0.9, detail 2.1: a doubt, as before). The soft glare spots of whole games'
#: stores (game families 7215-7224, seen) stood 8.7 and 9.5 (hue 0.56 and 0.32, detail 0.96
#: and 1.22): each refused its game as a doubt on nothing with GLARE_STANDS 10; on tuning
#: families 41-90 (15 store photos each) no place left unnamed, counter or not, stands 8-10
#: with a hue under 1 (the counters left unnamed there: hue 4.4 and more).
#: A glare spot may keep a faint hue of the table's light (up to GLARE_HUE): the soft spot
#: on a tan table of game family 7464 (seen: stands 15.9, hue 1.2, detail 1.37) and one on
#: tuning family 66 (19.3, 1.24, 1.3) were doubts on nothing; on tuning store photos
#: (families 41-90, and the counters of families 41-70 faded to 30% of their contrast) no
#: counter standing GLARE_STANDS or more had a hue under 2 with a detail under
#: GLARE_DETAIL (faded counters standing 6.1-6.6 had hues down to 1.18: they stand too
#: little to be taken for glare).
USE_GLARE = True
GLARE_STANDS = 8.0
GLARE_TINT = 1.0
GLARE_HUE = 1.5
GLARE_DETAIL = 2.5
#: A place with no hue of its own (below BLAND_TINT), no sharp print or rim (fine detail
#: measured and below BLAND_DETAIL) and no counter's drawing (beyond BLAND_SHAPE) is the
#: table's own (USE_BLAND): streaks of a streaky table, a soft bright patch, the board's
#: edge. On tuning families 65-90 (15 photos each) these were 8 of the 12 doubts (7 of the
#: 11 stores refused): hue 0.34-2.32, detail 1.31-2.09, drawing 0.71-1.06; of 1,394
#: counters judged on tuning families 41-61 (photos 0-11) 4 had a hue below 3 (their detail
#: 6.2 and up) and one a detail below 2.5 (a dark mouse blurred, hue 5.2); a counter faded
#: to 30% of its contrast (a test) has hue 0.93, detail 2.06 but a drawing of 0.50-0.66.
#: Without a fit asked, held-out 2010-2014 (run before; figures only) lost a counter that
#: was a "which counter?" doubt (fit within MAX_FIT) without a doubt: a place that fits a
#: face is never the table's own (6 of those 8 tuning doubts fitted beyond MAX_FIT).
USE_BLAND = True
BLAND_TINT = 2.5
BLAND_DETAIL = 2.2
BLAND_SHAPE = 0.7
#: ... with detail up to GLARE_DETAIL where it has no hue at all (under GLARE_TINT), as a
#: glare spot may (BLAND_HUELESS): no counter of 2,600 on tuning photos had a hue below 1.1
#: with detail below 3.9 (see USE_GLARE). Fresh stores 7265-7269 (seen since): a place on
#: the table fitting no face (1.25) with hue 0.73, detail 2.45 and no counter's drawing
#: (1.22) refused a store as a doubt on nothing.
BLAND_HUELESS = True
#: Two faces that fit almost alike (USE_PAIR) are told apart where they differ: each
#: fitted at its own best place and angle, the faces blurred as the photo is, the
#: difference of the two fits over twice the faces' own difference's power, +0.5 being the
#: best face exactly, -0.5 the other, 0 half way (:meth:`glade_polar.PolarFaces.pair`);
#: the best is named from PAIR_LINEAR on (the drawing's tests below still apply). On the
#: 10 "which counter?" doubts on real counters of tuning families 1-8 (photos 0-71) the
#: right best faces lay at 0.26-0.53 and the one wrong best face at -0.20 (it is the other
#: one); without the blur, all lay at 0.04-0.36 (the photo about half way) and the wrong
#: one at 0.06-0.09.
USE_PAIR = True
PAIR_LINEAR = 0.2
#: ... and the other face is named when the comparison says it clearly (USE_PAIR_OTHER: at
#: -PAIR_OTHER or below), its own fit within MAX_FIT: the comparison's sign says which face
#: the counter is. On tuning families 41-61 (photos 0-11) the 59 counters compared so lay
#: at -0.04-0.08 (both ways) or from 0.23 on with the best face right; the two tuning
#: counters whose best face was the wrong one lay at -0.20 (families 1-8) and -0.43
#: (family 71: acorn on maple taken for acorn on oak, a "which counter?" doubt).
USE_PAIR_OTHER = True
PAIR_OTHER = 0.3
#: The second look (beside what was found) keeps things this many diameters from it.
BESIDE = 0.85
SURE_SHAPE = 0.35
THING_SHAPE = 0.55
OUTLINE = 3.0
THING_EDGE = 4.0
THING_SPREAD = 22.0
#: A place with both some print and some outline is a thing in either look (a counter
#: veiled by glare, or wedged between two, was left out silently on tuning families 4
#: and 5: print 17.7 and 20.5, outline 4.3 and 3.1; of 2,585 places set aside as
#: nothing on 96 tuning photos, one had both, a remnant beside a doubt).
PRINT_SPREAD = 17.0
PRINT_EDGE = 3.0
#: A faint counter (a dark one on dark wood: little outline, print or contrast) still fits
#: one face well (FAINT_FIT) and better than the rest (FAINT_MARGIN), where the table's
#: grain fits plain faces all alike (margin at most 0.071 among grain fitting this well
#: on tuning families 1-8): it is a doubt, not nothing (in the first look only: beside a
#: thing found, only a counter's drawing counts).
FAINT_FIT = 0.27
FAINT_MARGIN = 0.09
#: A loose drawing (beyond FAINT_SHAPE, colours aside) is a faint counter's only with a
#: close fit (FAINT_CLOSE): on tuning families 1-8 (168 photos: families 1-8 photos 0-23,
#: 2, 5, 6, 7 photos 24-47) the grain of a red or pink table fitted red-double or
#: red-single at 0.21-0.27 by margins of 0.09-0.20 with drawings of 0.56-0.94 (4 stores
#: refused by a doubt on nothing), where a counter faded to 30% of its contrast fits at
#: 0.11-0.13 with a drawing of 0.50-0.66, and of 1,377 counters 99% had a drawing within
#: 0.49.
FAINT_SHAPE = 0.45
FAINT_CLOSE = 0.17
#: ... and a drawing beyond FAINT_LOOSEST is none, however close the fit: the grain of a
#: dark streaky table (tuning family 54, photos 2 and 4) fitted a plain dark match counter
#: at 0.13-0.165 by margins of 0.17-0.23 with drawings of 0.81-0.98 (5 doubts on nothing,
#: the only places on 552 tuning photos that the faint rule alone made things), where the
#: counter faded to 30% of its contrast has 0.50-0.66.
FAINT_LOOSEST = 0.75
#: A second cue for places (USE_TINT): a counter-sized disc whose hue differs from the
#: table's by TINT_DETECT times the table's own hue grain (its median, at least MIN_TINT
#: CIELAB units); the table's colour paler by up to GLARE_SLACK times as much as it is
#: brighter or darker is the table's own (glare, shadows). A place of this cue within
#: SAME_PLACE diameters of one standing out is that one. An unnamed place whose hue differs
#: by TINT_THING is a thing (a doubt) in either look: on 96 tuning photos (12 a family) the
#: places at no counter differed by 3.0 at most, counters by 2.2 to 46 (the dark match
#: counter on dark wood 4.6, named). On 550 tuning photos (families 1-8 photos 0-23, 41-64
#: photos 0-14) the places that hue alone made doubts were on nothing at 4.76-6.02 (a red
#: table's grain, the store's edge beside the board) and one counter at 32 (now named):
#: 6.5 (was 4.5).
USE_TINT = True
TINT_DETECT = 3.0
MIN_TINT = 1.5
SAME_PLACE = 0.3
GLARE_SLACK = 1.5
TINT_THING = 6.5
#: A third cue for places (USE_DETAIL): a counter-sized disc with DETAIL_DETECT times the
#: table's own fine detail (each pixel's difference from the view blurred by DETAIL_BLUR
#: working px: a counter's print and rim are sharp, a table's grain, glare and shadows
#: smooth; the table's median, at least MIN_DETAIL). A counter of the table's brightness
#: and hue (a dark match counter on dark streaky wood: 2.3 times the grain, 2.0 in hue) was
#: seen by neither cue and left out silently; its print stood at 7.8. An unnamed place
#: with DETAIL_THING times the table's detail, its disc less what lies within NEIGHBOUR
#: diameters of a thing kept (a touching counter's rim), is a thing (a doubt) in either
#: look. On tuning families 1-8 the detail peaks away from every counter reached 4.65,
#: places judged away from counters 4.3 (1,346 places), counters 2.5 and up.
USE_DETAIL = True
DETAIL_BLUR = 1.0
DETAIL_DETECT = 4.0
MIN_DETAIL = 0.5
DETAIL_THING = 5.0
NEIGHBOUR = 0.6

#: A fourth cue for places (USE_RINGS): where some face's ring means (colour by colour, a
#: few rings round the point, normalised as the polar comparison's images are: a part of
#: it no turn changes) fit within RING_FIT (:mod:`glade_rings`). A dark hedgehog counter
#: on dark wood (tuning family 56, photo 9: stands 1.4 times the grain, hue 1.5, detail
#: 1.5) made no place and was left out silently, though its face fits there at 0.06 in
#: the polar comparison; its ring means fit at 0.005.
#: A place of this cue alone is a counter only when named with its face fitting within
#: RING_NAME_FIT, otherwise nothing (as before the cue): on tuning families 41-90 (15
#: photos each) judged as the other places, its places made 8 more stores doubts on
#: nothing ("which counter?" on a table's grain fitting two faces loosely) and one wrong
#: as certain (family 57: a leaf counter named on bare table, fit 0.16, margin 0.45,
#: drawing 0.20).
USE_RINGS = True
RING_FIT = 0.02
RING_NAME_FIT = 0.08
#: Only the RING_MOST places of this cue whose ring means fit best are matched, and only
#: one whose face then fits within RING_NAME_FIT is judged: on a table fitting a plain
#: face's ring means all over (tuning family 42, store photo 3) the cue made 146 places,
#: each matched at every angle and compared as a pair, and that store took 3.7 s of CPU
#: (the benchmark's slowest reads); a counter this cue alone finds fits its ring means at
#: 0.005, among the best. The benchmark's slowest store read, CPU under load: fresh
#: 7120-7124 4.6 s before, 0.68 s now; tuning 60-65 and 85-90 5.2 s before, 41-90 1.1 s
#: now, the readings the same.
RING_MOST = 10
#: A place found and not named is a doubt unless it is surely the table (USE_SURE_TABLE,
#: :func:`_surely_table`): without both a hue (TABLE_TINT) and a sharp detail
#: (TABLE_DETAIL) of its own, or no faint place (TABLE_SPREAD, TABLE_STANDS). On tuning
#: photos the table's places that no other rule made things had hue 3.3-4.8 with detail
#: 0.8-1.6 (a red table's grain, the store's edge, families 61-62) or detail up to 2.7
#: with hue below 1.6; counters faded to 30% of their contrast (families 41-44, 24 photos)
#: that were left out silently had hue 2.7-6.2 with detail 1.9-3.3 (7 of 9 now doubts; one
#: at hue 5.0 detail 1.3, one at 1.5 and 2.1 still left out), spreads of 2.7-11 and
#: stood 2.6-4.2. On tuning 41-90 (15 photos each) hue and detail alone made four doubts
#: on nothing, each the only doubt of its store: hue 2.0-2.2 and detail 1.9-2.7 with
#: spreads of 13.7-19.7 (the table's streaks, families 45, 65, 79), and hue 3.8, detail
#: 2.2 standing 21.6 (family 87, beside the board's edge).
USE_SURE_TABLE = True
TABLE_TINT = 2.0
TABLE_DETAIL = 1.8
TABLE_SPREAD = 12.0
TABLE_STANDS = 12.0
#: A faint place with no hue of its own is still no table when it shows a counter's sharp
#: print and a face fits it (USE_PRINT_ALONE): a sharp detail of PRINT_ALONE times the
#: table's with a counter's drawing (within FAINT_LOOSEST), or of PRINT_SHARP times with
#: none, and a face fitting within FAINT_FIT either way. Single counters faded to 30% of
#: their contrast on tuning families 41-55 (8 a family, as test_store_faded makes them):
#: 29 were left out silently with a place, at hue 0.5-1.94, detail 1.07-3.9, drawings
#: 0.36-0.98 and fits 0.11-0.21; 18 of them have such a print (test family 413319's
#: squirrel too: detail 3.79, fit 0.17, drawing 0.94); read with the rule, families 41-46:
#: 7 of their 10 such misses doubts, none named. The 2,156 places set aside as the table on
#: tuning store photos (families 41-54 and 66-76, 15 photos each): none with a detail of
#: 2.5 or more had a fit within 0.34 (none of 3.0 or more within 0.67): none is a doubt.
USE_PRINT_ALONE = True
PRINT_ALONE = 2.5
PRINT_SHARP = 3.0
#: A faint counter's best face may have a look-alike (USE_FAINT_PAIR): its margin over
#: the look-alike is then small (test family 322905: a faint hedgehog on maple, 0.01 over
#: the hedgehog on oak, left out silently), but the pair comparison says which of the two
#: it is (PAIR_CLEAR either way; it said 0.6); its drawing must fit as the faint-counter
#: rule asks (a dark table's grain gives the pair 0.5-1.4 with a drawing of 0.9-1.3).
USE_FAINT_PAIR = True
PAIR_CLEAR = 0.3
#: A faint place that keeps some of a counter's outline (FAINT_EDGE times the table's
#: colour gradient round it) and some of its sharp print (FAINT_DETAIL times the table's
#: detail) where a face fits closely (FAINT_OUTLINE_FIT) and somewhat better than the next
#: (FAINT_OUTLINE_MARGIN), its drawing not beyond FAINT_OUTLINE_SHAPE, is a doubt in the
#: first look (USE_FAINT_OUTLINE): a counter faded to 30% of its contrast (a leaf counter
#: above all: its pips are small) loses its hue, most of its print and its drawing, and
#: was left out silently (test family 413319's oak 2: fit 0.12, margin 0.11, drawing 0.85,
#: hue 1.1, outline 2.3, detail 2.1). Single counters so faded on tuning families 41-55
#: (8 a family, as test_store_faded makes them): of the 11 still left out silently, 5 meet
#: it (fits 0.11-0.18, margins 0.06-0.09, drawings 0.68-0.98, outlines 1.9-2.3, details
#: 1.75-2.9); of the 4,600 places set aside as the table on tuning store photos (families
#: 41-90, 15 photos each: grain and the second look's) none does, nor with a fit within
#: 0.2, a margin of 0.03, an outline of 1.8 and a detail of 1.7 (three do within 0.22,
#: 0.02, 1.7 and 1.6: fits 0.18-0.19, margins 0.05-0.13). Faint places that stand out
#: strongly or spread widely (TABLE_STANDS, TABLE_SPREAD) are left to the other rules.
USE_FAINT_OUTLINE = True
FAINT_OUTLINE_FIT = 0.18
FAINT_OUTLINE_MARGIN = 0.04
FAINT_OUTLINE_SHAPE = 1.0
FAINT_EDGE = 1.9
FAINT_DETAIL = 1.75
#: A face named against the drawing (another face's drawing, colours aside, fitting
#: COLOUR_RIVAL times better than its own) is named only when the two compared where
#: they differ with each channel's mean left out say it clearly (USE_COLOUR_CHECK,
#: :meth:`_Look._colours_hold`). Counters faded to half their contrast on a family never
#: tuned on were named as their look-alike (mouse on oak as mouse on maple: fit 0.21,
#: margin 0.22), their own face's drawing fitting 1.7-4 times better than the named one's
#: and that comparison giving +0.36 to +0.49 for the right face (test family 609127); on
#: tuning photos as drawn (families 41-47, 4 photos each) the named face's drawing fitted
#: at most 1.01 times the best, and faded to 40% of their contrast or washed to 40% of
#: their colour, 14 namings had a drawing fitting 1.24-17 times worse than another face's,
#: and the check made each a doubt (some of them right: washed-out blue counters, the
#: purple's drawing fitting better).
USE_COLOUR_CHECK = True
COLOUR_RIVAL = 1.2
#: ... and a face so named must show a counter's drawing of its own (USE_OWN_DRAWING): the
#: drawing's tests (:func:`_drawn`) on its own drawing's fit, not on the best of any face.
#: Tuning family 54, a mouse on beech faded to 30% of its contrast: mouse on oak fitted
#: best (0.106, margin 0.21), mouse on beech's drawing 0.35, mouse on oak's own 0.87 with
#: no outline (1.6); the colours compared said oak (+0.26), and it was named mouse on oak,
#: wrong as certain. The drawing's tests had been asked of the best drawing (0.35, the
#: rival's). On tuning photos as drawn no naming meets the colour check (the named face's
#: drawing fitted at most 1.01 times the best), so only faded or washed counters change.
USE_OWN_DRAWING = True
#: A counter's rim is round: on a ring of a counter's radius the colour gradient runs
#: across the ring (radially) far more than along it, where the table's grain, its
#: streaks and a plain patch show no more of one than of the other (:func:`_rim`: the
#: radial share, 0.5 for gradients of no direction or one straight across, 1 for a round
#: outline). A place that would be a doubt is the table's own (USE_RIM) when its rim is
#: no rounder than the grain's (below NO_RIM) and it shows no clear sign of a thing (its
#: drawing within SURE_SHAPE, a hue of TINT_THING, a detail of DETAIL_THING), or when it is
#: only a little rounder (below WEAK_RIM) with no hue of its own at all (GLARE_TINT) and
#: hardly any sharp detail (RIMLESS_DETAIL). Whole games' stores of game families
#: 7461-7465 (run fresh for issue #25, 6 December night: a store refused a game in each,
#: then looked at) showed doubts on nothing with rims of 0.44-0.45 (the streaks of a
#: streaky table, printed 17.5-23.7 and outlined 3.3-3.6 by them; a red table's grain of
#: hue 3.1) and 0.53-0.55 (a plain pink table fitting a face at 0.15, hue 0.5, detail
#: 1.2-1.3). On tuning store photos (families 41-90, 15 each: 4,342 counters with the
#: faded ones below, 4,627 places set aside as the table) every counter's rim was 0.648 or
#: more (the leaf match counters' busy print at the edge: 1% under 0.725), every doubt on a
#: counter 0.74 or more; counters faded to 30% of their contrast (families 41-70, 8 each,
#: as test_store_faded fades them) down to 0.531, and those under 0.7 kept a hue of 0.98 or
#: a detail of 1.76 at least. Neither rule touches any counter there, named or not; the
#: second sets aside 4 of the 6 doubts on nothing (rims 0.58-0.70, hue 0.34-0.74, detail
#: 1.1-1.31), the first none (the tuning photos' doubts on nothing all had rims over 0.58).
USE_RIM = True
NO_RIM = 0.5
WEAK_RIM = 0.7
RIMLESS_DETAIL = 1.5
#: A counter's print and rim have edges every way; the table's streaks, the board's edge
#: and a shadow's edge run one way. A place that would be a doubt whose colour gradient
#: over a counter's disc runs one way (:func:`_one_way`: the structure tensor's
#: coherence, 0 for edges every way, 1 for one way only) by STREAKS or more is the
#: table's own (USE_STREAKS), unless it shows a clear sign of a thing as above. The two
#: streaky tables of game families 7463 and 7465 gave 0.976 and 0.987; on tuning store
#: photos counters gave 0.553 at most (99% under 0.32), counters faded to 30% of their
#: contrast 0.603, the places set aside as the table 0.865 in the median; of the doubts on
#: nothing there, it sets aside two (0.79-0.80: a streak, and a place fitting a plain
#: face at 0.11 that every faded photo of family 54 shows).
USE_STREAKS = True
STREAKS = 0.75


@dataclass
class StoreThing:
    """One thing in the store: a counter's name (or a match counter), or None if unnamed.
    ``candidates``: the two faces a "which counter?" doubt is between, as the result names
    them (a counter's name, a match counter's fields), so a person puts it right by choosing
    one; none for a thing that fits no face."""

    at: tuple[float, float]                    # board-image px
    name: str | None
    match: dict[str, Any] | None = None
    reason: str = ""
    distances: dict[str, float] = field(default_factory=dict)
    candidates: tuple[str | dict[str, Any], ...] = ()


@dataclass
class StoreReading:
    things: list[StoreThing]
    in_view: bool
    box: tuple[float, float, float, float]     # board-image px
    #: places judged and set aside as nothing (the table's grain, glare, a shadow), with
    #: their scores and why in ``reason``: not in the result, for the benchmark's --show
    dropped: list[StoreThing] = field(default_factory=list)
    #: a counter's diameter in board-image px (what the overlay draws each thing as)
    diameter: float = 0.0
    #: the photo's light per colour (:func:`light_gain`; ones when not measured): what the
    #: match counters in the board's enclosures are read in too
    gain: np.ndarray = field(default_factory=lambda: np.ones(3, np.float32))

    def result(self, with_matches: bool) -> dict[str, Any]:
        """The spec's store fields (none when the area is not wholly in the photo)."""
        if not self.in_view:
            return {}
        store = sorted(t.name for t in self.things if t.name is not None and t.match is None)
        out: dict[str, Any] = {"store": store}
        if with_matches:
            out["store_match_counters"] = sorted(
                (dict(t.match) for t in self.things if t.match is not None),
                key=lambda m: (m["kind"], m["icon"], m["value"]))
        unnamed = [t for t in self.things if t.name is None]
        out["store_uncertain"] = len(unnamed)
        if unnamed:  # where each lies and, for a "which counter?", the two it may be
            out["store_doubts"] = [
                {"at": [round(t.at[0], 1), round(t.at[1], 1)],
                 "candidates": [dict(c) if isinstance(c, dict) else c for c in t.candidates
                                if with_matches or not isinstance(c, dict)]}
                for t in unnamed]
        return out


def store_box(size: tuple[int, int]) -> tuple[float, float, float, float]:
    """The store area in board-image pixels, for a board image of ``size`` (w, h)."""
    w, h = size
    return (-STORE_REACH * w, 0.0, -EDGE_GAP * w, float(h))


def read_store(glade: GladeModel, board_image_size: tuple[int, int], counter_px: float,
               homography: np.ndarray, photo: np.ndarray, board_view: np.ndarray | None,
               board_working: np.ndarray | None) -> StoreReading:
    """Read the store beside a forest board found in ``photo`` by ``homography`` (board-image
    px to photo px). ``counter_px`` is a counter's diameter in board-image pixels;
    ``board_view``/``board_working`` are the board as photographed and as enrolled, at one
    scale, to measure the photo's light on (None: the light is not corrected)."""
    box = store_box(board_image_size)
    x0, y0, x1, y1 = box
    fh, fw = photo.shape[:2]
    corners = project(homography, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]))
    in_view = bool(((corners[:, 0] >= 0) & (corners[:, 0] < fw) & (corners[:, 1] >= 0)
                    & (corners[:, 1] < fh)).all())
    gain = light_gain(board_view, board_working)
    if not in_view:
        return StoreReading([], False, box, diameter=counter_px, gain=gain)
    scale = WORK_COUNTER / counter_px
    view, fine = rectify(photo, homography, scale, box, 2)
    dropped: list[StoreThing] = []
    return StoreReading(_things(glade, view, fine, gain, scale, box, dropped), True, box,
                        dropped, counter_px, gain)


def light_gain(board_view: np.ndarray | None, board_working: np.ndarray | None
               ) -> np.ndarray:
    """The photo's light per colour channel, measured on the forest board's border as
    photographed (``board_view``) against the board as enrolled (:func:`border_views`);
    ones when not given or not measurable."""
    if board_view is not None and board_working is not None:
        measured = board_light(board_view, board_working, board_view.max(axis=2) > 0)
        if measured is not None:
            return np.maximum(measured, 1e-3).astype(np.float32)
    return np.ones(3, np.float32)


def _things(glade: GladeModel, view: np.ndarray, fine: np.ndarray, gain: np.ndarray,
            scale: float, box: tuple[float, float, float, float],
            dropped: list[StoreThing] | None = None) -> list[StoreThing]:
    """Every thing in the store view (working scale; ``fine`` at twice it): found where it
    stands out from the table, then named (or counted as a doubt) by :meth:`_Look.judge`.
    A second look with the things found masked finds a dim counter beside a bright one (its
    own maximum drowns in its neighbour's). ``dropped`` gains the places set aside as
    nothing."""
    d = WORK_COUNTER
    k = 4 * d + 1
    table = cv2.medianBlur(view, k if k % 2 else k + 1)
    diff = np.abs(view.astype(np.int16) - table.astype(np.int16)).sum(axis=2).astype(np.float32)
    grain = max(float(np.median(diff)), MIN_GRAIN)
    kernel = _disc_kernel(d)
    stands = cv2.filter2D(diff, -1, kernel, borderType=cv2.BORDER_REFLECT) / grain
    tint = _tint(view, table)
    tint_grain = max(float(np.median(tint)), MIN_TINT)
    tints = cv2.filter2D(tint, -1, kernel, borderType=cv2.BORDER_REFLECT) / tint_grain
    detail = _detail(view)
    detail_grain = max(float(np.median(detail)), MIN_DETAIL)
    details = cv2.filter2D(detail, -1, kernel, borderType=cv2.BORDER_REFLECT) / detail_grain
    prepared = prepare(fine, gain)
    centres = _places(stands, tints, details)
    rings = np.zeros((0, 2))
    if USE_RINGS:
        rings = np.array([c for c in _ring_places(glade, prepared, view.shape[:2])
                          if all(np.hypot(c[0] - u, c[1] - v) >= SAME_PLACE * WORK_COUNTER
                                 for u, v in centres)][:RING_MOST]).reshape(-1, 2)
    things: list[StoreThing] = []
    if not len(centres) and not len(rings):
        return things
    gx, gy = colour_gradients(view)
    cgrad = np.sqrt(gx ** 2 + gy ** 2).sum(axis=2)
    look = _Look(glade, view.shape[:2], prepared,
                 cv2.GaussianBlur(view.astype(np.float32), (0, 0), SMOOTH), cgrad,
                 float(np.median(cgrad)) + 2.0, scale, box, detail / detail_grain, gx, gy,
                 dropped=[] if dropped is None else dropped)
    kept: list[tuple[float, float]] = []
    things += look.judge(centres, stands, tints, kept)
    if len(rings):  # named closely, or nothing (no other cue saw a thing there)
        things += look.judge(rings, stands, tints, kept, ring=True)
    if kept:  # the second look, beside the things found (a counter's rim and shadow too)
        masked, tinted, sharp = diff.copy(), tint.copy(), detail.copy()
        for x, y in kept:
            for m in (masked, tinted, sharp):
                cv2.circle(m, (round(x), round(y)), round(0.7 * d), 0.0, -1)
        again = cv2.filter2D(masked, -1, kernel, borderType=cv2.BORDER_REFLECT) / grain
        tints = cv2.filter2D(tinted, -1, kernel, borderType=cv2.BORDER_REFLECT) / tint_grain
        details = cv2.filter2D(sharp, -1, kernel, borderType=cv2.BORDER_REFLECT) / detail_grain
        new = [c for c in _places(again, tints, details)  # pushed off the mask a little
               if all(np.hypot(c[0] - u, c[1] - v) >= SAME * d for u, v in kept)]
        if new:
            things += look.judge(np.array(new), again, tints, kept, beside=True)
    return things


def _tint(view: np.ndarray, table: np.ndarray) -> np.ndarray:
    """How far each pixel's colour (CIELAB a*, b*: its hue and saturation, not its
    brightness) is from the table's, or from the table's paler as it is brighter or darker
    (glare's white veil or a shadow mixed in): a wooden table's grain, its shadows and
    glare change its brightness and saturation, not its hue, where a counter differs in
    hue."""
    lab = cv2.cvtColor(view, cv2.COLOR_BGR2LAB).astype(np.float32)
    under = cv2.cvtColor(table, cv2.COLOR_BGR2LAB).astype(np.float32)
    a, b = lab[..., 1:] - 128.0, under[..., 1:] - 128.0
    # glare mixes white in, a shadow black: paler as much as brighter or darker
    # (GLARE_SLACK to spare)
    lift = lab[..., 0] - under[..., 0]
    veil = np.clip(GLARE_SLACK * np.abs(lift) / np.maximum(
        np.where(lift > 0, 255.0 - under[..., 0], under[..., 0]), 1.0), 0.0, 1.0)
    along = np.clip((a * b).sum(axis=2) / np.maximum((b * b).sum(axis=2), 1.0),
                    1.0 - veil, 1.0)
    return np.sqrt(((a - along[..., None] * b) ** 2).sum(axis=2))


def _detail(view: np.ndarray) -> np.ndarray:
    """Each pixel's fine detail: how far it is from the view blurred by DETAIL_BLUR (summed
    over the colours). A counter's print and rim are sharp; a table's grain, glare and
    shadows are smooth."""
    v = view.astype(np.float32)
    return np.abs(v - cv2.GaussianBlur(v, (0, 0), DETAIL_BLUR)).sum(axis=2)


def _places(stands: np.ndarray, tints: np.ndarray, details: np.ndarray | None = None
            ) -> np.ndarray:
    """Where counters may lie: discs standing out from the table (DETECT times its grain),
    discs of another hue (TINT_DETECT times the table's own) and discs of sharp detail
    (DETAIL_DETECT times the table's own), each counted once (a place of a later cue within
    SAME_PLACE diameters of one taken already is it)."""
    d = WORK_COUNTER
    places = _peaks(stands, DETECT, 0.8 * d)
    for use, cover, least in ((USE_TINT, tints, TINT_DETECT),
                              (USE_DETAIL and details is not None, details, DETAIL_DETECT)):
        if not use:
            continue
        more = [c for c in _peaks(cover, least, 0.8 * d)
                if all(np.hypot(c[0] - u, c[1] - v) >= SAME_PLACE * d for u, v in places)]
        places = np.concatenate([places, np.array(more, np.float64).reshape(-1, 2)])
    return places


def _ring_places(glade: GladeModel, prepared: np.ndarray, size: tuple[int, int]
                 ) -> np.ndarray:
    """Places (x, y, working px) where some face's ring means fit within RING_FIT
    (:meth:`glade_rings.RingFaces.fits` at half the working scale, on the fine view as
    the faces are matched on it, ``prepared``), the closest first, 0.8 diameters apart:
    a counter of the table's own brightness and hue whose print is blurred stands out in
    none of the other cues. ``size``: the working view (h, w)."""
    h, w = size
    small = cv2.resize(prepared, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    fits = glade.rings.fits(small)
    return 2 * _peaks(-fits, -RING_FIT, 0.4 * WORK_COUNTER) + 0.5


@dataclass
class _Look:
    """What naming the things in one store view needs."""

    glade: GladeModel
    size: tuple[int, int]            # the working view (h, w)
    fine: np.ndarray                 # the fine view, prepared for glade_polar
    smooth: np.ndarray               # the working view as photographed, smoothed (a print's
    #                                  spread in the photo's own grey levels: the light's
    #                                  gain divided out would swell a dim table's grain)
    grad: np.ndarray                 # its colour gradient
    level: float                     # the table's gradient (median)
    scale: float
    box: tuple[float, float, float, float]
    sharp: np.ndarray                # each pixel's fine detail over the table's (median)
    grad_x: np.ndarray               # the smoothed view's gradient across, colour by colour
    grad_y: np.ndarray               # ... and down (a rim's direction: :func:`_rim`)
    doubts: list[tuple[float, float]] = field(default_factory=list)  # unnamed things kept
    dropped: list[StoreThing] = field(default_factory=list)  # places set aside as nothing

    def _detail(self, x: float, y: float, kept: list[tuple[float, float]]) -> float:
        """The fine detail over a counter's disc at (x, y), over the table's own, leaving
        out what lies within NEIGHBOUR diameters of a thing kept (a touching counter's rim
        is sharp too)."""
        d = WORK_COUNTER
        r = d / 2 - 2
        h, w = self.sharp.shape
        x0, x1 = max(int(x - r), 0), min(int(x + r) + 2, w)
        y0, y1 = max(int(y - r), 0), min(int(y + r) + 2, h)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        yy, xx = np.mgrid[y0:y1, x0:x1]
        inside = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
        for u, v in kept:
            inside &= (xx - u) ** 2 + (yy - v) ** 2 > (NEIGHBOUR * d) ** 2
        if inside.sum() < 0.3 * np.pi * r * r:
            return 0.0
        return float(self.sharp[y0:y1, x0:x1][inside].mean())

    def _by_doubt(self, x: float, y: float) -> bool:
        """Whether a place of the second look lies beside an unnamed thing (a die or a
        book larger than a counter is one thing, not one a counter's width on)."""
        return any(np.hypot(x - u, y - v) < 1.5 * WORK_COUNTER for u, v in self.doubts)

    def judge(self, centres: np.ndarray, stands: np.ndarray, tints: np.ndarray,
              kept: list[tuple[float, float]], beside: bool = False, ring: bool = False
              ) -> list[StoreThing]:
        """The things at ``centres`` (working px), the clearest first: a place that lies on
        a thing already kept (its edge, or a point between two touching counters) is that
        thing, not another. ``kept`` gains the places of the things returned. ``beside``:
        the second look, where only a whole counter's width from what was kept counts, and
        what is not named counts only if its drawing is a counter's (what is left of a
        thing's edge once it is masked is no new thing). ``ring``: places of the ring cue
        alone (:func:`_ring_places`), kept only when named with a fit within RING_NAME_FIT
        (the table's grain there fits a face's ring means, and may fit its face loosely)."""
        d = WORK_COUNTER
        apart = (BESIDE if beside else SAME) * d
        glade = self.glade
        found = [glade.polar.match(self.fine, (2 * cx + 0.5, 2 * cy + 0.5))
                 for cx, cy in centres]
        out = []
        for i in np.argsort([float(f.distances.min()) for f in found]):
            f = found[int(i)]
            x, y = (f.at[0] - 0.5) / 2, (f.at[1] - 0.5) / 2
            if not (0 <= x < self.size[1] and 0 <= y < self.size[0]):
                continue  # it lies beyond the store's edge
            if any(np.hypot(x - u, y - v) < apart for u, v in kept):
                continue
            if ring and float(f.distances.min()) > RING_NAME_FIT:
                continue  # no face fits closely enough to name it: nothing, as below
            cx, cy = centres[int(i)]
            at = (round(cy), round(cx))
            thing, named = self._describe(f, float(stands[at]), float(tints[at]),
                                          self._detail(x, y, kept))
            if ring:
                if not (named and thing.distances["fit"] <= RING_NAME_FIT):
                    continue  # as before the ring cue: no place of another cue, no thing
                thing.distances["ring"] = 1
            if named:
                thing.reason = ""
            elif (thing.distances["shape"] <= SURE_SHAPE
                  or ((_printed(thing) or _tinted(thing) or _detailed(thing)
                       or not _surely_table(thing))
                      and not (beside and self._by_doubt(x, y)))
                  or (not beside and self._a_thing(thing))):
                # what its outline shows, for the rules that set a would-be doubt aside
                thing.distances["rim"] = round(_rim(self.grad_x, self.grad_y, (x, y)), 3)
                thing.distances["one_way"] = round(
                    _one_way(self.grad_x, self.grad_y, (x, y)), 3)
                veiled = self._unveil(f, stands, tints, kept, apart) if USE_UNVEIL else None
                if veiled is not None:
                    thing, (x, y) = veiled
                elif why := ("glare" if _glare(thing) else "bland" if _bland(thing)
                             else "no rim" if _rimless(thing)
                             else "streaks" if _streaky(thing) else ""):
                    self._drop(thing, why)
                    continue  # a glare spot, or the table's own: of its hue, smooth,
                    # with no counter's round rim, or streaked one way
                else:
                    thing.name, thing.match = None, None
                    self.doubts.append((x, y))
            else:
                self._drop(thing, "beside" if beside else "grain")
                continue  # the table's own grain, glare or a shadow: nothing lies there
            kept.append((x, y))
            out.append(thing)
        return out

    def _drop(self, thing: StoreThing, why: str) -> None:
        """Keep a place set aside as nothing, with why (for the benchmark's --show)."""
        thing.reason = f"nothing: {why}"
        self.dropped.append(thing)

    def _unveil(self, f: Any, stands: np.ndarray, tints: np.ndarray,
                kept: list[tuple[float, float]], apart: float
                ) -> tuple[StoreThing, tuple[float, float]] | None:
        """A thing that would be a doubt, looked at again as a counter under glare
        (:meth:`glade_polar.PolarFaces.match_unveiled`: a glare spot's grey left out, the
        centre sought further round): the counter found, named by the strict rules (fit
        within UNVEIL_FIT by NAME_MARGIN, its drawing a counter's), with where it lies
        (working px); or None."""
        g = self.glade.polar.match_unveiled(self.fine, f.at)
        x, y = (g.at[0] - 0.5) / 2, (g.at[1] - 0.5) / 2
        if not (0 <= x < self.size[1] and 0 <= y < self.size[0]):
            return None
        if any(np.hypot(x - u, y - v) < apart for u, v in kept):
            return None
        at = (min(round(y), self.size[0] - 1), min(round(x), self.size[1] - 1))
        thing, named = self._describe(g, float(stands[at]), float(tints[at]),
                                      self._detail(x, y, kept), strict=True)
        thing.distances["unveiled"] = 1
        if not named:
            return None
        thing.reason = ""
        return thing, (x, y)

    def _describe(self, f: Any, level: float, tint: float, detail: float,
                  strict: bool = False) -> tuple[StoreThing, bool]:
        """The thing matched by ``f`` (a :class:`~glade_polar.PolarMatch`; ``level``: how
        far it stands out from the table) with its scores, and whether it is named: its
        best face fits within MAX_FIT and clearly better than the next (NAME_MARGIN, or
        CLOSE_MARGIN within CLOSE_FIT), its drawing within NAME_SHAPE (within LOOSE_SHAPE,
        or with an outline)."""
        glade = self.glade
        x, y = (f.at[0] - 0.5) / 2, (f.at[1] - 0.5) / 2
        row = f.distances
        order = np.argsort(row)
        d1 = float(row[order[0]])
        d2 = float(row[order[1]]) if len(order) > 1 else float("inf")
        margin = (d2 - d1) / max(d1 + d2, 1e-9)
        best, second = int(order[0]), int(order[1]) if len(order) > 1 else int(order[0])
        spread = float(_spread(self.smooth, np.array([[x, y]]))[0])
        edge = _ring_edge(self.grad, np.array([x, y]), WORK_COUNTER / 2) / self.level
        thing = StoreThing(
            (self.box[0] + x / self.scale, self.box[1] + y / self.scale),
            glade.face_names[best], glade.face_matches[best],
            reason=("matches no counter enrolled" if d1 > MAX_FIT else
                    f"{glade.face_names[best]} or {glade.face_names[second]}?"),
            distances={"fit": round(d1, 4), "margin": round(margin, 3),
                       "second": glade.face_names[second],
                       "shape": round(float(f.shapes.min()), 3), "spread": round(spread, 1),
                       "stands": round(level, 2), "edge": round(edge, 2),
                       "tint": round(tint, 2), "detail": round(detail, 2)},
            candidates=(_face(glade, best), _face(glade, second)) if d1 <= MAX_FIT else ())
        if strict:
            return thing, (d1 <= UNVEIL_FIT and margin >= NAME_MARGIN and tint >= TINT_THING
                           and thing.distances["shape"] <= LOOSE_SHAPE
                           and self._colours_hold(f, best, thing))
        named = ((d1 <= MAX_FIT and margin >= NAME_MARGIN)
                 or (d1 <= CLOSE_FIT and margin >= CLOSE_MARGIN))
        if USE_PAIR and not named and d1 <= MAX_FIT:
            between = glade.polar.pair(self.fine, f.at, best, second)
            thing.distances["pair"] = round(between, 3)
            named = between >= PAIR_LINEAR
            if (USE_PAIR_OTHER and between <= -PAIR_OTHER and d2 <= MAX_FIT
                    and _drawn(d2, margin, thing.distances["shape"], edge, tint)):
                thing.name, thing.match = glade.face_names[second], glade.face_matches[second]
                thing.distances["fit"], thing.distances["second"] = (
                    round(d2, 4), glade.face_names[best])
                return thing, self._colours_hold(f, second, thing)
        return thing, (named and _drawn(d1, margin, thing.distances["shape"], edge, tint)
                       and self._colours_hold(f, best, thing))

    def _colours_hold(self, f: Any, k: int, thing: StoreThing) -> bool:
        """Whether face ``k``, about to be named for the place matched by ``f``, is the
        counter by its own colours too (USE_COLOUR_CHECK): when another face's drawing
        (colours aside, :attr:`~glade_polar.PolarMatch.shapes`) fits clearly better than
        its own (COLOUR_RIVAL times), the colours chose ``k`` against the drawing, as a
        counter faded or washed towards the table's colour has them chose its look-alike
        (the table's colour, one constant a channel, weighs in the whole comparison as
        much as the faded counter's own colours); the two are then compared where they
        differ with each channel's mean left out (:meth:`~glade_polar.PolarFaces.pair`,
        ``colour``), and ``k`` is named only when that says it clearly (PAIR_LINEAR) and
        its own drawing passes the drawing's tests (USE_OWN_DRAWING). Otherwise the place
        is a "which counter?" doubt, never its look-alike named."""
        shapes = f.shapes
        own = float(shapes[k])
        thing.distances["own_shape"] = round(own, 3)
        j = int(np.argmin(shapes))
        if not USE_COLOUR_CHECK or j == k or own <= COLOUR_RIVAL * float(shapes[j]):
            return True
        names = self.glade.face_names
        between = self.glade.polar.pair(self.fine, f.at, k, j, colour=True)
        thing.distances["colour_pair"] = round(between, 3)
        thing.distances["rival"] = names[j]
        s = thing.distances
        if between >= PAIR_LINEAR and (not USE_OWN_DRAWING or _drawn(
                s["fit"], s["margin"], own, s["edge"], s["tint"])):
            return True
        thing.reason = f"{names[k]} or {names[j]}?"
        thing.candidates = (_face(self.glade, k), _face(self.glade, j))
        return False

    @staticmethod
    def _a_thing(thing: StoreThing) -> bool:
        """Whether an unnamed place of the first look is a thing (a doubt), not the
        table's grain, glare or a shadow."""
        s = thing.distances
        return ((s["fit"] <= FAINT_FIT
                 and (s["margin"] >= FAINT_MARGIN
                      or (USE_FAINT_PAIR and abs(s.get("pair", 0.0)) >= PAIR_CLEAR))
                 and (s["shape"] <= FAINT_SHAPE
                      or (s["fit"] <= FAINT_CLOSE and s["shape"] <= FAINT_LOOSEST)))
                or (s["shape"] <= THING_SHAPE and s["edge"] >= OUTLINE)
                or s["edge"] >= THING_EDGE or s["spread"] >= THING_SPREAD
                or _faint_outline(thing))


def _face(glade: GladeModel, k: int) -> str | dict[str, Any]:
    """Face ``k`` as the result names it: a counter's name, or a match counter's fields."""
    match = glade.face_matches[k]
    return dict(match) if match is not None else glade.face_names[k]


def _faint_outline(thing: StoreThing) -> bool:
    """Whether an unnamed faint place keeps some of a counter's outline and sharp print
    where a face fits closely (USE_FAINT_OUTLINE): a counter faded towards the table, a
    doubt, where the table's grain fitting a plain face as closely has not both."""
    s = thing.distances
    return (USE_FAINT_OUTLINE and s["fit"] <= FAINT_OUTLINE_FIT
            and s["margin"] >= FAINT_OUTLINE_MARGIN
            and s.get("shape", np.inf) <= FAINT_OUTLINE_SHAPE
            and s.get("edge", 0.0) >= FAINT_EDGE and s.get("detail", 0.0) >= FAINT_DETAIL
            and s.get("spread", np.inf) < TABLE_SPREAD
            and s.get("stands", np.inf) < TABLE_STANDS)


def _drawn(fit: float, margin: float, shape: float, edge: float, tint: float) -> bool:
    """Whether a counter's drawing shows where a face fits (``fit`` by ``margin``; the
    drawing's fit ``shape``, colours aside; the outline ``edge``; the hue's difference from
    the table ``tint``): within NAME_SHAPE, and within LOOSE_SHAPE or with an outline
    (LOOSE_EDGE), or with a very close fit (LOOSE_FIT) by a clear margin on a patch of
    another hue than the table's (TINT_THING)."""
    return shape <= NAME_SHAPE and (
        shape <= LOOSE_SHAPE or edge >= LOOSE_EDGE
        or (fit <= LOOSE_FIT and margin >= NAME_MARGIN and tint >= TINT_THING))


def _surely_table(thing: StoreThing) -> bool:
    """Whether an unnamed place that none of the other rules makes a thing is surely the
    table's own (USE_SURE_TABLE; off: every such place is): it lacks a hue of its own
    (below TABLE_TINT times the table's hue grain) or a sharp print or rim (below
    TABLE_DETAIL times the table's detail, or not measured), or it is no faint place (its
    grey levels spread TABLE_SPREAD or more, or it stands out TABLE_STANDS times the
    table's grain: the table's streaks, a shadow, the board's edge, which no other rule
    took), and no naming was refused there for its colours alone
    (:meth:`_Look._colours_hold`). A faint place with both a hue and a sharp detail of its
    own, found and not named, is a doubt, never nothing: counters faded towards the table
    were left out silently."""
    s = thing.distances
    if not USE_SURE_TABLE:
        return True
    detail = s.get("detail", 0.0)
    if (USE_PRINT_ALONE and s.get("fit", np.inf) <= FAINT_FIT
            and s["spread"] < TABLE_SPREAD and s["stands"] < TABLE_STANDS
            and (detail >= PRINT_SHARP
                 or (detail >= PRINT_ALONE and s.get("shape", np.inf) <= FAINT_LOOSEST))):
        return False  # a counter's sharp print (and drawing), its hue faded away
    return (s["tint"] < TABLE_TINT or detail < TABLE_DETAIL
            or s["spread"] >= TABLE_SPREAD or s["stands"] >= TABLE_STANDS) and (
        "colour_pair" not in s)


def _glare(thing: StoreThing) -> bool:
    """Whether an unnamed place is a glare spot (USE_GLARE): it stands out from the table
    strongly (GLARE_STANDS) yet differs from it in hardly any hue (GLARE_HUE) and has no
    sharp print or rim (GLARE_DETAIL)."""
    s = thing.distances
    return (USE_GLARE and s["stands"] >= GLARE_STANDS and s["tint"] < GLARE_HUE
            and s.get("detail", 0.0) < GLARE_DETAIL)


def _rimless(thing: StoreThing) -> bool:
    """Whether an unnamed place shows no counter's round rim (USE_RIM): its rim's radial
    share (``rim``, :func:`_rim`) no more than the table's grain gives, with no clear sign
    of a thing; or a little more, with no hue of its own and hardly any sharp detail."""
    s = thing.distances
    rim = s.get("rim", 1.0)
    if not USE_RIM or s["shape"] <= SURE_SHAPE:
        return False
    return ((rim < NO_RIM and not _tinted(thing) and not _detailed(thing))
            or (rim < WEAK_RIM and s["tint"] < GLARE_TINT
                and s.get("detail", 0.0) < RIMLESS_DETAIL))


def _streaky(thing: StoreThing) -> bool:
    """Whether an unnamed place's edges run one way (USE_STREAKS: ``one_way``, see
    :func:`_one_way`, of STREAKS or more) with no clear sign of a thing: the table's
    streaks, the board's edge or a shadow's."""
    s = thing.distances
    return (USE_STREAKS and s.get("one_way", 0.0) >= STREAKS and s["shape"] > SURE_SHAPE
            and not _tinted(thing) and not _detailed(thing))


def _bland(thing: StoreThing) -> bool:
    """Whether an unnamed place is the table's own (USE_BLAND): it fits no face (beyond
    MAX_FIT), has no hue of its own (BLAND_TINT), no sharp print or rim (its detail measured
    and below BLAND_DETAIL, or GLARE_DETAIL with no hue at all: BLAND_HUELESS) and no
    counter's drawing (beyond BLAND_SHAPE, colours aside)."""
    s = thing.distances
    detail = s.get("detail", 0.0)
    hueless = BLAND_HUELESS and s["tint"] < GLARE_TINT
    return (USE_BLAND and s["fit"] > MAX_FIT and s["tint"] < BLAND_TINT
            and 0.0 < detail < (GLARE_DETAIL if hueless else BLAND_DETAIL)
            and s["shape"] > BLAND_SHAPE)


def _printed(thing: StoreThing) -> bool:
    """Whether an unnamed place has both a print (PRINT_SPREAD) and an outline
    (PRINT_EDGE), though neither alone is clear: a counter veiled by glare or wedged
    between two, in either look."""
    s = thing.distances
    return s["spread"] >= PRINT_SPREAD and s["edge"] >= PRINT_EDGE


def _tinted(thing: StoreThing) -> bool:
    """Whether an unnamed place differs from the table in hue (TINT_THING times its own
    grain) as only a thing lying there does, in either look: a counter of the table's
    brightness on a streaky table shows little outline or print, and may fit no face."""
    return USE_TINT and thing.distances["tint"] >= TINT_THING


def _detailed(thing: StoreThing) -> bool:
    """Whether an unnamed place has the sharp detail (DETAIL_THING times the table's own)
    of a counter's print and rim, in either look: a counter of the table's brightness and
    hue may stand out in nothing else."""
    return USE_DETAIL and thing.distances.get("detail", 0.0) >= DETAIL_THING


def _disc_kernel(d: int) -> np.ndarray:
    """A disc a little inside a counter's outline, summing to 1."""
    kernel = np.zeros((d, d), np.float32)
    cv2.circle(kernel, (d // 2, d // 2), d // 2 - 2, 1.0, -1)
    return kernel / kernel.sum()


def _spread(view: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The spread (grey levels, channel by channel) of each disc patch at ``at``: a
    counter's print has some."""
    from companion.the_glade.recognition.glade_model import INSET, PATCH
    from companion.vision.patches import cut_many

    patches = cut_many(view, at, np.zeros(len(at)), WORK_COUNTER * INSET, PATCH)
    return patches.reshape(len(at), -1, 3)[:, disc()].std(axis=1).mean(axis=1)


def _ring_edge(grad: np.ndarray, centre: np.ndarray, radius: float) -> float:
    """The mean gradient on a circle of ``radius`` round ``centre`` (a counter's outline)."""
    a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    best = 0.0
    for r in (radius - 1.5, radius - 0.5, radius + 0.5):
        xs = np.clip(np.round(centre[0] + r * np.cos(a)).astype(int), 0, grad.shape[1] - 1)
        ys = np.clip(np.round(centre[1] + r * np.sin(a)).astype(int), 0, grad.shape[0] - 1)
        best = max(best, float(grad[ys, xs].mean()))
    return best


def colour_gradients(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The view's gradient across and down, colour by colour, a little smoothed (what a
    place's outline is measured on: :func:`_ring_edge`, :func:`_rim`, :func:`_one_way`)."""
    sm = cv2.GaussianBlur(view.astype(np.float32), (0, 0), 1.0)
    return cv2.Sobel(sm, cv2.CV_32F, 1, 0), cv2.Sobel(sm, cv2.CV_32F, 0, 1)


def _rim(grad_x: np.ndarray, grad_y: np.ndarray, centre: tuple[float, float]) -> float:
    """How round the outline is on a ring of a counter's radius round ``centre`` (working
    px): the share of the colour gradient that runs across the ring (radially), taking at
    each of 48 angles the radius (as :func:`_ring_edge`) where it runs most across. A
    counter's rim gives 0.8-0.95 mostly (0.65 at least on the tuning photos); the table's
    grain, streaks or a plain patch about 0.5 (a little more, as the best of three radii
    is taken)."""
    a = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    cos, sin = np.cos(a), np.sin(a)
    h, w = grad_x.shape[:2]
    across = np.zeros(48)
    along = np.zeros(48)
    radius = WORK_COUNTER / 2
    for r in (radius - 1.5, radius - 0.5, radius + 0.5):
        xs = np.clip(np.round(centre[0] + r * cos).astype(int), 0, w - 1)
        ys = np.clip(np.round(centre[1] + r * sin).astype(int), 0, h - 1)
        gx, gy = grad_x[ys, xs], grad_y[ys, xs]
        radial = np.abs(gx * cos[:, None] + gy * sin[:, None]).sum(axis=1)
        tangent = np.abs(gy * cos[:, None] - gx * sin[:, None]).sum(axis=1)
        more = radial > across
        across = np.where(more, radial, across)
        along = np.where(more, tangent, along)
    total = float(across.sum() + along.sum())
    return float(across.sum()) / total if total > 1e-6 else 0.5


def _one_way(grad_x: np.ndarray, grad_y: np.ndarray, centre: tuple[float, float]) -> float:
    """How much the colour gradient over a counter's disc round ``centre`` (working px, a
    pixel beyond the rim) runs one way: the coherence of its structure tensor, 0 when
    edges run every way (a counter's print and round rim), 1 when they all run one way
    (a table's streaks, a straight edge)."""
    radius = WORK_COUNTER / 2 + 1
    h, w = grad_x.shape[:2]
    x0, x1 = max(int(centre[0] - radius), 0), min(int(centre[0] + radius) + 2, w)
    y0, y1 = max(int(centre[1] - radius), 0), min(int(centre[1] + radius) + 2, h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    yy, xx = np.mgrid[y0:y1, x0:x1]
    inside = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 <= radius * radius
    gx, gy = grad_x[y0:y1, x0:x1][inside], grad_y[y0:y1, x0:x1][inside]
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    trace = jxx + jyy
    return float(np.hypot(jxx - jyy, 2 * jxy) / trace) if trace > 1e-6 else 0.0


def _peaks(cover: np.ndarray, least: float, apart: float) -> np.ndarray:
    """Centres (x, y) of discs: the highest cover first, each at least ``apart`` from those
    taken before."""
    local = cover >= cv2.dilate(cover, np.ones((5, 5), np.uint8))
    ys, xs = np.nonzero(local & (cover >= least))
    order = np.argsort(-cover[ys, xs])
    taken: list[tuple[float, float]] = []
    for i in order:
        x, y = float(xs[i]), float(ys[i])
        if all((x - u) ** 2 + (y - v) ** 2 >= apart * apart for u, v in taken):
            taken.append((x, y))
    return np.array(taken, np.float64).reshape(-1, 2)


def disc_pixels() -> np.ndarray:
    """The disc mask used by the store's counter patches (for tests)."""
    return disc()


def store_fields(glade: GladeModel | Path, model: Any, reading: Any, photo: np.ndarray
                 ) -> dict[str, Any]:
    """The spec's store fields for a forest scan (hook of ``jobs.scan``): ``glade`` is the
    glade model, or the model folder to load it from; ``model`` is the forest model,
    ``reading`` its :class:`~reader.BoardReading` of ``photo``. Empty when the model folder
    has no glade model (enrolled before stores were read) or the store is not wholly in the
    photo. A caller reading several photos passes the glade model loaded once: the faces'
    forms for any turn (:attr:`GladeModel.polar`, :attr:`GladeModel.rings`) are made once
    per loaded model, about 0.1 s of CPU."""
    found = scan_store(glade, model, reading, photo)
    return {} if found is None else found[0].result(found[1])


def scan_store(glade: GladeModel | Path, model: Any, reading: Any, photo: np.ndarray
               ) -> tuple[StoreReading, bool] | None:
    """The store beside the forest board of ``reading`` (see :func:`store_fields`), and
    whether its result reads match counters; None when there is no glade model. The
    reading's things are what the overlay draws."""
    from companion.the_glade.recognition.glade_model import load_glade_model

    if not isinstance(glade, GladeModel):
        glade = load_glade_model(Path(glade))
    if glade is None or not glade.face_names:
        return None
    board = reading.board
    g = board.grid
    size = board.finder.size
    hm = reading.located.homography
    view, working = border_views(photo, hm, g, size, board.working)
    found = read_store(glade, size, model.counter_size * g.cell, hm, photo, view, working)
    return found, glade.has_matches


def border_views(photo: np.ndarray, homography: np.ndarray, grid: Any,
                 size: tuple[int, int], working: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The forest board's border (outside its squares) as photographed and as enrolled
    (``working``: the empty board at CELL_PX a square), aligned, black elsewhere: what
    the photo's light is measured on for the store (:func:`read_store`)."""
    from companion.the_glade.recognition.model import CELL_PX

    s = CELL_PX / grid.cell
    view, _ = rectify(photo, homography, s, (0, 0, size[0], size[1]), 1)
    working = working[:view.shape[0], :view.shape[1]]
    view = view[:working.shape[0], :working.shape[1]]
    border = np.ones(view.shape[:2], bool)
    border[int(grid.top * s):int((grid.top + grid.rows * grid.cell) * s),
           int(grid.left * s):int((grid.left + grid.cols * grid.cell) * s)] = False
    return (np.where(border[..., None], view, 0).astype(np.uint8),
            np.where(border[..., None], working, 0).astype(np.uint8))
