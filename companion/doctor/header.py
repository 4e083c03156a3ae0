"""The Raspberry Pi's 40-pin header: what each physical pin is (the same on a Pi 2 to a Pi 5).

>>> physical_pin(5), nearest_ground(29), grounds_for([29, 31, 33])
(29, 30, [30, 34, 39])
"""

from __future__ import annotations

#: physical pin -> label; GPIO pins are "GPIO n" (BCM numbering)
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO 2", 4: "5V", 5: "GPIO 3", 6: "GND", 7: "GPIO 4", 8: "GPIO 14",
    9: "GND", 10: "GPIO 15", 11: "GPIO 17", 12: "GPIO 18", 13: "GPIO 27", 14: "GND",
    15: "GPIO 22", 16: "GPIO 23", 17: "3V3", 18: "GPIO 24", 19: "GPIO 10", 20: "GND",
    21: "GPIO 9", 22: "GPIO 25", 23: "GPIO 11", 24: "GPIO 8", 25: "GND", 26: "GPIO 7",
    27: "GPIO 0", 28: "GPIO 1", 29: "GPIO 5", 30: "GND", 31: "GPIO 6", 32: "GPIO 12",
    33: "GPIO 13", 34: "GND", 35: "GPIO 19", 36: "GPIO 16", 37: "GPIO 26", 38: "GPIO 20",
    39: "GND", 40: "GPIO 21",
}

#: special uses worth naming beside the GPIO number
FUNCTIONS: dict[int, str] = {2: "SDA1", 3: "SCL1", 14: "TXD", 15: "RXD", 0: "ID_SD", 1: "ID_SC"}

GROUNDS = tuple(pin for pin, label in HEADER.items() if label == "GND")


def physical_pin(gpio: int) -> int:
    """The physical header pin of a BCM GPIO number."""
    for pin, label in HEADER.items():
        if label == f"GPIO {gpio}":
            return pin
    raise ValueError(f"GPIO {gpio} is not on the 40-pin header")


def nearest_ground(pin: int, taken: tuple[int, ...] = ()) -> int:
    """The ground pin nearest along the header to ``pin``, skipping ``taken`` while it can."""
    free = [g for g in GROUNDS if g not in taken] or list(GROUNDS)
    return min(free, key=lambda g: (abs((g - 1) // 2 - (pin - 1) // 2), g))


def grounds_for(pins: list[int]) -> list[int]:
    """A ground pin for each of ``pins`` (e.g. buttons), each near its pin, none shared."""
    chosen: list[int] = []
    for pin in pins:
        chosen.append(nearest_ground(pin, tuple(chosen)))
    return chosen
