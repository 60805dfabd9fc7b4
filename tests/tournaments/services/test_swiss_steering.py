"""The director steers a Swiss: ends it now or changes its number of rounds, takes back the current round while none
of its matches has started and pairs it again (offered when a correction changed its score groups), swaps players
with a warning about rematches, and pairs with the fewest rematches only when he consents."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db.models import Q

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games import services as games
from games.models import Match
from tests.tournaments.services.support import play_round
from tests.tournaments.services.test_swiss import four_who_have_all_met, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Round

pytestmark = pytest.mark.django_db


def swiss(division_of: Callable[..., Division], n: int, rounds: int) -> Division:
    return division_of("swiss", n, rounds_planned=rounds, entry_mode="scoresheet", match_length=1)


def boards(division: Division, number: int) -> set[frozenset[int | None]]:
    rows = Pairing.objects.filter(division=division, round__number=number)
    return {frozenset((a, b)) for a, b in rows.values_list("entry_a_id", "entry_b_id")}


def round_two_paired(division_of: Callable[..., Division], director: Actor, n: int, *, rounds: int) -> Division:
    """A Swiss of ``n`` players started, round 1 played (side a wins), round 2 paired."""
    division = swiss(division_of, n, rounds=rounds)
    services.start_division(division, actor=director)
    play_round(division, 1, director)
    services.pair_next_round(division, actor=director)
    return division


def refresh(division: Division) -> Division:
    return Division.objects.get(pk=division.pk)


def test_end_now_after_a_complete_round_finishes_the_division(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_two_paired(division_of, as_director, 8, rounds=5)
    play_round(division, 2, as_director)
    ended = services.end_swiss(division, actor=as_director)
    assert ended.status == Division.Status.FINISHED and ended.rounds_planned == 2
    services.close_event(division.event, actor=as_director)  # refused while the Swiss ran


def test_end_now_takes_back_a_round_nobody_has_started(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_two_paired(division_of, as_director, 8, rounds=5)
    matches = list(Pairing.objects.filter(division=division, round__number=2).values_list("match_id", flat=True))
    ended = services.end_swiss(division, actor=as_director)
    assert ended.status == Division.Status.FINISHED and ended.rounds_planned == 1
    assert not Round.objects.filter(division=division, number=2).exists()
    assert not Match.objects.filter(pk__in=matches).exists()


def test_the_number_of_rounds_changes_but_never_below_the_rounds_paired(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_two_paired(division_of, as_director, 8, rounds=2)
    with pytest.raises(ApplicationError, match="has 2 round\\(s\\) paired: it plays at least 2") as refused:
        services.set_swiss_rounds(division, actor=as_director, rounds=1)
    assert refused.value.code is ErrorCode.INVALID_INPUT
    assert services.set_swiss_rounds(division, actor=as_director, rounds=4).rounds_planned == 4
    play_round(division, 2, as_director)
    assert refresh(division).status == Division.Status.RUNNING
    services.pair_next_round(division, actor=as_director)
    assert Round.objects.filter(division=division, number=3).exists()
    play_round(division, 3, as_director)
    assert services.set_swiss_rounds(division, actor=as_director, rounds=3).status == Division.Status.FINISHED


def test_a_round_is_taken_back_only_while_none_of_its_matches_has_started(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_two_paired(division_of, as_director, 8, rounds=3)
    first = Pairing.objects.filter(division=division, round__number=2).order_by("board").first()
    assert first is not None and first.match_id is not None
    games.record_game_result(first.match_id, actor=as_director, winner=0, kind=1, expected_seq=0)
    before = snapshot()
    with pytest.raises(ApplicationError, match="round 2 has started for match\\(es\\) 1") as refused:
        services.unpair_round(division, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT and snapshot() == before
    with pytest.raises(ApplicationError, match="round 1 is the draw"):
        services.unpair_round(swiss_started(division_of, as_director), actor=as_director)


def swiss_started(division_of: Callable[..., Division], as_director: Actor) -> Division:
    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    return services.start_division(division, actor=as_director)


def test_a_correction_that_changes_the_score_groups_offers_to_pair_the_round_again(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_two_paired(division_of, as_director, 8, rounds=3)
    paired = boards(division, 2)
    assert not services.round_needs_repairing(refresh(division))
    # Table 1 of round 1 was misread: the other player won it. Round 2 has not started: the correction is taken.
    wrong = Pairing.objects.get(division=division, round__number=1, board=1)
    games.replace_game_result(
        wrong.match_id, actor=as_director, game_number=1, winner=1, kind=1, cube_value=1, reason="misread"
    )
    services.sync_division(division.pk)
    assert services.round_needs_repairing(refresh(division))
    rnd = services.repair_round(division, actor=as_director)
    assert rnd.number == 2 and boards(division, 2) != paired
    winner = wrong.entry_b_id  # now on one win: he meets another winner of round 1
    board = Pairing.objects.get(Q(entry_a=winner) | Q(entry_b=winner), division=division, round__number=2)
    assert board.reason == "score group 1"
    assert not services.round_needs_repairing(refresh(division))
    assert Pairing.objects.filter(division=division, round__number=2, match__isnull=False).count() == 4


def test_fewest_rematches_only_with_the_directors_consent(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = four_who_have_all_met(division_of, as_director)
    with pytest.raises(ApplicationError) as refused:
        services.pair_next_round(division, actor=as_director)
    assert "The fewest rematches a pairing needs is 2: pair with rematches allowed" in refused.value.message
    rnd = services.pair_next_round(division, actor=as_director, allow_rematches=True)
    reasons = list(Pairing.objects.filter(round=rnd).values_list("reason", flat=True))
    assert len(reasons) == 2 and all(r.startswith("rematch (no rematch-free pairing exists)") for r in reasons)


def test_a_swap_that_makes_a_rematch_is_refused_until_the_director_confirms_it(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_two_paired(division_of, as_director, 8, rounds=3)
    # Swap so that someone meets his round-1 opponent again.
    r1 = Pairing.objects.filter(division=division, round__number=1).order_by("board").first()
    assert r1 is not None
    a, b = Entry.objects.get(pk=r1.entry_a_id), Entry.objects.get(pk=r1.entry_b_id)
    board = Pairing.objects.get(Q(entry_a=a) | Q(entry_b=a), division=division, round__number=2)
    partner = Entry.objects.get(pk=board.entry_b_id if board.entry_a_id == a.pk else board.entry_a_id)
    before = snapshot()
    with pytest.raises(ApplicationError, match=r"the swap makes a rematch: .* met in round 1") as refused:
        services.swap_players(division, actor=as_director, first=partner, second=b, reason="table change")
    assert refused.value.code is ErrorCode.CONFLICT and snapshot() == before
    services.swap_players(
        division, actor=as_director, first=partner, second=b, reason="table change", allow_rematch=True
    )
    again = Pairing.objects.get(pk=board.pk)
    assert {again.entry_a_id, again.entry_b_id} == {a.pk, b.pk}
    assert "rematch:" in again.swapped_reason and "met in round 1" in again.swapped_reason
