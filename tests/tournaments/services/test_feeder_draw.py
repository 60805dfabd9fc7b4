"""A consolation and a last chance are drawn round by round, once each round's players are known
(tournaments/pairing/feeder.py through tournaments/pairing/brackets.py's ``drawn`` plans): a bye only where an odd
count forces one, and a slot the draw does not need is "not needed" instead of a bye nobody needed."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import games.services
from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tests.tournaments.services.support import director_win, open_pairings, pairing, play_out
from tournaments import services
from tournaments.core import plan_of, resolve_division
from tournaments.models import Division, Entry, Pairing
from tournaments.pages import board_of
from tournaments.pairing import brackets

pytestmark = pytest.mark.django_db


def scoresheet(division_of: Callable[..., Division], fmt: str, n: int, **settings: object) -> Division:
    return division_of(fmt, n, entry_mode="scoresheet", match_length=1, **settings)


def slots(division: Division, bracket: str) -> dict[str, Pairing]:
    rows = Pairing.objects.filter(division=division, round__bracket=bracket)
    return {p.key: p for p in rows.select_related("entry_a", "entry_b")}


def played(division: Division, bracket: str) -> list[tuple[str, int | None, int | None]]:
    """The matches played in a bracket, as (key, seed a, seed b)."""
    return sorted(
        (p.key, p.entry_a.seed, p.entry_b.seed)
        for p in slots(division, bracket).values()
        if p.status == Pairing.Status.FINISHED and p.entry_a and p.entry_b
    )


def test_seven_players_consolation_has_one_bye_and_its_final_in_round_2(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Seeds 5, 6 and 7 lose in main round 1 (seed 1 has its bye), and no main round-2 loser had lost his first
    match: the consolation is three players, one bye (seed 5) and its final in round 2. The plan drawn at the start
    also gave seed 5 a second bye in round 3, for a round-2 loser who could never come."""
    division = services.start_division(scoresheet(division_of, "main-consolation", 7), actor=as_director)
    play_out(division, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    consolation = slots(division, "consolation")
    assert played(division, "consolation") == [("consolation-1-0", 6, 7), ("consolation-2-0", 5, 6)]
    assert [k for k, p in consolation.items() if p.status == Pairing.Status.BYE] == [], "no bye slot"
    assert {p.status for k, p in consolation.items() if k.startswith("consolation-3-")} <= {Pairing.Status.EMPTY}
    states = resolve_division(division)
    assert (
        brackets.champion(plan_of(division), states, "consolation") == Entry.objects.get(division=division, seed=5).pk
    )
    empty = next(p for k, p in consolation.items() if k.startswith("consolation-3-"))
    assert board_of(Pairing.objects.select_related("match").get(pk=empty.pk)).state_words == "not needed"


def test_twelve_players_last_chance_is_drawn_when_its_players_are_known(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Twelve players: seeds 9-12 lose in main round 1 and play the consolation (9 v 12, 10 v 11, final 9 v 10 in
    round 2); 11 and 12 lost their first consolation match and meet in the last chance's final at once. The plans
    drawn at the start gave seeds 9 and 10 two byes each before a consolation final in round 4, and the last
    chance's champion three byes after it was decided."""
    division = services.start_division(scoresheet(division_of, "main-consolation-lastchance", 12), actor=as_director)
    play_out(division, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    assert played(division, "consolation") == [
        ("consolation-1-0", 9, 12),
        ("consolation-1-1", 10, 11),
        ("consolation-2-0", 9, 10),
    ]
    assert played(division, "last-chance") == [("last-chance-1-0", 11, 12)]
    for bracket in ("consolation", "last-chance"):
        assert [k for k, p in slots(division, bracket).items() if p.status == Pairing.Status.BYE] == []
    states = resolve_division(division)
    assert (
        brackets.champion(plan_of(division), states, "last-chance") == Entry.objects.get(division=division, seed=11).pk
    )


def test_a_player_who_withdraws_after_losing_in_main_round_1_is_not_drawn_in_the_consolation(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """A player loses in main round 1 and goes home while the other round-1 matches are played: consolation round
    1 is drawn without him, the two other round-1 losers meet at once in its final; no slot holds him, so nothing
    is forfeited and nobody has a bye for him."""
    division = services.start_division(scoresheet(division_of, "main-consolation", 7), actor=as_director)
    ready = Pairing.objects.filter(division=division, round__bracket="main", round__number=1, status="ready")
    first = pairing(division, ready.order_by("board")[0].key)
    loser = Entry.objects.get(pk=first.entry_b_id)
    winner = Entry.objects.get(pk=first.entry_a_id)
    director_win(first, winner, as_director)
    with committed():
        services.withdraw_entry(loser, actor=as_director, reason="went home")
    play_out(division, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    consolation = slots(division, "consolation")
    assert not [p for p in consolation.values() if loser.pk in (p.entry_a_id, p.entry_b_id)]
    assert [k for k, p in consolation.items() if p.status == Pairing.Status.BYE] == []
    assert len(played(division, "consolation")) == 1, "one match: the final of the two who stayed"


def test_a_corrected_main_result_redraws_the_consolation_round_it_feeds(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    """Consolation round 1 is drawn from the four main round-1 losers. A correction of one of those results is
    refused while a match of that round has started (the round is drawn from every one of them), even the match of
    players the correction does not move; with the director's override it goes through: the round is drawn again
    with the new loser, and the match of the slot whose players changed is replaced."""
    division = services.start_division(
        division_of("main-consolation", 8, entry_mode="scoresheet", match_length=3), actor=as_director
    )
    for p in Pairing.objects.filter(division=division, round__bracket="main", round__number=1):
        p = pairing(division, p.key)
        with committed():
            games.services.record_game_result(
                p.match_id, actor=as_director, winner=0, kind=1, cube_value=4, expected_seq=0
            )
    before = {p.key: (p.entry_a.seed, p.entry_b.seed) for p in slots(division, "consolation").values() if p.entry_a}
    assert sorted(before.values()) == [(5, 8), (6, 7)]
    main_1 = Pairing.objects.filter(division=division, round__bracket="main", round__number=1)
    corrected = next(p for p in main_1 if p.entry_b.seed == 5)
    corrected = pairing(division, corrected.key)
    other = pairing(division, next(key for key, seeds in before.items() if seeds == (6, 7)))
    with committed():
        games.services.record_game_result(other.match_id, actor=as_director, winner=0, kind=1, expected_seq=0)
    flipped = {"game_number": 1, "winner": 1, "kind": 1, "cube_value": 4, "reason": "misread"}
    with pytest.raises(ApplicationError) as refused:
        games.services.replace_game_result(corrected.match_id, actor=as_director, **flipped)
    assert refused.value.code == ErrorCode.CONFLICT
    with committed():
        games.services.replace_game_result(corrected.match_id, actor=as_director, override=True, **flipped)
    after = {p.key: (p.entry_a.seed, p.entry_b.seed) for p in slots(division, "consolation").values() if p.entry_a}
    assert sorted(after.values()) == [(4, 8), (6, 7)], "seed 4 lost main round 1 instead of seed 5"
    moved = next(key for key, seeds in after.items() if seeds == (4, 8))
    assert pairing(division, moved).match is not None and pairing(division, moved).match.status != "void"


@pytest.mark.parametrize(
    "fmt", ["main-consolation", "progressive-consolation", "main-consolation-lastchance", "double-elimination"]
)
def test_a_player_bound_for_a_round_not_drawn_yet_is_never_marked_eliminated(
    division_of: Callable[..., Division], as_director: Actor, fmt: str
) -> None:
    """Results entered one at a time: a first loss in the main draw while its round is played (the consolation's
    round is drawn once all its players are known), or in the consolation while its round is played (the last
    chance's), marked the player eliminated until the draw put him back in play. Nobody marked eliminated plays
    again, and the players out at the end are marked so."""
    division = services.start_division(scoresheet(division_of, fmt, 12), actor=as_director)
    out: set[int] = set()
    ever: set[int] = set()  # every player marked eliminated at some point
    for _ in range(100):
        todo = sorted(open_pairings(division), key=lambda p: p.key)
        if not todo:
            break
        first = todo[0]
        assert not {first.entry_a_id, first.entry_b_id} & ever, f"{first.key} is played by a player marked out"
        a, b = Entry.objects.get(pk=first.entry_a_id), Entry.objects.get(pk=first.entry_b_id)
        director_win(first, min((a, b), key=lambda e: e.seed or 99), as_director)
        out = set(division.entries.filter(status=Entry.Status.ELIMINATED).values_list("pk", flat=True))
        ever |= out
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    champions = {"main-consolation-lastchance": 3}.get(fmt, 2)  # double elimination: its two brackets'
    assert len(out) == 12 - champions, "only the champions of the brackets are not out"
