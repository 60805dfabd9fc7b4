"""A club's event and its roster on the directors' pages: a pasted list's initial ("P. Ruud") close only to a player
entered already is asked about, naming her as entered, never made a new player silently; the register form offers
the roster's names and asks a rating only where the club's list does not give it."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from common.actor import Actor
from games.models import Player
from tests.web.director.support import check_html, client_for, roster_club
from tournaments import services
from tournaments.models import Club, Division, Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _night(dora: Any, club: Club, name: str = "Night 1") -> Division:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name=name, club=club, starts_on=dt.date(2026, 11, 5))
    return services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="single")
    )


def _url(division: Division) -> str:
    return f"/manage/{division.event.slug}/{division.slug}/"


def test_a_pasted_initial_close_only_to_a_player_entered_is_asked_never_a_new_player(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    night = _night(dora, club)
    pia = services.register_player(night, actor=actor, name="Pia Ruud", club="Oslo BK").player
    players = Player.objects.count()
    client = client_for(dora)
    text = "Kari Lund\nola dahl\nP. Ruud"
    services.register_player(_night(dora, club, "Night 0"), actor=actor, name="Ola Dahl")
    refused = client.post(_url(night), {"action": "import", "import-text": text})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Who is it? Line 3: P. Ruud" in page
    assert "P. Ruud may be Pia Ruud, already entered: if so, leave P. Ruud out" in page
    assert re.findall(r'name="import-line-3" value="(\w+)"', page) == ["new"], "Pia is entered: not offered twice"
    assert Entry.objects.filter(division=night).count() == 1 and Player.objects.count() == players + 1
    assert not club.players.filter(display_name="P. Ruud").exists()
    check_html(page)
    one = client.post(_url(night), {"action": "register", "register-name": "P. Ruud"})
    assert one.status_code == 409 and "P. Ruud may be Pia Ruud, already entered" in one.content.decode()
    chosen = {"import-line-2": "new", "import-line-3": "new"}
    done = client.post(_url(night), {"action": "import", "import-text": text, **chosen})
    assert done.status_code == 302, "the director said P. Ruud is another person"
    assert Entry.objects.filter(division=night).count() == 4
    assert Entry.objects.get(division=night, player=pia)


def test_the_list_forms_say_a_comma_ends_the_name(dora: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    said = "A comma ends the name: write <code>Lars Nes</code>, not <code>Nes, Lars</code>"
    client = client_for(dora)
    assert said in client.get(f"/clubs/{club.slug}/manage/").content.decode()
    assert said in client.get(_url(_night(dora, club))).content.decode()
    pasted = client.post(f"/clubs/{club.slug}/manage/", {"action": "roster-import", "roster-import-text": "Nes, Lars"})
    assert pasted.status_code == 302, "as the forms say: Nes of the club Lars"
    assert list(club.players.values_list("display_name", "club")) == [("Nes", "Lars")]


def test_the_roster_says_the_typed_name_as_typed_and_each_player_once(dora: Any) -> None:
    club = roster_club(dora, "Pia Ruud")
    pia = club.players.get()
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    asked = client.post(url, {"action": "roster-add", "roster-add-name": "pia ruud"})
    assert "&#x27;pia ruud&#x27; is close to a name on Oslo BK" in asked.content.decode(), "one match: a name"
    chosen = {"action": "roster-add", "roster-add-name": "pia ruud", "roster-add-choice": str(pia.pk)}
    said = client.post(url, chosen, follow=True).content.decode()
    assert f"“pia ruud” is Pia Ruud (Oslo BK) #{pia.pk}, already on the roster" in said, "as typed"
    text = "Pia Ruud\nP. Ruud\nOla Dahl"
    form = {"action": "roster-import", "roster-import-text": text, "roster-import-line-2": str(pia.pk)}
    done = client.post(url, form, follow=True).content.decode()
    assert "1 player joins the roster; already on it: Pia Ruud." in done, "Pia named once"


def test_a_refused_roster_list_says_nothing_changed_once_and_lists_its_problems(dora: Any) -> None:
    club = roster_club(dora, "Pia Ruud")
    url = f"/clubs/{club.slug}/manage/"
    bad = client_for(dora).post(url, {"action": "roster-import", "roster-import-text": "Ola Dahl\n,Oslo\nEva,,NOR"})
    page = bad.content.decode()
    assert bad.status_code == 400
    assert (
        page.count("Nothing was changed.") == 1 and "Nothing was added" not in page and "nothing was added" not in page
    )
    assert "<li>Line 2: the name is empty</li>" in page
    assert "<li>Line 3: country &#x27;NOR&#x27; is not a two-letter code: NO for Norway</li>" in page
    check_html(page)
    asked = client_for(dora).post(url, {"action": "roster-import", "roster-import-text": "pia ruud\nP. Ruud"})
    page = asked.content.decode()
    assert asked.status_code == 409 and "Nothing was added" not in page
    assert f"<li>Line 1: &#x27;pia ruud&#x27; is close to Pia Ruud (Oslo BK) #{club.players.get().pk}</li>" in page


def test_same_person_reads_in_order_and_merges_are_timed_in_the_events_zone(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    event = services.create_event(
        actor=actor, name="Night 1", club=club, starts_on=dt.date(2026, 11, 5), time_zone="Europe/Oslo"
    )
    night = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="single")
    )
    pia = services.register_player(night, actor=actor, name="Pia Ruud").player
    ruud = services.add_to_roster(club, actor=actor, name="P. Ruud", new_player=True)
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    page = client.get(url).content.decode()
    keep, fold = page.find("Same person: keep the record of"), page.find("and fold into it the record of")
    assert 0 < keep < fold, "the record kept first, then the one folded into it"
    merge = services.merge_players(club, actor=actor, keep=pia, fold=ruud)
    type(merge).objects.filter(pk=merge.pk).update(created_at=dt.datetime(2026, 11, 5, 18, 30, tzinfo=dt.UTC))
    page = client.get(url).content.decode()
    assert "When (Europe/Oslo time)" in page
    assert "2026-11-05 19:30" in page and "2026-11-05 18:30" not in page
    check_html(page)


def test_the_register_form_suggests_the_roster_and_asks_a_rating_only_for_seeding(dora: Any) -> None:
    actor = Actor(user=dora)
    club = roster_club(dora, "Pia Ruud", "Ola Dahl", "Ann <Berg>")
    night = _night(dora, club)
    page = client_for(dora).get(_url(night)).content.decode()
    assert 'list="register-roster"' in page and '<datalist id="register-roster">' in page
    offered = re.findall(r'<datalist id="register-roster">(.*?)</datalist>', page)[0]
    assert re.findall(r'<option value="([^"]*)">', offered) == ["Ann &lt;Berg&gt;", "Ola Dahl", "Pia Ruud"]
    assert "Rating for seeding (only if not on the club&#x27;s list)" in page
    check_html(page)
    plain = services.create_event(actor=actor, name="Open cup")
    division = services.create_division(
        plain, actor=actor, settings=services.DivisionSettings(name="Open", format="single")
    )
    page = client_for(dora).get(_url(division)).content.decode()
    assert "<datalist" not in page and "Rating for seeding" not in page and ">Rating:</label>" in page


def test_a_large_roster_suggests_its_latest_players_only(dora: Any) -> None:
    actor = Actor(user=dora)
    club = roster_club(dora)
    club.players.add(*Player.objects.bulk_create(Player(display_name=f"Player {n:04d}") for n in range(600)))
    earlier = _night(dora, club, "Night 0")
    services.register_player(earlier, actor=actor, name="Player 0007")
    page = client_for(dora).get(_url(_night(dora, club))).content.decode()
    offered = re.findall(r'<datalist id="register-roster">(.*?)</datalist>', page)[0]
    assert re.findall(r'<option value="([^"]*)">', offered) == ["Player 0007"], "600 names: the latest players"
