"""The public event pages (tournaments/views.py): the events list and the home page, an event, a division (standings,
the current round, the bracket, the links to every round) for each format family, a round's page, the live parts with
their ETag and 304, the results CSV, privacy, escaping, markup a 'self'-only Content-Security-Policy allows, no entry
token on any page, and query counts that do not grow with the field.

Events are built through the services: whole rehearsals by ``tournaments.simulation.simulate_event``, running
divisions by the directors' and players' services (``division_of`` and the helpers of the tournaments API tests).
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import games.services
from common.actor import Actor
from games.access import new_entry_token, token_text
from games.models import EntryToken, Match, Player
from tests.tournaments.api.support import enter_result, play_round
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Round, Standing
from tournaments.simulation import simulate_event
from tournaments.tasks import recompute_standings_task
from tournaments.templatetags.bracket import centre
from tournaments.templatetags.event_pages import player
from tournaments.views import csv_cell

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

EVIL = "<script>alert(1)</script>"
ESCAPED_EVIL = "&lt;script&gt;alert(1)&lt;/script&gt;"
BYE_NOTE = "A bye counts as a match win against a virtual opponent scored 0 for Buchholz and Sonneborn-Berger"
FAMILIES = ("swiss", "round-robin", "main-consolation", "double-elimination")

# -- fixtures and helpers ----------------------------------------------------------------------------------------------


def page_url(division: Division) -> str:
    return reverse("tournaments:division-detail", args=[division.event.slug, division.slug])


def live_url(division: Division, part: str) -> str:
    return reverse("tournaments:division-live", args=[division.event.slug, division.slug, part])


def csv_url(division: Division) -> str:
    return reverse("tournaments:division-results-csv", args=[division.event.slug, division.slug])


def event_url(event: Event) -> str:
    return reverse("tournaments:event-detail", args=[event.slug])


def round_url(division: Division, bracket: str, number: int | str, *, live: bool = False) -> str:
    name = "tournaments:division-round-live" if live else "tournaments:division-round"
    return reverse(name, args=[division.event.slug, division.slug, bracket, number])


def urls_of(division: Division) -> list[str]:
    """Every page of a division and of its event (the bracket part only where there is a bracket), with every
    round's page and live part."""
    parts = ["standings", "pairings", *(["bracket"] if division.is_elimination else [])]
    rounds = Round.objects.filter(division=division).order_by("number", "bracket")
    return [
        event_url(division.event),
        page_url(division),
        *(live_url(division, part) for part in parts),
        *(round_url(division, r.bracket, r.number, live=live) for r in rounds for live in (False, True)),
        csv_url(division),
    ]


def html_of(client: Client, url: str, **headers: Any) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def assert_csp_friendly(html: str) -> None:
    """Nothing a 'self'-only Content-Security-Policy blocks: no style attribute, no inline script or handler, nothing
    loaded from another site."""
    assert 'style="' not in html and "style='" not in html
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert re.search(r'\ssrc="/static/[^"]+"', tag), tag
    assert not re.search(r"<script\b[^>]*>\s*[^<\s]", html), "an inline script"
    assert not re.search(r"\son[a-z]+\s*=", html), "an inline event handler"
    assert not re.search(r"""(src|href)=["'](https?:)?//""", html)


def tokens_of(division: Division) -> list[str]:
    tokens = EntryToken.objects.filter(match__pairing__division=division)
    return [text for token in tokens for text in (token_text(token), token.nonce)]


def finished(fmt: str, players: int = 8) -> Division:
    """A rehearsal played to the end; ``division.champion`` is the report's main champion (a player's name)."""
    report = simulate_event(format=fmt, players=players, seed=3, match_length=1)
    division = Division.objects.select_related("event").get(event__slug=report["event"])
    names = {p["id"]: p["name"] for p in report["players"]}
    division.champion = names[report["champions"]["main"]]
    return division


def pairing(division: Division, key: str) -> Pairing:
    return Pairing.objects.select_related("entry_a__player", "entry_b__player").get(division=division, key=key)


def link(match_id: int, side: int) -> Actor:
    return Actor(token=new_entry_token(Match.objects.get(pk=match_id), side))


def one_game(p: Pairing, *, winner: int = 0) -> None:
    """Side ``winner`` enters one single game from the scoresheet: the match is under way."""
    match = Match.objects.get(pk=p.match_id)
    games.services.record_game_result(
        match.pk, actor=link(match.pk, winner), winner=winner, kind=1, expected_seq=match.seq
    )


def queries(client: Client, url: str, **headers: Any) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, headers=headers)
    return response.status_code, len(captured.captured_queries)


@pytest.fixture
def running_elimination(division_of: Callable[..., Division], as_director: Actor) -> Division:
    """Main with consolation, 8 players, 3-point scoresheet matches; main round 1: table 1 under way (1-0), table 2
    entered and waiting for the loser's confirmation, table 3 disputed, table 4 forfeited (no-show)."""
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=3)
    services.start_division(division, actor=as_director)
    one_game(pairing(division, "main-1-0"))
    enter_result(pairing(division, "main-1-1"), winner=0)
    disputed = enter_result(pairing(division, "main-1-2"), winner=1)
    services.dispute_result(disputed, actor=link(disputed.match_id, 0), reason="I won the last game")
    forfeited = pairing(division, "main-1-3")
    services.award_forfeit(forfeited, actor=as_director, loser=forfeited.entry_b, kind="no-show", reason="did not come")
    return Division.objects.select_related("event").get(pk=division.pk)


# -- the events list and the home page -------------------------------------------------------------------------------


def test_the_events_list_and_the_home_page_show_running_events_first(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
) -> None:
    past = finished("single", 2).event
    services.create_event(actor=as_director, name="Spring Open", venue="Oslo BK")
    running = division_of("swiss", 4, event=services.create_event(actor=as_director, name="Club night"))
    services.start_division(running, actor=as_director)
    hidden = services.create_event(actor=as_director, name="Board meeting", public=False)

    html = html_of(client, reverse("tournaments:event-list"))
    names = re.findall(r'<th scope="row"[^>]*><a href="/events/[^/]+/">([^<]+)</a>', html)
    assert names == ["Club night", "Spring Open", past.name]
    assert hidden.name not in html
    assert "Oslo BK" in html and "registration open" in html and "running" in html and "finished" in html
    assert "<caption>" in html and '<th scope="col">' in html
    assert_csp_friendly(html)

    home = html_of(client, "/")
    running_part, upcoming_part = home.split('id="upcoming-heading"')
    assert "Club night" in running_part and "Spring Open" not in running_part
    assert "Spring Open" in upcoming_part and past.name not in home and hidden.name not in home
    assert 'href="/api/docs/"' in home and 'href="/api/schema/"' in home
    assert '<a href="/events/">Events</a>' in home  # the site's navigation
    assert_csp_friendly(home)


# -- every page of each format family --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FAMILIES)
def test_every_page_of_a_finished_division(client: Client, fmt: str, django_assert_max_num_queries: Any) -> None:
    division = finished(fmt)
    # the event's page: 4, and 1 for the playoffs still to be played once a Swiss or round robin has finished
    # (one a page, whatever the divisions: a finished division whose playoff is unfinished is not over)
    for url, budget in ((reverse("tournaments:event-list"), 2), (event_url(division.event), 5), ("/", 1)):
        with django_assert_max_num_queries(budget):
            assert client.get(url).status_code == 200
    secrets = tokens_of(division)
    assert secrets  # the rehearsal entered every result through entry links
    for url in urls_of(division):
        body = html_of(client, url)
        assert not any(secret in body for secret in secrets), url
        if not url.endswith(".csv"):
            assert_csp_friendly(body)

    event = html_of(client, event_url(division.event))
    assert "Championship" in event and "8</td>" in event and "finished" in event
    assert f'<strong class="who">{division.champion}</strong>' in event

    html = html_of(client, page_url(division))
    assert "<h1>Championship" in html and "<main" in html and 'aria-label="On this page"' in html
    assert html.count('<tr><td class="rank"') == 8  # the standings: one row per player
    assert 'href="#standings"' in html and 'href="#pairings"' in html and 'href="#rounds"' in html
    assert f'href="{csv_url(division)}"' in html
    assert 'id="standings"' in html and 'id="pairings"' in html and 'id="rounds"' in html
    assert "Standings pending" not in html
    # a finished division's parts do not poll any more
    assert "hx-get" not in html
    if division.is_elimination:
        assert 'id="bracket"' in html and 'class="bracket-slot' in html and "<svg" in html
        assert f'Champion: <strong class="who">{division.champion}</strong>' in html
        assert BYE_NOTE not in html
    else:
        assert 'id="bracket"' not in html
        assert BYE_NOTE in html
        assert client.get(live_url(division, "bracket")).status_code == 404
    if fmt == "double-elimination":
        assert "Winners&#x27; bracket" in html and "Losers&#x27; bracket" in html
        assert "Grand final" in html and "Reset (if needed)" in html and "if needed" in html
    if fmt == "double-elimination":
        titles = [html_of(client, url).split('<h1 id="round-title">')[1].split(" <span")[0]
                  for url in urls_of(division) if "/rounds/" in url and not url.endswith("/live/")]  # fmt: skip
        assert "Grand final" in titles and "Grand final reset (if needed)" in titles
        assert "Winners&#x27; final" in titles and "Losers&#x27; round 1" in titles
    if fmt == "round-robin":
        assert html.count('<li id="round-round-robin-') == 7  # a link to each round's page


def test_a_swiss_division_shows_the_tiebreaks_and_the_table_after_each_round(client: Client) -> None:
    division = finished("swiss")
    html = html_of(client, page_url(division))
    for title, abbr in (
        ("Buchholz: the sum of the opponents&#x27; scores", "Bu"),
        ("Sonneborn-Berger: the sum of the scores of the opponents the player beat", "SB"),
        ("Points difference: points won minus points lost, over all the player&#x27;s matches", "+/-"),
    ):
        assert f'<th scope="col" class="tiebreak"><abbr title="{title}">{abbr}</abbr></th>' in html
    assert "Standings after round 3" in html
    assert '<a href="?after_round=1#standings">1</a>' in html
    assert '<a href="?after_round=3#standings" aria-current="page">3</a>' in html

    first = html_of(client, page_url(division) + "?after_round=1")
    assert "Standings after round 1" in first
    assert '<td class="won" data-label="Won">1</td><td class="lost" data-label="Lost">0</td>' in first  # 1 won, 0 lost
    live = html_of(client, live_url(division, "standings") + "?after_round=1")
    assert "Standings after round 1" in live
    assert "There is no table after round 9" in html_of(client, page_url(division) + "?after_round=9")

    # tables that do not follow each other (the page reads which exist rather than assume 1 to 3)
    Standing.objects.filter(division=division, after_round=2).delete()
    gaps = html_of(client, page_url(division))
    assert '<a href="?after_round=1#standings">1</a>' in gaps and "?after_round=2#" not in gaps
    assert '<a href="?after_round=3#standings" aria-current="page">3</a>' in gaps


def test_the_pairings_of_a_running_elimination_with_consolation(client: Client, running_elimination: Division) -> None:
    division = running_elimination
    html = html_of(client, page_url(division))
    assert_csp_friendly(html)
    current = html.split('id="pairings"')[1].split('id="bracket"')[0]
    assert "Main round 1 · 3-point matches" in current
    # table 1: under way, with the live score from the match and a link to the match page
    live_match = pairing(division, "main-1-0").match_id
    assert (
        f'<a href="/matches/{live_match}/"><span class="visually-hidden">Match page, score </span>1\N{EN DASH}0</a>'
        in current
    )
    assert '<span class="badge badge-live">live</span>' in current
    # table 2: waiting for the loser's confirmation; table 3: disputed; table 4: forfeited
    loser = pairing(division, "main-1-1").entry_b.player.display_name
    assert f"waiting for confirmation by {loser}" in current
    assert "disputed: a director decides" in current
    assert "forfeit (no-show): did not come" in current
    assert current.count('class="side won"') == 3  # the winners of tables 2, 3 and 4
    # seeds beside the names
    assert '<span class="seed"><span class="visually-hidden">seed </span>1</span>' in current

    bracket = html.split('id="bracket"')[1].split('id="rounds"')[0]
    # who the consolation is drawn from, on the slots still waiting for its draw
    assert "players are known: the losers of Main round 1" in bracket
    assert "winner of Main round 1 match 1" in bracket
    assert "Consolation" in bracket and "Main draw" in bracket
    assert 'class="bracket-scroll" role="region"' in bracket and 'tabindex="0"' in bracket
    # live parts poll every 5 s with their ETag
    for part in ("standings", "pairings", "bracket"):
        assert f'hx-get="{live_url(division, part)}" hx-trigger="every 5s" hx-swap="outerHTML"' in html
    assert re.search(r'id="pairings" [^>]*data-etag="&quot;[0-9a-f]{24}&quot;"', html)
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == [
        '<script src="/static/vendor/htmx/htmx.min.js" defer>',
        '<script src="/static/js/events.js" defer>',
        '<script src="/static/js/connection.js" defer>',
        '<script src="/static/js/tables.js" defer>',
    ]
    assert '<meta name="htmx-config"' in html

    # the live part names the round as the page does (not the last round it reads: "final")
    part = html_of(client, live_url(division, "pairings")).split('<ul id="round-links"')[0]  # before the round list
    assert "Main round 1 · 3-point matches" in part and "final" not in part

    event = html_of(client, event_url(division.event))
    assert "Main round 1" in event and "main draw with a consolation" in event


def test_the_bracket_lines_join_each_match_to_the_next(client: Client, division_of: Callable[..., Division],
                                                        as_director: Actor) -> None:  # fmt: skip
    division = division_of("single", 8, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    html = html_of(client, live_url(division, "bracket"))
    svgs = re.findall(r'<div class="bracket-lines" aria-hidden="true"><svg [^>]*>(.*?)</svg></div>', html)
    assert len(svgs) == 2  # round 1 -> 2 and round 2 -> final
    first = re.findall(r'd="M0 ([\d.]+) H50 V([\d.]+) H100"', svgs[0])
    assert first == [("125.0", "250.0"), ("375.0", "250.0"), ("625.0", "750.0"), ("875.0", "750.0")]
    assert re.findall(r'd="M0 ([\d.]+) H50 V([\d.]+) H100"', svgs[1]) == [("250.0", "500.0"), ("750.0", "500.0")]
    assert 'class="bracket-line"' in svgs[0] and "decided" not in svgs[0]
    assert centre(0, 1) == 500.0 and centre(3, 4) == 875.0
    assert "Final" in html and "winner of Main round 1 match 1" in html


def test_a_swiss_round_with_a_bye_a_pull_up_and_a_swap(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
) -> None:
    division = division_of("swiss", 7, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1)
    services.pair_next_round(division, actor=as_director)
    round_two = list(Pairing.objects.filter(division=division, round__number=2, entry_b__isnull=False))
    first, second = round_two[0].entry_a, round_two[1].entry_a
    services.swap_players(division, actor=as_director, first=first, second=second, reason="family <request>")
    html = html_of(client, page_url(division))
    current = html.split('id="pairings"')[1].split('id="rounds"')[0]
    assert "Round 2 · 1-point matches" in current
    assert '<span class="muted">bye</span>' in current and "bye: lowest-ranked player without a bye" in current
    reasons = [p.reason for p in Pairing.objects.filter(division=division, round__number=2)]
    assert all(reason in current for reason in reasons)  # score groups and pull-ups, as the pairing explains them
    assert current.count("Swapped: family &lt;request&gt;") == 2 and "<request>" not in html  # escaped
    assert "Standings pending" in html  # the results of round 1 arrived; the follow-up task has not run yet


def test_a_division_before_its_start_and_an_event_without_divisions(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("double-elimination", 3)
    for url in urls_of(division):
        assert client.get(url).status_code == 200, url
    html = html_of(client, page_url(division))
    assert "The division has not started" in html and "No standings yet" in html
    assert "The bracket is drawn when the division starts" in html and "No round has been paired yet" in html
    assert 'hx-trigger="every 5s"' in html  # it polls, to show the draw when the director starts
    empty = services.create_event(actor=as_director, name="Autumn Open")
    assert "No division has been set up yet" in html_of(client, event_url(empty))


def test_the_event_page_says_what_each_running_divisions_matches_are_doing(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Beside the current rounds: how many matches are being played and how many are to play (it said only the
    round's name, the same before its first match began and with one match left)."""
    division = division_of("single", 8, entry_mode="scoresheet", match_length=3)
    assert "division-now" not in html_of(client, event_url(division.event)), "nothing to say before the start"
    services.start_division(division, actor=as_director)
    html = html_of(client, event_url(division.event))
    assert 'Main round 1<span class="division-now">4 matches to play</span>' in html
    one_game(pairing(division, "main-1-0"))
    services.sync_division(division.pk)  # the follow-up of the game entered
    html = html_of(client, event_url(division.event))
    assert 'Main round 1<span class="division-now">1 match being played, 3 to play</span>' in html


def test_a_casual_division_says_so(client: Client, division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("round-robin", 4, entry_mode="scoresheet", match_length=3, casual=True)
    services.start_division(division, actor=as_director)
    html = " ".join(html_of(client, page_url(division)).split())
    assert "3-point matches · casual: no cube, every game one point ·" in html and "Crawford" not in html
    event = " ".join(html_of(client, event_url(division.event)).split())
    assert "3-point matches · casual</td>" in event


# -- a round's page --------------------------------------------------------------------------------------------------


def test_the_division_page_links_each_round_to_a_page_with_its_table(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
    django_assert_num_queries: Any,
) -> None:
    division = division_of("swiss", 8, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1)
    services.pair_next_round(division, actor=as_director)
    services.recompute_standings(division.pk)
    one, two = round_url(division, "swiss", 1), round_url(division, "swiss", 2)

    # The division page: the standings and the current round's table; every round is a link away.
    html = html_of(client, page_url(division))
    assert html.count('<table class="pairings stack">') == 1
    assert "Round 2 · 1-point matches" in html and "Round 1 · 1-point matches" not in html
    rounds = html.split('id="rounds"')[1]
    assert f'<li id="round-swiss-1"><a href="{one}">Round 1</a></li>' in rounds
    current = '<span class="badge badge-current">current</span>'
    assert f'<li id="round-swiss-2"><a href="{two}">Round 2</a> {current}</li>' in rounds

    # A round's page: that round's table only, complete without JavaScript, with the way to the others.
    page = html_of(client, one)
    assert_csp_friendly(page)
    assert f"<title>Round 1 · {division.name} · Club night · bgmatch</title>" in page
    assert '<h1 id="round-title">Round 1 <span class="event-name">' in page
    assert page.count('<table class="pairings stack">') == 1 and "Round 1 · 1-point matches" in page
    assert page.count('class="side won"') == 4  # round 1's four winners
    names = Pairing.objects.filter(division=division, round__number=1).values_list("entry_b__player__display_name")
    assert all(f'<span class="who">{name}</span>' in page for (name,) in names)
    assert f'<a href="{two}" rel="next">Next: Round 2</a>' in page and 'rel="prev"' not in page
    assert f'<li id="round-swiss-1"><a href="{one}" aria-current="page">Round 1</a></li>' in page
    assert f'href="{page_url(division)}"' in page
    assert f'<a href="{one}" rel="prev">Previous: Round 1</a>' in html_of(client, two)

    # While the division is in play the round follows its results, like the division page's live parts.
    live_one, live_two = round_url(division, "swiss", 1, live=True), round_url(division, "swiss", 2, live=True)
    assert f'hx-get="{live_one}" hx-trigger="every 5s" hx-swap="outerHTML"' in page
    first = client.get(live_one)
    assert first.status_code == 200 and first["Cache-Control"] == "public, max-age=0, s-maxage=1"
    assert f'data-etag="{first["ETag"].replace(chr(34), "&quot;")}"' in page
    assert 'id="round"' in first.content.decode() and "Round 1 · 1-point matches" in first.content.decode()
    with django_assert_num_queries(1):
        assert client.get(live_one, headers={"if-none-match": first["ETag"]}).status_code == 304
    tag = client.get(live_two)["ETag"]
    one_game(Pairing.objects.filter(division=division, round__number=2, entry_b__isnull=False).first())
    moved = client.get(live_two, headers={"if-none-match": tag})
    assert moved.status_code == 200 and moved.content.decode().count('class="side won"') == 1  # a 1-point match


def test_a_round_the_division_does_not_have_is_a_404_page_that_says_so(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, entry_mode="scoresheet", match_length=1)
    before = client.get(round_url(division, "swiss", 1))
    assert before.status_code == 404 and "No round has been paired yet." in before.content.decode()

    services.start_division(division, actor=as_director)
    for url, says in (
        (round_url(division, "swiss", 9), f"{division.name} has no round 9."),
        (round_url(division, "swiss", 0), f"{division.name} has no round 0."),
        (round_url(division, "swiss", 10**30), f"{division.name} has no round {10**30}."),
        (round_url(division, "main", 1), f"{division.name} has no bracket called “main”."),
    ):
        for live in (False, True):
            asked = url + "live/" if live else url
            response = client.get(asked)
            assert response.status_code == 404, asked
            body = response.content.decode()
            assert "<h1>No such round</h1>" in body and says in body, asked
            assert f'<a href="{round_url(division, "swiss", 1)}">Round 1</a>' in body  # the rounds it has
            assert f'href="{page_url(division)}"' in body
            assert_csp_friendly(body)
    for bad in ("one", "-1", "1.5"):
        assert client.get(f"{page_url(division)}rounds/swiss/{bad}/").status_code == 404
    escaped = client.get(f"{page_url(division)}rounds/{EVIL.replace('<', '').replace('>', '')}/1/")
    assert escaped.status_code == 404


def test_the_player_filter_escapes_what_it_shows() -> None:
    entry = Entry(seed=3, status=Entry.Status.WITHDRAWN, player=Player(display_name=EVIL, club="<b>Club", country="NO"))
    assert player(entry) == (
        '<span class="player"><span class="seed"><span class="visually-hidden">seed </span>3</span> '
        f'<span class="who">{ESCAPED_EVIL}</span> <span class="club">&lt;b&gt;Club, NO</span> '
        '<span class="badge">withdrawn</span></span>'
    )
    plain = Entry(seed=None, status=Entry.Status.REGISTERED, player=Player(display_name="Ann & Bo"))
    assert player(plain) == '<span class="player"><span class="who">Ann &amp; Bo</span></span>'
    assert player(None) == ""


# -- privacy ---------------------------------------------------------------------------------------------------------


def test_a_private_event_is_hidden_from_everyone_but_its_directors(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
    director: Any,
    django_user_model: Any,
) -> None:
    event = services.create_event(actor=as_director, name="Invitational", public=False)
    division = division_of("double-elimination", 4, event=event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    urls = urls_of(division)
    for url in urls:
        assert client.get(url).status_code == 404, url
    assert "Invitational" not in html_of(client, reverse("tournaments:event-list"))

    stranger = django_user_model.objects.create_user(username="stranger")
    client.force_login(stranger)
    for url in urls:
        assert client.get(url).status_code == 404, url

    client.force_login(director)
    for url in urls:
        assert client.get(url).status_code == 200, url
    response = client.get(live_url(division, "pairings"))
    assert response["Cache-Control"] == "private, no-cache"
    assert "Invitational" in html_of(client, reverse("tournaments:event-list"))


def test_unknown_events_divisions_and_parts_are_404(client: Client) -> None:
    division = finished("single", 2)
    assert client.get(reverse("tournaments:event-detail", args=["nope"])).status_code == 404
    assert client.get(reverse("tournaments:division-detail", args=[division.event.slug, "nope"])).status_code == 404
    assert client.get(live_url(division, "scores")).status_code == 404
    assert client.post(page_url(division)).status_code == 405


# -- live parts: ETag and 304 ----------------------------------------------------------------------------------------


def test_a_live_part_answers_304_until_what_it_shows_changes(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
    django_assert_num_queries: Any,
) -> None:
    division = division_of("double-elimination", 2, entry_mode="moves", match_length=3)
    services.start_division(division, actor=as_director)
    tags: dict[str, str] = {}
    for part in ("standings", "pairings", "bracket"):
        first = client.get(live_url(division, part))
        assert first.status_code == 200 and first["ETag"].startswith('"')
        assert first["Cache-Control"] == "public, max-age=0, s-maxage=1"
        tags[part] = first["ETag"]
        assert f'data-etag="{first["ETag"].replace(chr(34), "&quot;")}"' in first.content.decode()
        with django_assert_num_queries(1):
            again = client.get(live_url(division, part), headers={"if-none-match": tags[part]})
        assert again.status_code == 304 and again["ETag"] == tags[part] and again.content == b""
        weak = f'"other", W/{tags[part]}'
        assert client.get(live_url(division, part), headers={"if-none-match": weak}).status_code == 304
        assert client.get(live_url(division, part), headers={"if-none-match": "*"}).status_code == 304
        assert client.get(live_url(division, part), headers={"if-none-match": '"other"'}).status_code == 200
    # the page shows the same ETags, so the first poll is already a 304
    html = html_of(client, page_url(division))
    for part, tag in tags.items():
        assert re.search(rf'id="{part}" [^>]*data-etag="{re.escape(tag.replace(chr(34), "&quot;"))}"', html)

    match = Match.objects.get(pairing__key="main-1-0", pairing__division=division)
    games.services.record_opening_roll(match.pk, actor=link(match.pk, 0), dice=(3, 1), expected_seq=match.seq)

    for part in ("pairings", "bracket"):
        moved = client.get(live_url(division, part), headers={"if-none-match": tags[part]})
        assert moved.status_code == 200 and moved["ETag"] != tags[part], part
        assert "live" in moved.content.decode()
        assert client.get(live_url(division, part), headers={"if-none-match": moved["ETag"]}).status_code == 304
        tags[part] = moved["ETag"]
    # a move does not change the standings
    assert client.get(live_url(division, "standings"), headers={"if-none-match": tags["standings"]}).status_code == 304
    # once the match is under way, a play changes nothing the boards show (state, score, winner): still 304
    match.refresh_from_db()
    games.services.record_play(match.pk, actor=link(match.pk, 0), side=0, play="8/5 6/5", expected_seq=match.seq)
    for part in ("pairings", "bracket"):
        assert client.get(live_url(division, part), headers={"if-none-match": tags[part]}).status_code == 304, part


def test_the_etag_follows_a_confirmation_and_the_standings(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
) -> None:
    division = division_of("swiss", 2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    entered = enter_result(pairing(division, "swiss-1-1"), winner=0)
    assert entered.confirmation == Pairing.Confirmation.AWAITING
    services.recompute_standings(division.pk)
    before = {part: client.get(live_url(division, part)) for part in ("standings", "pairings")}
    assert "waiting for confirmation" in before["pairings"].content.decode()
    assert "No standings yet" in before["standings"].content.decode()  # an unconfirmed result does not count

    # The confirmation moves no version (the sync has nothing to do), and Pairing.updated_at stays put (see the
    # xfail below): only the pairing's confirmation and the rewritten standings rows change.
    services.confirm_result(entered, actor=link(entered.match_id, 1))
    services.recompute_standings(division.pk)  # what the follow-up task does after the commit
    pairings = client.get(live_url(division, "pairings"), headers={"if-none-match": before["pairings"]["ETag"]})
    assert pairings.status_code == 200 and "waiting for confirmation" not in pairings.content.decode()
    standings = client.get(live_url(division, "standings"), headers={"if-none-match": before["standings"]["ETag"]})
    assert standings.status_code == 200 and 'class="rank" data-label="Rank">1</td>' in standings.content.decode()

    services.withdraw_entry(entered.entry_b, actor=as_director, reason="went home")
    gone = client.get(live_url(division, "standings"), headers={"if-none-match": standings["ETag"]})
    assert gone.status_code == 200 and "withdrawn" in gone.content.decode()


def test_standings_pending_and_failed_are_said(client: Client, division_of: Callable[..., Division],
                                                as_director: Actor) -> None:  # fmt: skip
    division = division_of("swiss", 4, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1)
    services.recompute_standings(division.pk)
    calm = client.get(live_url(division, "standings"))
    assert "Standings pending" not in calm.content.decode()

    one_round_two = Pairing.objects.filter(division=division, round__number=1).first()
    services.withdraw_entry(one_round_two.entry_a, actor=as_director, reason="ill")  # schedules the follow-up
    pending = client.get(live_url(division, "standings"), headers={"if-none-match": calm["ETag"]})
    assert pending.status_code == 200 and "Standings pending" in pending.content.decode()

    recompute_standings_task.on_failure(RuntimeError("disk full"), "task-id", (division.pk,), {}, None)
    failed = html_of(client, page_url(division))
    assert "The standings could not be brought up to date" in failed
    assert "disk full" not in failed  # the error itself is for the directors


# -- downloads -------------------------------------------------------------------------------------------------------


def test_the_results_csv(client: Client, division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("single", 4, entry_mode="scoresheet", match_length=1)
    for name in ('=HYPERLINK("http://evil")', "+1", "-2", "@SUM(A1)"):
        services.register_player(division, actor=as_director, name=name, rating=2500)
    services.start_division(division, actor=as_director)
    for p in Pairing.objects.filter(division=division, round__number=1, entry_b__isnull=False)[:2]:
        enter_result(p, winner=0)
    response = client.get(csv_url(division))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="club-night-{division.slug}-results.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "round", "bracket", "board", "player A", "player B", "winner", "score A", "score B", "length", "status",
        "decision", "round name",
    ]  # fmt: skip
    body = rows[1:]
    assert len(body) == 4  # round 1's four matches; later slots have no player yet
    cells = {cell for row in body for cell in row}
    assert {'\'=HYPERLINK("http://evil")', "'+1", "'-2", "'@SUM(A1)"} <= cells
    assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells)
    played = [row for row in body if row[9] == "finished"]
    assert len(played) == 2 and all(row[5] == row[3] and row[6] == "1" and row[7] == "0" for row in played)
    assert all(row[1] == "main" and row[0] == "1" and row[8] == "1" and row[11] == "Main round 1" for row in body)
    assert csv_cell(-3) == "'-3" and csv_cell(None) == "" and csv_cell("Anna") == "Anna"


# -- escaping --------------------------------------------------------------------------------------------------------


def test_player_names_are_escaped_everywhere(
    client: Client,
    division_of: Callable[..., Division],
    as_director: Actor,
) -> None:
    division = division_of("main-consolation", 3, entry_mode="scoresheet", match_length=1)
    services.register_player(division, actor=as_director, name=EVIL, club=EVIL, rating=3000)
    services.start_division(division, actor=as_director)
    ready = Pairing.objects.filter(division=division, status=Pairing.Status.READY).select_related("entry_a__player")
    while ready.exists():
        for p in ready.all():
            done = enter_result(p, winner=0 if p.entry_a.player.display_name == EVIL else 1)
            if done.confirmation == Pairing.Confirmation.AWAITING:
                services.confirm_result(done, actor=as_director)
            services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    division = Division.objects.select_related("event").get(pk=division.pk)
    assert division.status == Division.Status.FINISHED  # so the event page names the champion
    evil = Entry.objects.get(division=division, player__display_name=EVIL)
    his_rounds = {
        round_url(division, p.round.bracket, p.round.number, live=live)
        for p in Pairing.objects.filter(division=division).select_related("round")
        if evil.pk in (p.entry_a_id, p.entry_b_id)
        for live in (False, True)
    }
    assert len(his_rounds) >= 4  # he played two rounds at least
    for url in urls_of(division):
        body = html_of(client, url)
        if url.endswith(".csv"):
            assert EVIL in body  # a CSV is data, not HTML
            continue
        assert EVIL not in body and "<script>alert" not in body, url
        if "/rounds/" not in url or url in his_rounds:
            assert ESCAPED_EVIL in body, url


# -- queries ---------------------------------------------------------------------------------------------------------


@pytest.fixture
def swiss_after_a_round(division_of: Callable[..., Division], as_director: Actor) -> Callable[[int], Division]:
    def build(players: int) -> Division:
        event = services.create_event(actor=as_director, name=f"Swiss of {players}")
        division = division_of("swiss", players, event=event, entry_mode="scoresheet", match_length=1)
        services.start_division(division, actor=as_director)
        play_round(division, 1)
        services.pair_next_round(division, actor=as_director)
        one_game(Pairing.objects.filter(division=division, round__number=2, entry_b__isnull=False).first())
        services.recompute_standings(division.pk)
        return Division.objects.select_related("event").get(pk=division.pk)

    return build


@pytest.fixture
def double_after_a_round(division_of: Callable[..., Division], as_director: Actor) -> Callable[[int], Division]:
    def build(players: int) -> Division:
        event = services.create_event(actor=as_director, name=f"Double of {players}")
        division = division_of("double-elimination", players, event=event, entry_mode="scoresheet", match_length=1)
        services.start_division(division, actor=as_director)
        play_round(division, 1)
        services.recompute_standings(division.pk)
        return Division.objects.select_related("event").get(pk=division.pk)

    return build


#: (URL part, queries for an anonymous visitor): the division with its event and fingerprint (and, for the page and
#: the standings, the rounds the standings exist for); then the pairings (an elimination's page and the bracket), or
#: the rounds and the current round's pairings (a Swiss page, the pairings), or the rounds and one round's pairings
#: (a round's page and its live part); the standings rows.
BUDGET = {"page": 4, "standings": 2, "pairings": 3, "bracket": 2, "round": 3, "round live": 3, "304": 1}


def _counts(client: Client, division: Division) -> dict[str, int]:
    first = Round.objects.filter(division=division).order_by("number", "bracket").first()
    assert first is not None
    urls = {
        "page": page_url(division),
        **{p: live_url(division, p) for p in ("standings", "pairings")},
        "round": round_url(division, first.bracket, first.number),
        "round live": round_url(division, first.bracket, first.number, live=True),
    }
    if division.is_elimination:
        urls["bracket"] = live_url(division, "bracket")
    out = {}
    for name, url in urls.items():
        status, count = queries(client, url)
        assert status == 200, url
        out[name] = count
    tag = client.get(live_url(division, "pairings"))["ETag"]
    status, out["304"] = queries(client, live_url(division, "pairings"), **{"if-none-match": tag})
    assert status == 304
    return out


@pytest.mark.parametrize("build", ["swiss_after_a_round", "double_after_a_round"])
def test_the_same_queries_for_8_and_64_players(
    client: Client, request: pytest.FixtureRequest, build: str, django_assert_max_num_queries: Any
) -> None:
    make = request.getfixturevalue(build)
    small, large = make(8), make(64)
    assert Pairing.objects.filter(division=large).count() > 4 * Pairing.objects.filter(division=small).count() - 8
    counts = {size: _counts(client, division) for size, division in ((8, small), (64, large))}
    assert counts[8] == counts[64], counts
    for name, budget in BUDGET.items():
        if name in counts[8]:
            assert counts[8][name] <= budget, (name, counts[8])
    with django_assert_max_num_queries(BUDGET["page"]):
        assert client.get(page_url(large)).status_code == 200
    for part in ("standings", "pairings", *(["bracket"] if large.is_elimination else [])):
        with django_assert_max_num_queries(BUDGET[part]):
            assert client.get(live_url(large, part)).status_code == 200
    html = html_of(client, page_url(large))
    assert html.count('class="rank"') == 64


# -- a bug found elsewhere -------------------------------------------------------------------------------------------


def test_a_confirmation_moves_the_pairings_updated_at(
    division_of: Callable[..., Division],
    as_director: Actor,
) -> None:
    division = division_of("swiss", 2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    created = pairing(division, "swiss-1-1").updated_at
    time.sleep(0.01)
    entered = enter_result(pairing(division, "swiss-1-1"), winner=0)
    services.confirm_result(entered, actor=link(entered.match_id, 1))
    assert Pairing.objects.get(pk=entered.pk).updated_at > created


def test_a_withdrawn_player_is_marked_in_the_standings_public_and_printed(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("swiss", 4, match_length=1, rounds_planned=2)
    services.start_division(division, actor=as_director)
    gone = Entry.objects.select_related("player").get(division=division, player__display_name="P04")
    services.withdraw_entry(gone, actor=as_director, reason="called away")
    services.recompute_standings(division.pk)
    public = html_of(Client(), page_url(division))
    public = public[public.index('id="standings"') :]  # after the current round
    row = next(r for r in public.split("<tr>") if ">P04<" in r)
    assert "(withdrawn)" in row
    assert sum("(withdrawn)" in r for r in public.split("<tr>")) == 1, "only his row"
    client = Client()
    client.force_login(director)
    printed = client.get(f"/manage/{division.event.slug}/{division.slug}/final-standings/").content.decode()
    row = next(r for r in printed.split("<tr>") if ">P04<" in r)
    assert "(withdrawn)" in row and printed.count("(withdrawn)") == 1


def test_a_round_robins_latest_table_is_its_standings_so_far_not_after_its_last_round(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("round-robin", 6, match_length=1)
    services.start_division(division, actor=as_director)
    late = Pairing.objects.filter(division=division, round__number=5).select_related("entry_a").first()
    assert late is not None
    games.services.forfeit_match(
        late.match_id, actor=as_director, loser_side=1, reason="no-show"
    )  # round 5, played first
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    html = html_of(Client(), page_url(division))
    assert "Standings so far: every result in, whatever its round" in html
    assert "Standings after round 5" not in html
    earlier = html_of(Client(), page_url(division) + "?after_round=4")
    assert "Standings after round 4" in earlier, re.findall("<caption>.*", earlier)


def test_the_table_column_says_a_finished_matchs_table_as_it_says_the_others() -> None:
    """A tester saw "Table 4" beside "6" in one column: a match over kept its table as people say it."""
    from types import SimpleNamespace

    from tournaments.templatetags.event_pages import table_cell

    held = SimpleNamespace(table_id=1, table=SimpleNamespace(name="", number=6), status="playing", match_id=1)
    over = SimpleNamespace(table_id=None, status="finished", match_id=2, played_at="Table 4")
    named = SimpleNamespace(table_id=None, status="finished", match_id=3, played_at="Feature table")
    assert (table_cell(held), table_cell(over), table_cell(named)) == ("6", "4", "Feature table")


def test_the_table_of_a_round_still_played_says_during_and_standings_is_said_once(
    client: Client, division_of: Callable[..., Division], as_director: Actor, running_elimination: Division
) -> None:
    division = division_of("swiss", 8, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    services.confirm_result(enter_result(pairing(division, "swiss-1-1"), winner=0), actor=as_director)
    services.recompute_standings(division.pk)
    html = html_of(client, page_url(division))
    assert "Standings during round 1" in html and "Standings after round 1" not in html, re.findall("<caption>.*", html)
    assert "Standings during round 1" in html_of(client, live_url(division, "standings"))
    play_round(division, 1)
    services.recompute_standings(division.pk)
    assert "Standings after round 1" in html_of(client, page_url(division))

    services.recompute_standings(running_elimination.pk)
    bracket = html_of(client, page_url(running_elimination))
    part = bracket[bracket.index('id="standings"') :]
    part = part[: part.index("</section>")]
    assert part.count(">Standings<") == 1 and "<caption>Places so far</caption>" in part


def test_a_swiss_boards_score_group_shows_from_round_2_not_in_round_1(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    """In round 1 every player has 0 points: "score group 0" on each board says nothing; from round 2 the score
    groups tell who met whom, and show."""
    from tests.tournaments.services.support import play_round as win_round

    division = division_of("swiss", 8, match_length=1, rounds_planned=3)
    services.start_division(division, actor=as_director)
    url = reverse("tournaments:division-live", args=[division.event.slug, division.slug, "pairings"])
    first = client.get(url).content.decode()
    assert "P01" in first and "score group" not in first
    win_round(division, 1, as_director)
    services.pair_next_round(division, actor=as_director)
    second = client.get(url).content.decode()
    assert "Round 2" in second and "score group 1" in second and "score group 0" in second


def test_a_finished_swiss_names_its_champion_as_every_page_does(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The event page's "Champion" column and the players' titles (the director's list) call the player first in a
    finished Swiss the champion, as an elimination's; they said "Winner" for a Swiss's."""
    from tests.tournaments.services.support import play_round as win_round
    from tournaments.pages import final_titles

    division = division_of("swiss", 4, match_length=1, rounds_planned=2)
    services.start_division(division, actor=as_director)
    win_round(division, 1, as_director)
    services.pair_next_round(division, actor=as_director)
    win_round(division, 2, as_director)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    event = client.get(reverse("tournaments:event-detail", args=[division.event.slug])).content.decode()
    line = re.search(r'<span class="champion-line">([^<]*)<strong class="who">([^<]*)</strong>', event)
    assert line is not None and line.groups() == ("Champion: ", "P01")
    page = client.get(reverse("tournaments:division-detail", args=[division.event.slug, division.slug]))
    first = Entry.objects.get(division=division, player__display_name="P01")
    assert str(final_titles(division)[first.pk]) == "Champion"
    for html in (event, page.content.decode()):
        assert "Winner" not in re.sub(r"<[^>]+>", " ", html)


def test_the_page_explains_only_what_the_division_uses(client: Client) -> None:
    """The bye note belongs to the tie-breaks that score a bye's opponent, the PR table to matches played move by
    move: a round robin ranked on wins alone, entered from scoresheets, shows neither."""
    division = finished("round-robin", 4)
    html = html_of(client, page_url(division))
    assert BYE_NOTE in html, "the default tie-breaks include Buchholz"
    assert division.entry_mode == "scoresheet" and "PR table (GNU Backgammon" not in html
    division.tiebreaks = ["wins", "points-diff"]
    division.entry_mode = "moves"
    division.save(update_fields=["tiebreaks", "entry_mode"])
    html = html_of(client, page_url(division))
    assert BYE_NOTE not in html
    assert "PR table (GNU Backgammon" in html
