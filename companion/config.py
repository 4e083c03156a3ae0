"""Configuration: the defaults in ``config/companion.yaml``, overridden key by key by one user file.

Every value is checked when it is loaded. A wrong key or value is refused with one message that
names the file, the key, the bad value and what is allowed, so a user never meets a traceback or
a setting that silently does nothing.

The shared sections' schema is here (:data:`CORE`); each game's section (``games.<name>``) is
checked against the schema its own package declares (``companion/<game>/settings.py``, named by
the game's registry record), so this module imports no game and lists none.
"""

from __future__ import annotations

import copy
import difflib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from companion.errors import ConfigError, InputFileError
from companion.paths import config_dir, user_config_candidates
from companion.storage import MAX_DATA_BYTES, parse_data, read_text


@dataclass(frozen=True)
class Field:
    """What one leaf of the configuration may hold."""

    kinds: tuple[type, ...]
    allowed: str
    check: Callable[[Any], bool] = lambda value: True
    nullable: bool = False

    def accepts(self, value: Any) -> bool:
        if value is None:
            return self.nullable
        if isinstance(value, bool) and bool not in self.kinds:
            return False
        return isinstance(value, self.kinds) and self.check(value)


# The kinds of leaf, for this module's schema and each game's own (``companion/<game>/settings``).

def choice(*options: str | int) -> Field:
    """One of ``options``."""
    kinds = tuple({type(o) for o in options})
    return Field(kinds, "one of " + ", ".join(str(o) for o in options), lambda v: v in options)


def whole(lo: int, hi: int, what: str = "") -> Field:
    """A whole number from ``lo`` to ``hi``; ``what`` adds words to the message."""
    return Field((int,), f"a whole number from {lo} to {hi}{what}", lambda v: lo <= v <= hi)


def number(lo: float, hi: float) -> Field:
    """A number (whole or not) from ``lo`` to ``hi``."""
    return Field((int, float), f"a number from {lo} to {hi}", lambda v: lo <= v <= hi)


BOOL = Field((bool,), "true or false")
TEXT = Field((str,), "a text", lambda v: bool(v.strip()))
PATH = Field((str,), "a file or folder path", lambda v: bool(v.strip()), nullable=True)
_GPIO = whole(0, 27, " (a BCM GPIO number)")


def _names(value: Any) -> bool:
    return (isinstance(value, list) and 1 <= len(value) <= 8
            and all(isinstance(v, str) and v.strip() for v in value))


#: Every section but the games' own: those come from each game's package.
CORE: dict[str, Any] = {
    "display": {
        "driver": choice("ssd1306", "sh1106", "preview", "dummy"),
        "i2c_port": whole(0, 22),
        "i2c_address": whole(0x03, 0x77, " (usually 0x3C or 0x3D)"),
        "rotation": choice(0, 90, 180, 270),
        "width": choice(128),
        "height": choice(64, 32),
        "contrast": whole(0, 255),
        "dim_after_seconds": number(0, 86400),
        "preview_dir": PATH,
    },
    "buttons": {
        "backend": choice("gpio", "keyboard", "mock"),
        "pins": {"up": _GPIO, "down": _GPIO, "ok": _GPIO},
        "pull_up": BOOL,
        "bounce_seconds": number(0, 1),
        "long_press_seconds": number(0.2, 5),
    },
    "camera": {
        "source": choice("picamera2", "opencv", "files", "simulator"),
        "device": Field((int, str), "a camera index (0, 1, ...) or a /dev/video path"),
        "path": PATH,
        "width": whole(160, 4656),
        "height": whole(120, 3496),
        "retry_seconds": number(0.1, 3600),
        "average_frames": whole(1, 16),
        "auto_capture": BOOL,
        "still_frames": whole(1, 20),
        "max_megapixels": number(1, 200),
    },
    "data_dir": TEXT,
    "log_level": choice("debug", "info", "warning", "error"),
}


def schema() -> dict[str, Any]:
    """The whole schema: :data:`CORE`, and ``games``: the default game, the players' names,
    and under each registered game's name the schema its package declares
    (``GameInfo.load_settings()``; none: the section holds no keys)."""
    from companion.games import all_games

    registered = all_games()
    games: dict[str, Any] = {
        "default": choice(*(g.name for g in registered)),
        "players": Field((list,), "a list of 1-8 player names", _names),
    }
    for game in registered:
        games[game.name] = dict(game.load_settings() or {})
    return {**CORE, "games": games}


@dataclass(frozen=True)
class Config:
    """The settings in force: a checked, merged tree, and the files it came from."""

    values: Mapping[str, Any]
    sources: tuple[Path, ...]

    def __getitem__(self, dotted: str) -> Any:
        """A value by dotted key, e.g. ``config["display.driver"]``."""
        node: Any = self.values
        for part in dotted.split("."):
            node = node[part]
        return node

    @property
    def data_dir(self) -> Path:
        return Path(self.values["data_dir"]).expanduser()


def _read_yaml(path: Path) -> dict[str, Any]:
    """A configuration file's keys and values, read through the bounded reader
    (:func:`~companion.storage.parse_data`: at most 10 MB, 64 levels, no YAML anchors, no
    30-digit numbers), every problem one :class:`ConfigError` naming the file."""
    try:
        text = read_text(path, "config file", ConfigError(
            f"config file {path} is not a text file; check that it is the right file"),
            too_big=ConfigError(f"config file {path} is larger than "
                                f"{MAX_DATA_BYTES // (1024 * 1024)} MB, far more than any "
                                "configuration; check that it is the right file"))
    except InputFileError as exc:
        if not os.path.lexists(path):
            raise ConfigError(f"config file {path} does not exist; check the path given to "
                              "--config") from None
        raise ConfigError(f"{exc}; check its permissions and that it is a file") from None
    if "\x00" in text:
        raise ConfigError(f"config file {path} holds NUL bytes, so it is binary or damaged; "
                          "check that it is the right file")
    if not text.strip():
        return {}
    data = parse_data(text, path, "config file", error=ConfigError)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"config file {path} must hold keys and values (a YAML mapping), "
                          f"not a {type(data).__name__}")
    return data


def _merge(base: dict[str, Any], override: Mapping[str, Any],
           schema: Mapping[str, Any], path: Path, prefix: str = "") -> None:
    """Lay ``override`` over ``base`` key by key, checking every key and value against schema."""
    for key, value in override.items():
        dotted = f"{prefix}{key}"
        if key not in schema:
            known = [str(k) for k in schema]
            near = difflib.get_close_matches(str(key), known, n=1)
            hint = f" (did you mean {prefix}{near[0]}?)" if near else ""
            allowed = ", ".join(known) if known else "no keys here"
            raise ConfigError(f"{path}: unknown key {dotted!r}{hint}; allowed: {allowed}")
        rule = schema[key]
        if isinstance(rule, Field):
            if not rule.accepts(value):
                raise ConfigError(f"{path}: {dotted} is {value!r}, which is not allowed; "
                                  f"use {rule.allowed}")
            base[key] = copy.deepcopy(value)
        else:
            if value is None:
                value = {}
            if not isinstance(value, Mapping):
                raise ConfigError(f"{path}: {dotted} is {value!r}, but it must hold keys "
                                  f"({', '.join(map(str, rule)) or 'none yet'})")
            sub = base.setdefault(key, {})
            _merge(sub, value, rule, path, dotted + ".")


def _missing(values: dict[str, Any], schema: Mapping[str, Any], prefix: str = "") -> list[str]:
    """The keys the defaults lack; a section with no keys to hold (a game without settings)
    needs no default, and is added empty."""
    out = []
    for key, rule in schema.items():
        if key not in values and isinstance(rule, Mapping) and not rule:
            values[key] = {}
        elif key not in values:
            out.append(prefix + key)
        elif not isinstance(rule, Field):
            out.extend(_missing(values[key], rule, f"{prefix}{key}."))
    return out


def load_config(user_file: Path | str | None = None, *,
                defaults: Path | None = None,
                candidates: list[Path] | None = None) -> Config:
    """The defaults overridden by ``user_file`` (or the first existing default location)."""
    defaults = defaults or config_dir() / "companion.yaml"
    rules = schema()
    values: dict[str, Any] = {}
    _merge(values, _read_yaml(defaults), rules, defaults)
    missing = _missing(values, rules)
    if missing:
        raise ConfigError(f"{defaults}: the default configuration lacks {', '.join(missing)}; "
                          "restore the file from the project")
    sources = [defaults]
    chosen: Path | None = Path(user_file).expanduser() if user_file else None
    if chosen is None:
        chosen = next((p for p in (candidates if candidates is not None
                                   else user_config_candidates()) if p.is_file()), None)
    if chosen is not None:
        _merge(values, _read_yaml(chosen), rules, chosen)
        sources.append(chosen)
    _check_whole(values, sources[-1])
    return Config(values, tuple(sources))


def _check_whole(values: Mapping[str, Any], path: Path) -> None:
    """Rules that span keys: each button on its own pin."""
    pins = values["buttons"]["pins"]
    seen: dict[int, str] = {}
    for role, pin in pins.items():
        if pin in seen:
            raise ConfigError(f"{path}: buttons.pins.{role} and buttons.pins.{seen[pin]} are both "
                              f"GPIO {pin}; give each button its own pin")
        seen[pin] = role


def dump_config(config: Config) -> str:
    """The settings in force as YAML, headed by the files they came from."""
    head = "".join(f"# from {p}\n" for p in config.sources)
    return head + yaml.safe_dump(dict(config.values), sort_keys=False)
