"""Standings and ratings, recomputed from scratch from the counted results (idempotent: running twice writes the
same rows).

Swiss and round robin: one table per round played (``after_round``), ranked by match wins (a bye counts as a win)
and then by the division's tie-breaks in order (tournaments/standings/tiebreakers.py). Elimination: one table,
ranked by how far each player went: the champion of the main bracket first, then by the bracket a player was
eliminated from (main, then consolation, then last chance) and the round he lost in (later is better); players
level there share the rank.

A recompute stores the ``results_version`` it read, so a result that arrives while it runs leaves the standings
marked pending (and the task that result enqueued computes them again).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Match
from tournaments import ratings
from tournaments.models import Division, Entry, Pairing, Rating, RatingChange, RatingList, Standing
from tournaments.services.draw import counts, lock_division
from tournaments.standings.tiebreakers import Result, Tiebreak, standings

_BRACKET_WEIGHT = {"main": 3, "consolation": 2, "last-chance": 1}


def recompute_standings(division_id: int) -> int:
    """Rewrite the division's standings; returns the number of rows written."""
    with transaction.atomic():
        division = lock_division(division_id)
        version = division.results_version
        pairings = list(
            division.pairings.filter(status__in=(Pairing.Status.FINISHED, Pairing.Status.BYE))
            .select_related("round")
            .order_by("round__number", "table")
        )
        entries = list(division.entries.exclude(seed__isnull=True, place=""))
        rows = (_elimination_rows if division.is_elimination else _table_rows)(division, entries, pairings)
        _write_changed_tables(division, rows)
        current = Division.objects.filter(pk=division.pk, results_version=version)
        current.update(standings_version=version, standings_status=Division.Work.CURRENT, standings_error="")
        Division.objects.filter(pk=division.pk).exclude(results_version=version).update(
            standings_version=version, standings_status=Division.Work.PENDING
        )
    return len(rows)


_COMPARED = ("after_round", "entry_id", "rank", "wins", "losses", "byes", "points_for", "points_against", "tiebreaks")


def _write_changed_tables(division: Division, rows: list[Standing]) -> None:
    """Replace only the tables (one per ``after_round``) whose rows differ from those stored: a result of the
    current round rewrites the last table, not all of them. At most one read, one DELETE and one INSERT."""

    def frozen(values: Sequence[Any]) -> tuple[Any, ...]:
        *head, tiebreaks = values
        return (*head, tuple(sorted(tiebreaks.items())))

    stored: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    for values in Standing.objects.filter(division=division).values_list(*_COMPARED):
        stored[values[0]].add(frozen(values))
    wanted: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    for row in rows:
        wanted[row.after_round].add(frozen([getattr(row, name) for name in _COMPARED]))
    stale = {table for table in stored.keys() | wanted.keys() if stored.get(table) != wanted.get(table)}
    if not stale:
        return
    Standing.objects.filter(division=division, after_round__in=stale).delete()
    Standing.objects.bulk_create([row for row in rows if row.after_round in stale])


def _counted(pairings: Sequence[Pairing]) -> list[Pairing]:
    return [p for p in pairings if counts(p) and p.winner_id is not None]


def _result(p: Pairing) -> Result:
    return Result(p.round.number, p.entry_a_id, p.entry_b_id, p.winner_id, p.score_a, p.score_b)


def _table_rows(division: Division, entries: list[Entry], pairings: list[Pairing]) -> list[Standing]:
    counted = _counted(pairings)
    order = [Tiebreak(code) for code in division.tiebreaks]
    players = [e.pk for e in sorted(entries, key=lambda e: (e.seed or 10**6, e.pk))]
    last = max((p.round.number for p in counted), default=0)
    rows: list[Standing] = []
    for after in range(1, last + 1):
        results = [_result(p) for p in counted if p.round.number <= after]
        tally = _tally(results)
        for row in standings(results, order, players):
            rows.append(
                _row(division, after, row.player, row.position, tally, {t.value: v for t, v in row.tiebreaks.items()})
            )
    return rows


def _tally(results: Sequence[Result]) -> dict[int, list[int]]:
    """wins, losses, byes, points for, points against per player."""
    out: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in results:
        if r.b is None:
            out[r.a][0] += 1
            out[r.a][2] += 1
            continue
        for me, pts_me, pts_opp in ((r.a, r.points_a, r.points_b), (r.b, r.points_b, r.points_a)):
            out[me][0 if r.winner == me else 1] += 1
            out[me][3] += pts_me
            out[me][4] += pts_opp
    return out


def _row(division: Division, after: int, entry: int, rank: int, tally: dict[int, list[int]], tb: dict) -> Standing:
    wins, losses, byes, pf, pa = tally.get(entry, (0, 0, 0, 0, 0))
    return Standing(
        division=division,
        after_round=after,
        entry_id=entry,
        rank=rank,
        wins=wins,
        losses=losses,
        byes=byes,
        points_for=pf,
        points_against=pa,
        tiebreaks=tb,
        results_version=division.results_version,
    )


def _elimination_rows(division: Division, entries: list[Entry], pairings: list[Pairing]) -> list[Standing]:
    counted = _counted(pairings)
    tally = _tally([_result(p) for p in counted])
    reach: dict[int, tuple[int, int]] = {}
    for p in counted:
        if p.entry_b_id is None:
            continue
        loser = p.entry_b_id if p.winner_id == p.entry_a_id else p.entry_a_id
        reach[loser] = max(reach.get(loser, (0, 0)), (_BRACKET_WEIGHT[p.round.bracket], p.round.number))
    alive = {e.pk for e in entries if e.status != Entry.Status.ELIMINATED and e.status != Entry.Status.WITHDRAWN}
    champion = _main_champion(division, counted)
    finished = division.status == Division.Status.FINISHED
    # Once the division is finished nobody is still in: the champions of the consolation and the last chance rank
    # by where they lost (or, never beaten, by the bracket they won), not ahead of the main final's loser.
    entered: dict[int, int] = {}
    for p in counted:
        for x in (p.entry_a_id, p.entry_b_id):
            if x is not None:
                entered[x] = max(entered.get(x, 0), _BRACKET_WEIGHT[p.round.bracket])

    def key(e: Entry) -> tuple:
        still_in = not finished and (e.pk in alive or e.pk not in reach)
        unbeaten = (entered.get(e.pk, 0), 99) if finished else (9, 99)
        return (
            e.pk != champion,
            not still_in,
            *(-x for x in reach.get(e.pk, unbeaten)),
            -tally[e.pk][0] if e.pk in tally else 0,
        )

    ordered = sorted(entries, key=lambda e: (key(e), e.seed or 10**6))
    rows: list[Standing] = []
    previous, rank = None, 0
    for position, entry in enumerate(ordered, start=1):
        k = key(entry)
        rank = rank if k == previous else position
        previous = k
        rows.append(_row(division, 0, entry.pk, rank, tally, {}))
    return rows


def _main_champion(division: Division, counted: list[Pairing]) -> int | None:
    if division.status != Division.Status.FINISHED:
        return None
    main = [p for p in counted if p.round.bracket == "main"]
    if not main:
        entries = list(division.entries.exclude(seed__isnull=True).values_list("pk", flat=True))
        return entries[0] if len(entries) == 1 else None
    last = max(main, key=lambda p: (p.round.number, p.table))
    return last.winner_id


# -- ratings -------------------------------------------------------------------------------------------------------


def recompute_ratings(rating_list_id: int) -> int:
    """Replay every rated match of the list's events in match order; rewrite ratings and history.

    Rated: matches to N points created by a pairing of an event on the list, finished over the board (a forfeit is
    not rated, nor a money session). Returns the number of rated matches."""
    with transaction.atomic():
        rating_list = RatingList.objects.select_for_update().get(pk=rating_list_id)
        matches = list(
            Match.objects.filter(
                pairing__division__event__rating_list=rating_list, status=Match.Status.FINISHED, length__gt=0
            )
            .exclude(winner__isnull=True)
            .order_by(F("finished_at").asc(nulls_last=True), "id")
            .values("id", "player1_id", "player2_id", "winner_id", "length")
        )
        history = [
            ratings.RatedMatch(
                m["id"],
                m["winner_id"],
                m["player2_id"] if m["winner_id"] == m["player1_id"] else m["player1_id"],
                m["length"],
            )
            for m in matches
        ]
        rule = ratings.RatingRule(start=rating_list.start)
        if rating_list.k_factor is not None:
            k = rating_list.k_factor
            rule = ratings.RatingRule(start=rating_list.start, k=lambda _experience: k)
        current, changes = ratings.rate(history, rule)
        order = {m.match_id: n for n, m in enumerate(history, start=1)}
        Rating.objects.filter(rating_list=rating_list).delete()
        RatingChange.objects.filter(rating_list=rating_list).delete()
        Rating.objects.bulk_create(
            Rating(
                rating_list=rating_list, player_id=r.player, rating=r.rating, experience=r.experience, matches=r.matches
            )
            for r in current.values()
        )
        RatingChange.objects.bulk_create(
            (
                RatingChange(
                    rating_list=rating_list,
                    match_id=c.match_id,
                    player_id=c.player,
                    order=order[c.match_id],
                    before=c.before,
                    after=c.after,
                    experience_before=c.experience_before,
                    won=n % 2 == 0,
                )
                for n, c in enumerate(changes)  # two entries per match, the winner's first
            ),
            batch_size=2000,
        )
        rating_list.computed_at = timezone.now()
        rating_list.save(update_fields=["computed_at"])
    return len(history)
