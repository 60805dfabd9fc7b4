"""A registered player's name, club and country corrected from the players' list ("Correct" on his row): a name
typed wrong at the door is put right without withdrawing him and entering him again (which left a withdrawn row and
forced a "(town)" suffix on the name). Every refusal says what was wrong and stores nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from common.actor import Actor
from games.models import Player
from tests.web.director.support import check_html, client_for, refused, roster_club, swiss_division, text_of
from tournaments import services
from tournaments.models import Division, Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _url(division: Division) -> str:
    return f"/manage/{division.event.slug}/{division.slug}/"


def _division(actor: Actor, event: str, **options: Any) -> Division:
    found = services.create_event(actor=actor, name=event, **options)
    settings = services.DivisionSettings(name="Open", format="single")
    return services.create_division(found, actor=actor, settings=settings)


def _correct(entry: Entry, **fields: str) -> dict[str, Any]:
    return {"action": "correct", "target": entry.pk, **{f"correct-{entry.pk}-{k}": v for k, v in fields.items()}}


def test_a_name_typed_wrong_is_corrected_from_the_players_row(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), _url(registering)
    ben = Entry.objects.select_related("player").get(division=registering, player__display_name="Ben")
    page = text_of(client.get(url))
    assert f'name="correct-{ben.pk}-name" value="Ben"' in page, "the row's form holds the player's details"
    response = client.post(url, _correct(ben, name="  Ben   Lund ", club="Oslo BK", country="se"))
    assert response.status_code == 302
    player = Player.objects.get(pk=ben.player_id)
    assert (player.display_name, player.club, player.country) == ("Ben Lund", "Oslo BK", "SE")
    assert Entry.objects.filter(division=registering).count() == 2, "the same entry: nobody withdrawn or added"
    page = text_of(client.get(url))
    check_html(page)
    assert "Ben is now Ben Lund (Oslo BK, SE)." in page
    assert f'name="correct-{ben.pk}-name" value="Ben Lund"' in page


def test_a_club_or_country_alone_is_corrected_with_its_own_message(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), _url(registering)
    ann = Entry.objects.get(division=registering, player__display_name="Ann")
    assert client.post(url, _correct(ann, name="Ann", club="", country="NO")).status_code == 302
    assert Player.objects.get(pk=ann.player_id).country == "NO"
    assert "Ann&#x27;s club and country are now: NO." in text_of(client.get(url))
    assert client.post(url, _correct(ann, name="Ann", club="", country="NO")).status_code == 302
    assert "Nothing to correct: Ann&#x27;s details are as they were." in text_of(client.get(url))


def test_a_country_typed_in_full_is_refused_with_its_code_and_nothing_changes(dora: Any, registering: Division) -> None:
    ben = Entry.objects.get(division=registering, player__display_name="Ben")
    page = refused(
        client_for(dora),
        _url(registering),
        _correct(ben, name="Ben Lund", club="", country="Sweden"),
        "Ben is not corrected: country &#x27;Sweden&#x27; is not a two-letter code: SE for Sweden (or leave the "
        "country empty)",
    )
    assert 'value="Ben Lund"' in page and 'value="Sweden"' in page, "what was typed is kept in the open form"
    assert Player.objects.get(pk=ben.player_id).display_name == "Ben"


def test_the_name_of_another_player_of_the_division_is_refused(dora: Any, registering: Division) -> None:
    ben = Entry.objects.get(division=registering, player__display_name="Ben")
    refused(
        client_for(dora),
        _url(registering),
        _correct(ben, name="ann", club="", country=""),
        "Ben is not corrected: Ann is already entered in Open: tell the two apart in the name, such as &quot;ann (his "
        "club or town)&quot;",
        status=409,
    )
    assert Player.objects.get(pk=ben.player_id).display_name == "Ben"


def test_an_empty_name_is_a_field_error(dora: Any, registering: Division) -> None:
    ben = Entry.objects.get(division=registering, player__display_name="Ben")
    for name in ("", "   "):
        refused(
            client_for(dora), _url(registering), _correct(ben, name=name, club="", country=""), "A player needs a name"
        )


def test_a_player_also_entered_in_another_directors_event_is_corrected_by_a_director_of_both(
    dora: Any, otto: Any, registering: Division
) -> None:
    ben = Entry.objects.select_related("player").get(division=registering, player__display_name="Ben")
    otto_actor = Actor(user=otto)
    division = _division(otto_actor, "Otto's open")
    services.register_player(division, actor=otto_actor, player=ben.player)
    refused(
        client_for(dora),
        _url(registering),
        _correct(ben, name="Ben Lund", club="", country=""),
        "Ben is also entered in Otto&#x27;s open, which you do not direct: a director of both events, or an "
        "administrator, corrects him",
        status=403,
    )
    services.add_director(division.event, actor=otto_actor, user=dora)
    answer = client_for(dora).post(_url(registering), _correct(ben, name="Ben Lund", club="", country=""))
    assert answer.status_code == 302
    assert Player.objects.get(pk=ben.player_id).display_name == "Ben Lund"


def test_in_a_clubs_event_the_name_of_another_roster_record_is_refused(dora: Any) -> None:
    club = roster_club(dora, "Carl Berg", "Dina Dahl")
    actor = Actor(user=dora)
    division = _division(actor, "Tuesday", club=club)
    entry = services.register_player(division, actor=actor, name="Carl Berg")
    refused(
        client_for(dora),
        _url(division),
        _correct(entry, name="Dina Dahl", club="Oslo BK", country=""),
        "Dina Dahl is on the club&#x27;s roster already, another record: if they are one person, merge the two "
        "records on the club&#x27;s page",
        status=409,
    )


def test_a_player_of_a_started_division_is_corrected_and_a_finished_ones_row_offers_nothing(dora: Any) -> None:
    swiss = swiss_division(dora, 4)
    entry = Entry.objects.filter(division=swiss).order_by("seed").first()
    assert entry is not None
    client = client_for(dora)
    assert client.post(_url(swiss), _correct(entry, name="Zoe Aas", club="", country="")).status_code == 302
    assert Player.objects.get(pk=entry.player_id).display_name == "Zoe Aas"
    public = Client().get(f"/events/{swiss.event.slug}/{swiss.slug}/").content.decode()
    assert "Zoe Aas" in public, "the public pages show the corrected name"
    swiss.status = Division.Status.FINISHED
    swiss.save(update_fields=["status"])
    assert f'name="correct-{entry.pk}-name"' not in text_of(client.get(_url(swiss)))
