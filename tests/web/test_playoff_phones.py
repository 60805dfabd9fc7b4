"""Playoffs on the players' phones: "Your next match" says a shared place as the standings do, shows the playoff
match a tied player is to play (with "Enter this match"), the stepladder's final to its first match's winner, and
the settled place once the playoff is over; a playoff match's entry page names its event, division and tie. The
director hands a playoff's entry links out on printed slips with QR codes; his pages show a link as text to copy,
never as a link whose click would bind it to his own browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Q
from django.test import Client

from common.actor import Actor
from games.access import token_text
from games.models import EntryToken, Match
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, swiss_with_a_paid_tie, win
from tests.web.test_entry_pages import Phone
from tournaments import services
from tournaments.models import Division, Entry, Pairing
from tournaments.selectors.playoffs import division_playoffs

pytestmark = pytest.mark.django_db


def first_match_of(division: Division, entry_id: int) -> tuple[Match, int]:
    """The entry's player's first match in the division, and his side of it."""
    player = Entry.objects.get(pk=entry_id).player_id
    pairing = (
        Pairing.objects.filter(Q(entry_a__player_id=player) | Q(entry_b__player_id=player))
        .filter(division=division, match__isnull=False)
        .order_by("id")
        .first()
    )
    assert pairing is not None and pairing.match_id is not None
    match = Match.objects.get(pk=pairing.match_id)
    return match, 0 if match.player1_id == player else 1


def phone_of(division: Division, entry_id: int) -> Phone:
    """The phone of the entry's player: it opened his entry link of his first round's match."""
    return Phone(*first_match_of(division, entry_id))


def next_page(phone: Phone) -> str:
    response = phone.client.get("/play/pairings/next/")
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def name_of(entry_id: int) -> str:
    return Entry.objects.select_related("player").get(pk=entry_id).player.display_name


def test_players_who_share_a_place_are_told_the_shared_place_as_the_standings_say_it(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    for entry in (a, b):
        html = next_page(phone_of(division, entry))
        assert f"{division.name} is over: you share 2nd-3rd place, and your prize is 20.00." in html
        assert "you finished 2nd" not in html


def test_a_tied_player_is_shown_his_playoff_match_and_enters_it_from_his_phone(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b])
    match = Match.objects.get(pk=playoff.final_match_id)
    phone = phone_of(division, a)
    html = next_page(phone)
    assert "is over" not in html
    assert "Playoff for the tie at 2nd place" in html and name_of(b) in html
    assert f"{division.event.name} · {division.name}" in html
    enter = f"/play/pairings/playoff/{match.pk}/enter/"
    assert f'action="{enter}"' in html and "Enter this match" in html

    assert Client().post(enter).status_code == 403, "a visitor holding none of the players' links"
    done = phone.client.post(enter)
    assert done.status_code == 303 and done["Location"] == f"/play/match/{match.pk}/"
    page = phone.client.get(done["Location"]).content.decode()
    assert "Playoff for the tie at 2nd place" in page
    assert f"{division.event.name} · {division.name}" in page
    assert f'href="/play/match/{match.pk}/"' in next_page(phone), "the phone holds its link now: back to it"

    win(match, b, as_director)
    assert f"{division.name} is over: you finished 3rd" in next_page(phone)
    assert f"{division.name} is over: you finished 2nd" in next_page(phone_of(division, b))


def test_a_stepladders_first_match_winner_is_shown_the_final_and_the_places_once_settled(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_robin_cycle(division_of, as_director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    phones = {entry: phone_of(division, entry) for entry in (p1, p2, p3)}
    assert f"{division.name} is over: you share 1st-3rd place." in next_page(phones[p1])
    playoff = services.order_playoff(division, actor=as_director, entries=[p1, p2, p3])
    first = Match.objects.get(pk=playoff.first_match_id)
    html = next_page(phones[p3])
    assert "Playoff for the tie at 1st place, first match" in html and name_of(p2) in html
    waiting = next_page(phones[p1])
    assert "is over" not in waiting and "you play the final against the winner of" in waiting

    entered = phones[p3].client.post(f"/play/pairings/playoff/{first.pk}/enter/")
    assert entered.status_code == 303
    entry_page = phones[p3].client.get(entered["Location"]).content.decode()
    assert "Playoff for the tie at 1st place, first match" in entry_page
    win(first, p3, as_director)
    playoff.refresh_from_db()
    html = next_page(phones[p3])
    assert "Playoff for the tie at 1st place, final" in html and name_of(p1) in html
    assert f'action="/play/pairings/playoff/{playoff.final_match_id}/enter/"' in html
    assert "you finished" not in html
    top = next_page(phones[p1])
    assert "Playoff for the tie at 1st place, final" in top and name_of(p3) in top
    assert "so you finish 3rd by the stepladder rule" in next_page(phones[p2]), "he lost the first match"
    final = Match.objects.get(pk=playoff.final_match_id)
    done = phones[p3].client.post(f"/play/pairings/playoff/{final.pk}/enter/")
    assert done.status_code == 303
    page_html = phones[p3].client.get(done["Location"]).content.decode()
    assert "Playoff for the tie at 1st place, final" in page_html

    win(final, p3, as_director)
    assert f"{division.name} is over: you finished 1st, after a playoff." in next_page(phones[p3])
    assert f"{division.name} is over: you finished 2nd, after a playoff." in next_page(phones[p1])
    assert f"{division.name} is over: you finished 3rd, after a playoff." in next_page(phones[p2])


# -- the director hands out a playoff's entry links -----------------------------------------------------------------


def test_the_director_prints_playoff_slips_with_qr_codes_and_sees_links_as_text_he_cannot_open(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=as_director, entries=[a, b])
    match = Match.objects.get(pk=playoff.final_match_id)
    base = f"/manage/{division.event.slug}/{division.slug}/"
    slips_url = f"{base}playoff/{match.pk}/slips/"
    client = Client()
    client.force_login(director)
    links = [f"/play/{token_text(t)}/" for t in EntryToken.objects.filter(match=match).order_by("side")]
    for url in (base, f"{base}playoff/{match.pk}/"):
        html = client.get(url).content.decode()
        assert f'href="{slips_url}"' in html, "print the slips from the division's page and the match's page"
        for link in links:
            assert f'<code class="entry-link">http://testserver{link}</code>' in html, "the link as text to copy"
            assert f'href="{link}"' not in html and f'href="http://testserver{link}"' not in html, "no click claims it"

    html = client.get(slips_url).content.decode()
    assert html.count('class="slip"') == 2 and html.count("<svg") == 2, "a slip with a QR code per player"
    assert "Playoff for the tie at 2nd place" in html and f"{division.event.name} · {division.name}" in html
    assert f"against {name_of(b)}" in html and f"against {name_of(a)}" in html
    for link in links:
        assert f"<code>http://testserver{link}</code>" in html and f'href="http://testserver{link}"' not in html
    assert Client().get(slips_url).status_code == 302  # to the login page
    assert client.get(f"{base}playoff/{match.pk + 1000}/slips/").status_code == 404

    done = client.post(f"{base}playoff/{match.pk}/", {"action": "new-link", "new-link-side": "0"}, follow=True)
    html = done.content.decode()
    new = f"/play/{token_text(EntryToken.objects.filter(match=match, side=0, revoked_at__isnull=True).get())}/"
    assert f'<code class="entry-link">http://testserver{new}</code>' in html and "Print his entry slip again" in html
    assert f'href="http://testserver{new}"' not in html


def test_a_rounds_entry_slips_show_the_qr_code_without_a_link_that_opens_it(
    division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    client = Client()
    client.force_login(director)
    html = client.get(f"/manage/{division.event.slug}/{division.slug}/round/swiss/1/slips/").content.decode()
    assert html.count("<svg") == 4 and 'href="http://testserver/play/' not in html
