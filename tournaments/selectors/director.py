"""Reads of the directors' pages: the events a director runs, the dashboard's current rounds, a division's rounds
with every board, a round's entry links for the pairing sheet.

Each runs a fixed number of queries whatever the size of the field (the sheet's first print also creates the
entry links that are missing, one row each). A *board* is a pairing as a director follows it: its state (ready,
playing with the live score, finished, awaiting confirmation, disputed, a bye, waiting for earlier results) is
:func:`tournaments.core.pairing_state`, read from the pairing and its match row, so a match in progress shows its
score before any sync has run.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Case, Count, F, Q, QuerySet, Value, When
from django.utils.translation import gettext as _

from games.access import new_entry_token, token_text
from games.models import EntryToken, Game, Match, Player
from games.selectors import Forfeit, forfeit_of, games_played
from tournaments.core import STILL_OPEN, PairingState, bracket_rank, outcome_of, pairing_state
from tournaments.models import ELIMINATION_FORMATS, Club, Division, Entry, Event, Pairing, Rating, Round

Status = Pairing.Status
_BOARD_RELATED = ("round", "entry_a__player", "entry_b__player", "match", "table")


def directed_events(user: Any) -> list[Event]:
    """The events ``user`` directs (staff: every event), newest first, each with ``division_count``."""
    events = Event.objects.all() if user.is_staff else Event.objects.filter(directors=user)
    return list(events.annotate(division_count=Count("divisions", distinct=True)).order_by("-starts_on", "-id"))


def event_divisions(event: Event) -> list[Division]:
    """The event's divisions, each with ``entry_count`` (entries not withdrawn)."""
    playing = Q(entries__status__in=[s for s in Entry.Status.values if s != Entry.Status.WITHDRAWN])
    return list(event.divisions.annotate(entry_count=Count("entries", filter=playing)).order_by("id"))


def event_directors(event: Event) -> list[Any]:
    return list(event.directors.order_by("username"))


#: The states whose pairing shows a score.
_SCORED = (
    PairingState.PLAYING,
    PairingState.FINISHING,
    PairingState.AWAITING,
    PairingState.DISPUTED,
    PairingState.FINISHED,
)


@dataclass(frozen=True)
class DirectorBoard:
    """A pairing as a director follows it, in its state (:func:`tournaments.core.pairing_state`)."""

    pairing: Pairing
    state: PairingState

    @property
    def score(self) -> tuple[int, int] | None:
        """The score it shows (:func:`tournaments.core.outcome_of`) once its match has started, else None."""
        if self.state not in _SCORED:
            return None
        outcome = outcome_of(self.pairing, self.pairing.match)
        return outcome.score_a, outcome.score_b

    @property
    def open(self) -> bool:
        """A match that can still be forfeited (its players known, not finished)."""
        return self.state in (PairingState.READY, PairingState.PLAYING) and self.pairing.match_id is not None


def director_board(pairing: Pairing) -> DirectorBoard:
    """The pairing (its match loaded) as a director follows it."""
    return DirectorBoard(pairing, pairing_state(pairing))


@dataclass(frozen=True)
class RoundBoards:
    round: Round
    boards: list[DirectorBoard]
    current: bool = False

    @property
    def open_boards(self) -> list[DirectorBoard]:
        return [b for b in self.boards if b.open]


def _boards(qs: QuerySet[Pairing]) -> QuerySet[Pairing]:
    return qs.select_related(*_BOARD_RELATED).defer("match__state")


def _group(pairings: list[Pairing], current: set[int]) -> list[RoundBoards]:
    by_round: dict[int, list[DirectorBoard]] = defaultdict(list)
    rounds: dict[int, Round] = {}
    for p in pairings:
        rounds[p.round_id] = p.round
        by_round[p.round_id].append(director_board(p))
    return [RoundBoards(rounds[rid], by_round[rid], rid in current) for rid in rounds]


def _current_rounds(rounds: list[tuple[int, int]], active: set[int]) -> set[int]:
    """Per division: the rounds with a match to play or a result to answer for; else the division's last round.
    ``rounds``: (round id, division id) in play order."""
    current = set(active)
    last: dict[int, int] = {}
    with_active = set()
    for round_id, division_id in rounds:
        last[division_id] = round_id
        if round_id in active:
            with_active.add(division_id)
    current |= {rid for did, rid in last.items() if did not in with_active}
    return current


def _active_round_ids(pairings: QuerySet[Pairing]) -> set[int]:
    """Rounds under way: a match being played or a result to answer for anywhere; and the rounds with a match
    ready to start: every such round of an elimination division (its brackets advance slot by slot), only the
    earliest of a Swiss or round-robin division (a round robin draws all its rounds at the start)."""
    rows = (
        pairings.filter(STILL_OPEN)
        .order_by()
        .values_list(
            "round_id", "round__number", "division_id", "division__format", "status", "match__status", "round__bracket"
        )
        .distinct()
    )
    busy: set[int] = set()
    ready: dict[int, list[tuple[int, int]]] = defaultdict(list)  # division -> (number, round id)
    elimination: set[int] = set()
    for round_id, number, division_id, fmt, status, match_status, bracket in rows:
        if fmt in ELIMINATION_FORMATS or (fmt == Division.Format.SWISS_KNOCKOUT and bracket == Round.Bracket.MAIN):
            elimination.add(division_id)  # a bracket (a Swiss into a knockout's knockout) advances slot by slot
        if status == Status.READY and match_status != Match.Status.IN_PROGRESS:
            ready[division_id].append((number, round_id))
        else:
            busy.add(round_id)
    for division_id, rounds in ready.items():
        busy |= {rid for _n, rid in rounds} if division_id in elimination else {min(rounds)[1]}
    return busy


def _round_order(qs: QuerySet[Round]) -> QuerySet[Round]:
    """Rounds in play order: a Swiss into a knockout's Swiss rounds before its knockout's."""
    swiss_first = Case(When(bracket=Round.Bracket.SWISS, then=Value(0)), default=Value(1))
    return qs.order_by("division_id", swiss_first, "number", bracket_rank(), "id")


def current_boards(event: Event) -> dict[int, list[RoundBoards]]:
    """The current round(s) of each division of the event, with their boards, by division id (four queries)."""
    pairings = Pairing.objects.filter(division__event=event)
    rounds = list(_round_order(Round.objects.filter(division__event=event)).values_list("id", "division_id"))
    current = _current_rounds(rounds, _active_round_ids(pairings))
    order = ("round__number", bracket_rank("round__bracket"), "board")
    chosen = _boards(pairings.filter(round_id__in=current)).order_by(*order)
    out: dict[int, list[RoundBoards]] = defaultdict(list)
    for group in _group(list(chosen), current):
        out[group.round.division_id].append(group)
    return dict(out)


def event_rounds(event: Event) -> dict[int, list[Round]]:
    """Every round of the event's divisions, by division id (one query)."""
    out: dict[int, list[Round]] = defaultdict(list)
    for rnd in Round.objects.filter(division__event=event):
        out[rnd.division_id].append(rnd)
    return dict(out)


def division_rounds(division: Division) -> list[RoundBoards]:
    """Every round of the division with its boards, in play order; the current ones flagged (three queries), none
    once the division is over."""
    pairings = Pairing.objects.filter(division=division)
    rounds = list(_round_order(division.rounds.all()).values_list("id", "division_id"))
    current = _current_rounds(rounds, _active_round_ids(pairings))
    if division.status == Division.Status.FINISHED:
        current = set()
    rows = _boards(pairings).order_by(_SWISS_FIRST, "round__number", bracket_rank("round__bracket"), "board")
    return _group(list(rows), current)


#: The Swiss rounds of a Swiss into a knockout before its knockout (no other format has both kinds of round).
_SWISS_FIRST = Case(When(round__bracket=Round.Bracket.SWISS, then=Value(0)), default=Value(1))


def division_entries(division: Division) -> list[Entry]:
    """Seeded entries in seed order, then the others in the order they registered."""
    return list(division.entries.select_related("player").order_by(F("seed").asc(nulls_last=True), "id"))


def division_entries_among(division: Division, ids: list[str]) -> list[Entry]:
    """The entries ``ids`` of the division, in the list's order (one query, whatever their number)."""
    entries = list(
        division.entries.select_related("player").filter(pk__in=ids).order_by(F("seed").asc(nulls_last=True), "id")
    )
    for entry in entries:
        entry.division = division
    return entries


def division_entry(division: Division, entry_id: str) -> Entry | None:
    if not entry_id.isdigit():
        return None
    entry = division.entries.select_related("player").filter(pk=int(entry_id)).first()
    if entry is not None:
        entry.division = division
    return entry


def division_pairing(division: Division, key: str) -> Pairing | None:
    pairing = _boards(division.pairings.filter(key=key)).first()
    if pairing is not None:
        pairing.division = division
    return pairing


def division_round(division: Division, bracket: str, number: int) -> Round | None:
    rnd = division.rounds.filter(bracket=bracket, number=number).first()
    if rnd is not None:
        rnd.division = division
    return rnd


def round_boards(rnd: Round) -> list[DirectorBoard]:
    rows = _boards(Pairing.objects.filter(round=rnd)).order_by("board")
    return [director_board(p) for p in rows]


def match_games(match: Match) -> list[Game]:
    return list(Game.objects.filter(match=match).order_by("number"))


def match_results(match: Match, games: list[Game]) -> tuple[list[Game], Forfeit | None]:
    """The games a director's games table shows, and the forfeit that closed the match (if one did)."""
    forfeit = forfeit_of(match, games, (match.player1.display_name, match.player2.display_name))
    return games_played(games, forfeit), forfeit


@dataclass(frozen=True)
class SheetLine:
    """A board of the pairing sheet: each side's entry link (None for a side with no match)."""

    board: DirectorBoard
    links: tuple[str | None, str | None]


def sheet_lines(boards: list[DirectorBoard], build_url: Any) -> list[SheetLine]:
    """Each board with the entry link of each side: the newest valid entry token of the side, or a new one
    (``games.access.new_entry_token``) if the side has none. ``build_url(path)`` makes the absolute URL."""
    matches = [b.pairing.match for b in boards if b.pairing.match is not None]
    tokens: dict[tuple[int, int], EntryToken] = {}
    with transaction.atomic():
        valid = EntryToken.objects.filter(match__in=matches, revoked_at__isnull=True).order_by("id")
        for token in valid:
            tokens[(token.match_id, token.side)] = token
        for match in matches:
            for side in (0, 1):
                if (match.pk, side) not in tokens:
                    tokens[(match.pk, side)] = new_entry_token(match, side)
    lines = []
    for board in boards:
        played = board.pairing.match
        if played is None:
            lines.append(SheetLine(board, (None, None)))
            continue
        a, b = (build_url("/play/" + token_text(tokens[(played.pk, side)]) + "/") for side in (0, 1))
        lines.append(SheetLine(board, (a, b)))
    return lines


def roster_choice(event: Event, player_id: int) -> Player | None:
    """The player ``player_id`` of the roster of the event's club (None outside it, or for an event without a
    club): the player a director chose for a name close to the roster's."""
    if event.club_id is None:
        return None
    return Player.objects.filter(pk=player_id, clubs=event.club_id).first()


#: The most roster names the register form offers as suggestions (a page sent at every registration stays small).
ROSTER_SUGGESTIONS = 500


def roster_names(event: Event) -> list[str]:
    """The names the register form of a club's event suggests: the whole roster when it holds at most
    :data:`ROSTER_SUGGESTIONS` players, else the players of the club's latest entries, as many (none outside a
    club). Two statements."""
    if event.club_id is None:
        return []
    roster = Player.objects.filter(clubs=event.club_id, merged_into__isnull=True)
    names = list(roster.order_by("display_name").values_list("display_name", flat=True)[: ROSTER_SUGGESTIONS + 1])
    if len(names) <= ROSTER_SUGGESTIONS:
        return list(dict.fromkeys(names))
    latest = (
        Entry.objects.filter(division__event__club=event.club_id, player__clubs=event.club_id)
        .order_by("-registered_at", "-pk")
        .values_list("player__display_name", flat=True)[: 4 * ROSTER_SUGGESTIONS]
    )
    return sorted(list(dict.fromkeys(latest))[:ROSTER_SUGGESTIONS])


def directed_clubs(user: Any) -> QuerySet[Club]:
    """The clubs ``user`` directs (staff: every club), by name: those he may run an event for."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    clubs = Club.objects.all() if user.is_staff else Club.objects.filter(directors=user)
    return clubs.order_by("name", "id")


def list_ratings(division: Division, players: list[int]) -> dict[int, str] | None:
    """Each of ``players``' rating on the event's rating list, as the players' list shows it ("1523", or
    "new (1500)" for one not rated yet), by player id; None when the event has no rating list (no statement then,
    two otherwise)."""
    if division.event.rating_list_id is None:
        return None
    rating_list = division.event.rating_list
    assert rating_list is not None
    rated = dict(
        Rating.objects.filter(rating_list=rating_list, player_id__in=players).values_list("player_id", "rating")
    )
    new = _("new (%(start)s)") % {"start": f"{rating_list.start:.0f}"}
    return {pk: f"{rated[pk]:.0f}" if pk in rated else new for pk in players}
