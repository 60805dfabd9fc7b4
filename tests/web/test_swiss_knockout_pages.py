"""A Swiss into a knockout from the pages: the director's form offers the format with its Swiss rounds and its
knockout size (a bad size refused on the form), the division page draws the knockout after the last Swiss round
and then refuses the Swiss steering, and the public page shows the Swiss rounds, then the bracket."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from common.actor import Actor
from tests.tournaments.services.support import director_win
from tests.web.director.support import check_html, client_for, text_of, win
from tournaments import services
from tournaments.models import Division, Pairing, Round, Standing

pytestmark = pytest.mark.django_db


FORM = {
    "action": "create-division",
    "create-division-name": "Open",
    "create-division-format": "swiss-knockout",
    "create-division-match_length": "3",
    "create-division-variant": "standard",
    "create-division-entry_mode": "scoresheet",
    "create-division-seeding": "rating",
    "create-division-rounds_planned": "2",
    "create-division-knockout_size": "4",
    "create-division-last_chance_places": "0",
}


def play_ready(division: Division, actor: Actor, bracket: str) -> None:
    for p in Pairing.objects.filter(division=division, round__bracket=bracket, status=Pairing.Status.READY):
        assert p.match is not None
        win(p.match, side=0, actor=actor)
    services.sync_division(division.pk)


def test_the_director_runs_a_swiss_into_a_knockout_from_the_pages(dora: Any) -> None:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Club night")
    client = client_for(dora)
    form = text_of(client.get(f"/manage/{event.slug}/"))
    assert '<option value="swiss-knockout">Swiss into a knockout</option>' in form
    assert 'name="create-division-knockout_size"' in form and "top 8" in form
    check_html(form)
    assert client.post(f"/manage/{event.slug}/", FORM).status_code == 302
    division = Division.objects.get(event=event)
    assert (division.format, division.rounds_planned, division.knockout_size) == ("swiss-knockout", 2, 4)
    for i in range(1, 9):
        services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
    services.start_division(division, actor=actor)

    url = f"/manage/{event.slug}/{division.slug}/"
    page = text_of(client.get(url))
    assert "2 Swiss rounds, then the top 4 in a knockout" in page
    assert "After the last Swiss round the top 4 of the standings go into a single elimination" in page
    assert "Steer the Swiss" in page and "Pair the next round" in page
    play_ready(division, actor, "swiss")
    assert client.post(url, {"action": "pair-next"}).status_code == 302
    play_ready(division, actor, "swiss")
    page = text_of(client.get(url))
    assert "Draw the knockout" in page
    assert 'id="form-pair-next"' in page and "pair-next-allow_rematches" not in page, "no rematch to allow"
    check_html(page)
    assert client.post(url, {"action": "pair-next"}).status_code == 302
    assert Round.objects.filter(division=division, bracket="main").count() == 2

    page = text_of(client.get(url))
    assert 'id="knockout"' in page and "their top 4 are in the knockout, seeded by the Swiss standings" in page
    assert "Steer the Swiss" not in page and "Draw the knockout" not in page
    assert page.index("Round 2 ·") < page.index("Knockout semi-final ·"), "the Swiss rounds, then the knockout"
    check_html(page)
    refused = client.post(url, {"action": "end-swiss"})
    assert refused.status_code == 409 and "the Swiss can no longer be ended" in text_of(refused)

    public = text_of(client_for().get(f"/events/{event.slug}/{division.slug}/"))
    assert "Swiss, 2 rounds, then the top 4 in a knockout" in public
    assert 'href="#bracket"' in public and "Knockout" in public
    listed = public[public.index('id="rounds"') :]
    assert listed.index("/rounds/swiss/2/") < listed.index("/rounds/main/1/"), "the Swiss rounds, then the knockout"
    assert "Knockout semi-final" in listed and "Knockout final" in listed and "Knockout, " not in listed

    play_ready(division, actor, "main")
    play_ready(division, actor, "main")
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    services.recompute_standings(division.pk)
    public = text_of(client_for().get(f"/events/{event.slug}/{division.slug}/"))
    assert "Final standings, with the knockout" in public and "3-4" in public
    # The payouts pay the places: a pool of 100 paid 50, 30, 8, 8, 4 to places 1, 2, 3-4 and 5.
    table = {"mode": "percent", "pool": "100", "ties": "split", "main": "50, 30, 8, 8, 4", "consolation": ""}
    stored = client.post(url, {"action": "payouts", **{f"payouts-{k}": v for k, v in table.items()}})
    assert stored.status_code == 302, text_of(stored)
    printable = text_of(client.get(url + "final-standings/"))
    assert "3-4" in printable and "<td>50.00</td>" in printable
    lines = list(csv.reader(io.StringIO(text_of(client.get(url + "payouts.csv")))))
    assert lines[0] == ["rank", "player", "place", "prize"]
    rows = {line[1]: line for line in lines[1:] if len(line) == 4}
    places = sorted((line[2] for line in rows.values()), key=lambda place: int(place.split("-")[0]))
    assert places[:4] == ["1", "2", "3-4", "3-4"] and all(int(p.split("-")[0]) >= 5 for p in places[4:])
    assert [line[3] for line in rows.values() if line[2] == "3-4"] == ["8.00", "8.00"]
    assert sum(Decimal(line[3] or "0") for line in rows.values()) == Decimal("100.00"), "the 5th place is paid too"


def test_a_bad_knockout_size_is_refused_on_the_form(dora: Any) -> None:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Club night")
    answer = client_for(dora).post(f"/manage/{event.slug}/", {**FORM, "create-division-knockout_size": "0"})
    assert answer.status_code == 400
    assert "a Swiss into a knockout sends its top 4, 8, 16, 32 players into the knockout" in text_of(answer)
    assert not Division.objects.filter(event=event).exists()


def test_a_bye_is_said_beside_the_wins_on_the_page_and_the_print(dora: Any) -> None:
    """A Swiss counts a bye as a win (its master points do not): "2 (1 bye)" on the standings and the print."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Odd night")
    settings = services.DivisionSettings(name="Open", format="swiss", rounds_planned=2, entry_mode="scoresheet")
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, 4):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    for p in Pairing.objects.filter(division=division, status="ready", match__isnull=False).select_related("entry_a"):
        assert p.entry_a is not None
        director_win(p, p.entry_a, actor)
    services.recompute_standings(division.pk)
    row = Standing.objects.filter(division=division, byes=1).select_related("entry__player").first()
    assert row is not None and row.wins == 1
    page = text_of(Client().get(f"/events/{event.slug}/{division.slug}/"))
    assert '<td class="won" data-label="Won">1 (1 bye)</td>' in page
    printed = text_of(client_for(dora).get(f"/manage/{event.slug}/{division.slug}/final-standings/"))
    assert "<td>1 (1 bye)</td>" in printed
