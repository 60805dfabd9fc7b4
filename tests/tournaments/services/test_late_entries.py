"""Entries after the start: a Swiss takes late entries while at most half its rounds have been played; a
main-consolation-lastchance division fills its last-chance places with late entries and buy-backs until the places
are closed; every other case is refused with a message that says why and what to do."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tests.tournaments.services.support import director_win, named, pairing, play_out, play_round, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Standing

pytestmark = pytest.mark.django_db

PLACE_1, PLACE_2, PLACE_3 = "last-chance place 1", "last-chance place 2", "last-chance place 3"


def refused(call: Callable[[], object], code: ErrorCode, *words: str) -> ApplicationError:
    before = snapshot()
    with pytest.raises(ApplicationError) as info:
        call()
    assert info.value.code is code, info.value.message
    for word in words:
        assert word in info.value.message, info.value.message
    assert snapshot() == before, "a refused entry wrote something"
    return info.value


# -- Swiss ---------------------------------------------------------------------------------------------------------


def test_swiss_late_entry_is_open_until_half_the_rounds_and_the_late_player_is_paired(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, rounds_planned=4, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1, as_director)
    late = services.register_player(division, actor=as_director, name="Late Lou", rating=2500)
    assert late.late and late.status == Entry.Status.REGISTERED
    services.pair_next_round(division, actor=as_director)  # round 2 of 4: Lou plays
    round2 = Pairing.objects.filter(division=division, round__number=2)
    assert late.pk in {e for p in round2 for e in (p.entry_a_id, p.entry_b_id)}, "the late entrant is paired"
    assert round2.filter(status=Pairing.Status.BYE).count() == 1, "five players: one bye"
    play_round(division, 2, as_director)

    later = services.register_player(division, actor=as_director, name="Later Liz")  # 2 of 4 paired: still open
    services.pair_next_round(division, actor=as_director)
    round3 = Pairing.objects.filter(division=division, round__number=3)
    assert later.pk in {e for p in round3 for e in (p.entry_a_id, p.entry_b_id)}
    refused(
        lambda: services.register_player(division, actor=as_director, name="Too Late Tom"),
        ErrorCode.CONFLICT,
        "Late entry is closed: 3 of 4 rounds are paired. Late entry is open while at most half the rounds are paired",
    )
    play_round(division, 3, as_director)
    play_out(division, as_director)
    services.recompute_standings(division.pk)
    final = {s.entry_id: s for s in Standing.objects.filter(division=division, after_round=4)}
    assert {late.pk, later.pk} <= set(final), "the late entrants are in the standings"
    assert final[late.pk].wins + final[late.pk].losses == 3


# -- elimination ---------------------------------------------------------------------------------------------------


def test_an_elimination_division_refuses_late_entries(division_of: Callable[..., Division], as_director: Actor) -> None:
    single = services.start_division(division_of("single", 4), actor=as_director)
    refused(
        lambda: services.register_player(single, actor=as_director, name="Late Lou"),
        ErrorCode.CONFLICT,
        "has started and its format takes no late entries",
    )
    lc = services.start_division(division_of("main-consolation-lastchance", 4, last_chance_places=1), actor=as_director)
    refused(
        lambda: services.register_player(lc, actor=as_director, name="Late Lou"),
        ErrorCode.CONFLICT,
        "enter the player into a free last-chance place instead",
    )


def test_only_a_running_last_chance_division_closes_its_places(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    swiss = services.start_division(division_of("swiss", 4), actor=as_director)
    refused(
        lambda: services.close_last_chance_places(swiss, actor=as_director),
        ErrorCode.CONFLICT,
        "has no last chance",
    )
    lc = division_of("main-consolation-lastchance", 4, last_chance_places=1)
    refused(lambda: services.close_last_chance_places(lc, actor=as_director), ErrorCode.CONFLICT, "start it first")


def test_last_chance_places_take_a_late_entry_and_a_buy_back_until_they_are_closed(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of(
        "main-consolation-lastchance", 8, last_chance_places=3, entry_mode="scoresheet", match_length=1
    )
    refused(
        lambda: services.register_player(division, actor=as_director, name="Early Ed", place=PLACE_1),
        ErrorCode.INVALID_INPUT,
        "filled once the division has started",
    )
    services.start_division(division, actor=as_director)
    refused(
        lambda: services.register_player(division, actor=as_director, name="Lou", place="last-chance place 4"),
        ErrorCode.INVALID_INPUT,
        "there is no last-chance place 'last-chance place 4'",
    )
    late = services.register_player(division, actor=as_director, name="Late Lou", place=PLACE_1)
    assert late.late and late.place == PLACE_1 and late.seed is None
    refused(
        lambda: services.register_player(division, actor=as_director, name="Late Liz", place=PLACE_1),
        ErrorCode.CONFLICT,
        "last-chance place 1 is already taken",
    )
    # the better seeds win main round 1; P02 loses in main round 2 (only main round 1 losers drop into the
    # consolation here: a later loser is out of every bracket)
    play_round(division, 1, as_director, bracket="main")
    director_win(pairing(division, "main-2-1"), named(division, "P03"), as_director)
    p02 = named(division, "P02")
    assert p02.status == Entry.Status.ELIMINATED, "beaten in main round 2: out of every bracket"
    bought = services.register_player(division, actor=as_director, player=p02.player, place=PLACE_2)
    assert bought.pk == p02.pk and bought.place == PLACE_2, "a buy-back is the same entry taking a place"
    refused(
        lambda: services.register_player(division, actor=as_director, player=p02.player, place=PLACE_3),
        ErrorCode.CONFLICT,
        "P02 already holds last-chance place 2",
    )
    services.close_last_chance_places(division, actor=as_director)  # place 3 stays empty: nobody
    refused(
        lambda: services.close_last_chance_places(division, actor=as_director),
        ErrorCode.CONFLICT,
        "the last-chance places are already closed",
    )
    refused(
        lambda: services.register_player(division, actor=as_director, name="Late Liz", place=PLACE_3),
        ErrorCode.CONFLICT,
        "the last-chance places are closed",
    )

    play_out(division, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    last_chance = Pairing.objects.filter(division=division, round__bracket="last-chance")
    players = {e for p in last_chance for e in (p.entry_a_id, p.entry_b_id)}
    assert {late.pk, p02.pk} <= players, "the late entry and the buy-back play the last chance"
    services.recompute_standings(division.pk)
    rows = {s.entry_id: s.rank for s in Standing.objects.filter(division=division)}
    assert late.pk in rows and p02.pk in rows and rows[named(division, "P01").pk] == 1


def test_a_player_still_in_play_cannot_buy_a_last_chance_place(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of(
        "main-consolation-lastchance", 8, last_chance_places=1, entry_mode="scoresheet", match_length=1
    )
    services.start_division(division, actor=as_director)
    still_in = named(division, "P01")
    refused(
        lambda: services.register_player(division, actor=as_director, player=still_in.player, place=PLACE_1),
        ErrorCode.CONFLICT,
        "P01 is still playing in this division",
    )
    gone = services.withdraw_entry(named(division, "P08"), actor=as_director, reason="train home")
    refused(
        lambda: services.register_player(division, actor=as_director, player=gone.player, place=PLACE_1),
        ErrorCode.CONFLICT,
        "P08 has withdrawn",
    )
