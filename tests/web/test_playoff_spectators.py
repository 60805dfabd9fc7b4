"""A playoff for a tie as spectators follow it: the venue display shows its matches in "Now playing" and how it
stands beside the standings (the event is not over while it is to be played), its live part's ETag following the
playoff's matches; the public division page's note of it refreshes itself with the standings' live part, links
each of its matches' public pages, and keeps each score whole on a line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from games.models import Match
from tests.tournaments.services.support import play_out
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, win
from tests.web.test_venue import boards_part
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Playoff

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def name_of(entry_id: int) -> str:
    return str(Entry.objects.get(pk=entry_id).player.display_name)


def ordered(division_of: Callable[..., Division], director: Actor) -> tuple[Division, Playoff]:
    """A round robin of three ended in a cycle (all three first) and the stepladder the director ordered for it."""
    division = round_robin_cycle(division_of, director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    return division, services.order_playoff(division, actor=director, entries=[p3, p1, p2])


def display(division: Division, etag: str = "") -> Any:
    url = reverse("tournaments:event-display-live", args=[division.event.slug])
    return Client().get(url, HTTP_IF_NONE_MATCH=etag) if etag else Client().get(url)


def test_the_display_shows_an_ordered_playoffs_matches_and_words_and_the_event_is_not_over(
    division_of: Callable[..., Division], as_director: Actor, django_assert_max_num_queries: Any
) -> None:
    division, playoff = ordered(division_of, as_director)
    first = playoff.first_match
    assert first is not None
    a, b = first.player1.display_name, first.player2.display_name
    with django_assert_max_num_queries(8):  # the event, the venue (2), divisions, rounds, standings (2), playoffs
        response = display(division)
    html = response.content.decode()
    boards = boards_part(html)
    assert "The event is over" not in html and "No match is being played" not in html
    assert f'<span class="display-name">{a}</span> <span class="display-v">v</span>' in boards
    assert f'<span class="display-name">{b}</span>' in boards and "Playoff for the tie at 1st place" in boards
    standings = html[html.index('id="display-standings-heading"') :]
    assert '<p class="display-playoff">Tie at 1st: a playoff is ordered (' in standings

    assert display(division, response["ETag"]).status_code == 304, "nothing changed"
    Match.objects.filter(pk=first.pk).update(status=Match.Status.IN_PROGRESS, seq=1)
    playing = display(division, response["ETag"])
    assert playing.status_code == 200, "a playoff match's state changes the screen"
    assert "0\u20130" in boards_part(playing.content.decode())
    win(first, Entry.objects.get(division=division, player_id=first.player1_id).pk, as_director)
    won = display(division, playing["ETag"])
    assert won.status_code == 200
    assert f'{a} beat {b} <span class="kept-score">1-0</span>' in won.content.decode()


def test_the_display_says_how_a_finished_playoff_settled_the_tie_and_then_that_the_event_is_over(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff = ordered(division_of, as_director)
    p1, p2, _p3 = seeds(division, 1, 2, 3)
    win(playoff.first_match, p2, as_director)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, as_director)
    html = display(division).content.decode()
    assert "The event is over" in html and "display-players" not in boards_part(html)
    assert '<p class="display-playoff">Tie at 1st settled by a playoff: ' in html


def test_the_display_reads_the_playoffs_of_every_division_in_one_query(
    division_of: Callable[..., Division], as_director: Actor, django_assert_max_num_queries: Any
) -> None:
    """Two divisions of one event, each ended in a three-way tie with a playoff ordered: the screen reads both
    divisions' playoffs at once (the second division adds only its standings' two reads) and names each
    division in its playoff's line."""
    settings = {"tiebreaks": [], "entry_mode": "scoresheet", "match_length": 1}
    first = division_of("round-robin", 3, **settings)
    second = division_of("round-robin", 3, event=first.event, **settings)
    for division in (first, second):  # each ends in a cycle, all three first, and a stepladder is ordered
        services.start_division(division, actor=as_director)
        p1, p2, p3 = seeds(division, 1, 2, 3)
        beats = {frozenset((p1, p2)): p1, frozenset((p2, p3)): p2, frozenset((p1, p3)): p3}
        play_out(
            division,
            as_director,
            lambda p, beats=beats: Entry.objects.get(pk=beats[frozenset((p.entry_a_id, p.entry_b_id))]),
        )
        services.recompute_standings(division.pk)
        services.order_playoff(Division.objects.get(pk=division.pk), actor=as_director, entries=[p3, p1, p2])
    url = reverse("tournaments:event-display-live", args=[first.event.slug])
    with django_assert_max_num_queries(10):  # 8 for one division, and the second's standings (2)
        html = Client().get(url).content.decode()
    for division in (first, second):
        assert f'<p class="display-playoff">{division.name}: Tie at 1st: a playoff is ordered (' in html
    assert boards_part(html).count("Playoff for the tie at 1st place") == 2, "each stepladder's first match"


def standings_live(division: Division, etag: str = "") -> Any:
    url = reverse("tournaments:division-live", args=[division.event.slug, division.slug, "standings"])
    return Client().get(url, HTTP_IF_NONE_MATCH=etag) if etag else Client().get(url)


def test_the_public_pages_playoff_note_refreshes_links_its_matches_and_keeps_scores_whole(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff = ordered(division_of, as_director)
    first = playoff.first_match
    assert first is not None
    page = Client().get(f"/events/{division.event.slug}/{division.slug}/").content.decode()
    standings = page[page.index('<section id="standings"') :]
    assert "hx-get=" in standings[: standings.index(">")], "the standings part polls while the playoff is ordered"
    assert f'href="/matches/{first.pk}/"' in standings, "each playoff match links its public page"
    assert Client().get(f"/matches/{first.pk}/").status_code == 200
    shown = standings_live(division)
    assert shown.status_code == 200 and "a playoff is ordered" in shown.content.decode()
    assert standings_live(division, shown["ETag"]).status_code == 304

    Playoff.objects.filter(pk=playoff.pk).update(first_confirmation=Pairing.Confirmation.AWAITING)
    confirmed = standings_live(division, shown["ETag"])
    assert confirmed.status_code == 200, "a playoff result's confirmation changes the note's ETag"
    win(first, Entry.objects.get(division=division, player_id=first.player1_id).pk, as_director)
    played = standings_live(division, confirmed["ETag"])
    assert played.status_code == 200, "a playoff match's score changes the note's ETag"
    a, b = first.player1.display_name, first.player2.display_name
    assert f'{a} beat {b} <span class="kept-score">1-0</span>' in played.content.decode()


def test_the_display_shows_a_playoff_result_waiting_for_a_confirmation_as_over_and_no_final_standings(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A playoff match whose result waits for a confirmation leaves "Now playing" (as a round's match over does)
    and the line under the standings says it; while the playoff is unfinished the division's heading says its
    standings wait for it, not that they are final."""
    division, playoff = ordered(division_of, as_director)
    first = playoff.first_match
    assert first is not None
    a, b = first.player1.display_name, first.player2.display_name
    html = display(division).content.decode()
    assert f"{division.name}: standings (a playoff to play)" in html and "final standings" not in html
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED, winner=first.player1, score1=1, seq=1)
    Playoff.objects.filter(pk=playoff.pk).update(
        first_confirmation=Pairing.Confirmation.AWAITING, first_confirmation_side=1
    )
    html = display(division).content.decode()
    assert "1\u20130" not in boards_part(html), "a result in is no longer playing"
    assert f'{a} beat {b} <span class="kept-score">1-0</span>, waiting for {b}&#x27;s confirmation' in html
    assert f"{division.name}: standings (a playoff to play)" in html and "final standings" not in html


def test_the_public_pages_do_not_call_a_division_finished_while_its_playoff_is_to_be_played(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The rounds are over (the division's stored status is finished) but a playoff for the tie at 1st is ordered:
    the event's and the division's pages say "playoff to play", and the champion is to be settled by the playoff
    rather than a shared first place; once it is played they say finished and name the champion."""
    division, playoff = ordered(division_of, as_director)
    names = [name_of(pk) for pk in playoff.entries]
    event_page = Client().get(f"/events/{division.event.slug}/").content.decode()
    assert "Shared 1st" not in event_page and ">finished<" not in event_page
    assert f"to be settled by a playoff ({' v '.join(names)})" in event_page
    assert f'<span class="badge badge-event-{division.event.status}">playoff to play</span>' in event_page
    assert '<span class="badge badge-division-finished">playoff to play</span>' in event_page
    division_page = Client().get(f"/events/{division.event.slug}/{division.slug}/").content.decode()
    assert '<span class="badge badge-division-finished">playoff to play</span>' in division_page

    p1, p2, _p3 = seeds(division, 1, 2, 3)
    win(playoff.first_match, p2, as_director)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, as_director)
    event_page = Client().get(f"/events/{division.event.slug}/").content.decode()
    assert "playoff to play" not in event_page and "to be settled by a playoff" not in event_page
    assert '<span class="badge badge-division-finished">finished</span>' in event_page
    assert f'Champion: <strong class="who">{name_of(p1)}</strong>' in event_page
