"""Writes sample-catalogue.yaml: the SAMPLE Gardlings catalogue (invented tiles, NOT the
publisher's), with the rulebook's counts per back and 7 mission tiles.

Run from the checkout: ``.venv/bin/python config/games/gardlings/make_sample.py``. The tiles
are drawn from a fixed seed so the file is the same every time; edit the numbers below to
try another sample.
"""

from __future__ import annotations

import random
from pathlib import Path

COLOURS = ["blue", "green", "pink", "yellow"]
HERE = Path(__file__).resolve().parent

#: back: (count, id prefix, gem halves per square (low, high), strips, creature weights)
PLAN = {
    "piglet": (22, "P", (1, 2), 0, {"lucky-piglet": 22}),
    "green": (23, "G", (2, 2), 3, {"lucky-piglet": 3, "bird-of-paradise": 2, "unicorn": 2,
                                   "dragon": 2}),
    "blue": (23, "B", (2, 3), 6, {"lucky-piglet": 2, "gardener": 3, "mushroom-head": 2,
                                  "bird-of-paradise": 2, "unicorn": 1, "dragon": 2}),
    "pink": (17, "K", (2, 3), 6, {"lucky-piglet": 1, "gardener": 3, "mushroom-head": 3,
                                  "bird-of-paradise": 2, "unicorn": 1, "dragon": 2}),
    "gold": (15, "Y", (3, 4), 7, {"gardener": 3, "mushroom-head": 3, "bird-of-paradise": 2,
                                  "unicorn": 1, "dragon": 2}),
    "gnome": (20, "N", (1, 2), 0, {"dragon": 1}),
    "double-gnome": (10, "D", (1, 2), 0, {}),
}


def tile(rng: random.Random, tid: str, back: str, halves: tuple[int, int], strip: bool,
         creature: str | None) -> str:
    width = 2 if strip else 1
    n = 2 * (width + 1)
    k = rng.randint(*halves) + (2 if strip else 0)
    spots = sorted(rng.sample(range(n), min(k, n)))
    edges = ["empty"] * n
    for i in spots:
        edges[i] = rng.choice(COLOURS)
    creatures = [] if creature is None else [creature]
    lines = []
    if creature == "gardener":
        edges[spots[0]] = "triple-" + edges[spots[0]]
    if creature == "bird-of-paradise":
        edges[spots[-1]] = "egg"
    if creature == "mushroom-head" and len(spots) >= 3:
        lines = [[spots[0], spots[1]], [spots[1], spots[2]]]
    if back in ("gnome", "double-gnome") and creature is None:
        creatures = []
    parts = [f"id: {tid}", f"back: {back}"]
    if creatures:
        parts.append(f"creatures: [{', '.join(creatures)}]")
    if strip:
        parts.append("width: 2")
    parts.append(f"edges: [{', '.join(edges)}]")
    if lines:
        parts.append(f"lines: {lines}")
    return "  - {" + ", ".join(parts) + "}"


def main() -> None:
    rng = random.Random(2026)
    out = ["# SAMPLE Gardlings tile catalogue: invented tiles, NOT the publisher's. It has the",
           "# rulebook's counts per back (22 piglet, 23 green, 23 blue, 17 pink, 15 gold,",
           "# 20 gnome, 10 double-gnome, 1 victory) and 7 mission tiles. Transcribe your own",
           "# copy in this format (docs/gardlings.md). Made by make_sample.py beside it.",
           "sample: true",
           f"colours: [{', '.join(COLOURS)}]",
           "tiles:"]
    for back, (count, prefix, halves, strips, weights) in PLAN.items():
        pool: list[str | None] = [c for c, n in weights.items() for _ in range(n)]
        pool += [None] * (count - len(pool))
        rng.shuffle(pool)
        strip_at = set(rng.sample(range(count), strips))
        for i in range(count):
            creature = pool[i]
            strip = i in strip_at or creature == "mushroom-head"
            out.append(tile(rng, f"{prefix}{i + 1:02d}", back, halves, strip, creature))
    out.append("  - {id: V, back: victory}")
    out.append("missions:")
    missions = [
        ("X1", "{kind: shape, gems: 3, shape: ['###', '.#.']}"),
        ("X2", "{kind: shape, gems: 2, shape: ['##', '##']}"),
        ("X3", "{kind: shape, gems: 4, shape: ['####']}"),
        ("X4", "{kind: empty-joins, at_least: 3, gems: 2}"),
        ("X5", "{kind: colour-gems, colour: blue, at_least: 4, gems: 2}"),
        ("X6", "{kind: surrounded, gems: 3}"),
        ("X7", "{kind: second-draw}"),
    ]
    for mid, effect in missions:
        edges = ["empty"] * 8
        for i in rng.sample(range(8), 3):
            edges[i] = rng.choice(COLOURS)
        out.append(f"  - {{id: {mid}, width: 2, height: 2, edges: [{', '.join(edges)}],")
        out.append(f"     effect: {effect}}}")
    (HERE / "sample-catalogue.yaml").write_text("\n".join(out) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
