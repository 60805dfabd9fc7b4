"""Playoffs for ties through the API (``.../playoffs/``): anyone who sees the division reads its ties that matter
and its playoffs (no entry-link secret in them); its directors order one and cancel an unplayed one, with the
service's refusals as JSON errors that store nothing. Each playoff match says its result's confirmation; a director
(or the player asked) confirms it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import games.services
from common.actor import Actor
from games.access import new_entry_token
from games.models import Match
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url, link_client
from tests.tournaments.services.support import link, snapshot
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, swiss_with_a_paid_tie, win
from tests.web.test_playoff_phones import next_page, phone_of
from tournaments import services
from tournaments.models import Division, Entry, Playoff
from tournaments.selectors.playoffs import division_playoffs

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied(division_of: Callable[..., Division], as_director: Actor) -> Division:
    return swiss_with_a_paid_tie(division_of, as_director)


def test_the_ties_are_read_a_playoff_ordered_played_and_said(
    tied: Division, director: Any, anon: APIClient, as_director: Actor
) -> None:
    url = division_url(tied, "playoffs/")
    body = anon.get(url).json()
    assert body["division"] == tied.slug and body["rule"].startswith("A three-player playoff is a stepladder")
    (tie,) = body["ties"]
    assert (tie["kind"], tie["place"], tie["last"], tie["orderable"], tie["playoff"]) == ("places", 2, 3, True, None)
    assert body["playoffs"] == []

    answer = logged_in(director).post(url, {"entries": tie["entries"][::-1], "length": 3}, format="json")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert (made["kind"], made["place"], made["length"], made["status"]) == ("places", 2, 3, "ordered")
    assert made["entries"] == tie["entries"] and made["names"] == tie["names"] and made["order"] == []
    (match,) = made["matches"]
    assert match["players"] == tie["names"] and match["score"] == [0, 0] and match["winner"] is None
    read = anon.get(url)
    assert read.json()["ties"][0]["playoff"] == made["id"] and read.json()["playoffs"] == [made]
    assert "/play/" not in read.content.decode()

    win(Playoff.objects.get().final_match, tie["entries"][1], as_director)
    (played,) = anon.get(url).json()["playoffs"]
    assert played["status"] == "finished" and played["order"] == tie["entries"][::-1]
    loser, winner = tie["names"]
    assert played["words"] == f"Tie at 2nd settled by a playoff: {winner} beat {loser} 3-0."
    assert anon.get(url).json()["ties"] == []
    rows = anon.get(division_url(tied, "standings/")).json()["rows"]
    assert [r["name"] for r in rows if r["rank"] in (2, 3)] == [winner, loser]


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"entries": [1]}, "entries"),
        ({"entries": [1, 2, 3, 4]}, "entries"),
        ({"entries": ["a", "b"]}, "entries"),
        ({"entries": [1, 2], "length": 0}, "length"),
        ({"entries": [1, 2], "length": "3"}, "length"),
        ({}, "entries"),
    ],
)
def test_fields_are_strict(tied: Division, director: Any, sent: dict[str, Any], field: str) -> None:
    before = snapshot()
    answer = logged_in(director).post(division_url(tied, "playoffs/"), sent, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_input"
    assert field in answer.json()["fields"], answer.json()
    assert snapshot() == before


def test_refusals_are_json_errors_that_store_nothing(
    tied: Division, director: Any, anon: APIClient, stranger: Any
) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    before = snapshot()
    assert anon.post(url, {"entries": entries}, format="json").status_code == 401
    forbidden = logged_in(stranger).post(url, {"entries": entries}, format="json")
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "forbidden"
    wrong = logged_in(director).post(url, {"entries": [entries[0], entries[0] + 100]}, format="json")
    assert wrong.status_code == 400 and "are not the players of one tie that matters" in wrong.json()["message"]
    assert snapshot() == before and not Playoff.objects.exists()
    logged_in(director).post(url, {"entries": entries}, format="json")
    again = logged_in(director).post(url, {"entries": entries}, format="json")
    assert again.status_code == 409 and "has a playoff already" in again.json()["message"]


def test_a_director_cancels_an_unplayed_playoff(tied: Division, director: Any, anon: APIClient) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    made = logged_in(director).post(url, {"entries": entries}, format="json").json()
    assert anon.delete(f"{url}{made['id']}/").status_code == 401
    missing = logged_in(director).delete(f"{url}{made['id'] + 1}/")
    assert missing.status_code == 404 and f"there is no playoff {made['id'] + 1} in" in missing.json()["message"]
    gone = logged_in(director).delete(f"{url}{made['id']}/")
    assert gone.status_code == 204 and not Playoff.objects.exists()
    assert anon.get(url).json()["ties"][0]["playoff"] is None


def test_a_playoff_matchs_confirmation_is_read_and_a_director_confirms_it(
    tied: Division, director: Any, anon: APIClient, stranger: Any
) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    made = logged_in(director).post(url, {"entries": entries}, format="json").json()
    (shown,) = made["matches"]
    assert (shown["confirmation"], shown["waiting_for"], shown["dispute"]) == ("", "", "")
    match = Match.objects.get(pk=shown["match"])
    games.services.record_game_result(match.pk, actor=link(match, 0), winner=0, kind=1, cube_value=1, expected_seq=0)
    services.sync_division(tied.pk)
    (playoff,) = anon.get(url).json()["playoffs"]
    (shown,) = playoff["matches"]
    asked = match.player2.display_name
    assert (shown["confirmation"], shown["waiting_for"], playoff["status"]) == ("awaiting", asked, "ordered")
    assert shown["words"].endswith(f", waiting for {asked}'s confirmation")

    confirm = f"{url}{playoff['id']}/matches/{match.pk}/confirm/"
    before = snapshot()
    assert anon.post(confirm).status_code == 401
    forbidden = logged_in(stranger).post(confirm)
    assert forbidden.status_code == 403 and f"only {asked} or a director can answer" in forbidden.json()["message"]
    missing = logged_in(director).post(f"{url}{playoff['id']}/matches/{match.pk + 100}/confirm/")
    assert missing.status_code == 404 and f"has no match {match.pk + 100}" in missing.json()["message"]
    assert snapshot() == before
    done = logged_in(director).post(confirm)
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "finished" and done.json()["matches"][0]["confirmation"] == "confirmed"
    again = logged_in(director).post(confirm)
    assert again.status_code == 409 and "not waiting for a confirmation" in again.json()["message"]


def test_a_disputed_playoff_match_is_in_the_directors_queue(tied: Division, director: Any, anon: APIClient) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    made = logged_in(director).post(url, {"entries": entries}, format="json").json()
    match = Match.objects.get(pk=made["matches"][0]["match"])
    queue = f"/api/events/{tied.event.slug}/queue/"
    assert logged_in(director).get(queue).json() == []
    games.services.record_game_result(match.pk, actor=link(match, 0), winner=0, kind=1, cube_value=1, expected_seq=0)
    services.sync_division(tied.pk)
    [waiting] = logged_in(director).get(queue).json()
    assert (waiting["kind"], waiting["confirmation"], waiting["pairing"]) == ("playoff", "awaiting", None)
    assert waiting["playoff"]["match"]["waiting_for"] == match.player2.display_name

    services.dispute_playoff_result(match.pk, actor=link(match, 1), reason="I won the last game")
    [item] = logged_in(director).get(queue).json()
    assert (item["kind"], item["division"], item["confirmation"], item["pairing"]) == (
        "playoff",
        tied.slug,
        "disputed",
        None,
    )
    assert item["dispute"] == "I won the last game" and item["updated_at"]
    playoff = item["playoff"]
    assert (playoff["id"], playoff["kind"], playoff["place"], playoff["stage"]) == (made["id"], "places", 2, "")
    assert playoff["match"]["match"] == match.pk and playoff["match"]["confirmation"] == "disputed"
    assert playoff["match"]["score"] == [1, 0] and playoff["match"]["dispute"] == "I won the last game"
    assert logged_in(director).post(f"{url}{made['id']}/matches/{match.pk}/confirm/").status_code == 200
    assert logged_in(director).get(queue).json() == []


def test_the_event_and_the_division_say_a_playoff_is_to_be_played_while_it_is(
    division_of: Callable[..., Division], anon: APIClient, as_director: Actor, django_assert_max_num_queries: Any
) -> None:
    """The rounds are over (status finished, kept as it was) but a playoff for the tie at 1st is ordered: the event
    (in the list and on its own), its divisions' summaries and the division say ``playoff_to_play``, read in the
    statements that read them; once the playoff is played, none does."""
    division = round_robin_cycle(division_of, as_director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    event_url = f"/api/events/{division.event.slug}/"

    def said() -> list[tuple[str, bool]]:
        (listed,) = [e for e in anon.get("/api/events/").json()["results"] if e["slug"] == division.event.slug]
        event = anon.get(event_url).json()
        (summary,) = event["divisions"]
        detail = anon.get(division_url(division)).json()
        return [(body["status"], body["playoff_to_play"]) for body in (listed, event, summary, detail)]

    assert said() == [("finished", False)] * 4
    playoff = services.order_playoff(division, actor=as_director, entries=[p3, p1, p2])
    assert said() == [("finished", True)] * 4
    with django_assert_max_num_queries(3):  # the event, its divisions (the flag in the same statement)
        anon.get(event_url)
    with django_assert_max_num_queries(2):
        anon.get(division_url(division))

    win(playoff.first_match, p2, as_director)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, as_director)
    assert said() == [("finished", False)] * 4


def test_a_players_next_match_says_his_shared_place_and_his_playoff_match_as_the_page_does(
    tied: Division, anon: APIClient, as_director: Actor
) -> None:
    """The API's next match reads what the page "Your next match" reads (``selectors.next_for``) and says it in
    the page's words: a place shared once the division is over, then, the playoff ordered, his playoff match (its
    id, his entry, his side and opponent); his entry link sees the same."""
    a, b = (int(p) for p in division_playoffs(tied).ties[0].tie.players)
    entry = Entry.objects.select_related("player").get(pk=a)
    url = f"/api/players/{entry.player_id}/next-match/"
    over = anon.get(url).json()
    assert (over["place"], over["pairing"], over["playoff"], over["side"]) == ("2-3", None, None, None)
    assert over["words"].startswith(f"{tied.name} is over: you share 2nd-3rd place")
    assert over["words"] in next_page(phone_of(tied, a)), "the page's words"
    assert over["event"] == {"slug": tied.event.slug, "name": tied.event.name}
    assert over["division"] == {"slug": tied.slug, "name": tied.name}

    playoff = services.order_playoff(tied, actor=as_director, entries=[a, b])
    match = Match.objects.select_related("player1", "player2").get(pk=playoff.final_match_id)
    side = 0 if match.player1_id == entry.player_id else 1
    other = match.player2 if side == 0 else match.player1
    turn = anon.get(url).json()
    assert turn["playoff"] == {
        "id": playoff.pk, "kind": "places", "place": 2, "entry": a, "match": match.pk, "side": side,
        "opponent": {"id": other.pk, "name": other.display_name}, "words": "Playoff for the tie at 2nd place",
    }  # fmt: skip
    assert (turn["side"], turn["pairing"], turn["place"], turn["words"]) == (side, None, None, "")
    assert turn["division"] == over["division"]
    assert link_client(new_entry_token(match, side)).get("/api/entry-links/next-match/").json() == turn


def test_a_stepladders_top_player_is_told_whose_winner_he_plays_as_the_page_tells_him(
    division_of: Callable[..., Division], anon: APIClient, as_director: Actor
) -> None:
    division = round_robin_cycle(division_of, as_director)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    playoff = services.order_playoff(division, actor=as_director, entries=[p1, p2, p3])
    first = Match.objects.select_related("player1", "player2").get(pk=playoff.first_match_id)
    top = Entry.objects.get(pk=p1)
    waits = anon.get(f"/api/players/{top.player_id}/next-match/").json()
    assert waits["playoff"]["match"] is None and waits["playoff"]["side"] is None and waits["side"] is None
    assert waits["playoff"]["entry"] == p1 and waits["playoff"]["words"] == "Playoff for the tie at 1st place"
    names = f"{first.player1.display_name} v {first.player2.display_name}"
    said = f"Playoff for the tie at 1st place, {division.name}: you play the final against the winner of {names}."
    assert waits["words"] == said and said in next_page(phone_of(division, p1))
