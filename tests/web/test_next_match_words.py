"""What "Your next match" and a match's entry page say when there is nothing to play: no entry link open on the
phone, a division that is over (with a link to the event's pages, and the entry page's button saying so), a place a
playoff decided, and a stepladder's first match loser, 3rd by its rule once that match counts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from games.models import Match
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, swiss_with_a_paid_tie, win
from tests.web.test_playoff_phones import next_page, phone_of
from tournaments import services
from tournaments.models import Division
from tournaments.selectors.playoffs import division_playoffs

pytestmark = pytest.mark.django_db


def test_a_phone_without_an_entry_link_is_told_so_not_that_nothing_was_recorded() -> None:
    response = Client().get("/play/pairings/next/")
    html = response.content.decode()
    assert response.status_code == 403
    assert "No entry link open on this phone" in html
    assert "Not recorded" not in html
    assert "Open your entry link, or log in, to see your next match." in html


def test_a_refused_enter_is_not_headed_as_a_refused_result(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b])
    html = Client().post(f"/play/pairings/playoff/{playoff.final_match_id}/enter/").content.decode()
    assert "Not recorded" not in html and "You cannot enter this match here" in html


def test_once_the_division_is_over_next_match_links_the_events_pages_and_the_entry_page_says_it_is_over(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a = int(division_playoffs(division).ties[0].tie.players[0])
    phone = phone_of(division, a)
    html = next_page(phone)
    assert "is over" in html
    assert "Back to your last match" in html
    event_url = reverse("tournaments:event-detail", args=[division.event.slug])
    assert f'href="{event_url}"' in html and "The event's pairings and standings" in html
    entry_page = phone.page()
    assert "Division over: your results" in entry_page
    assert ">Your next match<" not in entry_page


def test_places_a_playoff_decided_say_so_and_the_stepladders_first_loser_is_told_he_is_3rd(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_robin_cycle(division_of, as_director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    phones = {entry: phone_of(division, entry) for entry in (p1, p2, p3)}
    playoff = services.order_playoff(division, actor=as_director, entries=[p1, p2, p3])
    first = Match.objects.get(pk=playoff.first_match_id)
    win(first, p3, as_director)
    playoff.refresh_from_db()
    loser = next_page(phones[p2])
    assert "your place is settled once the playoff is over" not in loser
    assert "you lost its first match, so you finish 3rd by the stepladder rule" in loser
    final = Match.objects.get(pk=playoff.final_match_id)
    win(final, p3, as_director)
    assert f"{division.name} is over: you finished 1st, after a playoff." in next_page(phones[p3])
    assert f"{division.name} is over: you finished 2nd, after a playoff." in next_page(phones[p1])
    assert f"{division.name} is over: you finished 3rd, after a playoff." in next_page(phones[p2])


@pytest.mark.parametrize(("fmt", "words"), [("single", ", in 3rd-4th place: it goes on"), ("main-consolation", None)])
def test_a_player_knocked_out_of_a_running_division_is_told_so_with_his_place_and_the_event_s_pages(
    division_of: Callable[..., Division], as_director: Actor, fmt: str, words: str | None
) -> None:
    """ "No next match yet: the next round is not paired, or you have played all your matches." was all a player
    knocked out in a semi-final read, while the standings gave him his place; one bound for the consolation is not
    out."""
    from tests.tournaments.services.support import director_win
    from tournaments.models import Entry, Pairing

    division = services.start_division(division_of(fmt, 4, entry_mode="scoresheet", match_length=1), actor=as_director)
    semi = Pairing.objects.filter(division=division, match__isnull=False).order_by("key").first()
    assert semi is not None and semi.entry_a is not None and semi.entry_b_id is not None
    director_win(semi, semi.entry_a, as_director)
    services.recompute_standings(division.pk)
    html = next_page(phone_of(division, semi.entry_b_id))
    loser = Entry.objects.get(pk=semi.entry_b_id)
    if words is None:  # he plays the consolation: his next match waits for the other semi-final
        assert loser.status != Entry.Status.ELIMINATED and f"You are out of {division.name}" not in html
        assert "No next match yet: the next round is not paired" in html
        return
    assert "No next match yet" not in html
    assert f"You are out of {division.name}{words} without you." in html
    event_url = reverse("tournaments:event-detail", args=[division.event.slug])
    assert f'href="{event_url}"' in html and "The event's pairings and standings" in html
