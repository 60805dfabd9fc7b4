"""The spectator pages of a match: the page, its live part, the board at any entry, and the .mat download.

Thin views (docs/ARCHITECTURE.md, "Where logic lives"): read through :mod:`games.spectator`, render a template. Every
page
answers 404 for an unknown match and for a private one the visitor may not read. Nothing here shows an entry
token. The live part answers ``304 Not Modified`` when the client's ``If-None-Match`` is the current ETag, which
costs one query and no rendering; anonymous spectators of a public match share it for a few seconds, with no query
(:mod:`config.live`).

The page, its live part and the board read a game at a time (:func:`games.spectator.page_data`), so that they cost
the same at 20 and at 20,000 actions. The move list shows one game (``?game=<n>``, else the game of ``?at=``, else
the latest), with a link to each game. It is not part of the live part: the live part's URL names the list the
client shows (``?game=<n>&after=<seq>&list=<digest>``, see :class:`games.spectator.MovesKey`, and ``&follow=1``
when it is the latest game's), so that a ``200`` poll sends the live part and, as htmx out-of-band swaps, only the
entries added since (after a correction, the game's whole list again; for a client following the latest game,
the next game's list once it begins).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from config.audience import settled, shared
from config.live import not_modified, shared_live_part
from engine.errors import EngineError
from games.analysis.selectors import match_summary, out_of_date_of_player, overall_pr, player_pr_history, pr_chart
from games.export import match_file
from games.hooks import EventLink, events_of_matches
from games.models import Match, PlayerAnalysis
from games.selectors import matches_visible_to, players_visible_to
from games.spectator import CLOSED, Entry, MovesKey, PageData, etag_of, live_update, match_for_page, page_data

BAD_MOVES_KEY = (
    "game and after must be whole numbers (0 or more) and list the 16-character digest that the page gave: "
    "reload the match page to poll again"
)


def _number(request: HttpRequest, name: str) -> int | None:
    """A whole number in the query (``?at=``, ``?game=``), None when absent or not one."""
    text = request.GET.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def _replay_context(data: PageData, entry: Entry | None) -> dict[str, object]:
    if entry is None:
        return {"entry": None}
    previous, following = data.neighbours(entry)
    return {
        "entry": entry,
        "scene": data.board(entry),
        "previous": previous,
        "following": following,
        "decision": data.decision_marks.get(entry.seq),
    }


def _live_context(data: PageData, etag: str) -> dict[str, object]:
    return {"data": data, "etag": etag, "polling": data.match.status not in CLOSED or data.analysis_pending}


@shared
@require_GET
def match_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/``: the whole page; ``?at=<seq>`` adds the board after that entry of the move list, which
    shows its game; ``?game=<n>`` shows game n's moves."""
    match = match_for_page(match_id, request.user)
    at = _number(request, "at")
    data = page_data(match, game=_number(request, "game"), at=at)
    context = {**_live_context(data, etag_of(match)), **_replay_context(data, data.entry(at))}
    response = render(request, "games/match_detail.html", context)
    return response if context["polling"] else settled(response)


@shared
@require_GET
def match_board(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/board/?at=<seq>``: the replay board fragment (what the page's script steps through)."""
    match = match_for_page(match_id, request.user)
    at = _number(request, "at")
    data = page_data(match, at=at)
    entry = data.entry(at)
    if entry is None:
        return HttpResponse(status=404)
    return render(request, "games/_replay_board.html", {"data": data, **_replay_context(data, entry)})


@dataclass(frozen=True, slots=True)
class ShownList:
    """The move list a polling client shows: its game, its key, whether it follows the latest game."""

    game: int
    key: MovesKey
    follow: bool


def _moves_key(request: HttpRequest) -> ShownList | str | None:
    """The move list the client shows (``?game=&after=&list=``, ``&follow=1``); None without them, an error
    message when malformed."""
    after, digest, game = _number(request, "after"), request.GET.get("list"), _number(request, "game")
    if not any(request.GET.get(name) is not None for name in ("after", "list", "game")):
        return None
    if after is None or digest is None or game is None or len(digest) != 16:
        return BAD_MOVES_KEY
    return ShownList(game, MovesKey(after, digest), request.GET.get("follow") == "1")


@shared
@require_GET
def match_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/live/``: the live part, or 304 when nothing changed since the client's ETag.

    With ``?game=<n>&after=<seq>&list=<digest>`` (what the page's live part polls), a ``200`` also carries the move
    list's changes since that list, as out-of-band swaps; a malformed key is ``400``.
    """
    key = _moves_key(request)
    if isinstance(key, str):
        return HttpResponse(key, status=400, content_type="text/plain; charset=utf-8")
    return shared_live_part(request, ("match", match_id, key), lambda: _match_live(request, match_id, key))


def _match_live(request: HttpRequest, match_id: int, key: ShownList | None) -> HttpResponse:
    match = match_for_page(match_id, request.user)
    etag = etag_of(match)
    if not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        if key is not None and match.entry_mode == Match.EntryMode.MOVES:
            data, update = live_update(match, key.key, game=key.game, follow=key.follow)
        else:
            data, update = page_data(match), None
        context = _live_context(data, etag)
        html = render_to_string("games/_live.html", context, request)
        if update is not None:
            html += render_to_string("games/_moves_oob.html", {**context, "update": update}, request)
        response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache" if match.private else "no-cache"
    return response


@shared
@require_GET
def match_mat_download(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/match.mat``: the match log in GNU Backgammon's .mat layout, as an attachment."""
    return _download(request, match_id, "mat")


@shared
@require_GET
def match_sgf_download(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/match.sgf``: the match as GNU Backgammon's SGF, with its analysis when it has one, as an
    attachment."""
    return _download(request, match_id, "sgf")


def _download(request: HttpRequest, match_id: int, file_format: str) -> HttpResponse:
    match = match_for_page(match_id, request.user)
    try:
        text = match_file(match, file_format)
    except EngineError as exc:  # an Acey-Deucey match, a name .mat cannot hold, penalty points
        return HttpResponse(str(exc), status=409, content_type="text/plain; charset=utf-8")
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.{file_format}"'
    return settled(response) if match.status in CLOSED else response


@shared
@require_GET
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """``/players/<id>/``: a player's PR match by match (newest first, paged) and over all the analysed matches."""
    player = get_object_or_404(players_visible_to(request.user), pk=player_id)
    history = player_pr_history(player.pk).filter(analysis__match__in=matches_visible_to(request.user))
    page = Paginator(history, 50).get_page(request.GET.get("page"))
    rows = list(page)
    events = events_of_matches(request.user, [row.analysis.match_id for row in rows])
    lines = [
        HistoryLine(row, events.get(row.analysis.match_id), match_summary(row.analysis.match, row.side)) for row in rows
    ]
    context = {
        "player": player,
        "page": page,
        "lines": lines,
        "overall": overall_pr(history),
        "chart": pr_chart(history),
        "out_of_date": out_of_date_of_player(player.pk)
        .filter(analysis__match__in=matches_visible_to(request.user))
        .count(),
    }
    return render(request, "games/player_detail.html", context)


@dataclass(frozen=True)
class HistoryLine:
    """A line of a player's PR table: his figures in the match, its event (if any) and the match from his side."""

    row: PlayerAnalysis
    event: EventLink | None
    summary: str
