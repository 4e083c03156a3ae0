"""Display port: show a Pillow image on the OLED, or record it when there is no OLED.

Screens are drawn elsewhere, by pure functions, as 1-bit Pillow images of the panel's size; this
module only puts them somewhere: a luma.oled SSD1306/SH1106 over I2C on the Pi, luma's dummy
device in tests, and off the Pi a recorder (the ``preview`` driver) that keeps the last
:data:`MAX_FRAMES` frames for an animated GIF and a PNG (a service left running for days keeps
no more) and, unless told not to, prints each one in the terminal: with no panel, the terminal
is the screen the user drives the service by.
"""

from __future__ import annotations

import contextlib
import itertools
import time
from collections import deque
from pathlib import Path
from typing import Any

from PIL import Image

from companion.errors import DeviceError

_QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"
#: The most frames the ``preview`` display keeps (about 1.5 MB): the GIF shows the last ones.
MAX_FRAMES = 1000


def frame_to_text(image: Image.Image) -> str:
    """A 1-bit frame as terminal text, one character per 2x2 pixels (a 128x64 panel: 64x32)."""
    img = image.convert("1")
    w, h = img.size
    px = img.load()
    lines = []
    for y in range(0, h, 2):
        row = []
        for x in range(0, w, 2):
            bits = 0
            for i, (dx, dy) in enumerate(((0, 0), (1, 0), (0, 1), (1, 1))):
                if x + dx < w and y + dy < h and px[x + dx, y + dy]:
                    bits |= 1 << i
            row.append(_QUADRANTS[bits])
        lines.append("".join(row).rstrip())
    border = "+" + "-" * (w // 2) + "+"
    return "\n".join([border, *("|" + line.ljust(w // 2) + "|" for line in lines), border])


class Display:
    """An OLED (or stand-in) that shows whole frames; a context manager, closed once."""

    def __init__(self, device: Any, name: str) -> None:
        self.device = device
        self.name = name
        self.width: int = device.width
        self.height: int = device.height
        self.closed = False
        self.last_frame: Image.Image | None = None
        self.dimmed = False

    def show(self, frame: Image.Image) -> None:
        """Put ``frame`` on the panel (it must match the panel's size). The loop draws on every
        turn; a frame the panel already shows is not sent again (no I2C traffic when idle)."""
        if frame.size != (self.width, self.height):
            raise ValueError(f"frame is {frame.size}, panel is {(self.width, self.height)}")
        if self.last_frame is not None and frame.tobytes() == self.last_frame.tobytes():
            return
        self.last_frame = frame
        try:
            self.device.display(frame.convert(self.device.mode))
        except OSError as exc:
            raise DeviceError(f"the OLED stopped answering ({exc}): check its wiring") from None
        self.shown(frame)

    def shown(self, frame: Image.Image) -> None:
        """A new frame went to the panel (a hook for recording back-ends)."""

    def dim(self, on: bool, contrast: int = 255) -> None:
        """Lower the panel's contrast after idle time, to spare the OLED; raise it again."""
        if on == self.dimmed:
            return
        self.dimmed = on
        with contextlib.suppress(OSError, AttributeError):
            self.device.contrast(8 if on else contrast)

    def close(self, last: Image.Image | None = None) -> None:
        """Leave ``last`` (a "stopped" screen) on the panel and let go of the device."""
        if self.closed:
            return
        self.closed = True
        if last is not None:
            self.show(last)
        # luma clears the panel at exit unless told to keep the picture.
        self.device.persist = last is not None
        with contextlib.suppress(OSError, AttributeError):
            self.device.cleanup()

    def __enter__(self) -> Display:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class RecordingDisplay(Display):
    """Off the Pi: keeps the last ``max_frames`` frames with their times on screen, to write as
    a GIF and PNGs; older frames are let go, so memory stays flat however long it runs."""

    def __init__(self, device: Any, out_dir: Path | None = None, echo: bool = False,
                 clock: Any = time.monotonic, max_frames: int = MAX_FRAMES) -> None:
        super().__init__(device, "preview")
        self.out_dir = out_dir
        self.echo = echo
        self.frames: deque[tuple[Image.Image, float]] = deque(maxlen=max_frames)
        self._clock = clock
        #: fixed time per frame in the GIF (ms); None keeps the real timing
        self.frame_ms: int | None = None

    def shown(self, frame: Image.Image) -> None:
        self.frames.append((frame.copy(), self._clock()))
        if self.echo:
            print(frame_to_text(frame), flush=True)

    def write_gif(self, path: Path, scale: int = 4, frame_ms: int | None = None) -> Path:
        """Every frame, white on black like the panel, at ``scale``; fixed or real timing."""
        if not self.frames:
            raise DeviceError("no frames were shown, so there is no animation to write")
        images = [f.convert("L").resize((self.width * scale, self.height * scale),
                                        Image.Resampling.NEAREST).convert("P")
                  for f, _ in self.frames]
        if frame_ms is None:
            stamps = [t for _, t in self.frames]
            durations = [max(200, int((b - a) * 1000)) for a, b in itertools.pairwise(stamps)]
            durations.append(2000)
        else:
            durations = [frame_ms] * len(images)
        path.parent.mkdir(parents=True, exist_ok=True)
        images[0].save(path, save_all=True, append_images=images[1:], duration=durations,
                       loop=0, optimize=False, disposal=1)
        return path

    def close(self, last: Image.Image | None = None) -> None:
        if last is not None and not self.closed:
            self.show(last)
        if self.out_dir is not None and self.frames and not self.closed:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            self.frames[-1][0].convert("L").save(self.out_dir / "last-frame.png")
            self.write_gif(self.out_dir / "frames.gif", frame_ms=self.frame_ms)
        super().close(None)


def open_display(settings: dict[str, Any], data_dir: Path | None = None,
                 echo: bool | None = None) -> Display:
    """The display the ``display`` section of the configuration asks for.

    ``echo``: whether the ``preview`` display prints each frame in the terminal; by default
    (None) it does, since it is then the only screen there is. Pass False to keep it quiet
    (a scripted run writing only the GIF). The OLED and the dummy never print.
    """
    driver = settings["driver"]
    size = {"width": settings["width"], "height": settings["height"]}
    rotate = settings["rotation"] // 90
    if driver in ("dummy", "preview"):
        from luma.core.device import dummy

        device = dummy(rotate=rotate, mode="1", **size)
        if driver == "dummy":
            return Display(device, "dummy")
        out = settings.get("preview_dir") or (data_dir / "frames" if data_dir else None)
        return RecordingDisplay(device, Path(out).expanduser() if out else None,
                                echo=True if echo is None else echo)
    return _open_oled(driver, settings, rotate, size)


def _open_oled(driver: str, settings: dict[str, Any], rotate: int,
               size: dict[str, int]) -> Display:
    try:
        from luma.core.error import DeviceNotFoundError, DevicePermissionError
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled
    except ImportError as exc:
        raise DeviceError(f"luma.oled is not installed ({exc}); reinstall the companion") from None
    address, port = settings["i2c_address"], settings["i2c_port"]
    try:
        serial = i2c(port=port, address=address)
        device = getattr(oled, driver)(serial, rotate=rotate, **size)
        device.contrast(settings["contrast"])
    except DevicePermissionError:
        raise DeviceError(f"no permission to use I2C bus {port}: add the user to the i2c group "
                          "('sudo usermod -aG i2c $USER', then log in again)") from None
    except (DeviceNotFoundError, OSError) as exc:
        raise DeviceError(f"no OLED answering at {address:#04x} on I2C bus {port} ({exc}): check "
                          "the wiring, that I2C is enabled (sudo raspi-config), and the address "
                          f"with 'i2cdetect -y {port}'") from None
    return Display(device, f"{driver} at {address:#04x}")
