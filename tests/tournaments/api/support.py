"""Helpers of the tournaments API tests: URLs, entry-link clients, and results entered as players enter them."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from common.actor import Actor
from games import services as games
from games.access import new_entry_token, token_text
from games.models import EntryToken, Match
from tournaments import services
from tournaments.models import Division, Pairing


def division_url(division: Division, tail: str = "") -> str:
    return f"/api/events/{division.event.slug}/divisions/{division.slug}/{tail}"


def link_client(token: EntryToken) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_ENTRY_TOKEN=token_text(token))
    return client


def token_client(match: Match | int, side: int) -> APIClient:
    """A client holding a fresh entry link for ``side`` of the match."""
    match = match if isinstance(match, Match) else Match.objects.get(pk=match)
    return link_client(new_entry_token(match, side))


def enter_result(pairing: Pairing, *, winner: int = 0, by: int | None = None) -> Pairing:
    """The player of side ``by`` (default: the winner) enters single games won by side ``winner`` from the
    scoresheet until the match is over; the division is then synced, so the pairing awaits the other side."""
    by = winner if by is None else by
    match = Match.objects.get(pk=pairing.match_id)
    link = Actor(token=new_entry_token(match, by))
    seq = match.seq
    while True:
        recorded = games.record_game_result(match.pk, actor=link, winner=winner, kind=1, expected_seq=seq)
        seq = recorded.match.seq
        if recorded.state.is_over:
            break
    services.sync_division(pairing.division_id)
    return Pairing.objects.get(pk=pairing.pk)


def play_round(division: Division, number: int, *, winner: int = 0) -> None:
    """Every match of round ``number``: side ``winner`` wins, enters it, the opponent confirms; then the division is
    synced as the follow-up task does after the commit (the tests' transaction never commits)."""
    ready = (Pairing.Status.READY, Pairing.Status.PLAYING)
    for pairing in Pairing.objects.filter(division=division, round__number=number, status__in=ready).order_by("id"):
        pairing = enter_result(pairing, winner=winner)
        if pairing.confirmation == Pairing.Confirmation.AWAITING:
            match = Match.objects.get(pk=pairing.match_id)
            services.confirm_result(pairing, actor=Actor(token=new_entry_token(match, 1 - winner)))
    services.sync_division(division.pk)  # what the follow-up task does after the commit


def body(response: Any) -> Any:
    return response.json()
