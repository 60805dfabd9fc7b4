"""The site's own pages for a missing page, a refused request and a server error (DEBUG off): Django's bare
defaults ("Not Found", 980 px wide on a phone, no way back) were what a spectator or a player met."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, RequestFactory

from config import views

pytestmark = pytest.mark.django_db

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def test_a_missing_page_says_so_on_the_site_s_page_with_a_way_back(client: Client) -> None:
    response = client.get("/matches/999999/")
    page = response.content.decode()
    assert response.status_code == 404
    assert VIEWPORT in page and '<a class="brand" href="/">bgmatch</a>' in page
    assert "<h1>No such page</h1>" in page and "<code>/matches/999999/</code>" in page
    assert 'href="/events/">The events</a>' in page


def test_a_director_s_page_for_another_account_is_the_site_s_403(client: Client, django_user_model: Any) -> None:
    from django.core.exceptions import PermissionDenied
    from django.views import defaults

    request = RequestFactory().get("/manage/")
    request.user = django_user_model.objects.create_user("nadia", password="x")
    page = defaults.permission_denied(request, PermissionDenied()).content.decode()
    assert VIEWPORT in page and "<h1>Not for this account</h1>" in page


def test_a_request_for_another_host_and_a_server_error_are_the_site_s_pages() -> None:
    refused = Client().get("/matches/", HTTP_HOST="not..this.site")
    assert refused.status_code == 400 and "<h1>Request refused</h1>" in refused.content.decode()
    try:
        raise RuntimeError("a bug with a secret in it")
    except RuntimeError:
        error = views.server_error(RequestFactory().get("/matches/"))
    page = error.content.decode()
    assert error.status_code == 500 and VIEWPORT in page and "<h1>Something went wrong</h1>" in page
    assert "secret" not in page and "Traceback" not in page
