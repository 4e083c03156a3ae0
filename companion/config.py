"""Configuration: the defaults in ``config/companion.yaml``, overridden key by key by one user file.

Every value is checked when it is loaded. A wrong key or value is refused with one message that
names the file, the key, the bad value and what is allowed, so a user never meets a traceback or
a setting that silently does nothing.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from companion.errors import ConfigError
from companion.paths import config_dir, user_config_candidates


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


def _choice(*options: str | int) -> Field:
    kinds = tuple({type(o) for o in options})
    return Field(kinds, "one of " + ", ".join(str(o) for o in options), lambda v: v in options)


def _int(lo: int, hi: int, what: str = "") -> Field:
    return Field((int,), f"a whole number from {lo} to {hi}{what}", lambda v: lo <= v <= hi)


def _number(lo: float, hi: float) -> Field:
    return Field((int, float), f"a number from {lo} to {hi}", lambda v: lo <= v <= hi)


_BOOL = Field((bool,), "true or false")
_TEXT = Field((str,), "a text", lambda v: bool(v.strip()))
_PATH = Field((str,), "a file or folder path", lambda v: bool(v.strip()), nullable=True)
_GPIO = _int(0, 27, " (a BCM GPIO number)")


def _names(value: Any) -> bool:
    return (isinstance(value, list) and 1 <= len(value) <= 8
            and all(isinstance(v, str) and v.strip() for v in value))


def _board(value: Any) -> bool:
    from companion.the_glade.names import BoardGeometry

    try:
        BoardGeometry.from_dict(value)
    except Exception:
        return False
    return True


SCHEMA: dict[str, Any] = {
    "display": {
        "driver": _choice("ssd1306", "sh1106", "preview", "dummy"),
        "i2c_port": _int(0, 22),
        "i2c_address": _int(0x03, 0x77, " (usually 0x3C or 0x3D)"),
        "rotation": _choice(0, 90, 180, 270),
        "width": _choice(128),
        "height": _choice(64, 32),
        "contrast": _int(0, 255),
        "dim_after_seconds": _number(0, 86400),
        "preview_dir": _PATH,
    },
    "buttons": {
        "backend": _choice("gpio", "keyboard", "mock"),
        "pins": {"up": _GPIO, "down": _GPIO, "ok": _GPIO},
        "pull_up": _BOOL,
        "bounce_seconds": _number(0, 1),
        "long_press_seconds": _number(0.2, 5),
    },
    "camera": {
        "source": _choice("picamera2", "opencv", "files", "simulator"),
        "device": Field((int, str), "a camera index (0, 1, ...) or a /dev/video path"),
        "path": _PATH,
        "width": _int(160, 4656),
        "height": _int(120, 3496),
        "retry_seconds": _number(0.1, 3600),
        "average_frames": _int(1, 16),
        "auto_capture": _BOOL,
        "still_frames": _int(1, 20),
    },
    "data_dir": _TEXT,
    "log_level": _choice("debug", "info", "warning", "error"),
    "games": {
        "default": _choice("the-glade", "glass-garden", "gardlings", "meadow"),
        "players": Field((list,), "a list of 1-8 player names", _names),
        "the-glade": {
            "variant": _choice("basic", "matching", "solo"),
            "board": Field((dict,), "{rows: R, cols: C, centre: SQUARE} with the centre on the "
                           "board, e.g. {rows: 7, cols: 7, centre: D4}", _board),
            "model": _PATH,
        },
        "glass-garden": {
            "deck": _PATH,
            "think_seconds": _number(0.1, 600),
        },
        "gardlings": {},
        "meadow": {},
    },
}


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
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist; check the path given to "
                          "--config") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path} cannot be read ({exc}); check its "
                          "permissions and that it is a text file") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        where = ""
        mark = getattr(exc, "problem_mark", None)
        if mark is not None:
            where = f" at line {mark.line + 1}, column {mark.column + 1}"
        raise ConfigError(f"config file {path} is not valid YAML{where}: "
                          f"{getattr(exc, 'problem', None) or exc}") from None
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


def _missing(values: Mapping[str, Any], schema: Mapping[str, Any], prefix: str = "") -> list[str]:
    out = []
    for key, rule in schema.items():
        if key not in values:
            out.append(prefix + key)
        elif not isinstance(rule, Field):
            out.extend(_missing(values[key], rule, f"{prefix}{key}."))
    return out


def load_config(user_file: Path | str | None = None, *,
                defaults: Path | None = None,
                candidates: list[Path] | None = None) -> Config:
    """The defaults overridden by ``user_file`` (or the first existing default location)."""
    defaults = defaults or config_dir() / "companion.yaml"
    values: dict[str, Any] = {}
    _merge(values, _read_yaml(defaults), SCHEMA, defaults)
    missing = _missing(values, SCHEMA)
    if missing:
        raise ConfigError(f"{defaults}: the default configuration lacks {', '.join(missing)}; "
                          "restore the file from the project")
    sources = [defaults]
    chosen: Path | None = Path(user_file).expanduser() if user_file else None
    if chosen is None:
        chosen = next((p for p in (candidates if candidates is not None
                                   else user_config_candidates()) if p.is_file()), None)
    if chosen is not None:
        _merge(values, _read_yaml(chosen), SCHEMA, chosen)
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
