"""A match log imported by an account does not attach to another club's real player because it names him: anyone
can write a .mat with any names, so an import through the API by anyone but staff makes players of its own for the
names it holds, and a player's page shows none of those fabricated matches."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games import services
from games.models import Match

pytestmark = pytest.mark.django_db

FABRICATED = (
    "\n 1 point match\n\n Game 1\n"
    " Per Foss : 0                   Ben : 0\n"
    "  1) 31: 8/5 6/5                 64: 24/18 18/14 \n"
)


def upload(user: Any) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(
        "/api/matches/import/", {"file": SimpleUploadedFile("a.mat", FABRICATED.encode())}, format="multipart"
    )


def test_an_import_by_an_account_does_not_attach_to_a_real_player_of_that_name(django_user_model: Any) -> None:
    per = services.create_player(display_name="Per Foss", club="Bergen BG")
    answer = upload(django_user_model.objects.create_user("mallory", password=None))
    assert answer.status_code == 201, answer.content
    imported = Match.objects.get(pk=answer.json()["id"])
    assert imported.player1_id != per.pk and imported.player1.display_name == "Per Foss"
    anon = APIClient()
    assert anon.get("/api/matches/", {"player": per.pk}).json()["count"] == 0, "nothing on his page"
    assert not per.matches_as_player1.exists(), "nor in his PR history once it is analysed"
    again = upload(django_user_model.objects.get(username="mallory"))
    assert Match.objects.get(pk=again.json()["id"]).player1_id not in (per.pk, imported.player1_id), "each apart"


def test_staff_imports_still_find_the_player_by_name(django_user_model: Any) -> None:
    per = services.create_player(display_name="Per Foss", club="Bergen BG")
    answer = upload(django_user_model.objects.create_user("sam", password=None, is_staff=True))
    assert Match.objects.get(pk=answer.json()["id"]).player1_id == per.pk
