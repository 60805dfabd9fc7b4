"""Two phones at one table riding out a dropped Wi-Fi, in a real browser (Chromium through Playwright).

The room: the site answers at a public name, club-laptop.test, which Chromium resolves to 127.0.0.2 (another
device of the network, as a phone sees the laptop; ``--host-resolver-rules``), where a live server of its own
listens (``BGMATCH_ROOM_PORT``, else any free port); the name is in ALLOWED_HOSTS as ``make venue`` puts it.
The network is cut with ``context.set_offline(True)``, one phone at a time and both together, in the middle of
games:

1. a match played move by move: entries made on a phone off the network are kept on it, the page says how many
   wait, and they are sent in order when it is back; the live pages say "Reconnecting" and catch up; the log is
   what the players entered, every action exactly once;
2. the opponent's entry wins the race: the entry kept on the phone is refused on arrival with the reason, the one
   entered after it is not sent, and nothing is recorded twice;
3. the laptop out of reach while the phone believes it is online: the entry is kept, through a reload too;
   on a scoresheet the phone keeps the score of the results it holds, the Crawford game, and the match's end;
4. the venue display, a division's page and "Your next match" off the network say "Reconnecting" and catch up;
5. "Confirm the result" off the network waits on the phone like an entry and is sent when the connection is back.

tests/web/browser/conftest.py's ``Pages`` opens the pages, takes the screenshots and fails a test on any console
error but the ones a dropped connection makes (listed in ``OFFLINE``). Run with RUN_BROWSER_TESTS=1.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import zoneinfo
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from common.actor import Actor
from games import access
from games.models import Action, Match
from tests.tournaments.services.support import director_win, enter_win, link
from tests.web.browser.conftest import Pages
from tests.web.browser.test_venue import room_of
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOST = "club-laptop.test"
LIVE = 15_000  # ms: the entry and match pages poll every 3 s, a kept entry is sent again within 8 s
OFFLINE = (
    "net::ERR_INTERNET_DISCONNECTED",  # a poll or a send while the phone is off the network
    "net::ERR_FAILED",  # a send that does not reach the laptop (test 3)
    "htmx:sendError",  # htmx logs the failed poll (its error and its end)
    "htmx:afterRequest",
    "status of 409",  # the refused entry (test 2)
    # Django's Cross-Origin-Opener-Policy header, which Chromium ignores (and says so) on a plain-HTTP origin other
    # than localhost: every page of a room served over HTTP on the LAN.
    "The Cross-Origin-Opener-Policy header has been ignored",
)


@pytest.fixture(scope="module")
def room_browser(chromium: Any) -> Iterator[Any]:
    """Chromium resolving the public name to 127.0.0.2, as a phone on the venue's network reaches the laptop:
    launched by the session's Playwright (a second one would run inside its event loop and be refused)."""
    executable = os.environ.get("BGMATCH_CHROMIUM", "/usr/bin/chromium")
    rules = f"--host-resolver-rules=MAP {HOST} 127.0.0.2"
    browser = chromium.browser_type.launch(executable_path=executable, headless=True, args=["--no-sandbox", rules])
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="module")
def room_server(django_db_blocker: Any) -> Iterator[LiveServer]:
    """The laptop: a live server listening on 127.0.0.2, one for the module (as pytest-django's own is one for the
    session)."""
    with django_db_blocker.unblock():
        server = LiveServer(f"127.0.0.2:{int(os.environ.get('BGMATCH_ROOM_PORT', '0'))}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def room(
    request: pytest.FixtureRequest, room_browser: Any, room_server: LiveServer, artifacts: Path, transactional_db: None
) -> Iterator[Pages]:
    """Phones on the public address, reached by its name."""
    prefix = request.node.name.replace("[", "-").replace("]", "")
    phones = Pages(room_browser, f"http://{HOST}:{room_server.thread.port}", artifacts, prefix)
    for text in OFFLINE:
        phones.allow(text)
    try:
        with override_settings(ALLOWED_HOSTS=[HOST, "127.0.0.2"]):
            yield phones
        assert not phones.unexpected(), "console errors:\n" + "\n".join(phones.unexpected())
    finally:
        phones.close()


def phone(room: Pages, match: Match, side: int) -> Any:
    """A player's phone opening his entry link (390 px wide, touch)."""
    page = room.open(f"/play/{access.token_text(access.new_entry_token(match, side))}/", viewport="phone")
    assert page.url == f"{room.base_url}/play/match/{match.pk}/", page.url
    return page


def dice(page: Any, first: int, second: int) -> None:
    rows = page.locator("form.dice-form fieldset.dice-row")
    rows.nth(0).locator("label.die-choice", has_text=str(first)).tap()
    rows.nth(1).locator("label.die-choice", has_text=str(second)).tap()


def roll(page: Any, first: int, second: int) -> None:
    dice(page, first, second)
    page.get_by_role("button", name="Enter the roll").click()


def play(page: Any, notation: str) -> None:
    page.locator("#play-text").fill(notation)
    page.get_by_role("button", name="Submit the play").click()


def play_offline(page: Any, notation: str) -> None:
    """The play after a roll kept on the phone: typed in notation (the tap-to-move board needs the server)."""
    page.locator("#offline-play-text").fill(notation)
    page.get_by_role("button", name="Keep the play to send").click()


def waiting(page: Any) -> Any:
    return page.locator("#entry-outbox")


def log(match: Match) -> list[tuple[str, int | None, str]]:
    """The match's log: each action's kind, side and what it was (the dice, the play)."""
    rows = Action.objects.filter(match=match).order_by("seq")
    return [(r.kind, r.side, r.play or (f"{r.die1}-{r.die2}" if r.die1 else "")) for r in rows]


def test_two_phones_ride_out_a_dropped_wifi_and_the_log_is_what_they_entered(room: Pages, new_match: Any) -> None:
    match = new_match(length=5)
    alice, bob = phone(room, match, 0), phone(room, match, 1)
    spectator = room.open(f"/matches/{match.pk}/", viewport="phone")

    # Game 1 starts on the network.
    dice(alice, 3, 1)
    alice.get_by_role("button", name="Enter the opening roll").click()
    expect(alice.locator("#entry-prompt")).to_have_text("Alice, your turn: play 3-1.")
    play(alice, "8/5 6/5")
    expect(alice.locator("#entry-prompt")).to_have_text("Waiting for Bob.")
    expect(bob.locator("#entry-prompt")).to_have_text("Bob, your turn: double or enter your roll.", timeout=LIVE)
    roll(bob, 6, 5)
    play(bob, "24/13")
    expect(bob.locator("#entry-prompt")).to_have_text("Waiting for Alice.")

    # Alice's phone drops off the Wi-Fi: her roll and her play wait on it, the page says so.
    expect(alice.locator("#entry-prompt")).to_have_text("Alice, your turn: double or enter your roll.", timeout=LIVE)
    alice.context.set_offline(True)
    roll(alice, 2, 2)
    expect(waiting(alice)).to_contain_text("Not sent yet: 1 entry is waiting on this phone for the connection.")
    expect(alice.locator("#entry-prompt")).to_contain_text("No connection: what you enter now waits on this phone")
    expect(alice.locator("#offline-play-text")).to_be_visible()
    expect(alice.locator("label[for=offline-play-text]")).to_contain_text("Your play with 2-2, in notation")
    play_offline(alice, "13/11(2) 6/4(2)")
    expect(waiting(alice)).to_contain_text("Not sent yet: 2 entries are waiting on this phone for the connection.")
    expect(waiting(alice).locator("li")).to_have_text(["Roll 2-2", "Play 13/11(2) 6/4(2)"])
    room.shot(alice, "alice-offline-two-waiting")
    kept = alice.evaluate(f"() => JSON.parse(localStorage.getItem('bgmatch-outbox:/play/match/{match.pk}/')).items")
    fields = [dict(item["fields"]) for item in kept]  # kept for a reload: each with its key and sequence number
    assert [(f["kind"], f["expected_seq"]) for f in fields] == [("roll", "4"), ("play", "5")]
    assert (
        all(len(f["idempotency_key"]) >= 32 for f in fields)
        and fields[0]["idempotency_key"] != fields[1]["idempotency_key"]
    )
    assert log(match)[-1] == ("play", 1, "24/13"), "nothing arrived while she was off the network"

    # She is back: both entries go, in order; the page says what was sent; Bob's page catches up by polling.
    alice.context.set_offline(False)
    expect(waiting(alice)).to_contain_text(
        "Sent when the connection came back: Roll 2-2; Play 13/11(2) 6/4(2).", timeout=LIVE
    )
    expect(alice.locator("#entry-prompt")).to_have_text("Waiting for Bob.")
    room.shot(alice, "alice-back-sent")
    expect(bob.locator("#entry-prompt")).to_have_text("Bob, your turn: double or enter your roll.", timeout=LIVE)

    # Both phones off the network, and the spectator's: Bob doubles on his; the others say they are reconnecting.
    bob.context.set_offline(True)
    alice.context.set_offline(True)
    spectator.context.set_offline(True)
    bob.get_by_role("button", name="Double (to 2)").click()
    expect(waiting(bob)).to_contain_text("Not sent yet: 1 entry is waiting", timeout=LIVE)
    expect(waiting(bob).locator("li")).to_have_text(["Double (to 2)"])
    expect(bob.locator("#entry-prompt")).to_have_text(
        "No connection: your entry waits on this phone. The page catches up once it is sent."
    )
    expect(alice.locator(".connection-status")).to_contain_text("Reconnecting", timeout=LIVE)
    banner = alice.locator(".connection-status").bounding_box()
    assert banner is not None and banner["height"] <= 48, f"two short lines at most on a phone: {banner}"
    expect(alice.locator("#entry-prompt")).to_have_text("Waiting for Bob.")
    room.shot(bob, "bob-offline-double-waiting")
    room.shot(alice, "alice-offline-reconnecting")
    expect(spectator.locator(".connection-status")).to_contain_text("Reconnecting", timeout=LIVE)
    bob.context.set_offline(False)  # Bob first: his double arrives; Alice is still off
    expect(waiting(bob)).to_contain_text("Sent when the connection came back: Double (to 2).", timeout=LIVE)
    expect(alice.locator("#entry-prompt")).to_have_text("Waiting for Bob.")
    alice.context.set_offline(False)
    expect(alice.locator("#entry-prompt")).to_have_text("Alice, you are doubled to 2: take or drop?", timeout=LIVE)
    expect(alice.locator(".connection-status")).to_have_text("Connected again: up to date.")
    spectator.context.set_offline(False)
    expect(spectator.locator("#live")).to_contain_text("Alice to take or drop", timeout=LIVE)  # caught up
    expect(spectator.locator(".connection-status")).to_have_text("Connected again: up to date.")

    # Alice drops off the network again and drops the double; then Bob, off the network too, starts game 2.
    alice.context.set_offline(True)
    alice.get_by_role("button", name="Drop (lose the game)").click()
    expect(waiting(alice).locator("li")).to_have_text(["Drop"], timeout=LIVE)
    alice.context.set_offline(False)
    expect(waiting(alice)).to_contain_text("Sent when the connection came back: Drop.", timeout=LIVE)
    expect(bob.locator("#entry-prompt")).to_have_text(
        "Game 2: enter the opening roll, each player's die.", timeout=LIVE
    )
    bob.context.set_offline(True)
    dice(bob, 2, 5)
    bob.get_by_role("button", name="Enter the opening roll").click()
    expect(waiting(bob).locator("li")).to_have_text(["Opening roll 2-5"], timeout=LIVE)
    # He won it (his die the 5): his play with it is kept on the phone too (there was no box to type it in).
    expect(bob.locator("label[for=offline-play-text]")).to_contain_text("Your play with 5-2, in notation")
    play_offline(bob, "13/8 13/11")
    expect(waiting(bob).locator("li")).to_have_text(["Opening roll 2-5", "Play 13/8 13/11"])
    bob.context.set_offline(False)
    expect(waiting(bob)).to_contain_text(
        "Sent when the connection came back: Opening roll 2-5; Play 13/8 13/11.", timeout=LIVE
    )
    expect(bob.locator("#entry-prompt")).to_have_text("Waiting for Alice.")

    # The log is what they entered, each action once; the spectator's page followed without a reload.
    assert log(match) == [
        ("opening-roll", 0, "3-1"),
        ("play", 0, "8/5 6/5"),
        ("roll", 1, "6-5"),
        ("play", 1, "24/13"),
        ("roll", 0, "2-2"),
        ("play", 0, "13/11(2) 6/4(2)"),
        ("double", 1, ""),
        ("drop", 0, ""),
        ("opening-roll", 1, "2-5"),
        ("play", 1, "13/11 13/8"),  # as the engine writes it
    ]
    assert Match.objects.get(pk=match.pk).score == (0, 1)
    expect(spectator.locator("#live")).to_contain_text("Alice to roll", timeout=LIVE)
    room.shot(bob, "bob-game-2")


def test_an_opening_roll_kept_on_the_phone_offers_the_play_only_to_the_phone_of_its_winner(
    room: Pages, new_match: Any
) -> None:
    match = new_match(length=3)
    alice = phone(room, match, 0)
    alice.context.set_offline(True)
    dice(alice, 1, 4)  # Bob's die the higher: he plays it, on his phone, which has not heard of it
    alice.get_by_role("button", name="Enter the opening roll").click()
    expect(waiting(alice).locator("li")).to_have_text(["Opening roll 1-4"], timeout=LIVE)
    expect(alice.locator("#offline-play-text")).to_have_count(0)
    expect(alice.locator("#entry-prompt")).to_have_text(
        "No connection: your entry waits on this phone. The page catches up once it is sent."
    )
    alice.context.set_offline(False)
    expect(waiting(alice)).to_contain_text("Sent when the connection came back: Opening roll 1-4.", timeout=LIVE)
    expect(alice.locator("#entry-prompt")).to_have_text("Waiting for Bob.")
    assert log(match) == [("opening-roll", 1, "1-4")]


def test_the_opponents_entry_wins_the_race_and_the_kept_one_is_refused_not_doubled(room: Pages, new_match: Any) -> None:
    match = new_match(length=5, entry_mode=Match.EntryMode.SCORESHEET)
    alice, bob = phone(room, match, 0), phone(room, match, 1)

    # Bob, off the network, enters game 1 and game 2 on his phone; Alice, on it, enters game 1 her way.
    bob.context.set_offline(True)
    result(bob, 1, "Bob", "single")
    expect(waiting(bob)).to_contain_text("Not sent yet: 1 entry", timeout=LIVE)
    expect(bob.locator("form.result-form legend").first).to_have_text("Who won game 2?")
    result(bob, 2, "Bob", "single")
    expect(waiting(bob).locator("li")).to_have_text(
        ["Game 1: Bob won (single, cube 1)", "Game 2: Bob won (single, cube 1)"]
    )
    room.shot(bob, "bob-offline-results-waiting")
    result(alice, 1, "Alice", "gammon")
    expect(alice.locator(".entry-score .points").first).to_have_text("2")

    # Bob is back: his game 1 is refused with the reason, his game 2 is not sent; the page shows the match as it is.
    bob.context.set_offline(False)
    refusal = waiting(bob).locator(".outbox-refusal")
    expect(refusal).to_have_text(
        "Not recorded: Game 1: Bob won (single, cube 1). "
        "Your opponent entered this game's result first: check the score and enter again.",
        timeout=LIVE,
    )
    expect(bob.locator(".entry-error")).to_have_count(0)  # said once, in the box that names the entry
    expect(waiting(bob).locator(".outbox-dropped")).to_have_text(
        "Not sent, as they came after it: Game 2: Bob won (single, cube 1). Check the score and enter them again."
    )
    expect(bob.locator(".entry-score .points").first).to_have_text("2")
    expect(bob.locator("form.result-form legend").first).to_have_text("Who won game 2?")
    # The form for game 2 is blank: the refused entry is not offered again for one tap to re-enter it.
    expect(bob.locator("form.result-form input[name=winner]:checked")).to_have_count(0)
    expect(bob.locator("form.result-form input[name=result]:checked")).to_have_value("1")
    room.shot(bob, "bob-refused")
    assert log(match) == [("game-result", 0, "")]
    assert Match.objects.get(pk=match.pk).score == (2, 0)
    bob.get_by_role("button", name="OK").click()
    expect(waiting(bob)).to_be_hidden()


def test_a_refusal_at_once_goes_once_the_next_entry_is_kept_on_the_phone(room: Pages, new_match: Any) -> None:
    """Bob's game 1 refused at once (Alice's came first), then games 2 and 3 entered off the network: the red
    "Your opponent entered this game's result first" stayed under game 3, beside "Bob wins the match"."""
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET)
    alice, bob = phone(room, match, 0), phone(room, match, 1)
    result(alice, 1, "Alice", "single")
    expect(alice.locator(".entry-score .points").first).to_have_text("1")
    result(bob, 1, "Bob", "single")  # his page still shows 0-0: refused at once, the page's own error says why
    expect(bob.locator(".entry-error")).to_contain_text("Your opponent entered this game's result first")
    bob.context.set_offline(True)
    result(bob, 2, "Bob", "gammon")
    expect(waiting(bob)).to_contain_text("Not sent yet: 1 entry", timeout=LIVE)
    expect(bob.locator(".entry-error")).to_have_count(0)
    room.shot(bob, "bob-refusal-gone-offline")
    bob.context.set_offline(False)
    expect(waiting(bob)).to_contain_text(
        "Sent when the connection came back: Game 2: Bob won (gammon, cube 1).", timeout=LIVE
    )
    expect(bob.locator(".entry-error")).to_have_count(0)
    assert Match.objects.get(pk=match.pk).score == (1, 2)


def test_an_entry_kept_on_the_phone_survives_a_reload_and_is_sent_once(room: Pages, new_match: Any) -> None:
    """The Wi-Fi up but the laptop out of reach (the phone says it is online, every send fails): the entry is kept,
    a reload of the page keeps it, and it goes once the laptop answers again."""
    match = new_match(length=5, entry_mode=Match.EntryMode.SCORESHEET)
    alice = phone(room, match, 0)
    page_url = f"**/play/match/{match.pk}/"

    def no_sends(route: Any) -> None:
        route.abort() if route.request.method == "POST" else route.continue_()

    alice.route(page_url, no_sends)
    result(alice, 1, "Alice", "single")
    expect(waiting(alice)).to_contain_text("Not sent yet: 1 entry is waiting", timeout=LIVE)
    alice.reload()
    expect(waiting(alice).locator("li")).to_have_text(["Game 1: Alice won (single, cube 1)"])
    expect(waiting(alice)).to_contain_text("Not sent yet: 1 entry is waiting")
    expect(alice.get_by_role("button", name="Enter the result")).to_be_disabled()  # behind what the phone holds
    assert log(match) == []
    alice.unroute(page_url, no_sends)
    expect(waiting(alice)).to_contain_text(
        "Sent when the connection came back: Game 1: Alice won (single, cube 1).", timeout=LIVE
    )
    expect(alice.locator(".entry-score .points").first).to_have_text("1")
    assert log(match) == [("game-result", 0, "")]


def test_results_kept_on_the_phone_keep_the_score_and_end_the_match(room: Pages, new_match: Any) -> None:
    """A scoresheet match off the network: the phone keeps the score of the results it holds (marked not sent
    yet), gives the Crawford game as the server would, and once they reach the match length offers no more games."""
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET)
    alice = phone(room, match, 0)
    alice.context.set_offline(True)
    result(alice, 1, "Alice", "gammon")
    expect(waiting(alice)).to_contain_text("Not sent yet: 1 entry", timeout=LIVE)
    points = alice.locator(".entry-score .points")
    expect(points).to_have_text(["2", "0"])
    meta = alice.locator(".entry-meta")
    expect(meta).to_contain_text("game 2")
    expect(meta).to_contain_text("Crawford game: no doubling")
    expect(alice.locator(".entry-score")).to_contain_text("Score with the results not sent yet")
    form = alice.locator("form.result-form")
    expect(form).to_contain_text("This is the Crawford game: nobody may double, so the cube stays at 1.")
    expect(form.locator("select[name=cube] option")).to_have_text(["1"])
    room.shot(alice, "alice-offline-crawford-next")

    result(alice, 2, "Alice", "single")
    expect(waiting(alice).locator("li")).to_have_text(
        ["Game 1: Alice won (gammon, cube 1)", "Game 2: Alice won (single, cube 1)"], timeout=LIVE
    )
    expect(points).to_have_text(["3", "0"])
    expect(form).to_be_hidden()  # no game 3 to enter
    expect(alice.locator("legend", has_text="Who won game")).to_be_hidden()
    expect(meta).not_to_contain_text("game 3")
    expect(meta).not_to_contain_text("Crawford")
    expect(alice.locator("#entry-prompt")).to_have_text(
        "Alice wins the match 3-0 once the results waiting on this phone are sent. Nothing more to enter."
    )
    room.shot(alice, "alice-offline-match-over")
    assert log(match) == []

    alice.context.set_offline(False)
    expect(waiting(alice)).to_contain_text(
        "Sent when the connection came back: Game 1: Alice won (gammon, cube 1); Game 2: Alice won (single, cube 1).",
        timeout=LIVE,
    )
    expect(points).to_have_text(["3", "0"])
    expect(alice.locator(".entry-score")).not_to_contain_text("Score with the results not sent yet")
    fresh = Match.objects.get(pk=match.pk)
    assert fresh.score == (3, 0) and fresh.status == Match.Status.FINISHED


def test_a_kept_result_after_the_crawford_game_leaves_it_and_a_reload_keeps_the_score(
    room: Pages, new_match: Any
) -> None:
    """The Crawford game entered off the network: the next game is post-Crawford, with the cube back; a reload
    shows the score with the kept results."""
    match = new_match(length=3, entry_mode=Match.EntryMode.SCORESHEET)
    alice = phone(room, match, 0)
    result(alice, 1, "Alice", "gammon")  # on the network: 2-0, game 2 is the Crawford game
    expect(alice.locator(".entry-meta")).to_contain_text("Crawford game: no doubling")
    page_url = f"**/play/match/{match.pk}/"

    def no_sends(route: Any) -> None:  # the laptop out of reach for entries, the page still reloads
        route.abort() if route.request.method == "POST" else route.continue_()

    alice.route(page_url, no_sends)
    result(alice, 2, "Bob", "single")
    expect(waiting(alice)).to_contain_text("Not sent yet: 1 entry", timeout=LIVE)
    expect(alice.locator(".entry-score .points")).to_have_text(["2", "1"])
    form = alice.locator("form.result-form")
    expect(form.locator("legend").first).to_have_text("Who won game 3?")
    expect(form).not_to_contain_text("This is the Crawford game")
    expect(alice.locator(".entry-meta")).not_to_contain_text("Crawford game")
    expect(alice.locator(".entry-meta")).to_contain_text("post-Crawford")
    expect(form.locator("select[name=cube] option")).to_have_text(["1", "2", "4", "8", "16", "32", "64"])
    alice.reload()
    expect(alice.locator(".entry-score .points")).to_have_text(["2", "1"])
    expect(alice.locator(".entry-score")).to_contain_text("Score with the results not sent yet")
    expect(alice.locator(".entry-meta")).to_contain_text("game 3")
    alice.unroute(page_url, no_sends)
    expect(waiting(alice)).to_contain_text("Sent when the connection came back", timeout=LIVE)
    assert Match.objects.get(pk=match.pk).score == (2, 1)


def awaiting_bobs_confirmation(director: Any) -> Pairing:
    """A 1-point Swiss round on scoresheets whose first match's result side 0 entered: side 1 is to confirm it."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club night")
    settings = services.DivisionSettings(name="Main", format="swiss", rounds_planned=2, match_length=1)
    division = services.create_division(event, actor=actor, settings=replace(settings, entry_mode="scoresheet"))
    for i in range(4):
        services.register_player(division, actor=actor, name=f"Player {i + 1}", rating=2000 - 10 * i)
    services.start_division(division, actor=actor)
    pairing = Pairing.objects.filter(division=division, match__isnull=False).order_by("pk").first()
    assert pairing is not None and pairing.match is not None
    enter_win(pairing, pairing.entry_a, actor=link(pairing.match, 0))
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.AWAITING and pairing.confirmation_side == 1
    return pairing


def test_a_confirmation_made_off_the_network_is_kept_and_sent(room: Pages, director: Any) -> None:
    """ "Confirm the result" off the network: the answer waits on the phone (no browser error page), is sent when
    the connection is back, and the page shows the result confirmed."""
    pairing = awaiting_bobs_confirmation(director)
    assert pairing.match is not None
    bob = phone(room, pairing.match, 1)
    panel = bob.locator(".pairing-panel")
    expect(panel).to_contain_text("Is it right?")
    bob.context.set_offline(True)
    panel.get_by_role("button", name="Confirm the result").click()
    expect(waiting(bob)).to_contain_text("Not sent yet: 1 entry is waiting", timeout=LIVE)
    expect(waiting(bob).locator("li")).to_have_text(["Confirm the result"])
    assert bob.url.endswith(f"/play/match/{pairing.match.pk}/")  # still the entry page
    room.shot(bob, "bob-offline-confirm-waiting")
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.AWAITING
    bob.context.set_offline(False)
    expect(waiting(bob)).to_contain_text("Sent when the connection came back: Confirm the result.", timeout=LIVE)
    expect(bob.locator(".pairing-panel")).to_contain_text("The result is confirmed.")
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.CONFIRMED


def test_a_confirmation_sent_online_and_the_page_closed_at_once_is_not_said_to_have_waited(
    room: Pages, director: Any
) -> None:
    """ "Confirm the result" tapped on the network and the page closed before the answer came: the page opened again
    sends the kept answer quietly; it never waited for a connection, so nothing says "Sent when the connection came
    back"."""
    pairing = awaiting_bobs_confirmation(director)
    assert pairing.match is not None
    bob = phone(room, pairing.match, 1)
    held: list[Any] = []

    def hold(route: Any) -> None:  # the answer never comes back before the page is closed
        held.append(route)

    bob.route("**/confirm/**", hold)
    bob.locator(".pairing-panel").get_by_role("button", name="Confirm the result").click()
    store = f"bgmatch-outbox:/play/match/{pairing.match.pk}/"
    bob.wait_for_function(f"() => localStorage.getItem('{store}') !== null")
    context, page_url = bob.context, bob.url
    bob.close()
    again = context.new_page()
    again.on("console", lambda msg: msg.type == "error" and room.errors.append(f"{again.url}: {msg.text}"))
    again.goto(page_url)
    expect(again.locator(".pairing-panel")).to_contain_text("The result is confirmed.", timeout=LIVE)
    expect(waiting(again)).to_be_hidden()
    expect(again.locator("body")).not_to_contain_text("Sent when the connection came back")
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.CONFIRMED


def result(page: Any, game: int, winner: str, won_as: str) -> None:
    form = page.locator("form.result-form")
    expect(form.locator("legend").first).to_have_text(f"Who won game {game}?")
    form.locator("fieldset", has_text=f"Who won game {game}?").locator(
        "label", has_text=re.compile(f"^{winner}$")
    ).tap()
    form.locator("fieldset", has_text="Won as").locator("label", has_text=re.compile(f"^{won_as}$")).tap()
    form.get_by_role("button", name="Enter the result").click()


def test_the_room_s_live_pages_say_reconnecting_and_catch_up(room: Pages, director: Any) -> None:
    """The venue display, a division's page and a player's "Your next match", off the network while a result comes
    in: they say "Reconnecting" (not an error, not silence) and catch up when it is back."""
    players, guests = [f"Player {i}" for i in range(1, 5)], [f"Guest {i}" for i in range(1, 5)]
    event, main, _side = room_of(director, "Club night", players, guests, None)
    event.time_zone = "Asia/Kolkata"  # UTC+5:30: its clock is not the browser's, by hours and minutes
    event.save(update_fields=["time_zone"])
    pairing = Pairing.objects.filter(division=main, match__isnull=False).order_by("pk").first()
    assert pairing is not None and pairing.match is not None
    display = room.open(reverse("tournaments:event-display", args=[event.slug]), viewport="display")
    division = room.open(reverse("tournaments:division-detail", args=[event.slug, main.slug]), viewport="phone")
    player = phone(room, pairing.match, 0)
    player.goto(reverse("pairing_entry:next"))
    for page in (display, division, player):
        page.context.set_offline(True)
    director_win(pairing, pairing.entry_a, Actor(user=director))  # a result while they are off the network
    winner = pairing.entry_a.player.display_name
    for page in (display, division, player):
        expect(page.locator(".connection-status")).to_contain_text("Reconnecting", timeout=LIVE)
    # "Shown as at 21:37:51": the event's time on a 24-hour clock, as the page's own times (it said "04:07:51 PM",
    # the browser's).
    said = re.search(r"Shown as at (\d\d):(\d\d):\d\d:", display.locator(".connection-status").inner_text())
    assert said is not None, display.locator(".connection-status").inner_text()
    kolkata = dt.datetime.now(zoneinfo.ZoneInfo("Asia/Kolkata"))
    apart = (kolkata.hour * 60 + kolkata.minute - int(said.group(1)) * 60 - int(said.group(2))) % 1440
    assert min(apart, 1440 - apart) <= 3, (said.group(0), kolkata)
    room.shot(display, "display-reconnecting")
    room.shot(division, "division-reconnecting")
    for page in (display, division, player):
        page.context.set_offline(False)
    for page in (display, division, player):
        expect(page.locator(".connection-status")).to_have_text("Connected again: up to date.", timeout=LIVE)
    expect(division.locator("#standings")).to_contain_text(winner, timeout=LIVE)
    expect(division.locator("#standings")).not_to_contain_text("No standings yet")
    room.shot(division, "division-caught-up")
