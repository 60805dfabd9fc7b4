"""Starting a division: who is drawn (check-in), how seeds are given, and the byes of a field that is not a power of
two (elimination) or is odd (Swiss, round robin)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Match
from tests.tournaments.services.support import director_win, entry, named, pairing, play_out, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Standing

pytestmark = pytest.mark.django_db


# -- check-in ------------------------------------------------------------------------------------------------------


def test_only_the_checked_in_players_are_drawn_when_anyone_checked_in(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 6)
    for name in ("P02", "P03", "P05"):
        services.check_in(named(division, name), actor=as_director)
    services.start_division(division, actor=as_director)

    drawn = Entry.objects.filter(division=division, seed__isnull=False).order_by("seed")
    assert [e.player.display_name for e in drawn] == ["P02", "P03", "P05"], "seeded by rating among the present"
    for name in ("P01", "P04", "P06"):
        absent = named(division, name)
        assert absent.status == Entry.Status.WITHDRAWN and absent.seed is None
        assert absent.withdrawal_reason == "not checked in"
    in_bracket = {e for p in Pairing.objects.filter(division=division) for e in (p.entry_a_id, p.entry_b_id)}
    assert in_bracket - {None} == {e.pk for e in drawn}
    assert Pairing.objects.get(division=division, key="main-1-0").status == Pairing.Status.BYE  # 3 in a 4-draw


def test_everyone_is_drawn_when_nobody_checked_in(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("swiss", 5)
    services.start_division(division, actor=as_director)
    assert Entry.objects.filter(division=division, seed__isnull=False).count() == 5
    assert not Entry.objects.filter(division=division, status=Entry.Status.WITHDRAWN).exists()


def test_drawing_only_the_checked_in_with_nobody_checked_in_is_refused(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 4)
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        services.start_division(division, actor=as_director, only_checked_in=True)
    assert refused.value.code is ErrorCode.CONFLICT and "nobody to play" in refused.value.message
    assert snapshot() == before


def test_a_check_in_can_be_undone_and_a_withdrawn_player_cannot_check_in(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 3)
    p1 = services.check_in(named(division, "P01"), actor=as_director)
    assert p1.status == Entry.Status.CHECKED_IN and p1.checked_in_at is not None
    p1 = services.check_in(p1, actor=as_director, present=False)
    assert p1.status == Entry.Status.REGISTERED and p1.checked_in_at is None
    gone = services.withdraw_entry(named(division, "P02"), actor=as_director, reason="flight cancelled")
    with pytest.raises(ApplicationError) as refused:
        services.check_in(gone, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT and "withdrawn" in refused.value.message
    services.start_division(division, actor=as_director)
    assert sorted(Entry.objects.filter(division=division, seed__isnull=False).values_list("seed", flat=True)) == [1, 2]


def test_a_division_starts_once(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = services.start_division(division_of("single", 4), actor=as_director)
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        services.start_division(division, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT and "already started" in refused.value.message
    assert snapshot() == before


def test_manual_seeding_needs_every_seed_once(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("single", 3, seeding="manual")
    services.set_seed(named(division, "P03"), actor=as_director, seed=1)
    services.set_seed(named(division, "P01"), actor=as_director, seed=2)
    with pytest.raises(ApplicationError) as refused:
        services.start_division(division, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT and "without a seed: P02" in refused.value.message
    services.set_seed(named(division, "P02"), actor=as_director, seed=3)
    services.start_division(division, actor=as_director)
    assert pairing(division, "main-1-0").entry_a.player.display_name == "P03"  # seed 1 has the bye
    assert pairing(division, "main-1-0").status == Pairing.Status.BYE


# -- byes ----------------------------------------------------------------------------------------------------------


def test_elimination_byes_go_to_the_top_seeds_and_two_byes_meet_at_once(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = services.start_division(division_of("single", 5), actor=as_director)
    first = {p.key: p for p in Pairing.objects.filter(division=division, round__number=1)}
    byes = {p.entry_a.seed for p in first.values() if p.status == Pairing.Status.BYE}
    assert byes == {1, 2, 3}, "an 8-draw of 5: seeds 1-3 have byes"
    for p in first.values():
        if p.status == Pairing.Status.BYE:
            assert p.entry_b_id is None and p.winner_id == p.entry_a_id and p.match_id is None
        else:
            assert {p.entry_a.seed, p.entry_b.seed} == {4, 5} and p.match is not None
    # placement 1-8 4-5 2-7 3-6: the byes of seeds 2 and 3 meet in round 2 at once, seed 1 waits for 4 v 5
    assert (pairing(division, "main-2-1").entry_a.seed, pairing(division, "main-2-1").entry_b.seed) == (2, 3)
    assert pairing(division, "main-2-1").match.status == Match.Status.SCHEDULED
    waiting = pairing(division, "main-2-0")
    assert (waiting.entry_a.seed, waiting.entry_b_id, waiting.status) == (1, None, Pairing.Status.WAITING)
    assert waiting.match_id is None


def test_a_lone_player_is_champion_by_bye(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = services.start_division(division_of("single", 1), actor=as_director)
    services.sync_division(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    assert not Match.objects.filter(pairing__division=division).exists()
    services.recompute_standings(division.pk)
    assert list(Standing.objects.filter(division=division).values_list("entry__seed", "rank")) == [(1, 1)]


def test_swiss_bye_goes_to_the_lowest_ranked_and_counts_as_a_win(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 5, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    (bye,) = Pairing.objects.filter(division=division, status=Pairing.Status.BYE)
    assert (bye.entry_a, bye.entry_b_id, bye.winner_id, bye.match_id) == (
        entry(division, 5),
        None,
        bye.entry_a_id,
        None,
    )
    assert "lowest-ranked" in bye.reason
    for p in Pairing.objects.filter(division=division, round__number=1, status=Pairing.Status.READY):
        director_win(p, Entry.objects.get(pk=p.entry_b_id), as_director)  # the lower seed wins
    services.pair_next_round(division, actor=as_director)
    byes = Pairing.objects.filter(division=division, status=Pairing.Status.BYE).order_by("round__number")
    second = byes[1].entry_a
    assert second != entry(division, 5), "at most one bye each"
    # after round 1 the losers (seeds 1 and 2) have 0 wins: the worse of them, seed 2, has the bye
    assert second == entry(division, 2)
    play_out(division, as_director)
    services.recompute_standings(division.pk)
    row = Standing.objects.get(division=division, after_round=2, entry=entry(division, 5))
    assert row.byes == 1 and row.wins >= 1


def test_round_robin_odd_field_one_bye_each_and_double_cycle(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("round-robin", 5, double_round_robin=True, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    assert division.rounds.count() == 10
    pairings = list(Pairing.objects.filter(division=division))
    byes = sorted(p.entry_a_id for p in pairings if p.entry_b_id is None)
    assert byes == sorted(2 * list(division.entries.values_list("pk", flat=True)))
    meetings: dict[frozenset[int], list[tuple[int, int]]] = {}
    for p in pairings:
        if p.entry_b_id is not None:
            meetings.setdefault(frozenset((p.entry_a_id, p.entry_b_id)), []).append((p.entry_a_id, p.entry_b_id))
    assert len(meetings) == 10 and all(len(m) == 2 for m in meetings.values()), "everyone meets everyone twice"
    assert all(m[0] == m[1][::-1] for m in meetings.values()), "the second cycle swaps the sides"
    play_out(division, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
