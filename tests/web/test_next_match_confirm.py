""" "Your next match" puts first a result waiting for the player's own confirmation (a round's pairing, a playoff's
match): "Confirm or dispute your result against X (round N): Open it", linking to that match's entry page, then the
next match as before. The player who entered the result, waiting for the other's answer, is asked nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from tests.tournaments.services.support import enter_win, link, play_round
from tests.web.test_entry_pages import Phone
from tests.web.test_playoff_pages import _entered_by_side_0 as entered_by_side_0
from tests.web.test_playoff_phones import name_of, next_page, phone_of
from tournaments import services
from tournaments.models import Division, Pairing

pytestmark = pytest.mark.django_db


def test_a_result_waiting_for_his_confirmation_comes_first_with_a_link_to_its_entry_page(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    pairing = Pairing.objects.filter(division=division, match__isnull=False).order_by("pk").first()
    assert pairing is not None and pairing.match is not None and pairing.entry_a and pairing.entry_b
    enter_win(pairing, pairing.entry_a, actor=link(pairing.match, 0))
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.AWAITING and pairing.confirmation_side == 1

    asked = next_page(phone_of(division, pairing.entry_b.pk))
    said = f"Confirm or dispute your result against {name_of(pairing.entry_a.pk)} (round 1):"
    assert said in asked
    assert f'<a href="/play/match/{pairing.match_id}/">Open it</a>' in asked
    entered = next_page(phone_of(division, pairing.entry_a.pk))
    assert "Confirm or dispute" not in entered  # he entered it: the opponent is the one asked


def test_a_phone_with_his_earlier_link_takes_the_link_of_the_result_to_confirm_in_one_tap(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """He played round 2 without opening its link: "Open it" went to a page his phone could not open (403, "open
    your entry link again"); it takes the link, as "Enter this match" does, and opens the result to confirm."""
    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1, as_director)
    services.pair_next_round(division, actor=as_director)
    second = Pairing.objects.filter(division=division, round__number=2).order_by("pk").first()
    assert second is not None and second.match is not None and second.entry_a and second.entry_b
    enter_win(second, second.entry_a, actor=link(second.match, 0))
    phone = phone_of(division, second.entry_b.pk)  # his round-1 link only

    asked = next_page(phone)
    assert f'<form method="post" action="/play/pairings/{second.pk}/enter/"' in asked
    assert phone.client.get(f"/play/match/{second.match_id}/").status_code == 403, "the page alone refuses him"
    response = phone.client.post(f"/play/pairings/{second.pk}/enter/")
    assert (response.status_code, response["Location"]) == (303, f"/play/match/{second.match_id}/")
    page = phone.client.get(f"/play/match/{second.match_id}/")
    assert page.status_code == 200 and "Is it right?" in page.content.decode()


def test_a_playoff_result_waiting_for_his_confirmation_is_asked_too(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division, playoff, match, _phones = entered_by_side_0(division_of, as_director)
    services.sync_division(division.pk)
    playoff.refresh_from_db()
    assert (playoff.final_confirmation, playoff.final_confirmation_side) == ("awaiting", 1)
    asked = next_page(Phone(match, 1))
    said = f"Confirm or dispute your result against {match.player1.display_name} (playoff for the tie at 2nd place):"
    assert said in asked and f'<a href="/play/match/{match.pk}/">Open it</a>' in asked
    assert "Confirm or dispute" not in next_page(Phone(match, 0))


def test_a_director_who_entered_a_result_on_the_match_s_entry_page_is_led_back_to_the_directors_pages(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The entry page a director enters a result on said "The result is recorded." and offered only the public match
    page: a dead end for him. A player's phone is not offered the directors' pages."""
    from django.test import Client

    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    pairing = Pairing.objects.filter(division=division, match__isnull=False).order_by("pk").first()
    assert pairing is not None and pairing.match is not None and pairing.entry_a
    enter_win(pairing, pairing.entry_a, actor=as_director)
    director = Client()
    director.force_login(as_director.user)
    page = director.get(f"/play/match/{pairing.match_id}/").content.decode()
    manage = f"/manage/{division.event.slug}/{division.slug}/match/{pairing.key}/"
    assert f'href="{manage}">Back to the match in the directors\' pages</a>' in page
    assert manage not in Phone(pairing.match, 0).page()
