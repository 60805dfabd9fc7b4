"""Swiss pairing: score groups, pull-ups, byes, withdrawals, no rematches, and the impossible case; the pairing's
quality against an exhaustive search over small fields, and the fields where an earlier search floated too many
players or gave up."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from tournaments.pairing.swiss import (
    DENSE_FIELD,
    DOWN,
    LEVEL,
    UP,
    NoPairingError,
    SwissPlayer,
    SwissResult,
    late_entry_allowed,
    pair_round,
)

FIELDS = json.loads((Path(__file__).parent / "data" / "swiss_fields.json").read_text())


def field(n: int) -> dict[int, SwissPlayer]:
    return {i: SwissPlayer(id=i, rank=i) for i in range(1, n + 1)}


def play_round(players: dict[int, SwissPlayer], rng: random.Random) -> None:
    """Pair a round, check it, and record random results in ``players``."""
    result = pair_round(players.values())
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
    assert late_entry_allowed(rounds_paired=3, total_rounds=6)
    assert not late_entry_allowed(rounds_paired=4, total_rounds=6)
    assert late_entry_allowed(rounds_paired=2, total_rounds=5)
    assert not late_entry_allowed(rounds_paired=3, total_rounds=5)
    players = field(8)
    rng = random.Random(3)
    play_round(players, rng)
    players[9] = SwissPlayer(9, 9)  # a late entrant: no opponents, no score
    play_round(players, rng)
    assert len(players[9].opponents) == 1 or players[9].had_bye


def test_64_and_1024_players_pair_round_after_round() -> None:
    for n, rounds in ((64, 5), (1024, 4)):
        players = field(n)
        rng = random.Random(42)
        for _ in range(rounds):
            play_round(players, rng)


def test_a_field_of_any_size_pairs_without_recursion() -> None:
    players = [SwissPlayer(id=i, rank=i + 1, score=i % 3) for i in range(5000)]
    result = pair_round(players)
    paired = [p for board in result.pairings for p in (board.a, board.b)]
    assert len(result.pairings) == 2500 and sorted(paired) == list(range(5000))


# -- quality ---------------------------------------------------------------------------------------------------------


def recorded(name: str) -> list[SwissPlayer]:
    """A field recorded from ``simulate_event --format swiss`` just before the round its name gives."""
    return [SwissPlayer(i, rank, score, frozenset(met), bye, out) for i, rank, score, met, bye, out in FIELDS[name]]


def float_cost(players: list[SwissPlayer], result: SwissResult) -> tuple[int, int]:
    """(boards between score groups, the sum of their squared score differences)."""
    score = {p.id: p.score for p in players}
    diffs = [score[p.a] - score[p.b] for p in result.pairings if p.b is not None and score[p.a] != score[p.b]]
    return len(diffs), sum(d * d for d in diffs)


def best_possible(players: list[SwissPlayer], *, rematch_cost: int | None = None) -> tuple[int, int, int] | None:
    """Exhaustive search over every pairing of a small field: the least (rematches, bye candidate's place, float
    cost) there is, or None when no pairing without a rematch exists (``rematch_cost`` None)."""
    active = sorted((p for p in players if not p.withdrawn), key=lambda p: (-p.score, p.rank))
    n = len(active)
    met = [{j for j, q in enumerate(active) if q.id in p.opponents or p.id in q.opponents} for p in active]
    byes = sorted((i for i, p in enumerate(active) if not p.had_bye), key=lambda i: (active[i].score, -active[i].rank))

    @cache
    def cost(left: int) -> tuple[int, int] | None:  # (rematches, float cost) of the best pairing of ``left``
        if not left:
            return (0, 0)
        i = (left & -left).bit_length() - 1
        best = None
        for j in range(i + 1, n):
            if not left >> j & 1 or (j in met[i] and rematch_cost is None):
                continue
            rest = cost(left & ~(1 << i) & ~(1 << j))
            if rest is not None:
                here = (rest[0] + (j in met[i]), rest[1] + (active[i].score - active[j].score) ** 2)
                best = here if best is None or here < best else best
        return best

    everyone = (1 << n) - 1
    options = [(k, cost(everyone & ~(1 << i))) for k, i in enumerate(byes)] if n % 2 else [(0, cost(everyone))]
    found = [(c[0], k, c[1]) for k, c in options if c is not None]
    return min(found) if found else None


def bye_place(players: list[SwissPlayer], result: SwissResult) -> int:
    """The bye's place among the bye candidates (0: the lowest-ranked player without a bye)."""
    if result.bye is None:
        return 0
    byes = sorted((p for p in players if not p.had_bye and not p.withdrawn), key=lambda p: (p.score, -p.rank))
    return [p.id for p in byes].index(result.bye)


@pytest.mark.parametrize("n", [8, 11, 12, 13, 14])
def test_every_round_is_the_best_pairing_there_is(n: int) -> None:
    """Rematch-free whenever an exhaustive search finds a rematch-free pairing, with the bye as low as it can go
    and the fewest and smallest floats the search finds, round after round until no pairing is left."""
    for seed in range(3):
        players = field(n)
        rng = random.Random(seed)
        for _ in range(n):
            best = best_possible(list(players.values()))
            if best is None:
                with pytest.raises(NoPairingError, match="no rematch-free pairing"):
                    pair_round(players.values())
                break
            result = pair_round(players.values())
            assert (0, bye_place(list(players.values()), result), float_cost(list(players.values()), result)[1]) == best
            play_round(players, rng)


def test_18_players_round_4_floats_one_board() -> None:
    """simulate_event --players 18 --seed 1, round 4: one board between score groups does (three were paired)."""
    players = recorded("18-seed1-round4")
    result = pair_round(players)
    assert float_cost(players, result) == (1, 1)
    assert best_possible(players) == (0, 0, 1)


def test_128_players_round_5_floats_nobody() -> None:
    """simulate_event --players 128 --seed 1, round 5: every score group pairs within itself (two boards crossed)."""
    players = recorded("128-seed1-round5")
    result = pair_round(players)
    assert float_cost(players, result) == (0, 0)
    assert {p.reason for p in result.pairings} == {f"score group {s}" for s in range(5)}


def test_40_players_round_22_pairs_without_a_search_limit() -> None:
    """simulate_event --players 40 --seed 1 --rounds 22, round 22: a rematch-free pairing exists (the search gave up
    after its limit); every board is explained."""
    players = recorded("40-seed1-round22")
    result = pair_round(players)
    met = {p.id: p.opponents for p in players}
    assert len(result.pairings) == 20 and result.rematches == 0
    assert all(p.b not in met[p.a] and p.reason for p in result.pairings)


def test_the_stated_order_within_a_score_group() -> None:
    """1v5, 2v6, 3v7, 4v8; when 1 has met 5, the nearest change: 1 meets 6 and 2 meets 5."""
    players = [SwissPlayer(i, i, opponents=frozenset({5} if i == 1 else {1} if i == 5 else set())) for i in range(1, 9)]
    result = pair_round(players)
    assert [(p.a, p.b) for p in result.pairings] == [(1, 6), (2, 5), (3, 7), (4, 8)]


def test_fewest_rematches_only_when_allowed() -> None:
    everyone = {"A", "B", "C", "D"}
    players = [SwissPlayer(pid, rank, 1, frozenset(everyone - {pid})) for rank, pid in enumerate("ABCD", 1)]
    players.append(SwissPlayer("E", 5, 0, frozenset({"F"})))
    players.append(SwissPlayer("F", 6, 0, frozenset({"E"})))
    with pytest.raises(NoPairingError):
        pair_round(players)
    result = pair_round(players, allow_rematches=True)
    assert result.rematches == best_possible(players, rematch_cost=1)[0] == 1  # A and B meet E and F; C and D again
    assert all(p.reason.startswith("rematch") == p.rematch for p in result.pairings)
    assert pair_round(field(6).values(), allow_rematches=True).rematches == 0


def test_a_large_field_repairs_a_rematch_far_from_its_board() -> None:
    """Above DENSE_FIELD the ideal boards are repaired around each rematch, the window widened until it pairs: here
    the top player can meet only the last one."""
    n = DENSE_FIELD + 10
    ids = list(range(1, n + 1))
    players = [SwissPlayer(1, 1, opponents=frozenset(ids[1:-1]))]
    players += [SwissPlayer(i, i, opponents=frozenset({1}) if i < n else frozenset()) for i in ids[1:]]
    result = pair_round(players)
    assert (result.pairings[0].a, result.pairings[0].b) == (1, n)
    assert result.rematches == 0 and len(result.pairings) == n // 2


def test_a_large_field_pairs_within_score_groups_when_it_can() -> None:
    players = field(200)
    rng = random.Random(11)
    for _ in range(6):
        play_round(players, rng)
    active = list(players.values())
    result = pair_round(active)
    groups: dict[int, int] = {}
    for p in active:
        groups[p.score] = groups.get(p.score, 0) + 1
    odd_boundaries = sum(sum(v for k, v in groups.items() if k >= s) % 2 for s in groups)  # each needs one float
    assert float_cost(active, result)[0] == odd_boundaries


# -- float history -------------------------------------------------------------------------------------------------


def test_a_player_paired_down_last_round_is_not_paired_down_again_when_a_pairing_as_good_avoids_it() -> None:
    """Three players on 2 wins, three on 1: one of the three floats down. The stated order floats the lowest, 3;
    but 3 was paired down last round, so another floats instead (as few and as small floats, the order a little
    worse)."""
    level = [SwissPlayer(id=i, rank=i, score=2) for i in (1, 2)]
    players = [*level, SwissPlayer(id=3, rank=3, score=2, floated=DOWN)]
    players += [SwissPlayer(id=i, rank=i, score=1) for i in (4, 5, 6)]
    without_history = pair_round([replace(p, floated=LEVEL) for p in players])
    assert [(p.a, p.b) for p in without_history.pairings] == [(1, 2), (3, 4), (5, 6)], "the stated order"
    result = pair_round(players)
    assert [(p.a, p.b) for p in result.pairings] == [(1, 4), (2, 3), (5, 6)]
    assert result.pairings[0].reason == "pulled up from score group 1 to score group 2"


def test_a_player_pulled_up_last_round_is_not_pulled_up_again_when_a_pairing_as_good_avoids_it() -> None:
    """One player on 1 win, three on 0: the leader meets the highest of them, 2, unless 2 was pulled up last round."""
    players = [SwissPlayer(id=1, rank=1, score=1), SwissPlayer(id=2, rank=2, floated=UP)]
    players += [SwissPlayer(id=i, rank=i) for i in (3, 4)]
    assert [(p.a, p.b) for p in pair_round([replace(p, floated=LEVEL) for p in players]).pairings] == [(1, 2), (3, 4)]
    assert [(p.a, p.b) for p in pair_round(players).pairings] == [(1, 4), (2, 3)]


def test_a_float_that_cannot_be_avoided_is_still_made_and_says_so() -> None:
    players = [SwissPlayer(id=1, rank=1, score=1, floated=DOWN), *(SwissPlayer(id=i, rank=i) for i in (2, 3, 4))]
    result = pair_round(players)
    assert result.pairings[0].a == 1 and "floating the same way as last round" in result.pairings[0].reason


def rehearse_floats(
    n: int, rounds: int, rng: random.Random
) -> list[tuple[SwissResult, SwissResult, list[SwissPlayer]]]:
    """A Swiss of ``n`` players with coin-toss results, paired with float history: for each round, the pairing
    without the history, the one with it, and the players before the round."""
    players = {i: SwissPlayer(id=i, rank=i) for i in range(1, n + 1)}
    out = []
    for _ in range(rounds):
        before = list(players.values())
        try:
            without = pair_round([replace(p, floated=LEVEL) for p in before])
        except NoPairingError:
            break  # a small field that has played nearly everyone
        result = pair_round(before)
        out.append((without, result, before))
        for board in result.pairings:
            a = players[board.a]
            if board.b is None:
                players[a.id] = replace(a, score=a.score + 1, had_bye=True, floated=LEVEL)
                continue
            b = players[board.b]
            drift = (a.score > b.score) - (a.score < b.score)  # 1: a paired down, b pulled up
            won = rng.random() < 0.5
            players[a.id] = replace(a, score=a.score + won, opponents=a.opponents | {b.id}, floated=-drift)
            players[b.id] = replace(b, score=b.score + (not won), opponents=b.opponents | {a.id}, floated=drift)
    return out


def quality(result: SwissResult, players: list[SwissPlayer]) -> tuple[int, object, int, int]:
    """Rematches, the bye's player, the sum of the squared score differences, and the repeated floats."""
    by_id = {p.id: p for p in players}
    floats = repeats = 0
    for board in result.pairings:
        if board.b is None:
            continue
        a, b = by_id[board.a], by_id[board.b]
        floats += (a.score - b.score) ** 2
        high, low = (a, b) if a.score >= b.score else (b, a)
        repeats += a.score != b.score and (high.floated == DOWN) + (low.floated == UP)
    return result.rematches, result.bye, floats, repeats


def test_float_history_never_worsens_the_criteria_above_it_and_avoids_every_avoidable_repeat() -> None:
    """Over many seeded rehearsals (6 to 40 players, 4 to 7 rounds): with the float history, each round has the same
    rematches, the same bye and the same float cost as without it, and never more repeated floats."""
    rng = random.Random(32)
    avoided = 0
    for _ in range(120):
        n = rng.randint(6, 40)
        rounds = rng.randint(4, min(7, n - 1))
        for without, result, before in rehearse_floats(n, rounds, rng):
            old, new = quality(without, before), quality(result, before)
            assert new[:3] == old[:3], (n, old, new)
            assert new[3] <= old[3], (n, old, new)
            avoided += new[3] < old[3]
    assert avoided > 0, "the rehearsals hold rounds where the history changes the pairing"
