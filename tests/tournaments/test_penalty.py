"""give_penalty: penalty points on a pairing's match, and the forfeit once they pass half the match length."""

from __future__ import annotations

import pytest

from common.errors import ApplicationError, ErrorCode
from games.models import Match
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def pairing(division_of, as_director) -> Pairing:
    division = division_of("single", 2, match_length=7, entry_mode="scoresheet")
    services.start_division(division, actor=as_director)
    return Pairing.objects.select_related("match", "entry_a", "entry_b").get(division=division, key="main-1-0")


def test_penalty_points_go_to_the_opponent_until_past_half_the_length(pairing, as_director) -> None:
    late = pairing.entry_b
    services.give_penalty(pairing, actor=as_director, against=late, points=2, reason="20 minutes late")
    match = Match.objects.get(pk=pairing.match_id)
    assert match.score == (2, 0) and match.status == Match.Status.IN_PROGRESS
    services.give_penalty(pairing, actor=as_director, against=late, points=1, reason="30 minutes late")
    assert Match.objects.get(pk=pairing.match_id).score == (3, 0)
    # 4 of 7 is past half the match length: the match is forfeited, not played on.
    services.give_penalty(pairing, actor=as_director, against=late, points=1, reason="40 minutes late")
    pairing.refresh_from_db()
    match.refresh_from_db()
    assert match.status == Match.Status.FORFEITED and match.winner_id == pairing.entry_a.player_id
    assert pairing.decision == Pairing.Decision.FORFEIT_PENALTY and pairing.penalty_b == 4
    assert pairing.status == Pairing.Status.FINISHED and pairing.winner_id == pairing.entry_a_id


def test_a_penalty_needs_a_reason_and_a_director(pairing, django_user_model) -> None:
    from common.actor import Actor

    stranger = Actor(user=django_user_model.objects.create_user(username="stan", password=None))
    with pytest.raises(ApplicationError) as info:
        services.give_penalty(pairing, actor=stranger, against=pairing.entry_b, points=1, reason="late")
    assert info.value.code is ErrorCode.FORBIDDEN
    with pytest.raises(ApplicationError, match="reason"):
        services.give_penalty(pairing, actor=stranger, against=pairing.entry_b, points=1, reason=" ")
    assert Match.objects.get(pk=pairing.match_id).score == (0, 0)
