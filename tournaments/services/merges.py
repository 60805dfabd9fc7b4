"""Two records of one person: a club's director merges them ("same person": keep one, fold the other into it), and
may undo the merge (a split of a wrong merge).

Every row that points at the folded player follows to the kept one: his entries, his matches (as either player and
as winner), his analysed figures, his account, his places on club rosters; the folded player stays as a row marked
``merged_into`` the kept one (hidden from the lists and look-ups; his page sends to the kept one's). The merge's
audit row (:class:`PlayerMerge`) names who merged, when, and the ids of the rows that moved per table, so that its
undo puts back exactly those. Ratings are caches: the rating lists of the events either player entered (and the
club's) are replayed from their matches after a merge and after its undo, so a merged record's rating counts each
match once.

Two players entered in one division are two people, unless one of the two entries is a duplicate withdrawn before it
played (no pairing, no standing, no fees held): the merge drops that entry (the folded player's if both are), the
other being the person's, keeps it whole in the audit row, and its undo creates it again as it was.

Refused, with nothing stored: a player with himself, a player already merged, a player not on the club's roster,
two players entered in one division neither of whose entries is such a duplicate (the refusal says how to make it
one), two players who played each other, two accounts; and an undo while a later merge of the same record stands
(that one is undone first).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Match, Player
from games.services import fold_player, unfold_player
from tournaments.access import check_directs_club
from tournaments.core import withdrawn_unplayed
from tournaments.models import Club, Entry, Event, PlayerMerge, Rating
from tournaments.services.seasons import schedule_event_season_points
from tournaments.services.standings import recompute_ratings


def merge_players(club: Club, *, actor: Actor, keep: Player, fold: Player) -> PlayerMerge:
    """Fold ``fold`` into ``keep`` (both on ``club``'s roster, or ``fold`` a player of its events apart from it, as
    :func:`link_player` takes): every row of ``fold`` follows to ``keep``, with an audit row naming the rows that
    moved; the rating lists concerned are replayed.

    :raises ApplicationError: see the module's refusals.
    """
    check_directs_club(actor, club)
    apart = club.players_apart().filter(pk=fold.pk).exists()
    return _merge(club, actor, keep, fold, on_roster=(keep,) if apart else (keep, fold))


def link_player(club: Club, *, actor: Actor, keep: Player, player: Player) -> PlayerMerge:
    """Link a player the club's events made apart from its roster (an import's players, made new for every name so
    that a log never lands on someone's record) to the roster's player he is: a merge of ``player`` into ``keep``,
    undone as any merge.

    :raises ApplicationError: ``player`` is on the roster (merge him instead), or was never in the club's events;
        and the merge's refusals.
    """
    check_directs_club(actor, club)
    if club.players.filter(pk=player.pk).exists():
        raise ApplicationError(
            ErrorCode.CONFLICT, f"{player.label} is on {club.name}'s roster already: use Same person to merge him"
        )
    if not club.players_apart().filter(pk=player.pk).exists():
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{player.label} played in none of {club.name}'s events: there is nothing to link"
        )
    return _merge(club, actor, keep, player, on_roster=(keep,))


def _merge(club: Club, actor: Actor, keep: Player, fold: Player, *, on_roster: tuple[Player, ...]) -> PlayerMerge:
    if keep.pk == fold.pk:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{keep.label} cannot be merged with himself: choose two players of the roster"
        )
    with transaction.atomic():
        for player in (keep, fold):
            player.refresh_from_db(fields=["merged_into"])
            if player.merged_into_id is not None:
                raise ApplicationError(
                    ErrorCode.CONFLICT,
                    f"{player.label} is already merged into #{player.merged_into_id}: choose a player of the roster",
                )
        outside = [p for p in on_roster if not club.players.filter(pk=p.pk).exists()]
        if outside:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT,
                f"{' and '.join(p.label for p in outside)} {'is' if len(outside) == 1 else 'are'} not on "
                f"{club.name}'s roster: a club's directors merge the club's players only",
            )
        dropped = _drop_withdrawn_twins(keep, fold)
        lists = _rating_lists(club, keep, fold)
        entries = Entry.objects.filter(player=fold)
        moved: dict[str, Any] = {"entries": sorted(entries.values_list("pk", flat=True))}
        entries.update(player=keep)
        moved |= fold_player(keep, fold)
        rosters = sorted(fold.clubs.values_list("pk", flat=True))
        already = set(keep.clubs.values_list("pk", flat=True))
        moved["rosters"] = rosters
        moved["rosters_joined"] = [pk for pk in rosters if pk not in already]
        fold.clubs.clear()
        keep.clubs.add(*moved["rosters_joined"])
        moved["rating_lists"] = lists
        moved["entries_dropped"] = [_snapshot(entry) for entry in dropped]
        for rating_list in lists:
            recompute_ratings(rating_list)
        _season_points_follow(moved["entries"], also={e.division.event_id for e in dropped})
        user = actor.user if actor.user is not None and actor.user.is_authenticated else None
        return PlayerMerge.objects.create(club=club, kept=keep, folded=fold, moved=moved, merged_by=user)


def undo_merge(merge: PlayerMerge, *, actor: Actor) -> PlayerMerge:
    """Put back what ``merge`` moved: the folded player is a record of his own again, with exactly the rows he had.

    :raises ApplicationError: the merge is undone already, or a later merge of one of its players stands (named,
        to be undone first).
    """
    check_directs_club(actor, merge.club)
    with transaction.atomic():
        merge = PlayerMerge.objects.select_for_update().select_related("kept", "folded").get(pk=merge.pk)
        if merge.undone_at is not None:
            raise ApplicationError(ErrorCode.CONFLICT, f"the merge of {merge.folded.label} into {merge.kept.label} "
                                   "is undone already")  # fmt: skip
        players = (merge.kept_id, merge.folded_id)
        later = (
            PlayerMerge.objects.filter(undone_at__isnull=True, pk__gt=merge.pk)
            .filter(Q(kept_id__in=players) | Q(folded_id__in=players))
            .select_related("kept", "folded", "club")
            .order_by("-pk")
            .first()
        )
        if later is not None:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"a later merge depends on this one: undo the merge of {later.folded.label} into {later.kept.label} "
                f"(#{later.pk}, {later.club.name}) first",
            )
        keep, fold, moved = merge.kept, merge.folded, merge.moved
        entries = moved.get("entries", [])
        made_since = Match.objects.filter(
            Q(pairing__entry_a_id__in=entries) | Q(pairing__entry_b_id__in=entries)
        ).values_list("pk", flat=True)
        unfold_player(keep, fold, moved, made_since=list(made_since))
        Entry.objects.filter(pk__in=moved.get("entries", []), player=keep).update(player=fold)
        restored = [_restore(snapshot) for snapshot in moved.get("entries_dropped", [])]
        fold.clubs.add(*moved.get("rosters", []))
        keep.clubs.remove(*moved.get("rosters_joined", []))
        for rating_list in sorted(set(moved.get("rating_lists", [])) | set(_rating_lists(merge.club, keep, fold))):
            recompute_ratings(rating_list)
        _season_points_follow(entries, also={e.division.event_id for e in restored})
        merge.undone_at = timezone.now()
        merge.undone_by = actor.user if actor.user is not None and actor.user.is_authenticated else None
        merge.save(update_fields=["undone_at", "undone_by"])
    return merge


def _season_points_follow(entries: list[int], *, also: set[int]) -> None:
    """The season points of the events whose entries moved (and ``also``: those of the entries dropped or put back)
    are stored per player: they are computed again after the commit, so the season tables count the merged (or
    split) records as they now are."""
    events = set(Entry.objects.filter(pk__in=entries).values_list("division__event_id", flat=True)) | also
    for event_id in sorted(events):
        schedule_event_season_points(event_id)


def _drop_withdrawn_twins(keep: Player, fold: Player) -> list[Entry]:
    """In each division both players entered, the entry that is the duplicate: withdrawn without a match, a
    pairing or fees held (the folded player's first); it is deleted, for the other to be the person's entry (the
    merge keeps it whole, for its undo). Two entries of which neither is such are two people: refused, saying what
    to do if one is a duplicate.

    :raises ApplicationError: CONFLICT naming the division and what to do.
    """
    entries = Entry.objects.filter(player__in=(keep, fold)).select_related("division__event", "player")
    by_division: dict[int, dict[int, Entry]] = {}
    for entry in entries.order_by("division_id", "pk"):
        by_division.setdefault(entry.division_id, {})[entry.player_id] = entry
    twins = [(pair[fold.pk], pair[keep.pk]) for pair in by_division.values() if len(pair) == 2]
    dropped: list[Entry] = []
    for folded, kept in twins:
        drop = next((e for e in (folded, kept) if withdrawn_unplayed(e)), None)
        if drop is None:
            division = folded.division
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{keep.label} and {fold.label} are both entered in {division.name} of {division.event.name}: they "
                "played or are entered together, so they are two people. If one of the two entries is a duplicate "
                "made by mistake, withdraw it (before it plays a match, and with its fees refunded or unmarked), "
                "then merge them again: the withdrawn duplicate is dropped by the merge (and put back by its undo)",
            )
        dropped.append(drop)
    if dropped:
        Entry.objects.filter(pk__in=[e.pk for e in dropped]).delete()
    return dropped


#: The fields of an entry kept by a merge that drops it: every column, as the undo creates it again.
_ENTRY_TIMES = ("registered_at", "checked_in_at", "withdrawn_at", "paid_at")


def _snapshot(entry: Entry) -> dict[str, Any]:
    row = {f.attname: getattr(entry, f.attname) for f in Entry._meta.concrete_fields}
    return {
        key: value.isoformat() if key in _ENTRY_TIMES and value is not None else value for key, value in row.items()
    }


def _restore(snapshot: dict[str, Any]) -> Entry:
    """The entry a merge dropped, created again with its id and every column as it was."""
    row: dict[str, Any] = {
        key: dt.datetime.fromisoformat(value) if key in _ENTRY_TIMES and value is not None else value
        for key, value in snapshot.items()
    }
    if row["seed"] is not None and Entry.objects.filter(division_id=row["division_id"], seed=row["seed"]).exists():
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"seed {row['seed']} of the entry the merge dropped is taken since: clear that seed, then undo again",
        )
    entry = Entry.objects.create(**row)
    Entry.objects.filter(pk=entry.pk).update(registered_at=row["registered_at"])  # not the time of the undo
    return Entry.objects.select_related("division").get(pk=entry.pk)


def _rating_lists(club: Club, *players: Player) -> list[int]:
    """The rating lists a merge of ``players`` changes: the club's, those of the events they entered, and those
    they are rated on."""
    ids = set(
        Event.objects.filter(divisions__entries__player__in=players, rating_list__isnull=False).values_list(
            "rating_list_id", flat=True
        )
    )
    ids |= set(Rating.objects.filter(player__in=players).values_list("rating_list_id", flat=True))
    if club.rating_list_id is not None:
        ids.add(club.rating_list_id)
    return sorted(ids)
