"""The writes of the analysis: analyse a match with gnubg and store what it found; request and invalidate it.

:func:`analyse_match` is the one code path of the Celery task and of ``manage.py analyse_match``: it exports the log
in force as .mat (games/export.py), hands it to the worker's gnubg (engine.py) and stores gnubg's figures per
player and per decision in one transaction. It is idempotent: a match whose stored analysis is of the same log and
depth, in the current format (MatchAnalysis.FORMAT_VERSION), is left as it is. gnubg runs outside any transaction
and without the match lock; if the log moved on while it ran (a correction), the result is dropped and the
correction's own request redoes it. An analysis done in an older format is asked for again by
:func:`requeue_out_of_date`.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Iterable
from typing import Any, Protocol

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from common.after_response import enqueue_after_response
from engine.errors import EngineError
from games.analysis.engine import AnalysisFailedError, AnalysisUnavailableError, gnubg_version, worker_gnubg
from games.analysis.selectors import (
    GNUBG_VARIANTS,
    is_up_to_date,
    nothing_to_analyse,
    out_of_date_analyses,
    pending_requests,
    unanalysable_reason,
)
from games.export import match_mat
from games.hooks import IMPORT_ANALYSIS_CHECKS
from games.models import Decision, Match, MatchAnalysis, PlayerAnalysis

log = logging.getLogger(__name__)

#: gnubg's names of the two players in ``match()``: X is player 0 (the .mat's left column, our player1).
SIDES = ("X", "O")
#: gnubg's cube actions that are decisions, by record action.
CUBE_ACTIONS = {"double": Decision.Kind.DOUBLE, "take": Decision.Kind.TAKE, "drop": Decision.Kind.DROP}


class AnalysisTask(Protocol):
    """The Celery task that analyses a match (``games.tasks.analyse_match``): only its ``delay`` is used."""

    def delay(self, match_id: int, plies: int) -> Any: ...


_plugged: list[AnalysisTask] = []


def plug_analysis_task(task: AnalysisTask) -> None:
    """Name the task that runs an analysis (``GamesConfig.ready`` plugs ``games.tasks.analyse_match`` in): the
    tasks call this module, so this module does not import them."""
    _plugged[:] = [task]


def _analysis_task() -> AnalysisTask:
    if not _plugged:
        raise RuntimeError("no analysis task is plugged in: GamesConfig.ready plugs games.tasks.analyse_match in")
    return _plugged[0]


class AnalysisRefusedError(Exception):
    """This match cannot be analysed (its variant, its entry mode, no moves); the message says why."""


def analyse_match(match_id: int, *, plies: int | None = None, request: dt.datetime | None = None) -> MatchAnalysis:
    """Analyse a match with gnubg at ``plies`` (settings.ANALYSIS_PLIES by default) and store the result.

    gnubg is tried settings.ANALYSIS_ATTEMPTS times (a crash or a timeout restarts it); after the last failure
    the analysis is marked failed with the error, which is raised.

    :raises Match.DoesNotExist: no such match.
    :raises AnalysisRefusedError: the match cannot be analysed (stored as ``unavailable`` with the reason).
    :raises AnalysisUnavailableError: gnubg cannot be run here (stored as ``unavailable``).
    :raises AnalysisFailedError: every attempt failed (stored as ``failed``).

    ``request``: the ``requested_at`` of the pending request this run answers (:func:`run_requested`); when a newer
    request replaced it meanwhile, the outcome is not stored and the analysis stays pending for the newer one.
    """
    plies = settings.ANALYSIS_PLIES if plies is None else plies
    match = Match.objects.select_related("player1", "player2").get(pk=match_id)
    current = MatchAnalysis.objects.filter(match=match).first()
    if current is not None and is_up_to_date(current, match) and current.plies == plies:
        return current
    try:
        mat_text, seq = _mat_of(match)
    except AnalysisRefusedError as exc:
        _store_outcome(match, MatchAnalysis.Status.UNAVAILABLE, plies=plies, error=str(exc), request=request)
        raise
    attempts = max(1, settings.ANALYSIS_ATTEMPTS)
    for attempt in range(1, attempts + 1):
        try:
            began = time.perf_counter()
            engine = gnubg_version()
            report = worker_gnubg().analyse(mat_text, plies=plies)
            took = time.perf_counter() - began
            return _store(match, report, seq=seq, plies=plies, engine=engine, seconds=took, request=request)
        except AnalysisUnavailableError as exc:
            status = MatchAnalysis.Status.UNAVAILABLE
            _store_outcome(match, status, plies=plies, error=str(exc), attempts=attempt, request=request)
            raise
        except AnalysisFailedError as exc:
            log.warning("analysis of match %s failed (attempt %s of %s): %s", match_id, attempt, attempts, exc)
            if attempt == attempts:
                status = MatchAnalysis.Status.FAILED
                _store_outcome(match, status, plies=plies, error=str(exc), attempts=attempt, request=request)
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def request_analysis(match_id: int, *, plies: int | None = None) -> MatchAnalysis:
    """Ask for a match's analysis at ``plies`` (settings.ANALYSIS_PLIES by default): mark it pending and enqueue it
    on the ``analysis`` queue after the commit.

    One job per match: while a request is pending, a new one replaces its depth and enqueues nothing (the job
    queued for the first does the latest request when it runs, :func:`run_requested`); a request pending for longer
    than a job can take (:func:`_job_time`) is enqueued again. An analysis already done of the log as it stands, at
    that depth, is left as it is and nothing is enqueued.

    :raises AnalysisRefusedError: the match cannot be analysed, or not yet (nothing is written).
    """
    with transaction.atomic():
        return request_locked_analysis(Match.objects.select_for_update().get(pk=match_id), plies=plies)


def request_locked_analysis(match: Match, *, plies: int | None = None) -> MatchAnalysis:
    """:func:`request_analysis` for a caller whose transaction holds ``match``'s row locked, as written (the result
    writer, games/analysis/receivers.py, in the transaction of the action that ended the match): the match is not
    read again, its plays are counted only when its cached state cannot tell (:func:`nothing_to_analyse`), and the
    request is one statement when no request is in flight (:func:`_upsert_request`).

    :raises AnalysisRefusedError: as :func:`request_analysis`.
    """
    analyse_match_task = _analysis_task()
    check_analysable(match)
    check_something_to_analyse(match)
    asked = settings.ANALYSIS_PLIES if plies is None else plies
    analysis, enqueue = _upsert_request(match, asked)
    if enqueue:
        match_id = match.pk
        transaction.on_commit(lambda: enqueue_after_response(lambda: analyse_match_task.delay(match_id, asked)))
    return analysis


def _upsert_request(match: Match, asked: int) -> tuple[MatchAnalysis, bool]:
    """Mark ``match``'s analysis pending at ``asked`` plies; True when its job is to be enqueued.

    One ``INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING`` (:func:`_request_sql`, PostgreSQL and SQLite
    alike) writes a new request, or replaces an analysis that is neither up to date at that depth nor in flight,
    and returns the row: its job is enqueued. When it returns nothing, the analysis is up to date at that depth
    (left as it is) or a request is in flight (pending for less than :func:`_job_time`): that request takes the
    new depth and time and nothing is enqueued, its job doing the latest request. A row a job changed between the
    two statements (its outcome stored) is asked for again."""
    for _attempt in range(2):
        now = timezone.now()
        written = list(MatchAnalysis.objects.raw(_request_sql(), _request_params(match, asked, now)))
        if written:
            return written[0], True
        in_flight = MatchAnalysis.objects.filter(
            match_id=match.pk,
            status=MatchAnalysis.Status.PENDING,
            requested_plies__isnull=False,
            requested_at__gte=now - _job_time(),
        )
        if in_flight.update(error="", requested_plies=asked, requested_at=now):
            return MatchAnalysis.objects.get(match_id=match.pk), False
        current = MatchAnalysis.objects.get(match_id=match.pk)
        if is_up_to_date(current, match) and current.plies == asked:
            return current, False
    # Requests are serialised by the match's lock and a job only takes a row out of pending: the second try writes.
    raise AssertionError("unreachable")  # pragma: no cover


#: The columns a request writes over an analysis row (the others keep the figures of the analysis done before).
_REQUEST_FIELDS = ("status", "error", "requested_plies", "requested_at")


def _request_sql() -> str:
    """The upsert of :func:`_upsert_request`, in the current connection's quoting; its parameters are
    :func:`_request_params`: the new row's values, then the up-to-date test's and the in-flight test's."""
    quote = connection.ops.quote_name
    meta = MatchAnalysis._meta
    table = quote(meta.db_table)
    column = {field.name: quote(str(field.column)) for field in meta.concrete_fields}
    old = {name: f"{table}.{quoted}" for name, quoted in column.items()}
    inserted = [column[field.name] for field in _inserted_fields()]
    return (
        f"INSERT INTO {table} ({', '.join(inserted)}) VALUES ({', '.join(['%s'] * len(inserted))}) "
        f"ON CONFLICT ({column['match']}) DO UPDATE SET "
        + ", ".join(f"{column[name]} = excluded.{column[name]}" for name in _REQUEST_FIELDS)
        + f" WHERE NOT ({old['status']} = %s AND {old['match_seq']} = %s AND {old['format_version']} = %s"
        f" AND {old['plies']} = %s)"
        f" AND NOT ({old['status']} = %s AND {old['requested_plies']} IS NOT NULL AND {old['requested_at']} >= %s)"
        f" RETURNING {', '.join(old.values())}"
    )


def _inserted_fields() -> list[Any]:
    return [field for field in MatchAnalysis._meta.concrete_fields if not field.primary_key]


def _request_params(match: Match, asked: int, now: dt.datetime) -> list[Any]:
    row = MatchAnalysis(match=match, status=MatchAnalysis.Status.PENDING, requested_plies=asked, requested_at=now)
    values = [field.get_db_prep_save(getattr(row, field.attname), connection) for field in _inserted_fields()]
    requested = MatchAnalysis._meta.get_field("requested_at")
    done = [MatchAnalysis.Status.DONE, match.seq, MatchAnalysis.FORMAT_VERSION, asked]
    in_flight = [MatchAnalysis.Status.PENDING, requested.get_db_prep_value(now - _job_time(), connection)]
    return values + done + in_flight


def run_requested(match_id: int, plies: int | None = None) -> MatchAnalysis:
    """The job of :func:`request_analysis` (the Celery task): analyse the match at the depth of its pending
    request (``plies`` for a job queued before requests kept theirs), and again while newer requests replaced the
    one being done. Raises as :func:`analyse_match`."""
    for _run in range(RUNS_PER_JOB):
        pending = MatchAnalysis.objects.filter(match_id=match_id, status=MatchAnalysis.Status.PENDING).first()
        request = None
        if pending is not None and pending.requested_plies is not None:
            plies, request = pending.requested_plies, pending.requested_at
        analysis = analyse_match(match_id, plies=plies, request=request)
        analysis.refresh_from_db()
        if analysis.status != MatchAnalysis.Status.PENDING:
            break
    return analysis


#: Runs one job makes at most while newer requests (or corrections of the log) keep replacing the one it did.
RUNS_PER_JOB = 5


def _job_time() -> dt.timedelta:
    """The longest a job can take (every attempt timed out, and ten minutes more in the queue): a request pending
    for longer has its job taken as lost (a broker restarted), and a new request enqueues it again."""
    return dt.timedelta(seconds=settings.ANALYSIS_TIMEOUT * max(1, settings.ANALYSIS_ATTEMPTS) + 600)


def requeue_pending() -> list[int]:
    """Enqueue again the job of every pending request (its depth as asked): what ``make venue`` does at each start,
    since a job a worker had taken when the venue was stopped (Ctrl-C, a closed laptop, a crash) is lost with it.
    A job that was not lost runs twice at most, and the second finds the analysis done (:func:`analyse_match`
    returns it as it is). Returns the matches' ids."""
    analyse_match_task = _analysis_task()
    requeued = []
    for match_id, plies in pending_requests():
        analyse_match_task.delay(match_id, plies)
        requeued.append(match_id)
    return requeued


def requeue_out_of_date(*, limit: int | None = None) -> list[int]:
    """Ask again for every analysis done in an older format (MatchAnalysis.FORMAT_VERSION), at the depth it was
    done at, oldest first (at most ``limit``): each is marked pending and enqueued. Returns the matches' ids; a
    match that can no longer be analysed is left as it is. Run by ``manage.py requeue_analyses`` and beat."""
    requeued = []
    for match_id, plies in out_of_date_analyses(limit=limit):
        try:
            request_analysis(match_id, plies=plies)
        except AnalysisRefusedError as exc:
            log.info("the out-of-date analysis of match %s is not redone: %s", match_id, exc)
            continue
        requeued.append(match_id)
    return requeued


def should_analyse(match: Match, *, imported: bool = False) -> bool:
    """Whether a finished match is analysed without being asked: one played on the pages when ANALYSIS_AUTO is on,
    one imported from a match log when ANALYSIS_IMPORTED is or when the event it was imported into says so
    (games.hooks.IMPORT_ANALYSIS_CHECKS)."""
    if match.status != Match.Status.FINISHED:
        return False
    if match.entry_mode != Match.EntryMode.MOVES or match.variant not in GNUBG_VARIANTS:
        return False
    if not imported:
        return bool(settings.ANALYSIS_AUTO)
    return bool(settings.ANALYSIS_IMPORTED) or any(check(match) for check in IMPORT_ANALYSIS_CHECKS)


# -- internals -----------------------------------------------------------------------------------------------------


def check_analysable(match: Match) -> None:
    """:raises AnalysisRefusedError: with the reason, for a variant gnubg does not play or a scoresheet match."""
    reason = unanalysable_reason(match)
    if reason:
        raise AnalysisRefusedError(reason)


def check_something_to_analyse(match: Match) -> None:
    """:raises AnalysisRefusedError: with the reason, for a match with no play yet (gnubg has nothing to analyse
    and fails on it)."""
    reason = nothing_to_analyse(match)
    if reason:
        raise AnalysisRefusedError(reason)


def _mat_of(match: Match) -> tuple[str, int]:
    """The .mat text of the log in force and the seq it was read at."""
    check_analysable(match)
    check_something_to_analyse(match)
    with transaction.atomic():
        locked = Match.objects.select_for_update().select_related("player1", "player2").get(pk=match.pk)
        try:
            text = match_mat(locked)
        except EngineError as exc:
            raise AnalysisRefusedError(f"Analysis is not available: {exc}") from exc
        return text, locked.seq


def _store_outcome(
    match: Match, status: str, *, plies: int, error: str, attempts: int = 0, request: dt.datetime | None = None
) -> None:
    with transaction.atomic():
        analysis, _ = MatchAnalysis.objects.select_for_update().get_or_create(match=match)
        if _replaced(analysis, request):
            return  # a newer request is pending: its run says how it went
        analysis.requested_plies = None
        if is_up_to_date(analysis, match):
            analysis.status = MatchAnalysis.Status.DONE  # a good analysis of this log stands; a failed redo
            analysis.save(update_fields=["status", "requested_plies"])  # does not erase it
            return
        analysis.players.all().delete()
        analysis.decisions.all().delete()
        analysis.status, analysis.plies, analysis.error = status, plies, error
        analysis.attempts, analysis.finished_at = attempts, timezone.now()
        analysis.save()


def _replaced(analysis: MatchAnalysis, request: dt.datetime | None) -> bool:
    """Whether the pending request a run answered (its ``requested_at``) was replaced by a newer one meanwhile."""
    return request is not None and analysis.status == MatchAnalysis.Status.PENDING and analysis.requested_at != request


def _store(
    match: Match,
    report: dict[str, Any],
    *,
    seq: int,
    plies: int,
    engine: str,
    seconds: float,
    request: dt.datetime | None = None,
) -> MatchAnalysis:
    games = report.get("games") or []
    info = report.get("match-info") or {}
    if info.get("match-length") != match.length or "stats" not in report:
        raise AnalysisFailedError("GNU Backgammon's answer is not of this match (the .mat import failed)")
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        analysis, _ = MatchAnalysis.objects.select_for_update().get_or_create(match=locked)
        if locked.seq != seq:
            log.info("match %s changed while gnubg analysed it; its new request redoes it", match.pk)
            return analysis
        if _replaced(analysis, request):
            log.info(
                "the analysis of match %s was asked for again while gnubg ran; the newer request is done", match.pk
            )
            return analysis
        analysis.players.all().delete()
        analysis.decisions.all().delete()
        PlayerAnalysis.objects.bulk_create(
            _player_row(analysis, side, locked.player(side).pk, report["stats"][SIDES[side]]) for side in (0, 1)
        )
        Decision.objects.bulk_create(_decisions(analysis, games), batch_size=1000)
        analysis.status, analysis.plies, analysis.engine, analysis.error = MatchAnalysis.Status.DONE, plies, engine, ""
        analysis.match_seq, analysis.seconds, analysis.finished_at = seq, seconds, timezone.now()
        analysis.attempts, analysis.format_version = 0, MatchAnalysis.FORMAT_VERSION
        analysis.requested_plies = None
        analysis.save()
    return analysis


def pr_of(chequer_error: float, cube_error: float, unforced_moves: int, close_cube_decisions: int) -> float:
    """500 x (chequer error + cube error) / (unforced moves + close cube decisions); 0 without decisions."""
    decisions = unforced_moves + close_cube_decisions
    return 500.0 * (chequer_error + cube_error) / decisions if decisions else 0.0


#: gnubg's cube error by kind; their sum is its total cube error (``error-skill`` of ``match()`` is per decision).
CUBE_ERRORS = tuple(
    f"err-{kind}-skill"
    for kind in (
        "missed-double-below-cp",
        "missed-double-above-cp",
        "wrong-double-below-dp",
        "wrong-double-above-tg",
        "wrong-take",
        "wrong-drop",
    )
)


def total_cube_error(cube: dict[str, Any]) -> float:
    """A player's total cube error (normalised) from gnubg's cube statistics, as its chequer error is a total."""
    return float(sum(float(cube[key]) for key in CUBE_ERRORS))


def _player_row(analysis: MatchAnalysis, side: int, player_id: int, stats: dict[str, Any]) -> PlayerAnalysis:
    moves, cube, dice = stats["moves"], stats["cube"], stats["dice"]
    unforced, chequer = int(moves["unforced-moves"]), float(moves["error-skill"])
    close, cube_error = int(cube["close-cube"]), total_cube_error(cube)
    return PlayerAnalysis(
        analysis=analysis,
        side=side,
        player_id=player_id,
        unforced_moves=unforced,
        chequer_error=chequer,
        close_cube_decisions=close,
        cube_error=cube_error,
        luck=float(dice["luck"]),
        pr=pr_of(chequer, cube_error, unforced, close),
    )


def format_gnubg_play(steps: Iterable[Iterable[int]]) -> str:
    """gnubg's move tuple ((24, 18), (13, 11)) as notation "24/18 13/11" (25 is the bar, 0 off)."""

    def point(n: int) -> str:
        return "bar" if n == 25 else "off" if n <= 0 else str(n)

    return " ".join(f"{point(a)}/{point(b)}" for a, b in steps)


def _decisions(analysis: MatchAnalysis, games: list[dict[str, Any]]) -> Iterable[Decision]:
    for number, game in enumerate(games, start=1):
        plays = 0
        cube: dict[str, Any] = {}
        for turn, record in enumerate(game.get("game") or []):
            action, data = record.get("action"), record.get("analysis") or {}
            side = SIDES.index(record["player"]) if record.get("player") in SIDES else None
            if side is None:
                continue
            if action == "move":
                plays += 1
                yield _move_decision(analysis, number, turn, plays, side, record, data)
            elif action in CUBE_ACTIONS:
                if action == "double":
                    cube = data
                yield _cube_decision(analysis, number, turn, side, CUBE_ACTIONS[action], data, cube)


def _move_decision(
    analysis: MatchAnalysis, number: int, turn: int, plays: int, side: int, record: dict[str, Any], data: dict[str, Any]
) -> Decision:
    dice = record.get("dice") or (None, None)
    moves = data.get("moves") or []
    chosen = data.get("imove")
    played_equity = best_equity = None
    best = ""
    if moves:
        best, best_equity = format_gnubg_play(moves[0]["move"]), float(moves[0]["score"])
        if chosen is not None and 0 <= chosen < len(moves):
            played_equity = float(moves[chosen]["score"])
    lost = best_equity - played_equity if best_equity is not None and played_equity is not None else 0.0
    luck = data.get("luck-value")
    return Decision(
        analysis=analysis,
        game_number=number,
        turn=turn,
        move_number=plays,
        side=side,
        kind=Decision.Kind.MOVE,
        die1=dice[0],
        die2=dice[1],
        played=format_gnubg_play(record.get("move") or ()),
        best=best,
        played_equity=played_equity,
        best_equity=best_equity,
        equity_lost=max(0.0, lost),
        mark=data.get("skill", ""),
        cube_mark=data.get("cube-skill", ""),
        cube_equity_lost=cube_error(data, Decision.Kind.MOVE),
        cube_best=cube_action(float(data["nd-eq"]), float(data["dt-eq"])) if "nd-eq" in data else "",
        luck=None if luck is None else float(luck),
        luck_mark=data.get("luck", ""),
        evaluation=_play_evaluation(moves, chosen, data),
    )


def _cube_evaluation(data: dict[str, Any]) -> dict[str, Any]:
    """gnubg's evaluation of a cube decision as an SGF file carries it (empty without one)."""
    if not all(key in data for key in ("probs", "cubeless-eq", "nd-cubeful-eq", "dt-cubeful-eq")):
        return {}
    return {
        "probs": [float(p) for p in data["probs"]],
        "cubeless": float(data["cubeless-eq"]),
        "no_double": float(data["nd-cubeful-eq"]),
        "double_take": float(data["dt-cubeful-eq"]),
    }


def _play_evaluation(moves: list[dict[str, Any]], chosen: int | None, data: dict[str, Any]) -> dict[str, Any]:
    """The candidate plays kept (the best, and the one played when it is another) with their probabilities and
    equities, the index of the one played, and the cube decision before the play."""
    evaluation: dict[str, Any] = {}
    candidates = [
        {
            "move": [list(step) for step in move["move"]],
            "probs": [float(p) for p in move["probs"]],
            "equity": float(move["score"]),
        }
        for move in moves
        if move.get("probs")
    ]
    if candidates and len(candidates) == len(moves):
        evaluation["candidates"] = candidates
        evaluation["played"] = chosen
    cube = _cube_evaluation(data)
    if cube:
        evaluation["cube"] = cube
    return evaluation


def cube_action(no_double: float, double_take: float) -> str:
    """The right cube action for normalised equities (no double, double/take; double/pass is 1), as gnubg finds it."""
    if double_take >= no_double and no_double <= 1.0:
        return "double, take" if double_take < 1.0 else "double, pass"
    if no_double > 1.0:
        return "too good to double, pass" if double_take > 1.0 else "too good to double, take"
    return "no double"


def cube_error(data: dict[str, Any], kind: str) -> float:
    """gnubg's error of a cube decision (0 when right), in normalised equity, as its statistics count it: a
    missed double (``kind`` move), a wrong double, a wrong take, a wrong pass; 0 without a cube analysis."""
    if "nd-eq" not in data or "dt-eq" not in data:
        return 0.0
    no_double, double_take = float(data["nd-eq"]), float(data["dt-eq"])
    optimal = max(no_double, min(double_take, 1.0))
    if kind == Decision.Kind.MOVE:
        return optimal - no_double
    if kind == Decision.Kind.DOUBLE:
        return optimal - min(double_take, 1.0)
    if kind == Decision.Kind.TAKE:
        return max(0.0, double_take - 1.0)
    return max(0.0, 1.0 - double_take)


def _cube_decision(
    analysis: MatchAnalysis, number: int, turn: int, side: int, kind: str, data: dict[str, Any], cube: dict[str, Any]
) -> Decision:
    """A cube action, its equities normalised from the decider's side (a pass is worth 1 to the doubler)."""
    played_equity = best_equity = None
    best = ""
    if "nd-eq" in cube and "dt-eq" in cube:
        no_double, double_take = float(cube["nd-eq"]), float(cube["dt-eq"])
        best = cube_action(no_double, double_take)
        if kind == Decision.Kind.DOUBLE:
            best_equity, played_equity = max(no_double, min(double_take, 1.0)), min(double_take, 1.0)
        else:
            best_equity = max(-double_take, -1.0)
            played_equity = -double_take if kind == Decision.Kind.TAKE else -1.0
    return Decision(
        analysis=analysis,
        game_number=number,
        turn=turn,
        side=side,
        kind=kind,
        played=kind,
        best=best,
        played_equity=played_equity,
        best_equity=best_equity,
        equity_lost=cube_error(cube, kind),
        mark=data.get("skill", ""),
        evaluation={"cube": evaluation} if (evaluation := _cube_evaluation(cube)) else {},
    )
