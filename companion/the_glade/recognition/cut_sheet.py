"""``companion cut-sheet``: tile photos for an enrolment pack from one photo of a sheet.

The tiles are found and cut by :mod:`.sheet`; this module files them into a pack:

* ``tiles/NNNN.png`` for each tile, numbered on from the pack's last one;
* one ``tiles:`` entry per tile in ``pack.yaml``, added at the end of its list as lines, so the
  user's comments and layout stay (a new pack.yaml if there is none). The entries are named
  from a names file (one ``creature/fruit/leaf season`` line per tile, in reading order) and
  checked against the game's tiles, or carry the placeholder ``FILL-IN`` for the user to
  replace, which enrolment refuses until they do;
* a contact sheet (each cut tile with its number, and its name when known) and the photo with
  each found tile outlined and numbered, to check the names by.

Nothing is written until the photo and the names agree, except the outlined photo when the
count disagrees (to show which tile was missed). Every write is atomic.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from companion.errors import CompanionError, InputFileError, ModelError, RecognitionError
from companion.report import Report
from companion.storage import atomic_write_bytes, parse_data, read_text
from companion.the_glade.names import SEASONS, Tile
from companion.the_glade.recognition.sheet import DEFAULT_SIZE, CutTile, find_tiles
from companion.vision.image import load_image

GAME = "the-glade"
#: What an entry's ``tile`` (and, without ``--season``, ``season``) says until the user names it.
PLACEHOLDER = "FILL-IN"
#: A tile narrower than this in the photo gives a soft cut: the report says to move closer.
SHARP_PX = 80

_NUMBERED = re.compile(r"^tiles/(\d+)\.png$")


# -- names ------------------------------------------------------------------------------

def read_names(path: Path, season: str | None = None) -> list[tuple[str, str]]:
    """(tile, season) for each line of a names file, in reading order.

    A line is ``creature/fruit/leaf season`` (``hedgehog/acorn/oak spring``); the season may be
    left out when ``season`` gives it. Blank lines and ``#`` comments are skipped.
    """
    path = Path(path)
    text = read_text(path, "names file", InputFileError(
        f"names file {path} is not a text file; write one line per tile like "
        "'hedgehog/acorn/oak spring'"))
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"names file {path}, line {number}"
        words = line.split()
        if len(words) > 2:
            raise InputFileError(f"{where}: {line!r} has more than a tile and a season; write "
                                 "one tile per line, like 'hedgehog/acorn/oak spring'")
        try:
            tile = str(Tile.parse(words[0]))
        except CompanionError as exc:
            raise InputFileError(f"{where}: {exc}") from None
        given = words[1].lower() if len(words) == 2 else season
        if given is None:
            raise InputFileError(f"{where}: {line!r} has no season; add spring or summer after "
                                 "the tile, or give --season for the whole sheet")
        if given not in SEASONS:
            raise InputFileError(f"{where}: season {words[1]!r} must be spring or summer")
        out.append((tile, given))
    if not out:
        raise InputFileError(f"names file {path} names no tiles; write one line per tile in "
                             "reading order, like 'hedgehog/acorn/oak spring'")
    return out


# -- the pack ---------------------------------------------------------------------------

def _existing_pack(folder: Path) -> tuple[str, dict[str, Any]]:
    """The text and data of the pack's pack.yaml ("" and {} when there is none yet)."""
    spec = folder / "pack.yaml"
    if not spec.exists():
        return "", {}
    try:  # bounded: size, depth, no anchors (the text is kept, to add tiles to it)
        text = read_text(spec, "enrolment pack file",
                         ModelError(f"{spec} is not a text file (YAML expected)"))
        data = parse_data(text, spec, "enrolment pack file", error=ModelError) \
            if text.strip() else None
    except ModelError as exc:
        raise ModelError(f"{exc}; fix it (or move it away) before adding tiles to it") \
            from None
    except InputFileError as exc:
        raise ModelError(str(exc)) from None
    if data is None:
        return text, {}
    if not isinstance(data, dict):
        raise ModelError(f"{spec} is not an enrolment pack (not a mapping of game, boards, "
                         "tiles and counters); fix it or use another --pack folder")
    if data.get("game", GAME) != GAME:
        raise ModelError(f"{spec} is a pack for {data.get('game')!r}, not The Glade "
                         f"({GAME!r}); use another --pack folder")
    tiles = data.get("tiles")
    if tiles is not None and (not isinstance(tiles, list)
                              or not all(isinstance(e, dict) for e in tiles)):
        raise ModelError(f"{spec}: 'tiles' must be a list of entries like {{image: ..., tile: "
                         "..., season: ...}}; fix it before adding tiles to it")
    return text, data


def _first_free(folder: Path, data: dict[str, Any]) -> int:
    """The number after the highest tiles/NNNN.png in the pack (on disk or named)."""
    used = [0]
    for entry in data.get("tiles") or []:
        m = _NUMBERED.match(str(entry.get("image", "")))
        if m:
            used.append(int(m.group(1)))
    if (folder / "tiles").is_dir():
        for path in (folder / "tiles").glob("*.png"):
            m = _NUMBERED.match(f"tiles/{path.name}")
            if m:
                used.append(int(m.group(1)))
    return max(used) + 1


def _entry_line(entry: dict[str, str], indent: str, note: str = "") -> str:
    body = ", ".join(f"{k}: {v}" for k, v in entry.items())
    return f"{indent}- {{{body}}}" + (f"  # {note}" if note else "")


def _appended(text: str, entries: list[dict[str, str]], notes: list[str]) -> str | None:
    """``text`` (a pack.yaml) with ``entries`` added at the end of its ``tiles:`` list, written
    as lines so the user's comments and layout stay; a new ``tiles:`` list if it has none.
    None when its list is written in a way this cannot extend line by line.

    >>> text = "game: the-glade\\ntiles:  # mine\\n- {image: a.png, tile: toad/acorn/oak}\\n"
    >>> entry = {"image": "tiles/0002.png", "tile": "FILL-IN", "season": "spring"}
    >>> print(_appended(text + "counters: []\\n", [entry], ["row 1, place 1"]), end="")
    game: the-glade
    tiles:  # mine
    - {image: a.png, tile: toad/acorn/oak}
    - {image: tiles/0002.png, tile: FILL-IN, season: spring}  # row 1, place 1
    counters: []
    """
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if re.match(r"^tiles\s*:", line)), None)
    if start is not None:
        m = re.match(r"^tiles\s*:\s*(\[\s*\])?\s*(#.*)?$", lines[start])
        if m is None:
            return None  # a flow-style list ``tiles: [...]`` with entries in it
        lines[start] = "tiles:" + (f"  {m.group(2)}" if m.group(2) else "")
    else:
        head = text if text.endswith("\n") else text + "\n"
        return head + "tiles:\n" + "".join(
            _entry_line(e, "  ", n) + "\n" for e, n in zip(entries, notes, strict=True))
    end = start
    indent = "  "
    for i in range(start + 1, len(lines)):
        line = lines[i]
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        if line[0] not in " -":
            break
        if stripped.startswith("-"):
            indent = line[: len(line) - len(stripped)]
        end = i
    new = [_entry_line(e, indent, n) for e, n in zip(entries, notes, strict=True)]
    out = [*lines[: end + 1], *new, *lines[end + 1:]]
    return "\n".join(out) + "\n"


def _add_entries(text: str, data: dict[str, Any], entries: list[dict[str, str]],
                 notes: list[str]) -> str:
    """The new pack.yaml text; checked to hold exactly the old data plus ``entries``, else
    written out afresh from the data (which keeps every value but not comments)."""
    if not text.strip():
        text = (f"game: {GAME}\n# Add the empty board (boards:) and the counters (counters:) "
                "before enrolling;\n# see the spec's 'Enrolment pack' section.\n")
    elif "game" not in data:
        text = f"game: {GAME}\n" + text
    data = {"game": GAME, **data}
    want = dict(data)
    want["tiles"] = [*(data.get("tiles") or []), *entries]
    try:
        new = _appended(text, entries, notes)
        if new is not None and yaml.safe_load(new) == want:
            return new
    except yaml.YAMLError:
        pass
    return yaml.safe_dump(want, sort_keys=False, default_flow_style=None, width=100)


def contact_sheet(tiles: list[CutTile], numbers: list[int],
                  names: list[tuple[str, str]] | None = None) -> np.ndarray:
    """Every cut tile in its row and place, labelled with its file number (and its name when
    known), so the names can be checked at a glance."""
    cell = tiles[0].image.shape[0]
    label_h = 54 if names else 22
    pad = 10
    step = max(cell, 170) + pad  # room for the longest name under each tile
    cols = 1 + max(t.col for t in tiles)
    rows = 1 + max(t.row for t in tiles)
    width = pad + cols * step
    height = pad + rows * (cell + label_h + pad)
    out = np.full((height, width, 3), 235, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for k, (tile, number) in enumerate(zip(tiles, numbers, strict=True)):
        x = pad + tile.col * step
        y = pad + tile.row * (cell + label_h + pad)
        out[y:y + cell, x:x + cell] = tile.image
        cv2.putText(out, f"{number:04d}", (x + 2, y + cell + 17), font, 0.55, (0, 0, 0), 1,
                    cv2.LINE_AA)
        if names:
            creature, fruit, leaf = names[k][0].split("/")
            for j, words in enumerate((f"{creature} {names[k][1]}", f"{fruit} {leaf}")):
                cv2.putText(out, words, (x + 2, y + cell + 33 + 15 * j), font, 0.36,
                            (60, 60, 60), 1, cv2.LINE_AA)
    return out


def found_overlay(photo: np.ndarray, tiles: list[CutTile], numbers: list[int]) -> np.ndarray:
    """The photo, at most 1600 px wide, with each found tile outlined (its top side thicker)
    and numbered: a tile the helper missed is the one without an outline."""
    h, w = photo.shape[:2]
    s = min(1.0, 1600 / max(h, w))
    out = cv2.resize(photo, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    for tile, number in zip(tiles, numbers, strict=True):
        q = (tile.corners * s).astype(np.int32)
        cv2.polylines(out, [q], True, (0, 220, 255), 2, cv2.LINE_AA)
        cv2.line(out, tuple(int(v) for v in q[0]), tuple(int(v) for v in q[1]), (0, 0, 255), 4,
                 cv2.LINE_AA)
        cx, cy = q.mean(axis=0)
        text = str(number)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.8, 2)
        org = (int(cx - tw / 2), int(cy + th / 2))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 5, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2,
                    cv2.LINE_AA)
    return out


def _png(image: np.ndarray) -> bytes:
    ok, buf = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit BGR image
        raise RecognitionError("could not encode an image as PNG")
    return buf.tobytes()


def _write(path: Path, data: bytes) -> None:
    try:
        atomic_write_bytes(path, data)
    except OSError as exc:
        raise InputFileError(f"cannot write {path} ({exc.strerror or exc}); check that the "
                             "pack folder is writable") from None


def _warnings(side: float, listed: list[tuple[str, str]], data: dict[str, Any]) -> list[str]:
    """What the user should know though nothing failed: soft cuts, a face named twice."""
    out = []
    if side < SHARP_PX:
        out.append(f"the tiles are only about {side:.0f} px wide in the photo; for sharper "
                   f"cuts photograph fewer tiles at a time or move closer (at least "
                   f"{SHARP_PX} px per tile)")
    seen = {(str(e.get("tile")), str(e.get("season"))) for e in data.get("tiles") or []}
    for tile, season in listed:
        if (tile, season) in seen:
            out.append(f"{tile} ({season}) is named twice in the pack; check the names")
        seen.add((tile, season))
    return out


def cut_sheet(photo: Path, *, pack: Path, names: Path | None = None, season: str | None = None,
              size: int = DEFAULT_SIZE, start: int | None = None) -> Report:
    """Cut every tile out of a sheet photo into ``pack``: images, pack.yaml entries, checks.

    ``names`` is a file naming the tiles in reading order; without it the entries carry
    placeholders to fill in. ``season`` is the season of every tile whose line (or entry)
    does not give one. ``start`` is the first file number (default: after the pack's last).
    """
    photo, pack = Path(photo), Path(pack)
    if season is not None and season not in SEASONS:
        raise InputFileError(f"season {season!r} must be spring or summer")
    if not 32 <= size <= 1024:
        raise InputFileError(f"tile size {size} px must be between 32 and 1024")
    if pack.exists() and not pack.is_dir():
        raise InputFileError(f"pack folder {pack} is a file; give a folder (it is made if "
                             "it does not exist)")
    listed = read_names(Path(names), season) if names is not None else None
    text, data = _existing_pack(pack)
    first = _first_free(pack, data) if start is None else start
    if first < 1:
        raise InputFileError(f"--start {first} must be 1 or more")
    image = load_image(photo)
    cut = find_tiles(image, size)
    tiles = cut.tiles
    numbers = list(range(first, first + len(tiles)))
    files = [f"tiles/{n:04d}.png" for n in numbers]
    span = f"{numbers[0]:04d}-{numbers[-1]:04d}"
    if listed is not None and len(listed) != len(tiles):
        check = pack / f"found-{span}.png"
        _write(check, _png(found_overlay(image, tiles, numbers)))
        raise RecognitionError(
            f"found {len(tiles)} tiles on {photo.name} but the names file {names} names "
            f"{len(listed)}; see {check} for the tiles found (numbered in reading order), then "
            "fix the names file or the photo and run again")
    named = {str(e.get("image")) for e in data.get("tiles") or []}
    for file in files:
        if file in named or (pack / file).exists():
            raise InputFileError(
                f"{pack / file} already exists; leave out --start to number the new tiles after "
                "the pack's last one, or give a --start past it")
    labels = listed if listed is not None else [(PLACEHOLDER, season or PLACEHOLDER)] * len(tiles)
    entries = [{"image": f, "tile": t, "season": s} for f, (t, s) in zip(files, labels,
                                                                      strict=True)]
    notes = [f"row {t.row + 1}, place {t.col + 1}" + ("" if listed else "; name it")
             for t in tiles]
    for file, tile in zip(files, tiles, strict=True):
        _write(pack / file, _png(tile.image))
    sheet_path = pack / f"contact-{span}.png"
    found_path = pack / f"found-{span}.png"
    _write(sheet_path, _png(contact_sheet(tiles, numbers, listed)))
    _write(found_path, _png(found_overlay(image, tiles, numbers)))
    _write(pack / "pack.yaml", _add_entries(text, data, entries, notes).encode("utf-8"))
    side = float(np.median([t.side_px for t in tiles]))
    warnings = _warnings(side, listed or [], data)
    result = {
        "photo": str(photo), "pack": str(pack), "pack_yaml": str(pack / "pack.yaml"),
        "count": len(tiles), "rows": cut.rows, "turn": round(cut.turn, 1),
        "tile_px": round(side, 1), "size": size, "named": listed is not None,
        "tiles": [{**e, "number": n, "row": t.row + 1, "place": t.col + 1}
                  for e, n, t in zip(entries, numbers, tiles, strict=True)],
        "contact_sheet": str(sheet_path), "found": str(found_path),
        "ignored_specks": cut.ignored, "warnings": warnings,
    }
    lines = [f"Cut {len(tiles)} tiles ({cut.rows} rows) from {photo.name} into "
             f"{pack / 'tiles'} as {files[0]} to {files[-1]}, {size} px, upright.",
             f"Added {len(tiles)} tile entries to {pack / 'pack.yaml'}."]
    if listed is None:
        what = "tile names say" if season else "tile names and seasons say"
        fill = "name (creature/fruit/leaf)" + ("" if season else " and season")
        lines.append(f"The entries' {what} {PLACEHOLDER}: write each tile's {fill} into "
                     f"pack.yaml, using the numbers on {sheet_path}, before enrolling (or run "
                     "again with --names FILE).")
    else:
        lines.append(f"Names from {names}; check them against the contact sheet {sheet_path}.")
    lines.append(f"Each tile found is outlined on {found_path} (red: its top).")
    lines += [f"Note: {w}." for w in warnings]
    return Report(result, "\n".join(lines))
