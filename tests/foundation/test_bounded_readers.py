"""Bounded readers: a damaged or hostile data file or photo is refused by name, quickly, in one
line, before it can exhaust the stack or the memory of a 1 GB Pi."""

from __future__ import annotations

import json
import os
import struct
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import storage
from companion.devices.camera import FileCamera, read_image
from companion.errors import (
    CompanionError,
    ConfigError,
    InputFileError,
    RecognitionError,
    StateError,
)
from companion.history import History
from companion.session import SessionStore
from companion.storage import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    nesting_exceeds,
    parse_data,
    read_data_file,
)
from companion.vision import image as vision_image
from companion.vision.image import MAX_PIXELS, decode_image, header_size, load_image


def refused(path: Path, error: type[CompanionError] = StateError, what: str = "state file",
            ) -> str:
    """The one-line refusal of ``path``, which names the file."""
    with pytest.raises(error) as caught:
        read_data_file(path, what)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message and len(message) < 400
    return message


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- data files ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["deep.json", "deep.yaml", "deep.txt"])
def test_a_100000_deep_file_is_refused_not_a_recursion_error(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(nested(100_000))
    started = time.monotonic()
    assert "nested more than 64 deep" in refused(path)
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_nesting_up_to_the_limit_is_read(tmp_path: Path, suffix: str) -> None:
    ok, deep = tmp_path / f"ok{suffix}", tmp_path / f"deep{suffix}"
    ok.write_text(nested(MAX_DEPTH))
    deep.write_text(nested(MAX_DEPTH + 1))
    value = read_data_file(ok)
    for _ in range(MAX_DEPTH - 1):
        value = value[0]
    assert value == []
    assert "nested" in refused(deep)


def test_deep_block_yaml_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("".join(" " * i + f"k{i}:\n" for i in range(100)) + " " * 100 + "x\n")
    assert "nested" in refused(path)


def test_the_json_depth_scan_skips_strings_and_counts_both_brackets() -> None:
    assert not nesting_exceeds('[[1], "[[[[[[", {"a": "]]"}]', 2)
    assert nesting_exceeds('{"a": [[1]]}', 2)
    assert not nesting_exceeds(r'["\"[[[[[[", []]', 2)
    assert nesting_exceeds(r'["\\", [[]]]', 2)  # an escaped backslash ends the string
    assert not nesting_exceeds('"' + "[" * 1000, 2)  # an unclosed string: JSON's own error
    assert not nesting_exceeds("[" * 1000, 2)  # never closed: json reports it


def test_a_billion_laughs_file_is_refused_at_once_and_never_expanded(tmp_path: Path) -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    path = tmp_path / "laughs.yaml"
    path.write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    message = refused(path)
    assert time.monotonic() - started < 1
    assert "anchor or alias" in message and "line 1" in message
    assert message.count("lol") == 0


def test_a_single_anchor_or_alias_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("players:\n  - &p {name: Toni}\n  - *p\n")
    assert "line 2 uses a YAML anchor" in refused(path)


@pytest.mark.parametrize(("name", "text"), [
    ("n.json", '{"round": %s}'), ("n.yaml", "round: %s\n"), ("n.txt", "[%s]"),
    ("neg.json", '{"round": -%s}')])
def test_long_whole_numbers_are_refused(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text % ("9" * MAX_INT_DIGITS))
    data = read_data_file(path)
    assert abs(data["round"] if isinstance(data, dict) else data[0]) == 10 ** MAX_INT_DIGITS - 1
    for digits in (MAX_INT_DIGITS + 1, 5000):  # 5000 is past Python's own int(str) limit
        path.write_text(text % ("9" * digits))
        assert f"has {digits} digits" in refused(path)


@pytest.mark.parametrize("name", ["s.json", "s.yaml"])
def test_nul_bytes_are_refused_in_one_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b'{"round": 1}\x00\x00')
    assert "NUL bytes" in refused(path)


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(storage.MAX_DATA_BYTES + 1)  # sparse: 10 MB of NULs, not on disk
    assert "larger than 10 MB" in refused(path)
    path.write_bytes(b" " * (storage.MAX_DATA_BYTES - 8) + b"[1, 2]")
    assert read_data_file(path) == [1, 2]


def test_odd_yaml_keys_and_long_duplicates_give_one_short_line(tmp_path: Path) -> None:
    path = tmp_path / "k.yaml"
    path.write_text("? [a, b]\n: 1\n")
    assert "a key is a list" in refused(path)
    path = tmp_path / "k.json"
    key = "x" * 5000
    path.write_text(f'{{"{key}": 1, "{key}": 2}}')
    assert "appears twice" in refused(path)


def test_a_byte_order_mark_is_not_an_error(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"round": 2}).encode())
    assert read_data_file(path) == {"round": 2}


def test_the_json_error_message_reads_once(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"a": "unclosed')
    assert "starting at line 1" in refused(path)


def test_a_deep_saved_game_is_moved_aside_and_a_deep_history_named(tmp_path: Path) -> None:
    (tmp_path / "session.json").write_text(nested(100_000))
    with pytest.raises(StateError, match="nested more than 64 deep.*moved to"):
        SessionStore(tmp_path).load()
    assert not (tmp_path / "session.json").exists()
    (tmp_path / "history.json").write_text(f'{{"games": [{nested(5000)}]}}')
    with pytest.raises(StateError, match="history file .* nested"):
        History(tmp_path).games()


def test_a_config_or_deck_reader_gets_its_own_error_class(tmp_path: Path) -> None:
    path = tmp_path / "companion.yaml"
    path.write_text(nested(100))
    with pytest.raises(ConfigError, match="config file .* nested more than 64") as refused:
        read_data_file(path, "config file", error=ConfigError)
    assert not isinstance(refused.value, StateError)
    with pytest.raises(ConfigError, match="deck file x.yaml: .*anchor"):
        parse_data("a: &a 1\nb: *a\n", Path("x.yaml"), "deck file", error=ConfigError)
    with pytest.raises(InputFileError):
        read_data_file(tmp_path / "missing.yaml", "config file", error=ConfigError)


# -- photos -------------------------------------------------------------------------------

def png_header(width: int, height: int) -> bytes:
    """A PNG whose header claims ``width`` x ``height`` (its pixels are cut short)."""
    ihdr = b"IHDR" + struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
    return b"\x89PNG\r\n\x1a\n" + chunk + b"\x00\x00\x00\x00IDAT" + b"\x00" * 8


def jpeg_header(width: int, height: int) -> bytes:
    """A JPEG's markers up to its frame header (APP0, a stray byte, fill bytes, SOF0)."""
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00" + bytes(9)
    sof = b"\xff\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + bytes(9)
    return b"\xff\xd8" + app0 + b"\x00" + sof + b"\xff\xda"


@pytest.fixture
def no_decoding(monkeypatch: pytest.MonkeyPatch) -> None:
    def decode(*args: object) -> None:
        raise AssertionError("decoded before the size was checked")

    monkeypatch.setattr(vision_image.cv2, "imdecode", decode)


@pytest.mark.parametrize("make", [png_header, jpeg_header])
def test_a_15000_square_photo_is_refused_from_its_header(tmp_path: Path, make: object,
                                                         no_decoding: None) -> None:
    path = tmp_path / "big.img"
    path.write_bytes(make(15000, 15000))  # type: ignore[operator]
    with pytest.raises(RecognitionError, match="15000x15000 pixels, too large.*40 megapixels"):
        load_image(path)
    with pytest.raises(InputFileError, match="15000x15000 pixels, too large"):
        read_image(path)
    with pytest.raises(InputFileError, match="too large"):
        FileCamera(path).capture()


def test_the_limit_is_the_one_constant(tmp_path: Path, no_decoding: None) -> None:
    assert MAX_PIXELS == 40_000_000
    side = int(MAX_PIXELS ** 0.5) + 1
    with pytest.raises(RecognitionError, match="too large"):
        decode_image(png_header(side, side), "photo")


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".tif", ".webp"])
def test_header_sizes_match_real_files(suffix: str) -> None:
    ok, data = cv2.imencode(suffix, np.zeros((37, 53, 3), np.uint8))
    assert ok
    assert header_size(data.tobytes()) == (53, 37)
    assert header_size(jpeg_header(640, 480)) == (640, 480)
    assert header_size(b"\xff\xd8\xff\xda") is None and header_size(b"not an image") is None


def test_a_file_too_large_for_any_photo_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.png"
    with path.open("wb") as handle:
        handle.truncate(vision_image.MAX_FILE_BYTES + 1)  # sparse
    with pytest.raises(RecognitionError, match="larger than"):
        load_image(path)
    with pytest.raises(InputFileError, match="larger than"):
        read_image(path)


def test_reading_a_photo_reserves_about_its_own_size(tmp_path: Path) -> None:
    """A photo's bytes are read as they come: reading a 1 MB photo must not reserve the
    whole file limit (hundreds of MB, once for every scan on a 2 GB Pi)."""
    import tracemalloc

    path = tmp_path / "photo.jpg"
    rng = np.random.default_rng(2)
    assert cv2.imwrite(str(path), rng.integers(0, 255, (600, 800, 3), np.uint8))
    size = path.stat().st_size
    tracemalloc.start()
    try:
        data = vision_image.read_photo_bytes(path, "photo")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert data == path.read_bytes()
    assert 50 * size < vision_image.MAX_FILE_BYTES
    assert peak < 4 * size + (2 << 20)


def damaged_jpeg() -> bytes:
    rng = np.random.default_rng(1)
    _, data = cv2.imencode(".jpg", rng.integers(0, 255, (200, 200, 3), np.uint8))
    raw = bytearray(data.tobytes())
    raw[len(raw) // 2:len(raw) // 2] = b"\x00\x11\x22"  # garbage in the compressed data
    return bytes(raw)


def test_libjpeg_warnings_do_not_reach_the_user(tmp_path: Path,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "damaged.jpg"
    path.write_bytes(damaged_jpeg())
    assert load_image(path).shape == (200, 200, 3)
    assert read_image(path).shape == (200, 200, 3)
    assert "JPEG" not in capfd.readouterr().err


def test_other_lines_on_stderr_still_pass(capfd: pytest.CaptureFixture[str]) -> None:
    with vision_image._without_decoder_noise():
        os.write(2, b"Corrupt JPEG data: 3 extraneous bytes before marker 0xd9\n")
        os.write(2, b"another thread says hello\n")
    err = capfd.readouterr().err
    assert "Corrupt" not in err and "another thread says hello" in err


def test_scan_takes_the_photo_limit_from_the_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """camera.max_megapixels bounds the photos a command reads, from the header."""
    import cv2
    import numpy as np

    from companion.cli import main
    from companion.vision import image as vision_image

    photo = tmp_path / "big.png"
    cv2.imwrite(str(photo), np.zeros((1500, 1000, 3), np.uint8))  # 1.5 megapixels
    config = tmp_path / "c.yaml"
    config.write_text(f"data_dir: {tmp_path}\ncamera:\n  max_megapixels: 1\n")
    try:
        main(["scan", "the-glade", str(photo), "--model", str(tmp_path / "none"),
              "--config", str(config)])  # refused for its model, after reading the limit
        capsys.readouterr()
        assert vision_image.max_pixels() == 1_000_000
        with pytest.raises(RecognitionError, match="1000x1500 pixels, too large.*1 megapixels"):
            vision_image.load_image(photo)
    finally:
        vision_image.set_max_pixels(vision_image.MAX_PIXELS)
    assert vision_image.load_image(photo).shape == (1500, 1000, 3)


def test_the_recognisers_files_go_through_the_bounded_reader(tmp_path: Path) -> None:
    """scan's --previous file, a card model's manifest and cut-sheet's pack.yaml refuse a
    billion-laughs file in one line instead of expanding it."""
    from companion.errors import CompanionError
    from companion.the_glade.recognition.consistency import load_previous
    from companion.the_glade.recognition.cut_sheet import _existing_pack
    from companion.vision.cards.model import load_card_model

    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(8))
    previous = tmp_path / "previous.yaml"
    previous.write_text(bomb)
    with pytest.raises(CompanionError) as caught:
        load_previous(previous)
    assert "\n" not in str(caught.value)
    model = tmp_path / "model"
    model.mkdir()
    (model / "manifest.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CompanionError, match="manifest.json is corrupt"):
        load_card_model(model, "glass-garden")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text(bomb)
    with pytest.raises(CompanionError) as caught:
        _existing_pack(pack)
    assert "fix it (or move it away)" in str(caught.value) and "\n" not in str(caught.value)
