"""Reads for views and the API: the live state of a match, its log, its games and its cube history.

Each selector runs a fixed number of queries whatever the size of the match (no N+1): the live state comes from
the cached engine snapshot, the log and games in one query each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, F, Q, QuerySet, When
from django.utils.translation import gettext_lazy

from engine.actions import Action as EngineAction
from engine.game import Phase
from engine.match import MatchState
from games.engine_bridge import engine_action, load_state, replacement_action
from games.hooks import DIRECTED_MATCHES, HIDDEN_PLAYERS
from games.models import Action, CorrectionRequest, Game, Match, Player

Kind = Action.Kind

#: An offer to resign as the pages name it, by what it resigns (``Action.value``: 1 single, 2 gammon, 3 backgammon).
RESIGN_WORDS = {1: gettext_lazy("a single game"), 2: gettext_lazy("a gammon"), 3: gettext_lazy("a backgammon")}


def effective_actions(
    match: Match, *, up_to_seq: int | None = None, games: Q | None = None
) -> list[tuple[Action, EngineAction | None]]:
    """The log in force, in order, as (row, engine action): a row undone by a correction drops out, or is replaced
    by the correction's replacement (which may itself be corrected again). Rows with no engine action (void,
    finish) come with None. ``up_to_seq`` reads the log as it stood after that row; ``games`` (a condition on
    ``game_number``) reads the rows of some games only, which is their log in force, since a correction belongs to
    the game of the row it corrects."""
    rows_qs = Action.objects.filter(match=match).order_by("seq")
    if up_to_seq is not None:
        rows_qs = rows_qs.filter(seq__lte=up_to_seq)
    if games is not None:
        rows_qs = rows_qs.filter(games)
    return in_force(list(rows_qs))


def in_force(rows: Sequence[Action]) -> list[tuple[Action, EngineAction | None]]:
    """:func:`effective_actions` of one match's log rows given in order (their ids and ``undoes`` set): for rows
    in hand, such as an archive's just written."""
    correction_of = {r.undoes_id: r for r in rows if r.kind == Kind.CORRECTION and r.undoes_id is not None}
    out: list[tuple[Action, EngineAction | None]] = []
    for row in rows:
        if row.kind == Kind.CORRECTION:
            continue
        # The row and the replacements put in its place, latest last; an undo of a replacement ("restores")
        # brings back what it replaced, any other correction without a replacement removes the row.
        chain: list[tuple[Action, EngineAction | None]] = [(row, engine_action(row))]
        current = row
        while chain and current.pk in correction_of:
            correction = correction_of[current.pk]
            replaced_by = replacement_action(correction)
            if replaced_by is not None:
                chain.append((correction, replaced_by))
            elif correction.data.get("restores") and len(chain) > 1:
                chain.pop()
            else:
                chain = []
            current = correction
        if chain:
            out.append(chain[-1])
    return out


def open_correction_request(match: Match) -> CorrectionRequest | None:
    """The correction asked for in ``match`` and not answered yet, if any (games.services.request_correction)."""
    rows = CorrectionRequest.objects.filter(match=match, status=CorrectionRequest.Status.OPEN)
    return rows.select_related("undoes").first()


def entry_words(row: Action) -> str:
    """An entry of the log as a player names it: "the roll 3-1", "the play 24/21 6/5", "the result of game 2"."""
    if row.kind in (Kind.ROLL, Kind.OPENING_ROLL):
        return f"the roll {row.die1}-{row.die2}"
    if row.kind == Kind.PLAY:
        return f"the play {row.play}" if row.play else "the pass"
    if row.kind == Kind.GAME_RESULT:
        return f"the result of game {row.game_number}"
    words: dict[str, str] = {
        Kind.DOUBLE: "the double",
        Kind.TAKE: "the take",
        Kind.DROP: "the drop",
        Kind.CHOOSE_DOUBLE: "the double chosen",
        Kind.RESIGN: "the offer to resign",
        Kind.ACCEPT_RESIGNATION: "the accepted resignation",
        Kind.REJECT_RESIGNATION: "the rejected resignation",
    }
    return words.get(str(row.kind), "the entry")


def matches_visible_to(user: Any) -> QuerySet[Match]:
    """Matches a user may read: every public match, plus private ones they play in or direct (staff: all; the
    matches another app says a user directs: games.hooks.DIRECTED_MATCHES)."""
    qs = Match.objects.select_related("player1", "player2", "winner")
    if user is not None and user.is_authenticated:
        if user.is_staff:
            return qs
        visible = Q(private=False) | Q(created_by=user) | Q(player1__user=user) | Q(player2__user=user)
        for directed in DIRECTED_MATCHES:
            visible |= directed(user)
        return qs.filter(visible).distinct() if DIRECTED_MATCHES else qs.filter(visible)
    return qs.filter(private=False)


def players_visible_to(user: Any) -> QuerySet[Player]:
    """Players a user may see: all but those another app hides from them (games.hooks.HIDDEN_PLAYERS: a player
    registered only in private events stays as private as they are), nor a record merged into another (its rows
    are the other's now)."""
    players = Player.objects.filter(merged_into__isnull=True)
    for hidden in HIDDEN_PLAYERS:
        players = players.exclude(hidden(user))
    return players


def live_state(match: Match, state: MatchState | None = None) -> dict[str, Any]:
    """Everything a client needs to show the match and offer the next action (from the cached snapshot)."""
    state = state or load_state(match)
    game = state.game
    position = game.position()
    pips = position.pips()
    names = (match.player1.display_name, match.player2.display_name)
    data: dict[str, Any] = {
        "match": match.pk,
        "seq": match.seq,
        "status": match.status,
        "length": match.length,
        "variant": match.variant,
        "entry_mode": match.entry_mode,
        "players": [{"id": match.player1_id, "name": names[0]}, {"id": match.player2_id, "name": names[1]}],
        "score": list(state.score),
        "winner": None if state.winner is None else state.winner,
        "game_number": state.game_number,
        "crawford": state.crawford_game,
        "post_crawford": state.post_crawford,
        "phase": game.phase.value,
        "on_roll": game.on_roll if game.phase is not Phase.OPENING else None,
        "to_act": game.actor if game.phase not in (Phase.OPENING, Phase.OVER) else None,
        "dice": list(game.dice) if game.dice else None,
        "cube": {"value": game.cube.value, "owner": game.cube.owner, "usable": game.cube_enabled},
        "resignation": ({"side": game.resignation[0], "kind": game.resignation[1].label} if game.resignation else None),
        "position_id": position.key(),
        "match_id": state.match_id(),
        "pips": list(pips) if game.phase is Phase.OPENING else _pips_by_side(game.on_roll, pips),
        "legal_actions": [] if match.status in _CLOSED else _legal_actions(match, state),
        "legal_plays": [],
    }
    if game.phase is Phase.MOVE and match.status not in _CLOSED:
        data["legal_plays"] = [str(play) for play in game.legal_plays()]
    return data


_CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)


def _pips_by_side(on_roll: int, pips: tuple[int, int]) -> list[int]:
    return [pips[0], pips[1]] if on_roll == 0 else [pips[1], pips[0]]


def _legal_actions(match: Match, state: MatchState) -> list[str]:
    kinds = ["play" if kind == "move" else kind for kind in state.game.legal_action_kinds()]
    if match.entry_mode == Match.EntryMode.SCORESHEET:
        return ["game-result"] if state.game.phase is Phase.OPENING else []
    return kinds


def director_decided_a_game(match: Match) -> bool:
    """Whether a game of ``match``, as its cached state stands, was decided by the director: a game result he
    replaced (``games.services.replace_game_result``; the result put in its place ends the game as his decision,
    :func:`games.engine_bridge.replacement_action`) is one. Read from the state in hand: no statement."""
    return any(outcome.ended_by == Game.EndedBy.DIRECTOR for outcome in load_state(match).outcomes)


def match_log(match: Match) -> QuerySet[Action]:
    """The whole log in order, with who entered each row (one query)."""
    return Action.objects.filter(match=match).select_related("entered_by_user", "undoes").order_by("seq")


def match_games(match: Match) -> QuerySet[Game]:
    return Game.objects.filter(match=match).order_by("number")


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A forfeited match as its pages tell it: who was awarded it, at what score, and why. The game row the forfeit
    closed is kept (the .mat export and the scores read it) but is not a game anyone won at the board."""

    game: int  # the number of the game row the forfeit closed
    begun: bool  # that game had started at the board (it is shown as stopped, not as won)
    winner: str
    loser: str
    score: tuple[int, int]
    reason: str
    played: bool  # some game was played before the forfeit


def forfeit_of(match: Match, games: Sequence[Game], names: tuple[str, str]) -> Forfeit | None:
    """The forfeit that closed ``match`` (None unless it is forfeited; one query when it is)."""
    if match.status != Match.Status.FORFEITED:
        return None
    row = Action.objects.filter(match=match, kind=Action.Kind.FORFEIT).order_by("-seq").first()
    if row is None or row.side not in (0, 1):
        return None
    closed = next((g for g in games if g.number == row.game_number), None)
    begun = closed is not None and closed.opening_winner is not None
    return Forfeit(
        game=row.game_number,
        begun=begun,
        winner=names[1 - row.side],
        loser=names[row.side],
        score=(match.score1, match.score2),
        reason=row.reason,
        played=begun or any(g.number != row.game_number for g in games),
    )


def games_played(games: Sequence[Game], forfeit: Forfeit | None) -> list[Game]:
    """The game rows a games table shows: all but the one a forfeit closed."""
    return [g for g in games if forfeit is None or g.number != forfeit.game]


@dataclass(frozen=True, slots=True)
class CubeEvent:
    """One double in a game's cube history: who doubled, to what value, and the answer (None while pending)."""

    game: int
    seq: int
    doubler: int
    value: int
    response: str | None  # "take" | "drop" | None
    responder: int


def cube_history(match: Match) -> list[CubeEvent]:
    """Every double of the match in order, read from the log rows in force (one query, of the cube's rows and the
    corrections only: a few a game, whatever the length of the games)."""
    cube_rows = Action.objects.filter(match=match, kind__in=(Kind.DOUBLE, Kind.TAKE, Kind.DROP, Kind.CORRECTION))
    rows = list(cube_rows.order_by("seq").only("seq", "kind", "side", "game_number", "undoes"))
    undone = {r.undoes_id for r in rows if r.kind == Kind.CORRECTION}
    events: list[CubeEvent] = []
    values: dict[int, int] = {}
    pending: CubeEvent | None = None
    for row in rows:
        if row.kind == Kind.CORRECTION or row.pk in undone:
            continue
        if row.kind == Kind.DOUBLE and row.side is not None:
            value = values.get(row.game_number, 1) * 2
            pending = CubeEvent(row.game_number, row.seq, row.side, value, None, 1 - row.side)
            events.append(pending)
        elif row.kind in (Kind.TAKE, Kind.DROP) and pending is not None:
            answered = CubeEvent(
                pending.game, pending.seq, pending.doubler, pending.value, str(row.kind), pending.responder
            )
            events[-1] = answered
            if row.kind == Kind.TAKE:
                values[row.game_number] = pending.value
            pending = None
    return events


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one opponent: matches won and lost over the board."""

    opponent: Player
    won: int
    lost: int


def head_to_head(player: Player, user: Any) -> list[HeadToHead]:
    """``player``'s record against each opponent over the finished matches ``user`` may see (a forfeit is not
    played), most matches first, then by name (two statements whatever the number of matches)."""
    mine = Q(player1=player) | Q(player2=player)
    rows = (
        Match.objects.filter(mine, pk__in=matches_visible_to(user).values("pk"), status=Match.Status.FINISHED)
        .exclude(winner__isnull=True)
        .annotate(opponent=Case(When(player1=player, then=F("player2")), default=F("player1")))
        .values("opponent")
        .annotate(won=Count("pk", filter=Q(winner=player)), lost=Count("pk", filter=~Q(winner=player)))
        .order_by()
    )
    counts = {row["opponent"]: (row["won"], row["lost"]) for row in rows}
    opponents = Player.objects.in_bulk(list(counts))
    records = [HeadToHead(opponents[pk], *counts[pk]) for pk in counts if pk in opponents]
    return sorted(records, key=lambda r: (-(r.won + r.lost), r.opponent.display_name, r.opponent.pk))


def nemesis(records: Sequence[HeadToHead]) -> HeadToHead | None:
    """The opponent a player lost most matches to (ties: fewer wins against him, then the name), among those with
    a losing record against them; None if there is none (an even record names nobody a nemesis)."""
    beaten_by = [r for r in records if r.lost > r.won]
    if not beaten_by:
        return None
    return min(beaten_by, key=lambda r: (-r.lost, r.won, r.opponent.display_name, r.opponent.pk))
