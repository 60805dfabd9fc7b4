"""The demo event ``make run`` loads, so that a first visitor sees a living event at once.

"Demo Open" has two divisions:

- **Championship**, main bracket with consolation, 8 players, 5-point matches entered move by move. Its matches
  are real online matches (the logs in ``logs/``, MIT-licensed, players renamed to pseudonyms) replayed action by
  action through the same services a player's phone uses: the main bracket's first round is finished, one
  semi-final is finished and the other is in progress, the consolation has begun.
- **Club night**, a 3-round Swiss of 8 players with scoresheet entry, finished with random but legal results, so
  its standings and tie-breaks are there to read.

Loading is idempotent: if the demo event exists, nothing is done.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from common.actor import SYSTEM, Actor
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from games import services as games
from tournaments import services
from tournaments.models import Division, Event, Pairing
from tournaments.services.followup import followups_deferred
from tournaments.simulation import run_division

SLUG = "demo-open"
LOGS = Path(__file__).resolve().parent / "logs"
PSEUDONYMS = ["Astrid Holm", "Bruno Keller", "Carmen Ruiz", "Dmitri Volkov", "Elif Yilmaz", "Finn Byrne",
              "Greta Lind", "Hiro Tanaka"]  # fmt: skip
CLUB_NIGHT = ["Ines Moreau", "Jonas Berg", "Kofi Mensah", "Lena Fischer", "Marco Rossi", "Nadia Haddad",
              "Oskar Nilsson", "Priya Nair"]  # fmt: skip


def load_demo(*, director: Any = None) -> Event:
    """Create the demo event (see the module docstring); returns the existing one if it is already there."""
    existing = Event.objects.filter(slug=SLUG).first()
    if existing is not None:
        return existing
    director = director or get_user_model().objects.get_or_create(username="demo-director")[0]
    actor = Actor(user=director)
    with transaction.atomic(), followups_deferred():
        event = services.create_event(actor=actor, name="Demo Open", slug=SLUG, venue="The club house")
        championship = _championship(event, actor)
        club_night = _club_night(event, actor)
    for division in (championship, club_night):
        services.sync_division(division.pk)
        services.recompute_standings(division.pk)
    return event


def _championship(event: Event, actor: Actor) -> Division:
    settings = services.DivisionSettings(
        name="Championship", format="main-consolation", match_length=5, clock="2 min per point + 12 s delay"
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for number, name in enumerate(PSEUDONYMS):
        services.register_player(division, actor=actor, name=name, rating=1800 - 40 * number, club="Demo BG Club")
    services.start_division(division, actor=actor)
    logs = sorted(LOGS.glob("*.txt"))
    plays = [("main-1-0", 1.0), ("main-1-1", 1.0), ("main-1-2", 1.0), ("main-1-3", 1.0)]
    plays += [("main-2-0", 1.0), ("consolation-1-0", 1.0), ("main-2-1", 0.5)]
    for (key, share), log in zip(plays, logs, strict=False):
        services.sync_division(division.pk)
        pairing = Pairing.objects.select_related("match").get(division=division, key=key)
        if pairing.match is not None:
            replay_log(pairing.match.pk, log, share=share)
    return division


def _club_night(event: Event, actor: Actor) -> Division:
    settings = services.DivisionSettings(
        name="Club night", format="swiss", match_length=3, rounds_planned=3, entry_mode="scoresheet"
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for number, name in enumerate(CLUB_NIGHT):
        services.register_player(division, actor=actor, name=name, rating=1650 - 20 * number)
    services.start_division(division, actor=actor)
    run_division(division, actor, random.Random(2026))
    return division


def replay_log(match_id: int, path: Path, *, share: float = 1.0) -> int:
    """Replay a .mat log's actions into an existing match through the services; ``share`` < 1 stops part-way
    (a match in progress). Returns the number of actions recorded."""
    replay = replay_record(read_mat(path.read_bytes()))
    actions = [action for game in replay.games for action in game.actions]
    stop = len(actions) if share >= 1 else int(len(actions) * share)
    seq = 0
    for action in actions[:stop]:
        seq = games.record_action(match_id, action, actor=SYSTEM, expected_seq=seq).match.seq
    return stop
