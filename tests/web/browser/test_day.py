"""A whole tournament day run from the pages alone, in a real browser: the director on a desktop, the players on
their phones (390 and 360 px), the venue display on a 1920 x 1080 screen.

The director logs in, creates the event with a venue of three tables, adds a single elimination ("Cup") and a
Swiss ("Swiss", two rounds), registers both lists by pasting them, checks the players in without a reload, and
starts both. Four matches are ready for three tables: three are called, at three different tables across the two
divisions, and one waits in the queue. The players of a semi-final open their entry links: each phone shows the
call ("Table N: you play ..."). One of them enters a wrong result, takes it back, enters the right ones, and his
opponent confirms. The freed table goes to the waiting match, which is called. The director enters the other
semi-final's games from his match page; in the Swiss he forfeits a match, undoes the forfeit (its decision is gone
from his page and the public one), and enters its result. The finalist's **Your next match** shows the final's
call. The venue display shows calls, boards and standings (a screenshot is kept). The director pairs the Swiss's
second round, its results and the final come in, and the day ends with both champions and the standings on the
public pages, the event closed by itself.

Nothing here writes to the database: every step is a page action. The test reads the database only to check
what the pages did (no two live matches at one table)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import LIVE, PASSWORD, log_in, shot, watch_reloads
from tests.web.browser.test_room import forfeit_and_undo
from tournaments.models import Event, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CUP = """name,club,country,rating
Anna Berg,Oslo BG,NO,1910
Bjorn Dahl,Oslo BG,NO,1880
Carla Eriksen,Bergen BK,NO,1850
David Foss,,SE,1820
"""
SWISS = """name,club,country,rating
Eva Gran,Bergen BK,NO,1790
Frank Holm,,DK,1760
Greta Ibsen,Oslo BG,NO,1730
Hans Jensen,,NO,1700
"""


def live_tables(event: Event) -> list[int]:
    """The tables of the matches ready or being played, across the event's divisions."""
    rows = Pairing.objects.filter(division__event=event, status__in=("ready", "playing"), table__isnull=False)
    return list(rows.values_list("table_id", flat=True))


def add_division(page: Any, name: str, format: str, *, rounds: int | None = None) -> None:
    form = page.locator("#form-create-division")
    if not form.is_visible():
        page.locator("summary", has_text="Add a division").click()
    form.get_by_label("Name").fill(name)
    form.get_by_label("Format").select_option(format)
    form.get_by_label("Match length (points)").fill("3")
    form.get_by_label("Entry mode").select_option("scoresheet")
    if rounds is not None:
        form.get_by_label("Swiss rounds").fill(str(rounds))
    form.get_by_role("button", name="Add the division").click()
    expect(page.locator(".messages")).to_contain_text(f"Division “{name}” created")


def register_and_check_in(page: Any, players: str) -> None:
    """Paste the list, check the first player in by his row and the others with "Check in all the listed"."""
    # Open while the division takes players: a click on its summary would close it.
    listed = page.locator("details", has=page.locator("summary", has_text="Register a list (CSV)"))
    assert listed.get_attribute("open") is not None
    form = page.locator("#form-import")
    form.get_by_label("Paste the list").fill(players)
    form.get_by_role("button", name="Register the list").click()
    expect(page.locator(".messages")).to_contain_text("4 players registered from the list.")
    same_page = watch_reloads(page)
    first = players.splitlines()[1].split(",")[0]
    page.get_by_label("Find a player").fill(first.split()[0])
    page.locator("#players-list tr[data-find]", has_text=first).locator("button", has_text="Check in").click()
    expect(page.locator("#players-list")).to_contain_text(f"{first} is checked in.")
    page.get_by_label("Find a player").fill("")
    page.locator("#check-in-all-button").click()
    expect(page.locator("#players-list")).to_contain_text("players checked in.")
    same_page()
    page.reload()
    expect(page.locator("#players-list button", has_text="Undo check-in")).to_have_count(4)


def start(page: Any, name: str) -> None:
    page.locator("#form-start").get_by_role("button", name="Start").click()
    expect(page.locator(".messages")).to_contain_text(f"{name} has started")


def enter_game(page: Any, winner: str, won_as: str) -> None:
    """A game's result on an entry page (a player's, or the director's for either side)."""
    form = page.locator("form.result-form")
    form.locator("fieldset", has_text="Who won game").locator("label", has_text=re.compile(f"^{winner}$")).click()
    form.locator("fieldset", has_text="Won as").locator("label", has_text=re.compile(f"^{won_as}$")).click()
    form.get_by_label("Cube value at the end of the game").select_option("1")
    form.get_by_role("button", name="Enter the result").click()


def director_plays(page: Any, url: str, winner: str) -> None:
    """From the director's match page: **Enter for the players**, a backgammon for ``winner`` (3 points: the
    match)."""
    page.goto(url)
    page.get_by_role("link", name=re.compile("^Enter for the players")).click()
    expect(page.locator("body")).to_contain_text("You are entering as the director, for either player.")
    enter_game(page, winner, "backgammon")
    expect(page.locator("#entry-prompt")).to_contain_text(f"{winner} won the match 3-0.")


def manage_links(page: Any, division_url: str) -> list[str]:
    """The director's match pages of a division's current round, in table order."""
    page.goto(division_url)
    links = page.locator("details.round[open] table.boards a", has_text="manage")
    return [href for href in links.evaluate_all("links => links.map(a => a.href)")]


def players_of(page: Any, url: str) -> tuple[str, str]:
    page.goto(url)
    names = page.locator(".page-head h1 .who, .page-head h1 .player").all_inner_texts()
    assert len(names) >= 2, names
    return names[0].strip(), names[-1].strip()


def test_a_day_of_two_divisions_run_from_the_pages(pages: Pages, django_user_model: Any) -> None:
    django_user_model.objects.create_user("tina", password=PASSWORD)

    # -- the director sets the day up ------------------------------------------------------------------------------
    page = log_in(pages, "/manage/", "desktop")
    form = page.locator("#form-create-event")
    form.get_by_label("Name").fill("Club Day")
    form.get_by_label("Venue").fill("Oslo")
    form.get_by_role("button", name="Create the event").click()
    page.wait_for_url("**/manage/club-day/")
    event = Event.objects.get(slug="club-day")
    dashboard = page.url
    page.locator("summary", has_text="Give the venue's tables").click()
    tables = page.locator("#form-set-tables")
    tables.get_by_label("The venue's tables").fill("3")
    tables.get_by_role("button", name="Save the tables").click()
    expect(page.locator(".messages")).to_contain_text("3")
    expect(page.locator("#venue summary")).to_contain_text("The venue has 3 tables")

    add_division(page, "Cup", "single")
    page.goto(dashboard)
    add_division(page, "Swiss", "swiss", rounds=2)
    cup_url, swiss_url = (f"{dashboard}{slug}/" for slug in ("cup", "swiss"))
    for url, players, name in ((cup_url, CUP, "Cup"), (swiss_url, SWISS, "Swiss")):
        page.goto(url)
        register_and_check_in(page, players)
        start(page, name)

    # Four matches, three tables: three called at three different tables, one waiting.
    page.goto(dashboard)
    venue = page.locator("#venue")
    expect(venue.locator("ul.calls li")).to_have_count(3)
    expect(venue.locator("ol.table-queue li")).to_have_count(1)
    assert sorted(set(live_tables(event))) == sorted(live_tables(event)) and len(live_tables(event)) == 3
    labels = venue.locator("table.venue-tables tbody th").all_inner_texts()
    assert [label.split()[0:2] for label in labels] == [["Table", "1"], ["Table", "2"], ["Table", "3"]]
    queued = Pairing.objects.select_related("entry_a__player", "entry_b__player").get(
        division__event=event, status="ready", table__isnull=True
    )
    expect(venue.locator("ol.table-queue li")).to_contain_text(queued.entry_a.player.display_name)
    shot(pages, page, "dashboard")

    # -- a semi-final at the players' phones -----------------------------------------------------------------------
    page.goto(cup_url)
    page.locator("details.round[open]").get_by_role("link", name="Entry slips with each player's QR code").click()
    semi = Pairing.objects.select_related("entry_a__player", "entry_b__player", "table").get(
        division__slug="cup", division__event=event, round__number=1, board=1
    )
    first, second = semi.entry_a.player.display_name, semi.entry_b.player.display_name
    link_a = page.get_by_role("region", name=f"Entry slip of {first}").locator(".slip-url code").inner_text()
    link_b = page.get_by_role("region", name=f"Entry slip of {second}").locator(".slip-url code").inner_text()
    assert link_a and link_b
    phone_a = pages.open(link_a, viewport="phone")
    phone_b = pages.open(link_b, viewport="small-phone")
    expect(phone_a.locator(".call-panel")).to_contain_text(f"{semi.table.label}: you play {second}")
    expect(phone_b.locator(".call-panel")).to_contain_text(f"{semi.table.label}: you play {first}")
    shot(pages, phone_a, "called")

    enter_game(phone_a, second, "single")  # the wrong winner: taken back at once
    expect(phone_a.locator("#take-back")).to_be_visible()
    phone_a.locator("#take-back").click()
    expect(phone_a.locator("#entry-prompt")).to_contain_text("Game 1: enter its result")
    expect(phone_a.locator(".entry-score .points").first).to_have_text("0")
    enter_game(phone_a, first, "gammon")
    expect(phone_a.locator(".entry-score .points").first).to_have_text("2")
    enter_game(phone_a, first, "single")
    expect(phone_a.locator("#entry-prompt")).to_have_text(f"{first} won the match 3-0.")
    shot(pages, phone_a, "entered")
    panel = phone_b.locator(".pairing-panel")
    expect(panel).to_contain_text(f"{first} entered the result: {first} won the match 3-0. Is it right?", timeout=LIVE)
    panel.get_by_role("button", name="Confirm the result").click()
    expect(phone_b.locator(".pairing-panel")).to_contain_text("The result is confirmed.")
    shot(pages, phone_b, "confirmed")

    # The freed table calls the match that waited.
    page.goto(dashboard)
    queued.refresh_from_db()
    assert queued.table is not None and queued.table_id == semi.table_id
    expect(page.locator("#venue ul.calls")).to_contain_text(
        f"{queued.table.label}: Swiss, Round 1: {queued.entry_a.player.display_name}"
    )

    # -- the director: a scoresheet game from his match page, a forfeit undone -------------------------------------
    cup_semis = manage_links(page, cup_url)
    other_semi = next(url for url in cup_semis if not url.endswith(f"/{semi.key}/"))
    other_a, _other_b = players_of(page, other_semi)
    director_plays(page, other_semi, other_a)

    swiss_boards = manage_links(page, swiss_url)
    page.goto(swiss_boards[0])
    forfeit_and_undo(page, "not at the table after 15 minutes", "the player was in the next room")
    expect(page.locator(".page-head")).not_to_contain_text("not at the table")
    round_page = pages.open(reverse("tournaments:division-round", args=[event.slug, "swiss", "swiss", 1]))
    expect(round_page.locator("#round")).not_to_contain_text("not at the table")
    expect(round_page.locator("#round")).not_to_contain_text("forfeit")
    for url in swiss_boards:
        a, _b = players_of(page, url)
        director_plays(page, url, a)

    # -- the final's call on the finalist's "Your next match" ------------------------------------------------------
    final = Pairing.objects.select_related("table", "entry_a__player", "entry_b__player").get(
        division__slug="cup", division__event=event, round__number=2
    )
    assert final.table is not None and final.status == "ready"
    phone_a.goto(reverse("pairing_entry:next"))
    opponent = final.entry_b if final.entry_a.player.display_name == first else final.entry_a
    expect(phone_a.locator(".call")).to_contain_text(
        f"{final.table.label}: you play {opponent.player.display_name}", timeout=LIVE
    )
    shot(pages, phone_a, "next-match")

    # -- the venue display -----------------------------------------------------------------------------------------
    display = pages.open(reverse("tournaments:event-display", args=[event.slug]), viewport="display")
    expect(display.locator(".display-calls li").first).to_contain_text(final.table.label)
    expect(display.locator(".display-boards tbody tr").first).to_be_visible()
    expect(display.locator(".display-standings")).to_contain_text("Swiss")
    pages.shot(display, "venue-display")

    # -- the second Swiss round and the final ----------------------------------------------------------------------
    page.goto(swiss_url)
    page.locator("#form-pair-next").get_by_role("button", name="Pair the next round").click()
    expect(page.locator(".messages")).to_contain_text("2")
    assert sorted(set(live_tables(event))) == sorted(live_tables(event))
    for url in manage_links(page, swiss_url):
        a, _b = players_of(page, url)
        director_plays(page, url, a)
    final_url = f"{cup_url}match/{final.key}/"
    director_plays(page, final_url, final.entry_a.player.display_name)
    assert live_tables(event) == []

    # -- the day ends: champions and standings ---------------------------------------------------------------------
    visitor = pages.open(reverse("tournaments:event-detail", args=[event.slug]), viewport="phone")
    expect(visitor.locator(".page-head .badge")).to_have_text(re.compile("finished|closed", re.I))
    divisions = visitor.locator("table.divisions tbody tr")
    expect(divisions.filter(has_text="Cup")).to_contain_text(final.entry_a.player.display_name)
    expect(divisions.filter(has_text="Swiss").locator("td").last).not_to_have_text("—")
    shot(pages, visitor, "event-finished")
    visitor.goto(reverse("tournaments:division-detail", args=[event.slug, "swiss"]))
    expect(visitor.locator("#standings table.standings tbody tr")).to_have_count(4)
    shot(pages, visitor, "swiss-standings")
    visitor.goto(reverse("tournaments:division-detail", args=[event.slug, "cup"]))
    expect(visitor.locator(".champion")).to_contain_text(final.entry_a.player.display_name)
    shot(pages, visitor, "cup-finished")
    display.reload()
    expect(display.locator(".display-calls")).to_contain_text("The event is over: every division has finished.")
    pages.shot(display, "venue-display-end")
