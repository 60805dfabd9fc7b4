"""The printable pages (tournaments/director/views/prints.py): an elimination round's sheet and slips, and what a
casual division's prints and score cards say."""

from __future__ import annotations

from typing import Any

import pytest

from common.actor import Actor
from tests.web.director.support import CASUAL, check_html, client_for, sheet_links, text_of
from tournaments import services
from tournaments.models import Division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_an_elimination_round_sheet(dora: Any) -> None:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Cup")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Main", format="single")
    )
    for i in range(1, 6):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    client, base = client_for(dora), "/manage/cup/main/round/main/"
    first = text_of(client.get(base + "1/sheet/"))
    assert first.count(">bye<") == 3 and len(sheet_links(text_of(client.get(base + "1/slips/")))) == 2  # 4 plays 5
    second = text_of(client.get(base + "2/sheet/"))
    assert "winner of" in second.lower()  # 2 v 3; seed 1 waits for 4 v 5
    assert len(sheet_links(text_of(client.get(base + "2/slips/")))) == 2
    check_html(second)
    cards = text_of(client.get(base + "2/scorecards/"))
    assert cards.count('class="scorecard"') == 1
    page = text_of(client.get("/manage/cup/main/"))
    assert "waiting for earlier results" in page and "Main round 1" in page
    check_html(page)


@pytest.mark.parametrize("page", ["sheet", "slips", "scorecards"])
def test_a_casual_divisions_prints_say_what_is_played(dora: Any, casual: Division, page: str) -> None:
    printed = text_of(client_for(dora).get(f"/manage/beginners/casual/round/round-robin/1/{page}/"))
    assert CASUAL in printed and "Crawford" not in printed
    check_html(printed)


def test_a_casual_score_card_has_no_cube_column_and_no_gammon_points(dora: Any, casual: Division) -> None:
    cards = text_of(client_for(dora).get("/manage/beginners/casual/round/round-robin/1/scorecards/"))
    assert ">Cube<" not in cards and "gammon" not in cards
    assert cards.count("<tr><td>1</td><td></td><td></td><td></td><td></td></tr>") == 2  # game, winner, points, scores


@pytest.fixture
def one_point_results(dora: Any) -> Division:
    """A 1-point single-elimination division entered as results only (scoresheet), started with four players."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Club night")
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(name="Quick", format="single", match_length=1, entry_mode="scoresheet"),
    )
    for i in range(1, 5):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    return division


@pytest.mark.parametrize("page", ["sheet", "slips", "scorecards"])
def test_a_one_point_divisions_prints_say_nothing_of_the_crawford_rule(
    dora: Any, one_point_results: Division, page: str
) -> None:
    printed = text_of(client_for(dora).get(f"/manage/club-night/quick/round/main/1/{page}/"))
    assert "1-point match" in printed and "Crawford" not in printed  # it means nothing at 1 point
    check_html(printed)


def test_a_results_only_divisions_slips_ask_for_results_not_moves(dora: Any, one_point_results: Division) -> None:
    slips = text_of(client_for(dora).get("/manage/club-night/quick/round/main/1/slips/"))
    assert slips.count("Scan it with your phone to enter your results.") == 4 and "moves or results" not in slips
