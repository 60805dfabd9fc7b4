"""Pairing a Swiss round: every player's state before the round, read from the counted results
(:func:`swiss_players`), paired by the pure pairing of tournaments/pairing/swiss.py, and written as one round of
boards (:func:`pair_swiss_round`). The boards of any paired round (a Swiss round, a round robin's) are built by
:func:`board_rows`.

Called with the division locked: by the start (the first round), by the sync when the division pairs itself, and
by the director's request (tournaments/services/advance.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from django.db.models import Q

from common.bulk import copy_new_rows
from common.errors import ApplicationError, ErrorCode
from tournaments.core import COUNTED, result_counts, round_length, unfinished_words
from tournaments.models import Division, Entry, Pairing, Round
from tournaments.pairing.swiss import LEVEL, NoPairingError, PlayerId, SwissPlayer, pair_round

Status = Pairing.Status
#: A board to create: entry a, entry b (None for a bye), the reason shown on the pairing.
Board = tuple[int, int | None, str]


#: The columns of a new board (:func:`board_rows`); every other column of a pairing takes its default.
BOARD_FIELDS = ["division_id", "round_id", "key", "board", "entry_a_id", "entry_b_id", "reason", "length", "status"]
BOARD_FIELDS += ["winner_id", "match_id"]


def board_rows(
    rnd: Round, boards: list[Board], matches: Iterator[int | None] | None = None
) -> Iterator[tuple[Any, ...]]:
    """The rows of a round's pairings (values of :data:`BOARD_FIELDS`), one per :data:`Board`, numbered from board 1,
    byes last. ``matches``: the ids of the boards' matches, in board order, when they are made with the boards (a
    board with its match is ready; without, the sync makes it)."""
    boards = sorted(boards, key=lambda board: board[1] is None)
    for number, (a, b, reason) in enumerate(boards, start=1):
        match = next(matches) if matches is not None and b is not None else None
        status = Status.READY if b is not None else Status.BYE
        key = f"{rnd.bracket}-{rnd.number}-{number}"
        yield (rnd.division_id, rnd.pk, key, number, a, b, reason, rnd.length, status, a if b is None else None, match)


def pair_swiss_round(division: Division, *, allow_rematches: bool = False) -> Round:
    """Pair the division's next Swiss round (every result of the current round must count) and write its boards.
    ``allow_rematches``: the director's consent to the pairing with the fewest rematches when no rematch-free
    pairing exists (each such board says so).

    :raises ApplicationError: CONFLICT when every round is paired, a result of the current round is missing or
        unconfirmed, or no pairing without a rematch exists and none was allowed (naming the players and the
        fewest rematches there would be); nothing is written then."""
    done = division.rounds.filter(bracket=Round.Bracket.SWISS).count()
    if done >= division.rounds_planned:
        raise ApplicationError(ErrorCode.CONFLICT, f"all {division.rounds_planned} rounds have been paired")
    pending = division.pairings.filter(round__bracket=Round.Bracket.SWISS, round__number=done)
    pending = pending.exclude(status=Status.BYE).exclude(COUNTED)
    waiting = list(pending.select_related("entry_a__player", "entry_b__player", "table").order_by("board")[:10])
    if waiting:
        still = unfinished_words(waiting)
        raise ApplicationError(
            ErrorCode.CONFLICT, f"round {done} is not complete: a result is still to come or to be confirmed in {still}"
        )
    players = swiss_players(division)
    try:
        result = pair_round(players, allow_rematches=allow_rematches)
    except NoPairingError:
        fewest = pair_round(players, allow_rematches=True).rematches if _has_bye_left(players) else None
        offer = (
            f" The fewest rematches a pairing needs is {fewest}: pair with rematches allowed to accept that."
            if fewest
            else ""
        )
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"round {done + 1} cannot be paired without a rematch: {_why_unpaired(division, players)}. Nothing was "
            f"paired.{offer} The director can also withdraw a player or end the division.",
        ) from None
    number = done + 1
    rnd = Round.objects.create(
        division=division,
        bracket=Round.Bracket.SWISS,
        number=number,
        length=round_length(division, Round.Bracket.SWISS, number, final=number == division.rounds_planned),
    )
    boards: list[Board] = [(int(p.a), None if p.b is None else int(p.b), p.reason) for p in result.pairings]
    copy_new_rows(Pairing, BOARD_FIELDS, board_rows(rnd, boards))
    return rnd


def _has_bye_left(players: list[SwissPlayer]) -> bool:
    """Whether the field can be paired at all with rematches (an odd field needs a player without a bye)."""
    active = [p for p in players if not p.withdrawn]
    return len(active) % 2 == 0 or any(not p.had_bye for p in active)


def _why_unpaired(division: Division, players: list[SwissPlayer]) -> str:
    """The pairing's own explanation, naming the players (it names them by id: here entry ids, which say nothing
    to a director): the same search run again over the same players labelled by name and seed."""
    entries = division.entries.select_related("player").filter(pk__in=[p.id for p in players])
    label: dict[PlayerId, str] = {e.pk: f"{e.player.display_name} (seed {e.seed})" for e in entries}
    labelled = [replace(p, id=label[p.id], opponents=frozenset(label[o] for o in p.opponents)) for p in players]
    try:
        pair_round(labelled)
    except NoPairingError as exc:
        return str(exc)
    return "no rematch-free pairing was found"  # not reached: the same search over the same players


def swiss_players(division: Division, *, before: int | None = None) -> list[SwissPlayer]:
    """Every entry's state before the next round (or before round ``before``), from the counted results (two
    reads of plain values); how each floated in the last round compares the scores the two had before it."""
    entries = list(division.entries.exclude(seed__isnull=True).values_list("pk", "seed", "status"))
    score = {pk: 0 for pk, _, _ in entries}
    met: dict[int, set[int]] = {pk: set() for pk, _, _ in entries}
    byes: set[int] = set()
    pairings = division.pairings if before is None else division.pairings.filter(round__number__lt=before)
    columns = ("round__number", "entry_a_id", "entry_b_id", "status", "winner_id", "confirmation")
    rows = list(pairings.values_list(*columns).order_by())
    last = max((row[0] for row in rows), default=0)
    won_last: dict[int, int] = {}
    for number, a, b, status, winner, confirmation in rows:
        if b is None:
            byes.add(a)
        else:
            met[a].add(b)
            met[b].add(a)
        if winner is not None and result_counts(status, winner, confirmation):
            score[winner] += 1
            if number == last:
                won_last[winner] = 1
    floated: dict[int, int] = {}
    for number, a, b, *_ in rows:
        if number == last and b is not None and a in score and b in score:
            had_a, had_b = score[a] - won_last.get(a, 0), score[b] - won_last.get(b, 0)
            drift = (had_a > had_b) - (had_a < had_b)  # 1: a met a lower score (paired down), b was pulled up
            floated[a], floated[b] = -drift, drift
    return [
        SwissPlayer(
            id=pk,
            rank=seed or 0,
            score=score[pk],
            opponents=frozenset(met[pk]),
            had_bye=pk in byes,
            withdrawn=status == Entry.Status.WITHDRAWN,
            floated=floated.get(pk, LEVEL),
        )
        for pk, seed, status in entries
    ]


def round_needs_repairing(division: Division, current: Round | None = None) -> bool:
    """Whether the current Swiss round is not the pairing the results now give: a result of an earlier round
    changed (a correction, a dispute) after the round was paired, and pairing it again gives other boards. False
    once a match of the round has started, or when nothing changed since (the usual case: two cheap reads).
    ``current``: the division's last round, if the caller has read it."""
    if not division.in_swiss_phase:
        return False
    current = current or division.rounds.filter(bracket=Round.Bracket.SWISS).order_by("-number").first()
    if current is None or current.number == 1 or division.status != Division.Status.RUNNING:
        return False
    boards = current.pairings.all()
    if boards.filter(Q(status__in=(Status.PLAYING, Status.FINISHED)) | Q(match__seq__gt=0)).exists():
        return False
    if not division.pairings.filter(round__number__lt=current.number, updated_at__gt=current.created_at).exists():
        return False
    stored = {frozenset((a, b)) for a, b in boards.values_list("entry_a_id", "entry_b_id")}
    try:
        fresh = pair_round(swiss_players(division, before=current.number), allow_rematches=True)
    except NoPairingError:
        return False
    return stored != {frozenset((int(p.a), None if p.b is None else int(p.b))) for p in fresh.pairings}


#: A Swiss board's reason as the pairing wrote it: its score groups (a rematch says so first), and what a correction
#: since added (:func:`follow_score_groups`).
_GROUPS = re.compile(
    r"^(?P<pre>rematch \(no rematch-free pairing exists\): )?"
    r"(?P<label>score group \d+|pulled up from score group \d+ to score group \d+)"
    r"(?: \(paired as (?P<paired>[^()]+) before a correction\))?$"
)


def follow_score_groups(division: Division, *, after: int) -> int:
    """After a correction of a result of Swiss round ``after``: each later Swiss round's boards name the score groups
    of the results as they are now, and what they were paired as ("score group 1 (paired as score group 2 before a
    correction)"); the boards themselves stand. Returns the boards whose words changed."""
    later = list(division.rounds.filter(bracket=Round.Bracket.SWISS, number__gt=after).order_by("number"))
    changed: list[Pairing] = []
    for rnd in later:
        wins: dict[int, int] = {}
        counted = division.pairings.filter(
            COUNTED, winner__isnull=False, round__bracket=Round.Bracket.SWISS, round__number__lt=rnd.number
        )
        for winner in counted.values_list("winner_id", flat=True):
            wins[winner] = wins.get(winner, 0) + 1
        for board in rnd.pairings.filter(entry_a__isnull=False, entry_b__isnull=False):
            found = _GROUPS.match(board.reason)
            if found is None:
                continue
            paired = found["paired"] or found["label"]
            a, b = sorted((wins.get(board.entry_a_id or 0, 0), wins.get(board.entry_b_id or 0, 0)), reverse=True)
            now = f"score group {a}" if a == b else f"pulled up from score group {b} to score group {a}"
            words = now if now == paired else f"{now} (paired as {paired} before a correction)"
            if (found["pre"] or "") + words != board.reason:
                board.reason = (found["pre"] or "") + words
                changed.append(board)
    Pairing.objects.bulk_update(changed, ["reason"])
    return len(changed)
