"""``manage.py master_points EVENT_SLUG --system usbgf --json`` (contract H), end to end: events played through the
services, the command's JSON compared with the USBGF formula computed here, independently of tournaments/points.py,
from what the test itself knows of the event (who won which match, over the board or not, and who placed where).

The knockouts are played to 3 points, their final to 5, the better seed always winning (so the places are known
from the seeds: 1, 2, 3-4, 5-8, ...). A bye is an advance, not a match won; a forfeit is a match won, not over the
board: neither earns match-win points.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command, execute_from_command_line

from common.actor import Actor
from tests.tournaments.services.support import director_win, named, open_pairings, played_main_consolation
from tournaments import services
from tournaments.models import Division, Entry, Pairing

pytestmark = pytest.mark.django_db


def usbgf(lengths: list[int], place: tuple[int, int] | None, players: int, *, paid: int = 4, weight: float = 1.0):
    """The USBGF 2019 formula as the issue states it, written out again: sqrt(L)/3 per match won; 0.6 x log2(N) x
    the mean of the rank factors (1, 0.7, then 1/(R-1), 0 past the places paid) of the places shared."""
    wins = sum(weight * math.sqrt(n) / 3 for n in lengths)
    placed = 0.0
    if place is not None:
        factors = []
        for rank in range(place[0], place[1] + 1):
            factors.append(0.0 if rank > paid else {1: 1.0, 2: 0.7}.get(rank, 1 / (rank - 1) if rank > 2 else 0.0))
        placed = weight * 0.6 * math.log2(players) * sum(factors) / len(factors)
    return {"match_wins": len(lengths), "match_win_points": wins, "placement_points": placed, "total": wins + placed}


def run(slug: str, *more: str) -> dict[str, Any]:
    out = StringIO()
    call_command("master_points", slug, "--system", "usbgf", "--json", *more, stdout=out)
    return json.loads(out.getvalue())


def by_name(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    players = {p["name"]: p for p in report["players"]}
    assert len(players) == len(report["players"]), "one row per player"
    return players


def assert_matches(report: dict[str, Any], expected: dict[str, tuple[list[int], tuple[int, int] | None]], **kw: Any):
    got = by_name(report)
    assert set(got) == set(expected)
    players = len(expected)
    for name, (lengths, place) in expected.items():
        want = usbgf(lengths, place, players, **kw)
        row = got[name]
        assert row["match_wins"] == want["match_wins"], name
        for key in ("match_win_points", "placement_points", "total"):
            assert isinstance(row[key], float), (name, key)
            assert row[key] == pytest.approx(want[key], abs=1e-9), (name, key)
        assert row["place"] == (place[0] if place else None), name
        assert row["places"] == (None if place is None else "-".join(dict.fromkeys(map(str, place)))), name


def knockout(division_of: Callable[..., Division], players: int, **more: Any) -> Division:
    return division_of(
        "single", players, entry_mode="scoresheet", match_length=3, round_lengths={"main:final": 5}, **more
    )


def play(division: Division, director: Actor, *, forfeits: tuple[str, ...] = ()) -> Division:
    """Play every match, the better seed winning; a player named in ``forfeits`` does not show up (his opponent
    is awarded the match)."""
    services.start_division(division, actor=director)
    while todo := open_pairings(division):
        for p in todo:
            a, b = Entry.objects.select_related("player").get(pk=p.entry_a_id), Entry.objects.get(pk=p.entry_b_id)
            b = Entry.objects.select_related("player").get(pk=b.pk)
            absent = [e for e in (a, b) if e.player.display_name in forfeits]
            if absent:
                services.award_forfeit(p, actor=director, loser=absent[0], kind="no-show", reason="did not come")
            else:
                director_win(p, min((a, b), key=lambda e: e.seed or 10**6), director, sync=False)
        services.sync_division(division.pk)
        now = Division.objects.get(pk=division.pk)
        if not open_pairings(now) and now.status == Division.Status.RUNNING and now.format != Division.Format.SINGLE:
            services.pair_next_round(now, actor=director)  # the next Swiss round, or the knockout
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    return division


def test_a_knockout_of_five_with_three_byes(division_of: Callable[..., Division], as_director: Actor) -> None:
    # Seeds 1-3 have a bye; round 1: 4 beats 5; semi-finals 1 beats 4, 2 beats 3; the final (5 points) 1 beats 2.
    division = play(knockout(division_of, 5), as_director)
    report = run(division.event.slug)
    assert_matches(
        report,
        {
            "P01": ([3, 5], (1, 1)),
            "P02": ([3], (2, 2)),
            "P03": ([], (3, 4)),  # a bye, then out in the semi-final: no match won
            "P04": ([3], (3, 4)),
            "P05": ([], (5, 5)),
        },
    )
    assert report["event"] == division.event.slug and report["system"] == "usbgf"
    assert report["divisions"][0]["players"] == 5 and report["divisions"][0]["finished"] is True


def test_a_knockout_of_eight_with_a_forfeit(division_of: Callable[..., Division], as_director: Actor) -> None:
    # P06 does not show up: P03 goes through on a forfeit, a match won but not over the board.
    division = play(knockout(division_of, 8), as_director, forfeits=("P06",))
    assert Pairing.objects.filter(division=division, decision="forfeit-no-show").count() == 1
    assert_matches(
        run(division.event.slug),
        {
            "P01": ([3, 3, 5], (1, 1)),
            "P02": ([3, 3], (2, 2)),
            "P03": ([], (3, 4)),
            "P04": ([3], (3, 4)),
            **{f"P0{n}": ([], (5, 8)) for n in range(5, 9)},
        },
    )


def test_a_knockout_of_twelve_weighted_with_six_places_paid(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    # Seeds 1-4 have a bye; round 1: 5-8 beat 12-9; quarter-finals: 1-4 beat 8-5; then as in a knockout of 8.
    event = services.create_event(actor=as_director, name="Club night", points_weight=0.5)
    division = knockout(division_of, 12, event=event, points_weight=0.7, points_places=6)
    division = play(division, as_director)
    expected: dict[str, tuple[list[int], tuple[int, int] | None]] = {
        "P01": ([3, 3, 5], (1, 1)),
        "P02": ([3, 3], (2, 2)),
        "P03": ([3], (3, 4)),
        "P04": ([3], (3, 4)),
        **{f"P{n:02d}": ([3], (5, 8)) for n in range(5, 9)},
        **{f"P{n:02d}": ([], (9, 12)) for n in range(9, 13)},
    }
    report = run(event.slug)
    assert_matches(report, expected, paid=6, weight=0.5 * 0.7)
    # 5-8 share the factors of ranks 5 and 6 (1/4, 1/5) with ranks 7 and 8 (nothing): 0.6 x log2(12) x 0.1125.
    assert by_name(report)["P05"]["placement_points"] == pytest.approx(0.35 * 0.6 * math.log2(12) * 0.1125)
    assert report["event_weight"] == 0.5 and report["divisions"][0]["weight"] == 0.7


def test_a_swiss_into_a_knockout(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of(
        "swiss-knockout",
        8,
        entry_mode="scoresheet",
        match_length=3,
        round_lengths={"main:final": 5},
        rounds_planned=2,
        knockout_size=4,
    )
    division = play(division, as_director)
    # Independently of the command: every match won over the board, read from the pairings as played.
    lengths: dict[str, list[int]] = {f"P0{n}": [] for n in range(1, 9)}
    for p in Pairing.objects.filter(division=division, status="finished").select_related("winner__player"):
        assert p.entry_a_id and p.entry_b_id and not p.decision
        lengths[p.winner.player.display_name].append(p.length)
    assert sum(map(len, lengths.values())) == 4 + 4 + 2 + 1  # two Swiss rounds of 4 matches, the knockout's 3
    # The knockout's four, by seed: the best seed wins it, the next is second, the other two share 3-4.
    four = sorted(Entry.objects.filter(pk__in=division.knockout_seeds).select_related("player"), key=lambda e: e.seed)
    places = {four[0].player.display_name: (1, 1), four[1].player.display_name: (2, 2)}
    places |= {e.player.display_name: (3, 4) for e in four[2:]}
    report = run(division.event.slug)
    got = by_name(report)
    for name in lengths:
        if name not in places:  # after the knockout's four, by the Swiss standings: no placement points
            assert got[name]["place"] >= 5 and got[name]["placement_points"] == 0.0
            places[name] = (got[name]["place"], int(got[name]["places"].split("-")[-1]))
    assert_matches(report, {name: (lengths[name], places[name]) for name in lengths})
    assert named(division, "P01").seed == 1


def test_a_division_not_started_lists_its_players_with_nothing_yet(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = knockout(division_of, 3)
    assert_matches(run(division.event.slug), {f"P0{n}": ([], None) for n in (1, 2, 3)})


def test_the_table_for_people(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = play(knockout(division_of, 5), as_director)
    out = StringIO()
    call_command("master_points", division.event.slug, stdout=out)
    text = out.getvalue()
    assert "Club night: master points (USBGF), event weight 1" in text
    assert "single 5: 5 players, division weight 1, top 4 places paid (finished)" in text
    # P01: 2 wins (3 and 5 points): 0.577350 + 0.745356 = 1.32; 0.6 x log2(5) = 1.39; 2.72 in all.
    assert any(line.split() == ["1", "P01", "2", "1.32", "1.39", "2.72"] for line in text.splitlines()), text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["no-such-event", "--system", "usbgf", "--json"], "there is no event with the address 'no-such-event'"),
        (["{slug}", "--system", "fide", "--json"], "unknown points system 'fide': use usbgf"),
    ],
)
def test_an_unknown_event_or_system_exits_2_with_one_line(
    division_of: Callable[..., Division], capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    division = knockout(division_of, 2)
    argv = [a.format(slug=division.event.slug) for a in argv]
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "master_points", *argv])
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [f"CommandError: {message}"]


def test_the_table_lists_the_places_in_order(division_of: Callable[..., Division], as_director: Actor) -> None:
    """Placement points to the top two only: the consolation's winner (main 5-8, two wins, 0.67) has more points
    than the main's 3-4 (one win, 0.33), and the table printed him above them, under a "Place" column."""
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    played_main_consolation(division, as_director)
    Division.objects.filter(pk=division.pk).update(points_places=2)
    out = StringIO()
    call_command("master_points", division.event.slug, stdout=out)
    rows = [line.split() for line in out.getvalue().splitlines() if line[:6].strip()[:1].isdigit()]
    places = [int(row[0].split("-")[0]) for row in rows]
    assert places == sorted(places) and len(places) == 8, rows
