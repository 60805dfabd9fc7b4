"""The directors' queue on the event's dashboard ("Results waiting for you") holds every result waiting for a
confirmation or disputed: a round's pairing's, and a playoff match's (a stepladder's says which match), which the
director confirms there or opens on the playoff match's own page. Disputed ones come first, then those waiting for a
confirmation, each oldest first; the queue costs two queries whatever it holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import games.services
from common.actor import Actor
from games.models import Match
from tests.tournaments.services.support import link
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, swiss_with_a_paid_tie
from tests.web.director.support import client_for
from tournaments import services
from tournaments.models import Division, Pairing, Playoff
from tournaments.selectors import director_queue
from tournaments.selectors.playoffs import division_playoffs

pytestmark = pytest.mark.django_db


def entered(match_id: int, *, side: int) -> Match:
    """The player of ``side`` enters his own win of the 1-point match from the scoresheet."""
    match = Match.objects.select_related("player1", "player2").get(pk=match_id)
    games.services.record_game_result(
        match.pk, actor=link(match, side), winner=side, kind=1, cube_value=1, expected_seq=match.seq
    )
    return match


def with_a_playoff(
    division_of: Callable[..., Division], director: Actor, *, pairing_first: bool
) -> tuple[Division, Match, Pairing]:
    """An event with two divisions: a started Swiss, a result of its first round entered by side 0, and a finished
    Swiss with a paid tie, its playoff ordered and its match's result entered by side 0; the pairing's result
    entered first, or last."""
    other = division_of("swiss", 4, name="Novice", entry_mode="scoresheet", match_length=1)
    services.start_division(other, actor=director)
    pairing = Pairing.objects.get(division=other, round__number=1, board=1)
    division = swiss_with_a_paid_tie(division_of, director, event=other.event)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=director, entries=[a, b])
    assert playoff.final_match_id is not None
    if pairing_first:
        awaiting(pairing)
    match = entered(playoff.final_match_id, side=0)
    services.sync_division(division.pk)
    if not pairing_first:
        awaiting(pairing)
    return division, match, pairing


def awaiting(pairing: Pairing) -> Pairing:
    """The pairing's result entered by side 0, waiting for side 1."""
    entered(pairing.match_id, side=0)
    services.sync_division(pairing.division_id)
    pairing.refresh_from_db()
    assert pairing.confirmation == Pairing.Confirmation.AWAITING
    return pairing


def queue_of(director: Any, division: Division) -> str:
    html = client_for(director).get(f"/manage/{division.event.slug}/").content.decode()
    return html.split('id="queue-heading"', 1)[1].split("</section>", 1)[0]


def test_a_disputed_playoff_match_heads_the_queue_and_links_its_page(
    division_of: Callable[..., Division], as_director: Actor, dora: Any
) -> None:
    division, match, pairing = with_a_playoff(division_of, as_director, pairing_first=True)  # waiting longer
    services.dispute_playoff_result(match.pk, actor=link(match, 1), reason="I won the last game")

    queue = queue_of(dora, division)
    page = f'href="/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"'
    assert page in queue
    assert "Playoff for the tie at 2nd place" in queue
    assert "disputed" in queue and "I won the last game" in queue
    assert queue.index(page) < queue.index(f"/match/{pairing.key}/"), "a dispute first"


def test_a_playoff_match_waiting_for_its_confirmation_waits_in_turn_oldest_first(
    division_of: Callable[..., Division], as_director: Actor, dora: Any
) -> None:
    division, match, pairing = with_a_playoff(division_of, as_director, pairing_first=False)

    queue = queue_of(dora, division)
    page = f'href="/manage/{division.event.slug}/{division.slug}/playoff/{match.pk}/"'
    assert f"awaiting confirmation by {match.player2.display_name}" in queue
    assert queue.index(page) < queue.index(f"/match/{pairing.key}/"), "the playoff's result was entered first"

    services.confirm_playoff_result(match.pk, actor=link(match, 1))
    queue = queue_of(dora, division)
    assert page not in queue and f"/match/{pairing.key}/" in queue


def test_the_queue_costs_two_queries_whatever_it_holds(
    division_of: Callable[..., Division], as_director: Actor, django_assert_num_queries: Any
) -> None:
    division, match, pairing = with_a_playoff(division_of, as_director, pairing_first=True)
    with django_assert_num_queries(2):  # the pairings, the playoffs with their matches and players
        queue = director_queue(division.event)
    assert [(item.kind, item.confirmation) for item in queue] == [("pairing", "awaiting"), ("playoff", "awaiting")]
    assert queue[0].pairing == pairing and queue[1].playoff is not None
    assert queue[1].playoff.match.match_id == match.pk and queue[1].playoff.stage == ""


def test_the_director_confirms_a_disputed_playoff_match_from_the_queue(
    division_of: Callable[..., Division], as_director: Actor, dora: Any, otto: Any
) -> None:
    division, match, pairing = with_a_playoff(division_of, as_director, pairing_first=True)
    services.dispute_playoff_result(match.pk, actor=link(match, 1), reason="I won the last game")
    url = f"/manage/{division.event.slug}/"
    client = client_for(dora)
    assert f'name="target" value="{match.pk}"' in queue_of(dora, division)
    assert 'aria-label="Confirm the result of the playoff for the tie at 2nd place, ' in queue_of(dora, division)
    for target in (str(pairing.match_id), "x"):  # a match of no playoff: an unknown target
        elsewhere = client.post(url, {"action": "confirm-playoff", "target": target})
        assert elsewhere.status_code == 404 and "no longer exists" in elsewhere.content.decode()
    assert client_for(otto).post(url, {"action": "confirm-playoff", "target": str(match.pk)}).status_code == 403
    assert Playoff.objects.get(division=division).final_confirmation == "disputed"

    done = client.post(url, {"action": "confirm-playoff", "target": str(match.pk)})
    assert done.status_code == 302
    playoff = Playoff.objects.get(division=division)
    assert (playoff.final_confirmation, playoff.status) == ("confirmed", "finished")
    queue = queue_of(dora, division)
    assert f"/playoff/{match.pk}/" not in queue and f"/match/{pairing.key}/" in queue


def test_a_stepladders_matches_say_which_they_are(
    division_of: Callable[..., Division], as_director: Actor, dora: Any
) -> None:
    division = round_robin_cycle(division_of, as_director)
    playoff = services.order_playoff(division, actor=as_director, entries=seeds(division, 1, 2, 3))
    assert playoff.first_match_id is not None
    first = entered(playoff.first_match_id, side=0)
    services.sync_division(division.pk)
    [item] = director_queue(division.event)
    assert item.playoff is not None and item.playoff.stage == "first match"
    assert "Playoff for the tie at 1st place, first match" in queue_of(dora, division)

    services.confirm_playoff_result(first.pk, actor=link(first, 1))
    services.sync_division(division.pk)  # the final is made
    playoff.refresh_from_db()
    assert playoff.final_match_id is not None
    entered(playoff.final_match_id, side=1)
    services.sync_division(division.pk)
    [item] = director_queue(division.event)
    assert item.playoff is not None and item.playoff.stage == "final"
    assert item.playoff.match.match_id == playoff.final_match_id


def test_the_queue_follows_the_results_without_a_reload(
    division_of: Callable[..., Division], as_director: Actor, dora: Any
) -> None:
    """The dashboard polls its queue alone, as it polls the tables: a result entered, then disputed, from a phone
    shows within seconds (a director watching the dashboard saw "No result is waiting" until he reloaded)."""
    division = division_of("swiss", 4, name="Novice", entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    pairing = Pairing.objects.get(division=division, round__number=1, board=1)
    director = client_for(dora)
    live = f"/manage/{division.event.slug}/live/results/"
    assert f'hx-get="{live}"' in director.get(f"/manage/{division.event.slug}/").content.decode()
    empty = director.get(live)
    assert empty.status_code == 200 and "No result is waiting for a confirmation" in empty.content.decode()
    assert director.get(live, headers={"if-none-match": empty["ETag"]}).status_code == 304, "nothing changed"

    awaiting(pairing)
    entered_page = director.get(live, headers={"if-none-match": empty["ETag"]})
    assert entered_page.status_code == 200 and entered_page["ETag"] != empty["ETag"]
    waiting_for = Match.objects.select_related("player2").get(pk=pairing.match_id).player2.display_name
    assert f"awaiting confirmation by {waiting_for}" in entered_page.content.decode()

    services.dispute_result(pairing, actor=link(pairing.match_id, 1), reason="I won it")
    disputed = director.get(live, headers={"if-none-match": entered_page["ETag"]})
    assert disputed.status_code == 200 and "I won it" in disputed.content.decode()
