"""A club on the pages: the director registering a name close to the roster's is offered the roster's players to
choose from (or a new player), never a silent merge; the public club page lists its events, champions and ratings."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from common.actor import Actor
from games.models import Match, Player
from tests.tournaments.services.support import play_out
from tournaments import services
from tournaments.models import Club, Division, Entry, Rating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def client_for(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def club_night(dora: Any, club: Club, name: str) -> Division:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name=name, club=club, starts_on=dt.date(2026, 11, 5))
    return services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="single")
    )


def test_a_close_name_is_offered_and_the_director_chooses(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    first = club_night(dora, club, "Night 1")
    pia = services.register_player(first, actor=actor, name="Pia Ruud", club="Oslo BK").player
    second = club_night(dora, club, "Night 2")
    client, url = client_for(dora), f"/manage/{second.event.slug}/{second.slug}/"
    refused = client.post(url, {"action": "register", "register-name": "pia ruud"})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Who is it?" in page
    assert f'value="{pia.pk}"' in page and f"Pia Ruud (Oslo BK) #{pia.pk}" in page
    assert 'value="new"' in page and "A new player: pia ruud" in page
    assert not Entry.objects.filter(division=second).exists()
    chosen = client.post(url, {"action": "register", "register-name": "pia ruud", "register-choice": str(pia.pk)})
    assert chosen.status_code == 302
    assert Entry.objects.get(division=second).player == pia
    third = club_night(dora, club, "Night 3")
    url = f"/manage/{third.event.slug}/{third.slug}/"
    new = client.post(url, {"action": "register", "register-name": "P. Ruud", "register-choice": "new"})
    assert new.status_code == 302
    assert Entry.objects.get(division=third).player.display_name == "P. Ruud"
    assert Player.objects.count() == 2
    stranger = Player.objects.create(display_name="Not on the roster")
    fourth = club_night(dora, club, "Night 4")
    url = f"/manage/{fourth.event.slug}/{fourth.slug}/"
    wrong = client.post(url, {"action": "register", "register-name": "pia", "register-choice": str(stranger.pk)})
    assert wrong.status_code == 400 and "That player is not on the club&#x27;s roster" in wrong.content.decode()


def running_club_night(dora: Any) -> tuple[Club, Division]:
    """The club Oslo BK and its "Night 1", started with two players."""
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    division = club_night(dora, club, "Night 1")
    for name in ("Ann", "Ben"):
        services.register_player(division, actor=actor, name=name)
    services.start_division(division, actor=actor)
    return club, division


def test_the_public_club_page(dora: Any) -> None:
    club, division = running_club_night(dora)
    page = client_for().get(f"/clubs/{club.slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<h1>Oslo BK</h1>" in text and "Night 1" in text and "Coming up" in text and "Rating list" in text
    event_page = client_for().get(f"/events/{division.event.slug}/").content.decode()
    assert f'href="/clubs/{club.slug}/"' in event_page
    assert client_for().get("/clubs/nope/").status_code == 404


def test_a_running_event_is_under_running_now_not_coming_up(dora: Any) -> None:
    """While its night is played the event is running: the page neither announces it as coming up nor says that no
    event was played; the API answers it among the running ones."""
    club, _night = running_club_night(dora)
    text = client_for().get(f"/clubs/{club.slug}/").content.decode()
    running, rest = text.split('id="running-heading"')[1].split('id="upcoming-heading"')
    upcoming, recent = rest.split('id="recent-heading"')
    assert "Running now" in running and "Night 1" in running
    assert "Night 1" not in upcoming and "No event announced yet." in upcoming
    assert "No event played yet" not in recent and "No event finished yet." in recent
    api = client_for().get(f"/api/clubs/{club.slug}/").json()
    assert [e["name"] for e in api["running"]] == ["Night 1"] and api["upcoming"] == []


def test_a_director_creates_his_club_on_the_pages(dora: Any) -> None:
    """/manage/ had no way to create a club: its director had to use the API before its events could belong to it."""
    client = client_for(dora)
    page = client.get("/manage/").content.decode()
    assert "Create a club" in page and 'name="create-club-name"' in page
    refused = client.post("/manage/", {"action": "create-club", "create-club-name": "  "})
    assert refused.status_code == 400 and not Club.objects.exists()
    created = client.post(
        "/manage/", {"action": "create-club", "create-club-name": "Oslo BK", "create-club-public": "on"}
    )
    assert created.status_code == 302
    club = Club.objects.get()
    assert club.name == "Oslo BK" and list(club.directors.all()) == [dora]
    page = client.get("/manage/").content.decode()
    assert "Club “Oslo BK” created" in page and f'<option value="{club.pk}">Oslo BK</option>' in page
    assert f'href="/clubs/{club.slug}/"' in page


def test_a_director_of_a_club_creates_its_event_on_the_pages(dora: Any, django_user_model: Any) -> None:
    client = client_for(dora)
    assert "id_create-event-club" not in client.get("/manage/").content.decode(), "no club: the form as before"
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    assert f'<option value="{club.pk}">Oslo BK</option>' in client.get("/manage/").content.decode()
    form = {"action": "create-event", "create-event-name": "Thursday night", "create-event-time_zone": "UTC"}
    created = client.post("/manage/", {**form, "create-event-club": str(club.pk)})
    assert created.status_code == 302
    event = club.events.get()
    assert event.name == "Thursday night" and event.rating_list == club.rating_list
    other = services.create_club(actor=Actor(user=django_user_model.objects.create_user("otto")), name="Bergen BK")
    refused = client.post("/manage/", {**form, "create-event-club": str(other.pk)})
    assert refused.status_code == 400 and not other.events.exists()


def _season_post(**changes: str) -> dict[str, str]:
    data = {
        "action": "add-season",
        "add-season-name": "Autumn",
        "add-season-starts_on": "2026-09-01",
        "add-season-ends_on": "2026-12-31",
        "add-season-system": "club",
        "add-season-per_win": "1",
        "add-season-times_length": "on",
        "add-season-places": "10, 6, 4, 4",
        "add-season-showing_up": "2",
        "add-season-qualify": "4",
    }
    return {**data, **{f"add-season-{key}": value for key, value in changes.items()}}


def test_a_club_director_adds_a_season_on_the_pages_and_its_table_opens(dora: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    page = client.get(url)
    assert page.status_code == 200 and "Add a season" in page.content.decode()
    assert "private" in page["Cache-Control"] and "no-store" in page["Cache-Control"]
    added = client.post(url, _season_post())
    assert added.status_code == 302 and added["Location"] == url
    season = club.seasons.get()
    assert (season.name, season.system, season.qualify) == ("Autumn", "club", 4)
    assert season.table == {
        "per_win": 1.0,
        "times_length": True,
        "places": [10.0, 6.0, 4.0, 4.0],
        "showing_up": 2.0,
        "multipliers": {},
    }
    listed = client.get(url).content.decode()
    assert f"/clubs/{club.slug}/seasons/{season.slug}/" in listed and "top 4" in listed
    assert client_for().get(f"/clubs/{club.slug}/seasons/{season.slug}/").status_code == 200


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"ends_on": "2026-08-01"}, "The last day comes before the first"),
        ({"places": "10, six"}, "Give the points of each place as numbers"),
        ({"per_win": "-1"}, "greater than or equal to 0"),
        ({"qualify": "5000"}, "less than or equal to 1000"),
    ],
)
def test_a_bad_season_is_refused_with_what_to_change_and_nothing_stored(
    dora: Any, changes: dict[str, str], said: str
) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    refused = client_for(dora).post(f"/clubs/{club.slug}/manage/", _season_post(**changes))
    assert refused.status_code == 400
    assert said in refused.content.decode()
    assert not club.seasons.exists()


def test_a_second_season_of_the_same_name_is_refused(dora: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    assert client.post(url, _season_post()).status_code == 302
    again = client.post(url, _season_post(starts_on="2027-01-01", ends_on="2027-03-31"))
    assert again.status_code == 409 and "already has a season" in again.content.decode()
    assert club.seasons.count() == 1


def test_the_roster_shows_each_players_rating_and_nights(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    division = club_night(dora, club, "Night 1")
    ann, ben = (services.register_player(division, actor=actor, name=name).player for name in ("Ann", "Ben"))
    services.start_division(division, actor=actor)
    Rating.objects.create(rating_list=club.rating_list, player=ann, rating=1612.4, experience=5, matches=1)
    page = client_for(dora).get(f"/clubs/{club.slug}/manage/").content.decode()
    roster = page.split('id="roster-heading"')[1].split("</section>")[0]
    rows = {name: roster.split(f">{name}</a>")[1].split("</tr>")[0] for name in (ann.display_name, ben.display_name)}
    assert 'data-label="Rating">1612</td>' in rows["Ann"] and 'data-label="Nights played">1</td>' in rows["Ann"]
    assert 'data-label="Rating">new (1500)</td>' in rows["Ben"]


def test_a_club_director_adds_another_director_by_username(dora: Any, django_user_model: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    erik = django_user_model.objects.create_user("erik", password=None)
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    unknown = client.post(url, {"action": "add-director", "add-director-username": "nobody"})
    assert unknown.status_code == 404 and "Nobody logs in as “nobody”" in unknown.content.decode()
    assert client.post(url, {"action": "add-director", "add-director-username": "Erik"}).status_code == 302
    assert club.directors.filter(pk=erik.pk).exists()
    assert client_for(erik).get(url).status_code == 200
    again = client.post(url, {"action": "add-director", "add-director-username": "erik"}, follow=True)
    assert "Erik is already a director of Oslo BK." in again.content.decode()


def test_only_the_clubs_directors_run_it(dora: Any, django_user_model: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    hidden = services.create_club(actor=Actor(user=dora), name="Hidden BK", public=False)
    erik = django_user_model.objects.create_user("erik", password=None)
    assert client_for().get(f"/clubs/{club.slug}/manage/").status_code == 302  # to the login page
    forbidden = client_for(erik).get(f"/clubs/{club.slug}/manage/")
    assert forbidden.status_code == 403 and "Not your club" in forbidden.content.decode()
    assert client_for(erik).post(f"/clubs/{club.slug}/manage/", _season_post()).status_code == 403
    assert client_for(erik).get(f"/clubs/{hidden.slug}/manage/").status_code == 404
    assert client_for(dora).get("/clubs/no-such-club/manage/").status_code == 404
    assert not club.seasons.exists()
    public = client_for(dora).get(f"/clubs/{club.slug}/").content.decode()
    assert f"/clubs/{club.slug}/manage/" in public
    assert f"/clubs/{club.slug}/manage/" not in client_for(erik).get(f"/clubs/{club.slug}/").content.decode()


def test_same_person_on_the_club_page_shows_what_moves_merges_and_undoes(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    pia = services.register_player(club_night(dora, club, "Night 1"), actor=actor, name="Pia Ruud").player
    second = club_night(dora, club, "Night 2")
    ruud = services.register_player(second, actor=actor, name="P. Ruud", new_player=True).player
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    page = client.get(url).content.decode()
    assert "Same person" in page and f'<option value="{ruud.pk}">P. Ruud #{ruud.pk}</option>' in page
    form = {"action": "merge", "merge-keep": str(pia.pk), "merge-fold": str(ruud.pk)}
    asked = client.post(url, form)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Check before merging:" in text
    assert f"P. Ruud #{ruud.pk} becomes Pia Ruud #{pia.pk}: 1 entry (Night 2, Open)" in text
    assert 'name="merge-confirm" value="True"' in text and "Merge them" in text
    assert Entry.objects.get(division=second).player == ruud, "nothing moved before the confirmation"
    done = client.post(url, {**form, "merge-confirm": "True"})
    assert done.status_code == 302
    assert Entry.objects.get(division=second).player == pia
    page = client.get(url).content.decode()
    assert f"P. Ruud #{ruud.pk} is now Pia Ruud #{pia.pk}" in page and "Undo" in page
    assert client_for().get(f"/players/{ruud.pk}/")["Location"] == f"/players/{pia.pk}/"
    merge = club.merges.get()
    refused = client.post(url, {**form, "merge-confirm": "True"})
    assert refused.status_code == 400 and club.merges.count() == 1, "a merged record is no longer offered"
    undone = client.post(url, {"action": "undo-merge", "target": str(merge.pk)})
    assert undone.status_code == 302
    assert Entry.objects.get(division=second).player == ruud
    assert "is a record of his own again" in client.get(url).content.decode()


def test_same_person_refuses_two_players_of_one_division_on_the_page(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    night = club_night(dora, club, "Night 1")
    ann, ben = (services.register_player(night, actor=actor, name=n).player for n in ("Ann Berg", "Ben Dahl"))
    form = {"action": "merge", "merge-keep": str(ann.pk), "merge-fold": str(ben.pk), "merge-confirm": "True"}
    refused = client_for(dora).post(f"/clubs/{club.slug}/manage/", form)
    assert refused.status_code == 409
    assert "both entered in Open of Night 1" in refused.content.decode()
    assert not club.merges.exists()


LOG = (
    "\n 1 point match\n\n Game 1\n"
    " Pia Ruud : 0                   Ole Dahl : 0\n"
    "  1) 31: 8/5 6/5                 64: 24/18 18/14 \n"
)


def test_players_an_import_made_apart_are_offered_to_link_to_the_roster(dora: Any) -> None:
    """An import through the API by anyone but staff makes new players of its names (a .mat can name anyone): the
    club's director links each to the roster's player he is, a merge he can undo."""
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    night = club_night(dora, club, "Night 1")
    pia = services.register_player(night, actor=actor, name="Pia Ruud").player
    api = APIClient()
    api.force_authenticate(dora)
    answer = api.post(
        "/api/matches/import/",
        {"file": SimpleUploadedFile("a.mat", LOG.encode()), "event": night.event.slug},
        format="multipart",
    )
    assert answer.status_code == 201, answer.content
    match = Match.objects.get(pk=answer.json()["id"])
    imported = match.player1
    assert imported.pk != pia.pk and imported.display_name == "Pia Ruud", "made apart from the roster"
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    page = client.get(url).content.decode()
    assert f"Is Pia Ruud #{imported.pk} Pia Ruud #{pia.pk} of the roster?" in page
    assert "Ole Dahl" not in page.split("Players apart from the roster")[1].split("</ul>")[0], "no one close: none"
    linked = client.post(url, {"action": "link", "target": str(imported.pk), f"link-{imported.pk}-keep": str(pia.pk)})
    assert linked.status_code == 302
    match.refresh_from_db()
    assert match.player1_id == pia.pk
    page = client.get(url).content.decode()
    assert "is linked to Pia Ruud" in page and "Players apart from the roster" not in page
    merge = club.merges.get()
    assert merge.folded_id == imported.pk and merge.moved["matches_as_player1"] == [match.pk]
    assert client.post(url, {"action": "undo-merge", "target": str(merge.pk)}).status_code == 302
    match.refresh_from_db()
    assert match.player1_id == imported.pk and not club.players.filter(pk=imported.pk).exists()
    stranger = Player.objects.create(display_name="Pia Ruud")  # of no event of the club
    refused = client.post(url, {"action": "link", "target": str(stranger.pk), f"link-{stranger.pk}-keep": str(pia.pk)})
    assert refused.status_code == 404 and not Match.objects.filter(player1=stranger).exists()


def played_night(dora: Any, club: Club, name: str, day: int, on_commit: Any) -> Division:
    """A club night: a knockout of four 1-point matches ("P01"-"P04", the better seed winning), played out."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name=name, club=club, starts_on=dt.date(2026, 11, day))
    settings = services.DivisionSettings(name="Open", format="single", entry_mode="scoresheet", match_length=1)
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, 5):
        services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
    with on_commit(execute=True):
        services.start_division(division, actor=actor)
        play_out(division, actor)
    return division


def test_the_player_page_shows_his_events_seasons_rating_head_to_head_and_nemesis(
    dora: Any, django_capture_on_commit_callbacks: Any
) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    services.create_season(
        club, actor=actor, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31),
        table={"per_win": 1, "places": [10, 6]},
    )  # fmt: skip
    services.create_season(
        club, actor=actor, name="Second places", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31),
        table={"per_win": 0, "places": [0, 0.5]},
    )  # fmt: skip
    for day in (5, 12):
        played_night(dora, club, f"Night {day}", day, django_capture_on_commit_callbacks)
    p02 = Player.objects.get(display_name="P02")
    p01 = Player.objects.get(display_name="P01")
    page = client_for().get(f"/players/{p02.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    events = text.split('id="events-heading"')[1].split("</section>")[0]
    assert events.index("Night 12") < events.index("Night 5"), "the latest first"
    assert events.count(">2</td>") == 2, "second on both nights"
    assert "Autumn" in text and "14 points, rank 2 (2 events)" in text  # 2 x (1 win + 6 for second)
    assert "Second places" in text and "1 point, rank 1 (2 events)" in text, "not 1 points"
    rating = Rating.objects.get(player=p02, rating_list=club.rating_list)
    assert f"Oslo BK: {rating.rating:.0f} after 4 rated matches" in text
    chart = text.split('class="rating-chart"')[1].split("</figure>")[0]
    assert "<svg" in chart and chart.count("<circle") == 5, "the start and after each of his 4 matches"
    h2h = text.split('id="h2h-heading"')[1].split("</section>")[0]
    assert f'Nemesis: <a href="/players/{p01.pk}/">P01</a>, 2 matches lost to them (0 won).' in h2h
    rows = [row.split("</tr>")[0] for row in h2h.split("<tr>")[2:]]
    assert [(">P01<" in r, ">P03<" in r) for r in rows] == [(True, False), (False, True)]
    assert ">0</td>" in rows[0] and ">2</td>" in rows[0] and ">2</td>" in rows[1]


def test_the_player_page_costs_the_same_for_two_nights_or_six(
    dora: Any, django_capture_on_commit_callbacks: Any
) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")

    def statements(last: str) -> int:
        player = Player.objects.get(display_name="P02")
        with CaptureQueriesContext(connection) as counted:
            page = client_for().get(f"/players/{player.pk}/")
        events = page.content.decode().split('id="events-heading"')[1].split("</section>")[0]
        assert last in events and events.count("<tr>") == 1 + int(last.split()[-1])
        return len(counted.captured_queries)

    for day in (1, 2):
        played_night(dora, club, f"Night {day}", day, django_capture_on_commit_callbacks)
    two = statements("Night 2")
    for day in (3, 4, 5, 6):
        played_night(dora, club, f"Night {day}", day, django_capture_on_commit_callbacks)
    assert statements("Night 6") == two


def test_a_club_nights_players_list_shows_each_ones_rating_on_the_clubs_list(
    dora: Any, django_capture_on_commit_callbacks: Any
) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    played_night(dora, club, "Night 1", 5, django_capture_on_commit_callbacks)
    night = club_night(dora, club, "Night 2")
    services.register_player(night, actor=actor, name="P01")
    services.register_player(night, actor=actor, name="Zed Newman")
    page = client_for(dora).get(f"/manage/{night.event.slug}/{night.slug}/").content.decode()
    rating = Rating.objects.get(player__display_name="P01", rating_list=club.rating_list).rating
    assert "On Oslo BK</th>" in page
    rows = {row.split("</tr>")[0] for row in page.split('<tr id="entry-')[1:]}
    assert any("P01" in row and re.search(rf'<td class="list-rating"[^>]*>{rating:.0f}</td>', row) for row in rows)
    new = r'<td class="list-rating"[^>]*>new \(1500\)</td>'
    assert any("Zed Newman" in row and re.search(new, row) for row in rows)
    plain = services.create_event(actor=actor, name="No list")
    division = services.create_division(
        plain, actor=actor, settings=services.DivisionSettings(name="Open", format="single")
    )
    services.register_player(division, actor=actor, name="Ann")
    page = client_for(dora).get(f"/manage/{plain.slug}/{division.slug}/").content.decode()
    assert "list-rating" not in page, "an event without a rating list shows no such column"


def test_who_is_it_names_a_player_already_entered_without_offering_him(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    first = club_night(dora, club, "Night 1")
    pia = services.register_player(first, actor=actor, name="Pia Ruud").player
    piet = services.register_player(first, actor=actor, name="Pia Rudd", new_player=True).player
    second = club_night(dora, club, "Night 2")
    services.register_player(second, actor=actor, player=pia)
    client, url = client_for(dora), f"/manage/{second.event.slug}/{second.slug}/"
    refused = client.post(url, {"action": "register", "register-name": "Pia Rud"})
    assert refused.status_code == 409
    page = refused.content.decode()
    offered = re.findall(r'name="register-choice" value="(\w+)"', page)
    assert offered == [str(piet.pk), "new"], "Pia plays tonight already"
    third = club_night(dora, club, "Night 3")
    for player in (pia, piet):
        services.register_player(third, actor=actor, player=player)
    url = f"/manage/{third.event.slug}/{third.slug}/"
    alone = client.post(url, {"action": "register", "register-name": "Pia Rud"})
    assert alone.status_code == 409, "close only to players entered: still asked, never a new player silently"
    assert re.findall(r'name="register-choice" value="(\w+)"', alone.content.decode()) == ["new"]
    assert "Pia Rud may be Pia Rudd or Pia Ruud, already entered" in alone.content.decode()
    new = client.post(url, {"action": "register", "register-name": "Pia Rud", "register-choice": "new"})
    assert new.status_code == 302
    assert Entry.objects.filter(division=third, player__display_name="Pia Rud").exists()


def test_a_club_director_is_removed_but_never_the_last(dora: Any, django_user_model: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    erik = django_user_model.objects.create_user("erik", password=None)
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    assert client.post(url, {"action": "add-director", "add-director-username": "erik"}).status_code == 302
    page = client.get(url).content.decode()
    assert page.count('value="remove-director"') == 2
    removed = client.post(url, {"action": "remove-director", "target": str(erik.pk)}, follow=True)
    assert "Erik is no longer a director of Oslo BK." in removed.content.decode()
    assert list(club.directors.all()) == [dora]
    last = client.post(url, {"action": "remove-director", "target": str(dora.pk)})
    assert last.status_code == 409
    assert "Oslo BK needs a director: add another one before removing dora" in last.content.decode()
    assert list(club.directors.all()) == [dora]


def test_a_new_club_opens_its_page_and_its_events_dashboard_names_it(dora: Any) -> None:
    client = client_for(dora)
    created = client.post("/manage/", {"action": "create-club", "create-club-name": "Oslo BK"})
    club = Club.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/clubs/{club.slug}/manage/"
    assert "Club “Oslo BK” created" in client.get(created["Location"]).content.decode()
    event = services.create_event(actor=Actor(user=dora), name="Thursday night", club=club)
    dashboard = client.get(f"/manage/{event.slug}/").content.decode()
    assert f'Club <a href="/clubs/{club.slug}/">Oslo BK</a>' in dashboard


def test_a_pasted_lists_close_name_is_chosen_per_line_and_the_other_lines_kept(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    pia = services.register_player(club_night(dora, club, "Night 1"), actor=actor, name="Pia Ruud").player
    second = club_night(dora, club, "Night 2")
    client, url = client_for(dora), f"/manage/{second.event.slug}/{second.slug}/"
    text = "Ola Dahl\npia ruud\nKari Lie"
    refused = client.post(url, {"action": "import", "import-text": text})
    assert refused.status_code == 409 and not Entry.objects.filter(division=second).exists()
    page = refused.content.decode()
    assert "Who is it? Line 2: pia ruud" in page
    assert re.findall(r'name="import-line-2" value="(\w+)"', page) == [str(pia.pk), "new"]
    assert "Ola Dahl\npia ruud\nKari Lie" in page, "the list is kept as it was pasted"
    chosen = client.post(url, {"action": "import", "import-text": text, "import-line-2": str(pia.pk)})
    assert chosen.status_code == 302
    entered = set(Entry.objects.filter(division=second).values_list("player__display_name", flat=True))
    assert entered == {"Ola Dahl", "Pia Ruud", "Kari Lie"}
    assert Entry.objects.get(division=second, player=pia)
    third = club_night(dora, club, "Night 3")
    url = f"/manage/{third.event.slug}/{third.slug}/"
    stranger = Player.objects.create(display_name="Not on the roster")
    wrong = client.post(url, {"action": "import", "import-text": text, "import-line-2": str(stranger.pk)})
    assert wrong.status_code == 400 and "is not on Oslo BK&#x27;s roster" in wrong.content.decode()
    new = client.post(url, {"action": "import", "import-text": text, "import-line-2": "new"})
    assert new.status_code == 302
    assert Entry.objects.filter(division=third, player__display_name="pia ruud").exists()
