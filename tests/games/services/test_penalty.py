"""award_penalty: a director's penalty points, kept in the log, replayed by corrections, refused in .mat export."""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ErrorCode
from engine.errors import EngineError
from games import services
from games.export import match_mat
from games.models import Action, Game

pytestmark = pytest.mark.django_db


def test_a_penalty_is_a_log_row_and_moves_the_score(new_match, cast) -> None:
    match = new_match(length=5, entry_mode="scoresheet")
    r = services.award_penalty(
        match.pk, actor=cast.as_director, side=1, points=2, reason="20 minutes late", expected_seq=0
    )
    assert r.match.score == (2, 0)
    row = Action.objects.get(match=match, seq=1)
    assert (row.kind, row.side, row.value, row.reason) == ("penalty", 1, 2, "20 minutes late")
    assert not Game.objects.filter(match=match).exists()  # no game was started by it
    services.record_game_result(match.pk, actor=SYSTEM, winner=1, kind=1, expected_seq=1)
    game = Game.objects.get(match=match, number=1)
    assert (game.start_score1, game.start_score2, game.points) == (2, 0, 1)
    assert services.rebuild_match(match).score == (2, 1)


def test_only_a_director_gives_penalty_points(new_match, cast, refused) -> None:
    match = new_match(length=5)
    with refused(match, ErrorCode.FORBIDDEN):
        services.award_penalty(match.pk, actor=cast.as_alice, side=1, points=1, reason="late", expected_seq=0)


def test_a_penalty_ending_the_match_is_refused_with_the_engines_reason(new_match, cast, refused) -> None:
    match = new_match(length=3)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "forfeit"):
        services.award_penalty(match.pk, actor=cast.as_director, side=0, points=3, reason="late", expected_seq=0)


def test_a_match_with_penalty_points_is_not_exported_as_mat(new_match, cast) -> None:
    match = new_match(length=5, entry_mode="scoresheet")
    services.award_penalty(match.pk, actor=cast.as_director, side=0, points=1, reason="late", expected_seq=0)
    match.refresh_from_db()
    with pytest.raises(EngineError, match="penalty points"):
        match_mat(match)
