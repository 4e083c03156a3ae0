"""Enrolment for Glass Garden: read a card pack against its deck and learn every face."""

from __future__ import annotations

import time
from pathlib import Path

from companion.errors import CompanionError, ModelError
from companion.glass_garden.deck import SAMPLE_DECK, Deck, load_deck
from companion.glass_garden.recognition.art import CRITTER_FACES, GLASS_FACES, PLANT_FACES
from companion.report import Report
from companion.vision.cards.faces import FaceModel
from companion.vision.cards.model import CardModel, save_card_model
from companion.vision.cards.pack import CardPack, read_card_pack

GAME = "glass-garden"


def deck_for(ref: str) -> Deck:
    """The deck a pack or model names: "sample" or a deck file's absolute path."""
    try:
        return load_deck(SAMPLE_DECK if ref == "sample" else Path(ref))
    except CompanionError as exc:
        raise ModelError(f"deck {ref}: {exc}") from None


def deck_cards(deck: Deck) -> dict[str, tuple[str, ...]]:
    """Every card of ``deck`` with the faces the spec gives it."""
    cards: dict[str, tuple[str, ...]] = {p.name: PLANT_FACES for p in deck.plants}
    cards.update({c.name: CRITTER_FACES for c in deck.critters})
    cards.update({g.name: GLASS_FACES for g in deck.glass})
    return cards


def read_pack(folder: Path) -> CardPack:
    return read_card_pack(folder, GAME, lambda ref: deck_cards(deck_for(ref)))


def build_model(pack: CardPack, *, renders: int = 40, seed: int = 0) -> CardModel:
    """Learn the pack's faces (in the pack's order)."""
    faces = [(f.card, f.face) for f in pack.faces]
    learnt = FaceModel.learn([f.image for f in pack.faces], renders=renders, seed=seed)
    manifest = {"sample": bool(pack.extra.get("sample", pack.deck == "sample"))}
    return CardModel(GAME, pack.deck, pack.card_size_mm, faces, learnt, manifest)


def enrol(pack: Path, *, out: Path) -> Report:
    """``companion enrol glass-garden PACK --out MODEL``."""
    start = time.perf_counter()
    data = read_pack(Path(pack))
    model = build_model(data)
    save_card_model(model, Path(out))
    seconds = time.perf_counter() - start
    cards = sorted({c for c, _ in model.faces})
    report = {"model": str(out), "game": GAME, "deck": model.deck, "cards": len(cards),
              "faces": len(model.faces), "card_size_mm": list(model.card_size_mm),
              "least": round(model.model.least, 3), "margin": round(model.model.margin, 3),
              "seconds": round(seconds, 2)}
    text = (f"Enrolled {len(model.faces)} faces of {len(cards)} cards in {seconds:.1f} s.\n"
            f"Model written to {out}.")
    return Report(report, text)
