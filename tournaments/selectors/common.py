"""Reads for pages and the API: events a user may see, standings tables, rounds, the bracket as slots with their
feeds, the directors' queue, a player's next match. Each runs a fixed number of queries whatever the field size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from games.hooks import EventLink
from games.models import Match, Player
from tournaments.core import has_fees, place_span, plan_of, pool_of, round_words
from tournaments.models import Division, Entry, Event, ImportedMatch, Pairing, Playoff, Round, Standing, Table
from tournaments.pairing import brackets
from tournaments.selectors.playoffs import PlayoffMatch, PlayoffTurn, match_view, ordinal, playoff_turn_of
from tournaments.standings import cash
from tournaments.standings import payouts as pay
from tournaments.standings.places import Place


def events_visible_to(user: Any) -> QuerySet[Event]:
    """Public events, plus the private ones a user directs (staff: all)."""
    qs = Event.objects.all()
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return qs
        return qs.filter(Q(public=True) | Q(directors=user)).distinct()
    return qs.filter(public=True)


def hidden_players(user: Any) -> Q:
    """The HIDDEN_PLAYERS hook (games/hooks.py): players entered in events ``user`` may not see and in none they may
    (a player's own account always sees him; staff see everyone)."""
    if user is not None and user.is_authenticated and user.is_staff:
        return Q(pk__in=[])
    visible = events_visible_to(user).values("pk")
    hidden = Q(pk__in=Entry.objects.exclude(division__event__in=visible).values("player_id"))
    hidden &= ~Q(pk__in=Entry.objects.filter(division__event__in=visible).values("player_id"))
    if user is not None and user.is_authenticated:
        hidden &= ~Q(user=user)
    return hidden


def divisions_visible_to(user: Any) -> QuerySet[Division]:
    return Division.objects.filter(event__in=events_visible_to(user)).select_related("event")


def standings_table(division: Division, *, after_round: int | None = None) -> list[Standing]:
    """The latest table (or the one after ``after_round``), with each row's entry and player."""
    qs = Standing.objects.filter(division=division)
    if after_round is None:
        after_round = qs.order_by("-after_round").values_list("after_round", flat=True).first() or 0
    return list(qs.filter(after_round=after_round).select_related("entry__player").order_by("rank", "entry__seed"))


@dataclass(frozen=True)
class Payouts:
    """What a division's payout table pays the rows of its standings: ``paid`` maps an entry's id to its cents per
    flight; ``remainder`` per flight is the cents that rounding to cents left over (percentages of the pool, shared
    places split evenly)."""

    flights: list[str] = field(default_factory=list)
    paid: dict[int, dict[str, int]] = field(default_factory=dict)
    remainder: dict[str, int] = field(default_factory=dict)
    published: bool = False
    over: dict[str, int] = field(default_factory=dict)  # per flight, the cents shared places pay beyond the table
    unreached: dict[str, int] = field(default_factory=dict)  # per flight, once over: the prizes of places nobody took
    forgone: dict[str, int] = field(default_factory=dict)  # per flight: prizes not paid, one prize per player
    waiting: dict[str, int] = field(default_factory=dict)  # per flight: what waits for players still playing

    def of(self, entry_id: int) -> list[int | None]:
        """The entry's cents in each of the table's flights (None: nothing)."""
        mine = self.paid.get(entry_id, {})
        return [mine.get(flight) for flight in self.flights]

    def total(self, entry_id: int) -> int:
        return sum(self.paid.get(entry_id, {}).values())


def _parse_place(text: str) -> Place | None:
    first, _, last = str(text).partition("-")
    try:
        return Place(int(first), int(last or first))
    except ValueError:
        return None


def place_of(division: Division, row: Standing) -> str:
    """The place a row of the latest standings holds, as the pages show it wherever one column says it (the venue
    display): its place in the main draw as the division page's Place column says it (:func:`main_place_of`),
    else its rank (a Swiss, a round robin)."""
    return main_place_of(division, row) or str(row.rank)


def main_place_of(division: Division, row: Standing) -> str:
    """The main draw's place of a row of the latest standings: the place it holds ("3-4": the players out in the
    same round share the places they span; an elimination, a Swiss into a knockout once drawn), or "in play" for
    a player of a bracket under way still playing for one (the ranks put every such player first until then);
    "" where the division has no such place."""
    held = str(row.places.get(Round.Bracket.MAIN, ""))
    if held or not division.has_bracket or division.status != Division.Status.RUNNING:
        return held
    if row.entry.status in (Entry.Status.WITHDRAWN, Entry.Status.ELIMINATED):
        return held
    return _("in play")


def flight_places_of(division: Division, rows: list[Standing], flight: str) -> dict[int, Place]:
    """The places in ``flight`` of the standings ``rows`` by entry id: the one rule for places that payouts and
    master points are paid on (a knockout's per flight; a Swiss's or round robin's ranks, players level sharing the
    places they span; a Swiss into a knockout's once its knockout is drawn)."""
    if division.is_swiss_knockout and not division.knockout_drawn:
        return {}  # its places come from the knockout, not from the Swiss standings
    if division.is_elimination or division.knockout_drawn:  # places per flight (a knockout's: one flight)
        held = {row.entry_id: _parse_place(row.places.get(flight, "")) for row in rows}
        return {entry: place for entry, place in held.items() if place is not None}
    if flight != Round.Bracket.MAIN:  # Swiss and round robin: one table, its ranks the places of the main flight
        return {}
    level = Counter(row.rank for row in rows)
    return {row.entry_id: Place(row.rank, row.rank + level[row.rank] - 1) for row in rows}


def payouts_of(division: Division, rows: list[Standing]) -> Payouts:
    """The payouts of the standings ``rows`` by the division's payout table (empty without one)."""
    table = division.payouts or {}
    stored = table.get("flights") or {}
    money = pool_of(division) if has_fees(division) else None
    if not stored and not (money and money.side_pool):
        return Payouts()
    pool = prize_pool(division, money)
    flights = [flight for flight in (b.value for b in Round.Bracket) if flight in stored]
    paid: dict[int, dict[str, int]] = {}
    remainder: dict[str, int] = {}
    over: dict[str, int] = {}
    unreached: dict[str, int] = {}
    settled = division.status == Division.Status.FINISHED  # no place left to take: what nobody took is left over
    for flight in flights:
        values = [Decimal(v) for v in stored[flight]]
        if table["mode"] == pay.PERCENT and not pool:
            prizes = pay.Prizes(tuple(0 for _ in values))  # a pool from fees nobody has paid yet
        else:
            prizes = pay.flight_prizes(values, mode=table["mode"], pool=pool, what=flight)
        places = flight_places_of(division, rows, flight)
        result = pay.flight_payouts(places, prizes.cents, table["ties"], settled=settled)
        for entry, cents in result.paid.items():
            paid.setdefault(entry, {})[flight] = cents
        remainder[flight] = prizes.remainder + result.remainder
        over[flight] = result.over
        unreached[flight] = result.unreached
    forgone = _one_prize_each(paid, flights) if table.get("one_prize") else {}
    waiting: dict[str, int] = {}
    if money and money.side_pool:  # beside the table's flights: one prize per player leaves it alone
        side, remainder[SIDE_POOL], waiting[SIDE_POOL] = _side_pool(division, rows, money.side_pool)
        for entry, cents in side.items():
            paid.setdefault(entry, {})[SIDE_POOL] = cents
        flights.append(SIDE_POOL)
    return Payouts(flights, paid, remainder, bool(table.get("published")), over, unreached, forgone, waiting)


def _one_prize_each(paid: dict[int, dict[str, int]], flights: list[str]) -> dict[str, int]:
    """One prize per player: whoever is paid in several flights keeps the largest prize (the earlier flight's, main
    first, when equal); the others are not paid. Returns, per flight, the cents so left unpaid."""
    forgone = dict.fromkeys(flights, 0)
    for prizes in paid.values():
        if len(prizes) < 2:
            continue
        kept = max(prizes, key=lambda flight: (prizes[flight], -flights.index(flight)))
        for flight in [f for f in prizes if f != kept]:
            forgone[flight] += prizes.pop(flight)
    return forgone


#: The side pool, paid beside the flights of the payout table (tournaments/standings/cash.py).
SIDE_POOL = "side-pool"


def prize_pool(division: Division, money: cash.Pool | None) -> Decimal | None:
    """The pool the payout table's percentages are of: the one the director typed, else the entry fees' (``money``,
    :func:`tournaments.core.pool_of`), else none."""
    table = division.payouts or {}
    if table.get("pool"):
        return Decimal(table["pool"])
    if money is not None:
        return Decimal(money.prize_pool) / 100
    return None


def _side_pool(division: Division, rows: list[Standing], side_pool: int) -> tuple[dict[int, int], int, int]:
    """The side pool's payouts: its players ranked by their places in the main flight; while some of them have no
    place yet (still playing), they hold the best ranks and what those pay waits for them. Returns the payouts, the
    cents left over (rounding, ranks nobody holds) and the cents waiting."""
    members = set(division.entries.exclude(side_pool="").filter(refunded=False).order_by().values_list("pk", flat=True))
    places = flight_places_of(division, rows, Round.Bracket.MAIN)
    placed: dict[Place, list[int]] = {}
    for entry in members & places.keys():
        placed.setdefault(places[entry], []).append(entry)
    waiting = sorted(members - places.keys())
    groups = [waiting] if waiting else []
    groups += [sorted(placed[place]) for place in sorted(placed, key=lambda place: (place.first, place.last))]
    percentages = [Decimal(v) for v in division.side_pool_prizes] or [Decimal(100)]
    paid, left = cash.side_pool_payouts(side_pool, percentages, groups)
    held = sum(paid.pop(entry, 0) for entry in waiting)
    if waiting:  # the rounding of the waiting players' share is theirs too, until they are placed
        spanned = percentages[: len(waiting)]
        share = Decimal(side_pool) * sum(spanned, Decimal(0)) / 100
        rounded = int(share) - held
        held, left = held + rounded, left - rounded
    return paid, left, held


def rounds_of(division: Division) -> list[Round]:
    return list(division.rounds.order_by("number", "bracket"))


def pairings_of(division: Division, *, round: Round | None = None) -> list[Pairing]:
    """Pairings (bracket slots included) with players and match, in round and table order."""
    qs = division.pairings.select_related(
        "round", "entry_a__player", "entry_b__player", "winner__player", "match", "table"
    )
    if round is not None:
        qs = qs.filter(round=round)
    return list(qs.order_by("round__bracket", "round__number", "board"))


@dataclass(frozen=True)
class QueuedPlayoffMatch:
    """A playoff's match in the directors' queue: its playoff, and the match as the pages say it."""

    playoff: Playoff
    match: PlayoffMatch

    @property
    def stage(self) -> str:
        """Which match of its playoff it is, in words: "" for a two-player playoff's one match, "first match" or
        "final" for a three-player stepladder's."""
        if self.playoff.first_match_id is None:
            return ""
        return "first match" if self.match.match_id == self.playoff.first_match_id else "final"


@dataclass(frozen=True)
class QueueItem:
    """A result in the directors' queue: a round's ``pairing``'s, or a ``playoff``'s match's, with its confirmation
    (awaiting or disputed), what the dispute said, and since when it waits (a pairing's last change; a playoff
    match's result, when it was entered)."""

    division: Division
    confirmation: str
    dispute: str
    since: datetime
    pairing: Pairing | None = None
    playoff: QueuedPlayoffMatch | None = None

    @property
    def kind(self) -> str:
        """``"pairing"`` or ``"playoff"``."""
        return "pairing" if self.pairing is not None else "playoff"

    @property
    def disputed(self) -> bool:
        return self.confirmation == Pairing.Confirmation.DISPUTED


def director_queue(event: Event) -> list[QueueItem]:
    """Results waiting for a confirmation or disputed, rounds' pairings and playoffs' matches alike: the disputed
    first, then those waiting for a confirmation, each oldest first (two queries)."""
    waiting = (Pairing.Confirmation.AWAITING, Pairing.Confirmation.DISPUTED)
    pairings = (
        Pairing.objects.filter(division__event=event, confirmation__in=waiting)
        .select_related("division", "round", "entry_a__player", "entry_b__player", "match", "table")
        .order_by("updated_at", "id")
    )
    items = [QueueItem(p.division, p.confirmation, p.dispute, p.updated_at, pairing=p) for p in pairings]
    playoffs = (
        Playoff.objects.filter(Q(first_confirmation__in=waiting) | Q(final_confirmation__in=waiting))
        .filter(division__event=event)
        .select_related(
            "division", "first_match__player1", "first_match__player2", "final_match__player1", "final_match__player2"
        )
        .order_by("id")
    )
    for playoff in playoffs:
        for match in (playoff.first_match, playoff.final_match):
            shown = match_view(playoff, match) if match is not None else None
            if match is not None and shown is not None and (shown.waiting or shown.disputed):
                since = match.finished_at or match.created_at
                queued = QueuedPlayoffMatch(playoff, shown)
                items.append(QueueItem(playoff.division, shown.confirmation, shown.dispute, since, playoff=queued))
    return sorted(items, key=lambda item: (not item.disputed, item.since))


def next_pairing_for(player: Player) -> Pairing | None:
    """The player's next match to play (ready or in progress), across running divisions."""
    entries = Entry.objects.filter(player=player, division__status=Division.Status.RUNNING)
    open_ = (Pairing.Status.READY, Pairing.Status.PLAYING)
    return (
        Pairing.objects.filter(Q(entry_a__in=entries) | Q(entry_b__in=entries), status__in=open_)
        .select_related("division__event", "round", "entry_a__player", "entry_b__player", "match", "table")
        .order_by("round__number", "id")
        .first()
    )


def waiting_slot_for(player: Player) -> tuple[Pairing, str] | None:
    """While the player has no match ready: his next bracket slot still waiting for its opponent, and who that
    will be as the pages name the match it comes from ("the winner of Lars Nes v Pia Ruud"; the slot's own words
    when that match's players are not known yet). None when he has no such slot."""
    entries = Entry.objects.filter(player=player, division__status=Division.Status.RUNNING)
    slot = (
        Pairing.objects.filter(Q(entry_a__in=entries) | Q(entry_b__in=entries), status=Pairing.Status.WAITING)
        .select_related("division__event", "round", "entry_a__player", "entry_b__player")
        .order_by("round__number", "id")
        .first()
    )
    if slot is None or not slot.division.has_bracket:  # a Swiss board waits only while its voided match is remade
        return None
    mine_a = slot.entry_a is not None and slot.entry_a.player_id == player.pk
    node = next((n for n in plan_of(slot.division).nodes if n.key == slot.key), None)
    source = (node.b if mine_a else node.a) if node is not None else None
    words = slot.source_b if mine_a else slot.source_a
    if isinstance(source, brackets.Winner | brackets.Loser):
        feeder = (
            Pairing.objects.filter(division=slot.division, key=source.key)
            .select_related("entry_a__player", "entry_b__player")
            .first()
        )
        if feeder is not None and feeder.entry_a is not None and feeder.entry_b is not None:
            which = "winner" if isinstance(source, brackets.Winner) else "loser"
            names = f"{feeder.entry_a.player.display_name} v {feeder.entry_b.player.display_name}"
            words = f"the {which} of {names}"
    return slot, words


def finished_place_of(player: Player) -> tuple[Division, str] | None:
    """While the player plays in no running division: the last division of his that is over and his place in it
    ("3"; "3-4" shared, a bracket's or the players tied at 3rd in a table, as the standings say it; "" before its
    standings are computed), else None (two to four queries)."""
    if Entry.objects.filter(player=player, division__status=Division.Status.RUNNING).exists():
        return None
    entry = (
        Entry.objects.filter(player=player, division__status=Division.Status.FINISHED)
        .select_related("division__event")
        .order_by("-division_id")
        .first()
    )
    if entry is None:
        return None
    row = Standing.objects.filter(entry=entry).order_by("-after_round").first()
    if row is None:
        return entry.division, ""
    if (row.places or {}).get("main"):
        return entry.division, str(row.places["main"])
    sharing = Standing.objects.filter(division_id=row.division_id, after_round=row.after_round, rank=row.rank)
    return entry.division, place_span(row.rank, sharing.count())


def out_place_of(player: Player) -> tuple[Division, str] | None:
    """The running division the player is out of (eliminated from every bracket while it goes on), the latest such,
    and his place in it as its standings say it so far ("3-4", as :func:`finished_place_of`; "" when they do not
    fix one yet), else None (one or two queries)."""
    entry = (
        Entry.objects.filter(player=player, status=Entry.Status.ELIMINATED, division__status=Division.Status.RUNNING)
        .select_related("division__event")
        .order_by("-division_id")
        .first()
    )
    if entry is None:
        return None
    row = Standing.objects.filter(entry=entry).order_by("-after_round").values_list("places", flat=True).first()
    return entry.division, str((row or {}).get("main") or "")


@dataclass(frozen=True)
class NextFor:
    """What "Your next match" says of a player, the first that holds of: his next pairing to play
    (:func:`next_pairing_for`), his bracket slot waiting for its opponent (:func:`waiting_slot_for`), his part in an
    ordered playoff (:func:`tournaments.selectors.playoffs.playoff_turn_of`), the running division he is out of
    (:func:`out_place_of`), his place in the last division of his that is over (:func:`finished_place_of`); all
    None: nothing to say. The page and the API read this one value."""

    pairing: Pairing | None = None
    waiting: tuple[Pairing, str] | None = None
    playoff: PlayoffTurn | None = None
    finished: tuple[Division, str] | None = None
    out: tuple[Division, str] | None = None

    @property
    def division(self) -> Division | None:
        """The division it is about (its event loaded), None when there is nothing to say."""
        if self.pairing is not None:
            return self.pairing.division
        if self.waiting is not None:
            return self.waiting[0].division
        if self.playoff is not None:
            return self.playoff.playoff.division
        if self.out is not None:
            return self.out[0]
        return self.finished[0] if self.finished is not None else None


def next_for(player: Player) -> NextFor:
    """What "Your next match" says of ``player`` (:class:`NextFor`): one to seven queries, none per division."""
    pairing = next_pairing_for(player)
    if pairing is not None:
        return NextFor(pairing=pairing)
    waiting = waiting_slot_for(player)
    if waiting is not None:
        return NextFor(waiting=waiting)
    turn = playoff_turn_of(player)
    if turn is not None:
        return NextFor(playoff=turn)
    out = out_place_of(player)
    if out is not None:
        return NextFor(out=out)
    return NextFor(finished=finished_place_of(player))


def corrected_pairings(division: Division) -> list[Pairing]:
    """The division's results a director corrected (``Pairing.Decision.DIRECTOR``), in round order (one query)."""
    rows = division.pairings.filter(decision=Pairing.Decision.DIRECTOR)
    rows = rows.select_related("round", "table", "entry_a__player", "entry_b__player")
    return list(rows.order_by("round__number", "round__bracket", "board"))


def corrected_playoff_matches(division: Division) -> list[tuple[Playoff, Match]]:
    """The division's playoff matches whose result a director corrected (``Playoff.*_correction``), each with its
    playoff, oldest playoff first (one query)."""
    rows = division.playoffs.exclude(first_correction="", final_correction="").select_related(
        "first_match__player1", "first_match__player2", "final_match__player1", "final_match__player2"
    )
    return [
        (playoff, match)
        for playoff in rows.order_by("id")
        for match in (playoff.first_match, playoff.final_match)
        if match is not None and playoff.correction_of(match.pk)
    ]


def final_prize_of(division: Division, entry_id: int) -> int | None:
    """What the division's published payout table pays the entry by its final standings, in cents (None: no
    published table, or nothing for this player)."""
    if not (division.payouts or {}).get("published"):
        return None
    payouts = payouts_of(division, standings_table(division))
    return payouts.total(entry_id) or None


def _table_words(pairing: Pairing) -> str:
    """Where in the room the pairing's match is played, for its match page: its table while it holds one, the table
    it was played at once over, that it waits for one (ready, in a venue with tables: one query); "" where the
    players sit where they like."""
    if pairing.table is not None:
        return _("At %(table)s") % {"table": pairing.table.label}
    if pairing.played_at:
        return _("Played at %(table)s") % {"table": pairing.played_at}
    if pairing.status == Pairing.Status.READY and Table.objects.filter(event_id=pairing.division.event_id).exists():
        return _("Waiting for a table: its players are called when one frees")
    return ""


def events_of_matches(user: Any, match_ids: Collection[int]) -> dict[int, EventLink]:
    """The MATCH_EVENTS hook (games/hooks.py): the event (and division) of each match, played in a pairing or
    imported into it or a playoff of one of its divisions, among the events ``user`` may see (three queries at
    most)."""
    visible = events_visible_to(user)
    found: dict[int, EventLink] = {}
    paired = Pairing.objects.filter(match_id__in=match_ids, division__event__in=visible).select_related(
        "division__event", "round", "table"
    )
    unconfirmed = (Pairing.Confirmation.AWAITING, Pairing.Confirmation.DISPUTED)
    for p in paired:
        event, division, rnd = p.division.event, p.division, p.round
        found[p.match_id] = EventLink(  # type: ignore[index]  # the filter on match_id
            event.name,
            reverse("tournaments:event-detail", args=[event.slug]),
            division.name,
            reverse("tournaments:division-detail", args=[event.slug, division.slug]),
            round_words(rnd, division),
            reverse("tournaments:division-round", args=[event.slug, division.slug, rnd.bracket, rnd.number]),
            str(p.get_confirmation_display()) if p.confirmation in unconfirmed else "",
            _table_words(p),
        )
    rest = [pk for pk in match_ids if pk not in found]
    playoffs = Playoff.objects.filter(
        Q(first_match_id__in=rest) | Q(final_match_id__in=rest), division__event__in=visible
    ).select_related("division__event")
    for playoff in playoffs:
        event, division = playoff.division.event, playoff.division
        for match_id in (playoff.first_match_id, playoff.final_match_id):
            if match_id in rest:
                found[match_id] = EventLink(
                    event.name,
                    reverse("tournaments:event-detail", args=[event.slug]),
                    division.name,
                    reverse("tournaments:division-detail", args=[event.slug, division.slug]),
                    f"Playoff for the tie at {ordinal(playoff.place)}",
                )
    rest = [pk for pk in rest if pk not in found]
    if not rest:
        return found
    imported = ImportedMatch.objects.filter(match_id__in=rest, event__in=visible).values_list(
        "match_id", "event__name", "event__slug"
    )
    for match_id, name, slug in imported:
        found.setdefault(match_id, EventLink(name, reverse("tournaments:event-detail", args=[slug])))
    return found
