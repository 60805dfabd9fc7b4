"""A first end-to-end pass through the services: a short match move by move, and one by scoresheet."""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ApplicationError, ErrorCode
from games import services
from games.models import Action, Game, Match

pytestmark = pytest.mark.django_db


def _players():
    return services.create_player(display_name="Alice"), services.create_player(display_name="Bob")


def test_a_game_move_by_move_with_a_dropped_double_and_an_illegal_play_refused() -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=3)
    r = services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    assert r.action.side == 0 and r.match.status == Match.Status.IN_PROGRESS
    with pytest.raises(ApplicationError) as err:
        services.record_play(match.pk, actor=SYSTEM, side=0, play="9/6 6/5", expected_seq=1)
    assert err.value.code is ErrorCode.ILLEGAL_ACTION and "9-point" in err.value.message
    assert Action.objects.filter(match=match).count() == 1
    r = services.record_play(match.pk, actor=SYSTEM, side=0, play="6/5 8/5", expected_seq=1)
    assert r.action.play == "8/5 6/5" and r.action.position_id
    with pytest.raises(ApplicationError) as err:
        services.offer_double(match.pk, actor=SYSTEM, side=1, expected_seq=1)
    assert err.value.code is ErrorCode.STALE_SEQUENCE
    services.offer_double(match.pk, actor=SYSTEM, side=1, expected_seq=2)
    r = services.drop(match.pk, actor=SYSTEM, side=0, expected_seq=3)
    assert r.match.score == (0, 1)
    game = Game.objects.get(match=match, number=1)
    assert (game.winner_side, game.ended_by, game.points, game.opening_winner) == (1, "drop", 1, 0)


def test_scoresheet_match_to_the_end_then_undo_and_replace() -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=3, entry_mode="scoresheet")
    services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=2, cube_value=1, expected_seq=0)
    assert Match.objects.get(pk=match.pk).score == (2, 0)
    with pytest.raises(ApplicationError) as err:  # the Crawford game: no cube
        services.record_game_result(match.pk, actor=SYSTEM, winner=1, kind=1, cube_value=2, expected_seq=1)
    assert "Crawford" in err.value.message
    r = services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, cube_value=1, expected_seq=1)
    assert r.match.status == Match.Status.FINISHED and r.match.winner == a
    r = services.replace_game_result(match.pk, actor=SYSTEM, game_number=2, winner=1, kind=2, reason="misread")
    assert r.match.status == Match.Status.IN_PROGRESS and r.match.score == (2, 2)
    r = services.undo_last_action(match.pk, actor=SYSTEM, reason="wrong sheet")
    assert r.match.score == (3, 0) and r.match.status == Match.Status.FINISHED  # the original result is back
    assert [g.number for g in Game.objects.filter(match=match)] == [1, 2]
