"""What the spectator match page shows, read from the log and the caches (no writes).

Terms: an *entry* is one line of the move list: a turn (the roll and the play it was played with, under the
play's sequence number), a cube action, a resignation, a scoresheet result or a director's closing action. The
board *at* an entry is the position after it, found by replaying that entry's game through the engine from the
game's start (a game is at most a few hundred actions, so this costs the same at game 1 and at game 30).

Queries: :func:`match_for_page` is one query (the match, its players and its last action's id, which is all the
ETag needs); :func:`page_data` adds three (the log in force, the games, the cube history) whatever the match's
size, and so does the live part's poll (the same reads, the move list of the game shown sent whole). Nothing here
runs a query per row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from django.db.models import OuterRef, Q, Subquery
from django.http import Http404
from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from engine.actions import Action as EngineAction
from engine.actions import ConcedeMatch, Move
from engine.cube import CubeState
from engine.game import GameState, Phase
from engine.match import MatchState
from engine.met import match_winning_chances
from engine.moves import Play
from games.access import can_read
from games.analysis.selectors import LoggedDecision, MatchAnalysisView, entry_decisions, match_analysis
from games.board_svg import BoardScene, scene_from_state
from games.engine_bridge import load_state, variant_of
from games.models import Action, Decision, Game, Match, MatchAnalysis
from games.selectors import (
    RESIGN_WORDS,
    CubeEvent,
    cube_history,
    effective_actions,
    forfeit_of,
    games_played,
    match_games,
)

Kind = Action.Kind
StrOrPromise = str | Promise

#: How many of the latest entries the live part lists.
TAIL = 8

CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)


# -- the match and its ETag ----------------------------------------------------------------------------------------


def match_for_page(match_id: int, user: object) -> Match:
    """The match with its players and ``last_action_id`` (one query).

    :raises Http404: for an unknown match, or a private one ``user`` may not read (the same answer for both).
    """
    last = Action.objects.filter(match=OuterRef("pk")).order_by("-seq").values("pk")[:1]
    match = (
        Match.objects.select_related("player1", "player2", "winner", "analysis")
        .annotate(last_action_id=Subquery(last))
        .filter(pk=match_id)
        .first()
    )
    if match is None or not can_read(user, match):
        raise Http404("no such match")
    return match


def etag_of(match: Match) -> str:
    """A quoted ETag that changes with any write to the match (seq, status, last action) or to its players'
    names, and with the page's language."""
    parts = (
        match.pk,
        match.seq,
        match.status,
        getattr(match, "last_action_id", None),
        match.player1.updated_at.isoformat(),
        match.player2.updated_at.isoformat(),
        get_language(),
        analysis_version(match),
    )
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    return f'"{digest}"'


# -- the move list -------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MoveLine:
    """One line of the move list; ``index`` is its row's place in the log in force (for replaying up to it)."""

    seq: int
    game: int
    side: int | None
    name: str
    text: str
    index: int
    dice: tuple[int, int] | None = None
    play: Play | None = None


MOVE_WORDS = {
    "turn": gettext_lazy("%(dice)s: %(play)s"),
    "dance": gettext_lazy("cannot move"),
    Kind.OPENING_ROLL: gettext_lazy("wins the opening roll: %(dice)s"),
    Kind.CHOOSE_DOUBLE: gettext_lazy("chooses %(dice)s"),
    Kind.ROLL: gettext_lazy("rolls %(dice)s"),
    Kind.DOUBLE: gettext_lazy("doubles to %(value)s"),
    Kind.RESIGN: gettext_lazy("offers to resign %(kind)s"),
    Kind.GAME_RESULT: gettext_lazy("wins %(kind)s, cube %(cube)s"),
    Kind.TAKE: gettext_lazy("takes"),
    Kind.DROP: gettext_lazy("drops"),
    Kind.ACCEPT_RESIGNATION: gettext_lazy("accepts the resignation"),
    Kind.REJECT_RESIGNATION: gettext_lazy("rejects the resignation"),
    Kind.CONCEDE_MATCH: gettext_lazy("concedes the match"),
    Kind.FORFEIT: gettext_lazy("forfeits the match"),
    Kind.VOID: gettext_lazy("the match was declared void"),
    Kind.FINISH: gettext_lazy("the session was ended"),
}
ROLLS = (Kind.OPENING_ROLL, Kind.ROLL, Kind.CHOOSE_DOUBLE)


@dataclass(slots=True)
class _Scan:
    """The state of :func:`log_entries` between rows: the words (translated once), the roll waiting for its play,
    and the cube of the game being read (engine values, so a double's value is the engine's)."""

    names: tuple[str, str]
    words: dict[str, str]
    dice: tuple[int, int] | None = None
    dice_side: int | None = None
    pending: MoveLine | None = None
    game: int = 0
    cube: CubeState = CubeState()  # noqa: RUF009 (an immutable value)
    entries: list[MoveLine] = field(default_factory=list)

    def flush(self) -> None:
        if self.pending is not None:
            self.entries.append(self.pending)
            self.pending = None


def log_entries(
    pairs: Sequence[tuple[Action, EngineAction | None]], names: tuple[str, str], offset: int = 0
) -> list[MoveLine]:
    """The move list of the log in force (``pairs`` as :func:`games.selectors.effective_actions` gives them), or of
    its rows from ``offset`` on (the first row of a game: the scan starts afresh at each game)."""
    scan = _Scan(names, {str(key): str(text) for key, text in MOVE_WORDS.items()})
    for index, (row, action) in enumerate(pairs, start=offset):
        if row.game_number != scan.game:
            scan.game, scan.cube = row.game_number, CubeState()
        _scan_row(scan, index, row, action)
    scan.flush()
    return scan.entries


def _scan_row(scan: _Scan, index: int, row: Action, action: EngineAction | None) -> None:
    name = scan.names[row.side] if row.side in (0, 1) else ""
    if row.kind in ROLLS:
        scan.flush()
        scan.dice, scan.dice_side = _dice_of(row), row.side
        text = scan.words[row.kind] % {"dice": _dice_text(scan.dice)}
        scan.pending = MoveLine(row.seq, row.game_number, row.side, name, text, index, scan.dice)
        return
    if row.kind == Kind.PLAY and isinstance(action, Move) and isinstance(action.play, Play):
        dice = scan.dice if scan.dice_side == row.side else None
        text = scan.words["turn"] % {"dice": _dice_text(dice), "play": row.play or scan.words["dance"]}
        scan.pending = None
        scan.entries.append(MoveLine(row.seq, row.game_number, row.side, name, text, index, dice, action.play))
        return
    scan.flush()
    scan.entries.append(MoveLine(row.seq, row.game_number, row.side, name, _other_text(scan, row), index))
    if row.kind == Kind.TAKE and row.side is not None:
        scan.cube = scan.cube.taken(row.side)


def _dice_of(row: Action) -> tuple[int, int]:
    if row.kind == Kind.CHOOSE_DOUBLE:
        return row.value or 0, row.value or 0
    return row.die1 or 0, row.die2 or 0


def _dice_text(dice: tuple[int, int] | None) -> str:
    return "" if dice is None else f"{max(dice)}{min(dice)}"


def _other_text(scan: _Scan, row: Action) -> str:
    words = scan.words.get(row.kind, row.kind)
    if row.kind == Kind.DOUBLE:
        return words % {"value": scan.cube.value * 2}
    if row.kind == Kind.RESIGN:
        return words % {"kind": RESIGN_WORDS.get(row.value or 1, "")}
    if row.kind == Kind.GAME_RESULT:
        return words % {"kind": RESIGN_WORDS.get(row.value or 1, ""), "cube": row.data.get("cube", 1)}
    return words


def entries_by_game(entries: Sequence[MoveLine]) -> list[tuple[int, list[MoveLine]]]:
    """The entries grouped by game number, in order."""
    groups: list[tuple[int, list[MoveLine]]] = []
    for entry in entries:
        if not groups or groups[-1][0] != entry.game:
            groups.append((entry.game, []))
        groups[-1][1].append(entry)
    return groups


# -- boards --------------------------------------------------------------------------------------------------------


def board_at(
    match: Match,
    pairs: Sequence[tuple[Action, EngineAction | None]],
    games: dict[int, Game],
    entry: MoveLine,
    names: tuple[str, str],
    offset: int = 0,
) -> BoardScene:
    """The board after ``entry``: its game replayed through the engine from the game's start (``pairs``: the log in
    force from its row ``offset`` on, the start of ``entry``'s game or earlier)."""
    game = games.get(entry.game)
    state = GameState.new(variant_of(match), cube_enabled=not (game and game.crawford), casual=match.casual)
    for row, action in pairs[: entry.index + 1 - offset]:
        if row.game_number == entry.game and action is not None and not isinstance(action, ConcedeMatch):
            state = state.apply(action)
    caption = _("Game %(game)s · %(name)s %(text)s") % {
        "game": entry.game,
        "name": entry.name,
        "text": entry.text,
    }
    if not entry.name:
        caption = _("Game %(game)s · %(text)s") % {"game": entry.game, "text": entry.text}
    return scene_from_state(
        state,
        names=names,
        play=entry.play,
        play_by=entry.side,
        dice=entry.dice if entry.play is not None else None,
        dice_by=entry.side,
        caption=caption,
    )


def live_board(state: MatchState, last: MoveLine | None, names: tuple[str, str]) -> BoardScene:
    """The latest position (the cached engine state), with the last play shown if it was made in this game."""
    caption = _("Game %(game)s: the latest position") % {"game": state.game_number}
    if last is None or last.play is None or last.game != state.game_number:
        return scene_from_state(state.game, names=names, caption=caption)
    return scene_from_state(
        state.game,
        names=names,
        play=last.play,
        play_by=last.side,
        dice=last.dice if state.game.dice is None else None,
        dice_by=last.side,
        caption=caption,
    )


def turn_text(state: MatchState, match: Match, names: tuple[str, str]) -> str:
    """Who is to do what now, in words ("" when the match is closed)."""
    if match.status in CLOSED:
        return ""
    game = state.game
    who = names[game.actor]
    if match.entry_mode == Match.EntryMode.SCORESHEET:  # nobody rolls here: the players enter each game's result
        if not match.seq and match.status != Match.Status.IN_PROGRESS:  # called, perhaps, but nothing entered yet
            return _("Not started yet: each game's result is entered when the game ends")
        return _("Game %(game)s is being played: its result is entered when it ends") % {"game": state.game_number}
    if game.phase is Phase.OPENING:
        return _("Game %(game)s: waiting for the opening roll") % {"game": state.game_number}
    texts = {
        Phase.ROLL: gettext_lazy("%(name)s to roll"),
        Phase.MOVE: gettext_lazy("%(name)s to play"),
        Phase.CHOOSE_DOUBLE: gettext_lazy("%(name)s to choose a double"),
        Phase.DOUBLE_OFFERED: gettext_lazy("%(name)s to take or drop"),
        Phase.RESIGN_OFFERED: gettext_lazy("%(name)s to answer the resignation"),
    }
    return str(texts.get(game.phase, "")) % {"name": who}


# -- games and chances -----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameLine:
    """One row of the games table."""

    number: int
    start_score: tuple[int, int]
    crawford: bool
    winner: str
    result: str
    cube_value: int
    points: int
    ended_by: str
    chance_after: float | None  # player 1's chance of winning the match after this game (None: unknown)


def game_lines(match: Match, games: Sequence[Game], names: tuple[str, str]) -> list[GameLine]:
    chances = chances_after_games(match, games)[1:]
    lines = []
    for i, game in enumerate(games):
        finished = game.winner_side is not None
        chance = chances[i] if i < len(chances) else None
        lines.append(
            GameLine(
                number=game.number,
                start_score=(game.start_score1, game.start_score2),
                crawford=game.crawford,
                winner=names[game.winner_side] if finished and game.winner_side is not None else "",
                result=str(Game.Kind(game.result_kind).label) if finished and game.result_kind else "",
                cube_value=game.cube_value,
                points=game.points,
                ended_by=str(game.get_ended_by_display()) if finished else "",
                chance_after=chance if finished else None,
            )
        )
    return lines


def chance_at(length: int, score: tuple[int, int], *, post_crawford: bool, casual: bool = False) -> float | None:
    """Player 1's chance of winning the match at ``score`` (None: a money session or past the table's 25 away).

    A casual match's chance is the race to ``length`` with every game a coin toss (no cube, one point a game), not
    the table's."""
    try:
        return match_winning_chances(length, score, post_crawford=post_crawford, casual=casual)[0]
    except ValueError:
        return None


def chances_after_games(match: Match, games: Sequence[Game]) -> list[float | None]:
    """Player 1's chance before the first game, then after each finished game.

    After a game the score is post-Crawford when a side is 1-away and the Crawford game has been played by then
    (or the match has no Crawford rule); a side becoming 1-away for the first time makes the next game the
    Crawford game, read from the pre-Crawford table.
    """
    out = [chance_at(match.length, (0, 0), post_crawford=False, casual=match.casual)]
    crawford_played = False
    for game in games:
        if game.winner_side is None:
            break
        crawford_played = crawford_played or game.crawford
        score = [game.start_score1, game.start_score2]
        score[game.winner_side] += game.points
        one_away = match.length - 1 in score
        post = one_away and (crawford_played or not match.crawford)
        out.append(chance_at(match.length, (score[0], score[1]), post_crawford=post, casual=match.casual))
    return out


def current_chance(match: Match, state: MatchState) -> float | None:
    """Player 1's chance at the current score (the engine's Crawford state)."""
    one_away = match.length - 1 in state.score
    post = state.post_crawford or (one_away and not state.crawford_rule)
    return chance_at(match.length, state.score, post_crawford=post, casual=match.casual)


def as_percents(chance: float) -> tuple[int, int]:
    first = round(chance * 100)
    return first, 100 - first


@dataclass(frozen=True, slots=True)
class ChartDot:
    """One point of the chances chart: after ``game`` games (0: the start), player 1's chance, in chart units."""

    game: int
    x: float
    y: float
    percents: tuple[int, int]


CHART_WIDTH, CHART_HEIGHT = 300, 100


def chart_dots(chances: Sequence[float | None]) -> list[ChartDot]:
    """The chart's points: x over games, y from 100% (top) to 0% (bottom); empty when there is nothing to draw."""
    known = [(i, c) for i, c in enumerate(chances) if c is not None]
    if len(known) < 2:
        return []
    step = CHART_WIDTH / (len(chances) - 1)
    return [ChartDot(i, round(i * step, 1), round((1 - c) * CHART_HEIGHT, 1), as_percents(c)) for i, c in known]


# -- the page --------------------------------------------------------------------------------------------------------


class PageData:
    """Everything the match page and its fragments show, read a game at a time: the log in force of the game the
    move list shows (``shown``) and of the latest games (the live part's latest moves and board) in one query, the
    games in another, the cube history only when a template asks for it (one more). What is read does not grow
    with the match: a game is at most a few hundred actions, a match at most MATCH_MAX_GAMES games.

    ``pairs_by_game`` holds each game's log in force read; an entry's ``index`` is its row's place there.
    ``latest`` is the game being played, or the one just over while the next has no entry yet."""

    def __init__(
        self, match: Match, pairs: list[tuple[Action, EngineAction | None]], *, shown: int | None, current: int
    ) -> None:
        self.match = match
        self.names = (match.player1.display_name, match.player2.display_name)
        self.state: MatchState = load_state(match)
        self.current = current
        self.pairs_by_game: dict[int, list[tuple[Action, EngineAction | None]]] = {}
        for pair in pairs:
            self.pairs_by_game.setdefault(pair[0].game_number, []).append(pair)
        self.entries_by_game = {
            number: log_entries(game_pairs, self.names) for number, game_pairs in self.pairs_by_game.items()
        }
        self.entries_by_game = {number: entries for number, entries in self.entries_by_game.items() if entries}
        self.latest = next((n for n in (current, current - 1) if n in self.entries_by_game), current)
        game_rows = list(match_games(match))
        self.games = {g.number: g for g in game_rows}
        self.forfeit = forfeit_of(match, game_rows, self.names)
        played = games_played(game_rows, self.forfeit)
        self.game_lines = game_lines(match, played, self.names)
        self.chances = chances_after_games(match, played)
        self.chance = current_chance(match, self.state)
        self.show(self.latest if shown is None else shown)

    def show(self, number: int) -> None:
        """Let the move list show game ``number`` (one of the games read)."""
        self.shown = number
        self.entries = self.entries_by_game.get(number, [])

    @property
    def follows(self) -> bool:
        """The move list shows the latest game (a poll moves it on to the next game when that begins)."""
        return self.shown == self.latest

    @property
    def game_numbers(self) -> list[int]:
        """The games the move list can show (the links above it): every game begun."""
        return sorted(set(self.games) | set(self.entries_by_game))

    @cached_property
    def cube_events(self) -> list[CubeEvent]:
        return cube_history(self.match)

    @cached_property
    def analysis(self) -> MatchAnalysisView | None:
        """gnubg's analysis as the page shows it (no query past the match's when none was asked for)."""
        return match_analysis(self.match, cached_analysis(self.match))

    @cached_property
    def decision_marks(self) -> dict[int, Decision]:
        """The analysed decision of each entry gnubg marked, by the entry's seq (one query, analysed matches only)."""
        if self.analysis is None or not self.analysis.done:
            return {}
        return entry_decisions(self.match, self.decision_lines())

    def decision_lines(self) -> list[LoggedDecision]:
        """The entries that are decisions gnubg analyses: plays (with their dice) and cube actions."""
        kinds: dict[str, str] = {Kind.DOUBLE: "double", Kind.TAKE: "take", Kind.DROP: "drop"}
        lines: list[LoggedDecision] = []
        for entry in self.entries:
            kind = self.pairs_by_game[entry.game][entry.index][0].kind
            if entry.dice is not None and kind not in (*ROLLS, Kind.PLAY):
                continue
            if entry.dice is not None:
                lines.append(LoggedDecision(entry.seq, entry.game, entry.side, "move", entry.dice))
            elif kind is not None and kind in kinds:
                lines.append(LoggedDecision(entry.seq, entry.game, entry.side, kinds[kind]))
        return lines

    @property
    def analysis_pending(self) -> bool:
        return self.analysis is not None and self.analysis.status == "pending"

    def entry(self, seq: int | None) -> MoveLine | None:
        if seq is None:
            return None
        return next((e for e in self.entries if e.seq == seq), None)

    def neighbours(self, entry: MoveLine) -> tuple[MoveLine | None, MoveLine | None]:
        i = self.entries.index(entry)
        return (self.entries[i - 1] if i else None), (self.entries[i + 1] if i + 1 < len(self.entries) else None)

    @property
    def previous_game(self) -> int | None:
        """The game before the one shown, if any (the stepper's way back at the shown game's first move)."""
        return self.shown - 1 if self.shown - 1 in self.game_numbers else None

    @property
    def following_game(self) -> int | None:
        """The game after the one shown, if it has begun."""
        return self.shown + 1 if self.shown + 1 in self.game_numbers else None

    def board(self, entry: MoveLine) -> BoardScene:
        return board_at(self.match, self.pairs_by_game[entry.game], self.games, entry, self.names)

    @property
    def live_entries(self) -> list[MoveLine]:
        """The entries of the latest game."""
        return self.entries_by_game.get(self.latest, [])

    def live_board(self) -> BoardScene:
        entries = self.live_entries
        return live_board(self.state, entries[-1] if entries else None, self.names)

    @property
    def tail(self) -> list[MoveLine]:
        return self.live_entries[-TAIL:]

    @property
    def is_moves(self) -> bool:
        return self.match.entry_mode == Match.EntryMode.MOVES

    @property
    def variant_label(self) -> str:
        return variant_of(self.match).label or self.match.variant

    @property
    def can_export(self) -> bool:
        """Neither a .mat log nor an SGF file can hold an Acey-Deucey match (the chosen double has no place in them)."""
        return not variant_of(self.match).acey_deucey

    @property
    def moves_by_game(self) -> list[tuple[int, list[MoveLine]]]:
        """The move list: the shown game's entries (one group, or none)."""
        return [(self.shown, self.entries)] if self.entries else []

    @property
    def turn(self) -> str:
        return turn_text(self.state, self.match, self.names)

    @property
    def status_label(self) -> str:
        return str(self.match.get_status_display())

    @property
    def percents(self) -> tuple[int, int] | None:
        """Both players' chances of winning the match, in whole percent (None when unknown)."""
        return None if self.chance is None else as_percents(self.chance)

    @property
    def chart(self) -> list[ChartDot]:
        return chart_dots(self.chances)

    @property
    def cube_history(self) -> list[CubeLine]:
        return [
            CubeLine(e.game, self.names[e.doubler], e.value, str(CUBE_ANSWERS.get(e.response, e.response)))
            for e in self.cube_events
        ]


@dataclass(frozen=True, slots=True)
class CubeLine:
    """One row of the cube history table: a double and its answer, in words."""

    game: int
    doubler: str
    value: int
    answer: str


CUBE_ANSWERS = {
    "take": gettext_lazy("taken"),
    "drop": gettext_lazy("dropped"),
    None: gettext_lazy("waiting for the answer"),
}


def page_data(match: Match, *, game: int | None = None, at: int | None = None) -> PageData:
    """Read what the page shows (two or three queries past :func:`match_for_page`): the move list shows ``game``,
    else the game of the entry ``at`` (a row's seq), else the game being played."""
    current = load_state(match).game_number
    wanted = Q(game_number__in=(current - 1, current))
    if game is not None:
        wanted |= Q(game_number=game)
    elif at is not None:
        wanted |= Q(game_number=Subquery(Action.objects.filter(match=match, seq=at).values("game_number")[:1]))
    pairs = effective_actions(match, games=wanted)
    shown = game
    if game is None and at is not None:
        shown = next((row.game_number for row, _a in pairs if row.seq == at), None)
    return PageData(match, pairs, shown=shown, current=current)


# -- the analysis --------------------------------------------------------------------------------------------------


def cached_analysis(match: Match) -> MatchAnalysis | None:
    """The match's analysis row when :func:`match_for_page` read it along (None when there is none, or not read)."""
    descriptor = Match.analysis
    if not descriptor.is_cached(match):
        return None
    cached = descriptor.related.get_cached_value(match, default=None)
    return cached if isinstance(cached, MatchAnalysis) else None


def analysis_version(match: Match) -> tuple[str, str] | None:
    analysis = cached_analysis(match)
    if analysis is None:
        return None
    return analysis.status, analysis.finished_at.isoformat() if analysis.finished_at else ""
