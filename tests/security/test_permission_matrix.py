"""The permission matrix: every write endpoint of the API, every director page (GET and each form it accepts) and
every player entry page, tried by each kind of caller. A refusal must answer the expected status and write nothing.

Callers (the columns):

======  =========================================================================================================
anon    nobody: no session, no entry link
spec    a logged-in user with no rights (a spectator's account)
own     the entry link of the side the request acts for (API: ``X-Entry-Token``; pages: opened, kept in the session)
other   the entry link of the other side of the same match
elsew   an entry link of another match of the same round
revok   a revoked entry link of the side the request acts for
odir    the director of another event
dir     a director of this event
staff   a staff user
======  =========================================================================================================

Outcomes: a status code, or ``LOGIN`` (a redirect to the login page). A 2xx or 3xx that is not ``LOGIN`` is the
request accepted, and it must have written something (GETs aside); a 409 for a director means the permission check
passed and the state refused (a round not complete). An entry link that tries to create an event is told to log in
(401): it is no account. Every refusal (4xx, ``LOGIN``) must leave every row of the games, tournaments and auth
tables as it was (:func:`~tests.security.conftest.snapshot`).

Each cell runs in a savepoint that is rolled back afterwards, so all cells start from the same state.

The rows are checked against the URL resolver: an API route with a write method (POST, PUT, PATCH, DELETE), a
director page, a form a director page accepts or an entry route without a row here fails
:func:`test_the_matrix_has_a_row_for_every_endpoint`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from tests.games.api.test_files import SMALL_LOG
from tests.security.conftest import World, changed_tables, snapshot
from tournaments.director.views.divisions import DIVISION_ACTIONS
from tournaments.director.views.events import EVENT_ACTIONS, HOME_ACTIONS
from tournaments.director.views.matches import MATCH_ACTIONS
from tournaments.director.views.playoffs import PLAYOFF_MATCH_ACTIONS
from tournaments.models import Entry, Playoff

pytestmark = pytest.mark.django_db

ACTORS = ("anon", "spec", "own", "other", "elsew", "revok", "odir", "dir", "staff")
LINK_ACTORS = ("own", "other", "elsew", "revok")
USERS = {"spec": "spectator", "odir": "other_director", "dir": "director", "staff": "staff"}
LOGIN = "login"
WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")

# -- the matrix ------------------------------------------------------------------------------------------------------
#
# API: an entry link is the request's credential; anonymous callers get 401, a link that may not do it 403.

#                                                  anon spec own  other elsew revok odir dir  staff
API_MATRIX: dict[tuple[str, str], tuple[int, ...]] = {
    ("games_api:player-list", "POST"):              (401, 403, 403, 403, 403, 403, 403, 403, 201),
    ("games_api:match-list", "POST"):               (401, 201, 403, 403, 403, 403, 201, 201, 201),
    ("games_api:match-import", "POST"):             (401, 201, 403, 403, 403, 403, 201, 201, 201),
    ("games_api:match-actions", "POST"):            (401, 403, 201, 403, 403, 403, 403, 201, 201),
    ("games_api:match-undo", "POST"):               (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:match-reopen", "POST"):             (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:match-forfeit", "POST"):            (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:match-void", "POST"):               (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:match-finish", "POST"):             (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:match-replace-result", "POST"):     (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:match-analysis", "POST"):           (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("games_api:entry-links", "GET"):               (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("games_api:match-export", "GET"):              (200, 200, 200, 200, 200, 403, 200, 200, 200),
    ("games_api:match-export-sgf", "GET"):          (200, 200, 200, 200, 200, 403, 200, 200, 200),
    ("games_api:entry-links", "POST"):              (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("games_api:entry-link-revoke", "POST"):        (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-list", "POST"):         (401, 201, 401, 401, 401, 403, 201, 201, 201),
    ("tournaments_api:event-directors", "POST"):    (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-queue", "GET"):         (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-tables", "GET"):        (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-tables", "POST"):       (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-table-hold", "POST"):   (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-table-release", "POST"): (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("tournaments_api:pairing-table", "POST"):      (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-create", "POST"):    (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("tournaments_api:entry-list", "POST"):         (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("tournaments_api:entry-import", "POST"):       (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("tournaments_api:entry-check-in", "POST"):     (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:entry-seed", "POST"):         (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:entry-player", "POST"):       (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:entry-withdraw", "POST"):     (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:entry-payment", "POST"):      (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-money", "POST"):     (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-start", "POST"):     (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-pair-next-round", "POST"): (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("tournaments_api:division-close-lc", "POST"):  (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("tournaments_api:swiss-rounds", "POST"):       (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:swiss-end", "POST"):          (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:swiss-unpair", "POST"):       (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("tournaments_api:swiss-repair", "POST"):       (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("tournaments_api:division-swap", "POST"):      (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-recompute", "POST"): (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-playoffs", "POST"):  (401, 403, 403, 403, 403, 403, 403, 409, 409),
    ("tournaments_api:division-playoff", "DELETE"): (401, 403, 403, 403, 403, 403, 403, 404, 404),
    ("tournaments_api:division-payouts", "GET"):    (403, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-payouts", "POST"):   (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:pairing-confirm", "POST"):    (401, 403, 200, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:division-playoff-confirm", "POST"): (401, 403, 200, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:pairing-dispute", "POST"):    (401, 403, 200, 403, 403, 403, 403, 403, 403),
    ("tournaments_api:pairing-forfeit", "POST"):    (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:pairing-penalty", "POST"):    (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:event-master-points", "POST"): (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:club-list", "POST"):          (401, 201, 401, 401, 401, 403, 201, 201, 201),
    ("tournaments_api:club-directors", "POST"):     (401, 403, 403, 403, 403, 403, 403, 204, 204),
    ("tournaments_api:club-roster", "POST"):        (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("tournaments_api:club-seasons", "POST"):       (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("tournaments_api:season-table", "PATCH"):      (401, 403, 403, 403, 403, 403, 403, 200, 200),
    ("tournaments_api:club-merges", "POST"):        (401, 403, 403, 403, 403, 403, 403, 201, 201),
    ("tournaments_api:club-merge-undo", "POST"):    (401, 403, 403, 403, 403, 403, 403, 200, 200),
}  # fmt: skip

# Director pages: login first (an entry link kept in the session is no login); another event is a 403 page (it is
# public); a form accepted redirects back (302), a form the state refuses shows the page again with its status.

#                                                  anon   spec  own    other  elsew  revok  odir  dir  staff
PAGE_MATRIX: dict[tuple[str, str], tuple[int | str, ...]] = {
    ("director:home", "GET"):                       (LOGIN, 200, LOGIN, LOGIN, LOGIN, LOGIN, 200, 200, 200),
    ("director:home", "POST create-event"):         (LOGIN, 302, LOGIN, LOGIN, LOGIN, LOGIN, 302, 302, 302),
    ("director:home", "POST create-club"):          (LOGIN, 302, LOGIN, LOGIN, LOGIN, LOGIN, 302, 302, 302),
    ("director:event", "GET"):                      (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:event", "POST close-event"):         (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:event", "POST create-division"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST add-director"):        (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST remove-director"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST confirm"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST confirm-playoff"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST set-tables"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST hold-table"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event", "POST release-table"):       (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:event", "POST seat-match"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:event-venue-live", "GET"):           (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:event-venue-live", "POST"):          (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:event-results-live", "GET"):         (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:event-results-live", "POST"):        (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:division", "GET"):                   (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:division", "POST register"):         (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST import"):           (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST check-in"):         (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST check-in-all"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST withdraw"):         (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST seed"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST correct"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST start"):            (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST pair-next"):        (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:division", "POST order-playoff"):    (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:division", "POST cancel-playoff"):   (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 404, 404),
    ("director:division", "POST confirm-playoff"):  (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST close-last-chance"): (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:division", "POST swiss-rounds"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST end-swiss"):        (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST unpair"):           (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:division", "POST repair"):           (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:division", "POST swap"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST forfeit"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST payouts"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST money"):            (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:division", "POST pay"):              (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "GET"):                      (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:match", "POST confirm"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST forfeit"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST penalty"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST replace-result"):      (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST reopen"):              (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST undo"):                (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST new-link"):            (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:match", "POST make-match"):          (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:match", "POST analyse"):             (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:playoff-match", "GET"):              (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:playoff-match", "POST confirm"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:playoff-match", "POST forfeit"):     (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 409, 409),
    ("director:playoff-match", "POST new-link"):    (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:playoff-match", "POST replace-result"): (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:playoff-match", "POST reopen"):      (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:playoff-match", "POST undo"):        (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 302, 302),
    ("director:slips", "GET"):                      (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:playoff-slips", "GET"):              (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:playoff-slips", "POST"):             (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:slips", "POST"):                     (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:sheet", "GET"):                      (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:sheet", "POST"):                     (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:scorecards", "GET"):                 (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:scorecards", "POST"):                (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:final-standings", "GET"):            (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:final-standings", "POST"):           (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:payouts-csv", "GET"):                (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:payouts-csv", "POST"):               (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    ("director:cash-sheet", "GET"):                 (LOGIN, 403, LOGIN, LOGIN, LOGIN, LOGIN, 403, 200, 200),
    ("director:cash-sheet", "POST"):                (LOGIN, 405, LOGIN, LOGIN, LOGIN, LOGIN, 405, 405, 405),
    # Entry pages: for whoever holds a side of the match (a link opened in this browser, or a player's account);
    # the match's directors and staff enter for either side without a link. /play/<token>/ opens the caller's link
    # (a forged one for callers without a link); a refused link is redirected (303) to /play/refused/, a 403 page
    # that says why without the link in the address.
    ("entry:exchange", "GET"):                      (303, 303, 302, 302, 302, 303, 303, 303, 303),
    ("entry:refused", "GET"):                       (403, 403, 403, 403, 403, 403, 403, 403, 403),
    ("entry:match", "GET"):                         (403, 403, 200, 200, 403, 403, 403, 200, 200),
    ("entry:match", "POST roll"):                   (403, 403, 303, 403, 403, 403, 403, 303, 303),
    ("entry:live", "GET"):                          (403, 403, 200, 200, 403, 403, 403, 200, 200),
    ("pairing_entry:next", "GET"):                  (403, 403, 200, 200, 200, 403, 403, 403, 403),
    # "Enter this match" on "Your next match": only the phone holding the player's earlier link takes the next
    # match's link (own: the earlier match's link of that player; other: his opponent's, who does not play it).
    ("pairing_entry:enter", "POST"):                (403, 403, 303, 403, 403, 403, 403, 403, 403),
    ("pairing_entry:confirm", "POST"):              (403, 403, 303, 403, 403, 403, 403, 303, 303),
    ("pairing_entry:dispute", "POST"):              (403, 403, 303, 403, 403, 403, 403, 403, 403),
    # A playoff match's "Enter this match": the phone holding a round's link of one of its players (own) takes his
    # side's link; his opponent in that round (other), who is not in the playoff, is refused.
    ("pairing_entry:playoff-enter", "POST"):        (403, 403, 303, 403, 403, 403, 403, 403, 403),
    ("pairing_entry:playoff-confirm", "POST"):      (403, 403, 303, 403, 403, 403, 403, 303, 303),
    ("pairing_entry:playoff-dispute", "POST"):      (403, 403, 303, 403, 403, 403, 403, 403, 403),
}  # fmt: skip

# -- how each row is requested ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A request: ``match`` and ``side`` choose the entry links (own = that side's, other = the other side's);
    ``url`` and ``data`` are built from the scenario."""

    match: str
    url: Callable[[World], str]
    data: Callable[[World], dict[str, Any]] = lambda w: {}
    side: int = 0
    multipart: bool = False


def _api_match(name: str, key: str) -> Callable[[World], str]:
    return lambda w: reverse(f"games_api:{name}", args=[w.matches[key].pk])


def _division_api(name: str, division: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments_api:{name}", args=[w.event.slug, getattr(w, division).slug])


def _entry_api(name: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments_api:{name}", args=[w.event.slug, w.reg.slug, _reg_entry(w).pk])


def _pairing_api(name: str, key: str) -> Callable[[World], str]:
    return lambda w: reverse(f"tournaments_api:{name}", args=[w.pairings[key].pk])


def _playoff_confirm_api(w: World) -> str:
    assert w.playoffs is not None
    playoff = Playoff.objects.get(division=w.playoffs)
    args = [w.event.slug, w.playoffs.slug, playoff.pk, w.matches["playoff"].pk]
    return reverse("tournaments_api:division-playoff-confirm", args=args)


def _reg_entry(w: World) -> Entry:
    return Entry.objects.filter(division=w.reg).order_by("pk").first()  # type: ignore[return-value]


def _player_of(w: World, key: str) -> int:
    return w.pairings[key].entry_a_id  # type: ignore[return-value]


def _correction(key: str, **extra: Any) -> Callable[[World], dict[str, Any]]:
    return lambda w: {"reason": "a correction", "expected_seq": w.seq(key), **extra}


API_CALLS: dict[tuple[str, str], Call] = {
    ("games_api:player-list", "POST"): Call("live", lambda w: "/api/players/", lambda w: {"display_name": "Newcomer"}),
    ("games_api:match-list", "POST"): Call(
        "live",
        lambda w: "/api/matches/",
        lambda w: {"player1": w.match("money").player1_id, "player2": w.match("money").player2_id, "length": 3},
    ),
    ("games_api:match-import", "POST"): Call(
        "live",
        lambda w: "/api/matches/import/",
        lambda w: {"file": SimpleUploadedFile("small.mat", SMALL_LOG.encode(), "text/plain")},
        multipart=True,
    ),
    ("games_api:match-actions", "POST"): Call(
        "live",
        _api_match("match-actions", "live"),
        lambda w: {"kind": "roll", "side": 1, "dice": [6, 4], "expected_seq": w.seq("live")},
        side=1,
    ),
    ("games_api:match-undo", "POST"): Call("live", _api_match("match-undo", "live"), _correction("live")),
    ("games_api:match-reopen", "POST"): Call("sheet", _api_match("match-reopen", "sheet"), _correction("sheet")),
    ("games_api:match-forfeit", "POST"): Call(
        "fresh", _api_match("match-forfeit", "fresh"), _correction("fresh", loser_side=0)
    ),
    ("games_api:match-void", "POST"): Call("live", _api_match("match-void", "live"), _correction("live")),
    ("games_api:match-finish", "POST"): Call("money", _api_match("match-finish", "money"), _correction("money")),
    ("games_api:match-replace-result", "POST"): Call(
        "sheet",
        _api_match("match-replace-result", "sheet"),
        _correction("sheet", game=1, winner=1, result="single"),
    ),
    # A scoresheet match: a director may ask, and is told that only move-by-move matches can be analysed (a 202
    # would run GNU Backgammon; tests/games/analysis covers the accepted request).
    ("games_api:match-analysis", "POST"): Call("sheet", _api_match("match-analysis", "sheet")),
    ("games_api:entry-links", "GET"): Call("live", _api_match("entry-links", "live")),
    ("games_api:match-export", "GET"): Call("live", _api_match("match-export", "live")),
    ("games_api:match-export-sgf", "GET"): Call("live", _api_match("match-export-sgf", "live")),
    ("games_api:entry-links", "POST"): Call("live", _api_match("entry-links", "live"), lambda w: {"side": 1}),
    ("games_api:entry-link-revoke", "POST"): Call(
        "live",
        lambda w: reverse("games_api:entry-link-revoke", args=[w.matches["live"].pk, w.spare_link.pk]),  # type: ignore[union-attr]
    ),
    ("tournaments_api:event-list", "POST"): Call("live", lambda w: "/api/events/", lambda w: {"name": "New night"}),
    ("tournaments_api:event-directors", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:event-directors", args=[w.event.slug]),
        lambda w: {"username": "stan"},
    ),
    ("tournaments_api:event-queue", "GET"): Call(
        "sheet", lambda w: reverse("tournaments_api:event-queue", args=[w.event.slug])
    ),
    ("tournaments_api:event-tables", "GET"): Call(
        "live", lambda w: reverse("tournaments_api:event-tables", args=[w.event.slug])
    ),
    ("tournaments_api:event-tables", "POST"): Call(
        "live", lambda w: reverse("tournaments_api:event-tables", args=[w.event.slug]), lambda w: {"count": 6}
    ),
    # Table 1 holds a match of the scenario, not held back: it can be held, not released.
    ("tournaments_api:event-table-hold", "POST"): Call(
        "live", lambda w: reverse("tournaments_api:event-table-hold", args=[w.event.slug, 1])
    ),
    ("tournaments_api:event-table-release", "POST"): Call(
        "live", lambda w: reverse("tournaments_api:event-table-release", args=[w.event.slug, 1])
    ),
    ("tournaments_api:pairing-table", "POST"): Call(
        "fresh", _pairing_api("pairing-table", "fresh"), lambda w: {"table": 9}
    ),
    ("tournaments_api:division-create", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:division-create", args=[w.event.slug]),
        lambda w: {"name": "Side event", "format": "single"},
    ),
    ("tournaments_api:entry-list", "POST"): Call(
        "live", _division_api("entry-list", "reg"), lambda w: {"name": "Newcomer"}
    ),
    ("tournaments_api:entry-import", "POST"): Call(
        "live", _division_api("entry-import", "reg"), lambda w: {"csv": "name\nNewcomer\nLatecomer\n"}
    ),
    ("tournaments_api:entry-check-in", "POST"): Call("live", _entry_api("entry-check-in")),
    ("tournaments_api:entry-seed", "POST"): Call("live", _entry_api("entry-seed"), lambda w: {"seed": 1}),
    ("tournaments_api:entry-player", "POST"): Call("live", _entry_api("entry-player"), lambda w: {"country": "NO"}),
    ("tournaments_api:entry-withdraw", "POST"): Call("live", _entry_api("entry-withdraw"), lambda w: {"reason": "ill"}),
    ("tournaments_api:entry-payment", "POST"): Call("live", _entry_api("entry-payment"), lambda w: {"fee": "cash"}),
    ("tournaments_api:division-money", "POST"): Call(
        "live", _division_api("division-money", "reg"), lambda w: {"entry_fee": 5, "house_share": 10}
    ),
    ("tournaments_api:division-start", "POST"): Call("live", _division_api("division-start", "reg")),
    ("tournaments_api:division-pair-next-round", "POST"): Call(
        "live", _division_api("division-pair-next-round", "moves")
    ),
    ("tournaments_api:division-close-lc", "POST"): Call("live", _division_api("division-close-lc", "moves")),
    # The moves Swiss has its round 1 under way: its rounds can change and it can end (after that round), but
    # that round cannot be taken back or paired again.
    ("tournaments_api:swiss-rounds", "POST"): Call(
        "live", _division_api("swiss-rounds", "moves"), lambda w: {"rounds": 4}
    ),
    ("tournaments_api:swiss-end", "POST"): Call("live", _division_api("swiss-end", "moves")),
    ("tournaments_api:swiss-unpair", "POST"): Call("live", _division_api("swiss-unpair", "moves")),
    ("tournaments_api:swiss-repair", "POST"): Call("live", _division_api("swiss-repair", "moves")),
    ("tournaments_api:division-swap", "POST"): Call(
        "fresh",
        _division_api("division-swap", "moves"),
        lambda w: {"first": _player_of(w, "fresh"), "second": _player_of(w, "other"), "reason": "same club"},
    ),
    ("tournaments_api:division-recompute", "POST"): Call("live", _division_api("division-recompute", "moves")),
    # The moves Swiss is under way: no tie to settle yet (409); no playoff of that number (404).
    ("tournaments_api:division-playoffs", "POST"): Call(
        "live", _division_api("division-playoffs", "moves"), lambda w: {"entries": [1, 2], "length": 1}
    ),
    ("tournaments_api:division-playoff", "DELETE"): Call(
        "live",
        lambda w: reverse("tournaments_api:division-playoff", args=[w.event.slug, w.moves.slug, 999_999]),
    ),
    # The moves Swiss has no published payout table: only its directors read it.
    ("tournaments_api:division-payouts", "GET"): Call("live", _division_api("division-payouts", "moves")),
    ("tournaments_api:division-payouts", "POST"): Call(
        "live",
        _division_api("division-payouts", "moves"),
        lambda w: {"mode": "amount", "ties": "split", "flights": {"main": [30, 20]}},
    ),
    ("tournaments_api:pairing-confirm", "POST"): Call("sheet", _pairing_api("pairing-confirm", "sheet"), side=1),
    ("tournaments_api:division-playoff-confirm", "POST"): Call("playoff", _playoff_confirm_api, side=1),
    ("tournaments_api:pairing-dispute", "POST"): Call(
        "sheet", _pairing_api("pairing-dispute", "sheet"), lambda w: {"reason": "I won"}, side=1
    ),
    ("tournaments_api:pairing-forfeit", "POST"): Call(
        "fresh",
        _pairing_api("pairing-forfeit", "fresh"),
        lambda w: {"loser": _player_of(w, "fresh"), "kind": "no-show", "reason": "late"},
    ),
    ("tournaments_api:pairing-penalty", "POST"): Call(
        "fresh",
        _pairing_api("pairing-penalty", "fresh"),
        lambda w: {"against": _player_of(w, "fresh"), "points": 1, "reason": "slow play"},
    ),
    ("tournaments_api:event-master-points", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:event-master-points", args=[w.event.slug]),
        lambda w: {"event_weight": 0.5},
    ),
    ("tournaments_api:club-list", "POST"): Call("live", lambda w: "/api/clubs/", lambda w: {"name": "New club"}),
    ("tournaments_api:club-directors", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:club-directors", args=[w.club.slug]),  # type: ignore[union-attr]
        lambda w: {"username": "stan"},
    ),
    ("tournaments_api:club-roster", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:club-roster", args=[w.club.slug]),  # type: ignore[union-attr]
        lambda w: {"name": "Newcomer"},
    ),
    ("tournaments_api:club-seasons", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:club-seasons", args=[w.club.slug]),  # type: ignore[union-attr]
        lambda w: {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-12-31"},
    ),
    ("tournaments_api:season-table", "PATCH"): Call(
        "live",
        lambda w: reverse("tournaments_api:season-table", args=[w.club.slug, "spring"]),  # type: ignore[union-attr]
        lambda w: {"qualify": 4},
    ),
    ("tournaments_api:club-merges", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:club-merges", args=[w.club.slug]),  # type: ignore[union-attr]
        lambda w: {"keep": w.roster[0].pk, "fold": w.roster[1].pk},
    ),
    ("tournaments_api:club-merge-undo", "POST"): Call(
        "live",
        lambda w: reverse("tournaments_api:club-merge-undo", args=[w.club.slug, w.merge.pk]),  # type: ignore[union-attr]
    ),
}


def _page(name: str, division: str = "", key: str = "") -> Callable[[World], str]:
    def url(w: World) -> str:
        if name == "home":
            return reverse("director:home")
        if name in ("event", "event-venue-live", "event-results-live", "cash-sheet"):
            return reverse(f"director:{name}", args=[w.event.slug])
        found = getattr(w, division)
        if name == "match":
            return reverse("director:match", args=[w.event.slug, found.slug, w.pairings[key].key])
        if name in ("playoff-match", "playoff-slips"):
            return reverse(f"director:{name}", args=[w.event.slug, found.slug, w.matches["playoff"].pk])
        if name in ("sheet", "slips", "scorecards"):
            return reverse(f"director:{name}", args=[w.event.slug, found.slug, "swiss", 1])
        return reverse(f"director:{name}", args=[w.event.slug, found.slug])

    return url


def _form(action: str, target: Callable[[World], Any] | None = None, **fields: Any) -> Callable[[World], dict]:
    """A director page's form: ``action``, its ``target`` and its fields under the form's prefix."""

    def data(w: World) -> dict[str, Any]:
        key = "" if target is None else str(target(w))
        prefix = f"{action}-{key}" if key else action
        values = {name: value(w) if callable(value) else value for name, value in fields.items()}
        out = {f"{prefix}-{name}": value for name, value in values.items()}
        return {"action": action, **({"target": key} if key else {}), **out}

    return data


def _seq(key: str) -> Callable[[World], int]:
    return lambda w: w.seq(key)


_DIVISION_FORM = {
    "name": "Side event", "format": "single", "match_length": "5", "variant": "standard", "entry_mode": "moves",
    "seeding": "rating", "rounds_planned": "0", "last_chance_places": "0",
}  # fmt: skip

PAGE_CALLS: dict[tuple[str, str], Call] = {
    ("director:home", "GET"): Call("live", _page("home")),
    ("director:home", "POST create-event"): Call(
        "live", _page("home"), _form("create-event", name="New night", time_zone="UTC", public="on")
    ),
    ("director:home", "POST create-club"): Call(
        "live", _page("home"), _form("create-club", name="New club", public="on")
    ),
    ("director:event", "GET"): Call("live", _page("event")),
    ("director:event", "POST close-event"): Call("live", _page("event"), _form("close-event")),
    ("director:event", "POST create-division"): Call(
        "live", _page("event"), _form("create-division", **_DIVISION_FORM)
    ),
    ("director:event", "POST add-director"): Call("live", _page("event"), _form("add-director", username="stan")),
    ("director:event", "POST remove-director"): Call(
        "live", _page("event"), _form("remove-director", lambda w: w.users["co_director"].pk)
    ),
    ("director:event", "POST confirm"): Call(
        "sheet", _page("event"), _form("confirm", lambda w: w.pairings["sheet"].pk)
    ),
    ("director:event", "POST confirm-playoff"): Call(
        "playoff", _page("event"), _form("confirm-playoff", lambda w: w.matches["playoff"].pk), side=1
    ),
    ("director:event", "POST set-tables"): Call("live", _page("event"), _form("set-tables", tables="6")),
    ("director:event", "POST hold-table"): Call("live", _page("event"), _form("hold-table", lambda w: 1)),
    ("director:event", "POST release-table"): Call("live", _page("event"), _form("release-table", lambda w: 1)),
    ("director:event", "POST seat-match"): Call(
        "live", _page("event"), _form("seat-match", lambda w: w.pairings["fresh"].pk, table=9)
    ),
    ("director:event-venue-live", "GET"): Call("live", _page("event-venue-live")),
    ("director:event-venue-live", "POST"): Call("live", _page("event-venue-live")),
    ("director:event-results-live", "GET"): Call("live", _page("event-results-live")),
    ("director:event-results-live", "POST"): Call("live", _page("event-results-live")),
    ("director:division", "GET"): Call("live", _page("division", "moves")),
    ("director:division", "POST register"): Call("live", _page("division", "reg"), _form("register", name="Newcomer")),
    ("director:division", "POST import"): Call(
        "live", _page("division", "reg"), _form("import", text="name\nNewcomer\nLatecomer\n")
    ),
    ("director:division", "POST check-in"): Call(
        "live", _page("division", "reg"), _form("check-in", lambda w: _reg_entry(w).pk, present="1")
    ),
    ("director:division", "POST check-in-all"): Call(
        "live", _page("division", "reg"), _form("check-in-all", entries=lambda w: [_reg_entry(w).pk])
    ),
    ("director:division", "POST withdraw"): Call(
        "live", _page("division", "reg"), _form("withdraw", lambda w: _reg_entry(w).pk, reason="ill")
    ),
    ("director:division", "POST seed"): Call(
        "live", _page("division", "reg"), _form("seed", lambda w: _reg_entry(w).pk, seed="1")
    ),
    ("director:division", "POST correct"): Call(
        "live", _page("division", "reg"), _form("correct", lambda w: _reg_entry(w).pk, name="Corrected Name")
    ),
    ("director:division", "POST start"): Call("live", _page("division", "reg"), _form("start")),
    ("director:division", "POST pair-next"): Call("live", _page("division", "moves"), _form("pair-next")),
    ("director:division", "POST order-playoff"): Call(
        "live", _page("division", "moves"), _form("order-playoff", lambda w: "1-2", length="1")
    ),
    ("director:division", "POST cancel-playoff"): Call(
        "live", _page("division", "moves"), _form("cancel-playoff", lambda w: 999_999)
    ),
    ("director:division", "POST confirm-playoff"): Call(
        "playoff", _page("division", "playoffs"), _form("confirm-playoff", lambda w: w.matches["playoff"].pk), side=1
    ),
    ("director:playoff-match", "GET"): Call("playoff", _page("playoff-match", "playoffs"), side=1),
    ("director:playoff-match", "POST confirm"): Call(
        "playoff", _page("playoff-match", "playoffs"), _form("confirm"), side=1
    ),
    ("director:playoff-match", "POST forfeit"): Call(
        "playoff",
        _page("playoff-match", "playoffs"),
        _form("forfeit", loser="1", kind="no-show", reason="gone"),
        side=1,
    ),
    ("director:playoff-match", "POST new-link"): Call(
        "playoff", _page("playoff-match", "playoffs"), _form("new-link", side="1"), side=1
    ),
    ("director:playoff-match", "POST replace-result"): Call(
        "playoff",
        _page("playoff-match", "playoffs"),
        _form(
            "replace-result",
            game_number="1",
            winner="1",
            kind="1",
            cube_value="1",
            reason="wrong winner",
            expected_seq=_seq("playoff"),
        ),
        side=1,
    ),
    ("director:playoff-match", "POST reopen"): Call(
        "playoff",
        _page("playoff-match", "playoffs"),
        _form("reopen", reason="replay", expected_seq=_seq("playoff")),
        side=1,
    ),
    ("director:playoff-match", "POST undo"): Call(
        "playoff",
        _page("playoff-match", "playoffs"),
        _form("undo", reason="misentered", expected_seq=_seq("playoff")),
        side=1,
    ),
    ("director:division", "POST close-last-chance"): Call(
        "live", _page("division", "moves"), _form("close-last-chance")
    ),
    ("director:division", "POST swiss-rounds"): Call(
        "live", _page("division", "moves"), _form("swiss-rounds", rounds="4")
    ),
    ("director:division", "POST end-swiss"): Call("live", _page("division", "moves"), _form("end-swiss")),
    ("director:division", "POST unpair"): Call("live", _page("division", "moves"), _form("unpair")),
    ("director:division", "POST repair"): Call("live", _page("division", "moves"), _form("repair")),
    ("director:division", "POST money"): Call(
        "live", _page("division", "moves"), _form("money", entry_fee="5", side_pool_fee="10")
    ),
    ("director:division", "POST pay"): Call(
        "live", _page("division", "reg"), _form("pay", lambda w: _reg_entry(w).pk, fee="transfer")
    ),
    ("director:division", "POST payouts"): Call(
        "live", _page("division", "moves"), _form("payouts", mode="amount", ties="split", main="30, 20")
    ),
    ("director:division", "POST swap"): Call(
        "fresh",
        _page("division", "moves"),
        _form("swap", first=lambda w: _player_of(w, "fresh"), second=lambda w: _player_of(w, "other"), reason="club"),
    ),
    ("director:division", "POST forfeit"): Call(
        "fresh",
        _page("division", "moves"),
        _form(
            "forfeit",
            loser=lambda w: f"{w.pairings['fresh'].key}:{_player_of(w, 'fresh')}",
            kind="no-show",
            reason="late",
        ),
    ),
    ("director:match", "GET"): Call("live", _page("match", "moves", "live")),
    ("director:match", "POST confirm"): Call("sheet", _page("match", "sheet", "sheet"), _form("confirm")),
    ("director:match", "POST forfeit"): Call(
        "fresh",
        _page("match", "moves", "fresh"),
        _form("forfeit", loser=lambda w: _player_of(w, "fresh"), kind="no-show", reason="late"),
    ),
    ("director:match", "POST penalty"): Call(
        "fresh",
        _page("match", "moves", "fresh"),
        _form("penalty", against=lambda w: _player_of(w, "fresh"), points="1", reason="slow play"),
    ),
    ("director:match", "POST replace-result"): Call(
        "sheet",
        _page("match", "sheet", "sheet"),
        _form(
            "replace-result",
            game_number="1",
            winner="1",
            kind="1",
            cube_value="1",
            reason="wrong winner",
            expected_seq=_seq("sheet"),
        ),
    ),
    ("director:match", "POST reopen"): Call(
        "sheet", _page("match", "sheet", "sheet"), _form("reopen", reason="replay", expected_seq=_seq("sheet"))
    ),
    ("director:match", "POST undo"): Call(
        "live", _page("match", "moves", "live"), _form("undo", reason="misentered", expected_seq=_seq("live"))
    ),
    ("director:match", "POST analyse"): Call("sheet", _page("match", "sheet", "sheet"), _form("analyse")),
    ("director:match", "POST new-link"): Call("live", _page("match", "moves", "live"), _form("new-link", side="0")),
    ("director:match", "POST make-match"): Call("live", _page("match", "moves", "live"), _form("make-match")),
    ("director:slips", "GET"): Call("live", _page("slips", "moves")),
    ("director:playoff-slips", "GET"): Call("playoff", _page("playoff-slips", "playoffs")),
    ("director:playoff-slips", "POST"): Call("playoff", _page("playoff-slips", "playoffs")),
    ("director:slips", "POST"): Call("live", _page("slips", "moves")),
    ("director:sheet", "GET"): Call("live", _page("sheet", "moves")),
    ("director:sheet", "POST"): Call("live", _page("sheet", "moves")),
    ("director:scorecards", "GET"): Call("live", _page("scorecards", "moves")),
    ("director:scorecards", "POST"): Call("live", _page("scorecards", "moves")),
    ("director:final-standings", "GET"): Call("live", _page("final-standings", "moves")),
    ("director:final-standings", "POST"): Call("live", _page("final-standings", "moves")),
    ("director:payouts-csv", "GET"): Call("live", _page("payouts-csv", "moves")),
    ("director:payouts-csv", "POST"): Call("live", _page("payouts-csv", "moves")),
    ("director:cash-sheet", "GET"): Call("live", _page("cash-sheet")),
    ("director:cash-sheet", "POST"): Call("live", _page("cash-sheet")),
    ("entry:exchange", "GET"): Call("live", lambda w: ""),  # the caller's own link: see _request
    ("entry:refused", "GET"): Call("live", lambda w: reverse("entry:refused")),
    ("entry:match", "GET"): Call("live", lambda w: reverse("entry:match", args=[w.matches["live"].pk]), side=1),
    ("entry:match", "POST roll"): Call(
        "live",
        lambda w: reverse("entry:match", args=[w.matches["live"].pk]),
        lambda w: {"kind": "roll", "side": "1", "die1": "6", "die2": "4", "expected_seq": str(w.seq("live"))},
        side=1,
    ),
    ("entry:live", "GET"): Call("live", lambda w: reverse("entry:live", args=[w.matches["live"].pk]), side=1),
    ("pairing_entry:next", "GET"): Call("live", lambda w: reverse("pairing_entry:next")),
    ("pairing_entry:enter", "POST"): Call(
        "earlier", lambda w: reverse("pairing_entry:enter", args=[w.pairings["next"].pk])
    ),
    ("pairing_entry:playoff-enter", "POST"): Call(
        "before-playoff", lambda w: reverse("pairing_entry:playoff-enter", args=[w.matches["playoff"].pk])
    ),
    ("pairing_entry:playoff-confirm", "POST"): Call(
        "playoff", lambda w: reverse("pairing_entry:playoff-confirm", args=[w.matches["playoff"].pk]), side=1
    ),
    ("pairing_entry:playoff-dispute", "POST"): Call(
        "playoff",
        lambda w: reverse("pairing_entry:playoff-dispute", args=[w.matches["playoff"].pk]),
        lambda w: {"reason": "I won"},
        side=1,
    ),
    ("pairing_entry:confirm", "POST"): Call(
        "sheet", lambda w: reverse("pairing_entry:confirm", args=[w.pairings["sheet"].pk]), side=1
    ),
    ("pairing_entry:dispute", "POST"): Call(
        "sheet",
        lambda w: reverse("pairing_entry:dispute", args=[w.pairings["sheet"].pk]),
        lambda w: {"reason": "I won"},
        side=1,
    ),
}

# -- running a cell --------------------------------------------------------------------------------------------------


def _link_text(w: World, call: Call, actor: str) -> str | None:
    """The entry-link text an actor holds for ``call`` (None: not a link holder)."""
    other_match = "other" if call.match != "other" else "fresh"
    return {
        "own": lambda: w.link_text(call.match, call.side),
        "other": lambda: w.link_text(call.match, 1 - call.side),
        "elsew": lambda: w.link_text(other_match, 0),
        "revok": lambda: w.revoked_text(call.match, call.side),
    }.get(actor, lambda: None)()


def _client(w: World, call: Call, actor: str, *, api: bool) -> Client:
    client: Client = APIClient() if api else Client()
    if actor in USERS:
        client.force_login(w.users[USERS[actor]])
    text = _link_text(w, call, actor)
    if text is not None:
        if api:
            client.credentials(HTTP_X_ENTRY_TOKEN=text)  # type: ignore[attr-defined]
        else:
            client.get(reverse("entry:exchange", args=[text]))  # the link opened: kept in the session
    return client


def _request(w: World, key: tuple[str, str], call: Call, actor: str, client: Client) -> Any:
    name, method = key
    method = method.split()[0]
    url = call.url(w)
    if name == "entry:exchange":
        url = reverse("entry:exchange", args=[_link_text(w, call, actor) or "forged-link"])
    data = call.data(w)
    if method == "GET":
        return client.get(url)
    if _is_api(key):
        send = getattr(client, method.lower())  # post, or patch
        return send(url, data, format="multipart" if call.multipart else "json")
    return client.post(url, data)


def _is_api(key: tuple[str, str]) -> bool:
    return key[0].split(":")[0].endswith("_api")


class _RollbackError(Exception):
    pass


def _outcome(response: Any) -> int | str:
    if response.status_code == 302 and response["Location"].startswith(reverse("login")):
        return LOGIN
    return response.status_code


def run_cell(w: World, key: tuple[str, str], call: Call, actor: str) -> tuple[int | str, list[str], str]:
    """(outcome, tables written, a bit of the answer), with everything the cell wrote rolled back."""
    result: tuple[int | str, list[str], str] = (0, [], "")
    cache.clear()  # rate limits and throttles count per cell
    try:
        with transaction.atomic():
            client = _client(w, call, actor, api=_is_api(key))
            before = snapshot()
            response = _request(w, key, call, actor, client)
            result = (
                _outcome(response),
                changed_tables(before, snapshot()),
                response.content[:160].decode(errors="replace"),
            )
            raise _RollbackError
    except _RollbackError:
        pass
    return result


# -- the tests -------------------------------------------------------------------------------------------------------


def _namespaces(prefix: str) -> list[str]:
    """The URL namespaces included under ``prefix`` (``"api/"``: every app's API, ``"play/"``: the entry pages)."""
    found = {
        entry.namespace
        for entry in get_resolver().url_patterns
        if isinstance(entry, URLResolver) and str(entry.pattern).startswith(prefix) and entry.namespace
    }
    assert found, f"nothing under /{prefix}"
    return sorted(found)


def _routes(namespace: str) -> list[tuple[str, Any]]:
    """(route name, view callback) of every URL in ``namespace``."""
    found = []
    for entry in get_resolver().url_patterns:
        if isinstance(entry, URLResolver) and entry.namespace == namespace:
            for pattern in entry.url_patterns:
                assert isinstance(pattern, URLPattern), f"{namespace} nests {pattern}: extend the matrix's discovery"
                found.append((f"{namespace}:{pattern.name}", pattern.callback))
    assert found, f"no routes in {namespace}"
    return found


DIRECTOR_FORMS = {
    "director:home": HOME_ACTIONS,
    "director:event": EVENT_ACTIONS,
    "director:division": DIVISION_ACTIONS,
    "director:match": MATCH_ACTIONS,
    "director:playoff-match": PLAYOFF_MATCH_ACTIONS,
}


def endpoints() -> set[tuple[str, str]]:
    """What the matrix must cover, from the URL resolver: the write methods of every route included under /api/,
    every director page under /manage/ (GET, and each form it accepts, or a POST on a page with no forms), and
    every entry route under /play/ (at least one row each)."""
    needed: set[tuple[str, str]] = set()
    for namespace in _namespaces("api/"):
        for name, callback in _routes(namespace):
            view = callback.cls
            needed |= {
                (name, m) for m in WRITE_METHODS if m.lower() in view.http_method_names and hasattr(view, m.lower())
            }
    for name, _callback in [route for namespace in _namespaces("manage/") for route in _routes(namespace)]:
        needed.add((name, "GET"))
        forms = DIRECTOR_FORMS.get(name)
        needed |= {(name, f"POST {action}") for action in forms} if forms else {(name, "POST")}
    for namespace in _namespaces("play/"):
        for name, _callback in _routes(namespace):
            needed |= {key for key in PAGE_MATRIX if key[0] == name} or {(name, "?")}
    return needed


def test_the_matrix_has_a_row_for_every_endpoint() -> None:
    rows = set(API_MATRIX) | set(PAGE_MATRIX)
    assert set(API_MATRIX) == set(API_CALLS) and set(PAGE_MATRIX) == set(PAGE_CALLS)
    missing = sorted(endpoints() - rows)
    assert not missing, f"endpoints without a row in the permission matrix: {missing}"
    assert all(len(outcomes) == len(ACTORS) for outcomes in [*API_MATRIX.values(), *PAGE_MATRIX.values()])


def test_permission_matrix(world: World) -> None:
    """Every cell: the expected outcome, and nothing written unless the request was accepted."""
    failures = []
    cells = [(key, API_CALLS[key], API_MATRIX[key]) for key in API_MATRIX]
    cells += [(key, PAGE_CALLS[key], PAGE_MATRIX[key]) for key in PAGE_MATRIX]
    for key, call, expected in cells:
        for actor, want in zip(ACTORS, expected, strict=True):
            got, written, answer = run_cell(world, key, call, actor)
            refused = want == LOGIN or (isinstance(want, int) and want >= 400)
            if got != want:
                failures.append(f"{key[0]} {key[1]} as {actor}: expected {want}, got {got}: {answer!r}")
            elif refused and written:
                failures.append(f"{key[0]} {key[1]} as {actor}: refused with {got} but wrote {written}")
            elif not refused and key[1] != "GET" and not written:
                failures.append(f"{key[0]} {key[1]} as {actor}: accepted with {got} but wrote nothing")
    assert not failures, "\n".join(failures)
