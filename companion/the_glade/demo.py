"""The Glade's demo: the start of a game between Toni and Emma, ruled from simulated photos;
and, to end the demo, a finished game scored from its photos.

Three placements ruled from photos (one of them illegal, and rejected) and the score so far;
the game is left saved. The finale (played after the other games' parts): "Score from
photos" of the bundled finished SAMPLE game (``config/games/the-glade/photos/game/``): the
glade board, then Toni's, Emma's and Liz's boards with their stores, what was read, the
score pad and the winner, saved to the history. The table simulator photographs the bundled
SAMPLE components; ``companion demo`` (``companion.demo``) runs these scripts through the
real service on simulated devices.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.devices.buttons import Key
from companion.devices.camera import FunctionCamera
from companion.paths import game_data_dir

K = Key
BOARD = {"rows": 7, "cols": 7, "centre": "D4"}
TONI_1 = {"D3": "hedgehog/acorn/beech", "D4": "hedgehog/blackberry/maple",
          "D5": "hedgehog/mushroom/oak"}
EMMA_1 = {"C4": "mouse/acorn/beech", "D4": "squirrel/acorn/maple", "E4": "toad/acorn/oak"}
TONI_ILLEGAL = {**TONI_1, "C4": "mouse/mushroom/beech"}
TONI_2 = {**TONI_1, "E4": "hedgehog/blackberry/oak", "F4": "hedgehog/blackberry/beech"}


PHOTOS = game_data_dir("the-glade") / "photos" / "game"


class Table:
    """The simulated table: which forest board lies under the camera now (or which bundled
    photo it sees), and the players' eyes on the screen (to retake a photo the companion was
    not sure of, as people would)."""

    def __init__(self) -> None:
        self.tiles: dict[str, str] = {}
        self.photo: Path | None = None
        self.service: Any = None
        self.retakes = 0

    def lay(self, tiles: dict[str, str]) -> Callable[[], None]:
        """A script step: the player's board now holds ``tiles``."""
        def step() -> None:
            self.tiles, self.photo = tiles, None
        return step

    def show(self, name: str) -> Callable[[], None]:
        """A script step: the camera sees the bundled photo ``name`` of the finished game."""
        return lambda: setattr(self, "photo", PHOTOS / name)

    def score_or_show_doubts(self, pick: Callable[[str], Any]) -> Callable[[], list[Any]]:
        """A script step after *Review and score*: the score pad read down and saved to the
        history; or, when the recogniser left a doubt (the demo cannot know what lies there),
        the doubts shown and the scoring left (kept, to resume)."""
        def step() -> list[Any]:
            title = self.service.page.title if self.service is not None else ""
            if title == "Final score":
                return [K.DOWN, K.DOWN, K.DOWN, K.DOWN, K.OK, pick("Save to history"), K.OK]
            if title.startswith("Review"):
                return [K.DOWN, K.DOWN, K.OK, K.BACK, K.BACK, pick("Leave (kept)")]
            return []
        return step

    def retake_if_unsure(self) -> list[Any]:
        """A script step: on "Not sure", choose "Retake" (up to 5 times in all)."""
        if self.service is None or self.service.page.title != "Not sure" or self.retakes >= 5:
            return []
        self.retakes += 1
        return [K.OK, self.retake_if_unsure]


def demo_script(table: Table) -> tuple[Key | Callable[[], Any], ...]:
    """The button presses (and the tiles laid between them), from the games menu back to it."""
    from companion.demo import choose

    def pick(label: str) -> Callable[[], list[Key]]:
        return choose(lambda: table.service, label)

    sure = table.retake_if_unsure
    return (
        pick("The Glade"),                      # The Glade
        pick("New game"), pick("Replace it"),   # (a saved game of another part: replaced)
        pick("2: "),                            # two players: Toni and Emma
        table.lay(TONI_1),                      # Toni lays three hedgehogs in column D
        K.OK, sure,                             # rule (legal, set of 3; retake if unsure)
        K.OK, K.OK,                             # accept, read which counter moved
        K.OK,                                   # end Toni's turn
        table.lay(EMMA_1),                      # Emma lays three acorns in row 4
        K.OK, sure, K.OK, K.OK,                 # rule (legal, set of 3), accept, read
        K.OK,                                   # end Emma's turn
        table.lay(TONI_ILLEGAL),                # Toni tries a mouse at C4
        K.OK, sure, K.DOWN, K.OK,               # rule: illegal, read why, back
        table.lay(TONI_2),                      # she takes it back and lays E4 and F4
        K.OK, sure, K.OK, K.OK,                 # rule (legal, set of 3, double), accept
        K.DOWN, K.OK, K.DOWN, K.DOWN, K.BACK,   # the score so far
        K.DOWN, K.OK,                           # leave the game (it stays saved)
        K.BACK,                                 # back to the games
    )


def finale_script(table: Table) -> tuple[Key | Callable[[], Any], ...]:
    """Score the bundled finished game from its photos, save it, see it in the history."""
    from companion.demo import choose

    def pick(label: str) -> Callable[[], list[Key]]:
        return choose(lambda: table.service, label)

    return (
        pick("The Glade"), pick("Score from photos"),
        pick("3: "),                            # Toni, Emma and Liz played
        table.show("glade.jpg"), K.OK, K.OK,    # the glade board: read; what it holds
        table.show("toni.jpg"), K.OK, K.OK,     # Toni's board with her store
        table.show("emma.jpg"), K.OK, K.OK,     # Emma's
        table.show("liz.jpg"), K.OK, K.OK,      # Liz's
        pick("Review and score"),               # the score pad and the winner, saved
        table.score_or_show_doubts(pick),       # (or the doubts, when there are some)
        pick("History"), K.BACK,                # the history holds it
        K.BACK,                                 # back to the games
    )


def demo_camera(table: Table, seed: int = 1) -> FunctionCamera:
    """The table simulator photographing the board on :class:`Table`, a new view each time."""
    from companion.the_glade.recognition.pack import read_pack
    from companion.the_glade.recognition.sim import render_photo

    pack = read_pack(game_data_dir("the-glade") / "sample-pack")
    seen: dict[Path, Any] = {}

    def frame(n: int) -> Any:
        if table.photo is not None:
            if table.photo not in seen:
                from companion.vision.image import load_image

                seen[table.photo] = load_image(table.photo)
            return seen[table.photo]
        state = {"board": BOARD, "forest": {"tiles": table.tiles, "counters": {}}}
        return render_photo(pack, state, seed=seed + n)[0]

    return FunctionCamera(frame, "table simulator")


def random_forest_frames(seed: int = 1) -> Callable[[int], Any]:
    """``camera.source: simulator`` for ``companion run``: photos of random SAMPLE forests."""
    import numpy as np

    from companion.the_glade.names import BoardGeometry
    from companion.the_glade.recognition.pack import read_pack
    from companion.the_glade.recognition.sim import random_forest, render_photo

    pack = read_pack(game_data_dir("the-glade") / "sample-pack")

    def frame(n: int) -> Any:
        state = random_forest(np.random.default_rng(seed + n), BoardGeometry(), pack)
        return render_photo(pack, state, seed=seed + n)[0]

    return frame


def scan_bundled_photo(model: Path, out: Path) -> str:
    """``companion scan`` on a bundled photo, with its overlay written to ``out``."""
    from companion.the_glade.recognition.jobs import scan

    photo = game_data_dir("the-glade") / "photos" / "forest-7x7-a.jpg"
    out.mkdir(parents=True, exist_ok=True)
    report = scan(photo, model=model, overlay=out / "scan-overlay.png", previous=None)
    return f"companion scan the-glade {photo.name}:\n{report.text}"


def sample_model(data_dir: Path) -> Path:
    """Enrol the bundled SAMPLE pack into ``data_dir`` (as a user enrols their own copy).

    The demo leaves out learning the look-alike pairs: the SAMPLE art is read right without
    them, and they would add about half a minute to every demo (a user's own ``companion
    enrol`` learns them)."""
    from companion.the_glade.recognition.jobs import enrol

    out = data_dir / "models" / "the-glade-sample"
    enrol(game_data_dir("the-glade") / "sample-pack", out=out, quiet=True, lookalikes=False)
    return out


class GladeDemo:
    """What ``companion demo`` needs from The Glade: players, a model, a camera, a script."""

    players = ("Toni", "Emma", "Liz", "Sam")

    def __init__(self) -> None:
        self.table = Table()
        self.model: Path | None = None

    def setup(self, settings: dict[str, Any], data_dir: Path) -> None:
        """Enrol the SAMPLE pack into the demo's data folder and point the game at it."""
        settings["games"]["players"] = list(self.players)
        self.model = sample_model(data_dir)
        settings["games"]["the-glade"]["model"] = str(self.model)

    def camera(self) -> FunctionCamera:
        return demo_camera(self.table)

    def script(self) -> tuple[Key | Callable[[], Any], ...]:
        return demo_script(self.table)

    def finale(self) -> tuple[Key | Callable[[], Any], ...]:
        """Played after every game's part: the demo ends by scoring a game from photos."""
        return finale_script(self.table)

    @staticmethod
    def frames(seed: int = 1) -> Callable[[int], Any]:
        """``camera.source: simulator``: photos of random SAMPLE forests."""
        return random_forest_frames(seed)

    def attach(self, service: Any) -> None:
        """The players' eyes on the screen (to retake a photo the companion was unsure of)."""
        self.table.service = service

    def epilogue(self, out: Path) -> tuple[str, str]:
        """What ``companion scan`` sees in a bundled photo, and where its overlay went."""
        assert self.model is not None
        return scan_bundled_photo(self.model, out), str(out / "scan-overlay.png")


DEMO = GladeDemo
