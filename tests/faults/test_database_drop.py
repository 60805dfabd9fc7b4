"""The database connection drops in the middle of a request: the client gets a clean, retryable 503 (JSON
``{code, message}`` from the API, a short page elsewhere, both with ``Retry-After``), the error is logged, nothing
is half-written, and the same request sent again succeeds.

The connection is really cut: a second connection terminates the request's own PostgreSQL backend
(``pg_terminate_backend``) just before the request sends a chosen statement. The point chosen for writes is the
match's UPDATE, after the action and the game have been INSERTed in the same transaction; the server rolls them
back with the session. Django's test client does not close connections after a request as a server does, so
the tests close the broken one themselves, where Django would at the end of the request.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import DatabaseError, connection
from django.test import Client
from rest_framework.test import APIClient

from common.middleware import is_database_unavailable
from games import access, services
from games.models import Action, Match
from tests.faults.conftest import side_connection
from tests.games.conftest import footprint

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (DATABASE_URL=postgres://...): it cuts the request's backend",
    ),
]

MATCH_UPDATE = 'UPDATE "games_match"'
MESSAGE = "the database is unreachable; retry in a few seconds"


@contextmanager
def connection_cut_before(prefix: str) -> Iterator[list[str]]:
    """Terminate this thread's database session, from another connection, just before it sends the first statement
    starting with ``prefix``; yields the statements cut (one, once it has happened)."""
    cut: list[str] = []

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        if not cut and sql.startswith(prefix):
            pid = context["connection"].connection.info.backend_pid
            with side_connection() as other:  # waits up to 5 s for the backend to be gone
                assert other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone()[0]
            cut.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(wrapper):
        yield cut
    connection.close()  # what Django does with a broken connection at the end of a request


@contextmanager
def database_refusing_connections() -> Iterator[None]:
    """Point this thread's connection at a port where nothing listens (PostgreSQL down), then back."""
    settings = connection.settings_dict
    old = settings["PORT"]
    connection.close()
    settings["PORT"] = "1"
    try:
        yield
    finally:
        connection.close()
        settings["PORT"] = old


@pytest.fixture
def match() -> Match:
    first, second = services.create_player(display_name="Ada"), services.create_player(display_name="Ben")
    return services.start_match(player1=first, player2=second, length=3, entry_mode="scoresheet")


def game_result(match: Match, key: str) -> dict[str, Any]:
    return {"kind": "game-result", "expected_seq": 0, "winner": 0, "result": "single", "idempotency_key": key}


def test_the_api_answers_503_and_writes_nothing_when_the_connection_drops_mid_write(
    match: Match, caplog: pytest.LogCaptureFixture
) -> None:
    phone = APIClient(HTTP_X_ENTRY_TOKEN=access.token_text(access.new_entry_token(match, 0)))
    before = footprint(match.pk)
    body = game_result(match, uuid.uuid4().hex)

    with caplog.at_level(logging.ERROR), connection_cut_before(MATCH_UPDATE) as cut:
        response = phone.post(f"/api/matches/{match.pk}/actions/", body, format="json")

    assert cut, "the connection was cut inside the request"
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"code": "database_unavailable", "message": MESSAGE}
    assert footprint(match.pk) == before, "the action and game INSERTed before the cut were rolled back"
    assert f"database unavailable during POST /api/matches/{match.pk}/actions/: OperationalError" in caplog.text

    again = phone.post(f"/api/matches/{match.pk}/actions/", body, format="json")
    assert again.status_code == 201, again.json()
    assert list(Action.objects.filter(match=match).values_list("seq", "kind")) == [(1, "game-result")]


def test_the_api_answers_503_when_the_database_refuses_connections(match: Match) -> None:
    phone = APIClient(HTTP_X_ENTRY_TOKEN=access.token_text(access.new_entry_token(match, 0)))
    with database_refusing_connections():
        read = phone.get(f"/api/matches/{match.pk}/")
        write = phone.post(f"/api/matches/{match.pk}/actions/", game_result(match, "k1"), format="json")
    for response in (read, write):
        assert response.status_code == 503
        assert response.json() == {"code": "database_unavailable", "message": MESSAGE}
        assert response["Retry-After"] == "5"
    assert Match.objects.get(pk=match.pk).seq == 0


def test_a_page_answers_a_short_503_page_and_writes_nothing_when_the_connection_drops(
    match: Match, caplog: pytest.LogCaptureFixture
) -> None:
    phone = Client()
    opened = phone.get(f"/play/{access.token_text(access.new_entry_token(match, 0))}/")
    assert opened.status_code == 302
    form = {"side": 0, "cube": 1, **game_result(match, uuid.uuid4().hex), "result": 1}
    before = footprint(match.pk)

    with caplog.at_level(logging.ERROR), connection_cut_before(MATCH_UPDATE) as cut:
        response = phone.post(f"/play/match/{match.pk}/", form)

    assert cut
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Try again in a moment" in page and "cannot reach its database" in page
    assert "Traceback" not in page and "OperationalError" not in page
    assert "Content-Security-Policy" in response, "the usual headers still apply"
    assert footprint(match.pk) == before
    assert f"database unavailable during POST /play/match/{match.pk}/" in caplog.text

    again = phone.post(f"/play/match/{match.pk}/", form)
    assert again.status_code == 303
    assert Match.objects.get(pk=match.pk).seq == 1


def test_a_page_that_only_reads_answers_503_when_the_connection_drops(match: Match) -> None:
    with connection_cut_before('SELECT "games_match"') as cut:
        response = Client().get(f"/matches/{match.pk}/")
    assert cut
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert Client().get(f"/matches/{match.pk}/").status_code == 200, "the next request reconnects"


def test_health_reconnects_after_a_dropped_connection_and_reports_a_database_that_is_down() -> None:
    with side_connection() as other:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            pid = cursor.fetchone()[0]
        assert other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone()[0]
    dropped = Client().get("/health/")  # this thread's connection is dead: health tries a fresh one
    assert dropped.status_code == 200 and dropped.json()["database"] == "ok"

    with database_refusing_connections():
        down = Client().get("/health/")
    assert down.status_code == 503 and down.json()["database"] == "error"


def test_a_query_the_database_refuses_is_a_bug_not_an_outage() -> None:
    with pytest.raises(DatabaseError) as refused, connection.cursor() as cursor:
        cursor.execute("SELECT * FROM no_such_table")
    assert not is_database_unavailable(refused.value), "a wrong query stays a 500, for the bug to be seen"


def test_a_lost_database_outside_any_view_is_the_same_retryable_503(caplog: pytest.LogCaptureFixture) -> None:
    # Django calls handler500 for what fails outside a view, e.g. the session saved after the response is made.
    from django.db import InterfaceError
    from django.test import RequestFactory

    from config.views import server_error

    for path in ("/api/matches/", "/events/"):
        request = RequestFactory().post(path)
        try:
            raise InterfaceError("connection already closed")
        except InterfaceError:
            with caplog.at_level(logging.ERROR, logger="common.middleware"):
                response = server_error(request)
        assert response.status_code == 503 and response["Retry-After"] == "5"
        assert (MESSAGE in response.content.decode()) == path.startswith("/api/")
    assert caplog.text.count("database unavailable during POST") == 2
    try:
        raise ValueError("a bug")
    except ValueError:
        assert server_error(RequestFactory().get("/events/")).status_code == 500
