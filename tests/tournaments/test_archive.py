"""Event archives (tournaments/services/archive/ and the export_event / import_event commands).

The lossless check: export an event, import the file under a new address, export the imported event again; the
two ``event.json`` documents are equal once ids, the event's address and the export time are mapped or left out
(ids are numbered in file order: an import creates rows in file order, so the n-th record of a kind is the n-th in
both), the .mat files are byte-identical, every imported match replays to its score, status and winner, and the
imported divisions resolve to the same standings and champions, also when recomputed from scratch. Run on the demo
event, on simulated Swiss (with a rating list), double-elimination and main-consolation-lastchance events
(corrections, one with override that voids later matches and leaves them detached from their slots, a voided
match, penalty points), and on a small event played move by move from the players' entry links, with a swap of
seeds and a forfeit. A corrupted file is refused with a message naming what is wrong, and nothing is stored.
"""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
import random
import re
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import models, transaction

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from engine.game import Phase
from games import services as games
from games.access import access_entry_token, new_entry_token, token_text
from games.engine_bridge import load_state
from games.models import Action, EntryToken, Game, Match, Player
from games.services import rebuild_match
from tournaments import services
from tournaments.demo import load_demo
from tournaments.models import (
    Division,
    Entry,
    Event,
    ImportedMatch,
    Pairing,
    Playoff,
    Rating,
    RatingChange,
    RatingList,
    Round,
    Standing,
)
from tournaments.services.archive import export_event, import_event
from tournaments.services.archive.fields import (
    ACTION_FIELDS,
    ADDED_SINCE_FIRST_WRITTEN,
    DIVISION_FIELDS,
    ENTRY_FIELDS,
    EVENT_FIELDS,
    GAME_FIELDS,
    HANDLED_APART,
    IMPORTED_MATCH_FIELDS,
    MATCH_FIELDS,
    PAIRING_FIELDS,
    PLAYER_FIELDS,
    PLAYOFF_FIELDS,
    RATING_CHANGE_FIELDS,
    RATING_FIELDS,
    RATING_LIST_FIELDS,
    ROUND_FIELDS,
    STANDING_FIELDS,
)
from tournaments.simulation import champions, run_division, simulate_event

pytestmark = pytest.mark.django_db

MODELS = (Event, Division, Entry, Round, Pairing, Standing, Player, Match, Game, Action, EntryToken)
MODELS += (RatingList, Rating, RatingChange, ImportedMatch)


# -- helpers -------------------------------------------------------------------------------------------------------


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def document(data: bytes) -> dict[str, Any]:
    return json.loads(members(data)["event.json"])


def rezip(data: bytes, doc: dict[str, Any] | None = None, *, raw: bytes | None = None, drop: str = "") -> bytes:
    """The archive ``data`` with another event.json (a document or raw bytes), or without member ``drop``."""
    files = members(data)
    if doc is not None:
        files["event.json"] = json.dumps(doc).encode()
    if raw is not None:
        files["event.json"] = raw
    files.pop(drop, None)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in MODELS}


def normalized(doc: dict[str, Any]) -> dict[str, Any]:
    """The document with every id replaced by its record's place in the file, the event's address by ``<slug>``,
    and the export time and the rating list's address left out."""
    doc = copy.deepcopy(doc)
    slug = doc["event"].pop("slug")
    doc["event"].pop("id")
    doc.pop("exported_at")
    ids: dict[str, dict[int, int]] = {}

    def number(kind: str, records: list[dict[str, Any]]) -> None:
        table = ids.setdefault(kind, {})
        for record in records:
            assert record["id"] not in table
            table[record["id"]] = record["id"] = len(table) + 1

    def ref(kind: str, record: dict[str, Any], *keys: str) -> None:
        for key in keys:
            if record[key] is not None:
                record[key] = ids[kind][record[key]]

    number("player", doc["players"])
    old_ids = [m["id"] for m in doc["matches"]]
    number("match", doc["matches"])
    for old, match in zip(old_ids, doc["matches"], strict=True):
        ref("player", match, "player1", "player2", "winner")
        if match["source"].startswith(f"{slug}/"):
            match["source"] = "<slug>" + match["source"][len(slug) :]
        if match["mat_file"] is not None:
            match["mat_file"] = mat_key(match["mat_file"], old, match["id"])
    for skipped in doc["mat_skipped"]:
        ref("match", skipped, "match")
    for imported in doc["imported_matches"]:
        ref("match", imported, "match")
    number("division", doc["divisions"])
    for division in doc["divisions"]:
        number("entry", division["entries"])
        for entry in division["entries"]:
            ref("player", entry, "player")
        division["knockout_seeds"] = [ids["entry"][pk] for pk in division["knockout_seeds"]]
        number("round", division["rounds"])
        number("pairing", division["pairings"])
        for pairing in division["pairings"]:
            ref("round", pairing, "round")
            ref("match", pairing, "match")
            ref("entry", pairing, "entry_a", "entry_b", "winner")
        number("standing", division["standings"])
        for standing in division["standings"]:
            ref("entry", standing, "entry")
        number("playoff", division.get("playoffs", []))
        for playoff in division.get("playoffs", []):
            ref("match", playoff, "first_match", "final_match")
            for key in ("entries", "order"):
                playoff[key] = [ids["entry"][pk] for pk in playoff[key]]
    if doc["rating_list"] is not None:
        doc["rating_list"].pop("slug")
        for rating in doc["rating_list"]["ratings"]:
            ref("player", rating, "player")
        for change in doc["rating_list"]["changes"]:
            ref("player", change, "player")
            ref("match", change, "match")
    return doc


def mat_key(name: str, old: int, new: int) -> str:
    prefix = f"matches/{old}-"
    assert name.startswith(prefix)
    return f"matches/{new}-{name[len(prefix) :]}"


def mat_files(data: bytes) -> dict[str, bytes]:
    """The .mat files of an archive by their name with the match's place in the file instead of its id."""
    doc, files = document(data), members(data)
    out = {}
    for n, match in enumerate(doc["matches"], start=1):
        if match["mat_file"] is not None:
            out[mat_key(match["mat_file"], match["id"], n)] = files.pop(match["mat_file"])
    assert set(files) == {"event.json"}, "every .mat file is named by its match"
    return out


def outcome(division: Division) -> dict[str, Any]:
    """What a division came to, by player names: the latest standings and each bracket's champion."""
    names = dict(Player.objects.filter(entries__division=division).values_list("pk", "display_name"))
    rows = Standing.objects.filter(division=division).select_related("entry")
    table = sorted(
        (
            s.after_round,
            s.rank,
            names[s.entry.player_id],
            s.wins,
            s.losses,
            s.byes,
            json.dumps(s.tiebreaks, sort_keys=True),
        )
        for s in rows
    )
    won = {bracket: None if pk is None else names[pk] for bracket, pk in champions(division).items()}
    return {"standings": table, "champions": won, "status": division.status}


@dataclass
class RoundTrip:
    original: Event
    imported: Event
    first: bytes
    second: bytes


def round_trip(event: Event, importer: Any, slug: str = "imported-copy") -> RoundTrip:
    first = export_event(event)
    imported = import_event(first, slug=slug, actor=Actor(user=importer))
    return RoundTrip(event, imported, first, export_event(imported))


def check_lossless(trip: RoundTrip) -> None:
    a, b = document(trip.first), document(trip.second)
    assert a["event"]["slug"] != b["event"]["slug"]
    assert normalized(a) == normalized(b)
    assert mat_files(trip.first) == mat_files(trip.second)  # byte for byte
    # Every imported match replays to the score, status and winner of its original.
    originals = Match.objects.in_bulk([m["id"] for m in a["matches"]])
    for old, new in zip(a["matches"], b["matches"], strict=True):
        match = Match.objects.select_related("player1", "player2", "winner").get(pk=new["id"])
        state = rebuild_match(match)
        source = originals[old["id"]]
        assert (match.score, match.status) == (source.score, source.status) == (state.score, source.status)
        assert (match.winner and match.winner.display_name) == (source.winner and source.winner.display_name)
    # Same standings and champions, as imported and when recomputed from the imported pairings.
    pairs = [(d, trip.imported.divisions.get(slug=d.slug)) for d in trip.original.divisions.all()]
    for before, after in pairs:
        assert outcome(after) == outcome(before)
        assert not services.sync_division(after.pk).changed  # the imported division is in step with its results
        services.recompute_standings(after.pk)
        assert outcome(after) == outcome(before)


def a_next_action(match: Match, key: str) -> None:
    """Record the next legal action of a move-by-move match as its director, with an idempotency key."""
    state = load_state(match)
    common = {"actor": SYSTEM, "expected_seq": match.seq, "idempotency_key": key}
    if state.game.phase is Phase.MOVE:
        play = sorted(str(p) for p in state.game.legal_plays())
        games.record_play(match.pk, side=state.game.on_roll, play=play[0] if play else "", **common)
    elif state.game.phase is Phase.OPENING:
        games.record_opening_roll(match.pk, dice=(3, 1), **common)
    else:
        games.record_roll(match.pk, side=state.game.on_roll, dice=(3, 1), **common)


@pytest.fixture
def importer(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="ivy", password=None)


def rehearsal_director() -> Actor:
    return Actor(user=get_user_model().objects.get(username="rehearsal-director"))


def simulated(fmt: str, players: int, **options: Any) -> Event:
    simulate_event(format=fmt, players=players, seed=11, **options)
    return Event.objects.latest("id")


# -- the file ------------------------------------------------------------------------------------------------------

COPIED = {
    Event: EVENT_FIELDS,
    Division: DIVISION_FIELDS,
    Entry: ENTRY_FIELDS,
    Round: ROUND_FIELDS,
    Pairing: PAIRING_FIELDS,
    Standing: STANDING_FIELDS,
    Playoff: PLAYOFF_FIELDS,
    Player: PLAYER_FIELDS,
    Match: MATCH_FIELDS,
    Game: GAME_FIELDS,
    Action: ACTION_FIELDS,
    RatingList: RATING_LIST_FIELDS,
    Rating: RATING_FIELDS,
    RatingChange: RATING_CHANGE_FIELDS,
    ImportedMatch: IMPORTED_MATCH_FIELDS,
}


@pytest.mark.parametrize("model", list(COPIED), ids=lambda m: m.__name__)
def test_every_field_is_copied_or_handled_apart(model: type[models.Model]) -> None:
    fields = {f.name for f in model._meta.concrete_fields} | {f.name for f in model._meta.many_to_many}
    copied, apart = set(COPIED[model]), set(HANDLED_APART[model])
    assert not copied & apart
    assert fields == copied | apart, "a new model field must be exported (a new format version) or accounted for"


# -- lossless round trips ------------------------------------------------------------------------------------------


def test_playoffs_travel_with_their_matches_and_settle_the_imported_standings(
    division_of: Callable[..., Division], as_director: Actor, importer: Any
) -> None:
    from tests.tournaments.services.test_playoffs import swiss_with_a_paid_tie, win
    from tournaments.selectors.playoffs import division_playoffs, playoffs_of

    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    played = services.order_playoff(division, actor=as_director, entries=[a, b], length=3)
    win(played.final_match, b, as_director)
    other = swiss_with_a_paid_tie(division_of, as_director)  # a second event, its playoff ordered, unplayed
    c, d = (int(p) for p in division_playoffs(other).ties[0].tie.players)
    services.order_playoff(other, actor=as_director, entries=[c, d])

    for event in (division.event, other.event):
        trip = round_trip(event, importer, slug=f"copy-of-{event.slug}")
        check_lossless(trip)
        (record,) = document(trip.first)["divisions"][0]["playoffs"]
        imported = trip.imported.divisions.get()
        (before,), (after,) = playoffs_of(Division.objects.get(pk=event.divisions.get().pk)), playoffs_of(imported)
        assert after.words == before.words and (after.kind, after.place, after.status) == (
            before.kind,
            2,
            record["status"],
        )
        new = Playoff.objects.get(division=imported)
        assert new.entries == [Entry.objects.get(division=imported, player__display_name=n).pk for n in before.names]
        if record["status"] == "ordered":  # its match is played from new entry links
            assert new.final_match is not None and new.final_match.entry_tokens.filter(revoked_at=None).count() == 2


def test_the_demo_event_round_trips_losslessly(importer: Any) -> None:
    event = load_demo()
    director = Actor(user=event.directors.get())
    Player.objects.filter(display_name="Astrid Holm").update(contact="astrid@example.org")
    playing = Pairing.objects.get(division__event=event, key="main-2-1").match
    games.undo_last_action(playing.pk, actor=director, reason="the wrong checker was moved")
    a_next_action(Match.objects.get(pk=playing.pk), "phone-42")
    links = [new_entry_token(playing, 0), new_entry_token(playing, 1)]
    players_before = Player.objects.count()

    trip = round_trip(event, importer)
    check_lossless(trip)

    doc = document(trip.first)
    # Personal data and entry-link secrets stay home.
    assert all("contact" not in p for p in doc["players"])
    for data in (trip.first, trip.second):
        blob = b"".join(members(data).values())
        assert b"astrid@example.org" not in blob
        for token in EntryToken.objects.all():
            assert token.nonce.encode() not in blob and token_text(token).encode() not in blob
    assert any(n.startswith("Entry-link secrets are never exported") for n in doc["notes"])
    assert any("contact" in n for n in doc["notes"])
    # The log travels whole: the correction, what it undoes, the idempotency key, who entered what.
    log = next(m for m in doc["matches"] if m["status"] == "in_progress")["actions"]
    correction = next(a for a in log if a["kind"] == "correction")
    assert correction["undoes"] == correction["seq"] - 1 and correction["reason"] == "the wrong checker was moved"
    assert correction["entered_by"] == "user:demo-director" and log[-1]["idempotency_key"] == "phone-42"
    entered = {a["entered_by"] for m in doc["matches"] for a in m["actions"]}
    assert {None, "user:demo-director", "entry-link:0"} <= entered
    # New players, the importer directs, old links open nothing in the copy, the key still answers a retry.
    assert Player.objects.count() == players_before + len(doc["players"])
    assert not set(Player.objects.filter(entries__division__event=trip.imported).values_list("pk", flat=True)) & {
        p["id"] for p in doc["players"]
    }
    assert list(trip.imported.directors.all()) == [importer]
    copy_of_playing = Match.objects.get(pairing__division__event=trip.imported, pairing__key="main-2-1")
    assert not EntryToken.objects.filter(match=copy_of_playing, revoked_at__isnull=True).exists()
    assert all(t.match_id == playing.pk for t in links)
    retry = games.record_roll(
        copy_of_playing.pk, actor=SYSTEM, side=0, dice=(6, 6), expected_seq=None, idempotency_key="phone-42"
    )
    assert retry.retried and retry.action.seq == copy_of_playing.seq


def cached(match_ids: list[int]) -> list[tuple[Any, ...]]:
    """What the match rows and game rows of these matches hold, as stored."""
    fields = ("seq", "state", "score1", "score2", "status", "winner_id", "started_at", "finished_at")
    rows = Match.objects.filter(pk__in=match_ids).order_by("pk").values_list("pk", *fields)
    game_rows = Game.objects.filter(match_id__in=match_ids).order_by("match_id", "number").values()
    return [*rows, *({k: v for k, v in game.items() if k != "id"} for game in game_rows)]


def test_the_restored_matches_caches_are_what_a_replay_of_their_logs_writes(importer: Any) -> None:
    event = load_demo()
    director = Actor(user=event.directors.get())
    playing = Pairing.objects.get(division__event=event, key="main-2-1").match
    games.undo_last_action(playing.pk, actor=director, reason="the wrong checker was moved")
    imported = import_event(export_event(event), slug="cached", actor=Actor(user=importer))
    match_ids = [m["id"] for m in document(export_event(imported))["matches"]]
    restored = cached(match_ids)
    for match in Match.objects.filter(pk__in=match_ids).select_related("player1", "player2"):
        rebuild_match(match)
    assert cached(match_ids) == restored
    assert {status for _, _, _, _, _, status, *_ in restored[: len(match_ids)]} >= {"finished", "in_progress"}


def test_a_swiss_event_with_a_rating_list_round_trips_losslessly(importer: Any) -> None:
    event = simulated("swiss", 7, rounds=3)
    rating_list = services.create_rating_list(actor=rehearsal_director(), name="Club list", k_factor=3.0)
    Event.objects.filter(pk=event.pk).update(rating_list=rating_list)
    event.refresh_from_db()
    assert services.recompute_ratings(rating_list.pk) > 0

    trip = round_trip(event, importer)
    check_lossless(trip)

    doc = document(trip.first)
    assert doc["rating_list"]["k_factor"] == 3.0 and len(doc["rating_list"]["changes"]) > 0
    copied = trip.imported.rating_list
    assert copied is not None and copied.pk != rating_list.pk and list(copied.owners.all()) == [importer]
    names = dict(Player.objects.values_list("pk", "display_name"))
    assert sorted((names[r.player_id], r.rating, r.matches) for r in copied.ratings.all()) == sorted(
        (names[r.player_id], r.rating, r.matches) for r in rating_list.ratings.all()
    )


def test_a_double_elimination_event_round_trips_losslessly(importer: Any) -> None:
    event = simulated("double-elimination", 6)
    trip = round_trip(event, importer)
    check_lossless(trip)
    pairings = [p for d in document(trip.first)["divisions"] for p in d["pairings"]]
    assert any(p["conditional"] for p in pairings) and any(p["confirmation"] == "confirmed" for p in pairings)


def test_a_divisions_money_round_trips_with_its_payments(importer: Any) -> None:
    """The fees, the side pool's table and who paid how (and a refund) travel with the event, amounts exactly."""
    event = simulated("single", 4)
    division = event.divisions.get()
    division.entry_fee, division.side_pool_fee, division.house_share = Decimal("5.50"), Decimal(10), Decimal("12.5")
    division.added_money, division.side_pool_prizes = Decimal(20), ["70", "30"]
    division.save()
    entries = list(division.entries.order_by("pk"))
    Entry.objects.filter(pk=entries[0].pk).update(paid="cash", side_pool="transfer")
    Entry.objects.filter(pk=entries[1].pk).update(paid="transfer", refunded=True)
    trip = round_trip(event, importer)
    check_lossless(trip)
    copy = trip.imported.divisions.get()
    assert (copy.entry_fee, copy.side_pool_fee, copy.house_share, copy.added_money, copy.side_pool_prizes) == (
        Decimal("5.50"),
        Decimal("10.00"),
        Decimal("12.50"),
        Decimal("20.00"),
        ["70", "30"],
    )
    marks = list(copy.entries.order_by("pk").values_list("paid", "side_pool", "refunded"))
    assert marks[:2] == [("cash", "transfer", False), ("transfer", "", True)]
    assert document(trip.first)["divisions"][0]["entry_fee"] == "5.50"


def test_a_swiss_into_a_knockout_round_trips_with_its_knockout_seeds(importer: Any) -> None:
    event = simulated("swiss-knockout", 9)
    trip = round_trip(event, importer)
    check_lossless(trip)
    first, imported = event.divisions.get(), trip.imported.divisions.get()
    names = dict(Entry.objects.values_list("pk", "player__display_name"))
    assert len(imported.knockout_seeds) == imported.knockout_size == 8
    assert [names[pk] for pk in imported.knockout_seeds] == [names[pk] for pk in first.knockout_seeds]
    assert set(imported.knockout_seeds) <= set(imported.entries.values_list("pk", flat=True))


def test_a_three_bracket_event_with_corrections_and_a_penalty_round_trips_losslessly(importer: Any) -> None:
    event = simulated("main-consolation-lastchance", 8)
    division = event.divisions.get()
    director = rehearsal_director()
    # A correction with override: a first-round result is reopened after later matches were played on it (they
    # are voided, left detached from their slots, and played again).
    first = Pairing.objects.get(division=division, key="main-1-0")
    games.reopen_match(first.match_id, actor=director, reason="the scores were swapped", override=True)
    services.sync_division(division.pk)
    while Match.objects.get(pk=first.match_id).status == Match.Status.IN_PROGRESS:
        games.record_game_result(first.match_id, actor=director, winner=1, kind=1, expected_seq=None)
    run_division(division, director, random.Random(4))
    finals = {
        bracket: Pairing.objects.filter(division=division, round__bracket=bracket)
        .select_related("entry_a", "entry_b")
        .order_by("-round__number")
        .first()
        for bracket in ("main", "consolation")
    }
    # A corrected result: the consolation final's last game was won by more (a correction with a replacement).
    last = Game.objects.filter(match=finals["consolation"].match).order_by("number").last()
    kind = 2 if last.result_kind == 3 else 3
    games.replace_game_result(
        last.match_id,
        actor=director,
        game_number=last.number,
        winner=last.winner_side,
        kind=kind,
        cube_value=last.cube_value,
        reason="it was a gammon, not a single game",
    )
    # The main final is reopened (a correction undoing its last result), voided (a new match is made for the
    # slot; the void one stays, detached), and the new match starts with penalty points.
    final = finals["main"]
    games.reopen_match(final.match_id, actor=director, reason="the result went on the wrong sheet")
    games.void_match(final.match_id, actor=director, reason="played with the wrong players' scoresheet")
    services.sync_division(division.pk)
    final.refresh_from_db()
    services.give_penalty(final, actor=director, against=final.entry_b, points=1, reason="late back from the break")
    while Match.objects.get(pk=final.match_id).status == Match.Status.IN_PROGRESS:
        games.record_game_result(final.match_id, actor=director, winner=0, kind=1, expected_seq=None)
    run_division(division, director, random.Random(5))
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    detached = Match.objects.filter(pairing__isnull=True, source__startswith=f"{event.slug}/")
    assert detached.count() > 1 and all(m.status == Match.Status.VOID for m in detached)

    trip = round_trip(event, importer)
    check_lossless(trip)

    doc = document(trip.first)
    replaced = next(a for m in doc["matches"] for a in m["actions"] if a["data"].get("replacement"))
    assert replaced["kind"] == "correction" and replaced["data"]["replacement"]["kind"] == kind
    penalised = next(m for m in doc["matches"] if any(a["kind"] == "penalty" for a in m["actions"]))
    assert penalised["mat_file"] is None
    assert {"match": penalised["id"], "reason": "this match has penalty points, which a .mat log has no place for"} in (
        doc["mat_skipped"]
    )
    pairing = next(p for d in doc["divisions"] for p in d["pairings"] if p["match"] == penalised["id"])
    assert (pairing["penalty_a"], pairing["penalty_b"]) == (0, 1)
    assert len(doc["matches"]) == Match.objects.filter(pairing__division=division).count() + detached.count()
    copies = Match.objects.filter(pairing__isnull=True, source__startswith="imported-copy/", status="void")
    assert copies.count() == detached.count()


def test_an_archive_imported_twice_makes_two_events_with_their_own_players(importer: Any) -> None:
    event = simulated("single", 3)
    data = export_event(event)
    first = import_event(data, slug="copy-one", actor=Actor(user=importer))
    second = import_event(data, slug="copy-two", actor=Actor(user=importer))
    one = set(Player.objects.filter(entries__division__event=first).values_list("pk", flat=True))
    two = set(Player.objects.filter(entries__division__event=second).values_list("pk", flat=True))
    assert len(one) == len(two) == 3 and not one & two


# -- refusals ------------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_archive(django_db_setup: Any, django_db_blocker: Any) -> bytes:
    """The archive of a small event with both kinds of match (a Swiss round played move by move from the players'
    entry links; a scoresheet knockout with a swap of seeds and a forfeit), made once for the module; the event
    itself is rolled back, so each test starts without it."""
    with django_db_blocker.unblock(), transaction.atomic():
        director = Actor(user=get_user_model().objects.get_or_create(username="rehearsal-director")[0])
        event = services.create_event(actor=director, name="Rehearsal with a side event")
        swiss = services.create_division(
            event,
            actor=director,
            settings=services.DivisionSettings(
                name="Championship", format="swiss", rounds_planned=1, entry_mode="moves", match_length=1
            ),
        )
        for n in range(4):
            services.register_player(swiss, actor=director, name=f"Player {n:03d}", rating=1500 + 10 * n)
        # The side division is added while the event runs: a closed event takes no new division.
        settings = services.DivisionSettings(name="Side", format="single", match_length=3, entry_mode="scoresheet")
        division = services.create_division(event, actor=director, settings=settings)
        services.start_division(swiss, actor=director)
        run_division(swiss, director, random.Random(11))
        entries = [
            services.register_player(division, actor=director, name=f"Side {n}", rating=1600 - n) for n in range(4)
        ]
        services.start_division(division, actor=director)
        # A swap of seeds before play (the slots' first matches are voided and left detached) and a forfeit.
        first, second = (Entry.objects.get(pk=e.pk) for e in entries[:2])  # seeded by the draw
        services.swap_players(division, actor=director, first=first, second=second, reason="wrong seeds")
        slot = Pairing.objects.get(division=division, key="main-1-0")
        loser = slot.entry_b if slot.entry_b is not None else slot.entry_a
        services.award_forfeit(slot, actor=director, loser=loser, kind="no-show", reason="not there at 10:00")
        run_division(division, director, random.Random(1))
        data = export_event(event)
        transaction.set_rollback(True)
    return data


def test_moves_entered_from_entry_links_round_trip_losslessly(small_archive: bytes, importer: Any) -> None:
    copied = import_event(small_archive, slug="from-links", actor=Actor(user=importer))
    again = export_event(copied)
    assert normalized(document(again)) == normalized(document(small_archive))
    assert mat_files(again) == mat_files(small_archive)
    side = next(d for d in document(again)["divisions"] if d["name"] == "Side")
    assert any(p["swapped_reason"] for p in side["pairings"])
    held = {p["match"] for d in document(again)["divisions"] for p in d["pairings"]}
    assert any(m["status"] == "void" and m["id"] not in held for m in document(again)["matches"])
    assert any(p["decision"] == "forfeit-no-show" and p["decision_reason"] for p in side["pairings"])
    plays = [a for m in document(again)["matches"] for a in m["actions"] if a["kind"] == "play"]
    assert plays and {a["entered_by"] for a in plays} == {"entry-link:0", "entry-link:1"}
    # The rows point at revoked links made for the purpose: the log says which side entered what, and the links
    # open nothing.
    links = EntryToken.objects.filter(match__pairing__division__event=copied)
    assert links.exists() and all(link.revoked_at is not None for link in links)
    for link in links:
        with pytest.raises(ApplicationError) as info:
            access_entry_token(token_text(link))
        assert info.value.code is ErrorCode.FORBIDDEN


def first_action(doc: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(a for m in doc["matches"] for a in m["actions"] if a["kind"] == kind)


def tamper_play(doc: dict[str, Any]) -> None:
    first_action(doc, "play")["steps"] = "13/1"


def tamper_result(doc: dict[str, Any]) -> None:
    match = next(m for m in doc["matches"] if any(a["kind"] == "game-result" for a in m["actions"]))
    match["score1"] += 1


def tamper_game(doc: dict[str, Any]) -> None:
    doc["matches"][0]["games"][0]["points"] += 1


def undo_later(doc: dict[str, Any]) -> None:
    actions = doc["matches"][0]["actions"]
    actions[0]["undoes"] = actions[-1]["seq"]


def set_in(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = doc
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        if value is KeyError:
            del target[last]
        else:
            target[last] = value

    return change


CORRUPTIONS = {
    "wrong version": (set_in("version", 2), "version 2 of the archive format; this installation reads version 1"),
    "another format": (set_in("format", "something-else"), "is not a bgmatch-event-archive document"),
    "missing key": (set_in("divisions.0.format", KeyError), "divisions[0]: the key 'format' is missing"),
    "missing list": (set_in("players", KeyError), "the key 'players' is missing"),
    "unknown choice": (set_in("divisions.0.format", "triple-elimination"), "divisions[0]: format: Value"),
    "wrong type": (set_in("players.0.display_name", ["x"]), "players[0].display_name: expected a string, not a list"),
    "unknown time zone": (set_in("event.time_zone", "Mars/Olympus"), "event.time_zone: unknown time zone"),
    "bad time": (set_in("event.created_at", "yesterday"), "event.created_at: expected an ISO 8601 date and time"),
    "bad reference": (set_in("divisions.0.pairings.0.entry_a", 10**9), "pairings[0].entry_a: 1000000000 is not"),
    "bad dice": (set_in("matches.0.actions.0.dice", [7, 1]), "actions[0].dice: dice are two numbers from 1 to 6"),
    "bad author": (set_in("matches.0.actions.0.entered_by", "robot"), 'entered_by: expected "user:<username>"'),
    "gap in the log": (set_in("matches.0.actions.1.seq", 9), "actions[1].seq: a log's sequence numbers run 1, 2, 3"),
    "undoing a later action": (undo_later, "actions[0].undoes: an action undoes an earlier action"),
    "illegal play": (tamper_play, "is refused by the engine: 13/1"),
    "result the log does not give": (tamper_result, "the log replays to score"),
    "game row the log does not give": (tamper_game, "games[0]: game 1 replays to points"),
}


@pytest.mark.parametrize(("change", "message"), CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupted_document_is_refused_and_nothing_is_stored(
    small_archive: bytes, importer: Any, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    doc = document(small_archive)
    change(doc)
    before = row_counts()
    with pytest.raises(ApplicationError) as info:
        import_event(rezip(small_archive, doc), slug="tampered", actor=Actor(user=importer))
    assert info.value.code is ErrorCode.INVALID_INPUT
    assert message in info.value.message and info.value.message.startswith("event.json")
    assert row_counts() == before


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda data: b"this is no zip file", "this is not a readable zip archive"),
        (lambda data: data[: len(data) // 2], "this is not a readable zip archive"),
        (lambda data: rezip(data, drop="event.json"), "the archive holds no event.json"),
        (lambda data: rezip(data, raw=b'{"format": '), "event.json is not valid JSON"),
        (lambda data: rezip(data, raw=b"[1, 2]"), "is not a bgmatch-event-archive document"),
    ],
    ids=["not a zip", "cut short", "no event.json", "not JSON", "not an object"],
)
def test_an_unreadable_file_is_refused_and_nothing_is_stored(
    small_archive: bytes, importer: Any, make: Callable[[bytes], bytes], message: str
) -> None:
    before = row_counts()
    with pytest.raises(ApplicationError) as info:
        import_event(make(small_archive), slug="unreadable", actor=Actor(user=importer))
    assert info.value.code is ErrorCode.INVALID_INPUT and message in info.value.message
    assert row_counts() == before


def test_an_address_in_use_is_refused_unless_a_new_one_is_given(small_archive: bytes, importer: Any) -> None:
    actor = Actor(user=importer)
    assert import_event(small_archive, actor=actor).slug == document(small_archive)["event"]["slug"]
    before = row_counts()
    with pytest.raises(ApplicationError) as info:
        import_event(small_archive, actor=actor)
    assert info.value.code is ErrorCode.CONFLICT and "already exists" in info.value.message
    with pytest.raises(ApplicationError, match="not a valid address"):
        import_event(small_archive, slug="Not A Slug", actor=actor)
    assert row_counts() == before
    assert import_event(small_archive, slug="second-copy", actor=actor).slug == "second-copy"


def test_who_may_import(small_archive: bytes, importer: Any) -> None:
    copied = import_event(small_archive, actor=Actor(user=importer))
    match = Match.objects.filter(pairing__division__event=copied).first()
    assert match is not None
    with pytest.raises(ApplicationError) as info:
        import_event(small_archive, slug="by-link", actor=Actor(token=new_entry_token(match, 0)))
    assert info.value.code is ErrorCode.FORBIDDEN
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(ApplicationError) as info:
        import_event(small_archive, slug="by-nobody", actor=Actor(user=AnonymousUser()))
    assert info.value.code is ErrorCode.NOT_AUTHENTICATED
    # The system (the command without --director): imported, directed by nobody but staff.
    assert not import_event(small_archive, slug="by-system", actor=SYSTEM).directors.exists()


# -- the commands --------------------------------------------------------------------------------------------------


def test_the_commands_export_and_import_an_event(tmp_path: Any, importer: Any) -> None:
    event = simulated("single", 4)
    out = io.StringIO()
    path = tmp_path / "club.zip"
    call_command("export_event", event.slug, "--out", str(path), stdout=out)
    assert path.exists() and f"wrote {path}" in out.getvalue()
    call_command("import_event", str(path), "--slug", "club-copy", "--director", "ivy", stdout=out)
    assert "imported" in out.getvalue() and "'club-copy'" in out.getvalue()
    copied = Event.objects.get(slug="club-copy")
    assert list(copied.directors.all()) == [importer]
    assert normalized(document(export_event(copied))) == normalized(document(path.read_bytes()))


def test_the_commands_default_file_name(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    event = simulated("single", 2)
    monkeypatch.chdir(tmp_path)
    call_command("export_event", event.slug, stdout=io.StringIO())
    assert (tmp_path / f"{event.slug}.zip").exists()


def test_the_commands_explain_what_went_wrong(tmp_path: Any, importer: Any) -> None:
    with pytest.raises(CommandError, match="there is no event with the address 'nowhere'"):
        call_command("export_event", "nowhere", "--out", str(tmp_path / "x.zip"))
    event = simulated("single", 2)
    path = tmp_path / "event.zip"
    call_command("export_event", event.slug, "--out", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="already exists"):
        call_command("import_event", str(path), "--director", "ivy")
    with pytest.raises(CommandError, match="there is no user 'nobody'"):
        call_command("import_event", str(path), "--slug", "x", "--director", "nobody")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_event", str(tmp_path / "missing.zip"), "--slug", "x")
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"garbage")
    with pytest.raises(CommandError, match=r"broken\.zip was not imported: this is not a readable zip archive"):
        call_command("import_event", str(broken), "--slug", "x")


def test_an_archive_written_before_the_later_fields_imports_with_their_defaults(
    small_archive: bytes, importer: Any
) -> None:
    later = {name for names in ADDED_SINCE_FIRST_WRITTEN.values() for name in names}
    removed: list[str] = []

    def strip(value: Any) -> None:  # the document as a build before these fields wrote it
        if isinstance(value, dict):
            for name in later & value.keys():
                del value[name]
                removed.append(name)
            for item in value.values():
                strip(item)
        elif isinstance(value, list):
            for item in value:
                strip(item)

    doc = document(small_archive)
    strip(doc)
    assert ADDED_SINCE_FIRST_WRITTEN[Division] | ADDED_SINCE_FIRST_WRITTEN[Match] <= set(removed)
    copied = import_event(rezip(small_archive, doc), slug="before-the-later-fields", actor=Actor(user=importer))
    divisions = Division.objects.filter(event=copied)
    assert divisions.count() == 2
    for division in divisions:
        assert not division.casual and not division.analyse_each_game
        assert division.forfeit_tiebreaks == Division._meta.get_field("forfeit_tiebreaks").get_default()


# -- matches imported into the event ---------------------------------------------------------------------------------

CUBE_MATCH = Path(__file__).resolve().parents[1] / "engine" / "data" / "gnubg" / "exported" / "gnubg_5pt_cube.mat"


def event_with_an_imported_match(importer: Any) -> tuple[Event, Match]:
    event = services.create_event(actor=Actor(user=importer), name="Club night", analyse_imported=True)
    call_command("import_matches", "--event", event.slug, str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
    return event, Match.objects.latest("id")


def test_a_match_imported_into_the_event_travels_and_is_attached_again(importer: Any) -> None:
    event, match = event_with_an_imported_match(importer)
    trip = round_trip(event, importer)
    doc = document(trip.first)
    assert [m["id"] for m in doc["matches"]] == [match.pk]
    assert doc["imported_matches"] == [
        {
            "match": match.pk,
            "created_at": ImportedMatch.objects.get(match=match).created_at.astimezone(dt.UTC).isoformat(),
        }
    ]
    copied = ImportedMatch.objects.select_related("match").get(event=trip.imported)
    assert copied.match.pk != match.pk and copied.match.score == match.score and copied.match.seq == match.seq
    assert copied.created_at == ImportedMatch.objects.get(match=match).created_at
    check_lossless(trip)


def test_an_archive_without_imported_matches_imports_as_before(small_archive: bytes, importer: Any) -> None:
    doc = document(small_archive)
    assert doc["imported_matches"] == []
    del doc["imported_matches"]
    copied = import_event(rezip(small_archive, doc), slug="before-imported-matches", actor=Actor(user=importer))
    assert not ImportedMatch.objects.filter(event=copied).exists()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda doc: doc["imported_matches"].append(dict(doc["imported_matches"][0])), "this match is listed twice"),
        (lambda doc: doc["imported_matches"][0].update(match=999_999), "999999 is not the id of a record of the file"),
        (lambda doc: doc["imported_matches"].clear(), "it is not in imported_matches"),
    ],
    ids=["twice", "unknown-match", "unlisted"],
)
def test_a_wrong_imported_match_is_refused_and_nothing_is_stored(
    importer: Any, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    event, _ = event_with_an_imported_match(importer)
    data = export_event(event)
    doc = document(data)
    change(doc)
    before = row_counts()
    with pytest.raises(ApplicationError, match=re.escape(message)):
        import_event(rezip(data, doc), slug="wrong-imported", actor=Actor(user=importer))
    assert row_counts() == before
