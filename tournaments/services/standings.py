"""Standings and ratings, recomputed from scratch from the counted results (idempotent: running twice writes the
same rows).

Swiss and round robin: one table per round played (``after_round``), ranked by match wins (a bye counts as a win)
and then by the division's tie-breaks in order (tournaments/standings/tiebreakers.py). Elimination: one table,
ranked by the main place (how far each player went in the main bracket; in double elimination the order of
elimination), players still in sharing rank 1 and a player out ranked at his place; each row also holds the player's
place in each flight (main, consolation, last chance: tournaments/standings/places.py), read with the slots still
to be played in the same statement (each keeps a place at its round). Byes are advances, not wins: an elimination
row counts a bye in ``byes`` only.

A recompute stores the ``results_version`` it read, so a result that arrives while it runs leaves the standings
marked pending (and the task that result enqueued computes them again).

Cost: the results and the stored tables are read as plain values, every table is computed by the pure functions
(about 70 ms for the nine tables of a 1,024-player Swiss on an idle machine, bench/README.md) and compared with the
stored one, and only the tables that differ are rewritten: one DELETE and one ``COPY``
(common/bulk.py), so the statements are the same for any size of field. A result of the current round
rewrites the last table only. Which tables a change can reach is not guessed: nothing stored says which results an
old table was computed from, so every table is computed and compared. Ratings are rewritten whole, with two COPYs.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any, cast

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from common.bulk import copy_rows
from games.models import Match
from tournaments import ratings
from tournaments.core import (
    COUNTED,
    COUNTED_CONFIRMATIONS,
    FORFEITS,
    STILL_OPEN,
    lock_division,
    plan_of,
    result_counts,
    result_to_come,
)
from tournaments.models import Division, Pairing, Playoff, Rating, RatingChange, RatingList, Round, Standing
from tournaments.pairing.brackets import Loser, Plan
from tournaments.standings.places import Place, flight_places
from tournaments.standings.playoffs import settle
from tournaments.standings.tiebreakers import ForfeitRule, PlayerId, Result, Row, Tiebreak, standings

#: A counted result as read: round number, bracket, table, a, b, winner, points of a, points of b, the director's
#: decision (a bracket bye may have its player on either side).
_Counted = tuple[int, str, int, int | None, int | None, int, int, int, str]
#: The columns of a :data:`_Counted`, in order.
_COUNTED_COLUMNS = (
    "round__number",
    "round__bracket",
    "board",
    "entry_a",
    "entry_b",
    "winner",
    "score_a",
    "score_b",
    "decision",
)
#: An entry as read: id, seed, status.
_Entry = tuple[int, int | None, str]
#: A double forfeit of a bracket (both players withdrew before playing it): round number, bracket, board, a, b.
_Doubled = tuple[int, str, int, int, int]
#: The slots of a bracket still to be played (or whose result waits for a confirmation or a director), by bracket
#: and round.
_Pending = dict[tuple[str, int], int]
#: The compared columns of a standings row, in this order; ``results_version`` is written, not compared.
_COMPARED = (
    "after_round",
    "entry_id",
    "rank",
    "wins",
    "losses",
    "byes",
    "points_for",
    "points_against",
    "tiebreaks",
    "places",
)


def recompute_standings(division_id: int) -> int:
    """Rewrite the division's standings (only the tables that changed); returns the number of rows computed."""
    with transaction.atomic():
        division = lock_division(division_id)
        version = division.results_version
        slots = division.pairings.order_by("round__number", "board")
        if not division.has_bracket:  # a table reads only the counted results; a bracket its open slots too
            slots = slots.filter(COUNTED, winner__isnull=False)
        read = slots.values_list(
            "round__number",
            "round__bracket",
            "board",
            "entry_a",
            "entry_b",
            "winner",
            "score_a",
            "score_b",
            "decision",
            "status",
            "confirmation",
        )
        counted: list[_Counted] = []
        pending: _Pending = defaultdict(int)
        doubled: list[_Doubled] = []
        for row in read:
            values, status, confirmation = cast(_Counted, row[:9]), row[9], row[10]
            winner: int | None = values[5]
            if winner is not None and result_counts(status, winner, confirmation):
                counted.append(values)
            elif result_to_come(status, confirmation):
                pending[(values[1], values[0])] += 1
            elif values[8] == Pairing.Decision.DOUBLE_FORFEIT and values[3] is not None and values[4] is not None:
                doubled.append((values[0], values[1], values[2], values[3], values[4]))
        entries: list[_Entry] = list(
            division.entries.exclude(seed__isnull=True, place="").values_list("pk", "seed", "status")
        )
        settled = {} if division.is_elimination else playoff_orders(division)
        if division.is_elimination:
            rows = _elimination_rows(division, entries, counted, pending, doubled)
        elif division.is_swiss_knockout:
            rows = _swiss_knockout_rows(division, entries, counted, pending, doubled, settled)
        else:
            rows = _table_rows(division, entries, counted, _playing(division), settled)
        _write_changed_tables(division, rows)
        current = Division.objects.filter(pk=division.pk, results_version=version)
        current.update(standings_version=version, standings_status=Division.Work.CURRENT, standings_error="")
        Division.objects.filter(pk=division.pk).exclude(results_version=version).update(
            standings_version=version, standings_status=Division.Work.PENDING
        )
    return len(rows)


def mark_standings_failed(division_id: int, error: BaseException) -> None:
    """The follow-up of a division failed: directors see ``failed`` and the error; the stored standings stay as
    they were (the next follow-up computes them again)."""
    Division.objects.filter(pk=division_id).update(
        standings_status=Division.Work.FAILED, standings_error=f"{type(error).__name__}: {error}"[:2000]
    )


def _write_changed_tables(division: Division, rows: list[tuple[Any, ...]]) -> None:
    """Replace only the tables (one per ``after_round``) whose rows differ from those stored: a result of the
    current round rewrites the last table, not all of them. One read, then at most one DELETE and one COPY."""

    def frozen(values: Sequence[Any]) -> tuple[Any, ...]:
        *head, tiebreaks, places = values
        return (*head, tuple(sorted(tiebreaks.items())), tuple(sorted(places.items())))

    stored: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    for values in Standing.objects.filter(division=division).order_by().values_list(*_COMPARED):
        stored[values[0]].add(frozen(values))
    wanted: dict[int, set[tuple[Any, ...]]] = defaultdict(set)
    for row in rows:
        wanted[row[0]].add(frozen(row))
    stale = {table for table in stored.keys() | wanted.keys() if stored.get(table) != wanted.get(table)}
    if not stale:
        return
    Standing.objects.filter(division=division, after_round__in=stale).delete()
    copy_rows(
        Standing,
        ["division_id", *_COMPARED, "results_version"],
        ((division.pk, *row, division.results_version) for row in rows if row[0] in stale),
    )


def _playing(division: Division) -> list[tuple[int, int | None, int | None]]:
    """The matches of a Swiss or a round robin still to be played, as (round, entry a, entry b): one query."""
    open_ = division.pairings.filter(STILL_OPEN, entry_a__isnull=False, entry_b__isnull=False)
    return list(open_.values_list("round__number", "entry_a", "entry_b"))


def playoff_orders(division: Division) -> dict[int, list[list[int]]]:
    """The orders of the division's finished playoffs, by the table (``after_round``) whose tie each settles (one
    query)."""
    done = division.playoffs.filter(status=Playoff.Status.FINISHED).order_by("id")
    out: dict[int, list[list[int]]] = defaultdict(list)
    for after, order in done.values_list("after_round", "order"):
        out[after].append(list(order))
    return dict(out)


def _table_rows(
    division: Division,
    entries: list[_Entry],
    counted: list[_Counted],
    playing: Sequence[tuple[int, int | None, int | None]] = (),
    settled: dict[int, list[list[int]]] | None = None,
) -> list[tuple[Any, ...]]:
    """Every table of a Swiss or round robin, as rows of the :data:`_COMPARED` columns. ``playing``: the matches
    still to be played (:func:`_playing`); in a table after a round, the players of such a match of that round or
    an earlier one rank before the players of their score who lost theirs. ``settled``: the finished playoffs'
    orders by table (:func:`playoff_orders`), which split the ties they settle (tournaments/standings/playoffs.py)."""
    order = [Tiebreak(code) for code in division.tiebreaks]
    forfeits = ForfeitRule(division.forfeit_tiebreaks)
    players = [pk for pk, _, _ in sorted(entries, key=lambda e: (e[1] or 10**6, e[0]))]
    results = [_result(c) for c in counted]
    last = max((r.round for r in results), default=0)
    rows: list[tuple[Any, ...]] = []
    for after in range(1, last + 1):
        played = [r for r in results if r.round <= after]
        tally = _tally(played, forfeits)
        pending = {p for number, *pair in playing if number <= after for p in pair if p is not None}
        ranked = settle(standings(played, order, players, forfeits, pending), (settled or {}).get(after, []))
        for row in ranked:
            tiebreaks = {t.value: v for t, v in row.tiebreaks.items()}
            rows.append((after, row.player, row.position, *tally.get(row.player, (0, 0, 0, 0, 0)), tiebreaks, {}))
    return rows


def _swiss_knockout_rows(
    division: Division,
    entries: list[_Entry],
    counted: list[_Counted],
    pending: _Pending,
    doubled: Sequence[_Doubled] = (),
    settled: dict[int, list[list[int]]] | None = None,
) -> list[tuple[Any, ...]]:
    """A Swiss into a knockout: a table after each Swiss round (the Swiss results only), and once the knockout is
    drawn one table more, after the last Swiss round's (:func:`knockout_table`): the knockout's players first,
    placed by how far they went (1, 2, 3-4, 5-8...), then everyone else by his final Swiss standing. Its won, lost
    and points columns count every match, the knockout's included, and so does its points difference (+/-, points
    for less points against); the other tie-breaks are those of the Swiss rounds that ranked it."""
    swiss = [c for c in counted if c[1] == Round.Bracket.SWISS]
    rows = _table_rows(division, entries, swiss, settled=settled)
    if not division.knockout_drawn:
        return rows
    knockout = [c for c in counted if c[1] == Round.Bracket.MAIN]
    order = swiss_standings(division, entries, swiss, settled)
    tally = _tally([_result(c) for c in counted], division.forfeit_tiebreaks)
    for c in knockout:
        if c[3] is None or c[4] is None:  # a knockout bye (a player who withdrew) is an advance, not a win
            player = c[3] if c[3] is not None else c[4]
            assert player is not None
            tally[player][0] -= 1
    places = knockout_places(division, order, knockout, pending, doubled)
    at = {row.player: row for row in order}

    def key(pk: int) -> tuple[int, int]:
        place = places.get(pk)
        return (0, 0) if place is None else (1, place.first)  # no place yet: still in the knockout

    ordered = sorted(entries, key=lambda e: (key(e[0]), at[e[0]].position if e[0] in at else 10**6, e[1] or 10**6))
    after = knockout_table(division)
    previous, rank = None, 0
    for position, (pk, _, _) in enumerate(ordered, start=1):
        k = key(pk)
        rank = rank if k == previous else position
        previous = k
        tiebreaks = {t.value: v for t, v in at[pk].tiebreaks.items()} if pk in at else {}
        counts = tally.get(pk, (0, 0, 0, 0, 0))
        if Tiebreak.POINTS_DIFF.value in tiebreaks:  # beside Pts for and against, over every match as they are
            tiebreaks[Tiebreak.POINTS_DIFF.value] = counts[3] - counts[4]
        flights = {Round.Bracket.MAIN.value: str(places[pk])} if pk in places else {}
        rows.append((after, pk, rank, *counts, tiebreaks, flights))
    return rows


def knockout_table(division: Division) -> int:
    """The ``after_round`` of a Swiss into a knockout's table with its knockout: the one after its Swiss rounds."""
    return division.rounds_planned + 1


def swiss_standings(
    division: Division,
    entries: list[_Entry] | None = None,
    counted: list[_Counted] | None = None,
    settled: dict[int, list[list[int]]] | None = None,
) -> list[Row]:
    """The standings of the Swiss rounds (of a Swiss, or of a Swiss into a knockout) from their counted results:
    by match wins, then by the division's tie-breaks in order; players level on every tie-break share a position
    and are listed by seed, unless a finished playoff of the last Swiss table settled their tie (``settled``,
    :func:`playoff_orders`). Read from the database when ``entries``, ``counted`` and ``settled`` are not given."""
    if entries is None:
        entries = list(division.entries.exclude(seed__isnull=True, place="").values_list("pk", "seed", "status"))
    if counted is None:
        swiss = division.pairings.filter(COUNTED, winner__isnull=False, round__bracket=Round.Bracket.SWISS)
        counted = list(swiss.order_by("round__number", "board").values_list(*_COUNTED_COLUMNS))
    players = [pk for pk, _, _ in sorted(entries, key=lambda e: (e[1] or 10**6, e[0]))]
    order = [Tiebreak(code) for code in division.tiebreaks]
    if settled is None:
        settled = playoff_orders(division)
    results = [_result(c) for c in counted]
    ranked = standings(results, order, players, ForfeitRule(division.forfeit_tiebreaks))
    return settle(ranked, settled.get(max((r.round for r in results), default=0), []))


def knockout_places(
    division: Division,
    order: list[Row],
    knockout: list[_Counted],
    pending: _Pending,
    doubled: Sequence[_Doubled] = (),
) -> dict[int, Place]:
    """The places of a Swiss into a knockout: the knockout's players by how far they went, as in a knockout (each
    slot still to be played keeps a place at its round, first place is kept for the champion until it is over; a
    player still in has none yet), then every other player after them by his Swiss standing (players sharing a
    Swiss position share the places they span). The two players of a knockout match both withdrew from are out at
    its round."""
    finished = division.status == Division.Status.FINISHED
    qualified = list(division.knockout_seeds)
    played = [c for c in knockout if c[3] is not None and c[4] is not None]
    out_at: dict[int, float] = {_loser(c): c[0] for c in played}
    out_at.update({player: d[0] for d in doubled if d[1] == Round.Bracket.MAIN for player in d[3:]})
    todo: dict[float, int] = (
        {} if finished else {n: k for (bracket, n), k in pending.items() if bracket == Round.Bracket.MAIN}
    )
    champion = max(knockout, key=lambda c: (c[0], c[2]))[5] if finished and knockout else None
    places = flight_places(out_at, champion, todo)
    taken = set(qualified)
    rest = [row for row in order if row.player not in taken]
    level = Counter(row.position for row in rest)
    first_at: dict[int, int] = {}
    for index, row in enumerate(rest, start=len(qualified) + 1):
        first = first_at.setdefault(row.position, index)
        places[int(row.player)] = Place(first, first + level[row.position] - 1)
    return places


def _result(c: _Counted) -> Result:
    number, _, _, a, b, winner, points_a, points_b, decision = c
    forfeit = decision in FORFEITS
    if a is None:  # a bracket bye whose player came in on side b (a conditional loser on side a was nobody)
        a, b, points_a, points_b = b, None, points_b, points_a
    assert a is not None
    return Result(number, a, b, winner, points_a, points_b, forfeit)


def _tally(results: Sequence[Result], forfeits: str = ForfeitRule.LEFT_OUT) -> dict[PlayerId, list[int]]:
    """wins, losses, byes, points for, points against per player (a forfeit's points left out by the rule)."""
    out: dict[PlayerId, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for r in results:
        if r.b is None:
            out[r.a][0] += 1
            out[r.a][2] += 1
            continue
        left_out = r.forfeit and forfeits == ForfeitRule.LEFT_OUT
        for me, pts_me, pts_opp in ((r.a, r.points_a, r.points_b), (r.b, r.points_b, r.points_a)):
            out[me][0 if r.winner == me else 1] += 1
            out[me][3] += 0 if left_out else pts_me
            out[me][4] += 0 if left_out else pts_opp
    return out


def _elimination_rows(
    division: Division,
    entries: list[_Entry],
    counted: list[_Counted],
    pending: _Pending,
    doubled: Sequence[_Doubled] = (),
) -> list[tuple[Any, ...]]:
    """The one table of an elimination division: ranked by the main place (double elimination: by the order of
    elimination), players still in first; each row carries its places per flight (tournaments/standings/places.py).
    Byes are advances, not wins: a bye counts in ``byes`` only. ``doubled``: the double forfeits, whose players are
    out at the stage of that match."""
    tally = _tally([_result(c) for c in counted], division.forfeit_tiebreaks)
    for row in tally.values():
        row[0] -= row[2]  # a bye is not a match won
    places = _flight_places(division, counted, pending, doubled)
    main = places.get(Round.Bracket.MAIN, {})

    finished = division.status == Division.Status.FINISHED

    def key(pk: int) -> tuple[int, int]:
        place = main.get(pk)
        if place is None:  # still in, or once the division is over: out with no result (a double forfeit), or
            return (2, 0) if finished else (0, 0)  # never in the main draw (a late entry into a last-chance place)
        return (1, place.first)

    ordered = sorted(entries, key=lambda e: (key(e[0]), e[1] or 10**6))
    rows: list[tuple[Any, ...]] = []
    previous, rank = None, 0
    for position, (pk, _, _) in enumerate(ordered, start=1):
        k = key(pk)
        # A player out ranks at his place ("3" for 3-4: the places kept for the matches still to play count); the
        # players still in share the first rank.
        rank = k[1] if k[0] == 1 else rank if k == previous else position
        previous = k
        flights = {flight: str(found[pk]) for flight, found in places.items() if pk in found}
        rows.append((0, pk, rank, *tally.get(pk, (0, 0, 0, 0, 0)), {}, flights))
    return rows


def _flight_places(
    division: Division, counted: list[_Counted], pending: _Pending, doubled: Sequence[_Doubled] = ()
) -> dict[str, dict[int, Place]]:
    """The places of each flight. The main flight's are known as players go out (everyone is in it from the start):
    each of its slots still to be played keeps a place at its round, and first place is kept for the champion until
    the flight is over. A consolation's or last chance's are placed once that flight is over (until then players may
    still drop in, and a slot waiting for them may turn into a bye), and only for a flight where a match was played
    (a lone player walking over byes takes no place in it). In double elimination the main and losers' brackets are
    one flight, ``main``: a player is out at his second loss, or at a loss in the grand final that ends it. The two
    players of a double forfeit are out at its stage (its round), level with the losers of that round: a player is
    placed by the stage he reached, whether he lost there or withdrew."""
    finished = division.status == Division.Status.FINISHED
    played = [c for c in counted if c[3] is not None and c[4] is not None]
    if finished:
        pending = {}
    if division.format == Division.Format.DOUBLE:
        return {Round.Bracket.MAIN: _double_places(division, counted, played, pending, doubled)}
    out: dict[str, dict[int, Place]] = {}
    for flight in (Round.Bracket.MAIN, Round.Bracket.CONSOLATION, Round.Bracket.LAST_CHANCE):
        matches = [c for c in played if c[1] == flight]
        todo: dict[float, int] = {number: n for (bracket, number), n in pending.items() if bracket == flight}
        if flight != Round.Bracket.MAIN and (todo or not matches):
            continue
        out_at: dict[int, float] = {_loser(c): c[0] for c in matches}
        out_at.update({player: d[0] for d in doubled if d[1] == flight for player in d[3:]})
        champion = None
        if not todo and flight == Round.Bracket.MAIN:
            champion = _main_champion(division, counted)
        elif not todo:
            unbeaten = {x for c in matches for x in (c[3], c[4]) if x not in out_at}
            champion = unbeaten.pop() if len(unbeaten) == 1 else None
        out[flight] = flight_places(out_at, champion, todo)
    return out


#: The stage of the grand final and its reset in double elimination: their loser is the runner-up.
_GRAND_FINAL = 1000


def _double_places(
    division: Division,
    counted: list[_Counted],
    played: list[_Counted],
    pending: _Pending,
    doubled: Sequence[_Doubled] = (),
) -> dict[int, Place]:
    """Double elimination as one flight, placed by the order of elimination: out at the second loss (once the
    flight is over, the grand final's loser too, beaten once when no reset is played); a loss in the grand final
    or the reset goes furthest, then the losers' bracket rounds, later further. Each losers' bracket match still to
    be played keeps a place at its round, and the grand final one for the runner-up to come. The players of a
    double forfeit are out at its stage: a losers' bracket round's, or, in the main bracket, just before the
    losers' bracket round its loser would have dropped into (the grand final's: just behind its loser)."""
    main_losses: dict[int, int] = defaultdict(int)
    losers_bracket: dict[int, int] = {}
    for c in played:
        if c[1] == Round.Bracket.MAIN:
            main_losses[_loser(c)] += 1
        else:
            losers_bracket[_loser(c)] = c[0]  # a loss in the losers' bracket puts him out
    over = not pending
    champion = _main_champion(division, counted) if over else None
    out_at: dict[int, float] = {
        p: losers_bracket.get(p, _GRAND_FINAL)
        for p in main_losses.keys() | losers_bracket.keys()
        if p != champion and (main_losses.get(p, 0) + (p in losers_bracket) >= 2 or over)
    }
    if doubled:
        drops_into = _drop_rounds(plan_of(division))
        for number, bracket, _board, a, b in doubled:
            stage = number if bracket == Round.Bracket.CONSOLATION else drops_into.get(number, _GRAND_FINAL) - 0.5
            out_at.update({a: stage, b: stage})
    todo: dict[float, int] = {
        number: n for (bracket, number), n in pending.items() if bracket == Round.Bracket.CONSOLATION
    }
    if not over and _GRAND_FINAL not in out_at.values():
        todo[_GRAND_FINAL] = 1
    return flight_places(out_at, champion, todo)


def _drop_rounds(plan: Plan) -> dict[int, int]:
    """Double elimination: the losers' bracket round each main round's losers drop into."""
    found: dict[int, int] = {}
    for node in plan.nodes:
        for source in (node.a, node.b):
            if node.bracket == Round.Bracket.CONSOLATION and isinstance(source, Loser):
                found.setdefault(int(source.key.rsplit("-", 2)[1]), node.round)
    return found


def _loser(c: _Counted) -> int:
    _, _, _, a, b, winner, *_ = c
    loser = b if winner == a else a
    assert loser is not None
    return loser


def _main_champion(division: Division, counted: list[_Counted]) -> int | None:
    """The winner of the main flight's last match, once the flight is over (a field of one: its player, once the
    division is finished)."""
    main = [c for c in counted if c[1] == "main"]
    if not main:
        if division.status != Division.Status.FINISHED:
            return None
        entries = list(division.entries.exclude(seed__isnull=True).values_list("pk", flat=True))
        return entries[0] if len(entries) == 1 else None
    last = max(main, key=lambda c: (c[0], c[2]))
    return last[5]


# -- ratings -------------------------------------------------------------------------------------------------------


def recompute_ratings(rating_list_id: int) -> int:
    """Replay every rated match of the list's events in match order; rewrite ratings and history (two DELETEs and
    two COPYs, whatever the number of matches).

    Rated: matches to N points created by a pairing of an event on the list, finished over the board (a forfeit is
    not rated, nor a money session), whose result counts as the standings count it (:data:`COUNTED_CONFIRMATIONS`):
    entered or decided by a director, or confirmed by the opponent; a scoresheet result waiting for its confirmation
    or disputed is not rated until it is confirmed or settled. A playoff's matches finished over the board are
    rated too once their result counts (confirmed, as a pairing's): a playoff is a real match. Returns the number
    of rated matches."""
    with transaction.atomic():
        rating_list = RatingList.objects.select_for_update().get(pk=rating_list_id)
        matches = (
            Match.objects.filter(
                Q(
                    pairing__division__event__rating_list=rating_list,
                    pairing__status=Pairing.Status.FINISHED,
                    pairing__confirmation__in=COUNTED_CONFIRMATIONS,
                )
                | Q(
                    playoff_first__division__event__rating_list=rating_list,
                    playoff_first__first_confirmation__in=COUNTED_CONFIRMATIONS,
                )
                | Q(
                    playoff_final__division__event__rating_list=rating_list,
                    playoff_final__final_confirmation__in=COUNTED_CONFIRMATIONS,
                ),
                status=Match.Status.FINISHED,
                length__gt=0,
            )
            .exclude(winner__isnull=True)
            .order_by(F("finished_at").asc(nulls_last=True), "id")
            .values_list("id", "player1_id", "player2_id", "winner_id", "length")
        )
        history = [
            ratings.RatedMatch(match_id, winner, player2 if winner == player1 else player1, length)
            for match_id, player1, player2, winner, length in matches
        ]
        rule = ratings.RatingRule(start=rating_list.start)
        if rating_list.k_factor is not None:
            k = rating_list.k_factor
            rule = ratings.RatingRule(start=rating_list.start, k=lambda _experience: k)
        current, changes = ratings.rate(history, rule)
        order = {m.match_id: n for n, m in enumerate(history, start=1)}
        Rating.objects.filter(rating_list=rating_list).delete()
        RatingChange.objects.filter(rating_list=rating_list).delete()
        copy_rows(
            Rating,
            ["rating_list_id", "player_id", "rating", "experience", "matches"],
            ((rating_list.pk, r.player, r.rating, r.experience, r.matches) for r in current.values()),
        )
        copy_rows(
            RatingChange,
            ["rating_list_id", "match_id", "player_id", "order", "before", "after", "experience_before", "won"],
            (
                (
                    rating_list.pk,
                    c.match_id,
                    c.player,
                    order[c.match_id],
                    c.before,
                    c.after,
                    c.experience_before,
                    n % 2 == 0,
                )
                for n, c in enumerate(changes)  # two entries per match, the winner's first
            ),
        )
        rating_list.computed_at = timezone.now()
        rating_list.save(update_fields=["computed_at"])
    return len(history)
