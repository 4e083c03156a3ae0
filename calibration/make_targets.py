"""Write the printable calibration targets into this folder (the PDFs are committed).

Run from the checkout: ``.venv/bin/python calibration/make_targets.py``. It writes, for A4 and
US Letter, ``charuco-<paper>.pdf`` (the lens calibration board) and
``corner-markers-<paper>.pdf`` (optional markers for the game board's corners), and a PNG
preview of each A4 page.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def main() -> None:
    from companion.calibration.printables import charuco_page, corner_markers_page, write_all

    for path in write_all(HERE):
        print(f"wrote {path.relative_to(HERE.parent)} ({path.stat().st_size // 1024} KiB)")
    for name, page in (("charuco-a4", charuco_page("a4")),
                       ("corner-markers-a4", corner_markers_page("a4"))):
        preview = HERE / f"{name}.png"
        page.convert("L").resize((page.width // 4, page.height // 4)).save(preview,
                                                                            optimize=True)
        print(f"wrote {preview.relative_to(HERE.parent)}")


if __name__ == "__main__":
    main()
