"""Corrections of results other matches depend on (games.services.replace_game_result / reopen_match by the event's
director). Before a dependent match has started, a correction goes through and the bracket re-flows: the next slot
gets the new winner and its unstarted match is replaced. Once a dependent match has started, the correction is
refused (CONFLICT, nothing written); with ``override=True`` it goes through and the dependent match is voided and
replaced. In a Swiss a later-round match of either player guards the result the same way.

Results are entered by the director as one game worth 4 points (a single with the cube on 4) in 3-point matches, so
that a correction of that one game changes the winner; the follow-ups run as after a real commit."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games.services
from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Action, Match
from tests.tournaments.services.support import link, named, pairing, snapshot
from tournaments import selectors, services
from tournaments.models import Division, Entry, Pairing, Standing
from tournaments.pages import correction_notes
from tournaments.services.payouts import set_payouts

pytestmark = pytest.mark.django_db

REASON = "the scoresheet was misread"


def decide(p: Pairing, winner: Entry, director: Actor, committed: Callable) -> Match:
    """The director enters one game worth 4 points for ``winner``: the 3-point match is over."""
    side = 0 if winner.pk == p.entry_a_id else 1
    with committed():
        recorded = games.services.record_game_result(
            p.match_id, actor=director, winner=side, kind=1, cube_value=4, expected_seq=p.match.seq
        )
    assert recorded.state.is_over
    return recorded.match


def start(p: Pairing, director: Actor, committed: Callable) -> None:
    """One single game in the match: it has started, nobody has won."""
    with committed():
        games.services.record_game_result(p.match_id, actor=director, winner=0, kind=1, expected_seq=p.match.seq)


def flip(p: Pairing, director: Actor, committed: Callable, **kw: Any) -> None:
    """The director corrects game 1 of the pairing's match: the other side won it."""
    side = 1 if p.winner_id == p.entry_a_id else 0
    with committed():
        games.services.replace_game_result(
            p.match_id, actor=director, game_number=1, winner=side, kind=1, cube_value=4, reason=REASON, **kw
        )


@pytest.fixture
def semis(division_of: Callable[..., Division], as_director: Actor, committed: Callable) -> Division:
    """A 4-player single elimination: P01 beat P04 and P02 beat P03; the final P01 v P02 is ready, not started."""
    division = division_of("single", 4, entry_mode="scoresheet", match_length=3)
    services.start_division(division, actor=as_director)
    decide(pairing(division, "main-1-0"), named(division, "P01"), as_director, committed)
    decide(pairing(division, "main-1-1"), named(division, "P02"), as_director, committed)
    final = pairing(division, "main-2-0")
    assert (final.entry_a.player.display_name, final.entry_b.player.display_name) == ("P01", "P02")
    assert final.match.status == Match.Status.SCHEDULED
    return division


def players(p: Pairing) -> tuple[str | None, str | None]:
    p = pairing(p.division, p.key)
    names = [e.player.display_name if e is not None else None for e in (p.entry_a, p.entry_b)]
    if p.match is not None:
        assert [p.match.player1.display_name, p.match.player2.display_name] == names
    return names[0], names[1]


def test_a_correction_before_the_next_match_started_reflows_the_bracket(
    semis: Division, as_director: Actor, committed: Callable
) -> None:
    old_final = pairing(semis, "main-2-0").match
    flip(pairing(semis, "main-1-0"), as_director, committed)

    semi = pairing(semis, "main-1-0")
    assert semi.winner.player.display_name == "P04" and (semi.score_a, semi.score_b) == (0, 4)
    final = pairing(semis, "main-2-0")
    assert players(final) == ("P04", "P02"), "the next slot gets the new winner"
    assert final.match_id != old_final.pk and final.match.status == Match.Status.SCHEDULED
    old_final.refresh_from_db()
    assert old_final.status == Match.Status.VOID, "its unstarted match is replaced"
    assert named(semis, "P01").status == Entry.Status.ELIMINATED
    assert named(semis, "P04").status != Entry.Status.ELIMINATED


def test_reopening_a_result_before_the_next_match_started_empties_the_next_slot(
    semis: Division, as_director: Actor, committed: Callable
) -> None:
    old_final = pairing(semis, "main-2-0").match
    with committed():
        games.services.reopen_match(pairing(semis, "main-1-0").match_id, actor=as_director, reason=REASON)
    semi, final = pairing(semis, "main-1-0"), pairing(semis, "main-2-0")
    assert semi.winner_id is None and semi.status in (Pairing.Status.READY, Pairing.Status.PLAYING)
    assert players(final) == (None, "P02") and final.status == Pairing.Status.WAITING and final.match_id is None
    old_final.refresh_from_db()
    assert old_final.status == Match.Status.VOID
    decide(semi, named(semis, "P04"), as_director, committed)
    assert players(pairing(semis, "main-2-0")) == ("P04", "P02")


def test_a_correction_once_the_next_match_started_is_refused_and_changes_nothing(
    semis: Division, as_director: Actor, committed: Callable
) -> None:
    start(pairing(semis, "main-2-0"), as_director, committed)
    semi = pairing(semis, "main-1-0")
    before = snapshot()
    for correct in (
        lambda: flip(semi, as_director, committed),
        lambda: games.services.reopen_match(semi.match_id, actor=as_director, reason=REASON),
        lambda: games.services.undo_last_action(semi.match_id, actor=as_director, reason=REASON),
    ):
        with pytest.raises(ApplicationError) as refused:
            correct()
        assert refused.value.code is ErrorCode.CONFLICT
        assert "a later match that depends on it has started (Main final" in refused.value.message
        assert "main-2-0" not in refused.value.message and "#" not in refused.value.message
        assert "override" in refused.value.message
        assert snapshot() == before


def test_with_override_the_started_dependent_match_is_voided_and_replaced(
    semis: Division, as_director: Actor, committed: Callable
) -> None:
    start(pairing(semis, "main-2-0"), as_director, committed)
    started = pairing(semis, "main-2-0").match
    logged = Action.objects.filter(match=started).count()
    flip(pairing(semis, "main-1-0"), as_director, committed, override=True)

    started.refresh_from_db()
    assert started.status == Match.Status.VOID
    assert Action.objects.filter(match=started).count() == logged + 1, "its log is kept, a void row added"
    final = pairing(semis, "main-2-0")
    assert players(final) == ("P04", "P02") and final.match_id != started.pk
    assert final.match.status == Match.Status.SCHEDULED and final.match.seq == 0
    assert "changed" in final.decision_reason


@pytest.mark.parametrize("final_winner", ["P01", "P02"])
def test_with_override_a_finished_final_is_voided_and_replayed_and_the_division_runs_again(
    semis: Division, as_director: Actor, committed: Callable, final_winner: str
) -> None:
    decide(pairing(semis, "main-2-0"), named(semis, final_winner), as_director, committed)
    semis.refresh_from_db()
    assert semis.status == Division.Status.FINISHED
    played = pairing(semis, "main-2-0").match

    flip(pairing(semis, "main-1-0"), as_director, committed, override=True)
    played.refresh_from_db()
    assert played.status == Match.Status.VOID
    final = pairing(semis, "main-2-0")
    assert players(final) == ("P04", "P02") and final.winner_id is None
    assert final.status == Pairing.Status.READY and final.match.status == Match.Status.SCHEDULED
    semis.refresh_from_db()
    assert semis.status == Division.Status.RUNNING and semis.finished_at is None, "the final is to be played again"
    assert semis.event.status == "running"

    decide(final, named(semis, "P04"), as_director, committed)
    semis.refresh_from_db()
    assert semis.status == Division.Status.FINISHED
    table = Standing.objects.filter(division=semis).order_by("rank").select_related("entry__player")
    assert [s.entry.player.display_name for s in table][:2] == ["P04", "P02"]


def test_only_the_events_director_corrects(
    semis: Division, as_director: Actor, other_director: Actor, stranger: Actor, committed: Callable
) -> None:
    semi = pairing(semis, "main-1-0")
    player = link(semi.match_id, 0)
    before = snapshot()
    for actor in (other_director, stranger, player):
        with pytest.raises(ApplicationError) as refused:
            games.services.replace_game_result(
                semi.match_id, actor=actor, game_number=1, winner=1, kind=1, cube_value=4, reason=REASON
            )
        assert refused.value.code is ErrorCode.FORBIDDEN
        assert snapshot() == before


# -- Swiss ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def swiss(division_of: Callable[..., Division], as_director: Actor, committed: Callable) -> Division:
    """A 4-player Swiss of 3 rounds: round 1 (P01 beat P03, P02 beat P04) played; round 2 paired, not started."""
    division = division_of("swiss", 4, rounds_planned=3, entry_mode="scoresheet", match_length=3)
    services.start_division(division, actor=as_director)
    for key in ("swiss-1-1", "swiss-1-2"):
        p = pairing(division, key)
        decide(p, p.entry_a, as_director, committed)
    services.pair_next_round(division, actor=as_director)
    assert players(pairing(division, "swiss-2-1")) == ("P01", "P02")
    assert players(pairing(division, "swiss-2-2")) == ("P03", "P04")
    return division


def wins(division: Division) -> dict[str, int]:
    services.recompute_standings(division.pk)
    rows = Standing.objects.filter(division=division, after_round=1).select_related("entry__player")
    return {s.entry.player.display_name: s.wins for s in rows}


def test_swiss_a_correction_goes_through_until_a_later_round_match_of_either_player_started(
    swiss: Division, as_director: Actor, committed: Callable
) -> None:
    flip(pairing(swiss, "swiss-1-1"), as_director, committed)  # round 2 not started: P03 beat P01 after all
    assert wins(swiss) == {"P01": 0, "P02": 1, "P03": 1, "P04": 0}

    start(pairing(swiss, "swiss-2-2"), as_director, committed)  # P03 v P04 has started
    before = snapshot()
    for key in ("swiss-1-1", "swiss-1-2"):  # each has a player (P03, P04) of the started match
        with pytest.raises(ApplicationError) as refused:
            flip(pairing(swiss, key), as_director, committed)
        assert refused.value.code is ErrorCode.CONFLICT
        assert "a later match that depends on it has started (Round 2, Table" in refused.value.message
        assert ": P03 v P04)" in refused.value.message and "swiss-2-2" not in refused.value.message
        assert snapshot() == before


def test_swiss_with_override_the_correction_counts_and_the_later_pairings_stand(
    swiss: Division, as_director: Actor, committed: Callable
) -> None:
    start(pairing(swiss, "swiss-2-1"), as_director, committed)  # P01 v P02 has started
    with pytest.raises(ApplicationError) as refused:
        flip(pairing(swiss, "swiss-1-1"), as_director, committed)
    assert "override; the later pairings then stand" in refused.value.message, refused.value.message
    started = pairing(swiss, "swiss-2-1").match
    flip(pairing(swiss, "swiss-1-1"), as_director, committed, override=True)
    assert wins(swiss) == {"P01": 0, "P02": 1, "P03": 1, "P04": 0}
    assert pairing(swiss, "swiss-2-1").match_id == started.pk and started.status == Match.Status.IN_PROGRESS


def prizes(division: Division) -> dict[str, int]:
    """What the payout table pays each player now, by the stored standings (cents, every flight added up)."""
    division.refresh_from_db()
    rows = selectors.standings_table(division)
    paid = selectors.payouts_of(division, rows)
    return {row.entry.player.display_name: paid.total(row.entry_id) for row in rows if paid.total(row.entry_id)}


def test_payouts_follow_a_correction_of_the_places(semis: Division, as_director: Actor, committed: Callable) -> None:
    table = {"mode": "amount", "pool": None, "ties": "split", "published": True, "flights": {"main": "100, 50, 30, 10"}}
    set_payouts(semis, actor=as_director, **table)
    decide(pairing(semis, "main-2-0"), named(semis, "P01"), as_director, committed)
    assert prizes(semis) == {"P01": 10000, "P02": 5000, "P03": 2000, "P04": 2000}  # 3-4 split (30 + 10) / 2

    flip(pairing(semis, "main-2-0"), as_director, committed)  # the final's scoresheet was misread: P02 won it
    assert prizes(semis) == {"P02": 10000, "P01": 5000, "P03": 2000, "P04": 2000}

    flip(pairing(semis, "main-1-0"), as_director, committed, override=True)  # P04 won the semi-final: final voided
    final = pairing(semis, "main-2-0")
    assert players(final) == ("P04", "P02") and final.status == Pairing.Status.READY
    assert prizes(semis) == {"P01": 2000, "P03": 2000}, "the final is to be played again: its players wait"
    places = {s.entry.player.display_name: s.places.get("main") for s in Standing.objects.filter(division=semis)}
    assert places == {"P01": "3-4", "P03": "3-4", "P02": None, "P04": None}

    decide(final, named(semis, "P04"), as_director, committed)
    assert prizes(semis) == {"P04": 10000, "P02": 5000, "P01": 2000, "P03": 2000}


def test_a_replaced_game_that_reopened_the_match_marks_the_result_played_out_as_the_directors_decision(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """The director replaces game 3 of a match over (1-3 becomes 1-2): it is played on, and once over its result
    stands partly by his decision, with his reason, as a corrected result does: on the division page's corrected
    results and in the results CSV's ``decision``."""
    division = division_of("swiss", 4, rounds_planned=3, entry_mode="scoresheet", match_length=3)
    services.start_division(division, actor=as_director)
    p = pairing(division, "swiss-1-2")
    with committed():
        for winner, cube in ((0, 1), (1, 1), (1, 2)):
            seq = Match.objects.get(pk=p.match_id).seq
            games.services.record_game_result(
                p.match_id, actor=as_director, winner=winner, kind=1, cube_value=cube, expected_seq=seq
            )
    with committed():
        games.services.replace_game_result(
            p.match_id, actor=as_director, game_number=3, winner=1, kind=1, cube_value=1, reason=REASON
        )
    p.refresh_from_db()
    assert (p.status, p.decision) == (Pairing.Status.PLAYING, ""), "reopened: nothing decided yet"
    with committed():
        seq = Match.objects.get(pk=p.match_id).seq
        games.services.record_game_result(
            p.match_id, actor=as_director, winner=1, kind=1, cube_value=1, expected_seq=seq
        )
    p.refresh_from_db()
    assert (p.status, p.score_a, p.score_b) == (Pairing.Status.FINISHED, 1, 3)
    assert (p.decision, p.decision_reason) == (Pairing.Decision.DIRECTOR, REASON)
    notes = correction_notes(Division.objects.get(pk=division.pk))
    assert any(REASON in note for note in notes), notes
