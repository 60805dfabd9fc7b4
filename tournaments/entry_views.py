"""What a player does about a tournament from the entry pages: confirm or dispute a scoresheet result entered by
the opponent (a round's pairing's, or a playoff's match's), and see where and against whom the next match is
(after the results still waiting for his own confirmation, each with a link to its entry page).

Players are recognised as on the entry pages (games/entry.py): the entry links kept in the session, or the account
linked to their player record. Thin views: tournaments.services does the work and says what it refuses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from common.actor import Actor
from common.errors import ApplicationError
from common.live import not_modified
from games.access import take_entry_token
from games.entry import held_actors, held_tokens, keep_entry_link, phone_of, see_other
from games.models import Match, Player
from tournaments import services
from tournaments.core import round_words
from tournaments.entry_panel import playoff_of
from tournaments.models import Division, Entry, Pairing, Playoff
from tournaments.pages import call_words, place_words, playoff_words
from tournaments.selectors import NextFor, final_prize_of, next_for
from tournaments.selectors.playoffs import PlayoffTurn
from tournaments.standings.payouts import cents_text

#: How often "Your next match" asks whether a call was made (seconds).
NEXT_POLL_SECONDS = 5


def _pairing(pairing_id: int) -> tuple[Pairing, Match]:
    pairing = (
        Pairing.objects.select_related("match__player1", "match__player2", "match__winner")
        .filter(pk=pairing_id)
        .first()
    )
    if pairing is None or pairing.match is None:
        raise Http404("no such pairing")
    return pairing, pairing.match


def _answering(request: HttpRequest, asked: int | None, match: Match) -> Actor | None:
    """Who answers for the visitor: the side ``asked`` to confirm if held, else any side held (the service
    refuses)."""
    actors = held_actors(request, match)
    if not actors:
        return None
    return actors[asked] if asked in actors else next(iter(actors.values()))


def _refused(
    request: HttpRequest,
    match: Match | None,
    message: str,
    status: int,
    *,
    dispute_url: str = "",
    reason: str = "",
    heading: str = "",
) -> HttpResponse:
    """The refusal, with a way back to the entry page; a refused dispute is shown again with its reason kept.
    Headed "Not recorded" (a refused confirmation or dispute) unless ``heading`` says what else was refused."""
    context = {"message": message, "match": match, "dispute_url": dispute_url, "reason": reason, "heading": heading}
    return render(request, "entry/panel_refused.html", context, status=status)


@require_POST
def confirm(request: HttpRequest, pairing_id: int) -> HttpResponse:
    """``/play/pairings/<id>/confirm/``: the player asked to confirm the result confirms it."""
    pairing, match = _pairing(pairing_id)
    return _answer(
        request, match, pairing.confirmation_side, lambda actor: services.confirm_result(pairing, actor=actor)
    )


@require_POST
def dispute(request: HttpRequest, pairing_id: int) -> HttpResponse:
    """``/play/pairings/<id>/dispute/``: the player asked to confirm says the result is wrong, and why."""
    pairing, match = _pairing(pairing_id)
    reason = request.POST.get("reason", "")
    return _answer(
        request,
        match,
        pairing.confirmation_side,
        lambda actor: services.dispute_result(pairing, actor=actor, reason=reason),
        dispute_url=reverse("pairing_entry:dispute", args=[pairing.pk]),
    )


def _playoff_match(match_id: int) -> tuple[Playoff, Match]:
    playoff = playoff_of(match_id)
    if playoff is None:
        raise Http404("no such playoff match")
    match = Match.objects.select_related("player1", "player2").get(pk=match_id)
    return playoff, match


@require_POST
def playoff_confirm(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/play/pairings/playoff/<match id>/confirm/``: the player asked confirms a playoff match's result."""
    playoff, match = _playoff_match(match_id)
    asked = playoff.confirmation_of(match.pk)[1]
    return _answer(request, match, asked, lambda actor: services.confirm_playoff_result(match.pk, actor=actor))


@require_POST
def playoff_dispute(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/play/pairings/playoff/<match id>/dispute/``: the player asked says a playoff match's result is wrong."""
    playoff, match = _playoff_match(match_id)
    reason = request.POST.get("reason", "")
    return _answer(
        request,
        match,
        playoff.confirmation_of(match.pk)[1],
        lambda actor: services.dispute_playoff_result(match.pk, actor=actor, reason=reason),
        dispute_url=reverse("pairing_entry:playoff-dispute", args=[match.pk]),
    )


def _answer(
    request: HttpRequest, match: Match, asked: int | None, act: Callable[[Actor], object], *, dispute_url: str = ""
) -> HttpResponse:
    """Answer for a result as the visitor's side (``asked``: the side asked to confirm): back to the entry page, or
    the refusal (a refused dispute with its form and reason again)."""
    actor = _answering(request, asked, match)
    if actor is None:
        return _refused(request, match, _("Only the players of this match can answer for its result."), 403)
    try:
        act(actor)
    except ApplicationError as exc:
        reason = request.POST.get("reason", "")
        return _refused(request, match, exc.message, exc.status, dispute_url=dispute_url, reason=reason)
    return see_other(reverse("entry:match", args=[match.pk]))


@require_POST
def enter(request: HttpRequest, pairing_id: int) -> HttpResponse:
    """``/play/pairings/<id>/enter/``: "Enter this match" on "Your next match": the phone that holds a player's
    earlier entry link takes his side's link of this match (bound to it, as an opened link is) and goes to its entry
    page, without a new slip. Another phone, or a visitor without such a link, is refused (403)."""
    return _enter(request, _pairing(pairing_id)[1])


@require_POST
def playoff_enter(request: HttpRequest, match_id: int) -> HttpResponse:
    """``/play/pairings/playoff/<match id>/enter/``: "Enter this match" for a playoff's match, as :func:`enter`."""
    return _enter(request, _playoff_match(match_id)[1])


def _enter(request: HttpRequest, match: Match) -> HttpResponse:
    held = held_tokens(request)
    players = {t.match.player(t.side).pk for t in held}
    sides = [side for side in (0, 1) if match.player(side).pk in players]
    if not sides:
        message = _(
            "Only a player of this match can enter it from his phone: open the entry link on your slip (scan its "
            "QR code)."
        )
        return _refused(request, None, message, 403, heading=_("You cannot enter this match here"))
    try:
        taken = [take_entry_token(match, side, phone=phone_of(request), held=held) for side in sides]
    except ApplicationError as exc:
        return _refused(request, None, exc.message, exc.status, heading=_("You cannot enter this match here"))
    for token in taken:
        keep_entry_link(request, token, phone_of(request))
    return see_other(reverse("entry:match", args=[match.pk]))


@never_cache
@require_GET
def next_match(request: HttpRequest) -> HttpResponse:
    """``/play/pairings/next/``: for each player this visitor is (entry links kept, account), the next match and,
    once it has a table, its call. With ``?live=1``, the part the page polls every few seconds (304 when nothing
    changed), so that a call shows without a reload."""
    players: dict[int, Player] = {}
    last_match: dict[int, int] = {}  # the latest match each player holds the entry link of: "back to it"
    held_matches: set[int] = set()
    for token in held_tokens(request):
        player = token.match.player(token.side)
        players.setdefault(player.pk, player)
        last_match[player.pk] = max(last_match.get(player.pk, 0), token.match_id)
        held_matches.add(token.match_id)
    user = request.user
    if user.is_authenticated:
        for player in Player.objects.filter(user=user).order_by("pk"):
            players.setdefault(player.pk, player)
    if not players:
        message = _("Open your entry link, or log in, to see your next match.")
        return _refused(request, None, message, 403, heading=_("No entry link open on this phone"))
    rows = [_next_row(player, next_for(player), user) for player in players.values()]
    for row in rows:
        held = last_match.get(row["player"].pk)  # type: ignore[attr-defined]
        asked = row["player"]
        assert isinstance(asked, Player)
        row["confirm"] = _results_to_confirm(asked, holds_link=held is not None, held_matches=held_matches)
        _offer_entry(row, held is not None, held_matches)
        if held is not None and _next_match_id(row) != held:
            row["back_url"] = reverse("entry:match", args=[held])
    etag = _etag(rows)
    live = request.GET.get("live") == "1"
    if live and not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        shown = {"rows": rows, "etag": etag, "poll_trigger": f"every {NEXT_POLL_SECONDS}s"}
        response = render(request, "entry/_next_live.html" if live else "entry/next_match.html", shown)
    response["ETag"] = etag
    return response


def _offer_entry(row: dict[str, object], holds_link: bool, held_matches: set[int]) -> None:
    """How the row's player enters his next match from here: its entry page when this phone holds its link already
    (or his account plays it), else "Enter this match" for a phone that holds his earlier link (it takes this
    match's link in one tap)."""
    match_id = _next_match_id(row)
    if match_id is None or row.get("entry_url"):
        return
    if match_id in held_matches:
        row["entry_url"] = reverse("entry:match", args=[match_id])
    elif holds_link and row.get("playoff"):
        row["enter_url"] = reverse("pairing_entry:playoff-enter", args=[match_id])
    elif holds_link:
        row["enter_url"] = reverse("pairing_entry:enter", args=[row["pairing"].pk])  # type: ignore[attr-defined]


def _next_match_id(row: dict[str, object]) -> int | None:
    """The match of the row's next pairing, or of his playoff match to play (None: none made)."""
    turn = row.get("playoff")
    if isinstance(turn, PlayoffTurn):
        return turn.match.pk if turn.match is not None else None
    return getattr(row["pairing"], "match_id", None)


def _results_to_confirm(player: Player, *, holds_link: bool, held_matches: set[int]) -> list[dict[str, str]]:
    """The results waiting for ``player``'s confirmation (a round's pairing, a playoff's match whose side asked is
    his), each as "Confirm or dispute your result against X (round N)" with its match's entry page: shown before
    his next match, as the opponent who entered it waits for his answer. A phone that holds another link of his
    and not this match's takes it in one tap (``enter_url``, as "Enter this match"): the entry page alone refused
    it."""
    awaiting = Pairing.Confirmation.AWAITING
    asked: list[tuple[Match, str, str]] = []
    pairings = (
        Pairing.objects.filter(confirmation=awaiting, match__isnull=False)
        .filter(Q(confirmation_side=0, match__player1=player) | Q(confirmation_side=1, match__player2=player))
        .select_related("round", "division", "match__player1", "match__player2")
        .order_by("pk")
    )
    for pairing in pairings:
        assert pairing.match is not None
        enter = reverse("pairing_entry:enter", args=[pairing.pk])
        asked.append((pairing.match, round_words(pairing.round, pairing.division), enter))
    mine = Q()
    for which in ("first", "final"):
        for side, field in ((0, "player1"), (1, "player2")):
            mine |= Q(**{f"{which}_confirmation": awaiting, f"{which}_confirmation_side": side}) & Q(
                **{f"{which}_match__{field}": player}
            )
    for playoff in Playoff.objects.filter(mine).select_related("first_match", "final_match").order_by("pk"):
        for match in (playoff.first_match, playoff.final_match):
            if match is None:
                continue
            state, asked_side = playoff.confirmation_of(match.pk)
            if state == awaiting and asked_side is not None and match.player(asked_side).pk == player.pk:
                enter = reverse("pairing_entry:playoff-enter", args=[match.pk])
                asked.append((match, playoff_words(playoff, match.pk), enter))
    items = []
    for match, where, enter in asked:
        side = 0 if match.player1_id == player.pk else 1
        words = {"opponent": match.player(1 - side).display_name, "round": where[:1].lower() + where[1:]}
        said = _("Confirm or dispute your result against %(opponent)s (%(round)s):") % words
        item = {"words": said, "url": reverse("entry:match", args=[match.pk])}
        if holds_link and match.pk not in held_matches:
            item["enter_url"] = enter
        items.append(item)
    return items


def _etag(rows: list[dict[str, object]]) -> str:
    """What the part shows of each row: the results waiting for his confirmation, the player, his next match, its
    table and call, its state (or his place once his division is over)."""
    shown = [
        (
            getattr(row["player"], "pk", None),
            row.get("confirm"),
            row.get("call"),
            row.get("where"),
            row.get("state"),
            row.get("over"),
        )
        for row in rows
    ]
    return '"' + hashlib.sha256(repr(shown).encode()).hexdigest()[:24] + '"'


def _over_words(player: Player, division: Division, place: str) -> str:
    """ "The Open is over: you finished 3rd." once the player's division is over; a place a playoff decided says so
    ("you finished 2nd, after a playoff"); a place he shares as the standings say it ("Shared 3rd-4th place": "The
    Open is over: you share 3rd-4th place."), with his prize when the published payout table pays him ("...
    3rd-4th place, and your prize is 100.00.")."""
    if not place:
        return _("%(division)s is over.") % {"division": division.name}
    words = {"division": division.name, "place": place_words(place)}
    entry_id = Entry.objects.filter(division=division, player=player).values_list("pk", flat=True).first()
    # A shared place as the standings say it ("Shared 2nd-3rd place"): "you share 2nd-3rd place".
    if "-" in place:
        finished = _("%(division)s is over: you share %(place)s place") % words
    elif entry_id is not None and _playoff_decided(division, entry_id):
        finished = _("%(division)s is over: you finished %(place)s, after a playoff") % words
    else:
        finished = _("%(division)s is over: you finished %(place)s") % words
    prize = final_prize_of(division, entry_id) if entry_id is not None else None
    if prize is None:
        return f"{finished}."
    return _("%(finished)s, and your prize is %(prize)s.") % {"finished": finished, "prize": cents_text(prize)}


def _playoff_decided(division: Division, entry_id: int) -> bool:
    """Whether a finished playoff of the division settled the entry's place (one query)."""
    played = division.playoffs.filter(status=Playoff.Status.FINISHED).values_list("entries", flat=True)
    return any(entry_id in entries for entries in played)


def next_words(player: Player, found: NextFor) -> str:
    """What "Your next match" says of ``player`` without a match to play (the page's line, the API's ``words``; ""
    when he has one, or nothing to say): his bracket slot waiting for its opponent, what he waits for in an
    ordered playoff (:func:`_playoff_words`), the running division he is out of (:func:`_out_words`), or his place
    once his division is over (:func:`_over_words`)."""
    if found.waiting is not None:  # a bracket slot whose opponent is still being decided
        slot, against = found.waiting
        words = {"round": round_words(slot.round, slot.division), "against": against}
        return _("Your next match: %(round)s, against %(against)s, once that match is over.") % words
    if found.playoff is not None:
        return _playoff_words(player, found.playoff) if found.playoff.match is None else ""
    if found.out is not None:
        return _out_words(*found.out)
    return _over_words(player, *found.finished) if found.finished is not None else ""


def _out_words(division: Division, place: str) -> str:
    """ "You are out of the Open, in 3rd-4th place: it goes on without you." for a player knocked out of a running
    division (his place as its standings say it so far, when they fix one)."""
    words = {"division": division.name, "place": place_words(place)}
    if not place:
        return _("You are out of %(division)s: it goes on without you.") % words
    return _("You are out of %(division)s, in %(place)s place: it goes on without you.") % words


def _next_row(player: Player, found: NextFor, user: object) -> dict[str, object]:
    """The player's row of the page, from what :func:`tournaments.selectors.next_for` found."""
    pairing = found.pairing
    if found.playoff is not None:
        return _playoff_row(player, found.playoff, user)
    if pairing is None:
        row: dict[str, object] = {"player": player, "pairing": None, "over": next_words(player, found)}
        division = found.division
        if division is not None:
            public = division.event.public
            row["event_url"] = reverse("tournaments:event-detail", args=[division.event.slug]) if public else ""
        return row
    mine_a = pairing.entry_a is not None and pairing.entry_a.player_id == player.pk
    other = pairing.entry_b if mine_a else pairing.entry_a
    own_account = player.user_id is not None and player.user_id == getattr(user, "pk", None)
    return {
        "player": player,
        "pairing": pairing,
        "opponent": other.player if other is not None else None,
        "event": pairing.division.event,
        "round": round_words(pairing.round, pairing.division),
        "entry_url": reverse("entry:match", args=[pairing.match_id]) if own_account and pairing.match_id else "",
        "event_url": reverse("tournaments:event-detail", args=[pairing.division.event.slug])
        if pairing.division.event.public
        else "",
        "call": call_words(pairing, player.pk) if pairing.table_id is not None else "",
        "where": (pairing.pk, pairing.table_id, pairing.called_at),
        "state": (pairing.status, pairing.match.status if pairing.match else None),
    }


def _lost_the_first_match(player: Player, playoff: Playoff) -> bool:
    """Whether the player lost a three-player stepladder's first match and it counts (its final is made): the
    stepladder rule makes him the last of the tie, whatever the final's result."""
    first = playoff.first_match
    if first is None or playoff.final_match_id is None or first.winner_id is None:
        return False
    return player.pk in (first.player1_id, first.player2_id) and first.winner_id != player.pk


def _playoff_words(player: Player, turn: PlayoffTurn) -> str:
    """What a player in an ordered playoff without a match to play in it waits for: the stepladder's first match
    whose winner he plays in the final, or the rest of the playoff (his place settled by the stepladder rule once he
    lost its first match)."""
    playoff = turn.playoff
    words = {"playoff": playoff_words(playoff), "division": playoff.division.name}
    if turn.waits_for is not None:
        words |= {"a": turn.waits_for[0], "b": turn.waits_for[1]}
        return _("%(playoff)s, %(division)s: you play the final against the winner of %(a)s v %(b)s.") % words
    if _lost_the_first_match(player, playoff):
        words["place"] = place_words(str(playoff.place + 2))
        lost = _(
            "%(playoff)s, %(division)s: you lost its first match, so you finish %(place)s by the stepladder rule "
            "(its final settles the places above you)."
        )
        return lost % words
    return _("%(playoff)s, %(division)s: your place is settled once the playoff is over.") % words


def _playoff_row(player: Player, turn: PlayoffTurn, user: object) -> dict[str, object]:
    """A player in an ordered playoff: his match to play in it (what it is, against whom, its length), else what he
    waits for: the stepladder's first match whose winner he plays in the final, or the rest of the playoff."""
    playoff, match = turn.playoff, turn.match
    event = playoff.division.event
    row: dict[str, object] = {
        "player": player,
        "pairing": None,
        "playoff": turn,
        "event": event,
        "division": playoff.division,
        "round": playoff_words(playoff, match.pk if match is not None else None),
        "event_url": reverse("tournaments:event-detail", args=[event.slug]) if event.public else "",
        "state": (playoff.pk, match.pk if match is not None else None, match.status if match is not None else None),
    }
    if match is None:
        row["over"] = _playoff_words(player, turn)
        return row
    own_account = player.user_id is not None and player.user_id == getattr(user, "pk", None)
    row["opponent"] = turn.opponent
    row["entry_url"] = reverse("entry:match", args=[match.pk]) if own_account else ""
    return row
