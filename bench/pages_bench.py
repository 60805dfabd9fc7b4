"""Pages: the spectator pages of a big division and of a long match, against a small one measured in the same run
(bench/README.md, "Pages").

Usage: python bench/pages_bench.py [--database-url postgres://...] [--reps N] [--quick] [--keep-db]

What is built (on a throwaway PostgreSQL database, through the services, players and entries inserted in bulk):

- two Swiss divisions of 5-point matches, 512 and 32 players (``--quick``: 128 and 32), with 5 rounds played
  (a random scoresheet result for every match, entered by the SYSTEM actor, then ``sync_division`` and
  ``recompute_standings``) and round 6
  paired, its matches not started: the page shows 512 standings rows with three tie-break columns, the current
  round's 256 boards and a link to each round's page;
- two move-by-move 15-point matches in progress, 2,000 and 200 actions (``--quick``: 500 and 200): random dice
  and a random legal play at every turn, no cube, stored through ``games.services.import_match``.

What is timed: each request through Django's test ``Client`` in this process (the whole middleware stack, the
view, the template, no network and no server), DEBUG off, ``--reps`` times (default 7) after one warm-up request,
reported as median, min and max in milliseconds. The SQL statements of each request are counted in one more
request with ``CaptureQueriesContext`` (not timed). For each page its size in bytes is shown. The ratio is the
big one's median over the small one's.

- division page: ``/events/<event>/<division>/`` (standings, current round, the links to the rounds);
- standings poll 200: ``live/standings/`` without ``If-None-Match``; standings poll 304: with the current ETag;
- pairings poll 200 and 304: ``live/pairings/`` (the current round's boards);
- round page: ``rounds/swiss/1/``, round 1's table (256 boards, all played); round poll 200 and 304: its
  ``live/``;
- match page: ``/matches/<id>/`` (the live part and the whole move list); ``?at=`` the board after the last entry;
- match poll 200: ``/matches/<id>/live/?after=&list=`` as the page polls it, from a client that shows the list
  as it was two entries ago (the answer carries those two entries); match poll 304: with the current ETag;
- board fragment: ``/matches/<id>/board/?at=`` the middle entry (what the page's arrow keys fetch).

The script creates the database named in ``--database-url`` (default ``DATABASE_URL``, else
``postgres://postgres@127.0.0.1:5432/bgmatch_bench_pages``), migrates it and drops it at the end, also after an
error or Ctrl-C. A database that already exists is used only if it has no tables; it is emptied at the end.
``--keep-db`` leaves everything in place.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchdb import (
    database_name,
    disconnect_division_followups,
    environment,
    prepare_database,
    release_database,
    setup_django,
)
from report import cpu, heading, load

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_pages"
SEED = 20240611
MATCH_LENGTH = 5
ROUNDS_PLAYED = 5
#: One scoresheet game ends each match: (result kind, cube), at least MATCH_LENGTH points.
WINNING_GAMES = ((3, 2), (2, 4), (1, 8), (3, 4))
TIEBREAKS = ("buchholz", "sonneborn-berger", "points-diff")
#: The parts are made afresh for every request (what a logged-in visitor, or the first spectator after a change,
#: pays): LIVE_PART_SECONDS=0 turns off the copy that anonymous spectators share (config/live.py), which the load
#: benchmark measures.
ENVIRONMENT = environment("pages", LIVE_PART_SECONDS="0")


@dataclass(frozen=True)
class Sizes:
    players: tuple[int, int]  # (big, small)
    actions: tuple[int, int]
    reps: int


FULL = Sizes(players=(512, 32), actions=(2000, 200), reps=7)
QUICK = Sizes(players=(128, 32), actions=(500, 200), reps=3)


# -- Django ----------------------------------------------------------------------------------------------------------


def setup_pages_django(url: str) -> None:
    """Django on ``url`` with ENVIRONMENT; static files served from the sources (no ``collectstatic``)."""
    setup_django(url, ENVIRONMENT)
    from django.conf import settings

    # DEBUG off asks for the hashed files of `collectstatic`; the pages are timed with the sources' static URLs.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


# -- building ----------------------------------------------------------------------------------------------------------


def swiss_division(actor: Any, rng: random.Random, players: int) -> Any:
    """A Swiss division of ``players`` with ROUNDS_PLAYED rounds played and the next one paired."""
    from games import services as games
    from games.access import SYSTEM
    from games.models import Player
    from tournaments import services
    from tournaments.models import Entry, Pairing

    event = services.create_event(actor=actor, name=f"Pages bench {players}")
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(
            name=f"Swiss {players}",
            format="swiss",
            match_length=MATCH_LENGTH,
            rounds_planned=ROUNDS_PLAYED + 2,
            tiebreaks=list(TIEBREAKS),
        ),
    )
    people = Player.objects.bulk_create(Player(display_name=f"Player {players}-{i:04d}") for i in range(players))
    Entry.objects.bulk_create(Entry(division=division, player=p, rating=round(rng.gauss(1500, 150))) for p in people)
    services.start_division(division, actor=actor)
    for number in range(1, ROUNDS_PLAYED + 1):
        pairings = Pairing.objects.filter(division=division, round__number=number, match__isnull=False)
        for match_id in pairings.values_list("match_id", flat=True).order_by("table"):
            kind, cube = rng.choice(WINNING_GAMES)
            winner = int(rng.random() < 0.5)
            games.record_game_result(match_id, actor=SYSTEM, winner=winner, kind=kind, cube_value=cube, expected_seq=0)
        services.sync_division(division.pk)
        services.recompute_standings(division.pk)
        services.pair_next_round(division, actor=actor)
    division.refresh_from_db()
    return division


def simulated_games(actions: int, rng: random.Random, length: int = 15) -> list[list[Any]]:
    """``actions`` engine actions of a ``length``-point match, by game: random dice, a random legal play, no cube."""
    from engine.actions import Move, OpeningRoll, Roll
    from engine.game import Phase
    from engine.match import MatchState

    state = MatchState.new(length)
    games: list[list[Any]] = [[]]
    while sum(map(len, games)) < actions and not state.is_over:
        game = state.game
        if game.phase is Phase.OPENING:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if dice[0] == dice[1]:
                continue
            action: Any = OpeningRoll(dice)
        elif game.phase is Phase.ROLL:
            action = Roll(game.on_roll, (rng.randint(1, 6), rng.randint(1, 6)))
        else:
            plays = list(game.legal_plays())
            action = Move(game.on_roll, rng.choice(plays) if plays else "")
        number = state.game_number
        state = state.apply(action)
        games[-1].append(action)
        if state.game_number != number and not state.is_over:
            games.append([])
    return [g for g in games if g]


def long_match(rng: random.Random, actions: int) -> Any:
    from games import services

    games = simulated_games(actions, rng)
    if sum(map(len, games)) < actions:
        raise SystemExit(f"the simulated match ended before {actions} actions: choose another seed")
    return services.import_match(
        players=(f"Alice {actions}", f"Bob {actions}"),
        length=15,
        variant="standard",
        crawford=True,
        games=games,
        source="bench",
    )


# -- measuring ---------------------------------------------------------------------------------------------------------


@dataclass
class Measured:
    what: str
    times: list[float]  # seconds
    queries: int
    size: int
    status: int

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def measure(client: Any, what: str, url: str, reps: int, expect: int, **headers: str) -> Measured:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(url, **headers)  # warm-up (and the size)
    if response.status_code != expect:
        raise SystemExit(f"{what}: {url} answered {response.status_code}, not {expect}")
    size = len(response.content)
    with CaptureQueriesContext(connection) as captured:
        client.get(url, **headers)
    queries = len(captured.captured_queries)  # now: the next request empties the connection's log
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        client.get(url, **headers)
        times.append(time.perf_counter() - t0)
    return Measured(what, times, queries, size, response.status_code)


def division_requests(division: Any) -> list[tuple[str, str, int, dict[str, str]]]:
    from django.test import Client
    from django.urls import reverse

    args = [division.event.slug, division.slug]
    page = reverse("tournaments:division-detail", args=args)
    out: list[tuple[str, str, int, dict[str, str]]] = [("division page", page, 200, {})]
    for part in ("standings", "pairings"):
        live = reverse("tournaments:division-live", args=[*args, part])
        etag = Client(SERVER_NAME="localhost").get(live)["ETag"]
        out.append((f"{part} poll 200", live, 200, {}))
        out.append((f"{part} poll 304", live, 304, {"HTTP_IF_NONE_MATCH": etag}))
    out.append(("round page", reverse("tournaments:division-round", args=[*args, "swiss", 1]), 200, {}))
    live = reverse("tournaments:division-round-live", args=[*args, "swiss", 1])
    etag = Client(SERVER_NAME="localhost").get(live)["ETag"]
    out.append(("round poll 200", live, 200, {}))
    out.append(("round poll 304", live, 304, {"HTTP_IF_NONE_MATCH": etag}))
    return out


def match_requests(match: Any) -> list[tuple[str, str, int, dict[str, str]]]:
    from django.contrib.auth.models import AnonymousUser
    from django.test import Client
    from django.urls import reverse

    from games.spectator import match_for_page, moves_digest, page_data

    data = page_data(match_for_page(match.pk, AnonymousUser()))
    behind = data.entries[:-2]  # a client two entries behind
    digest = moves_digest(data.names, (e.seq for e in behind))
    page = reverse("games:match", args=[match.pk])
    live = reverse("games:match-live", args=[match.pk])
    poll = f"{live}?after={behind[-1].seq}&list={digest}"
    etag = Client(SERVER_NAME="localhost").get(live)["ETag"]
    last, middle = data.entries[-1].seq, data.entries[len(data.entries) // 2].seq
    return [
        ("match page", page, 200, {}),
        ("match page ?at=last", f"{page}?at={last}", 200, {}),
        ("match poll 200", poll, 200, {}),
        ("match poll 304", poll, 304, {"HTTP_IF_NONE_MATCH": etag}),
        ("board fragment", f"{reverse('games:match-board', args=[match.pk])}?at={middle}", 200, {}),
    ]


def compare(
    title: str,
    sizes: tuple[int, int],
    requests: Callable[[Any], list[tuple[str, str, int, dict[str, str]]]],
    subjects: tuple[Any, Any],
    reps: int,
) -> None:
    from django.test import Client

    heading(title)
    client = Client(SERVER_NAME="localhost")
    big_requests, small_requests = requests(subjects[0]), requests(subjects[1])
    rows = []
    for (what, big_url, code, big_headers), (_, small_url, _, small_headers) in zip(
        big_requests, small_requests, strict=True
    ):
        # side by side: the small one, then the big one, for every request
        small = measure(client, what, small_url, reps, code, **small_headers)
        big = measure(client, what, big_url, reps, code, **big_headers)
        rows.append((what, small, big))
    big_label, small_label = f"{sizes[0]:,}", f"{sizes[1]:,}"
    print(
        f"  {'request':<22} {'size':>6} {'median':>8} {'min':>8} {'max':>8} {'queries':>7} {'bytes':>9}"
        f"   ratio big/small (time, bytes)"
    )
    for what, small, big in rows:
        for label, m in ((small_label, small), (big_label, big)):
            print(
                f"  {what:<22} {label:>6} {m.median * 1e3:8.2f} {min(m.times) * 1e3:8.2f} {max(m.times) * 1e3:8.2f}"
                f" {m.queries:7d} {m.size:9,d}",
                end="",
            )
            if m is big:
                same = "same queries" if big.queries == small.queries else f"QUERIES {small.queries} -> {big.queries}"
                sizes = f"x{big.size / small.size:.2f}" if small.size else "-"
                print(f"   x{big.median / small.median:.2f}, {sizes}; {same}")
            else:
                print()
    print(f"  ({load()})", flush=True)


# -- main --------------------------------------------------------------------------------------------------------------


def machine() -> str:
    import django

    return f"{cpu()}; Python {platform.python_version()}, Django {django.get_version()}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
        help="a PostgreSQL database (made and dropped; default: DATABASE_URL)",
    )
    parser.add_argument("--reps", type=int, help="timed repetitions of every request (default 7; 3 with --quick)")
    parser.add_argument("--quick", action="store_true", help="a 128-player division and a 500-action match")
    parser.add_argument("--keep-db", action="store_true", help="leave the database in place")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    reps = args.reps or sizes.reps
    if reps < 1:
        parser.error("--reps must be 1 or more")

    created = prepare_database(args.database_url, reuse_empty=True)
    try:
        setup_pages_django(args.database_url)
        from django.contrib.auth import get_user_model

        from games.access import Actor

        # Building records hundreds of results; the build syncs once per round, and no timed request sends these.
        disconnect_division_followups()
        print(f"pages bench: {machine()}")
        print(f"database {database_name(args.database_url)}: migrated ({load()})", flush=True)
        rng = random.Random(SEED)
        actor = Actor(user=get_user_model().objects.create_user("pages-bench", password=None))
        t0 = time.perf_counter()
        divisions = tuple(swiss_division(actor, rng, n) for n in sizes.players)
        print(
            f"built the Swiss divisions of {sizes.players[0]} and {sizes.players[1]} players, {ROUNDS_PLAYED} rounds "
            f"played and round {ROUNDS_PLAYED + 1} paired, in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        t0 = time.perf_counter()
        matches = tuple(long_match(rng, n) for n in sizes.actions)
        print(
            f"built the matches of {sizes.actions[0]} and {sizes.actions[1]} actions "
            f"in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )
        print(f"times in ms over {reps} repetitions (Django's test Client in process, DEBUG off)")
        compare(
            f"Swiss division, {sizes.players[0]} vs {sizes.players[1]} players",
            sizes.players,
            division_requests,
            divisions,
            reps,
        )
        compare(
            f"Match, {sizes.actions[0]} vs {sizes.actions[1]} actions", sizes.actions, match_requests, matches, reps
        )
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        release_database(args.database_url, created, keep=args.keep_db)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
