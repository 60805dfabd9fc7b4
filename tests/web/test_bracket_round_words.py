"""An elimination bracket names its rounds one way everywhere (tournaments.core.round_words): its last round is its
final ("Main final"), the round before it the semi-final ("Main semi-final"), on the director's pages, the phones'
calls and "Your next match", the venue display, the pairing sheet, the slips, the score cards, the results CSV and
the public pages, as the public bracket already named them."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from tests.tournaments.services.support import director_win
from tests.web.director.support import client_for, text_of
from tests.web.test_entry_pages import Phone
from tournaments import services
from tournaments.core import round_words
from tournaments.models import Division, Entry, Pairing, Round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

OLD_WORDS = ("Main round 2", "Main round 3", "main round 3")


@pytest.fixture
def dora(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("dora", password=None)


def bracket(director: Any, event: str, players: int, fmt: str = "single", *, tables: int = 0) -> Division:
    """A started ``fmt`` division "Open" of ``players`` (P1... rated 1999, 1998, ...: seed k is Pk) in a new event,
    3-point scoresheet matches; ``tables``: the venue's (as many as there are matches without it)."""
    actor = Actor(user=director)
    created = services.create_event(actor=actor, name=event)
    settings = services.DivisionSettings(name="Open", format=fmt, entry_mode="scoresheet", match_length=3)
    division = services.create_division(created, actor=actor, settings=settings)
    for i in range(1, players + 1):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    if tables:
        services.set_tables(created, actor=actor, names=[""] * tables)
    services.start_division(division, actor=actor)
    return Division.objects.get(pk=division.pk)


@pytest.fixture
def cup(dora: Any) -> Division:
    """An 8-player single elimination (3 rounds) at four tables, its first round and semi-finals won by side a:
    the final called."""
    actor = Actor(user=dora)
    division = bracket(dora, "Cup", 8, tables=4)
    for number in (1, 2):
        for p in Pairing.objects.filter(division=division, round__number=number).select_related("entry_a"):
            assert p.entry_a is not None
            director_win(p, p.entry_a, actor)
    return Division.objects.get(pk=division.pk)


def the_final(division: Division) -> Pairing:
    return Pairing.objects.select_related("table", "match", "entry_a__player", "entry_b__player").get(
        division=division, round__number=3
    )


def no_old_words(html: str) -> None:
    for words in OLD_WORDS:
        assert words not in html, words


def test_the_directors_pages_name_the_semi_final_and_the_final(cup: Division, dora: Any) -> None:
    client = client_for(dora)
    page = text_of(client.get(f"/manage/cup/{cup.slug}/"))
    for words in ("Main round 1 ·", "Main semi-final ·", "Main final ·"):
        assert words in page, words
    no_old_words(page)
    dashboard = text_of(client.get("/manage/cup/"))
    assert "Main final" in dashboard
    no_old_words(dashboard)
    match = text_of(client.get(f"/manage/cup/{cup.slug}/match/{the_final(cup).key}/"))
    assert "Main final" in match
    no_old_words(match)
    for printed in ("sheet", "slips", "scorecards"):
        html = text_of(client.get(f"/manage/cup/{cup.slug}/round/main/3/{printed}/"))
        assert "Main final" in html, printed
        no_old_words(html)
    semi = text_of(client.get(f"/manage/cup/{cup.slug}/round/main/2/sheet/"))
    assert "Main semi-final" in semi
    no_old_words(semi)


def test_the_phone_and_the_display_call_the_final_a_final(cup: Division) -> None:
    final = the_final(cup)
    assert final.table is not None and final.match is not None and final.entry_b is not None
    phone = Phone(final.match, 0)
    call = f"{final.table.label}: you play {final.entry_b.player.display_name}, Main final, 3 points"
    page = phone.page()
    assert call in page
    no_old_words(page)
    following = text_of(phone.client.get("/play/pairings/next/"))
    assert call in following and "<dd>Main final</dd>" in following
    no_old_words(following)
    display = text_of(Client().get(reverse("tournaments:event-display", args=["cup"])))
    assert "Main final" in display
    no_old_words(display)


def test_the_csv_and_the_public_pages_name_the_rounds_alike(cup: Division) -> None:
    rows = list(csv.reader(io.StringIO(text_of(Client().get(f"/events/cup/{cup.slug}/results.csv")))))
    named = {row[0]: row[-1] for row in rows[1:]}
    assert named == {"1": "Main round 1", "2": "Main semi-final", "3": "Main final"}
    public = text_of(Client().get(f"/events/cup/{cup.slug}/"))
    assert "Main semi-final" in public and "Main final" in public
    no_old_words(public)


def test_a_bracket_of_two_players_is_a_final(dora: Any) -> None:
    division = bracket(dora, "Duel", 2)
    page = text_of(client_for(dora).get(f"/manage/duel/{division.slug}/"))
    assert "Main final ·" in page and "Main round 1" not in page and "semi-final" not in page
    assert Entry.objects.filter(division=division).count() == 2


def test_a_slot_waiting_for_its_players_names_their_rounds_as_the_pages_do(dora: Any) -> None:
    division = bracket(dora, "Waits", 8, "main-consolation")
    sources = {p.key: (p.source_a, p.source_b) for p in Pairing.objects.filter(division=division)}
    assert sources["main-2-0"][0] == "winner of Main round 1 match 1"
    assert sources["main-3-0"] == ("winner of Main semi-final match 1", "winner of Main semi-final match 2")
    assert sources["consolation-1-0"][0] == (
        "drawn once Consolation semi-final's players are known: the losers of Main round 1"
    )
    assert sources["consolation-2-0"][0] == (
        "drawn once Consolation final's players are known: the winners of Consolation semi-final"
    )
    assert not any("main round" in a + b or "consolation round" in a + b for a, b in sources.values())
    sheet = text_of(client_for(dora).get(f"/manage/waits/{division.slug}/round/main/3/sheet/"))
    assert "winner of Main semi-final match 1" in sheet
    no_old_words(sheet)


def test_a_double_elimination_names_its_finals(dora: Any) -> None:
    division = bracket(dora, "Double", 4, "double-elimination")
    names = [
        round_words(rnd, division) for rnd in Round.objects.filter(division=division).order_by("bracket", "number")
    ]
    assert names == [
        "Losers' round 1",
        "Losers' final",
        "Winners' semi-final",
        "Winners' final",
        "Grand final",
        "Grand final reset (if needed)",
    ]


def test_a_match_page_leads_back_to_its_event_and_offers_the_analysis_only_when_there_is_one(cup: Division) -> None:
    final = the_final(cup)
    assert final.match is not None
    html = text_of(Client().get(f"/matches/{final.match_id}/"))
    crumbs = html[html.index('class="breadcrumbs"') :]
    crumbs = crumbs[: crumbs.index("</nav>")]
    assert '<a href="/events/cup/">Cup</a>' in crumbs
    assert f'<a href="/events/cup/{cup.slug}/">Open</a>' in crumbs
    assert f'<a href="/events/cup/{cup.slug}/rounds/main/3/">Main final</a>' in crumbs
    semi = Pairing.objects.filter(division=cup, round__number=2).first()
    assert semi is not None
    played = text_of(Client().get(f"/matches/{semi.match_id}/"))
    assert "with the analysis" not in played and "Download for GNU Backgammon (.sgf)" in played
