"""A round robin makes its matches ahead of play, not all at its draw: each player's next few pairings have their
matches (tournaments/core.py, ``round_robin_ahead``), the later ones are made as those are played, at once when a
director acts on one, and when a player withdraws (all of his, each forfeited). Here the lead is made two pairings
so that a six-player field (five rounds) shows it; the real lead keeps every match of a field of up to 45 at its
draw."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Match
from tests.tournaments.services.support import director_win, enter_win, link, named, open_pairings, play_out
from tournaments import core, services
from tournaments.models import Division, Entry, Pairing, Standing
from tournaments.pairing.round_robin import due_pairings
from tournaments.services import sync

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _two_ahead(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "ROUND_ROBIN_AHEAD", 2)
    monkeypatch.setattr(core, "ROUND_ROBIN_DRAWN_MATCHES", 1)


def started(division_of: Callable[..., Division], director: Actor, players: int = 6) -> Division:
    division = division_of("round-robin", players, entry_mode="scoresheet", match_length=1)
    return services.start_division(division, actor=director)


def made_rounds(division: Division) -> dict[int, int]:
    """Round number: how many of its pairings have their match."""
    rows = Pairing.objects.filter(division=division, match__isnull=False).values_list("round__number", flat=True)
    counts: dict[int, int] = {}
    for number in rows:
        counts[number] = counts.get(number, 0) + 1
    return counts


def of(division: Division, name: str, number: int) -> Pairing:
    entry = named(division, name)
    mine = Pairing.objects.filter(division=division, round__number=number)
    return (mine.filter(entry_a=entry) | mine.filter(entry_b=entry)).select_related("match").get()


def test_the_lead_is_every_match_of_a_field_of_up_to_45_at_its_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    assert core.round_robin_ahead(46) >= 44  # 45 players (46 places with the bye's): 44 pairings each
    assert core.round_robin_ahead(46) < 45  # 46 players: 45 pairings each, the last made as play reaches it
    assert core.round_robin_ahead(1000) == core.ROUND_ROBIN_AHEAD


def test_the_draw_makes_each_players_next_two_matches_and_play_makes_the_rest(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of, as_director)
    assert Pairing.objects.filter(division=division, status=Pairing.Status.READY).count() == 15
    assert made_rounds(division) == {1: 3, 2: 3}
    later = of(division, "P01", 4)
    assert later.status == Pairing.Status.READY and later.match is None
    board = of(division, "P01", 1)
    opponent = board.entry_b if board.entry_a_id == named(division, "P01").pk else board.entry_a
    director_win(board, named(division, "P01"), as_director)
    # P01 and his opponent have played: each one's next two are rounds 2 and 3, so their round-3 matches are made.
    assert made_rounds(division) == {1: 3, 2: 3, 3: 2}
    assert of(division, "P01", 3).match is not None and of(division, opponent.player.display_name, 3).match is not None
    play_out(division, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    pairings = Pairing.objects.filter(division=division)
    assert pairings.filter(status=Pairing.Status.FINISHED, match__status=Match.Status.FINISHED).count() == 15
    services.recompute_standings(division.pk)
    rows = Standing.objects.filter(division=division, after_round=5)
    assert sorted(row.wins + row.losses for row in rows) == [5] * 6
    assert rows.order_by("rank").first().entry.player.display_name == "P01"  # the better seed wins


def test_a_director_acts_on_a_match_not_due_yet(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = started(division_of, as_director)
    board = of(division, "P02", 5)
    assert board.match is None
    services.award_forfeit(board, actor=as_director, loser=named(division, "P02"), kind="no-show", reason="not here")
    board = of(division, "P02", 5)
    assert board.status == Pairing.Status.FINISHED and board.match.status == Match.Status.FORFEITED
    assert board.decision == Pairing.Decision.FORFEIT_NO_SHOW
    other = of(division, "P03", 4)
    assert other.match is None
    match_id = services.pairing_match(other, actor=as_director)
    assert of(division, "P03", 4).match_id == match_id
    assert Match.objects.get(pk=match_id).status == Match.Status.SCHEDULED


def test_only_a_director_has_a_match_made_ahead(
    division_of: Callable[..., Division], as_director: Actor, stranger: Actor
) -> None:
    division = started(division_of, as_director)
    board = of(division, "P03", 4)
    with pytest.raises(ApplicationError) as refused:
        services.pairing_match(board, actor=stranger)
    assert refused.value.code == ErrorCode.FORBIDDEN
    assert of(division, "P03", 4).match is None


def test_a_withdrawal_forfeits_his_matches_not_due_yet_too(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of, as_director)
    gone = named(division, "P01")
    services.withdraw_entry(gone, actor=as_director, reason="called away")
    mine = Pairing.objects.filter(division=division).filter(entry_a=gone) | Pairing.objects.filter(
        division=division, entry_b=gone
    )
    assert mine.count() == 5
    for p in mine.select_related("match"):
        assert p.status == Pairing.Status.FINISHED and p.match.status == Match.Status.FORFEITED
        assert p.decision == Pairing.Decision.FORFEIT_WITHDRAWAL and p.decision_reason == "called away"
        assert p.winner_id != gone.pk
    assert Entry.objects.get(pk=gone.pk).status == Entry.Status.WITHDRAWN
    play_out(division, as_director)
    assert Division.objects.get(pk=division.pk).status == Division.Status.FINISHED


@pytest.mark.parametrize("players", [7, 8])
def test_a_rehearsal_plays_every_match_as_it_is_made(players: int) -> None:
    from tests.tournaments.test_simulate_event import check_report
    from tournaments.simulation import simulate_event

    report = simulate_event(format="round-robin", players=players, seed=5, match_length=3)
    check_report(report, "round-robin", players, 5, 3)


def _due_everywhere(division: Division) -> set[int]:
    """The pairings due by the whole division's unplayed pairings, as the draw finds them."""
    rows = (
        Pairing.objects.filter(division=division, status__in=core.PLAYABLE, entry_b__isnull=False)
        .order_by("round__number", "board")
        .values_list("pk", "entry_a_id", "entry_b_id")
    )
    return due_pairings(rows, core.round_robin_lead(division.rounds.count(), double=division.double_round_robin))


def test_a_result_reads_only_its_two_players_pairings_to_find_the_matches_now_due(
    division_of: Callable[..., Division], as_director: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    division = started(division_of, as_director, players=8)
    given: list[list[tuple[int, int, int]]] = []

    def recorded(pairings: Iterable[tuple[int, int, int]], ahead: int, **options: Any) -> set[int]:
        given.append(list(pairings))
        return due_pairings(given[-1], ahead, **options)

    monkeypatch.setattr(sync, "due_pairings", recorded)
    board = of(division, "P01", 1)
    players = {board.entry_a_id, board.entry_b_id}
    director_win(board, named(division, "P01"), as_director)
    # The two players' six pairings each still to play, of the division's 27: not the others' pairings.
    assert len(given) == 1 and len(given[0]) == 12
    assert all(players & {a, b} for _, a, b in given[0])
    assert _due_everywhere(division) <= set(
        Pairing.objects.filter(division=division, match__isnull=False).values_list("pk", flat=True)
    )


@pytest.mark.parametrize("players", [7, 8])
def test_after_every_result_and_a_withdrawal_each_players_next_matches_are_made(
    division_of: Callable[..., Division], as_director: Actor, players: int
) -> None:
    division = started(division_of, as_director, players=players)
    for played in range(100):
        if played == 5:
            services.withdraw_entry(named(division, "P04"), actor=as_director, reason="called away")
        made = set(Pairing.objects.filter(division=division, match__isnull=False).values_list("pk", flat=True))
        assert _due_everywhere(division) <= made
        ready = open_pairings(division)
        if not ready:
            break
        board = ready[-1]  # the latest round's first: results come in out of order
        director_win(board, Entry.objects.get(pk=board.entry_b_id), as_director)
    assert Division.objects.get(pk=division.pk).status == Division.Status.FINISHED


def test_a_sync_loads_only_the_pairings_whose_match_changed(
    division_of: Callable[..., Division], as_director: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    division = started(division_of, as_director)
    assert len(made_rounds(division)) == 2  # six matches open at once
    board = of(division, "P01", 1)
    director_win(board, named(division, "P01"), as_director, sync=False)
    taken: list[str] = []
    take = sync._take_result

    def recorded(pairing: Pairing, report: sync.SyncReport) -> bool:
        taken.append(pairing.key)
        return take(pairing, report)

    monkeypatch.setattr(sync, "_take_result", recorded)
    services.sync_division(division.pk)
    assert taken == [board.key]  # not the five other open matches, which say what their pairings say
    assert of(division, "P01", 1).status == Pairing.Status.FINISHED
    taken.clear()
    services.sync_division(division.pk)
    assert taken == []


def test_the_last_result_waiting_for_its_confirmation_keeps_the_division_running(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    division = started(division_of, as_director, players=3)
    last = Pairing.objects.filter(division=division, match__isnull=False).order_by("round__number", "board").last()
    assert last is not None
    for p in open_pairings(division):
        if p.pk != last.pk:
            director_win(p, Entry.objects.get(pk=p.entry_a_id), as_director)
    mine, theirs = link(last.match_id, 0), link(last.match_id, 1)
    with committed():
        enter_win(last, Entry.objects.get(pk=last.entry_a_id), actor=mine)
    services.sync_division(division.pk)
    last.refresh_from_db()
    assert last.confirmation == Pairing.Confirmation.AWAITING
    assert Division.objects.get(pk=division.pk).status == Division.Status.RUNNING
    with committed():
        services.confirm_result(last, actor=theirs)
    assert Division.objects.get(pk=division.pk).status == Division.Status.FINISHED
