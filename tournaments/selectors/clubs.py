"""Reads of clubs: the clubs a user may see, a club's page (its events running, to come and played, its rating list, its
recent champions) and its roster. Each runs a fixed number of queries whatever the number of events or players.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games.models import Match, Player, PlayerAnalysis
from games.selectors import players_visible_to
from tournaments.core import withdrawn_unplayed
from tournaments.models import Club, Division, Entry, Event, PlayerMerge, Rating, Season, Standing
from tournaments.names import roster_matches
from tournaments.selectors.common import events_visible_to
from tournaments.selectors.playoffs import EVENT_NOT_OVER, playoff_to_play

#: How many events, champions and rated players a club's page lists.
RECENT = 10
RATED = 50


def clubs_visible_to(user: Any) -> QuerySet[Club]:
    """Public clubs, plus the private ones a user directs (staff: all)."""
    qs = Club.objects.all()
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return qs
        return qs.filter(Q(public=True) | Q(directors=user)).distinct()
    return qs.filter(public=True)


def visible_club(user: Any, slug: str) -> Club | None:
    return clubs_visible_to(user).filter(slug=slug).select_related("rating_list").first()


@dataclass(frozen=True)
class Champion:
    """A finished division's champion; while a playoff for its tie at 1st is to be played, none yet: ``playoff``
    holds the tied players (``player`` is the first of them)."""

    event: Event
    division: Division
    player: Player
    playoff: tuple[Player, ...] = ()


@dataclass(frozen=True)
class ClubPage:
    club: Club
    upcoming: list[Event] = field(default_factory=list)
    recent: list[Event] = field(default_factory=list)
    ratings: list[Rating] = field(default_factory=list)
    champions: list[Champion] = field(default_factory=list)
    running: list[Event] = field(default_factory=list)  # being played now: neither to come nor played


def club_page(club: Club, user: Any, *, today: dt.date | None = None) -> ClubPage:
    """What a club's page shows ``user``: its events running now, its events to come (not started, soonest first)
    and its last events played (finished, latest first) among those ``user`` may see, the top of its rating list,
    and the champions of its last finished divisions, a tie at 1st whose playoff is to be played as one row of its
    tied players (five queries)."""
    today = today or timezone.localdate()
    visible = events_visible_to(user).filter(club=club)
    events = visible.annotate(playoff_to_play=playoff_to_play("division__event"))
    # A finished event whose playoff for a tie is still to be played is not over: it runs (marked playoff_to_play).
    to_come = ~Q(status=Event.Status.FINISHED) & (Q(starts_on__isnull=True) | Q(starts_on__gte=today))
    unfinished: list[Event] = list(events.filter(EVENT_NOT_OVER | to_come).order_by("starts_on", "id")[: 2 * RECENT])
    running = [e for e in unfinished if e.status == Event.Status.RUNNING or getattr(e, "playoff_to_play", False)]
    upcoming = [e for e in unfinished if e not in running]
    played = events.filter(status=Event.Status.FINISHED, playoff_to_play=False)
    recent: list[Event] = list(played.order_by("-starts_on", "-id")[:RECENT])
    ratings: list[Rating] = []
    if club.rating_list_id is not None:
        ratings = list(
            Rating.objects.filter(rating_list_id=club.rating_list_id)
            .select_related("player")
            .order_by("-rating", "player__display_name")[:RATED]
        )
    last_table = (
        Standing.objects.filter(division=OuterRef("division")).order_by("-after_round").values("after_round")[:1]
    )
    firsts = (
        Standing.objects.filter(
            division__event__in=visible,
            division__status=Division.Status.FINISHED,
            rank=1,
            after_round=Subquery(last_table),
        )
        .annotate(playoff_to_play=playoff_to_play(outer="division", place=1))
        .select_related("division__event", "entry__player")
        .order_by("-division__finished_at", "-division_id", "entry__seed")[:RECENT]
    )
    champions: list[Champion] = []
    for row in firsts:
        if not row.playoff_to_play:
            champions.append(Champion(row.division.event, row.division, row.entry.player))
        elif champions and champions[-1].division.pk == row.division_id:  # one more of the tie at 1st
            last = champions[-1]
            champions[-1] = Champion(last.event, last.division, last.player, (*last.playoff, row.entry.player))
        else:
            champions.append(Champion(row.division.event, row.division, row.entry.player, (row.entry.player,)))
    return ClubPage(club, upcoming[:RECENT], recent, ratings, champions, running[:RECENT])


def _roster(club: Club) -> QuerySet[Player]:
    """The club's roster, by name, each player with ``events``: how many of the club's events he entered."""
    return club.players.annotate(
        events=Count("entries__division__event", filter=Q(entries__division__event__club=club), distinct=True)
    ).order_by("display_name", "pk")


def roster_of(club: Club) -> list[Player]:
    """The club's whole roster (:func:`_roster`)."""
    return list(_roster(club))


#: How many players a page of the roster on the club's page for its directors lists.
ROSTER_PER_PAGE = 50


@dataclass(frozen=True)
class RosterPage:
    """A page of the club's roster (:func:`roster_page`): its players with their ratings, and the page's place."""

    page: Page[Player]
    rows: list[tuple[Player, float | None]]
    find: str


def roster_page(club: Club, *, find: str = "", page: Any = None) -> RosterPage:
    """A page of the club's roster, by name (``find``: only the players whose name holds it, case aside), each player
    with his rating on the club's list (None: not rated yet) and the number of the club's events he entered. Three
    statements whatever the roster's size: the count, the page, the page's ratings."""
    find = " ".join(find.split())[:100]
    players = _roster(club)
    if find:
        players = players.filter(display_name__icontains=find)
    shown = Paginator(players, ROSTER_PER_PAGE).get_page(page)
    listed = list(shown.object_list)
    ratings = {}
    if club.rating_list_id is not None and listed:
        rated = Rating.objects.filter(rating_list_id=club.rating_list_id, player_id__in=[p.pk for p in listed])
        ratings = dict(rated.values_list("player_id", "rating"))
    return RosterPage(shown, [(player, ratings.get(player.pk)) for player in listed], find)


def seasons_of(club: Club) -> list[Season]:
    """The club's seasons, the latest first."""
    return list(club.seasons.order_by("-starts_on", "-id"))


def visible_season(user: Any, club: str, season: str) -> Season | None:
    """The season ``season`` of the club ``club``, if ``user`` may see the club."""
    return (
        Season.objects.filter(club__in=clubs_visible_to(user), club__slug=club, slug=season)
        .select_related("club")
        .first()
    )


# -- merges of two records of one person ---------------------------------------------------------------------------


def club_zone(club: Club) -> str:
    """The time zone a club's times are shown in: a club has none of its own, so that of its latest event (the one
    its event pages use), or the site's when it has no event yet (one statement)."""
    latest = club.events.order_by("-starts_on", "-pk").values_list("time_zone", flat=True).first()
    return latest or settings.TIME_ZONE


def merges_of(club: Club) -> list[PlayerMerge]:
    """The club's merges, the latest first, with the players and who merged and undid them (one statement)."""
    return list(
        PlayerMerge.objects.filter(club=club)
        .select_related("kept", "folded", "merged_by", "undone_by")
        .order_by("-created_at", "-pk")
    )


def merge_of(club: Club, merge_id: int) -> PlayerMerge | None:
    return PlayerMerge.objects.filter(club=club, pk=merge_id).select_related("club", "kept", "folded").first()


@dataclass(frozen=True)
class MergePreview:
    """What a merge of ``fold`` into ``keep`` would move: the number of rows per table, said in words."""

    keep: Player
    fold: Player
    entries: int
    matches: int
    analyses: int
    events: list[str]
    dropped: list[str] = field(default_factory=list)

    @property
    def words(self) -> str:
        events = ", ".join(self.events) or "no event"
        said = (
            f"{self.fold.label} becomes {self.keep.label}: {_count(self.entries, 'entry', 'entries')} ({events}), "
            f"{_count(self.matches, 'match', 'matches')} and "
            f"{_count(self.analyses, 'analysed match', 'analysed matches')} move to #{self.keep.pk}; the ratings are "
            "counted again."
        )
        for dropped in self.dropped:
            said += f" {dropped}"
        return said


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def merge_preview(keep: Player, fold: Player) -> MergePreview:
    """What merging ``fold`` into ``keep`` moves, and the withdrawn duplicate entries it drops (five statements, and
    two more for each division both entered)."""
    entries = list(
        Entry.objects.filter(player=fold).select_related("division__event").order_by("division__event__starts_on")
    )
    dropped = []
    kept = {e.division_id: e for e in Entry.objects.filter(player=keep, division__in=[e.division_id for e in entries])}
    for entry in list(entries):
        twin = kept.get(entry.division_id)
        drop = None if twin is None else next((e for e in (entry, twin) if withdrawn_unplayed(e)), None)
        if drop is None:
            continue
        if drop is entry:
            entries.remove(entry)
        who = fold if drop is entry else keep
        dropped.append(
            f"Both are entered in {entry.division.event.name}, {entry.division.name}: the entry of {who.label}, "
            "withdrawn before it played, is dropped (an undo puts it back)."
        )
    return MergePreview(
        keep=keep,
        fold=fold,
        dropped=dropped,
        entries=len(entries),
        matches=Match.objects.filter(Q(player1=fold) | Q(player2=fold)).count(),
        analyses=PlayerAnalysis.objects.filter(player=fold).count(),
        events=[f"{e.division.event.name}, {e.division.name}" for e in entries],
    )


def merge_candidate(club: Club, user: Any, player_id: Any) -> Player | None:
    """A player ``user`` may name in a merge of ``club``: one on the roster, one merged into one of it, or one he may
    see (the service refuses the last two with their reason); others are not found, so that a refusal never names a
    player he may not see."""
    try:
        pk = int(player_id)
    except (TypeError, ValueError):
        return None
    known = Q(clubs=club) | Q(merged_into__clubs=club) | Q(pk__in=players_visible_to(user).values("pk"))
    return Player.objects.filter(known, pk=pk).distinct().first()


@dataclass(frozen=True)
class LinkOffer:
    """A player of the club's events apart from its roster, and the roster's players he may be (same or close name,
    as a registration finds them)."""

    player: Player
    roster: list[Player]


def link_offers(club: Club) -> list[LinkOffer]:
    """The players of the club's events apart from its roster (:meth:`Club.players_apart`) whose name is the name of
    a roster player or close to it, each with those roster players (three statements)."""
    apart = list(club.players_apart().order_by("display_name", "pk"))
    if not apart:
        return []
    roster = list(club.players.values_list("pk", "display_name"))
    found = {p.pk: roster_matches(p.display_name, roster) for p in apart}
    ids = {pk for matches in found.values() for pk in matches.exact + matches.close}
    players = Player.objects.in_bulk(ids)
    return [
        LinkOffer(p, [players[pk] for pk in found[p.pk].exact + found[p.pk].close])
        for p in apart
        if found[p.pk].exact or found[p.pk].close
    ]
