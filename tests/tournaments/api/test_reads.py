"""Public reads: events, divisions, entries, rounds, the pairings (the bracket as slots with their feeds), standings,
rating lists and "your next match"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from games.access import new_entry_token
from games.models import Match
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url, enter_result, link_client, play_round
from tournaments import services
from tournaments.api.serializers.events import BYE_RULE
from tournaments.models import Division, Pairing
from tournaments.tasks import advance_division

pytestmark = pytest.mark.django_db


def test_events_are_listed_newest_first_and_paginated(anon: APIClient, as_director: Actor) -> None:
    for n in range(55):
        services.create_event(actor=as_director, name=f"Club night {n:02}")
    first = anon.get("/api/events/").json()
    assert first["count"] == 55 and len(first["results"]) == 50 and first["next"] and first["previous"] is None
    assert first["results"][0]["name"] == "Club night 54"
    assert set(first["results"][0]) == {
        "slug", "name", "venue", "time_zone", "starts_on", "ends_on", "status", "playoff_to_play", "public",
        "analyse_imported", "rating_list", "points_weight", "club", "created_at",
    }  # fmt: skip
    assert len(anon.get("/api/events/?page_size=10&page=6").json()["results"]) == 5
    assert anon.get("/api/events/?page=9").status_code == 404


def test_an_event_summarises_its_divisions(anon: APIClient, running: Division, as_director: Actor) -> None:
    services.withdraw_entry(running.entries.get(seed=4), actor=as_director, reason="ill")
    answer = anon.get(f"/api/events/{running.event.slug}/")
    assert answer.status_code == 200
    event = answer.json()
    assert (event["name"], event["status"], event["public"]) == ("Club night", "running", True)
    assert event["divisions"] == [
        {
            "slug": running.slug, "name": "swiss 4", "format": "swiss", "match_length": 1, "entry_mode": "scoresheet",
            "status": "running", "playoff_to_play": False, "standings_status": "pending", "entries": 3,
        }
    ]  # fmt: skip


def test_a_division_shows_its_settings_tiebreaks_and_the_seed_of_the_draw(
    anon: APIClient, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 4, seeding="random", draw_seed=12345, round_lengths={"main:final": 3})
    services.start_division(division, actor=as_director)
    answer = anon.get(division_url(division)).json()
    assert answer["draw_seed"] == 12345 and answer["seeding"] == "random" and answer["format"] == "single"
    assert answer["round_lengths"] == {"main:final": 3} and answer["status"] == "running"
    assert answer["tiebreaks"] == ["buchholz", "sonneborn-berger", "points-diff"]
    assert answer["bye_rule"] == BYE_RULE
    assert answer["bye_rule"] == (
        "a bye counts as a match win against a virtual opponent scored 0 for Buchholz and Sonneborn-Berger"
    )
    assert {"standings_status", "standings_error", "results_version", "standings_version"} <= set(answer)


def test_the_standings_error_is_for_directors_only(
    anon: APIClient, running: Division, director: Any, staff: Any, stranger: Any
) -> None:
    advance_division.on_failure(RuntimeError("disk full"), "task-id", (running.pk,), {}, None)
    assert anon.get(division_url(running)).json()["standings_error"] is None
    assert logged_in(stranger).get(division_url(running)).json()["standings_error"] is None
    for user in (director, staff):
        seen = logged_in(user).get(division_url(running)).json()
        assert (seen["standings_status"], seen["standings_error"]) == ("failed", "RuntimeError: disk full")


def test_entries_in_seed_order(anon: APIClient, running: Division, as_director: Actor) -> None:
    late = services.register_player(running, actor=as_director, name="Latecomer", country="se")
    entries = anon.get(division_url(running, "entries/")).json()
    assert [e["name"] for e in entries] == ["P01", "P02", "P03", "P04", "Latecomer"]
    assert entries[0] == {
        "id": running.entries.get(seed=1).pk, "player": running.entries.get(seed=1).player_id, "name": "P01",
        "seed": 1, "rating": 2000.0, "status": "registered", "late": False, "place": "", "cap_override": None,
    }  # fmt: skip
    assert entries[-1]["id"] == late.pk and entries[-1]["late"] is True and entries[-1]["seed"] == 5


def test_rounds_and_pairings_of_a_swiss(anon: APIClient, running: Division) -> None:
    rounds = anon.get(division_url(running, "rounds/")).json()
    assert [(r["bracket"], r["number"], r["length"]) for r in rounds] == [("swiss", 1, 1)]
    pairings = anon.get(division_url(running, "pairings/")).json()["results"]
    assert len(pairings) == 2
    first = pairings[0]
    p01 = running.entries.get(seed=1)
    assert first["a"] == {"entry": p01.pk, "player": p01.player_id, "name": "P01", "seed": 1}
    assert (first["key"], first["bracket"], first["round"], first["board"]) == ("swiss-1-1", "swiss", 1, 1)
    assert first["round_name"] == "Round 1"
    assert (first["table"], first["table_name"]) == (1, "Table 1") and first["called_at"]
    assert first["b"]["seed"] == 3 and first["status"] == "ready" and first["score"] == [0, 0]
    assert first["match"] == Pairing.objects.get(pk=first["id"]).match_id and first["winner"] is None
    assert first["reason"] and first["confirmation"] == "" and first["decision"] == ""
    assert set(first) == {
        "id", "key", "bracket", "round", "round_name", "board", "table", "table_name", "called_at", "a", "b",
        "source_a", "source_b", "reason", "status", "winner", "score", "length", "match", "confirmation",
        "confirmation_side", "decision", "decision_reason", "swapped_reason", "conditional",
    }  # fmt: skip


def test_a_pairing_shows_its_matchs_result_not_a_stale_copy(anon: APIClient, running: Division) -> None:
    """The result fields are what the match says (``tournaments.core.outcome_of``), as on the pages, even while the
    pairing's row still holds an older copy (a sync held the row when the match ended)."""
    pairing = enter_result(Pairing.objects.get(division=running, key="swiss-1-1"), winner=1)
    Pairing.objects.filter(pk=pairing.pk).update(status=Pairing.Status.READY, winner=None, score_a=0, score_b=0)
    shown = anon.get(division_url(running, "pairings/")).json()["results"][0]
    assert (shown["status"], shown["winner"], shown["score"]) == ("finished", pairing.entry_b_id, [0, 1])
    p01 = pairing.entry_a.player_id
    mine = anon.get(f"/api/players/{p01}/next-match/").json()["pairing"]
    assert (mine["status"], mine["winner"], mine["score"]) == ("finished", pairing.entry_b_id, [0, 1])


def test_pairings_come_a_page_at_a_time_and_by_round(
    anon: APIClient, division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A round robin of 12 has 66 pairings: 50 a page, ``page_size`` up to 200, ``round`` one round's six."""
    division = division_of("round-robin", 12, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    first = anon.get(division_url(division, "pairings/")).json()
    assert first["count"] == 66 and len(first["results"]) == 50 and first["next"] and first["previous"] is None
    last = anon.get(first["next"]).json()
    assert len(last["results"]) == 16 and last["next"] is None
    keys = [p["key"] for p in first["results"] + last["results"]]
    assert keys == [f"round-robin-{r}-{t}" for r in range(1, 12) for t in range(1, 7)]
    assert len(anon.get(division_url(division, "pairings/?page_size=200")).json()["results"]) == 66
    sixth = anon.get(division_url(division, "pairings/?round=6&page_size=3")).json()
    assert sixth["count"] == 6 and [p["round"] for p in sixth["results"]] == [6, 6, 6]
    assert all(p["match"] is not None and p["status"] == "ready" for p in sixth["results"])
    assert anon.get(division_url(division, "pairings/?page=3")).status_code == 404


def test_the_bracket_is_a_list_of_slots_with_their_feeds(
    anon: APIClient, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 5, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    slots = anon.get(division_url(division, "pairings/?bracket=main")).json()["results"]
    assert [s["key"] for s in slots] == [f"main-1-{i}" for i in range(4)] + ["main-2-0", "main-2-1", "main-3-0"]
    by_key = {s["key"]: s for s in slots}
    bye = by_key["main-1-0"]
    assert (bye["source_a"], bye["source_b"]) == ("seed 1", "bye: there is no seed 8 in this field")
    assert bye["status"] == "bye" and bye["b"] is None and bye["winner"] == bye["a"]["entry"]
    assert (by_key["main-1-1"]["a"]["seed"], by_key["main-1-1"]["b"]["seed"]) == (4, 5)
    waiting = by_key["main-2-0"]  # seed 1, who had the bye, waits for the winner of 4 v 5
    assert waiting["status"] == "waiting" and waiting["a"]["seed"] == 1 and waiting["b"] is None
    assert waiting["source_b"] == "winner of Main round 1 match 2" and waiting["match"] is None
    final = by_key["main-3-0"]
    assert final["a"] is None and final["b"] is None and final["status"] == "waiting"
    assert (final["source_a"], final["source_b"]) == (
        "winner of Main semi-final match 1",
        "winner of Main semi-final match 2",
    )
    second = anon.get(division_url(division, "pairings/?round=2")).json()["results"]
    assert [s["key"] for s in second] == ["main-2-0", "main-2-1"]
    assert second[1]["status"] == "ready" and (second[1]["a"]["seed"], second[1]["b"]["seed"]) == (2, 3)
    assert anon.get(division_url(division, "pairings/?bracket=main&round=3")).json()["results"][0]["key"] == "main-3-0"
    assert anon.get(division_url(division, "pairings/?bracket=consolation")).json()["results"] == []


def test_standings_with_their_status(anon: APIClient, running: Division) -> None:
    empty = anon.get(division_url(running, "standings/")).json()
    assert {k: v for k, v in empty.items() if k != "results_version"} == {
        "division": running.slug, "after_round": 0, "standings_status": "current", "standings_version": 0, "rows": [],
    }  # fmt: skip
    play_round(running, 1)  # side a wins: P01 and P02
    pending = anon.get(division_url(running, "standings/")).json()
    assert pending["standings_status"] == "pending" and pending["rows"] == []  # the task runs after the commit
    services.recompute_standings(running.pk)
    table = anon.get(division_url(running, "standings/")).json()
    assert table["standings_status"] == "current" and table["after_round"] == 1
    assert table["standings_version"] == table["results_version"] > 0
    top = table["rows"][0]
    p01 = running.entries.get(seed=1)
    assert {k: top[k] for k in ("rank", "entry", "player", "name", "wins", "losses", "byes")} == {
        "rank": 1, "entry": p01.pk, "player": p01.player_id, "name": "P01", "wins": 1, "losses": 0, "byes": 0,
    }  # fmt: skip
    assert (top["points_for"], top["points_against"]) == (1, 0)
    assert set(top["tiebreaks"]) == {"buchholz", "sonneborn-berger", "points-diff"}
    assert [r["wins"] for r in table["rows"]] == [1, 1, 0, 0]
    assert anon.get(division_url(running, "standings/?after_round=1")).json()["rows"] == table["rows"]
    assert anon.get(division_url(running, "standings/?after_round=2")).json()["rows"] == []


def test_a_rating_list_and_a_players_history(
    anon: APIClient, division_of: Callable[..., Division], as_director: Actor
) -> None:
    rating_list = services.create_rating_list(actor=as_director, name="Club ratings")
    event = services.create_event(actor=as_director, name="Rated night", rating_list=rating_list)
    division = division_of("single", 4, event=event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1)
    play_round(division, 2)
    assert services.recompute_ratings(rating_list.pk) == 3
    answer = anon.get(f"/api/rating-lists/{rating_list.slug}/").json()
    assert (answer["slug"], answer["name"], answer["start"], answer["k_factor"]) == (
        "club-ratings", "Club ratings", 1500.0, None,
    )  # fmt: skip
    ratings = answer["ratings"]
    assert ratings[0]["name"] == "P01" and [r["rank"] for r in ratings] == [1, 2, 3, 3]
    assert ratings[0]["matches"] == 2 and ratings[0]["rating"] > 1500 > ratings[-1]["rating"]
    assert ratings[2]["rating"] == ratings[3]["rating"]
    champion = division.entries.get(seed=1).player
    history = anon.get(f"/api/rating-lists/{rating_list.slug}/players/{champion.pk}/history/").json()
    assert [h["won"] for h in history] == [True, True] and history[0]["order"] < history[1]["order"]
    assert history[0]["after"] == history[1]["before"] and history[1]["delta"] > 0
    assert history[1]["opponent"] == division.entries.get(seed=2).player_id and history[1]["match"] is not None
    assert anon.get(f"/api/rating-lists/{rating_list.slug}/players/{champion.pk + 999}/history/").status_code == 404
    assert anon.get("/api/rating-lists/nope/").status_code == 404


def test_private_matches_in_a_rating_history_are_hidden_from_outsiders(
    anon: APIClient, division_of: Callable[..., Division], as_director: Actor, director: Any
) -> None:
    rating_list = services.create_rating_list(actor=as_director, name="Club ratings")
    event = services.create_event(actor=as_director, name="Closed", rating_list=rating_list, public=False)
    division = division_of("single", 2, event=event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_round(division, 1)
    services.recompute_ratings(rating_list.pk)
    player = division.entries.get(seed=1).player
    url = f"/api/rating-lists/{rating_list.slug}/players/{player.pk}/history/"
    outsider = anon.get(url).json()
    assert len(outsider) == 1 and outsider[0]["match"] is None and outsider[0]["opponent"] is None
    assert outsider[0]["won"] is True
    assert logged_in(director).get(url).json()[0]["match"] is not None


def test_a_players_next_match(anon: APIClient, running: Division, as_director: Actor) -> None:
    p03 = running.entries.get(seed=3)
    pairing = Pairing.objects.get(division=running, entry_b=p03)
    answer = anon.get(f"/api/players/{p03.player_id}/next-match/").json()
    assert answer["player"] == {"id": p03.player_id, "name": "P03"}
    assert answer["event"] == {"slug": running.event.slug, "name": "Club night"}
    assert answer["division"] == {"slug": running.slug, "name": "swiss 4"}
    assert answer["side"] == 1 and answer["pairing"]["id"] == pairing.pk and answer["pairing"]["match"]
    idle = services.register_player(running, actor=as_director, name="Idle")  # a late entry: not paired yet
    nothing = anon.get(f"/api/players/{idle.player_id}/next-match/").json()
    assert nothing == {"player": {"id": idle.player_id, "name": "Idle"}, "event": None, "division": None,
                       "side": None, "pairing": None, "playoff": None, "place": None, "words": ""}  # fmt: skip
    assert anon.get("/api/players/999999/next-match/").status_code == 404


def test_an_entry_links_next_match_follows_its_player(anon: APIClient, running: Division) -> None:
    first = Pairing.objects.get(division=running, key="swiss-1-1")
    link = link_client(new_entry_token(Match.objects.get(pk=first.match_id), 0))  # P01
    now = link.get("/api/entry-links/next-match/").json()
    assert now["pairing"]["id"] == first.pk and now["side"] == 0 and now["player"]["name"] == "P01"
    play_round(running, 1)
    services.pair_next_round(running, actor=Actor(user=running.event.directors.get()))
    later = link.get("/api/entry-links/next-match/").json()
    assert later["pairing"]["round"] == 2 and later["pairing"]["a"]["name"] in ("P01", "P02")
    assert anon.get("/api/entry-links/next-match/").status_code == 401
    no_link = logged_in(running.event.directors.get()).get("/api/entry-links/next-match/")
    assert no_link.status_code == 403 and "X-Entry-Token" in no_link.json()["message"]


def test_a_private_event_is_a_404_for_outsiders(
    anon: APIClient,
    private_event: Any,
    division_of: Callable[..., Division],
    as_director: Actor,
    director: Any,
    staff: Any,
    stranger: Any,
    other_director: Any,
) -> None:
    division = division_of("swiss", 4, event=private_event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    pairing = Pairing.objects.filter(division=division).first()
    urls = [
        f"/api/events/{private_event.slug}/",
        *(division_url(division, tail) for tail in ("", "entries/", "rounds/", "pairings/", "standings/")),
    ]
    for client in (anon, logged_in(stranger), logged_in(other_director)):
        assert all(e["slug"] != private_event.slug for e in client.get("/api/events/").json()["results"])
        for url in urls:
            answer = client.get(url)
            assert answer.status_code == 404, url
            assert answer.json()["code"] == "not_found"
        # A player entered only in the private event is hidden with it.
        assert client.get(f"/api/players/{pairing.entry_a.player_id}/next-match/").status_code == 404
    for user in (director, staff):
        client = logged_in(user)
        assert any(e["slug"] == private_event.slug for e in client.get("/api/events/").json()["results"])
        assert all(client.get(url).status_code == 200 for url in urls)
    link = link_client(new_entry_token(Match.objects.get(pk=pairing.match_id), 0))
    assert link.get(division_url(division)).status_code == 404
    assert link.get("/api/entry-links/next-match/").json()["pairing"]["id"] == pairing.pk
