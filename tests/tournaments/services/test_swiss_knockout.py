"""A Swiss into a knockout: R Swiss rounds, then the top N (4, 8, 16, 32) of the Swiss standings in a single
elimination seeded by them; one division, one set of standings and places. Its settings are checked with the reason
for each refusal, the knockout is drawn as the next round once the last Swiss round is complete, the Swiss
steering works in the Swiss rounds and is refused in the knockout."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games import services as games
from tests.tournaments.services.support import director_win, open_pairings, play_out, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Round, Standing
from tournaments.services.standings import swiss_standings

pytestmark = pytest.mark.django_db


def knockout(division_of: Callable[..., Division], n: int, *, rounds: int, size: int, **more: Any) -> Division:
    return division_of(
        "swiss-knockout",
        n,
        rounds_planned=rounds,
        knockout_size=size,
        entry_mode="scoresheet",
        match_length=1,
        **more,
    )


def refresh(division: Division) -> Division:
    return Division.objects.get(pk=division.pk)


def play_swiss_round(division: Division, director: Actor, pick: Callable[[Pairing], Entry] | None = None) -> None:
    """Play every ready Swiss match (side a wins, unless ``pick`` names the winner)."""
    for p in open_pairings(division, Round.Bracket.SWISS):
        winner = pick(p) if pick else p.entry_a
        assert winner is not None
        director_win(p, Entry.objects.get(pk=winner.pk), director)


def swiss_done(division_of: Callable[..., Division], director: Actor, n: int, *, rounds: int, size: int) -> Division:
    """Started, every Swiss round played (side a wins), the knockout not drawn yet."""
    division = knockout(division_of, n, rounds=rounds, size=size)
    services.start_division(division, actor=director)
    for number in range(1, rounds + 1):
        play_swiss_round(division, director)
        if number < rounds:
            services.pair_next_round(division, actor=director)
    return refresh(division)


def first_round(division: Division) -> list[tuple[int | None, int | None]]:
    rows = Pairing.objects.filter(division=division, round__bracket="main", round__number=1).order_by("board")
    return list(rows.values_list("entry_a_id", "entry_b_id"))


# -- settings ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"rounds_planned": 3, "knockout_size": 6},
            "top 4, 8, 16, 32 players into the knockout (knockout_size), not 6",
        ),
        ({"rounds_planned": 3, "knockout_size": 0}, "(knockout_size), not 0"),
        ({"rounds_planned": 0, "knockout_size": 8}, "needs the number of Swiss rounds to play before its knockout"),
        ({"rounds_planned": 100, "knockout_size": 8}, "a Swiss plays at most 99 rounds, not 100"),
    ],
)
def test_bad_settings_are_refused_saying_what_is_wrong(
    as_director: Actor, values: dict[str, int], message: str
) -> None:
    event = services.create_event(actor=as_director, name="Open")
    before = snapshot()
    with pytest.raises(ApplicationError, match=message.replace("(", "\\(").replace(")", "\\)")) as refused:
        services.create_division(
            event,
            actor=as_director,
            settings=services.DivisionSettings(name="Open", format="swiss-knockout", **values),
        )
    assert refused.value.code is ErrorCode.INVALID_INPUT
    assert snapshot() == before


def test_a_knockout_size_is_refused_on_another_format(as_director: Actor) -> None:
    event = services.create_event(actor=as_director, name="Open")
    settings = services.DivisionSettings(name="Open", format="swiss", rounds_planned=3, knockout_size=8)
    with pytest.raises(ApplicationError, match="knockout_size is a setting of the Swiss into a knockout"):
        services.create_division(event, actor=as_director, settings=settings)


def test_a_knockout_larger_than_the_field_is_refused_at_the_start(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = knockout(division_of, 6, rounds=3, size=8)
    before = snapshot()
    with pytest.raises(ApplicationError, match="sends its top 8 players into the knockout, and it has 6") as refused:
        services.start_division(division, actor=as_director)
    assert "make the knockout smaller (4)" in refused.value.message and "Nothing was started" in refused.value.message
    assert refused.value.code is ErrorCode.CONFLICT
    assert snapshot() == before


def test_too_few_swiss_rounds_for_the_cut_are_refused_at_the_start(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = knockout(division_of, 40, rounds=2, size=4)
    with pytest.raises(ApplicationError, match="40 players need at least 4 Swiss rounds before a top-4 knockout"):
        services.start_division(division, actor=as_director)
    assert refresh(division).status == Division.Status.REGISTRATION
    Division.objects.filter(pk=division.pk).update(rounds_planned=4)
    assert services.start_division(refresh(division), actor=as_director).status == Division.Status.RUNNING


# -- the draw of the knockout --------------------------------------------------------------------------------------


def test_the_knockout_takes_the_top_of_the_swiss_standings_seeded_by_them(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 12, rounds=3, size=8)
    assert division.phase == "swiss" and not Round.objects.filter(division=division, bracket="main").exists()
    assert division.status == Division.Status.RUNNING, "not over before its knockout"
    order = [int(row.player) for row in swiss_standings(division)]
    first = services.pair_next_round(division, actor=as_director)  # the director's "Draw the knockout"
    assert (first.bracket, first.number) == ("main", 1)
    division = refresh(division)
    assert division.phase == "knockout" and division.knockout_seeds == order[:8]
    seed = {pk: n for n, pk in enumerate(division.knockout_seeds, start=1)}
    pairs = {frozenset((seed[a], seed[b])) for a, b in first_round(division) if a is not None and b is not None}
    assert pairs == {frozenset((1, 8)), frozenset((2, 7)), frozenset((3, 6)), frozenset((4, 5))}
    top = Pairing.objects.get(division=division, key="main-1-0")
    assert top.source_a.startswith("seed 1: 1st in the Swiss standings, 3 wins")
    assert len(open_pairings(division, "main")) == 4, "the knockout's first round is ready to play"


def test_the_division_plays_out_to_one_table_of_places(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 12, rounds=3, size=8)
    services.pair_next_round(division, actor=as_director)
    order = [int(row.player) for row in swiss_standings(division)]
    division = play_out(refresh(division), as_director)
    assert division.status == Division.Status.FINISHED
    services.recompute_standings(division.pk)
    tables = sorted(set(Standing.objects.filter(division=division).values_list("after_round", flat=True)))
    assert tables == [1, 2, 3, 4], "a table after each Swiss round, then the one with the knockout"
    final = list(Standing.objects.filter(division=division, after_round=4).order_by("rank", "entry__seed"))
    places = {row.entry_id: row.places["main"] for row in final}
    assert sorted(places.values(), key=lambda p: int(p.split("-")[0])) == (
        ["1", "2", "3-4", "3-4"] + ["5-8"] * 4 + ["9", "10", "11", "12"]
    )
    assert [places[pk] for pk in order[8:]] == ["9", "10", "11", "12"], "the rest by their Swiss standing"
    assert [row.rank for row in final] == [1, 2, 3, 3, 5, 5, 5, 5, 9, 10, 11, 12]
    assert set(final[0].tiebreaks) == {"buchholz", "sonneborn-berger", "points-diff"}, "the Swiss tie-breaks"
    champion = Pairing.objects.get(division=division, key="main-3-0").winner_id
    assert final[0].entry_id == champion and places[champion] == "1"
    swiss_wins = Pairing.objects.filter(division=division, round__bracket="swiss", winner_id=champion).count()
    assert final[0].wins == swiss_wins + 3, "every match won, the Swiss's and the knockout's three"


def test_with_auto_pair_the_knockout_is_drawn_by_itself(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = knockout(division_of, 8, rounds=2, size=4, auto_pair=True)
    services.start_division(division, actor=as_director)
    play_swiss_round(division, as_director)
    assert Round.objects.filter(division=division, bracket="swiss").count() == 2, "round 2 paired by itself"
    play_swiss_round(division, as_director)
    division = refresh(division)
    assert division.phase == "knockout" and len(division.knockout_seeds) == 4
    assert len(open_pairings(division, "main")) == 2


def test_a_field_the_size_of_the_knockout_goes_into_it_whole(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 8, rounds=1, size=8)
    services.pair_next_round(division, actor=as_director)
    division = refresh(division)
    assert sorted(division.knockout_seeds) == sorted(
        Entry.objects.filter(division=division).values_list("pk", flat=True)
    )
    division = play_out(division, as_director)
    assert division.status == Division.Status.FINISHED


def test_an_odd_field_with_byes_reaches_its_knockout(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = swiss_done(division_of, as_director, 9, rounds=3, size=8)
    byes = Pairing.objects.filter(division=division, round__bracket="swiss", status=Pairing.Status.BYE)
    assert byes.count() == 3, "one bye a round"
    services.pair_next_round(division, actor=as_director)
    division = refresh(division)
    assert len(division.knockout_seeds) == 8
    assert not Pairing.objects.filter(division=division, round__bracket="main", status=Pairing.Status.BYE).exists()
    assert play_out(division, as_director).status == Division.Status.FINISHED


def test_a_player_who_withdrew_is_not_taken_the_next_one_is(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 8, rounds=2, size=4)
    order = [int(row.player) for row in swiss_standings(division)]
    services.withdraw_entry(Entry.objects.get(pk=order[0]), actor=as_director, reason="flight home")
    services.pair_next_round(division, actor=as_director)
    assert refresh(division).knockout_seeds == order[1:5]


def test_a_tie_at_the_cut_is_broken_by_the_tie_breaks_and_said(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    # 8 players, 2 rounds, side a wins: two players on 2 wins, four on 1, two on 0. A top 4 takes the two on 2 and
    # two of the four on 1: the cut falls inside a score group.
    division = swiss_done(division_of, as_director, 8, rounds=2, size=4)
    order = swiss_standings(division)
    assert order[3].score == order[4].score == 1
    services.pair_next_round(division, actor=as_director)
    division = refresh(division)
    assert division.knockout_seeds == [int(row.player) for row in order[:4]]
    names = dict(Entry.objects.filter(division=division).values_list("pk", "player__display_name"))
    (cut,) = Pairing.objects.filter(division=division, round__number=1, round__bracket="main").exclude(reason="")
    last, first_out = names[int(order[3].player)], names[int(order[4].player)]
    assert cut.reason.startswith(f"The cut: {last} and {first_out} both have 1 win; {last} goes through")
    assert cut.entry_b_id == int(order[3].player) or cut.entry_a_id == int(order[3].player)


def test_the_knockout_waits_for_the_last_swiss_results(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = knockout(division_of, 8, rounds=1, size=4)
    services.start_division(division, actor=as_director)
    with pytest.raises(ApplicationError, match="round 1 is not complete: a result is still to come or to be confirmed"):
        services.pair_next_round(division, actor=as_director)
    assert refresh(division).phase == "swiss"


# -- steering ------------------------------------------------------------------------------------------------------


def test_the_swiss_is_steered_in_its_swiss_rounds(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = knockout(division_of, 8, rounds=4, size=4)
    services.start_division(division, actor=as_director)
    play_swiss_round(division, as_director)
    services.pair_next_round(division, actor=as_director)
    assert services.unpair_round(division, actor=as_director) == 2
    services.pair_next_round(division, actor=as_director)
    assert services.repair_round(division, actor=as_director).number == 2
    assert services.set_swiss_rounds(division, actor=as_director, rounds=3).rounds_planned == 3
    play_swiss_round(division, as_director)
    ended = services.end_swiss(division, actor=as_director)  # round 2 complete: on to the knockout at once
    assert ended.rounds_planned == 2 and ended.phase == "knockout" and ended.status == Division.Status.RUNNING
    assert len(open_pairings(division, "main")) == 2


def test_ending_the_swiss_takes_back_an_unstarted_round_then_draws_the_knockout(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 8, rounds=2, size=4)
    services.set_swiss_rounds(division, actor=as_director, rounds=3)
    services.pair_next_round(division, actor=as_director)
    ended = services.end_swiss(division, actor=as_director)
    assert ended.rounds_planned == 2 and ended.phase == "knockout"
    assert not Round.objects.filter(division=division, bracket="swiss", number=3).exists()


@pytest.mark.parametrize(
    "steer",
    [
        lambda d, a: services.end_swiss(d, actor=a),
        lambda d, a: services.set_swiss_rounds(d, actor=a, rounds=5),
        lambda d, a: services.unpair_round(d, actor=a),
        lambda d, a: services.repair_round(d, actor=a),
        lambda d, a: services.pair_next_round(d, actor=a),
    ],
    ids=["end", "rounds", "unpair", "repair", "pair-next"],
)
def test_the_swiss_steering_is_refused_in_the_knockout(
    division_of: Callable[..., Division], as_director: Actor, steer: Callable[[Division, Actor], Any]
) -> None:
    division = swiss_done(division_of, as_director, 8, rounds=2, size=4)
    services.pair_next_round(division, actor=as_director)
    before = snapshot()
    with pytest.raises(ApplicationError, match="its knockout is drawn: the Swiss can no longer be ended") as refused:
        steer(division, as_director)
    assert refused.value.code is ErrorCode.CONFLICT
    assert snapshot() == before


def test_a_swiss_correction_under_a_started_knockout_needs_the_override(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 8, rounds=2, size=4)
    services.pair_next_round(division, actor=as_director)
    started = open_pairings(division, "main")[0]
    director_win(started, Entry.objects.get(pk=started.entry_a_id), as_director)
    swiss = Pairing.objects.filter(division=division, round__bracket="swiss", round__number=1).first()
    assert swiss is not None and swiss.match_id is not None
    with pytest.raises(ApplicationError, match="the knockout drawn from the Swiss standings stands as it was drawn"):
        games.replace_game_result(
            swiss.match_id, actor=as_director, game_number=1, winner=1, kind=1, cube_value=1, reason="misread"
        )
    seeds = refresh(division).knockout_seeds
    games.replace_game_result(
        swiss.match_id,
        actor=as_director,
        game_number=1,
        winner=1,
        kind=1,
        cube_value=1,
        reason="misread",
        override=True,
    )
    services.sync_division(division.pk)
    assert refresh(division).knockout_seeds == seeds, "the knockout stands as drawn"
    assert Pairing.objects.get(pk=started.pk).status == Pairing.Status.FINISHED


def test_two_knockout_players_swap_their_seeds(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = swiss_done(division_of, as_director, 8, rounds=2, size=4)
    services.pair_next_round(division, actor=as_director)
    seeds = refresh(division).knockout_seeds
    first, second = (Entry.objects.get(pk=pk) for pk in (seeds[0], seeds[1]))
    services.swap_players(division, actor=as_director, first=first, second=second, reason="seeding error")
    division = refresh(division)
    assert division.knockout_seeds == [seeds[1], seeds[0], *seeds[2:]]
    top = Pairing.objects.get(division=division, key="main-1-0")
    assert top.entry_a_id == seeds[1] and "seeds 1 and 2 swapped: seeding error" in top.swapped_reason


def test_while_the_knockout_is_played_its_losers_share_the_places_of_their_round(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_done(division_of, as_director, 12, rounds=3, size=8)
    services.pair_next_round(division, actor=as_director)
    for p in open_pairings(division, "main"):
        director_win(p, Entry.objects.get(pk=p.entry_a_id), as_director)
    services.recompute_standings(division.pk)
    table = Standing.objects.filter(division=division, after_round=4)
    places = {row.entry_id: row.places.get("main") for row in table}
    seeds = refresh(division).knockout_seeds
    still_in = [pk for pk in seeds if places[pk] is None]
    assert len(still_in) == 4, "the quarter-finals' winners are still in: no place yet"
    assert sorted(places[pk] for pk in seeds if pk not in still_in) == ["5-8"] * 4
    assert sorted(places[pk] for pk in places if pk not in seeds) == ["10", "11", "12", "9"]
    assert {row.rank for row in table if row.entry_id in still_in} == {1}, "ranked ahead of everyone out"


def test_drawing_the_knockout_by_hand_has_the_standings_with_the_knockout_computed(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable
) -> None:
    division = swiss_done(division_of, as_director, 12, rounds=3, size=8)
    services.recompute_standings(division.pk)
    with committed():  # the follow-up runs after the commit, as a worker runs it
        services.pair_next_round(division, actor=as_director)  # the director's "Draw the knockout"
    tables = sorted(set(Standing.objects.filter(division=division).values_list("after_round", flat=True)))
    assert tables == [1, 2, 3, 4], "the table with the knockout, before any of its results"
    rows = list(Standing.objects.filter(division=division, after_round=4).order_by("rank", "entry__seed"))
    seeds = set(refresh(division).knockout_seeds)
    assert [row.rank for row in rows[:8]] == [1] * 8 and {row.entry_id for row in rows[:8]} == seeds, "all still in"
    assert [row.places.get("main") for row in rows[8:]] == ["9", "10", "11", "12"]
