"""The public pages of events, for spectators (no login): the list of events, an event with its divisions, a
division (standings, the pairings of the current round, the bracket, a link to each round), a round's page (its
table), their live parts and the results as CSV.

Thin views (docs/ARCHITECTURE.md, "Where logic lives"): they read through the selectors
(tournaments/selectors/public.py),
shape the rows for the templates with :mod:`tournaments.pages`, and render; nothing here writes. A private event
and everything in it answer 404 unless the visitor directs it (:func:`tournaments.selectors.events_visible_to`). No
page shows an entry token.

Live parts (docs/ARCHITECTURE.md, "Where things go"): the standings, pairings and bracket sections poll
``/events/<event>/<division>/live/<part>/`` every 5 s with the ETag of what they show (a round's table:
``/events/<event>/<division>/rounds/<bracket>/<number>/live/``); the answer is
``304 Not Modified`` after one query when nothing changed. The ETag is a digest of a *fingerprint* of the division
read in that same query: its status, results and standings versions and standings status, a checksum over its
entries and the latest change to a player's name; for the standings, the id of its newest standings row (every
recompute writes the rows anew, even when no version moved, as after a confirmation) and its tie-break order; for
the pairings and the bracket, a checksum over its pairings (players, match, status, scores, confirmation,
decision, notes) and one over what they show of its matches (state, started or not, score, winner: a move does not
change those parts, the end of a game does). It does not rely on ``Pairing.updated_at``: the services save pairings with
``update_fields`` lists that leave it out, so it keeps the creation time.

Anonymous spectators of a public event share each live part for a few seconds (:mod:`common.live`).

Queries (anonymous visitor, whatever the size of the field): the division page 4 (the division with its event,
fingerprint and the rounds its standings exist for; the rounds with their counts and the current round's pairings,
or for an elimination every pairing, which the bracket shows; the standings rows); a live part 1 for a 304, 3 for
a 200 (the standings and the bracket 2); a round's page 3 (the division, the rounds, the round's pairings), its
live part 1 for a 304 and 3 for a 200; the CSV 2; the event page 4 (5 when it has finished divisions of both
kinds: the champions of a bracket and of a table are read apart); the events list 2.

A big division's page holds the standings and the current round only: every round's table in one page was 2 MB
for 512 players. Each round has its own page, linked from the division page.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import Case, IntegerField, Value, When
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from common.audience import settled, shared
from common.live import not_modified, shared_live_part
from tournaments.access import directs_club
from tournaments.core import PairingState, round_words
from tournaments.models import Division, Entry, Event, Round, Season
from tournaments.pages import (
    PLAYOFF_TO_PLAY,
    RoundView,
    bracket_views,
    correction_notes,
    counts_of,
    current_from,
    current_round_ids,
    current_rounds,
    display_page,
    division_summaries,
    etag_of,
    event_status_words,
    format_words,
    lengths_words,
    rating_chart,
    round_links,
    round_titles_of,
    round_views,
    settled_by_playoff_words,
    standings_view,
)
from tournaments.pages.words import StrOrPromise
from tournaments.selectors import clubs as club_reads
from tournaments.selectors import events_visible_to, standings_table
from tournaments.selectors.director import director_board, event_divisions, event_rounds
from tournaments.selectors.players import player_record
from tournaments.selectors.playoffs import PlayoffView, playoff_to_play, playoffs_in
from tournaments.selectors.public import division_for_page, pairings_of, pr_by_depth, pr_table, rounds_with_counts
from tournaments.selectors.seasons import season_events, season_figures, season_rules, season_table
from tournaments.selectors.venue import venue_of

#: The parts of a division page that refresh themselves.
LIVE_PARTS = ("standings", "pairings", "bracket")
#: Seconds between two polls of a live part (the templates' ``hx-trigger``).
POLL_SECONDS = 5
EVENTS_PER_PAGE = 50


def _after_round(request: HttpRequest) -> int | None:
    try:
        value = int(request.GET["after_round"])
    except (KeyError, ValueError):
        return None
    return value if 0 <= value <= 32767 else None


# -- views -----------------------------------------------------------------------------------------------------------


def _polling(division: Division) -> bool:
    """Whether the division's live parts poll: while it is in play, while its standings are being counted, and while
    a playoff for a tie is ordered (its words change as it is played, after the division has finished)."""
    if getattr(division, "playoffs_open", None):
        return True
    return division.status != Division.Status.FINISHED or division.standings_state != Division.Work.CURRENT


def _big(request: HttpRequest) -> bool:
    return request.GET.get("big") == "1"


@shared
@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    """``/events/``: the events the visitor may see, running ones first, then upcoming, then past."""
    order = Case(
        When(status=Event.Status.RUNNING, then=Value(0)),
        When(status=Event.Status.REGISTRATION, then=Value(1)),
        When(status=Event.Status.DRAFT, then=Value(2)),
        default=Value(3),
        output_field=IntegerField(),
    )
    events = events_visible_to(request.user).annotate(current=order, playoff_to_play=playoff_to_play("division__event"))
    page = Paginator(events, EVENTS_PER_PAGE).get_page(request.GET.get("page"))
    rows = [(event, event_status_words(event)) for event in page]  # "playoff to play": finished, not over
    return render(request, "tournaments/event_list.html", {"page": page, "rows": rows})


@shared
@require_GET
def club_detail(request: HttpRequest, club: str) -> HttpResponse:
    """``/clubs/<club>/``: its events to come and played, its rating list, its recent champions."""
    found = club_reads.visible_club(request.user, club)
    if found is None:
        raise Http404("no such club")
    page = club_reads.club_page(found, request.user)
    upcoming = [(event, event.get_status_display()) for event in page.upcoming]
    # a tie at 1st whose playoff is to be played has no champion yet: "to be settled by a playoff (A v B)"
    champions = [
        (c, settled_by_playoff_words(p.display_name for p in c.playoff) if c.playoff else "") for c in page.champions
    ]
    context = {
        "page": page,
        "champions": champions,
        "club": found,
        "upcoming": upcoming,
        "seasons": club_reads.seasons_of(found),
        "directs": directs_club(request.user, found),
    }
    return render(request, "tournaments/club_detail.html", context)


def player_section(request: HttpRequest, player: Any) -> str | None:
    """The player's page's block of his tournaments (games.hooks.PLAYER_SECTIONS): his events and places, his season
    points, his rating history as a chart with his current rating."""
    record = player_record(player, request.user)
    charts = [rating_chart(history) for history in record.ratings]
    context = {"player": player, "record": record, "charts": charts}
    return render_to_string("tournaments/_player_record.html", context, request=request)


def _season(request: HttpRequest, club: str, season: str) -> Season:
    found = club_reads.visible_season(request.user, club, season)
    if found is None:
        raise Http404("no such season")
    return found


#: Rows of a season's table a page shows: a club's season of a thousand players is ten pages (its CSV is one file).
SEASON_ROWS_PER_PAGE = 100


@shared
@require_GET
def season_detail(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """``/clubs/<club>/seasons/<season>/``: the season's table, with its playoff line, a hundred rows a page
    (``?page=N``); ``?find=`` shows the players whose name holds the text, each with his rank in the whole table.
    The CSV holds every row."""
    found = season_table(_season(request, club, season), events=False)  # the page counts them
    wanted = " ".join(request.GET.get("find", "").split())[:100]
    rows = [row for row in found.rows if wanted.casefold() in row.name.casefold()] if wanted else found.rows
    context = {
        "table": found,
        "page": Paginator(rows, SEASON_ROWS_PER_PAGE).get_page(request.GET.get("page")),
        "find": wanted,
        "season": found.season,
        "events": season_events(found.season).count(),
        "rules": season_rules(found.season),
        "figures": season_figures(found.season),
    }
    return render(request, "tournaments/season_detail.html", context)


@shared
@require_GET
def season_csv(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The season's table as CSV: rank, player, points, events, matches won, qualified."""
    found = season_table(_season(request, club, season), events=False)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{found.season.club.slug}-{found.season.slug}.csv"'
    text = io.StringIO()  # written to the response at once: a write to it per row costs more than the row
    writer = csv.writer(text)
    writer.writerow(["rank", "player", "points", "events", "match_wins", "qualified"])
    for row in found.rows:
        writer.writerow(
            [
                row.rank,
                csv_cell(row.name),
                f"{row.points:.2f}",
                row.events,
                row.match_wins,
                "yes" if row.qualified else "tied at the line" if row.tied_at_line else "",
            ]
        )
    response.write(text.getvalue())
    return response


@shared
@require_GET
def event_detail(request: HttpRequest, event: str) -> HttpResponse:
    """``/events/<event>/``: the event and its divisions."""
    found = get_object_or_404(events_visible_to(request.user), slug=event)
    summaries = division_summaries(found)
    context = {
        "event": found,
        "status": event_status_words(found, summaries),  # not over while a division's playoff is to be played
        "divisions": summaries,
    }
    return render(request, "tournaments/event_detail.html", context)


def _division_status(division: Division, playoffs: Sequence[PlayoffView]) -> StrOrPromise:
    """The division's status in words: not over (:data:`PLAYOFF_TO_PLAY`) while its rounds are but one of its
    ``playoffs`` for ties is to be played."""
    if division.status == Division.Status.FINISHED and any(not p.finished for p in playoffs):
        return PLAYOFF_TO_PLAY
    return division.get_status_display()


@shared
@require_GET
def division_detail(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/events/<event>/<division>/``: standings, the current round's pairings, the bracket, the list of rounds
    (each round's table is on its own page: :func:`division_round`)."""
    found = division_for_page(request.user, event, division, standings=True)
    asked = _after_round(request)
    if found.has_bracket:  # the bracket shows every round: all the pairings are read anyway
        views = round_views(found, pairings_of(found))
        current = current_from(views, found)
        for view in views:
            setattr(view.round, "n_conditional", int(view.conditional))  # noqa: B010 (as rounds_with_counts has it)
        rounds = [view.round for view in views]
    else:  # only the current round's pairings
        rounds = rounds_with_counts(found)
        current = current_rounds(found, rounds)
        views = []
    standings = standings_view(found, asked)
    context = {
        "division": found,
        "event": found.event,
        "format": format_words(found),
        "lengths": lengths_words(found),
        "corrections": correction_notes(found),
        "status": _division_status(found, standings.playoffs),
        "big": _big(request),
        "polling": _polling(found),
        "poll_trigger": f"every {POLL_SECONDS}s",
        "standings": standings,
        "standings_etag": etag_of(found, "standings", asked),
        "current": current,
        "pairings_etag": etag_of(found, "pairings"),
        "round_links": round_links(found, rounds, (view.round.pk for view in current)),
        "brackets": bracket_views(found, views) if found.has_bracket else [],
        "bracket_etag": etag_of(found, "bracket"),
        "champion": _champion_of(found, views),
    }
    response = render(request, "tournaments/division_detail.html", context)
    return response if context["polling"] else settled(response)


def _find_round(found: Division, bracket: str, number: int) -> tuple[Round | None, list[Round]]:
    """The round asked for (None if the division has no such round) and all the division's rounds (one query)."""
    rounds = rounds_with_counts(found)
    return next((r for r in rounds if r.bracket == bracket and r.number == number), None), rounds


def _round_missing(request: HttpRequest, found: Division, rounds: Sequence[Round], bracket: str, number: int
                   ) -> HttpResponse:  # fmt: skip
    """404, with a page that says which round the division does not have and links the rounds it has."""
    context = {
        "division": found,
        "event": found.event,
        "bracket": bracket,
        "number": number,
        "known_bracket": any(r.bracket == bracket for r in rounds),
        "round_links": round_links(found, rounds, ()),
    }
    return render(request, "tournaments/round_missing.html", context, status=404)


def _round_context(found: Division, chosen: Round, rounds: Sequence[Round]) -> dict[str, Any]:
    """What the round's live part shows: its table (one query, the round's pairings)."""
    return {
        "division": found,
        "event": found.event,
        "round": chosen,
        "views": round_views(found, pairings_of(found).filter(round=chosen), rounds),
        "polling": _polling(found),
        "poll_trigger": f"every {POLL_SECONDS}s",
        "round_etag": etag_of(found, "round", chosen.bracket, chosen.number),
    }


@shared
@require_GET
def division_round(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> HttpResponse:
    """``/events/<event>/<division>/rounds/<bracket>/<number>/``: one round's table, the links to the others, and
    its live part while the division is in play (three queries)."""
    found = division_for_page(request.user, event, division)
    chosen, rounds = _find_round(found, bracket, number)
    if chosen is None:
        return _round_missing(request, found, rounds, bracket, number)
    context = _round_context(found, chosen, rounds)
    links = round_links(found, rounds, current_round_ids(found, counts_of(rounds)))
    at = next(i for i, link in enumerate(links) if link.round.pk == chosen.pk)
    context.update(
        {
            "format": format_words(found),
            "big": _big(request),
            "title": links[at].title,
            "round_links": links,
            "previous": links[at - 1] if at > 0 else None,
            "next": links[at + 1] if at + 1 < len(links) else None,
        }
    )
    response = render(request, "tournaments/division_round.html", context)
    return settled(response) if _round_settled(context) else response


def _round_settled(context: dict[str, Any]) -> bool:
    """Whether the round's table has finished changing: the division is no longer in play, or every pairing of the
    round is decided."""
    return not context["polling"] or all(view.open == 0 and not view.conditional for view in context["views"])


@shared
@require_GET
def division_round_live(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> HttpResponse:
    """``/events/<event>/<division>/rounds/<bracket>/<number>/live/``: the round's live part, or 304 when nothing
    changed since the client's ETag (one query; three for a 200; none from a shared copy)."""
    return shared_live_part(
        request,
        ("round", event, division, bracket, number),
        lambda: _round_live(request, event, division, bracket, number),
    )


def _round_live(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> HttpResponse:
    found = division_for_page(request.user, event, division)
    etag = etag_of(found, "round", bracket, number)
    if not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        chosen, rounds = _find_round(found, bracket, number)
        if chosen is None:
            return _round_missing(request, found, rounds, bracket, number)
        context = _round_context(found, chosen, rounds)
        context["round_links"] = round_links(found, rounds, current_round_ids(found, counts_of(rounds)))
        context["links_oob"] = True  # the list of every round follows, as on the division page
        response = render(request, "tournaments/_round.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache" if found.event.public else "private, no-cache"
    return response


def _champion_of(division: Division, views: Sequence[RoundView]) -> Entry | None:
    """The winner of a finished elimination division's last main match played."""
    if division.status != Division.Status.FINISHED or not division.has_bracket:
        return None
    main = [b for v in views if v.round.bracket == "main" for b in v.boards if b.pairing.winner_id is not None]
    if not main:
        return None
    last = max(main, key=lambda b: (b.pairing.round.number, b.pairing.board))
    return last.a.entry if last.a.won else last.b.entry


@shared
@require_GET
def division_live(request: HttpRequest, event: str, division: str, part: str) -> HttpResponse:
    """``/events/<event>/<division>/live/<part>/``: one live part, or 304 when nothing changed since the client's
    ETag (one query; none from a shared copy)."""
    if part not in LIVE_PARTS:
        raise Http404("no such part")
    asked = _after_round(request) if part == "standings" else None
    return shared_live_part(
        request, (part, event, division, asked), lambda: _division_live(request, event, division, part, asked)
    )


def _division_live(request: HttpRequest, event: str, division: str, part: str, asked: int | None) -> HttpResponse:
    found = division_for_page(request.user, event, division, standings=part == "standings")
    if part == "bracket" and not found.has_bracket:
        raise Http404("this division has no bracket")
    etag = etag_of(found, part, asked) if part == "standings" else etag_of(found, part)
    if not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        context: dict[str, Any] = {
            "division": found,
            "event": found.event,
            "polling": _polling(found),
            "poll_trigger": f"every {POLL_SECONDS}s",
            f"{part}_etag": etag,
        }
        if part == "standings":
            context["standings"] = standings_view(found, asked)
        elif part == "pairings":
            rounds = rounds_with_counts(found)
            context["current"] = current_rounds(found, rounds)
            context["round_links"] = round_links(found, rounds, (view.round.pk for view in context["current"]))
            context["links_oob"] = True  # the list of every round follows: its "current" tag moves with a new round
        else:
            context["brackets"] = bracket_views(found, round_views(found, pairings_of(found)))
        response = render(request, f"tournaments/_{part}.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache" if found.event.public else "private, no-cache"
    return response


CSV_HEADER = (
    "round",
    "bracket",
    "board",
    "player A",
    "player B",
    "winner",
    "score A",
    "score B",
    "length",
    "status",
    "decision",
    "round name",
)
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: object) -> str:
    """A cell a spreadsheet will not run: text starting like a formula gets a leading quote (OWASP's advice)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


@shared
@require_GET
def division_results_csv(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/events/<event>/<division>/results.csv``: one line per pairing with a player, in round order; its round by
    its code (``round``, ``bracket``: "main") and its name ("Knockout final": :func:`tournaments.core.round_words`)."""
    found = division_for_page(request.user, event, division)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    filename = f"{found.event.slug}-{found.slug}-results.csv"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(CSV_HEADER)
    for view in round_views(found, pairings_of(found)):
        for board in view.boards:
            p = board.pairing
            if p.entry_a_id is None and p.entry_b_id is None:
                continue
            names = [s.entry.player.display_name if s.entry is not None else "" for s in board.sides]
            winner = next((n for n, s in zip(names, board.sides, strict=True) if s.won), "")
            row = (
                p.round.number,
                p.round.bracket,
                p.board,
                names[0],
                names[1],
                winner,
                board.a.score if board.a.score is not None else "",
                board.b.score if board.b.score is not None else "",
                p.length,
                board.state,
                p.decision,
                round_words(p.round, found),
            )
            writer.writerow([csv_cell(cell) for cell in row])
    return response


@shared
@require_GET
def event_pr(request: HttpRequest, event: str) -> HttpResponse:
    """``/events/<event>/pr/``: the PR table of the event's analysed matches (one query past the event's)."""
    found = get_object_or_404(events_visible_to(request.user), slug=event)
    minimum = settings.ANALYSIS_MIN_DECISIONS
    context = {"event": found, "depths": pr_by_depth(pr_table(event=found, min_decisions=minimum)), "minimum": minimum}
    return render(request, "tournaments/pr_table.html", context)


@shared
@require_GET
def division_pr(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/events/<event>/<division>/pr/``: the PR table of the division's analysed matches."""
    found = division_for_page(request.user, event, division)
    minimum = settings.ANALYSIS_MIN_DECISIONS
    context = {
        "event": found.event,
        "division": found,
        "depths": pr_by_depth(pr_table(division=found, min_decisions=minimum)),
        "minimum": minimum,
    }
    return render(request, "tournaments/pr_table.html", context)


# -- the venue display -----------------------------------------------------------------------------------------------

#: How often the venue display refreshes and turns to its next page (seconds).
DISPLAY_SECONDS = 10


def _display_page(request: HttpRequest) -> int:
    raw = request.GET.get("page", "0")
    return int(raw) if raw.isdigit() and len(raw) < 6 else 0


@shared
@require_GET
def event_display(request: HttpRequest, event: str) -> HttpResponse:
    """``/display/<event>/``: the venue display, for a TV or a projector: the calls, the current rounds' boards with
    their tables and live scores, and the standings; it refreshes itself every few seconds and turns its pages."""
    found = get_object_or_404(events_visible_to(request.user), slug=event)
    screen, _etag = _display_screen(request, found, _display_page(request))
    return render(request, "tournaments/display.html", {"event": found, "screen": mark_safe(screen)})


@shared
@require_GET
def event_display_live(request: HttpRequest, event: str) -> HttpResponse:
    """``/display/<event>/live/?page=N``: screen N of the display (304 when the client holds it already)."""
    page = _display_page(request)
    return shared_live_part(request, ("display", event, page), lambda: _event_display_live(request, event, page))


def _event_display_live(request: HttpRequest, event: str, page: int) -> HttpResponse:
    found = get_object_or_404(events_visible_to(request.user), slug=event)
    screen, etag = _display_screen(request, found, page)
    response = HttpResponseNotModified() if not_modified(request, etag) else HttpResponse(screen)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache" if found.public else "private, no-cache"
    return response


#: Stands for a display screen's ETag in the screen while the ETag, the hash of the screen, is computed.
_ETAG_SLOT = "display-etag-slot"


def _display_screen(request: HttpRequest, event: Event, page: int) -> tuple[str, str]:
    """Screen ``page`` of the display (its HTML, rendered with its auto-escaping) and its ETag, which the screen
    carries in its ``data-etag``, so that a display showing the only screen polls it with If-None-Match and is
    answered 304 while nothing on it changed (a display of several screens asks for the next one, a new body)."""
    context = {**_display_context(event, page), "display_etag": f'"{_ETAG_SLOT}"'}
    html = render_to_string("tournaments/_display.html", context, request=request)
    digest = hashlib.sha256(html.encode()).hexdigest()[:24]
    return html.replace(_ETAG_SLOT, digest), f'"{digest}"'


def _display_context(event: Event, page: int) -> dict[str, Any]:
    """The reads of one screen: the venue (two queries), the divisions (one), their rounds (one), and the
    standings of each division in play or finished (two each), and the playoffs for ties of the divisions that may
    hold one (one query for all, none without such a division). "Now playing" is read from the venue, as the
    dashboard's room is: every match at a table (called or being played), whatever its round, and the matches
    being played without one; then the matches waiting for a table, in the queue's order."""
    venue = venue_of(event)
    divisions = {d.pk: d for d in event_divisions(event)}
    at_tables = [director_board(s.pairing) for s in venue.seats if s.pairing is not None]
    queued = [director_board(p) for p in venue.queue]
    unseated = [b for b in queued if b.state == PairingState.PLAYING]
    boards = [(divisions[b.pairing.division_id], b) for b in at_tables + unseated]
    waiting = [(divisions[b.pairing.division_id], b) for b in queued if b.state != PairingState.PLAYING]
    started = [d for d in divisions.values() if d.status != Division.Status.REGISTRATION]
    standings = [(d, standings_table(d)) for d in started]
    titles: dict[int, Any] = {}
    for division_id, rounds in event_rounds(event).items():
        titles.update(round_titles_of(divisions[division_id], rounds))
    names = {row.entry_id: row.entry.player.display_name for _d, rows in standings for row in rows}
    found = playoffs_in(started, names)  # one query, none when no division may hold a playoff
    playoffs = [(d, view) for d in started for view in found.get(d.pk, [])]
    ordered = any(not view.finished for _d, view in playoffs)  # the event is not over while one is to be played
    over = bool(started) and not ordered and all(d.status == Division.Status.FINISHED for d in divisions.values())
    screen = display_page(
        venue.calls, boards, standings, page, titles, over=over, divisions=len(divisions), queue=waiting,
        playoffs=playoffs,
    )  # fmt: skip
    return {"event": event, "screen": screen, "poll_trigger": f"every {DISPLAY_SECONDS}s"}
