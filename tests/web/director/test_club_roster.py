"""The roster on a club's page for its directors (``/clubs/SLUG/manage/``): a director adds one player or pastes a
list (the event's pasted-list format), a name close to a roster player's is offered to choose ("this is X" or a
new player) and never added twice silently, an exact name is reported as on the roster already; every refusal says
what was wrong and stores nothing; only the club's directors use it; the roster is paged and searchable and its page
costs the same statements for 5 players or 120."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actor import Actor
from games.models import Player
from tests.web.director.support import check_html, client_for, roster_club
from tournaments import services
from tournaments.models import Club

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def _club(dora: Any, *names: str) -> Club:
    return roster_club(dora, *names)


def _url(club: Club) -> str:
    return f"/clubs/{club.slug}/manage/"


def _add(**fields: str) -> dict[str, str]:
    return {"action": "roster-add", **{f"roster-add-{key}": value for key, value in fields.items()}}


def _paste(text: str, **lines: str) -> dict[str, str]:
    chosen = {f"roster-import-{key}": value for key, value in lines.items()}
    return {"action": "roster-import", "roster-import-text": text, **chosen}


def _roster(club: Club) -> list[str]:
    return sorted(club.players.values_list("display_name", flat=True))


def test_the_club_page_has_the_forms_to_add_and_paste_roster_players(dora: Any) -> None:
    page = client_for(dora).get(_url(_club(dora))).content.decode()
    assert 'name="roster-add-name"' in page and 'name="roster-import-text"' in page
    check_html(page)


def test_a_director_adds_one_player_with_his_club_and_country(dora: Any) -> None:
    club = _club(dora)
    client = client_for(dora)
    added = client.post(_url(club), _add(name="  Pia   Ruud ", club="Bergen BG", country="no"), follow=True)
    assert added.redirect_chain[-1] == (_url(club), 302)
    assert "Pia Ruud joins the roster." in added.content.decode()
    pia = club.players.get()
    assert (pia.display_name, pia.club, pia.country) == ("Pia Ruud", "Bergen BG", "NO")


def test_an_exact_name_is_on_the_roster_already_and_not_added_twice(dora: Any) -> None:
    club = _club(dora, "Pia Ruud")
    before = Player.objects.count()
    again = client_for(dora).post(_url(club), _add(name="Pia  Ruud"), follow=True)
    pia = club.players.get()
    assert f"Pia Ruud (Oslo BK) #{pia.pk} is already on the roster: nothing was added." in again.content.decode()
    assert Player.objects.count() == before


def test_a_close_name_offers_the_roster_player_or_a_new_player_and_the_director_chooses(dora: Any) -> None:
    club = _club(dora, "Pia Ruud")
    pia = club.players.get()
    client, url = client_for(dora), _url(club)
    for typed in ("pia ruud", "Pia Rüüd", "Pia Rud", "P. Ruud"):
        refused = client.post(url, _add(name=typed))
        assert refused.status_code == 409, typed
        page = refused.content.decode()
        assert "Who is it?" in page and f"Pia Ruud (Oslo BK) #{pia.pk}" in page
        assert re.findall(r'name="roster-add-choice" value="(\w+)"', page) == [str(pia.pk), "new"]
        assert f"A new player: {typed}" in page
    assert Player.objects.count() == 1
    same = client.post(url, _add(name="P. Ruud", choice=str(pia.pk)), follow=True)
    assert f"“P. Ruud” is Pia Ruud (Oslo BK) #{pia.pk}, already on the roster: nothing was added." in (
        same.content.decode()
    )
    assert _roster(club) == ["Pia Ruud"] and Player.objects.count() == 1
    new = client.post(url, _add(name="P. Ruud", choice="new"), follow=True)
    assert "P. Ruud joins the roster." in new.content.decode()
    assert _roster(club) == ["P. Ruud", "Pia Ruud"]
    stranger = Player.objects.create(display_name="Per Strand")
    wrong = client.post(url, _add(name="pia ruud", choice=str(stranger.pk)))
    assert wrong.status_code == 400 and "not on Oslo BK&#x27;s roster" in wrong.content.decode()
    assert not club.players.filter(pk=stranger.pk).exists()


def test_a_pasted_list_adds_its_new_names_and_reports_those_on_the_roster(dora: Any) -> None:
    club = _club(dora, "Pia Ruud")
    text = "Ola Dahl\nKari Lie,Bergen BG\n  Pia  Ruud  \nAnne Berg,Trondheim,NO\n"
    done = client_for(dora).post(_url(club), _paste(text), follow=True)
    page = done.content.decode()
    assert done.redirect_chain[-1] == (_url(club), 302)
    assert "3 players join the roster; already on it: Pia Ruud." in page
    assert _roster(club) == ["Anne Berg", "Kari Lie", "Ola Dahl", "Pia Ruud"]
    kari, anne = (club.players.get(display_name=n) for n in ("Kari Lie", "Anne Berg"))
    assert kari.club == "Bergen BG" and (anne.club, anne.country) == ("Trondheim", "NO")
    assert Player.objects.count() == 4


def test_a_pasted_lists_close_names_are_chosen_per_line_and_nothing_stored_before(dora: Any) -> None:
    club = _club(dora, "Pia Ruud")
    pia = club.players.get()
    client, url = client_for(dora), _url(club)
    text = "Ola Dahl\npia ruud\nP. Ruud"
    refused = client.post(url, _paste(text))
    assert refused.status_code == 409 and _roster(club) == ["Pia Ruud"] and Player.objects.count() == 1
    page = refused.content.decode()
    assert "Who is it? Line 2: pia ruud" in page and "Who is it? Line 3: P. Ruud" in page
    assert re.findall(r'name="roster-import-line-2" value="(\w+)"', page) == [str(pia.pk), "new"]
    assert "Ola Dahl\npia ruud\nP. Ruud" in page, "the list is kept as it was pasted"
    unsettled = client.post(url, _paste(text, **{"line-2": str(pia.pk)}))
    assert unsettled.status_code == 409 and "Line 3" in unsettled.content.decode()
    assert Player.objects.count() == 1
    chosen = client.post(url, _paste(text, **{"line-2": str(pia.pk), "line-3": "new"}), follow=True)
    assert "2 players join the roster; already on it: Pia Ruud." in chosen.content.decode()
    assert _roster(club) == ["Ola Dahl", "P. Ruud", "Pia Ruud"]


def test_bad_input_is_refused_with_its_reason_and_nothing_stored(dora: Any) -> None:
    club = _club(dora, "Pia Ruud")
    client, url = client_for(dora), _url(club)
    before = Player.objects.count()
    empty = client.post(url, _add(name="   "))
    assert empty.status_code == 400 and "This field is required." in empty.content.decode()
    long = client.post(url, _add(name="x" * 101))
    assert long.status_code == 400 and "at most 100 characters" in long.content.decode()
    country = client.post(url, _add(name="Ola Dahl", country="NOR"))
    assert country.status_code == 400 and "two-letter code" in country.content.decode()
    nothing = client.post(url, _paste("  \n "))
    assert nothing.status_code == 400 and "Paste a list or choose a file." in nothing.content.decode()
    text = "Ola Dahl\n,Oslo\n" + "y" * 101 + "\nKari Lie,Oslo,NOR\nOla Dahl\nEva Holm,,,,3"
    bad = client.post(url, _paste(text))
    page = bad.content.decode()
    assert bad.status_code == 400 and "Fix these lines and send the list again:" in page
    assert "Line 2: the name is empty" in page
    assert "Line 3: the name is longer than 100 characters" in page
    assert "Line 4: country &#x27;NOR&#x27; is not a two-letter code" in page
    assert "Line 5: Ola Dahl is also on line 1 of this list" in page
    assert "Line 6: a roster has no seeds" in page
    assert "Line 1:" not in page, "the good line is not named"
    assert Player.objects.count() == before and _roster(club) == ["Pia Ruud"]


def test_only_the_clubs_directors_add_to_its_roster(dora: Any, sam: Any, django_user_model: Any) -> None:
    club = _club(dora)
    url = _url(club)
    anonymous = client_for().post(url, _add(name="Ola Dahl"))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert client_for(sam).post(url, _add(name="Ola Dahl")).status_code == 403
    assert client_for(sam).post(url, _paste("Ola Dahl\nKari Lie")).status_code == 403
    hidden = services.create_club(actor=Actor(user=dora), name="Hidden BK", public=False)
    assert client_for(sam).post(_url(hidden), _add(name="Ola Dahl")).status_code == 404
    assert not Player.objects.exists()


def test_the_roster_is_paged_and_searched_by_name(dora: Any) -> None:
    club = _club(dora, *(f"Member {i:03d}" for i in range(1, 61)), "Pia Ruud")
    client, url = client_for(dora), _url(club)
    first = client.get(url).content.decode()
    roster = first.split('id="roster-heading"')[1].split("</section>")[0]
    assert "Member 001" in roster and "Member 050" in roster and "Member 051" not in roster
    assert "61 players" in roster and "?roster-page=2" in roster
    second = client.get(url, {"roster-page": "2"}).content.decode().split('id="roster-heading"')[1]
    assert "Member 051" in second.split("</section>")[0] and "Pia Ruud" in second.split("</section>")[0]
    found = client.get(url, {"roster-find": "ruud"}).content.decode().split('id="roster-heading"')[1]
    found = found.split("</section>")[0]
    assert "Pia Ruud" in found and "Member 001" not in found and 'value="ruud"' in found
    none = client.get(url, {"roster-find": "nobody"}).content.decode()
    assert "No roster player is named like “nobody”." in none


def test_the_club_page_costs_the_same_statements_for_5_or_120_roster_players(dora: Any) -> None:
    small = _club(dora, *(f"Member {i:03d}" for i in range(5)))
    big = services.create_club(actor=Actor(user=dora), name="Big BK")
    for i in range(120):
        services.add_to_roster(big, actor=Actor(user=dora), name=f"Player {i:03d}", new_player=True)
    client = client_for(dora)
    counts = []
    for club in (small, big):
        client.get(_url(club))  # the session and the like, read once
        with CaptureQueriesContext(connection) as captured:
            assert client.get(_url(club)).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_the_roster_shows_ratings_only_when_the_club_has_a_rating_list(dora: Any) -> None:
    club = _club(dora, "Pia Ruud")
    client = client_for(dora)
    assert 'data-label="Rating">new (1500)</td>' in client.get(_url(club)).content.decode()
    Club.objects.filter(pk=club.pk).update(rating_list=None)
    roster = client.get(_url(club)).content.decode().split('id="roster-heading"')[1].split("</section>")[0]
    assert "Pia Ruud" in roster and 'data-label="Rating"' not in roster and ">Rating</th>" not in roster
