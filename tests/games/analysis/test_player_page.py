"""A player's page: each analysed match with its event (linked), its length and result from his side ("7-point
match, won 7-4") and its depth, and his PR over time as a chart drawn on the server (an inline SVG whose text says
every point), above the table."""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any

import pytest
from django.core.management import call_command

from games.analysis.selectors import match_summary
from games.models import Match
from tests.games.analysis.made_up import played_division, store_analysis
from tests.games.analysis.test_analyse_match import CUBE_MATCH
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_each_match_says_its_event_and_result(
    division_of: Any, as_director: Any, drive: Any, settings: Any, client: Any
) -> None:
    division, (first, _) = played_division(division_of, as_director, drive, settings)
    store_analysis(first, errors=(1.0, 2.0))
    club = services.create_event(actor=as_director, name="Club night")
    Event.objects.filter(pk=club.pk).update(public=True)
    Event.objects.filter(pk=division.event.pk).update(public=True)
    call_command("import_matches", "--event", club.slug, str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
    imported = Match.objects.latest("id")
    Match.objects.filter(pk=imported.pk).update(player1=first.player1)
    imported.refresh_from_db()
    store_analysis(imported, plies=2)
    page = client.get(f"/players/{first.player1_id}/").content.decode()
    played = match_summary(first, 0)
    assert re.fullmatch(r"1-point match, (won \d-0|lost 0-\d)", played)
    assert f'<span class="pr-result">{played} · 0-ply</span>' in page
    assert (
        f'<span class="pr-event"><a href="/events/{division.event.slug}/">{division.event.name}</a> · '
        f"{division.name}</span>" in page
    )
    assert f'<span class="pr-result">{match_summary(imported, 0)} · 2-ply (world class)</span>' in page
    assert f'<span class="pr-event"><a href="/events/{club.slug}/">Club night</a></span>' in page


def test_match_summary_from_each_side(new_match: Any) -> None:
    match = new_match(length=7)
    Match.objects.filter(pk=match.pk).update(score1=7, score2=4, winner=match.player1, status=Match.Status.FINISHED)
    match.refresh_from_db()
    assert match_summary(match, 0) == "7-point match, won 7-4"
    assert match_summary(match, 1) == "7-point match, lost 4-7"


def test_a_private_event_is_not_named_to_a_spectator(
    division_of: Any, as_director: Any, drive: Any, settings: Any, client: Any
) -> None:
    division, (first, _) = played_division(division_of, as_director, drive, settings)
    Event.objects.filter(pk=division.event.pk).update(public=False)
    store_analysis(first)
    page = client.get(f"/players/{first.player1_id}/").content.decode()
    assert division.event.name not in page or "pr-event" not in page


def test_pr_over_time_is_a_chart_that_says_its_points(client: Any, settings: Any) -> None:
    matches = []
    for day, errors in enumerate([(1.0, 0.5), (3.0, 0.5), (2.0, 0.5)], start=1):
        call_command("import_matches", str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
        match = Match.objects.latest("id")
        if matches:
            Match.objects.filter(pk=match.pk).update(player1=matches[0].player1)
        finished = dt.datetime(2026, 11, day, 20, tzinfo=dt.UTC)
        Match.objects.filter(pk=match.pk).update(finished_at=finished)
        match.refresh_from_db()
        store_analysis(match, errors=errors)
        matches.append(match)
    page = client.get(f"/players/{matches[0].player1_id}/").content.decode()
    svg = re.search(r'<figure class="pr-chart">(.*?)</figure>', page, re.S)
    assert svg is not None
    chart = svg.group(1)
    opponent = matches[0].player2.display_name
    desc = re.search(r'<desc id="pr-chart-desc">(.*?)</desc>', chart, re.S)
    assert desc is not None
    assert desc.group(1) == (
        f"2026-11-01 vs {opponent}: PR 5.00; 2026-11-02 vs {matches[1].player2.display_name}: PR 15.00; "
        f"2026-11-03 vs {matches[2].player2.display_name}: PR 10.00"
    )
    assert 'role="img"' in chart and 'aria-labelledby="pr-chart-title pr-chart-desc"' in chart
    points = re.search(r'<polyline [^>]*points="([^"]*)"', chart)
    assert points is not None
    assert points.group(1) == "0.0,75.0 150.0,25.0 300.0,50.0"  # oldest left; the top line is PR 20
    assert ">20</text>" in chart and '<text x="-6" y="54" text-anchor="end">10</text>' in chart  # the dashed line
    assert ">2026-11-01</text>" in chart and ">2026-11-03</text>" in chart
    assert "lowest 5.00, highest 15.00, latest 10.00." in chart
    assert 'class="pr-history stack"' in page  # the table stays


def test_a_chart_of_one_day_names_the_day_once(client: Any) -> None:
    matches = []
    for errors in ((1.0, 0.5), (3.0, 0.5)):
        call_command("import_matches", str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
        match = Match.objects.latest("id")
        if matches:
            Match.objects.filter(pk=match.pk).update(player1=matches[0].player1)
        Match.objects.filter(pk=match.pk).update(finished_at=dt.datetime(2026, 11, 5, 20, tzinfo=dt.UTC))
        match.refresh_from_db()
        store_analysis(match, errors=errors)
        matches.append(match)
    page = client.get(f"/players/{matches[0].player1_id}/").content.decode()
    svg = re.search(r'<figure class="pr-chart">(.*?)</figure>', page, re.S)
    assert svg is not None and svg.group(1).count(">2026-11-05</text>") == 1


def test_one_match_draws_no_chart(client: Any) -> None:
    call_command("import_matches", str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
    match = Match.objects.latest("id")
    store_analysis(match)
    page = client.get(f"/players/{match.player1_id}/").content.decode()
    assert 'class="pr-history stack"' in page and "pr-chart" not in page


def test_his_pr_over_all_his_matches_is_given_at_each_depth(client: Any) -> None:
    first = None
    for plies, errors in ((0, (1.0, 0.5)), (0, (3.0, 0.5)), (2, (0.4, 0.5))):
        match = Match.objects.get(pk=import_match().pk)
        if first is None:
            first = match
        Match.objects.filter(pk=match.pk).update(player1=first.player1)
        match.refresh_from_db()
        store_analysis(match, plies=plies, errors=errors)
    assert first is not None
    page = client.get(f"/players/{first.player1_id}/").content.decode()
    lines = [re.sub(r"\s+", " ", line).strip() for line in re.findall(r'<p class="pr-overall">(.*?)</p>', page, re.S)]
    assert lines == [
        "PR 10.00 over 2 analysed matches (200 decisions) at 0-ply.",
        "PR 2.00 over 1 analysed match (100 decisions) at 2-ply (world class).",
    ]
    assert "analysed at different depths, whose figures do not compare: his PR is given at each" in page


def import_match() -> Match:
    call_command("import_matches", str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
    return Match.objects.latest("id")


def test_a_pr_from_too_few_decisions_says_so_on_the_match_page(
    division_of: Any, as_director: Any, drive: Any, settings: Any, client: Any
) -> None:
    """A tester read "PR 138.66" from two decisions with nothing to say how little that is."""
    division, (first, _) = played_division(division_of, as_director, drive, settings)
    Event.objects.filter(pk=division.event.pk).update(public=True)
    store_analysis(first)  # 100 decisions each
    settings.ANALYSIS_MIN_DECISIONS = 50
    assert "too few to judge" not in client.get(f"/matches/{first.pk}/").content.decode()
    settings.ANALYSIS_MIN_DECISIONS = 101
    page = client.get(f"/matches/{first.pk}/").content.decode()
    assert page.count("(from 100 decisions: too few to judge a player by)") == 2
