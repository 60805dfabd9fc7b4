"""Places after withdrawals follow the stage reached: the two players of a match that neither played (both withdrew:
a double forfeit) are out at that match's stage, level with whoever lost a match of that stage, and the places of the
flight are all given, so their prizes are paid."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from tests.tournaments.services.support import director_win, pairing, play_out
from tournaments import selectors, services
from tournaments.models import Division, Entry, Pairing, Standing
from tournaments.services.payouts import set_payouts

pytestmark = pytest.mark.django_db


def places(division: Division, flight: str = "main") -> dict[str, str]:
    services.recompute_standings(division.pk)
    last = Standing.objects.filter(division=division).order_by("-after_round").values_list("after_round").first()
    rows = Standing.objects.filter(division=division, after_round=last[0] if last else 0).select_related(
        "entry__player"
    )
    return {s.entry.player.display_name: s.places.get(flight, "") for s in rows}


def both_withdraw(division: Division, key: str, director: Actor, committed: Callable) -> list[str]:
    slot = pairing(division, key)
    names = []
    for entry_id in (slot.entry_a_id, slot.entry_b_id):
        with committed():
            gone = services.withdraw_entry(Entry.objects.get(pk=entry_id), actor=director, reason="went home")
        names.append(gone.player.display_name)
    slot = pairing(division, key)
    assert (slot.status, slot.decision) == (Pairing.Status.FINISHED, Pairing.Decision.DOUBLE_FORFEIT)
    return names


def played_out_after(
    division: Division, key: str, director: Actor, committed: Callable
) -> tuple[list[str], dict[str, str]]:
    """Both players of ``key`` withdraw, the rest is played out: the names gone and every player's main place."""
    gone = both_withdraw(division, key, director, committed)
    play_out(division, director)
    got = places(division)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    return gone, got


def loser_name(slot: Pairing) -> str:
    return (slot.entry_b if slot.winner_id == slot.entry_a_id else slot.entry_a).player.display_name


def after_main_round_1(division: Division, director: Actor) -> Division:
    """The 8-player division started and its main round 1 played, side a winning each match."""
    services.start_division(division, actor=director)
    for key in ("main-1-0", "main-1-1", "main-1-2", "main-1-3"):
        slot = pairing(division, key)
        director_win(slot, Entry.objects.get(pk=slot.entry_a_id), director)
    return division


def test_a_semi_final_both_players_withdrew_from_is_placed_at_the_semi_finals(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """Both players of main-2-0 withdraw before it: the other semi-final's loser and they share 2-4 (the final is
    the other semi-final's winner's bye), the quarter-final losers 5-8, and nobody is left without a place."""
    division = after_main_round_1(division_of("single", 8, entry_mode="scoresheet", match_length=1), as_director)
    gone, got = played_out_after(division, "main-2-0", as_director, committed)
    semi = pairing(division, "main-2-1")
    semi_loser = loser_name(semi)
    assert got[semi.winner.player.display_name] == "1"
    assert {got[name] for name in (*gone, semi_loser)} == {"2-4"}, got
    assert sorted(got.values()).count("5-8") == 4, got
    set_payouts(
        division,
        actor=as_director,
        mode="amount",
        pool=None,
        ties="split",
        published=True,
        flights={"main": "400, 200, 100, 100, 50, 50, 50, 50"},
    )
    division.refresh_from_db()
    payouts = selectors.payouts_of(division, selectors.standings_table(division))
    paid = sum(sum(flights.values()) for flights in payouts.paid.values())
    assert (paid, payouts.remainder["main"]) == (99_999, 1), "every place is paid (2-4 split three ways)"
    assert all(payouts.paid[e.pk]["main"] == 133_33 for e in Entry.objects.filter(player__display_name__in=gone))


def test_a_losers_bracket_match_both_players_withdrew_from_is_placed_at_its_round(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """Double elimination, 8 players: both players of consolation-1-0 (two main round 1 losers) withdraw. They are
    out at the losers' bracket's first round, level with the loser of consolation-1-1 (6-8), not with the grand
    final's loser (2)."""
    division = division_of("double-elimination", 8, entry_mode="scoresheet", match_length=1)
    division = after_main_round_1(division, as_director)
    gone, got = played_out_after(division, "consolation-1-0", as_director, committed)
    other = pairing(division, "consolation-1-1")
    other_loser = loser_name(other)
    assert sorted(got.values()) == ["1", "2", "3", "4", "5", "6-8", "6-8", "6-8"], got
    assert {got[name] for name in (*gone, other_loser)} == {"6-8"}, got


def test_a_knockout_semi_final_both_players_withdrew_from_is_placed_at_the_semi_finals(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """A Swiss into a top 4: both players of the first knockout semi-final withdraw; they share 2-4 with the other
    semi-final's loser (the final is its winner's bye), and the players the knockout did not take are 5-8."""
    division = division_of(
        "swiss-knockout", 8, rounds_planned=1, knockout_size=4, entry_mode="scoresheet", match_length=1
    )
    services.start_division(division, actor=as_director)
    for slot in Pairing.objects.filter(division=division, round__number=1):
        director_win(slot, Entry.objects.get(pk=slot.entry_a_id), as_director)
    services.pair_next_round(division, actor=as_director)
    gone, got = played_out_after(division, "main-1-0", as_director, committed)
    semi = pairing(division, "main-1-1")
    assert got[semi.winner.player.display_name] == "1"
    assert {got[name] for name in (*gone, loser_name(semi))} == {"2-4"}, got
    assert sorted(got.values())[-4:] == ["5-8"] * 4, got
