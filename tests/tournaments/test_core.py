"""The division's core (tournaments/core.py): the one rule for a pairing's state that the public pages and the
directors' pages both show, which results count, round lengths and the order of play. Plain model instances, no
database: the rules read only the values."""

from __future__ import annotations

import pytest

from games.models import Match
from tournaments import core
from tournaments.core import (
    PairingState,
    counts,
    is_open,
    pairing_state,
    play_order,
    result_counts,
    round_length,
)
from tournaments.models import Division, Pairing, Round
from tournaments.pages import board_of
from tournaments.selectors.director import director_board

Status, Confirmation, MatchStatus = Pairing.Status, Pairing.Confirmation, Match.Status


def pairing(status: str, confirmation: str = Confirmation.NOT_NEEDED, match: Match | None = None) -> Pairing:
    found = Pairing(status=status, confirmation=confirmation, key="main-1-1", board=1, length=5)
    found.match = match
    return found


def match(status: str, seq: int = 0) -> Match:
    return Match(status=status, seq=seq, length=5)


# (pairing, state; the public pages' state, the same but with a match over shown as finished)
CASES = [
    (pairing(Status.WAITING), PairingState.WAITING),
    (pairing(Status.BYE), PairingState.BYE),
    (pairing(Status.EMPTY), PairingState.EMPTY),
    (pairing(Status.SKIPPED), PairingState.SKIPPED),
    (pairing(Status.READY), PairingState.READY),
    (pairing(Status.READY, match=match(MatchStatus.SCHEDULED)), PairingState.READY),
    (pairing(Status.READY, match=match(MatchStatus.IN_PROGRESS, seq=3)), PairingState.PLAYING),
    # Every entry undone (a no-show forfeit undone): not started, ready again, 0-0 (issue 22, item 12).
    (pairing(Status.READY, match=match(MatchStatus.SCHEDULED, seq=2)), PairingState.READY),
    (pairing(Status.PLAYING, match=match(MatchStatus.SCHEDULED)), PairingState.PLAYING),
    (pairing(Status.PLAYING, match=match(MatchStatus.FINISHED, seq=40)), PairingState.FINISHING),
    (pairing(Status.READY, match=match(MatchStatus.FORFEITED, seq=1)), PairingState.FINISHING),
    (pairing(Status.READY, match=match(MatchStatus.VOID, seq=5)), PairingState.READY),  # played again, anew
    (pairing(Status.FINISHED, match=match(MatchStatus.FINISHED, seq=40)), PairingState.FINISHED),
    (pairing(Status.FINISHED, Confirmation.CONFIRMED, match(MatchStatus.FINISHED, 9)), PairingState.FINISHED),
    (pairing(Status.FINISHED, Confirmation.AWAITING, match(MatchStatus.FINISHED, 9)), PairingState.AWAITING),
    (pairing(Status.FINISHED, Confirmation.DISPUTED, match(MatchStatus.FINISHED, 9)), PairingState.DISPUTED),
]


@pytest.mark.parametrize(("found", "state"), CASES)
def test_one_rule_gives_the_state_of_a_pairing(found: Pairing, state: PairingState) -> None:
    assert pairing_state(found) is state


@pytest.mark.parametrize(("found", "state"), CASES)
def test_the_directors_and_the_spectators_boards_follow_the_same_rule(found: Pairing, state: PairingState) -> None:
    assert director_board(found).state is state
    # Spectators see a match that is over as finished; its confirmation is said beside it.
    shown = Status.FINISHED if state.is_over else state.value
    assert board_of(found).state == shown


def test_a_result_counts_once_final_and_confirmed_where_needed_and_a_bye_counts_as_a_win() -> None:
    assert result_counts(Status.BYE, 7, Confirmation.NOT_NEEDED)
    assert not result_counts(Status.BYE, None, Confirmation.NOT_NEEDED)
    assert result_counts(Status.FINISHED, 7, Confirmation.NOT_NEEDED)
    assert result_counts(Status.FINISHED, 7, Confirmation.CONFIRMED)
    assert not result_counts(Status.FINISHED, 7, Confirmation.AWAITING)
    assert not result_counts(Status.FINISHED, 7, Confirmation.DISPUTED)
    assert not result_counts(Status.PLAYING, None, Confirmation.NOT_NEEDED)
    finished = pairing(Status.FINISHED, Confirmation.AWAITING)
    finished.winner_id = 7
    assert not counts(finished) and is_open(finished)
    finished.confirmation = Confirmation.CONFIRMED
    assert counts(finished) and not is_open(finished)


def test_a_rounds_length_takes_the_most_specific_rule() -> None:
    division = Division(match_length=7, round_lengths={"main": 9, "main:final": 13, "main:2": 11, "consolation": 5})
    assert round_length(division, "main", 1) == 9
    assert round_length(division, "main", 2) == 11
    assert round_length(division, "main", 2, final=True) == 11  # bracket:N before bracket:final
    assert round_length(division, "main", 3, final=True) == 13
    assert round_length(division, "consolation", 3, final=True) == 5
    assert round_length(division, "swiss", 1) == 7


def test_rounds_are_played_by_number_then_main_consolation_last_chance() -> None:
    rounds = [Round(bracket=b, number=n) for b, n in (("last-chance", 1), ("main", 2), ("consolation", 1), ("main", 1))]
    assert [(r.bracket, r.number) for r in sorted(rounds, key=play_order)] == [
        ("main", 1),
        ("consolation", 1),
        ("last-chance", 1),
        ("main", 2),
    ]


@pytest.mark.parametrize("players", [2, 3, 45, 46, 60, 500])
def test_a_round_robins_lead_is_the_same_from_its_rounds_single_or_double(players: int) -> None:
    places = players + players % 2  # an odd field's bye takes a place
    rounds = places - 1
    assert core.round_robin_lead(rounds, double=False) == core.round_robin_ahead(places)
    assert core.round_robin_lead(2 * rounds, double=True) == core.round_robin_ahead(places)
