"""A Swiss into a knockout names its knockout's rounds one way everywhere (tournaments.core.round_words): "Knockout
round 1", "Knockout semi-final", "Knockout final" on the director's page, the public page and its bracket, the
venue display's calls and boards, a player's call and "Your next match", a refusal, a pairing sheet and the results
CSV; and its bracket shows the knockout's seeds (the Swiss places), each first-round slot saying which Swiss place
its player took."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from common.errors import ApplicationError
from games import services as games
from tests.tournaments.services.support import director_win
from tests.web.director.support import client_for, text_of
from tests.web.test_entry_pages import Phone
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

KNOCKOUT_ROUNDS = ("Knockout round 1", "Knockout semi-final", "Knockout final")
OLD_WORDS = ("main round", "Main round", "Knockout round 2", "Knockout round 3", "Knockout, ", "Main 1")


@pytest.fixture
def knockout(dora: Any) -> Division:
    """12 players (P01... rated 2010, 2000, ...: registration seed k is Pk), two Swiss rounds won by side b each
    time (so the Swiss places are not the registration seeds), then a top-8 knockout at eight tables."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Club night")
    settings = services.DivisionSettings(
        name="Open",
        format="swiss-knockout",
        rounds_planned=2,
        knockout_size=8,
        entry_mode="scoresheet",
        match_length=3,
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, 13):
        services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
    services.set_tables(event, actor=actor, names=[""] * 8)
    services.start_division(division, actor=actor)
    for _round in (1, 2):
        for p in Pairing.objects.filter(division=division, round__bracket="swiss", status="ready", match__isnull=False):
            assert p.entry_b is not None
            director_win(p, Entry.objects.get(pk=p.entry_b_id), actor)
        services.pair_next_round(division, actor=actor)  # round 2, then the knockout
    division = Division.objects.get(pk=division.pk)
    assert division.knockout_drawn and Round.objects.filter(division=division, bracket="main").count() == 3
    seeds = dict(Entry.objects.filter(pk__in=division.knockout_seeds).values_list("pk", "seed"))
    assert [seeds[pk] for pk in division.knockout_seeds] != list(range(1, 9)), "the Swiss reordered the field"
    return division


def slot(division: Division, key: str) -> Pairing:
    return Pairing.objects.select_related("table", "match", "entry_a__player", "entry_b__player").get(
        division=division, key=key
    )


def no_old_words(html: str) -> None:
    for words in OLD_WORDS:
        assert words not in html, words


def test_the_director_page_names_the_knockouts_semi_final_and_final(knockout: Division, dora: Any) -> None:
    page = text_of(client_for(dora).get(f"/manage/{knockout.event.slug}/{knockout.slug}/"))
    for words in KNOCKOUT_ROUNDS:
        assert f"{words} ·" in page, words
    no_old_words(page)
    event_page = text_of(client_for(dora).get(f"/manage/{knockout.event.slug}/"))
    assert "Knockout round 1" in event_page and "Main round 1" not in event_page


def test_the_public_page_names_the_knockouts_rounds_as_the_director_does(knockout: Division) -> None:
    public = text_of(Client().get(f"/events/{knockout.event.slug}/{knockout.slug}/"))
    listed = public[public.index('id="rounds"') :]
    for words in KNOCKOUT_ROUNDS:
        assert words in listed, words
    bracket = public[public.index('id="bracket"') : public.index('id="rounds"')]
    assert ">Semi-final</h4>" in bracket and ">Final</h4>" in bracket
    no_old_words(public)
    final = text_of(Client().get(f"/events/{knockout.event.slug}/{knockout.slug}/rounds/main/3/"))
    assert "Knockout final" in final and "Knockout, final" not in final


def seed_badges(html: str) -> dict[str, int]:
    """Each player's seed badge in ``html``: {"P07": 1, ...}."""
    found = re.findall(r'<span class="seed"><span class="visually-hidden">seed </span>(\d+)</span>\s*'
                       r'<span class="who">(P\d\d)</span>', html)  # fmt: skip
    return {name: int(seed) for seed, name in found}


def test_the_knockouts_seed_badges_are_its_seeds_and_each_first_round_slot_says_the_swiss_place(
    knockout: Division,
) -> None:
    names = dict(Entry.objects.filter(division=knockout).values_list("pk", "player__display_name"))
    drawn = {names[pk]: n for n, pk in enumerate(knockout.knockout_seeds, start=1)}
    public = text_of(Client().get(f"/events/{knockout.event.slug}/{knockout.slug}/"))
    bracket = public[public.index('id="bracket"') : public.index('id="rounds"')]
    assert seed_badges(bracket) == drawn
    round_1 = text_of(Client().get(f"/events/{knockout.event.slug}/{knockout.slug}/rounds/main/1/"))
    table = round_1[round_1.index('id="round"') :]
    assert seed_badges(table) == drawn
    first = slot(knockout, "main-1-0")  # seed 1 v seed 8
    assert first.entry_a_id == knockout.knockout_seeds[0] and first.entry_b_id == knockout.knockout_seeds[7]
    for html in (bracket, table):
        assert html.count("in the Swiss standings") == 8, "every first-round player's Swiss place"
        assert ">1st in the Swiss standings, 2 wins<" in html, html


def test_the_venue_display_and_the_phone_call_the_round_as_the_pages_name_it(knockout: Division) -> None:
    display = text_of(Client().get(reverse("tournaments:event-display", args=[knockout.event.slug])))
    calls = display[display.index("display-calls") : display.index('id="display-boards-heading"')]
    boards = display[display.index('id="display-boards-heading"') : display.index('id="display-standings-heading"')]
    assert "Knockout round 1" in calls and "Knockout round 1" in boards
    no_old_words(display)

    first = slot(knockout, "main-1-0")
    assert first.table is not None and first.match is not None and first.entry_b is not None
    phone = Phone(first.match, 0)
    call = f"{first.table.label}: you play {first.entry_b.player.display_name}, Knockout round 1, 3 points"
    assert call in phone.page()
    following = text_of(phone.client.get("/play/pairings/next/"))
    assert call in following and "<dd>Knockout round 1</dd>" in following
    no_old_words(following)


def test_the_pairing_sheet_and_the_csv_name_the_knockouts_rounds(knockout: Division, dora: Any) -> None:
    sheet = text_of(client_for(dora).get(f"/manage/{knockout.event.slug}/{knockout.slug}/round/main/2/sheet/"))
    assert "winner of Knockout round 1 match 1" in sheet and "Knockout semi-final" in sheet
    no_old_words(sheet)
    final = text_of(client_for(dora).get(f"/manage/{knockout.event.slug}/{knockout.slug}/round/main/3/sheet/"))
    assert "winner of Knockout semi-final match 1" in final

    rows = list(
        csv.reader(io.StringIO(text_of(Client().get(f"/events/{knockout.event.slug}/{knockout.slug}/results.csv"))))
    )
    assert rows[0][-1] == "round name"
    named = {(row[0], row[1]): row[-1] for row in rows[1:]}
    assert named[("1", "swiss")] == "Round 1" and named[("1", "main")] == "Knockout round 1"


def test_a_refused_correction_names_the_round_and_its_table_once(knockout: Division, dora: Any) -> None:
    actor = Actor(user=dora)
    for key in ("main-1-0", "main-1-1"):
        p = slot(knockout, key)
        assert p.entry_a is not None
        director_win(p, p.entry_a, actor)
    semi = slot(knockout, "main-2-0")
    assert semi.table is not None and semi.match is not None
    games.record_game_result(semi.match_id, actor=actor, winner=0, kind=1, expected_seq=semi.match.seq)
    with pytest.raises(ApplicationError) as refused:
        games.reopen_match(slot(knockout, "main-1-0").match_id, actor=actor, reason="the scoresheet was misread")
    message = refused.value.message
    assert f"a later match that depends on it has started (Knockout semi-final, {semi.table.label}: " in message
    assert "table Table" not in message and "Main round" not in message
