"""Matches: started one by one or many at once, their set-up changed, unplayed ones deleted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction

from common.actor import Actor
from common.bulk import copy_new_rows, reserve_ids
from common.errors import ApplicationError, ErrorCode
from engine.variants import VARIANTS
from games.access import check_can_act
from games.engine_bridge import new_state
from games.models import (
    Match,
    Player,
)
from games.services.write import _lock


def start_match(
    *,
    player1: Player,
    player2: Player,
    length: int,
    variant: str = "standard",
    crawford: bool = True,
    entry_mode: str = Match.EntryMode.MOVES,
    private: bool = False,
    created_by: Any = None,
    source: str = "",
    casual: bool = False,
) -> Match:
    """Create a match, ready for its opening roll (or first scoresheet result)."""
    match = new_match(
        player1=player1, player2=player2, length=length, variant=variant, crawford=crawford,
        entry_mode=entry_mode, private=private, created_by=created_by, source=source, casual=casual,
    )  # fmt: skip
    match.save()
    return match


def start_matches(matches: Sequence[Match]) -> list[Match]:
    """Store many matches made by :func:`new_match` at once (a round's draw: one INSERT for all of them)."""
    return Match.objects.bulk_create(matches)


def start_many_matches(
    pairs: Sequence[tuple[int, int, int, str]],
    *,
    variant: str = "standard",
    crawford: bool = True,
    entry_mode: str = Match.EntryMode.MOVES,
    private: bool = False,
    casual: bool = False,
) -> list[int]:
    """Store many matches of one set-up at once, given as (player 1's id, player 2's id, length, source), and return
    their ids in order: a whole round-robin schedule, 100,000 matches and more. Checked as :func:`new_match` checks
    one; no model instance is built per match (on PostgreSQL the ids are drawn from the sequence and the rows go in
    one COPY), and the cached engine state is left blank until the first action.

    :raises ApplicationError: INVALID_INPUT as :func:`new_match`; nothing is stored then."""
    if not pairs:
        return []
    for length in {length for _, _, length, _ in pairs}:
        _check_setup(length, variant, entry_mode)
    if any(player1 == player2 for player1, player2, _, _ in pairs):
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a match needs two different players")
    # The engine state is left blank: a match with no action is at its start (games.engine_bridge.load_state).
    fields = ["player1_id", "player2_id", "length", "variant", "crawford", "entry_mode", "private", "source", "casual"]
    rows = [
        (p1, p2, length, variant, crawford and length > 0, entry_mode, private, source, casual)
        for p1, p2, length, source in pairs
    ]
    if connection.vendor != "postgresql":
        made = Match.objects.bulk_create(Match(**dict(zip(fields, row, strict=True))) for row in rows)
        return [m.pk for m in made]
    ids = reserve_ids(Match, len(rows))
    copy_new_rows(Match, ["id", *fields], ((pk, *row) for pk, row in zip(ids, rows, strict=True)))
    return ids


def delete_unplayed_matches(match_ids: Sequence[int]) -> int:
    """Delete matches nothing was recorded in (a round taken back before anyone played): their entry links go with
    them. Returns how many were deleted.

    :raises ApplicationError: CONFLICT if any of them has an action; nothing is deleted then."""
    with transaction.atomic():
        matches = list(Match.objects.select_for_update().filter(pk__in=match_ids).order_by("pk"))
        played = [m.pk for m in matches if m.seq or m.status != Match.Status.SCHEDULED]
        if played:
            raise ApplicationError(ErrorCode.CONFLICT, f"match {played[0]} has started: it cannot be taken back")
        Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
    return len(matches)


def new_match(
    *,
    player1: Player,
    player2: Player,
    length: int,
    variant: str = "standard",
    crawford: bool = True,
    entry_mode: str = Match.EntryMode.MOVES,
    private: bool = False,
    created_by: Any = None,
    source: str = "",
    casual: bool = False,
) -> Match:
    """A validated, unsaved match with its initial engine state (what :func:`start_match` stores). A ``casual``
    match has no cube and every game is worth one point (the engine refuses a double, a gammon, a cube value).

    :raises ApplicationError: INVALID_INPUT for the same player twice, a length outside 0-99, an unknown variant or
        entry mode.
    """
    if player1.pk == player2.pk:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a match needs two different players")
    _check_setup(length, variant, entry_mode)
    match = Match(
        player1=player1,
        player2=player2,
        length=length,
        variant=variant,
        crawford=crawford and length > 0,
        entry_mode=entry_mode,
        private=private,
        created_by=created_by if created_by is not None and created_by.is_authenticated else None,
        source=source,
        casual=casual,
    )
    match.state = new_state(match).snapshot()
    return match


def _check_setup(length: int, variant: str, entry_mode: str) -> None:
    if not 0 <= length <= 99:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"a match is played to 1-99 points (0 for money), not {length}")
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"unknown variant {variant!r}; choose one of {known}")
    if entry_mode not in Match.EntryMode.values:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "entry mode is 'moves' or 'scoresheet'")


SETUP_FIELDS = ("player1", "player2", "length", "variant", "crawford", "entry_mode", "private")


def update_match_setup(match_id: int, *, actor: Actor, changes: dict[str, Any]) -> Match:
    """Change a match's set-up (players, length, variant, Crawford rule, entry mode, privacy). Everything but privacy
    only while nothing has been recorded; the cached engine state is made again for the new set-up.

    :raises ApplicationError: CONFLICT once the match has started; INVALID_INPUT for an unknown field or value.
    """
    unknown = sorted(set(changes) - set(SETUP_FIELDS))
    if unknown:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"these fields cannot be changed here: {', '.join(unknown)}")
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, None, director_only=True)
        setup = [name for name in changes if name != "private"]
        if setup and (match.seq or match.status != Match.Status.SCHEDULED):
            raise ApplicationError(
                ErrorCode.CONFLICT, f"the match has started, so its set-up ({', '.join(setup)}) cannot change"
            )
        for name, value in changes.items():
            setattr(match, name, value)
        if match.player1_id == match.player2_id:
            raise ApplicationError(ErrorCode.INVALID_INPUT, "a match needs two different players")
        if not 0 <= match.length <= 99 or match.variant not in VARIANTS:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, "a match is played to 1-99 points (0 for money) in a known variant"
            )
        update = list(changes)
        if setup:
            match.crawford = match.crawford and match.length > 0
            match.state = new_state(match).snapshot()
            update += ["crawford", "state"]
        match.save(update_fields=sorted(set(update)))
        return match
