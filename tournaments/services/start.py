"""Starting a division: the field (the players checked in, or everyone entered), the seeds (by rating, by the
director's seeds, or at random with the seed of the draw recorded), then the draw: every slot of every bracket for
the elimination formats, the first round of a Swiss (of a Swiss into a knockout too: its knockout is drawn once its
Swiss rounds are over), every round of a round robin. The division is then brought in
step at once (byes move on; a lone player has won).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from common.actor import Actor
from common.bulk import copy_new_rows, update_rows
from common.errors import ApplicationError, ErrorCode
from games.services import start_many_matches
from tournaments.access import check_directs
from tournaments.core import knockout_min_rounds, lock_division, max_field, plan_of, round_length, round_robin_lead
from tournaments.models import KNOCKOUT_SIZES, Division, Entry, Event, Pairing, Rating, Round
from tournaments.pairing.round_robin import due_pairings, round_robin
from tournaments.services.bracket import draw_brackets
from tournaments.services.followup import schedule_followup
from tournaments.services.swiss import BOARD_FIELDS, Board, board_rows, pair_swiss_round
from tournaments.services.sync import sync_locked_division
from tournaments.services.tables import assign_tables


def start_division(division: Division, *, actor: Actor, only_checked_in: bool | None = None) -> Division:
    """Seed and draw. ``only_checked_in``: None plays the checked-in players if anyone has checked in, else all."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = lock_division(division.pk)
        if division.status != Division.Status.REGISTRATION:
            raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} has already started")
        entries = _field(division, only_checked_in)
        _check_size(division, len(entries))
        _seed(division, entries)
        division.status, division.started_at = Division.Status.RUNNING, timezone.now()
        division.save(update_fields=["status", "started_at", "draw_seed"])
        if division.event.status != Event.Status.RUNNING:
            Event.objects.filter(pk=division.event_id).update(status=Event.Status.RUNNING)
        if division.is_elimination:
            draw_brackets(division, plan_of(division, len(entries)))
        elif division.format == Division.Format.ROUND_ROBIN and len(entries) > 1:
            # The matches due are made with the draw, so there is nothing for a sync to do (and 100,000 pairings
            # to read): the division's pages are told that it changed.
            _draw_round_robin(division, entries)
            Division.objects.filter(pk=division.pk).update(results_version=F("results_version") + 1)
            assign_tables(division.event_id, tables_given=division.event.tables_given)  # round 1's tables
            return division
        elif division.format == Division.Format.ROUND_ROBIN:
            _draw_round_robin(division, entries)
        else:
            pair_swiss_round(division)
        if sync_locked_division(division).finished:  # a lone player (or a field of byes): over at once
            schedule_followup(division.pk)  # its standings to compute
    return division


def _field(division: Division, only_checked_in: bool | None) -> list[Entry]:
    entries = list(division.entries.exclude(status=Entry.Status.WITHDRAWN).select_related("player"))
    checked = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    if only_checked_in or (only_checked_in is None and checked):
        absent = [e for e in entries if e.status != Entry.Status.CHECKED_IN]
        Entry.objects.filter(pk__in=[e.pk for e in absent]).update(
            status=Entry.Status.WITHDRAWN, withdrawn_at=timezone.now(), withdrawal_reason="not checked in", seed=None
        )
        entries = checked
    if not entries:
        raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} has nobody to play: register players first")
    return entries


def _check_size(division: Division, entrants: int) -> None:
    if division.is_swiss_knockout:
        _check_knockout(division, entrants)
    largest = max_field(division)
    if entrants > largest:
        kind = "a double round robin" if division.double_round_robin and not division.is_elimination else None
        kind = kind or f"a {Division.Format(division.format).label} division"
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{kind} starts with at most {largest} players, and {division.name} has {entrants}: split the field "
            "into several divisions (or choose a format that takes more players). Nothing was started.",
        )


def _check_knockout(division: Division, entrants: int) -> None:
    """A Swiss into a knockout needs at least as many players as its knockout takes, and enough Swiss rounds for
    the cut (:func:`tournaments.core.knockout_min_rounds`)."""
    size = division.knockout_size
    if entrants < size:
        smaller = [n for n in KNOCKOUT_SIZES if n <= entrants]
        fix = f"make the knockout smaller ({', '.join(map(str, smaller))})" if smaller else "choose another format"
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{division.name} sends its top {size} players into the knockout, and it has {entrants}: {fix}, or "
            "register more players. Nothing was started.",
        )
    fewest = knockout_min_rounds(entrants, size)
    if division.rounds_planned < fewest:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{entrants} players need at least {fewest} Swiss rounds before a top-{size} knockout, and "
            f"{division.name} plays {division.rounds_planned}: after {division.rounds_planned} round(s) about "
            f"{entrants / 2**division.rounds_planned:.0f} players are still unbeaten, more than the {size} places, "
            f"so the cut would fall among unbeaten players. Set the Swiss rounds to {fewest} or more (or make the "
            "knockout larger). Nothing was started.",
        )


def _seed(division: Division, entries: list[Entry]) -> None:
    if division.seeding == Division.Seeding.MANUAL:
        seeds = sorted(e.seed for e in entries if e.seed is not None)
        missing = [e.player.display_name for e in entries if e.seed is None]
        if missing or seeds != list(range(1, len(entries) + 1)):
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"manual seeding needs seeds 1 to {len(entries)}, each once"
                + (f"; without a seed: {', '.join(missing)}" if missing else f"; the seeds given are {seeds}"),
            )
        return
    if division.seeding == Division.Seeding.RANDOM:
        if division.draw_seed is None:
            division.draw_seed = secrets.randbits(62)
        order = sorted(entries, key=lambda e: e.pk)
        random.Random(division.draw_seed).shuffle(order)
    else:
        known = _list_ratings(division, entries)
        order = sorted(entries, key=lambda e: (-_rating(e, known), e.pk))
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(seed=None)
    for number, entry in enumerate(order, start=1):
        entry.seed = number
    update_rows(Entry, order, ["seed"])


def _list_ratings(division: Division, entries: Iterable[Entry]) -> dict[int, float]:
    if division.event.rating_list_id is None:
        return {}
    rows = Rating.objects.filter(
        rating_list_id=division.event.rating_list_id, player__in=[e.player_id for e in entries]
    )
    return {r.player_id: r.rating for r in rows}


def _rating(entry: Entry, known: dict[int, float]) -> float:
    if entry.rating is not None:
        return entry.rating
    return known.get(entry.player_id, 1500.0)


# -- elimination ---------------------------------------------------------------------------------------------------


def _draw_round_robin(division: Division, entries: list[Entry]) -> None:
    """Every round of the schedule, every pairing and the matches due (each player's next
    :func:`~tournaments.core.round_robin_ahead` pairings; the sync makes the others as play reaches them): the rounds
    in one INSERT, the matches and the pairings in one COPY each, whatever the size of the field."""
    ordered = sorted(entries, key=lambda e: e.seed or 0)
    player = {e.pk: e.player_id for e in entries}
    schedule = round_robin([e.pk for e in ordered], double=division.double_round_robin)
    rounds = Round.objects.bulk_create(
        Round(
            division=division,
            bracket=Round.Bracket.ROUND_ROBIN,
            number=number,
            length=round_length(division, Round.Bracket.ROUND_ROBIN, number, final=number == len(schedule)),
        )
        for number in range(1, len(schedule) + 1)
    )
    source = f"{division.event.slug}/{division.slug}/{Round.Bracket.ROUND_ROBIN}"
    boards_of: list[list[Board]] = []
    for rnd, pairs in zip(rounds, schedule, strict=True):
        cycle = 2 if division.double_round_robin and rnd.number > len(schedule) // 2 else 1
        reason = "round robin, circle method" + (" (second cycle, sides swapped)" if cycle == 2 else "")
        boards_of.append(sorted(((a, b, reason) for a, b in pairs), key=lambda board: board[1] is None))
    played = [
        ((rnd.number, table), a, b)
        for rnd, boards in zip(rounds, boards_of, strict=True)
        for table, (a, b, _) in enumerate(boards, start=1)
        if b is not None
    ]
    due = due_pairings(played, round_robin_lead(len(schedule), double=division.double_round_robin))
    made = iter(
        start_many_matches(
            [
                (player[a], player[b], rounds[number - 1].length, f"{source}-{number}-{table}")
                for (number, table), a, b in played
                if (number, table) in due
            ],
            variant=division.variant,
            crawford=division.crawford,
            casual=division.casual,
            entry_mode=division.entry_mode,
            private=not division.event.public,
        )
    )
    matches = iter([next(made) if key in due else None for key, _, _ in played])
    rows = (row for rnd, boards in zip(rounds, boards_of, strict=True) for row in board_rows(rnd, boards, matches))
    copy_new_rows(Pairing, BOARD_FIELDS, rows)
