"""The division's domain core: what every service, read path and the rehearsal agree on about a division.

- its lock (:func:`lock_division`): the per-division sequencer every write to its pairings goes through, which also
  locks its event's row, the lock of the venue's tables (they are shared by the event's divisions);
- its plan (:func:`plan_of`) and its bracket resolved from the counted results (:func:`resolve_division`);
- which results count (:func:`counts`, :func:`result_counts`, :data:`COUNTED`): a match finished or forfeited and,
  for a result entered from a scoresheet by one player, confirmed by the opponent or a director; a bye counts as
  a win;
- the result a pairing shows given its match (:func:`outcome_of`, beside its query twins :data:`FINISHED_AS_MATCH`
  and :data:`OPEN_AS_MATCH`): the sync, the result written in the match's own transaction, the pages, the
  director's selectors and the API all read it here;
- the state of a pairing as people follow it (:func:`pairing_state`), from the pairing and its match (through
  :func:`outcome_of`), so that a match in progress shows before the division's sync has run;
- the length of a round's matches (:func:`round_length`), the order rounds are played in (:func:`play_order`) and
  the order in which ready matches get the venue's tables (:func:`table_order`, :data:`TABLE_ORDER` in SQL);
- whether an entry is a withdrawal that left no trace in the division (:func:`withdrawn_unplayed`): a merge of two
  records drops such a duplicate entry, and its preview says so.

Everything here reads; the only row it locks is the division's. It sits below the services (tournaments/services/)
and the read layer (tournaments/selectors/), which both import it and which it never imports.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Case, F, Min, Q, Value, When
from django.utils.translation import gettext

from common.errors import ApplicationError, ErrorCode
from games.models import Action, Match
from tournaments.models import ELIMINATION_FORMATS, Division, Entry, Pairing, Round, Standing
from tournaments.pairing import brackets
from tournaments.standings import cash
from tournaments.standings.playoffs import Tie, ties_that_matter

Status = Pairing.Status
Confirmation = Pairing.Confirmation

# -- the lock ------------------------------------------------------------------------------------------------------


def lock_division(division_id: int) -> Division:
    """Lock a division's row and its event's: the per-division sequencer every write to its pairings goes through,
    and the lock of the event's tables, which the divisions share (tournaments/services/tables.py). Every writer
    takes the two in one statement, so two divisions' results arriving at once are assigned tables one after the
    other."""
    try:
        return Division.objects.select_for_update(of=("self", "event")).select_related("event").get(pk=division_id)
    except Division.DoesNotExist:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no division {division_id}") from None


# -- playoffs ------------------------------------------------------------------------------------------------------


def may_have_playoffs(division: Division) -> bool:
    """Whether the division's standings may hold a playoff (so that pages read playoffs only then): a Swiss into a
    knockout's, a finished Swiss's or round robin's."""
    if division.is_swiss_knockout:
        return True
    return not division.is_elimination and division.status == Division.Status.FINISHED


def place_span(rank: int, players: int) -> str:
    """The places ``players`` tied at ``rank`` share, as the standings say them: "4" for one, "4-6" for three."""
    return str(rank) if players == 1 else f"{rank}-{rank + players - 1}"


#: What the source of a playoff's match says (``<event>/<division>/playoff-<id>-<number>``): a page asks for a
#: match's playoff only when its source says it may have one (a stand-alone match costs no query more).
PLAYOFF_SOURCE = "/playoff-"


def playoff_source(division: Division, playoff_id: int, number: int) -> str:
    """The source of a playoff's match (its ``number``: 1, the first; 2, a stepladder's final)."""
    return f"{division.event.slug}/{division.slug}{PLAYOFF_SOURCE}{playoff_id}-{number}"


def playoffs_in_play(division: Division) -> bool:
    """Whether a playoff of the division may still be played (so that its sync looks at them only then): a Swiss
    into a knockout's before its knockout is drawn, a finished Swiss's or round robin's."""
    return may_have_playoffs(division) and not division.knockout_drawn


def playoff_table(division: Division, latest: int) -> int | None:
    """The standings table (its ``after_round``) whose ties a playoff may settle, given the ``latest`` table stored:
    a Swiss into a knockout's last Swiss table while its knockout is not drawn, a Swiss's or round robin's final
    table once the division is finished; None for any other (a knockout's shared places are its format's)."""
    if division.is_swiss_knockout:
        ready = not division.knockout_drawn and division.status == Division.Status.RUNNING
        return division.rounds_planned if ready and latest == division.rounds_planned else None
    if division.is_elimination or division.status != Division.Status.FINISHED or latest == 0:
        return None
    return latest


def playoff_ties(division: Division, table: Sequence[tuple[int, int, str]]) -> list[Tie]:
    """The ties that matter (tournaments/standings/playoffs.py) in a table of :func:`playoff_table`, given as
    (rank, entry id, entry status) in standings order: a Swiss into a knockout's across its cut (players who withdrew
    left out, as the cut leaves them), a Swiss's or round robin's for first place or over places its payout table's
    main flight pays differently."""
    if division.is_swiss_knockout:
        active = [(rank, pk) for rank, pk, status in table if status != Entry.Status.WITHDRAWN]
        return ties_that_matter(active, cut=division.knockout_size)
    prizes = [cash_value(v) for v in ((division.payouts or {}).get("flights") or {}).get(str(Round.Bracket.MAIN), [])]
    return ties_that_matter([(rank, pk) for rank, pk, _ in table], prizes=prizes, first=True)


def cash_value(value: Any) -> Decimal:
    """A payout table's stored value (a percentage or an amount, stored as text) as a number."""
    return Decimal(str(value))


# -- counted results -----------------------------------------------------------------------------------------------

#: The confirmations under which a finished pairing's result counts.
COUNTED_CONFIRMATIONS = (Confirmation.NOT_NEEDED, Confirmation.CONFIRMED)
#: The pairings whose result counts (what :func:`counts` says, as a filter).
COUNTED = Q(status=Status.BYE, winner__isnull=False) | Q(status=Status.FINISHED, confirmation__in=COUNTED_CONFIRMATIONS)
#: The decisions that make a result a forfeit: a match won, not over the board (tournaments/standings/tiebreakers.py
#: says how one counts in the tie-breaks; a forfeit earns no master points, tournaments/points.py).
FORFEITS = (Pairing.Decision.FORFEIT_NO_SHOW, Pairing.Decision.FORFEIT_WITHDRAWAL, Pairing.Decision.FORFEIT_PENALTY)


def counts(pairing: Any) -> bool:
    """Whether a pairing's result counts (finished and, where needed, confirmed; a bye counts as a win). Takes a
    pairing or anything with its ``status``, ``winner_id`` and ``confirmation``."""
    return result_counts(pairing.status, pairing.winner_id, pairing.confirmation)


def result_counts(status: str, winner_id: int | None, confirmation: str) -> bool:
    """:func:`counts` on a pairing's values."""
    if status == Status.BYE:
        return winner_id is not None
    return status == Status.FINISHED and confirmation in COUNTED_CONFIRMATIONS


def confirmation_needed(match: Match) -> tuple[str, int | None]:
    """A scoresheet result entered by one player waits for the other's confirmation (or a director's): the
    confirmation a match just over needs, and the side asked (a round's pairing's, a playoff's match's)."""
    if match.entry_mode != Match.EntryMode.SCORESHEET or match.status == Match.Status.FORFEITED:
        return Pairing.Confirmation.NOT_NEEDED, None
    last = (
        Action.objects.filter(match=match, kind__in=(Action.Kind.GAME_RESULT, Action.Kind.CONCEDE_MATCH))
        .order_by("-seq")
        .values("entered_by_token__side", "entered_by_user", "side")
        .first()
    )
    if last is None:
        return Pairing.Confirmation.NOT_NEEDED, None
    entering_side = last["entered_by_token__side"]
    if entering_side is None and last["entered_by_user"] is not None:
        entering_side = _side_of_user(match, last["entered_by_user"])
    if entering_side is None:
        return Pairing.Confirmation.NOT_NEEDED, None  # entered by a director
    return Pairing.Confirmation.AWAITING, 1 - entering_side


def _side_of_user(match: Match, user_id: int) -> int | None:
    for side, player in ((0, match.player1), (1, match.player2)):
        if player.user_id == user_id:
            return side
    return None


# -- money ---------------------------------------------------------------------------------------------------------


def fees_of(division: Division) -> cash.Fees:
    """The division's money settings in cents (tournaments/standings/cash.py)."""
    return cash.Fees(
        entry_fee=cash.to_cents(division.entry_fee),
        side_pool_fee=cash.to_cents(division.side_pool_fee),
        house_share=division.house_share,
        added_money=cash.to_cents(division.added_money),
    )


def has_fees(division: Division) -> bool:
    """Whether the division takes fees or has added money: its prize pool is then computed from them."""
    return bool(division.entry_fee or division.side_pool_fee or division.added_money)


def pool_of(division: Division) -> cash.Pool:
    """The division's prize pool and side pool from its players' payment marks (one query)."""
    marks = division.entries.order_by().values_list("paid", "side_pool", "refunded")
    return cash.pool_of(fees_of(division), [cash.Payment(fee, side, refunded) for fee, side, refunded in marks])


# -- the state of a pairing ----------------------------------------------------------------------------------------

#: A pairing to be played or being played.
PLAYABLE = (Status.READY, Status.PLAYING)
#: A result waiting for the opponent's confirmation, or disputed (a director decides).
UNCONFIRMED = (Confirmation.AWAITING, Confirmation.DISPUTED)
#: A pairing still open: to be played, being played, or its result waiting for a confirmation or a director.
STILL_OPEN = Q(status__in=PLAYABLE) | Q(confirmation__in=UNCONFIRMED)


def is_open(pairing: Any) -> bool:
    """:data:`STILL_OPEN` on a pairing (or anything with its ``status`` and ``confirmation``)."""
    return open_values(pairing.status, pairing.confirmation)


def open_values(status: str, confirmation: str) -> bool:
    """:func:`is_open` on a pairing's values."""
    return status in PLAYABLE or confirmation in UNCONFIRMED


#: A pairing whose result is still to come: still open (:data:`STILL_OPEN`), or a slot waiting for its players
#: (a bye, an empty or skipped slot and a double forfeit are settled).
TO_COME = Q(status=Status.WAITING) | STILL_OPEN


def result_to_come(status: str, confirmation: str) -> bool:
    """:data:`TO_COME` on a pairing's values."""
    return status == Status.WAITING or open_values(status, confirmation)


# -- the result a pairing shows, given its match ---------------------------------------------------------------

_MATCH_OVER = (Match.Status.FINISHED, Match.Status.FORFEITED)
#: The pairings whose result is not their match's: a bye, an empty slot, a match played only if needed, not needed.
_OWN_RESULT = (Status.BYE, Status.EMPTY, Status.SKIPPED)


@dataclass(frozen=True)
class Outcome:
    """A pairing's result: its status, its winner (an entry), its score."""

    status: str
    winner_id: int | None
    score_a: int
    score_b: int


def held_outcome(pairing: Any) -> Outcome:
    """The result a pairing holds (its stored fields)."""
    return Outcome(pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b)


def outcome_of(pairing: Any, match: Match | None) -> Outcome:
    """The one rule for the result a pairing shows, given its match: a match over makes the pairing finished, won
    by the entry on the match winner's side, at the match's score; any other match, the pairing ready (or
    playing once the match is in progress) at the match's score. A pairing with no match, one that holds its own
    result (a bye, an empty or a skipped slot), or whose match was voided (the division's sync takes the match off
    and makes a new one) shows what it holds. :data:`FINISHED_AS_MATCH` and :data:`OPEN_AS_MATCH` are its twins:
    the pairings that hold what this says."""
    if match is None or pairing.status in _OWN_RESULT or match.status == Match.Status.VOID:
        return held_outcome(pairing)
    if match.status in _MATCH_OVER:
        winner = None
        if match.winner_id is not None:
            winner = pairing.entry_a_id if match.winner_id == match.player1_id else pairing.entry_b_id
        return Outcome(Status.FINISHED, winner, match.score1, match.score2)
    status = Status.PLAYING if match.status == Match.Status.IN_PROGRESS else Status.READY
    return Outcome(status, None, match.score1, match.score2)


def winner_side(pairing: Any, outcome: Outcome) -> int | None:
    """The side (0: A, 1: B) of ``outcome``'s winner on ``pairing``, None when there is none."""
    if outcome.winner_id is None:
        return None
    return 0 if outcome.winner_id == pairing.entry_a_id else 1


#: A pairing that holds its match's result (:func:`outcome_of`) once the match is over: the match finished or
#: forfeited, the same winner, the same score.
FINISHED_AS_MATCH = Q(
    match__status__in=_MATCH_OVER,
    match__score1=F("score_a"),
    match__score2=F("score_b"),
) & (
    Q(winner=F("entry_a"), match__winner=F("match__player1"))
    | Q(winner=F("entry_b"), match__winner=F("match__player2"))
    | Q(winner__isnull=True, match__winner__isnull=True)
)
#: An open pairing that holds what its match says (:func:`outcome_of`): not started (or started and still being
#: played, the pairing playing), no winner, the same score.
OPEN_AS_MATCH = Q(winner__isnull=True, match__score1=F("score_a"), match__score2=F("score_b")) & (
    Q(status=Status.READY, match__status=Match.Status.SCHEDULED)
    | Q(status=Status.PLAYING, match__status=Match.Status.IN_PROGRESS)
)


class PairingState(enum.StrEnum):
    """A pairing as people follow it: its status, brought forward by its match before the division's sync has
    taken the match's news, and its result's confirmation."""

    WAITING = "waiting"  # a player is not known yet (earlier results)
    READY = "ready"  # both players known, nothing recorded
    PLAYING = "playing"  # the match has started
    FINISHING = "finishing"  # the match is over; its result is not written on the pairing yet
    AWAITING = "awaiting"  # a scoresheet result waits for the opponent's confirmation
    DISPUTED = "disputed"  # the opponent disputes it: a director decides
    FINISHED = "finished"  # the result stands
    BYE = "bye"
    EMPTY = "empty"  # a bracket slot nobody reaches
    SKIPPED = "skipped"  # a match played only if needed, not needed

    @property
    def is_over(self) -> bool:
        """The match is over (its result taken or not, confirmed or not)."""
        return self in (PairingState.FINISHING, PairingState.AWAITING, PairingState.DISPUTED, PairingState.FINISHED)


_SETTLED_STATES: dict[str, PairingState] = {
    Status.BYE: PairingState.BYE,
    Status.EMPTY: PairingState.EMPTY,
    Status.SKIPPED: PairingState.SKIPPED,
    Status.WAITING: PairingState.WAITING,
}


def pairing_state(pairing: Pairing) -> PairingState:
    """The one rule for a pairing's state, read from the pairing and its match row (``pairing.match`` loaded): what
    it holds, brought forward by what its match says (:func:`outcome_of`). A match over whose result the pairing
    does not hold yet is finishing (the result is written in the match's own transaction, so this lasts only while
    a sync held the pairing's row at that moment); a voided match not yet taken off shows what the pairing holds."""
    settled = _SETTLED_STATES.get(pairing.status)
    if settled is not None:
        return settled
    if pairing.confirmation == Confirmation.DISPUTED:
        return PairingState.DISPUTED
    if pairing.confirmation == Confirmation.AWAITING:
        return PairingState.AWAITING
    if pairing.status == Status.FINISHED:
        return PairingState.FINISHED
    shown = outcome_of(pairing, pairing.match).status
    if shown == Status.FINISHED:
        return PairingState.FINISHING
    if Status.PLAYING in (pairing.status, shown):
        return PairingState.PLAYING
    return PairingState.READY


def call_stands(state: PairingState, called_at: Any, last_entry: Any) -> bool:
    """Whether the players are called to the pairing's table: while its match has not started, and for a match
    being played called to a table after its last entry (a correction reopened it and its table went to another
    match meanwhile), until they enter something at the new one."""
    if state == PairingState.READY:
        return True
    moved = called_at is not None and last_entry is not None and called_at > last_entry
    return state == PairingState.PLAYING and moved


# -- rounds --------------------------------------------------------------------------------------------------------

#: The order in which the brackets of a round number are played (main, then consolation, then last chance).
BRACKET_ORDER = {"main": 0, "consolation": 1, "last-chance": 2, "swiss": 0, "round-robin": 0}


def bracket_rank(field: str = "bracket") -> Case:
    """:data:`BRACKET_ORDER` as an ordering of rounds (``field`` names the bracket, e.g. ``round__bracket``), so
    that a query lists main round 1 before consolation round 1 as :func:`play_order` does."""
    return Case(*(When(**{field: b}, then=Value(n)) for b, n in BRACKET_ORDER.items()), default=Value(9))


def play_order(rnd: Round) -> tuple[int, int, int]:
    """A round's place in the order of play: by round number, then by bracket (:data:`BRACKET_ORDER`); the Swiss
    rounds of a Swiss into a knockout come before its knockout (no other format has both)."""
    return (rnd.bracket != Round.Bracket.SWISS, rnd.number, BRACKET_ORDER.get(rnd.bracket, 9))


#: The largest field each format starts with. Past it a start is refused (saying so) rather than left to run into
#: a web worker's timeout; each is measured in bench/README.md (tournaments, item 6) to start in a few seconds.
MAX_FIELD = {
    Division.Format.SWISS: 10_000,
    Division.Format.SWISS_KNOCKOUT: 10_000,
    Division.Format.ROUND_ROBIN: 500,  # 124,750 pairings drawn at once
    **dict.fromkeys(ELIMINATION_FORMATS, 2_048),
}
#: A double round robin draws twice the pairings: 350 players make 122,150.
MAX_DOUBLE_ROUND_ROBIN = 350


def max_field(division: Division) -> int:
    """The largest field :data:`MAX_FIELD` lets ``division`` start with."""
    if division.format == Division.Format.ROUND_ROBIN and division.double_round_robin:
        return MAX_DOUBLE_ROUND_ROBIN
    return MAX_FIELD[division.format]


#: A round robin makes its matches ahead of play, not all at its draw (a 500-player field has 124,750): each
#: player's next :func:`round_robin_ahead` pairings not yet played have their matches, the later ones are made as
#: those are played (tournaments/services/sync.py), or at once when a director acts on one or a player withdraws.
ROUND_ROBIN_AHEAD = 10
#: ... and at least enough that the draw makes about this many matches: a field of up to 45 players has every match
#: from its draw.
ROUND_ROBIN_DRAWN_MATCHES = 1_000


def round_robin_ahead(places: int) -> int:
    """How many of each player's next pairings have their matches in a round robin of ``places`` (the field, one
    more when it is odd: the bye's place)."""
    return max(ROUND_ROBIN_AHEAD, math.ceil(2 * ROUND_ROBIN_DRAWN_MATCHES / max(places, 2)))


def round_robin_places(rounds: int, *, double: bool) -> int:
    """The places of a round robin of ``rounds`` rounds (an odd field's bye counts as a place)."""
    return (rounds // 2 if double else rounds) + 1


def round_robin_lead(rounds: int, *, double: bool) -> int:
    """:func:`round_robin_ahead` of a round robin of ``rounds`` rounds (a double one when ``double``): how many of
    each player's next pairings have their matches."""
    return round_robin_ahead(round_robin_places(rounds, double=double))


def knockout_min_rounds(entrants: int, size: int) -> int:
    """The fewest Swiss rounds a Swiss into a knockout of ``size`` plays with ``entrants`` players: enough that at
    most ``size`` players can still be unbeaten (each round halves the unbeaten), so that the cut line never falls
    among unbeaten players, and at least one."""
    return max(1, math.ceil(math.log2(entrants / size))) if entrants > size else 1


def table_order(
    playing: bool, number: int, bracket: str, ready_since: Any, division_id: int, board: int
) -> tuple[Any, ...]:
    """The order in which matches waiting for a table get one: a match already being played first (it needs its
    table shown), then earlier rounds, then the main flight before the consolation and the last chance
    (:data:`BRACKET_ORDER`), then the match waiting longest (``ready_since``: when both players were known), then
    by division and board. :data:`TABLE_ORDER` is the same order in SQL, for pairings."""
    return (not playing, number, BRACKET_ORDER.get(bracket, 9), ready_since, division_id, board)


#: :func:`table_order` of pairings in SQL (``order_by(*TABLE_ORDER)``; their match's creation is when both
#: players were known), then by id.
TABLE_ORDER = (
    Case(When(status=Pairing.Status.PLAYING, then=Value(0)), default=Value(1)),
    "round__number",
    Case(*(When(round__bracket=b, then=Value(n)) for b, n in BRACKET_ORDER.items()), default=Value(9)),
    "match__created_at",
    "division_id",
    "board",
    "pk",
)


def round_length(
    division: Division, bracket: str, number: int, *, final: bool = False, semi_final: bool = False
) -> int:
    """The match length for a round: the most specific rule of ``bracket:N``, ``bracket:final`` (or
    ``bracket:semi-final``), ``bracket``."""
    rules = division.round_lengths or {}
    which = "final" if final else "semi-final" if semi_final else None
    for key in (f"{bracket}:{number}", f"{bracket}:{which}" if which else None, bracket):
        if key and key in rules:
            return int(rules[key])
    return division.match_length


#: The names of a round-length rule's bracket the pages use, for the stored one: a Swiss into a knockout's
#: knockout is its main bracket ("Knockout final" is ``main:final``).
ROUND_RULE_BRACKETS = {"knockout": str(Round.Bracket.MAIN), "last chance": "last-chance", "round robin": "round-robin"}
#: The names of a rule's round the pages use, for the stored one.
ROUND_RULE_ROUNDS = {"semi final": "semi-final", "semifinal": "semi-final", "semi": "semi-final"}


def round_rule_key(key: str) -> str:
    """A per-round length rule's key as stored, from the words a director writes: the pages' names of the rounds
    (``knockout:final``, ``Knockout semi-final``) or the stored ones (``main:final``, ``swiss:5``), in any case."""
    bracket, sep, which = " ".join(str(key).split()).lower().partition(":")
    if not sep and " " in bracket:  # "knockout final", "knockout semi-final", "consolation 2"
        head, _, tail = bracket.rpartition(" ")
        if tail in ("final", "semi-final", *ROUND_RULE_ROUNDS) or tail.isdigit():
            bracket, sep, which = head, ":", tail
    if bracket.endswith(" round"):  # "knockout round 1"
        bracket = bracket.removesuffix(" round")
    bracket = ROUND_RULE_BRACKETS.get(bracket.strip(), bracket.strip())
    which = ROUND_RULE_ROUNDS.get(which.strip(), which.strip())
    return f"{bracket}:{which}" if sep else bracket


# -- the plan and the bracket --------------------------------------------------------------------------------------


#: The formats whose consolation and last chance are drawn round by round, once each round's players are known
#: (tournaments/pairing/feeder.py), so that nobody gets a bye the field does not force.
DRAWN_FORMATS = (Division.Format.MAIN_CONSOLATION, Division.Format.PROGRESSIVE, Division.Format.LAST_CHANCE)


def plan_of(division: Division, entrants: int | None = None) -> brackets.Plan:
    """The division's bracket plan (a pure function of its settings and the size of the field at the start)."""
    if division.is_swiss_knockout:
        return _knockout_plan(division, entrants)
    if entrants is None:
        entrants = division.entries.filter(seed__isnull=False, late=False).count()
    fmt = division.format
    options: dict[str, Any] = {}
    if division.drop_rounds is not None:
        options["drop_rounds"] = division.drop_rounds
    if fmt == Division.Format.DOUBLE:
        options["reset"] = division.grand_final_reset
    if fmt == Division.Format.LAST_CHANCE:
        options["last_chance_drop_rounds"] = division.last_chance_drop_rounds
        options["last_chance_places"] = division.last_chance_places
    if division.walkover_as_bye:
        options["walkover_as_bye"] = True
    if fmt in DRAWN_FORMATS:
        options["drawn"] = True  # the consolation and the last chance are drawn round by round
    try:
        return brackets.plan_bracket(entrants, fmt, **options)
    except ValueError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, str(exc)) from None


def _knockout_plan(division: Division, entrants: int | None) -> brackets.Plan:
    """The knockout of a Swiss into a knockout: a single elimination of the players it took (seeded by the Swiss
    standings), or of its size before they are known."""
    entrants = len(division.knockout_seeds) or entrants or division.knockout_size
    try:
        return brackets.plan_bracket(entrants, Division.Format.SINGLE)
    except ValueError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, str(exc)) from None


def knockout_slot(key: str) -> bool:
    """Whether a pairing key is a slot of a knockout (of the main bracket), not a Swiss board."""
    return key.startswith(f"{Round.Bracket.MAIN}-")


def bracket_slot(division: Division, key: str) -> bool:
    """Whether the division's pairing ``key`` is a bracket slot: every pairing of an elimination division, the
    knockout's of a Swiss into a knockout."""
    return division.is_elimination or (division.is_swiss_knockout and knockout_slot(key))


@dataclass
class Slot:
    """A pairing read as plain values: what the bracket needs of a slot whose result already counts."""

    pk: int
    key: str
    entry_a_id: int | None
    entry_b_id: int | None
    status: str
    winner_id: int | None
    match_id: int | None
    confirmation: str


#: The columns of a :class:`Slot`, in order (``values_list(*SLOT_COLUMNS)``).
SLOT_COLUMNS = ("pk", "key", "entry_a_id", "entry_b_id", "status", "winner_id", "match_id", "confirmation")


def resolve_division(
    division: Division, pairings: Sequence[Any] | None = None, plan: brackets.Plan | None = None
) -> dict[str, brackets.NodeState]:
    """The bracket resolved from the division's seeds, places and counted results. ``pairings``: every slot of the
    division, as pairings or anything with their ``key``, players, ``status``, ``winner_id`` and ``confirmation``
    (read here as values when not given)."""
    if pairings is None:
        pairings = [Slot(*row) for row in division.pairings.order_by("id").values_list(*SLOT_COLUMNS)]
    seeds: dict[int, int] = {}
    places: dict[str, int] = {}
    if division.is_swiss_knockout:
        # The knockout's seeds are the Swiss standings it was drawn from; the Swiss boards are not its slots.
        seeds = {number: pk for number, pk in enumerate(division.knockout_seeds, start=1)}
        pairings = [p for p in pairings if knockout_slot(p.key)]
    else:
        entries = division.entries.exclude(seed__isnull=True, place="").values_list("pk", "seed", "late", "place")
        for pk, seed, late, place in entries:
            if seed is not None and not late:
                seeds[seed] = pk
            if place:
                places[place] = pk
    plan = plan or plan_of(division)
    finished = {p.key: p for p in pairings if counts(p) and p.status == Status.FINISHED}

    walkovers = _walkovers(division) if division.walkover_as_bye else set()
    withdrawn = _withdrawn(division, plan) if plan.drawn else {}

    def resolve(results: dict[str, int | None]) -> dict[str, brackets.NodeState]:
        return brackets.resolve(
            plan,
            seeds=seeds,
            results=results,
            places=places,
            places_closed=division.last_chance_closed,
            walkovers=walkovers,
            withdrawn=withdrawn,
        )

    def same_players(key: str, states: dict[str, brackets.NodeState]) -> bool:
        return (states[key].a, states[key].b) == (finished[key].entry_a_id, finished[key].entry_b_id)

    try:
        states = resolve({key: p.winner_id for key, p in finished.items()})
        if all(same_players(key, states) for key in finished):
            return states
    except ValueError:
        pass
    # An upstream correction (with the director's override) changed the players of slots whose matches were
    # already played: those results no longer count (the sync voids their matches and the slots are played
    # again). Count the results round by round, each only while its slot still holds the players its match was
    # played between.
    results: dict[str, int | None] = {}
    while True:
        states = resolve(results)
        more = {
            key: p.winner_id
            for key, p in finished.items()
            if key not in results and states[key].status == brackets.Status.READY and same_players(key, states)
        }
        if not more:
            return states
        results.update(more)


def _withdrawn(division: Division, plan: brackets.Plan) -> dict[str, dict[int, int]]:
    """For each bracket drawn round by round, the players who withdrew, each with the first of its rounds not drawn
    yet when he did (a round is drawn when its first match is made): he is drawn in no round from that one on, and
    the rounds drawn before stay as they were."""
    gone = list(
        division.entries.filter(status=Entry.Status.WITHDRAWN, withdrawn_at__isnull=False).values_list(
            "pk", "withdrawn_at"
        )
    )
    if not gone:
        return {}
    rows = (
        division.pairings.filter(round__bracket__in=plan.drawn, match__isnull=False)
        .values("round__bracket", "round__number")
        .annotate(first=Min("match__created_at"))
        .values_list("round__bracket", "round__number", "first")
        .order_by()
    )
    drawn_at = {(bracket, number): first for bracket, number, first in rows}
    out: dict[str, dict[int, int]] = {}
    for bracket in plan.drawn:
        numbers = sorted({node.round for node in plan.nodes if node.bracket == bracket})
        for pk, when in gone:
            late = [r for r in numbers if (bracket, r) not in drawn_at or drawn_at[(bracket, r)] > when]
            out.setdefault(bracket, {})[pk] = late[0] if late else numbers[-1] + 1
    return out


def _walkovers(division: Division) -> set[str]:
    """The main round-1 slots won by a walkover: a forfeit (a no-show or a withdrawal) whose match holds nothing
    but the forfeit."""
    rows = division.pairings.filter(
        round__bracket=Round.Bracket.MAIN,
        round__number=1,
        status=Status.FINISHED,
        decision__in=(Pairing.Decision.FORFEIT_NO_SHOW, Pairing.Decision.FORFEIT_WITHDRAWAL),
        match__seq=1,
    )
    return set(rows.values_list("key", flat=True))


# -- words ---------------------------------------------------------------------------------------------------------

_BRACKET_NAMES: dict[str, str] = {
    Round.Bracket.MAIN: "Main",
    Round.Bracket.CONSOLATION: "Consolation",
    "last-chance": "Last chance",
}


def knockout_rounds(division: Division) -> int:
    """How many rounds the knockout of a Swiss into a knockout has: those of a single elimination of the players it
    took (of its size before they are known), as :func:`plan_of` draws it."""
    players = len(division.knockout_seeds) or division.knockout_size or 2
    return max(1, math.ceil(math.log2(max(players, 2))))


def knockout_round_words(number: int, rounds: int, *, short: bool = False) -> str:
    """A round of the knockout of a Swiss into a knockout as people name it: "Knockout round 1", ...,
    "Knockout semi-final", "Knockout final" (``rounds``: how many it has); ``short``, under the knockout's heading
    (the bracket's column): "Round 1", "Semi-final", "Final"."""
    if number == rounds:
        return gettext("Final") if short else gettext("Knockout final")
    if number == rounds - 1:
        return gettext("Semi-final") if short else gettext("Knockout semi-final")
    words = gettext("Round %(number)s") if short else gettext("Knockout round %(number)s")
    return words % {"number": number}


#: Double elimination calls its brackets by the names players use.
_DOUBLE_NAMES: dict[str, str] = {Round.Bracket.MAIN: "Winners'", Round.Bracket.CONSOLATION: "Losers'"}


def round_words(rnd: Round, division: Division | None = None, *, kind: RoundKind | None = None) -> str:
    """A round as people name it, the one rule for its name on every page, print, call, message and the venue
    display: "Round 2" (Swiss, round robin), "Main round 1", "Main semi-final", "Main final", "Consolation final"
    (a bracket), "Winners' round 2", "Losers' final", "Grand final" (double elimination); in a Swiss into a
    knockout its knockout's rounds "Knockout round 1", ..., "Knockout semi-final", "Knockout final"
    (:func:`knockout_round_words`). A bracket's last round is its final and the round of two matches before it its
    semi-final, read from the division's plan (:func:`bracket_round_kind`); ``kind`` says it instead (where the
    plan is being drawn, or not known). ``division``: the round's (read from the round when not given)."""
    division = division if division is not None else rnd.division
    if rnd.bracket == Round.Bracket.MAIN and division.is_swiss_knockout:
        return knockout_round_words(rnd.number, knockout_rounds(division))
    kind = kind if kind is not None else bracket_round_kind(rnd, division)
    if kind == RoundKind.GRAND_FINAL:
        return "Grand final"
    if kind == RoundKind.RESET:
        return "Grand final reset (if needed)"
    names: Mapping[str, str] = _DOUBLE_NAMES if division.format == Division.Format.DOUBLE else _BRACKET_NAMES
    bracket = names.get(rnd.bracket, _BRACKET_NAMES.get(rnd.bracket))
    if bracket is None:
        return f"Round {rnd.number}"
    if kind == RoundKind.FINAL:
        return f"{bracket} final"
    if kind == RoundKind.SEMI_FINAL:
        return f"{bracket} semi-final"
    return f"{bracket} round {rnd.number}"


class RoundKind(enum.StrEnum):
    """What a bracket's round is to the people who play it (:func:`bracket_round_kind`)."""

    ROUND = "round"  # a round named by its number
    SEMI_FINAL = "semi-final"
    FINAL = "final"
    GRAND_FINAL = "grand-final"
    RESET = "reset"


#: A division's brackets as its plan draws them (:func:`shape_of`).
Shape = Mapping[str, tuple[int, ...]]
_MAIN_ROUNDS = "main-rounds"  # in a shape: the rounds of the main (winners') bracket before a grand final


def shape_of(plan: brackets.Plan) -> Shape:
    """A plan's brackets: each bracket's matches round by round ("main": (4, 2, 1)), and under ``"main-rounds"``
    the main bracket's rounds before a grand final."""
    shape = {bracket: tuple(len(r) for r in plan.rounds(bracket)) for bracket in ("main", "consolation", "last-chance")}
    shape[_MAIN_ROUNDS] = (plan.main_rounds,)
    return shape


def round_kind(shape: Shape, bracket: str, number: int, *, double: bool) -> RoundKind:
    """Whether round ``number`` of a ``bracket`` of ``shape`` is its final (the bracket's last round; in double
    elimination, ``double``, the winners' bracket's last before the grand final), its semi-final (the round of two
    matches before a final of one) or a double elimination's grand final or its reset; else ``ROUND``."""
    counts = shape.get(bracket)
    if not counts or not 1 <= number <= len(counts):
        return RoundKind.ROUND
    last = len(counts)
    if double and bracket == Round.Bracket.MAIN:
        last = shape[_MAIN_ROUNDS][0]
        if number > last:
            return RoundKind.GRAND_FINAL if number == last + 1 else RoundKind.RESET
    if number == last:
        return RoundKind.FINAL
    if number == last - 1 and counts[last - 1] == 1 and counts[number - 1] == 2:
        return RoundKind.SEMI_FINAL
    return RoundKind.ROUND


def bracket_round_kind(rnd: Round, division: Division) -> RoundKind:
    """:func:`round_kind` of a round of an elimination division, from its plan (:func:`bracket_shape`); ``ROUND``
    for every other round, and where the plan is not known."""
    shape = bracket_shape(division)
    if shape is None:
        return RoundKind.ROUND
    return round_kind(shape, rnd.bracket, rnd.number, double=division.format == Division.Format.DOUBLE)


#: The shape of each started elimination division's plan, by (id, start): a started bracket's field and settings
#: are fixed (it is drawn), so its plan is read once per process (a new start is a new key).
_SHAPES: dict[tuple[int, Any], Shape | None] = {}


def bracket_shape(division: Division) -> Shape | None:
    """An elimination division's brackets as its plan draws them (:func:`shape_of`); None for a division without
    a plan (not an elimination, not started, or a plan the planner refuses). The field's size is read from
    ``division.entrants`` where a read annotated it, else counted (once per process and start)."""
    if not division.is_elimination or division.status == Division.Status.REGISTRATION or division.pk is None:
        return None
    key = (division.pk, division.started_at)
    if key not in _SHAPES:
        entrants = getattr(division, "entrants", None)
        if entrants is None:
            entrants = division.entries.filter(seed__isnull=False, late=False).count()
        try:
            shape = shape_of(plan_of(division, entrants)) if entrants else None
        except ApplicationError:
            shape = None
        if len(_SHAPES) > 4096:
            _SHAPES.clear()
        _SHAPES[key] = shape
    return _SHAPES[key]


def unfinished_words(pairings: Sequence[Pairing]) -> str:
    """The matches a round still waits for, as the pages show them: "Lars Nes v Pia Ruud (Table 2), Ola Dahl v Bo
    Kim" (players and table loaded)."""
    said = []
    for pairing in pairings:
        names = [e.player.display_name if e is not None else "nobody yet" for e in (pairing.entry_a, pairing.entry_b)]
        table = f" ({pairing.table_label})" if pairing.table_id is not None else ""
        said.append(f"{names[0]} v {names[1]}{table}")
    return ", ".join(said)


def pairing_words(pairing: Pairing, division: Division | None = None) -> str:
    """A pairing as people name it in a message: "Round 2, Table 1: Lars Nes v Pia Ruud" (its round, table and
    players loaded; ``division``: the pairing's, read from it when not given)."""
    names = [e.player.display_name if e is not None else "nobody yet" for e in (pairing.entry_a, pairing.entry_b)]
    table = f", {pairing.table_label}" if pairing.table_id is not None else ""
    division = division if division is not None else pairing.division
    return f"{round_words(pairing.round, division)}{table}: {names[0]} v {names[1]}"


def withdrawn_unplayed(entry: Entry) -> bool:
    """Whether ``entry`` is withdrawn without having been in a pairing or a standings row, and holds no fees (none
    paid, or refunded): deleting it changes no result, standing nor pool."""
    if entry.status != Entry.Status.WITHDRAWN:
        return False
    if (entry.paid or entry.side_pool) and not entry.refunded:
        return False
    paired = Pairing.objects.filter(Q(entry_a=entry) | Q(entry_b=entry) | Q(winner=entry)).exists()
    return not paired and not Standing.objects.filter(entry=entry).exists()
