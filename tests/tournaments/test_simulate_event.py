"""The rehearsal (docs/ARCHITECTURE.md contract E): ``tournaments.simulation.simulate_event`` and ``python manage.py
simulate_event`` run a whole event through the services, with random but legal results, and report it as JSON.

Every format is run on awkward field sizes and its report is checked against the rules of the format, read from
the report alone: the pairings are consistent, the division finished, and each format's own invariant holds.
The expected drop rounds are derived from tournaments/pairing/brackets.py's module docstring, not from the plan:
R main rounds (log2 of the bracket size); ``main-consolation``: the players who lost their first match drop (a
bye is not a match, so a bye then a loss counts; never the final's loser); ``progressive-consolation``: the
losers of main rounds 1..R-1 drop; the last chance takes the players who lost their first consolation match; a
consolation or last chance that one player alone reaches is not played; ``double-elimination``:
the losers of every main round drop into the losers' bracket, then the grand final (main round R+1) and, when the
losers' bracket player wins it, the reset (main round R+2).

Sizes: every format on 1, 2, 3, 5 and 17 players; every format but round robin on 33 and 48 players; on 96 the
brackets with the most structure (progressive consolation, the three brackets, double elimination: the main bracket
of single elimination and main-consolation is the three-bracket format's). A round robin of 33 is 528 matches, half
a minute on its own, and a 96-player Swiss twenty seconds: neither shows anything the smaller fields do not. Matches
are to 5 points, to 3 from 48 players on. About two minutes on an idle PostgreSQL.
"""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command, execute_from_command_line
from django.db import connection

from games.models import Action
from tests.conftest import PROJECT_ROOT
from tournaments.models import FORMATS, Division, Event
from tournaments.services.standings import swiss_standings
from tournaments.simulation import simulate_event

SMALL = (1, 2, 3, 5, 17)
NOT_ROUND_ROBIN = [fmt for fmt in FORMATS if fmt not in ("round-robin", "swiss-knockout")]
#: A Swiss into a knockout on fields around its knockout sizes: the field the size of the knockout, one more (a
#: bye a round), and the largest it takes into a knockout of 32.
KNOCKOUT_SIZES_RUN = (4, 5, 8, 9, 13, 16, 17, 33)
CASES = (
    [(fmt, n) for fmt in FORMATS if fmt != "swiss-knockout" for n in SMALL]
    + [(fmt, n) for n in (33, 48) for fmt in NOT_ROUND_ROBIN]
    + [("swiss-knockout", n) for n in KNOCKOUT_SIZES_RUN]
    + [(fmt, 96) for fmt in ("progressive-consolation", "main-consolation-lastchance", "double-elimination")]
)
LENGTH = {48: 3, 96: 3}  # shorter matches for the big fields (fewer games to enter); 5 points otherwise
ELIMINATION = ("single", "main-consolation", "progressive-consolation", "main-consolation-lastchance")

REPORT_KEYS = {"event", "format", "players", "seed", "rounds", "standings", "champions"}
PLAYER_KEYS = {"id", "name", "rating", "seed"}
ROUND_KEYS = {"number", "bracket", "pairings"}
PAIRING_KEYS = {"a", "b", "length", "winner", "score"}
STANDING_KEYS = {"rank", "player", "wins", "losses", "tiebreaks", "places"}
BRACKETS = {
    "single": {"main"},
    "main-consolation": {"main", "consolation"},
    "progressive-consolation": {"main", "consolation"},
    "main-consolation-lastchance": {"main", "consolation", "last-chance"},
    "double-elimination": {"main", "consolation"},
    "swiss": {"swiss"},
    "round-robin": {"round-robin"},
    "swiss-knockout": {"swiss", "main"},
}


# -- reading a report ----------------------------------------------------------------------------------------------


def matches(report: dict[str, Any], bracket: str | None = None) -> list[dict[str, Any]]:
    """The pairings of the report (of one bracket), each with its round's bracket and number added."""
    return [
        {**p, "bracket": r["bracket"], "round": r["number"]}
        for r in report["rounds"]
        if bracket is None or r["bracket"] == bracket
        for p in r["pairings"]
    ]


def played(pairings: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Real matches (byes left out)."""
    return [p for p in pairings if p["b"] is not None]


def loser(p: dict[str, Any]) -> int:
    return p["b"] if p["winner"] == p["a"] else p["a"]


def losers(pairings: Iterable[dict[str, Any]], rounds: Iterable[int]) -> set[int]:
    wanted = set(rounds)
    return {loser(p) for p in played(pairings) if p["round"] in wanted}


def players_in(pairings: Iterable[dict[str, Any]]) -> set[int]:
    return {x for p in pairings for x in (p["a"], p["b"]) if x is not None}


def loss_count(report: dict[str, Any]) -> Counter[int]:
    return Counter(loser(p) for p in played(matches(report)))


def main_rounds(n: int) -> int:
    return max(1, math.ceil(math.log2(n))) if n > 1 else 1


# -- the checks ----------------------------------------------------------------------------------------------------


def check_contract(report: dict[str, Any], fmt: str, n: int, seed: int) -> None:
    assert set(report) == REPORT_KEYS
    assert report["format"] == fmt and report["seed"] == seed
    assert all(set(p) == PLAYER_KEYS for p in report["players"])
    assert all(set(r) == ROUND_KEYS for r in report["rounds"])
    assert all(set(p) == PAIRING_KEYS for r in report["rounds"] for p in r["pairings"])
    assert all(set(s) == STANDING_KEYS for s in report["standings"])
    assert set(report["champions"]) == {"main", "consolation", "last-chance"}
    assert json.loads(json.dumps(report)) == report, "the report is plain JSON"
    assert len(report["players"]) == n
    assert sorted(p["seed"] for p in report["players"]) == list(range(1, n + 1))
    assert len({p["id"] for p in report["players"]}) == n
    assert len({p["name"] for p in report["players"]}) == n
    ratings = [p["rating"] for p in report["players"]]
    assert ratings == sorted(ratings, reverse=True), "seeded by rating, best first"
    division = Event.objects.get(slug=report["event"]).divisions.get()
    assert division.status == Division.Status.FINISHED, "the division finishes"
    assert division.format == fmt


def check_pairings(report: dict[str, Any], fmt: str, length: int = 5) -> None:
    ids = {p["id"] for p in report["players"]}
    assert {r["bracket"] for r in report["rounds"]} <= BRACKETS[fmt]
    keys = [(r["bracket"], r["number"]) for r in report["rounds"]]
    assert len(keys) == len(set(keys)), "each round once"
    for r in report["rounds"]:
        seen = [x for p in r["pairings"] for x in (p["a"], p["b"]) if x is not None]
        assert len(seen) == len(set(seen)), f"someone plays twice in {r['bracket']} round {r['number']}"
    for p in matches(report):
        assert p["a"] in ids and (p["b"] is None or p["b"] in ids) and p["a"] != p["b"]
        assert p["winner"] in (p["a"], p["b"]), p
        assert p["length"] == length
        if p["b"] is None:
            assert p["winner"] == p["a"] and p["score"] == [0, 0], "a bye: no match was played"
            continue
        won, lost = (0, 1) if p["winner"] == p["a"] else (1, 0)
        assert p["score"][won] >= p["length"] > p["score"][lost], p


def check_standings(report: dict[str, Any]) -> None:
    rows = report["standings"]
    ids = {p["id"] for p in report["players"]}
    assert sorted(r["player"] for r in rows) == sorted(ids), "one row per player"
    ranks = [r["rank"] for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert all(1 <= r["rank"] <= i for i, r in enumerate(rows, start=1))
    swiss = report["format"] in ("swiss", "round-robin", "swiss-knockout")  # a Swiss bye is a win
    wins = Counter(p["winner"] for p in (matches(report) if swiss else played(matches(report))))
    losses = loss_count(report)
    for r in rows:  # a Swiss bye is a win; an elimination bye is an advance, not a win
        assert (r["wins"], r["losses"]) == (wins[r["player"]], losses[r["player"]]), "byes count as Swiss wins only"
    if report["format"] in ("swiss", "round-robin"):
        assert [r["wins"] for r in rows] == sorted((r["wins"] for r in rows), reverse=True), "ranked by wins"
        assert all(set(r["tiebreaks"]) == {"buchholz", "sonneborn-berger", "points-diff"} for r in rows)
    elif report["format"] == "swiss-knockout":
        assert all(set(r["tiebreaks"]) == {"buchholz", "sonneborn-berger", "points-diff"} for r in rows)
        check_places(report)
    else:
        assert all(r["tiebreaks"] == {} for r in rows)
        check_places(report)


def check_places(report: dict[str, Any]) -> None:
    """Each flight's places tile 1..m: a shared place "a-b" is held by exactly b - a + 1 players; the main flight
    places everyone, and the rank is the main place."""
    rows = report["standings"]
    flights = {flight for r in rows for flight in r["places"]}
    assert "main" in flights, "the main flight places everyone"
    for flight in flights:
        held: dict[str, list[int]] = defaultdict(list)
        for r in rows:
            if flight in r["places"]:
                held[r["places"][flight]].append(r["player"])
        spans = sorted(
            (tuple(int(x) for x in place.split("-")) if "-" in place else (int(place),) * 2, len(ps))
            for place, ps in held.items()
        )
        expected_first = 1
        for (first, last), count in spans:
            assert first == expected_first and last - first + 1 == count, (flight, spans)
            expected_first = last + 1
    assert all(r["rank"] == int(r["places"]["main"].split("-")[0]) for r in rows), "ranked by the main place"


def check_main_bracket(report: dict[str, Any], n: int) -> None:
    """A single-elimination main bracket: n - 1 matches, the byes to the top seeds only, one each, in round 1."""
    size = 2 ** main_rounds(n)
    main = [p for p in matches(report, "main") if p["round"] <= main_rounds(n)]
    assert len(played(main)) == n - 1
    seed_of = {p["id"]: p["seed"] for p in report["players"]}
    byes = sorted(seed_of[p["a"]] for p in main if p["b"] is None)
    assert byes == list(range(1, size - n + 1)), "the byes go to the top seeds, one each"
    assert all(p["round"] == 1 for p in main if p["b"] is None), "byes only in round 1"


def check_single(report: dict[str, Any]) -> None:
    lost = loss_count(report)
    assert all(lost[p["id"]] == 1 for p in report["players"] if p["id"] != report["champions"]["main"])
    assert lost[report["champions"]["main"]] == 0


def first_losses(pairings: list[dict[str, Any]], within: int) -> set[int]:
    """The players who lost one of their first ``within`` matches of these pairings (a bye is not a match), the
    final's loser left out."""
    final = max((p["round"] for p in pairings), default=0)
    played_so_far: Counter[int] = Counter()
    found = set()
    for p in sorted(played(pairings), key=lambda p: p["round"]):
        played_so_far.update((p["a"], p["b"]))
        if p["round"] < final and played_so_far[loser(p)] <= within:
            found.add(loser(p))
    return found


def check_feeder(report: dict[str, Any], n: int, drop_rounds: int) -> None:
    """The consolation holds exactly the players who lost one of their first ``drop_rounds`` main matches (a bye
    then a loss counts) and the last chance those who lost their first consolation match; a flight that a single
    player reaches is not played."""
    main, consolation = matches(report, "main"), matches(report, "consolation")
    entrants = first_losses(main, drop_rounds)
    if len(entrants) == 1 and not consolation:
        entrants = set()  # no consolation of one
    assert players_in(consolation) == entrants
    assert len(played(consolation)) == max(len(entrants) - 1, 0)
    if len(entrants) == 1:  # only one player reached it: it was not played, and names no champion
        assert report["champions"]["consolation"] is None
    elif entrants:
        final = max(consolation, key=lambda p: p["round"])
        assert report["champions"]["consolation"] == final["winner"]
        assert (
            loss_count({"rounds": [r for r in report["rounds"] if r["bracket"] == "consolation"]})[final["winner"]] == 0
        )
    else:
        assert report["champions"]["consolation"] is None
    last_chance = matches(report, "last-chance")
    if report["format"] != "main-consolation-lastchance":
        assert not last_chance
        return
    lc_entrants = first_losses(consolation, 1)
    if len(lc_entrants) == 1 and not last_chance:
        lc_entrants = set()  # no last chance of one
    assert players_in(last_chance) == lc_entrants
    assert len(played(last_chance)) == max(len(lc_entrants) - 1, 0)
    if len(lc_entrants) > 1:  # a last chance only one player reached was not played: no champion
        assert report["champions"]["last-chance"] == max(last_chance, key=lambda p: p["round"])["winner"]
    else:
        assert report["champions"]["last-chance"] is None


def check_main_champion_and_runner_up(report: dict[str, Any]) -> None:
    main = matches(report, "main")
    final = max(main, key=lambda p: p["round"])
    assert report["champions"]["main"] == final["winner"]
    rows = report["standings"]
    assert rows[0]["player"] == final["winner"] and rows[0]["rank"] == 1
    if final["b"] is not None:
        second = [r for r in rows if r["rank"] == 2]
        assert [r["player"] for r in second] == [loser(final)], "the main final's loser is second, alone"


def check_double(report: dict[str, Any], n: int) -> None:
    """Everyone but the champion lost exactly twice; the champion lost once if the reset was played, else never."""
    r = main_rounds(n)
    main, consolation = matches(report, "main"), matches(report, "consolation")
    champion = report["champions"]["main"]
    assert report["champions"]["consolation"] is None
    lost = loss_count(report)
    if n == 1:
        assert not played(matches(report)) and champion == report["players"][0]["id"]
        return
    assert players_in(consolation) == losers(main, range(1, r + 1)), "every main-round loser drops, once"
    (main_final,) = [p for p in main if p["round"] == r]
    consolation_final = max(consolation, key=lambda p: p["round"])
    (grand,) = [p for p in main if p["round"] == r + 1]
    reset = [p for p in main if p["round"] == r + 2]
    assert (grand["a"], grand["b"]) == (main_final["winner"], consolation_final["winner"])
    assert all(lost[x] == 2 for x in lost if x != champion), f"everyone but the champion lost twice: {lost}"
    assert set(lost) | {champion} == {p["id"] for p in report["players"]}
    if reset:
        assert grand["winner"] == grand["b"], "the reset is played only when the losers' bracket player wins"
        assert reset[0]["winner"] == champion and lost[champion] == 1
    else:
        assert grand["winner"] == grand["a"] == champion and lost[champion] == 0
    assert len(played(matches(report))) == 2 * n - 2 + len(reset)


def has_perfect_matching(players: list[int], met: dict[int, set[int]]) -> bool:
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(has_perfect_matching([x for x in rest if x != other], met) for other in rest if other not in met[first])


def check_swiss(report: dict[str, Any], n: int) -> None:
    rounds = max(1, math.ceil(math.log2(max(n, 2))))
    seed_of = {p["id"]: p["seed"] for p in report["players"]}
    assert [r["number"] for r in report["rounds"]] == list(range(1, rounds + 1))
    met: dict[int, set[int]] = defaultdict(set)
    score: Counter[int] = Counter()
    had_bye: set[int] = set()
    for r in report["rounds"]:
        assert players_in(r["pairings"]) == set(seed_of), "everyone plays (or has the bye) every round"
        byes = [p["a"] for p in r["pairings"] if p["b"] is None]
        assert len(byes) == n % 2
        for bye in byes:
            assert bye not in had_bye, "at most one bye per player"
            lower = [x for x in seed_of if x not in had_bye and (score[x], -seed_of[x]) < (score[bye], -seed_of[bye])]
            for x in lower:  # a lower-ranked player could have had it only if the others could not then be paired
                assert not has_perfect_matching(sorted(y for y in seed_of if y != x), met), (r["number"], x, bye)
            had_bye.add(bye)
        for p in played(r["pairings"]):
            assert p["b"] not in met[p["a"]], f"rematch in round {r['number']}"
            met[p["a"]].add(p["b"])
            met[p["b"]].add(p["a"])
        score.update(p["winner"] for p in r["pairings"])
    assert report["champions"]["main"] == report["standings"][0]["player"]


def check_swiss_knockout(report: dict[str, Any], n: int, size: int | None = None) -> None:
    """The Swiss rounds as a Swiss (no rematch, everyone plays or has the bye each round); then the top of the Swiss
    standings, as many as the knockout takes, in a single elimination seeded by them (1 v N, 2 v N-1...), which
    has one champion; the places put its players first, by how far they went, then the rest by their Swiss wins."""
    division = Event.objects.get(slug=report["event"]).divisions.get()
    default = max(k for k in (4, 8, 16, 32) if k <= n)  # the largest knockout the field fills
    assert division.knockout_size == (size or default)
    size = division.knockout_size
    swiss, knockout = matches(report, "swiss"), matches(report, "main")
    rounds = sorted({p["round"] for p in swiss})
    assert rounds == list(range(1, division.rounds_planned + 1))
    player_of = dict(division.entries.values_list("pk", "player_id"))
    met: dict[int, set[int]] = defaultdict(set)
    swiss_wins: Counter[int] = Counter()
    for number in rounds:
        pairings = [p for p in swiss if p["round"] == number]
        assert players_in(pairings) == {p["id"] for p in report["players"]}, "everyone plays every Swiss round"
        assert len([p for p in pairings if p["b"] is None]) == n % 2
        for p in played(pairings):
            assert p["b"] not in met[p["a"]], f"rematch in Swiss round {number}"
            met[p["a"]].add(p["b"])
            met[p["b"]].add(p["a"])
        swiss_wins.update(p["winner"] for p in pairings)
    seeds = [player_of[pk] for pk in division.knockout_seeds]
    expected = [int(row.player) for row in swiss_standings(division)][:size]
    assert seeds == [player_of[pk] for pk in expected], "seeded by the Swiss standings"
    assert min(swiss_wins[x] for x in seeds) >= max(
        (swiss_wins[x] for x in player_of.values() if x not in seeds), default=0
    )
    seed_of = {player: k for k, player in enumerate(seeds, start=1)}
    first = [p for p in knockout if p["round"] == 1]
    assert {frozenset((seed_of[p["a"]], seed_of[p["b"]])) for p in first} == {
        frozenset((k, size + 1 - k)) for k in range(1, size // 2 + 1)
    }
    assert players_in(knockout) == set(seeds) and len(played(knockout)) == size - 1
    lost = Counter(loser(p) for p in knockout)
    champion = report["champions"]["main"]
    assert lost[champion] == 0 and all(lost[x] == 1 for x in seeds if x != champion)
    places = {r["player"]: r["places"]["main"] for r in report["standings"]}
    assert places[champion] == "1"
    assert all(int(places[x].split("-")[-1]) <= size for x in seeds), "the knockout's players first"
    rest = sorted((x for x in player_of.values() if x not in seeds), key=lambda x: int(places[x].split("-")[0]))
    assert [swiss_wins[x] for x in rest] == sorted((swiss_wins[x] for x in rest), reverse=True), "then by Swiss wins"


def check_round_robin(report: dict[str, Any], n: int, cycles: int = 1) -> None:
    ids = [p["id"] for p in report["players"]]
    meetings = Counter(frozenset((p["a"], p["b"])) for p in played(matches(report)))
    assert meetings == {frozenset((x, y)): cycles for i, x in enumerate(ids) for y in ids[i + 1 :]}
    assert len(report["rounds"]) == cycles * (n - 1 + n % 2)
    byes = Counter(p["a"] for p in matches(report) if p["b"] is None)
    assert byes == (Counter({x: cycles for x in ids}) if n % 2 else Counter()), "an odd field: one bye each"
    assert report["champions"]["main"] == report["standings"][0]["player"]


# -- the rehearsals ------------------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(("fmt", "n"), CASES, ids=[f"{fmt}-{n}" for fmt, n in CASES])
def test_every_format_runs_to_the_end_on_awkward_field_sizes(fmt: str, n: int) -> None:
    seed, length = 1000 + n, LENGTH.get(n, 5)
    report = simulate_event(format=fmt, players=n, seed=seed, match_length=length)
    check_report(report, fmt, n, seed, length)


def check_report(report: dict[str, Any], fmt: str, n: int, seed: int, length: int) -> None:
    """Every rule of the format, read from a rehearsal's report (bench/formats_bench.py --simulate uses it too)."""
    check_contract(report, fmt, n, seed)
    check_pairings(report, fmt, length)
    check_standings(report)
    assert report["champions"]["main"] in {p["id"] for p in report["players"]}
    r = main_rounds(n)
    if fmt in ELIMINATION or fmt == "double-elimination":
        check_main_bracket(report, n)
    if fmt in ELIMINATION:
        check_main_champion_and_runner_up(report)
    if fmt == "single":
        check_single(report)
    elif fmt in ("main-consolation", "main-consolation-lastchance"):
        check_feeder(report, n, min(1, r - 1))
    elif fmt == "progressive-consolation":
        check_feeder(report, n, r - 1)
    elif fmt == "double-elimination":
        check_double(report, n)
    elif fmt == "swiss":
        check_swiss(report, n)
    elif fmt == "swiss-knockout":
        check_swiss_knockout(report, n)
    else:
        check_round_robin(report, n)


# -- the command ---------------------------------------------------------------------------------------------------


def run_command(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("simulate_event", *args, stdout=out)
    text = out.getvalue()
    assert text.count("\n") <= 1, "one JSON document"
    return json.loads(text)


def by_names(report: dict[str, Any]) -> dict[str, Any]:
    """The report with every player id replaced by (seed, name), and the event's address left out."""
    who = {p["id"]: (p["seed"], p["name"]) for p in report["players"]}

    def name(x: int | None) -> Any:
        return None if x is None else who[x]

    return {
        "players": sorted(who.values()),
        "ratings": [(p["seed"], p["rating"]) for p in report["players"]],
        "rounds": [
            (
                r["bracket"],
                r["number"],
                [(name(p["a"]), name(p["b"]), name(p["winner"]), p["score"], p["length"]) for p in r["pairings"]],
            )
            for r in report["rounds"]
        ],
        "standings": [
            (s["rank"], name(s["player"]), s["wins"], s["losses"], s["tiebreaks"]) for s in report["standings"]
        ],
        "champions": {k: name(v) for k, v in report["champions"].items()},
    }


@pytest.mark.django_db
def test_the_command_prints_the_report_of_the_contract() -> None:
    report = run_command("--format", "main-consolation-lastchance", "--players", "6", "--seed", "3")
    check_contract(report, "main-consolation-lastchance", 6, 3)
    check_pairings(report, "main-consolation-lastchance")
    check_standings(report)
    check_feeder(report, 6, 1)
    assert report["event"] == Event.objects.get(slug=report["event"]).slug


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", ["double-elimination", "swiss"])
def test_the_same_seed_gives_the_same_event(fmt: str) -> None:
    first = run_command("--format", fmt, "--players", "7", "--seed", "42")
    again = run_command("--format", fmt, "--players", "7", "--seed", "42")
    other = run_command("--format", fmt, "--players", "7", "--seed", "43")
    assert first["event"] != again["event"], "a second rehearsal is a new event"
    assert {p["id"] for p in first["players"]}.isdisjoint(p["id"] for p in again["players"]), "new players too"
    assert by_names(first) == by_names(again)
    assert by_names(first) != by_names(other)


@pytest.mark.django_db
def test_a_rehearsal_can_enter_every_move() -> None:
    """In moves mode both entry links record every roll and a legal play: the matches end by bearing off."""
    report = run_command("--format", "single", "--players", "2", "--entry-mode", "moves", "--length", "1")
    check_contract(report, "single", 2, 0)
    check_pairings(report, "single", length=1)
    check_single(report)
    division = Event.objects.get(slug=report["event"]).divisions.get()
    assert division.entry_mode == "moves"
    log = Action.objects.filter(match__pairing__division=division)
    assert log.filter(kind=Action.Kind.PLAY).count() >= 2, "played move by move"
    assert not log.filter(kind=Action.Kind.GAME_RESULT).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("players", "size"), [(3, None), (6, "8"), (1, None)])
def test_a_knockout_larger_than_the_field_is_refused(players: int, size: str | None) -> None:
    args = ["--format", "swiss-knockout", "--players", str(players), *(["--knockout", size] if size else [])]
    with pytest.raises(CommandError, match=f"sends its top {size or 4} players into the knockout, and it has"):
        run_command(*args)


@pytest.mark.django_db
def test_a_knockout_size_and_rounds_can_be_chosen() -> None:
    report = run_command("--format", "swiss-knockout", "--players", "20", "--knockout", "4", "--rounds", "4")
    check_swiss_knockout(report, 20, size=4)
    assert [r["number"] for r in report["rounds"] if r["bracket"] == "swiss"] == [1, 2, 3, 4]
    assert [len(r["pairings"]) for r in report["rounds"] if r["bracket"] == "main"] == [2, 1]


@pytest.mark.django_db
def test_swiss_rounds_can_be_chosen() -> None:
    report = run_command("--format", "swiss", "--players", "8", "--rounds", "4", "--seed", "5")
    assert [r["number"] for r in report["rounds"]] == [1, 2, 3, 4]
    assert len(played(matches(report))) == 4 * 4


def manage(*args: str, database: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(PROJECT_ROOT)}
    if database is not None:
        env["DATABASE_URL"] = database
    return subprocess.run(
        [sys.executable, "manage.py", "simulate_event", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("--format", "single", "--players", "0"), 1, "CommandError: --players must be at least 1"),
        (("--format", "single", "--players", "-3"), 1, "CommandError: --players must be at least 1"),
        (("--format", "swiss", "--players", "8", "--rounds", "0"), 1, "CommandError: --rounds must be at least 1"),
        (("--format", "ladder", "--players", "8"), 2, "argument --format: invalid choice: 'ladder'"),
        (("--format", "single", "--players", "eight"), 2, "argument --players: invalid int value: 'eight'"),
        (("--players", "8"), 2, "the following arguments are required: --format"),
    ],
)
def test_bad_arguments_exit_non_zero_with_an_error_and_no_report(
    args: tuple[str, ...], code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """As run from the command line (``manage.py simulate_event ...``), in this process: nothing reaches the
    database, nothing is printed on stdout, the error is on stderr, and the exit status says which kind it is."""
    with pytest.raises(SystemExit) as exited:
        execute_from_command_line(["manage.py", "simulate_event", *args])
    out, err = capsys.readouterr()
    assert exited.value.code == code
    assert out == ""
    assert message in err and "Traceback" not in err


def test_a_bad_argument_makes_the_process_exit_1() -> None:
    done = manage("--format", "single", "--players", "0")
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.strip() == "CommandError: --players must be at least 1"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://...): the command runs in a second process",
)
def test_the_command_line_runs_a_rehearsal_in_its_own_process() -> None:
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    done = manage("--format", "single", "--players", "5", "--seed", "9", database=url)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    check_contract(report, "single", 5, 9)
    check_single(report)


@pytest.mark.django_db
def test_places_per_flight_follow_how_far_each_went() -> None:
    """Double elimination places by the order of elimination (the losers' final's loser is third, not fifth); a
    knockout shares its places by round (17 players: 2, 3-4, 5-8, 9-16, 17); the consolation has its own places;
    a bye is an advance, not a win."""
    report = simulate_event(format="double-elimination", players=13, seed=2)
    rows = {r["player"]: r for r in report["standings"]}
    losers_final = max(matches(report, "consolation"), key=lambda p: p["round"])
    assert rows[loser(losers_final)]["places"] == {"main": "3"} and rows[loser(losers_final)]["rank"] == 3

    report = simulate_event(format="main-consolation", players=17, seed=1)
    rows = {r["player"]: r for r in report["standings"]}
    main = matches(report, "main")
    for round_, place in ((5, "2"), (4, "3-4"), (3, "5-8"), (2, "9-16"), (1, "17")):
        assert {rows[loser(p)]["places"]["main"] for p in played(main) if p["round"] == round_} == {place}
    consolation = report["champions"]["consolation"]
    assert rows[consolation]["places"]["consolation"] == "1"
    assert {r["places"].get("consolation") for r in report["standings"]} >= {"1", "2", "3-4"}
    won = Counter(p["winner"] for p in played(matches(report)))
    had_bye = {p["a"] for p in main if p["b"] is None}
    assert had_bye and all(rows[x]["wins"] == won[x] for x in had_bye), "a bye is not a win"
