"""Withdrawals mid-event and forfeits: a withdrawn player's open match, and his next bracket match when it comes,
are forfeited to the opponent; in a Swiss he is no longer paired; ``award_forfeit`` gives a match to the opponent
of a no-show with the reason on the pairing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games import services as games
from games.models import Match
from tests.tournaments.services.support import director_win, enter_win, named, pairing, play_out, snapshot
from tournaments import services
from tournaments.core import plan_of, resolve_division
from tournaments.models import Division, Entry, Pairing, Standing
from tournaments.pairing import brackets

pytestmark = pytest.mark.django_db

Decision = Pairing.Decision


def scoresheet(division_of: Callable[..., Division], fmt: str, n: int, **settings: object) -> Division:
    settings.setdefault("match_length", 1)
    return division_of(fmt, n, entry_mode="scoresheet", **settings)


def assert_forfeited_to(p: Pairing, winner: Entry, decision: str) -> None:
    p = pairing(p.division, p.key)
    assert p.status == Pairing.Status.FINISHED and p.winner_id == winner.pk
    assert p.decision == decision
    assert p.match.status == Match.Status.FORFEITED
    won = p.score_a if winner.pk == p.entry_a_id else p.score_b
    assert won >= p.length, "the opponent gets the points he needed"


def test_a_withdrawn_players_next_bracket_match_is_forfeited_to_the_opponent(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    division = services.start_division(scoresheet(division_of, "single", 4), actor=as_director)
    p1, p2 = named(division, "P01"), named(division, "P02")
    with committed():
        enter_win(pairing(division, "main-1-0"), p1, actor=as_director)
    final = pairing(division, "main-2-0")
    assert (final.entry_a_id, final.entry_b_id, final.status) == (p1.pk, None, Pairing.Status.WAITING)

    with committed():
        services.withdraw_entry(p1, actor=as_director, reason="taken ill")
    assert pairing(division, "main-2-0").match_id is None, "nothing to forfeit yet: the opponent is not known"

    with committed():
        enter_win(pairing(division, "main-1-1"), p2, actor=as_director)
    assert_forfeited_to(pairing(division, "main-2-0"), p2, Decision.FORFEIT_WITHDRAWAL)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    assert Standing.objects.get(division=division, rank=1).entry_id == p2.pk
    assert named(division, "P01").status == Entry.Status.WITHDRAWN
    assert named(division, "P03").status == Entry.Status.ELIMINATED


def test_withdrawing_forfeits_the_match_being_played(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    division = services.start_division(scoresheet(division_of, "single", 4, match_length=3), actor=as_director)
    p1, p4 = named(division, "P01"), named(division, "P04")
    board = pairing(division, "main-1-0")
    games.record_game_result(board.match_id, actor=as_director, winner=1, kind=1, expected_seq=0)  # P04 leads 1-0
    with committed():
        services.withdraw_entry(p4, actor=as_director, reason="left for the airport")
    assert_forfeited_to(board, p1, Decision.FORFEIT_WITHDRAWAL)
    assert pairing(division, "main-2-0").entry_a_id == p1.pk, "the opponent moves on"
    with pytest.raises(ApplicationError) as again:
        services.withdraw_entry(p4, actor=as_director, reason="twice")
    assert again.value.code is ErrorCode.CONFLICT and "already withdrawn" in again.value.message


def test_a_withdrawn_swiss_player_is_no_longer_paired(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = services.start_division(scoresheet(division_of, "swiss", 4, rounds_planned=3), actor=as_director)
    for p in Pairing.objects.filter(division=division, round__number=1):
        director_win(p, Entry.objects.get(pk=p.entry_a_id), as_director)
    gone = services.withdraw_entry(named(division, "P04"), actor=as_director, reason="family emergency")
    services.pair_next_round(division, actor=as_director)
    round2 = Pairing.objects.filter(division=division, round__number=2)
    assert gone.pk not in {e for p in round2 for e in (p.entry_a_id, p.entry_b_id)}
    assert round2.count() == 2 and round2.filter(status=Pairing.Status.BYE).count() == 1
    play_out(division, as_director)
    assert not Pairing.objects.filter(division=division, round__number__gt=1, entry_a=gone).exists()
    assert not Pairing.objects.filter(division=division, round__number__gt=1, entry_b=gone).exists()
    services.recompute_standings(division.pk)
    row = Standing.objects.get(division=division, after_round=3, entry=gone)
    assert (row.wins, row.losses) == (0, 1), "he keeps his round-1 result"


def test_a_withdrawn_round_robin_player_forfeits_every_match_left(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = services.start_division(scoresheet(division_of, "round-robin", 4), actor=as_director)
    gone = named(division, "P01")
    first = Pairing.objects.filter(division=division, round__number=1).filter(entry_a=gone).first() or (
        Pairing.objects.filter(division=division, round__number=1, entry_b=gone).get()
    )
    director_win(first, gone, as_director)  # P01 wins his first match, then withdraws
    services.withdraw_entry(gone, actor=as_director, reason="called away")
    mine = Pairing.objects.filter(division=division, round__number__gt=1).filter(entry_a=gone) | Pairing.objects.filter(
        division=division, round__number__gt=1, entry_b=gone
    )
    assert mine.count() == 2
    for p in mine:
        opponent = Entry.objects.get(pk=p.entry_b_id if p.entry_a_id == gone.pk else p.entry_a_id)
        assert_forfeited_to(p, opponent, Decision.FORFEIT_WITHDRAWAL)
    play_out(division, as_director)
    services.recompute_standings(division.pk)
    row = Standing.objects.get(division=division, after_round=3, entry=gone)
    assert (row.wins, row.losses) == (1, 2)


# -- award_forfeit -------------------------------------------------------------------------------------------------


def test_a_no_show_forfeits_and_the_opponent_moves_on(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    division = services.start_division(scoresheet(division_of, "single", 4, match_length=5), actor=as_director)
    board = pairing(division, "main-1-1")  # P02 v P03
    p2, p3 = named(division, "P02"), named(division, "P03")
    with committed():
        services.award_forfeit(board, actor=as_director, loser=p2, kind="no-show", reason="not here at 10:15")
    assert_forfeited_to(board, p3, Decision.FORFEIT_NO_SHOW)
    board = pairing(division, "main-1-1")
    assert board.decision_reason == "not here at 10:15"
    assert (board.score_a, board.score_b) == (0, 5)
    assert pairing(division, "main-2-0").entry_b_id == p3.pk
    assert named(division, "P02").status == Entry.Status.ELIMINATED


def test_a_forfeit_is_refused_without_writing_anything(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = services.start_division(scoresheet(division_of, "single", 3), actor=as_director)
    board, final = pairing(division, "main-1-1"), pairing(division, "main-2-0")  # P02 v P03; P01 (bye) waits
    p1, p2 = named(division, "P01"), named(division, "P02")
    cases = [
        (lambda: services.award_forfeit(board, actor=as_director, loser=p2, kind="rain", reason="x"), "not 'rain'"),
        (lambda: services.award_forfeit(board, actor=as_director, loser=p2, kind="no-show", reason=" "), "reason"),
        (
            lambda: services.award_forfeit(board, actor=as_director, loser=p1, kind="no-show", reason="absent"),
            "P01 does not play this match",
        ),
        (
            lambda: services.award_forfeit(final, actor=as_director, loser=p1, kind="no-show", reason="absent"),
            "no match yet",
        ),
    ]
    before = snapshot()
    for call, words in cases:
        with pytest.raises(ApplicationError) as refused:
            call()
        assert words in refused.value.message
        assert refused.value.code in (ErrorCode.INVALID_INPUT, ErrorCode.CONFLICT)
        assert snapshot() == before
    director_win(board, p2, as_director)
    before = snapshot()
    with pytest.raises(ApplicationError) as closed:
        services.award_forfeit(board, actor=as_director, loser=p2, kind="no-show", reason="too late")
    assert closed.value.code is ErrorCode.MATCH_CLOSED
    assert snapshot() == before


# -- double forfeits -----------------------------------------------------------------------------------------------


def _withdraw_losers_of_main_round_1(
    division: Division, director: Actor, committed: Callable, *, before: bool
) -> list[int]:
    """Both losers of main-1-0 and main-1-1 go home: ``before`` their main match ends (the withdrawal forfeits it),
    or just after losing it."""
    losers = []
    for key in ("main-1-0", "main-1-1"):
        board = pairing(division, key)
        loser = Entry.objects.get(pk=board.entry_b_id)
        if not before:
            with committed():
                enter_win(board, Entry.objects.get(pk=board.entry_a_id), actor=director)
        with committed():
            services.withdraw_entry(loser, actor=director, reason="went home")
        losers.append(loser.pk)
    return losers


def _consolation(division: Division) -> list[Pairing]:
    return list(Pairing.objects.filter(division=division, round__bracket="consolation").order_by("key"))


@pytest.mark.parametrize("before", [True, False])
def test_players_who_withdraw_before_the_consolation_is_drawn_are_not_drawn_in_it(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable, before: bool
) -> None:
    """Two main round-1 losers go home, during their match or just after losing it, before consolation round 1 is
    drawn: it is drawn without them, so the other two losers meet at once in its final; nobody has a bye for them
    (the consolation planned at the start made them meet in a double forfeit and gave its winner's opponent a
    bye nobody needed)."""
    division = services.start_division(scoresheet(division_of, "main-consolation", 8), actor=as_director)
    losers = _withdraw_losers_of_main_round_1(division, as_director, committed, before=before)
    play_out(division, as_director)
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    slots = _consolation(division)
    assert not [p for p in slots if {p.entry_a_id, p.entry_b_id} & set(losers)], "never drawn in the consolation"
    assert [p.status for p in slots if p.status != Pairing.Status.EMPTY] == [Pairing.Status.FINISHED]
    for gone in losers:
        assert not Pairing.objects.filter(division=division, winner_id=gone).exists()
        assert not Standing.objects.filter(division=division, entry_id=gone, wins__gt=0).exists()


def test_a_forfeit_win_over_a_withdrawn_player_becomes_a_double_forfeit_when_the_winner_withdraws_too(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """Two players drawn against each other in consolation round 1 go home one after the other before playing
    anything: the first withdrawal gives the match to the second by forfeit, the second turns it into a double
    forfeit that credits nobody. The other round-1 winner is then alone in the consolation: he wins it, and its
    round 2 is not needed (no bye)."""
    division = services.start_division(scoresheet(division_of, "main-consolation", 8), actor=as_director)
    for key in ("main-1-0", "main-1-1", "main-1-2", "main-1-3"):
        board = pairing(division, key)
        with committed():
            enter_win(board, Entry.objects.get(pk=board.entry_a_id), actor=as_director)
    both = pairing(division, "consolation-1-0")
    assert both.entry_a_id is not None and both.entry_b_id is not None, "consolation round 1 is drawn"
    gone = [both.entry_a_id, both.entry_b_id]
    for pk in gone:
        with committed():
            services.withdraw_entry(Entry.objects.get(pk=pk), actor=as_director, reason="went home")
    both = pairing(division, "consolation-1-0")
    assert both.status == Pairing.Status.FINISHED
    assert both.winner_id is None, "a double forfeit credits nobody with a win"
    assert both.decision == Decision.DOUBLE_FORFEIT
    play_out(division, as_director)
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    other = pairing(division, "consolation-1-1")
    assert pairing(division, "consolation-2-0").status == Pairing.Status.EMPTY, "not needed: no bye"
    assert brackets.champion(plan_of(division), resolve_division(division), "consolation") == other.winner_id
    for pk in gone:
        assert not Pairing.objects.filter(division=division, winner_id=pk).exists()
        assert not Standing.objects.filter(division=division, entry_id=pk, wins__gt=0).exists()


@pytest.mark.parametrize(("rule", "points"), [("left-out", (0, 0)), ("as-played", (7, 0))])
def test_how_a_forfeit_counts_in_the_standings_is_the_divisions_setting(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable, rule: str, points: tuple[int, int]
) -> None:
    """By default a no-show's forfeit is a match win with no points for and against and no opponent in Buchholz;
    ``as-played`` counts it as recorded (7-0)."""
    division = scoresheet(division_of, "swiss", 4, rounds_planned=2, match_length=7, forfeit_tiebreaks=rule)
    services.start_division(division, actor=as_director)
    first, second = Pairing.objects.filter(division=division, round__number=1).order_by("board")
    with committed():
        services.award_forfeit(first, actor=as_director, loser=first.entry_b, kind="no-show", reason="absent")
    director_win(pairing(division, second.key), Entry.objects.get(pk=second.entry_a_id), as_director)
    services.recompute_standings(division.pk)
    row = Standing.objects.get(division=division, after_round=1, entry_id=first.entry_a_id)
    absent = Standing.objects.get(division=division, after_round=1, entry_id=first.entry_b_id)
    assert (row.wins, row.losses) == (1, 0), "the forfeit is a match win"
    assert (row.points_for, row.points_against) == points
    assert absent.tiebreaks["buchholz"] == (0 if rule == "left-out" else 1), "the winner as his opponent, or not"


@pytest.mark.parametrize("first_gone", ["a", "b"])
def test_a_swiss_board_whose_two_players_withdraw_one_after_the_other_scores_for_neither(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable, first_gone: str
) -> None:
    """The first withdrawal forfeits the unplayed board to the opponent; when the opponent withdraws too before
    anything was played, the board is a double forfeit (README: it scores for neither), whichever went first."""
    division = services.start_division(scoresheet(division_of, "swiss", 6, rounds_planned=2), actor=as_director)
    board = Pairing.objects.filter(division=division, round__number=1).order_by("board").first()
    assert board is not None
    a, b = Entry.objects.get(pk=board.entry_a_id), Entry.objects.get(pk=board.entry_b_id)
    first, second = (a, b) if first_gone == "a" else (b, a)
    with committed():
        services.withdraw_entry(first, actor=as_director, reason="went home")
    assert pairing(division, board.key).winner_id == second.pk, "the opponent is given the board"
    with committed():
        services.withdraw_entry(second, actor=as_director, reason="went home too")
    board = pairing(division, board.key)
    assert (board.status, board.winner_id, board.decision) == (Pairing.Status.FINISHED, None, Decision.DOUBLE_FORFEIT)
    others = Pairing.objects.filter(division=division, round__number=1).exclude(pk=board.pk)
    for other in others:
        director_win(other, Entry.objects.get(pk=other.entry_a_id), as_director)
    services.recompute_standings(division.pk)
    for gone in (a, b):
        row = Standing.objects.get(division=division, after_round=1, entry=gone)
        assert (row.wins, row.losses) == (0, 0), "a double forfeit scores for neither"
    assert Standing.objects.filter(division=division, after_round=1, wins=1).count() == 2
    services.pair_next_round(division, actor=as_director)
    round2 = Pairing.objects.filter(division=division, round__number=2)
    assert {e for p in round2 for e in (p.entry_a_id, p.entry_b_id)} == {
        e for p in others for e in (p.entry_a_id, p.entry_b_id)
    }


@pytest.mark.parametrize("walkover_as_bye", [False, True])
def test_a_round_1_walkover_counts_like_a_bye_for_the_consolation_when_the_division_says_so(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable, walkover_as_bye: bool
) -> None:
    """P08 does not show for main round 1: P01 wins it by forfeit, then loses to P04 in round 2, his first match
    played. With the division's ``walkover_as_bye`` he enters the consolation, like a seed with a bye; by default
    (as before) he had two main matches and does not."""
    division = scoresheet(division_of, "main-consolation", 8, walkover_as_bye=walkover_as_bye)
    services.start_division(division, actor=as_director)
    p1, p8 = named(division, "P01"), named(division, "P08")
    with committed():
        services.award_forfeit(pairing(division, "main-1-0"), actor=as_director, loser=p8, kind="no-show", reason="-")
    for key in ("main-1-1", "main-1-2", "main-1-3"):
        slot = pairing(division, key)
        director_win(slot, Entry.objects.get(pk=slot.entry_a_id), as_director)
    director_win(pairing(division, "main-2-0"), named(division, "P04"), as_director)
    director_win(pairing(division, "main-2-1"), named(division, "P02"), as_director)
    play_out(division, as_director)
    consolation = Pairing.objects.filter(division=division, round__bracket="consolation")
    entered = {e for p in consolation for e in (p.entry_a_id, p.entry_b_id) if e is not None}
    assert (p1.pk in entered) is walkover_as_bye
    assert named(division, "P03").pk not in entered, "main-2-1's loser played two main matches"
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED and division.walkover_as_bye is walkover_as_bye
