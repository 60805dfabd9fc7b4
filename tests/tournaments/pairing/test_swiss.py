"""Swiss pairing: score groups, pull-ups, byes, withdrawals, no rematches, and the impossible case."""

from __future__ import annotations

import random

import pytest

from tournaments.pairing.swiss import NoPairingError, SwissPlayer, late_entry_allowed, pair_round


def field(n: int) -> dict[int, SwissPlayer]:
    return {i: SwissPlayer(id=i, rank=i) for i in range(1, n + 1)}


def play_round(players: dict[int, SwissPlayer], rng: random.Random, *, max_steps: int = 100_000) -> None:
    """Pair a round, check it, and record random results in ``players``."""
    result = pair_round(players.values(), max_steps=max_steps)
    seen = [pid for p in result.pairings for pid in (p.a, p.b) if pid is not None]
    active = [p.id for p in players.values() if not p.withdrawn]
    assert sorted(seen) == sorted(active)
    for board in result.pairings:
        a = players[board.a]
        if board.b is None:
            assert not a.had_bye
            players[a.id] = SwissPlayer(a.id, a.rank, a.score + 1, a.opponents, True, a.withdrawn)
            continue
        b = players[board.b]
        assert b.id not in a.opponents, f"rematch {a.id} v {b.id}"
        a_wins = rng.random() < 0.5
        players[a.id] = SwissPlayer(a.id, a.rank, a.score + a_wins, a.opponents | {b.id}, a.had_bye, a.withdrawn)
        players[b.id] = SwissPlayer(b.id, b.rank, b.score + (not a_wins), b.opponents | {a.id}, b.had_bye)


def test_round_one_pairs_top_half_against_bottom_half() -> None:
    result = pair_round(field(8).values())
    assert [(p.a, p.b) for p in result.pairings] == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert {p.reason for p in result.pairings} == {"score group 0"}
    assert result.bye is None


def test_odd_field_bye_goes_to_lowest_ranked_and_never_twice() -> None:
    players = field(5)
    result = pair_round(players.values())
    assert result.bye == 5
    assert result.pairings[-1].reason == "bye: lowest-ranked player without a bye"
    rng = random.Random(7)
    for _ in range(5):
        play_round(players, rng)  # asserts nobody gets a second bye
    assert all(p.had_bye for p in players.values())  # five rounds, five different players


def test_bye_prefers_lowest_score_then_worst_seed() -> None:
    players = [
        SwissPlayer(1, 1, score=0),
        SwissPlayer(2, 2, score=1),
        SwissPlayer(3, 3, score=1, had_bye=True),
    ]
    assert pair_round(players).bye == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_rematch_over_several_rounds(seed: int) -> None:
    players = field(15)
    rng = random.Random(seed)
    for _ in range(6):
        play_round(players, rng)


def test_pull_up_is_explained() -> None:
    # Three players on 1 win, three on 0: the odd one out of the top group meets the best of the next group.
    players = [
        SwissPlayer(1, 1, 1, frozenset({4})),
        SwissPlayer(2, 2, 1, frozenset({5})),
        SwissPlayer(3, 3, 1, frozenset({6})),
        SwissPlayer(4, 4, 0, frozenset({1})),
        SwissPlayer(5, 5, 0, frozenset({2})),
        SwissPlayer(6, 6, 0, frozenset({3})),
    ]
    result = pair_round(players)
    assert [(p.a, p.b, p.reason) for p in result.pairings] == [
        (1, 2, "score group 1"),
        (3, 4, "pulled up from score group 0 to score group 1"),
        (5, 6, "score group 0"),
    ]


def test_backtracking_avoids_rematch_inside_a_group() -> None:
    players = [SwissPlayer(i, i, opponents=frozenset({3}) if i == 1 else frozenset()) for i in range(1, 5)]
    players[2] = SwissPlayer(3, 3, opponents=frozenset({1}))
    result = pair_round(players)
    assert [(p.a, p.b) for p in result.pairings] == [(1, 4), (2, 3)]


def test_withdrawn_player_is_not_paired() -> None:
    players = list(field(6).values())
    players[1] = SwissPlayer(2, 2, withdrawn=True)
    result = pair_round(players)
    assert 2 not in {pid for p in result.pairings for pid in (p.a, p.b)}
    assert result.bye == 6


def test_impossible_pairing_raises_a_clear_error() -> None:
    everyone = {"A", "B", "C", "D"}
    players = [SwissPlayer(pid, rank, 1, frozenset(everyone - {pid})) for rank, pid in enumerate("ABCD", 1)]
    with pytest.raises(NoPairingError, match=r"A, B, C, D have already played every other active player"):
        pair_round(players)


def test_impossible_without_a_stuck_player_is_explained() -> None:
    met = {1: {2, 3, 4}, 2: {1, 5, 6}, 3: {1, 5, 6}, 4: {1, 5, 6}, 5: {2, 3, 4}, 6: {2, 3, 4}}
    players = [SwissPlayer(i, i, opponents=frozenset(met[i])) for i in met]
    # 1 can only meet 5 or 6, and then the other of 5/6 can meet nobody left: no pairing exists.
    with pytest.raises(NoPairingError, match="no rematch-free pairing exists") as excinfo:
        pair_round(players)
    assert isinstance(excinfo.value, ValueError)


def test_odd_field_where_everyone_had_a_bye() -> None:
    players = [SwissPlayer(i, i, had_bye=True) for i in range(1, 4)]
    with pytest.raises(NoPairingError, match="every active player has already had a bye"):
        pair_round(players)


def test_late_entry_until_half_the_rounds() -> None:
    assert late_entry_allowed(rounds_played=3, total_rounds=6)
    assert not late_entry_allowed(rounds_played=4, total_rounds=6)
    assert late_entry_allowed(rounds_played=2, total_rounds=5)
    assert not late_entry_allowed(rounds_played=3, total_rounds=5)
    players = field(8)
    rng = random.Random(3)
    play_round(players, rng)
    players[9] = SwissPlayer(9, 9)  # a late entrant: no opponents, no score
    play_round(players, rng)
    assert len(players[9].opponents) == 1 or players[9].had_bye


def test_64_players_five_rounds_need_little_search() -> None:
    """The search's effort is counted in steps (one per partner tried), not timed: bench/ measures the time."""
    players = field(64)
    rng = random.Random(42)
    for _ in range(5):
        play_round(players, rng, max_steps=64 * 4)


def test_1024_players_pair_with_almost_no_backtracking() -> None:
    players = field(1024)
    rng = random.Random(5)
    for _ in range(3):
        play_round(players, rng)
    result = pair_round(players.values(), max_steps=1024)  # about one try per board
    assert len(result.pairings) == 512


def test_a_field_of_any_size_pairs_without_recursion() -> None:
    """The search keeps its own stack: 5,000 players (far past Python's recursion limit in boards) pair."""
    players = [SwissPlayer(id=i, rank=i + 1, score=i % 3) for i in range(5000)]
    result = pair_round(players)
    paired = [p for board in result.pairings for p in (board.a, board.b)]
    assert len(result.pairings) == 2500 and sorted(paired) == list(range(5000))
