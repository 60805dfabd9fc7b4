"""Helpers of the tournaments service tests: results entered as players and directors enter them (through
``games.services``), reads of what the services wrote, and a snapshot to prove that a refusal wrote nothing.

Nothing here writes a row directly: every write goes through ``games.services`` or ``tournaments.services``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from common.actor import Actor
from games import services as games
from games.access import new_entry_token
from games.models import Action, EntryToken, Game, Match, Player
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Rating, RatingChange, Round, Standing


def link(match: Match | int, side: int) -> Actor:
    """The holder of a fresh entry link for ``side`` of the match."""
    match = match if isinstance(match, Match) else Match.objects.get(pk=match)
    return Actor(token=new_entry_token(match, side))


def pairing(division: Division, key: str) -> Pairing:
    return Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").get(division=division, key=key)


def entry(division: Division, seed: int) -> Entry:
    return Entry.objects.select_related("player").get(division=division, seed=seed)


def named(division: Division, name: str) -> Entry:
    return Entry.objects.select_related("player").get(division=division, player__display_name=name)


def side_of(p: Pairing, winner: Entry) -> int:
    assert winner.pk in (p.entry_a_id, p.entry_b_id), f"{winner} does not play {p.key}"
    return 0 if winner.pk == p.entry_a_id else 1


def enter_win(p: Pairing, winner: Entry, *, actor: Actor, kind: int = 1, cube: int = 1) -> Match:
    """Record games won by ``winner`` (singles by default) until the match is over; returns the match."""
    assert p.match_id is not None, f"{p.key} has no match (status {p.status})"
    side = side_of(p, winner)
    match = Match.objects.get(pk=p.match_id)
    seq = match.seq
    while True:
        recorded = games.record_game_result(
            match.pk, actor=actor, winner=side, kind=kind, cube_value=cube, expected_seq=seq
        )
        seq = recorded.match.seq
        if recorded.state.is_over:
            return recorded.match


def director_win(p: Pairing, winner: Entry, director: Actor, *, sync: bool = True) -> Pairing:
    """The director enters the result (no confirmation needed); then the division is synced, as the follow-up task
    does after the commit (the test's transaction never commits)."""
    enter_win(p, winner, actor=director)
    if sync:
        services.sync_division(p.division_id)
    return Pairing.objects.get(pk=p.pk)


def play_round(division: Division, number: int, director: Actor, bracket: str | None = None) -> None:
    """Side A (the better seed in a bracket) wins every ready match of round ``number`` (of ``bracket`` if given),
    each result entered by the director and synced."""
    ready = Pairing.objects.filter(division=division, round__number=number, status=Pairing.Status.READY)
    if bracket is not None:
        ready = ready.filter(round__bracket=bracket)
    for p in ready.select_related("entry_a").order_by("board", "id"):
        director_win(p, p.entry_a, director)


def open_pairings(division: Division, bracket: str | None = None) -> list[Pairing]:
    qs = Pairing.objects.filter(division=division, status=Pairing.Status.READY, match__isnull=False)
    if bracket is not None:
        qs = qs.filter(round__bracket=bracket)
    return list(qs.select_related("entry_a", "entry_b", "round").order_by("round__number", "id"))


def play_out(
    division: Division,
    director: Actor,
    pick: Callable[[Pairing], Entry] | None = None,
    *,
    limit: int = 500,
) -> Division:
    """Play every ready match (``pick`` names the winner; by default the better seed) until nothing is left."""

    def better_seed(p: Pairing) -> Entry:
        a, b = Entry.objects.get(pk=p.entry_a_id), Entry.objects.get(pk=p.entry_b_id)
        return min((a, b), key=lambda e: (e.seed or 10**6, e.pk))

    pick = pick or better_seed
    for _ in range(limit):
        todo = open_pairings(division)
        if not todo:
            division.refresh_from_db()
            if division.format == Division.Format.SWISS and division.rounds.count() < division.rounds_planned:
                services.pair_next_round(division, actor=director)
                continue
            return division
        for p in todo:
            director_win(p, pick(p), director, sync=False)
        services.sync_division(division.pk)
    raise AssertionError("the division did not finish")


def standings_rows(division: Division) -> list[tuple[Any, ...]]:
    """The division's standings as comparable tuples (no primary keys)."""
    return list(
        Standing.objects.filter(division=division)
        .order_by("after_round", "rank", "entry_id")
        .values_list(
            "after_round",
            "entry_id",
            "rank",
            "wins",
            "losses",
            "byes",
            "points_for",
            "points_against",
            "tiebreaks",
            "results_version",
        )
    )


def snapshot() -> tuple[Any, ...]:
    """Every row the tournaments and games services could write, as comparable values: equal snapshots before and
    after a refused call prove that it wrote nothing (not even an ``updated_at``)."""
    rows: list[Any] = []
    for model in (Event, Division, Entry, Round, Pairing, Standing, Rating, RatingChange):
        rows.append(list(model.objects.order_by("pk").values()))
    for model in (Match, Game, Action, EntryToken, Player):
        rows.append(list(model.objects.order_by("pk").values()))
    rows.append([sorted(e.directors.values_list("pk", flat=True)) for e in Event.objects.order_by("pk")])
    return tuple(repr(r) for r in rows)


def played_main_consolation(division: Division, director: Actor) -> Division:
    """``division`` (an 8-player main with consolation) started and played out, the better seed always winning
    (main 1 P01, 2 P02, 3-4 P03 P04, 5-8; consolation 1 P05, 2 P06, 3-4 P07 P08), its standings recomputed."""
    services.start_division(division, actor=director)
    play_out(division, director)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    return division


def run_in_threads(works: list[Callable[[], Any]], timeout: float = 120) -> list[Any]:
    """Run the callables in threads released together; return their results (any exception fails the test)."""
    barrier = threading.Barrier(len(works))
    results: list[Any] = [None] * len(works)
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = works[i]()
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,), name=f"writer-{i}") for i in range(len(works))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
    assert not any(t.is_alive() for t in threads), "a thread is stuck"
    assert not errors, errors
    return results
