"""Which later matches depend on a result: the correction guard (tournaments/services/results.py) and the sync's
refill (``advance_brackets``) answer it with one function, ``services.bracket.refilled``. Over brackets of every
elimination format played out with random winners, for every result: the slots the sync refills once that
result's winner is corrected are among the slots the guard calls dependent (the guard never lets a correction void
a started match it did not name), and in a bracket planned at the start they are the same slots (a bracket drawn
round by round may draw some pairs again)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.db import transaction

from common.actor import Actor
from tests.tournaments.services.support import play_out
from tournaments import services
from tournaments.core import plan_of
from tournaments.models import Division, Entry, Pairing
from tournaments.services.bracket import advance_brackets, dependent_keys

pytestmark = pytest.mark.django_db

FIELDS = [
    ("single", 6),
    ("double-elimination", 5),
    ("main-consolation", 7),
    ("progressive-consolation", 8),
    ("main-consolation-lastchance", 9),
]


def refilled_by_correcting(division: Division, pairing: Pairing) -> set[str]:
    """The keys the sync refills once the other player is written as the winner of ``pairing`` (rolled back)."""
    other = pairing.entry_b_id if pairing.winner_id == pairing.entry_a_id else pairing.entry_a_id
    savepoint = transaction.savepoint()
    Pairing.objects.filter(pk=pairing.pk).update(winner_id=other)
    changed = advance_brackets(division, [])[1]
    transaction.savepoint_rollback(savepoint)
    return set(changed)


def played_at_random(
    division_of: Callable[..., Division], director: Actor, fmt: str, players: int, seed: int
) -> Division:
    division = division_of(fmt, players)
    services.start_division(division, actor=director)
    toss = random.Random(seed)

    def pick(p: Pairing) -> Entry:
        return Entry.objects.get(pk=toss.choice([p.entry_a_id, p.entry_b_id]))

    return play_out(division, director, pick)


@pytest.mark.parametrize(("fmt", "players"), FIELDS)
def test_the_guard_names_every_slot_the_sync_refills_after_a_correction(
    division_of: Callable[..., Division], as_director: Actor, fmt: str, players: int
) -> None:
    for seed in (players,):
        division = played_at_random(division_of, as_director, fmt, players, seed)
        drawn = bool(plan_of(division).drawn)
        played = division.pairings.filter(status=Pairing.Status.FINISHED, match__isnull=False, winner__isnull=False)
        assert played.count() >= players - 1
        for pairing in played:
            refilled = refilled_by_correcting(division, pairing)
            guarded = set(dependent_keys(division, pairing.key))
            assert refilled <= guarded, (fmt, seed, pairing.key, refilled - guarded)
            assert drawn or refilled == guarded, (fmt, seed, pairing.key, guarded - refilled)
