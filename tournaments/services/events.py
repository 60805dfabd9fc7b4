"""Setting an event up: events, directors, divisions, registration (one by one or a CSV list), check-in.

Every function checks that the actor directs the event, validates, and writes in one transaction; a refusal is an
``ApplicationError`` that says what was wrong and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.text import slugify

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Match, Player
from games.services import create_player
from tournaments.access import check_directs, check_directs_club, directs_event
from tournaments.core import plan_of, round_rule_key
from tournaments.entry_caps import Candidate, is_capped, refusal_of, refusals
from tournaments.models import (
    FORMATS,
    KNOCKOUT_SIZES,
    Club,
    Division,
    Entry,
    Event,
    ImportedMatch,
    RatingList,
    Round,
    Season,
)
from tournaments.names import spaced, told_apart
from tournaments.pairing.swiss import late_entry_allowed
from tournaments.points import DEFAULT_PLACES_PAID
from tournaments.services.advance import MAX_SWISS_ROUNDS, check_place_free
from tournaments.services.clubs import join_roster, roster_player
from tournaments.services.players_list import MAX_OVERRIDE, MAX_SEED, read_players_list, refuse_lines
from tournaments.services.seasons import schedule_event_season_points
from tournaments.standings.tiebreakers import Tiebreak

DEFAULT_TIEBREAKS = [Tiebreak.BUCHHOLZ.value, Tiebreak.SONNEBORN_BERGER.value, Tiebreak.POINTS_DIFF.value]


def _invalid(message: str) -> ApplicationError:
    return ApplicationError(ErrorCode.INVALID_INPUT, message)


def _unique_slug(model: Any, text: str, **scope: Any) -> str:
    base = slugify(text)[:80] or "event"
    slug, n = base, 1
    while model.objects.filter(slug=slug, **scope).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


# -- events --------------------------------------------------------------------------------------------------------


def create_event(
    *,
    actor: Actor,
    name: str,
    slug: str = "",
    venue: str = "",
    time_zone: str = "UTC",
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    public: bool = True,
    rating_list: RatingList | None = None,
    analyse_imported: bool = False,
    points_weight: float = 1.0,
    club: Club | None = None,
) -> Event:
    """Create an event; the user creating it becomes its first director. An event of a club (created by one of its
    directors) enters the club's roster players and is rated on the club's rating list unless given another."""
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    if actor.token is not None or (user is None and actor.user is not None):
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in to create an event")
    name = " ".join(name.split())
    if not name:
        raise _invalid("an event needs a name")
    try:
        zoneinfo.ZoneInfo(time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise _invalid(f"unknown time zone {time_zone!r}; use an IANA name such as Europe/Oslo") from None
    if starts_on and ends_on and ends_on < starts_on:
        raise _invalid("the event cannot end before it starts")
    _check_points_weight(points_weight, "the event's")
    if club is not None:
        check_directs_club(actor, club)
        rating_list = rating_list or club.rating_list
    if slug and slugify(slug) != slug:
        raise _invalid(f"{slug!r} is not a valid address part: use lower-case letters, digits and hyphens")
    with transaction.atomic():
        if slug and Event.objects.filter(slug=slug).exists():
            raise ApplicationError(ErrorCode.CONFLICT, f"an event with the address {slug!r} already exists")
        event = Event.objects.create(
            name=name,
            slug=slug or _unique_slug(Event, name),
            venue=venue.strip(),
            time_zone=time_zone,
            starts_on=starts_on,
            ends_on=ends_on,
            public=public,
            rating_list=rating_list,
            analyse_imported=analyse_imported,
            points_weight=points_weight,
            club=club,
            status=Event.Status.REGISTRATION,
        )
        if user is not None:
            event.directors.add(user)
    return event


def import_target(slug: str, actor: Actor) -> Callable[[Match], None] | None:
    """What attaches a match ``actor`` imports from a match log to the event ``slug`` (games.hooks.IMPORT_TARGETS),
    or None when there is no such event (a private event its viewer may not see is none).

    :raises ApplicationError: FORBIDDEN (NOT_AUTHENTICATED) for an actor who does not direct the event.
    """
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        return None
    if actor is not SYSTEM:
        directs = directs_event(actor.user, event)
        if not event.public and not directs:
            return None
        if not directs and actor.token is None and actor.user is not None and actor.user.is_authenticated:
            raise ApplicationError(
                ErrorCode.FORBIDDEN,
                f"you are not a director of {event.name}: only its directors import matches into it (import "
                "without an event, or ask one of them)",
            )
    check_directs(actor, event)
    return partial(attach_imported_match, event)


def attach_imported_match(event: Event, match: Match) -> None:
    """Record that ``match`` was imported into ``event`` (called inside the import's transaction)."""
    ImportedMatch.objects.create(event=event, match=match)


def close_event(event: Event, *, actor: Actor) -> Event:
    """Close the event once no division is running (an event also closes by itself when its last division
    finishes); a division never started stays as it is. Refused while a division runs, naming it."""
    check_directs(actor, event)
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        open_divisions = [d.name for d in event.divisions.filter(status=Division.Status.RUNNING)]
        if open_divisions:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{', '.join(open_divisions)} {'is' if len(open_divisions) == 1 else 'are'} still running: play "
                f"{'it' if len(open_divisions) == 1 else 'them'} to the end before closing the event",
            )
        event.status = Event.Status.FINISHED
        event.save(update_fields=["status"])
    return event


def add_director(event: Event, *, actor: Actor, user: Any) -> None:
    check_directs(actor, event)
    event.directors.add(user)


def remove_director(event: Event, *, actor: Actor, user: Any) -> None:
    check_directs(actor, event)
    if event.directors.count() <= 1 and event.directors.filter(pk=user.pk).exists():
        raise ApplicationError(ErrorCode.CONFLICT, "an event keeps at least one director: add another one first")
    event.directors.remove(user)


def create_rating_list(*, actor: Actor, name: str, k_factor: float | None = None, start: float = 1500.0) -> RatingList:
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    if user is None:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in to create a rating list")
    if k_factor is not None and not 0 < k_factor <= 100:
        raise _invalid("K must be a number above 0 and at most 100 (FIBS uses 1 to 5)")
    name = " ".join(name.split())
    if not name:
        raise _invalid("a rating list needs a name")
    rating_list = RatingList.objects.create(
        name=name, slug=_unique_slug(RatingList, name), k_factor=k_factor, start=start
    )
    rating_list.owners.add(user)
    return rating_list


# -- divisions -----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DivisionSettings:
    """What a director chooses for a division (validated by :func:`create_division`)."""

    name: str
    format: str
    match_length: int = 7
    round_lengths: dict[str, int] | None = None
    crawford: bool = True
    casual: bool = False
    variant: str = "standard"
    entry_mode: str = Match.EntryMode.MOVES
    clock: str = ""
    seeding: str = Division.Seeding.RATING
    draw_seed: int | None = None
    tiebreaks: list[str] | None = None
    forfeit_tiebreaks: str = Division.ForfeitRule.LEFT_OUT
    rounds_planned: int = 0
    knockout_size: int = 0
    double_round_robin: bool = False
    drop_rounds: int | None = None
    last_chance_drop_rounds: int = 1
    walkover_as_bye: bool = False
    last_chance_places: int = 0
    grand_final_reset: bool = True
    auto_pair: bool = False
    analyse_each_game: bool = False
    points_weight: float = 1.0
    points_places: int = DEFAULT_PLACES_PAID
    level: str = Division.Level.OPEN
    rating_under: int | None = None
    rating_from: int | None = None
    points_under: float | None = None
    points_season: str = ""  # the address of a season of the event's club


def create_division(event: Event, *, actor: Actor, settings: DivisionSettings, slug: str = "") -> Division:
    check_directs(actor, event)
    if event.status == Event.Status.FINISHED:
        raise ApplicationError(ErrorCode.CONFLICT, f"{event.name} is closed: a closed event takes no new division")
    _validate_settings(settings)
    season = check_caps(event, settings)
    with transaction.atomic():
        slug = slug or _unique_slug(Division, settings.name, event=event)
        if Division.objects.filter(event=event, slug=slug).exists():
            raise ApplicationError(ErrorCode.CONFLICT, f"{event.name} already has a division {slug!r}")
        left = ("round_lengths", "tiebreaks", "points_season")
        fields = {k: v for k, v in settings.__dict__.items() if k not in left}
        division = Division(
            event=event,
            slug=slug,
            round_lengths=_round_rules(settings.round_lengths or {}),
            tiebreaks=settings.tiebreaks if settings.tiebreaks is not None else list(DEFAULT_TIEBREAKS),
            points_season=season,
            **fields,
        )
        if division.is_elimination:
            plan_of(division, 64)  # refuses options the format does not have, in the bracket planner's words
        division.save()
        return division


def _validate_settings(s: DivisionSettings) -> None:
    if not s.name.strip():
        raise _invalid("a division needs a name")
    if s.format not in FORMATS:
        raise _invalid(f"unknown format {s.format!r}; choose one of {', '.join(FORMATS)}")
    if not 1 <= s.match_length <= 99:
        raise _invalid(f"matches are played to 1-99 points, not {s.match_length}")
    _round_rules(s.round_lengths or {})
    known = {t.value for t in Tiebreak}
    for code in s.tiebreaks or []:
        if code not in known:
            raise _invalid(f"unknown tie-break {code!r}; choose from {', '.join(sorted(known))}")
    if s.format == Division.Format.SWISS and s.rounds_planned < 1:
        raise _invalid("a Swiss division needs the number of rounds to play (rounds_planned)")
    if s.format == Division.Format.SWISS_KNOCKOUT:
        if s.rounds_planned < 1:
            raise _invalid(
                "a Swiss into a knockout needs the number of Swiss rounds to play before its knockout "
                "(rounds_planned, at least 1; for a knockout alone choose single elimination)"
            )
        if s.rounds_planned > MAX_SWISS_ROUNDS:
            raise _invalid(f"a Swiss plays at most {MAX_SWISS_ROUNDS} rounds, not {s.rounds_planned}")
        if s.knockout_size not in KNOCKOUT_SIZES:
            sizes = ", ".join(map(str, KNOCKOUT_SIZES))
            raise _invalid(
                f"a Swiss into a knockout sends its top {sizes} players into the knockout (knockout_size), not "
                f"{s.knockout_size}: a knockout of a power of two has no byes"
            )
    elif s.knockout_size:
        raise _invalid(
            f"knockout_size is a setting of the Swiss into a knockout (swiss-knockout) only, not of {s.format}: "
            "leave it 0"
        )
    if s.forfeit_tiebreaks not in Division.ForfeitRule.values:
        rules = " or ".join(repr(v) for v in Division.ForfeitRule.values)
        raise _invalid(f"a forfeit counts in the tie-breaks as {rules}, not {s.forfeit_tiebreaks!r}")
    if s.seeding not in Division.Seeding.values:
        raise _invalid("seeding is 'rating', 'manual' or 'random'")
    if s.entry_mode not in Match.EntryMode.values:
        raise _invalid("entry mode is 'moves' or 'scoresheet'")
    if s.last_chance_places and s.format != Division.Format.LAST_CHANCE:
        raise _invalid("last-chance places exist only in the main-consolation-lastchance format")
    _check_points_weight(s.points_weight, "the division's")
    _check_points_places(s.points_places)
    if s.level not in Division.Level.values:
        raise _invalid(f"a division's level is {', '.join(Division.Level.values)}, not {s.level!r}")


#: The highest rating a division's cap may name.
MAX_CAP_RATING = 9999


def check_caps(event: Event, s: DivisionSettings) -> Season | None:
    """A division's entry caps make sense for its event: ratings of 1-9999, the lower bound under the upper; a
    rating cap needs the event's rating list to read ratings from; a points cap names a season of the event's club
    (returned) and a number of points above 0."""
    for what, value in (("rating_under", s.rating_under), ("rating_from", s.rating_from)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9999):
            raise _invalid(f"{what} is a rating from 1 to {MAX_CAP_RATING}, not {value!r}")
    if s.rating_under is not None and s.rating_from is not None and s.rating_from >= s.rating_under:
        raise _invalid(
            f"nobody is rated both {s.rating_from} or more and under {s.rating_under}: give rating_from below "
            "rating_under"
        )
    if (s.rating_under is not None or s.rating_from is not None) and event.rating_list_id is None:
        raise _invalid(
            f"{event.name} has no rating list to read ratings from: give the event one (or make it a club's event) "
            "before capping a division by rating"
        )
    if (s.points_under is None) != (not s.points_season):
        raise _invalid(
            "a points cap needs both the points (points_under) and the season they are counted in (points_season)"
        )
    if s.points_under is None:
        return None
    if isinstance(s.points_under, bool) or not 0 < s.points_under <= 1_000_000:
        raise _invalid(f"points_under is a number of points above 0, not {s.points_under!r}")
    seasons = Season.objects.filter(club_id=event.club_id or 0)
    season = seasons.filter(slug=s.points_season).first()
    if season is None:
        names = ", ".join(seasons.values_list("slug", flat=True))
        raise _invalid(
            f"{s.points_season!r} is not a season of {event.name}'s club: a points cap counts the points of a season "
            f"of the event's club ({names or 'it has none; add one on the club page'})"
        )
    return season


#: The largest weight a director may give an event or a division for master points.
MAX_POINTS_WEIGHT = 10.0


def _check_points_weight(weight: float, whose: str) -> None:
    if isinstance(weight, bool) or not (isinstance(weight, int | float) and 0 < weight <= MAX_POINTS_WEIGHT):
        raise _invalid(
            f"{whose} weight for master points is {weight!r}: give a number above 0 and at most "
            f"{MAX_POINTS_WEIGHT:g} (1 for an open main event; USBGF: 0.7 intermediate, 0.5 novice)"
        )


def _check_points_places(places: int) -> None:
    if isinstance(places, bool) or not (isinstance(places, int) and 1 <= places <= 1024):
        raise _invalid(f"placement points go to 1-1024 places (4 by default), not {places!r}")


def set_points_weights(
    event: Event,
    *,
    actor: Actor,
    weight: float | None = None,
    divisions: dict[str, tuple[float, int]] | None = None,
) -> Event:
    """Set the event's weight for master points and, per division slug, its weight and the places that earn
    placement points. Everything is checked before anything is stored."""
    check_directs(actor, event)
    divisions = divisions or {}
    if weight is not None:
        _check_points_weight(weight, "the event's")
    known = dict(event.divisions.values_list("slug", "pk"))
    for slug, (division_weight, places) in divisions.items():
        if slug not in known:
            raise _invalid(f"{event.name} has no division {slug!r}: its divisions are {', '.join(sorted(known))}")
        _check_points_weight(division_weight, f"{slug}'s")
        _check_points_places(places)
    with transaction.atomic():
        if weight is not None:
            Event.objects.filter(pk=event.pk).update(points_weight=weight)
        for slug, (division_weight, places) in divisions.items():
            Division.objects.filter(pk=known[slug]).update(points_weight=division_weight, points_places=places)
        if event.club_id is not None:
            schedule_event_season_points(event.pk)  # a season by master points counts them
    event.refresh_from_db()
    return event


def _round_rules(rules: dict[str, Any]) -> dict[str, int]:
    """The per-round lengths as stored (:func:`tournaments.core.round_rule_key`: ``knockout:final`` is stored as
    ``main:final``), each checked; two names of one round are refused."""
    stored: dict[str, int] = {}
    named: dict[str, str] = {}
    for key, length in rules.items():
        rule = round_rule_key(key)
        _validate_round_length(key, rule, length)
        if rule in stored:
            raise _invalid(f"round lengths {named[rule]!r} and {key!r} name the same round: keep one of them")
        stored[rule], named[rule] = length, str(key)
    return stored


def _validate_round_length(key: str, rule: str, length: Any) -> None:
    bracket, _, which = rule.partition(":")
    if bracket not in Round.Bracket.values:
        raise _invalid(
            f"round length {key!r}: start with knockout (or main), consolation, last-chance, swiss or round-robin"
        )
    if which and which not in ("final", "semi-final") and not which.isdigit():
        raise _invalid(f"round length {key!r}: after the colon put a round number, 'semi-final' or 'final'")
    if not isinstance(length, int) or not 1 <= length <= 99:
        raise _invalid(f"round length {key!r}: {length!r} is not a match length of 1-99 points")


# -- registration --------------------------------------------------------------------------------------------------


def register_player(
    division: Division,
    *,
    actor: Actor,
    player: Player | None = None,
    name: str = "",
    club: str = "",
    country: str = "",
    rating: float | None = None,
    seed: int | None = None,
    place: str = "",
    new_player: bool = False,
    cap_override: str = "",
) -> Entry:
    """Enter a player (an existing one, or a new one by name) in a division.

    A division open by rating or points (tournaments/entry_caps.py) refuses a player outside its cap with the
    reason (``outside_cap``), unless ``cap_override`` gives the director's reason to enter him anyway (kept on the
    entry).

    In a club's event a name is looked up on the club's roster (tournaments/services/clubs.py): the roster's player
    named exactly so is entered; a close name is refused with the candidates (``player_to_choose``) unless
    ``new_player`` says it is another person; a new player joins the roster.

    Before the start anyone may be entered. Once a Swiss division runs, a late entry is allowed while at most half
    its rounds have been played; a last-chance division takes late entries and buy-backs into its free places.
    """
    check_directs(actor, division.event)
    with transaction.atomic():
        division = Division.objects.select_for_update().get(pk=division.pk)
        late = _check_open_for_entry(division, place)
        roster = _club_locked(division)
        if player is None and roster is not None:
            entered = set(division.entries.values_list("player_id", flat=True))
            player = roster_player(roster, name=name, new_player=new_player, entered=entered)
        shown = player.display_name if player else spaced(name)
        override = _within_cap(division, shown, player, cap_override, typed=rating)
        if player is None:
            _check_name_free(division, name, club)
            player = create_player(display_name=name, club=club, country=country)
        if roster is not None:
            join_roster(roster, player)
        if rating is not None and not 0 < rating < 10000:
            raise _invalid(f"a rating of {rating} is out of range (1-9999)")
        if seed is not None and not 1 <= seed <= MAX_SEED:
            raise _invalid(f"seed {seed} is outside 1-{MAX_SEED}")
        existing = Entry.objects.filter(division=division, player=player).first()
        if existing is not None:
            return _re_enter(existing, place) if place else _already(existing)
        if late and division.in_swiss_phase and seed is None:
            # Swiss pairs and ranks entries by seed: a late entrant takes the next one (he ranks after the field).
            seed = (division.entries.aggregate(last=Max("seed"))["last"] or 0) + 1
        try:
            with transaction.atomic():
                return Entry.objects.create(
                    division=division, player=player, rating=rating, seed=seed, late=late, place=place,
                    cap_override=override,
                )  # fmt: skip
        except IntegrityError:
            raise ApplicationError(ErrorCode.CONFLICT, f"seed {seed} is already taken in {division.name}") from None


def _within_cap(
    division: Division, name: str, player: Player | None, cap_override: str, *, typed: float | None = None
) -> str:
    """The override kept on the entry ("" when the player is within the division's caps); a refusal with the
    reason when he is outside them and the director gave no reason to enter him anyway."""
    refused = refusal_of(division, name, player, typed)
    if refused is None:
        return ""
    return _overridden(refused, cap_override)


def _overridden(refused: str, cap_override: str) -> str:
    reason = " ".join(cap_override.split())
    if not reason:
        raise ApplicationError(
            ErrorCode.OUTSIDE_CAP,
            f"{refused}. To enter him anyway, give your reason for the exception (it is kept with the entry).",
        )
    if len(reason) > MAX_OVERRIDE:
        raise _invalid(f"the reason for the exception has at most {MAX_OVERRIDE} characters")
    return reason


def _club_locked(division: Division) -> Club | None:
    """The club of the division's event, its row locked: two registrations of one new name in two of its events at
    once make one record, not two."""
    if division.event.club_id is None:
        return None
    return Club.objects.select_for_update().get(pk=division.event.club_id)


def _check_name_free(division: Division, name: str, club: str) -> None:
    """A new player's name is not one already entered in the division (a list pasted twice, a typed name entered
    again); two players of one name are told apart in it."""
    name = " ".join(name.split())
    taken = division.entries.filter(player__display_name__iexact=name).select_related("player").order_by("pk").first()
    if name and taken is not None:
        raise ApplicationError(ErrorCode.CONFLICT, _name_taken(taken.player.display_name, division, name, club))


def _name_taken(taken: str, division: Division, name: str, club: str) -> str:
    apart = told_apart(name, club)
    return (
        f"{taken} is already entered in {division.name}: to enter another player of that name, tell the two apart "
        f'in the name, such as "{apart}"'
    )


def _already(entry: Entry) -> Entry:
    raise ApplicationError(ErrorCode.CONFLICT, f"{entry.player.display_name} is already entered in this division")


def _check_open_for_entry(division: Division, place: str) -> bool:
    """Whether an entry now is late; refuse when the division takes no more entries."""
    if division.status == Division.Status.REGISTRATION:
        if place:
            raise _invalid("last-chance places are filled once the division has started")
        return False
    if division.status == Division.Status.FINISHED:
        raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} is finished")
    if division.in_swiss_phase:
        played = division.rounds.count()
        if not late_entry_allowed(played, division.rounds_planned):
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"Late entry is closed: {played} of {division.rounds_planned} rounds are paired. Late entry is open "
                "while at most half the rounds are paired (a late entry plays from the next round).",
            )
        return True
    if division.format == Division.Format.LAST_CHANCE and place:
        check_place_free(division, place)
        return True
    raise ApplicationError(
        ErrorCode.CONFLICT,
        f"{division.name} has started and its format takes no late entries"
        + (": enter the player into a free last-chance place instead" if division.last_chance_places else ""),
    )


def _re_enter(entry: Entry, place: str) -> Entry:
    """A buy-back: a player already in the division, and out of every bracket, takes a last-chance place (once)."""
    if entry.place:
        raise ApplicationError(ErrorCode.CONFLICT, f"{entry.player.display_name} already holds {entry.place}")
    if entry.status == Entry.Status.WITHDRAWN:
        raise ApplicationError(ErrorCode.CONFLICT, f"{entry.player.display_name} has withdrawn from this division")
    if entry.status != Entry.Status.ELIMINATED:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{entry.player.display_name} is still playing in this division: only a player out of every bracket "
            "can buy back into the last chance",
        )
    entry.place = place
    entry.save(update_fields=["place"])
    return entry


@dataclass(frozen=True)
class ImportReport:
    created: list[Entry]
    errors: list[str]


def import_entries_csv(
    division: Division, *, actor: Actor, text: str, choices: Mapping[int, str] | None = None
) -> ImportReport:
    """Register players from CSV text: ``name`` (required), ``club``, ``country``, ``rating``, ``seed``, either
    under a header row naming the columns (any order, ``name`` among them) or, when the first line is not one, in
    that order. All or nothing: any bad row refuses the whole file, and the report lists every bad row.
    ``choices``: "Who is it?" answered for lines of the list (line number: the roster player's number, or
    ``new``), as a ``player`` column says it."""
    check_directs(actor, division.event)
    parsed, errors, first = read_players_list(text, nothing="nothing was registered")
    errors += _apply_choices(division, parsed, choices or {}, first)
    errors += _clashes(division, parsed, first)
    if errors:
        refuse_lines(errors)
    _check_roster_choices(division, parsed, first)
    _check_caps_of_list(division, parsed, first)
    created: list[Entry] = []
    with transaction.atomic():
        for line, fields in enumerate(parsed, start=first):
            try:
                created.append(register_player(division, actor=actor, **fields))
            except ApplicationError as exc:
                raise _invalid(f"nothing was registered; line {line}: {exc.message}") from None
    return ImportReport(created, [])


def _apply_choices(
    division: Division, parsed: list[dict[str, Any]], choices: Mapping[int, str], first: int
) -> list[tuple[int, str]]:
    """The director's answers to "Who is it?" for lines of the list (line number: the roster player's number or
    ``new``), as a ``player`` column would say it; a player chosen off the club's roster is a bad line."""
    club = division.event.club
    bad: list[tuple[int, str]] = []
    for line, choice in choices.items():
        if club is None or not first <= line < first + len(parsed) or not parsed[line - first]:
            continue
        fields = parsed[line - first]
        if choice == "new":
            fields["new_player"] = True
        elif choice.isdigit():
            fields["player"] = club.players.filter(pk=int(choice)).first()
            if fields["player"] is None:
                bad.append((line, f"player {choice} is not on {club.name}'s roster"))
    return bad


def _clashes(division: Division, parsed: list[dict[str, Any]], first: int) -> list[tuple[int, str]]:
    """The lines of a list that clash with another line of it or with the division's entries: a name given twice
    in the list, or already entered (a list pasted twice); a seed given twice, or already taken. Each clash is
    said in its own words, with the line it clashes with (``parsed``: the lines' fields, ``{}`` for a line
    already refused; ``first``: the number of the first line)."""
    entered = {
        " ".join(name.split()).lower(): name for name in division.entries.values_list("player__display_name", flat=True)
    }
    seeds = set(division.entries.exclude(seed=None).values_list("seed", flat=True))
    names_at: dict[str, int] = {}
    seeds_at: dict[int, int] = {}
    clashes: list[tuple[int, str]] = []
    for line, fields in enumerate(parsed, start=first):
        name = " ".join(fields.get("name", "").split())
        key = name.lower()
        club = fields.get("club", "")
        if name and key in names_at:
            twice = (
                f"{name} is also on line {names_at[key]} of this list: if they are two players, tell them apart in "
                f'the name, such as "{told_apart(name, club)}"; if not, leave one of the lines out'
            )
            clashes.append((line, twice))
        elif name and key in entered:
            clashes.append((line, _name_taken(entered[key], division, name, club)))
        names_at.setdefault(key, line)
        seed = fields.get("seed")
        if seed is not None and seed in seeds_at:
            clashes.append((line, f"seed {seed} is also given on line {seeds_at[seed]} of this list"))
        elif seed is not None and seed in seeds:
            clashes.append((line, f"seed {seed} is already taken in {division.name}"))
        if seed is not None:
            seeds_at.setdefault(seed, line)
    return clashes


def _check_caps_of_list(division: Division, parsed: list[dict[str, Any]], first: int) -> None:
    """In a division open by rating or points: every line outside its cap and without an override, all at once,
    with the reason (nothing is registered). Reads the ratings and the season's points once for the whole list."""
    if not is_capped(division):
        return
    club = division.event.club
    entered = set(division.entries.values_list("player_id", flat=True)) if club is not None else set()
    candidates = []
    for fields in parsed:
        player = fields.get("player")
        if player is None and club is not None and not fields.get("new_player"):
            # the choices were checked: exact or new
            player = roster_player(club, name=fields["name"], entered=entered)
        shown = player.display_name if player else spaced(fields["name"])
        candidates.append(Candidate(shown, player and player.pk, fields.get("rating")))
    outside = [
        f"line {line}: {reason}"
        for line, (fields, reason) in enumerate(zip(parsed, refusals(division, candidates), strict=True), start=first)
        if reason is not None and not fields.get("cap_override")
    ]
    if outside:
        raise ApplicationError(
            ErrorCode.OUTSIDE_CAP,
            "nothing was registered; these players are outside the division's cap: leave them out, or give your "
            "reason to enter each anyway in an override column: " + "; ".join(outside),
        )


def _check_roster_choices(division: Division, parsed: list[dict[str, Any]], first: int) -> None:
    """In a club's event: every line whose name is close to the roster's (or shared by namesakes) and says neither
    which player it is nor ``new``, all at once, with their candidates (nothing is registered)."""
    club = division.event.club
    if club is None:
        return
    unsure, lines = [], []
    entered = set(division.entries.values_list("player_id", flat=True))
    for line, fields in enumerate(parsed, start=first):
        if fields.get("player") is not None or fields.get("new_player"):
            continue
        try:
            roster_player(club, name=fields["name"], entered=entered)
        except ApplicationError as exc:
            if exc.code != ErrorCode.PLAYER_TO_CHOOSE:
                raise
            unsure.append(f"line {line}: {exc.message}")
            lines.append(
                {
                    "line": line,
                    "name": fields["name"],
                    "candidates": exc.extra["candidates"],
                    "entered": exc.extra["entered"],
                }
            )
    if unsure:
        raise ApplicationError(
            ErrorCode.PLAYER_TO_CHOOSE,
            "Nothing was registered. Say who these players are (on the page, with the choices given for each line; "
            "in the list itself, in a player column: the roster player's number, or new for a new player), then "
            "send the list again: " + "; ".join(unsure),
            lines=lines,
        )


def check_in(entry: Entry, *, actor: Actor, present: bool = True, cap_override: str = "") -> Entry:
    """Check a player in (or out). In a division open by rating or points, a player now outside its cap (his rating
    or points changed since he registered) is refused with the reason, unless his entry already carries an override
    or ``cap_override`` gives one."""
    check_directs(actor, entry.division.event)
    if entry.status == Entry.Status.WITHDRAWN:
        raise ApplicationError(ErrorCode.CONFLICT, f"{entry.player.display_name} has withdrawn")
    fields = ["status", "checked_in_at"]
    if present:
        if not entry.cap_override:
            name = entry.player.display_name
            entry.cap_override = _within_cap(entry.division, name, entry.player, cap_override, typed=entry.rating)
            fields.append("cap_override")
        entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, timezone.now()
    else:
        entry.status, entry.checked_in_at = Entry.Status.REGISTERED, None
    entry.save(update_fields=fields)
    return entry


def check_in_all(division: Division, *, actor: Actor, entries: list[int]) -> int:
    """Check in at once the players ``entries`` (ids) of the division, as the director's filtered list shows them:
    one UPDATE whatever their number; withdrawn players and players already checked in are left as they are.
    Returns how many were checked in."""
    check_directs(actor, division.event)
    if division.status != Division.Status.REGISTRATION:
        raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} has started: check-in is over")
    rows = division.entries.filter(pk__in=entries, status=Entry.Status.REGISTERED)
    _check_caps_of_entries(division, rows.filter(cap_override=""))
    return rows.update(status=Entry.Status.CHECKED_IN, checked_in_at=timezone.now())


def _check_caps_of_entries(division: Division, entries: Any) -> None:
    """Refuse to check in at once players now outside the division's cap (without an override), naming them."""
    if not is_capped(division):
        return
    found = list(entries.select_related("player"))
    reasons = refusals(division, [Candidate(e.player.display_name, e.player_id, e.rating) for e in found])
    outside = [reason for reason in reasons if reason is not None]
    if outside:
        raise ApplicationError(
            ErrorCode.OUTSIDE_CAP,
            "nobody was checked in; these players are outside the division's cap: check them in one by one with "
            "your reason for the exception, or leave them out of the list: " + "; ".join(outside),
        )


def set_seed(entry: Entry, *, actor: Actor, seed: int | None) -> Entry:
    """Set a manual seed before the start (seeding method 'manual')."""
    check_directs(actor, entry.division.event)
    if entry.division.status != Division.Status.REGISTRATION:
        raise ApplicationError(ErrorCode.CONFLICT, "seeds are fixed once the division has started")
    if seed is not None and not 1 <= seed <= MAX_SEED:
        raise _invalid(f"a seed is a number from 1 to {MAX_SEED}")
    entry.seed = seed
    try:
        with transaction.atomic():
            entry.save(update_fields=["seed"])
    except IntegrityError:
        raise ApplicationError(ErrorCode.CONFLICT, f"seed {seed} is already taken") from None
    return entry
