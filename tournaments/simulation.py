"""A whole event run through the same services directors and players use, with random but legal results.

Behind ``python manage.py simulate_event`` (docs/ARCHITECTURE.md contract E): directors rehearse a format before an
event,
benchmarks build big fields, tests run every format to the end. The report's fields are a contract; keep them.

Players enter results as players do: from their entry links. In scoresheet mode side A's link records each game
(winner drawn with the FIBS win probability of the two ratings; single, gammon or backgammon; a cube of 1, 2 or 4,
1 in the Crawford game) and side B's link confirms the match; in moves mode both links record every roll and a
random legal play of it (no cube actions). The division moves forward through ``sync_division`` directly, so the
rehearsal finishes whether or not a Celery worker is running; with eager tasks the same work also runs from the
signals, which is harmless (the sync is idempotent).
"""

from __future__ import annotations

import math
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q

from common.actor import Actor
from engine.game import Phase
from games import services as games
from games.access import new_entry_tokens
from games.engine_bridge import load_state
from games.models import Match
from tournaments import services
from tournaments.core import knockout_min_rounds, plan_of, play_order, resolve_division
from tournaments.models import KNOCKOUT_SIZES, SWISS_FORMATS, Division, Entry, Pairing, Round, Standing
from tournaments.pairing import brackets
from tournaments.ratings import win_probability
from tournaments.services.followup import followups_deferred


def simulate_event(
    *,
    format: str,
    players: int,
    rounds: int | None = None,
    seed: int = 0,
    entry_mode: str = "scoresheet",
    match_length: int = 5,
    casual: bool = False,
    knockout: int | None = None,
) -> dict[str, Any]:
    """Run a rehearsal event to the end and return the report (see the module docstring). ``knockout``: a Swiss
    into a knockout's knockout size (default: the largest of 4, 8, 16, 32 the field fills, else 4, which the start
    then refuses in its words)."""
    if players < 1:
        raise ValueError("a rehearsal needs at least one player")
    swiss_like = format in SWISS_FORMATS
    if format == Division.Format.SWISS_KNOCKOUT:
        knockout = knockout or max([n for n in KNOCKOUT_SIZES if n <= players] or [KNOCKOUT_SIZES[0]])
        rounds = rounds or max(knockout_min_rounds(players, knockout), 3 if players > knockout else 1)
    rng = random.Random(seed)
    director = _director()
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name=f"Rehearsal {format} {players} players seed {seed}")
    settings = services.DivisionSettings(
        name="Championship",
        format=format,
        match_length=match_length,
        entry_mode=entry_mode,
        casual=casual,
        rounds_planned=(rounds or max(1, math.ceil(math.log2(max(players, 2))))) if swiss_like else 0,
        knockout_size=(knockout or 0) if format == Division.Format.SWISS_KNOCKOUT else 0,
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, players + 1):
        rating = round(rng.gauss(1500, 150))
        services.register_player(division, actor=actor, name=f"Player {i:03d}", rating=rating)
    with followups_deferred():  # the rehearsal moves the division itself; standings once at the end
        services.start_division(division, actor=actor)
        run_division(division, actor, rng)
    services.recompute_standings(division.pk)
    return report(Division.objects.get(pk=division.pk), seed)


def _director() -> Any:
    user, _ = get_user_model().objects.get_or_create(username="rehearsal-director")
    return user


def run_division(division: Division, actor: Actor, rng: random.Random) -> None:
    """Play every match of a started division with random results until it is finished."""
    ratings = {e.pk: e.rating or 1500.0 for e in division.entries.all()}
    while True:
        services.sync_division(division.pk)
        division.refresh_from_db()
        todo = list(
            division.pairings.filter(status__in=(Pairing.Status.READY, Pairing.Status.PLAYING), match__isnull=False)
            .select_related("match")
            .order_by("id")
        )
        if todo:
            # Both entry links of every match of the batch in one INSERT (a link's row is all a link needs).
            tokens = new_entry_tokens(pairing.match for pairing in todo if pairing.match is not None)
            links = {
                pairing.pk: _play(pairing, (Actor(token=a), Actor(token=b)), rng, ratings)
                for pairing, (a, b) in zip(todo, tokens, strict=True)
            }
            # One sync for the whole batch (a sync per result made a 33-player round robin quadratic): it takes
            # the results, and the scoresheet results entered by side A then wait for side B's confirmation.
            services.sync_division(division.pk)
            awaiting = Pairing.objects.filter(pk__in=links, confirmation=Pairing.Confirmation.AWAITING).order_by("id")
            for pairing in awaiting:
                services.confirm_result(pairing, actor=links[pairing.pk][pairing.confirmation_side or 0])
            continue
        if division.status != Division.Status.RUNNING:
            return
        if division.in_swiss_phase and division.rounds.count() < division.rounds_planned:
            services.pair_next_round(division, actor=actor)
        elif division.is_swiss_knockout and not division.knockout_drawn:
            services.pair_next_round(division, actor=actor)  # the Swiss rounds are over: the knockout is drawn
        elif division.format == Division.Format.LAST_CHANCE and not division.last_chance_closed:
            services.close_last_chance_places(division, actor=actor)
        else:
            return


def _play(
    pairing: Pairing, links: tuple[Actor, Actor], rng: random.Random, ratings: dict[int, float]
) -> tuple[Actor, Actor]:
    """Play the pairing's match through its entry links (side A's, side B's); returns the two links."""
    match = pairing.match
    assert match is not None
    assert pairing.entry_a_id is not None and pairing.entry_b_id is not None  # it has a match
    p_a = win_probability(ratings[pairing.entry_a_id], ratings[pairing.entry_b_id], max(match.length, 1))
    if match.entry_mode == Match.EntryMode.SCORESHEET:
        _play_scoresheet(match, links, rng, p_a)
    else:
        _play_moves(match, links, rng)
    return links


def _play_scoresheet(match: Match, links: tuple[Actor, Actor], rng: random.Random, p_a: float) -> None:
    """Enter the match's games from side A's link until it is over. ``match`` is as read with its pairing (nothing
    was entered since); after each game the state the service returns is the match's, so nothing is read again."""
    recorded_state, seq = load_state(match), match.seq
    while not recorded_state.is_over:
        winner = 0 if rng.random() < p_a else 1
        kind = 1 if match.casual else rng.choices((1, 2, 3), weights=(70, 25, 5))[0]
        cube = 1 if recorded_state.crawford_game or match.casual else rng.choices((1, 2, 4), weights=(60, 30, 10))[0]
        recorded = games.record_game_result(
            match.pk, actor=links[0], winner=winner, kind=kind, cube_value=cube, expected_seq=seq
        )
        recorded_state, seq = recorded.state, recorded.match.seq


def _play_moves(match: Match, links: tuple[Actor, Actor], rng: random.Random) -> None:
    state, seq = load_state(match), match.seq
    while not state.is_over:
        game = state.game
        if game.phase is Phase.OPENING:
            dice = _opening_dice(rng)
            side = 0 if dice[0] > dice[1] else 1
            recorded = games.record_opening_roll(match.pk, actor=links[side], dice=dice, expected_seq=seq)
        elif game.phase is Phase.ROLL:
            side, dice = game.on_roll, (rng.randint(1, 6), rng.randint(1, 6))
            recorded = games.record_roll(match.pk, actor=links[side], side=side, dice=dice, expected_seq=seq)
        else:
            side, plays = game.on_roll, sorted(str(p) for p in game.legal_plays())
            text = rng.choice(plays) if plays else ""
            recorded = games.record_play(match.pk, actor=links[side], side=side, play=text, expected_seq=seq)
        state, seq = recorded.state, recorded.match.seq


def _opening_dice(rng: random.Random) -> tuple[int, int]:
    while True:
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        if d1 != d2:
            return d1, d2


# -- the report ----------------------------------------------------------------------------------------------------


def report(division: Division, seed: int) -> dict[str, Any]:
    entries = {e.pk: e for e in division.entries.select_related("player")}
    players = sorted(
        (e for e in entries.values() if e.seed is not None or e.place), key=lambda e: (e.seed or 10**6, e.pk)
    )
    return {
        "event": division.event.slug,
        "format": division.format,
        "players": [
            {"id": e.player_id, "name": e.player.display_name, "rating": e.rating, "seed": e.seed} for e in players
        ],
        "seed": seed,
        "rounds": _rounds(division, entries),
        "standings": _standings(division, entries),
        "champions": champions(division),
    }


def _rounds(division: Division, entries: dict[int, Entry]) -> list[dict[str, Any]]:
    rounds = sorted(division.rounds.all(), key=play_order)
    pairings: dict[int, list[Pairing]] = {r.pk: [] for r in rounds}
    shown = Q(status__in=(Pairing.Status.FINISHED, Pairing.Status.BYE)) & (
        Q(entry_a__isnull=False) | Q(entry_b__isnull=False)
    )
    for p in division.pairings.filter(shown).order_by("board"):
        pairings[p.round_id].append(p)
    out = []
    for r in rounds:
        if pairings[r.pk]:
            out.append(
                {
                    "number": r.number,
                    "bracket": r.bracket,
                    "pairings": [_pairing(p, r, entries) for p in pairings[r.pk]],
                }
            )
    return out


def _pairing(p: Pairing, r: Round, entries: dict[int, Entry]) -> dict[str, Any]:
    def player(entry_id: int | None) -> int | None:
        return None if entry_id is None else entries[entry_id].player_id

    a, b = (p.entry_b_id, None) if p.entry_a_id is None else (p.entry_a_id, p.entry_b_id)  # a bye's player is "a"
    return {
        "a": player(a),
        "b": player(b),
        "length": p.length,
        "winner": player(p.winner_id),
        "score": [p.score_a, p.score_b],
    }


def _standings(division: Division, entries: dict[int, Entry]) -> list[dict[str, Any]]:
    latest = division.standings.order_by("-after_round").values_list("after_round", flat=True).first()
    rows = Standing.objects.filter(division=division, after_round=latest or 0).order_by("rank", "entry__seed")
    return [
        {
            "rank": s.rank,
            "player": entries[s.entry_id].player_id,
            "wins": s.wins,
            "losses": s.losses,
            "tiebreaks": s.tiebreaks,
            "places": s.places,
        }
        for s in rows
    ]


def champions(division: Division) -> dict[str, int | None]:
    """Each bracket's champion (player ids); Swiss and round robin: the leader of the final standings as main (a
    Swiss into a knockout: its knockout's champion)."""
    out: dict[str, int | None] = {"main": None, "consolation": None, "last-chance": None}
    entries = dict(division.entries.values_list("pk", "player_id"))
    if division.status != Division.Status.FINISHED:
        return out
    if division.has_bracket:
        plan, states = plan_of(division), resolve_division(division)
        for bracket in out:
            if any(n.bracket == bracket for n in plan.nodes) or bracket == "main":
                champion = brackets.champion(plan, states, bracket)
                out[bracket] = None if champion is None else entries[champion]
        if division.format == Division.Format.DOUBLE:
            out["consolation"] = None  # the losers' bracket winner plays on in the grand final
        return out
    top = division.standings.order_by("-after_round", "rank").values_list("entry_id", flat=True).first()
    out["main"] = None if top is None else entries[top]
    return out
