"""Round-robin schedules (pure Python, no database)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing.round_robin import due_pairings, round_robin

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


def test_a_pairing_is_due_among_the_first_of_either_players_pairings() -> None:
    schedule = [("1a", "p", "q"), ("1b", "r", "s"), ("2a", "p", "r"), ("2b", "q", "s"), ("3a", "p", "s")]
    assert due_pairings(schedule, 1) == {"1a", "1b"}
    assert due_pairings(schedule, 2) == {"1a", "1b", "2a", "2b"}
    assert due_pairings(schedule, 3) == set(key for key, _, _ in schedule)
    # q has played: his next two are 2b and nothing more; p's next two are 2a and 3a.
    assert due_pairings(schedule[2:], 2) == {"2a", "2b", "3a"}
    with pytest.raises(ValueError, match="at least 1"):
        due_pairings(schedule, 0)


@pytest.mark.parametrize("n", [6, 17, 60])
def test_the_pairings_due_for_some_players_need_only_their_own_pairings(n: int) -> None:
    rounds = round_robin(_players(n))
    played = [((r, i), a, b) for r, rnd in enumerate(rounds) for i, (a, b) in enumerate(rnd) if b is not None]
    unplayed = played[n // 2 + 1 :]  # round 0 and a board of round 1 are played
    due = due_pairings(unplayed, 3)
    for some in ({played[0][1]}, {played[0][1], played[0][2], played[-1][1]}):
        theirs = [(key, a, b) for key, a, b in unplayed if some & {a, b}]
        for_them = due_pairings(theirs, 3, of=some)
        # Among the first three still to play of one of them: no more (the others' counts are not known from
        # their pairings alone), no fewer (the ones due by the whole schedule because of one of them).
        assert for_them == {key for key, a, b in theirs if any(key in _first(unplayed, p, 3) for p in some)}
        assert for_them <= due and len(for_them) >= 3


def _first(pairings: list[tuple[object, str, str]], player: str, count: int) -> set[object]:
    """The keys of ``player``'s first ``count`` pairings."""
    return {key for key, _, _ in [row for row in pairings if player in row[1:]][:count]}


@pytest.mark.parametrize("n", [6, 17, 60])
def test_the_due_pairings_of_a_whole_schedule_are_each_players_first_rounds(n: int) -> None:
    rounds = round_robin(_players(n))
    played = [((r, i), a, b) for r, rnd in enumerate(rounds) for i, (a, b) in enumerate(rnd) if b is not None]
    due = due_pairings(played, 4)
    per_player = Counter(p for key, a, b in played if key in due for p in (a, b))
    assert all(count >= 4 for count in per_player.values()) and len(per_player) == n
    # Nothing later than a player's fourth pairing, or his fifth round when he had a bye among them.
    assert max(r for r, _ in due) == (4 if n % 2 else 3)
