"""Whole-event archives: one zip file that carries an event from one installation to another, losslessly.

:func:`export_event` writes the archive; :func:`import_event` reads one back as a new event. Behind
``python manage.py export_event`` and ``python manage.py import_event``.

The archive is a zip file holding

- ``event.json``: the event, its divisions (every setting) with their entries, rounds, pairings (sources, reasons,
  decisions, confirmations, penalties, swap notes), standings and playoffs for ties (their tied entries, their
  order once played, their matches: matches of no pairing, whose source names the event), the players involved,
  every match of the event with every row of its action log in sequence order and its game rows, and the event's
  rating list (its ratings for the players involved and its rating changes for the matches in the file), if it has
  one;
- ``matches/<match id>-<player 1>-<player 2>.mat``: each match as a .mat match log (``games.export.match_mat``),
  for every match the .mat format can hold; the others are listed in ``mat_skipped`` with the reason.

``imported_matches`` lists the matches imported into the event from match logs (``import_matches --event``, the
API's import with an event), which belong to no pairing: each is in ``matches`` with its log, and the import attaches
it to the new event again (so that the event's "analyse imported matches" and its pages see it). A file written
before the list existed reads as none.

Terms and invariants

- **Ids** in the file are the exporting installation's; they only link records within the file. An import makes
  new rows with new ids, in file order, so a second export of the imported event lists the records in the same
  order. Keys are sorted, datetimes are ISO 8601 with their UTC offset, dates ISO 8601.
- **The log is the truth.** An imported match gets its action rows as they were (kind, side, dice, play, steps,
  value, data, positions, what each correction undoes, reasons, idempotency keys, times), then
  ``games.services.rebuild_match`` replays them through the engine and rewrites the caches; the import is refused
  unless the replay gives the score, status, winner and game rows the file says. The .mat files are derived (an
  import does not read them).
- **Not exported:** players' ``contact`` field (personal data), entry-link secrets, user accounts (directors, rating
  list owners, the users players are linked to, the user who created a match). The importing user becomes the
  event's director and the rating list's owner.
- **Who entered an action** is written ``"user:<username>"``, ``"entry-link:<side>"`` or null. On import an
  entry-link row points at a revoked entry link of that side made for the purpose (it opens nothing, but the log
  keeps saying which side entered what); a user's name, having no account to point at, is kept in the row's
  ``data`` under :data:`ENTERED_BY_KEY` (read back by the next export). New entry links are made after import.
- **Players** are created anew, never merged with players of the same name already in the installation.
- **Season points** (tournaments/services/seasons.py) are not carried: the imported event belongs to no club, so to
  no season (a club's seasons count its own events only, whose rows stay as they were); after restoring a whole
  database, ``manage.py season_points`` computes every season again.
- **Matches detached from their slot** (voided when an upstream correction changed the slot's players) belong to
  no pairing; they are found by their source ``<event slug>/<division>/<slot>`` and travel too. An import under a
  new address rewrites that prefix of the sources.
- **Nothing is stored on any error**: the import runs in one transaction, and every refusal is an
  ``ApplicationError`` (INVALID_INPUT naming the record and what is wrong; CONFLICT for an address in use).
"""

from __future__ import annotations

import datetime as dt
import io
import json
import secrets
import zipfile
import zoneinfo
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, models, transaction
from django.utils import timezone
from django.utils.text import slugify

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from engine.errors import EngineError
from games.access import new_entry_tokens
from games.engine_bridge import engine_action, new_state, replacement_action
from games.export import match_mat
from games.models import Action, EntryToken, Game, Match, Player
from games.selectors import effective_actions
from games.services import rebuild_match
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

FORMAT = "bgmatch-event-archive"
VERSION = 1
EVENT_JSON = "event.json"
#: The largest ``event.json`` an import reads (uncompressed).
MAX_JSON_BYTES = 256 * 1024 * 1024
#: Where an imported action row keeps the name of the user who entered it on the exporting site.
ENTERED_BY_KEY = "archive_entered_by"

NOTES = (
    "Ids are the exporting installation's; they only link records within this file.",
    "Players' contact details (the contact field) are personal data and are not exported.",
    "Entry-link secrets are never exported: new entry links are made after import.",
    "Directors and other user accounts are not carried over (users differ between installations): the importing "
    "user becomes the director. entered_by names the exporting site's user or entry link as text.",
    "The rating list is a snapshot: its ratings of this event's players and its changes for this event's matches.",
    "The .mat files are derived from the action logs; an import reads event.json only.",
)

# The fields copied as they are, per record (references, nested lists and derived values are handled apart).
EVENT_FIELDS = ("name", "slug", "venue", "time_zone", "starts_on", "ends_on", "status", "public", "analyse_imported",
    "points_weight", "created_at",
)  # fmt: skip
DIVISION_FIELDS = (
    "name",
    "slug",
    "format",
    "match_length",
    "round_lengths",
    "crawford",
    "casual",
    "variant",
    "entry_mode",
    "clock",
    "seeding",
    "draw_seed",
    "tiebreaks",
    "forfeit_tiebreaks",
    "rounds_planned",
    "knockout_size",
    "double_round_robin",
    "drop_rounds",
    "last_chance_drop_rounds",
    "walkover_as_bye",
    "last_chance_places",
    "last_chance_closed",
    "grand_final_reset",
    "auto_pair",
    "analyse_each_game",
    "payouts",
    "points_weight",
    "points_places",
    "entry_fee",
    "side_pool_fee",
    "side_pool_prizes",
    "house_share",
    "added_money",
    "level",
    "rating_under",
    "rating_from",
    "status",
    "standings_status",
    "standings_error",
    "results_version",
    "standings_version",
    "started_at",
    "finished_at",
)
ENTRY_FIELDS = (
    "seed",
    "rating",
    "status",
    "late",
    "place",
    "registered_at",
    "checked_in_at",
    "withdrawn_at",
    "withdrawal_reason",
    "paid",
    "side_pool",
    "paid_at",
    "refunded",
    "cap_override",
)
ROUND_FIELDS = ("bracket", "number", "length", "seed", "created_at")
PAIRING_FIELDS = (
    "key",
    "board",
    "source_a",
    "source_b",
    "reason",
    "conditional",
    "length",
    "status",
    "score_a",
    "score_b",
    "confirmation",
    "confirmation_side",
    "dispute",
    "decision",
    "decision_reason",
    "penalty_a",
    "penalty_b",
    "swapped_reason",
    "played_at",
    "updated_at",
)
PLAYOFF_FIELDS = ("kind", "place", "after_round", "length", "status", "created_at", "finished_at")
STANDING_FIELDS = (
    "after_round",
    "rank",
    "wins",
    "losses",
    "byes",
    "points_for",
    "points_against",
    "tiebreaks",
    "places",
    "results_version",
)
PLAYER_FIELDS = ("display_name", "club", "country")
MATCH_FIELDS = (
    "length",
    "variant",
    "crawford",
    "casual",
    "entry_mode",
    "status",
    "private",
    "score1",
    "score2",
    "seq",
    "created_at",
    "started_at",
    "finished_at",
    "source",
)
GAME_FIELDS = (
    "number",
    "start_score1",
    "start_score2",
    "crawford",
    "opening_winner",
    "winner_side",
    "result_kind",
    "ended_by",
    "cube_value",
    "cube_owner",
    "points",
)
ACTION_FIELDS = (
    "seq",
    "game_number",
    "kind",
    "side",
    "play",
    "steps",
    "value",
    "data",
    "position_id",
    "match_id_after",
    "reason",
    "idempotency_key",
    "created_at",
)
RATING_LIST_FIELDS = ("name", "slug", "start", "k_factor", "computed_at")
RATING_FIELDS = ("rating", "experience", "matches")
RATING_CHANGE_FIELDS = ("order", "before", "after", "experience_before", "won")
IMPORTED_MATCH_FIELDS = ("created_at",)

#: Fields added since version 1 of the format was first written: a file made before them lacks them, and reads as
#: the field's default (what the setting meant before it existed). A field added later goes here too.
ADDED_SINCE_FIRST_WRITTEN: dict[type[models.Model], frozenset[str]] = {
    Event: frozenset({"analyse_imported", "points_weight"}),
    Division: frozenset(
        {
            "casual",
            "forfeit_tiebreaks",
            "analyse_each_game",
            "payouts",
            "knockout_size",
            "walkover_as_bye",
            "points_weight",
            "points_places",
            "entry_fee",
            "side_pool_fee",
            "side_pool_prizes",
            "house_share",
            "added_money",
            "level",
            "rating_under",
            "rating_from",
        }
    ),
    Entry: frozenset({"paid", "side_pool", "paid_at", "refunded", "cap_override"}),
    Standing: frozenset({"places"}),
    Match: frozenset({"casual"}),
    Pairing: frozenset({"played_at"}),
}

#: Every model field that is not copied as it is, and what the file does with it (a test checks that every field
#: of these models is either copied or named here, so a new field cannot be dropped silently).
HANDLED_APART: dict[type[models.Model], dict[str, str]] = {
    Event: {
        "id": "id",
        "directors": "not carried over: users differ",
        "rating_list": "the rating_list record",
        "tables_given": "the venue's tables are the room's, given again where the event is run",
        "club": "not carried over: a club, its roster and its directors belong to the installation it runs on",
    },
    Division: {
        "id": "id",
        "event": "nested in the event's document",
        "knockout_seeds": "references to its entries (knockout_seeds)",
        "points_under": "not carried over with points_season: a cap of points counts a season of the club",
        "points_season": "not carried over: a season belongs to its club, which stays where the event ran",
    },
    Entry: {"id": "id", "division": "nested in its division", "player": "reference"},
    Round: {"id": "id", "division": "nested in its division"},
    Pairing: {
        "id": "id",
        "division": "nested in its division",
        "round": "reference",
        "entry_a": "reference",
        "entry_b": "reference",
        "winner": "reference",
        "match": "reference",
        "table": "the venue's tables are the room's: the first sync after the import assigns them",
        "called_at": "a call belongs to the room it was made in",
        "followup": "work of the room it was due in: the result it follows is on the pairing, as are its standings",
    },
    Standing: {"id": "id", "division": "nested in its division", "entry": "reference"},
    Playoff: {
        "id": "id",
        "division": "nested in its division",
        "entries": "references to its entries",
        "order": "references to its entries",
        "first_match": "reference",
        "final_match": "reference",
    },
    Player: {
        "id": "id",
        "contact": "personal data: never exported",
        "user": "not carried over: users differ",
        "merged_into": "an event's rows name the kept record of a merge, never the merged one",
        "created_at": "the player is created anew",
        "updated_at": "the player is created anew",
    },
    Match: {
        "id": "id",
        "player1": "reference",
        "player2": "reference",
        "winner": "reference, checked against the replay",
        "state": "a cache, rebuilt by replaying the log",
        "created_by": "not carried over: users differ",
    },
    Game: {"id": "not exported", "match": "nested in its match; rebuilt by the replay and checked"},
    Action: {
        "id": "not exported: a row is its match's seq",
        "match": "nested in its match",
        "die1": "dice",
        "die2": "dice",
        "undoes": "undoes, the seq of the row undone",
        "entered_by_user": "entered_by",
        "entered_by_token": "entered_by (the link's secret is never exported)",
        "request_digest": "not exported: it names this site's sender of a keyed request, and senders differ",
    },
    RatingList: {"id": "not exported", "owners": "not carried over: users differ"},
    Rating: {"id": "not exported", "rating_list": "nested in the list", "player": "reference"},
    RatingChange: {
        "id": "not exported",
        "rating_list": "nested in the list",
        "match": "reference",
        "player": "reference",
    },
    ImportedMatch: {"id": "not exported", "event": "the file's event", "match": "reference"},
}


# -- export ----------------------------------------------------------------------------------------------------------


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


def _plain(obj: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    return {name: _value(getattr(obj, name)) for name in fields}


def _value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)  # an amount, exactly: "5.00"
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


# -- import ----------------------------------------------------------------------------------------------------------


def import_event(data: bytes, *, slug: str | None = None, actor: Actor) -> Event:
    """Store the archive ``data`` as a new event (new ids, new players) and return it.

    ``slug`` gives the new event another address than the file's. The acting user becomes its director (with the
    system actor, nobody does: staff direct it until a director is added).

    :raises ApplicationError: INVALID_INPUT naming what is wrong with the file (not a zip, no ``event.json``, a
        version this code does not read, a missing key, a wrong value or reference, a log the engine refuses or
        that replays to another result than the file says); CONFLICT when the address is taken; NOT_AUTHENTICATED
        or FORBIDDEN for an actor who may not create events. Nothing is stored on any error.
    """
    user = _importing_user(actor)
    document = read_archive(data)
    address = slug if slug is not None else _get(document["event"], "slug", "event", str)
    if not address or len(address) > 100 or slugify(address) != address:
        problem = f"{address!r} is not a valid address: use lower-case letters, digits and hyphens (at most 100)"
        raise (
            ApplicationError(ErrorCode.INVALID_INPUT, problem) if slug is not None else _invalid("event.slug", problem)
        )
    try:
        with transaction.atomic():
            if Event.objects.filter(slug=address).exists():
                raise ApplicationError(
                    ErrorCode.CONFLICT,
                    f"an event with the address {address!r} already exists here: import it under another one "
                    "(--slug NEW)",
                )
            return _Import(document, address, user).run()
    except (IntegrityError, DataError) as exc:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{EVENT_JSON}: the records break a rule of the database: {exc}"
        ) from exc


def read_archive(data: bytes) -> dict[str, Any]:
    """The ``event.json`` document of an archive, its format and version checked.

    :raises ApplicationError: INVALID_INPUT when the bytes are no zip file, hold no readable ``event.json``, or
        its format or version is not this one.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            try:
                member = archive.getinfo(EVENT_JSON)
            except KeyError:
                raise ApplicationError(
                    ErrorCode.INVALID_INPUT, f"the archive holds no {EVENT_JSON}: it is not an event archive"
                ) from None
            with archive.open(member) as stream:
                raw = stream.read(MAX_JSON_BYTES + 1)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"this is not a readable zip archive ({exc})") from exc
    if len(raw) > MAX_JSON_BYTES:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{EVENT_JSON} is larger than {MAX_JSON_BYTES} bytes")
    try:
        document = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{EVENT_JSON} is not valid JSON: {exc}") from exc
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{EVENT_JSON} is not a {FORMAT} document")
    version = document.get("version")
    if version != VERSION:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT,
            f"{EVENT_JSON} is version {version!r} of the archive format; this installation reads version {VERSION}",
        )
    for key, kind in (("event", dict), ("divisions", list), ("players", list), ("matches", list)):
        _get(document, key, "", kind)
    document.setdefault("imported_matches", [])  # a file written before the list existed: none
    _get(document, "imported_matches", "", list)
    _get(document, "rating_list", "", (dict, type(None)))
    return document


class _Import:
    """One import: the document's records made into rows, in dependency order, inside the caller's transaction.

    Order: players, the rating list, the event, matches (rows, then their logs, then the replay of each), then
    per division its entries, rounds, pairings and standings, and last the ratings."""

    def __init__(self, document: dict[str, Any], slug: str, user: Any) -> None:
        self.doc = document
        self.slug = slug
        self.old_slug = document["event"].get("slug")
        self.user = user
        self.players: dict[int, Player] = {}
        self.matches: dict[int, Match] = {}
        self.paired: set[int] = set()  # file ids of the matches a pairing holds
        self.imported: set[int] = set()  # file ids of the matches imported into the event

    def run(self) -> Event:
        self._players()
        rating_list = self._rating_list()
        event = self._event(rating_list)
        self._matches()
        self._imported_matches(event)
        for n, record in enumerate(self.doc["divisions"]):
            self._division(event, record, f"divisions[{n}]")
        self._check_detached()
        if rating_list is not None:
            self._ratings(rating_list, self.doc["rating_list"])
        return event

    # records without references to others ---------------------------------------------------------------------------

    def _players(self) -> None:
        for n, record in enumerate(self.doc["players"]):
            where = f"players[{n}]"
            self.players[_id(record, where, self.players)] = _build(Player, record, PLAYER_FIELDS, where)
        _insert(Player, list(self.players.values()))

    def _rating_list(self) -> RatingList | None:
        record = self.doc["rating_list"]
        if record is None:
            return None
        _keys(record, ("ratings", "changes"), "rating_list")
        rating_list = _build(RatingList, record, RATING_LIST_FIELDS, "rating_list")
        base, n = slugify(rating_list.slug or rating_list.name)[:80] or "rating-list", 1
        rating_list.slug = base
        while RatingList.objects.filter(slug=rating_list.slug).exists():
            n += 1
            rating_list.slug = f"{base}-{n}"
        rating_list.save()
        if self.user is not None:
            rating_list.owners.add(self.user)
        return rating_list

    def _event(self, rating_list: RatingList | None) -> Event:
        record = {**self.doc["event"], "slug": self.slug}
        event = _build(Event, record, EVENT_FIELDS, "event", rating_list=rating_list)
        try:
            zoneinfo.ZoneInfo(event.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise _invalid("event.time_zone", f"unknown time zone {event.time_zone!r}") from None
        _insert(Event, [event], keep=("created_at",))
        if self.user is not None:
            event.directors.add(self.user)
        return event

    # matches and their logs -----------------------------------------------------------------------------------------

    def _matches(self) -> None:
        records = self.doc["matches"]
        for n, record in enumerate(records):
            where = f"matches[{n}]"
            p1 = _ref(record, "player1", where, self.players)
            p2 = _ref(record, "player2", where, self.players)
            winner = _ref(record, "winner", where, self.players, nullable=True)
            match = _build(Match, record, MATCH_FIELDS, where, player1=p1, player2=p2, winner=winner)
            if p1 is p2:
                raise _invalid(where, "a match needs two different players")
            if winner is not None and winner not in (p1, p2):
                raise _invalid(f"{where}.winner", "the winner does not play this match")
            if self.old_slug and self.slug != self.old_slug and match.source.startswith(f"{self.old_slug}/"):
                match.source = self.slug + match.source[len(self.old_slug) :]
            match.state = new_state(match).snapshot()
            self.matches[_id(record, where, self.matches)] = match
        _insert(Match, list(self.matches.values()), keep=("created_at",))

        tokens: dict[tuple[int, int], EntryToken] = {}
        logs = [self._log(record, f"matches[{n}]", tokens) for n, record in enumerate(records)]
        _insert(EntryToken, list(tokens.values()))
        rows = [row for log in logs for row, _ in log]
        _insert(Action, rows, keep=("created_at",))
        undoing = []
        for log in logs:
            by_seq = {row.seq: row for row, _ in log}
            for row, target in log:
                if target is not None:
                    row.undoes = by_seq[target]
                    undoing.append(row)
        if undoing:
            Action.objects.bulk_update(undoing, ["undoes"], batch_size=500)
        for n, record in enumerate(records):
            self._replay(self.matches[record["id"]], record, f"matches[{n}]")

    def _log(
        self, record: dict[str, Any], where: str, tokens: dict[tuple[int, int], EntryToken]
    ) -> list[tuple[Action, int | None]]:
        """The match's log rows, each with the seq of the row it undoes (linked once the rows have ids)."""
        match = self.matches[record["id"]]
        log: list[tuple[Action, int | None]] = []
        for n, item in enumerate(_get(record, "actions", where, list)):
            at = f"{where}.actions[{n}]"
            _keys(item, ("dice", "undoes", "entered_by"), at)
            row = _build(Action, item, ACTION_FIELDS, at, match=match)
            if row.seq != n + 1:
                raise _invalid(f"{at}.seq", f"a log's sequence numbers run 1, 2, 3...: expected {n + 1}, not {row.seq}")
            if row.side not in (None, 0, 1):
                raise _invalid(f"{at}.side", f"a side is 0, 1 or null, not {row.side!r}")
            row.die1, row.die2 = _dice(item["dice"], f"{at}.dice")
            target = item["undoes"]
            if target is not None and (not _is_int(target) or not 1 <= target < row.seq):
                raise _invalid(f"{at}.undoes", f"an action undoes an earlier action of its match, not {target!r}")
            self._attribute(row, item["entered_by"], f"{at}.entered_by", tokens, record["id"])
            try:
                if row.kind == Action.Kind.CORRECTION:
                    replacement_action(row)
                else:
                    engine_action(row)
            except (EngineError, ValueError, KeyError, TypeError) as exc:
                raise _invalid(at, f"action {row.seq} ({row.kind}) is not a valid action: {exc}") from exc
            log.append((row, target))
        if match.seq != len(log):
            raise _invalid(f"{where}.seq", f"the match says its last action is {match.seq}, but its log has {len(log)}")
        return log

    @staticmethod
    def _attribute(
        row: Action, who: Any, where: str, tokens: dict[tuple[int, int], EntryToken], match_key: int
    ) -> None:
        if who is None:
            return
        if who in ("entry-link:0", "entry-link:1"):
            side = int(who[-1])
            if (match_key, side) not in tokens:
                tokens[(match_key, side)] = EntryToken(
                    match=row.match, side=side, nonce=secrets.token_urlsafe(18), revoked_at=timezone.now()
                )
            row.entered_by_token = tokens[(match_key, side)]
        elif isinstance(who, str) and who.startswith("user:") and len(who) > len("user:"):
            row.data = {**row.data, ENTERED_BY_KEY: who}
        else:
            raise _invalid(where, f'expected "user:<username>", "entry-link:0", "entry-link:1" or null, not {who!r}')

    def _replay(self, match: Match, record: dict[str, Any], where: str) -> None:
        """Replay the log through the engine (naming the first refused action), rebuild the caches with
        ``rebuild_match``, and check that they say what the file says."""
        label = f"{where} ({match.player1.display_name} vs {match.player2.display_name})"
        state = new_state(match)
        for row, action in effective_actions(match):
            if action is None:
                continue
            try:
                state = state.apply(action)
            except (EngineError, ValueError) as exc:
                raise _invalid(label, f"action {row.seq} ({row.kind}) is refused by the engine: {exc}") from exc
        try:
            rebuild_match(match)
        except ApplicationError as exc:
            raise _invalid(label, f"the log does not replay: {exc.message}") from exc
        winner = record["winner"]
        said = {
            "status": record["status"],
            "score": [record["score1"], record["score2"]],
            "winner": None if winner is None else self.players[winner].pk,
        }
        found = {"status": match.status, "score": [match.score1, match.score2], "winner": match.winner_id}
        for name, value in said.items():
            if value != found[name]:
                raise _invalid(
                    label, f"the log replays to {name} {_show(found[name])}, but the file says {_show(value)}"
                )
        expected = _get(record, "games", where, list)
        rebuilt = [_plain(game, GAME_FIELDS) for game in Game.objects.filter(match=match).order_by("number")]
        if len(expected) != len(rebuilt):
            raise _invalid(label, f"the log replays to {len(rebuilt)} games, but the file lists {len(expected)}")
        for n, (said_game, game) in enumerate(zip(expected, rebuilt, strict=True)):
            at = f"{where}.games[{n}]"
            _keys(said_game, GAME_FIELDS, at)
            for name in GAME_FIELDS:
                if said_game[name] != game[name]:
                    raise _invalid(
                        at,
                        f"game {game['number']} replays to {name} {game[name]!r}, "
                        f"but the file says {said_game[name]!r}",
                    )

    def _check_detached(self) -> None:
        """A match no pairing holds travels only as a detached match of this event (found by its source)."""
        for n, record in enumerate(self.doc["matches"]):
            match = self.matches[record["id"]]
            if record["id"] in self.paired and record["id"] in self.imported:
                raise _invalid(f"matches[{n}]", "a match held by a pairing is not also imported into the event")
            if record["id"] in self.paired | self.imported:
                continue
            if not match.source.startswith(f"{self.slug}/"):
                raise _invalid(
                    f"matches[{n}]",
                    "no pairing holds this match, it is not in imported_matches, and its source names no slot of "
                    "the event",
                )

    def _imported_matches(self, event: Event) -> None:
        rows = []
        for n, item in enumerate(self.doc["imported_matches"]):
            at = f"imported_matches[{n}]"
            match = _ref(item, "match", at, self.matches)
            if item["match"] in self.imported:
                raise _invalid(f"{at}.match", "this match is listed twice")
            self.imported.add(item["match"])
            rows.append(_build(ImportedMatch, item, IMPORTED_MATCH_FIELDS, at, event=event, match=match))
        _insert(ImportedMatch, rows, keep=("created_at",))

    # divisions ------------------------------------------------------------------------------------------------------

    def _division(self, event: Event, record: dict[str, Any], where: str) -> None:
        _keys(record, ("id", "entries", "rounds", "pairings", "standings"), where)
        division = _build(Division, record, DIVISION_FIELDS, where, event=event)
        _insert(Division, [division])
        entries: dict[int, Entry] = {}
        for n, item in enumerate(_get(record, "entries", where, list)):
            at = f"{where}.entries[{n}]"
            player = _ref(item, "player", at, self.players)
            entries[_id(item, at, entries)] = _build(Entry, item, ENTRY_FIELDS, at, division=division, player=player)
        _insert(Entry, list(entries.values()), keep=("registered_at",))
        seeds = record.get("knockout_seeds", [])  # archives written before the Swiss into a knockout have none
        if not isinstance(seeds, list):
            raise _invalid(f"{where}.knockout_seeds", f"expected a list of entry ids, not {_json_type(seeds)}")
        if seeds:
            at = f"{where}.knockout_seeds"
            knockout = [_ref({"entry": pk}, "entry", f"{at}[{n}]", entries).pk for n, pk in enumerate(seeds)]
            Division.objects.filter(pk=division.pk).update(knockout_seeds=knockout)
        rounds: dict[int, Round] = {}
        for n, item in enumerate(_get(record, "rounds", where, list)):
            at = f"{where}.rounds[{n}]"
            rounds[_id(item, at, rounds)] = _build(Round, item, ROUND_FIELDS, at, division=division)
        _insert(Round, list(rounds.values()), keep=("created_at",))
        pairings: dict[int, Pairing] = {}
        for n, item in enumerate(_get(record, "pairings", where, list)):
            at = f"{where}.pairings[{n}]"
            links = {
                "round": _ref(item, "round", at, rounds),
                "entry_a": _ref(item, "entry_a", at, entries, nullable=True),
                "entry_b": _ref(item, "entry_b", at, entries, nullable=True),
                "winner": _ref(item, "winner", at, entries, nullable=True),
                "match": _ref(item, "match", at, self.matches, nullable=True),
            }
            if "board" not in item and "table" in item:  # archives written before tables belonged to the venue
                item["board"] = item.pop("table")
            self._check_pairing(item, links, at)
            pairings[_id(item, at, pairings)] = _build(Pairing, item, PAIRING_FIELDS, at, division=division, **links)
        _insert(Pairing, list(pairings.values()), keep=("updated_at",))
        standings: dict[int, Standing] = {}
        for n, item in enumerate(_get(record, "standings", where, list)):
            at = f"{where}.standings[{n}]"
            entry = _ref(item, "entry", at, entries)
            standings[_id(item, at, standings)] = _build(
                Standing, item, STANDING_FIELDS, at, division=division, entry=entry
            )
        _insert(Standing, list(standings.values()))
        self._playoffs(division, record, entries, where)

    def _playoffs(self, division: Division, record: dict[str, Any], entries: dict[int, Entry], where: str) -> None:
        """The division's playoffs (a file written before playoffs existed has none); their unfinished matches get
        new entry links (the links' secrets never travel)."""
        items = record.get("playoffs", [])
        if not isinstance(items, list):
            raise _invalid(f"{where}.playoffs", f"expected a list of playoffs, not {_json_type(items)}")
        playoffs: dict[int, Playoff] = {}
        for n, item in enumerate(items):
            at = f"{where}.playoffs[{n}]"
            _keys(item, ("id", "entries", "order", "first_match", "final_match"), at)
            links = {
                "first_match": _ref(item, "first_match", at, self.matches, nullable=True),
                "final_match": _ref(item, "final_match", at, self.matches, nullable=True),
            }
            playoff = _build(Playoff, item, PLAYOFF_FIELDS, at, division=division, **links)
            for key in ("entries", "order"):
                ids = _get(item, key, at, list)
                found = [_ref({"entry": pk}, "entry", f"{at}.{key}[{k}]", entries).pk for k, pk in enumerate(ids)]
                setattr(playoff, key, found)
            playoffs[_id(item, at, playoffs)] = playoff
        _insert(Playoff, list(playoffs.values()), keep=("created_at",))
        unfinished = [
            m for p in playoffs.values() for m in (p.first_match, p.final_match)
            if m is not None and m.status in (Match.Status.SCHEDULED, Match.Status.IN_PROGRESS)
        ]  # fmt: skip
        if unfinished:
            new_entry_tokens(unfinished)

    def _check_pairing(self, item: dict[str, Any], links: dict[str, Any], where: str) -> None:
        a, b, winner, match = links["entry_a"], links["entry_b"], links["winner"], links["match"]
        if winner is not None and winner not in (a, b):
            raise _invalid(f"{where}.winner", "the winner is not one of the pairing's two entries")
        if match is None:
            return
        if item["match"] in self.paired:
            raise _invalid(f"{where}.match", "another pairing holds this match already")
        self.paired.add(item["match"])
        if a is None or b is None or (a.player, b.player) != (match.player1, match.player2):
            raise _invalid(f"{where}.match", "the match's players are not the pairing's two players, in order")

    # ratings --------------------------------------------------------------------------------------------------------

    def _ratings(self, rating_list: RatingList, record: dict[str, Any]) -> None:
        ratings = []
        for n, item in enumerate(_get(record, "ratings", "rating_list", list)):
            at = f"rating_list.ratings[{n}]"
            player = _ref(item, "player", at, self.players)
            ratings.append(_build(Rating, item, RATING_FIELDS, at, rating_list=rating_list, player=player))
        _insert(Rating, ratings)
        changes = []
        for n, item in enumerate(_get(record, "changes", "rating_list", list)):
            at = f"rating_list.changes[{n}]"
            links = {"match": _ref(item, "match", at, self.matches), "player": _ref(item, "player", at, self.players)}
            changes.append(_build(RatingChange, item, RATING_CHANGE_FIELDS, at, rating_list=rating_list, **links))
        _insert(RatingChange, changes)


# -- reading helpers -------------------------------------------------------------------------------------------------


def _invalid(where: str, message: str) -> ApplicationError:
    place = f"{EVENT_JSON}, {where}" if where else EVENT_JSON
    return ApplicationError(ErrorCode.INVALID_INPUT, f"{place}: {message}")


def _importing_user(actor: Actor) -> Any:
    if actor.token is not None:
        raise ApplicationError(ErrorCode.FORBIDDEN, "an entry link cannot import an event")
    if actor.user is None:
        return None  # the system: no director is added
    if not actor.user.is_authenticated:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in to import an event")
    return actor.user


def _record(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _invalid(where, f"expected an object, not {_json_type(value)}")
    return value


def _get(record: Any, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    record = _record(record, where)
    if key not in record:
        raise _invalid(where, f"the key {key!r} is missing")
    value = record[key]
    if not isinstance(value, kind):
        names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise _invalid(f"{where}.{key}" if where else key, f"expected {names}, not {_json_type(value)}")
    return value


_KIND_NAMES = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}


def _keys(record: Any, keys: Iterable[str], where: str) -> None:
    record = _record(record, where)
    missing = [key for key in keys if key not in record]
    if missing:
        names = ", ".join(map(repr, missing))
        raise _invalid(where, f"the keys {names} are missing" if len(missing) > 1 else f"the key {names} is missing")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(type(value), "a number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _id(record: dict[str, Any], where: str, seen: dict[int, Any]) -> int:
    value = _get(record, "id", where, int)
    if isinstance(value, bool):
        raise _invalid(f"{where}.id", "an id is a number")
    if value in seen:
        raise _invalid(f"{where}.id", f"the id {value} is used twice")
    return value


def _ref(record: dict[str, Any], key: str, where: str, table: dict[int, Any], *, nullable: bool = False) -> Any:
    value = _record(record, where).get(key, ...)
    if value is ...:
        raise _invalid(where, f"the key {key!r} is missing")
    if value is None and nullable:
        return None
    if not _is_int(value) or value not in table:
        raise _invalid(f"{where}.{key}", f"{value!r} is not the id of a record of the file")
    return table[value]


def _dice(value: Any, where: str) -> tuple[int | None, int | None]:
    if value is None:
        return None, None
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(d) and 1 <= d <= 6 for d in value)):
        raise _invalid(where, f"dice are two numbers from 1 to 6, or null; not {value!r}")
    return value[0], value[1]


def _build(model: type[models.Model], record: Any, fields: Sequence[str], where: str, **links: Any) -> Any:
    """A model instance from a record's plain fields (checked as a form would: JSON types, choices, lengths,
    ranges) and the references already resolved."""
    later = ADDED_SINCE_FIRST_WRITTEN.get(model, frozenset())
    _keys(record, [name for name in fields if name not in later], where)
    values: dict[str, Any] = {}
    for name in fields:
        field = _field(model, name)
        value = record[name] if name in record else field.get_default()
        if isinstance(field, models.DateTimeField):
            value = _datetime(value, f"{where}.{name}")
        elif isinstance(field, models.DateField):
            value = _date(value, f"{where}.{name}")
        elif name in record and not (value is None and field.null):  # a default needs no checking
            expected = _json_kind(field)
            if expected is not None and not _is_json_kind(value, expected):
                raise _invalid(f"{where}.{name}", f"expected {_KIND_NAMES[expected]}, not {_json_type(value)}")
        values[name] = value
    obj = model(**values, **links)
    # References are resolved by the caller; JSON values are checked above (a JSON document holds only JSON).
    unchecked = [
        f.name
        for f in model._meta.concrete_fields
        if f.is_relation or f.primary_key or f.get_internal_type() == "JSONField"
    ]
    try:
        obj.clean_fields(exclude=unchecked)
    except ValidationError as exc:
        problems = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items())
        raise _invalid(where, problems) from None
    return obj


def _json_kind(field: models.Field) -> type | None:
    """The JSON type a field's value has in the file (None: any, or checked elsewhere)."""
    if isinstance(field, models.JSONField):
        return type(field.default()) if callable(field.default) else None
    if isinstance(field, models.BooleanField):
        return bool
    if isinstance(field, models.IntegerField):
        return int
    if isinstance(field, models.FloatField):
        return float
    if isinstance(field, (models.CharField, models.TextField, models.DecimalField)):
        return str  # an amount as text, exactly: "5.00"
    return None


def _is_json_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return _is_int(value)
    if kind is float:
        return _is_int(value) or isinstance(value, float)
    return isinstance(value, kind)


def _datetime(value: Any, where: str) -> dt.datetime | None:
    if value is None:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise _invalid(where, f"expected an ISO 8601 date and time with its UTC offset, not {value!r}")
    return parsed


def _date(value: Any, where: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _invalid(where, f"expected an ISO 8601 date, not {value!r}") from None


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "-".join(map(str, value))
    return repr(value)


def _insert(model: type[models.Model], objs: list[Any], *, keep: Sequence[str] = ()) -> None:
    """Insert ``objs`` (their ids are set); the automatic time stamps named in ``keep`` are then put back to the
    file's values, which Django replaces on insert (one UPDATE per row, sent as a batch: ``bulk_update``'s CASE
    expression costs seconds for a few thousand log rows)."""
    if not objs:
        return
    kept = [[getattr(obj, name) for name in keep] for obj in objs]
    model._default_manager.bulk_create(objs, batch_size=1000)
    if not keep:
        return
    fields = [_field(model, name) for name in keep]
    quote = connection.ops.quote_name
    columns = ", ".join(f"{quote(field.column or field.attname)} = %s" for field in fields)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {columns} WHERE {quote(model._meta.pk.attname)} = %s"
    params = []
    for obj, values in zip(objs, kept, strict=True):
        for field, value in zip(fields, values, strict=True):
            setattr(obj, field.attname, value)
        params.append([*(f.get_db_prep_value(v, connection) for f, v in zip(fields, values, strict=True)), obj.pk])
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field
