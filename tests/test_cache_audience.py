"""Cache-Control by audience (common/audience.py): every route of the URL map is either shared (what a public event
shows an anonymous visitor, which a shared cache such as the nginx in front may keep a moment) or private (what
depends on who asks). Each route is asked, as an anonymous visitor and as a logged-in director, and its answer held
to its audience."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import RegexPattern

from common.actor import Actor
from common.audience import PRIVATE, Shared, audience_of
from games.models import Match
from tournaments import services
from tournaments.models import Club, Division, Pairing, Season

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Route:
    route: str  # as the resolver spells it, without the leading ^
    view: Any
    regex: bool


def _routes(patterns: list[Any], prefix: str = "", regex: bool = False) -> Iterator[Route]:
    for pattern in patterns:
        text = str(pattern.pattern).lstrip("^")
        is_regex = regex or isinstance(pattern.pattern, RegexPattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + text, is_regex)
        elif isinstance(pattern, URLPattern):
            yield Route(prefix + text, pattern.callback, is_regex)


ROUTES = list(_routes(get_resolver().url_patterns))


def test_every_route_of_the_url_map_has_an_audience() -> None:
    undecided = [r.route for r in ROUTES if audience_of(r.view, r.route) is None]
    assert undecided == [], "decide each route's audience: @shared or @private (common/audience.py)"


def test_the_spectators_pages_are_shared_and_the_rest_private() -> None:
    shared = {r.route for r in ROUTES if isinstance(audience_of(r.view, r.route), Shared)}
    for route in ("", "events/<slug:event>/<slug:division>/", "display/<slug:event>/live/", "matches/<id:match_id>/"):
        assert route in shared
    for route in ("manage/<slug:event>/", "play/match/<id:match_id>/", "api/events/", "accounts/login/", "health/"):
        assert audience_of(next(r.view for r in ROUTES if r.route == route), route) is PRIVATE


# -- every route asked ------------------------------------------------------------------------------------------------


@dataclass
class World:
    division: Division
    hidden: Division  # of a private event
    pairing: Pairing
    match: Match
    director: Any
    club: Club
    season: Season


@pytest.fixture
def world(director: Any, as_director: Actor, division_of: Any) -> World:
    division = services.start_division(division_of("swiss", 4, entry_mode="moves", match_length=3), actor=as_director)
    hidden_event = services.create_event(actor=as_director, name="Private night", public=False)
    hidden = division_of("swiss", 4, event=hidden_event, entry_mode="moves", match_length=3)
    hidden = services.start_division(hidden, actor=as_director)
    pairing = Pairing.objects.filter(division=division, match__isnull=False).select_related("match").first()
    assert pairing is not None and pairing.match is not None
    club = services.create_club(actor=as_director, name="Oslo BK")
    season = services.create_season(
        club, actor=as_director, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31)
    )
    return World(division, hidden, pairing, pairing.match, director, club, season)


def _samples(world: World, division: Division) -> dict[str, object]:
    pairing = Pairing.objects.filter(division=division, match__isnull=False).select_related("round", "match").first()
    assert pairing is not None and pairing.match is not None
    return {
        "event": division.event.slug,
        "division": division.slug,
        "part": "standings",
        "bracket": pairing.round.bracket,
        "number": pairing.round.number,
        "match_id": pairing.match_id,
        "player_id": pairing.match.player1_id,
        "pk": pairing.match.player1_id,
        "key": pairing.key,
        "pairing_id": pairing.pk,
        "entry_id": pairing.entry_a_id,
        "token": "not-a-token",
        "token_id": 1,
        "playoff_id": 1,
        "merge_id": 1,
        "slug": "no-such-list",
        "content_type_id": "1",
        "object_id": "1",
        "id": world.director.pk,
        "uidb64": "MQ",
        "app_label": "games",
        "url": "nothing/",
        "club": world.club.slug,
        "season": world.season.slug,
    }


def _path(route: Route, samples: dict[str, object]) -> str:
    if route.regex:
        text = re.sub(r"\(\?P<(\w+)>(?:\([^)]*\)|[^)])*\)", lambda m: str(samples[m.group(1)]), route.route)
        text = text.replace(r"[\s\S]*", "nothing/").rstrip("$")
    else:
        text = re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(samples[m.group(1)]), route.route)
    return "/" + text


def _directives(response: Any) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


def _assert_private(response: Any, where: str) -> None:
    said = _directives(response)
    assert "private" in said and ({"no-store", "no-cache"} & said), (where, response.get("Cache-Control"))
    assert "public" not in said and not any(d.startswith("s-maxage") for d in said), where


def _assert_shared(response: Any, where: str) -> None:
    said = _directives(response)
    assert "public" in said and any(d.startswith("s-maxage=") for d in said), (where, response.get("Cache-Control"))
    assert not response.cookies, (where, response.cookies)
    assert "cookie" not in response.get("Vary", "").lower(), (where, response.get("Vary"))


def test_every_route_answers_by_its_audience(world: World) -> None:
    anonymous, director = Client(), Client()
    director.force_login(world.director)
    samples = _samples(world, world.division)
    hidden = _samples(world, world.hidden)
    shared_ok = []
    for route in ROUTES:
        audience = audience_of(route.view, route.route)
        path = _path(route, samples)
        for who, client in (("anonymous", anonymous), ("director", director)):
            response = client.get(path)
            where = f"{who} GET {path} ({response.status_code})"
            if isinstance(audience, Shared) and who == "anonymous" and response.status_code in (200, 304):
                _assert_shared(response, where)
                shared_ok.append(route.route)
            else:
                _assert_private(response, where)
        if isinstance(audience, Shared) and "<slug:event>" in route.route:
            # a private event: a 404 for the anonymous visitor, the director's own page for him; both private
            for client in (anonymous, director):
                _assert_private(client.get(_path(route, hidden)), f"GET {_path(route, hidden)} (private event)")
    shared_routes = {r.route for r in ROUTES if isinstance(audience_of(r.view, r.route), Shared)}
    assert shared_routes - set(shared_ok) <= {"matches/<id:match_id>/board/"}, "a shared route was never answered"


def test_a_visitor_with_a_session_gets_a_private_answer(world: World) -> None:
    """A player who opened his entry link has a session (and sees his own controls on some pages): his answers are
    never for the shared cache, even on a spectator's page."""
    client = Client()
    client.cookies["sessionid"] = "anything"
    url = reverse("games:match", args=[world.match.pk])
    _assert_private(client.get(url), url)
    _assert_shared(Client().get(url), url)


def test_a_finished_match_may_be_kept_longer_than_one_in_play(world: World) -> None:
    url = reverse("games:match", args=[world.match.pk])
    assert "s-maxage=1" in Client().get(url)["Cache-Control"]
    Match.objects.filter(pk=world.match.pk).update(status=Match.Status.FINISHED)
    assert "s-maxage=60" in Client().get(url)["Cache-Control"]


def test_a_live_part_keeps_its_etag_and_304(world: World) -> None:
    url = reverse("tournaments:division-live", args=[world.division.event.slug, world.division.slug, "standings"])
    first = Client().get(url)
    assert first.status_code == 200 and first["ETag"]
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    _assert_shared(again, url)


def test_a_finished_division_may_be_kept_longer_than_one_in_play(world: World) -> None:
    url = reverse("tournaments:division-detail", args=[world.division.event.slug, world.division.slug])
    assert "s-maxage=1" in Client().get(url)["Cache-Control"]
    Division.objects.filter(pk=world.division.pk).update(
        status=Division.Status.FINISHED, standings_status=Division.Work.CURRENT
    )
    assert "s-maxage=60" in Client().get(url)["Cache-Control"]
