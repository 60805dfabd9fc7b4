"""A player's head-to-head records and his nemesis: the opponent he lost most matches to, ties broken by fewer wins
against him, then by name."""

from __future__ import annotations

import pytest

from games.models import Match, Player
from games.selectors import HeadToHead, head_to_head, nemesis

pytestmark = pytest.mark.django_db


def played(a: Player, b: Player, winner: Player, status: str = Match.Status.FINISHED) -> None:
    Match.objects.create(player1=a, player2=b, length=1, status=status, winner=winner, score1=1)


def test_the_nemesis_is_who_beat_him_most_then_fewer_wins_then_the_name() -> None:
    me, ann, bob, cy = (Player.objects.create(display_name=n) for n in ("Me", "Ann", "Bob", "Cy"))
    for _ in range(2):
        played(me, bob, bob)
        played(cy, me, cy)
        played(ann, me, ann)
    played(me, bob, me)  # he beat Bob once: Bob and Cy and Ann all beat him twice
    played(me, ann, me)
    played(me, cy, me, Match.Status.FORFEITED)  # not played: not counted
    Match.objects.create(player1=me, player2=cy, length=1)  # not over
    records = head_to_head(me, None)
    assert [(r.opponent.display_name, r.won, r.lost) for r in records] == [("Ann", 1, 2), ("Bob", 1, 2), ("Cy", 0, 2)]
    found = nemesis(records)
    assert found is not None and found.opponent == cy, "Cy: as many wins over him, and he never beat Cy"
    tied = [HeadToHead(bob, 1, 2), HeadToHead(ann, 1, 2)]
    assert nemesis(tied) == HeadToHead(ann, 1, 2), "then by name"
    assert nemesis([HeadToHead(ann, 3, 0)]) is None, "nobody beat him"
