"""Whole flows in a real browser (Chromium through Playwright, against pytest-django's live server), each on a phone
(390 x 844, touch) and on a desktop (1280 x 800):

1. a director logs in through the form, creates an event and a Swiss division, registers eight players from a
   pasted list, starts the division and prints round 1's pairing sheet (eight QR codes, four tables);
2. players enter matches from their entry links: the opening roll with the die buttons and a play tapped on the
   board, and a scoresheet match entered game by game and confirmed by the opponent through the panel;
3. spectators' pages (the division page, a round's page, the match page) follow those actions without a reload;
4. an illegal play typed in notation is refused on screen with the engine's message, and nothing is recorded;
5. tap to move step by step (the board and the step buttons, with an undo) on a 360 px phone, and the opponent's
   entry page offering his play once his roll is in (moved here from tests/web/test_entry_pages.py);
6. a match's move list grows by polling (outside the live part) and the arrow keys step onto the new moves;
7. the main pages the flows above do not open (events, an event, a bracket and a round's page reached from its
   link, score cards, a bracket's sheet, final standings, a director's match page) on a phone: every page shot is
   checked to be no wider than the screen.

Data the players and spectators start from is built through the services (the live server runs real
transactions). tests/web/browser/conftest.py opens the pages, takes the screenshots and fails a test on any
console error. Run with RUN_BROWSER_TESTS=1.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from playwright.sync_api import expect

import games.services
from common.actor import SYSTEM, Actor
from engine.errors import IllegalPlayError
from engine.notation import parse_play
from engine.position import Position
from games import access
from games.models import Action, Match
from games.spectator import match_for_page, page_data
from tests.web.browser.conftest import Pages
from tournaments import services
from tournaments.models import Division, Event, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORT = pytest.mark.parametrize("viewport", ["phone", "desktop"])
LIVE = 15_000  # ms: the division page polls every 5 s, the match and entry pages every 3 s
PASSWORD = "correct horse battery staple"
PLAYERS_CSV = """name,club,country,rating
Anna Berg,Oslo BG,NO,1910
Bjorn Dahl,Oslo BG,NO,1880
Carla Eriksen,Bergen BK,NO,1850
David Foss,,SE,1820
Eva Gran,Bergen BK,NO,1790
Frank Holm,,DK,1760
Greta Ibsen,Oslo BG,NO,1730
Hans Jensen,,NO,1700
"""


# -- helpers ---------------------------------------------------------------------------------------------------------


def press(page: Any, locator: Any, viewport: str) -> None:
    """A finger on a phone (a touch tap), the mouse on a desktop. ``force``: the tap layer's targets are
    transparent SVG rectangles, which Playwright does not count as visible."""
    if viewport != "desktop":
        locator.tap(force=True)
    else:
        locator.click(force=True)


def shot(pages: Pages, page: Any, name: str) -> None:
    """A screenshot of a main page; no page is wider than the screen (a phone's included, the printable ones too),
    no word of a name or a table is broken in two, and a public or a player's page shows every column."""
    wide, screen = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if wide > screen:
        past = page.evaluate(OVERFLOWING)
        pytest.fail(f"{name}: {page.url} is {wide} px wide on a {screen} px screen; past its edge: {past}")
    broken = page.evaluate(BROKEN_NAMES)
    if broken:
        pytest.fail(f"{name}: {page.url} breaks names inside a word on a {screen} px screen: {broken}")
    # Every column of a public or a player's page; the director's pages still scroll their wide tables sideways.
    cut = [] if "/manage/" in page.url else page.evaluate(CUT_COLUMNS)
    if cut:
        pytest.fail(f"{name}: {page.url} does not show every column on a {screen} px screen: {cut}")
    pages.shot(page, name)


#: Words of players' names, and of any table's cells, drawn on more than one line (a name broken inside a word,
#: "Yilma" / "z"). Not the words of a closed <details> beyond its summary, which are not drawn: measuring them lays
#: them out at the closed box's width (Chromium's content-visibility), which no reader sees.
BROKEN_NAMES = """() => {
  const broken = [];
  const hidden = node => {
    const closed = node.parentElement.closest("details:not([open])");
    return closed !== null && node.parentElement.closest("summary") === null;
  };
  for (const el of document.querySelectorAll(".player, .who, .slot-name, .sheet-player, .slip-name, td, th")) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (hidden(node)) continue;
      for (const m of node.data.matchAll(/[^\\s-]+/g)) {  // a line may end after a hyphen ("5-" / "point")
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken.slice(0, 5);
}"""


#: What a reader of a table or a bracket cannot see: a header or a cell (with text) past the screen's edges, cut off
#: by a box that hides or scrolls its overflow (a table scrolled sideways hides its last columns), or whose content
#: is cut inside it (an ellipsis); a table whose header row is not shown (stacked into cards) must label each cell
#: with its column's header. Each as the table's class, the column's header and the cell's text. Its argument: which
#: tables (every table of the page's main part unless given).
CUT_COLUMNS = """(tables = "main table") => {
  const edge = window.innerWidth;
  const text = e => e.textContent.replace(/\\s+/g, " ").trim();
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 1 && r.height > 1; };
  const seen = e => {
    const r = e.getBoundingClientRect();
    if (r.left < -0.5 || r.right > edge + 0.5) return false;
    for (let a = e.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === "visible" && style.overflowY === "visible") continue;
      const box = a.getBoundingClientRect();
      const left = box.left + a.clientLeft, right = left + a.clientWidth;
      if (r.left < left - 0.5 || r.right > right + 0.5) return false;
    }
    return e.scrollWidth <= e.clientWidth + 1 || getComputedStyle(e).display === "inline";
  };
  const cut = [];
  for (const table of document.querySelectorAll(tables)) {
    const heads = [];
    for (const th of table.tHead ? table.tHead.rows[0].cells : []) {
      for (let i = 0; i < th.colSpan; i++) heads.push(th);
    }
    const headed = heads.length && shown(table.tHead);  // else visually hidden: the cells carry the headers
    const where = "table." + [...table.classList].join(".");
    for (const th of new Set(heads)) {
      if (headed && !seen(th)) cut.push(`${where}: the header ${text(th)}`);
    }
    for (const body of table.tBodies) {
      for (const row of body.rows) {
        let column = 0;
        for (const cell of row.cells) {
          const spanned = heads.slice(column, column + cell.colSpan).map(text);
          column += cell.colSpan;
          if (!text(cell)) continue;
          if (!shown(cell) || !seen(cell)) cut.push(`${where}: ${spanned[0]} ${text(cell)}`);
          if (heads.length && !headed) {
            const label = getComputedStyle(cell, "::before").content;
            if (!spanned.some(words => label === JSON.stringify(words)))
              cut.push(`${where}: ${text(cell)} is not labelled ${spanned[0]} (${label})`);
          }
        }
      }
    }
  }
  for (const el of document.querySelectorAll("main .bracket-slot, main .bracket-slot p, main .slot-name")) {
    if (text(el) && !seen(el)) cut.push(`bracket: ${text(el)}`);
  }
  return cut.slice(0, 8);
}"""


#: The outermost elements whose right edge is past the screen's, outside any scrolling box (what makes a page too
#: wide), as tag#id.class and their right edge.
OVERFLOWING = """() => {
  const edge = window.innerWidth;
  const clipped = e => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") return true;
    }
    return false;
  };
  const past = [...document.body.querySelectorAll("*")]
    .filter(e => e.getBoundingClientRect().right > edge + 0.5 && !clipped(e));
  const outer = past.filter(e => !past.includes(e.parentElement));
  return outer.slice(0, 5).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "")
    + (e.classList.length ? "." + [...e.classList].join(".") : "") + " " + Math.round(e.getBoundingClientRect().right));
}"""


def point(page: Any, number: int) -> Any:
    """A point of the entry board's tap layer (the mover's numbering; 25 the bar, 0 the tray)."""
    return page.locator(f'#entry-board rect.tap[data-tap="{number}"]')


def open_entry_link(pages: Pages, match: Match, side: int, viewport: str) -> Any:
    """A player's phone opening the link of his QR code: the token is exchanged for the entry page."""
    page = pages.open(f"/play/{access.token_text(access.new_entry_token(match, side))}/", viewport=viewport)
    assert page.url.endswith(f"/play/match/{match.pk}/")
    return page


def watch_reloads(page: Any) -> Any:
    """Mark the document and count main-frame navigations: a page that follows by polling keeps both."""
    marker = uuid.uuid4().hex
    page.evaluate("marker => { window.bgmatchMarker = marker; }", marker)
    navigations: list[str] = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and navigations.append(frame.url))

    def check() -> None:
        assert page.evaluate("() => window.bgmatchMarker") == marker, "the page was reloaded"
        assert not navigations, f"the page navigated: {navigations}"

    return check


def actions(match: Match) -> list[tuple[str, str]]:
    return list(Action.objects.filter(match=match).order_by("seq").values_list("kind", "play"))


@dataclass
class Tournament:
    """A running event with two 4-player Swiss divisions: "Main" entered move by move, "Side" from scoresheets."""

    event: Event
    main: Division
    side: Division

    def board(self, division: Division, table: int = 1) -> Pairing:
        pairing = Pairing.objects.select_related("match__player1", "match__player2").get(
            division=division, round__number=1, board=table
        )
        assert pairing.match is not None
        return pairing

    def spectator_url(self, division: Division) -> str:
        return reverse("tournaments:division-detail", args=[self.event.slug, division.slug])


def _swiss(event: Event, actor: Actor, name: str, mode: str, players: list[str]) -> Division:
    settings = services.DivisionSettings(
        name=name, format="swiss", match_length=3, entry_mode=mode, rounds_planned=3, seeding="rating"
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i, player in enumerate(players):
        services.register_player(division, actor=actor, name=player, rating=1900 - 10 * i)
    services.start_division(division, actor=actor)
    return division


@pytest.fixture
def tournament(django_user_model: Any) -> Tournament:
    actor = Actor(user=django_user_model.objects.create_user("tina", password=PASSWORD))
    event = services.create_event(actor=actor, name="Club night", venue="Oslo")
    main = _swiss(event, actor, "Main", Match.EntryMode.MOVES, ["Alice", "Bob", "Carol", "Dan"])
    side = _swiss(event, actor, "Side", Match.EntryMode.SCORESHEET, ["Erik", "Frida", "Gunnar", "Hilde"])
    return Tournament(event, main, side)


# -- 1. the director -------------------------------------------------------------------------------------------------


@VIEWPORT
def test_a_director_sets_up_a_swiss_division_and_prints_the_pairing_sheet(
    pages: Pages, viewport: str, django_user_model: Any
) -> None:
    django_user_model.objects.create_user("tina", password=PASSWORD)
    page = pages.open("/manage/", viewport=viewport)  # anonymous: sent to the login form
    assert "/accounts/login/" in page.url
    skip = page.get_by_role("link", name="Skip to content")
    expect(skip).not_to_be_in_viewport()  # shown only to the keyboard
    skip.focus()
    expect(skip).to_be_in_viewport()
    skip.blur()
    shot(pages, page, "login")
    form = page.locator("#form-login")
    form.get_by_label("Username").fill("tina")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/manage/")
    expect(page.get_by_role("heading", name="Your events", level=1)).to_be_visible()

    form = page.locator("#form-create-event")
    form.get_by_label("Name").fill("Spring Open")
    form.get_by_label("Venue").fill("Oslo")
    shot(pages, page, "director-home")
    form.get_by_role("button", name="Create the event").click()
    page.wait_for_url("**/manage/spring-open/")
    expect(page.locator(".messages")).to_contain_text("Event “Spring Open” created")

    form = page.locator("#form-create-division")  # open: the event has no division yet
    form.get_by_label("Name").fill("Open")
    form.get_by_label("Format").select_option("swiss")
    form.get_by_label("Match length (points)").fill("5")
    form.get_by_label("Entry mode").select_option("scoresheet")
    form.get_by_label("Swiss rounds").fill("3")
    shot(pages, page, "event")
    form.get_by_role("button", name="Add the division").click()
    page.wait_for_url("**/manage/spring-open/open/")
    expect(page.locator(".messages")).to_contain_text("Division “Open” created")
    shot(pages, page, "division-registration")

    # Open while the division takes players: a click on its summary would close it.
    listed = page.locator("details", has=page.locator("summary", has_text="Register a list (CSV)"))
    assert listed.get_attribute("open") is not None
    form = page.locator("#form-import")
    form.get_by_label("Paste the list").fill(PLAYERS_CSV)
    form.get_by_role("button", name="Register the list").click()
    expect(page.locator(".messages")).to_contain_text("8 players registered from the list.")
    expect(page.locator("table.entries tbody tr")).to_have_count(8)

    page.locator("#form-start").get_by_role("button", name="Start").click()
    expect(page.locator(".messages")).to_contain_text("Open has started: the first round is drawn.")
    round_1 = page.locator("details.round[open]")
    expect(round_1.locator("summary")).to_contain_text("Round 1")
    rows = round_1.locator("table.boards tbody tr")
    expect(rows).to_have_count(4)
    assert [rows.nth(i).locator("td").first.inner_text() for i in range(4)] == ["1", "2", "3", "4"]
    for i in range(4):
        expect(rows.nth(i)).to_contain_text("ready")
    expect(page.locator(".page-head .badge")).to_have_text(re.compile("in play", re.I))  # the status in words
    shot(pages, page, "division")

    round_1.get_by_role("link", name="Pairing sheet (for the wall)").click()
    page.wait_for_url("**/manage/spring-open/open/round/swiss/1/sheet/")
    sheet = page.locator("table.sheet")
    expect(sheet.locator("svg")).to_have_count(0)  # no entry code on the wall
    expect(sheet.locator("td.table-number")).to_have_text(["1", "2", "3", "4"])
    expect(page.locator("h1")).to_contain_text("Open · Round 1 · Pairing sheet")
    players = sheet.locator("td.sheet-player").all_inner_texts()
    assert len(players) == 8 and {p.split()[0] for p in players} >= {"Anna", "Hans"}
    shot(pages, page, "pairing-sheet")
    page.go_back()
    page.locator("details.round[open]").get_by_role("link", name="Entry slips with each player's QR code").click()
    page.wait_for_url("**/manage/spring-open/open/round/swiss/1/slips/")
    slips = page.locator(".slips")
    expect(slips.locator(".slip svg")).to_have_count(8)
    expect(slips.locator("a.qr")).to_have_count(0)  # a QR code is no hyperlink: a click would claim the link
    links = slips.locator(".slip-url code").all_inner_texts()
    assert len(set(links)) == 8 and all("/play/" in link for link in links)
    shot(pages, page, "entry-slips")

    # A code of the sheet is a player's way in: it opens his match's entry page.
    phone = pages.open(links[0], viewport=viewport)
    assert "/play/match/" in phone.url
    expect(phone.locator("#entry-prompt")).to_have_text("Game 1: enter its result when it is over.")


# -- 2 and 3. players enter, spectators follow -----------------------------------------------------------------------


@VIEWPORT
def test_players_enter_from_their_links_and_spectators_follow_without_a_reload(
    pages: Pages, viewport: str, tournament: Tournament
) -> None:
    moves = tournament.board(tournament.main).match
    sheet_pairing = tournament.board(tournament.side)
    sheet = sheet_pairing.match
    assert moves is not None and sheet is not None
    alice, bob = moves.player1.display_name, moves.player2.display_name
    winner, loser = sheet.player1.display_name, sheet.player2.display_name

    # The spectators open their pages first.
    division_page = pages.open(tournament.spectator_url(tournament.side), viewport=viewport)
    standings = division_page.locator("#standings")
    winner_row = standings.locator("table.standings tbody tr", has_text=winner)
    expect(standings).to_contain_text("No standings yet")  # no result counts yet
    shot(pages, division_page, "spectator-division-before")
    division_reloads = watch_reloads(division_page)
    round_page = pages.open(
        reverse("tournaments:division-round", args=[tournament.event.slug, tournament.side.slug, "swiss", 1]),
        viewport=viewport,
    )
    expect(round_page.locator("#round table.pairings")).to_contain_text(winner)
    round_reloads = watch_reloads(round_page)
    match_page = pages.open(reverse("games:match", args=[moves.pk]), viewport=viewport)
    expect(match_page.locator("#live")).not_to_contain_text("8/5 6/5")
    match_reloads = watch_reloads(match_page)

    # Alice, first to act in the move-by-move match: the opening roll with the die buttons, then a tapped play.
    phone = open_entry_link(pages, moves, 0, viewport)
    expect(phone.locator("#entry-prompt")).to_have_text("Game 1: enter the opening roll, each player's die.")
    shot(pages, phone, "entry-opening")
    dice = phone.locator("fieldset.dice-row")
    press(phone, dice.nth(0).locator("label.die-choice", has_text="3"), viewport)
    press(phone, dice.nth(1).locator("label.die-choice", has_text="1"), viewport)
    phone.get_by_role("button", name="Enter the opening roll").click()
    expect(phone.locator("#entry-prompt")).to_have_text(f"{alice}, your turn: play 3-1.")
    expect(phone.locator("#tap-status")).to_have_text("Tap a checker, then where it goes. Dice: 3 1")
    press(phone, point(phone, 8), viewport)  # a checker: its point is selected, where it may go is shown
    expect(point(phone, 8)).to_have_class("tap is-selected")
    expect(point(phone, 5)).to_have_class("tap is-target")
    press(phone, point(phone, 5), viewport)  # where it goes
    expect(phone.locator("#play-text")).to_have_value("8/5")
    expect(phone.locator("#tap-status")).to_have_text("So far: 8/5. Dice left: 1")
    press(phone, point(phone, 6), viewport)
    press(phone, point(phone, 5), viewport)
    expect(phone.locator("#play-text")).to_have_value("8/5 6/5")
    expect(phone.locator("#tap-status")).to_have_text("Your play: 8/5 6/5. Submit it, or undo.")
    shot(pages, phone, "entry-tapped")
    phone.get_by_role("button", name="Submit the play").click()
    expect(phone.locator("#entry-prompt")).to_have_text(f"Waiting for {bob}.")
    mine = '#entry-board g[data-where="point"][data-side="bottom"][data-point="{}"]'  # the new position
    assert [phone.get_attribute(mine.format(p), "data-count") for p in (8, 6, 5)] == ["2", "4", "2"]
    expect(phone.locator("#entry-board desc")).to_contain_text(f"{alice} played 8/5 6/5.")
    shot(pages, phone, "entry-played")
    assert actions(moves) == [("opening-roll", ""), ("play", "8/5 6/5")]

    # The scoresheet match, game by game, from the first player's link, while the opponent's page is open.
    entering = open_entry_link(pages, sheet, 0, viewport)
    answering = open_entry_link(pages, sheet, 1, viewport)
    for game, won_as, score in ((1, "single", "1"), (2, "gammon", "3")):
        form = entering.locator("form.result-form")
        for legend, choice in ((f"Who won game {game}?", winner), ("Won as", won_as)):
            label = form.locator("fieldset", has_text=legend).locator("label", has_text=re.compile(f"^{choice}$"))
            press(entering, label, viewport)
        form.get_by_label("Cube value at the end of the game").select_option("1")
        if game == 1:
            shot(pages, entering, "entry-scoresheet")
        form.get_by_role("button", name="Enter the result").click()
        expect(entering.locator(".entry-score .points").first).to_have_text(score)
    expect(entering.locator("#entry-prompt")).to_have_text(f"{winner} won the match 3-0.")
    expect(entering.locator(".pairing-panel")).to_contain_text(f"The result waits for {loser}'s confirmation.")
    expect(entering.locator("table.games tbody tr")).to_have_count(2)
    shot(pages, entering, "entry-scoresheet-finished")

    # The opponent's page, polling, offers him the confirmation; he confirms.
    panel = answering.locator(".pairing-panel")
    expect(panel).to_contain_text(
        f"{winner} entered the result: {winner} won the match 3-0. Is it right?", timeout=LIVE
    )
    shot(pages, answering, "entry-confirm-panel")
    panel.get_by_role("button", name="Confirm the result").click()
    expect(answering.locator(".pairing-panel")).to_contain_text("The result is confirmed.")
    sheet_pairing.refresh_from_db()
    assert sheet_pairing.confirmation == Pairing.Confirmation.CONFIRMED

    # The spectators saw it all by polling.
    expect(match_page.locator("#live ol.tail")).to_contain_text(f"{alice} 31: 8/5 6/5", timeout=LIVE)
    expect(match_page.locator("#live .live-board")).to_be_visible()
    expect(match_page.locator("#move-list")).to_contain_text(f"{alice} 31: 8/5 6/5")  # the list follows too
    expect(match_page.locator("#move-list")).not_to_contain_text("No moves yet")
    shot(pages, match_page, "spectator-match")
    expect(winner_row.locator("td").nth(1)).to_have_text("1", timeout=LIVE)
    expect(standings.locator("table.standings tbody tr").first).to_contain_text(winner)
    expect(standings.locator("table.standings tbody tr", has_text=loser).locator("td").nth(2)).to_have_text("1")
    expect(division_page.locator("#pairings")).to_contain_text("3\u20130", timeout=LIVE)  # an en dash
    shot(pages, division_page, "spectator-division-after")
    expect(round_page.locator("#round")).to_contain_text("3\u20130", timeout=LIVE)  # a round's page follows too
    shot(pages, round_page, "spectator-round")
    division_reloads()
    round_reloads()
    match_reloads()


# -- 4. an illegal play ----------------------------------------------------------------------------------------------


@VIEWPORT
def test_an_illegal_play_typed_in_notation_is_refused_and_nothing_is_recorded(
    pages: Pages, viewport: str, tournament: Tournament
) -> None:
    match = tournament.board(tournament.main).match
    assert match is not None
    alice = match.player1.display_name
    phone = open_entry_link(pages, match, 0, viewport)
    dice = phone.locator("fieldset.dice-row")
    press(phone, dice.nth(0).locator("label.die-choice", has_text="3"), viewport)
    press(phone, dice.nth(1).locator("label.die-choice", has_text="1"), viewport)
    phone.get_by_role("button", name="Enter the opening roll").click()
    turn = f"{alice}, your turn: play 3-1."
    expect(phone.locator("#entry-prompt")).to_have_text(turn)
    match.refresh_from_db()
    seq = match.seq

    pages.allow(f"/play/match/{match.pk}/: Failed to load resource: the server responded with a status of 400")
    phone.locator("#play-text").fill("13/7")
    phone.get_by_role("button", name="Submit the play").click()
    with pytest.raises(IllegalPlayError) as refused:  # what the engine says about it
        parse_play("13/7", Position.initial(), (3, 1))
    assert str(refused.value) == "13/7 does not fit the roll 3-1: each checker moves by the number on a die"
    expect(phone.locator(".entry-error[role=alert]")).to_have_text(str(refused.value))
    shot(pages, phone, "entry-refused-play")

    match.refresh_from_db()
    assert match.seq == seq and actions(match) == [("opening-roll", "")]
    expect(phone.locator("#entry-prompt")).to_have_text(turn)  # the same turn is offered again
    expect(phone.locator("#play-form input[name=expected_seq]")).to_have_value(str(seq))
    expect(phone.locator("#play-text")).to_have_value("13/7")  # what he typed is kept, to correct it
    expect(phone.locator("#tap-controls")).to_be_visible()


# -- 5. tap to move, step by step ------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewport", ["small-phone", "desktop"])
def test_tap_to_move_step_by_step_and_the_opponents_page_following(pages: Pages, viewport: str, new_match: Any) -> None:
    """Alice enters the opening roll with the die buttons and plays 8/5 6/5 by tapping the board and the step
    buttons (with an undo); Bob's page, polling, offers him his play once his roll is in."""
    match = new_match(length=5)
    alice, bob = (open_entry_link(pages, match, side, viewport) for side in (0, 1))
    dice = alice.locator("fieldset.dice-row")
    press(alice, dice.nth(0).locator("label.die-choice", has_text="3"), viewport)
    press(alice, dice.nth(1).locator("label.die-choice", has_text="1"), viewport)
    alice.get_by_role("button", name="Enter the opening roll").click()
    expect(alice.locator("#tap-controls")).to_be_visible()
    expect(alice.locator("#tap-status")).to_have_text("Tap a checker, then where it goes. Dice: 3 1")
    press(alice, point(alice, 8), viewport)
    expect(alice.locator("#tap-buttons button")).to_contain_text(["from 8", "to 7", "to 5"])
    press(alice, point(alice, 5), viewport)
    expect(alice.locator("#play-text")).to_have_value("8/5")
    expect(alice.locator("#tap-status")).to_have_text("So far: 8/5. Dice left: 1")
    for label in ("from 24", "to 23"):
        press(alice, alice.get_by_role("button", name=label), viewport)
    expect(alice.locator("#play-text")).to_have_value("24/23 8/5")  # a whole play: the engine's notation
    press(alice, alice.get_by_role("button", name="Undo"), viewport)
    expect(alice.locator("#play-text")).to_have_value("8/5")
    for label in ("from 6", "to 5"):
        press(alice, alice.get_by_role("button", name=label), viewport)
    expect(alice.locator("#play-text")).to_have_value("8/5 6/5")
    shot(pages, alice, "entry-steps")
    alice.get_by_role("button", name="Submit the play").click()
    expect(alice.locator("#entry-prompt")).to_have_text("Waiting for Bob.")
    assert actions(match) == [("opening-roll", ""), ("play", "8/5 6/5")]

    expect(bob.locator("#entry-prompt")).to_have_text(re.compile("^Bob, your turn"), timeout=LIVE)  # by polling
    games.services.record_roll(match.pk, actor=SYSTEM, side=1, dice=(6, 5), expected_seq=2)
    expect(bob.locator("#tap-controls")).to_be_visible(timeout=LIVE)  # swapped in by the poll
    for label in ("from 24", "to 18", "from 18", "to 13"):
        press(bob, bob.get_by_role("button", name=label), viewport)
    expect(bob.locator("#play-text")).to_have_value("24/13")
    shot(pages, bob, "entry-opponent")


# -- 6. a match log that grows, read with the keyboard ---------------------------------------------------------------


@VIEWPORT
def test_the_move_list_grows_by_polling_and_the_arrow_keys_step_through_it(
    pages: Pages, viewport: str, new_match: Any, drive: Any
) -> None:
    """The move list is outside the polled live part: new moves are added to it without a reload, and the arrow
    keys (with the board focused) step onto them."""
    match = new_match(length=7)
    driver = drive(match, seed=21)
    driver.turns(6)
    page = pages.open(reverse("games:match", args=[match.pk]), viewport=viewport)
    reloads = watch_reloads(page)
    items = page.locator("#move-list li")
    shown = items.count()
    assert shown >= 6
    driver.turns(2)
    seqs = [e.seq for e in page_data(match_for_page(match.pk, AnonymousUser())).entries]
    expect(items).to_have_count(len(seqs), timeout=LIVE)  # added by a poll
    assert len(seqs) > shown
    expect(items.last.locator("a")).to_have_attribute("data-seq", str(seqs[-1]))
    reloads()
    marker = page.evaluate("() => window.bgmatchMarker")

    # Stepping changes the address (history.replaceState, which Playwright reports as a navigation), not the page.
    board = page.locator("#replay-board")
    board.focus()
    page.keyboard.press("End")
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", str(seqs[-1]))
    expect(items.last.locator("a")).to_have_attribute("aria-current", "step")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-board")).to_have_attribute("data-seq", str(seqs[-2]))
    expect(page.locator("#replay-board figcaption")).to_be_visible()
    assert page.url.endswith(f"?at={seqs[-2]}#replay")
    assert page.evaluate("() => window.bgmatchMarker") == marker, "the page was reloaded"
    shot(pages, page, "spectator-match-log")


# -- 7. every main page fits a phone's screen --------------------------------------------------------------------------


def log_in(pages: Pages, path: str, viewport: str) -> Any:
    page = pages.open(f"/accounts/login/?next={path}", viewport=viewport)
    form = page.locator("#form-login")
    form.get_by_label("Username").fill("tina")
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{path}")
    return page


@pytest.mark.parametrize("viewport", ["phone", "small-phone"])
def test_the_other_main_pages_are_no_wider_than_a_phone(
    pages: Pages, viewport: str, tournament: Tournament, django_user_model: Any
) -> None:
    """The pages the flows above do not open: each is shot, and :func:`shot` checks its width."""
    actor = Actor(user=django_user_model.objects.get(username="tina"))
    bracket = services.create_division(
        tournament.event,
        actor=actor,
        settings=services.DivisionSettings(name="Cup", format="main-consolation", match_length=3),
    )
    for i in range(8):
        services.register_player(bracket, actor=actor, name=f"Cup player with a long name {i}", rating=1800 - i)
    services.start_division(bracket, actor=actor)
    event = tournament.event.slug

    visitor = pages.open(reverse("tournaments:event-list"), viewport=viewport)
    shot(pages, visitor, "events")
    visitor.goto(reverse("tournaments:event-detail", args=[event]))
    shot(pages, visitor, "spectator-event")
    visitor.goto(tournament.spectator_url(bracket))
    expect(visitor.locator("#bracket")).to_be_visible()
    shot(pages, visitor, "spectator-bracket")
    visitor.locator("#rounds").get_by_role("link", name="Main round 1").click()
    visitor.wait_for_url("**/rounds/main/1/")
    expect(visitor.locator("#round table.pairings tbody tr")).to_have_count(4)
    shot(pages, visitor, "spectator-bracket-round")

    director = log_in(pages, reverse("director:division", args=[event, bracket.slug]), viewport)
    shot(pages, director, "director-bracket")
    director.goto(reverse("director:scorecards", args=[event, tournament.main.slug, "swiss", 1]))
    expect(director.locator(".scorecard").first).to_be_visible()
    shot(pages, director, "scorecards")
    director.goto(reverse("director:sheet", args=[event, bracket.slug, "main", 1]))
    shot(pages, director, "bracket-sheet")
    director.goto(reverse("director:final-standings", args=[event, tournament.main.slug]))
    shot(pages, director, "final-standings")
    director.goto(reverse("director:division", args=[event, tournament.main.slug]))
    director.locator("a[href*='/match/']").first.click()
    director.wait_for_url("**/match/**")
    shot(pages, director, "director-match")
