"""Scoresheet confirmation: a result entered from one player's entry link (or account) waits for the other side;
until the opponent (``confirm_result``) or a director confirms it, it does not count in the standings and the
bracket does not move. A dispute goes to the directors' queue (``selectors.director_queue``), where only a director
decides. The wrong side, a stranger or another event's director cannot answer. A result entered by a director
counts at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games.services
from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tests.tournaments.services.support import enter_win, link, named, pairing, snapshot
from tournaments import selectors, services
from tournaments.models import Division, Pairing, Standing

pytestmark = pytest.mark.django_db

Confirmation = Pairing.Confirmation


@pytest.fixture
def bracket(division_of: Callable[..., Division], as_director: Actor) -> Division:
    """4 players, single elimination, 1-point matches kept on scoresheets."""
    return services.start_division(division_of("single", 4, entry_mode="scoresheet", match_length=1), actor=as_director)


def entered_by_winner(division: Division, key: str, winner: str, committed: Callable) -> tuple[Pairing, Actor, Actor]:
    """``winner`` enters his win from his entry link; returns the pairing and the links of the winner and loser."""
    p = pairing(division, key)
    winner_side = 0 if p.entry_a.player.display_name == winner else 1
    mine, theirs = link(p.match_id, winner_side), link(p.match_id, 1 - winner_side)
    with committed():
        enter_win(p, named(division, winner), actor=mine)
    return pairing(division, key), mine, theirs


def counted_wins(division: Division) -> dict[str, int]:
    rows = Standing.objects.filter(division=division).select_related("entry__player")
    return {s.entry.player.display_name: s.wins for s in rows if s.wins}


def test_a_players_result_waits_for_the_opponent_then_counts(
    bracket: Division, as_director: Actor, committed: Callable
) -> None:
    p, _, opponent = entered_by_winner(bracket, "main-1-0", "P04", committed)  # an upset, entered by P04
    assert p.status == Pairing.Status.FINISHED and p.winner.player.display_name == "P04"
    assert (p.confirmation, p.confirmation_side) == (Confirmation.AWAITING, 0), "side 0 (P01) is asked"
    assert pairing(bracket, "main-2-0").entry_a_id is None, "the bracket does not move"
    assert counted_wins(bracket) == {}, "not counted in the standings"
    assert [item.pairing for item in selectors.director_queue(bracket.event)] == [p]
    bracket.refresh_from_db()
    assert bracket.standings_status == Division.Work.CURRENT

    with committed():
        services.confirm_result(p, actor=opponent)
    p = pairing(bracket, "main-1-0")
    assert p.confirmation == Confirmation.CONFIRMED
    assert pairing(bracket, "main-2-0").entry_a.player.display_name == "P04", "the bracket moves on"
    assert counted_wins(bracket) == {"P04": 1}
    assert selectors.director_queue(bracket.event) == []


def test_the_wrong_side_or_an_outsider_cannot_confirm(
    bracket: Division, committed: Callable, stranger: Actor, other_director: Actor
) -> None:
    p, mine, _ = entered_by_winner(bracket, "main-1-0", "P01", committed)
    elsewhere = link(pairing(bracket, "main-1-1").match_id, 1)  # P03's link, another match
    before = snapshot()
    for actor in (mine, stranger, other_director, elsewhere, Actor()):
        with pytest.raises(ApplicationError) as refused:
            services.confirm_result(p, actor=actor)
        assert refused.value.code is ErrorCode.FORBIDDEN
        assert "only P04 or a director can answer" in refused.value.message
        assert snapshot() == before


def test_a_director_confirms_for_the_opponent(bracket: Division, as_director: Actor, committed: Callable) -> None:
    p, _, _ = entered_by_winner(bracket, "main-1-1", "P02", committed)
    with committed():
        services.confirm_result(p, actor=as_director)
    assert pairing(bracket, "main-1-1").confirmation == Confirmation.CONFIRMED
    assert pairing(bracket, "main-2-0").entry_b.player.display_name == "P02"


def test_a_result_entered_by_a_players_account_waits_for_the_other_side(
    division_of: Callable[..., Division], as_director: Actor, django_user_model: Any, committed: Callable
) -> None:
    user = django_user_model.objects.create_user("pia", password=None)
    player = games.services.create_player(display_name="Pia", user=user)
    division = division_of("single", 1, entry_mode="scoresheet", match_length=1)
    services.register_player(division, actor=as_director, player=player, rating=1000)
    services.start_division(division, actor=as_director)
    p = pairing(division, "main-1-0")  # P01 (seed 1) v Pia (seed 2)
    with committed():
        enter_win(p, named(division, "Pia"), actor=Actor(user=user))
    p = pairing(division, "main-1-0")
    assert (p.confirmation, p.confirmation_side) == (Confirmation.AWAITING, 0)
    division.refresh_from_db()
    assert division.status == Division.Status.RUNNING, "the final is not over until P01 confirms"
    with pytest.raises(ApplicationError):
        services.confirm_result(p, actor=Actor(user=user))
    with committed():
        services.confirm_result(p, actor=link(p.match_id, 0))
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED


def test_a_director_entered_result_counts_at_once(bracket: Division, as_director: Actor, committed: Callable) -> None:
    p = pairing(bracket, "main-1-0")
    with committed():
        enter_win(p, named(bracket, "P01"), actor=as_director)
    p = pairing(bracket, "main-1-0")
    assert p.confirmation == Confirmation.NOT_NEEDED and p.confirmation_side is None
    assert pairing(bracket, "main-2-0").entry_a.player.display_name == "P01"
    assert selectors.director_queue(bracket.event) == []
    with pytest.raises(ApplicationError) as refused:
        services.confirm_result(p, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT and "not waiting for a confirmation" in refused.value.message


def test_a_dispute_goes_to_the_directors_queue_and_only_a_director_settles_it(
    bracket: Division, as_director: Actor, committed: Callable
) -> None:
    p, mine, theirs = entered_by_winner(bracket, "main-1-0", "P01", committed)
    for actor, reason, code in (
        (theirs, "  ", ErrorCode.INVALID_INPUT),  # a dispute says what is wrong
        (mine, "I lost", ErrorCode.FORBIDDEN),  # the side that entered it does not dispute it
        (as_director, "no", ErrorCode.FORBIDDEN),  # a director decides rather than disputes
    ):
        before = snapshot()
        with pytest.raises(ApplicationError) as refused:
            services.dispute_result(p, actor=actor, reason=reason)
        assert refused.value.code is code
        assert snapshot() == before

    services.dispute_result(p, actor=theirs, reason="I won game 1 with a gammon")
    p = pairing(bracket, "main-1-0")
    assert (p.confirmation, p.dispute) == (Confirmation.DISPUTED, "I won game 1 with a gammon")
    assert [item.pairing for item in selectors.director_queue(bracket.event)] == [p]
    for actor in (theirs, mine):
        with pytest.raises(ApplicationError) as refused:
            services.confirm_result(p, actor=actor)
        assert refused.value.code is ErrorCode.FORBIDDEN and "disputed: a director decides" in refused.value.message
    services.sync_division(bracket.pk)
    assert pairing(bracket, "main-2-0").entry_a_id is None, "a disputed result does not count"

    # the director corrects the result: P04 won after all; the correction settles the dispute
    with committed():
        games.services.replace_game_result(
            p.match_id, actor=as_director, game_number=1, winner=1, kind=2, reason="P04 showed the scoresheet"
        )
    p = pairing(bracket, "main-1-0")
    assert p.confirmation == Confirmation.CONFIRMED and p.winner.player.display_name == "P04"
    assert pairing(bracket, "main-2-0").entry_a.player.display_name == "P04"
    assert selectors.director_queue(bracket.event) == []


def test_confirming_again_is_harmless(bracket: Division, committed: Callable, stranger: Actor) -> None:
    """A phone that sends its confirmation again (the first one's answer lost on a dropped connection) is told it
    is confirmed, and nothing changes; someone who may not answer is still refused."""
    p, mine, opponent = entered_by_winner(bracket, "main-1-0", "P01", committed)
    with committed():
        services.confirm_result(p, actor=opponent)
    before = snapshot()
    again = services.confirm_result(pairing(bracket, "main-1-0"), actor=opponent)
    assert again.confirmation == Confirmation.CONFIRMED
    assert snapshot() == before
    for actor in (mine, stranger):
        with pytest.raises(ApplicationError) as refused:
            services.confirm_result(pairing(bracket, "main-1-0"), actor=actor)
        assert refused.value.code is ErrorCode.CONFLICT
    assert snapshot() == before


def test_the_same_dispute_sent_again_is_harmless(bracket: Division, committed: Callable) -> None:
    """A phone that sends its dispute again is told it is disputed, and nothing changes; another reason, or the
    other side, is refused as before (the director decides)."""
    p, mine, opponent = entered_by_winner(bracket, "main-1-0", "P01", committed)
    services.dispute_result(p, actor=opponent, reason="I won game 1 with a gammon")
    before = snapshot()
    again = services.dispute_result(pairing(bracket, "main-1-0"), actor=opponent, reason=" I won game 1 with a gammon ")
    assert again.confirmation == Confirmation.DISPUTED
    assert snapshot() == before
    for actor, reason in ((opponent, "another reason"), (mine, "I won game 1 with a gammon")):
        with pytest.raises(ApplicationError) as refused:
            services.dispute_result(pairing(bracket, "main-1-0"), actor=actor, reason=reason)
        assert refused.value.code is ErrorCode.FORBIDDEN
    assert snapshot() == before
