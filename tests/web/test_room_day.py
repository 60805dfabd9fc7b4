"""The room as a new director runs it: an undone no-show forfeit, the venue display, the slips of a queued match,
the phone's buttons, the players' labels, a pasted list and the division page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.access import Actor
from tournaments import services
from tournaments.models import Division, Pairing

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


# -- 12. an undone no-show forfeit -----------------------------------------------------------------------------------


def test_an_undone_no_show_forfeit_is_ready_first_in_the_queue_and_names_no_table_it_does_not_hold(
    division_of: Callable[..., Division], as_director: Actor, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    division = division_of("swiss", 6, match_length=3)
    services.set_tables(division.event, actor=as_director, names=["", ""])
    services.start_division(division, actor=as_director)
    forfeited = Pairing.objects.select_related("entry_a__player").get(division=division, table__number=1)
    waiting = Pairing.objects.get(division=division, table__isnull=True)
    services.award_forfeit(forfeited, actor=as_director, loser=forfeited.entry_a, kind="no-show", reason="late")
    assert Pairing.objects.get(pk=waiting.pk).table_label == "Table 1", "the freed table goes to the queue"

    client = director_client(director)
    url = reverse("director:match", args=[division.event.slug, division.slug, forfeited.key])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"action": "undo", "undo-reason": "he was in the room", "undo-expected_seq": 1})
    assert answer.status_code == 302
    answer = client.get(url)
    assert answer.status_code == 200
    html = answer.content.decode()
    forfeited.refresh_from_db()
    assert forfeited.status == Pairing.Status.READY and forfeited.table_id is None and not forfeited.played_at
    assert "Table 1" not in html, "the page names no table the match does not hold"
    assert "first in the queue" in html, "the director is told where the match stands"
    assert f"<title>Match {forfeited.board} ·" in html
    api = client.get(f"/api/events/{division.event.slug}/divisions/{division.slug}/pairings/").json()
    rows = api["results"] if isinstance(api, dict) else api
    row = next(r for r in rows if r["key"] == forfeited.key)
    assert row["status"] == "ready" and not row["table"], row
    # The next table freed goes to it, before the other matches waiting, and calls it.
    other = Pairing.objects.select_related("entry_a").get(division=division, table__number=2)
    services.award_forfeit(other, actor=as_director, loser=other.entry_a, kind="no-show", reason="gone")
    forfeited.refresh_from_db()
    assert forfeited.table_label == "Table 2" and forfeited.called_at is not None


# -- 14. the slips and the wall sheet of a queued match ----------------------------------------------------------


def test_the_slips_and_the_sheet_of_a_queued_match_say_it_waits_for_a_table_and_will_be_called(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("swiss", 6, match_length=3)
    services.set_tables(division.event, actor=as_director, names=["", ""])
    services.start_division(division, actor=as_director)
    waiting = Pairing.objects.select_related("entry_a__player", "entry_b__player").get(
        division=division, table__isnull=True
    )
    client = director_client(director)
    args = [division.event.slug, division.slug, "swiss", 1]
    slips = client.get(reverse("director:slips", args=args)).content.decode()
    assert f"Match {waiting.board}," not in slips
    words = "your match waits for a table. You are called when one frees"
    assert slips.count(words) == 2, "one slip for each of its players"
    assert f"Against {waiting.entry_b.player.display_name}: {words}" in slips
    assert "Table 1, against" in slips and "Table 2, against" in slips
    sheet = client.get(reverse("director:sheet", args=args)).content.decode()
    assert sheet.count("Waits for a table: called when one frees") == 1
    assert ">—<" not in sheet
