"""Playoffs for ties: ordered on a tie that matters (places paid differently, the knockout's cut, first place of a
round robin), played as real matches, settling the standings, the places, the payouts and the knockout's seeds;
the cut waits for an ordered playoff; an unplayed playoff can be cancelled; every refusal says why and writes
nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import games.services
from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Match
from tests.tournaments.services.support import play_out, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Playoff, Rating, Round, Season, Standing
from tournaments.selectors.common import payouts_of, standings_table
from tournaments.selectors.playoffs import division_playoffs, playoffs_of
from tournaments.selectors.points import division_results
from tournaments.selectors.seasons import season_rules
from tournaments.services.payouts import set_payouts
from tournaments.services.standings import swiss_standings

pytestmark = pytest.mark.django_db


def refresh(division: Division) -> Division:
    return Division.objects.select_related("event").get(pk=division.pk)


def seeds(division: Division, *numbers: int) -> list[int]:
    by_seed = dict(Entry.objects.filter(division=division).values_list("seed", "pk"))
    return [by_seed[n] for n in numbers]


def win(match: Match | None, winner_entry: int, director: Actor) -> None:
    """The director enters the match won by ``winner_entry``, then the follow-up runs (sync, standings)."""
    assert match is not None
    player = Entry.objects.get(pk=winner_entry).player_id
    side = 0 if match.player1_id == player else 1
    seq = Match.objects.get(pk=match.pk).seq
    while True:
        recorded = games.services.record_game_result(
            match.pk, actor=director, winner=side, kind=1, cube_value=1, expected_seq=seq
        )
        seq = recorded.match.seq
        if recorded.state.is_over:
            break
    division_id = Playoff.objects.filter(pk__in=_playoff_of(match)).values_list("division_id", flat=True)[0]
    services.sync_division(division_id)
    services.recompute_standings(division_id)


def _playoff_of(match: Match) -> list[int]:
    from django.db.models import Q

    return list(Playoff.objects.filter(Q(first_match=match) | Q(final_match=match)).values_list("pk", flat=True))


def ranks(division: Division) -> dict[int, int]:
    return {row.entry_id: row.rank for row in standings_table(refresh(division))}


# -- places that pay differently ------------------------------------------------------------------------------------


def swiss_with_a_paid_tie(
    division_of: Callable[..., Division], director: Actor, *, event: Event | None = None
) -> Division:
    """4 players, 2 rounds, no tie-breaks, the better seed wins: seed 1 on 2 wins, two on 1 (sharing 2-3), one on
    0; the table pays 60, 30, 10. ``event``: an event to add it to (else its own)."""
    division = division_of(
        "swiss", 4, event=event, rounds_planned=2, tiebreaks=[], entry_mode="scoresheet", match_length=1
    )
    set_payouts(division, actor=director, mode="amount", pool=None, ties="split", published=True,
                flights={"main": "60, 30, 10"})  # fmt: skip
    services.start_division(division, actor=director)
    play_out(division, director)
    services.recompute_standings(division.pk)
    return refresh(division)


def test_a_tie_over_places_paid_differently_is_settled_by_a_playoff(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    assert division.status == Division.Status.FINISHED
    (tie,) = division_playoffs(division).ties
    assert tie.tie.kind == "places" and tie.tie.place == 2 and tie.playoff is None
    a, b = tie.tie.players
    assert payouts_of(division, standings_table(division)).paid[a]["main"] == 2000  # split: (30 + 10) / 2

    playoff = services.order_playoff(division, actor=as_director, entries=[b, a], length=3)
    assert (playoff.kind, playoff.place, playoff.entries, playoff.status) == ("places", 2, [a, b], "ordered")
    match = playoff.final_match
    assert match is not None and playoff.first_match is None
    assert (match.length, match.source) == (3, f"{division.event.slug}/{division.slug}/playoff-{playoff.pk}-1")
    assert match.entry_tokens.filter(revoked_at__isnull=True).count() == 2  # the players enter it from phones
    assert division_playoffs(division).ties[0].playoff is not None

    win(match, b, as_director)  # the lower of the two wins it
    playoff.refresh_from_db()
    assert (playoff.status, playoff.order) == ("finished", [b, a])
    found = ranks(division)
    assert (found[b], found[a]) == (2, 3)
    paid = payouts_of(refresh(division), standings_table(refresh(division))).paid
    assert (paid[b]["main"], paid[a]["main"]) == (3000, 1000)
    assert division_playoffs(refresh(division)).ties == []
    (view,) = playoffs_of(refresh(division))
    names = dict(Entry.objects.filter(pk__in=[a, b]).values_list("pk", "player__display_name"))
    assert view.words == f"Tie at 2nd settled by a playoff: {names[b]} beat {names[a]} 3-0."


def test_a_correction_of_the_playoff_match_changes_the_order_again(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = division_playoffs(division).ties[0].tie.players
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b])
    win(playoff.final_match, a, as_director)
    assert (ranks(division)[a], ranks(division)[b]) == (2, 3)
    match = Match.objects.get(pk=playoff.final_match_id)
    games.services.replace_game_result(match.pk, actor=as_director, game_number=1, winner=1 - _side(match, a),
                              kind=1, cube_value=1, reason="wrong side entered")  # fmt: skip
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    playoff.refresh_from_db()
    assert playoff.order == [b, a]
    assert (ranks(division)[b], ranks(division)[a]) == (2, 3)


def _side(match: Match, entry_id: int) -> int:
    return 0 if Entry.objects.get(pk=entry_id).player_id == match.player1_id else 1


def test_refusals_say_why_and_write_nothing(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = division_playoffs(division).ties[0].tie.players
    top = seeds(division, 1)[0]
    before = snapshot()
    cases = [
        ({"entries": [a, top]}, ErrorCode.INVALID_INPUT, "are not the players of one tie that matters"),
        ({"entries": [a]}, ErrorCode.INVALID_INPUT, "are not the players of one tie that matters"),
        ({"entries": [a, b], "length": 0}, ErrorCode.INVALID_INPUT, "1 to 25 points, not 0"),
        ({"entries": [a, b], "length": 26}, ErrorCode.INVALID_INPUT, "1 to 25 points, not 26"),
    ]
    for kwargs, code, words in cases:
        with pytest.raises(ApplicationError, match=words) as refused:
            services.order_playoff(division, actor=as_director, **kwargs)  # type: ignore[arg-type]
        assert refused.value.code is code
    with pytest.raises(ApplicationError) as refused:
        services.order_playoff(division, actor=Actor(user=None), entries=[a, b])
    assert refused.value.code in (ErrorCode.FORBIDDEN, ErrorCode.NOT_AUTHENTICATED)
    assert snapshot() == before and not Playoff.objects.exists()

    services.order_playoff(division, actor=as_director, entries=[a, b])
    already = "the tie at 2nd place has a playoff already: cancel it first"
    with pytest.raises(ApplicationError, match=already) as refused:
        services.order_playoff(division, actor=as_director, entries=[a, b])
    assert refused.value.code is ErrorCode.CONFLICT and Playoff.objects.count() == 1


def test_an_unplayed_playoff_is_cancelled_with_its_match_a_started_one_is_not(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = division_playoffs(division).ties[0].tie.players
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b], length=3)
    match_id = playoff.final_match_id
    services.cancel_playoff(playoff.pk, actor=as_director)
    assert not Playoff.objects.exists() and not Match.objects.filter(pk=match_id).exists()

    playoff = services.order_playoff(division, actor=as_director, entries=[a, b], length=3)
    match = playoff.final_match
    assert match is not None
    games.services.record_game_result(
        match.pk, actor=as_director, winner=0, kind=1, cube_value=1, expected_seq=match.seq
    )
    played = r"the playoff for the tie at 2nd place has been played .*it cannot be cancelled"
    with pytest.raises(ApplicationError, match=played) as refused:
        services.cancel_playoff(playoff.pk, actor=as_director)
    assert refused.value.code is ErrorCode.CONFLICT and Playoff.objects.filter(pk=playoff.pk).exists()
    with pytest.raises(ApplicationError, match="there is no playoff 999999"):
        services.cancel_playoff(999999, actor=as_director)


# -- the knockout's cut ---------------------------------------------------------------------------------------------


def swiss_knockout_tied_at_the_cut(division_of: Callable[..., Division], director: Actor) -> Division:
    """8 players, 3 Swiss rounds, a top 4, no tie-breaks, side a wins: one on 3 wins, three on 2, three on 1, one
    on 0; a player on 2 withdraws, so the three on 1 straddle the cut (one of them goes through)."""
    division = division_of("swiss-knockout", 8, rounds_planned=3, knockout_size=4, tiebreaks=[],
                           entry_mode="scoresheet", match_length=1)  # fmt: skip
    services.start_division(division, actor=director)
    for number in (1, 2, 3):
        for p in Pairing.objects.filter(division=division, status="ready", match__isnull=False).order_by("id"):
            assert p.entry_a is not None
            from tests.tournaments.services.support import director_win

            director_win(p, p.entry_a, director)
        if number < 3:
            services.pair_next_round(division, actor=director)
    order = swiss_standings(division)
    on_two = [int(r.player) for r in order if r.score == 2]
    services.withdraw_entry(Entry.objects.get(pk=on_two[0]), actor=director, reason="flight home")
    services.recompute_standings(division.pk)
    return refresh(division)


def test_a_tie_at_the_cut_waits_for_its_three_player_playoff_which_seeds_the_knockout(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_knockout_tied_at_the_cut(division_of, as_director)
    (tie,) = division_playoffs(division).ties
    assert tie.tie.kind == "cut" and len(tie.tie.players) == 3
    top, middle, low = tie.tie.players
    playoff = services.order_playoff(division, actor=as_director, entries=list(tie.tie.players))
    assert playoff.first_match is not None and playoff.final_match is None
    first = playoff.first_match
    assert {first.player1_id, first.player2_id} == set(
        Entry.objects.filter(pk__in=[middle, low]).values_list("player_id", flat=True)
    )

    before = snapshot()
    with pytest.raises(ApplicationError, match=r"a playoff is ordered for the tie at the cut .* is not finished") as no:
        services.pair_next_round(division, actor=as_director)
    assert no.value.code is ErrorCode.CONFLICT and snapshot() == before
    assert not refresh(division).knockout_drawn

    win(first, low, as_director)  # the lowest wins the first match, then the final
    playoff.refresh_from_db()
    assert playoff.final_match is not None and playoff.status == "ordered"
    win(playoff.final_match, low, as_director)
    playoff.refresh_from_db()
    assert playoff.order == [low, top, middle]

    services.pair_next_round(division, actor=as_director)
    division = refresh(division)
    assert division.knockout_drawn and division.knockout_seeds[3] == low
    assert middle not in division.knockout_seeds and top not in division.knockout_seeds
    cut = Pairing.objects.filter(division=division, round__bracket=Round.Bracket.MAIN).exclude(reason="").get()
    assert cut.reason.endswith("goes through: a playoff settled the tie.")


def test_cancelling_the_cut_playoff_lets_the_knockout_be_drawn_by_seed(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_knockout_tied_at_the_cut(division_of, as_director)
    (tie,) = division_playoffs(division).ties
    playoff = services.order_playoff(division, actor=as_director, entries=list(tie.tie.players))
    services.cancel_playoff(playoff.pk, actor=as_director)
    services.pair_next_round(division, actor=as_director)
    assert refresh(division).knockout_seeds[3] == tie.tie.players[0]


# -- first place of a round robin -----------------------------------------------------------------------------------


def round_robin_cycle(division_of: Callable[..., Division], director: Actor) -> Division:
    """3 players, no tie-breaks, each beats one other: all three share first place."""
    division = division_of("round-robin", 3, tiebreaks=[], entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    beats = {frozenset((p1, p2)): p1, frozenset((p2, p3)): p2, frozenset((p1, p3)): p3}
    play_out(division, director, lambda p: Entry.objects.get(pk=beats[frozenset((p.entry_a_id, p.entry_b_id))]))
    services.recompute_standings(division.pk)
    return refresh(division)


def test_a_three_way_cycle_for_first_in_a_round_robin_is_settled_by_a_stepladder(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_robin_cycle(division_of, as_director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    assert division.status == Division.Status.FINISHED
    assert set(ranks(division).values()) == {1}
    (tie,) = division_playoffs(division).ties
    assert tie.tie.kind == "first" and tie.tie.players == (p1, p2, p3)
    playoff = services.order_playoff(division, actor=as_director, entries=[p3, p1, p2])
    win(playoff.first_match, p2, as_director)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, as_director)
    found = ranks(division)
    assert (found[p1], found[p2], found[p3]) == (1, 2, 3)
    rows = Standing.objects.filter(division=division).order_by("-after_round", "rank")
    assert rows.first().entry_id == p1  # type: ignore[union-attr]
    (view,) = playoffs_of(refresh(division))
    assert view.words.startswith("Tie at 1st settled by a playoff: ") and ", then " in view.words


# -- a playoff is a real match --------------------------------------------------------------------------------------


def test_a_playoff_match_counts_in_ratings_and_in_matches_won_like_any_match(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    club = services.create_rating_list(actor=as_director, name="Club list")
    division = swiss_with_a_paid_tie(division_of, as_director)
    Event.objects.filter(pk=division.event_id).update(rating_list=club)
    before = services.recompute_ratings(club.pk)
    a, b = division_playoffs(division).ties[0].tie.players
    wins_before = {
        t.entry_id: len(t.lengths) for t in division_results(Event.objects.filter(pk=division.event_id))[0].players
    }
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b], length=3)
    win(playoff.final_match, b, as_director)
    assert services.recompute_ratings(club.pk) == before + 1, "the playoff match is rated"
    player_b = Entry.objects.get(pk=b).player_id
    assert Rating.objects.get(rating_list=club, player_id=player_b).matches == 3  # two Swiss rounds and the playoff
    (found,) = division_results(Event.objects.filter(pk=division.event_id))
    wins = {t.entry_id: t.lengths for t in found.players}
    assert len(wins[b]) == wins_before[b] + 1 and wins[b].count(3) == 1, "its win counts, at its length"
    assert len(wins[a]) == wins_before[a]
    rules = season_rules(Season(system=Season.System.USBGF))
    assert "A playoff for a tie within a night is a real match: its matches won over the board count" in " ".join(rules)


# -- a stepladder's final follows its first match's winner ----------------------------------------------------------


def _first_won_by(playoff: Playoff, entry: int, director: Actor) -> None:
    """The director replaces the first match's (1-point) result: ``entry`` won it; the follow-up runs."""
    match = Match.objects.get(pk=playoff.first_match_id)
    games.services.replace_game_result(match.pk, actor=director, game_number=1, winner=_side(match, entry), kind=1,
                                       cube_value=1, reason="the other player won it")  # fmt: skip
    services.sync_division(playoff.division_id)
    services.recompute_standings(playoff.division_id)
    playoff.refresh_from_db()


def _first_won_by_the_lowest(
    division_of: Callable[..., Division], director: Actor
) -> tuple[Division, Playoff, tuple[int, int, int]]:
    """A round robin's 3-way cycle for first, its stepladder ordered, and its first match won by the lowest seed
    (the final, seed 1 against him, is made); the seeds' entries."""
    division = round_robin_cycle(division_of, director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    playoff = services.order_playoff(division, actor=director, entries=[p1, p2, p3])
    win(playoff.first_match, p3, director)
    playoff.refresh_from_db()
    return division, playoff, (p1, p2, p3)


def _players_of(match_id: int | None) -> set[int]:
    match = Match.objects.get(pk=match_id)
    return set(Entry.objects.filter(player_id__in=[match.player1_id, match.player2_id]).values_list("pk", flat=True))


def test_a_stepladders_final_not_started_is_made_again_for_the_corrected_first_match_winner(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, (p1, p2, p3) = _first_won_by_the_lowest(division_of, as_director)
    old = playoff.final_match_id
    assert _players_of(old) == {p1, p3}

    _first_won_by(playoff, p2, as_director)
    assert not Match.objects.filter(pk=old).exists(), "the unplayed final is deleted with its entry links"
    assert playoff.final_match_id != old and _players_of(playoff.final_match_id) == {p1, p2}
    assert Match.objects.get(pk=playoff.final_match_id).entry_tokens.filter(revoked_at__isnull=True).count() == 2
    assert (playoff.status, playoff.order) == ("ordered", [])

    games.services.reopen_match(playoff.first_match_id, actor=as_director, reason="played again", override=True)
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert playoff.final_match_id is None, "the first match is no longer won: no final yet"
    win(playoff.first_match, p2, as_director)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, as_director)
    playoff.refresh_from_db()
    assert (playoff.status, playoff.order) == ("finished", [p1, p2, p3])


def test_a_stepladders_finished_final_is_voided_when_the_first_match_is_corrected_and_played_again(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, (p1, p2, p3) = _first_won_by_the_lowest(division_of, as_director)
    win(playoff.final_match, p3, as_director)
    playoff.refresh_from_db()
    old = playoff.final_match_id
    assert (playoff.status, playoff.order) == ("finished", [p3, p1, p2])
    assert (ranks(division)[p3], ranks(division)[p1], ranks(division)[p2]) == (1, 2, 3)

    _first_won_by(playoff, p2, as_director)  # p3 lost the first match: the final he won was never his to play
    assert Match.objects.get(pk=old).status == Match.Status.VOID, "the played final is voided, its log kept"
    assert playoff.final_match_id != old and _players_of(playoff.final_match_id) == {p1, p2}
    assert Match.objects.get(pk=playoff.final_match_id).seq == 0
    assert (playoff.status, playoff.order) == ("ordered", []), "not settled by a final that was not the right one"
    assert set(ranks(division).values()) == {1}
    win(playoff.final_match, p2, as_director)
    playoff.refresh_from_db()
    assert (playoff.status, playoff.order) == ("finished", [p2, p1, p3])
