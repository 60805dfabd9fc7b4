"""Importing and exporting .mat match logs through the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from engine.formats.check import check_text
from games import services
from games.models import Action, Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import Table

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "mat"
IMPORT_URL = "/api/matches/import/"

#: A valid one-game log (written by the engine) whose second play is then made illegal.
SMALL_LOG = (
    "\n 1 point match\n\n Game 1\n"
    " Ann : 0                        Ben : 0\n"
    "  1) 31: 8/5 6/5                 64: 24/18 18/14 \n"
)


def corpus_file(name: str) -> Path:
    """A corpus file, checked against the corpus index; skips when the corpus is not there."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        pytest.skip(f"needs the .mat corpus (shared/corpus/mat) at {CORPUS}")
    listed = {line.split("\t", 1)[0] for line in manifest.read_text(encoding="utf-8").splitlines()[1:]}
    assert name in listed, f"{name} is not in the corpus index"
    return CORPUS / name


def upload(client: APIClient, name: str, data: bytes) -> Any:
    return client.post(IMPORT_URL, {"file": SimpleUploadedFile(name, data, "text/plain")}, format="multipart")


def counts() -> tuple[int, int, int]:
    return Match.objects.count(), Player.objects.count(), Action.objects.count()


def test_import_a_corpus_match_then_export_it_again(director: Any) -> None:
    path = corpus_file("kevung__gbf/test.mat")
    client = logged_in(director)
    response = upload(client, "test.mat", path.read_bytes())
    assert response.status_code == 201, response.json()
    summary = response.json()
    assert (summary["player1"]["display_name"], summary["player2"]["display_name"]) == ("Kévin Unger", "Maxence Job")
    assert (summary["length"], summary["status"], summary["score"], summary["source"]) == (
        7,
        "finished",
        [7, 4],
        "test.mat",
    )
    match = Match.objects.get(pk=summary["id"])
    assert match.created_by == director and Action.objects.filter(match=match).count() == summary["seq"] > 600
    assert len(client.get(f"/api/matches/{match.pk}/games/").json()["results"]) == 7

    exported = client.get(f"/api/matches/{match.pk}/export.mat")
    report, _, _ = check_text(exported.content, shown_as="again.mat")
    original, _, _ = check_text(path.read_bytes(), shown_as="test.mat")
    assert report["ok"] and (report["score"], report["games"]) == (original["score"], original["games"]), report


def test_an_invalid_log_is_refused_with_its_first_fault_and_nothing_is_stored(director: Any) -> None:
    client = logged_in(director)
    before = counts()
    response = upload(client, "bad.mat", SMALL_LOG.replace("24/18 18/14", "24/18 18/13").encode())
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_log" and body["error"]["game"] == 1 and body["error"]["move"] == 1
    assert body["message"] == body["error"]["message"]
    unreadable = upload(client, "junk.mat", b"this is not a match log")
    assert unreadable.status_code == 400 and unreadable.json()["code"] == "invalid_log"
    assert unreadable.json()["error"]["game"] is None and "cannot read" in unreadable.json()["message"]
    assert counts() == before
    assert upload(client, "ok.mat", SMALL_LOG.encode()).status_code == 201


def test_import_limits(director: Any, anon: APIClient) -> None:
    client = logged_in(director)
    big = upload(client, "big.mat", SMALL_LOG.encode() + b" " * (1024 * 1024))
    assert big.status_code == 400 and set(big.json()["fields"]) == {"file"}
    two = client.post(
        IMPORT_URL,
        {"file": [SimpleUploadedFile("a.mat", SMALL_LOG.encode()), SimpleUploadedFile("b.mat", SMALL_LOG.encode())]},
        format="multipart",
    )
    assert two.status_code == 400 and set(two.json()["fields"]) == {"file"}
    none = client.post(IMPORT_URL, {}, format="multipart")
    assert none.status_code == 400 and set(none.json()["fields"]) == {"file"}
    assert upload(anon, "ok.mat", SMALL_LOG.encode()).status_code == 401
    assert Match.objects.count() == 0


def test_import_a_match_won_with_points_to_spare(director: Any) -> None:
    path = corpus_file("kevung__gnubgparser/charlot1-charlot2_7p_2025-11-08-2305.mat")
    response = upload(logged_in(director), path.name, path.read_bytes())
    assert response.status_code == 201, response.json()


def test_acey_deucey_cannot_be_exported(players: tuple[Player, Player], anon: APIClient) -> None:
    match = services.start_match(player1=players[0], player2=players[1], length=3, variant="acey-deucey")
    response = anon.get(f"/api/matches/{match.pk}/export.mat")
    assert response.status_code == 409 and response.json()["code"] == "conflict"
    assert "Acey-Deucey" in response.json()["message"]


def test_a_match_in_progress_exports_up_to_its_last_complete_turn(match: Match, anon: APIClient) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    t.do(0, "play", side=0, play="8/5 6/5")
    t.do(1, "roll", side=1, dice=[6, 4])  # rolled, not played yet
    exported = anon.get(f"/api/matches/{match.pk}/export.mat")
    assert exported.status_code == 200
    report, note, _ = check_text(exported.content, shown_as="live.mat")
    assert report["ok"] and report["winner"] is None and "unfinished" in (note or ""), report
