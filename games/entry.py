"""The players' entry pages: a phone at the table records a match, move by move or game by game.

Routes (games/entry_urls.py, under ``/play/``):

- ``/play/<token>/``: the entry link printed as a QR code. Its token is checked (``access_entry_token``), its id kept
  in the session (``request.session["entry_tokens"]``, a list: one phone may hold both sides' links of a shared
  board) and the browser is redirected to the match's entry page, so the secret leaves the address bar, the
  history and later logs. A bad or revoked link, or one already open on another phone, is redirected to
  ``/play/refused/`` (the reason kept in the session), a 403 page that says to ask the director for a new one: the
  refused secret leaves the address bar too.
- ``/play/match/<id>/``: the entry page, for whoever holds a side of the match: an entry link kept in the session,
  or the account of one of its players (``games.access.sides_of``). GET shows it; every form POSTs to it with the
  CSRF token, the sequence number the page showed (``expected_seq``) and a per-form idempotency key, and the
  answer is a redirect back (303) or the page again with the refusal above the board (400, 403, 409). The same
  form sent again (its first answer lost on a dropped connection) is answered as the first one was and writes
  nothing, for every kind (the idempotency key; an answer to a correction by its sameness). With JavaScript,
  static/js/entry-outbox.js sends the forms itself and keeps on the phone those made while the network is down,
  to send them in order when it is back.
- ``/play/match/<id>/live/``: the live part of the page, polled by htmx; ``304`` while its ETag is current.

Terms: a *seat* is the sides (0, 1) this visitor holds, each with the :class:`~common.actor.Actor` that acts for
it (the entry link, else the account). The *viewer* is the side whose view the board shows: the one held, or,
holding both, the one to act.

Other apps add blocks to the page through ``games.hooks.PANELS`` (tournaments/ registers its confirm-or-dispute
panel from its ``AppConfig.ready``): games/ never imports tournaments/ (docs/ARCHITECTURE.md, "Layers").

Tap to move: :func:`tap_tree` turns the engine's legal plays into a tree of single-die steps that the page embeds
as JSON (static/js/entry-board.js walks it). Every path of the tree ends in one of the legal plays, and a step is
in the tree only if the engine's :func:`~engine.movegen.play_key` accepts it (the checker is there, the landing
point is open); the order of the steps within a turn is left free, since the record keeps only the play.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
    QueryDict,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from common.live import not_modified
from common.ratelimit import rate_limited
from engine.game import GameState, Phase
from engine.match import MatchState
from engine.movegen import LegalPlays, play_key
from engine.notation import format_play
from engine.position import Position
from games import board_svg, services
from games.access import access_entry_token, can_read, claim_entry_token, is_director, sides_of
from games.board_svg import render_board, scene_from_state
from games.engine_bridge import load_state, play_from_steps, variant_of
from games.hooks import PANELS, TAKE_BACK_GUARDS
from games.models import Action, CorrectionRequest, EntryToken, Game, Match
from games.selectors import RESIGN_WORDS, entry_words, forfeit_of, games_played, live_state, open_correction_request

SESSION_KEY = "entry_tokens"
REFUSAL_KEY = "entry_refusal"  # why the last entry link opened in this browser was refused
PHONE_KEY = "entry_phone"  # this browser's random id: the phone an entry link is bound to
MAX_HELD = 20  # entry links one session remembers (the oldest are forgotten first)
CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
FACES = (1, 2, 3, 4, 5, 6)
RESULT_KINDS = (
    (1, pgettext_lazy("game won as", "single")),
    (2, pgettext_lazy("game won as", "gammon")),
    (3, pgettext_lazy("game won as", "backgammon")),
)
STALE = gettext_lazy("Your opponent moved first: check the board and enter again.")
STALE_SCORESHEET = gettext_lazy("Your opponent entered this game's result first: check the score and enter again.")
NEW_LINK = gettext_lazy("Ask the director for a new link.")
NOT_VALID = gettext_lazy("This entry link is not valid.")
REPLACED = gettext_lazy(
    "The director gave a new entry link for your side of this match: this phone no longer enters for it, and nothing "
    "more is recorded from this page. Open the new link (your entry slip, printed again, carries it)."
)


# -- who holds a side ---------------------------------------------------------------------------------------------


def held_token_ids(request: HttpRequest) -> list[int]:
    """The ids of the entry links this session has opened (newest last)."""
    raw = request.session.get(SESSION_KEY, [])
    return [i for i in raw if isinstance(i, int)] if isinstance(raw, list) else []


def held_tokens(request: HttpRequest) -> list[EntryToken]:
    """The live entry links of this session, with their matches and players (one query; none without links)."""
    ids = held_token_ids(request)
    if not ids:
        return []
    rows = EntryToken.objects.filter(pk__in=ids, revoked_at__isnull=True)
    return list(rows.select_related("match__player1", "match__player2").order_by("pk"))


def held_actors(request: HttpRequest, match: Match) -> dict[int, Actor]:
    """The sides of ``match`` this visitor holds, each with who acts for it: the session's newest live entry link
    for that side, else the logged-in player's account."""
    actors: dict[int, Actor] = {}
    ids = held_token_ids(request)
    if ids:
        for token in EntryToken.objects.filter(pk__in=ids, match=match, revoked_at__isnull=True).order_by("pk"):
            actors[token.side] = Actor(token=token)
    user = request.user
    if user.is_authenticated:
        for side in sorted(sides_of(Actor(user=user), match)):
            actors.setdefault(side, Actor(user=user))
        if len(actors) < 2 and is_director(user, match):
            # A director enters for either side, without an entry link (a dispute settled at the table).
            for side in (0, 1):
                actors.setdefault(side, Actor(user=user))
    return dict(sorted(actors.items()))


def _replaced(request: HttpRequest, match: Match) -> bool:
    """Whether this phone held an entry link of ``match`` that the director has since revoked ("Give a new link")."""
    ids = held_token_ids(request)
    return bool(ids) and EntryToken.objects.filter(pk__in=ids, match=match, revoked_at__isnull=False).exists()


def _match(match_id: int) -> Match:
    match = Match.objects.select_related("player1", "player2", "winner").filter(pk=match_id).first()
    if match is None:
        raise Http404("no such match")
    return match


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    """The page (403) shown to a visitor who may not enter anything here."""
    response = render(request, "entry/refused.html", {"message": message, "new_link": NEW_LINK}, status=403)
    response["Referrer-Policy"] = "no-referrer"
    return response


def phone_of(request: HttpRequest) -> str:
    """This browser's phone id (the one its entry links are bound to), or "" before it opened one."""
    phone = request.session.get(PHONE_KEY)
    return phone if isinstance(phone, str) else ""


def keep_entry_link(request: HttpRequest, entry_token: EntryToken, phone: str) -> None:
    """Keep a link this phone took in its session (the newest last, at most :data:`MAX_HELD`)."""
    kept = [i for i in held_token_ids(request) if i != entry_token.pk][-(MAX_HELD - 1) :]
    # A new session key for every link taken: a session cookie planted in this browser beforehand (a shared phone,
    # plain HTTP, a sibling subdomain) must not come to hold the link (session fixation).
    request.session.cycle_key()
    request.session[SESSION_KEY] = [*kept, entry_token.pk]
    request.session[PHONE_KEY] = phone


# -- the views ------------------------------------------------------------------------------------------------------


@never_cache
@require_GET
@rate_limited("entry-link", limit=settings.ENTRY_LINK_REFUSALS_PER_MIN, window=60, methods=("GET",), failures_only=True)
def exchange(request: HttpRequest, token: str) -> HttpResponse:
    """``/play/<token>/``: keep the link's id in the session, under a new session key, and redirect to the match's
    entry page."""
    phone = str(request.session.get(PHONE_KEY) or secrets.token_hex(16))
    try:
        entry_token = access_entry_token(token)
        claim_entry_token(entry_token, phone)  # a link belongs to one phone at a time
    except ApplicationError as exc:
        request.session[REFUSAL_KEY] = exc.message
        refusal = see_other(reverse("entry:refused"))
        refusal.refusal = True  # type: ignore[attr-defined]  # counted by the rate limit as a refusal
        refusal["Referrer-Policy"] = "no-referrer"
        return refusal
    keep_entry_link(request, entry_token, phone)
    response = redirect("entry:match", match_id=entry_token.match_id)
    response["Referrer-Policy"] = "no-referrer"
    return response


@never_cache
@require_GET
def refused(request: HttpRequest) -> HttpResponse:
    """``/play/refused/``: why the entry link just opened was refused (403), without the link in the address."""
    message = request.session.pop(REFUSAL_KEY, None)
    return _refused(request, str(message) if isinstance(message, str) and message else str(NOT_VALID))


@never_cache
@require_http_methods(["GET", "POST"])
def entry_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/play/match/<id>/``: the entry page (GET) and every action entered from it (POST)."""
    match = _match(match_id)
    actors = held_actors(request, match)
    if not actors:
        if _replaced(request, match):
            return _refused(request, str(REPLACED))
        return _refused(request, _("This page is for the players of this match: open your entry link again."))
    if request.method == "POST":
        return _post(request, match, actors)
    return _page(request, match, actors)


@require_GET
def entry_live(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/play/match/<id>/live/``: the live part, or 304 when the client's ETag is current."""
    match = _match(match_id)
    actors = held_actors(request, match)
    if not actors:
        if _replaced(request, match):  # told at its next poll, and the page's forms go away
            return render(request, "entry/_signed_out.html", {"message": REPLACED})
        return HttpResponse(status=403)
    versions = [panel.version(match) for panel in PANELS]
    asked = open_correction_request(match)
    etag = etag_of(match, frozenset(actors), versions, asked)
    if not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        context = entry_context(request, match, actors, versions=versions, asked=asked)
        response = render(request, "entry/_live.html", context)
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _page(
    request: HttpRequest,
    match: Match,
    actors: dict[int, Actor],
    *,
    error: str = "",
    posted: QueryDict | None = None,
    status: int = 200,
) -> HttpResponse:
    asked = open_correction_request(match)
    context = entry_context(request, match, actors, asked=asked, error=error, posted=posted)
    return render(request, "entry/match.html", context, status=status)


def _post(request: HttpRequest, match: Match, actors: dict[int, Actor]) -> HttpResponse:
    try:
        perform(match, actors, request.POST)
    except ApplicationError as exc:
        fresh = _match(match.pk)  # the state as it is now: the refusal changed nothing, the opponent may have
        if exc.code is not ErrorCode.STALE_SEQUENCE:
            posted = request.POST  # the form comes back as it was sent, to correct
            message = exc.message
        else:  # made on an out-of-date page: the form is not offered again filled in, for one tap to repeat it
            posted = None
            message = str(STALE if fresh.entry_mode == Match.EntryMode.MOVES else STALE_SCORESHEET)
        return _page(request, fresh, held_actors(request, fresh), error=message, posted=posted, status=exc.status)
    return see_other(reverse("entry:match", args=[match.pk]))


def see_other(url: str) -> HttpResponseRedirect:
    """A 303 redirect: the answer to a form that was recorded (a reload does not post it again)."""
    response = HttpResponseRedirect(url)
    response.status_code = 303
    return response


def etag_of(match: Match, sides: frozenset[int], versions: list[str | None], asked: CorrectionRequest | None) -> str:
    """A quoted ETag of the live part: it changes with any write to the match, its players' names, the sides held,
    the panels' versions, a correction asked for and the language."""
    parts = (
        match.pk,
        match.seq,
        asked.pk if asked is not None else None,
        match.status,
        match.player1.updated_at.isoformat(),
        match.player2.updated_at.isoformat(),
        sorted(sides),
        versions,
        digital_dice(),
        get_language(),
    )
    return '"' + hashlib.sha256(repr(parts).encode()).hexdigest()[:24] + '"'


def digital_dice() -> bool:
    """Whether players may have the server roll for them (``settings.BGMATCH_DIGITAL_DICE``, off by default)."""
    return bool(getattr(settings, "BGMATCH_DIGITAL_DICE", False))


# -- performing an action -------------------------------------------------------------------------------------------


def _int(data: Mapping[str, Any], name: str, allowed: tuple[int, ...], message: str) -> int:
    try:
        value = int(str(data.get(name, "")).strip())
    except ValueError:
        raise ApplicationError(ErrorCode.INVALID_INPUT, message) from None
    if value not in allowed:
        raise ApplicationError(ErrorCode.INVALID_INPUT, message)
    return value


def _dice(data: Mapping[str, Any], *, opening: bool) -> tuple[int, int]:
    if data.get("digital"):
        if not digital_dice():
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, _("Digital dice are not used here: enter the dice you rolled.")
            )
        while True:
            dice = (secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)
            if not opening or dice[0] != dice[1]:
                return dice
    message = _("Choose both dice.")
    return _int(data, "die1", FACES, message), _int(data, "die2", FACES, message)


def _seat(match: Match, actors: dict[int, Actor], data: Mapping[str, Any], *, any_side: bool) -> tuple[int, Actor]:
    """The side the form acts for and who acts for it (a side of either player's actions: the first one held)."""
    raw = str(data.get("side", "")).strip()
    if any_side and not raw:
        side = min(actors)
    else:
        side = _int(data, "side", (0, 1), _("This form does not say which side it is for: reload the page."))
    if side not in actors:
        names = ", ".join(match.player(s).display_name for s in actors)
        raise ApplicationError(ErrorCode.FORBIDDEN, _("You can act only for %(names)s.") % {"names": names})
    return side, actors[side]


def _expected_seq(data: Mapping[str, Any]) -> int:
    try:
        return int(str(data.get("expected_seq", "")))
    except ValueError:
        raise ApplicationError(ErrorCode.INVALID_INPUT, _("This form is incomplete: reload the page.")) from None


def _request_ids(match: Match) -> tuple[int, ...]:
    return tuple(CorrectionRequest.objects.filter(match=match).values_list("pk", flat=True))


def perform(match: Match, actors: dict[int, Actor], data: Mapping[str, Any]) -> services.Recorded | None:
    """Record the action a form of the entry page posted.

    :raises ApplicationError: for malformed input, a side not held, and whatever the service refuses.
    """
    kind = str(data.get("kind", ""))
    any_side = kind in ("opening-roll", "game-result")
    side, actor = _seat(match, actors, data, any_side=any_side)
    common: dict[str, Any] = {
        "actor": actor,
        "expected_seq": _expected_seq(data),
        "idempotency_key": str(data.get("idempotency_key", "")).strip()[:64] or None,
    }
    if kind == "take-back":
        return services.take_back(match.pk, side=side, **common)
    if kind == "ask-correction":
        services.request_correction(match.pk, side=side, reason=str(data.get("reason", "")), **common)
        return None
    if kind == "answer-correction":
        # Any request of this match: the service answers the same answer sent again (its first answer lost on the
        # way) without writing, and refuses anything else about a request already answered.
        request = _int(data, "request", _request_ids(match), _("Reload the page."))
        services.answer_correction(request, actor=actor, accept=data.get("accept") == "1")
        return None
    if kind not in services.RECORDERS:
        raise ApplicationError(ErrorCode.INVALID_INPUT, _("Unknown action: reload the page."))
    arguments = {} if any_side else {"side": side}
    return services.RECORDERS[kind](match.pk, **arguments, **_recorder_arguments(kind, data), **common)


def _recorder_arguments(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """The form's fields of an action of ``kind``, as its service's keyword arguments."""
    if kind == "opening-roll":
        return {"dice": _dice(data, opening=True)}
    if kind == "roll":
        return {"dice": _dice(data, opening=False)}
    if kind == "play":
        return {"play": str(data.get("play", ""))}
    if kind == "resign":
        return {"kind": _int(data, "result", (1, 2, 3), _("Choose what you resign: single, gammon or backgammon."))}
    if kind == "choose-double":
        return {"die": _int(data, "die", FACES, _("Choose the double to play."))}
    if kind == "game-result":
        return {
            "winner": _int(data, "winner", (0, 1), _("Choose who won the game.")),
            "kind": _int(data, "result", (1, 2, 3), _("Choose single, gammon or backgammon.")),
            "cube_value": _int(data, "cube", CUBE_VALUES, _("Choose the cube value.")),
        }
    return {}


# -- what the page shows --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Offer:
    """What the visitor may do now (each flag: a form is shown), and the side each form acts for."""

    opening: bool = False
    roll: bool = False
    double: bool = False
    answer_double: bool = False
    play: bool = False
    choose_double: bool = False
    answer_resignation: bool = False
    resign: bool = False
    result: bool = False
    side: int = 0


def take_back_side(match: Match, actors: dict[int, Actor]) -> int | None:
    """The held side whose last entry may be taken back now (:func:`games.services.take_back_target`), if any. A
    director acting for both sides may take back the last entry whoever made it."""
    if match.status == Match.Status.VOID or not match.seq:
        return None
    for side, actor in actors.items():
        director = side not in sides_of(actor, match)
        if not director and not services.may_take_back_after(match):
            continue  # a move-by-move match over: the director corrects it
        if services.take_back_target(match, side, director=director) is None or not _unguarded(match, side):
            continue
        return side
    return None


def _unguarded(match: Match, side: int) -> bool:
    """Whether no :data:`games.hooks.TAKE_BACK_GUARDS` refuses ``side`` a change to his entries (a result his
    opponent has confirmed): neither a take-back nor a correction is offered then."""
    try:
        for guard in TAKE_BACK_GUARDS:
            guard(match, side)
    except ApplicationError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class CorrectionView:
    """A correction asked for in the match, as the page shows it; or (``request`` None) the form to ask for one."""

    request: CorrectionRequest | None
    words: str = ""
    asker: str = ""
    mine: bool = False  # the visitor asked it (and waits)
    answer_side: int | None = None  # the side the visitor answers for
    ask_side: int | None = None  # the side the visitor may ask for


def correction_of(
    match: Match, actors: dict[int, Actor], names: tuple[str, str], request: CorrectionRequest | None
) -> CorrectionView | None:
    """The open correction ``request`` and who of this visitor answers it, or the side that may ask for one."""
    if match.status == Match.Status.VOID or not match.seq:
        return None
    if request is None:
        if not services.may_take_back_after(match):
            return None  # a move-by-move match over: the director corrects it (games.services.request_correction)
        players = [side for side, actor in actors.items() if side in sides_of(actor, match)]
        # Offered once something entered by another follows his last entry (before that, he takes it back).
        asking = next(
            (side for side in players if services.last_entry_of(match, side) is not None and _unguarded(match, side)),
            None,
        )
        return CorrectionView(None, ask_side=asking) if asking is not None else None
    other = 1 - request.side
    answering = other in actors and (len(actors) == 2 or request.side not in actors)
    return CorrectionView(
        request,
        words=entry_words(request.undoes),
        asker=names[request.side],
        mine=request.side in actors and not answering,
        answer_side=other if answering else None,
    )


def viewer_of(state: MatchState, sides: frozenset[int]) -> int:
    """The side whose view the board shows: the one held, or (holding both) the one to act."""
    if len(sides) == 1:
        return next(iter(sides))
    game = state.game
    return game.actor if game.phase not in (Phase.OPENING, Phase.OVER) else 0


def offer_of(match: Match, state: MatchState, legal: list[str], sides: frozenset[int], viewer: int) -> Offer:
    game = state.game
    if match.status in CLOSED:
        return Offer(side=viewer)
    mine = game.phase not in (Phase.OPENING, Phase.OVER) and game.actor in sides
    return Offer(
        opening="opening-roll" in legal and match.entry_mode == Match.EntryMode.MOVES,
        roll=mine and "roll" in legal,
        double=mine and "double" in legal,
        answer_double=mine and "take" in legal,
        play=mine and "play" in legal,
        choose_double=mine and "choose-double" in legal,
        answer_resignation=mine and "accept-resignation" in legal,
        resign="resign" in legal and viewer in sides,
        result="game-result" in legal,
        side=game.actor if mine else viewer,
    )


def prompt_of(match: Match, state: MatchState, names: tuple[str, str], sides: frozenset[int]) -> str:
    """What the page asks for, in words."""
    if match.status in CLOSED:
        return _closed_text(match, state, names)
    game = state.game
    if game.phase is Phase.OPENING:
        if match.entry_mode == Match.EntryMode.SCORESHEET:
            return _("Game %(game)s: enter its result when it is over.") % {"game": state.game_number}
        return _("Game %(game)s: enter the opening roll, each player's die.") % {"game": state.game_number}
    who = names[game.actor]
    if game.actor not in sides:
        if game.phase is Phase.RESIGN_OFFERED and game.resignation:
            kind = int(game.resignation[1])
            return ngettext(
                "You offered to resign %(kind)s (%(points)s point); waiting for %(name)s to accept or refuse.",
                "You offered to resign %(kind)s (%(points)s points); waiting for %(name)s to accept or refuse.",
                kind * game.cube.value,
            ) % {"kind": RESIGN_WORDS.get(kind, ""), "points": kind * game.cube.value, "name": who}
        return _("Waiting for %(name)s.") % {"name": who}
    if game.phase is Phase.RESIGN_OFFERED and game.resignation:
        return _resign_text(int(game.resignation[1]), game.cube.value, who if len(sides) > 1 else "")
    dice = f"{game.dice[0]}-{game.dice[1]}" if game.dice else ""
    texts = {
        Phase.ROLL: _("%(name)s, your turn: double or enter your roll.")
        if game.may_double(game.actor)
        else _("%(name)s, your turn: enter your roll."),
        Phase.MOVE: _("%(name)s, your turn: play %(dice)s."),
        Phase.CHOOSE_DOUBLE: _("%(name)s, choose the double to play."),
        Phase.DOUBLE_OFFERED: _("%(name)s, you are doubled to %(value)s: take or drop?"),
    }
    return texts.get(game.phase, "") % {"name": who, "dice": dice, "value": game.cube.value * 2}


def _resign_text(kind: int, cube: int, name: str) -> str:
    """The offer to resign and what it is worth: "Your opponent offers to resign a gammon, worth 4 points with the
    cube at 2: accept or reject?" (``name`` first on a phone that enters for both players)."""
    values = {"kind": RESIGN_WORDS.get(kind, ""), "points": kind * cube, "cube": cube, "name": name}
    if name:
        return (
            _(
                "%(name)s, your opponent offers to resign %(kind)s, worth %(points)s points with the cube at %(cube)s: "
                "accept or reject?"
            )
            % values
        )
    if cube == 1:
        return (
            ngettext(
                "Your opponent offers to resign %(kind)s, worth %(points)s point: accept or reject?",
                "Your opponent offers to resign %(kind)s, worth %(points)s points: accept or reject?",
                kind,
            )
            % values
        )
    return (
        _(
            "Your opponent offers to resign %(kind)s, worth %(points)s points with the cube at %(cube)s: "
            "accept or reject?"
        )
        % values
    )


def _closed_text(match: Match, state: MatchState, names: tuple[str, str]) -> str:
    if match.status == Match.Status.VOID:
        return _("The match was declared void.")
    if match.winner_id is None:
        return _("The match is over: %(first)s %(a)s, %(second)s %(b)s.") % {
            "first": names[0],
            "second": names[1],
            "a": state.score[0],
            "b": state.score[1],
        }
    winner = names[0] if match.winner_id == match.player1_id else names[1]
    return _("%(name)s won the match %(a)s-%(b)s.") % {
        "name": winner,
        "a": max(state.score),
        "b": min(state.score),
    }


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One game of a scoresheet match: the score before it and how it ended."""

    number: int
    start: tuple[int, int]
    crawford: bool
    winner: str
    result: str
    cube_value: int
    points: int


def result_lines(games: list[Game], names: tuple[str, str]) -> list[ResultLine]:
    labels = dict(RESULT_KINDS)
    return [
        ResultLine(
            g.number,
            (g.start_score1, g.start_score2),
            g.crawford,
            names[g.winner_side] if g.winner_side is not None else "",
            str(labels.get(g.result_kind or 0, "")),
            g.cube_value,
            g.points,
        )
        for g in games
    ]


def entry_context(
    request: HttpRequest,
    match: Match,
    actors: dict[int, Actor],
    *,
    error: str = "",
    posted: Mapping[str, Any] | None = None,
    versions: list[str | None] | None = None,
    asked: CorrectionRequest | None,
) -> dict[str, Any]:
    """Everything templates/entry/ shows (a fixed number of queries whatever the match's size)."""
    state = load_state(match)
    live = live_state(match, state)
    sides = frozenset(actors)
    names = (match.player1.display_name, match.player2.display_name)
    viewer = viewer_of(state, sides)
    offer = offer_of(match, state, live["legal_actions"], sides, viewer)
    moves = match.entry_mode == Match.EntryMode.MOVES
    games = [] if moves else list(Game.objects.filter(match=match).order_by("number"))
    forfeit = None if moves else forfeit_of(match, games, names)
    if versions is None:
        versions = [panel.version(match) for panel in PANELS]
    key = uuid.uuid4().hex
    recent = _recent(match)
    return {
        "match": match,
        "live": live,
        "state": state,
        "names": names,
        "sides": sorted(sides),
        "viewer": viewer,
        "offer": offer,
        "is_moves": moves,
        "prompt": prompt_of(match, state, names, sides),
        "error": error,
        "kept": {name: posted.get(name) for name in posted} if posted else {},
        "held_names": [names[side] for side in sorted(sides)],
        "board": _board(match, state, names, viewer, recent, tappable=offer.play) if moves else "",
        "last_words": last_words(state, names, viewer, recent) if moves else taken_back_words(names, viewer, recent),
        "game_end": game_end(match, state, names, sides, recent) if moves else "",
        "taps": _taps(state) if offer.play else None,
        "results": result_lines(games_played(games, forfeit), names),
        "forfeit": forfeit,
        "panels": _panels(request, match, sides),
        "etag": etag_of(match, sides, versions, asked),
        "polling": match.status not in CLOSED or any(v is not None for v in versions),
        "digital": digital_dice(),
        "faces": FACES,
        "cube_values": CUBE_VALUES[:1] if live["crawford"] else CUBE_VALUES,  # the Crawford game: nobody doubles
        "all_cube_values": CUBE_VALUES,  # the next game's, when the Crawford game is entered off the network
        "result_kinds": RESULT_KINDS[:1] if match.casual else RESULT_KINDS,  # casual: no gammons to resign
        "key": key,
        "closed": match.status in CLOSED,
        "readable": match.status in CLOSED and can_read(request.user, match),
        "exportable": not variant_of(match).acey_deucey,
        "take_back": take_back_side(match, actors),
        "correction": correction_of(match, actors, names, asked),
        "directing": any(side not in sides_of(actor, match) for side, actor in actors.items()),
    }


def _panels(request: HttpRequest, match: Match, sides: frozenset[int]) -> SafeString:
    blocks = [panel.render(request, match, sides) for panel in PANELS]
    return mark_safe("".join(block for block in blocks if block))  # each panel escapes its own output


def _recent(match: Match) -> list[Action]:
    """The last two rows of the match's log, newest first (a play and the roll before it; a take-back with the
    entry it took back and the link that took it back)."""
    fields = ("kind", "side", "steps", "play", "die1", "die2", "value", "game_number", "data")
    taken_back = [f"undoes__{name}" for name in fields[:-1]]
    rows = Action.objects.filter(match=match).order_by("-seq").select_related("undoes", "entered_by_token")
    return list(rows.only(*fields, *taken_back, "entered_by_token__side")[:2])


def last_words(state: MatchState, names: tuple[str, str], viewer: int, recent: list[Action]) -> str:
    """What the other side did last in this game, in words: "Bruno played 6-5: 24/18 18/13.", "Bruno doubled to
    2.", "Bruno took."; "" when the viewer acted last (or the game has not begun). A take-back is told to both
    sides (:func:`taken_back_words`)."""
    last = recent[0] if recent else None
    if last is not None and last.kind == Action.Kind.CORRECTION:
        return taken_back_words(names, viewer, recent)
    if last is None or last.side not in (0, 1) or last.side == viewer or last.game_number != state.game_number:
        return ""
    name = names[0 if last.side == 0 else 1]
    if last.kind == Action.Kind.PLAY:
        roll = recent[1] if len(recent) > 1 else None
        dice = ""
        if roll is not None and roll.kind in ROLL_KINDS and roll.game_number == last.game_number:
            d1, d2 = (roll.value, roll.value) if roll.kind == Action.Kind.CHOOSE_DOUBLE else (roll.die1, roll.die2)
            dice = f"{max(d1, d2)}-{min(d1, d2)}" if d1 is not None and d2 is not None else ""
        if not last.steps:
            return _("%(name)s could not move %(dice)s.") % {"name": name, "dice": dice}
        play = format_play(play_from_steps(last.steps))
        if not dice:
            return _("%(name)s played %(play)s.") % {"name": name, "play": play}
        return _("%(name)s played %(dice)s: %(play)s.") % {"name": name, "dice": dice, "play": play}
    cube = state.game.cube.value
    words: dict[str, str] = {
        Action.Kind.DOUBLE: _("%(name)s doubled to %(value)s.") % {"name": name, "value": cube * 2},
        Action.Kind.TAKE: _("%(name)s took: the cube is at %(value)s.") % {"name": name, "value": cube},
        Action.Kind.REJECT_RESIGNATION: _("%(name)s rejected the resignation.") % {"name": name},
    }
    return words.get(last.kind, "")


def taken_back_words(names: tuple[str, str], viewer: int, recent: list[Action]) -> str:
    """The last entry of the log taken back (or undone by a director), told to both phones: "Alice took back the
    play 24/21 6/5.", "You took back the result of game 2.", "The director took back Alice's roll 3-1."; "" when
    the last row is no take-back, or a correction that put a result in another's place (the result says it)."""
    row = recent[0] if recent else None
    if row is None or row.kind != Action.Kind.CORRECTION:
        return ""
    undone = row.undoes
    if undone is None or undone.side not in (0, 1) or "replacement" in (row.data or {}):
        return ""
    what = entry_words(undone)
    if row.entered_by_token is None:
        owned = what.removeprefix("the ")
        return _("The director took back %(name)s's %(what)s.") % {"name": names[undone.side], "what": owned}
    if row.entered_by_token.side == viewer:
        return _("You took back %(what)s.") % {"what": what}
    return _("%(name)s took back %(what)s.") % {"name": names[row.entered_by_token.side], "what": what}


ROLL_KINDS = (Action.Kind.ROLL, Action.Kind.OPENING_ROLL, Action.Kind.CHOOSE_DOUBLE)


def _won_as(game: Game) -> str:
    """ "gammon" or "backgammon" for a game won as one ("" for a single game: the points say it)."""
    won_as = game.result_kind or Game.Kind.SINGLE
    return "" if won_as == Game.Kind.SINGLE else str(Game.Kind(won_as).label)


def _ended_by(game: Game) -> str:
    """How the game ended when that is news ("double dropped"); "" when borne off or entered from a scoresheet."""
    if not game.ended_by or game.ended_by in (Game.EndedBy.BEAR_OFF, Game.EndedBy.SCORESHEET):
        return ""
    return str(game.get_ended_by_display())


def game_end(
    match: Match, state: MatchState, names: tuple[str, str], sides: frozenset[int], recent: list[Action]
) -> str:
    """How the last game ended, while nothing of the next one is entered: "Game 1: you won 2 points (gammon)."."""
    if not recent or (recent[0].game_number == state.game_number and match.status not in CLOSED):
        return ""
    game = Game.objects.filter(match=match, number=recent[0].game_number, winner_side__isnull=False).first()
    if game is None or game.winner_side is None:
        return ""
    how = [str(w) for w in (_won_as(game), _ended_by(game)) if w]
    if len(sides) == 1 and game.winner_side in sides:
        text = ngettext(
            "Game %(game)s: you won %(points)s point", "Game %(game)s: you won %(points)s points", game.points
        )
    elif len(sides) == 1:
        text = ngettext(
            "Game %(game)s: you lost %(points)s point", "Game %(game)s: you lost %(points)s points", game.points
        )
    else:
        text = ngettext(
            "Game %(game)s: %(name)s won %(points)s point", "Game %(game)s: %(name)s won %(points)s points", game.points
        )
    text %= {"game": game.number, "points": game.points, "name": names[game.winner_side]}
    return f"{text} ({', '.join(how)})." if how else f"{text}."


def _board(
    match: Match,
    state: MatchState,
    names: tuple[str, str],
    viewer: int,
    recent: list[Action],
    *,
    tappable: bool,
) -> SafeString:
    """The SVG board from ``viewer``'s side, the last play of this game shown; with the tap layer when
    ``tappable`` (the viewer is to play)."""
    last = recent[0] if recent else None
    play = None
    if last is not None and last.kind == Action.Kind.PLAY and last.game_number == state.game_number and last.steps:
        play = play_from_steps(last.steps)
    caption = _("Game %(game)s, as %(name)s sees it") % {"game": state.game_number, "name": names[viewer]}
    scene = scene_from_state(
        state.game,
        viewer=viewer,
        names=names,
        play=play if play is not None and not state.game.is_over() else None,
        play_by=last.side if last is not None else None,
        caption=caption,
    )
    svg = render_board(scene, uid="entry")
    if tappable:
        svg = svg.removesuffix("</svg>") + tap_layer() + "</svg>"
    return mark_safe(svg)  # render_board escapes every text it draws


# -- tap to move ----------------------------------------------------------------------------------------------------

BAR, WAITING, OFF = 25, 26, 0
SOURCES = (WAITING, BAR, *range(24, 0, -1))


def tap_layer() -> str:
    """Transparent targets over the viewer's points (``data-tap`` 1-24), the bar (25) and the viewer's tray (0)."""
    b = board_svg
    rects = []
    for point in range(1, 25):
        x = b.point_x(point) - b.POINT_WIDTH / 2
        if point <= 12:  # the viewer's half
            y, height = b.MIDDLE_BOTTOM, b.BOTTOM_Y - b.MIDDLE_BOTTOM
        else:
            y, height = b.TOP_Y, b.MIDDLE_TOP - b.TOP_Y
        rects.append((point, x, y, b.POINT_WIDTH, height))
    rects.append((BAR, b.BAR_X, b.TOP_Y, b.RIGHT_X - b.BAR_X, b.BOTTOM_Y - b.TOP_Y))
    rects.append((OFF, b.TRAY_X, b.MIDDLE_BOTTOM, b.TRAY_WIDTH, b.BOTTOM_Y - b.MIDDLE_BOTTOM))
    parts = [
        f'<rect class="tap" data-tap="{tap}" x="{x:g}" y="{y:g}" width="{width:g}" height="{height:g}"/>'
        for tap, x, y, width, height in rects
    ]
    return '<g class="tap-layer">' + "".join(parts) + '<g class="tap-marks"></g></g>'


def _taps(state: MatchState) -> dict[str, Any]:
    game: GameState = state.game
    assert game.dice is not None
    legal = game.legal_plays()
    tree = tap_tree(game.position(), game.dice, legal)
    return {"dice": list(game.dice), "counts": list(game.position().me), **tree}


def tap_tree(position: Position, dice: tuple[int, int], legal: LegalPlays) -> dict[str, Any]:
    """The legal plays of ``dice`` as a tree of single-die steps, for the page's script.

    Returns ``{"root": index | None, "nodes": [[play | 0, [src, dst, die, child, ...]], ...]}``: from a node, each
    step (source point, landing point, die) leads to the child node; a node whose play is not 0 is a whole legal
    play (its notation, as the engine writes it). Points are the mover's: 25 the bar, 26 an Acey-Deucey checker
    waiting to enter, 0 off. A step is kept only when some path through it ends in a legal play and the engine's
    :func:`~engine.movegen.play_key` accepts the steps so far. States are shared by their ``play_key`` and the
    dice left, so the tree stays small (a few hundred nodes for the busiest doubles). ``root`` is None when the
    roll cannot be played.
    """
    need = legal.max_dice
    if not need:
        return {"root": None, "nodes": []}
    pool = (dice[0],) * 4 if dice[0] == dice[1] else tuple(sorted(dice))
    nodes: list[list[Any]] = []
    seen: dict[tuple[int | None, tuple[int, ...]], int | None] = {}
    counts = list(position.me)

    def visit(steps: list[tuple[int, int, bool]], left: tuple[int, ...]) -> int | None:
        state = (play_key(position, steps), left)
        if state in seen:
            return seen[state]
        found: int | None = None
        if len(steps) == need:
            play = legal.find(steps)
            if play is not None:
                found = len(nodes)
                nodes.append([str(play), []])
        else:
            moves = _moves_from(steps, left)
            if moves:
                found = len(nodes)
                nodes.append([0, moves])
        seen[state] = found
        return found

    def _moves_from(steps: list[tuple[int, int, bool]], left: tuple[int, ...]) -> list[int]:
        found: list[tuple[int, int, int, int]] = []
        for die in sorted(set(left)):
            rest = list(left)
            rest.remove(die)
            for src in SOURCES:
                if not counts[src]:
                    continue
                dst = 25 - die if src >= BAR else max(src - die, OFF)
                step = (src, dst, False)
                if play_key(position, [*steps, step]) is None:
                    continue
                counts[src] -= 1
                counts[dst] += 1
                child = visit([*steps, step], tuple(rest))
                counts[src] += 1
                counts[dst] -= 1
                if child is not None:
                    found.append((src, dst, die, child))
        # In board order from the player's side (the bar first, then his 24-point down), each source's smallest
        # die first: the page's "from" buttons come in this order.
        found.sort(key=lambda move: (-move[0], move[2]))
        return [value for move in found for value in move]

    root = visit([], pool)
    return {"root": root, "nodes": nodes}
