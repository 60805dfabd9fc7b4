"""Every public and player page with a table, on a 360 px and a 390 px phone: every column a player needs is on the
screen (a table too wide for it stacks its rows into cards, each cell labelled with its column), no column is cut
off or scrolled out of sight, a bracket's names are not cut short, and no word of a table is broken in two.
:func:`tests.web.browser.test_flows.shot` checks all of it on each page it shoots (CUT_COLUMNS, BROKEN_NAMES)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import games.services
from common.actor import SYSTEM, Actor
from games.models import Match
from tests.tournaments.services.support import director_win, enter_win, link
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import CUT_COLUMNS, PASSWORD, log_in, open_entry_link, shot
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONES = pytest.mark.parametrize("viewport", ["phone", "small-phone"])
NAMES = [
    "Christoffer Lindqvist",
    "Emil Yilmaz",
    "Anne-Marit Johannessen",
    "Ola Lie",
    "Kari Moe-Nordheim",
    "Per Dal",
    "Siri Vik",
    "Jon Berg",
]


@dataclass
class Day:
    event: Event
    swiss: Division
    cup: Division
    scoresheet: Match  # under way: games with a cube of 2 and a gammon
    moves: Match  # under way move by move, the cube turned once


def _pairings(division: Division) -> list[Pairing]:
    rows = Pairing.objects.select_related("match", "entry_a", "entry_b").filter(division=division, match__isnull=False)
    return list(rows.order_by("id"))


@pytest.fixture
def day(django_user_model: Any) -> Day:
    actor = Actor(user=django_user_model.objects.create_user("tina", password=PASSWORD))
    event = services.create_event(actor=actor, name="County Championship", venue="Grand Hotel Ballroom")
    swiss = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(
            name="Open Swiss", format="swiss", match_length=5, entry_mode="scoresheet", rounds_planned=3
        ),
    )
    cup = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(name="Cup", format="main-consolation", match_length=3, entry_mode="moves"),
    )
    for i, name in enumerate(NAMES):
        services.register_player(swiss, actor=actor, name=name, rating=1900 - 10 * i)
        services.register_player(cup, actor=actor, name=name, rating=1900 - 10 * i)
    services.start_division(swiss, actor=actor)
    services.start_division(cup, actor=actor)

    first, second, third, _fourth = _pairings(swiss)
    enter_win(first, Entry.objects.get(pk=first.entry_a_id), actor=actor, kind=3, cube=2)  # 6-0: a backgammon at 2
    director_win(second, Entry.objects.get(pk=second.entry_b_id), actor)
    services.recompute_standings(swiss.pk)
    scoresheet = Match.objects.get(pk=third.match_id)
    player = link(scoresheet, 0)
    seq = scoresheet.seq
    for winner, kind, cube in ((0, 2, 2), (1, 1, 1)):  # 4-0, then 4-1
        seq = games.services.record_game_result(
            scoresheet.pk, actor=player, winner=winner, kind=kind, cube_value=cube, expected_seq=seq
        ).match.seq

    director_win(_pairings(cup)[0], Entry.objects.get(pk=_pairings(cup)[0].entry_a_id), actor)
    services.recompute_standings(cup.pk)
    moves = Match.objects.get(pk=_pairings(cup)[1].match_id)
    seq = games.services.record_opening_roll(moves.pk, actor=SYSTEM, dice=(3, 1), expected_seq=moves.seq).match.seq
    seq = games.services.record_play(moves.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=seq).match.seq
    seq = games.services.offer_double(moves.pk, actor=SYSTEM, side=1, expected_seq=seq).match.seq
    games.services.take(moves.pk, actor=SYSTEM, side=0, expected_seq=seq)
    return Day(event, swiss, cup, Match.objects.get(pk=scoresheet.pk), Match.objects.get(pk=moves.pk))


@PHONES
def test_every_column_of_the_public_pages_is_on_a_phones_screen(pages: Pages, viewport: str, day: Day) -> None:
    event = day.event.slug
    page = pages.open(reverse("tournaments:event-list"), viewport=viewport)
    shot(pages, page, "events")
    page.goto(reverse("tournaments:event-detail", args=[event]))
    shot(pages, page, "event")
    page.goto(reverse("tournaments:division-detail", args=[event, day.swiss.slug]))
    expect(page.locator("#standings table.standings tbody tr")).to_have_count(8)
    expect(page.locator("#pairings table.pairings tbody tr")).to_have_count(4)
    for score in page.locator("#pairings td.score-cell a").all():  # "4-0" was a 30 x 20 px target for a thumb
        box = score.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, box
    shot(pages, page, "swiss")
    page.goto(reverse("tournaments:division-round", args=[event, day.swiss.slug, "swiss", 1]))
    shot(pages, page, "swiss-round")
    page.goto(reverse("tournaments:division-detail", args=[event, day.cup.slug]))
    expect(page.locator("#bracket .bracket-slot").first).to_be_visible()
    expect(page.locator("#bracket .bracket-hint-narrow")).to_have_text("One round under another.")
    expect(page.locator("#bracket .bracket-hint-wide")).to_be_hidden()  # "scroll sideways" said of stacked rounds
    shot(pages, page, "cup")
    page.goto(reverse("tournaments:division-round", args=[event, day.cup.slug, "main", 1]))
    shot(pages, page, "cup-round")
    page.goto(reverse("games:match", args=[day.scoresheet.pk]))
    expect(page.locator("table.games tbody tr")).to_have_count(2)
    shot(pages, page, "scoresheet-match")
    page.goto(reverse("games:match", args=[day.moves.pk]))
    expect(page.locator("table.cube-history tbody tr")).to_have_count(1)
    shot(pages, page, "moves-match")
    assert score_on_one_line(page, ".scoreboard .score"), "the match page's score reads as one line, as the entry's"
    page.goto(reverse("games:player", args=[day.scoresheet.player1_id]))
    shot(pages, page, "player")


@PHONES
def test_the_directors_player_cards_name_every_value_on_a_phone(pages: Pages, viewport: str, day: Day) -> None:
    """The director's players table stacks into cards on a phone: each value under its column's name (a CSS label
    from the cell's data-label), the cell's own text unchanged."""
    page = log_in(pages, reverse("director:division", args=[day.event.slug, day.swiss.slug]), viewport)
    expect(page.locator("#players-list tr[data-find]")).to_have_count(8)
    assert page.evaluate(CUT_COLUMNS, "#players-list table") == []
    first = page.locator("#players-list tr[data-find]").first.locator("td").first
    assert first.inner_text() == "1"  # the seed: the label is no part of the cell's text


@PHONES
def test_every_column_of_the_players_pages_is_on_a_phones_screen(pages: Pages, viewport: str, day: Day) -> None:
    phone = open_entry_link(pages, day.scoresheet, 1, viewport)
    games_table = phone.locator("table.games")
    expect(games_table.locator("tbody tr")).to_have_count(2)
    shot(pages, phone, "entry")  # the cube and the points, which a 390 px phone scrolled out of sight, included
    assert score_on_one_line(phone), "each name keeps its points, the dash between them"
    phone.goto(reverse("pairing_entry:next"))
    expect(phone.locator(".entry-panel")).to_have_count(1)
    shot(pages, phone, "next-match")


def score_on_one_line(page: Any, where: str = ".entry-score .score") -> bool:
    """Whether both points and the dash of the score line ``where`` (the entry page's; the match page's is
    ``.scoreboard .score``) share one line (their boxes overlap vertically), each name on the line of its points
    where it meets them."""
    return bool(
        page.evaluate(
            """(where) => {
              const box = (el) => el.getBoundingClientRect();
              const score = document.querySelector(where);
              const [a, b] = [...score.querySelectorAll('.points')].map(box);
              const dash = box(score.querySelector('.score-sep'));
              const overlap = (p, q) => p.top < q.bottom && q.top < p.bottom;
              const [first, second] = [...score.querySelectorAll('.who')].map((el) => [...el.getClientRects()]);
              const ok = overlap(first[first.length - 1], a) && overlap(second[0], b);
              return overlap(a, dash) && overlap(b, dash) && ok;
            }""",
            where,
        )
    )


@PHONES
def test_the_entry_pages_foldable_sections_show_the_same_disclosure_triangle(
    pages: Pages, viewport: str, day: Day
) -> None:
    phone = open_entry_link(pages, day.moves, 0, viewport)
    expect(phone.locator("details.resign summary")).to_be_visible()
    styles = phone.evaluate(
        """() => [...document.querySelectorAll('details.resign summary, details.entry-correction summary')]
             .map((el) => [getComputedStyle(el).display, el.getBoundingClientRect().height >= 44])"""
    )
    assert styles and all(style == ["list-item", True] for style in styles), styles
    assert score_on_one_line(phone)


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_finished_divisions_player_cards_show_no_empty_actions_label(
    pages: Pages, viewport: str, django_user_model: Any
) -> None:
    """Once a division is over its players' list offers no action: a card shows no "Actions" label over nothing."""
    actor = Actor(user=django_user_model.objects.create_user("tina", password=PASSWORD))
    event = services.create_event(actor=actor, name="Club night")
    cup = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Cup", format="single", match_length=1)
    )
    for i, name in enumerate(NAMES[:4]):
        services.register_player(cup, actor=actor, name=name, rating=1900 - 10 * i)
    services.start_division(cup, actor=actor)
    for _ in range(2):
        for p in Pairing.objects.filter(division=cup, status="ready", match__isnull=False):
            director_win(p, Entry.objects.get(pk=p.entry_a_id), actor)
    assert Division.objects.get(pk=cup.pk).status == Division.Status.FINISHED
    page = log_in(pages, reverse("director:division", args=[event.slug, cup.slug]), viewport)
    cards = page.locator("#players-list tr[data-find]")
    expect(cards).to_have_count(4)
    labels = page.evaluate(
        """() => [...document.querySelectorAll('#players-list tr[data-find] > *')]
             .filter((cell) => getComputedStyle(cell).display !== 'none')
             .map((cell) => getComputedStyle(cell, '::before').content)"""
    )
    assert '"Status"' in labels and '"Actions"' not in labels, labels
    assert page.evaluate(CUT_COLUMNS, "#players-list table") == []


@pytest.mark.parametrize("viewport", ["phone"])
def test_a_table_wider_than_the_phone_says_it_scrolls_sideways(pages: Pages, viewport: str, day: Day) -> None:
    """The director's boards of a round are wider than a 390 px phone and scroll: a line over the table says so and
    the edge with more fades, the right one at first, the left one once scrolled to the end; a table that fits says
    nothing."""
    page = log_in(pages, reverse("director:division", args=[day.event.slug, day.swiss.slug]), viewport)
    wrap = page.locator(".table-wrap:has(table.boards)").first
    assert wrap.evaluate("(w) => w.scrollWidth > w.clientWidth"), "the boards' table is wider than the phone"
    expect(wrap).to_have_attribute("data-more", "right")
    hint = page.locator(".scroll-hint + .table-wrap:has(table.boards)").first
    expect(hint).to_have_count(1)
    expect(page.locator(".scroll-hint:visible").first).to_have_text("Scroll sideways for more →")
    faded = wrap.evaluate("(w) => getComputedStyle(w).maskImage")
    assert "gradient" in faded, faded
    wrap.evaluate("(w) => { w.scrollLeft = w.scrollWidth; }")
    expect(wrap).to_have_attribute("data-more", "left")
    page.set_viewport_size({"width": 1280, "height": 900})
    expect(wrap).not_to_have_attribute("data-more", re.compile(".*"))
    expect(page.locator(".scroll-hint:visible")).to_have_count(0)
