"""The spectator pages of a match: the page, its live part, the board at any entry, and the .mat download.

Thin views (docs/ARCHITECTURE.md, "Where logic lives"): read through :mod:`games.spectator`, render a template. Every
page
answers 404 for an unknown match and for a private one the visitor may not read. Nothing here shows an entry
token. The live part answers ``304 Not Modified`` when the client's ``If-None-Match`` is the current ETag, which
costs one query and no rendering; anonymous spectators of a public match share it for a few seconds, with no query
(:mod:`common.live`).

The page, its live part and the board read a game at a time (:func:`games.spectator.page_data`), so that they cost
the same at 20 and at 20,000 actions. The move list shows one game (``?game=<n>``, else the game of ``?at=``, else
the latest), with a link to each game. It is not part of the live part, but a ``200`` poll carries it whole (the
shown game's list, as an htmx out-of-band swap), so that the live part's address is the same for every spectator of
the match and stays the same while moves are entered: ``/matches/<id>/live/`` for a client following the game being
played (its list moves on to the next game when that begins), ``?game=<n>`` for one showing an earlier game. A
reverse proxy's micro-cache (deploy/nginx/) then keeps one copy per match for all of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from common.audience import settled, shared
from common.live import not_modified, shared_live_part
from engine.errors import EngineError
from games.analysis.selectors import match_summary, out_of_date_of_player, overall_pr, player_pr_history, pr_chart
from games.export import match_file
from games.hooks import PLAYER_SECTIONS, EventLink, events_of_matches
from games.models import Player, PlayerAnalysis
from games.selectors import head_to_head, matches_visible_to, nemesis, players_visible_to
from games.spectator import CLOSED, MoveLine, PageData, etag_of, match_for_page, page_data

BAD_GAME = "game must be a game's number (1 or more), as the match page's game links give it: reload the match page"


def _number(request: HttpRequest, name: str) -> int | None:
    """A whole number in the query (``?at=``, ``?game=``), None when absent or not one."""
    text = request.GET.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def _replay_context(data: PageData, entry: MoveLine | None) -> dict[str, object]:
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
    context["played_at"] = events_of_matches(request.user, [match.pk]).get(match.pk)  # the breadcrumb
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


def _shown_game(request: HttpRequest) -> int | str | None:
    """The game whose moves the polling client shows (``?game=<n>``), None when it follows the game being played, an
    error message when malformed."""
    if "game" not in request.GET:
        return None
    game = _number(request, "game")
    return game if game is not None and game >= 1 else BAD_GAME


@shared
@require_GET
def match_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/matches/<id>/live/``: the live part, or 304 when nothing changed since the client's ETag.

    A ``200`` of a match recorded move by move also carries the move list of the game being played (``?game=<n>``:
    of game n) whole, as an out-of-band swap; a malformed ``game`` is ``400``.
    """
    game = _shown_game(request)
    if isinstance(game, str):
        return HttpResponse(game, status=400, content_type="text/plain; charset=utf-8")
    return shared_live_part(request, ("match", match_id, game), lambda: _match_live(request, match_id, game))


def _match_live(request: HttpRequest, match_id: int, game: int | None) -> HttpResponse:
    match = match_for_page(match_id, request.user)
    etag = etag_of(match)
    if not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        data = page_data(match, game=game)
        context = _live_context(data, etag)
        html = render_to_string("games/_live.html", context, request)
        if data.is_moves:
            html += render_to_string("games/_move_list.html", {**context, "oob": True, "entry": None}, request)
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
    """``/players/<id>/``: a player's PR match by match (newest first, paged) and over all the analysed matches.
    A record merged into another sends to the other's page."""
    merged_into = Player.objects.filter(pk=player_id).values_list("merged_into_id", flat=True).first()
    if merged_into is not None:
        return redirect("games:player", merged_into)
    player = get_object_or_404(players_visible_to(request.user), pk=player_id)
    history = player_pr_history(player.pk).filter(analysis__match__in=matches_visible_to(request.user))
    page = Paginator(history, 50).get_page(request.GET.get("page"))
    rows = list(page)
    events = events_of_matches(request.user, [row.analysis.match_id for row in rows])
    lines = [
        HistoryLine(row, events.get(row.analysis.match_id), match_summary(row.analysis.match, row.side)) for row in rows
    ]
    records = head_to_head(player, request.user)
    sections = [html for section in PLAYER_SECTIONS if (html := section(request, player))]
    context = {
        "player": player,
        "sections": sections,
        "head_to_head": records,
        "nemesis": nemesis(records),
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
