"""The knockout of a Swiss into a knockout: once its last Swiss round is complete, its top players (the knockout's
size: 4, 8, 16 or 32) go into a single elimination seeded by the Swiss standings.

- **Who goes through**: the Swiss standings after the last Swiss round (match wins, then the division's tie-breaks in
  order: :func:`tournaments.services.standings.swiss_standings`), players who withdrew left out. A tie at the cut
  line is broken by those tie-breaks, and players level on every one of them by their seed; the slot of the last
  seed says how the cut fell (:func:`cut_words`).
- **The seeds**: the first in the standings is seed 1, and so on; the draw is the standard one of
  tournaments/pairing/elimination.py (1 v N, 2 v N-1... placed so that 1 and 2 can meet only in the final).
- **When**: like the next Swiss round: by the division's sync when it pairs itself (``auto_pair``), else when the
  director asks for the next round (tournaments/services/advance.py). From then on the division moves forward as a
  bracket (tournaments/services/bracket.py) and the Swiss is over: it can no longer be steered.

Called with the division locked.
"""

from __future__ import annotations

from common.errors import ApplicationError, ErrorCode
from tournaments.core import COUNTED, knockout_round_words, knockout_rounds, plan_of, unfinished_words
from tournaments.models import Division, Entry, Pairing, Playoff, Round
from tournaments.pairing import brackets
from tournaments.services.bracket import draw_brackets
from tournaments.services.standings import swiss_standings
from tournaments.standings.tiebreakers import Row, Tiebreak

Status = Pairing.Status


def knockout_due(division: Division) -> bool:
    """Whether a Swiss into a knockout is ready for its knockout: every Swiss round paired and its results counted,
    the knockout not drawn yet."""
    if not division.is_swiss_knockout or division.knockout_drawn or division.status != Division.Status.RUNNING:
        return False
    return not why_not_yet(division)


def why_not_yet(division: Division, *, playoffs: bool = True) -> str:
    """Why the knockout cannot be drawn yet ("" when it can): a Swiss round still to pair or to complete, or
    (``playoffs``) a playoff ordered at the cut and not finished."""
    paired = division.rounds.filter(bracket=Round.Bracket.SWISS).count()
    if paired < division.rounds_planned:
        return (
            f"{paired} of the {division.rounds_planned} Swiss rounds are paired: the knockout is drawn once the last "
            "one is complete"
        )
    waiting_playoff = division.playoffs.filter(kind=Playoff.Kind.CUT, status=Playoff.Status.ORDERED).first()
    if playoffs and waiting_playoff is not None:
        return (
            f"a playoff is ordered for the tie at the cut (place {waiting_playoff.place}) and is not finished: the "
            "knockout is drawn once it is played, or cancel it to draw the knockout by the tie-breaks and seeds"
        )
    swiss = division.pairings.filter(round__bracket=Round.Bracket.SWISS)
    open_ = swiss.exclude(status=Status.BYE).exclude(COUNTED).filter(round__number=paired)
    waiting = list(open_.select_related("entry_a__player", "entry_b__player", "table").order_by("board")[:10])
    if waiting:
        return (
            f"round {paired} is not complete: a result is still to come or to be confirmed in "
            f"{unfinished_words(waiting)}; the knockout is drawn once they count"
        )
    return ""


def draw_knockout(division: Division) -> list[int]:
    """Draw the knockout from the Swiss standings: the entries of seeds 1..N are stored (``knockout_seeds``) and
    every slot of the single elimination is written. Returns the entries, seed 1 first.

    :raises ApplicationError: CONFLICT when the knockout is drawn already, a Swiss round is still to be paired or
        played, or fewer than two players are left to play it; nothing is written then."""
    if not division.is_swiss_knockout:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{division.name} is not a Swiss into a knockout")
    if division.knockout_drawn:
        raise ApplicationError(ErrorCode.CONFLICT, f"the knockout of {division.name} is already drawn")
    why = why_not_yet(division)
    if why:
        raise ApplicationError(ErrorCode.CONFLICT, why)
    entries = {
        pk: (seed, status, name)
        for pk, seed, status, name in division.entries.exclude(seed__isnull=True).values_list(
            "pk", "seed", "status", "player__display_name"
        )
    }
    order = [row for row in swiss_standings(division) if entries[int(row.player)][1] != Entry.Status.WITHDRAWN]
    qualified = order[: division.knockout_size]
    if len(qualified) < 2:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"only {len(qualified)} player(s) of {division.name} are still playing: a knockout needs two; end the "
            "division instead (every other player has withdrawn)",
        )
    division.knockout_seeds = [int(row.player) for row in qualified]
    Division.objects.filter(pk=division.pk).update(knockout_seeds=division.knockout_seeds)
    plan = plan_of(division, len(qualified))
    seed_words = {
        n: f"seed {n}: {_position_words(row)} in the Swiss standings, {_wins(row.score)}"
        for n, row in enumerate(qualified, start=1)
    }
    reasons: dict[str, str] = {}
    cut = cut_words(division, order, {pk: (seed, name) for pk, (seed, _, name) in entries.items()})
    if cut:
        last = len(qualified)
        node = next(n for n in plan.nodes if n.round == 1 and brackets.Seed(last) in (n.a, n.b))
        reasons[node.key] = cut[:300]
    rounds = knockout_rounds(division)
    winner_words = {
        node.key: f"winner of {knockout_round_words(node.round, rounds)} match {node.index + 1}" for node in plan.nodes
    }
    draw_brackets(division, plan, seed_words=seed_words, reasons=reasons, winner_words=winner_words)
    return division.knockout_seeds


def cut_words(division: Division, order: list[Row], entries: dict[int, tuple[int | None, str]]) -> str:
    """How the cut line fell, when the last player through and the first left out were level on match wins: the
    first tie-break that parts them, or their seeds when every tie-break leaves them level ("" when they were not
    level, or nobody was left out)."""
    size = division.knockout_size
    if len(order) <= size:
        return ""
    last, first_out = order[size - 1], order[size]
    if last.score != first_out.score:
        return ""
    (seed_in, name_in), (seed_out, name_out) = entries[int(last.player)], entries[int(first_out.player)]
    said = f"The cut: {name_in} and {name_out} both have {_wins(last.score)}; {name_in} goes through"
    if last.position != first_out.position and all(
        last.tiebreaks.get(Tiebreak(c)) == first_out.tiebreaks.get(Tiebreak(c)) for c in division.tiebreaks
    ):
        return f"{said}: a playoff settled the tie."
    for code in division.tiebreaks:
        mine, theirs = last.tiebreaks.get(Tiebreak(code)), first_out.tiebreaks.get(Tiebreak(code))
        if mine is not None and theirs is not None and mine != theirs:
            return f"{said} on {code} ({mine} to {theirs})."
    return f"{said} as the higher seed ({seed_in} to {seed_out}): they are level on every tie-break."


def _wins(score: int) -> str:
    return f"{score} win" if score == 1 else f"{score} wins"


def _position_words(row: Row) -> str:
    n = row.position
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
