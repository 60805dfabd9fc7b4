"""Closing a match by decision: forfeit (the other player gets the points needed), void (no winner), finish (money
sessions only); nothing more is accepted afterwards, and reopen brings a void or forfeited match back."""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ErrorCode
from games import selectors, services
from games.models import Action, Game, Match

pytestmark = pytest.mark.django_db


def _closed_calls(match: Match, seq: int, actor) -> dict:
    return {
        "opening roll": lambda: services.record_opening_roll(match.pk, actor=actor, dice=(3, 1), expected_seq=seq),
        "roll": lambda: services.record_roll(match.pk, actor=actor, side=0, dice=(3, 1), expected_seq=seq),
        "play": lambda: services.record_play(match.pk, actor=actor, side=0, play="8/5 6/5", expected_seq=seq),
        "double": lambda: services.offer_double(match.pk, actor=actor, side=0, expected_seq=seq),
        "take": lambda: services.take(match.pk, actor=actor, side=1, expected_seq=seq),
        "drop": lambda: services.drop(match.pk, actor=actor, side=1, expected_seq=seq),
        "resign": lambda: services.offer_resignation(match.pk, actor=actor, side=0, kind=1, expected_seq=seq),
        "accept": lambda: services.accept_resignation(match.pk, actor=actor, side=1, expected_seq=seq),
        "reject": lambda: services.reject_resignation(match.pk, actor=actor, side=1, expected_seq=seq),
        "result": lambda: services.record_game_result(match.pk, actor=actor, winner=0, kind=1, expected_seq=seq),
        "forfeit": lambda: services.forfeit_match(match.pk, actor=actor, loser_side=0, reason="r", expected_seq=seq),
        "void": lambda: services.void_match(match.pk, actor=actor, reason="r", expected_seq=seq),
        "finish": lambda: services.finish_match(match.pk, actor=actor, reason="r", expected_seq=seq),
    }


def _assert_closed(match: Match, refused, cast, status_word: str) -> None:
    seq = Match.objects.get(pk=match.pk).seq
    for name, call in _closed_calls(match, seq, cast.as_director).items():
        with refused(match, ErrorCode.MATCH_CLOSED, status_word):
            call()
        assert name  # (the name shows in the traceback when one is accepted)


# -- forfeit -----------------------------------------------------------------------------------------------------


def test_a_forfeit_gives_the_other_player_the_points_needed(new_match, drive, cast, refused) -> None:
    match = new_match(length=7, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 2)
    d.result(1, 3)  # 2-3
    r = services.forfeit_match(match.pk, actor=cast.as_director, loser_side=1, reason="left the club", expected_seq=2)
    assert (r.action.kind, r.action.side, r.action.reason, r.action.entered_by_user) == (
        Action.Kind.FORFEIT,
        1,
        "left the club",
        cast.director,
    )
    match.refresh_from_db()
    assert (match.status, match.score, match.winner, match.seq) == (Match.Status.FORFEITED, (7, 3), cast.alice, 3)
    assert match.finished_at is not None
    game = Game.objects.get(match=match, number=3)
    assert (game.start_score1, game.start_score2, game.winner_side, game.ended_by, game.points) == (
        2,
        3,
        0,
        "concession",
        5,
    )
    assert selectors.live_state(Match.objects.get(pk=match.pk))["legal_actions"] == []
    _assert_closed(match, refused, cast, "forfeited")


def test_a_forfeit_mid_game_and_before_the_first_game(new_match, drive, cast) -> None:
    match = new_match(length=5)
    d = drive(match, seed=1)
    d.to_roll_phase()
    d.double()
    d.take()  # the cube does not change what a forfeit gives: the points needed
    r = services.forfeit_match(match.pk, actor=cast.as_director, loser_side=0, reason="no-show after the break")
    assert r.match.score == (0, 5) and r.match.status == Match.Status.FORFEITED and r.match.winner == cast.bob
    game = Game.objects.get(match=match, number=1)
    assert (game.ended_by, game.points, game.winner_side, game.opening_winner) == (
        "concession",
        5,
        1,
        d.game.opening_winner,
    )

    unplayed = new_match(length=3)
    r = services.forfeit_match(unplayed.pk, actor=cast.as_director, loser_side=1, reason="no-show")
    assert r.match.score == (3, 0) and r.match.started_at is not None
    assert list(Game.objects.filter(match=unplayed).values_list("number", "points", "opening_winner")) == [(1, 3, None)]


def test_forfeit_refusals_write_nothing(new_match, cast, refused) -> None:
    money = new_match(length=0)
    with refused(money, ErrorCode.ILLEGAL_ACTION, "money session"):
        services.forfeit_match(money.pk, actor=cast.as_director, loser_side=0, reason="x")
    match = new_match()
    with refused(match, ErrorCode.ILLEGAL_ACTION, "no side 2"):
        services.forfeit_match(match.pk, actor=cast.as_director, loser_side=2, reason="x")
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.forfeit_match(match.pk, actor=cast.as_director, loser_side=0, reason="x", expected_seq=3)


# -- void --------------------------------------------------------------------------------------------------------


def test_void_cancels_a_match_without_a_winner_and_reopen_brings_it_back(new_match, drive, cast, refused) -> None:
    match = new_match(length=7)
    d = drive(match, seed=2)
    d.to_roll_phase()
    d.turns(2)
    state_before = Match.objects.get(pk=match.pk).state
    r = services.void_match(match.pk, actor=cast.as_director, reason="wrong pairing", expected_seq=d.seq)
    assert (r.action.kind, r.action.reason, r.action.side, r.action.game_number) == (
        Action.Kind.VOID,
        "wrong pairing",
        None,
        1,
    )
    match.refresh_from_db()
    assert (match.status, match.winner, match.seq) == (Match.Status.VOID, None, d.seq + 1)
    assert match.finished_at is not None and match.state == state_before  # the engine state is untouched
    live = selectors.live_state(Match.objects.get(pk=match.pk))
    assert live["status"] == "void" and live["legal_actions"] == [] and live["legal_plays"] == []
    _assert_closed(match, refused, cast, "void")

    r = services.reopen_match(match.pk, actor=cast.as_director, reason="pairing was right", expected_seq=d.seq + 1)
    assert r.action.undoes.kind == Action.Kind.VOID
    match.refresh_from_db()
    assert (match.status, match.winner, match.finished_at, match.state) == (
        Match.Status.IN_PROGRESS,
        None,
        None,
        state_before,
    )
    d.seq = match.seq
    d.turn()  # play goes on


def test_void_a_scheduled_match_and_reopen_it(new_match, cast) -> None:
    match = new_match()
    services.void_match(match.pk, actor=cast.as_director, reason="player ill")
    services.reopen_match(match.pk, actor=cast.as_director, reason="recovered")
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.seq == 2
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=2)


# -- finish ------------------------------------------------------------------------------------------------------


def test_finish_ends_a_money_session_only(new_match, drive, cast, refused) -> None:
    match = new_match(length=7)
    with refused(match, ErrorCode.CONFLICT, "ends when a player reaches"):
        services.finish_match(match.pk, actor=cast.as_director)
    money = new_match(length=0)
    d = drive(money, seed=3)
    d.result(1, 2, cube=4)
    d.to_roll_phase()
    r = services.finish_match(money.pk, actor=cast.as_director, expected_seq=d.seq)
    assert (r.action.kind, r.action.reason) == (Action.Kind.FINISH, "session ended")
    money.refresh_from_db()
    assert (money.status, money.winner, money.score) == (Match.Status.FINISHED, None, (0, 8))
    assert money.finished_at is not None
    _assert_closed(money, refused, cast, "finished")
    services.reopen_match(money.pk, actor=cast.as_director, reason="one more game")
    money.refresh_from_db()
    assert money.status == Match.Status.IN_PROGRESS and money.score == (0, 8)


def test_void_and_finish_check_the_sequence(new_match, cast, refused) -> None:
    match = new_match(length=0)
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.void_match(match.pk, actor=cast.as_director, reason="x", expected_seq=1)
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.finish_match(match.pk, actor=cast.as_director, expected_seq=1)


def test_a_forfeit_is_told_apart_from_the_games_played_before_it(new_match, drive, cast) -> None:
    match = new_match(length=7, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 2)
    d.result(1, 3)  # 2-3
    services.forfeit_match(match.pk, actor=cast.as_director, loser_side=1, reason="left the club")
    match.refresh_from_db()
    games = list(selectors.match_games(match))
    forfeit = selectors.forfeit_of(match, games, ("Ann", "Bob"))
    assert forfeit == selectors.Forfeit(
        game=3, begun=False, winner="Ann", loser="Bob", score=(7, 3), reason="left the club", played=True
    )
    assert [g.number for g in selectors.games_played(games, forfeit)] == [1, 2]

    mid_game = new_match(length=5)
    d = drive(mid_game, seed=1)
    d.to_roll_phase()
    services.forfeit_match(mid_game.pk, actor=cast.as_director, loser_side=0, reason="no-show after the break")
    mid_game.refresh_from_db()
    games = list(selectors.match_games(mid_game))
    forfeit = selectors.forfeit_of(mid_game, games, ("Ann", "Bob"))
    assert forfeit is not None and (forfeit.begun, forfeit.played, forfeit.winner, forfeit.score) == (
        True,
        True,
        "Bob",
        (0, 5),
    )
    assert selectors.games_played(games, forfeit) == []
    assert selectors.forfeit_of(new_match(length=3), [], ("Ann", "Bob")) is None
