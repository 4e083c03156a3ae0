"""Draw the wiring diagram (hardware/wiring.png) from the default configuration's pins.

Run from the checkout: ``.venv/bin/python hardware/make_wiring_diagram.py [--config FILE]
[--out PNG]``. The OLED goes to I2C bus 1 (3.3 V, SDA, SCL, GND); each button goes from its GPIO
pin (``buttons.pins``) to a ground pin of its own, the nearest free one. Change the pins in a
configuration file and run this again to draw your own wiring.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from companion.config import load_config  # noqa: E402
from companion.doctor.header import HEADER, grounds_for, physical_pin  # noqa: E402

W, H = 1300, 1000
PITCH = 36                  # vertical distance between header rows
TOP = 120                   # y of row 1
LEFT_X, RIGHT_X = 760, 800  # the header's two columns (odd pins left)
PIN_R = 13

COLOURS = {"3V3": (230, 120, 0), "5V": (210, 30, 30), "GND": (20, 20, 20),
           "SDA": (30, 90, 220), "SCL": (200, 160, 0)}
BUTTON_COLOURS = {"up": (0, 150, 70), "down": (140, 60, 190), "ok": (0, 150, 170)}


def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def pin_xy(pin: int) -> tuple[int, int]:
    return (LEFT_X if pin % 2 else RIGHT_X), TOP + (pin - 1) // 2 * PITCH


def pin_fill(label: str) -> tuple[int, int, int]:
    return {"3V3": (250, 200, 150), "5V": (250, 160, 160), "GND": (170, 170, 170)}.get(
        label, (200, 230, 200))


def draw_header(d: ImageDraw.ImageDraw, used: set[int]) -> None:
    x0, y0 = LEFT_X - 30, TOP - 30
    x1, y1 = RIGHT_X + 30, TOP + 19 * PITCH + 30
    d.rounded_rectangle((x0, y0, x1, y1), 10, fill=(30, 30, 30))
    d.text(((x0 + x1) // 2, y1 + 8), "Raspberry Pi\n40-pin header", fill=(0, 0, 0),
           font=font(16), anchor="ma", align="center")
    for pin, label in HEADER.items():
        x, y = pin_xy(pin)
        fill = pin_fill(label) if pin in used else (110, 110, 110)
        box = (x - PIN_R, y - PIN_R, x + PIN_R, y + PIN_R)
        if pin == 1:
            d.rectangle(box, fill=fill, outline=(255, 255, 255), width=2)
        else:
            d.ellipse(box, fill=fill, outline=(255, 255, 255), width=2)
        d.text((x, y), str(pin), fill=(0, 0, 0), font=font(12), anchor="mm")
        if pin not in used:  # the pin's name, small and grey, beside the header
            tx = x0 - 8 if pin % 2 else x1 + 8
            d.text((tx, y), label, fill=(150, 150, 150), font=font(11),
                   anchor="rm" if pin % 2 else "lm")


def wire(d: ImageDraw.ImageDraw, points: list[tuple[int, int]], colour: tuple[int, int, int],
         ) -> None:
    d.line(points, fill=colour, width=5, joint="curve")
    for p in (points[0], points[-1]):
        d.ellipse((p[0] - 5, p[1] - 5, p[0] + 5, p[1] + 5), fill=colour)


def tag(d: ImageDraw.ImageDraw, pin: int, text: str, colour: tuple[int, int, int]) -> None:
    _, y = pin_xy(pin)
    if pin % 2:
        d.text((LEFT_X - 40, y - 4), text, fill=colour, font=font(14), anchor="rb")
    else:
        d.text((RIGHT_X + 40, y - 4), text, fill=colour, font=font(14), anchor="lb")


def draw(config_file: str | None) -> Image.Image:
    config = load_config(config_file)
    pins = config["buttons.pins"]
    bus = config["display.i2c_port"]
    oled_pins = {"GND": 9, "VCC": 1, "SCL": 5, "SDA": 3}
    button_pins = {role: physical_pin(pins[role]) for role in ("up", "down", "ok")}
    grounds = dict(zip(button_pins, grounds_for(list(button_pins.values())), strict=True))
    used = set(oled_pins.values()) | set(button_pins.values()) | set(grounds.values())

    image = Image.new("RGB", (W, H), (255, 255, 255))
    d = ImageDraw.Draw(image)
    d.text((30, 20), "Table Companion wiring", fill=(0, 0, 0), font=font(30))
    d.text((30, 60), f"{config['display.driver'].upper()} OLED on I2C bus {bus} at "
           f"{config['display.i2c_address']:#04x}; buttons on GPIO (BCM) "
           + ", ".join(f"{r.upper()} {p}" for r, p in pins.items())
           + "; internal pull-ups, no resistors", fill=(60, 60, 60), font=font(16))
    draw_header(d, used)

    # the OLED, top left
    ox, oy = 110, 150
    d.rounded_rectangle((ox, oy, ox + 260, oy + 200), 8, fill=(20, 60, 120))
    d.rectangle((ox + 20, oy + 40, ox + 200, oy + 150), fill=(0, 0, 0))
    d.text((ox + 110, oy + 95), "OLED\n128x64", fill=(120, 200, 255), font=font(18),
           anchor="mm", align="center")
    names = ("GND", "VCC", "SCL", "SDA")
    for k, name in enumerate(names):
        py = oy + 30 + k * 45
        d.ellipse((ox + 250, py - 8, ox + 266, py + 8), fill=(220, 200, 120))
        d.text((ox + 240, py), name, fill=(255, 255, 255), font=font(14), anchor="rm")
        colour = COLOURS["3V3" if name == "VCC" else name]
        pin = oled_pins[name]
        px, pyy = pin_xy(pin)
        channel = 420 + k * 40
        wire(d, [(ox + 266, py), (channel, py), (channel, pyy), (px - PIN_R, pyy)], colour)
        label = {"VCC": "3.3 V", "GND": "GND", "SDA": "SDA (GPIO 2)", "SCL": "SCL (GPIO 3)"}
        tag(d, pin, label[name], colour)
    d.text((ox, oy + 210), "pin order differs between panels:\nfollow the labels on yours",
           fill=(90, 90, 90), font=font(13))

    # the buttons, bottom left
    for k, role in enumerate(("up", "down", "ok")):
        colour = BUTTON_COLOURS[role]
        bx, by = 150, 520 + k * 120
        d.rounded_rectangle((bx, by - 35, bx + 110, by + 35), 6, fill=(235, 235, 235),
                            outline=(80, 80, 80), width=2)
        d.ellipse((bx + 30, by - 25, bx + 80, by + 25), fill=(60, 60, 60))
        d.text((bx - 12, by), role.upper(), fill=colour, font=font(22), anchor="rm")
        a = (bx + 110, by - 18)
        b = (bx + 110, by + 18)
        gpio_pin, ground = button_pins[role], grounds[role]
        px, py = pin_xy(gpio_pin)
        channel = 640 - k * 35  # the lower the pin, the nearer the button: no overlaps
        wire(d, [a, (channel, a[1]), (channel, py), (px - PIN_R, py)], colour)
        tag(d, gpio_pin, f"{role.upper()}: GPIO {pins[role]}", colour)
        gx, gy = pin_xy(ground)
        if ground % 2:  # left column: straight across
            channel = 480 + k * 30
            wire(d, [b, (channel, b[1]), (channel, gy), (gx - PIN_R, gy)], COLOURS["GND"])
        else:  # right column: round the bottom of the header
            below = TOP + 19 * PITCH + 90 + k * 22
            side = RIGHT_X + 80 + k * 30
            wire(d, [b, (420 + k * 20, b[1]), (420 + k * 20, below), (side, below),
                     (side, gy), (gx + PIN_R, gy)], COLOURS["GND"])
        tag(d, ground, "GND", COLOURS["GND"])

    d.text((980, 140), "Seen from above, the Pi turned\nso the header is on the right\n"
           "and the USB ports point down:\npin 1 (square) is top left.\n\n"
           "Odd pins: inner row.\nEven pins: outer row.", fill=(40, 40, 40), font=font(15))
    legend_y = 420
    for k, (name, colour) in enumerate((("3.3 V", COLOURS["3V3"]), ("GND", COLOURS["GND"]),
                                        ("SDA", COLOURS["SDA"]), ("SCL", COLOURS["SCL"]),
                                        *((f"{r.upper()} button", c)
                                          for r, c in BUTTON_COLOURS.items()))):
        y = legend_y + k * 28
        d.line((980, y, 1030, y), fill=colour, width=5)
        d.text((1040, y), name, fill=(0, 0, 0), font=font(15), anchor="lm")
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", help="a configuration file with your pins")
    parser.add_argument("--out", default=str(HERE / "wiring.png"))
    args = parser.parse_args()
    out = Path(args.out)
    draw(args.config).save(out, optimize=True)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
