"""Reads of playoffs for ties (tournaments/services/playoffs.py): the ties a director may settle by a playoff, the
playoffs ordered and how each settled its tie, in words the pages and the API share.

Costs: nothing for a division whose standings cannot hold a playoff (:func:`tournaments.core.may_have_playoffs`: a
running Swiss or round robin, an elimination); otherwise one query for the playoffs with their matches and players,
one for the standings table the ties are read from (none when the caller has it), and, for directors, one for the
playoff matches' entry links. Never one per player. The venue display reads every division's at once
(:func:`playoffs_in`: one query, the names from the standings it has).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Exists, OuterRef, Q

from games.access import token_text
from games.models import EntryToken, Match, Player
from tournaments.core import may_have_playoffs, playoff_table, playoff_ties
from tournaments.models import Division, Entry, Event, Pairing, Playoff, Standing
from tournaments.standings.playoffs import THREE_PLAYER_RULE, Tie

Confirmation = Pairing.Confirmation


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class PlayoffMatch:
    """A playoff's match: its players' names, its score, who won (None: not yet), its entry links (directors), and
    its result's confirmation (``Pairing.Confirmation``'s values), the name of the player asked to confirm it, what
    the dispute said."""

    match_id: int
    names: tuple[str, str]
    score: tuple[int, int]
    winner: str | None
    links: tuple[tuple[str, str], ...] = ()  # (player's name, his entry link), side 0 first
    confirmation: str = Confirmation.NOT_NEEDED
    asked: str = ""
    dispute: str = ""
    corrected: str = ""  # the director's reason, once he corrected its result ("": not corrected)
    status: str = Match.Status.SCHEDULED  # the match's state (``Match.Status``'s values)

    @property
    def started(self) -> bool:
        """Whether it has a score to show: being played, or won."""
        return self.winner is not None or self.status == Match.Status.IN_PROGRESS

    @property
    def waiting(self) -> str:
        """The name of the player whose confirmation the result waits for ("" when it waits for none)."""
        return self.asked if self.winner is not None and self.confirmation == Confirmation.AWAITING else ""

    @property
    def disputed(self) -> bool:
        return self.winner is not None and self.confirmation == Confirmation.DISPUTED

    @property
    def words(self) -> str:
        """ "A v B", with its running score once started ("A v B, 1-1"), "A beat B 3-1" once won (", waiting for
        B's confirmation", ", disputed", or the director's correction)."""
        if self.winner is None:
            played = f"{self.names[0]} v {self.names[1]}"
            return f"{played}, {self.score[0]}-{self.score[1]}" if self.started else played
        loser = self.names[1] if self.winner == self.names[0] else self.names[0]
        high, low = max(self.score), min(self.score)
        said = f"{self.winner} beat {loser} {high}-{low}"
        if self.waiting:
            return f"{said}, waiting for {self.waiting}'s confirmation"
        if self.disputed:
            return f"{said}, disputed"
        return f"{said} (decided by the director: {self.corrected})" if self.corrected else said


@dataclass(frozen=True)
class PlayoffView:
    pk: int
    kind: str
    place: int
    length: int
    status: str
    entries: list[int]
    order: list[int]
    names: list[str]  # in the tie's order
    matches: list[PlayoffMatch] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.status == Playoff.Status.FINISHED

    @property
    def cancellable(self) -> bool:
        return not self.finished and all(m.score == (0, 0) and m.winner is None for m in self.matches)

    @property
    def words(self) -> str:
        """ "Tie at 3rd settled by a playoff: Pia Ruud beat Lars Nes 1-0." or, while it is played, "Tie at 3rd: a
        playoff is ordered (Pia Ruud v Lars Nes, 1 point)."; its match being played shows its score and the length
        it is played to ("(Pia Ruud v Lars Nes, 1-1, to 3 points)"), a result in needs no length ("(Pia Ruud beat
        Lars Nes 3-1, waiting for Lars Nes's confirmation)")."""
        where = f"Tie at {ordinal(self.place)}"
        if self.finished:
            return f"{where} settled by a playoff: {', then '.join(m.words for m in self.matches)}."
        points = "1 point" if self.length == 1 else f"{self.length} points"
        played = ", then ".join(m.words for m in self.matches)
        last = self.matches[-1] if self.matches else None
        if last is not None and last.winner is not None:
            return f"{where}: a playoff is ordered ({played})."
        if any(m.started for m in self.matches):
            return f"{where}: a playoff is ordered ({played}, to {points})."
        return f"{where}: a playoff is ordered ({played}, {points})."


@dataclass(frozen=True)
class TieView:
    """A tie that matters, with its players' names and the playoff ordered for it (None: none yet)."""

    tie: Tie
    names: list[str]
    playoff: PlayoffView | None

    @property
    def kind_words(self) -> str:
        return str(Playoff.Kind(self.tie.kind).label)  # the kind's words are its label

    @property
    def entries_value(self) -> str:
        return "-".join(str(pk) for pk in self.tie.players)


@dataclass(frozen=True)
class Playoffs:
    """What a division's page shows of its playoffs: the ties that matter now, every playoff, the published rule."""

    ties: list[TieView] = field(default_factory=list)
    playoffs: list[PlayoffView] = field(default_factory=list)
    rule: str = THREE_PLAYER_RULE

    def __bool__(self) -> bool:
        return bool(self.ties or self.playoffs)


def playoffs_of(division: Division, *, links: bool = False) -> list[PlayoffView]:
    """The division's playoffs, oldest first, with their matches (``links``: with their live entry links)."""
    if not may_have_playoffs(division):
        return []
    rows = list(
        division.playoffs.select_related(
            "first_match__player1", "first_match__player2", "final_match__player1", "final_match__player2"
        ).order_by("id")
    )
    tokens: dict[int, list[tuple[int, str]]] = {}
    if links and rows:
        ids = [m.pk for p in rows for m in (p.first_match, p.final_match) if m is not None]
        live = EntryToken.objects.filter(match_id__in=ids, revoked_at__isnull=True).order_by("match_id", "side", "-id")
        seen: set[tuple[int, int]] = set()
        for token in live:
            if (token.match_id, token.side) not in seen:
                seen.add((token.match_id, token.side))
                tokens.setdefault(token.match_id, []).append((token.side, f"/play/{token_text(token)}/"))
    wanted = {pk for p in rows for pk in p.entries}
    found = dict(division.entries.filter(pk__in=wanted).values_list("pk", "player__display_name")) if wanted else {}
    return [_view(p, found, tokens) for p in rows]


def playoffs_in(divisions: Sequence[Division], names: dict[int, str]) -> dict[int, list[PlayoffView]]:
    """The playoffs of ``divisions`` by division id, oldest first (the venue display's): one query, none when no
    division may hold one (:func:`tournaments.core.may_have_playoffs`). ``names``: the players' names by entry id,
    from the standings the caller has read (a tied player's row is in its division's latest table)."""
    ids = [d.pk for d in divisions if may_have_playoffs(d)]
    if not ids:
        return {}
    rows = Playoff.objects.filter(division_id__in=ids).select_related(
        "first_match__player1", "first_match__player2", "final_match__player1", "final_match__player2"
    )
    out: dict[int, list[PlayoffView]] = {}
    for p in rows.order_by("id"):
        out.setdefault(p.division_id, []).append(_view(p, names, {}))
    return out


def _view(p: Playoff, names: dict[int, str], tokens: dict[int, list[tuple[int, str]]]) -> PlayoffView:
    matches = [match_view(p, m, tokens.get(m.pk, [])) for m in (p.first_match, p.final_match) if m is not None]
    named = [names.get(pk, "") for pk in p.entries]
    return PlayoffView(p.pk, p.kind, p.place, p.length, p.status, list(p.entries), list(p.order), named, matches)


def match_view(playoff: Playoff, match: Match, links: Sequence[tuple[int, str]] = ()) -> PlayoffMatch:
    """The playoff's match ``match`` (its players loaded) as the pages and the API say it, with ``links``."""
    names = (match.player1.display_name, match.player2.display_name)
    winner = None
    if match.winner_id is not None and match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
        winner = names[0] if match.winner_id == match.player1_id else names[1]
    held = tuple((names[side], link) for side, link in links)
    confirmation, asked = playoff.confirmation_of(match.pk)
    dispute = playoff.dispute_text if confirmation == Confirmation.DISPUTED else ""
    asked_name = names[asked] if asked is not None else ""
    corrected = playoff.correction_of(match.pk) if winner is not None else ""
    score = (match.score1, match.score2)
    return PlayoffMatch(
        match.pk, names, score, winner, held, confirmation, asked_name, dispute, corrected, str(match.status)
    )


def division_playoffs(division: Division, *, table: Sequence[Standing] | None = None, links: bool = True) -> Playoffs:
    """The ties that matter in the division's standings now and its playoffs (for the director's page: with the
    entry links of their matches, unless not ``links``). ``table``: the latest standings rows when the caller has
    them (with their entries)."""
    if not may_have_playoffs(division):
        return Playoffs()
    playoffs = playoffs_of(division, links=links)
    if table is None:
        table = _latest_table(division)
    latest = max((row.after_round for row in table), default=0)
    after = playoff_table(division, latest)
    ties: list[TieView] = []
    if after is not None:
        rows = sorted(table, key=lambda r: (r.rank, r.entry.seed or 10**6, r.entry_id))
        names = {row.entry_id: row.entry.player.display_name for row in rows}
        found = playoff_ties(division, [(row.rank, row.entry_id, row.entry.status) for row in rows])
        ordered = {frozenset(p.entries): p for p in playoffs if not p.finished}
        for tie in found:
            players = [int(pk) for pk in tie.players]
            ties.append(TieView(tie, [names[pk] for pk in players], ordered.get(frozenset(players))))
    return Playoffs(ties, playoffs)


def _latest_table(division: Division) -> list[Standing]:
    qs = Standing.objects.filter(division=division)
    latest = qs.order_by("-after_round").values_list("after_round", flat=True)[:1]
    return list(qs.filter(after_round__in=latest).select_related("entry__player"))


#: A playoff match no longer to be played: over, forfeited or void.
CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)


@dataclass(frozen=True)
class PlayoffTurn:
    """A player's part in an ordered playoff, for "Your next match": his match to play and his opponent; without
    one, in a three-player stepladder whose first match is still to be won, the names of that match's players when
    he waits for its winner in the final (``waits_for``), else nothing (his match is over and the playoff goes on)."""

    playoff: Playoff
    match: Match | None = None
    opponent: Player | None = None
    waits_for: tuple[str, str] | None = None
    entry: int | None = None  # the player's entry (id) in the playoff's division


def playoff_turn_of(player: Player) -> PlayoffTurn | None:
    """The ordered playoff the player is in (the earliest, should he be in two), with his match to play in it, else
    None (two queries)."""
    mine = dict(
        Entry.objects.filter(player=player, division__playoffs__status=Playoff.Status.ORDERED).values_list(
            "division_id", "pk"
        )
    )
    if not mine:
        return None
    playoffs = (
        Playoff.objects.filter(division_id__in=mine, status=Playoff.Status.ORDERED)
        .select_related(
            "division__event", "first_match__player1", "first_match__player2", "final_match__player1",
            "final_match__player2",
        )
        .order_by("pk")
    )  # fmt: skip
    for playoff in playoffs:
        entry = mine[playoff.division_id]
        if entry not in playoff.entries:
            continue
        for match in (playoff.first_match, playoff.final_match):
            if match is not None and player.pk in (match.player1_id, match.player2_id) and match.status not in CLOSED:
                opponent = match.player2 if match.player1_id == player.pk else match.player1
                return PlayoffTurn(playoff, match, opponent, entry=entry)
        first = playoff.first_match
        if first is not None and playoff.final_match is None and player.pk not in (first.player1_id, first.player2_id):
            names = (first.player1.display_name, first.player2.display_name)
            return PlayoffTurn(playoff, waits_for=names, entry=entry)
        return PlayoffTurn(playoff, entry=entry)
    return None


#: A playoff that keeps its division from being over though its rounds are: ordered, not finished, in a finished
#: division (the query twin of :func:`unsettled_playoffs`; an elimination never holds a playoff).
UNSETTLED = Q(status=Playoff.Status.ORDERED, division__status=Division.Status.FINISHED)


def unsettled_playoffs(divisions: Sequence[Division]) -> dict[int, list[Playoff]]:
    """The playoffs for ties ordered and not finished in those of ``divisions`` whose rounds are over (finished)
    and whose standings may hold one (:func:`tournaments.core.may_have_playoffs`), by division id: one query, none
    when no division may."""
    ids = [d.pk for d in divisions if d.status == Division.Status.FINISHED and may_have_playoffs(d)]
    if not ids:
        return {}
    out: dict[int, list[Playoff]] = {}
    for p in Playoff.objects.filter(UNSETTLED, division_id__in=ids).order_by("place", "pk"):
        out.setdefault(p.division_id, []).append(p)
    return out


def playoff_to_play(of: str = "division", outer: str = "pk", **also: Any) -> Exists:
    """Whether a playoff is still to be played (:data:`UNSETTLED`) in a division the outer row names: the playoff's
    ``of`` (``"division"``, ``"division__event"``: one of an event's divisions) is the outer row's ``outer`` (its
    ``"pk"``, or a standings row's ``"division"``); ``also``: more conditions on the playoff (``place=1``). An
    annotation, so that a list says it in the statement that reads the list: no query more, none per row."""
    return Exists(Playoff.objects.filter(UNSETTLED, **{of: OuterRef(outer)}, **also))


#: Events not over, in a list annotated with :func:`playoff_to_play` (``of="division__event"``): running, or
#: finished (their rounds over) with a playoff for a tie still to be played.
EVENT_NOT_OVER = Q(status=Event.Status.RUNNING) | Q(status=Event.Status.FINISHED, playoff_to_play=True)


def division_playoff_to_play(division: Division) -> bool:
    """Whether a playoff for a tie is still to be played in the division though its rounds are over (its status
    finished): its ``playoff_to_play`` when the statement that read it said so (:func:`playoff_to_play`), else
    False for a division not finished, else one query."""
    annotated = getattr(division, "playoff_to_play", None)
    if annotated is not None:
        return bool(annotated)
    if division.status != Division.Status.FINISHED:
        return False
    return Playoff.objects.filter(UNSETTLED, division=division).exists()
