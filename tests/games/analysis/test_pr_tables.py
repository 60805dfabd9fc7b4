"""PR where a division, an event and a player see it: matches of a division played move by move are analysed when
they finish (ANALYSIS_AUTO), and the division's and the event's PR tables and the player's page add up gnubg's
figures as the PR formula says."""

from __future__ import annotations

from typing import Any

import pytest

from games.analysis.service import analyse_match
from games.models import MatchAnalysis, PlayerAnalysis
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.django_db, pytest.mark.gnubg]


def test_finished_matches_are_analysed_and_tabled(
    division_of: Any,
    as_director: Any,
    drive: Any,
    settings: Any,
    client: Any,
    eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.ANALYSIS_AUTO = True
    settings.ANALYSIS_MIN_DECISIONS = 1
    division = division_of("swiss", 4, match_length=1, rounds_planned=1)
    services.start_division(division, actor=as_director)
    pairings = list(Pairing.objects.filter(division=division, match__isnull=False).select_related("match"))
    assert len(pairings) == 2
    for seed, pairing in enumerate(pairings):
        with django_capture_on_commit_callbacks(execute=True):
            driver = drive(pairing.match, seed=seed)
            while not driver.is_over:
                driver.play_out()
    analyses = MatchAnalysis.objects.filter(match__pairing__division=division)
    assert [a.status for a in analyses] == ["done", "done"]

    rows = PlayerAnalysis.objects.filter(analysis__in=analyses)
    by_player: dict[int, tuple[float, int]] = {}
    for row in rows:
        error, decisions = by_player.get(row.player_id, (0.0, 0))
        by_player[row.player_id] = (error + row.chequer_error + row.cube_error, decisions + row.decisions)
    expected = sorted((500 * e / d, pid) for pid, (e, d) in by_player.items())

    api = client.get(f"/api/events/{division.event.slug}/divisions/{division.slug}/pr/").json()
    assert [(pytest.approx(r["pr"]), r["player"]) for r in api["rows"]] == expected
    event_api = client.get(f"/api/events/{division.event.slug}/pr/").json()
    assert event_api["rows"] == api["rows"]
    page = client.get(f"/events/{division.event.slug}/{division.slug}/pr/").content.decode()
    for pr, _ in expected:
        assert f'<td data-label="PR">{pr:.2f}</td>' in page
    assert "Luck: the equity gained from the dice" in page
    for row in api["rows"]:
        luck = sum(r.luck for r in rows if r.player_id == row["player"])
        luck_cell = '<td data-label="Luck">{}</td>'.format
        assert luck_cell(f"{luck:+.2f}") in page or (f"{luck:+.2f}" in ("+0.00", "-0.00") and luck_cell("0.00") in page)
    best = expected[0][1]
    player_page = client.get(f"/players/{best}/").content.decode()
    assert f"PR {expected[0][0]:.2f} over 1 analysed match" in player_page

    settings.ANALYSIS_MIN_DECISIONS = 10_000
    assert client.get(f"/api/events/{division.event.slug}/pr/").json()["rows"] == []


def test_a_division_can_analyse_each_game_as_it_ends(
    division_of: Any,
    as_director: Any,
    drive: Any,
    client: Any,
    eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    division = division_of("swiss", 2, match_length=3, rounds_planned=1, analyse_each_game=True)
    services.start_division(division, actor=as_director)
    match = Pairing.objects.select_related("match").get(division=division).match
    driver = drive(match)
    with django_capture_on_commit_callbacks(execute=True):
        driver.play_out()  # the first game only: the match goes on
    match.refresh_from_db()
    assert match.status == "in_progress"
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "done" and analysis.match_seq == match.seq
    assert analysis.decisions.values("game_number").distinct().count() == 1
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert all(f"<strong>{row.pr:.2f}</strong>" in page for row in analysis.players.all())
    with django_capture_on_commit_callbacks(execute=True):
        while not driver.is_over:
            driver.play_out()
    match.refresh_from_db()
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.match_seq == match.seq
    assert analysis.decisions.values("game_number").distinct().count() == match.games.count()


def test_a_match_under_way_that_was_analysed_counts_nowhere(
    division_of: Any,
    as_director: Any,
    drive: Any,
    settings: Any,
    client: Any,
    eager_tasks: None,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A director may analyse a match still being played: it is no whole match, so no PR table and no player's
    page counts it until it finishes."""
    settings.ANALYSIS_AUTO = True
    settings.ANALYSIS_MIN_DECISIONS = 1
    division = division_of("swiss", 4, match_length=3, rounds_planned=1)
    services.start_division(division, actor=as_director)
    done, going = list(Pairing.objects.filter(division=division, match__isnull=False).select_related("match"))
    with django_capture_on_commit_callbacks(execute=True):
        driver = drive(done.match, seed=1)
        while not driver.is_over:
            driver.play_out()
        driver = drive(going.match, seed=2)
        driver.play_out()
    assert not driver.is_over
    analyse_match(going.match.pk)
    assert MatchAnalysis.objects.get(match=going.match).status == "done"

    finished = {done.match.player1_id, done.match.player2_id}
    under_way = {going.match.player1_id, going.match.player2_id}
    api = client.get(f"/api/events/{division.event.slug}/divisions/{division.slug}/pr/").json()
    assert {r["player"] for r in api["rows"]} == finished
    assert {r["player"] for r in client.get(f"/api/events/{division.event.slug}/pr/").json()["rows"]} == finished
    for player in under_way:
        assert "No match of this player has been analysed yet." in client.get(f"/players/{player}/").content.decode()
        assert client.get(f"/api/players/{player}/analysis/").json()["results"] == []
