"""A Swiss into a knockout as a club runs it (the second director's day of the issue on the rest of the day): eight
players, three 1-point Swiss rounds, then the top four in a knockout whose final is played to 3 points, a published
payout table. Built through the services, stage by stage, for the tests of tests/web/test_day_end.py and the browser
tests of the desktop bracket."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from common.actor import Actor
from tests.tournaments.services.support import director_win
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing
from tournaments.services.payouts import set_payouts

NAMES = ("Per Foss", "Ane Moe", "Kari Lund", "Ola Dahl", "Siri Berg", "Jon Vik", "Liv Holm", "Even Sand")


@dataclass
class Day:
    event: Event
    division: Division
    director: Any
    actor: Actor

    def refresh(self) -> Day:
        self.division = Division.objects.get(pk=self.division.pk)
        return self

    def slot(self, key: str) -> Pairing:
        return Pairing.objects.select_related("match", "entry_a__player", "entry_b__player", "table").get(
            division=self.division, key=key
        )

    def open_boards(self, bracket: str) -> list[Pairing]:
        rows = Pairing.objects.filter(division=self.division, round__bracket=bracket, status="ready")
        return list(rows.filter(match__isnull=False).select_related("match").order_by("round__number", "board"))

    def win_round(self, bracket: str, side: int = 0) -> None:
        """The director enters every open board of ``bracket``: side a wins (side b with ``side=1``)."""
        for p in self.open_boards(bracket):
            winner = p.entry_a_id if side == 0 else p.entry_b_id
            director_win(p, Entry.objects.get(pk=winner), self.actor)
        services.recompute_standings(self.division.pk)  # the follow-up task's work (the test never commits)
        self.refresh()


def swiss_knockout_day(director: Any, *, entry_mode: str = "moves", swiss_rounds_played: int = 3) -> Day:
    """The day up to the draw of its knockout (``swiss_rounds_played=3``), or stopped in the Swiss."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club day", venue="Storgata 1")
    settings = services.DivisionSettings(
        name="Open",
        format="swiss-knockout",
        rounds_planned=3,
        knockout_size=4,
        entry_mode=entry_mode,
        match_length=1,
        round_lengths={"main:final": 3},
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i, name in enumerate(NAMES):
        services.register_player(division, actor=actor, name=name, rating=1800 - 10 * i)
    services.set_tables(event, actor=actor, names=[""] * 4)
    set_payouts(
        division,
        actor=actor,
        mode="percent",
        pool=Decimal(800),
        ties="split",
        published=True,
        flights={"main": "50, 25, 12.5, 12.5"},
    )
    services.start_division(division, actor=actor)
    day = Day(event, division, director, actor)
    for number in range(1, swiss_rounds_played + 1):
        day.win_round("swiss")
        if number < 3:
            services.pair_next_round(day.division, actor=actor)
    if swiss_rounds_played == 3:
        services.pair_next_round(day.division, actor=actor)  # the knockout
    return day.refresh()


def finish_the_day(day: Day) -> Day:
    """Both semi-finals, then the final (side a wins each)."""
    day.win_round("main")
    day.win_round("main")
    return day.refresh()
