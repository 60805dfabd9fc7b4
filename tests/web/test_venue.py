"""The room on the pages: the public "Current round" shows every round with a match to play (as the director's
page does), the venue's table of each board, the calls on the players' phones and the director's dashboard, and the
venue display."""

from __future__ import annotations

import datetime
import html as html_lib
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from games.models import Match
from tests.tournaments.services.support import director_win
from tests.web.test_entry_pages import Phone
from tournaments import services
from tournaments.models import Division, Pairing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def live_pairings(division: Division) -> str:
    url = reverse("tournaments:division-live", args=[division.event.slug, division.slug, "pairings"])
    response = Client().get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_public_current_round_shows_a_ready_main_round_2_match(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """11 players, main with consolation: two players given byes meet in main round 2 while round 1 is played;
    the director's page calls that round current, and so does the public one."""
    division = division_of("main-consolation", 11)
    services.start_division(division, actor=as_director)
    ready = Pairing.objects.filter(division=division, round__bracket="main", round__number=2, status="ready")
    ready = ready.select_related("entry_a__player", "entry_b__player", "table")
    assert ready.exists()
    html = live_pairings(division)
    assert "Main round 1" in html and "Main round 2" in html
    round_2 = html[html.index("Main round 2") :]
    for p in ready:
        assert p.entry_a.player.display_name in round_2 and p.entry_b.player.display_name in round_2


def test_each_board_shows_the_venues_table_and_byes_none(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("main-consolation", 11)
    services.set_tables(division.event, actor=as_director, names=["Feature table", "", ""])
    services.start_division(division, actor=as_director)
    html = live_pairings(division)
    table = '<th scope="row" data-label="Table">{}</th>'
    assert table.format("Feature table") in html
    assert table.format(2) in html and table.format(3) in html
    assert table.format(4) not in html, "three tables: the others wait"
    assert "queue" in html


# -- calls -----------------------------------------------------------------------------------------------------------


def two_tables_three_matches(division_of: Callable[..., Division], as_director: Actor) -> Division:
    """A Swiss round of three matches in a venue of two tables: two are called, one waits."""
    division = division_of("swiss", 6, match_length=3)
    services.set_tables(division.event, actor=as_director, names=["", ""])
    services.start_division(division, actor=as_director)
    return division


def test_a_call_reaches_both_phones_without_a_reload(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = two_tables_three_matches(division_of, as_director)
    waiting = Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").get(
        division=division, table__isnull=True
    )
    phones = [Phone(waiting.match, side) for side in (0, 1)]
    live = f"/play/match/{waiting.match_id}/live/"
    before = [phone.client.get(live) for phone in phones]
    assert all(r.status_code == 200 and "You are called" not in r.content.decode() for r in before)
    nexts = [phone.client.get("/play/pairings/next/?live=1") for phone in phones]
    assert all("waiting for a free table; you will be called" in r.content.decode() for r in nexts)
    assert all(
        p.client.get(live, HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 304 for p, r in zip(phones, before, strict=True)
    )

    done = Pairing.objects.select_related("entry_a").filter(division=division, table__number=2).get()
    director_win(done, done.entry_a, as_director)  # table 2 frees: the waiting match is called to it

    a, b = waiting.entry_a.player.display_name, waiting.entry_b.player.display_name
    for phone, old, old_next, other in zip(phones, before, nexts, (b, a), strict=True):
        polled = phone.client.get(live, HTTP_IF_NONE_MATCH=old["ETag"])
        assert polled.status_code == 200
        assert f"Table 2: you play {other}, Round 1, 3 points" in polled.content.decode()
        polled_next = phone.client.get("/play/pairings/next/?live=1", HTTP_IF_NONE_MATCH=old_next["ETag"])
        assert polled_next.status_code == 200
        assert f"Table 2: you play {other}, Round 1, 3 points" in polled_next.content.decode()


def test_the_next_match_page_polls_its_live_part(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = two_tables_three_matches(division_of, as_director)
    seated = Pairing.objects.filter(division=division, table__number=1).select_related("match").get()
    phone = Phone(seated.match, 0)
    html = phone.client.get("/play/pairings/next/").content.decode()
    assert 'hx-get="/play/pairings/next/?live=1"' in html and "htmx.min.js" in html
    assert "Table 1: you play" in html
    first = phone.client.get("/play/pairings/next/?live=1")
    assert phone.client.get("/play/pairings/next/?live=1", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


# -- the director's dashboard ----------------------------------------------------------------------------------------


def test_the_dashboard_shows_calls_and_the_queue_and_the_director_runs_the_tables(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = two_tables_three_matches(division_of, as_director)
    event = division.event
    client = Client()
    client.force_login(director)
    url = reverse("director:event", args=[event.slug])
    html = client.get(url).content.decode()
    assert "Tables, calls and the queue" in html
    waiting = Pairing.objects.select_related("entry_a__player", "entry_b__player").get(
        division=division, table__isnull=True
    )
    names = f"{waiting.entry_a.player.display_name} v {waiting.entry_b.player.display_name}"
    queue = html[html.index("Waiting for a table") : html.index("The tables</h3>")]
    assert names in queue
    calls = html[html.index("<h3>Calls</h3>") : html.index("Waiting for a table")]
    assert calls.count("<li>") == 2 and "Table 1" in calls and "Table 2" in calls

    # A third table, named; the waiting match is seated at once.
    response = client.post(url, {"action": "set-tables", "set-tables-tables": "1\n2\nFeature table"})
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert waiting.table is not None and waiting.table.label == "Feature table"
    # Its move is to a table chosen by name: the two others (each taken), not its own.
    html = client.get(url).content.decode()
    form = html[html.index(f'id="form-seat-match-{waiting.pk}"') :]
    options = re.findall(r'<option value="(\d*)">([^<]*)</option>', form[: form.index("</select>")])
    assert options == [("", "choose"), ("1", "Table 1 (taken)"), ("2", "Table 2 (taken)")]

    # Holding a table back, then a refused move: the page says why and nothing changes.
    assert client.post(url, {"action": "hold-table", "target": "3"}).status_code == 302
    refused = client.post(
        url, {"action": "seat-match", "target": str(waiting.pk), f"seat-match-{waiting.pk}-table": "1"}
    )
    assert refused.status_code == 409
    assert "Table 1 holds another match" in refused.content.decode()
    assert refused.content.decode().count("Nothing was changed.") == 1, "said once, by the page"
    waiting.refresh_from_db()
    assert waiting.table.label == "Feature table"
    response = client.post(url, {"action": "set-tables", "set-tables-tables": ""})
    assert response.status_code == 302
    assert "as many tables as there are matches" in client.get(url).content.decode()


def test_the_dashboards_calls_and_queue_refresh_themselves(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    """The page polls its live part; the part answers alone (304 while nothing changed) and shows a new call after
    a result frees a table; after a refusal the page does not poll, so the refusal stays shown."""
    division = two_tables_three_matches(division_of, as_director)
    event = division.event
    client = Client()
    client.force_login(director)
    live = reverse("director:event-venue-live", args=[event.slug])
    assert live == f"/manage/{event.slug}/live/venue/"
    html = client.get(reverse("director:event", args=[event.slug])).content.decode()
    part = re.search(r'<div id="venue-live"[^>]*>', html)
    assert part is not None
    assert f'hx-get="{live}"' in part.group() and 'hx-trigger="every 5s"' in part.group()
    assert 'hx-swap="outerHTML"' in part.group() and "data-live-part" in part.group()
    assert "htmx.min.js" in html and "js/events.js" in html and "js/director.js" in html

    first = client.get(live)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-store"
    text = first.content.decode()
    assert text.startswith('<div id="venue-live"'), "the part alone, without the page"
    assert f'data-etag="&quot;{first["ETag"][1:-1]}&quot;"' in text, "the part carries the ETag it is sent back with"
    waiting = Pairing.objects.select_related("entry_a__player", "entry_b__player").get(
        division=division, table__isnull=True
    )
    names = f"{waiting.entry_a.player.display_name} v {waiting.entry_b.player.display_name}"
    assert names in text[text.index("Waiting for a table") :], "the third match waits"
    assert client.get(live, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    seated = Pairing.objects.select_related("entry_a").filter(division=division, table__number=1).get()
    director_win(seated, seated.entry_a, as_director)  # table 1 frees: the waiting match is called to it
    after = client.get(live, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    calls = after.content.decode()
    calls = calls[calls.index("<h3>Calls</h3>") : calls.index("Waiting for a table")]
    assert f"<strong>Table 1</strong>: {division.name}" in calls and names in calls

    refused = client.post(
        reverse("director:event", args=[event.slug]),
        {"action": "seat-match", "target": str(waiting.pk), f"seat-match-{waiting.pk}-table": "2"},
    )
    assert refused.status_code == 409 and "Table 2 holds another match" in refused.content.decode()
    stopped = re.search(r'<div id="venue-live"[^>]*>', refused.content.decode())
    assert stopped is not None and "hx-get" not in stopped.group()


# -- the venue display -----------------------------------------------------------------------------------------------


def test_the_venue_display_shows_calls_boards_and_standings_and_turns_its_pages(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 30, match_length=3)
    services.start_division(division, actor=as_director)
    first = Pairing.objects.select_related("entry_a").filter(division=division, table__number=1).get()
    director_win(first, first.entry_a, as_director)
    services.recompute_standings(division.pk)
    url = reverse("tournaments:event-display", args=[division.event.slug])
    html = Client().get(url).content.decode()
    assert "Calls" in html and "Now playing" in html and "Standings" in html
    calls = re.findall(r"<li>Table (\d+): P\d\d v P\d\d, Round 1, 3 points</li>", html)
    assert len(calls) == 3, "the three newest calls"
    assert '<li class="display-more">and 11 more calls: Table ' in html, "the others counted, with their tables"
    assert "Page 1 of 2" in html, "14 boards nine a screen, 30 standings rows sixteen a screen: two screens"
    assert 'Now playing <span class="display-count">· 1\u20139 of 14</span>' in html, "which of the boards it shows"
    assert 'Standings <span class="display-count">1\u201316 of 30</span>' in html
    assert f'hx-get="{url}live/?page=1"' in html
    second = Client().get(url + "live/?page=1")
    assert second.status_code == 200 and "Page 2 of 2" in second.content.decode()
    assert 'Now playing <span class="display-count">· 10\u201314 of 14</span>' in second.content.decode()
    assert 'Standings <span class="display-count">17\u201330 of 30</span>' in second.content.decode()
    last = Client().get(url + "live/?page=3").content.decode()
    assert "Page 2 of 2" in last and 'Now playing <span class="display-count">· 10\u201314 of 14</span>' in last
    assert f'hx-get="{url}live/"' in last, "back to the first screen after the last, at the address with no page"
    polled, address = [], f"{url}live/"
    for _ in range(6):  # every display, whenever it started, turns through the same few addresses
        polled.append(address)
        found = re.search(r'hx-get="([^"]+)"', Client().get(address).content.decode())
        assert found
        address = html_lib.unescape(found.group(1))
    assert polled == [f"{url}live/", f"{url}live/?page=1"] * 3
    again = Client().get(url + "live/?page=1", HTTP_IF_NONE_MATCH=second["ETag"])
    assert again.status_code == 304


def test_a_match_page_names_the_table_it_is_played_at_and_then_the_one_it_was_played_at(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 8, match_length=3)
    services.start_division(division, actor=as_director)
    seated = Pairing.objects.select_related("entry_a", "table").filter(division=division, table__number=2).get()
    page = reverse("games:match", args=[seated.match_id])
    assert '<strong class="match-table">At Table 2</strong>' in Client().get(page).content.decode()
    director_win(seated, seated.entry_a, as_director)
    seated.refresh_from_db()
    assert seated.table_id is None, "the table is freed for the next match"
    assert '<strong class="match-table">Played at Table 2</strong>' in Client().get(page).content.decode()


def test_a_match_page_says_its_match_waits_for_a_table(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = two_tables_three_matches(division_of, as_director)
    waiting = Pairing.objects.get(division=division, table__isnull=True, status=Pairing.Status.READY)
    html = Client().get(reverse("games:match", args=[waiting.match_id])).content.decode()
    assert '<strong class="match-table">Waiting for a table: its players are called when one frees</strong>' in html


def test_a_finished_matchs_table_is_written_as_the_tables_held_are_on_the_directors_pages_and_the_sheet(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    """The Table column said "2" of a match at Table 2 and "Table 2" once it was over (its table freed)."""
    division = division_of("swiss", 8, match_length=3)
    services.start_division(division, actor=as_director)
    seated = Pairing.objects.select_related("entry_a").filter(division=division, table__number=2).get()
    director_win(seated, seated.entry_a, as_director)
    seated.refresh_from_db()
    assert seated.table_id is None and seated.played_at == "Table 2"
    client = Client()
    client.force_login(director)
    slugs = (division.event.slug, division.slug)
    for page in (reverse("director:division", args=slugs), reverse("director:event", args=[slugs[0]])):
        html = client.get(page).content.decode()
        cells = re.findall(r'<td(?: data-label="Table")?>([^<]*)</td>', html)  # the dashboard's boards are cards
        assert "Table 2" not in cells and "2" in cells, page
    sheet = client.get(reverse("director:sheet", args=[*slugs, "swiss", 1])).content.decode()
    assert 'data-label="Table">Table 2</td>' not in sheet and 'data-label="Table">2</td>' in sheet


def test_a_display_of_one_screen_polls_it_with_its_etag_and_is_answered_304_until_it_changes(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 8, match_length=3)
    services.start_division(division, actor=as_director)
    url = reverse("tournaments:event-display", args=[division.event.slug])
    html = Client().get(url).content.decode()
    assert "Page 1 of" not in html, "one screen: the display polls the same address"
    found = re.search(r'<div id="display"[^>]*data-etag="([^"]+)"[^>]*hx-get="([^"]+)"', html)
    assert found is not None, "the screen carries the ETag it is polled with"
    etag, live = html_lib.unescape(found.group(1)), html_lib.unescape(found.group(2))
    assert live == f"{url}live/" and etag.startswith('"') and len(etag) == 26
    first = Client().get(live)
    assert first["ETag"] == etag, "the page's screen and the live part's are one screen, with one ETag"
    assert f'data-etag="&quot;{etag[1:-1]}&quot;"' in first.content.decode()
    assert Client().get(live, HTTP_IF_NONE_MATCH=etag).status_code == 304
    pairing = Pairing.objects.select_related("entry_a").filter(division=division).order_by("board").first()
    assert pairing is not None
    director_win(pairing, pairing.entry_a, as_director)
    changed = Client().get(live, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert f'data-etag="&quot;{changed["ETag"][1:-1]}&quot;"' in changed.content.decode()


def test_the_event_page_leads_to_its_venue_display(division_of: Callable[..., Division]) -> None:
    event = division_of("swiss", 8).event
    html = Client().get(reverse("tournaments:event-detail", args=[event.slug])).content.decode()
    display = reverse("tournaments:event-display", args=[event.slug])
    assert f'<a href="{display}">The venue display: calls, boards and standings' in html


def test_between_rounds_the_display_says_no_match_is_at_a_table_and_a_row_alone_is_named_by_its_number(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """It said "No call: every match at a table has started." with no match at any table; a screen of one board
    said "10\u201310 of 10"."""
    division = division_of("swiss", 20, match_length=3)
    url = reverse("tournaments:event-display", args=[division.event.slug])
    assert "No call: no match is at a table." in Client().get(url).content.decode()  # before the start
    services.start_division(division, actor=as_director)
    html = Client().get(url).content.decode()
    assert "No call: no match is at a table." not in html
    second = Client().get(url + "live/?page=1").content.decode()
    assert 'Now playing <span class="display-count">\u00b7 10 of 10</span>' in second, "twenty players: ten boards"


def test_a_private_events_display_is_not_found(division_of: Callable[..., Division], as_director: Actor) -> None:
    event = services.create_event(actor=as_director, name="Closed doors", public=False)
    assert Client().get(reverse("tournaments:event-display", args=[event.slug])).status_code == 404


def display_html(division: Division) -> str:
    response = Client().get(reverse("tournaments:event-display", args=[division.event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def boards_part(html: str) -> str:
    return html[html.index('id="display-boards-heading"') : html.index('id="display-standings-heading"')]


def test_now_playing_shows_only_the_matches_at_tables_with_the_rounds_named_as_the_division_page_names_them(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 4, match_length=3)
    services.start_division(division, actor=as_director)
    first = Pairing.objects.select_related("entry_a__player", "entry_b__player").filter(division=division)
    first = first.filter(round__number=1).order_by("board").first()
    assert first is not None
    director_win(first, first.entry_a, as_director)
    boards = boards_part(display_html(division))
    assert first.entry_b.player.display_name not in boards, "a finished match is no longer playing"
    assert boards.count("display-players") == 1, "the one match still at a table"
    assert "Main semi-final" in boards and "Main round" not in boards, "a 4-player bracket's first round"


def test_the_display_of_a_finished_event_shows_the_final_standings_and_says_the_event_is_over(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 4, match_length=3)
    services.start_division(division, actor=as_director)
    for _ in range(2):
        for p in Pairing.objects.select_related("entry_a").filter(division=division, status="ready"):
            director_win(p, p.entry_a, as_director)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    services.recompute_standings(division.pk)
    html = display_html(division)
    assert "The standings show once results are in" not in html
    assert f"{division.name}: final standings" in html and "P01" in html[html.index("display-standings-heading") :]
    assert "every match at a table has started" not in html and "The event is over" in html
    assert "display-players" not in boards_part(html), "nothing is being played"


def test_the_dashboard_shows_the_time_of_a_call_in_the_events_time_zone(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    """An event in Europe/Oslo (UTC+1 in December): a call made at 22:41 UTC reads "called at 23:41", on the page
    and on its live part."""
    division = two_tables_three_matches(division_of, as_director)
    event = division.event
    event.time_zone = "Europe/Oslo"
    event.save(update_fields=["time_zone"])
    called = Pairing.objects.filter(division=division, table__number=1).get()
    called.called_at = datetime.datetime(2026, 12, 1, 22, 41, tzinfo=datetime.UTC)
    called.save(update_fields=["called_at"])
    client = Client()
    client.force_login(director)
    page = client.get(reverse("director:event", args=[event.slug])).content.decode()
    live = client.get(reverse("director:event-venue-live", args=[event.slug])).content.decode()
    for html in (page, live):
        calls = html[html.index("<h3>Calls</h3>") : html.index("Waiting for a table")]
        # Table 1's line only: the other calls were made now, whose time in Oslo may be any (22:41 once a day).
        table_1 = calls[calls.index("<strong>Table 1</strong>") :]
        table_1 = table_1[: table_1.index("</li>")]
        assert "called at 23:41" in table_1 and "22:41" not in table_1


def test_a_ready_match_without_a_table_says_it_waits_for_one_on_the_public_and_director_pages(
    division_of: Callable[..., Division], as_director: Actor, client: Client
) -> None:
    division = two_tables_three_matches(division_of, as_director)
    waiting = Pairing.objects.select_related("entry_a__player").get(division=division, table__isnull=True)
    name = waiting.entry_a.player.display_name
    public = live_pairings(division)
    row = public[public.index(name) :]
    row = row[: row.index("</tr>")]
    assert "waiting for a table" in row and "ready to play" not in row
    assert public.count("waiting for a table") == 1, "the two matches at a table are ready to play"
    client.force_login(as_director.user)
    # The event's page says the two called matches' state twice: in the division's boards and at the room's tables.
    for url, ready in ((f"/manage/{division.event.slug}/{division.slug}/", 2), (f"/manage/{division.event.slug}/", 4)):
        page = client.get(url).content.decode()
        assert page.count("waiting for a table") == 1, url
        assert page.count('state-ready">ready<') == ready, url


def test_a_finished_match_shows_the_table_it_was_played_at_without_holding_it(
    division_of: Callable[..., Division], as_director: Actor, client: Client
) -> None:
    division = two_tables_three_matches(division_of, as_director)
    seated = Pairing.objects.select_related("entry_a__player").filter(division=division, table__number=1).get()
    done = director_win(seated, seated.entry_a, as_director)
    assert done.table_id is None, "a finished match holds no table"
    assert done.played_at == "Table 1" and done.place_label == "Table 1"
    public = live_pairings(division)
    row = public[: public.index(seated.entry_a.player.display_name)]
    assert row[row.rindex("<tr") :].count('<th scope="row" data-label="Table">1</th>') == 1  # as the held ones
    client.force_login(as_director.user)
    page = client.get(f"/manage/{division.event.slug}/{division.slug}/").content.decode()
    row = page[: page.index(seated.entry_a.player.display_name)]
    assert "<td>1</td>" in row[row.rindex("<tr") :], "by its number, as the tables held (and the public pages)"


def test_in_a_room_of_two_divisions_each_call_on_the_display_names_its_division(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, match_length=3)
    settings = services.DivisionSettings(name="Beginners", format="round-robin", match_length=1)
    other = services.create_division(division.event, actor=as_director, settings=settings)
    for name in ("Ann", "Bo"):
        services.register_player(other, actor=as_director, name=name)
    services.start_division(division, actor=as_director)
    services.start_division(other, actor=as_director)
    html = display_html(division)
    assert "<li>Table 3: Ann v Bo, Beginners, Round 1, 1 point</li>" in html
    assert len(re.findall(rf"<li>Table [12]: P\d\d v P\d\d, {division.name}, Round 1, 3 points</li>", html)) == 2
    # (a room of one division: the calls name no division, test_the_venue_display_shows_calls_boards_and_standings)


def test_a_long_queue_lists_its_first_matches_with_their_forms_and_counts_the_others(
    division_of: Callable[..., Division], as_director: Actor, director: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.director.views import events

    monkeypatch.setattr(events, "QUEUE_SHOWN", 1)
    division = division_of("swiss", 8, match_length=3)
    services.set_tables(division.event, actor=as_director, names=["", ""])
    services.start_division(division, actor=as_director)  # four matches, two tables: two wait
    client = Client()
    client.force_login(director)
    html = client.get(reverse("director:event", args=[division.event.slug])).content.decode()
    queue = html[html.index("Waiting for a table") : html.index("The tables</h3>")]
    assert queue.count('class="button-form seat-form"') == 1
    assert "And 1 more match waiting, in this order, after these." in queue


def players_cell(p: Pairing) -> str:
    """The players of ``p`` as a row of "Now playing" shows them."""
    assert p.entry_a is not None and p.entry_b is not None
    a, b = p.entry_a.player.display_name, p.entry_b.player.display_name
    name = '<span class="display-name">{}</span>'
    return f'{name.format(a)} <span class="display-v">v</span> {name.format(b)}'


def test_now_playing_shows_every_match_at_a_table_whatever_its_round_each_once(
    division_of: Callable[..., Division], as_director: Actor, django_assert_max_num_queries: Any
) -> None:
    """A round robin of 6 players in a venue of six tables (two rounds' matches): round 1 holds tables 1-3; as its
    first matches end, a round-2 match whose players are both free is called to a table while round 1 is still the
    division's current round (a match of it not started). "Now playing" lists every match at a table, the round-2
    one with its division and round; then a match its players started on their phones without a table is listed
    after them; each match once. The screen's reads are few and do not grow with the room."""
    division = division_of("round-robin", 6, match_length=3)
    services.set_tables(division.event, actor=as_director, names=[""] * 6)
    services.start_division(division, actor=as_director)
    related = ("entry_a__player", "entry_b__player", "match", "round", "table")
    pairings = Pairing.objects.select_related(*related).filter(division=division)
    first_round = list(pairings.filter(table__isnull=False).order_by("table__number"))
    assert [p.round.number for p in first_round] == [1, 1, 1], "round 2's players are still at round-1 tables"
    for p in first_round[:2]:
        director_win(p, p.entry_a, as_director)
        if pairings.filter(round__number=2, table__isnull=False).exists():
            break
    ahead = pairings.get(round__number=2, table__isnull=False)
    assert pairings.filter(round__number=1, status="ready").exists(), "round 1 is still the current round"
    seated = list(pairings.filter(table__isnull=False).order_by("table__number"))
    with django_assert_max_num_queries(7):  # the event, the venue (2), the divisions, their rounds, the standings (2)
        boards = boards_part(display_html(division)).split('class="state-waiting"')[0]  # then the queue
    assert boards.count("display-players") == len(seated) >= 2, "every match at a table"
    assert ahead.table is not None
    row = boards[boards.index(f'<th scope="row">{ahead.table.label}</th>') :]
    row = row[: row.index("</tr>")]
    assert players_cell(ahead) in row and f"<span>{division.name},</span> <span>Round 2</span>" in row
    # Two players start their match on their phones without a table: it is listed, after the tables.
    unseated = pairings.filter(table__isnull=True, status="ready", match__isnull=False).order_by("round", "board")[0]
    assert unseated.match is not None
    unseated.match.status = Match.Status.IN_PROGRESS
    unseated.match.save(update_fields=["status"])
    boards = boards_part(display_html(division)).split('<tr class="state-waiting"')[0]
    assert boards.count("display-players") == len(seated) + 1
    last = boards[boards.rindex("<tr ") :]
    assert '<th scope="row">—</th>' in last and players_cell(unseated) in last, "the match without a table last"
    for p in [*seated, unseated]:
        assert boards.count(players_cell(p)) == 1, "each match once"


def test_a_match_not_called_says_so_on_its_phones_and_names_a_player_still_playing(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A tester entered a result for a match waiting for a table while its other player was still at another
    table: the page said nothing."""
    division = two_tables_three_matches(division_of, as_director)
    waiting = Pairing.objects.select_related("match").get(division=division, table__isnull=True)
    phone = Phone(waiting.match, 0)
    page = phone.page()
    assert "Not called yet" in page and "waits for a free table" in page
    assert "is still playing another match" not in page
    # One of its players is seated at another match meanwhile (a round robin drawn ahead does this).
    seated = Pairing.objects.select_related("match").filter(division=division, table__number=1).get()
    Match.objects.filter(pk=seated.match_id).update(player2=waiting.match.player2)
    Pairing.objects.filter(pk=seated.pk).update(status=Pairing.Status.PLAYING)
    name = waiting.match.player2.display_name
    assert f"{name} is still playing another match (Table 1)." in phone.page()
    called = Phone(Pairing.objects.get(pk=seated.pk).match, 0).page()
    assert "Not called yet" not in called


def display_places(division: Division) -> list[tuple[str, str]]:
    html = display_html(division)
    standings = html[html.index("display-standings-heading") :]
    return re.findall(r'<tr><td>([^<]*)</td><th scope="row">([^<]*)</th>', standings)


def public_places(division: Division) -> list[tuple[str, str]]:
    """(the Place column, else the Rank column; the player) of each row of the division page's standings."""
    html = Client().get(reverse("tournaments:division-detail", args=[division.event.slug, division.slug]))
    table = html.content.decode().split('id="standings"')[1].split("</table>")[0]
    rows = re.findall(
        r'data-label="Rank">([^<]*)</td>.*?class="who">([^<]*)</span>.*?(?:data-label="Place">([^<]*)</td>|</tr>)',
        table,
    )
    return [(place or rank, name) for rank, name, place in rows]


def test_the_display_gives_a_knockouts_players_the_places_of_the_division_page_in_its_order(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A knockout of four: while the final is played, the semi-final losers share 3-4 (not "3"), the finalists
    are "in play" above them (not "1" each); once it is over, the runner-up is 2nd, above them."""
    division = division_of("single", 4, match_length=3)
    services.start_division(division, actor=as_director)
    for p in Pairing.objects.select_related("entry_a").filter(division=division, status="ready"):
        director_win(p, p.entry_a, as_director)
    services.recompute_standings(division.pk)
    during = display_places(division)
    assert during == [("in play", "P01"), ("in play", "P02"), ("3-4", "P03"), ("3-4", "P04")]
    assert during == public_places(division)
    final = Pairing.objects.select_related("entry_b").get(division=division, status="ready")
    director_win(final, final.entry_b, as_director)
    services.recompute_standings(division.pk)
    assert display_places(division) == [("1", "P02"), ("2", "P01"), ("3-4", "P03"), ("3-4", "P04")]
    assert display_places(division) == public_places(division)


def test_a_reopened_match_called_to_a_new_table_reads_playing_on_the_dashboard_as_on_the_division_page(
    division_of: Callable[..., Division], as_director: Actor, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A correction reopens a match whose table went to another one; the next table freed calls its players there.
    The dashboard's tables say its state in the division page's words ("playing, 1-2"), the call beside them."""
    from tests.tournaments.services.test_tables import pairing, reopened_after_its_table_went

    division, done, newcomer = reopened_after_its_table_went(
        division_of, as_director, django_capture_on_commit_callbacks
    )
    with django_capture_on_commit_callbacks(execute=True):
        director_win(pairing(division, newcomer.key), newcomer.entry_a, as_director)
    done = pairing(division, done.key)
    assert done.table_label == "Table 2" and done.called_at is not None
    client = Client()
    client.force_login(director)
    dashboard = client.get(reverse("director:event", args=[division.event.slug])).content.decode()
    tables = dashboard[dashboard.index("The tables</h3>") :]
    row = tables[tables.index('<th scope="row">Table 2') :].split("</tr>")[0]
    assert "playing, 1\N{EN DASH}2" in row and '<span class="badge">called</span>' in row
    page = client.get(reverse("director:division", args=[division.event.slug, division.slug])).content.decode()
    assert "playing, 1\N{EN DASH}2" in page
