"""The pairings as the division's pages show them: a board per pairing (live score and state from its match), a
view per round with its titles, the rounds being played, the list of rounds, and the bracket's columns with the
lines between them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.errors import ApplicationError
from tournaments.core import (
    RoundKind,
    bracket_round_kind,
    bracket_shape,
    counts,
    is_open,
    knockout_round_words,
    knockout_rounds,
    outcome_of,
    pairing_state,
    plan_of,
    play_order,
    round_words,
    winner_side,
)
from tournaments.models import Division, Entry, Pairing, Round
from tournaments.pages.words import (
    WAITING_FOR_TABLE_WORDS,
    Confirmation,
    PStatus,
    StrOrPromise,
    bracket_words,
)
from tournaments.pairing.brackets import Plan, Winner
from tournaments.selectors.public import (
    pairings_of,
    rounds_with_counts,
)


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
        state_words=PStatus(state).label,
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
        board.confirmation = str(Confirmation.DISPUTED.label)
    if pairing.decision:
        words = str(pairing.get_decision_display())
        board.notes.append(f"{words}: {pairing.decision_reason}" if pairing.decision_reason else words)
    elif pairing.decision_reason:
        board.notes.append(pairing.decision_reason)
    if pairing.reason and not _says_nothing(pairing):
        board.notes.append(pairing.reason)
    if pairing.swapped_reason:
        board.notes.append(_("Swapped: %(reason)s") % {"reason": pairing.swapped_reason})
    return board


def _says_nothing(pairing: Pairing) -> bool:
    """Whether the pairing's reason tells nothing: a Swiss's first round pairs every player at 0 points, all in
    "score group 0" (its bye's reason still tells who got it and why)."""
    return (
        pairing.round.bracket == Round.Bracket.SWISS and pairing.round.number == 1 and pairing.reason == "score group 0"
    )


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


def round_titles_of(division: Division, rounds: Iterable[Round]) -> dict[int, StrOrPromise]:
    """Each of the division's ``rounds`` (all of them) by id, named as the division page names it
    (:func:`tournaments.core.round_words`: "Main round 2", "Consolation final", "Round 3")."""
    rounds = list(rounds)
    last = _last_rounds(rounds)
    return {rnd.pk: _round_titles(division, rnd, last)[0] for rnd in rounds}
