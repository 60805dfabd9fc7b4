"""Double elimination through the services: every main-round loser drops into the losers' bracket; the grand final
meets the two bracket winners; the reset is played only when the losers' bracket winner takes the grand final (and
never when the division has no reset): everyone but the champion is out after two losses, except the grand final's
loser when there is no reset."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from common.actor import Actor
from games.models import Match
from tests.tournaments.services.support import pairing, play_out
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Standing

pytestmark = pytest.mark.django_db


def run(
    division_of: Callable[..., Division], director: Actor, *, reset: bool, underdog_wins_grand_final: bool
) -> Division:
    division = division_of("double-elimination", 4, entry_mode="scoresheet", match_length=1, grand_final_reset=reset)
    services.start_division(division, actor=director)

    def pick(p: Pairing) -> Entry:
        a, b = Entry.objects.get(pk=p.entry_a_id), Entry.objects.get(pk=p.entry_b_id)
        if p.key == "main-3-0" and underdog_wins_grand_final:  # the grand final: side b is the losers' bracket
            return b
        if p.key == "main-4-0":  # the reset: the main-bracket champion (side a, beaten once) wins it back
            return a
        return min((a, b), key=lambda e: e.seed)

    play_out(division, director, pick)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    services.recompute_standings(division.pk)
    return division


def losses(division: Division) -> Counter[str]:
    lost: Counter[str] = Counter()
    for p in Pairing.objects.filter(division=division, status=Pairing.Status.FINISHED, entry_b__isnull=False):
        loser = p.entry_b if p.winner_id == p.entry_a_id else p.entry_a
        lost[loser.player.display_name] += 1
    return lost


def champion(division: Division) -> str:
    return Standing.objects.get(division=division, rank=1).entry.player.display_name


def test_the_reset_is_skipped_when_the_unbeaten_player_wins_the_grand_final(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = run(division_of, as_director, reset=True, underdog_wins_grand_final=False)
    reset = pairing(division, "main-4-0")
    assert (reset.status, reset.match_id, reset.conditional) == (Pairing.Status.SKIPPED, None, True)
    assert champion(division) == "P01"
    assert losses(division) == {"P02": 2, "P03": 2, "P04": 2}


def test_the_reset_is_played_when_the_losers_bracket_winner_takes_the_grand_final(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = run(division_of, as_director, reset=True, underdog_wins_grand_final=True)
    grand, reset = pairing(division, "main-3-0"), pairing(division, "main-4-0")
    assert grand.winner_id == grand.entry_b_id
    assert (reset.entry_a_id, reset.entry_b_id) == (grand.entry_a_id, grand.entry_b_id)
    assert reset.status == Pairing.Status.FINISHED and reset.match.status == Match.Status.FINISHED
    assert champion(division) == "P01"
    assert losses(division) == {"P01": 1, "P02": 2, "P03": 2, "P04": 2}


def test_without_a_reset_the_grand_final_decides(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = run(division_of, as_director, reset=False, underdog_wins_grand_final=True)
    assert not Pairing.objects.filter(division=division, key="main-4-0").exists()
    grand = pairing(division, "main-3-0")
    winner = grand.entry_b.player.display_name
    assert champion(division) == winner != "P01"
    assert losses(division)["P01"] == 1, "the grand final's loser is out after one loss"
    assert all(n == 2 for name, n in losses(division).items() if name not in ("P01", winner))
