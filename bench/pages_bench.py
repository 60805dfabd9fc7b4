"""Pages: the spectator pages of a big division and of a long match, against a small one measured in the same run
(bench/README.md, "Pages").

Usage: python bench/pages_bench.py [--database-url postgres://...] [--reps N] [--quick] [--matches-only]
       [--code DIR] [--keep-db]

What is built (on a throwaway PostgreSQL database, through the services, players and entries inserted in bulk):

- two Swiss divisions of 5-point matches, 512 and 32 players (``--quick``: 128 and 32), with 5 rounds played
  (a random scoresheet result for every match, entered by the SYSTEM actor, then ``sync_division`` and
  ``recompute_standings``) and round 6
  paired, its matches not started: the page shows 512 standings rows with three tie-break columns, the current
  round's 256 boards and a link to each round's page;
- move-by-move 99-point matches in progress, of about 200, 2,000 and 5,000 actions (``--quick``: 200 and 500):
  random dice and a random legal play at every turn, no cube; random complete games, then the same last games (the
  first PROBE = 200 actions of one simulated match), so that every page shows the same game in play. Stored
  through ``games.services.import_match`` but for the last two actions, recorded through the services once the
  page has been read (so that a poll from that page is two entries behind). Each is measured against the
  200-action one; the actions and games of each are printed.

``--code DIR`` measures another checkout of the project (the code before a change, ``git worktree add DIR
<commit>``) with this script, so that two versions are measured the same way; ``--matches-only`` skips the
divisions.

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
- match page: ``/matches/<id>/`` (the live part and the move list); ``?at=`` the board after the last entry;
- match poll 200: the live part's URL as the page polls it, after two more actions (the answer carries the
  game's whole move list); match poll 304: with the current ETag;
- board fragment: ``/matches/<id>/board/?at=`` the middle entry of the page's move list (what the arrow keys fetch).

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
import re
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchdb import (
    REPO,
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
#: pays): LIVE_PART_SECONDS=0 turns off the copy that anonymous spectators share (common/live.py), which the load
#: benchmark measures.
ENVIRONMENT = environment("pages", LIVE_PART_SECONDS="0")


@dataclass(frozen=True)
class Sizes:
    players: tuple[int, int]  # (big, small)
    actions: tuple[int, int]
    reps: int


FULL = Sizes(players=(512, 32), actions=(200, 2000, 5000), reps=7)
QUICK = Sizes(players=(128, 32), actions=(200, 500), reps=3)
MATCH_LENGTH_LONG = 99  # long enough that no simulated match ends before its actions


# -- Django ----------------------------------------------------------------------------------------------------------


def setup_pages_django(url: str, root: Path | None = None) -> None:
    """Django on ``url`` with ENVIRONMENT (the project at ``root``: another checkout); static files served from the
    sources (no ``collectstatic``)."""
    setup_django(url, ENVIRONMENT, **({"root": root} if root else {}))
    from django.conf import settings

    # DEBUG off asks for the hashed files of `collectstatic`; the pages are timed with the sources' static URLs.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


# -- building ----------------------------------------------------------------------------------------------------------


def swiss_division(actor: Any, rng: random.Random, players: int) -> Any:
    """A Swiss division of ``players`` with ROUNDS_PLAYED rounds played and the next one paired."""
    from common.actor import SYSTEM
    from games import services as games
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
        for match_id in pairings.values_list("match_id", flat=True).order_by("board"):
            kind, cube = rng.choice(WINNING_GAMES)
            winner = int(rng.random() < 0.5)
            games.record_game_result(match_id, actor=SYSTEM, winner=winner, kind=kind, cube_value=cube, expected_seq=0)
        services.sync_division(division.pk)
        services.recompute_standings(division.pk)
        services.pair_next_round(division, actor=actor)
    division.refresh_from_db()
    return division


def simulated_games(actions: int, rng: random.Random, length: int = MATCH_LENGTH_LONG) -> list[list[Any]]:
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


@dataclass
class LongMatch:
    """A match stored but for its last two actions (``pending``), recorded by :meth:`catch_up`."""

    match: Any
    pending: list[Any]

    def catch_up(self) -> None:
        from common.actor import SYSTEM
        from games import services

        for action in self.pending:
            seq = type(self.match).objects.get(pk=self.match.pk).seq
            services.record_action(self.match.pk, action, actor=SYSTEM, expected_seq=seq)
        self.pending = []


#: Every long match ends with the same games: the first PROBE actions of one simulated match, the game being played
#: last among them, so that the pages of every size show the same latest game (what a page shows of a game grows with
#: that game, which a match of any length may be in the middle of); the games before it differ with the size.
PROBE = 200


def long_match(rng: random.Random, actions: int) -> LongMatch:
    """A match of about ``actions`` actions: random complete games, then the probe's games."""
    from games import services

    probe = simulated_games(PROBE, random.Random(SEED))
    earlier: list[list[Any]] = []
    if actions > PROBE:
        played = simulated_games(actions + 600, rng)[:-1]  # complete games only
        while played and sum(map(len, earlier)) + len(played[0]) <= actions - PROBE:
            earlier.append(played.pop(0))
    games = [*earlier, *probe]
    if len(games[-1]) < 3:
        raise SystemExit("the probe ends at a game's start: choose another PROBE")
    pending = games[-1][-2:]
    games[-1] = games[-1][:-2]
    match = services.import_match(
        players=(f"Alice {actions}", f"Bob {actions}"),
        length=MATCH_LENGTH_LONG,
        variant="standard",
        crawford=True,
        games=games,
        source="bench",
    )
    return LongMatch(match, pending)


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


LIVE_URL = re.compile(r'<section id="live"[^>]*? hx-get="([^"]+)"')
ENTRY = re.compile(r'<a href="/matches/\d+/\?at=(\d+)#replay" data-seq="\1"')


def match_requests(long: LongMatch) -> list[tuple[str, str, int, dict[str, str]]]:
    """The match's requests, read from its page as a browser would (whatever the version of the code): the live
    part's poll URL from the page before the last two actions, the entries of the move list the page shows."""
    import html

    from django.test import Client
    from django.urls import reverse

    match = long.match
    client = Client(SERVER_NAME="localhost")
    page = reverse("games:match", args=[match.pk])
    before = client.get(page).content.decode()
    found = LIVE_URL.search(before)
    if found is None:
        raise SystemExit("the match page polls no live part")
    poll = html.unescape(found.group(1))
    long.catch_up()
    seqs = [int(s) for s in ENTRY.findall(client.get(page).content.decode())]
    live = reverse("games:match-live", args=[match.pk])
    etag = client.get(live)["ETag"]
    return [
        ("match page", page, 200, {}),
        ("match page ?at=last", f"{page}?at={seqs[-1]}", 200, {}),
        ("match poll 200", poll, 200, {}),
        ("match poll 304", poll, 304, {"HTTP_IF_NONE_MATCH": etag}),
        ("board fragment", f"{reverse('games:match-board', args=[match.pk])}?at={seqs[len(seqs) // 2]}", 200, {}),
    ]


Requests = list[tuple[str, str, int, dict[str, str]]]


def compare(title: str, sizes: tuple[int, int], requests: tuple[Requests, Requests], reps: int) -> None:
    """Measure each request of the big subject and of the small one side by side (``requests``: big, small)."""
    from django.test import Client

    heading(title)
    client = Client(SERVER_NAME="localhost")
    big_requests, small_requests = requests
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
    parser.add_argument("--matches-only", action="store_true", help="measure the matches only, not the divisions")
    parser.add_argument("--code", type=Path, help="measure this checkout of the project instead of this one")
    parser.add_argument("--keep-db", action="store_true", help="leave the database in place")
    args = parser.parse_args(argv)
    if args.code is not None and not (args.code / "manage.py").is_file():
        parser.error(f"--code {args.code} is not a checkout of the project (no manage.py)")
    sizes = QUICK if args.quick else FULL
    reps = args.reps or sizes.reps
    if reps < 1:
        parser.error("--reps must be 1 or more")

    created = prepare_database(args.database_url, reuse_empty=True)
    try:
        setup_pages_django(args.database_url, args.code.resolve() if args.code else None)
        from django.contrib.auth import get_user_model

        from common.actor import Actor

        # Building records hundreds of results; the build syncs once per round, and no timed request sends these.
        disconnect_division_followups()
        print(f"pages bench: {machine()}; the code of {args.code.resolve() if args.code else REPO}")
        print(f"database {database_name(args.database_url)}: migrated ({load()})", flush=True)
        rng = random.Random(SEED)
        actor = Actor(user=get_user_model().objects.create_user("pages-bench", password=None))
        divisions: tuple[Any, ...] = ()
        if not args.matches_only:
            t0 = time.perf_counter()
            divisions = tuple(swiss_division(actor, rng, n) for n in sizes.players)
            print(
                f"built the Swiss divisions of {sizes.players[0]} and {sizes.players[1]} players, {ROUNDS_PLAYED} "
                f"rounds played and round {ROUNDS_PLAYED + 1} paired, in {time.perf_counter() - t0:.1f} s",
                flush=True,
            )
        t0 = time.perf_counter()
        matches = {n: long_match(rng, n) for n in sizes.actions}
        print(f"built the matches in {time.perf_counter() - t0:.1f} s:", flush=True)
        for n, long in matches.items():
            total = long.match.seq + len(long.pending)
            print(f"  about {n:,} actions: {total:,} actions in {long.match.games.count()} games")
        print(f"times in ms over {reps} repetitions (Django's test Client in process, DEBUG off)")
        if divisions:
            compare(
                f"Swiss division, {sizes.players[0]} vs {sizes.players[1]} players",
                sizes.players,
                (division_requests(divisions[0]), division_requests(divisions[1])),
                reps,
            )
        requests = {n: match_requests(long) for n, long in matches.items()}
        small = sizes.actions[0]
        for big in sizes.actions[1:]:
            compare(f"Match, {big:,} vs {small:,} actions", (big, small), (requests[big], requests[small]), reps)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        release_database(args.database_url, created, keep=args.keep_db)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
