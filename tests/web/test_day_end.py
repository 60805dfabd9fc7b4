"""The rest of a club day, a Swiss into a knockout run to its end (tests/web/swiss_knockout_day.py): a player enters
his next match from "Your next match", the per-round lengths by the names the pages use, the standings' columns and
legends, the prize column, corrections, and what the pages say once the day is over."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import access
from games.models import EntryToken
from tests.web.swiss_knockout_day import Day, swiss_knockout_day

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
