"""Configuration: defaults, key-by-key overrides, and one clear message for every bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Field, choice, dump_config, load_config, schema
from companion.errors import ConfigError
from companion.paths import config_dir


def write(tmp_path: Path, text: str, name: str = "user.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def test_defaults_are_complete_and_valid() -> None:
    config = load_config(candidates=[])
    assert config["display.driver"] == "ssd1306"
    assert config["display.i2c_address"] == 0x3C
    assert config["buttons.pins"] == {"up": 5, "down": 6, "ok": 13}
    assert config["camera.source"] == "picamera2"
    assert config["games.the-glade.board"] == {"rows": 7, "cols": 7, "centre": "D4"}
    assert config.sources == (config_dir() / "companion.yaml",)


def test_every_schema_leaf_has_a_default() -> None:
    config = load_config(candidates=[])

    def walk(schema: dict, values: dict, prefix: str = "") -> None:
        for key, rule in schema.items():
            assert key in values, prefix + key
            if not isinstance(rule, Field):
                walk(rule, values[key], f"{prefix}{key}.")

    walk(schema(), dict(config.values))


def test_user_file_overrides_key_by_key(tmp_path: Path) -> None:
    user = write(tmp_path, "display:\n  driver: sh1106\nbuttons:\n  pins: {ok: 26}\n")
    config = load_config(user)
    assert config["display.driver"] == "sh1106"
    assert config["display.i2c_address"] == 0x3C  # untouched neighbour kept
    assert config["buttons.pins"] == {"up": 5, "down": 6, "ok": 26}
    assert config.sources[-1] == user


def test_first_existing_candidate_is_used(tmp_path: Path) -> None:
    second = write(tmp_path, "log_level: debug\n", "second.yaml")
    config = load_config(candidates=[tmp_path / "missing.yaml", second])
    assert config["log_level"] == "debug"


def test_explicit_file_beats_candidates(tmp_path: Path) -> None:
    explicit = write(tmp_path, "log_level: error\n", "explicit.yaml")
    other = write(tmp_path, "log_level: debug\n", "other.yaml")
    assert load_config(explicit, candidates=[other])["log_level"] == "error"


def test_unknown_key_names_file_key_and_suggestion(tmp_path: Path) -> None:
    user = write(tmp_path, "display:\n  drivr: sh1106\n")
    with pytest.raises(ConfigError) as info:
        load_config(user)
    msg = str(info.value)
    assert str(user) in msg and "display.drivr" in msg and "display.driver" in msg


def test_unknown_top_level_key(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown key 'screen'"):
        load_config(write(tmp_path, "screen: big\n"))


@pytest.mark.parametrize(("text", "key", "allowed"), [
    ("display:\n  driver: ssd1305\n", "display.driver", "ssd1306, sh1106"),
    ("display:\n  rotation: 45\n", "display.rotation", "0, 90, 180, 270"),
    ("display:\n  i2c_address: 300\n", "display.i2c_address", "0x3C"),
    ("buttons:\n  pins: {up: 40}\n", "buttons.pins.up", "BCM"),
    ("buttons:\n  pull_up: yes please\n", "buttons.pull_up", "true or false"),
    ("camera:\n  width: wide\n", "camera.width", "whole number"),
    ("camera:\n  source: webcam\n", "camera.source", "picamera2, opencv, files, simulator"),
    ("games:\n  the-glade:\n    board: {rows: 7, cols: 7, centre: K9}\n",
     "games.the-glade.board", "centre on the board"),
    ("games:\n  players: []\n", "games.players", "1-8 player names"),
    ("buttons:\n  bounce_seconds: true\n", "buttons.bounce_seconds", "a number"),
])
def test_bad_value_names_key_value_and_what_is_allowed(tmp_path: Path, text: str, key: str,
                                                      allowed: str) -> None:
    user = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(user)
    msg = str(info.value)
    assert str(user) in msg and key in msg and allowed in msg


def test_section_that_is_not_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="display is 'big', but it must hold keys"):
        load_config(write(tmp_path, "display: big\n"))


def test_missing_file_is_named() -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config("/nonexistent/companion.yaml")


def test_malformed_yaml_gives_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not valid YAML at line 3, column 1"):
        load_config(write(tmp_path, "display:\n  driver: [ssd1306\n"))


def test_non_mapping_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="must hold keys and values"):
        load_config(write(tmp_path, "- a\n- b\n"))


def test_empty_user_file_changes_nothing(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, ""))["display.driver"] == "ssd1306"


def test_two_buttons_on_one_pin(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="both GPIO 5"):
        load_config(write(tmp_path, "buttons:\n  pins: {ok: 5}\n"))


def test_dump_names_sources_and_round_trips(tmp_path: Path) -> None:
    user = write(tmp_path, "log_level: debug\n")
    text = dump_config(load_config(user))
    assert f"# from {user}" in text
    again = write(tmp_path, text, "again.yaml")
    assert load_config(again)["log_level"] == "debug"


def test_data_dir_expands_home() -> None:
    assert "~" not in str(load_config(candidates=[]).data_dir)


def test_config_imports_no_game_and_names_none() -> None:
    """Each game's settings live in its own package; the loader finds them by the registry."""
    import ast

    import companion.config
    from companion.games import all_games

    source = Path(companion.config.__file__).read_text()
    imported = [n.module or "" for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.ImportFrom)]
    imported += [a.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Import)
                 for a in n.names]
    packages = {g.name.replace("-", "_") for g in all_games()}
    assert not [m for m in imported if m.split(".")[1:2] and m.split(".")[1] in packages]
    for game in all_games():
        assert f'"{game.name}"' not in source


def test_each_games_section_is_its_packages_schema() -> None:
    from companion.games import all_games

    games = schema()["games"]
    for game in all_games():
        assert games[game.name] == dict(game.load_settings() or {})
    assert set(games["default"].allowed.removeprefix("one of ").split(", ")) == \
        {g.name for g in all_games()}
    glade = all_games()[0]
    assert glade.name == "the-glade" and set(games["the-glade"]) == {"variant", "board", "model"}


def test_a_registered_games_settings_are_checked(tmp_path: Path, monkeypatch) -> None:
    """A new game brings its own section: defaults from the file, values checked by its schema,
    and its name allowed as the default game; nothing in the loader changes."""
    from dataclasses import replace

    from companion.games import all_games, registry

    real = {g.name: g for g in all_games()}
    extra = replace(real["gardlings"], name="dice", title="Dice",
                    settings=f"{__name__}:DICE_SETTINGS")
    monkeypatch.setattr(registry, "_REGISTRY", {**real, "dice": extra})
    defaults = tmp_path / "defaults.yaml"
    defaults.write_text((config_dir() / "companion.yaml").read_text()
                        + "  dice: {sides: 6}\n")
    config = load_config(write(tmp_path, "games:\n  default: dice\n  dice: {sides: 20}\n"),
                         defaults=defaults)
    assert config["games.dice.sides"] == 20 and config["games.default"] == "dice"
    with pytest.raises(ConfigError, match="games.dice.sides is 7.*one of 4, 6, 8, 12, 20"):
        load_config(write(tmp_path, "games:\n  dice: {sides: 7}\n"), defaults=defaults)
    with pytest.raises(ConfigError, match="default configuration lacks games.dice"):
        load_config(candidates=[])


DICE_SETTINGS = {"sides": choice(4, 6, 8, 12, 20)}


def test_config_output_keeps_its_format() -> None:
    """``companion config``: the files it came from, then the settings in the file's order."""
    text = dump_config(load_config(candidates=[]))
    assert text.startswith(f"# from {config_dir() / 'companion.yaml'}\n")
    body = text.split("\n", 1)[1]
    assert [line for line in body.splitlines() if not line.startswith(" ")] == [
        "display:", "buttons:", "camera:", "data_dir: ~/.local/share/companion",
        "log_level: info", "games:"]
    assert "  the-glade:\n    variant: basic\n    board:\n      rows: 7\n" in body
    assert "  glass-garden:\n    deck: null\n    think_seconds: 10\n    think_workers: 2\n" \
           "    model: null\n" \
           "  gardlings:\n" \
           "    catalogue: null\n    long_game: false\n  meadow:\n    catalogue: null\n" in body


# -- the configuration goes through the bounded reader (issue #21) --------------------------

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))


@pytest.mark.parametrize(("text", "code"), [
    (BOMB, "anchor"),
    ("display: " + "[" * 200 + "]" * 200 + "\n", "nested"),
    ("display:\n  contrast: " + "9" * 5000 + "\n", "digits"),
    ("display:\n  contrast: 10\n  contrast: 20\n", "twice"),
    ("display:\n  contrast: 1\x00\n", "NUL"),
])
def test_a_hostile_config_file_is_one_config_error(tmp_path: Path, text: str, code: str) -> None:
    with pytest.raises(ConfigError) as refused:
        load_config(write(tmp_path, text))
    message = str(refused.value)
    assert code in message and "\n" not in message and len(message) < 300
    assert str(tmp_path) in message


def test_an_empty_or_comment_only_config_is_the_defaults(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, "")).values == load_config(candidates=[]).values
    assert load_config(write(tmp_path, "# nothing\n")).values == load_config(candidates=[]).values


def test_the_photo_size_limit_is_a_setting(tmp_path: Path) -> None:
    assert load_config(candidates=[])["camera.max_megapixels"] == 40
    assert load_config(write(tmp_path, "camera:\n  max_megapixels: 12\n"))[
        "camera.max_megapixels"] == 12
    with pytest.raises(ConfigError, match="camera.max_megapixels"):
        load_config(write(tmp_path, "camera:\n  max_megapixels: 0\n"))


def test_a_config_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder"):
        load_config(tmp_path)
