"""A playoff match's scoresheet result entered by one player waits for the other side, as a round's does: until the
opponent (``confirm_playoff_result``) or a director confirms it, the playoff does not settle, the standings do not
move, and neither the ratings nor the matches won count it. A dispute holds it until a director decides. A
correction (the match reopened) asks again; a director's forfeit settles the playoff at once."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import games.services
from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Match
from tests.tournaments.services.support import link, snapshot
from tests.tournaments.services.test_playoffs import ranks, swiss_with_a_paid_tie
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Playoff, Rating
from tournaments.selectors.playoffs import division_playoffs, playoffs_of
from tournaments.selectors.points import division_results

pytestmark = pytest.mark.django_db

Confirmation = Pairing.Confirmation


def _side(match: Match, entry_id: int) -> int:
    return 0 if Entry.objects.get(pk=entry_id).player_id == match.player1_id else 1


def followup(division: Division) -> None:
    """What the follow-up task runs after a result's commit (the test's transaction never commits)."""
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)


def ordered(division_of: Callable[..., Division], director: Actor) -> tuple[Division, Playoff, int, int]:
    division = swiss_with_a_paid_tie(division_of, director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=director, entries=[a, b], length=1)
    return division, playoff, a, b


def entered_by(match_id: int, winner: int, actor: Actor) -> None:
    """The holder of ``actor`` enters the 1-point match won by entry ``winner``."""
    match = Match.objects.get(pk=match_id)
    games.services.record_game_result(
        match.pk, actor=actor, winner=_side(match, winner), kind=1, cube_value=1, expected_seq=match.seq
    )


def test_one_players_entry_waits_for_the_opponent_then_settles_the_playoff(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    side_b = _side(match, b)
    entered_by(match.pk, b, link(match, side_b))  # b enters his own win
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.final_confirmation_side) == (Confirmation.AWAITING, 1 - side_b)
    assert (playoff.status, playoff.order) == ("ordered", []), "not settled until a confirms"
    assert ranks(division)[a] == ranks(division)[b] == 2
    (view,) = playoffs_of(division)
    assert view.matches[0].waiting == Entry.objects.get(pk=a).player.display_name

    services.confirm_playoff_result(match.pk, actor=link(match, 1 - side_b))
    followup(division)
    playoff.refresh_from_db()
    assert playoff.final_confirmation == Confirmation.CONFIRMED
    assert (playoff.status, playoff.order) == ("finished", [b, a])
    assert (ranks(division)[b], ranks(division)[a]) == (2, 3)

    asked, entering = link(match, 1 - side_b), link(match, side_b)
    before = snapshot()  # the same confirmation sent again (its first answer lost): harmless, nothing changes
    again = services.confirm_playoff_result(match.pk, actor=asked)
    assert again.final_confirmation == Confirmation.CONFIRMED
    assert snapshot() == before
    with pytest.raises(ApplicationError) as refused:  # the side that entered it still cannot
        services.confirm_playoff_result(match.pk, actor=entering)
    assert refused.value.code is ErrorCode.CONFLICT


def test_only_the_side_asked_or_a_director_answers_and_a_refusal_writes_nothing(
    division_of: Callable[..., Division], as_director: Actor, stranger: Actor, other_director: Actor
) -> None:
    division, playoff, a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    mine = link(match, _side(match, b))
    with pytest.raises(ApplicationError, match="not waiting for a confirmation") as early:
        services.confirm_playoff_result(match.pk, actor=as_director)
    assert early.value.code is ErrorCode.CONFLICT
    entered_by(match.pk, b, mine)
    name_a = Entry.objects.get(pk=a).player.display_name
    theirs = link(match, 1 - _side(match, b))
    before = snapshot()
    for actor in (mine, stranger, other_director, Actor()):
        with pytest.raises(ApplicationError) as refused:
            services.confirm_playoff_result(match.pk, actor=actor)
        assert refused.value.code is ErrorCode.FORBIDDEN
        assert f"only {name_a} or a director can answer" in refused.value.message
    with pytest.raises(ApplicationError, match="say what is wrong") as empty:
        services.dispute_playoff_result(match.pk, actor=theirs, reason="  ")
    assert empty.value.code is ErrorCode.INVALID_INPUT
    with pytest.raises(ApplicationError, match="is not a playoff's match") as elsewhere:
        services.confirm_playoff_result(Pairing.objects.filter(division=division).first().match_id, actor=as_director)
    assert elsewhere.value.code is ErrorCode.NOT_FOUND
    assert snapshot() == before


def test_a_dispute_holds_the_playoff_until_a_director_confirms(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    theirs = link(match, 1 - _side(match, b))
    entered_by(match.pk, b, link(match, _side(match, b)))
    services.dispute_playoff_result(match.pk, actor=theirs, reason="I won that game")
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.dispute_text, playoff.status) == (
        "disputed",
        "I won that game",
        "ordered",
    )
    assert playoffs_of(division)[0].matches[0].dispute == "I won that game"
    before = snapshot()  # the same dispute sent again (its first answer lost): harmless; another one is refused
    services.dispute_playoff_result(match.pk, actor=theirs, reason="I won that game")
    assert snapshot() == before
    with pytest.raises(ApplicationError, match="the result is disputed: a director decides"):
        services.dispute_playoff_result(match.pk, actor=theirs, reason="something else")
    with pytest.raises(ApplicationError, match="the result is disputed: a director decides"):
        services.confirm_playoff_result(match.pk, actor=theirs)
    services.confirm_playoff_result(match.pk, actor=as_director)
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.status, playoff.order) == ("finished", [b, a])


def test_a_director_entered_playoff_result_counts_at_once(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, a, b = ordered(division_of, as_director)
    entered_by(playoff.final_match_id, a, as_director)
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.status, playoff.order) == ("", "finished", [a, b])


def test_ratings_and_matches_won_ignore_an_unconfirmed_playoff_match(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    club = services.create_rating_list(actor=as_director, name="Club list")
    division, playoff, _a, b = ordered(division_of, as_director)
    Event.objects.filter(pk=division.event_id).update(rating_list=club)
    before = services.recompute_ratings(club.pk)
    match = Match.objects.get(pk=playoff.final_match_id)

    def won_by_b() -> int:
        (found,) = division_results(Event.objects.filter(pk=division.event_id))
        return len({t.entry_id: t.lengths for t in found.players}[b])

    wins_before = won_by_b()
    entered_by(match.pk, b, link(match, _side(match, b)))
    followup(division)
    assert services.recompute_ratings(club.pk) == before, "waiting for a's confirmation: not rated"
    assert won_by_b() == wins_before, "nor counted among the matches won"
    services.confirm_playoff_result(match.pk, actor=as_director)
    followup(division)
    assert services.recompute_ratings(club.pk) == before + 1
    assert Rating.objects.get(rating_list=club, player_id=Entry.objects.get(pk=b).player_id).matches == 3
    assert won_by_b() == wins_before + 1


def test_a_reopened_playoff_match_asks_for_a_confirmation_again(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    side_b = _side(match, b)
    entered_by(match.pk, b, link(match, side_b))
    services.confirm_playoff_result(match.pk, actor=link(match, 1 - side_b))
    followup(division)
    playoff.refresh_from_db()
    assert playoff.status == "finished"

    games.services.reopen_match(match.pk, actor=as_director, reason="wrong winner", override=True)
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.final_confirmation_side) == ("", None)
    assert (playoff.status, playoff.order) == ("ordered", []), "the reopened match is played again"
    assert ranks(division)[a] == ranks(division)[b]

    entered_by(match.pk, a, link(match, 1 - side_b))  # a enters his win now: b is asked
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.final_confirmation_side, playoff.status) == (
        "awaiting",
        side_b,
        "ordered",
    )


def test_a_directors_correction_of_a_playoff_result_stands_by_his_decision(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    side_b = _side(match, b)
    entered_by(match.pk, b, link(match, side_b))
    services.dispute_playoff_result(match.pk, actor=link(match, 1 - side_b), reason="I won it")
    games.services.replace_game_result(
        match.pk, actor=as_director, game_number=1, winner=1 - side_b, kind=1, cube_value=1, reason="a won it"
    )
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.dispute_text) == ("confirmed", "")
    assert (playoff.status, playoff.order) == ("finished", [a, b])


def test_a_director_awards_a_playoff_match_by_forfeit_and_the_playoff_settles(
    division_of: Callable[..., Division], as_director: Actor, stranger: Actor
) -> None:
    _division, playoff, a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    before = snapshot()
    for kwargs, code, words in (
        ({"kind": "penalty", "reason": "late"}, ErrorCode.INVALID_INPUT, "for no-show or withdrawal, not 'penalty'"),
        ({"kind": "no-show", "reason": " "}, ErrorCode.INVALID_INPUT, "give the reason"),
    ):
        with pytest.raises(ApplicationError, match=words) as refused:
            services.award_playoff_forfeit(match.pk, actor=as_director, loser_side=0, **kwargs)
        assert refused.value.code is code
    with pytest.raises(ApplicationError) as forbidden:
        services.award_playoff_forfeit(match.pk, actor=stranger, loser_side=0, kind="no-show", reason="gone")
    assert forbidden.value.code is ErrorCode.FORBIDDEN
    assert snapshot() == before
    services.award_playoff_forfeit(match.pk, actor=as_director, loser_side=_side(match, a), kind="no-show",
                                   reason="did not come back")  # fmt: skip
    playoff.refresh_from_db()
    assert (playoff.status, playoff.order, playoff.final_confirmation) == ("finished", [b, a], "")
    with pytest.raises(ApplicationError, match="correct its result instead") as over:
        services.award_playoff_forfeit(match.pk, actor=as_director, loser_side=0, kind="no-show", reason="again")
    assert over.value.code is ErrorCode.CONFLICT


def test_a_confirmation_its_match_could_not_ask_for_is_asked_by_the_follow_up(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The match's transaction skips the playoff's row when a sync holds it: the state it then leaves (no
    confirmation asked for a player's result) is what the follow-up finds, and asks."""
    division, playoff, _a, b = ordered(division_of, as_director)
    match = Match.objects.get(pk=playoff.final_match_id)
    side_b = _side(match, b)
    entered_by(match.pk, b, link(match, side_b))
    Playoff.objects.filter(pk=playoff.pk).update(final_confirmation="", final_confirmation_side=None)  # skipped
    followup(division)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.final_confirmation_side) == ("awaiting", 1 - side_b)
    assert (playoff.status, playoff.order) == ("ordered", [])
