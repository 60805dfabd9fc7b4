"""Ratings of an event on a rating list, recomputed by the ``update_ratings`` task that follows every result (and
by ``services.recompute_ratings``), checked against FIBS figures worked out by hand:

    P (the chance that the result would not happen) = 1 / (10 ** (D * sqrt(N) / 2000) + 1) for the underdog,
    1 - that for the favourite, D the rating difference, N the match length;
    the winner gains 4 * K * sqrt(N) * P and the loser loses 4 * K * sqrt(N) * P, each with his own
    K = max(1, 5 - experience / 100), experience being the points of rated matches he played before.

Forfeits are not rated; a list may fix K for everyone."""

from __future__ import annotations

from collections.abc import Callable
from math import sqrt

import pytest

from common.actor import Actor
from games import services as games
from tests.tournaments.services.support import enter_win, link, named, pairing
from tournaments import services
from tournaments.models import Division, Pairing, Rating, RatingChange, RatingList

pytestmark = pytest.mark.django_db


def ratings(rating_list: RatingList) -> dict[str, tuple[float, int, int]]:
    rows = Rating.objects.filter(rating_list=rating_list).select_related("player")
    return {r.player.display_name: (r.rating, r.experience, r.matches) for r in rows}


def underdog_chance(d: float, n: int) -> float:
    return 1 / (10 ** (d * sqrt(n) / 2000) + 1)


def test_ratings_follow_the_fibs_formula_and_skip_forfeits(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    club = services.create_rating_list(actor=as_director, name="Club list")
    event = services.create_event(actor=as_director, name="Rated open", rating_list=club)
    main = division_of("single", 4, event=event, entry_mode="scoresheet", round_lengths={"main:1": 3, "main:2": 5})
    services.start_division(main, actor=as_director)
    p1, p2, p3, p4 = (named(main, f"P0{i}") for i in range(1, 5))

    with committed():  # match 1: P01 beats P04, 3 points
        enter_win(pairing(main, "main-1-0"), p1, actor=as_director)
    with committed():  # P03 does not show up: P02 wins by forfeit, unrated
        services.award_forfeit(pairing(main, "main-1-1"), actor=as_director, loser=p3, kind="no-show", reason="absent")
    with committed():  # match 2: P02 beats P01 in the 5-point final
        enter_win(pairing(main, "main-2-0"), p2, actor=as_director)
    jackpot = services.create_division(
        event, actor=as_director, settings=services.DivisionSettings(name="Jackpot", format="single", match_length=7)
    )
    services.register_player(jackpot, actor=as_director, player=p4.player, rating=1)
    services.register_player(jackpot, actor=as_director, player=p2.player, rating=2)
    services.start_division(jackpot, actor=as_director)
    with committed():  # match 3: P04 beats P02, 7 points
        enter_win(pairing(jackpot, "main-1-0"), named(jackpot, "P04"), actor=as_director)

    # match 1: both new (1500, K = 5): P = 1/2; 4 * 5 * sqrt(3) * 1/2 = 10 sqrt(3)
    r1, r4 = 1500 + 10 * sqrt(3), 1500 - 10 * sqrt(3)
    # match 2: P02 (1500, K = 5) beats the favourite P01 (r1, 3 points played: K = 4.97)
    p = 1 - underdog_chance(r1 - 1500, 5)  # the favourite's chance: the result that did not happen
    r2, r1 = 1500 + 4 * 5 * sqrt(5) * p, r1 - 4 * 4.97 * sqrt(5) * p
    # match 3: P04 (r4, K = 4.97) beats the favourite P02 (r2, 5 points played: K = 4.95)
    p = 1 - underdog_chance(r2 - r4, 7)
    r4, r2 = r4 + 4 * 4.97 * sqrt(7) * p, r2 - 4 * 4.95 * sqrt(7) * p

    got = ratings(club)
    assert set(got) == {"P01", "P02", "P04"}, "P03 only forfeited: no rated match"
    assert got["P01"] == (pytest.approx(r1, abs=1e-9), 8, 2)
    assert got["P02"] == (pytest.approx(r2, abs=1e-9), 12, 2)
    assert got["P04"] == (pytest.approx(r4, abs=1e-9), 10, 2)
    assert round(got["P01"][0], 2) == 1494.60  # the figures, for a reader checking by hand
    assert round(got["P02"][0], 2) == 1495.07
    assert round(got["P04"][0], 2) == 1510.59
    history = RatingChange.objects.filter(rating_list=club).order_by("order", "-won")
    assert [(c.order, c.player.display_name, c.won) for c in history] == [
        (1, "P01", True),
        (1, "P04", False),
        (2, "P02", True),
        (2, "P01", False),
        (3, "P04", True),
        (3, "P02", False),
    ]
    forfeit = Pairing.objects.get(division=main, key="main-1-1").match
    assert not RatingChange.objects.filter(match=forfeit).exists()

    before = ratings(club)
    assert services.recompute_ratings(club.pk) == 3, "recomputing from the history changes nothing"
    assert ratings(club) == before


def test_a_rating_list_with_a_fixed_k(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    fixed = services.create_rating_list(actor=as_director, name="Fixed K", k_factor=2)
    event = services.create_event(actor=as_director, name="Fixed K night", rating_list=fixed)
    division = division_of("single", 3, event=event, entry_mode="scoresheet", match_length=5)
    services.start_division(division, actor=as_director)
    with committed():  # P02 beats P03: 4 * 2 * sqrt(5) * 1/2
        enter_win(pairing(division, "main-1-1"), named(division, "P02"), actor=as_director)
    with committed():  # P01 (1500, new) beats P02 (1500 + 4 sqrt 5): K stays 2 whatever the experience
        enter_win(pairing(division, "main-2-0"), named(division, "P01"), actor=as_director)
    r2, r3 = 1500 + 4 * sqrt(5), 1500 - 4 * sqrt(5)
    p = 1 - underdog_chance(r2 - 1500, 5)
    r1, r2 = 1500 + 4 * 2 * sqrt(5) * p, r2 - 4 * 2 * sqrt(5) * p
    got = ratings(fixed)
    assert {k: pytest.approx(v[0], abs=1e-9) for k, v in got.items()} == {"P01": r1, "P02": r2, "P03": r3}


def test_only_counted_results_are_rated_and_a_change_is_followed(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """A scoresheet result waiting for the opponent, or disputed, is not rated (the standings leave it out too); it
    is once confirmed, and a director's correction of it moves the ratings with it."""
    club = services.create_rating_list(actor=as_director, name="Counted only")
    event = services.create_event(actor=as_director, name="Counted night", rating_list=club)
    division = division_of("single", 4, event=event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    p = pairing(division, "main-1-0")  # P01 v P04
    with committed():  # P04 enters his win from his entry link: it waits for P01
        enter_win(p, named(division, "P04"), actor=link(p.match_id, 1))
    assert pairing(division, "main-1-0").confirmation == Pairing.Confirmation.AWAITING
    assert ratings(club) == {}, "an unconfirmed result is not rated"
    with committed():
        services.dispute_result(pairing(division, "main-1-0"), actor=link(p.match_id, 0), reason="I won the last game")
    services.recompute_ratings(club.pk)
    assert ratings(club) == {}, "a disputed result is not rated"

    with committed():  # the director settles it: the result stands
        services.confirm_result(pairing(division, "main-1-0"), actor=as_director)
    got = ratings(club)
    assert set(got) == {"P01", "P04"} and got["P04"][0] > 1500 > got["P01"][0]

    with committed():  # the director corrects the game: P01 won the match after all
        games.replace_game_result(p.match_id, actor=as_director, game_number=1, winner=0, kind=1, reason="misread")
    got = ratings(club)
    assert got["P01"][0] > 1500 > got["P04"][0], "the correction is followed"
