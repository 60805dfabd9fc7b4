"""What the public event pages show, shaped for the templates (tournaments/views.py renders them): the words for
formats, brackets and tie-breaks; each live part's ETag, made from the division's *fingerprint*; a board per
pairing, a view per round, the bracket's columns, the standings rows, and each division's summary on its event page.

Reads go through tournaments/selectors/public.py; nothing here writes. The live parts, their ETags and their
queries are described in the views' module docstring.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext as _n

from games.errors import ApplicationError
from tournaments.core import (
    BRACKET_ORDER,
    RoundKind,
    bracket_round_kind,
    bracket_shape,
    counts,
    is_open,
    knockout_round_words,
    knockout_rounds,
    outcome_of,
    pairing_state,
    pairing_words,
    plan_of,
    play_order,
    round_words,
    winner_side,
)
from tournaments.models import Division, Entry, Event, Pairing, Round, Standing
from tournaments.pairing.brackets import Plan, Winner
from tournaments.selectors.common import SIDE_POOL, Payouts, corrected_pairings, payouts_of, standings_table
from tournaments.selectors.playoffs import playoffs_of
from tournaments.selectors.public import (
    bracket_finals,
    divisions_with_players,
    pairings_of,
    rounds_in_play,
    rounds_with_counts,
    standings_rounds,
    table_leaders,
)
from tournaments.standings.payouts import cents_text
from tournaments.standings.tiebreakers import Tiebreak

StrOrPromise = str | Promise
EN_DASH = "\N{EN DASH}"
PStatus = Pairing.Status
Confirmation = Pairing.Confirmation

# -- words -----------------------------------------------------------------------------------------------------------

FORMAT_WORDS: dict[str, StrOrPromise] = {
    Division.Format.SINGLE: gettext_lazy("single elimination"),
    Division.Format.MAIN_CONSOLATION: gettext_lazy("main draw with a consolation"),
    Division.Format.PROGRESSIVE: gettext_lazy("main draw with a progressive consolation"),
    Division.Format.LAST_CHANCE: gettext_lazy("main draw, consolation and last chance"),
    Division.Format.DOUBLE: gettext_lazy("double elimination"),
    Division.Format.SWISS: gettext_lazy("Swiss"),
    Division.Format.ROUND_ROBIN: gettext_lazy("round robin"),
    Division.Format.SWISS_KNOCKOUT: gettext_lazy("Swiss into a knockout"),
}
EVENT_STATUS_WORDS: dict[str, StrOrPromise] = {
    Event.Status.DRAFT: gettext_lazy("in preparation"),
    Event.Status.REGISTRATION: gettext_lazy("registration open"),
    Event.Status.RUNNING: gettext_lazy("running"),
    Event.Status.FINISHED: gettext_lazy("finished"),
}
DIVISION_STATUS_WORDS: dict[str, StrOrPromise] = {
    Division.Status.REGISTRATION: gettext_lazy("registration open"),
    Division.Status.RUNNING: gettext_lazy("in play"),
    Division.Status.FINISHED: gettext_lazy("finished"),
}
PAIRING_STATUS_WORDS: dict[str, StrOrPromise] = {
    PStatus.WAITING: gettext_lazy("waiting for earlier results"),
    PStatus.READY: gettext_lazy("ready to play"),
    PStatus.PLAYING: gettext_lazy("playing"),
    PStatus.FINISHED: gettext_lazy("finished"),
    PStatus.BYE: gettext_lazy("bye"),
    PStatus.EMPTY: gettext_lazy("not needed"),
    PStatus.SKIPPED: gettext_lazy("not needed"),
}
#: A ready match the venue has no free table for yet.
WAITING_FOR_TABLE_WORDS: StrOrPromise = gettext_lazy("waiting for a table")
DECISION_WORDS: dict[str, StrOrPromise] = {
    Pairing.Decision.FORFEIT_NO_SHOW: gettext_lazy("forfeit (no-show)"),
    Pairing.Decision.FORFEIT_WITHDRAWAL: gettext_lazy("forfeit (withdrawal)"),
    Pairing.Decision.FORFEIT_PENALTY: gettext_lazy("forfeit (penalty points past half the match length)"),
    Pairing.Decision.DIRECTOR: gettext_lazy("decided by the director"),
    Pairing.Decision.DOUBLE_FORFEIT: gettext_lazy("double forfeit (both players withdrew): nobody wins"),
}
BRACKET_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Main draw"),
    Round.Bracket.CONSOLATION: gettext_lazy("Consolation"),
    Round.Bracket.LAST_CHANCE: gettext_lazy("Last chance"),
    Round.Bracket.SWISS: gettext_lazy("Swiss"),
    Round.Bracket.ROUND_ROBIN: gettext_lazy("Round robin"),
}
#: A Swiss into a knockout calls its bracket (the main one) the knockout.
KNOCKOUT_WORDS: StrOrPromise = gettext_lazy("Knockout")
#: Double elimination calls its brackets by the names players use.
DOUBLE_BRACKET_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Winners' bracket"),
    Round.Bracket.CONSOLATION: gettext_lazy("Losers' bracket"),
}


@dataclass(frozen=True)
class TiebreakColumn:
    code: str
    abbr: StrOrPromise
    name: StrOrPromise
    meaning: StrOrPromise


TIEBREAK_COLUMNS = {
    column.code: column
    for column in (
        TiebreakColumn(
            Tiebreak.MATCH_WINS,
            pgettext_lazy("tie-break abbreviation", "W"),
            gettext_lazy("Wins"),
            gettext_lazy("matches won over the board; byes are not counted"),
        ),
        TiebreakColumn(
            Tiebreak.BUCHHOLZ,
            pgettext_lazy("tie-break abbreviation", "Bu"),
            gettext_lazy("Buchholz"),
            gettext_lazy("the sum of the opponents' scores"),
        ),
        TiebreakColumn(
            Tiebreak.MEDIAN_BUCHHOLZ,
            pgettext_lazy("tie-break abbreviation", "MBu"),
            gettext_lazy("Median Buchholz"),
            gettext_lazy("Buchholz without the highest and the lowest opponent's score"),
        ),
        TiebreakColumn(
            Tiebreak.SONNEBORN_BERGER,
            pgettext_lazy("tie-break abbreviation", "SB"),
            gettext_lazy("Sonneborn-Berger"),
            gettext_lazy("the sum of the scores of the opponents the player beat"),
        ),
        TiebreakColumn(
            Tiebreak.POINTS_DIFF,
            pgettext_lazy("tie-break abbreviation", "+/-"),
            gettext_lazy("Points difference"),
            gettext_lazy("points won minus points lost, over all the player's matches"),
        ),
        TiebreakColumn(
            Tiebreak.HEAD_TO_HEAD,
            pgettext_lazy("tie-break abbreviation", "H2H"),
            gettext_lazy("Head-to-head"),
            gettext_lazy("matches won against the players still tied at this point"),
        ),
    )
}


def tiebreak_name(code: str) -> StrOrPromise:
    """A tie-break's name as people say it ("Buchholz", "Points difference"), from its code ("points-diff")."""
    column = TIEBREAK_COLUMNS.get(code)
    return column.name if column is not None else code


def format_words(division: Division) -> str:
    """``Swiss, 5 rounds`` / ``double round robin`` / ``double elimination``."""
    words = str(FORMAT_WORDS.get(division.format, division.format))
    if division.format == Division.Format.SWISS and division.rounds_planned:
        return _("%(format)s, %(rounds)s rounds") % {"format": words, "rounds": division.rounds_planned}
    if division.is_swiss_knockout:
        return _("Swiss, %(rounds)s rounds, then the top %(size)s in a knockout") % {
            "rounds": division.rounds_planned,
            "size": division.knockout_size,
        }
    if division.format == Division.Format.ROUND_ROBIN and division.double_round_robin:
        return _("double round robin")
    return words


def lengths_words(division: Division) -> str:
    """The division's match lengths as its header says them: ``1-point matches``, then each per-round rule by the
    round's name on the pages: ``1-point matches; Knockout final: 3 points``."""
    words = _n("%(length)s-point matches", "%(length)s-point matches", division.match_length) % {
        "length": division.match_length
    }
    rules = [
        _("%(round)s: %(points)s") % {"round": _rule_words(division, key), "points": _points(length)}
        for key, length in sorted((division.round_lengths or {}).items(), key=lambda rule: _rule_order(rule[0]))
    ]
    return "; ".join([words, *rules])


def _points(length: int) -> str:
    return _n("%(length)s point", "%(length)s points", length) % {"length": length}


def _rule_order(key: str) -> tuple[int, int, str]:
    bracket, _sep, which = key.partition(":")
    rank = {"": 0, "semi-final": 2, "final": 3}.get(which, 1)
    return (list(BRACKET_WORDS).index(bracket) if bracket in BRACKET_WORDS else 9, rank, which.zfill(3))


def _rule_words(division: Division, key: str) -> str:
    """A per-round length rule's round as the pages name it: ``main:final`` is "Knockout final" in a Swiss into a
    knockout ("Main draw final" elsewhere), ``swiss:5`` "Round 5", ``consolation`` "Consolation"."""
    bracket, _sep, which = key.partition(":")
    if bracket in (Round.Bracket.SWISS, Round.Bracket.ROUND_ROBIN):
        if not which:
            return _("every round") if not division.is_swiss_knockout else _("every Swiss round")
        if which == "final":
            return _("the last round") if not division.is_swiss_knockout else _("the last Swiss round")
        return _("Round %(number)s") % {"number": which}
    name = str(bracket_words(division, bracket))
    if division.is_swiss_knockout and bracket == Round.Bracket.MAIN and which.isdigit():
        return knockout_round_words(int(which), knockout_rounds(division))
    if which == "final":
        return _("%(bracket)s final") % {"bracket": name}
    if which == "semi-final":
        return _("%(bracket)s semi-finals") % {"bracket": name}
    if which:
        return _("%(bracket)s round %(number)s") % {"bracket": name, "number": which}
    return name


def bracket_words(division: Division, bracket: str) -> StrOrPromise:
    if division.format == Division.Format.DOUBLE and bracket in DOUBLE_BRACKET_WORDS:
        return DOUBLE_BRACKET_WORDS[bracket]
    if division.is_swiss_knockout and bracket == Round.Bracket.MAIN:
        return KNOCKOUT_WORDS
    return BRACKET_WORDS.get(bracket, bracket)


# -- the ETag of a live part ----------------------------------------------------------------------------------------


def etag_of(division: Division, part: str, *extra: object) -> str:
    """A quoted ETag for one live part of the division page, from the fingerprint that
    :func:`tournaments.selectors.public.division_for_page` reads (see the views' module docstring)."""
    names = getattr(division, "names_changed", None)
    parts: tuple[object, ...] = (
        part,
        division.pk,
        division.status,
        division.results_version,
        division.standings_version,
        division.standings_state,
        getattr(division, "entries_sum", None),
        names.isoformat() if names is not None else None,
        get_language(),
        *extra,
    )
    if part == "standings":
        payouts = repr(sorted(division.payouts.items())) if division.payouts else ""  # a new table changes the page
        parts += (getattr(division, "standings_rows", None), tuple(division.tiebreaks), payouts)
    else:
        parts += (getattr(division, "pairings_sum", None), getattr(division, "matches_sum", None))
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    return f'"{digest}"'


# -- rows for the templates ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a board: the player (or, in a bracket slot not yet resolved, where he will come from)."""

    entry: Entry | None
    source: str
    score: int | None
    won: bool
    seed: int | None = None  # the seed its badge shows: the entry's, or the knockout's (:func:`knockout_seeds`)
    said: str = ""  # what is said of the player beside his name: the Swiss place that took him into the knockout

    @property
    def source_short(self) -> str:
        """The first clause of the explanation (``loser of main round 2 match 3``), for the bracket's boxes."""
        return self.source.split(";")[0]


@dataclass
class Board:
    """A pairing as the pages show it: live score and state from its match, the notes a spectator needs."""

    pairing: Pairing
    a: Side
    b: Side
    state: str
    state_words: StrOrPromise
    notes: list[str] = field(default_factory=list)
    confirmation: str = ""

    @property
    def match_id(self) -> int | None:
        return self.pairing.match_id

    @property
    def is_live(self) -> bool:
        return self.state == PStatus.PLAYING

    @property
    def is_bye(self) -> bool:
        return self.pairing.status == PStatus.BYE

    @property
    def sides(self) -> tuple[Side, Side]:
        return (self.a, self.b)


def _state(pairing: Pairing) -> str:
    """The pairing's state (:func:`tournaments.core.pairing_state`) as spectators see it: a match over is finished,
    its result's confirmation said apart (:attr:`Board.confirmation`)."""
    state = pairing_state(pairing)
    return PStatus.FINISHED if state.is_over else state.value


def knockout_seeds(division: Division) -> dict[int, int]:
    """The seed of each player in the knockout of a Swiss into a knockout, by entry id: his place in the Swiss
    standings among those it took (seed 1 first, as tournaments/services/knockout.py drew it); empty before."""
    return {entry_id: n for n, entry_id in enumerate(division.knockout_seeds, start=1)}


def board_of(pairing: Pairing, seeds: dict[int, int] | None = None) -> Board:
    """The board of ``pairing``; ``seeds``: the knockout's seeds (:func:`knockout_seeds`) when it is a slot of the
    knockout of a Swiss into a knockout, whose badges show them and whose first round says the Swiss place of
    each player (the slot's source, "seed 3: 3rd in the Swiss standings, 4 wins")."""
    state = _state(pairing)
    outcome = outcome_of(pairing, pairing.match)  # live: a game's score before the division's sync copies it
    scores: tuple[int | None, int | None] = (outcome.score_a, outcome.score_b)
    if pairing.entry_a_id is None or pairing.entry_b_id is None or state in (PStatus.WAITING, PStatus.SKIPPED):
        scores = (None, None)  # a bye, or a slot whose players are not known: no score
    winner = winner_side(pairing, outcome)
    first = seeds is not None and pairing.round.number == 1
    board = Board(
        pairing=pairing,
        a=_side(pairing.entry_a, pairing.source_a, scores[0], winner == 0, seeds, first=first),
        b=_side(pairing.entry_b, pairing.source_b, scores[1], winner == 1, seeds, first=first),
        state=state,
        state_words=PAIRING_STATUS_WORDS.get(state, state),
    )
    if state == PStatus.READY and pairing.table_id is None and pairing.match_id is not None:
        board.state_words = WAITING_FOR_TABLE_WORDS
    if pairing.confirmation == Confirmation.AWAITING:
        side = board.sides[pairing.confirmation_side or 0]
        if side.entry is not None:
            name = side.entry.player.display_name
            board.confirmation = _("waiting for confirmation by %(name)s") % {"name": name}
        else:
            board.confirmation = _("waiting for confirmation")
    elif pairing.confirmation == Confirmation.DISPUTED:
        board.confirmation = _("disputed: a director decides")
    if pairing.decision:
        words = str(DECISION_WORDS.get(pairing.decision, pairing.decision))
        board.notes.append(f"{words}: {pairing.decision_reason}" if pairing.decision_reason else words)
    elif pairing.decision_reason:
        board.notes.append(pairing.decision_reason)
    if pairing.reason:
        board.notes.append(pairing.reason)
    if pairing.swapped_reason:
        board.notes.append(_("Swapped: %(reason)s") % {"reason": pairing.swapped_reason})
    return board


def _side(
    entry: Entry | None, source: str, score: int | None, won: bool, seeds: dict[int, int] | None, *, first: bool
) -> Side:
    if entry is None or seeds is None:
        return Side(entry, source, score, won, entry.seed if entry is not None else None)
    said = source.partition(": ")[2] if first and source.startswith("seed ") else ""  # the seed is in the badge
    return Side(entry, source, score, won, seeds.get(entry.pk), said)


@dataclass
class RoundView:
    """A round with its boards, as a table of the pairings."""

    round: Round
    titles: tuple[StrOrPromise, StrOrPromise]  # on its own, and in its bracket's column
    boards: list[Board]
    anchor: str
    conditional: bool = False

    @property
    def title(self) -> StrOrPromise:
        return self.titles[0]

    @property
    def short_title(self) -> StrOrPromise:
        return self.titles[1]

    @property
    def open(self) -> int:
        return sum(is_open(b.pairing) for b in self.boards)


def _round_titles(division: Division, rnd: Round, last: dict[str, int]) -> tuple[StrOrPromise, StrOrPromise]:
    """The round's name (:func:`tournaments.core.round_words`, as every page, call and the display name it: "Round
    3", "Main round 2", "Main semi-final", "Consolation final", "Grand final") and its title within its bracket's
    column ("Round 2", "Semi-final", "Final"). ``last``: each bracket's last round, the final where the division's
    plan is not known."""
    number = _("Round %(number)s") % {"number": rnd.number}
    if rnd.bracket in (Round.Bracket.SWISS, Round.Bracket.ROUND_ROBIN):
        return round_words(rnd, division), number
    if division.is_swiss_knockout and rnd.bracket == Round.Bracket.MAIN:
        rounds = knockout_rounds(division)
        return round_words(rnd, division), knockout_round_words(rnd.number, rounds, short=True)
    kind = bracket_round_kind(rnd, division)
    if kind == RoundKind.ROUND and bracket_shape(division) is None and rnd.number == last.get(rnd.bracket):
        return round_words(rnd, division, kind=RoundKind.FINAL), _("Final")
    return round_words(rnd, division), _SHORT_TITLES.get(kind, number)


#: A bracket's rounds in its column, under the bracket's name.
_SHORT_TITLES = {
    RoundKind.SEMI_FINAL: gettext_lazy("Semi-final"),
    RoundKind.FINAL: gettext_lazy("Final"),
    RoundKind.GRAND_FINAL: gettext_lazy("Grand final"),
    RoundKind.RESET: gettext_lazy("Reset (if needed)"),
}


def plan_for(division: Division) -> Plan | None:
    """The division's bracket plan, or None (not an elimination division, not drawn, or not plannable)."""
    if not division.has_bracket or division.status == Division.Status.REGISTRATION:
        return None
    entrants = getattr(division, "entrants", None)
    try:
        return plan_of(division, entrants) if entrants else None  # a pure function of the settings (cached)
    except ApplicationError:  # a field the planner refuses: the page shows the slots without the lines
        return None


def _last_rounds(rounds: Iterable[Round]) -> dict[str, int]:
    """The last round number of each bracket."""
    last: dict[str, int] = {}
    for rnd in rounds:
        last[rnd.bracket] = max(last.get(rnd.bracket, 0), rnd.number)
    return last


def round_views(
    division: Division, pairings: Iterable[Pairing], every_round: Iterable[Round] | None = None
) -> list[RoundView]:
    """The rounds of ``pairings`` with their boards, in play order (round number, then main, consolation, last
    chance). Titles name a bracket's last round its final: ``every_round`` lists the division's rounds when
    ``pairings`` are not all of them."""
    by_round: dict[int, list[Pairing]] = defaultdict(list)
    rounds: dict[int, Round] = {}
    for pairing in pairings:
        by_round[pairing.round_id].append(pairing)
        rounds[pairing.round_id] = pairing.round
    last = _last_rounds(rounds.values() if every_round is None else every_round)
    ordered = sorted(rounds.values(), key=play_order)
    seeds = knockout_seeds(division)
    return [
        RoundView(
            round=rnd,
            titles=_round_titles(division, rnd, last),
            boards=[
                board_of(p, seeds if seeds and rnd.bracket == Round.Bracket.MAIN else None)
                for p in sorted(by_round[rnd.pk], key=lambda p: p.board)
            ],
            anchor=f"round-{rnd.bracket}-{rnd.number}",
            conditional=any(p.conditional for p in by_round[rnd.pk]),
        )
        for rnd in ordered
    ]


def current_round_ids(division: Division, rounds: Sequence[tuple[Round, int, int]]) -> list[int]:
    """The rounds being played, from (round, open pairings, finished pairings).

    Swiss and round robin: the first round with a pairing still open, else the last round. Elimination: every
    round with a pairing still open (a bracket moves slot by slot: a main round 2 match between two players given
    byes is ready while round 1 is played, as the director's page says); when the division is over, the last main
    round played."""
    if division.knockout_drawn:  # its Swiss rounds are over: the knockout is played as a bracket
        rounds = [row for row in rounds if row[0].bracket == Round.Bracket.MAIN]
    if not rounds:
        return []
    if not division.has_bracket:
        open_ = [r for r, n_open, _played in rounds if n_open]
        every = [r for r, _open, _played in rounds]
        chosen = min(open_, key=lambda r: r.number) if open_ else max(every, key=lambda r: r.number)
        return [chosen.pk]
    out = [r.pk for r, n_open, _played in rounds if n_open]
    if not out and division.status == Division.Status.FINISHED:
        played = [r for r, _o, n_played in rounds if n_played and r.bracket == "main"]
        if played:
            out.append(max(played, key=lambda r: r.number).pk)
    return out


def current_from(views: Sequence[RoundView], division: Division) -> list[RoundView]:
    counts = [(v.round, v.open, sum(b.pairing.status == PStatus.FINISHED for b in v.boards)) for v in views]
    wanted = current_round_ids(division, counts)
    return [v for v in views if v.round.pk in wanted]


def counts_of(rounds: Sequence[Round]) -> list[tuple[Round, int, int]]:
    """(round, open pairings, finished pairings) of rounds read by :func:`rounds_with_counts`."""
    return [(r, getattr(r, "n_open", 0), getattr(r, "n_played", 0)) for r in rounds]


def current_rounds(division: Division, rounds: Sequence[Round] | None = None) -> list[RoundView]:
    """The live pairings part: the rounds being played (two queries: the rounds, unless ``rounds`` are those of
    :func:`rounds_with_counts`, then their pairings)."""
    if rounds is None:
        rounds = rounds_with_counts(division)
    wanted = current_round_ids(division, counts_of(rounds))
    if not wanted:
        return []
    return round_views(division, pairings_of(division).filter(round_id__in=wanted), rounds)


@dataclass(frozen=True)
class RoundLink:
    """A round in the division page's list of rounds: each round's table is on a page of its own."""

    round: Round
    title: StrOrPromise
    anchor: str
    conditional: bool
    current: bool


def round_links(division: Division, rounds: Sequence[Round], current: Iterable[int]) -> list[RoundLink]:
    """``rounds`` (in play order, with ``n_conditional`` or ``conditional`` set) as links; ``current``: round ids."""
    last = _last_rounds(rounds)
    now = set(current)
    return [
        RoundLink(
            round=rnd,
            title=_round_titles(division, rnd, last)[0],
            anchor=f"round-{rnd.bracket}-{rnd.number}",
            conditional=bool(getattr(rnd, "n_conditional", 0)),
            current=rnd.pk in now,
        )
        for rnd in rounds
    ]


# -- the bracket -----------------------------------------------------------------------------------------------------


@dataclass
class Column:
    """One round of one bracket: its boards from the top, and the lines from the previous column that feed it
    (``links``: (index in the previous column, index here), from the plan's ``Winner`` sources)."""

    view: RoundView
    links: list[tuple[int, int, bool]] = field(default_factory=list)
    previous: int = 0  # boards in the previous column (0 for the first)

    @property
    def boards(self) -> list[Board]:
        return self.view.boards


@dataclass
class BracketView:
    code: str
    title: StrOrPromise
    columns: list[Column]


def bracket_views(division: Division, views: Sequence[RoundView]) -> list[BracketView]:
    """The brackets of an elimination division, one column per round, with the lines between the columns."""
    plan = plan_for(division)
    out: list[BracketView] = []
    for bracket in ("main", "consolation", "last-chance"):
        mine = sorted((v for v in views if v.round.bracket == bracket), key=lambda v: v.round.number)
        if not mine:
            continue
        columns: list[Column] = []
        place: dict[str, tuple[int, int]] = {}  # pairing key -> (column, index)
        for c, view in enumerate(mine):
            column = Column(view=view, previous=len(columns[-1].boards) if columns else 0)
            for i, board in enumerate(view.boards):
                place[board.pairing.key] = (c, i)
                if plan is None or board.pairing.key not in plan or c == 0:
                    continue
                node = plan.node(board.pairing.key)
                for source in (node.a, node.b):
                    if isinstance(source, Winner) and place.get(source.key, (-1, 0))[0] == c - 1:
                        fed = place[source.key][1]
                        link = (fed, i, counts(mine[c - 1].boards[fed].pairing))  # the winner has moved on
                        if link not in column.links:
                            column.links.append(link)
            columns.append(column)
        out.append(BracketView(code=bracket, title=bracket_words(division, bracket), columns=columns))
    return out


# -- standings -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StandingRow:
    row: Standing
    tiebreaks: list[int | str]
    places: list[str] = field(default_factory=list)  # elimination: the place in each of the view's flights
    prizes: list[str] = field(default_factory=list)  # the published payouts, one per column of the view's table


@dataclass
class StandingsView:
    rows: list[StandingRow]
    rounds: list[int]
    after_round: int | None
    asked: int | None
    tiebreaks: list[TiebreakColumn]
    flights: list[tuple[str, StrOrPromise]] = field(default_factory=list)  # (bracket, its place column's words)
    prize_columns: list[StrOrPromise] = field(default_factory=list)  # the published payout table's columns
    prizes_to_come: bool = False  # a published payout table whose paid places nobody holds yet: no empty column
    # The registration seeds beside the names; not once a Swiss into a knockout has drawn its knockout, whose own
    # seeds (the Swiss places) are the ones its pairings and bracket show on the same page.
    seeds: bool = True
    # How playoffs settled ties, or that one is ordered ("Tie at 3rd settled by a playoff: A beat B 1-0.").
    playoffs: list[str] = field(default_factory=list)
    during: bool = False  # the table is of a round still being played ("Standings during round 2")
    byes_won: bool = True  # a bye counts as a win, said beside the wins ("3 (1 bye)"); not in an elimination


def _standings_rounds(division: Division) -> list[int] | None:
    """The rounds the division's standings tables exist for, from :func:`division_for_page`'s ``standings``
    annotations (None: not read, or not a run of consecutive rounds)."""
    if not hasattr(division, "tables_count"):
        return None
    first, last, count = (getattr(division, f"tables_{name}") for name in ("first", "last", "count"))
    if not count:
        return []
    return list(range(first, last + 1)) if count == last - first + 1 else None


def standings_view(division: Division, asked: int | None) -> StandingsView:
    """The table after ``asked`` (default: the latest) and the rounds a table exists for (two queries; one when
    the division was read with ``standings=True``)."""
    rounds = _standings_rounds(division)
    if rounds is None:
        rounds = standings_rounds(division)
    chosen = asked if asked is not None else (rounds[-1] if rounds else None)
    found = standings_table(division, after_round=chosen) if chosen in rounds else []
    codes = [] if division.is_elimination else division.tiebreaks
    tiebreaks = [TIEBREAK_COLUMNS[code] for code in codes if code in TIEBREAK_COLUMNS]
    flights = place_columns(found)
    latest = not rounds or chosen == max(rounds)
    payouts = payouts_of(division, found) if latest else Payouts()
    if not payouts.published:
        payouts = Payouts()
    rows = [
        StandingRow(
            row,
            [row.tiebreaks.get(t.code, "") for t in tiebreaks],
            [row.places.get(f, "") for f, _ in flights],
            prize_cells(payouts, row.entry_id),
        )
        for row in found
    ]
    shown = [r for r in rounds if r > 0]
    # In the Swiss of a Swiss into a knockout (or before any paid place is held) every prize cell would be empty:
    # no column then, and the table says when the prizes show.
    to_come = payouts.published and not any(any(row.prizes) for row in rows)
    if to_come:
        rows = [replace(row, prizes=[]) for row in rows]
    return StandingsView(
        rows=rows,
        rounds=shown,
        after_round=chosen,
        asked=asked,
        tiebreaks=tiebreaks,
        flights=flights,
        prize_columns=[] if to_come else prize_columns(payouts),
        prizes_to_come=to_come,
        seeds=not division.knockout_drawn,
        playoffs=[view.words for view in playoffs_of(division)],
        during=_during(division, chosen),
        byes_won=not division.is_elimination,
    )


def _during(division: Division, chosen: int | None) -> bool:
    """Whether the table after round ``chosen`` is of a Swiss round still being played: it or an earlier round has
    a board still open (``open_round``, read with the division; a round robin's latest table is "so far", a
    knockout's table and an elimination's have no round)."""
    open_round = getattr(division, "open_round", None)
    if not chosen or open_round is None or (division.knockout_drawn and chosen > division.rounds_planned):
        return False
    return open_round <= chosen


#: The words of each flight's place column (elimination standings).
PLACE_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Place"),
    Round.Bracket.CONSOLATION: gettext_lazy("Consolation place"),
    Round.Bracket.LAST_CHANCE: gettext_lazy("Last-chance place"),
}


#: The words of each flight's prize column.
PRIZE_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Prize"),
    Round.Bracket.CONSOLATION: gettext_lazy("Consolation prize"),
    Round.Bracket.LAST_CHANCE: gettext_lazy("Last-chance prize"),
    SIDE_POOL: gettext_lazy("Side pool"),
}


def prize_columns(payouts: Payouts) -> list[StrOrPromise]:
    """The prize columns of a table: one per paid flight, and the total when more than one flight pays."""
    columns = [PRIZE_WORDS[flight] for flight in payouts.flights]
    return [*columns, gettext_lazy("Total prize")] if len(columns) > 1 else columns


def prize_cells(payouts: Payouts, entry_id: int) -> list[str]:
    """An entry's prizes under :func:`prize_columns` (empty where it earns nothing), as 123.45."""
    cells = ["" if cents is None else cents_text(cents) for cents in payouts.of(entry_id)]
    if len(cells) > 1:
        total = payouts.total(entry_id)
        cells.append(cents_text(total) if total else "")
    return cells


def remainder_notes(payouts: Payouts) -> list[str]:
    """What rounding to cents left over, what shared places pay beyond the table, and (once the division is over)
    the prizes of places nobody reached, and the prizes one prize per player leaves unpaid, per flight: said beside
    the table."""
    left = [
        _("%(flight)s: %(cents)s left over by rounding to cents.")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.remainder.items()
        if cents
    ]
    over = [
        _(
            "%(flight)s: %(cents)s more than the table pays, as players who share a place are each paid the prize "
            "of its best place."
        )
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.over.items()
        if cents
    ]
    unreached = [
        _("%(flight)s: %(cents)s left over, the prizes of places nobody reached.")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.unreached.items()
        if cents
    ]
    forgone = [
        _("%(flight)s: %(cents)s left over, not paid to players who have a larger prize (one prize per player).")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.forgone.items()
        if cents
    ]
    waiting = [
        _("%(flight)s: %(cents)s waits for the places of its players still playing.")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.waiting.items()
        if cents
    ]
    return waiting + left + over + unreached + forgone


def place_columns(rows: Iterable[Standing]) -> list[tuple[str, StrOrPromise]]:
    """The flights with a place in any of the rows, in the order main, consolation, last chance."""
    held = {flight for row in rows for flight in row.places}
    return [(flight, words) for flight, words in PLACE_WORDS.items() if flight in held]


# -- the event page --------------------------------------------------------------------------------------------------


@dataclass
class DivisionSummary:
    division: Division
    format: str
    status: StrOrPromise
    players: int
    current: list[str]
    champions: list[tuple[StrOrPromise, list[Entry]]]
    lengths: str = ""


def division_summaries(event: Event) -> list[DivisionSummary]:
    """The event's divisions with their players, current rounds and champions (four queries)."""
    divisions = divisions_with_players(event)
    rounds = rounds_in_play([d.pk for d in divisions])
    champions = _champions([d for d in divisions if d.status == Division.Status.FINISHED])
    out = []
    for d in divisions:
        out.append(
            DivisionSummary(
                division=d,
                format=format_words(d),
                status=DIVISION_STATUS_WORDS.get(d.status, d.status),
                players=getattr(d, "players", 0),  # annotated by divisions_with_players
                current=_current_words(d, rounds[d.pk]) if d.status == Division.Status.RUNNING else [],
                champions=champions.get(d.pk, []),
                lengths=lengths_words(d),
            )
        )
    return out


def _current_words(division: Division, rounds: list[tuple[str, int | None, int]]) -> list[str]:
    if division.knockout_drawn:
        rounds = [r for r in rounds if r[0] == Round.Bracket.MAIN]
    if not division.has_bracket:
        number = min((o for _b, o, _l in rounds if o is not None), default=None)
        if number is None:
            number = max((last for _b, _o, last in rounds), default=0)
        if not number:
            return []
        total = division.rounds_planned if division.in_swiss_phase else max(r[2] for r in rounds)
        return [_("round %(number)s of %(total)s") % {"number": number, "total": total}]
    out = []
    for bracket, open_min, _last in sorted(rounds, key=lambda r: BRACKET_ORDER.get(r[0], 9)):
        if open_min is not None:  # named as every page names it (tournaments.core.round_words)
            out.append(round_words(Round(bracket=bracket, number=open_min), division))
    return out


def correction_notes(division: Division, pairings: Iterable[Pairing] | None = None) -> list[str]:
    """What the division page says of the results a director corrected: "Round 2, Table 1: Per Foss v Ola Dahl: the
    director corrected the result (the wrong winner was entered)." and how the later rounds take it. From
    ``pairings`` when the page has read them all (with their rounds and players), else one query, none when the
    division's page fingerprint says it has no corrected result (``corrected``, :func:`division_for_page`)."""
    if pairings is not None:
        corrected = [p for p in pairings if p.decision == Pairing.Decision.DIRECTOR]
        corrected.sort(key=lambda p: (p.round.number, p.round.bracket, p.board))
    elif hasattr(division, "corrected") and not division.corrected:
        corrected = []
    else:
        corrected = corrected_pairings(division)
    notes = []
    for pairing in corrected:
        words = pairing_words(pairing, division)
        why = f" ({pairing.decision_reason})" if pairing.decision_reason else ""
        notes.append(_("%(pairing)s: the director corrected the result%(why)s.") % {"pairing": words, "why": why})
    if notes and division.format in (Division.Format.SWISS, Division.Format.SWISS_KNOCKOUT):
        notes.append(
            _(
                "The standings count the corrected results; the later Swiss rounds' pairings stand, and their boards "
                "say the score groups as they are now."
            )
        )
    return notes


def place_words(place: str) -> str:
    """A place as people say it: "3" -> "3rd", "3-4" -> "3rd-4th"."""
    return "-".join(str(ordinal(part)) for part in place.split("-"))


def final_titles(division: Division) -> dict[int, StrOrPromise]:
    """A finished division's players by entry id, each with what he finished: the winners' titles
    (:func:`champion_titles`), everyone else his place ("Finished 2nd", "Finished 3rd-4th"); empty while the division
    is played (two queries)."""
    titles = champion_titles(division)
    if not titles:
        return {}
    for row in standings_table(division):
        place = str((row.places or {}).get(Round.Bracket.MAIN) or row.rank)
        titles.setdefault(row.entry_id, _("Finished %(place)s") % {"place": place_words(place)})
    return titles


def champion_titles(division: Division) -> dict[int, StrOrPromise]:
    """A finished division's winners by entry id, each with the title it won ("Champion", "Consolation winner",
    "Winner"); empty while the division is played (one query)."""
    if division.status != Division.Status.FINISHED:
        return {}
    titles: dict[int, StrOrPromise] = {}
    for label, entries in _champions([division]).get(division.pk, []):
        for entry in entries:
            titles.setdefault(entry.pk, label)
    return titles


def _champions(finished: list[Division]) -> dict[int, list[tuple[StrOrPromise, list[Entry]]]]:
    """Elimination: the winner of each bracket's last match played (a double elimination's losers' bracket winner
    plays on in the grand final). Swiss and round robin: the players ranked first in the final standings."""
    out: dict[int, list[tuple[StrOrPromise, list[Entry]]]] = defaultdict(list)
    elimination = [d for d in finished if d.is_elimination]
    tables = [d for d in finished if not d.is_elimination]
    if elimination:
        labels = {"main": _("Champion"), "consolation": _("Consolation winner"), "last-chance": _("Last chance winner")}
        formats = {d.pk: d.format for d in elimination}
        found: dict[int, dict[str, Entry]] = defaultdict(dict)
        for pairing in bracket_finals(elimination):
            if formats[pairing.division_id] == Division.Format.DOUBLE and pairing.round.bracket != "main":
                continue
            assert pairing.winner is not None  # the filter on winner__isnull
            found[pairing.division_id].setdefault(pairing.round.bracket, pairing.winner)
        for division_id, by_bracket in found.items():
            for bracket in ("main", "consolation", "last-chance"):
                if bracket in by_bracket:
                    out[division_id].append((labels[bracket], [by_bracket[bracket]]))
    if tables:
        leaders: dict[int, list[Entry]] = defaultdict(list)
        for row in table_leaders(tables):
            leaders[row.division_id].append(row.entry)
        for division_id, entries in leaders.items():
            out[division_id].append((_("Winner") if len(entries) == 1 else _("Shared first place"), entries))
    return out


# -- calls -----------------------------------------------------------------------------------------------------------


def call_round_words(pairing: Pairing) -> str:
    """The round as a call names it, as every page names it (:func:`tournaments.core.round_words`): "Main round
    2", "Consolation round 1", "Round 3", "Knockout semi-final" (needs the pairing's round and division loaded)."""
    return round_words(pairing.round, pairing.division)


def call_words(
    pairing: Pairing, player_id: int | None = None, *, division: bool = False, round_name: str | None = None
) -> str:
    """A call as the player hears it: "Table 7: you play Pia Ruud, Main round 2, 7 points"; without ``player_id``
    (the venue display, the director) both names: "Table 7: Lars Nes v Pia Ruud, Main round 2, 7 points".
    ``division``: the division named before the round, for a room shared by several ("..., Pia Ruud, Open, Main
    round 2, 7 points"); ``round_name``: the round's name where the page knows its bracket's rounds ("Main
    final": :func:`round_titles_of`). Needs the pairing's table, round and players loaded (and its division)."""
    a, b = pairing.entry_a, pairing.entry_b
    names = [e.player.display_name if e is not None else "" for e in (a, b)]
    length = _("%(length)s points") % {"length": pairing.length} if pairing.length != 1 else _("1 point")
    where = pairing.table_label or _("Waiting for a table")
    if player_id is not None and a is not None and b is not None and player_id in (a.player_id, b.player_id):
        other = names[1] if a.player_id == player_id else names[0]
        who = _("you play %(name)s") % {"name": other}
    else:
        who = _("%(a)s v %(b)s") % {"a": names[0], "b": names[1]}
    named = f"{pairing.division.name}, " if division else ""
    return f"{where}: {who}, {named}{round_name or call_round_words(pairing)}, {length}"


# -- the venue display -----------------------------------------------------------------------------------------------

#: Rows of each list on one screen of the venue display (1920x1080, read from five metres): the boards (two lines
#: each at most), the standings (one line each: a screen holds a division of 16 players), the calls shown (the
#: others are counted, with their tables), and the matches waiting for a table listed after the boards.
DISPLAY_ROWS = 9
DISPLAY_STANDINGS_ROWS = 16
DISPLAY_CALLS = 4
DISPLAY_QUEUE = 2 * DISPLAY_ROWS


@dataclass(frozen=True)
class DisplayBoard:
    """A match at a table, being played, or waiting for a table (``waiting``: its place in the queue) as the venue
    display shows it."""

    table: str
    division: str
    round: str
    a: str
    b: str
    score: str
    state: str
    waiting: int = 0
    length: int = 0  # the match's length: the score is read against it ("2-1, to 3")


@dataclass(frozen=True)
class DisplayStanding:
    division: str
    rank: int
    name: str
    wins: int
    losses: int


@dataclass(frozen=True)
class DisplayPage:
    """One screen of the venue display: the calls, a page of the current boards and of the standings; the lists
    longer than a screen are shown a page at a time, the screen moving to the next page at every refresh."""

    calls: list[str]
    boards: list[DisplayBoard]
    standings: list[DisplayStanding]
    page: int
    pages: int
    boards_page: tuple[int, int]
    standings_page: tuple[int, int]
    over: bool = False  # every division is finished
    more_calls: list[str] = field(default_factory=list)  # the tables of the calls not shown
    waiting: int = 0  # the matches waiting for a table
    waiting_unlisted: int = 0  # of which not listed

    @property
    def next_page(self) -> int:
        return (self.page + 1) % self.pages


def _page_of(items: list[Any], page: int, rows: int = DISPLAY_ROWS) -> tuple[list[Any], tuple[int, int]]:
    count = max(1, -(-len(items) // rows))
    shown = page % count
    return items[shown * rows : (shown + 1) * rows], (shown + 1, count)


def round_titles_of(division: Division, rounds: Iterable[Round]) -> dict[int, StrOrPromise]:
    """Each of the division's ``rounds`` (all of them) by id, named as the division page names it
    (:func:`tournaments.core.round_words`: "Main round 2", "Consolation final", "Round 3")."""
    rounds = list(rounds)
    last = _last_rounds(rounds)
    return {rnd.pk: _round_titles(division, rnd, last)[0] for rnd in rounds}


def _display_board(division: Division, board: Any, titles: dict[int, StrOrPromise], waiting: int = 0) -> DisplayBoard:
    p = board.pairing
    match = p.match
    score = f"{match.score1}{EN_DASH}{match.score2}" if match is not None and match.seq else ""
    return DisplayBoard(
        table=p.table_label,
        division=division.name,
        round=str(titles.get(p.round_id) or call_round_words(p)),
        a=p.entry_a.player.display_name,
        b=p.entry_b.player.display_name,
        score=score,
        state="waiting" if waiting else str(board.state),
        waiting=waiting,
        length=p.length,
    )


def display_page(
    calls: Sequence[Pairing],
    boards: Sequence[tuple[Division, Any]],
    standings: Sequence[tuple[Division, Sequence[Standing]]],
    page: int,
    round_titles: dict[int, StrOrPromise] | None = None,
    *,
    over: bool = False,
    divisions: int = 1,
    queue: Sequence[tuple[Division, Any]] = (),
) -> DisplayPage:
    """The screen ``page`` of the display from the calls (newest first: :data:`DISPLAY_CALLS` lines, the last one
    counting the others with their tables when there are more), the boards of the room (division, a director's board of
    tournaments.selectors.director: the venue's matches, whatever their round), of which it shows each once, those
    at a table or being played (a match over is no longer playing), then the ``queue`` (the matches waiting for a
    table, next first: the first :data:`DISPLAY_QUEUE` listed, the others counted), and the standings of each
    division in play or finished (a finished one's heading says its standings are final). ``round_titles``: the
    rounds' names by id (:func:`round_titles_of`); ``over``: every division is finished; ``divisions``: how many
    the event has (more than one: each call names its division, as each board does)."""
    titles = round_titles or {}
    rows = []
    seen: set[int] = set()
    for division, board in boards:
        p = board.pairing
        if p.entry_a is None or p.entry_b is None or p.pk in seen:
            continue
        seen.add(p.pk)
        if board.state.is_over or not (p.table_label or board.state == "playing"):
            continue
        rows.append(_display_board(division, board, titles))
    rows.sort(key=lambda r: (not r.table, _table_sort(r.table)))
    waiting = [(d, b) for d, b in queue if b.pairing.entry_a is not None and b.pairing.entry_b is not None]
    rows += [_display_board(d, b, titles, n) for n, (d, b) in enumerate(waiting[:DISPLAY_QUEUE], start=1)]
    table = [
        DisplayStanding(_division_heading(division), row.rank, row.entry.player.display_name, row.wins, row.losses)
        for division, rows_of in standings
        for row in rows_of
    ]
    shown_boards, boards_page = _page_of(rows, page)
    shown_standings, standings_page = _page_of(table, page, DISPLAY_STANDINGS_ROWS)
    pages = max(boards_page[1], standings_page[1])
    shown_calls = DISPLAY_CALLS if len(calls) <= DISPLAY_CALLS else DISPLAY_CALLS - 1  # the last line counts the others
    return DisplayPage(
        calls=[
            call_words(p, division=divisions > 1, round_name=str(titles.get(p.round_id) or "") or None)
            for p in calls[:shown_calls]
        ],
        boards=shown_boards,
        standings=shown_standings,
        page=page % pages,
        pages=pages,
        boards_page=boards_page,
        standings_page=standings_page,
        over=over,
        more_calls=[p.table_label for p in calls[shown_calls:]],
        waiting=len(waiting),
        waiting_unlisted=max(0, len(waiting) - DISPLAY_QUEUE),
    )


def _division_heading(division: Division) -> str:
    if division.status == Division.Status.FINISHED:
        return _("%(division)s: final standings") % {"division": division.name}
    return division.name


def _table_sort(label: str) -> tuple[int, str]:
    digits = "".join(ch for ch in label if ch.isdigit())
    return (int(digits) if digits else 0, label)


# -- a player's rating history -------------------------------------------------------------------------------------

#: The rating chart's drawing area, in SVG units (the labels sit outside it).
RATING_CHART_WIDTH, RATING_CHART_HEIGHT = 300, 100


@dataclass(frozen=True)
class RatingPoint:
    rating: float
    x: float
    y: float


@dataclass(frozen=True)
class RatingChart:
    """A player's rating after each rated match, oldest first, from the list's start (the first point), drawn
    between ``low`` (bottom) and ``high`` (top), both multiples of 25 around his ratings."""

    name: str
    current: float
    matches: int
    points: list[RatingPoint]
    low: int
    high: int

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x},{p.y}" for p in self.points)


def rating_chart(history: Any) -> RatingChart:
    """The chart of one :class:`~tournaments.selectors.players.RatingHistory`: his rating before his first rated
    match, then after each."""
    changes = history.changes
    ratings = ([changes[0].before] if changes else [history.rating.rating]) + [c.after for c in changes]
    low = int(25 * ((min(ratings) - 1) // 25))
    high = int(25 * ((max(ratings) + 1) // 25 + 1))
    step = RATING_CHART_WIDTH / max(1, len(ratings) - 1)
    points = [
        RatingPoint(r, round(n * step, 1), round(RATING_CHART_HEIGHT * (high - r) / (high - low), 1))
        for n, r in enumerate(ratings)
    ]
    rating = history.rating
    return RatingChart(rating.rating_list.name, rating.rating, rating.matches, points, low, high)
