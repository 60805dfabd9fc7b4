"""tournaments.ratings: the FIBS rating formula, replayed from match history (pure Python, no database)."""

from __future__ import annotations

import math

import pytest

from tournaments.ratings import RatedMatch, Rating, RatingRule, fibs_k, rate, win_probability


def test_fibs_k_decreases_with_experience_down_to_one() -> None:
    assert fibs_k(0) == 5.0
    assert fibs_k(50) == 4.5  # 5 - 50/100
    assert fibs_k(300) == 2.0  # 5 - 300/100
    assert fibs_k(400) == 1.0  # 5 - 400/100
    assert fibs_k(500) == 1.0  # max(1, 5 - 5) = 1
    assert fibs_k(10_000) == 1.0


def test_win_probability_even_and_complementary() -> None:
    assert win_probability(1500, 1500, 5) == pytest.approx(0.5)
    # Underdog (1500 against 1600, 7 points): 1 / (10^(100*sqrt(7)/2000) + 1).
    underdog = 1 / (10 ** (100 * math.sqrt(7) / 2000) + 1)
    assert underdog == pytest.approx(0.424433, abs=1e-6)
    assert win_probability(1500, 1600, 7) == pytest.approx(underdog)
    assert win_probability(1600, 1500, 7) == pytest.approx(1 - underdog)


def test_longer_matches_favour_the_favourite() -> None:
    assert win_probability(1600, 1500, 1) < win_probability(1600, 1500, 7) < win_probability(1600, 1500, 25)


def test_two_new_players_five_point_match() -> None:
    ratings, history = rate([RatedMatch("m1", "alice", "bob", 5)])
    # P = 0.5, K = 5 for both: delta = 4 * 5 * sqrt(5) * 0.5 = 10 * sqrt(5) = 22.3606...
    delta = 4 * 5 * math.sqrt(5) * 0.5
    assert delta == pytest.approx(22.36068, abs=1e-5)
    assert ratings["alice"] == Rating("alice", pytest.approx(1500 + delta), 5, 1)
    assert ratings["bob"] == Rating("bob", pytest.approx(1500 - delta), 5, 1)
    assert [(c.match_id, c.player) for c in history] == [("m1", "alice"), ("m1", "bob")]
    won, lost = history
    assert (won.before, won.delta, won.after) == (1500, pytest.approx(delta), pytest.approx(1500 + delta))
    assert (lost.before, lost.delta, lost.after) == (1500, pytest.approx(-delta), pytest.approx(1500 - delta))
    assert (won.experience_before, won.experience_after) == (0, 5)


def test_upset_underdog_wins_seven_pointer() -> None:
    # Favourite 1600 (experience 300, so K = 5 - 3 = 2), underdog 1500 (experience 500, K = 1).
    initial = {"fav": Rating("fav", 1600.0, 300, 10), "dog": Rating("dog", 1500.0, 500, 20)}
    ratings, history = rate([RatedMatch(1, "dog", "fav", 7)], initial=initial)
    # P = probability the result would not happen = the favourite's win probability
    #   = 1 - 1 / (10^(100 * sqrt(7) / 2000) + 1) = 1 - 0.424433... = 0.575567...
    p = 1 - 1 / (10 ** (100 * math.sqrt(7) / 2000) + 1)
    assert p == pytest.approx(0.575567, abs=1e-6)
    gain = 4 * 1 * math.sqrt(7) * p  # underdog's K = 1  -> 6.0912...
    loss = 4 * 2 * math.sqrt(7) * p  # favourite's K = 2 -> 12.1825...
    assert ratings["dog"] == Rating("dog", pytest.approx(1500 + gain), 507, 21)
    assert ratings["fav"] == Rating("fav", pytest.approx(1600 - loss), 307, 11)
    assert [c.delta for c in history] == [pytest.approx(gain), pytest.approx(-loss)]
    assert gain == pytest.approx(6.09123, abs=1e-5)


def test_favourite_wins_gains_less() -> None:
    initial = {"fav": Rating("fav", 1600.0, 0, 0), "dog": Rating("dog", 1500.0, 0, 0)}
    ratings, _ = rate([RatedMatch(1, "fav", "dog", 7)], initial=initial)
    p = 1 / (10 ** (100 * math.sqrt(7) / 2000) + 1)  # the underdog's win probability
    delta = 4 * 5 * math.sqrt(7) * p
    assert ratings["fav"].rating == pytest.approx(1600 + delta)
    assert ratings["dog"].rating == pytest.approx(1500 - delta)


def test_k_uses_experience_before_the_match() -> None:
    # alice plays 60 one-pointers against fresh opponents, then a 5-pointer: her K there is 5 - 60/100 = 4.4.
    matches = [RatedMatch(i, "alice", f"p{i}", 1) for i in range(60)]
    matches.append(RatedMatch("last", "newbie", "alice", 5))
    ratings, history = rate(matches)
    before = history[-1]
    assert before.player == "alice"
    assert before.experience_before == 60
    assert before.experience_after == 65
    newbie = history[-2]
    p = win_probability(before.before, 1500.0, 5)  # alice would have won
    assert newbie.delta == pytest.approx(4 * 5 * math.sqrt(5) * p)
    assert before.delta == pytest.approx(-4 * 4.4 * math.sqrt(5) * p)
    assert ratings["alice"].experience == 65


def test_money_sessions_are_unrated() -> None:
    ratings, history = rate(
        [RatedMatch("cash", "alice", "bob", 0), RatedMatch("m", "alice", "carol", 3), RatedMatch("c2", "bob", "x", 0)]
    )
    assert set(ratings) == {"alice", "carol"}  # bob and x only played money sessions
    assert ratings["alice"].experience == 3
    assert ratings["alice"].matches == 1
    assert {c.match_id for c in history} == {"m"}


def test_order_matters() -> None:
    a_beats_b = RatedMatch("ab", "a", "b", 5)
    c_beats_a = RatedMatch("ca", "c", "a", 5)
    d0 = 4 * 5 * math.sqrt(5) * 0.5  # first match between new players: 22.3606...
    k_a = 5 - 5 / 100  # a has played 5 points before her second match: K = 4.95

    first, _ = rate([a_beats_b, c_beats_a])
    # a: 1500 + d0, then loses to c (1500): P = a's win probability.
    p1 = 1 / (10 ** ((1500 - (1500 + d0)) * math.sqrt(5) / 2000) + 1)
    assert first["a"].rating == pytest.approx(1500 + d0 - 4 * k_a * math.sqrt(5) * p1)
    assert first["b"].rating == pytest.approx(1500 - d0)
    assert first["c"].rating == pytest.approx(1500 + 4 * 5 * math.sqrt(5) * p1)

    second, _ = rate([c_beats_a, a_beats_b])
    # a: 1500 - d0, then beats b (1500): P = b's win probability.
    p2 = 1 / (10 ** (((1500 - d0) - 1500) * math.sqrt(5) / 2000) + 1)
    assert second["a"].rating == pytest.approx(1500 - d0 + 4 * k_a * math.sqrt(5) * p2)
    assert second["b"].rating == pytest.approx(1500 - 4 * 5 * math.sqrt(5) * p2)
    assert second["c"].rating == pytest.approx(1500 + d0)

    # Same two results, different order: a ends about 0.83 apart, and b and c swap who was hit harder.
    assert first["a"].rating == pytest.approx(1499.587, abs=1e-3)
    assert second["a"].rating == pytest.approx(1500.413, abs=1e-3)
    assert first["c"].rating == pytest.approx(1523.004, abs=1e-3)
    assert second["b"].rating == pytest.approx(1476.996, abs=1e-3)


def test_custom_k_rule_and_start() -> None:
    rule = RatingRule(start=1000.0, k=lambda experience: 10.0)
    ratings, history = rate([RatedMatch(1, "a", "b", 9), RatedMatch(2, "a", "b", 9)], rule)
    d1 = 4 * 10 * math.sqrt(9) * 0.5  # = 60
    assert history[0].delta == pytest.approx(60.0)
    # Second match: a (1060) beats b (940); P = b's win probability.
    p = 1 / (10 ** (120 * 3 / 2000) + 1)
    d2 = 4 * 10 * 3 * p
    assert ratings["a"].rating == pytest.approx(1000 + d1 + d2)
    assert ratings["b"].rating == pytest.approx(1000 - d1 - d2)


def test_zero_sum_when_k_equal() -> None:
    # Everyone past 400 points of experience has K = 1, so every match is zero-sum.
    players = ["a", "b", "c", "d"]
    initial = {p: Rating(p, 1500.0 + 37 * i, 400 + i, 50) for i, p in enumerate(players)}
    matches = [RatedMatch(i, players[i % 4], players[(i * 3 + 1) % 4], 1 + i % 11) for i in range(40)]
    matches = [m for m in matches if m.winner != m.loser]
    ratings, history = rate(matches, initial=initial)
    assert sum(c.delta for c in history) == pytest.approx(0, abs=1e-9)
    assert sum(r.rating for r in ratings.values()) == pytest.approx(sum(r.rating for r in initial.values()))
    for won, lost in zip(history[::2], history[1::2], strict=True):
        assert won.delta == pytest.approx(-lost.delta)
        assert won.delta > 0


def test_different_k_is_not_zero_sum() -> None:
    initial = {"old": Rating("old", 1500.0, 1000, 100)}
    _, history = rate([RatedMatch(1, "new", "old", 5)], initial=initial)
    # P = 0.5: new gains 4*5*sqrt(5)*0.5, old loses only 4*1*sqrt(5)*0.5.
    assert history[0].delta == pytest.approx(10 * math.sqrt(5))
    assert history[1].delta == pytest.approx(-2 * math.sqrt(5))


def test_empty_history() -> None:
    assert rate([]) == ({}, [])


def test_negative_length_rejected() -> None:
    with pytest.raises(ValueError, match=r"match 'bad': match length must be >= 0, got -1"):
        rate([RatedMatch("bad", "a", "b", -1)])


def test_self_match_rejected() -> None:
    with pytest.raises(ValueError, match="winner and loser are the same player"):
        rate([RatedMatch("bad", "a", "a", 5)])


def test_self_money_session_rejected_too() -> None:
    with pytest.raises(ValueError, match="winner and loser are the same player"):
        rate([RatedMatch("bad", "a", "a", 0)])


def test_win_probability_rejects_non_positive_length() -> None:
    with pytest.raises(ValueError, match="positive match length"):
        win_probability(1500, 1500, 0)
