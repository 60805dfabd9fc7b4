"""Reading an archive back as a new event, in one transaction: the records checked, the matches restored through
``games.services.restore_matches``, every cache checked against the file."""

from __future__ import annotations

import io
import json
import zipfile
import zoneinfo
from typing import Any

from django.db import DataError, IntegrityError, transaction
from django.utils.text import slugify

from common.actor import Actor
from common.bulk import create_keeping
from common.errors import ApplicationError, ErrorCode
from engine.errors import EngineError
from games.access import new_entry_tokens
from games.engine_bridge import engine_action, replacement_action
from games.models import Action, Game, Match, Player
from games.services import MatchToRestore, restore_matches, restore_players
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
    MAX_JSON_BYTES,
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
from tournaments.services.archive.reading import (
    _build,
    _dice,
    _get,
    _id,
    _importing_user,
    _invalid,
    _is_int,
    _json_type,
    _keys,
    _plain,
    _ref,
    _show,
)


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
        restore_players(list(self.players.values()))

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
        create_keeping(Event, [event], keep=("created_at",))
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
            self.matches[_id(record, where, self.matches)] = match
        restored = [self._log(record, f"matches[{n}]") for n, record in enumerate(records)]
        try:
            games = restore_matches(restored)
        except ApplicationError as exc:
            n = int(str(exc.extra["match"]))
            raise _invalid(self._label(n), exc.message) from exc
        for n, (record, rebuilt) in enumerate(zip(records, games, strict=True)):
            self._check_replay(self.matches[record["id"]], record, rebuilt, f"matches[{n}]")

    def _label(self, n: int) -> str:
        match = self.matches[self.doc["matches"][n]["id"]]
        return f"matches[{n}] ({match.player1.display_name} vs {match.player2.display_name})"

    def _log(self, record: dict[str, Any], where: str) -> MatchToRestore:
        """The match's log rows, each with the seq of the row it undoes and the side of the entry link that
        entered it."""
        match = self.matches[record["id"]]
        restored = MatchToRestore(match, [], [], [])
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
            link = self._attribute(row, item["entered_by"], f"{at}.entered_by")
            try:
                if row.kind == Action.Kind.CORRECTION:
                    replacement_action(row)
                else:
                    engine_action(row)
            except (EngineError, ValueError, KeyError, TypeError) as exc:
                raise _invalid(at, f"action {row.seq} ({row.kind}) is not a valid action: {exc}") from exc
            restored.rows.append(row)
            restored.undoes.append(target)
            restored.links.append(link)
        if match.seq != len(restored.rows):
            raise _invalid(
                f"{where}.seq", f"the match says its last action is {match.seq}, but its log has {len(restored.rows)}"
            )
        return restored

    @staticmethod
    def _attribute(row: Action, who: Any, where: str) -> int | None:
        """The side whose entry link entered ``row`` (None: none); a user's name is kept in the row's data."""
        if who is None:
            return None
        if who in ("entry-link:0", "entry-link:1"):
            return int(who[-1])
        if isinstance(who, str) and who.startswith("user:") and len(who) > len("user:"):
            row.data = {**row.data, ENTERED_BY_KEY: who}
            return None
        raise _invalid(where, f'expected "user:<username>", "entry-link:0", "entry-link:1" or null, not {who!r}')

    def _check_replay(self, match: Match, record: dict[str, Any], games: list[Game], where: str) -> None:
        """Check that the caches the replay of the log set say what the file says."""
        label = f"{where} ({match.player1.display_name} vs {match.player2.display_name})"
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
        rebuilt = [_plain(game, GAME_FIELDS) for game in games]
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
        create_keeping(ImportedMatch, rows, keep=("created_at",))

    # divisions ------------------------------------------------------------------------------------------------------

    def _division(self, event: Event, record: dict[str, Any], where: str) -> None:
        _keys(record, ("id", "entries", "rounds", "pairings", "standings"), where)
        division = _build(Division, record, DIVISION_FIELDS, where, event=event)
        create_keeping(Division, [division])
        entries: dict[int, Entry] = {}
        for n, item in enumerate(_get(record, "entries", where, list)):
            at = f"{where}.entries[{n}]"
            player = _ref(item, "player", at, self.players)
            entries[_id(item, at, entries)] = _build(Entry, item, ENTRY_FIELDS, at, division=division, player=player)
        create_keeping(Entry, list(entries.values()), keep=("registered_at",))
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
        create_keeping(Round, list(rounds.values()), keep=("created_at",))
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
        create_keeping(Pairing, list(pairings.values()), keep=("updated_at",))
        standings: dict[int, Standing] = {}
        for n, item in enumerate(_get(record, "standings", where, list)):
            at = f"{where}.standings[{n}]"
            entry = _ref(item, "entry", at, entries)
            standings[_id(item, at, standings)] = _build(
                Standing, item, STANDING_FIELDS, at, division=division, entry=entry
            )
        create_keeping(Standing, list(standings.values()))
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
        create_keeping(Playoff, list(playoffs.values()), keep=("created_at",))
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
        create_keeping(Rating, ratings)
        changes = []
        for n, item in enumerate(_get(record, "changes", "rating_list", list)):
            at = f"rating_list.changes[{n}]"
            links = {"match": _ref(item, "match", at, self.matches), "player": _ref(item, "player", at, self.players)}
            changes.append(_build(RatingChange, item, RATING_CHANGE_FIELDS, at, rating_list=rating_list, **links))
        create_keeping(RatingChange, changes)
