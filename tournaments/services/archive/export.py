"""Writing an event's archive (reads only)."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from django.utils import timezone
from django.utils.text import slugify

from engine.errors import EngineError
from games.export import match_mat
from games.models import Action, Game, Match, Player
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
from tournaments.services.archive.fields import (
    ACTION_FIELDS,
    DIVISION_FIELDS,
    ENTERED_BY_KEY,
    ENTRY_FIELDS,
    EVENT_FIELDS,
    EVENT_JSON,
    FORMAT,
    GAME_FIELDS,
    IMPORTED_MATCH_FIELDS,
    MATCH_FIELDS,
    NOTES,
    PAIRING_FIELDS,
    PLAYER_FIELDS,
    PLAYOFF_FIELDS,
    RATING_CHANGE_FIELDS,
    RATING_FIELDS,
    RATING_LIST_FIELDS,
    ROUND_FIELDS,
    STANDING_FIELDS,
    VERSION,
)
from tournaments.services.archive.reading import _plain, _value


def export_event(event: Event) -> bytes:
    """The archive of ``event`` (see the module docstring) as the bytes of a zip file. Reads only."""
    document, mats = archive_contents(event)
    stamp = timezone.localtime(timezone.now()).timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo(EVENT_JSON, stamp), dump_document(document), zipfile.ZIP_DEFLATED)
        for name, text in mats:
            archive.writestr(zipfile.ZipInfo(name, stamp), text.encode("utf-8"), zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def dump_document(document: dict[str, Any]) -> bytes:
    """``event.json``'s bytes: UTF-8, keys sorted, one value per line."""
    return (json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def archive_contents(event: Event) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The ``event.json`` document of ``event`` and its .mat files as (name in the archive, text)."""
    divisions = list(Division.objects.filter(event=event).order_by("id"))
    entries = list(Entry.objects.filter(division__event=event).order_by("id"))
    rounds = list(Round.objects.filter(division__event=event).order_by("id"))
    pairings = list(Pairing.objects.filter(division__event=event).order_by("id"))
    standings = list(Standing.objects.filter(division__event=event).order_by("id"))
    playoffs = list(Playoff.objects.filter(division__event=event).order_by("id"))
    match_ids = {p.match_id for p in pairings if p.match_id is not None}
    match_ids |= {pk for p in playoffs for pk in (p.first_match_id, p.final_match_id) if pk is not None}
    detached = Match.objects.filter(pairing__isnull=True, source__startswith=f"{event.slug}/")
    match_ids |= set(detached.values_list("id", flat=True))
    imported = list(ImportedMatch.objects.filter(event=event).order_by("id"))
    match_ids |= {row.match_id for row in imported}
    matches = list(Match.objects.filter(pk__in=match_ids).select_related("player1", "player2").order_by("id"))
    player_ids = {e.player_id for e in entries} | {p for m in matches for p in (m.player1_id, m.player2_id)}
    players = list(Player.objects.filter(pk__in=player_ids).order_by("id"))

    actions: dict[int, list[Action]] = {m.pk: [] for m in matches}
    rows = Action.objects.filter(match_id__in=match_ids).select_related("entered_by_user", "entered_by_token")
    for row in rows.order_by("match_id", "seq"):
        actions[row.match_id].append(row)
    games: dict[int, list[Game]] = {m.pk: [] for m in matches}
    for game in Game.objects.filter(match_id__in=match_ids).order_by("match_id", "number"):
        games[game.match_id].append(game)

    mats: list[tuple[str, str]] = []
    skipped: list[dict[str, Any]] = []
    match_records = []
    for match in matches:
        record = _plain(match, MATCH_FIELDS)
        record.update(id=match.pk, player1=match.player1_id, player2=match.player2_id, winner=match.winner_id)
        record["games"] = [_plain(game, GAME_FIELDS) for game in games[match.pk]]
        record["actions"] = _action_records(actions[match.pk])
        try:
            text = match_mat(match)
        except EngineError as exc:
            record["mat_file"] = None
            skipped.append({"match": match.pk, "reason": str(exc)})
        else:
            record["mat_file"] = mat_name(match)
            mats.append((record["mat_file"], text))
        match_records.append(record)

    division_records = []
    for division in divisions:
        record = _plain(division, DIVISION_FIELDS)
        record["id"] = division.pk
        record["knockout_seeds"] = list(division.knockout_seeds)
        record["entries"] = [
            {**_plain(e, ENTRY_FIELDS), "id": e.pk, "player": e.player_id}
            for e in entries
            if e.division_id == division.pk
        ]
        record["rounds"] = [{**_plain(r, ROUND_FIELDS), "id": r.pk} for r in rounds if r.division_id == division.pk]
        record["pairings"] = [_pairing_record(p) for p in pairings if p.division_id == division.pk]
        record["standings"] = [
            {**_plain(s, STANDING_FIELDS), "id": s.pk, "entry": s.entry_id}
            for s in standings
            if s.division_id == division.pk
        ]
        record["playoffs"] = [_playoff_record(p) for p in playoffs if p.division_id == division.pk]
        division_records.append(record)

    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _value(timezone.now()),
        "notes": list(NOTES),
        "event": {**_plain(event, EVENT_FIELDS), "id": event.pk},
        "divisions": division_records,
        "players": [{**_plain(p, PLAYER_FIELDS), "id": p.pk} for p in players],
        "matches": match_records,
        "mat_skipped": skipped,
        "imported_matches": [{**_plain(row, IMPORTED_MATCH_FIELDS), "match": row.match_id} for row in imported],
        "rating_list": _rating_list_record(event.rating_list, player_ids, match_ids),
    }
    return document, mats


def mat_name(match: Match) -> str:
    """``matches/<id>-<player 1>-<player 2>.mat``, the names as address parts."""
    first = slugify(match.player1.display_name) or "player-1"
    second = slugify(match.player2.display_name) or "player-2"
    return f"matches/{match.pk}-{first}-{second}.mat"


def entered_by(row: Action) -> str | None:
    """Who entered a log row: ``user:<username>``, ``entry-link:<side>`` or None (the system, or unknown)."""
    if row.entered_by_token is not None:
        return f"entry-link:{row.entered_by_token.side}"
    if row.entered_by_user is not None:
        return f"user:{row.entered_by_user.get_username()}"
    kept = row.data.get(ENTERED_BY_KEY) if isinstance(row.data, dict) else None
    return kept if isinstance(kept, str) else None


def _action_records(rows: list[Action]) -> list[dict[str, Any]]:
    seq_of = {row.pk: row.seq for row in rows}
    out = []
    for row in rows:
        record = _plain(row, ACTION_FIELDS)
        if isinstance(row.data, dict) and ENTERED_BY_KEY in row.data:
            record["data"] = {k: v for k, v in row.data.items() if k != ENTERED_BY_KEY}
        record["dice"] = None if row.die1 is None and row.die2 is None else [row.die1, row.die2]
        record["undoes"] = None if row.undoes_id is None else seq_of[row.undoes_id]
        record["entered_by"] = entered_by(row)
        out.append(record)
    return out


def _playoff_record(p: Playoff) -> dict[str, Any]:
    record = _plain(p, PLAYOFF_FIELDS)
    record.update(
        id=p.pk, entries=list(p.entries), order=list(p.order), first_match=p.first_match_id,
        final_match=p.final_match_id,
    )  # fmt: skip
    return record


def _pairing_record(p: Pairing) -> dict[str, Any]:
    record = _plain(p, PAIRING_FIELDS)
    record.update(
        id=p.pk, round=p.round_id, entry_a=p.entry_a_id, entry_b=p.entry_b_id, winner=p.winner_id, match=p.match_id
    )
    return record


def _rating_list_record(
    rating_list: RatingList | None, player_ids: set[int], match_ids: set[int]
) -> dict[str, Any] | None:
    if rating_list is None:
        return None
    record = _plain(rating_list, RATING_LIST_FIELDS)
    ratings = Rating.objects.filter(rating_list=rating_list, player_id__in=player_ids).order_by("id")
    changes = RatingChange.objects.filter(rating_list=rating_list, match_id__in=match_ids, player_id__in=player_ids)
    record["ratings"] = [{**_plain(r, RATING_FIELDS), "player": r.player_id} for r in ratings]
    record["changes"] = [
        {**_plain(c, RATING_CHANGE_FIELDS), "match": c.match_id, "player": c.player_id} for c in changes.order_by("id")
    ]
    return record
