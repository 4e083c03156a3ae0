"""Step 2 (Grow Succulents) and the succulent effects."""

from __future__ import annotations

from gg_helpers import make_deck, plant, state

from companion.glass_garden.actions import (
    Done,
    FlipCritter,
    FlipGlass,
    Grow,
    Move,
    Protect,
    Shift,
    Skip,
)
from companion.glass_garden.fertile_zone import resource_id

CLOUDS = ["cloud"]


def deck(effects: dict[int, list[object]] | None = None, cost: str = "cloud") -> object:
    effects = effects or {}
    return make_deck({i: plant("ABCDEFGH"[i], upper=CLOUDS, cost=cost, effect=effects.get(i))
                      for i in range(8)})


def grows(s: object) -> list[Grow]:
    return [a for a in s.legal_actions() if isinstance(a, Grow)]  # type: ignore[attr-defined]


def test_grow_flips_and_growing_is_optional() -> None:
    s = state(deck(), "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    assert Grow(5, pay) in grows(s) and Done() in s.legal_actions()
    after = s.apply(Grow(5, pay))
    assert after.garden.is_grown(5)


def test_a_resource_pays_once_per_growing_step_but_again_next_turn() -> None:
    s = state(deck(), "@ d^ e^ f^ a- b- c- g^ h^", phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    after = s.apply(Grow(5, pay))
    assert grows(after) == []  # the only set was used
    next_turn = after.apply(Done()).apply(Done())
    assert next_turn.turn == 2 and next_turn.used == frozenset()
    assert grows(next_turn)


def test_the_plant_may_pay_with_its_own_resources() -> None:
    s = state(deck(), "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    assert any(g.plant == 0 for g in grows(s))


def test_growing_an_edge_plant_lights_its_dark_glass() -> None:
    s = state(deck(), "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    assert s.apply(Grow(0, pay)).garden.glass == 1 << 1  # middle-left, across the critter
    assert s.apply(Grow(1, pay)).garden.glass == 0  # not an edge plant


def test_effect_is_performed_after_growing_and_is_mandatory() -> None:
    d = deck({0: [{"move": {"plant": "self", "direction": "up"}}]})
    s = state(d, "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    mid = s.apply(Grow(0, pay))
    assert mid.legal_actions() == [Move(0, -1)]  # no Done, no Skip: mandatory
    assert mid.apply(Move(0, -1)).garden.rows[0] == 0


def test_a_step_with_nothing_to_act_on_is_skipped() -> None:
    d = deck({0: [{"shift": {"plant": "self"}}]})
    s = state(d, "d- e- f- g- h- b- c- a- @", turn=9, phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    after = s.apply(Grow(0, pay))
    assert after.pending == () and Done() in after.legal_actions()


def test_growing_changes_what_else_can_grow_and_order_is_chosen() -> None:
    # sprouts become active when their card flips: growing A enables a sprout set for H
    d = make_deck({0: plant("A", upper=["cloud", "sprout"], cost="cloud"),
                   1: plant("B", upper=["cloud", "sprout"], cost="cloud"),
                   2: plant("C", upper=["cloud", "sprout"], cost="cloud"),
                   7: plant("H", cost="sprout")})
    s = state(d, "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    assert {g.plant for g in grows(s)} == {0, 1, 2}
    # C may pay with A, B, C's clouds; then A and B have nothing left this step
    clouds = tuple(resource_id(p, 0, 0) for p in range(3))
    s2 = s.apply(Grow(2, clouds))
    assert grows(s2) == []


def test_free_grow_runs_the_grown_plants_glass_and_effect_first() -> None:
    d = deck({1: [{"grow": {"plant": "neighbor"}}, {"flip_critter": {}}],
              0: [{"move": {"plant": "self", "direction": "up"}}]})
    s = state(d, "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    s = s.apply(Grow(1, pay))
    assert set(s.legal_actions()) == {Grow(0), Grow(2)}
    s = s.apply(Grow(0))
    assert s.garden.is_grown(0) and s.garden.is_sunlit(1)
    s = s.apply(Move(0, -1))  # A's effect before the rest of B's
    assert s.legal_actions() == [FlipCritter()]
    s = s.apply(FlipCritter())
    assert s.garden.critter_side == 1


def test_effect_vocabulary_options() -> None:
    d = deck({0: [{"shift": {"plant": "any", "direction": "either", "distance": 1,
                             "optional": True}},
                  {"flip_glass": {"glass": "row"}},
                  {"protect": {"plant": "adjacent"}},
                  {"move": {"plant": "D", "direction": "down"}}]})
    s = state(d, "@ a- b- c- d^ e^ f^ g^ h^", phase="grow")
    pay = (resource_id(0, 0, 0), resource_id(1, 0, 0), resource_id(2, 0, 0))
    s = s.apply(Grow(0, pay))
    opts = s.legal_actions()
    assert Skip() in opts and Shift(0, 1) in opts and Shift(1, -1) in opts
    assert Shift(0, 2) not in opts and Shift(0, -1) not in opts  # critter, distance 1
    s = s.apply(Skip())
    assert set(s.legal_actions()) == {FlipGlass(4)}  # middle-left already lit by growing A
    s = s.apply(FlipGlass(4))
    assert s.legal_actions() == [Protect(1)]
    s = s.apply(Protect(1))
    assert s.legal_actions() == [Move(3, 1)]
