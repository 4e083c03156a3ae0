"""Display port: luma's dummy device stands in for the OLED; the recorder writes GIF and PNG."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from companion.devices.display import Display, RecordingDisplay, frame_to_text, open_display
from companion.errors import DeviceError

SETTINGS = {"driver": "dummy", "i2c_port": 1, "i2c_address": 0x3C, "rotation": 0,
            "width": 128, "height": 64, "contrast": 255, "dim_after_seconds": 0,
            "preview_dir": None}


def frame(text: str = "hi") -> Image.Image:
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).text((2, 2), text, fill=1)
    return img


def test_dummy_keeps_the_last_frame() -> None:
    with open_display(SETTINGS) as display:
        display.show(frame("one"))
        shown = display.device.image.convert("1")
        assert ImageChops.difference(shown, frame("one")).getbbox() is None


def test_rotation_is_passed_to_luma() -> None:
    display = open_display({**SETTINGS, "rotation": 180})
    assert display.device.rotate == 2
    display.show(frame())


def test_wrong_frame_size_is_refused() -> None:
    with pytest.raises(ValueError, match="panel"):
        open_display(SETTINGS).show(Image.new("1", (64, 32)))


def test_close_leaves_the_stopped_screen_and_is_idempotent() -> None:
    display = open_display(SETTINGS)
    display.close(frame("stopped"))
    display.close(frame("other"))
    assert display.device.persist is True
    assert ImageChops.difference(display.last_frame, frame("stopped")).getbbox() is None


def test_dim_lowers_contrast_once() -> None:
    calls: list[int] = []
    display = open_display(SETTINGS)
    display.device.contrast = calls.append
    display.dim(True)
    display.dim(True)
    display.dim(False, 200)
    assert calls == [8, 200]


def test_recorder_writes_gif_and_png(tmp_path: Path) -> None:
    display = open_display({**SETTINGS, "driver": "preview", "preview_dir": str(tmp_path)})
    assert isinstance(display, RecordingDisplay)
    display.show(frame("a"))
    display.show(frame("a"))  # the same frame again is not a new one
    display.show(frame("b"))
    display.close(frame("stopped"))
    assert len(display.frames) == 3
    gif = Image.open(tmp_path / "frames.gif")
    assert gif.size == (512, 256) and gif.n_frames == 3
    assert Image.open(tmp_path / "last-frame.png").size == (128, 64)


def test_recorder_without_frames_cannot_write(tmp_path: Path) -> None:
    display = open_display({**SETTINGS, "driver": "preview"})
    assert isinstance(display, RecordingDisplay)
    with pytest.raises(DeviceError, match="no frames"):
        display.write_gif(tmp_path / "x.gif")


def test_frame_to_text_draws_quadrants() -> None:
    img = Image.new("1", (4, 2))
    img.putpixel((0, 0), 1)
    img.putpixel((2, 0), 1)
    img.putpixel((3, 1), 1)
    text = frame_to_text(img).splitlines()
    assert text[1] == "|▘▚|"


def test_missing_oled_is_a_device_error_naming_the_address() -> None:
    # No I2C bus on a build machine: the same path as an unplugged or miswired panel.
    with pytest.raises(DeviceError, match=r"no OLED answering at 0x3c on I2C bus 9"):
        open_display({**SETTINGS, "driver": "sh1106", "i2c_port": 9})


def test_display_wraps_any_luma_device() -> None:
    from luma.core.device import dummy

    display = Display(dummy(mode="1"), "test")
    display.show(frame())
    assert display.width == 128 and display.height == 64


def test_a_frame_already_on_the_panel_is_not_sent_again() -> None:
    display = open_display(SETTINGS)
    sent: list[Image.Image] = []
    display.device.display = sent.append
    for text in ("a", "a", "b", "b", "a"):
        display.show(frame(text))
    assert len(sent) == 3


def test_preview_prints_its_frames_by_default(tmp_path: Path, capsys) -> None:
    """With no panel, the terminal is the screen: ``companion run`` with the preview display
    shows every frame there without --verbose."""
    display = open_display({**SETTINGS, "driver": "preview", "preview_dir": str(tmp_path)})
    assert isinstance(display, RecordingDisplay) and display.echo
    display.show(frame("hello"))
    out = capsys.readouterr().out
    assert out.startswith("+" + "-" * 64 + "+") and out.count("\n") == 34


def test_preview_can_be_quiet_and_the_dummy_never_prints(capsys) -> None:
    quiet = open_display({**SETTINGS, "driver": "preview"}, echo=False)
    quiet.show(frame())
    dummy = open_display(SETTINGS, echo=True)
    dummy.show(frame())
    assert capsys.readouterr().out == ""
