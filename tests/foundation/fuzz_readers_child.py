"""Mutated files through every reader, one case at a time, for ``test_fuzz_readers`` to watch.

``fuzz_readers_child.py SEED CASES WORK_DIR``: makes CASES mutated files (seeded: the same
files every run) of each kind the companion reads (Glass Garden and The Glade state files,
saved games, histories, decks, configurations, photos), runs each through the readers a user
or the service reaches it by, and prints one JSON line per case::

    {"case": 12, "kind": "glade", "how": "leaf 1.0", "reader": "hint",
     "message": "...", "internal": false, "cpu": 0.01}

``message`` is everything the reader said on stderr (or the error page's text); ``internal``
is true when an error reached the user as a bug (an exception that is not a
:class:`CompanionError`, or "internal error" on the command line). Each case is announced
first (``{"start": 12}``), so that the test can name the case a hang happened in.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import struct
import sys
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[2]
GLADE = ROOT / "docs" / "examples" / "the-glade-last-turn.json"
GARDEN = ROOT / "config" / "games" / "glass-garden" / "sample-start.yaml"
DECK = ROOT / "config" / "games" / "glass-garden" / "deck.yaml"
USER_CONFIG = ROOT / "hardware" / "companion.yaml"
RACK = "hedgehog/mushroom/maple,hedgehog/hazelnut/oak,toad/blackberry/oak"

# -- mutations -------------------------------------------------------------------------------

HOSTILE_VALUES: list[Any] = [
    1.0, 2.5, -1, 0, 10 ** 40, 2 ** 31, "", "x" * 20_000, None, True, False, [], {}, [[[[[[]]]]]],
    "/dev/zero", "../../../etc/passwd", float("nan"), float("inf"), 1e308, {"a": 1}, ["x"],
    "sunlight", "critter", "\u202e\u0000", -(10 ** 12),
]
HOSTILE_TEXT = ["\x00", "&a ", "*a", "[" * 200, "9" * 5000, "\ufffd", "\r", "{", "- ", ": :",
                "!!python/object:os.system ", "<<: *a", "\t", '"', "'", "\\u0000"]


def nodes(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in ``data`` (the root included), as a path of keys and indices."""
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from nodes(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from nodes(v, (*path, i))


def set_at(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


def mutate_data(rng: random.Random, data: Any) -> tuple[Any, str]:
    """``data`` with one or two structural changes, and what they were."""
    data = copy.deepcopy(data)
    hows = []
    for _ in range(rng.choice((1, 1, 2))):
        places = list(nodes(data))
        path = rng.choice(places)
        parent: Any = data
        for key in path[:-1]:
            parent = parent[key]
        what = rng.random()
        if what < 0.6 or not path:
            value = copy.deepcopy(rng.choice(HOSTILE_VALUES))
            data = set_at(data, path, value)
            hows.append(f"leaf {str(value)[:20]!r}")
        elif what < 0.75 and isinstance(parent, dict):
            del parent[path[-1]]
            hows.append(f"delete {path[-1]!r}")
        elif what < 0.85 and isinstance(parent, dict):
            parent[rng.choice(["extra", "deck", "turn", "players", "game", "format"])] = \
                copy.deepcopy(rng.choice(HOSTILE_VALUES))
            hows.append("add key")
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
            hows.append("repeat item")
        else:
            data = [data]
            hows.append("wrapped")
    return data, ", ".join(hows)


def dump(rng: random.Random, data: Any, suffix: str) -> bytes:
    if suffix == ".json" or rng.random() < 0.3:
        return json.dumps(data, ensure_ascii=rng.random() < 0.5).encode()
    return yaml.safe_dump(data, allow_unicode=True).encode()


def mutate_bytes(rng: random.Random, raw: bytes) -> tuple[bytes, str]:
    what = rng.random()
    if what < 0.3:
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data), "flipped bytes"
    if what < 0.5:
        return raw[:rng.randrange(len(raw))], "cut short"
    if what < 0.9:
        at = rng.randrange(len(raw) + 1)
        snippet = rng.choice(HOSTILE_TEXT).encode()
        return raw[:at] + snippet + raw[at:], f"inserted {snippet[:12]!r}"
    lines = raw.splitlines(keepends=True)
    i = rng.randrange(len(lines))
    return b"".join([*lines[:i + 1], lines[i], *lines[i + 1:]]), "line twice"


BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n"
    for i in range(8))).encode()
WHOLE_FILES = [(BOMB, "anchors bomb"), (b"[" * 100_000 + b"]" * 100_000, "100000 deep"),
               (b"x: " + b"9" * 5000 + b"\n", "5000 digits"), (b"\x00" * 64, "NUL bytes"),
               (b"", "empty"), (b"\xff\xfe\x00", "not text"), (b"- - - - -\n", "lists")]


def mutated_text(rng: random.Random, seed_data: Any, raw: bytes, suffix: str,
                 ) -> tuple[bytes, str]:
    what = rng.random()
    if what < 0.08:
        return rng.choice(WHOLE_FILES)
    if what < 0.55:
        data, how = mutate_data(rng, seed_data)
        return dump(rng, data, suffix), how
    return mutate_bytes(rng, raw)


def png_with_size(raw: bytes, width: int, height: int, fix_crc: bool) -> bytes:
    ihdr = b"IHDR" + struct.pack(">II", width, height) + raw[24:29]
    crc = struct.pack(">I", zlib.crc32(ihdr)) if fix_crc else raw[29:33]
    return raw[:12] + ihdr + crc + raw[33:]


def mutated_image(rng: random.Random, png: bytes, jpeg: bytes) -> tuple[bytes, str, str]:
    what = rng.random()
    if what < 0.2:
        w, h = rng.choice([(30000, 30000), (1, 10 ** 6), (65535, 65535), (0, 0), (7000, 7000)])
        return png_with_size(png, w, h, rng.random() < 0.7), f"png says {w}x{h}", ".png"
    raw, suffix = (png, ".png") if rng.random() < 0.4 else (jpeg, ".jpg")
    data, how = mutate_bytes(rng, raw)
    return data, how, suffix


# -- readers ---------------------------------------------------------------------------------

class Internal(Exception):
    """An error that reached the user as a bug."""


@contextlib.contextmanager
def captured_stderr() -> Iterator[io.StringIO]:
    """What is written to stderr, by Python and by C libraries (libjpeg) alike."""
    text = io.StringIO()
    with tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(sink.fileno(), 2)
        try:
            with contextlib.redirect_stderr(text):
                yield text
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            text.write(sink.read().decode("utf-8", "replace"))


def cli(*argv: str) -> str:
    """A command line run in this process: what it printed on stderr."""
    from companion.cli import main

    with captured_stderr() as err, contextlib.redirect_stdout(io.StringIO()):
        main(list(argv))
    return err.getvalue().strip()


def guarded(fn: Callable[[], Any]) -> str:
    """``fn``'s refusal (a CompanionError's message), or "" when it read the file; any other
    exception is :class:`Internal`."""
    from companion.errors import CompanionError

    with captured_stderr() as err:
        try:
            fn()
            said = ""
        except CompanionError as exc:
            said = str(exc)
        except Exception as exc:  # the very thing looked for
            raise Internal(f"{type(exc).__name__}: {exc}") from None
    return (said + "\n" + err.getvalue()).strip()


def service_over(data_dir: Path, keys: list[Any]) -> str:
    """A service started over ``data_dir`` (its saved game, history): the pages it showed."""
    from companion.config import load_config
    from companion.devices.buttons import ScriptedButtons
    from companion.devices.display import open_display
    from companion.ui.pages import TextPage
    from companion.ui.service import Context, Service

    settings = copy.deepcopy(dict(load_config(candidates=[]).values))
    settings["display"]["driver"] = "dummy"
    ctx = Context(settings, data_dir)
    shown: list[str] = []
    with captured_stderr():
        service = Service(ctx, open_display(settings["display"]), ScriptedButtons(keys),
                          idle_poll=0)
        real_draw = service.draw

        def draw() -> None:
            page = service.page
            if isinstance(page, TextPage) and page.alert:
                text = " ".join(page.lines[:1])
                if page.title == "Error" or "Internal error" in text:
                    raise Internal(text)
                if text not in shown:
                    shown.append(text)
            real_draw()

        service.draw = draw  # type: ignore[method-assign]
        service.run()
    return "\n".join(shown)


def read_glade(path: Path) -> list[tuple[str, str]]:
    from companion.games import find_game
    from companion.ui.service import score_sheet_of

    return [("score", cli("score", "the-glade", str(path))),
            ("hint", cli("hint", "the-glade", str(path), "--player", "Liz", "--rack", RACK,
                         "--limit", "2")),
            ("service's Score a game", guarded(
                lambda: score_sheet_of(find_game("the-glade"), path)))]


def read_garden(path: Path) -> list[tuple[str, str]]:
    from companion.glass_garden.state_file import dump_state, load_state

    def read() -> None:
        state = load_state(path)
        state.score()
        dump_state(state)

    return [("assist's reader", guarded(read))]


def read_session(path: Path) -> list[tuple[str, str]]:
    from companion.devices.buttons import Key

    data = path.parent
    return [("service start, resume", service_over(data, [Key.OK, Key.BACK, Key.BACK]))]


def read_history(path: Path) -> list[tuple[str, str]]:
    from companion.devices.buttons import Key

    config = path.parent / "user.yaml"
    config.write_text(f"data_dir: {path.parent}\n")
    return [("history command", cli("history", "--config", str(config))),
            ("history page", service_over(path.parent, [Key.OK, Key.UP, Key.UP, Key.OK]))]


def read_deck(path: Path) -> list[tuple[str, str]]:
    from companion.glass_garden import deck
    from companion.glass_garden.state_file import load_state

    deck._CACHE.clear()
    state = path.parent / "garden.yaml"
    state.write_text(GARDEN.read_text().replace("deck: sample", f"deck: {path}"))
    return [("load_deck", guarded(lambda: deck.load_deck(path))),
            ("state naming it", guarded(lambda: load_state(state)))]


def read_config(path: Path) -> list[tuple[str, str]]:
    from companion.config import load_config

    return [("load_config", guarded(lambda: load_config(path)))]


def read_photo(path: Path) -> list[tuple[str, str]]:
    from companion.devices.camera import read_image
    from companion.vision.image import load_image

    return [("files camera", guarded(lambda: read_image(path))),
            ("scan's loader", guarded(lambda: load_image(path)))]


# -- the cases -------------------------------------------------------------------------------

def session_seed() -> dict[str, Any]:
    from companion.session import Session

    glade = json.loads(GLADE.read_text())
    return Session("the-glade", ["Toni", "Emma", "Liz"], accepted=[glade]).to_dict()


def garden_session_seed() -> dict[str, Any]:
    from companion.session import Session

    garden = yaml.safe_load(GARDEN.read_text())
    return Session("glass-garden", ["Toni"], accepted=[garden, garden]).to_dict()


def history_seed() -> dict[str, Any]:
    entry = {"game": "the-glade", "finished_at": "2026-11-29T20:00:00+00:00", "winner": "Toni",
             "players": [{"name": "Toni", "total": 24}, {"name": "Emma", "total": 23}]}
    return {"games": [entry, {**entry, "winner": None}, {**entry, "result": "Champion"}]}


def main() -> None:
    seed, count, work = int(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    rng = random.Random(seed)
    ok, png = cv2.imencode(".png", np.full((48, 64, 3), 90, np.uint8))
    ok2, jpeg = cv2.imencode(".jpg", np.random.default_rng(seed).integers(
        0, 255, (48, 64, 3), dtype=np.uint8))
    assert ok and ok2
    kinds: list[tuple[str, str, Any, bytes, Callable[[Path], list[tuple[str, str]]]]] = [
        ("glade", "state.json", json.loads(GLADE.read_text()), GLADE.read_bytes(), read_glade),
        ("garden", "state.yaml", yaml.safe_load(GARDEN.read_text()), GARDEN.read_bytes(),
         read_garden),
        ("session", "session.json", session_seed(),
         json.dumps(session_seed(), indent=1).encode(), read_session),
        ("garden-session", "session.json", garden_session_seed(),
         json.dumps(garden_session_seed(), indent=1).encode(), read_session),
        ("history", "history.json", history_seed(),
         json.dumps(history_seed(), indent=1).encode(), read_history),
        ("deck", "deck.yaml", yaml.safe_load(DECK.read_text()), DECK.read_bytes(), read_deck),
        ("config", "companion.yaml", yaml.safe_load(USER_CONFIG.read_text()),
         USER_CONFIG.read_bytes(), read_config),
    ]
    case = 0
    for _ in range(count):
        for kind, name, data, raw, reader in [*kinds, ("photo", "", None, b"", read_photo)]:
            case += 1
            folder = work / f"{case:04d}"
            folder.mkdir(parents=True)
            if kind == "photo":
                content, how, suffix = mutated_image(rng, png.tobytes(), jpeg.tobytes())
                path = folder / f"photo{suffix}"
            else:
                content, how = mutated_text(rng, data, raw, Path(name).suffix)
                path = folder / name
            path.write_bytes(content)
            print(json.dumps({"start": case, "kind": kind, "how": how}), flush=True)
            cpu = time.process_time()
            try:
                results = reader(path)
            except Internal as exc:
                results = [("?", f"INTERNAL {exc}")]
            spent = time.process_time() - cpu
            for name_of_reader, message in results:
                internal = (message.startswith("INTERNAL ")
                            or "internal error" in message.lower())
                print(json.dumps({"case": case, "kind": kind, "how": how,
                                  "reader": name_of_reader, "message": message[:2000],
                                  "internal": internal, "cpu": spent}), flush=True)
    print(json.dumps({"done": case}), flush=True)


if __name__ == "__main__":
    main()
