"""Directors' writes: each endpoint's happy path, and who may call it (the access matrix)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

import games.services
from common.actor import Actor
from games.access import new_entry_token
from games.models import Match
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url, enter_result, link_client, play_round
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Standing

pytestmark = pytest.mark.django_db


# -- events and divisions --------------------------------------------------------------------------------------------


def test_a_user_creates_an_event_and_directs_it(director: Any, anon: APIClient) -> None:
    client = logged_in(director)
    body = {
        "name": "  Oslo   Open ", "slug": "oslo-open-2026", "venue": "Clubhouse", "time_zone": "Europe/Oslo",
        "starts_on": "2026-05-01", "ends_on": "2026-05-03", "public": False,
    }  # fmt: skip
    created = client.post("/api/events/", body, format="json")
    assert created.status_code == 201, created.json()
    answer = created.json()
    assert (answer["name"], answer["slug"], answer["status"], answer["public"]) == (
        "Oslo Open", "oslo-open-2026", "registration", False,
    )  # fmt: skip
    assert answer["divisions"] == [] and answer["starts_on"] == "2026-05-01"
    assert answer["analyse_imported"] is False  # off unless asked
    event = Event.objects.get(slug="oslo-open-2026")
    assert list(event.directors.all()) == [director]
    assert client.get("/api/events/oslo-open-2026/").status_code == 200
    assert anon.get("/api/events/oslo-open-2026/").status_code == 404  # private
    again = client.post("/api/events/", body, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert (
        logged_in(director).post("/api/events/", {"name": "Club night"}, format="json").json()["slug"] == "club-night"
    )


def test_an_event_analyses_its_imported_matches_when_asked(director: Any) -> None:
    created = logged_in(director).post("/api/events/", {"name": "Imports", "analyse_imported": True}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["analyse_imported"] is True
    assert Event.objects.get(slug="imports").analyse_imported is True
    assert logged_in(director).get("/api/events/imports/").json()["analyse_imported"] is True
    refused = logged_in(director).post("/api/events/", {"name": "Bad", "analyse_imported": "maybe"}, format="json")
    assert refused.status_code == 400 and "analyse_imported" in str(refused.json())
    assert not Event.objects.filter(name="Bad").exists()


def test_only_users_create_events(anon: APIClient, running: Division) -> None:
    refused = anon.post("/api/events/", {"name": "Mine"}, format="json")
    assert refused.status_code == 401 and refused.json()["code"] == "not_authenticated"
    link = link_client(new_entry_token(Match.objects.filter(pairing__division=running).first(), 0))
    assert link.post("/api/events/", {"name": "Mine"}, format="json").status_code == 401
    assert not Event.objects.filter(name="Mine").exists()


def test_a_director_adds_a_director(running: Division, director: Any, stranger: Any) -> None:
    url = f"/api/events/{running.event.slug}/directors/"
    added = logged_in(director).post(url, {"username": "stan"}, format="json")
    assert added.status_code == 200
    assert added.json() == {"event": running.event.slug, "directors": ["dora", "stan"]}
    assert logged_in(stranger).get(f"/api/events/{running.event.slug}/queue/").status_code == 200  # now he directs
    unknown = logged_in(director).post(url, {"username": "nobody"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["fields"] == {"username": ["there is no user 'nobody'"]}


def test_a_non_director_does_not_learn_which_usernames_exist(running: Division, other_director: Any) -> None:
    url = f"/api/events/{running.event.slug}/directors/"
    for username in ("nobody", "dora"):
        assert logged_in(other_director).post(url, {"username": username}, format="json").status_code == 403


def test_a_director_adds_a_division_with_its_settings(director: Any, as_director: Actor) -> None:
    event = services.create_event(actor=as_director, name="Spring Open")
    body = {
        "name": "Championship", "format": "main-consolation", "match_length": 7, "crawford": True,
        "round_lengths": {"main:final": 11, "consolation": 5}, "entry_mode": "scoresheet", "clock": "2 min/point",
        "seeding": "manual", "tiebreaks": ["wins", "buchholz"], "drop_rounds": 2,
    }  # fmt: skip
    created = logged_in(director).post(f"/api/events/{event.slug}/divisions/", body, format="json")
    assert created.status_code == 201, created.json()
    answer = created.json()
    assert (answer["event"], answer["slug"], answer["format"], answer["status"]) == (
        "spring-open", "championship", "main-consolation", "registration",
    )  # fmt: skip
    assert answer["round_lengths"] == {"main:final": 11, "consolation": 5} and answer["drop_rounds"] == 2
    assert answer["tiebreaks"] == ["wins", "buchholz"] and answer["seeding"] == "manual"
    division = Division.objects.get(event=event, slug="championship")
    assert (division.match_length, division.clock, division.entry_mode) == (7, "2 min/point", "scoresheet")
    swiss = logged_in(director).post(
        f"/api/events/{event.slug}/divisions/", {"name": "Swiss", "format": "swiss"}, format="json"
    )
    assert swiss.status_code == 400 and "rounds_planned" in swiss.json()["message"]
    again = logged_in(director).post(
        f"/api/events/{event.slug}/divisions/", {**body, "slug": "championship"}, format="json"
    )
    assert again.status_code == 409


# -- entries ---------------------------------------------------------------------------------------------------------


def test_a_director_enters_players(swiss: Division, director: Any) -> None:
    client = logged_in(director)
    url = division_url(swiss, "entries/")
    new = client.post(url, {"name": "Nina Nord", "club": "Oslo BK", "country": "no", "rating": 1650.5}, format="json")
    assert new.status_code == 201, new.json()
    entry = Entry.objects.get(pk=new.json()["id"])
    assert (entry.player.display_name, entry.player.country, entry.rating) == ("Nina Nord", "NO", 1650.5)
    assert new.json()["name"] == "Nina Nord" and new.json()["status"] == "registered"
    known = games.services.create_player(display_name="Karl Known")
    existing = client.post(url, {"player": known.pk, "seed": 5}, format="json")
    assert existing.status_code == 201 and existing.json()["player"] == known.pk and existing.json()["seed"] == 5
    twice = client.post(url, {"player": known.pk}, format="json")
    assert twice.status_code == 409 and "already entered" in twice.json()["message"]
    for bad in ({}, {"player": known.pk, "name": "Both"}):
        refused = client.post(url, bad, format="json")
        assert refused.status_code == 400 and refused.json()["fields"]["non_field_errors"]
    assert swiss.entries.count() == 6


def test_a_director_imports_a_csv_list_as_text_or_as_a_file(swiss: Division, director: Any) -> None:
    client = logged_in(director)
    url = division_url(swiss, "entries/import/")
    text = "name,club,country,rating\nAnna Berg,Oslo BK,NO,1700\nBo Lind,,SE,\n"
    imported = client.post(url, {"csv": text}, format="json")
    assert imported.status_code == 201, imported.json()
    assert imported.json()["created"] == 2
    assert [e["name"] for e in imported.json()["entries"]] == ["Anna Berg", "Bo Lind"]
    upload = SimpleUploadedFile("players.csv", "\ufeffname,seed\nCarl Cox,\nDag Dahl,\n".encode(), "text/csv")
    from_file = client.post(url, {"file": upload}, format="multipart")
    assert from_file.status_code == 201, from_file.json()
    assert [e["name"] for e in from_file.json()["entries"]] == ["Carl Cox", "Dag Dahl"]
    assert swiss.entries.count() == 8


def test_an_import_is_all_or_nothing(swiss: Division, director: Any) -> None:
    text = "name,rating,country\nGood One,1500,NO\nBad Rating,high,NO\nBad Country,1500,NOR\n"
    refused = logged_in(director).post(division_url(swiss, "entries/import/"), {"csv": text}, format="json")
    assert refused.status_code == 400
    answer = refused.json()
    assert answer["code"] == "invalid_input" and "line 3" in answer["message"] and "line 4" in answer["message"]
    assert swiss.entries.count() == 4


def test_check_in_seed_and_withdraw(swiss: Division, director: Any) -> None:
    client = logged_in(director)
    entry = swiss.entries.get(player__display_name="P02")
    base = division_url(swiss, f"entries/{entry.pk}/")
    checked = client.post(base + "check-in/", {}, format="json")
    assert checked.status_code == 200 and checked.json()["status"] == "checked_in"
    undone = client.post(base + "check-in/", {"present": False}, format="json")
    assert undone.json()["status"] == "registered"
    seeded = client.post(base + "seed/", {"seed": 7}, format="json")
    assert seeded.status_code == 200 and seeded.json()["seed"] == 7
    other = swiss.entries.get(player__display_name="P03")
    taken = client.post(division_url(swiss, f"entries/{other.pk}/seed/"), {"seed": 7}, format="json")
    assert taken.status_code == 409
    cleared = client.post(base + "seed/", {"seed": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["seed"] is None
    player = entry.player
    corrected = client.post(base + "player/", {"name": " Per  Lund ", "country": "se"}, format="json")
    assert corrected.status_code == 200, corrected.content
    player.refresh_from_db()
    assert (player.display_name, player.club, player.country) == ("Per Lund", player.club, "SE"), "club left as it was"
    assert client.post(base + "player/", {}, format="json").status_code == 400, "nothing to correct"
    taken = client.post(base + "player/", {"name": "p03"}, format="json")
    assert taken.status_code == 409 and "P03 is already entered in" in taken.json()["message"]
    withdrawn = client.post(base + "withdraw/", {"reason": "ill"}, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert Entry.objects.get(pk=entry.pk).withdrawal_reason == "ill"
    assert client.post(base + "withdraw/", {}, format="json").status_code == 409
    assert client.post(base + "check-in/", {}, format="json").status_code == 409


def test_an_entry_of_another_division_is_a_404(
    swiss: Division, division_of: Callable[..., Division], director: Any
) -> None:
    elsewhere = division_of("single", 2).entries.first()
    answer = logged_in(director).post(division_url(swiss, f"entries/{elsewhere.pk}/check-in/"), {}, format="json")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


# -- running a division ----------------------------------------------------------------------------------------------


def test_start_then_pair_the_next_round(swiss: Division, director: Any) -> None:
    client = logged_in(director)
    started = client.post(division_url(swiss, "start/"), {"only_checked_in": None}, format="json")
    assert started.status_code == 200, started.json()
    assert started.json()["status"] == "running" and started.json()["started_at"]
    assert client.post(division_url(swiss, "start/"), {}, format="json").status_code == 409
    early = client.post(division_url(swiss, "pair-next-round/"), {}, format="json")
    assert early.status_code == 409 and "not complete" in early.json()["message"]
    play_round(swiss, 1)
    paired = client.post(division_url(swiss, "pair-next-round/"), {}, format="json")
    assert paired.status_code == 201, paired.json()
    answer = paired.json()
    assert (answer["round"]["bracket"], answer["round"]["number"]) == ("swiss", 2)
    assert len(answer["pairings"]) == 2 and all(p["round"] == 2 and p["match"] for p in answer["pairings"])
    assert answer["pairings"][0]["a"]["name"] == "P01" and answer["pairings"][0]["b"]["name"] == "P02"


def test_start_only_the_checked_in_players(swiss: Division, director: Any, as_director: Actor) -> None:
    for entry in swiss.entries.filter(seed__isnull=True).order_by("id")[:2]:
        services.check_in(entry, actor=as_director)
    started = logged_in(director).post(division_url(swiss, "start/"), {"only_checked_in": True}, format="json")
    assert started.status_code == 200
    assert swiss.entries.filter(status="withdrawn").count() == 2
    assert Pairing.objects.filter(division=swiss).count() == 1


def test_close_the_last_chance_places(division_of: Callable[..., Division], director: Any, as_director: Actor) -> None:
    division = division_of("main-consolation-lastchance", 8, last_chance_places=2, entry_mode="scoresheet")
    services.start_division(division, actor=as_director)
    closed = logged_in(director).post(division_url(division, "close-last-chance/"), {}, format="json")
    assert closed.status_code == 200 and closed.json()["last_chance_closed"] is True


def test_swap_two_players_before_they_play(running: Division, director: Any) -> None:
    p01, p02 = running.entries.get(seed=1), running.entries.get(seed=2)
    body = {"first": p01.pk, "second": p02.pk, "reason": "club-mates"}
    swapped = logged_in(director).post(division_url(running, "swap/"), body, format="json")
    assert swapped.status_code == 200, swapped.json()
    boards = {(p["a"]["name"], p["b"]["name"]): p for p in swapped.json()}
    assert set(boards) == {("P02", "P03"), ("P01", "P04")}
    assert all(p["swapped_reason"] == "club-mates" and p["match"] for p in boards.values())
    pairing = Pairing.objects.get(division=running, key="swiss-1-1")
    enter_result(pairing, winner=0)
    late = logged_in(director).post(division_url(running, "swap/"), body, format="json")
    assert late.status_code == 409 and "has started" in late.json()["message"]


def test_recompute_runs_the_follow_up_and_says_so(
    running: Division, director: Any, django_capture_on_commit_callbacks: Any
) -> None:
    play_round(running, 1)
    with django_capture_on_commit_callbacks(execute=True):
        done = logged_in(director).post(division_url(running, "recompute/"), {}, format="json")
    assert done.status_code == 200  # tasks run in-process here: done, not queued (with a broker: 202 "queued")
    assert done.json() == {"division": running.slug, "task": "tournaments.tasks.advance_division", "status": "done"}
    running.refresh_from_db()
    assert running.standings_status == "current" and running.standings_version == running.results_version
    assert Standing.objects.filter(division=running, after_round=1).count() == 4


def test_the_directors_queue(running: Division, director: Any) -> None:
    pairing = enter_result(Pairing.objects.get(division=running, key="swiss-1-1"), winner=0)
    queue = logged_in(director).get(f"/api/events/{running.event.slug}/queue/")
    assert queue.status_code == 200
    [item] = queue.json()
    assert item["division"] == running.slug and item["dispute"] == "" and item["updated_at"]
    assert (item["kind"], item["confirmation"], item["playoff"]) == ("pairing", "awaiting", None)
    assert item["pairing"]["id"] == pairing.pk and item["pairing"]["confirmation"] == "awaiting"
    assert item["pairing"]["confirmation_side"] == 1


# -- the access matrix -----------------------------------------------------------------------------------------------

#: (method, URL template, body, the answer of the event's directors and staff)
WRITES = [
    ("post", "events/{event}/directors/", {"username": "stan"}, 200),
    ("post", "events/{event}/divisions/", {"name": "Side", "format": "single"}, 201),
    ("get", "events/{event}/queue/", None, 200),
    ("post", "{division}entries/", {"name": "New Player"}, 201),
    ("post", "{division}entries/import/", {"csv": "name\nNew Player\n"}, 201),
    ("post", "{division}entries/{entry}/check-in/", {}, 200),
    ("post", "{division}entries/{entry}/seed/", {"seed": 9}, 200),
    ("post", "{division}entries/{entry}/withdraw/", {"reason": "ill"}, 200),
    ("post", "{division}start/", {}, 200),
    ("post", "{division}pair-next-round/", {}, 409),  # not running: authority is checked first
    ("post", "{division}close-last-chance/", {}, 409),  # a Swiss has no last chance: authority is checked first
    ("post", "{division}swap/", {"first": "{entry}", "second": "{other}", "reason": "x"}, 409),  # nothing paired
    ("post", "{division}recompute/", {}, 200),
]
CALLERS = {"anonymous": 401, "entry link": 403, "user": 403, "other director": 403, "director": None, "staff": None}


def _client(who: str, request: pytest.FixtureRequest) -> APIClient:
    if who == "anonymous":
        return APIClient()
    if who == "entry link":
        a, b = games.services.create_player(display_name="Al"), games.services.create_player(display_name="Bea")
        return link_client(new_entry_token(games.services.start_match(player1=a, player2=b, length=1), 0))
    fixture = {"user": "stranger", "other director": "other_director", "director": "director", "staff": "staff"}[who]
    return logged_in(request.getfixturevalue(fixture))


def _call(client: APIClient, method: str, template: str, body: Any, division: Division) -> Any:
    entries = list(division.entries.order_by("id"))
    names = {
        "event": division.event.slug, "division": division_url(division), "entry": entries[0].pk,
        "other": entries[1].pk,
    }  # fmt: skip
    url = template.format(**names)
    url = url if url.startswith("/api/") else f"/api/{url}"
    if isinstance(body, dict):
        body = {k: int(v.format(**names)) if isinstance(v, str) and v.startswith("{") else v for k, v in body.items()}
    return getattr(client, method)(url, body, format="json") if method == "post" else client.get(url)


@pytest.mark.parametrize("who", list(CALLERS))
@pytest.mark.parametrize(("method", "template", "body", "allowed"), WRITES, ids=[w[1] for w in WRITES])
def test_who_may_write(
    who: str,
    method: str,
    template: str,
    body: Any,
    allowed: int,
    swiss: Division,
    stranger: Any,
    request: pytest.FixtureRequest,
) -> None:
    answer = _call(_client(who, request), method, template, body, swiss)
    expected = CALLERS[who] or allowed
    assert answer.status_code == expected, answer.json()
    if expected in (401, 403):
        assert answer.json()["code"] == ("not_authenticated" if expected == 401 else "forbidden")


@pytest.mark.parametrize(("method", "template", "body", "allowed"), WRITES, ids=[w[1] for w in WRITES])
def test_a_private_events_writes_are_404_for_outsiders(
    method: str,
    template: str,
    body: Any,
    allowed: int,
    private_event: Event,
    division_of: Callable[..., Division],
    stranger: Any,
    other_director: Any,
    director: Any,
) -> None:
    division = division_of("swiss", 4, event=private_event, entry_mode="scoresheet", match_length=1)
    for user in (stranger, other_director):
        answer = _call(logged_in(user), method, template, body, division)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    assert _call(logged_in(director), method, template, body, division).status_code == allowed


def test_swap_two_seeds_of_a_bracket(division_of: Callable[..., Division], director: Any, as_director: Actor) -> None:
    division = division_of("single", 4, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    p01, p03 = division.entries.get(seed=1), division.entries.get(seed=3)
    before = set(Pairing.objects.filter(division=division).values_list("match_id", flat=True)) - {None}
    body = {"first": p01.pk, "second": p03.pk, "reason": "club-mates"}
    swapped = logged_in(director).post(division_url(division, "swap/"), body, format="json")
    assert swapped.status_code == 200, swapped.json()
    slots = {p["key"]: p for p in swapped.json()}
    assert (slots["main-1-0"]["a"]["name"], slots["main-1-0"]["b"]["name"]) == ("P03", "P04")
    assert (slots["main-1-1"]["a"]["name"], slots["main-1-1"]["b"]["name"]) == ("P02", "P01")
    assert slots["main-1-0"]["swapped_reason"] == "seeds 1 and 3 swapped: club-mates"
    assert {slots["main-1-0"]["match"], slots["main-1-1"]["match"]}.isdisjoint(before)  # new matches
    assert set(Match.objects.filter(pk__in=before).values_list("status", flat=True)) == {"void"}


def test_a_bracket_swap_is_noted_on_both_slots(
    division_of: Callable[..., Division], director: Any, as_director: Actor
) -> None:
    """tournaments/services/results.py _swap_seeds: the swap's note is written only on first-round slots whose side
    a holds one of the two players (``.filter(entry_a__in=(first, second))``), so a player swapped from side b
    (seed 3 here) moves to a slot that does not say why; a Swiss swap notes both boards."""
    division = division_of("single", 4, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    p01, p03 = division.entries.get(seed=1), division.entries.get(seed=3)
    body = {"first": p01.pk, "second": p03.pk, "reason": "club-mates"}
    slots = {p["key"]: p for p in logged_in(director).post(division_url(division, "swap/"), body, format="json").json()}
    assert slots["main-1-1"]["b"]["name"] == "P01"
    assert slots["main-1-1"]["swapped_reason"] == "seeds 1 and 3 swapped: club-mates"
