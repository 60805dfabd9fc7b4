"""Strict input: an integer field takes a JSON integer only (``player1: 1.5`` is not player 1), and a query parameter
that is sent must carry one value (``?status=`` is a 400, not "every status"). Nothing is written by a refusal."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from rest_framework import relations, serializers

from common.api import fields
from games.api import serializers as games_serializers
from games.models import Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import token_client
from tournaments.api import serializers as tournaments_serializers
from tournaments.models import Division, Entry

pytestmark = pytest.mark.django_db


def refused(response: Any, field: str) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "invalid_input" and set(body["fields"]) == {field}, body
    assert body["message"].startswith(f"{field}: "), body
    return body


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda p: {"player1": p[0].pk + 0.5}, "player1"),  # was taken as player1's id, the decimals dropped
        (lambda p: {"player1": float(p[0].pk)}, "player1"),
        (lambda p: {"player2": str(p[1].pk)}, "player2"),
        (lambda p: {"length": 3.0}, "length"),
        (lambda p: {"length": 2.5}, "length"),
        (lambda p: {"length": "3"}, "length"),
    ],
)
def test_a_match_is_not_started_from_an_id_or_a_length_that_is_not_an_integer(
    change: Callable[[tuple[Player, Player]], dict[str, Any]], field: str, players: tuple[Player, Player], director: Any
) -> None:
    body = {"player1": players[0].pk, "player2": players[1].pk, "length": 3, **change(players)}
    answer = refused(logged_in(director).post("/api/matches/", body, format="json"), field)
    assert "integer" in answer["message"] or "pk value" in answer["message"]
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "opening-roll", "dice": [3.0, 1], "expected_seq": 0}, "dice"),
        ({"kind": "opening-roll", "dice": ["3", 1], "expected_seq": 0}, "dice"),
        ({"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0.5}, "expected_seq"),
        ({"kind": "opening-roll", "dice": [3, 1], "expected_seq": "0"}, "expected_seq"),
        ({"kind": "double", "side": 0.0, "expected_seq": 0}, "side"),
    ],
)
def test_an_action_with_a_number_that_is_not_an_integer_is_refused(
    body: dict[str, Any], field: str, match: Match
) -> None:
    refused(token_client(match, 0).post(f"/api/matches/{match.pk}/actions/", body, format="json"), field)
    assert Match.objects.get(pk=match.pk).seq == 0


def test_tournament_inputs_take_integers_and_numbers_only(division_of: Callable[..., Division], director: Any) -> None:
    division = division_of("swiss", 4)
    url = f"/api/events/{division.event.slug}/divisions/{division.slug}/"
    client = logged_in(director)
    entry = Entry.objects.filter(division=division).order_by("id").first()
    assert entry is not None
    refused(client.post(url + f"entries/{entry.pk}/seed/", {"seed": 1.5}, format="json"), "seed")
    refused(client.post(url + "entries/", {"name": "Zed", "rating": "1500"}, format="json"), "rating")
    refused(client.post(url + "entries/", {"name": "Zed", "rating": True}, format="json"), "rating")
    refused(client.post(url + "entries/", {"player": entry.player_id + 0.5}, format="json"), "player")
    assert Entry.objects.filter(division=division).count() == 4
    created = client.post(url + "entries/", {"name": "Zed", "rating": 1500}, format="json")
    assert created.status_code == 201, created.json()


@pytest.mark.parametrize(
    ("query", "field", "words"),
    [
        ("status=", "status", "empty"),
        ("player=", "player", "empty"),
        ("player=1.0", "player", "integer"),
        ("status=playing&status=finished", "status", "once"),
        ("page_size=", "page_size", "empty"),
        ("page_size=abc", "page_size", "integer"),
        ("page_size=0", "page_size", "greater than or equal to 1"),
        ("page=", "page", "empty"),
        ("page=abc", "page", "integer"),
        ("page=last", "page", "integer"),
    ],
)
def test_an_empty_or_malformed_query_parameter_is_a_400_naming_it(
    query: str, field: str, words: str, match: Match, anon: Any
) -> None:
    answer = refused(anon.get(f"/api/matches/?{query}"), field)
    assert words in answer["message"], answer


def test_query_parameters_of_the_other_lists_are_strict_too(
    match: Match, anon: Any, division_of: Callable[..., Division]
) -> None:
    refused(anon.get("/api/players/?q="), "q")
    refused(anon.get(f"/api/matches/{match.pk}/log/?game="), "game")
    division = division_of("swiss", 4)
    url = f"/api/events/{division.event.slug}/divisions/{division.slug}/"
    refused(anon.get(url + "pairings/?round="), "round")
    refused(anon.get(url + "pairings/?bracket="), "bracket")
    refused(anon.get(url + "standings/?after_round=1.0"), "after_round")


def test_well_formed_queries_still_answer(match: Match, anon: Any) -> None:
    assert anon.get("/api/matches/?status=scheduled&page=1&page_size=200").json()["count"] == 1
    assert anon.get(f"/api/matches/?player={match.player1_id}").json()["count"] == 1
    assert anon.get("/api/matches/?page=2").status_code == 404  # past the last page


# -- the rule, for every serializer the API reads ---------------------------------------------------------------


def _modules(package: ModuleType) -> Iterator[ModuleType]:
    """The modules of a package of serializers."""
    for info in pkgutil.iter_modules(package.__path__):
        yield importlib.import_module(f"{package.__name__}.{info.name}")


def _input_serializers() -> Iterator[type[serializers.Serializer]]:
    for module in (games_serializers, *_modules(tournaments_serializers)):
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and name.endswith(("Input", "Filter")):
                yield cls


def _leaves(field: Any) -> Iterator[Any]:
    yield field
    child = getattr(field, "child", None) or getattr(field, "child_relation", None)
    if child is not None:
        yield from _leaves(child)


LENIENT = (serializers.IntegerField, serializers.FloatField, serializers.BooleanField, relations.PrimaryKeyRelatedField)
STRICT = (
    fields.IntegerField,
    fields.FloatField,
    fields.BooleanField,
    fields.PrimaryKeyRelatedField,
    fields.QueryIntegerField,
)


def test_every_input_of_the_api_uses_the_strict_fields() -> None:
    inputs = list(_input_serializers())
    assert len(inputs) > 30
    for cls in inputs:
        if cls.__name__.endswith("Filter"):
            assert issubclass(cls, fields.QueryParams), cls
        for name, field in cls().fields.items():
            for leaf in _leaves(field):
                if isinstance(leaf, LENIENT) and not leaf.read_only:
                    assert isinstance(leaf, STRICT), f"{cls.__name__}.{name}: use common.api.fields"
                    query = isinstance(leaf, fields.QueryIntegerField)
                    assert query == cls.__name__.endswith("Filter"), f"{cls.__name__}.{name}"


def test_every_boolean_input_of_the_api_takes_json_true_and_false_only() -> None:
    """``"yes"``, ``"true"``, ``1`` and ``"on"`` were read as true (``{"published": "yes"}`` published a payout
    table): every boolean field of every input refuses them, naming the field."""
    seen = 0
    for cls in _input_serializers():
        for field in cls().fields.values():
            if isinstance(field, serializers.BooleanField) and not field.read_only:
                seen += 1
                for text in ("yes", "true", 1, "on", "1"):
                    with pytest.raises(serializers.ValidationError, match="expected true or false"):
                        field.run_validation(text)
                assert (field.run_validation(True), field.run_validation(False)) == (True, False)
    assert seen >= 15


def test_text_is_not_read_as_true_on_tables_and_payouts(division_of: Callable[..., Division], director: Any) -> None:
    division = division_of("swiss", 4)
    event = division.event.slug
    client = logged_in(director)
    tables = client.post(f"/api/events/{event}/tables/", {"as_needed": "yes"}, format="json")
    assert (
        refused(tables, "as_needed")["message"]
        == "as_needed: expected true or false (JSON booleans, not text or a number)"
    )
    url = f"/api/events/{event}/divisions/{division.slug}/payouts/"
    body = {"mode": "amount", "flights": {"main": [100]}, "published": "yes"}
    refused(client.post(url, body, format="json"), "published")
    assert not Division.objects.get(pk=division.pk).payouts
