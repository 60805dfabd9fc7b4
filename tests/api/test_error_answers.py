"""Every error under /api/ is the house JSON ``{code, message}`` with a code of ``ErrorCodeEnum``, whatever the
client accepts and wherever it is refused: a throttled .mat export, the schema's own view, a form where JSON is
read, a request Django refuses before any view, a server error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import RequestFactory
from rest_framework.test import APIClient

from common import middleware
from common.errors import ErrorCode
from config import views
from games import services
from games.api import throttles
from games.models import Match, Player

pytestmark = pytest.mark.django_db


def house_json(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].split(";")[0] == "application/json", response["Content-Type"]
    body = json.loads(response.content)
    assert body["code"] == code and body["message"], body
    assert body["code"] in ErrorCode._value2member_map_
    return body


@pytest.fixture
def match() -> Match:
    alice = services.create_player(display_name="Alice")
    bob = services.create_player(display_name="Bob")
    return services.start_match(player1=alice, player2=bob, length=3)


@pytest.fixture
def two_a_minute() -> Iterator[None]:
    old = throttles.AddressThrottle.THROTTLE_RATES
    throttles.AddressThrottle.THROTTLE_RATES = {**old, "anon": "2/min"}
    try:
        yield
    finally:
        throttles.AddressThrottle.THROTTLE_RATES = old


@pytest.mark.parametrize("file", ["export.mat", "export.sgf"])
def test_a_throttled_export_is_json_not_text(match: Match, two_a_minute: None, file: str) -> None:
    client = APIClient()
    url = f"/api/matches/{match.pk}/{file}"
    answers = [client.get(url, HTTP_ACCEPT="text/plain") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[0]["Content-Type"].startswith("text/plain")
    house_json(answers[2], 429, "throttled")


def test_the_export_and_the_schema_answer_their_errors_in_json(match: Match) -> None:
    client = APIClient()
    house_json(client.get("/api/matches/999999/export.mat", HTTP_ACCEPT="text/plain"), 404, "not_found")
    house_json(client.get("/api/matches/999999/export.sgf", HTTP_ACCEPT="text/plain"), 404, "not_found")
    house_json(client.get("/api/schema/?format=bogus"), 404, "not_found")
    house_json(client.get("/api/docs/?format=bogus"), 404, "not_found")
    assert client.get("/api/docs/")["Content-Type"].startswith("text/html")


def test_a_form_where_json_is_read_is_a_415_and_stores_nothing(django_user_model: Any) -> None:
    client = APIClient()
    client.force_login(django_user_model.objects.create_user("sam", password=None, is_staff=True))
    for form in ("multipart", None):
        kwargs = {"format": form} if form else {"content_type": "application/x-www-form-urlencoded"}
        data = {"display_name": "Zed"} if form else "display_name=Zed"
        house_json(client.post("/api/players/", data, **kwargs), 415, "unsupported_media_type")
    assert not Player.objects.exists()
    assert client.post("/api/players/", {"display_name": "Zed"}, format="json").status_code == 201


def test_drf_refusals_carry_codes_of_the_enum(match: Match, django_user_model: Any) -> None:
    client = APIClient()
    house_json(client.get("/api/matches/", HTTP_ACCEPT="image/png"), 406, "not_acceptable")
    client.force_login(django_user_model.objects.create_user("dora", password=None))
    house_json(client.delete("/api/matches/"), 405, "method_not_allowed")


def test_a_request_django_refuses_before_any_view_is_json_under_api() -> None:
    house_json(APIClient().get("/api/matches/", HTTP_HOST="not..this.site"), 400, "bad_request")
    page = APIClient().get("/matches/", HTTP_HOST="not..this.site")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_a_server_error_under_api_is_json_and_tells_nothing_of_the_code() -> None:
    try:
        raise RuntimeError("a bug with a secret in it")
    except RuntimeError:
        api = views.server_error(RequestFactory().get("/api/matches/"))
        page = views.server_error(RequestFactory().get("/matches/"))
    body = house_json(api, 500, "server_error")
    assert "secret" not in body["message"]
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


def test_the_codes_written_outside_the_api_views_are_in_the_enum() -> None:
    assert middleware.DATABASE_UNAVAILABLE_CODE in ErrorCode._value2member_map_
    from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent

    for exception in (RequestDataTooBig(), TooManyFieldsSent(), TooManyFilesSent()):
        refused = views._too_much(exception)
        assert refused is not None and refused[0] in ErrorCode._value2member_map_
