"""A club's season: its table by the club's own points table, checked against a hand computation, following a
correction; by USBGF master points, the sum of each night's; its page, its CSV and its API."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.actor import Actor
from common.errors import ApplicationError
from games import services as games
from tests.tournaments.services.support import pairing, play_out, snapshot
from tournaments import services
from tournaments.models import Club, Division, Entry, Pairing, Season, SeasonPoints
from tournaments.selectors.points import master_points
from tournaments.selectors.seasons import season_table

pytestmark = pytest.mark.django_db

TABLE = {"per_win": 3, "places": [10, 6, 4, 4], "showing_up": 2, "multipliers": {"night-2": 2}}


def night(
    division_of: Callable[..., Division], club: Club, director: Actor, name: str, day: int, champion: str = "P01"
) -> Division:
    """A knockout of four to 1 point ("P01"-"P04"): ``champion`` wins every match, otherwise the better seed."""
    event = services.create_event(actor=director, name=name, club=club, starts_on=dt.date(2026, 10, day))
    division = division_of("single", 4, event=event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=director)

    def pick(p: Pairing) -> Entry:
        a, b = Entry.objects.select_related("player").get(pk=p.entry_a_id), Entry.objects.get(pk=p.entry_b_id)
        b = Entry.objects.select_related("player").get(pk=b.pk)
        return next((e for e in (a, b) if e.player.display_name == champion), min((a, b), key=lambda e: e.seed or 0))

    return play_out(division, director, pick)


@pytest.fixture
def club(as_director: Actor) -> Club:
    return services.create_club(actor=as_director, name="Oslo BK")


def table_of(season: Season) -> list[tuple[int, str, float, int, bool]]:
    return [(r.rank, r.name, r.points, r.events, r.qualified) for r in season_table(season).rows]


def test_the_clubs_own_table_by_hand_and_a_correction_on_night_two(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    season = services.create_season(
        club, actor=as_director, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31),
        table=TABLE, qualify=2,
    )  # fmt: skip
    with committed():
        night(division_of, club, as_director, "Night 1", 1)  # P01 wins: P01 beat P04, P02 beat P03, P01 beat P02
        second = night(division_of, club, as_director, "Night 2", 8, champion="P04")  # P04 beat P01 and P02
    services.create_event(actor=as_director, name="Night 3", club=club, starts_on=dt.date(2027, 1, 5))  # after it
    # Night 1: P01 2 wins x 3 + 10 + 2 = 18; P02 3 + 6 + 2 = 11; P03, P04 share 3-4: (4 + 4) / 2 + 2 = 6.
    # Night 2 (x2): P04 (6 + 10 + 2) x 2 = 36; P02 (3 + 6 + 2) x 2 = 22; P01, P03 (4 + 2) x 2 = 12.
    assert table_of(season) == [
        (1, "P04", 42.0, 2, True),
        (2, "P02", 33.0, 2, True),
        (3, "P01", 30.0, 2, False),
        (4, "P03", 18.0, 2, False),
    ]
    # The director corrects night 2's final: P02 won it. P02 (6 + 10 + 2) x 2 = 36, P04 (3 + 6 + 2) x 2 = 22.
    final = pairing(second, "main-2-0")
    side = 0 if final.entry_a.player.display_name == "P02" else 1
    with committed():
        games.replace_game_result(
            final.match_id, actor=as_director, game_number=1, winner=side, kind=1, reason="the scoresheet was misread"
        )
    assert table_of(season) == [
        (1, "P02", 47.0, 2, True),
        (2, "P01", 30.0, 2, True),
        (3, "P04", 28.0, 2, False),
        (4, "P03", 18.0, 2, False),
    ]


def test_a_usbgf_season_adds_up_each_nights_master_points(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    season = services.create_season(
        club, actor=as_director, name="Autumn", system="usbgf", starts_on=dt.date(2026, 10, 1),
        ends_on=dt.date(2026, 10, 31),
    )  # fmt: skip
    with committed():
        first = night(division_of, club, as_director, "Night 1", 1)
        second = night(division_of, club, as_director, "Night 2", 8, champion="P03")
    nights = [master_points(d.event) for d in (first, second)]
    expected = {name: sum(p.earned.total for n in nights for p in n.players if p.name == name) for name in ("P01",)}
    rows = {r.name: r for r in season_table(season).rows}
    assert rows["P01"].points == pytest.approx(expected["P01"])
    assert rows["P03"].points > rows["P04"].points


def test_bad_seasons_are_refused_and_nothing_is_stored(as_director: Actor, club: Club, other_director: Actor) -> None:
    before = snapshot()
    start, end = dt.date(2026, 9, 1), dt.date(2026, 12, 31)
    cases = [
        ({"table": {"per_win": -1}}, "per_win is -1: give a number from 0 to 10000"),
        ({"table": {"bonus": 1}}, "unknown bonus"),
        ({"table": {"places": "10,6"}}, "places is the points of each place"),
        ({"system": "elo"}, "unknown points system 'elo'"),
        ({"ends_on": dt.date(2026, 1, 1)}, "cannot end before it starts"),
    ]
    for values, message in cases:
        fields: dict[str, Any] = {"name": "Autumn", "starts_on": start, "ends_on": end, **values}
        with pytest.raises(ApplicationError, match=message):
            services.create_season(club, actor=as_director, **fields)
    with pytest.raises(ApplicationError, match="you are not a director of Oslo BK"):
        services.create_season(club, actor=other_director, name="Autumn", starts_on=start, ends_on=end)
    assert snapshot() == before


def test_the_season_page_csv_and_api(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any], director: Any
) -> None:
    client = Client()
    client.force_login(director)
    created = client.post(
        f"/api/clubs/{club.slug}/seasons/",
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-12-31", "table": TABLE, "qualify": 1},
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
    anon = Client()
    page = anon.get(f"/clubs/{club.slug}/seasons/autumn/").content.decode()
    assert "Autumn" in page and "The top 1 qualifies for the playoff" in page and "qualified" in page
    assert f'href="/clubs/{club.slug}/seasons/autumn/"' in anon.get(f"/clubs/{club.slug}/").content.decode()
    rows = list(csv.reader(io.StringIO(anon.get(f"/clubs/{club.slug}/seasons/autumn/table.csv").content.decode())))
    assert rows[0] == ["rank", "player", "points", "events", "match_wins", "qualified"]
    assert rows[1] == ["1", "P01", "18.00", "1", "2", "yes"]
    body = anon.get(f"/api/clubs/{club.slug}/seasons/autumn/").json()
    assert body["rows"][0] | {"player": 0} == {
        "rank": 1, "player": 0, "name": "P01", "points": 18.0, "events": 1, "match_wins": 2, "qualified": True,
        "tied_at_line": False,
    }  # fmt: skip
    assert [e["name"] for e in body["events"]] == ["Night 1"]
    assert anon.get(f"/api/clubs/{club.slug}/seasons/").json()[0]["slug"] == "autumn"
    assert anon.get(f"/clubs/{club.slug}/seasons/nope/").status_code == 404


def test_the_season_table_costs_the_same_statements_for_one_night_or_four(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season = services.create_season(
        club, actor=as_director, name="Autumn", starts_on=dt.date(2026, 10, 1), ends_on=dt.date(2026, 10, 31)
    )
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
    with CaptureQueriesContext(connection) as one:
        season_table(season)
    with committed():
        for day in (8, 15, 22):
            night(division_of, club, as_director, f"Night {day}", day)
    with CaptureQueriesContext(connection) as four:
        found = season_table(season)
    assert len(found.events) == 4 and found.rows[0].events == 4
    assert len(one.captured_queries) == len(four.captured_queries)


# -- the points stored per event ---------------------------------------------------------------------------------


def autumn(club: Club, director: Actor, **more: Any) -> Season:
    """The season "Autumn", September to December, by TABLE."""
    fields: dict[str, Any] = {"starts_on": dt.date(2026, 9, 1), "ends_on": dt.date(2026, 12, 31), "table": TABLE}
    return services.create_season(club, actor=director, name="Autumn", **(fields | more))


def stored(season: Season) -> dict[tuple[str, str], tuple[float, int, int | None]]:
    """The season's stored rows: (event, player) -> (points, matches won, best place)."""
    rows = SeasonPoints.objects.filter(season=season).select_related("event", "player")
    return {(r.event.name, r.player.display_name): (r.points, r.match_wins, r.place_first) for r in rows}


def test_each_nights_points_are_stored_by_its_follow_up_and_a_correction_rewrites_that_nights(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    season = autumn(club, as_director)
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
        second = night(division_of, club, as_director, "Night 2", 8, champion="P04")
    assert stored(season)[("Night 1", "P01")] == (18.0, 2, 1)
    assert stored(season)[("Night 2", "P04")] == (36.0, 2, 1)
    assert stored(season)[("Night 2", "P03")] == (12.0, 0, 3)
    night_one = set(SeasonPoints.objects.filter(season=season, event__name="Night 1").values_list("pk", flat=True))
    final = pairing(second, "main-2-0")
    side = 0 if final.entry_a.player.display_name == "P02" else 1
    with committed():  # the correction's follow-up: the standings, then night 2's points
        games.replace_game_result(
            final.match_id, actor=as_director, game_number=1, winner=side, kind=1, reason="the scoresheet was misread"
        )
    assert stored(season)[("Night 2", "P02")] == (36.0, 2, 1)
    assert stored(season)[("Night 2", "P04")] == (22.0, 1, 2)
    assert set(SeasonPoints.objects.filter(season=season, event__name="Night 1").values_list("pk", flat=True)) == (
        night_one
    )  # night 1's rows were not rewritten
    assert table_of(season)[0] == (1, "P02", 47.0, 2, False)


def test_the_table_sums_the_stored_rows_without_reading_any_result(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season = autumn(club, as_director)
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
    with CaptureQueriesContext(connection) as read:
        assert table_of(season)[0] == (1, "P01", 18.0, 1, False)
    sql = " ".join(q["sql"] for q in read.captured_queries)
    assert "tournaments_seasonpoints" in sql
    assert "tournaments_pairing" not in sql and "tournaments_standing" not in sql and "tournaments_entry" not in sql


def test_a_season_created_after_its_nights_counts_them(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
        night(division_of, club, as_director, "Night 2", 8, champion="P04")
    with committed():
        season = autumn(club, as_director, qualify=2)
    assert len(stored(season)) == 8
    assert table_of(season)[:2] == [(1, "P04", 42.0, 2, True), (2, "P02", 33.0, 2, True)]
    season.refresh_from_db()
    assert season.points_computed_at is not None


def test_changing_a_seasons_table_system_or_span_computes_its_points_again(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    with committed():
        season = autumn(club, as_director)
        first = night(division_of, club, as_director, "Night 1", 1)
        night(division_of, club, as_director, "Night 2", 8, champion="P04")
    with committed():
        services.change_season(season, actor=as_director, table={"per_win": 1, "places": [5]})
    assert stored(season)[("Night 1", "P01")] == (7.0, 2, 1)  # 2 wins + 5 for first, nothing for showing up
    # Night 2: P04 won twice and first, 7; P01 lost his first match there.
    assert table_of(season)[:2] == [(1, "P01", 7.0, 2, False), (1, "P04", 7.0, 2, False)]
    with committed():
        services.change_season(season, actor=as_director, system="usbgf")
    p01 = sum(p.earned.total for p in master_points(first.event).players if p.name == "P01")
    assert stored(season)[("Night 1", "P01")][0] == pytest.approx(p01)
    with committed():
        services.change_season(season, actor=as_director, ends_on=dt.date(2026, 10, 5))  # night 2 is out
    assert {event for event, _ in stored(season)} == {"Night 1"}
    assert [r.events for r in season_table(season).rows] == [1, 1, 1, 1]
    with committed():
        services.change_season(season, actor=as_director, qualify=1)  # the line alone: nothing to compute
    season.refresh_from_db()
    assert season.qualify == 1 and season.points_computed_at is not None


def test_a_bad_change_of_a_season_is_refused_and_nothing_is_stored(
    as_director: Actor, club: Club, other_director: Actor
) -> None:
    season = autumn(club, as_director)
    before = list(Season.objects.values())
    cases: list[tuple[dict[str, Any], str]] = [
        ({"table": {"per_win": -1}}, "per_win is -1: give a number from 0 to 10000"),
        ({"system": "elo"}, "unknown points system 'elo'"),
        ({"ends_on": dt.date(2026, 1, 1)}, "cannot end before it starts"),
        ({"qualify": 5000}, "the playoff line is 0 \\(none\\) to 1000 players, not 5000"),
    ]
    for values, message in cases:
        with pytest.raises(ApplicationError, match=message):
            services.change_season(season, actor=as_director, **values)
    with pytest.raises(ApplicationError, match="you are not a director of Oslo BK"):
        services.change_season(season, actor=other_director, qualify=2)
    assert list(Season.objects.values()) == before


def test_a_usbgf_season_follows_a_change_of_an_events_weights(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    with committed():
        season = autumn(club, as_director, system="usbgf")
        first = night(division_of, club, as_director, "Night 1", 1)
    before = stored(season)[("Night 1", "P01")][0]
    with committed():
        services.set_points_weights(first.event, actor=as_director, weight=0.5)
    assert stored(season)[("Night 1", "P01")][0] == pytest.approx(before / 2)


def test_the_command_and_reconcile_rewrite_the_stored_points(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    from django.core.management import call_command
    from django.core.management.base import CommandError

    from tournaments.tasks import reconcile

    with committed():
        season = autumn(club, as_director)
        night(division_of, club, as_director, "Night 1", 1)
    right = stored(season)
    SeasonPoints.objects.filter(season=season, player__display_name="P01").update(points=99)
    SeasonPoints.objects.filter(season=season, player__display_name="P02").delete()
    out = io.StringIO()
    call_command("season_points", f"{club.slug}/autumn", stdout=out)
    assert out.getvalue() == f"{club.slug}/autumn: 4 rows\n"
    assert stored(season) == right
    with pytest.raises(CommandError, match=f"no season {club.slug}/spring: name a season as CLUB/SEASON") as refused:
        call_command("season_points", f"{club.slug}/spring")
    assert refused.value.returncode == 2
    # A season whose task was lost (the broker was down) is left "to compute"; reconcile sends it again.
    SeasonPoints.objects.filter(season=season).delete()
    Season.objects.filter(pk=season.pk).update(points_computed_at=None)
    reconcile()
    assert stored(season) == right


def test_a_season_is_changed_through_the_api(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any], director: Any
) -> None:
    with committed():
        autumn(club, as_director)
        night(division_of, club, as_director, "Night 1", 1)
    url = f"/api/clubs/{club.slug}/seasons/autumn/"
    anon, client = Client(), Client()
    client.force_login(director)
    assert anon.patch(url, {"qualify": 2}, content_type="application/json").status_code in (401, 403)
    refused = client.patch(url, {"table": {"per_win": "x"}}, content_type="application/json")
    assert refused.status_code == 400 and "per_win is 'x': give a number from 0 to 10000" in refused.content.decode()
    with committed():
        changed = client.patch(url, {"table": {"per_win": 1}, "qualify": 1}, content_type="application/json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["table"]["per_win"] == 1.0 and changed.json()["qualify"] == 1
    assert anon.get(url).json()["rows"][0] | {"player": 0} == {
        "rank": 1, "player": 0, "name": "P01", "points": 2.0, "events": 1, "match_wins": 2, "qualified": True,
        "tied_at_line": False,
    }  # fmt: skip
    assert client.patch(f"/api/clubs/{club.slug}/seasons/nope/", {}, content_type="application/json").status_code == 404


def test_an_archived_club_night_imports_into_no_season_and_the_season_keeps_its_points(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    from tournaments.services.archive import export_event, import_event

    with committed():
        season = autumn(club, as_director)
        first = night(division_of, club, as_director, "Night 1", 1)
    before = stored(season)
    with committed():
        copy = import_event(export_event(first.event), slug="night-1-again", actor=as_director)
    assert copy.club_id is None and not SeasonPoints.objects.filter(event=copy).exists()
    assert stored(season) == before and table_of(season)[0] == (1, "P01", 18.0, 1, False)


def test_the_pages_rows_are_the_templates_markup_with_every_name_escaped() -> None:
    from tournaments.selectors.seasons import SeasonRow
    from tournaments.templatetags.event_pages import season_rows

    rows = [SeasonRow(1, 7, 'Pia <b>"Ø"</b> & Co', 1234.567, 3, 12, True), SeasonRow(2, 8, "Ola", 2.0, 1, 0)]
    assert season_rows(rows) == (
        '<tr class="qualified"><td data-label="Rank">1</td><th scope="row" data-label="Player"><a href="/players/7/">'
        'Pia &lt;b&gt;&quot;Ø&quot;&lt;/b&gt; &amp; Co</a> <span class="badge">qualified</span></th>'
        '<td class="num" data-label="Points">1234.57</td><td class="num" data-label="Events">3</td>'
        '<td class="num" data-label="Matches won">12</td></tr>\n'
        '<tr><td data-label="Rank">2</td><th scope="row" data-label="Player"><a href="/players/8/">Ola</a></th>'
        '<td class="num" data-label="Points">2.00</td><td class="num" data-label="Events">1</td>'
        '<td class="num" data-label="Matches won">0</td></tr>'
    )
