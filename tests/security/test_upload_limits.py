"""Upload limits: a .mat over 1 MiB, several files in one import, a player list over the row or size limit (through
the API and through the director's page), a JSON body or form over Django's DATA_UPLOAD_* limits, too many fields or
files. Each is refused with a 400 whose message says what was wrong, writes nothing, and is never a 500.

(The .mat import's basic refusals are in tests/games/api/test_files.py; the director's import form in
tests/web/director/test_players.py. This module adds the limits.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from common.actor import Actor
from games.access import new_entry_token, token_text
from games.models import Match
from tests.games.api.test_files import IMPORT_URL, SMALL_LOG, upload
from tests.security.conftest import snapshot
from tests.tournaments.api.support import division_url, token_client
from tournaments import services
from tournaments.director.forms import MAX_IMPORT_BYTES as PAGE_MAX_LIST_BYTES
from tournaments.models import Division, Pairing
from tournaments.services.players_list import MAX_IMPORT_ROWS

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
TOO_BIG_BODY = settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1


def api_client(user: Any) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def page_client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def registering(division_of: Callable[..., Division]) -> Division:
    return division_of("swiss", 2)


def refusal(response: Any, status: int, *words: str) -> dict[str, Any]:
    """The API's JSON refusal: its status, and each word in its message."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    text = json.dumps(body)
    for word in words:
        assert word in text, text
    return body


def page_refusal(response: Any, status: int, *words: str) -> str:
    assert response.status_code == status, response.content[:300]
    html = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    for word in words:
        assert word in html, html[:2000]
    return html


# -- .mat files ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [MIB + 1, 3 * MIB], ids=["in-memory", "streamed-to-disk"])
def test_a_mat_over_1_mib_is_refused(size: int, director: Any) -> None:
    client = api_client(director)
    before = snapshot()
    data = SMALL_LOG.encode() + b" " * (size - len(SMALL_LOG.encode()))
    body = refusal(upload(client, "big.mat", data), 400, "invalid_input", "at most 1 MiB")
    assert set(body["fields"]) == {"file"}
    assert snapshot() == before


@pytest.mark.parametrize(
    "where",
    [
        SMALL_LOG.replace("Ann", "A\x00nn"),  # a player's name: a 500 on PostgreSQL, stored on SQLite
        SMALL_LOG.replace("8/5 6/5", "8/5\x00 6/5"),  # a play
        SMALL_LOG.replace(" 1 point match", " 1 point match\x1b[2J"),  # the header: a terminal escape
        SMALL_LOG + "\x7f\n",
    ],
    ids=["name", "play", "header", "delete"],
)
def test_a_control_character_anywhere_in_a_mat_is_invalid_log(where: str, director: Any) -> None:
    client = api_client(director)
    before = snapshot()
    body = refusal(upload(client, "nul.mat", where.encode()), 400, "invalid_log", "control character U+00", "line ")
    assert "remove it" in body["message"]
    assert snapshot() == before


def test_a_control_character_in_a_player_name_is_refused_everywhere(director: Any, registering: Division) -> None:
    staff = api_client(type(director).objects.create_user("sam", password=None, is_staff=True))
    client, page = api_client(director), page_client(director)
    before = snapshot()
    for name, words in (("A\x00nn", ("Null characters are not allowed",)), ("A\x07nn", ("control character",))):
        refusal(staff.post("/api/players/", {"display_name": name}, format="json"), 400, *words)
        refusal(_api_import(client, registering, f"name\n{name}\n", "file"), 400)
        refusal(_api_import(client, registering, f"name\n{name}\n", "json"), 400, *words)
        refusal(client.post(division_url(registering, "entries/"), {"name": name}, format="json"), 400, *words)
        url = reverse("director:division", args=[registering.event.slug, registering.slug])
        page_refusal(page.post(url, {"action": "register", "register-name": name}), 400)
    assert snapshot() == before


@pytest.mark.parametrize("second", ["file", "other"])
def test_one_mat_per_import(second: str, director: Any) -> None:
    client = api_client(director)
    before = snapshot()
    files = {"file": SimpleUploadedFile("a.mat", SMALL_LOG.encode())}
    if second == "file":
        files = {"file": [files["file"], SimpleUploadedFile("b.mat", SMALL_LOG.encode())]}  # type: ignore[dict-item]
    else:
        files[second] = SimpleUploadedFile("b.mat", SMALL_LOG.encode())
    response = client.post(IMPORT_URL, files, format="multipart")
    refusal(response, 400, "send one .mat file per request")
    assert snapshot() == before


def test_more_files_than_django_reads_is_a_clear_400(director: Any, registering: Division) -> None:
    count = settings.DATA_UPLOAD_MAX_NUMBER_FILES + 1
    files = {f"file{i}": SimpleUploadedFile(f"{i}.mat", SMALL_LOG.encode()) for i in range(count)}
    api_user, page_user = api_client(director), page_client(director)
    before = snapshot()
    api = api_user.post(IMPORT_URL, files, format="multipart")
    refusal(api, 400, "too_many_files", f"at most {settings.DATA_UPLOAD_MAX_NUMBER_FILES}")
    page = page_user.post(
        reverse("director:division", args=[registering.event.slug, registering.slug]), {"action": "import", **files}
    )
    page_refusal(page, 400, "Too many files", f"at most {settings.DATA_UPLOAD_MAX_NUMBER_FILES}")
    assert snapshot() == before


# -- player lists ----------------------------------------------------------------------------------------------------


def _list(rows: int) -> str:
    return "name\n" + "".join(f"P{i:05d}\n" for i in range(rows))


def _api_import(client: APIClient, division: Division, text: str, how: str) -> Any:
    url = division_url(division, "entries/import/")
    if how == "json":
        return client.post(url, {"csv": text}, format="json")
    return client.post(url, {"file": SimpleUploadedFile("list.csv", text.encode())}, format="multipart")


def _page_import(client: Client, division: Division, text: str, how: str) -> Any:
    url = reverse("director:division", args=[division.event.slug, division.slug])
    if how == "paste":
        return client.post(url, {"action": "import", "import-text": text})
    return client.post(url, {"action": "import", "import-file": SimpleUploadedFile("list.csv", text.encode())})


@pytest.mark.parametrize("how", ["json", "file"])
def test_a_list_over_the_row_limit_through_the_api(how: str, director: Any, registering: Division) -> None:
    text = _list(MAX_IMPORT_ROWS + 1)
    assert len(text.encode()) < PAGE_MAX_LIST_BYTES  # the row limit, not the size limit, refuses it
    client = api_client(director)
    before = snapshot()
    response = _api_import(client, registering, text, how)
    refusal(response, 400, f"at most {MAX_IMPORT_ROWS} players", "nothing was registered")
    assert snapshot() == before
    assert _api_import(client, registering, _list(3), how).status_code == 201  # the limit is the limit


@pytest.mark.parametrize("how", ["json", "file"])
def test_a_list_over_256_kb_through_the_api(how: str, director: Any, registering: Division) -> None:
    text = "name\n" + "x" * (256 * 1024)
    client = api_client(director)
    before = snapshot()
    refusal(_api_import(client, registering, text, how), 400, "at most 256 KB")
    assert snapshot() == before


@pytest.mark.parametrize("how", ["paste", "file"])
def test_a_list_over_the_row_limit_on_the_page(how: str, director: Any, registering: Division) -> None:
    client = page_client(director)
    before = snapshot()
    response = _page_import(client, registering, _list(MAX_IMPORT_ROWS + 1), how)
    page_refusal(response, 400, f"at most {MAX_IMPORT_ROWS} players")
    assert snapshot() == before


@pytest.mark.parametrize("how", ["paste", "file"])
def test_a_list_over_256_kb_on_the_page(how: str, director: Any, registering: Division) -> None:
    client = page_client(director)
    before = snapshot()
    response = _page_import(client, registering, "name\n" + "x" * PAGE_MAX_LIST_BYTES, how)
    page_refusal(response, 400, "larger than 256 KB")
    assert snapshot() == before


# -- bodies over Django's limits -------------------------------------------------------------------------------------


def test_a_json_body_over_the_limit_is_a_400(director: Any, registering: Division, as_director: Actor) -> None:
    services.start_division(registering, actor=as_director)
    match_id = Pairing.objects.get(division=registering).match_id
    staff = type(director).objects.create_user("sam", password=None, is_staff=True)
    padding = "x" * TOO_BIG_BODY
    calls = [
        (api_client(staff), "/api/players/", {"display_name": padding}),
        (api_client(director), division_url(registering, "entries/import/"), {"csv": padding}),
        (token_client(match_id, 0), f"/api/matches/{match_id}/actions/", {"kind": "opening-roll", "pad": padding}),
    ]
    before = snapshot()
    for client, url, data in calls:
        response = client.post(url, data, format="json")
        body = refusal(response, 400, "request_too_large", "at most 2560 KB")
        assert "Send less at once" in body["message"], url
    assert snapshot() == before


def test_a_multipart_body_over_the_limits_is_refused(director: Any) -> None:
    client = api_client(director)
    before = snapshot()
    big_field = {"file": SimpleUploadedFile("a.mat", SMALL_LOG.encode()), "note": "x" * TOO_BIG_BODY}
    refusal(client.post(IMPORT_URL, big_field, format="multipart"), 400, "request_too_large")
    fields = {f"f{i}": "1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    many = client.post(IMPORT_URL, {**fields, "file": SimpleUploadedFile("a.mat", SMALL_LOG.encode())})
    refusal(many, 400, "too_many_fields", f"at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}")
    form = client.post("/api/events/", {"name": "x" * TOO_BIG_BODY}, format="multipart")
    refusal(form, 415, "unsupported_media_type")  # a form where JSON is read is refused before it is read
    assert snapshot() == before


def test_pages_answer_a_body_over_the_limits_with_a_page_that_says_so(
    director: Any, registering: Division, as_director: Actor
) -> None:
    division_page = reverse("director:division", args=[registering.event.slug, registering.slug])
    client = page_client(director)
    before = snapshot()
    big = client.post(division_page, {"action": "import", "import-text": "x" * TOO_BIG_BODY})
    html = page_refusal(big, 400, "Request too large", "at most 2560 KB")
    assert "Traceback" not in html
    urlencoded = client.post(
        division_page,
        f"action=import&import-text={'x' * TOO_BIG_BODY}",
        content_type="application/x-www-form-urlencoded",
    )
    page_refusal(urlencoded, 400, "Request too large")
    fields = {f"f{i}": "1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    page_refusal(client.post(division_page, fields), 400, "Too many fields")
    assert snapshot() == before
    services.start_division(registering, actor=as_director)
    match_id = Pairing.objects.get(division=registering).match_id
    phone = Client()
    phone.get(reverse("entry:exchange", args=[token_text(new_entry_token(Match.objects.get(pk=match_id), 0))]))
    before = snapshot()
    entry = phone.post(reverse("entry:match", args=[match_id]), {"kind": "roll", "play": "x" * TOO_BIG_BODY})
    page_refusal(entry, 400, "Request too large")
    assert snapshot() == before
