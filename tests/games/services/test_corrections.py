"""Director corrections: undo the last action, replace a scoresheet result (later games re-scored), reopen a
closed match. Each correction appends one CORRECTION row naming what it undoes and why; the caches are rebuilt by
replaying the log in force, and a correction that would make a later action illegal is refused whole."""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ApplicationError, ErrorCode
from engine.match import MatchState
from games import services
from games.models import Action, Game, Match
from tests.games.conftest import game_rows

pytestmark = pytest.mark.django_db


def _correction_rows(match: Match) -> list[Action]:
    return list(Action.objects.filter(match=match, kind=Action.Kind.CORRECTION).order_by("seq"))


def _scores(match: Match) -> list[tuple[int, int, int, int]]:
    """(start score 1, start score 2, winner side, points) per game."""
    return list(
        Game.objects.filter(match=match)
        .order_by("number")
        .values_list("start_score1", "start_score2", "winner_side", "points")
    )


# -- undo --------------------------------------------------------------------------------------------------------


def test_undo_takes_back_the_last_action_in_force_with_one_row_naming_it(new_match, drive, cast, refused) -> None:
    match = new_match()
    d = drive(match, seed=1)
    with refused(match, ErrorCode.CONFLICT, "nothing to undo"):
        services.undo_last_action(match.pk, actor=cast.as_director, reason="oops")
    opening = d.opening()
    after_opening = d.state.snapshot()
    play = d.play()
    r = services.undo_last_action(match.pk, actor=cast.as_director, reason="wrong checker", expected_seq=2)
    assert (r.action.seq, r.action.kind, r.action.undoes_id, r.action.reason) == (
        3,
        Action.Kind.CORRECTION,
        play.action.pk,
        "wrong checker",
    )
    assert r.action.entered_by_user == cast.director and r.action.game_number == 1
    assert r.action.match_id_after == r.state.match_id() and r.action.position_id == r.state.game.position().key()
    match.refresh_from_db()
    assert match.seq == 3 and match.state == after_opening == r.state.snapshot()
    assert Action.objects.filter(match=match).count() == 3  # nothing is deleted from the log
    # Play goes on from the restored state.
    legal = sorted(str(p) for p in r.state.game.legal_plays())
    services.record_play(match.pk, actor=SYSTEM, side=r.state.game.on_roll, play=legal[-1], expected_seq=3)
    services.undo_last_action(match.pk, actor=cast.as_director, reason="again", expected_seq=4)
    r = services.undo_last_action(match.pk, actor=cast.as_director, reason="wrong opening dice", expected_seq=5)
    assert r.action.undoes_id == opening.action.pk
    match.refresh_from_db()
    assert match.state == MatchState.new(7).snapshot() and match.status == Match.Status.SCHEDULED
    assert match.score == (0, 0) and not Game.objects.filter(match=match).exists()
    with refused(match, ErrorCode.CONFLICT, "nothing to undo"):
        services.undo_last_action(match.pk, actor=cast.as_director, reason="more")
    assert [c.undoes.kind for c in _correction_rows(match)] == ["play", "play", "opening-roll"]


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_correction_without_a_reason_is_refused(new_match, drive, cast, refused, reason: str) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(0, 2)
    calls = [
        lambda: services.undo_last_action(match.pk, actor=cast.as_director, reason=reason),
        lambda: services.replace_game_result(
            match.pk, actor=cast.as_director, game_number=1, winner=1, kind=1, reason=reason
        ),
        lambda: services.reopen_match(match.pk, actor=cast.as_director, reason=reason),
        lambda: services.void_match(match.pk, actor=cast.as_director, reason=reason),
        lambda: services.forfeit_match(match.pk, actor=cast.as_director, loser_side=0, reason=reason),
    ]
    for call in calls:
        with refused(match, ErrorCode.INVALID_INPUT, "needs a reason"):
            call()


# -- replace a result ------------------------------------------------------------------------------------------


def test_replacing_a_result_rescores_the_later_games(new_match, drive, cast) -> None:
    match = new_match(length=7, entry_mode="scoresheet")
    d = drive(match)
    first = d.result(0, 1)  # 1-0
    d.result(1, 2)  # 1-2
    d.result(0, 1, cube=2)  # 3-2
    assert _scores(match) == [(0, 0, 0, 1), (1, 0, 1, 2), (1, 2, 0, 2)]
    r = services.replace_game_result(
        match.pk, actor=cast.as_director, game_number=1, winner=1, kind=3, reason="sheet misread", expected_seq=3
    )
    assert (r.action.seq, r.action.kind, r.action.undoes_id, r.action.reason, r.action.game_number) == (
        4,
        Action.Kind.CORRECTION,
        first.action.pk,
        "sheet misread",
        1,
    )
    assert r.action.data == {"replacement": {"winner": 1, "kind": 3, "cube": 1, "ended_by": "director"}}
    match.refresh_from_db()
    assert match.score == (2, 5) and match.seq == 4
    assert _scores(match) == [(0, 0, 1, 3), (0, 3, 1, 2), (0, 5, 0, 2)]
    assert Game.objects.get(match=match, number=1).ended_by == "director"
    # A result replaced twice: the second replacement names the first.
    r2 = services.replace_game_result(
        match.pk, actor=cast.as_director, game_number=1, winner=0, kind=2, reason="no, a gammon", expected_seq=4
    )
    assert r2.action.undoes_id == r.action.pk
    match.refresh_from_db()
    assert match.score == (4, 2) and _scores(match)[0] == (0, 0, 0, 2)
    assert len(_correction_rows(match)) == 2
    # The caches are what a replay of the log in force gives.
    cached = (match.state, game_rows(match))
    services.rebuild_match(match)
    match.refresh_from_db()
    assert (match.state, game_rows(match)) == cached


def test_a_replacement_that_puts_a_double_into_the_new_crawford_game_is_refused(new_match, drive, cast, refused):
    match = new_match(length=5, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1, cube=2)  # 2-0
    d.result(0, 1)  # 3-0
    d.result(1, 1, cube=2)  # 3-2: game 3 was played with the cube at 2
    # A gammon in game 2 would make it 4-0, so game 3 becomes the Crawford game, where the cube cannot be at 2.
    with refused(match, ErrorCode.ILLEGAL_ACTION, "action 3", "Crawford"):
        services.replace_game_result(
            match.pk, actor=cast.as_director, game_number=2, winner=0, kind=2, reason="it was a gammon"
        )
    assert not _correction_rows(match)


def test_a_replacement_that_makes_a_later_double_illegal_move_by_move_is_refused(new_match, drive, cast, refused):
    match = new_match(length=3)
    d = drive(match, seed=2)
    d.result(0, 1, actor=cast.as_director)  # game 1 from a scoresheet: 1-0
    d.to_roll_phase()
    d.double()  # legal in game 2 at 1-0
    d.take()
    double_seq = next(a.seq for a in Action.objects.filter(match=match, kind=Action.Kind.DOUBLE))
    with refused(match, ErrorCode.ILLEGAL_ACTION, f"action {double_seq}", "Crawford"):
        services.replace_game_result(
            match.pk, actor=cast.as_director, game_number=1, winner=0, kind=2, reason="it was a gammon"
        )


def test_a_replacement_that_ends_the_match_before_later_games_is_refused(new_match, drive, cast, refused) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(1, 1)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "action 2", "match is over"):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=1, winner=0, kind=3, reason="bg")


def test_replace_refusals_write_nothing(new_match, drive, cast, refused) -> None:
    match = new_match(length=7)
    d = drive(match, seed=3)
    d.result(0, 1, actor=cast.as_director)
    d.to_roll_phase()
    with refused(match, ErrorCode.NOT_FOUND, "game 9", "not been recorded"):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=9, winner=0, kind=1, reason="x")
    with refused(match, ErrorCode.CONFLICT, "move by move", "undo"):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=2, winner=0, kind=1, reason="x")
    with refused(match, ErrorCode.INVALID_INPUT, "winner is side 0 or side 1"):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=1, winner=2, kind=1, reason="x")
    with refused(match, ErrorCode.ILLEGAL_ACTION, "cube value"):
        services.replace_game_result(
            match.pk, actor=cast.as_director, game_number=1, winner=0, kind=1, cube_value=3, reason="x"
        )
    with refused(match, ErrorCode.STALE_SEQUENCE, "moved on"):
        services.replace_game_result(
            match.pk, actor=cast.as_director, game_number=1, winner=0, kind=1, reason="x", expected_seq=1
        )


def test_replace_with_a_result_kind_out_of_range_is_invalid_input(new_match, drive, cast, refused) -> None:
    match = new_match(length=7, entry_mode="scoresheet")
    drive(match).result(0, 1)
    with refused(match, ErrorCode.INVALID_INPUT, "single (1), gammon (2) or backgammon (3)"):
        services.replace_game_result(match.pk, actor=cast.as_director, game_number=1, winner=0, kind=5, reason="x")


def test_a_replacement_that_decides_the_match_finishes_it(new_match, drive, cast) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(1, 1)  # 1-1, in progress
    r = services.replace_game_result(match.pk, actor=cast.as_director, game_number=2, winner=0, kind=2, reason="x")
    match.refresh_from_db()
    assert r.match.status == match.status == Match.Status.FINISHED and match.winner == cast.alice
    assert match.score == (3, 0)
    assert match.finished_at is not None  # a finished match says when it finished


def test_undoing_a_replacement_restores_the_original(new_match, drive, cast) -> None:
    """Undoing a replaced result brings back what it replaced (it used to leave the game with no result); undoing
    again then takes the original back too."""
    match = new_match(length=7, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    d.result(0, 2)
    services.replace_game_result(match.pk, actor=cast.as_director, game_number=2, winner=1, kind=1, reason="x")
    match.refresh_from_db()
    assert match.score == (1, 1)
    services.undo_last_action(match.pk, actor=cast.as_director, reason="undo the replacement")
    match.refresh_from_db()
    assert match.score == (3, 0) and [g.number for g in Game.objects.filter(match=match)] == [1, 2]
    # A second replacement over the restored original, undone: the original again.
    services.replace_game_result(match.pk, actor=cast.as_director, game_number=2, winner=1, kind=2, reason="y")
    services.undo_last_action(match.pk, actor=cast.as_director, reason="no, the sheet was right")
    match.refresh_from_db()
    assert match.score == (3, 0)
    services.undo_last_action(match.pk, actor=cast.as_director, reason="game 2 was never played")
    match.refresh_from_db()
    assert match.score == (1, 0) and [g.number for g in Game.objects.filter(match=match)] == [1]


# -- reopen ------------------------------------------------------------------------------------------------------


def test_reopen_a_finished_match_undoes_the_action_that_closed_it(new_match, drive, cast, refused) -> None:
    match = new_match(length=3, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 1)
    with refused(match, ErrorCode.CONFLICT, "not finished"):
        services.reopen_match(match.pk, actor=cast.as_director, reason="x")
    last = d.result(0, 2)  # 3-0: finished
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.finished_at is not None
    r = services.reopen_match(match.pk, actor=cast.as_director, reason="wrong sheet", expected_seq=2)
    assert (r.action.kind, r.action.undoes_id, r.action.reason) == (
        Action.Kind.CORRECTION,
        last.action.pk,
        "wrong sheet",
    )
    match.refresh_from_db()
    assert (match.status, match.winner, match.finished_at, match.score, match.seq) == (
        Match.Status.IN_PROGRESS,
        None,
        None,
        (1, 0),
        3,
    )
    assert [g.number for g in Game.objects.filter(match=match)] == [1]
    r = services.record_game_result(match.pk, actor=SYSTEM, winner=1, kind=3, expected_seq=3)
    assert r.match.status == Match.Status.FINISHED and r.match.winner == cast.bob and r.match.score == (1, 3)


def test_reopen_a_finished_move_by_move_match_takes_back_its_last_play(new_match, drive, cast) -> None:
    match = new_match(length=1)
    d = drive(match, seed=4)
    d.to_roll_phase()
    d.double()
    d.drop()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    r = services.reopen_match(match.pk, actor=cast.as_director, reason="the drop was a take")
    assert r.action.undoes.kind == Action.Kind.DROP
    assert r.state.game.phase.value == "double-offered" and r.match.status == Match.Status.IN_PROGRESS
    take = services.take(match.pk, actor=SYSTEM, side=r.state.game.actor, expected_seq=r.match.seq)
    assert take.state.game.cube.value == 2


def test_corrections_are_refused_for_unknown_matches(cast) -> None:
    for call in (
        lambda: services.undo_last_action(999, actor=cast.as_director, reason="x"),
        lambda: services.reopen_match(999, actor=cast.as_director, reason="x"),
        lambda: services.replace_game_result(999, actor=cast.as_director, game_number=1, winner=0, kind=1, reason="x"),
    ):
        with pytest.raises(ApplicationError) as err:
            call()
        assert err.value.code is ErrorCode.NOT_FOUND
