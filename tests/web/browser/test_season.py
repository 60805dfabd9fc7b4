"""A club's season of four nights run from the pages alone, in a real browser.

The director logs in, creates the club, adds its season on the club's page (the club's own table: a point a match
won, 10, 6, 4, 4 for the places, 2 for playing a night, the top four qualifying for the playoff), then runs four
club nights of the same twelve people, each a single elimination to 3 points. From night 2 on some of them are
typed as the director hears them ("anna berg", "E. Gran", "Greta Ibsn", "Bjørn Dahl"): the page asks **Who is
it?** and the director picks the roster's player. Every match is entered from the director's match page, the
stronger player (by a fixed order) winning.

At the end there is one record per person, each with one rating on the club's list that counted every match he
played over the four nights, the club's roster shows each at four nights, and the public season table equals a
computation by hand from the matches the test entered: the points, the events, the matches won over the board
(byes are not matches won), and the playoff line under the top four."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Player
from tests.web.browser.conftest import Pages
from tests.web.browser.test_day import add_division, director_plays, manage_links, players_of, start
from tests.web.browser.test_flows import PASSWORD, log_in, shot
from tournaments.models import Club, Rating

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The twelve, strongest first: the stronger of two always wins.
PEOPLE = [
    "Anna Berg",
    "Bjorn Dahl",
    "Carla Eriksen",
    "David Foss",
    "Eva Gran",
    "Frank Holm",
    "Greta Ibsen",
    "Hans Jensen",
    "Ida Kvale",
    "Jon Lund",
    "Kari Moe",
    "Lars Nilsen",
]
#: How the director types some of them on later nights: close to the roster's name, never silently taken.
SPELLED = {
    2: {"Anna Berg": "anna berg", "Eva Gran": "E. Gran"},
    3: {"Greta Ibsen": "Greta Ibsn"},
    4: {"Bjorn Dahl": "Bjørn Dahl", "Anna Berg": "ANNA BERG"},
}
PER_WIN, PLACES, SHOWING_UP, QUALIFY = 1, (10, 6, 4, 4), 2, 4


def create_club_and_season(page: Any) -> str:
    page.locator("summary", has_text="Create a club").click()
    form = page.locator("#form-create-club")
    form.get_by_label("Club name").fill("Oslo BK")
    form.get_by_role("button", name="Create the club").click()
    expect(page.locator(".messages")).to_contain_text("Club “Oslo BK” created")
    expect(page.locator("h1")).to_have_text("Oslo BK")  # the new club's own page
    form = page.locator("#form-add-season")
    form.get_by_label("Season name").fill("Autumn")
    form.get_by_label("First day").fill("2026-09-01")
    form.get_by_label("Last day").fill("2026-12-31")
    form.get_by_label("Points system").select_option("club")
    form.get_by_label("Points per match won").fill(str(PER_WIN))
    form.get_by_label("Points per place").fill(", ".join(str(p) for p in PLACES))
    form.get_by_label("Points for playing a night").fill(str(SHOWING_UP))
    form.get_by_label("Playoff line").fill(str(QUALIFY))
    form.get_by_role("button", name="Add the season").click()
    expect(page.locator(".messages")).to_contain_text("Season “Autumn” added")
    return page.get_by_role("link", name="Autumn").get_attribute("href")


def create_night(page: Any, night: int) -> str:
    """The night's event in the club, and its division; the division's page address."""
    form = page.locator("#form-create-event")
    form.get_by_label("Name").fill(f"Night {night}")
    form.get_by_label("First day").fill(f"2026-10-{night * 7:02d}")
    form.get_by_label("Club").select_option(label="Oslo BK")
    form.get_by_role("button", name="Create the event").click()
    page.wait_for_url(f"**/manage/night-{night}/")
    dashboard = page.url
    add_division(page, "Open", "single")
    return f"{dashboard}open/"


def register(page: Any, night: int) -> None:
    """The list of those typed as on the roster, then the others one by one, each settled by **Who is it?**."""
    spelled = SPELLED.get(night, {})
    listed = [name for name in PEOPLE if name not in spelled]
    form = page.locator("#form-import")
    form.get_by_label("Paste the list").fill("name\n" + "\n".join(listed) + "\n")
    form.get_by_role("button", name="Register the list").click()
    expect(page.locator(".messages")).to_contain_text(f"{len(listed)} players registered from the list.")
    for person, typed in spelled.items():
        if not page.locator("#form-register").is_visible():
            page.locator("summary", has_text="Register a player").click()
        form = page.locator("#form-register")
        form.get_by_label("Name").fill(typed)
        form.get_by_role("button", name="Register").click()
        form = page.locator("#form-register")
        expect(form).to_contain_text("Who is it?")
        form.locator("label", has_text=re.compile(rf"^\s*{person} #\d+$")).click()
        form.get_by_role("button", name="Register").click()
        expect(page.locator(".messages")).to_contain_text(person)
    page.locator("#check-in-all-button").click()
    expect(page.locator("#players-list")).to_contain_text("players checked in.")


def play_night(page: Any, division_url: str) -> tuple[Counter[str], Counter[str], dict[str, int]]:
    """Every match of the night, round by round, entered by the director: the stronger wins. Answers each person's
    matches won and matches played, and the points of the places the test worked out from the bracket."""
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    rounds: list[list[tuple[str, str]]] = []  # per round: (winner, loser)
    done: set[str] = set()
    while True:
        links = [url for url in manage_links(page, division_url) if url not in done]
        if not links:
            break
        results = []
        for url in links:
            first, second = players_of(page, url)
            winner, loser = sorted((first, second), key=PEOPLE.index)
            director_plays(page, url, winner)
            wins[winner] += 1
            played.update((winner, loser))
            results.append((winner, loser))
            done.add(url)
        rounds.append(results)
    (champion, runner_up), semi_final = rounds[-1][0], rounds[-2]
    assert len(rounds[-1]) == 1 and len(semi_final) == 2
    places = {champion: PLACES[0], runner_up: PLACES[1]}
    places.update({loser: (PLACES[2] + PLACES[3]) / 2 for _, loser in semi_final})  # 3-4 shared
    return wins, played, places


def season_rows(page: Any, url: str) -> dict[str, tuple[str, str, str, bool]]:
    page.goto(url)
    rows = {}
    for row in page.locator("table.standings tbody tr").all():
        name = row.locator("th a").inner_text().strip()
        cells = [cell.inner_text().strip() for cell in row.locator("td.num").all()]
        rows[name] = (cells[0], cells[1], cells[2], "qualified" in (row.get_attribute("class") or ""))
    return rows


def test_a_season_of_four_club_nights_from_the_pages(pages: Pages, django_user_model: Any) -> None:
    django_user_model.objects.create_user("tina", password=PASSWORD)
    pages.allow("409 (Conflict)")  # the page asking "Who is it?" answers 409, as the API does
    page = log_in(pages, "/manage/", "desktop")
    season_url = create_club_and_season(page)

    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for night in (1, 2, 3, 4):
        page.goto(pages.base_url + "/manage/")
        division_url = create_night(page, night)
        page.goto(division_url)
        register(page, night)
        start(page, "Open")
        night_wins, night_played, places = play_night(page, division_url)
        wins.update(night_wins)
        played.update(night_played)
        for person in PEOPLE:
            points[person] += PER_WIN * night_wins[person] + places.get(person, 0) + SHOWING_UP

    # One record per person, one rating each that counted every match of the four nights.
    club = Club.objects.get(name="Oslo BK")
    assert sorted(Player.objects.values_list("display_name", flat=True)) == sorted(PEOPLE)
    ratings = {r.player.display_name: r for r in Rating.objects.filter(rating_list=club.rating_list)}
    assert {name: r.matches for name, r in ratings.items()} == {name: played[name] for name in PEOPLE}
    assert ratings["Anna Berg"].rating > 1500 > ratings["Lars Nilsen"].rating

    page.goto(pages.base_url + f"/clubs/{club.slug}/manage/")
    roster = page.locator("table", has=page.locator("th", has_text="Nights played"))
    for person in PEOPLE:
        row = roster.locator("tbody tr", has=page.get_by_role("link", name=person, exact=True))
        expect(row.locator('td[data-label="Nights played"]')).to_have_text("4")
        expect(row.locator('td[data-label="Rating"]')).to_have_text(str(round(ratings[person].rating)))
    shot(pages, page, "club-roster")

    # The season's table, public, against the hand computation.
    public = pages.open(season_url, viewport="phone")
    rows = season_rows(public, pages.base_url + season_url)
    rank = {person: 1 + sum(points[other] > points[person] for other in PEOPLE) for person in PEOPLE}
    expected = {person: (f"{points[person]:.2f}", "4", str(wins[person]), rank[person] <= QUALIFY) for person in PEOPLE}
    assert rows == expected
    assert sum(1 for row in rows.values() if row[3]) >= QUALIFY
    expect(public.locator("table.standings caption")).to_contain_text("The top 4 qualify for the playoff")
    shot(pages, public, "season-table")
    assert not pages.unexpected()
