"""A feeder bracket drawn round by round once its players are known (tournaments/pairing/feeder.py): byes only where
an odd count forces one, the bye to a player who has had fewest, no rematch where one can be avoided; a whole
bracket played that way never gives more byes than its field needs."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing.elimination import bracket_size
from tournaments.pairing.feeder import (
    FeederRound,
    FeederState,
    SlotState,
    SlotStatus,
    draw_feeder_round,
    feeder_slots,
    fewest_byes,
    resolve_feeder,
)


def check_round(players: list[int], drawn: FeederRound[int]) -> None:
    seated = [p for match in drawn.matches for p in match] + ([drawn.bye] if drawn.bye is not None else [])
    assert sorted(seated) == sorted(players), "every player is in one match or has the bye"
    assert (drawn.bye is not None) == (len(players) % 2 == 1), "a bye exactly when the count is odd"


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[int], dict[int, int], set[frozenset[int]], list[int]]:
    players = draw(st.lists(st.integers(1, 40), min_size=1, max_size=11, unique=True))
    byes = {p: draw(st.integers(0, 2)) for p in players}
    pairs = [frozenset(pair) for pair in itertools.combinations(players, 2)]
    met = set(draw(st.lists(st.sampled_from(pairs), max_size=12))) if pairs else set()
    rested = draw(st.lists(st.sampled_from(players), unique=True))
    return players, byes, met, rested


@given(rounds())
def test_a_round_seats_everyone_once_with_a_bye_only_when_the_count_is_odd(case: tuple) -> None:
    players, byes, met, rested = case
    check_round(players, draw_feeder_round(players, byes=byes, met=met, rested=rested))


@given(rounds())
def test_the_bye_goes_to_a_player_who_has_had_fewest(case: tuple) -> None:
    players, byes, met, rested = case
    drawn = draw_feeder_round(players, byes=byes, met=met, rested=rested)
    if drawn.bye is not None:
        assert byes[drawn.bye] == min(byes[p] for p in players)
        fewest = [p for p in players if byes[p] == byes[drawn.bye]]
        if any(p not in rested for p in fewest):
            assert drawn.bye not in rested, "among the fewest, one who did not sit out the round before"


def draws(players: list[int]) -> list[tuple[int | None, list[tuple[int, int]]]]:
    """Every possible draw of a round: (bye, matches)."""
    if not players:
        return [(None, [])]
    if len(players) % 2:
        return [(bye, m) for bye in players for _, m in draws([p for p in players if p != bye])]
    first, rest = players[0], players[1:]
    found = []
    for mate in rest:
        for _, matches in draws([p for p in rest if p != mate]):
            found.append((None, [(first, mate), *matches]))
    return found


@given(rounds().filter(lambda case: len(case[0]) <= 8))
def test_no_rematch_where_a_fair_draw_avoids_it(case: tuple) -> None:
    players, byes, met, rested = case
    drawn = draw_feeder_round(players, byes=byes, met=met, rested=rested)
    fewest = min(byes[p] for p in players)
    takers = [p for p in players if byes[p] == fewest]  # rule 2: of these, one who did not sit out if one can
    takers = [p for p in takers if p not in rested] or takers
    fair = [(bye, m) for bye, m in draws(players) if bye is None or bye in takers]
    best = min(sum(frozenset(match) in met for match in m) for _, m in fair)
    assert drawn.rematches == best == sum(frozenset(match) in met for match in drawn.matches)


def play(arrivals: list[int], rng: random.Random) -> tuple[Counter[int], list[list[int]]]:
    """Play a feeder bracket with coin tosses, ``arrivals[k]`` new players before round k + 1; returns the byes of
    each player and who had the bye round by round, checking each round as it goes."""
    new = iter(range(1, sum(arrivals) + 1))
    alive: list[int] = []
    byes: Counter[int] = Counter()
    met: set[frozenset[int]] = set()
    rested: list[int] = []
    history: list[list[int]] = []
    round_ = 0
    while round_ < len(arrivals) or len(alive) > 1:
        alive += [next(new) for _ in range(arrivals[round_] if round_ < len(arrivals) else 0)]
        round_ += 1
        if len(alive) < 2:
            continue  # alone: he waits for the next to drop in (or is the champion)
        drawn = draw_feeder_round(alive, byes=byes, met=met, rested=rested)
        check_round(alive, drawn)
        if drawn.bye is not None:
            others = [p for p in alive if p != drawn.bye]
            assert not (byes[drawn.bye] >= 1 and any(byes[p] == 0 for p in others)), "a second bye while one has none"
            byes[drawn.bye] += 1
        history.append([drawn.bye] if drawn.bye is not None else [])
        met.update(frozenset(match) for match in drawn.matches)
        rested = [drawn.bye] if drawn.bye is not None else []
        alive = [*rested, *(rng.choice(match) for match in drawn.matches)]
    return byes, history


@given(st.lists(st.integers(0, 9), min_size=1, max_size=6).filter(lambda a: sum(a) >= 2), st.randoms())
def test_a_bracket_drawn_round_by_round_gives_the_fewest_byes_its_field_needs(
    arrivals: list[int], rng: random.Random
) -> None:
    byes, history = play(arrivals, rng)
    assert sum(byes.values()) == fewest_byes(arrivals)
    assert all(len(round_byes) <= 1 for round_byes in history)


@given(st.integers(2, 64), st.randoms())
def test_one_wave_needs_no_more_byes_nor_rounds_than_a_knockout_of_its_size(m: int, rng: random.Random) -> None:
    byes, history = play([m], rng)
    assert sum(byes.values()) <= bracket_size(m) - m
    assert len(history) == math.ceil(math.log2(m))


@pytest.mark.parametrize(
    ("arrivals", "byes"),
    [
        ([2], 0),
        ([3], 1),
        ([4], 0),
        ([5], 2),  # 5 -> 3 -> 2: one bye in round 1, one in round 2 (a knockout of 5 gives 3)
        ([6], 1),  # 6 -> 3 -> 2 (a knockout of 6 gives 2)
        ([1, 1], 0),  # the first waits for the second: nobody to play is no bye
        ([3, 1], 2),  # 3 -> 2 + 1 -> 2
        ([4, 2, 1], 1),  # progressive consolation of 8: 4 -> 2 + 2 -> 2 + 1 -> 2
    ],
)
def test_fewest_byes_by_hand(arrivals: list[int], byes: int) -> None:
    assert fewest_byes(arrivals) == byes


def test_a_lone_player_waits_and_nobody_is_refused_twice() -> None:
    assert draw_feeder_round([7]) == FeederRound((), 7, 0)
    assert draw_feeder_round([]) == FeederRound((), None, 0)
    with pytest.raises(ValueError, match="listed twice"):
        draw_feeder_round([1, 2, 1])


def test_a_round_by_hand_best_against_worst_the_bye_to_the_best_without_one() -> None:
    assert draw_feeder_round([1, 2, 3, 4, 5, 6]).matches == ((1, 6), (2, 5), (3, 4))
    drawn = draw_feeder_round([5, 4, 3, 2, 1], rank={p: p for p in range(1, 6)}, byes={1: 1})
    assert (drawn.bye, drawn.matches) == (2, ((1, 5), (3, 4)))
    rematch = draw_feeder_round([1, 2, 3, 4], met=[frozenset((1, 4))])
    assert (rematch.matches, rematch.rematches) == (((1, 3), (2, 4)), 0)
    forced = draw_feeder_round([1, 2], met=[frozenset((1, 2))])
    assert (forced.matches, forced.rematches) == (((1, 2),), 1)


@st.composite
def possible_and_actual(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    possible = draw(st.lists(st.integers(0, 9), min_size=1, max_size=6).filter(lambda a: sum(a) >= 2))
    return possible, [draw(st.integers(0, p)) for p in possible]


@given(possible_and_actual(), st.randoms())
def test_the_slots_planned_hold_every_round_drawn_from_fewer_players(case: tuple, rng: random.Random) -> None:
    possible, actual = case
    slots = feeder_slots(possible)
    assert slots == feeder_slots(possible) and len(slots) >= len(possible)
    new = iter(range(1, sum(actual) + 1))
    alive: list[int] = []
    round_ = 0
    while round_ < len(actual) or len(alive) > 1:
        alive += [next(new) for _ in range(actual[round_] if round_ < len(actual) else 0)]
        matches = draw_feeder_round(alive).matches if len(alive) > 1 else ()
        assert round_ < len(slots) and len(matches) <= slots[round_]
        round_ += 1
        alive = [p for p in alive if not any(p in match for match in matches)] + [rng.choice(m) for m in matches]


def test_feeder_slots_by_hand() -> None:
    assert feeder_slots([3, 1]) == (1, 1, 1)  # 3 -> 2 + 1 -> 2 -> 1
    assert feeder_slots([4, 2, 1]) == (2, 2, 1, 1)  # progressive consolation of 8
    assert feeder_slots([1, 1]) == (0, 1)  # the first waits for the second
    assert sum(feeder_slots([9])) == 8  # m players, m - 1 matches


def run_feeder(
    arrivals: list[list[int]], rng: random.Random, *, absent: dict[int, int] | None = None, drop: int = 0
) -> tuple[FeederState[int], dict[str, int | None]]:
    """Resolve a feeder bracket step by step, a coin toss for every match that is ready, to the end."""
    slots = feeder_slots([len(wave) for wave in arrivals])
    results: dict[str, int | None] = {}
    while True:
        state = resolve_feeder("consolation", slots, arrivals, results, absent=absent, drop=drop)
        ready = [s for s in state.slots.values() if s.status is SlotStatus.READY]
        if not ready:
            return state, results
        for slot in ready:
            assert slot.a is not None and slot.b is not None
            results[slot.key] = rng.choice((slot.a, slot.b))


@given(st.lists(st.integers(0, 7), min_size=1, max_size=5).filter(lambda a: sum(a) >= 2), st.randoms())
def test_a_feeder_resolved_step_by_step_gives_its_fewest_byes_and_one_champion(
    sizes: list[int], rng: random.Random
) -> None:
    players = iter(range(1, 100))
    arrivals = [[next(players) for _ in range(n)] for n in sizes]
    state, results = run_feeder(arrivals, rng)
    assert len(state.byes) == fewest_byes(sizes)
    assert state.champion is not None
    statuses = Counter(s.status for s in state.slots.values())
    assert statuses[SlotStatus.FINISHED] == sum(sizes) - 1, "m players, m - 1 matches"
    assert statuses[SlotStatus.WAITING] == statuses[SlotStatus.READY] == 0
    slots = feeder_slots(sizes)
    again = resolve_feeder("consolation", slots, arrivals, dict(reversed(list(results.items()))))
    assert again == state, "a pure function of the results"


def test_a_round_waits_for_its_arrivals_and_refuses_results_before_it_is_drawn() -> None:
    slots = feeder_slots([3, 1])
    state = resolve_feeder("consolation", slots, [[5, 6, 7], None], {"consolation-1-0": 6})
    assert [state.slots[k].status for k in ("consolation-1-0", "consolation-2-0")] == ["finished", "waiting"]
    assert state.dropped[2] is None
    with pytest.raises(ValueError, match="consolation-2-0: the match is waiting"):
        resolve_feeder("consolation", slots, [[5, 6, 7], None], {"consolation-1-0": 6, "consolation-2-0": 5})
    with pytest.raises(ValueError, match="its players are 6 and 7"):
        resolve_feeder("consolation", slots, [[5, 6, 7], None], {"consolation-1-0": 5})


def test_seven_players_consolation_of_three_one_bye_not_two() -> None:
    """7 players, main-consolation, the better seed winning every match: the losers of main round 1 (seeds 5, 6, 7)
    and nobody from round 2 (seed 1, who had a bye, won it). The plan gives seed 5 a bye in round 1 and a bye nobody
    needed in round 3 (the slot for the loser of main round 2 match 1); drawn late he has one bye, and the final is
    round 2."""
    slots = feeder_slots([3, 1])
    state = resolve_feeder("consolation", slots, [[5, 6, 7], []], {"consolation-1-0": 6, "consolation-2-0": 5})
    assert state.byes == {1: 5}
    assert state.slots["consolation-1-0"] == SlotState("consolation-1-0", SlotStatus.FINISHED, 6, 7, 6, 7)
    assert state.slots["consolation-2-0"] == SlotState("consolation-2-0", SlotStatus.FINISHED, 5, 6, 5, 6)
    assert state.slots["consolation-3-0"].status is SlotStatus.EMPTY
    assert state.champion == 5


def test_withdrawn_players_are_not_drawn_and_first_losses_drop_out() -> None:
    slots = feeder_slots([4, 2])
    state = resolve_feeder("consolation", slots, [[1, 2, 3, 4], [5, 6]], {}, absent={4: 1}, drop=1)
    assert state.byes == {1: 1}
    assert state.slots["consolation-1-0"] == SlotState("consolation-1-0", SlotStatus.READY, 2, 3)
    results: dict[str, int | None] = {"consolation-1-0": 3}
    state = resolve_feeder("consolation", slots, [[1, 2, 3, 4], [5, 6]], results, absent={4: 1}, drop=1)
    assert state.dropped[1] == (2,), "seed 2 lost his first match here"
    assert sorted(p for s in state.slots.values() if s.key.startswith("consolation-2-") for p in (s.a, s.b) if p) == [
        1,
        3,
        5,
        6,
    ]


def test_a_lone_entrant_is_no_flight() -> None:
    state = resolve_feeder("consolation", feeder_slots([1, 0]), [[9], []], {})
    assert state.champion is None and not state.byes


def test_a_double_forfeit_sends_nobody_on_and_a_walkover_counts_like_a_bye() -> None:
    slots = feeder_slots([4])
    results: dict[str, int | None] = {"consolation-1-0": 1, "consolation-1-1": None}
    state = resolve_feeder("consolation", slots, [[1, 2, 3, 4]], results)
    assert state.slots["consolation-2-0"].status is SlotStatus.EMPTY
    assert state.champion == 1, "the only one left after the double forfeit"
    five = feeder_slots([5])
    first = {"consolation-1-0": 2, "consolation-1-1": 3}  # 1 has the bye; 2 beats 5, 3 beats 4
    assert resolve_feeder("consolation", five, [[1, 2, 3, 4, 5]], first).byes == {1: 1, 2: 2}  # round: player
    walked = resolve_feeder("consolation", five, [[1, 2, 3, 4, 5]], first, walkovers={"consolation-1-0"})
    assert walked.byes == {1: 1, 2: 3}, "2 walked over: the bye of round 2 goes to 3, who played"


def test_a_player_who_withdraws_after_his_round_is_drawn_leaves_it_as_drawn() -> None:
    slots = feeder_slots([4])
    results: dict[str, int | None] = {"consolation-1-0": 1, "consolation-1-1": 2}  # 1 beats 4, 2 beats 3
    state = resolve_feeder("consolation", slots, [[1, 2, 3, 4]], results, absent={1: 2})
    assert (state.slots["consolation-1-0"].a, state.slots["consolation-1-0"].winner) == (1, 1)
    assert state.slots["consolation-2-0"].status is SlotStatus.EMPTY
    assert state.champion == 2, "1 withdrew after winning his round-1 match: 2 is the only one left"
