"""Writes cards.yaml, the SAMPLE Meadow catalogue: invented cards with the box's real counts.

Not the publisher's cards. Run ``python config/games/meadow/make_sample.py`` to rebuild it
(seeded, so the file comes out the same). A user replaces it by their own transcription
(see docs/meadow.md).
"""

from __future__ import annotations

import random
from pathlib import Path

GROUND = ["litterfall", "grass", "sands", "rocks", "wetlands"]
SYMBOLS = ["worm", "bug", "bird", "tree", "paw", "larva", "flower", "mushroom", "butterfly",
           "leaf", "fish", "house"]
NAMES = {
    "ground": ["Clearing", "Hollow", "Bank", "Slope", "Glade", "Field", "Ridge", "Marsh"],
    "observation": ["Thrush", "Beetle", "Hazel", "Fox", "Moth", "Toadstool", "Heron",
                    "Orchid", "Bat", "Oak", "Snail", "Vole", "Wren", "Fern", "Trout",
                    "Barn", "Badger", "Stoat", "Ant hill", "Dragonfly", "Lichen", "Owl"],
    "landscape": ["Old bridge", "Hill path", "River ford", "Stone wall", "Lake view",
                  "Ruined mill"],
    "discovery": ["Feather", "Shell", "Acorn cup", "Old coin", "Pine cone", "Antler"],
}


def _req(rng: random.Random, kind: str) -> str:
    if kind == "ground":
        return rng.choice(GROUND)
    if kind == "slash":
        a, b = rng.sample(SYMBOLS, 2)
        return f"{a}/{b}"
    return rng.choice(SYMBOLS)


def observation(rng: random.Random, cid: str, deck: str, env: str | None,
                grounds: list[str], extra: list[str] | None = None) -> str:
    n = rng.choices([1, 2, 3], [4, 4, 2])[0]
    reqs: list[str] = []
    for _ in range(n):
        kind = rng.choices(["symbol", "ground", "slash"], [6, 3, 2])[0]
        r = rng.choice(grounds) if kind == "ground" else _req(rng, kind)
        reqs.append(r)
    if rng.random() < 0.12:
        i = rng.randrange(n)
        if reqs[i] not in GROUND:
            reqs[i] = f"<{reqs[i]}>"
    if len(set(reqs)) < len(reqs) and rng.random() < 0.5:
        reqs = list(dict.fromkeys(reqs))
    symbols = extra if extra is not None else rng.choices(
        [[], [rng.choice(SYMBOLS)], rng.sample(SYMBOLS, 2)], [1, 7, 2])[0]
    points = max(0, len(reqs) + rng.choice([-1, 0, 0, 1, 1, 2]) - len(symbols) // 2)
    name = rng.choice(NAMES["observation"])
    return (f"  - {{id: {cid}, name: {name}, deck: {deck}, type: observation, points: {points}, "
            f"symbols: [{', '.join(symbols)}], requires: [{', '.join(_q(r) for r in reqs)}]"
            f"{_env(env)}}}")


def _q(text: str) -> str:
    return f'"{text}"' if text.startswith("<") else text


def _env(env: str | None) -> str:
    return f", envelope: {env}" if env else ""


def ground(rng: random.Random, cid: str, deck: str, env: str | None,
           grounds: list[str]) -> str:
    symbols = rng.choices([[], [rng.choice(SYMBOLS)]], [2, 3])[0]
    return (f"  - {{id: {cid}, name: {rng.choice(NAMES['ground'])}, deck: {deck}, "
            f"type: ground, points: {rng.choice([0, 0, 1])}, ground: {rng.choice(grounds)}, "
            f"symbols: [{', '.join(symbols)}]{_env(env)}}}")


def landscape(rng: random.Random, cid: str, deck: str, env: str | None) -> str:
    reqs = ["road", *rng.sample(SYMBOLS + GROUND, rng.choice([0, 1, 1, 2]))]
    return (f"  - {{id: {cid}, name: {rng.choice(NAMES['landscape'])}, deck: {deck}, "
            f"type: landscape, points: {len(reqs) + rng.choice([0, 1])}, symbols: [road], "
            f"requires: [{', '.join(reqs)}]{_env(env)}}}")


def discovery(rng: random.Random, cid: str, deck: str, env: str | None) -> str:
    reqs = ["discovery", *rng.sample(SYMBOLS, rng.choice([0, 1, 1, 2]))]
    return (f"  - {{id: {cid}, name: {rng.choice(NAMES['discovery'])}, deck: {deck}, "
            f"type: discovery, points: {len(reqs) + 1 + rng.choice([0, 1])}, "
            f"symbols: [discovery], requires: [{', '.join(reqs)}]{_env(env)}}}")


def main() -> None:
    rng = random.Random(2026)
    lines = [
        "# SAMPLE Meadow catalogue: invented cards with the box's real counts (4 decks of 45,",
        "# 4 two-sided starting ground cards, 5 envelopes of 6, 11 basic goal tokens and Big",
        "# Encounters' one). NOT the publisher's cards: transcribe your own copy from the card",
        "# booklet (docs/meadow.md). Rebuilt by make_sample.py beside this file.",
        "game: meadow",
        "sample: true",
        f"symbols: [{', '.join(SYMBOLS)}]",
        "cards:",
    ]
    for i in range(1, 5):
        for side in "ab":
            sym = rng.choice(SYMBOLS)
            lines.append(f"  - {{id: start-{i}{side}, name: Start {i}{side}, deck: start, "
                         f"other_side: start-{i}{'b' if side == 'a' else 'a'}, type: ground, "
                         f"points: 0, ground: {GROUND[(i + (side == 'b') * 2) % 5]}, "
                         f"symbols: [{sym}]}}")
    for deck in ("N", "W", "S", "E"):
        kinds = ["ground"] * 8 + ["observation"] * 28 + ["landscape"] * 6 + ["discovery"] * 3
        for n, kind in enumerate(kinds, 1):
            cid = f"{deck}{n:02d}"
            if kind == "ground":
                lines.append(ground(rng, cid, deck, None, GROUND))
            elif kind == "observation":
                lines.append(observation(rng, cid, deck, None, GROUND))
            elif kind == "landscape":
                lines.append(landscape(rng, cid, deck, None))
            else:
                lines.append(discovery(rng, cid, deck, None))
    for env in "TUWXY":
        for n in range(1, 7):
            cid, deck = f"{env}{n}", "NWSE"[(n - 1) % 4]
            grounds = ["grass", "wetlands"] if env == "T" else GROUND
            if n == 1:
                lines.append(ground(rng, cid, deck, env, grounds))
            elif env == "U" and n <= 4:
                lines.append(observation(rng, cid, deck, env, grounds, ["encounter"]))
            elif env == "U" and n == 5:
                lines.append(observation(rng, cid, deck, env, grounds, ["encounter", "paw"]))
            else:
                lines.append(observation(rng, cid, deck, env, grounds))
    goal_syms = ["worm", "bug", "bird", "tree", "paw", "flower", "mushroom", "butterfly",
                 "grass", "wetlands", "rocks"]
    lines.append("goal_tokens:")
    lines += [f"  - {{id: G{i}, symbol: {s}}}" for i, s in enumerate(goal_syms, 1)]
    lines.append("  - {id: GU, symbol: encounter, envelope: U}")
    lines.append("path_tokens:")
    for token, action in (("1", "take-card"), ("2", "take-roads"), ("3", "look-three"),
                          ("4", "play-two"), ("?", "any")):
        lines.append(f'  - {{token: "{token}", action: {action}}}')
    lines.append("campfire_boards:")
    for players, notches, benches, blocks, rounds, spots in (
            (1, 6, 1, 2, 6, 3), (2, 6, 1, 2, 6, 5), (3, 6, 1, 1, 6, 8), (4, 8, 1, 0, 8, 11)):
        pairs = ", ".join(f"[{i}, {i % spots + 1}]" for i in range(1, spots + 1))
        lines.append(f"  - {{players: {players}, notches: {notches}, benches: {benches}, "
                     f"blocks: {blocks}, rounds: {rounds}, goal_spots: {spots},")
        lines.append(f"     pairs: [{pairs}]}}")
    Path(__file__).with_name("cards.yaml").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
