"""Round-robin schedules (pure Python, no database)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing.round_robin import round_robin

SIZES = [1, 2, 3, 5, 8, 17]


def _players(n: int) -> list[str]:
    return [f"p{i}" for i in range(n)]


@pytest.mark.parametrize("n", SIZES)
def test_round_count(n: int) -> None:
    rounds = round_robin(_players(n))
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    assert len(round_robin(_players(n), double=True)) == 2 * len(rounds)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("double", [False, True])
def test_nobody_twice_in_a_round(n: int, double: bool) -> None:
    players = _players(n)
    for rnd in round_robin(players, double=double):
        seen = [p for pairing in rnd for p in pairing if p is not None]
        assert sorted(seen) == sorted(players)  # everyone exactly once (playing or on a bye)


@pytest.mark.parametrize("n", SIZES)
def test_every_pair_meets_exactly_once(n: int) -> None:
    players = _players(n)
    met = Counter(frozenset(p) for rnd in round_robin(players) for p in rnd if p[1] is not None)
    assert met == Counter(frozenset(pair) for pair in combinations(players, 2))


@pytest.mark.parametrize("n", SIZES)
def test_byes(n: int) -> None:
    byes = Counter(a for rnd in round_robin(_players(n)) for a, b in rnd if b is None)
    if n % 2:
        assert byes == Counter(_players(n))
        assert all(sum(b is None for _, b in rnd) == 1 for rnd in round_robin(_players(n)))
    else:
        assert not byes


@pytest.mark.parametrize("n", SIZES)
def test_sides_balanced(n: int) -> None:
    first = Counter(a for rnd in round_robin(_players(n)) for a, b in rnd if b is not None)
    second = Counter(b for rnd in round_robin(_players(n)) for _, b in rnd if b is not None)
    for p in _players(n):
        if n % 2:
            assert first[p] == second[p] == (n - 1) // 2
        else:
            assert abs(first[p] - second[p]) == 1


@pytest.mark.parametrize("n", SIZES)
def test_double_swaps_sides(n: int) -> None:
    single = round_robin(_players(n))
    double = round_robin(_players(n), double=True)
    assert double[: len(single)] == single
    for rnd, again in zip(single, double[len(single) :], strict=True):
        assert again == [(a, b) if b is None else (b, a) for a, b in rnd]
    ordered = Counter((a, b) for rnd in double for a, b in rnd if b is not None)
    assert ordered == Counter(pair for x, y in combinations(_players(n), 2) for pair in ((x, y), (y, x)))


def test_empty_and_generic_entrants() -> None:
    assert round_robin([]) == []
    assert round_robin([10, 20]) == [[(10, 20)]]
    assert round_robin(["solo"]) == [[("solo", None)]]
