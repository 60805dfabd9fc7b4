"""Clubs and their rosters: one record per person across a club's events.

A club has directors, a roster of players and a rating list (made with the club), which its events are rated on, so a
player's rating carries from one club night to the next because he is the same record. Registering a player by name
in a club's event looks the name up on the roster (tournaments/names.py): the one player named exactly so is
entered; a name close to the roster's (case, accents, a typo, an initial, the other order), or shared by namesakes,
is refused with ``player_to_choose`` and the candidates, for the director to choose one (``player``) or to say it is
a new person (``new_player``). Nothing is merged silently. A new player joins the roster.

A season is a span of the club's events counted by a points system (:func:`create_season`).

Every function checks the actor's rights, validates, and writes in one transaction; a refusal writes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import ngettext

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from games.services import create_player
from tournaments import universal_club_table
from tournaments.access import check_directs_club
from tournaments.models import Club, RatingList, Season
from tournaments.names import roster_matches, spaced
from tournaments.services.seasons import schedule_season_points


def _unique_slug(model: Any, text: str) -> str:
    base = slugify(text)[:80] or "club"
    slug, n = base, 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def create_club(*, actor: Actor, name: str, slug: str = "", public: bool = True) -> Club:
    """Create a club with its rating list; the user creating it becomes its first director."""
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    if user is None or actor.token is not None:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in to create a club")
    name = spaced(name)
    if not name:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a club needs a name")
    if len(name) > 200:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a club's name has at most 200 characters")
    if slug and slugify(slug) != slug:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{slug!r} is not a valid address part: use lower-case letters, digits and hyphens"
        )
    with transaction.atomic():
        if slug and Club.objects.filter(slug=slug).exists():
            raise ApplicationError(ErrorCode.CONFLICT, f"a club with the address {slug!r} already exists")
        rating_list = RatingList.objects.create(name=name, slug=_unique_slug(RatingList, name))
        rating_list.owners.add(user)
        club = Club.objects.create(
            name=name, slug=slug or _unique_slug(Club, name), rating_list=rating_list, public=public
        )
        club.directors.add(user)
    return club


def add_club_director(club: Club, *, actor: Actor, user: Any) -> None:
    """Make ``user`` a director of the club (and an owner of its rating list)."""
    check_directs_club(actor, club)
    with transaction.atomic():
        club.directors.add(user)
        if club.rating_list is not None:
            club.rating_list.owners.add(user)


def remove_club_director(club: Club, *, actor: Actor, user: Any) -> None:
    """Take ``user`` off the club's directors (and its rating list's owners); a club keeps at least one director.

    :raises ApplicationError: CONFLICT for the last director, naming what to do.
    """
    check_directs_club(actor, club)
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        if not club.directors.exclude(pk=user.pk).exists():
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{club.name} needs a director: add another one before removing {user.get_username()}",
            )
        club.directors.remove(user)
        if club.rating_list is not None:
            club.rating_list.owners.remove(user)


def roster_player(club: Club, *, name: str, new_player: bool = False, entered: Collection[int] = ()) -> Player | None:
    """The roster's player a registration of ``name`` enters: the one named exactly so; None for a new person (no
    one close, or ``new_player``). Reads the roster in one statement, whatever its size. ``entered``: the players
    already entered in the division, never offered to choose from; a close name whose only close players are
    entered is still asked about (it may be one of them, entered twice), naming them as entered.

    :raises ApplicationError: PLAYER_TO_CHOOSE with ``candidates`` (and ``entered``: the close players entered
        already) when the name is close to the roster's or shared by namesakes, unless ``new_player``.
    """
    if new_player:
        return None
    found = roster_matches(name, club.players.values_list("pk", "display_name").iterator())
    if len(found.exact) == 1:
        return Player.objects.get(pk=found.exact[0])
    ids = [pk for pk in found.exact or found.close if pk not in entered]
    if found.exact and not ids:  # every namesake plays already: the registration says so
        return Player.objects.get(pk=found.exact[0])
    playing = [] if found.exact else [pk for pk in found.close if pk in entered]
    if not ids and not playing:
        return None
    known = Player.objects.in_bulk([*ids, *playing])
    candidates = sorted((known[pk] for pk in ids), key=lambda p: (p.display_name, p.pk))
    already = sorted((known[pk] for pk in playing), key=lambda p: (p.display_name, p.pk))
    typed = spaced(name)
    said = []
    if already:
        names = " or ".join(p.display_name for p in already)
        said.append(f"{typed} may be {names}, already entered: if so, leave {typed} out")
    if candidates:
        why = "namesakes on" if found.exact else ngettext("close to a name on", "close to names on", len(candidates))
        labels = "; ".join(p.label for p in candidates)
        said.append(f"{typed!r} is {why} {club.name}'s roster: {labels}. Choose the player it is")
    raise ApplicationError(
        ErrorCode.PLAYER_TO_CHOOSE,
        f"{'; '.join(said)}, or enter {typed} as a new player",
        candidates=[{"id": p.pk, "name": p.display_name, "label": p.label} for p in candidates],
        entered=[{"id": p.pk, "name": p.display_name, "label": p.label} for p in already],
    )


def join_roster(club: Club, player: Player) -> None:
    """Put ``player`` on the club's roster (nothing if he is on it)."""
    club.players.add(player)


def add_to_roster(
    club: Club,
    *,
    actor: Actor,
    player: Player | None = None,
    name: str = "",
    club_text: str = "",
    country: str = "",
    new_player: bool = False,
) -> Player:
    """Put a player on the roster: an existing one (``player``), the roster's player named exactly ``name``, or a new
    one (refused with the candidates when the name is close to the roster's, unless ``new_player``)."""
    check_directs_club(actor, club)
    with transaction.atomic():
        if player is None:
            player = roster_player(club, name=name, new_player=new_player)
        if player is None:
            player = create_player(display_name=name, club=club_text, country=country)
        join_roster(club, player)
    return player


# -- seasons -------------------------------------------------------------------------------------------------------

#: The keys of a club's own table, as stored on the season.
TABLE_KEYS = ("per_win", "times_length", "places", "showing_up", "multipliers")
#: The keys of a BackGames season's table: what the universal club table is read by, the club's own figures over
#: the default (tournaments/universal_club_table.py) and each event's bonus multiplier.
UNIVERSAL_KEYS = ("basis", "figures", "multipliers")


def create_season(
    club: Club,
    *,
    actor: Actor,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date,
    system: str = Season.System.CLUB,
    table: dict[str, Any] | None = None,
    qualify: int = 0,
    slug: str = "",
) -> Season:
    """Add a season to the club: its span, its points system and, for the club's own table or BackGames' universal
    club table, its table (checked whole: each bad value is named with what to give; nothing is stored on a
    refusal). A USBGF season has no table: what is given for one is ignored."""
    check_directs_club(actor, club)
    name = spaced(name)
    if not name:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a season needs a name")
    _check_season(starts_on, ends_on, system, qualify)
    stored = _stored_table(system, table or {})
    with transaction.atomic():
        slug = slug or slugify(name)[:80] or "season"
        if Season.objects.filter(club=club, slug=slug).exists():
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{club.name} already has a season named like {name!r} (its address {slug!r}): choose another name.",
            )
        season = Season.objects.create(
            club=club, name=name, slug=slug, starts_on=starts_on, ends_on=ends_on, system=system, table=stored,
            qualify=qualify,
        )  # fmt: skip
        schedule_season_points(season.pk)  # its events played already count
        return season


def change_season(
    season: Season,
    *,
    actor: Actor,
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    system: str | None = None,
    table: dict[str, Any] | None = None,
    qualify: int | None = None,
) -> Season:
    """Change a season's span, points system, table or playoff line (what is not given stays), checked as a new
    season's; a new span, system or table has its points computed again (after the commit, by the season's task).
    Nothing is stored on a refusal."""
    check_directs_club(actor, season.club)
    starts_on = season.starts_on if starts_on is None else starts_on
    ends_on = season.ends_on if ends_on is None else ends_on
    kept = system is None or system == season.system
    system = season.system if system is None else system
    qualify = season.qualify if qualify is None else qualify
    _check_season(starts_on, ends_on, system, qualify)
    stored = _stored_table(system, (season.table if kept else {}) if table is None else table)
    counted = (season.starts_on, season.ends_on, season.system, season.table)
    with transaction.atomic():
        Season.objects.filter(pk=season.pk).update(
            starts_on=starts_on, ends_on=ends_on, system=system, table=stored, qualify=qualify
        )
        if (starts_on, ends_on, system, stored) != counted:
            schedule_season_points(season.pk)
    season.refresh_from_db()
    return season


def _check_season(starts_on: dt.date, ends_on: dt.date, system: str, qualify: int) -> None:
    if ends_on < starts_on:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a season cannot end before it starts")
    if system not in Season.System.values:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"unknown points system {system!r}: use {' or '.join(Season.System.values)}"
        )
    if not 0 <= qualify <= 1000:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"the playoff line is 0 (none) to 1000 players, not {qualify}")


def _stored_table(system: str, table: dict[str, Any]) -> dict[str, Any]:
    """The table a season of ``system`` stores, checked (none for a system without one)."""
    if system == Season.System.CLUB:
        return check_table(table)
    if system == Season.System.BACKGAMES:
        return check_universal_table(table)
    return {}


def check_table(table: dict[str, Any]) -> dict[str, Any]:
    """A club's own table as stored: every key known, every number a number of 0 or more."""
    unknown = sorted(set(table) - set(TABLE_KEYS))
    if unknown:
        raise _table_error(f"unknown {', '.join(unknown)}: a table has {', '.join(TABLE_KEYS)}")

    def number(value: Any, what: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10_000:
            raise _table_error(f"{what} is {value!r}: give a number from 0 to 10000")
        return float(value)

    places = table.get("places", [])
    if not isinstance(places, list) or len(places) > 1024:
        raise _table_error("places is the points of each place, place 1 first, such as [10, 6, 4, 4]")
    multipliers = table.get("multipliers", {})
    if not isinstance(multipliers, dict):
        raise _table_error('multipliers maps an event\'s address to its multiplier, such as {"final-night": 2}')
    if not isinstance(table.get("times_length", False), bool):
        raise _table_error("times_length is true or false")
    return {
        "per_win": number(table.get("per_win", 1), "per_win"),
        "times_length": table.get("times_length", False),
        "places": [number(p, f"place {n}") for n, p in enumerate(places, start=1)],
        "showing_up": number(table.get("showing_up", 0), "showing_up"),
        "multipliers": {str(slug): number(x, f"the multiplier of {slug}") for slug, x in multipliers.items()},
    }


def check_universal_table(table: dict[str, Any]) -> dict[str, Any]:
    """A BackGames season's table as stored: ``basis`` players, rounds or higher; ``figures`` any part of the
    universal club table's shape, numbers of 0 or more; ``multipliers`` 1, 1.5 or 2 by event address."""
    unknown = sorted(set(table) - set(UNIVERSAL_KEYS))
    if unknown:
        raise _table_error(f"unknown {', '.join(unknown)}: a BackGames season's table has {', '.join(UNIVERSAL_KEYS)}")
    basis = table.get("basis", "players")
    if basis not in universal_club_table.BASES:
        raise _table_error(
            f"basis is {basis!r}: the table is read by players (the field's size), rounds, or higher (whichever "
            "gives more)"
        )
    figures = table.get("figures", {})
    try:
        universal_club_table.with_changes(figures)
    except ValueError as exc:
        raise _table_error(str(exc)) from None
    multipliers = table.get("multipliers", {})
    if not isinstance(multipliers, dict):
        raise _table_error('multipliers maps an event\'s address to its bonus, such as {"final-night": 2}')
    allowed = universal_club_table.MULTIPLIERS
    for slug, x in multipliers.items():
        if isinstance(x, bool) or x not in allowed:
            raise _table_error(f"the multiplier of {slug} is {x!r}: BackGames' bonus is 1, 1.5 or 2")
    return {
        "basis": basis,
        "figures": figures,
        "multipliers": {str(slug): float(x) for slug, x in multipliers.items()},
    }


def _table_error(message: str) -> ApplicationError:
    return ApplicationError(ErrorCode.INVALID_INPUT, f"The season's table is not stored: {message}.")
