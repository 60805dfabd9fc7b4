"""Background work is handed to the broker once the response is sent (common/after_response.py).

The player whose play ends a match gets his answer before the follow-up and the analysis are enqueued: the
request goes through Django's WSGI handler as a server runs it, and nothing is sent to the broker until the server
closes the response, after writing its last byte. Outside a request, and where tasks run eagerly, a send runs at
once.
"""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.handlers.wsgi import WSGIHandler
from django.test import RequestFactory

from common.actor import Actor
from common.after_response import SendAfterResponseMiddleware, after_response, enqueue_after_response
from games.models import MatchAnalysis
from tests.faults.conftest import use_broker
from tests.tournaments.services.test_one_truth import at_the_last_play, refused_port
from tournaments.models import Pairing


def test_a_send_outside_a_request_runs_at_once() -> None:
    sent: list[str] = []
    after_response(lambda: sent.append("now"))
    assert sent == ["now"]


def test_a_views_send_waits_for_its_response_to_be_closed() -> None:
    sent: list[str] = []

    def view(request: Any) -> Any:
        after_response(lambda: sent.append("follow-up"))
        from django.http import HttpResponse

        return HttpResponse("answered")

    response = SendAfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert sent == [], "nothing is sent before the response is written"
    after_response(lambda: sent.append("between requests"))
    assert sent == ["between requests"], "between requests a send runs at once"
    response.close()  # the server wrote the last byte
    assert sent == ["between requests", "follow-up"]


def test_a_send_that_fails_is_logged_and_the_others_still_run(caplog: pytest.LogCaptureFixture) -> None:
    sent: list[str] = []

    def broken() -> None:
        raise ConnectionError("the broker is gone")

    def view(request: Any) -> Any:
        after_response(broken)
        after_response(lambda: sent.append("analysis"))
        from django.http import HttpResponse

        return HttpResponse("answered")

    response = SendAfterResponseMiddleware(view)(RequestFactory().get("/"))
    with caplog.at_level(logging.ERROR, logger="common.after_response"):
        response.close()
    assert sent == ["analysis"]
    assert "reconcile will enqueue it again" in caplog.text


def test_a_response_never_closed_sends_its_work_at_the_threads_next_request() -> None:
    sent: list[str] = []

    def view(request: Any) -> Any:
        after_response(lambda: sent.append(request.path))
        from django.http import HttpResponse

        return HttpResponse("answered")

    middleware = SendAfterResponseMiddleware(view)
    middleware(RequestFactory().get("/first/"))  # its response is dropped unclosed
    middleware(RequestFactory().get("/second/")).close()
    assert sent == ["/first/", "/second/"]


def test_eager_tasks_run_inside_the_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a broker (``make run``) the task runs in the request, as before: its answer shows the work done."""
    from config.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
    sent: list[str] = []

    def view(request: Any) -> Any:
        enqueue_after_response(lambda: sent.append("ran"))
        assert sent == ["ran"]
        from django.http import HttpResponse

        return HttpResponse("answered")

    SendAfterResponseMiddleware(view)(RequestFactory().get("/")).close()
    assert sent == ["ran"]


def wsgi_post(path: str, body: dict[str, Any], token: str) -> tuple[str, Any]:
    """POST through Django's WSGI handler as a server calls it: (status line, the unclosed response)."""
    data = json.dumps(body).encode()
    environ = RequestFactory()._base_environ(  # the test client's own WSGI environ
        PATH_INFO=path,
        REQUEST_METHOD="POST",
        CONTENT_TYPE="application/json",
        CONTENT_LENGTH=str(len(data)),
        HTTP_X_ENTRY_TOKEN=token,
        **{"wsgi.input": io.BytesIO(data)},
    )
    started: list[str] = []
    response = WSGIHandler()(environ, lambda status, headers, exc_info=None: started.append(status))
    return started[0], response


@pytest.mark.django_db(transaction=True)
def test_the_last_play_is_answered_before_its_followup_and_analysis_are_enqueued(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.ANALYSIS_AUTO = True
    use_broker(monkeypatch, f"redis://127.0.0.1:{refused_port()}/0")
    from games.tasks import analyse_match
    from tournaments.tasks import advance_division

    enqueued: list[tuple[str, int]] = []
    monkeypatch.setattr(advance_division, "delay", lambda division_id: enqueued.append(("follow-up", division_id)))
    monkeypatch.setattr(analyse_match, "delay", lambda match_id, plies: enqueued.append(("analysis", match_id)))

    director = Actor(user=get_user_model().objects.create_user(username="dora", password=None))
    division, semi, token, body = at_the_last_play(director)
    enqueued.clear()

    status, response = wsgi_post(f"/api/matches/{semi.match_id}/actions/", body, token)
    answer = json.loads(b"".join(response))
    assert status.startswith("201"), answer
    assert answer["state"]["status"] == "finished"
    assert Pairing.objects.get(pk=semi.pk).status == Pairing.Status.FINISHED, "the result is committed"
    assert MatchAnalysis.objects.get(match_id=semi.match_id).status == MatchAnalysis.Status.PENDING
    assert enqueued == [], "the answer is written before anything is handed to the broker"

    response.close()  # the server closes the response after its last byte
    assert sorted(enqueued) == [("analysis", semi.match_id), ("follow-up", division.pk)]
