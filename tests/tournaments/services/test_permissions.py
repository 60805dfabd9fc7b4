"""The access rule of the director services: each refuses a logged-in non-director (FORBIDDEN), an anonymous actor
(NOT_AUTHENTICATED), the holder of an entry link (FORBIDDEN) and the director of another event (FORBIDDEN), and
writes nothing; the event's director is let through (the same call succeeds for him)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tests.tournaments.services.support import director_win, entry, link, named, snapshot
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing

pytestmark = pytest.mark.django_db


@dataclass
class Scene:
    event: Event
    co_director: Any
    registering: Division  # 4 players, not started
    swiss: Division  # 4 players, round 1 played, round 2 not paired
    last_chance: Division  # 4 players, one last-chance place, started
    newcomer: Any
    quiet: Event  # another event of the director's, nothing running


@pytest.fixture
def scene(division_of: Callable[..., Division], as_director: Actor, django_user_model: Any) -> Scene:
    event = services.create_event(actor=as_director, name="Spring open")
    co_director = django_user_model.objects.create_user("dave", password=None)
    services.add_director(event, actor=as_director, user=co_director)
    registering = division_of("single", 4, event=event)
    swiss = division_of("swiss", 4, event=event, rounds_planned=3, entry_mode="scoresheet", match_length=1)
    services.start_division(swiss, actor=as_director)
    for p in Pairing.objects.filter(division=swiss, round__number=1).order_by("board"):
        director_win(p, Entry.objects.get(pk=p.entry_a_id), as_director)
    last_chance = division_of("main-consolation-lastchance", 4, event=event, last_chance_places=1)
    services.start_division(last_chance, actor=as_director)
    newcomer = django_user_model.objects.create_user("nina")
    quiet = services.create_event(actor=as_director, name="Quiet night")
    return Scene(event, co_director, registering, swiss, last_chance, newcomer, quiet)


def _round2(scene: Scene, as_director: Actor) -> Pairing:
    """The first board of round 2 of the Swiss (paired by the director the first time it is asked for)."""
    if not scene.swiss.rounds.filter(number=2).exists():
        services.pair_next_round(scene.swiss, actor=as_director)
    return Pairing.objects.filter(division=scene.swiss, round__number=2).order_by("board").first()


# name -> call(scene, actor, as_director); the director's setup (as_director) happens before the refusals are tried.
CALLS: dict[str, Callable[[Scene, Actor, Actor], Callable[[], Any]]] = {
    "add_director": lambda s, a, d: lambda: services.add_director(s.event, actor=a, user=s.newcomer),
    "remove_director": lambda s, a, d: lambda: services.remove_director(s.event, actor=a, user=s.co_director),
    "create_division": lambda s, a, d: (
        lambda: services.create_division(
            s.event, actor=a, settings=services.DivisionSettings(name="Jackpot", format="single")
        )
    ),
    "register_player": lambda s, a, d: lambda: services.register_player(s.registering, actor=a, name="Newcomer"),
    "import_entries_csv": lambda s, a, d: (
        lambda: services.import_entries_csv(s.registering, actor=a, text="name,rating\nNew One,1700\nNew Two,1600\n")
    ),
    "check_in": lambda s, a, d: lambda: services.check_in(named(s.registering, "P01"), actor=a),
    "set_seed": lambda s, a, d: lambda: services.set_seed(named(s.registering, "P01"), actor=a, seed=9),
    "start_division": lambda s, a, d: lambda: services.start_division(s.registering, actor=a),
    "pair_next_round": lambda s, a, d: lambda: services.pair_next_round(s.swiss, actor=a),
    "close_last_chance_places": lambda s, a, d: lambda: services.close_last_chance_places(s.last_chance, actor=a),
    "award_forfeit": lambda s, a, d: (
        lambda p: (
            lambda: services.award_forfeit(
                p, actor=a, loser=Entry.objects.get(pk=p.entry_a_id), kind="no-show", reason="not at the board"
            )
        )
    )(_round2(s, d)),
    "give_penalty": lambda s, a, d: (
        lambda p: (
            lambda: services.give_penalty(
                p, actor=a, against=Entry.objects.get(pk=p.entry_b_id), points=1, reason="slow play"
            )
        )
    )(_round2(s, d)),
    "withdraw_entry": lambda s, a, d: lambda: services.withdraw_entry(entry(s.swiss, 4), actor=a, reason="ill"),
    "close_event": lambda s, a, d: lambda: services.close_event(s.quiet, actor=a),
    "swap_players": lambda s, a, d: (
        lambda p: (
            lambda: services.swap_players(
                s.swiss,
                actor=a,
                first=Entry.objects.get(pk=p[0].entry_a_id),
                second=Entry.objects.get(pk=p[1].entry_a_id),
                reason="two brothers must not meet",
            )
        )
    )(list(Pairing.objects.filter(division=s.swiss, round__number=_round2(s, d).round.number).order_by("board"))),
}


def _refusers(scene: Scene, stranger: Actor, other_director: Actor) -> dict[str, tuple[Actor, ErrorCode]]:
    match = Pairing.objects.filter(division=scene.swiss, match__isnull=False).first().match
    return {
        "a logged-in non-director": (stranger, ErrorCode.FORBIDDEN),
        "nobody (no user)": (Actor(), ErrorCode.NOT_AUTHENTICATED),
        "an anonymous user": (Actor(user=AnonymousUser()), ErrorCode.NOT_AUTHENTICATED),
        "an entry link": (link(match, 0), ErrorCode.FORBIDDEN),
        "the director of another event": (other_director, ErrorCode.FORBIDDEN),
    }


@pytest.mark.parametrize("service", sorted(CALLS))
def test_director_services_refuse_everyone_but_the_events_directors(
    service: str, scene: Scene, as_director: Actor, stranger: Actor, other_director: Actor
) -> None:
    refusers = _refusers(scene, stranger, other_director)
    calls = {who: CALLS[service](scene, actor, as_director) for who, (actor, _) in refusers.items()}
    director_call = CALLS[service](scene, as_director, as_director)
    before = snapshot()
    for who, (_, code) in refusers.items():
        with pytest.raises(ApplicationError) as refused:
            calls[who]()
        assert refused.value.code is code, f"{service} by {who}: {refused.value.code} {refused.value.message}"
        assert snapshot() == before, f"{service} refused to {who} wrote something"
    director_call()  # the event's director is let through: the very same call succeeds
    assert snapshot() != before


def test_a_co_director_added_by_the_director_has_the_same_rights(scene: Scene) -> None:
    co = Actor(user=scene.co_director)
    services.register_player(scene.registering, actor=co, name="Late Larry")
    assert scene.registering.entries.count() == 5


def test_staff_direct_every_event(scene: Scene, django_user_model: Any) -> None:
    staff = Actor(user=django_user_model.objects.create_user("sam", password=None, is_staff=True))
    services.register_player(scene.registering, actor=staff, name="Staff pick")
    assert scene.registering.entries.filter(player__display_name="Staff pick").exists()


@pytest.mark.parametrize("who", ["anonymous user", "entry link"])
def test_creating_an_event_or_a_rating_list_needs_a_login(scene: Scene, who: str) -> None:
    match = Pairing.objects.filter(division=scene.swiss, match__isnull=False).first().match
    actor = Actor(user=AnonymousUser()) if who == "anonymous user" else link(match, 0)
    before = snapshot()
    for call in (
        lambda: services.create_event(actor=actor, name="Pirate open"),
        lambda: services.create_rating_list(actor=actor, name="Pirate list"),
    ):
        with pytest.raises(ApplicationError) as refused:
            call()
        assert refused.value.code is ErrorCode.NOT_AUTHENTICATED
    assert snapshot() == before
