"""The room as a new director runs it: an undone no-show forfeit, the venue display, the slips of a queued match,
the phone's buttons, the players' labels, a pasted list and the division page."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from games.models import Action, Match
from tests.tournaments.services.support import director_win
from tests.web.test_entry_pages import Phone, error_of, ok
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Standing

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
    assert "playing, 0" not in html and "waiting for a table" in html, "ready again, not being played"
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


# -- 15. the phone's buttons -----------------------------------------------------------------------------------------


def test_a_correction_is_offered_only_once_the_opponent_entered_something_after_the_players_last_entry(
    new_match: Any,
) -> None:
    match = new_match(length=5)
    alice, bob = Phone(match, 0), Phone(match, 1)
    ok(alice.post("opening-roll", die1=3, die2=1), match)
    ok(alice.post("play", play="24/21 6/5"), match)
    html = bob.page()
    assert "Ask for a correction" not in html, "Bob has entered nothing: nothing of his to correct"
    assert 'id="take-back"' not in html
    html = alice.page()
    assert 'id="take-back"' in html and "Ask for a correction" not in html, "she takes it back herself"
    refused = alice.post("ask-correction", reason="wrong")
    assert refused.status_code == 409 and "take it back" in error_of(refused.content.decode())
    ok(bob.post("roll", die1=6, die2=5), match)
    assert "Ask for a correction" in alice.page() and 'id="take-back"' not in alice.seen[-1]
    assert "Ask for a correction" not in bob.page() and 'id="take-back"' in bob.seen[-1]


def test_no_take_back_is_offered_once_a_move_by_move_match_is_over(new_match: Any, drive: Any) -> None:
    match = new_match(length=1)
    phones = Phone(match, 0), Phone(match, 1)
    driver = drive(match, seed=3, actors=tuple(Actor(token=p.token) for p in phones))
    driver.play_out()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    last = Action.objects.filter(match=match).order_by("-seq").first()
    assert last is not None and last.entered_by_token is not None
    winner = phones[last.entered_by_token.side]
    html = winner.page()
    assert 'id="take-back"' not in html and "Take back my last entry" not in html
    assert "Ask for a correction" not in html and "Ask for a correction" not in phones[1 - winner.side].page()
    before = Action.objects.filter(match=match).count()
    refused = winner.post("take-back")
    assert refused.status_code == 409 and "the director corrects it" in error_of(refused.content.decode())
    assert Action.objects.filter(match=match).count() == before


# -- 16. one label for a player with a club --------------------------------------------------------------------------


def test_a_namesake_told_apart_by_his_club_is_shown_with_his_club_once_on_every_page(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("swiss", 3, match_length=3)
    services.register_player(division, actor=as_director, name="Pia Ruud (Bergen BG)", club="Bergen BG", country="NO")
    client = director_client(director)
    shown = '<span class="player">Pia Ruud</span> <span class="muted">(Bergen BG, NO)</span>'
    players = client.get(reverse("director:division", args=[division.event.slug, division.slug])).content.decode()
    assert shown in players and "(Bergen BG) (Bergen BG" not in players
    services.start_division(division, actor=as_director)
    pages = [
        client.get(reverse("director:division", args=[division.event.slug, division.slug])),
        client.get(reverse("director:event", args=[division.event.slug])),
        client.get(reverse("director:sheet", args=[division.event.slug, division.slug, "swiss", 1])),
        Client().get(reverse("tournaments:division-detail", args=[division.event.slug, division.slug])),
    ]
    for page in pages:
        html = page.content.decode()
        assert "Pia Ruud" in html and "(Bergen BG) (Bergen BG" not in html and "(Bergen BG) Bergen BG" not in html
    assert shown in pages[2].content.decode()
    public = pages[3].content.decode()
    assert '<span class="who">Pia Ruud</span> <span class="club">Bergen BG, NO</span>' in public


# -- 17. a pasted list ----------------------------------------------------------------------------------------------


def test_a_pasted_list_reports_every_bad_line_at_once_in_words_that_fit(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("swiss", 4, match_length=3)
    before = division.entries.count()
    lines = [f"Player {n},Club {n},NO,{1500 + n}" for n in range(1, 16)]
    lines[11] = "Player 12,Club 12,NO,lots"  # a bad rating on line 12
    lines[14] = "Player 3,Club 3,NO,1503"  # line 3 again on line 15
    lines[6] = "P02,,,"  # already entered, on line 7
    lines[8] = "Player 9,Club 9,NO,1509,2"  # seed 2 on line 9 ...
    lines[9] = "Player 10,Club 10,NO,1510,2"  # ... and again on line 10
    url = reverse("director:division", args=[division.event.slug, division.slug])
    answer = director_client(director).post(url, {"action": "import", "import-text": "\n".join(lines)})
    assert answer.status_code == 400
    html = answer.content.decode().replace("&quot;", '"').replace("&#x27;", "'")
    html = html[html.index('<ul class="problems">') :]  # one bad line a line
    assert "<li>Line 12: rating 'lots' is not a number</li>" in html
    assert "<li>Line 15: Player 3 is also on line 3 of this list: if they are two players, tell them apart" in html
    assert "Line 15: Player 3 is already entered" not in html
    assert "<li>Line 7: P02 is already entered in swiss 4" in html
    assert "<li>Line 10: seed 2 is also given on line 9 of this list</li>" in html
    assert html.index("Line 7:") < html.index("Line 10:") < html.index("Line 12:") < html.index("Line 15:")
    assert division.entries.count() == before


# -- 13. the venue display -------------------------------------------------------------------------------------------


def display(division: Division) -> str:
    response = Client().get(reverse("tournaments:event-display", args=[division.event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_display_shows_every_call_or_counts_the_others_with_their_tables(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 12, match_length=3)
    services.start_division(division, actor=as_director)  # six tables called at once
    html = display(division)
    calls = html[html.index('id="display-calls-heading"') : html.index('id="display-boards-heading"')]
    shown = re.findall(r"<li>(Table \d+): ", calls)
    more = re.search(r'<li class="display-more">and (\d+) more calls: ([^<]*)</li>', calls)
    assert more is not None and len(shown) + int(more.group(1)) == 6
    named = shown + more.group(2).split(", ")
    assert sorted(named) == [f"Table {n}" for n in range(1, 7)], "every table called is on the screen"


def test_the_standings_of_16_players_show_on_one_screen(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 16, match_length=3)
    services.start_division(division, actor=as_director)
    for p in Pairing.objects.select_related("entry_a").filter(division=division):
        director_win(p, p.entry_a, as_director)
    services.recompute_standings(division.pk)
    html = display(division)
    standings = html[html.index('id="display-standings-heading"') :]
    assert len(re.findall(r'<tr><td>\d+</td><th scope="row">P\d\d</th>', standings)) == 16
    assert "Page 1 of" not in html, "one screen, no paging"


def test_a_division_waiting_for_tables_shows_its_matches_in_the_queue(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, match_length=3)
    settings = services.DivisionSettings(name="Beginners", format="swiss", match_length=1, rounds_planned=2)
    other = services.create_division(division.event, actor=as_director, settings=settings)
    for name in ("Ann", "Bo", "Cy", "Di"):
        services.register_player(other, actor=as_director, name=name)
    services.set_tables(division.event, actor=as_director, names=["", ""])
    services.start_division(division, actor=as_director)  # both tables
    services.start_division(other, actor=as_director)  # waits
    boards = display(division)
    boards = boards[boards.index('id="display-boards-heading"') : boards.index('id="display-standings-heading"')]
    assert "2 waiting for a table" in boards
    waiting = boards[boards.index('<tr class="state-waiting">') :]
    assert waiting.count('<tr class="state-waiting">') == 2
    assert "Queue 1" in waiting and "Queue 2" in waiting and "Beginners," in waiting and "Round 1" in waiting
    assert "Ann" in waiting and "Di" in waiting


def test_a_round_has_one_name_on_the_division_pages_the_calls_and_the_display(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("main-consolation", 8, match_length=3)
    services.start_division(division, actor=as_director)
    seated = Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").get(
        division=division, table__number=1
    )
    args = [division.event.slug, division.slug]
    public = Client().get(reverse("tournaments:division-detail", args=args)).content.decode()
    manage = director_client(director).get(reverse("director:division", args=args)).content.decode()
    phone = Phone(seated.match, 0).client.get("/play/pairings/next/").content.decode()
    shown = display(division)
    for html in (public, manage, shown):
        assert "Main round 1" in html
        assert "Main draw, round 1" not in html and "main round 1," not in html
    other = seated.entry_b.player.display_name
    assert f"Table 1: you play {other}, Main round 1, 3 points" in phone
    assert "Main round 1, 3 points</li>" in shown


# -- 18. the division page -------------------------------------------------------------------------------------------


def test_mid_round_the_players_still_playing_rank_before_the_rounds_losers(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 8, match_length=3)
    services.start_division(division, actor=as_director)
    boards = list(Pairing.objects.select_related("entry_a", "entry_b").filter(division=division).order_by("board"))
    for p in boards[:2]:
        director_win(p, p.entry_a, as_director)
    services.recompute_standings(division.pk)
    rank = {s.entry_id: s.rank for s in Standing.objects.filter(division=division, after_round=1)}
    winners = {p.entry_a_id for p in boards[:2]}
    losers = {p.entry_b_id for p in boards[:2]}
    playing = {e for p in boards[2:] for e in (p.entry_a_id, p.entry_b_id)}
    assert max(rank[e] for e in winners) < min(rank[e] for e in playing)
    assert max(rank[e] for e in playing) < min(rank[e] for e in losers), rank
    # Once the round is over, the table is the tie-breaks' as before.
    for p in boards[2:]:
        director_win(p, p.entry_a, as_director)
    services.recompute_standings(division.pk)
    final = {s.entry_id: s.rank for s in Standing.objects.filter(division=division, after_round=1)}
    assert sorted(final.values()) == sorted([1] * 4 + [5] * 4) or len(set(final.values())) > 2


def test_the_division_page_registers_before_it_starts_in_one_capitalisation_with_every_length(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("main-consolation", 4, match_length=7, round_lengths={"consolation": 5})
    services.check_in(Entry.objects.filter(division=division).first(), actor=as_director, present=True)
    client = director_client(director)
    html = client.get(reverse("director:division", args=[division.event.slug, division.slug])).content.decode()
    start = html.index('id="start-heading"')
    assert html.index("Register a player") < start and html.index("Register a list (CSV)") < start
    assert re.search(r'<details class="panel" id="register-list" open>\s*<summary>Register a list \(CSV\)', html)
    assert "7 points (consolation: 5 points)" in html
    assert '<span class="badge">registration open</span>' in html
    statuses = re.findall(r"<td[^>]*>(registered|checked in|Registered|Checked in)</td>", html)
    assert set(statuses) == {"registered", "checked in"}, statuses
    event = client.get(reverse("director:event", args=[division.event.slug])).content.decode()
    assert "7 points (consolation: 5 points)" in event and '<span class="badge">registration open</span>' in event


# -- 19. the README ------------------------------------------------------------------------------------------------


@pytest.mark.django_db(False)
def test_the_readme_and_the_makefile_point_at_the_architecture_in_the_repository() -> None:
    root = Path(__file__).resolve().parents[2]
    readme, makefile = (root / "README.md").read_text(), (root / "Makefile").read_text()
    for text in (readme, makefile):
        assert "DESIGN.md" not in text, "DESIGN.md is not in the repository: docs/ARCHITECTURE.md is"
    assert "docs/ARCHITECTURE.md" in readme and "docs/ARCHITECTURE.md" in makefile
    assert "`make run PORT=" in readme
    assert "two players of one name are told apart" not in readme
    assert "for either side without an entry link (a game's result, a roll" not in readme
