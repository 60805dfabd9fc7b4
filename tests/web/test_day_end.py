"""The rest of a club day, a Swiss into a knockout run to its end (tests/web/swiss_knockout_day.py): a player enters
his next match from "Your next match", the per-round lengths by the names the pages use, the standings' columns and
legends, the prize column, corrections, and what the pages say once the day is over."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import access
from games.models import EntryToken
from tests.web.swiss_knockout_day import Day, finish_the_day, swiss_knockout_day
from tests.web.test_director_pages import client_for, text_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def dora(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("dora", password=None)


@pytest.fixture
def day(dora: Any) -> Day:
    """The knockout drawn: Per Foss (1st in the Swiss) plays Ola Dahl in the first semi-final."""
    return swiss_knockout_day(dora)


def phone_with(day: Day, key: str, side: int, client: Client | None = None) -> Client:
    """A phone that opened the entry link of ``side`` of the pairing ``key`` (its newest live link)."""
    match = day.slot(key).match
    token = EntryToken.objects.filter(match=match, side=side, revoked_at__isnull=True).order_by("-pk").first()
    token = token or access.new_entry_token(match, side)
    client = client or Client()
    assert client.get(f"/play/{access.token_text(token)}/").status_code == 302
    return client


def swiss_key_of(day: Day, name: str) -> tuple[str, int]:
    """The key of the player's round-3 Swiss pairing and his side in it."""
    for p in day.refresh().division.pairings.filter(round__bracket="swiss", round__number=3):
        for side, entry in enumerate((p.entry_a, p.entry_b)):
            if entry is not None and entry.player.display_name == name:
                return p.key, side
    raise AssertionError(name)


# -- 20. "Your next match" enters it ---------------------------------------------------------------------------------


def test_the_phone_holding_a_players_earlier_link_enters_his_next_match_in_one_tap(day: Day) -> None:
    key, side = swiss_key_of(day, "Per Foss")
    phone = phone_with(day, key, side)
    semi = day.slot("main-1-0")
    assert semi.entry_a.player.display_name == "Per Foss"
    assert phone.get(reverse("entry:match", args=[semi.match_id])).status_code == 403  # no link of it yet
    page = phone.get(reverse("pairing_entry:next")).content.decode()
    enter = reverse("pairing_entry:enter", args=[semi.pk])
    assert f'action="{enter}"' in page and "Enter this match" in page
    answer = phone.post(enter)
    assert answer.status_code == 303 and answer["Location"] == reverse("entry:match", args=[semi.match_id])
    entry_page = phone.get(answer["Location"])
    assert entry_page.status_code == 200 and "Per Foss" in entry_page.content.decode()
    taken = EntryToken.objects.get(match=semi.match, side=0, revoked_at__isnull=True)
    assert taken.phone  # bound to this phone: the slip's link opens nowhere else now
    other = Client()
    assert other.get(f"/play/{access.token_text(taken)}/")["Location"] == reverse("entry:refused")
    again = phone.get(reverse("pairing_entry:next")).content.decode()
    assert f'href="{reverse("entry:match", args=[semi.match_id])}"' in again  # held now: a plain link


def test_a_phone_not_holding_the_players_earlier_link_is_refused(day: Day) -> None:
    semi = day.slot("main-1-0")
    enter = reverse("pairing_entry:enter", args=[semi.pk])
    assert Client().post(enter).status_code == 403  # no link at all
    key, side = swiss_key_of(day, "Per Foss")
    opponent = phone_with(day, key, 1 - side)  # Per Foss's round-3 opponent, not a player of the semi-final
    refused = opponent.post(enter)
    assert refused.status_code == 403 and "open the entry link on your slip" in refused.content.decode()
    assert not EntryToken.objects.filter(match=semi.match).exclude(phone="").exists()
    assert opponent.get(reverse("entry:match", args=[semi.match_id])).status_code == 403


def test_enter_this_match_keeps_the_one_phone_binding(day: Day) -> None:
    semi = day.slot("main-1-0")
    slip = phone_with(day, "main-1-0", 0)  # the printed slip opened on another phone first
    key, side = swiss_key_of(day, "Per Foss")
    phone = phone_with(day, key, side)
    refused = phone.post(reverse("pairing_entry:enter", args=[semi.pk]))
    assert refused.status_code == 403 and "already open on another phone" in refused.content.decode()
    assert phone.get(reverse("entry:match", args=[semi.match_id])).status_code == 403
    assert slip.get(reverse("entry:match", args=[semi.match_id])).status_code == 200


# -- 22. per-round lengths by the names the pages use ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "stored"),
    [
        ("knockout:final=3", {"main:final": 3}),
        ("Knockout final=3, knockout:semi-final=2", {"main:final": 3, "main:semi-final": 2}),
        ("knockout round 1=2", {"main:1": 2}),
        ("main:final=3", {"main:final": 3}),  # the stored names still work
    ],
)
def test_the_division_form_takes_the_knockouts_rounds_by_their_names_on_the_pages(
    dora: Any, rules: str, stored: dict[str, int]
) -> None:
    from tournaments import services
    from tournaments.models import Division

    event = services.create_event(actor=access.Actor(user=dora), name="Club day")
    form = {
        "action": "create-division",
        "create-division-name": "Open",
        "create-division-format": "swiss-knockout",
        "create-division-match_length": "1",
        "create-division-round_lengths": rules,
        "create-division-variant": "standard",
        "create-division-entry_mode": "scoresheet",
        "create-division-seeding": "rating",
        "create-division-rounds_planned": "3",
        "create-division-knockout_size": "4",
        "create-division-last_chance_places": "0",
    }
    answer = client_for(dora).post(f"/manage/{event.slug}/", form)
    assert answer.status_code == 302, text_of(answer)[-3000:]
    assert Division.objects.get(event=event).round_lengths == stored


def test_two_names_of_one_round_are_refused_with_the_reason(dora: Any) -> None:
    from games.errors import ApplicationError
    from tournaments import services

    event = services.create_event(actor=access.Actor(user=dora), name="Club day")
    settings = services.DivisionSettings(
        name="Open",
        format="swiss-knockout",
        rounds_planned=3,
        knockout_size=4,
        match_length=1,
        round_lengths={"knockout:final": 3, "main:final": 5},
    )
    with pytest.raises(ApplicationError, match="name the same round: keep one"):
        services.create_division(event, actor=access.Actor(user=dora), settings=settings)


def test_the_knockouts_final_is_played_to_its_length_and_the_header_says_so(day: Day) -> None:
    assert day.slot("main-2-0").length == 3 and day.slot("main-1-0").length == 1
    public = text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/"))
    head = public[public.index('class="meta"') : public.index("</p>", public.index('class="meta"'))]
    assert "1-point matches; Knockout final: 3 points" in " ".join(head.split()), head
    event_page = " ".join(text_of(Client().get(f"/events/{day.event.slug}/")).split())
    assert "1-point matches; Knockout final: 3 points" in event_page


def test_a_semi_final_rule_sets_the_length_of_the_round_before_the_final() -> None:
    from tournaments.core import round_length
    from tournaments.models import Division

    division = Division(match_length=1, round_lengths={"main:semi-final": 2, "main:final": 3})
    assert round_length(division, "main", 2, semi_final=True) == 2
    assert round_length(division, "main", 3, final=True) == 3
    assert round_length(division, "main", 1) == 1


# -- 23. the final standings' columns and legend ---------------------------------------------------------------------


def standings_rows(html: str) -> dict[str, dict[str, str]]:
    """Each player's cells of the standings table, by column header: {"Per Foss": {"Pts for": "6", ...}}."""
    table = html[html.index('<table class="standings') : html.index("</table>", html.index('<table class="standings'))]
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th scope=\"col\"[^>]*>(.*?)</th>", table)]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table[table.index("<tbody>") :], flags=re.S):
        cells = [re.sub(r"<[^>]+>", " ", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, flags=re.S)]
        cells = [" ".join(c.split()) for c in cells]
        rows[re.findall(r'class="who">([^<]+)<', row)[0]] = dict(zip(heads, cells, strict=False))
    return rows


def test_the_final_standings_points_difference_is_points_for_less_against_and_the_legends_say_so(
    day: Day, dora: Any
) -> None:
    finish_the_day(day)
    public = html.unescape(text_of(Client().get(f"/events/{day.event.slug}/{day.division.slug}/")))
    rows = standings_rows(public)
    assert rows["Per Foss"]["Pts for"] == "7" and rows["Per Foss"]["Pts against"] == "0"  # 3 Swiss, 1 + 3 knockout
    for name, cells in rows.items():
        assert int(cells["+/-"]) == int(cells["Pts for"]) - int(cells["Pts against"]), (name, cells)
    assert "points won minus points lost, over all the player's matches" in public
    assert "Pts for, Pts against and +/- count every match, the knockout's included" in public
    printed = html.unescape(
        text_of(client_for(dora).get(f"/manage/{day.event.slug}/{day.division.slug}/final-standings/"))
    )
    assert "Points difference: points won minus points lost, over all the player's matches" in printed
    assert "Buchholz: the sum of the opponents' scores" in printed
    assert "the knockout's included" in printed


# -- 24. no empty prize column in the Swiss ---------------------------------------------------------------------------


def test_the_swiss_of_a_swiss_into_a_knockout_shows_no_empty_prize_column(dora: Any) -> None:
    swiss = swiss_knockout_day(dora, swiss_rounds_played=2)
    public = html.unescape(text_of(Client().get(f"/events/{swiss.event.slug}/{swiss.division.slug}/")))
    standings = public[public.index('id="standings"') : public.index('id="pairings"')]
    assert "the prizes are those of the places as they stand now" not in standings
    assert '<th scope="col" class="prize">' not in standings
    assert "The prizes go to the places of the final standings, decided by the knockout" in standings
    finish_the_day(swiss_knockout_day(dora))
    over = text_of(Client().get("/events/club-day-2/open/"))  # the second event of the test
    assert standings_rows(over)["Per Foss"]["Prize"] == "400.00"
