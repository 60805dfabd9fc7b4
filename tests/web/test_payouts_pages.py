"""Payouts on the pages: the director sets the table on the division page and sees the prizes beside the places,
prints them and downloads them as CSV; the public standings and the API show them once published."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.actor import Actor
from tests.tournaments.services.support import played_main_consolation, snapshot
from tournaments.models import Division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def finished(division_of: Callable[..., Division], as_director: Actor) -> Division:
    """Played out in a public event (tests/tournaments/services/support.py says who placed where)."""
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    return played_main_consolation(division, as_director)


def director_client(director: Any) -> Client:
    client = Client()
    client.force_login(director)
    return client


def manage(division: Division) -> str:
    return f"/manage/{division.event.slug}/{division.slug}/"


def form(**fields: str) -> dict[str, str]:
    values = {"mode": "percent", "pool": "1000", "ties": "split", "main": "50, 25, 10, 5", "consolation": "4, 2, 1, 1"}
    return {"action": "payouts", **{f"payouts-{k}": v for k, v in {**values, **fields}.items()}}


def test_the_director_sets_the_table_and_sees_the_prizes_beside_the_places(finished: Division, director: Any) -> None:
    client = director_client(director)
    stored = client.post(manage(finished), form())
    assert stored.status_code == 302
    page = client.get(stored["Location"]).content.decode()
    assert "The payout table is stored (not published)." in page
    assert '<td class="prize">500.00</td>' in page
    assert page.count('<td class="prize">75.00</td>') == 4  # P03 and P04: the prize and the total
    assert '<td class="prize">40.00</td>' in page  # the consolation's winner
    assert "Download the payouts (CSV)" in page
    assert 'value="50, 25, 10, 5"' in page, "the form shows the stored table"


def test_a_bad_table_is_refused_on_the_form_and_nothing_is_stored(finished: Division, director: Any) -> None:
    client = director_client(director)
    before = snapshot()
    refused = client.post(manage(finished), form(main="60, 50"))
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "The payout table is not stored: the main flight: the percentages add up to 110" in page
    assert "lower them by 10" in page and 'value="60, 50"' in page, "what the director typed is kept"
    assert snapshot() == before


def test_the_printed_standings_and_the_csv_show_the_prizes(finished: Division, director: Any) -> None:
    client = director_client(director)
    client.post(manage(finished), form(pool="333.33", main="50, 30, 20", consolation=""))
    printed = client.get(manage(finished) + "final-standings/").content.decode()
    # 333.33: 166.66, 99.99, 66.66 (0.02 left over); places 3-4 share 66.66: 33.33 each.
    assert "<td>166.66</td>" in printed and printed.count("<td>33.33</td>") == 2
    assert "Prize: 0.02 left over by rounding to cents." in printed
    answer = client.get(manage(finished) + "payouts.csv")
    assert answer["Content-Type"].startswith("text/csv") and "payouts.csv" in answer["Content-Disposition"]
    lines = list(csv.reader(io.StringIO(answer.content.decode())))
    assert lines[0] == ["rank", "player", "place", "consolation place", "prize"]
    assert lines[1] == ["1", "P01", "1", "", "166.66"]
    assert ["3", "P03", "3-4", "", "33.33"] in lines and lines[-1] == ["Prize: 0.02 left over by rounding to cents."]


def test_the_public_page_and_the_api_show_the_prizes_only_once_published(finished: Division, director: Any) -> None:
    client = director_client(director)
    public = f"/events/{finished.event.slug}/{finished.slug}/"
    api = f"/api/events/{finished.event.slug}/divisions/{finished.slug}/standings/"
    client.post(manage(finished), form())
    assert 'class="prize"' not in Client().get(public).content.decode()
    assert all(row["prizes"] == {} for row in Client().get(api).json()["rows"])
    mine = {row["name"]: row["prizes"] for row in client.get(api).json()["rows"]}
    assert mine["P01"] == {"main": "500.00"}, "a director sees the table before it is published"

    client.post(manage(finished), form(published="on"))
    page = Client().get(public).content.decode()
    assert '<td class="prize" data-label="Prize">500.00</td>' in page
    assert ">Consolation prize<" in page and ">Total prize<" in page
    rows = {row["name"]: row["prizes"] for row in Client().get(api).json()["rows"]}
    assert (
        rows["P01"] == {"main": "500.00"}
        and rows["P05"] == {"consolation": "40.00"}
        and rows["P08"] == {"consolation": "10.00"}
    )


def test_the_players_list_of_a_finished_division_names_its_winners(finished: Division, director: Any) -> None:
    page = director_client(director).get(manage(finished)).content.decode()
    players = page[page.index('id="players-list"') :]

    def status_of(name: str) -> str:
        row = players[players.index(f">{name}<") :]
        row = row[: row.index("</tr>")]
        return re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[1].strip()

    assert status_of("P01") == "champion", "the main draw's winner"
    assert status_of("P05") == "consolation winner"
    assert status_of("P02") == "finished 2nd"  # his place, not "eliminated"


def test_best_says_on_the_page_what_it_pays_beyond_the_table(finished: Division, director: Any) -> None:
    client = director_client(director)
    stored = client.post(manage(finished), form(mode="amount", pool="", ties="best", main="50, 30, 20, 10"))
    page = client.get(stored["Location"]).content.decode()
    # P03 and P04 share 3-4: each is paid place 3's 20.00, 10.00 more than the table's 20.00 + 10.00.
    assert page.count('<td class="prize">20.00</td>') == 4
    assert "Prize: 10.00 more than the table pays, as players who share a place are each paid the prize" in page
    assert "The division is still running" not in page


def test_prizes_shown_while_the_division_runs_say_so(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    from tests.tournaments.services.support import director_win, open_pairings
    from tournaments import services

    division = services.start_division(division_of("single", 4, entry_mode="scoresheet"), actor=as_director)
    first = open_pairings(division)[0]
    director_win(first, first.entry_a, as_director)  # one semi-final played: its loser holds 3-4
    services.recompute_standings(division.pk)
    client = director_client(director)
    stored = client.post(manage(division), form(main="60, 40", consolation=""))
    page = client.get(stored["Location"]).content.decode()
    assert "The division is still running: these are the prizes of the places as they stand now." in page


def test_one_prize_per_player_is_ticked_on_the_form_and_said_under_the_table(finished: Division, director: Any) -> None:
    """Main 5-8 are the consolation's players: ticked, each keeps his larger prize and the rest is said left over."""
    client = director_client(director)
    table = form(main="40, 20, 10, 10, 2, 2, 2, 2", consolation="5, 3, 1, 1", one_prize="on")
    stored = client.post(manage(finished), table)
    assert stored.status_code == 302
    finished.refresh_from_db()
    assert finished.payouts["one_prize"] is True
    page = client.get(stored["Location"]).content.decode()
    tick = page.split('name="payouts-one_prize"')[1].split(">")[0]
    assert "checked" in tick, "the form shows the stored table"
    assert "Prize: 40.00 left over, not paid to players who have a larger prize (one prize per player)." in page


def test_the_payout_form_says_whether_a_playoff_can_settle_a_shared_place(
    finished: Division, division_of: Callable[..., Division], director: Any
) -> None:
    """A knockout's places are shared by its draw and never go to a playoff: its payout form says the tie setting
    decides; a Swiss's says a tie at places that pay differently may go to a playoff instead."""
    client = director_client(director)
    knockout = client.get(manage(finished)).content.decode()
    assert "players out in the same round share the places they span: 3rd-4th, 5th-8th): no playoff settles" in knockout
    assert "may be settled by a playoff" not in knockout
    swiss = client.get(manage(division_of("swiss", 6, rounds_planned=3))).content.decode()
    assert "may be settled by a playoff (Playoffs for ties, on this page) instead" in swiss
    assert "no playoff settles them" not in swiss
