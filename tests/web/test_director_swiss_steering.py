"""The director steers a Swiss from its page: pairs the current round again when a correction changed its score
groups (the page offers it at once), changes the number of rounds, pairs with rematches only when he ticks it, and
ends the Swiss now."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q

from common.actor import Actor
from games import services as games
from tests.web.director.support import (
    check_html,
    client_for,
    pairing_at,
    swiss_division,
    text_of,
    win,
)
from tests.web.test_entry_pages import Phone
from tournaments import services
from tournaments.models import Division, Pairing, Round, Standing

pytestmark = pytest.mark.django_db


def play_round(division: Division, number: int, actor: Actor) -> None:
    for p in Pairing.objects.filter(division=division, round__number=number, status=Pairing.Status.READY):
        assert p.match is not None
        win(p.match, side=0, actor=actor)
    services.sync_division(division.pk)


def test_the_director_steers_a_swiss_from_its_page(director: Any) -> None:
    actor = Actor(user=director)
    division = swiss_division(director, 8)
    client, url = client_for(director), f"/manage/{division.event.slug}/{division.slug}/"
    play_round(division, 1, actor)
    assert client.post(url, {"action": "pair-next"}).status_code == 302
    page = text_of(client.get(url))
    assert "Steer the Swiss" in page and 'id="repair-offer"' not in page
    check_html(page)

    # Table 1 of round 1 was misread: the other player won it 3-0. Round 2 has not started: the page offers at once
    # to pair it again.
    wrong = pairing_at(division, 1, 1)
    assert wrong.match_id is not None
    for game in (1, 2):
        games.replace_game_result(
            wrong.match_id, actor=actor, game_number=game, winner=1, kind=game, cube_value=1, reason="misread"
        )
    services.sync_division(division.pk)
    page = text_of(client.get(url))
    assert 'id="repair-offer"' in page and "its score groups are no longer those it was paired on" in page
    check_html(page)
    before = set(Pairing.objects.filter(division=division, round__number=2).values_list("entry_a", "entry_b"))
    answer = client.post(url, {"action": "repair"})
    assert answer.status_code == 302
    page = text_of(client.get(url))
    assert "Round 2 is paired again from the results as they are now." in page and 'id="repair-offer"' not in page
    assert set(Pairing.objects.filter(division=division, round__number=2).values_list("entry_a", "entry_b")) != before

    refused = client.post(url, {"action": "swiss-rounds", "swiss-rounds-rounds": "1"})
    assert refused.status_code == 400 and "it plays at least 2" in text_of(refused)
    assert client.post(url, {"action": "swiss-rounds", "swiss-rounds-rounds": "4"}).status_code == 302
    assert Division.objects.get(pk=division.pk).rounds_planned == 4

    assert client.post(url, {"action": "end-swiss"}).status_code == 302
    page = text_of(client.get(url))
    assert "Open is over after 1 rounds." in page
    ended = Division.objects.get(pk=division.pk)
    assert ended.status == Division.Status.FINISHED and ended.rounds_planned == 1
    assert not Round.objects.filter(division=division, number=2).exists()
    check_html(page)


def test_pairing_with_rematches_needs_the_box_ticked(director: Any) -> None:
    actor = Actor(user=director)
    division = swiss_division(director, 4)
    services.set_swiss_rounds(division, actor=actor, rounds=4)
    client, url = client_for(director), f"/manage/{division.event.slug}/{division.slug}/"
    for number in (1, 2, 3):
        play_round(division, number, actor)
        if number < 3:
            services.pair_next_round(division, actor=actor)
    refused = client.post(url, {"action": "pair-next"})
    assert refused.status_code == 409
    assert "The fewest rematches a pairing needs is 2: pair with rematches allowed" in text_of(refused)
    assert not Round.objects.filter(division=division, number=4).exists()
    answer = client.post(url, {"action": "pair-next", "pair-next-allow_rematches": "on"})
    assert answer.status_code == 302
    assert "Round 4 is paired." in text_of(client.get(url))
    reasons = Pairing.objects.filter(division=division, round__number=4).values_list("reason", flat=True)
    assert len(reasons) == 2 and all(r.startswith("rematch (no rematch-free pairing exists)") for r in reasons)


def test_pair_the_next_round_is_not_offered_once_every_round_is_paired(director: Any) -> None:
    """A Swiss of 3 rounds: once round 3 is paired the page says what is left (its results) instead of offering a
    fourth round; once they are in, the Swiss is over and nothing is offered to pair."""
    actor = Actor(user=director)
    division = swiss_division(director, 8)
    client, url = client_for(director), f"/manage/{division.event.slug}/{division.slug}/"
    for number in (1, 2):
        play_round(division, number, actor)
        assert "Pair the next round" in text_of(client.get(url))
        assert client.post(url, {"action": "pair-next"}).status_code == 302
    page = text_of(client.get(url))
    assert "3 of 3 rounds paired" in page and "Pair the next round" not in page
    assert "Every round is paired: the Swiss is over once the results of round 3 are in." in page
    check_html(page)
    play_round(division, 3, actor)
    page = text_of(client.get(url))
    assert "Pair the next round" not in page and "rounds paired" not in page


def test_after_the_division_is_over_the_next_match_page_gives_the_players_place(director: Any) -> None:
    actor = Actor(user=director)
    division = swiss_division(director, 8)
    client, url = client_for(director), f"/manage/{division.event.slug}/{division.slug}/"
    for number in (1, 2, 3):
        play_round(division, number, actor)
        if number < 3:
            assert client.post(url, {"action": "pair-next"}).status_code == 302
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    top = Standing.objects.filter(division=division).order_by("-after_round", "rank").select_related("entry").first()
    assert top is not None and top.rank == 1
    last = (
        Pairing.objects.filter(division=division, round__number=3)
        .filter(Q(entry_a=top.entry) | Q(entry_b=top.entry))
        .get()
    )
    assert last.match is not None
    phone = Phone(last.match, 0 if last.entry_a_id == top.entry_id else 1)
    html = phone.client.get("/play/pairings/next/").content.decode()
    assert "Open is over: you finished 1st." in html
    assert "No next match yet" not in html
