"""The director moves a division on by hand: pairs the next Swiss round (when the division does not pair itself),
or closes the last-chance places (the places left empty become byes and the last chance can start).
"""

from __future__ import annotations

from django.db import transaction

from games.access import Actor
from games.errors import ApplicationError, ErrorCode
from tournaments.access import check_directs
from tournaments.core import lock_division, plan_of
from tournaments.models import Division, Round
from tournaments.services.followup import schedule_followup
from tournaments.services.swiss import pair_swiss_round
from tournaments.services.sync import sync_locked_division


def pair_next_round(division: Division, *, actor: Actor) -> Round:
    """Pair the next Swiss round (every result of the current round must count first)."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = lock_division(division.pk)
        if division.format != Division.Format.SWISS:
            raise ApplicationError(ErrorCode.INVALID_INPUT, "only a Swiss division is paired round by round")
        if division.status != Division.Status.RUNNING:
            raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} is not running")
        sync_locked_division(division)
        division.refresh_from_db()
        rnd = pair_swiss_round(division)
        sync_locked_division(division)
    return rnd


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
