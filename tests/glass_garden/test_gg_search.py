"""The solver's machinery: interruptible turn expansion, the sunlight branch and bound, glass
dominance, the anytime search and its deadline, and the sunlight phase's glass timing.

No test reads the real clock: deadlines are tested with a clock that moves on a fixed amount
at every read, so the amount of work is the same however fast or loaded the machine is.
"""

from __future__ import annotations

import random

import pytest
from gg_helpers import make_deck, plant, state

from companion.glass_garden import expand
from companion.glass_garden.actions import Grow, Move, UseGlass
from companion.glass_garden.deck import load_deck
from companion.glass_garden.game import OVER, SUNLIGHT, State, new_game
from companion.glass_garden.garden import CRITTER, Garden
from companion.glass_garden.solver import Advisor, Solver, quick_plan, solve
from companion.glass_garden.sunsearch import SunSearch
from companion.glass_garden.turns import OutOfTime, turn_outcomes

DECK = load_deck()
CRITTERS = [c.name for c in DECK.critters]


class FakeClock:
    """Moves on ``step`` seconds at every read."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def replay(s: State, turns: list[tuple[object, ...]]) -> State:
    for path in turns:
        for action in path:
            s = s.apply(action)  # type: ignore[arg-type]  # checked: every action legal
    return s


# -- turn expansion ------------------------------------------------------------------------
def test_the_interruptible_expansion_gives_exactly_the_engines_outcomes() -> None:
    rng = random.Random(5)
    for game, critter in enumerate(CRITTERS):
        s = new_game(DECK, critter, seed=game)
        while s.turn < 10:
            full = turn_outcomes(s)
            assert expand.outcomes(s) == full  # the same states, by the same paths
            light = expand.outcomes(s, growers=4)
            assert set(light) <= set(full)
            for child in rng.sample(list(light), 5):
                assert replay(s, [light[child]]) == child
            s = rng.choice(list(full))


def _random_turn_start(rng: random.Random) -> State:
    """A dark turn's start with plants in any rows and order, some grown, some glass lit, and
    the critter where the turn puts it, either side up."""
    order = list(range(8))
    rng.shuffle(order)
    turn = rng.randint(1, 9)
    cols = (*order[:turn - 1], CRITTER, *order[turn - 1:])
    garden = Garden(tuple(cols), tuple(rng.choice((0, 1, 1, 2)) for _ in range(8)),
                    rng.randrange(256), rng.randrange(64), rng.randrange(2))
    table = new_game(DECK, rng.choice(CRITTERS)).table
    return State(table, garden, turn, actions_left=rng.choice((1, 2, 2)))


def test_the_actions_step_on_tuples_finds_the_engines_gardens_by_the_same_paths() -> None:
    """``expand`` enumerates the actions step on (columns, rows) tuples, and does damage and
    the critter's advance on them: the same gardens by the same actions as the engine, and
    the same outcomes, on random positions of every critter, turn and side."""
    from companion.glass_garden.turns import after_actions

    rng = random.Random(26)
    for _ in range(60):
        s = _random_turn_start(rng)
        assert expand.after_actions(s) == after_actions(s)
    for _ in range(12):
        s = _random_turn_start(rng)
        assert expand.outcomes(s) == turn_outcomes(s)
        light = expand.outcomes(s, growers=2)
        assert set(light) <= set(turn_outcomes(s))
        for child in rng.sample(list(light), min(5, len(light))):
            assert replay(s, [light[child]]) == child


def test_the_end_of_a_growing_step_on_tuples_is_the_engines() -> None:
    """``expand.explore`` ends a growing step before turn 9 on tuples (damage with the
    protected plants spared, the critter's advance): the same next state as the engine's
    ``Done``, on random positions of every critter and side with random plants protected, and
    the same outcomes by the same paths in the same order as ``turns.turn_outcomes``."""
    from dataclasses import replace

    from companion.glass_garden.actions import Done
    from companion.glass_garden.game import GROW

    rng = random.Random(2026)
    checked = 0
    while checked < 300:
        s = _random_turn_start(rng)
        if s.turn >= 9:
            continue
        grow = replace(s, phase=GROW, protected=rng.randrange(256) if rng.random() < 0.7 else 0)
        assert expand._end_growing(grow) == grow.apply_unchecked(Done())
        checked += 1
    for _ in range(10):
        s = _random_turn_start(rng)
        assert list(expand.outcomes(s).items()) == list(turn_outcomes(s).items())


def test_the_guess_from_its_parts_is_the_guess_of_the_state() -> None:
    from companion.glass_garden.bound import _ready_glass, guess, guess_of
    from companion.glass_garden.fertile_zone import payable_kinds

    rng = random.Random(7)
    for _ in range(200):
        s = _random_turn_start(rng)
        g = s.garden
        assert guess_of(DECK, g.rows, g.grown, _ready_glass(s), payable_kinds(DECK, g),
                        False) == guess(s)


def test_the_guesses_the_expansion_works_out_are_the_guesses_of_its_outcomes() -> None:
    """``expand.outcomes`` works out the guess of the outcomes nothing grew in on tuples (the
    payable test at the critter's next column, :func:`bound.guesser`): each is exactly
    :func:`bound.guess` of the state, and the outcomes are the same with or without them."""
    from companion.glass_garden.bound import guess, guess_of, guesser
    from companion.glass_garden.fertile_zone import payable_kinds

    rng = random.Random(11)
    checked = 0
    for _ in range(12):
        s = _random_turn_start(rng)
        for growers in (None, 3):
            known: dict[State, float] = {}
            assert list(expand.outcomes(s, growers=growers, guesses=known).items()) == list(
                expand.outcomes(s, growers=growers).items())
            for child, value in known.items():
                assert value == guess(child)
            checked += len(known)
        g = s.garden
        of = guesser(DECK, g.grown, g.glass)
        assert of(g.rows, payable_kinds(DECK, g)) == guess_of(
            DECK, g.rows, g.grown, g.glass, payable_kinds(DECK, g), False)
    assert checked > 1000


def test_the_payable_test_on_tuples_is_the_engines() -> None:
    """``payable.payable_kinds`` (by plant, from a table per grown set) gives exactly
    ``fertile_zone.payable_kinds`` on random gardens of every critter column."""
    from companion.glass_garden import fertile_zone, payable

    rng = random.Random(12)
    for _ in range(2000):
        g = _random_turn_start(rng).garden
        assert payable.payable_kinds(DECK, g) == fertile_zone.payable_kinds(DECK, g)


def test_the_expansion_stops_when_tick_says_so() -> None:
    s = new_game(DECK, "Fly", seed=1)
    calls = 0

    def tick() -> None:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise OutOfTime

    with pytest.raises(OutOfTime):
        expand.outcomes(s, tick)


# -- the sunlight branch and bound -------------------------------------------------------------
def exact(s: State, memo: dict[State, int]) -> int:
    if s.phase == OVER:
        return s.score()
    hit = memo.get(s)
    if hit is None:
        hit = memo[s] = max(exact(s.apply_unchecked(a), memo) for a in s.legal_actions())
    return hit


def _sunlight_positions() -> list[State]:
    """Sunlight-phase starts of random growth-loving play (small enough to search them all)."""
    found = []
    for seed in range(30):
        rng = random.Random(seed)
        s = new_game(DECK, rng.choice(CRITTERS), seed=seed)
        while s.phase != SUNLIGHT:
            acts = s.legal_actions()
            grows = [a for a in acts if isinstance(a, Grow)]
            ups = [a for a in acts if isinstance(a, Move) and a.dy < 0]
            s = s.apply_unchecked(rng.choice(grows or (ups if ups and rng.random() < 0.6
                                                        else acts)))
        found.append(s)
    return found


def test_the_sunlight_branch_and_bound_is_exact_and_its_bounds_are_sound() -> None:
    search = SunSearch(node_limit=10**9)
    for s in _sunlight_positions():
        best = exact(s, {})
        value, path, proven, high = search.solve(s)
        assert proven and value == best == high
        assert replay(s, [path]).score() == best
        for alpha in (best - 1, best, best + 1):
            value, path, proven, high = SunSearch(node_limit=10**9).solve(s, alpha)
            assert high >= best  # never below the truth
            if best > alpha:  # a line beating alpha exists: it is found, and proven best
                assert value == best and proven
            else:  # nothing beats alpha: proven so (the bound drops to alpha or below)
                assert value <= best and high <= alpha


def test_a_sunlight_search_cut_by_its_budget_keeps_a_sound_bound() -> None:
    for s in _sunlight_positions()[:10]:
        best = exact(s, {})
        value, path, _, high = SunSearch(node_limit=3).solve(s)
        assert value <= best <= high
        if value >= 0:
            assert replay(s, [path]).score() == value


def test_more_sunlit_glass_never_scores_less() -> None:
    """The dominance the solver uses: a state equal to another but with a superset of sunlit
    glass cards reaches at least the same score (exhaustively, on sunlight positions)."""
    checked = 0
    for s in _sunlight_positions()[:12]:
        dark = [g for g in range(6) if not s.garden.is_sunlit(g)]
        if not dark:
            continue
        brighter = s.changed(garden=s.garden.light(dark[0]))
        assert exact(brighter, {}) >= exact(s, {})
        checked += 1
    assert checked > 5


def test_a_state_with_more_sunlit_glass_than_a_searched_one_is_settled() -> None:
    s = new_game(DECK, "Fly", seed=2)
    solver = Solver(s, 1.0)
    brighter = s.changed(garden=s.garden.light(0).light(3))
    solver.close(brighter)
    assert solver.is_closed(s.changed(garden=s.garden.light(3)))  # fewer lit: settled
    assert solver.is_closed(brighter)
    assert not solver.is_closed(s.changed(garden=s.garden.light(1)))  # another card lit


# -- the anytime solver --------------------------------------------------------------------
@pytest.mark.parametrize("seconds", [0.2, 1.0])
def test_the_deadline_is_kept_within_a_few_clock_reads(seconds: float) -> None:
    s = new_game(DECK, "Ant", seed=5)
    clock = FakeClock(0.002)
    result = solve(s, seconds, clock=clock)
    assert clock.now - 1000.0 <= seconds * 1.1
    assert replay(s, result.plan.turns).score() == result.plan.score <= result.bound
    assert len(result.plan.turns) == 10 and result.plan.states[0] == s


def test_what_is_found_by_a_time_does_not_depend_on_the_time_given() -> None:
    """The stages run in a fixed order, so a long run's findings up to t are a short run's."""
    s = new_game(DECK, "Snail", seed=4)
    short = solve(s, 0.6, clock=FakeClock(0.0005))
    long = solve(s, 2.0, clock=FakeClock(0.0005))
    assert [e for e in long.events if e[0] <= 0.55] == [e for e in short.events if e[0] <= 0.55]


def test_the_first_plan_is_the_search_free_one_and_is_legal() -> None:
    s = new_game(DECK, "Worm", seed=3)
    first = quick_plan(s)
    assert replay(s, first.turns).score() == first.score
    result = solve(s, 0.01, clock=FakeClock(0.001))
    assert result.plan.score >= first.score and "first plan" in result.log[0]


def test_the_advisor_gives_a_plan_at_once_and_a_better_one_later() -> None:
    s = new_game(DECK, "Fly", seed=0)
    advisor = Advisor(s, 1000.0, clock=FakeClock(0.0001))
    final = advisor.wait(120)  # proven, or ended by its (fake) deadline
    assert not advisor.running
    polled = advisor.poll()
    assert polled is not None and polled.plan.score == final.plan.score
    assert final.events[0][2] <= final.plan.score
    assert replay(s, final.plan.turns).score() == final.plan.score


def test_the_advisor_can_be_stopped_and_keeps_its_plan() -> None:
    s = new_game(DECK, "Ant", seed=1)
    advisor = Advisor(s, 1e9)
    while advisor.poll() is None:
        pass
    result = advisor.stop()
    assert not advisor.running and "out of time" in result.log
    assert replay(s, result.plan.turns).score() == result.plan.score <= result.bound


def test_a_solver_from_a_sunlight_position_proves_its_plan() -> None:
    s = _sunlight_positions()[0]
    result = Solver(s, 30.0, clock=FakeClock(1e-6)).run()
    assert result.optimal and result.plan.score == exact(s, {})


# -- the sunlight phase's glass timing -----------------------------------------------------
def _growing_glass_deck() -> object:
    """Every plant pays with 3 clouds; the left-middle glass's bonus grows its adjacent plant."""
    return make_deck({i: plant("ABCDEFGH"[i], upper=["cloud"], cost="cloud") for i in range(8)},
                     glass={"left-middle": {"name": "Grower",
                                            "bonus": [{"grow": {"plant": "adjacent"}}]}})


def test_a_glass_card_stays_sunlit_during_its_bonus_and_flips_back_after_it() -> None:
    """"After using each Glass Card's bonus actions, flip it back to its dark side": a bonus
    that grows the edge plant next to its own card does not light it again (it is sunlit while
    the bonus is used), and the card is dark once the bonus is over."""
    d = _growing_glass_deck()
    s = state(d, "a- b- c- d^ e^ f^ g^ h- @", turn=10, phase="sunlight", glass=1 << 1, side=0)
    s = s.apply(UseGlass(1))
    assert s.garden.is_sunlit(1) and s.pending
    grow_a = next(a for a in s.legal_actions() if isinstance(a, Grow) and a.plant == 0)
    s = s.apply(grow_a)
    assert s.garden.is_grown(0) and not s.pending
    assert not s.garden.is_sunlit(1)  # flipping it back is the last thing the use does
    assert UseGlass(1) not in s.legal_actions()


def test_a_card_lit_again_after_its_use_may_be_used_again() -> None:
    d = make_deck({i: plant("ABCDEFGH"[i], upper=["cloud"], cost="cloud") for i in range(8)},
                  glass={"left-middle": {"name": "L", "bonus": [{"move": {"direction": "up"}}]}})
    s = state(d, "a- b- c- d^ e^ f^ g^ h- @", turn=10, phase="sunlight", glass=1 << 1, side=0)
    s = s.apply(UseGlass(1)).apply(Move(7, -1))
    assert not s.garden.is_sunlit(1)
    grow_a = next(a for a in s.legal_actions() if isinstance(a, Grow) and a.plant == 0)
    s = s.apply(grow_a)
    assert s.garden.is_sunlit(1) and UseGlass(1) in s.legal_actions()
