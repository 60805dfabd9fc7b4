"""A table to play a match through the API: it posts actions and follows the match's sequence number."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from games.access import new_entry_token, token_text
from games.models import Match


def token_client(match: Match, side: int) -> APIClient:
    """A client holding a fresh entry link for ``side`` of ``match`` (sent as X-Entry-Token)."""
    client = APIClient()
    client.credentials(HTTP_X_ENTRY_TOKEN=token_text(new_entry_token(match, side)))
    return client


def actions_url(match_id: int) -> str:
    return f"/api/matches/{match_id}/actions/"


class Table:
    """Both players of a match, each with their own entry link; ``seq`` follows the answers."""

    def __init__(self, match: Match) -> None:
        self.match_id = match.pk
        self.sides = (token_client(match, 0), token_client(match, 1))
        self.seq = match.seq

    def post(self, who: int, kind: str, /, **fields: Any) -> Any:
        """Post ``kind`` with the entry link of side ``who`` (``fields`` may name a side of their own)."""
        body = {"kind": kind, "expected_seq": self.seq, **fields}
        return self.sides[who].post(actions_url(self.match_id), body, format="json")

    def do(self, who: int, kind: str, /, **fields: Any) -> dict[str, Any]:
        """Post an action that must be recorded; returns the answer's state."""
        response = self.post(who, kind, **fields)
        assert response.status_code == 201, response.json()
        answer = response.json()
        assert answer["action"]["seq"] == self.seq + 1
        self.seq = answer["state"]["seq"]
        return answer["state"]
