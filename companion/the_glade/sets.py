"""Sets of forest tiles: what makes 1-4 tiles a set, and what a set of 3 is missing.

Rulebook, "Sets of Tiles": a set is 1-4 tiles that have at least 1 shared characteristic and
whose other characteristics are either all the same or all different.

>>> from companion.the_glade.names import Tile
>>> hedgehogs = [Tile.parse(t) for t in
...              ("hedgehog/acorn/beech", "hedgehog/blackberry/maple", "hedgehog/mushroom/oak")]
>>> is_set(hedgehogs), shared_count(hedgehogs)
(True, 1)
>>> missing_tile(hedgehogs)
Tile('hedgehog/hazelnut/horse-chestnut')
>>> side_for(hedgehogs)
'single'
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Sequence

from companion.the_glade.names import CREATURES, FRUITS, LEAF_COLOURS, LEAVES, Side, Tile

#: The three characteristics in the spec's order, with every value each can take.
TRAITS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("creature", CREATURES), ("fruit", FRUITS), ("leaf", LEAVES))

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")
_FRUIT_PLURALS = {"acorn": "acorns", "blackberry": "blackberries", "hazelnut": "hazelnuts",
                  "mushroom": "mushrooms"}


def count_word(n: int) -> str:
    """``3`` -> ``"three"`` (players read sentences, not digits)."""
    return _COUNT_WORDS[n] if 0 <= n < len(_COUNT_WORDS) else str(n)


def _trait_kinds(tiles: Sequence[Tile]) -> list[str]:
    """For each trait: ``same``, ``different`` or ``mixed`` (neither)."""
    kinds = []
    for i in range(3):
        values = {t.traits[i] for t in tiles}
        if len(values) == 1:
            kinds.append("same")
        elif len(values) == len(tiles):
            kinds.append("different")
        else:
            kinds.append("mixed")
    return kinds


def shared_count(tiles: Sequence[Tile]) -> int:
    """How many characteristics all the tiles share (0-3).

    A set of 3 or 4 shares 1 or 2; only an identical pair shares all 3.
    """
    return sum(1 for i in range(3) if len({t.traits[i] for t in tiles}) == 1)


def is_set(tiles: Sequence[Tile]) -> bool:
    """True when the tiles (in any order) form a set.

    Choice: three or more tiles sharing all three characteristics are *not* a set. The box
    holds only 2 copies of each tile, so such a line cannot exist, and the rulebook says an
    identical pair "can never grow" (no third or fourth tile can join it).
    """
    n = len(tiles)
    if n == 0 or n > 4:
        return False
    if n == 1:
        return True
    kinds = _trait_kinds(tiles)
    if "mixed" in kinds or "same" not in kinds:
        return False
    return not (n >= 3 and kinds.count("same") == 3)


def could_grow(tiles: Sequence[Tile]) -> bool:
    """True when the tiles are consistent so far: every trait all same or all different.

    A necessary condition for being part of a set; the coach uses it to prune its search.
    """
    for i in range(3):
        values = [t.traits[i] for t in tiles]
        distinct = len(set(values))
        if distinct != 1 and distinct != len(values):
            return False
    return True


def is_identical_pair(tiles: Sequence[Tile]) -> bool:
    """Two identical tiles: a set, but one that can never grow."""
    return len(tiles) == 2 and tiles[0] == tiles[1]


def missing_tile(three: Sequence[Tile]) -> Tile:
    """The one tile that turns this set of 3 into a set of 4 (the glade space to mark).

    Each shared characteristic keeps its value; each all-different one takes the fourth value.
    """
    if len(three) != 3 or not is_set(three):
        raise ValueError(f"{list(three)} is not a set of 3")
    parts = []
    for i, (_name, values) in enumerate(TRAITS):
        seen = {t.traits[i] for t in three}
        if len(seen) == 1:
            parts.append(next(iter(seen)))
        else:
            parts.append(next(v for v in values if v not in seen))
    return Tile(*parts)


def side_for(three: Sequence[Tile]) -> Side:
    """Single for a set with 1 shared characteristic, double for 2 (sets of 3 and of 4)."""
    return "double" if shared_count(three) >= 2 else "single"


def shared_names(tiles: Sequence[Tile]) -> list[str]:
    """The shared characteristics in words, e.g. ``["hedgehog", "oak leaf"]``."""
    names = []
    for i, (trait, _values) in enumerate(TRAITS):
        values = {t.traits[i] for t in tiles}
        if len(values) == 1:
            value = next(iter(values))
            names.append(f"{value} leaf" if trait == "leaf" else value)
    return names


def _plural(trait: str, value: str, n: int) -> str:
    if trait == "creature":
        return value if n == 1 else value + "s"
    if trait == "fruit":
        return value if n == 1 else _FRUIT_PLURALS[value]
    return f"{LEAF_COLOURS[value]} {'leaf' if n == 1 else 'leaves'}"


def describe_tiles(tiles: Sequence[Tile]) -> str:
    """A group of tiles as a player would name it: "three dark brown hedgehogs".

    >>> from companion.the_glade.names import Tile
    >>> describe_tiles([Tile.parse("toad/acorn/oak"), Tile.parse("toad/mushroom/oak")])
    'two dark brown toads'
    """
    n = len(tiles)
    kinds = _trait_kinds(tiles) if n > 1 else ["same", "same", "same"]
    words = [count_word(n)]
    if kinds[2] == "same":
        words.append(LEAF_COLOURS[tiles[0].leaf])
    words.append(_plural("creature", tiles[0].creature, n) if kinds[0] == "same"
                 else ("tile" if n == 1 else "tiles"))
    text = " ".join(words)
    if kinds[1] == "same":
        text += f" with {_plural('fruit', tiles[0].fruit, n)}"
    return text


def why_not_a_set(tiles: Sequence[Tile]) -> str:
    """Why these tiles are no set, in words: "three hedgehogs with two acorns".

    The text names the group (what it shares) and then what breaks it: a characteristic
    that is neither all the same nor all different, or the lack of any shared one.
    """
    n = len(tiles)
    if n > 4:
        return f"{count_word(n)} tiles long, and a set holds at most 4 tiles"
    kinds = _trait_kinds(tiles)
    base = describe_tiles(tiles)
    broken, but = [], []
    for i, (trait, _values) in enumerate(TRAITS):
        if kinds[i] != "mixed":
            continue
        tally = Tally(t.traits[i] for t in tiles)
        for value, k in tally.most_common():
            if k >= 2:
                broken.append(f"{count_word(k)} {_plural(trait, value, k)}")
                verb = "are" if trait == "creature" else "have"
                but.append(f"{count_word(k)} {verb} {_plural(trait, value, k)}")
    if broken:
        text = f"{base} with {' and '.join(broken)}"
        if kinds[1] == "same":  # "... with acorns with two ..." reads badly
            text = f"{base}, but {' and '.join(but)}"
        if n >= 3 and len(set(tiles)) < n:
            text += " (two identical tiles are a set of 2 that can never grow)"
        return text
    if "same" not in kinds:
        return f"{base} that share no characteristic (a set needs at least one)"
    if n >= 3:
        return f"{base}, all identical, and the box holds only 2 of each tile"
    return base  # pragma: no cover - every non-set is covered above
