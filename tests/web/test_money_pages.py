"""Money on the directors' pages: the division's fees (Money), payments marked at the door without a reload, a
withdrawal with its refund, and the night's cash sheet, which adds up; refusals say what to change and store
nothing; the door's payment costs the same statements whatever the field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.actor import Actor
from tournaments import services
from tournaments.models import Division, Entry
from tournaments.services.payouts import set_payouts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def club_night(director: Any, players: int = 4, *, name: str = "Club night") -> Division:
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name=name)
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(name="Open", format="single", match_length=1, entry_mode="scoresheet"),
    )
    for i in range(1, players + 1):
        services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
    return division


def url_of(division: Division) -> str:
    return f"/manage/{division.event.slug}/{division.slug}/"


def set_fees(client: Client, division: Division, **fields: str) -> Any:
    data = {"action": "money", **{f"money-{name}": value for name, value in fields.items()}}
    return client.post(url_of(division), data)


def pay(client: Client, entry: Entry, field: str, value: str) -> Any:
    data = {"action": "pay", "target": entry.pk, f"pay-{entry.pk}-{field}": value}
    return client.post(url_of(entry.division), data, **HTMX)


def test_the_director_sets_the_fees_and_a_bad_one_is_refused_with_what_to_change(dora: Any) -> None:
    division = club_night(dora)
    client = client_for(dora)
    page = client.get(url_of(division)).content.decode()
    assert "Free to enter" in page and 'name="money-entry_fee"' in page
    assert page.index('id="players-heading"') < page.index('id="money-heading"'), "the door's list first"
    refused = set_fees(client, division, entry_fee="5.555", side_pool_fee="10")
    assert refused.status_code == 400
    assert "The entry fee is 5.555: give at most two decimals" in refused.content.decode()
    division.refresh_from_db()
    assert (division.entry_fee, division.side_pool_fee) == (0, 0), "nothing stored"
    done = set_fees(client, division, entry_fee="5", side_pool_fee="10", house_share="10", side_pool_prizes="70, 30")
    assert done.status_code == 302
    division.refresh_from_db()
    assert (str(division.entry_fee), str(division.side_pool_fee), division.side_pool_prizes) == (
        "5.00",
        "10.00",
        ["70", "30"],
    )
    page = client.get(url_of(division)).content.decode()
    assert "The fees of Open are stored" in page
    assert "Entry fee 5.00: 0 paid." in page and "Prize pool: 0.00" in page


def at_the_door(dora: Any) -> tuple[Client, Division, Entry, str]:
    """A club night with an entry fee of 5 and a side pool of 10: the director's client, the division, P02's entry and
    the division page."""
    division = club_night(dora)
    client = client_for(dora)
    set_fees(client, division, entry_fee="5", side_pool_fee="10")
    ben = Entry.objects.get(division=division, player__display_name="P02")
    return client, division, ben, client.get(url_of(division)).content.decode()


def test_payments_are_marked_at_the_door_without_a_reload(dora: Any) -> None:
    client, _division, ben, page = at_the_door(dora)
    assert f'id="form-pay-{ben.pk}"' in page and f'name="pay-{ben.pk}-fee" value="cash"' in page
    answer = pay(client, ben, "fee", "cash")
    part = answer.content.decode()
    assert answer.status_code == 200 and part.lstrip().startswith(f'<tr id="entry-{ben.pk}"'), part[:200]
    assert "P02 paid in cash." in part and "Paid in cash" in part
    assert f'name="pay-{ben.pk}-fee" value=""' in part, "the mark can be taken back"
    pay(client, ben, "side", "cash")
    ben.refresh_from_db()
    assert (ben.paid, ben.side_pool) == ("cash", "cash"), "a side pool mark leaves the fee's as it is"
    pay(client, ben, "fee", "")
    ben.refresh_from_db()
    assert (ben.paid, ben.side_pool) == ("", "cash")
    refused = pay(client, ben, "fee", "cheque")
    assert "Unknown way of paying the entry fee &#x27;cheque&#x27;: use cash, transfer" in refused.content.decode()
    ben.refresh_from_db()
    assert ben.paid == ""


def test_a_withdrawal_before_the_start_can_be_refunded(dora: Any) -> None:
    division = club_night(dora)
    client = client_for(dora)
    set_fees(client, division, entry_fee="5")
    ann = Entry.objects.get(division=division, player__display_name="P01")
    pay(client, ann, "fee", "transfer")
    page = client.get(url_of(division)).content.decode()
    assert f'name="withdraw-{ann.pk}-refund"' in page
    done = client.post(
        url_of(division),
        {"action": "withdraw", "target": ann.pk, f"withdraw-{ann.pk}-reason": "ill", f"withdraw-{ann.pk}-refund": "on"},
    )
    assert done.status_code == 302
    ann.refresh_from_db()
    assert ann.refunded and ann.status == Entry.Status.WITHDRAWN
    page = client.get(url_of(division)).content.decode()
    assert "P01 has withdrawn, and his fees are refunded." in page and ">refunded</span>" in page


def test_the_cash_sheet_adds_up_and_only_the_events_directors_see_it(dora: Any, django_user_model: Any) -> None:
    division = club_night(dora, players=4)
    actor = Actor(user=dora)
    client = client_for(dora)
    set_fees(client, division, entry_fee="5", house_share="20", added_money="4")
    for entry in Entry.objects.filter(division=division).order_by("player__display_name")[:3]:
        pay(client, entry, "fee", "cash")
    services.register_player(division, actor=actor, name="P05")
    division.refresh_from_db()
    set_payouts(division, actor=actor, mode="percent", pool=None, ties="split", published=False, flights={"main": "75"})
    sheet = client.get(f"/manage/{division.event.slug}/cash/")
    text = re.sub(r"\s+", " ", sheet.content.decode())
    assert sheet.status_code == 200
    # 3 x 5.00 = 15.00 in; the house keeps 20%: 3.00; pool 15 - 3 + 4 = 16.00; nobody placed yet: nothing paid.
    assert "Entry fees: 3 \N{MULTIPLICATION SIGN} 5.00" in text and "(3 cash, 0 transfer)" in text
    assert re.search(r"Prize pool.*?16\.00", text)
    assert re.search(r"In the cash box now.*?19\.00", text), "15.00 paid in + 4.00 added, nothing paid out"
    # ... which is the prize pool, still to be won, and the house's share.
    assert re.search(r"Still to be won.*?16\.00", text) and re.search(r"The house's share.*?3\.00", text)
    assert "Not paid yet (2): P04, P05" in text
    sam = django_user_model.objects.create_user("sam", password=None)
    assert client_for(sam).get(f"/manage/{division.event.slug}/cash/").status_code == 403  # a public event: forbidden


def test_a_payment_at_the_door_costs_the_same_statements_at_20_and_200_entries(dora: Any) -> None:
    counts = []
    for size in (20, 200):
        division = club_night(dora, players=size, name=f"Door {size}")
        client = client_for(dora)
        set_fees(client, division, entry_fee="5")
        middle = list(division.entries.order_by("id"))[size // 2]
        with CaptureQueriesContext(connection) as captured:
            response = pay(client, middle, "fee", "cash")
        assert response.status_code == 200 and "paid in cash" in response.content.decode()
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1], f"statements at 20 and at 200 entries: {counts}"


def test_the_side_pool_is_marked_paid_by_transfer_as_the_entry_fee_is(dora: Any) -> None:
    client, division, ben, page = at_the_door(dora)
    assert f'name="pay-{ben.pk}-side" value="cash"' in page and f'name="pay-{ben.pk}-side" value="transfer"' in page
    part = pay(client, ben, "side", "transfer").content.decode()
    assert "P02 paid the side pool by transfer." in part and "Side pool, transfer" in part
    ben.refresh_from_db()
    assert (ben.paid, ben.side_pool) == ("", "transfer")
    sheet = " ".join(client.get(f"/manage/{division.event.slug}/cash/").content.decode().split())
    assert "(0 cash, 1 transfer)" in sheet, "the cash sheet counts the side pool's transfer"
