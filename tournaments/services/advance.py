"""The director moves a division on by hand: pairs the next Swiss round (when the division does not pair itself),
or closes the last-chance places (the places left empty become byes and the last chance can start); and steers a
Swiss: ends it now or changes its number of rounds, takes back the current round while none of its matches has
started and pairs it again (after a correction, say), and pairs with the fewest rematches when no rematch-free
pairing exists, only when he says so.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Q

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.services import delete_unplayed_matches
from tournaments.access import check_directs
from tournaments.core import COUNTED, lock_division, plan_of
from tournaments.models import SWISS_FORMATS, Division, Pairing, Round
from tournaments.services.followup import schedule_followup
from tournaments.services.knockout import draw_knockout, knockout_due
from tournaments.services.swiss import pair_swiss_round
from tournaments.services.sync import sync_locked_division

#: The most rounds a Swiss can be set to (PositiveSmallIntegerField keeps far more; no real event plays more).
MAX_SWISS_ROUNDS = 99


def pair_next_round(division: Division, *, actor: Actor, allow_rematches: bool = False) -> Round:
    """Pair the next Swiss round (every result of the current round must count first). ``allow_rematches``: the
    director's consent to the pairing with the fewest rematches when no rematch-free pairing exists. A Swiss into
    a knockout whose Swiss rounds are all played draws its knockout instead (tournaments/services/knockout.py):
    the knockout's first round is returned."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = _running_swiss(division)
        sync_locked_division(division)
        division.refresh_from_db()
        swiss_rounds = division.rounds.filter(bracket=Round.Bracket.SWISS).count()
        drawn = division.is_swiss_knockout and swiss_rounds >= division.rounds_planned
        if drawn:
            draw_knockout(division)
            rnd = division.rounds.get(bracket=Round.Bracket.MAIN, number=1)
        else:
            rnd = pair_swiss_round(division, allow_rematches=allow_rematches)
        sync_locked_division(division)
        if drawn:
            schedule_followup(division.pk)  # the standings with the knockout: its players still in, the others placed
    return rnd


def _running_swiss(division: Division) -> Division:
    """The division locked, refused unless it is a Swiss running its Swiss rounds."""
    division = lock_division(division.pk)
    if division.format not in SWISS_FORMATS:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "only a Swiss division is paired round by round")
    if division.status != Division.Status.RUNNING:
        raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} is not running")
    if division.knockout_drawn:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"the Swiss rounds of {division.name} are over and its knockout is drawn: the Swiss can no longer be "
            "ended, changed or paired again (the knockout goes on as a bracket: a correction, a swap or a "
            "withdrawal is made on its matches)",
        )
    return division


def set_swiss_rounds(division: Division, *, actor: Actor, rounds: int) -> Division:
    """Change the number of rounds of a running Swiss: more, or fewer down to the rounds already paired. With as
    many rounds as are paired, the division finishes once the current round's results count (at once if they do);
    a Swiss into a knockout goes on to its knockout then (drawn at once when the current round is complete).

    :raises ApplicationError: INVALID_INPUT below the rounds paired (the current round can be taken back first
        while none of its matches has started: :func:`unpair_round`)."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = _running_swiss(division)
        paired = division.rounds.count()
        if rounds < max(paired, 1):
            raise ApplicationError(
                ErrorCode.INVALID_INPUT,
                f"{division.name} has {paired} round(s) paired: it plays at least {max(paired, 1)} (take back the "
                "current round first while none of its matches has started)",
            )
        if rounds > MAX_SWISS_ROUNDS:
            raise ApplicationError(ErrorCode.INVALID_INPUT, f"a Swiss plays at most {MAX_SWISS_ROUNDS} rounds")
        Division.objects.filter(pk=division.pk).update(rounds_planned=rounds)
        division.rounds_planned = rounds
        if sync_locked_division(division).finished or _knockout_now(division):
            schedule_followup(division.pk)
    division.refresh_from_db()
    return division


def end_swiss(division: Division, *, actor: Actor) -> Division:
    """End a Swiss now: a current round none of whose matches has started is taken back, and the rounds paired are
    the rounds played. The division finishes at once when every result counts, else when the last ones come in; a
    Swiss into a knockout goes on to its knockout instead (drawn at once when every result counts)."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = _running_swiss(division)
        current = division.rounds.order_by("-number").first()
        if current is not None and current.number > 1 and _unstarted(current) and not _complete(current):
            _take_back(division, current)
        paired = division.rounds.count()
        Division.objects.filter(pk=division.pk).update(rounds_planned=paired)
        division.rounds_planned = paired
        sync_locked_division(division)
        _knockout_now(division)
        schedule_followup(division.pk)
    division.refresh_from_db()
    return division


def _knockout_now(division: Division) -> bool:
    """A Swiss into a knockout whose Swiss rounds the director has just brought to an end, the last one complete:
    its knockout is drawn at once (his change is the go-ahead). True when it was."""
    division.refresh_from_db()
    if not knockout_due(division):
        return False
    draw_knockout(division)
    sync_locked_division(division)
    return True


def unpair_round(division: Division, *, actor: Actor) -> int:
    """Take back the current Swiss round while none of its matches has started: its boards and their matches (and
    entry links) are deleted, so that it can be paired again. Returns the round's number.

    :raises ApplicationError: CONFLICT once a match of the round has started, or for round 1 (start the division
        again instead: it is the draw)."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = _running_swiss(division)
        current = division.rounds.order_by("-number").first()
        if current is None or current.number == 1:
            raise ApplicationError(ErrorCode.CONFLICT, "round 1 is the draw: it is not taken back")
        started = _started_tables(current)
        if started:
            tables = ", ".join(str(t) for t in started[:10])
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"round {current.number} has started for match(es) {tables}: it can no longer be taken back",
            )
        _take_back(division, current)
        Division.objects.filter(pk=division.pk).update(results_version=F("results_version") + 1)
    return current.number


def repair_round(division: Division, *, actor: Actor, allow_rematches: bool = False) -> Round:
    """Take back the current Swiss round (:func:`unpair_round`) and pair it again from the results as they are
    now, in one step: nothing changes if the new pairing cannot be made."""
    with transaction.atomic():
        unpair_round(division, actor=actor)
        return pair_next_round(division, actor=actor, allow_rematches=allow_rematches)


def _started_tables(rnd: Round) -> list[int]:
    boards = rnd.pairings.exclude(status=Pairing.Status.BYE)
    started = boards.filter(Q(status__in=(Pairing.Status.PLAYING, Pairing.Status.FINISHED)) | Q(match__seq__gt=0))
    return list(started.order_by("board").values_list("board", flat=True))


def _unstarted(rnd: Round) -> bool:
    return not _started_tables(rnd)


def _complete(rnd: Round) -> bool:
    return not rnd.pairings.exclude(status=Pairing.Status.BYE).exclude(COUNTED).exists()


def _take_back(division: Division, rnd: Round) -> None:
    matches = list(rnd.pairings.filter(match__isnull=False).values_list("match_id", flat=True))
    rnd.pairings.all().delete()
    delete_unplayed_matches(matches)
    rnd.delete()


def check_place_free(division: Division, place: str) -> None:
    """Refuse a last-chance place that does not exist, is taken, or is closed."""
    plan = plan_of(division)
    if place not in plan.places:
        labels = ", ".join(plan.places) or "none"
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"there is no last-chance place {place!r} (places: {labels})")
    if division.last_chance_closed:
        raise ApplicationError(ErrorCode.CONFLICT, "the last-chance places are closed")
    if division.entries.filter(place=place).exists():
        raise ApplicationError(ErrorCode.CONFLICT, f"{place} is already taken")


def close_last_chance_places(division: Division, *, actor: Actor) -> Division:
    """Close the last-chance entries: unfilled places become byes and the last chance can start."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = lock_division(division.pk)
        if division.format != Division.Format.LAST_CHANCE:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{division.name} has no last chance: only a {Division.Format.LAST_CHANCE.label} "
                "division has last-chance places",
            )
        if division.status != Division.Status.RUNNING:
            raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} is not running: start it first")
        if division.last_chance_closed:
            raise ApplicationError(ErrorCode.CONFLICT, "the last-chance places are already closed")
        division.last_chance_closed = True
        division.save(update_fields=["last_chance_closed"])
        sync_locked_division(division)
        schedule_followup(division.pk)  # empty places become byes: players move on, the standings change
    return division
