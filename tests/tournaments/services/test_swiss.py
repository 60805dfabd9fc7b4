"""Pairing Swiss rounds through the service: never a rematch; when no rematch-free pairing exists the round is
refused with a message that explains it and nothing is written; a round is paired only once the previous one is
complete; with ``auto_pair`` the division pairs itself."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tests.tournaments.services.support import director_win, enter_win, link, named, pairing, play_round, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Round
from tournaments.pairing.swiss import DOWN, LEVEL, UP
from tournaments.services.swiss import swiss_players

pytestmark = pytest.mark.django_db


def swiss(division_of: Callable[..., Division], n: int, rounds: int, **settings: object) -> Division:
    return division_of("swiss", n, rounds_planned=rounds, entry_mode="scoresheet", match_length=1, **settings)


def meetings(division: Division) -> list[frozenset[int]]:
    return [
        frozenset((p.entry_a_id, p.entry_b_id))
        for p in Pairing.objects.filter(division=division, entry_b__isnull=False)
    ]


def four_who_have_all_met(division_of: Callable[..., Division], director: Actor) -> Division:
    """A Swiss of four players and four rounds after three: everyone has met everyone."""
    division = swiss(division_of, 4, rounds=4)
    services.start_division(division, actor=director)
    for number in (1, 2, 3):
        play_round(division, number, director)
        if number < 3:
            services.pair_next_round(division, actor=director)
    return division


def test_a_round_that_cannot_be_paired_without_a_rematch_is_refused_and_nothing_is_written(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = four_who_have_all_met(division_of, as_director)
    everyone = set(Entry.objects.filter(division=division).values_list("pk", flat=True))
    assert sorted(meetings(division), key=sorted) == sorted(map(frozenset, combinations(everyone, 2)), key=sorted)

    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        services.pair_next_round(division, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT
    message = refused.value.message
    assert "round 4 cannot be paired without a rematch" in message
    assert "P01 (seed 1), P02 (seed 2), P03 (seed 3), P04 (seed 4) have already played every other active player" in (
        message
    ), "the players are named, not numbered"
    assert "Nothing was paired" in message
    assert snapshot() == before
    assert not Round.objects.filter(division=division, number=4).exists()
    assert len(meetings(division)) == len(set(meetings(division))), "never a rematch"


def test_the_next_round_waits_for_every_result_of_the_current_one(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss(division_of, 4, rounds=3)
    services.start_division(division, actor=as_director)
    first = pairing(division, "swiss-1-1")
    director_win(first, first.entry_a, as_director)
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        services.pair_next_round(division, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT
    second = pairing(division, "swiss-1-2")
    players = f"{second.entry_a.player.display_name} v {second.entry_b.player.display_name}"
    # The match is named as the pages show it (its players), not by a number the pages never show.
    assert (
        f"round 1 is not complete: a result is still to come or to be confirmed in {players}" in refused.value.message
    )
    assert snapshot() == before

    # entered by a player, not yet confirmed: still not complete
    enter_win(second, second.entry_b, actor=link(second.match_id, 1))
    services.sync_division(division.pk)
    with pytest.raises(ApplicationError) as unconfirmed:
        services.pair_next_round(division, actor=as_director)
    assert players in unconfirmed.value.message
    services.confirm_result(pairing(division, "swiss-1-2"), actor=link(second.match_id, 0))
    assert services.pair_next_round(division, actor=as_director).number == 2


def test_all_rounds_paired_and_not_a_swiss(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = swiss(division_of, 2, rounds=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1, as_director)
    with pytest.raises(ApplicationError) as refused:
        services.pair_next_round(division, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT
    single = services.start_division(division_of("single", 2), actor=as_director)
    with pytest.raises(ApplicationError) as wrong:
        services.pair_next_round(single, actor=as_director)
    assert wrong.value.code is ErrorCode.INVALID_INPUT and "only a Swiss" in wrong.value.message


def test_auto_pair_pairs_the_next_round_when_the_last_result_counts(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    division = swiss(division_of, 6, rounds=3, auto_pair=True)
    services.start_division(division, actor=as_director)
    for number in (1, 2, 3):
        assert Round.objects.filter(division=division).count() == number
        with committed():
            for p in Pairing.objects.filter(division=division, round__number=number, status=Pairing.Status.READY):
                enter_win(p, Entry.objects.get(pk=p.entry_a_id), actor=as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    assert len(meetings(division)) == 9 == len(set(meetings(division)))
    assert named(division, "P01").standings.get(after_round=3).wins == 3


def test_the_last_rounds_floats_are_read_for_the_next_pairing(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Round 1: 1 v 4, 2 v 5, 3 v 6, the better seed winning; round 2 floats P03 down to P04 (three on one win).
    Before round 3, P03 was paired down and P04 pulled up; the others met their own score."""
    division = services.start_division(swiss(division_of, 6, 3), actor=as_director)
    play_round(division, 1, as_director)
    services.pair_next_round(division, actor=as_director)
    assert frozenset({named(division, "P03").pk, named(division, "P04").pk}) in meetings(division)
    play_round(division, 2, as_director)
    floated = {named(division, f"P0{i}").pk: i for i in range(1, 7)}
    got = {floated[p.id]: p.floated for p in swiss_players(division)}
    assert got == {1: LEVEL, 2: LEVEL, 3: DOWN, 4: UP, 5: LEVEL, 6: LEVEL}
    before_round_2 = {floated[p.id]: p.floated for p in swiss_players(division, before=2)}
    assert set(before_round_2.values()) == {LEVEL}


def test_a_swiss_board_waiting_for_its_remade_match_is_no_bracket_slot(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A Swiss board whose match was voided waits for the sync to make it again: "Your next match" must not read a
    bracket plan a Swiss has not got (it raised)."""
    from tournaments.selectors import waiting_slot_for

    division = swiss(division_of, 4, rounds=3)
    services.start_division(division, actor=as_director)
    board = pairing(division, "swiss-1-1")
    Pairing.objects.filter(pk=board.pk).update(status=Pairing.Status.WAITING, match=None)
    assert waiting_slot_for(board.entry_a.player) is None
