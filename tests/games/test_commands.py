"""``import_matches`` and ``export_match`` (docs/ARCHITECTURE.md contract C): import validates exactly as ``python -m
engine
check`` and stores the whole log through the services; export writes a log that the check accepts with the same
players, games and score; a match entered move by move survives export and re-import unchanged.

The corpus is read in place from ``<workspace>/shared/corpus/mat``; the corpus test skips, naming the folder, when
it is absent.
"""

from __future__ import annotations

import io
import random
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count
from django.utils import timezone

from common.actor import SYSTEM
from engine.actions import (
    AcceptResignation,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.formats.check import check_text
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.game import Phase
from games import services
from games.engine_bridge import load_state
from games.models import Action, Game, Match, Player

pytestmark = pytest.mark.django_db

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "mat"
CORPUS_FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".mat", ".txt")) if CORPUS.is_dir() else []
NO_CORPUS = f"the shared match-log corpus is missing: {CORPUS}"
ENGINE_DATA = Path(__file__).resolve().parents[1] / "engine" / "data" / "mat"
CORRUPT = sorted(ENGINE_DATA.glob("corrupt_*.mat"))
CLEAN = ENGINE_DATA / "clean_hand_5pt.mat"
GNUBG_LOG = CORPUS / "kevung__gnubgparser" / "charlot1-charlot2_7p_2025-11-08-2305.mat"


def run(*args: str) -> tuple[str, str, CommandError | None]:
    """Run a command; its standard output, standard error and the CommandError it ended with (or None)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command(*args, stdout=out, stderr=err)
    except CommandError as exc:
        return out.getvalue(), err.getvalue(), exc
    return out.getvalue(), err.getvalue(), None


def export(match_id: int) -> str:
    out, _, error = run("export_match", str(match_id), "--format", "mat")
    assert error is None, error
    return out


def report_of(text: str | bytes) -> dict:
    report, _, unreadable = check_text(text, shown_as="f")
    assert not unreadable, report["error"]
    return report


def same_result(a: dict, b: dict) -> bool:
    keys = ("ok", "match_length", "players", "games", "score", "winner")
    return {k: a[k] for k in keys} == {k: b[k] for k in keys}


def game_rows(match: Match) -> list[tuple]:
    fields = ("number", "start_score1", "start_score2", "crawford", "opening_winner", "winner_side", "result_kind")
    more = ("ended_by", "cube_value", "cube_owner", "points")
    return list(Game.objects.filter(match=match).order_by("number").values_list(*fields, *more))


# -- import: the corpus -------------------------------------------------------------------------------------------


@pytest.mark.skipif(not CORPUS_FILES, reason=NO_CORPUS)
def test_every_corpus_file_imports_as_check_reports_it_and_exports_back() -> None:
    started = time.monotonic()
    out, _, error = run("import_matches", *map(str, CORPUS_FILES))
    imported_in = time.monotonic() - started
    assert error is None, out[-2000:]
    lines = out.splitlines()
    assert len(lines) == len(CORPUS_FILES) + 1
    assert all(line.startswith("imported ") for line in lines[:-1])
    assert lines[-1].startswith(f"{len(CORPUS_FILES)} imported, 0 invalid, 0 unreadable in ")

    matches = {m.source: m for m in Match.objects.select_related("player1", "player2", "winner")}
    assert len(matches) == len(CORPUS_FILES)
    games = dict(Game.objects.values("match").annotate(n=Count("id")).values_list("match", "n"))
    for path in CORPUS_FILES:
        report = report_of(path.read_bytes())
        match = matches[str(path)]
        assert f"imported {path}: match #{match.pk}, " in out
        assert [match.player1.display_name, match.player2.display_name] == report["players"], path
        assert [match.score1, match.score2] == report["score"], path
        assert (match.winner.display_name if match.winner else None) == report["winner"], path
        assert games.get(match.pk, 0) == report["games"], path
        assert match.length == report["match_length"]
        assert match.status == (Match.Status.FINISHED if report["winner"] else Match.Status.IN_PROGRESS), path

        again = report_of(export(match.pk))
        assert again["ok"], (path, again["error"])
        assert same_result(again, report), path
    total = time.monotonic() - started
    print(f"\ncorpus: {len(CORPUS_FILES)} files imported in {imported_in:.1f} s, exported and checked in {total:.1f} s")


@pytest.mark.skipif(not GNUBG_LOG.is_file(), reason=NO_CORPUS)
def test_an_imported_match_is_the_match_entered_action_by_action() -> None:
    run("import_matches", str(GNUBG_LOG))
    imported = Match.objects.get()
    replay = replay_record(read_mat(GNUBG_LOG.read_bytes()))
    by_hand = services.start_match(
        player1=imported.player1, player2=imported.player2, length=imported.length, variant=imported.variant
    )
    for game in replay.games:
        for action in game.actions:
            _enter(by_hand.pk, action)
    by_hand.refresh_from_db()
    # every column but the row's own id, its match and its time (a column added to the log later included)
    rows = [f.attname for f in Action._meta.concrete_fields if f.attname not in ("id", "match_id", "created_at")]
    assert list(imported.actions.order_by("seq").values_list(*rows)) == list(
        by_hand.actions.order_by("seq").values_list(*rows)
    )
    assert game_rows(imported) == game_rows(by_hand)
    for name in ("status", "score1", "score2", "winner", "seq", "state", "entry_mode", "crawford"):
        assert getattr(imported, name) == getattr(by_hand, name), name


def _enter(match_id: int, action: object) -> None:
    """One engine action through the service a client would call."""
    seq = Match.objects.get(pk=match_id).seq
    common = {"actor": SYSTEM, "expected_seq": seq}
    if isinstance(action, OpeningRoll):
        services.record_opening_roll(match_id, dice=action.dice, **common)
    elif isinstance(action, Roll):
        services.record_roll(match_id, side=action.side, dice=action.dice, **common)
    elif isinstance(action, Move):
        services.record_play(match_id, side=action.side, play=action.play, **common)
    elif isinstance(action, Double):
        services.offer_double(match_id, side=action.side, **common)
    elif isinstance(action, Take):
        services.take(match_id, side=action.side, **common)
    elif isinstance(action, Drop):
        services.drop(match_id, side=action.side, **common)
    elif isinstance(action, Resign):
        services.offer_resignation(match_id, side=action.side, kind=action.kind, **common)
    elif isinstance(action, AcceptResignation):
        services.accept_resignation(match_id, side=action.side, **common)
    elif isinstance(action, RejectResignation):
        services.reject_resignation(match_id, side=action.side, **common)
    elif isinstance(action, GameResult):
        services.record_game_result(
            match_id, winner=action.winner, kind=action.kind, cube_value=action.cube_value, **common
        )
    else:
        raise AssertionError(f"not used in this test: {action!r}")


# -- import: refusals ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CORRUPT, ids=lambda p: p.name)
def test_an_invalid_file_is_reported_as_check_reports_it_and_nothing_is_stored(path: Path) -> None:
    fault = report_of(path.read_bytes())["error"]
    out, _, error = run("import_matches", str(path))
    assert error is not None and "0 imported, 1 invalid, 0 unreadable" in str(error)
    where = f"game {fault['game']}" + (f", move {fault['move']}" if fault["move"] is not None else "")
    assert out.splitlines()[0] == f"invalid {path}: {where}: {fault['message']}"
    assert not Match.objects.exists() and not Player.objects.exists() and not Action.objects.exists()


def test_unreadable_files_are_reported_with_the_check_commands_message(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.mat"
    garbage.write_bytes(b"\x00\x01 this is no match log\n")
    missing = tmp_path / "missing.mat"
    out, _, error = run("import_matches", str(garbage), str(missing))
    lines = out.splitlines()
    assert lines[0] == f"unreadable {garbage}: {report_of_unreadable(garbage)}"
    assert lines[0].startswith(
        f"unreadable {garbage}: cannot read the match log: line 1, column 1: control character U+0000"
    )
    assert lines[1] == f"unreadable {missing}: cannot read the file: No such file or directory"
    assert error is not None and "0 imported, 0 invalid, 2 unreadable" in str(error)
    assert not Match.objects.exists() and not Player.objects.exists()


def report_of_unreadable(path: Path) -> str:
    report, _, unreadable = check_text(path.read_bytes(), shown_as=str(path))
    assert unreadable
    return report["error"]["message"]


def test_each_file_is_its_own_transaction(tmp_path: Path) -> None:
    """A file the engine accepts but the services refuse (a 120-point match) stores nothing, and the files
    before and after it are kept."""
    too_long = tmp_path / "too_long.mat"
    too_long.write_text(CLEAN.read_text().replace("5 point match", "120 point match"))
    assert report_of(too_long.read_bytes())["ok"]
    out, _, error = run("import_matches", str(CLEAN), str(too_long), str(CORRUPT[0]), str(CLEAN))
    lines = out.splitlines()
    assert lines[0].startswith(f"imported {CLEAN}: match #")
    assert lines[1] == f"invalid {too_long}: a match is played to 1-99 points (0 for money), not 120"
    assert lines[2].startswith(f"invalid {CORRUPT[0]}: game ")
    assert lines[3].startswith(f"imported {CLEAN}: match #")
    assert lines[4].startswith("2 imported, 2 invalid, 0 unreadable in ")
    assert error is not None and str(error).startswith("not every file was imported: 2 imported, 2 invalid")
    assert Match.objects.count() == 2
    assert set(Match.objects.values_list("source", flat=True)) == {str(CLEAN)}
    assert Player.objects.count() == 2  # the second import found both players by name


def test_output_line_quiet_directories_and_stdin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "logs"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "a.mat").write_bytes(CLEAN.read_bytes())
    (folder / "b.txt").write_bytes(CLEAN.read_bytes())
    (folder / "notes.md").write_text("not a match log")
    out, _, error = run("import_matches", str(folder))
    assert error is None
    match = Match.objects.order_by("pk").first()
    report = report_of(CLEAN.read_bytes())
    p1, p2 = report["players"]
    s1, s2 = report["score"]
    assert out.splitlines()[0] == (
        f"imported {folder / 'b.txt'}: match #{match.pk}, {p1} vs {p2}, 5-point, {s1}-{s2} (finished)"
    )
    assert out.splitlines()[1].startswith(f"imported {folder / 'sub' / 'a.mat'}: ")
    assert out.splitlines()[2].startswith("2 imported, 0 invalid, 0 unreadable in ")

    out, _, error = run("import_matches", "--quiet", str(CLEAN))
    assert error is None and out == ""
    out, _, error = run("import_matches", "--quiet", str(CLEAN), str(CORRUPT[0]))
    assert out.startswith(f"invalid {CORRUPT[0]}: ") and len(out.splitlines()) == 1 and error is not None

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CLEAN.read_bytes())))
    out, _, error = run("import_matches", "-")
    assert error is None and out.startswith("imported -: match #")
    assert Match.objects.order_by("-pk").first().source == "(standard input)"


def test_an_unfinished_log_is_stored_in_progress_with_a_note(tmp_path: Path) -> None:
    text = CLEAN.read_text()
    unfinished = tmp_path / "unfinished.mat"
    unfinished.write_text(text[: text.index(" Game 2")])
    out, err, error = run("import_matches", str(unfinished))
    assert error is None and out.splitlines()[0].endswith("(in progress)")
    assert f"note: {unfinished}: the log ends at " in err
    assert Match.objects.get().status == Match.Status.IN_PROGRESS


def test_an_unknown_event_is_refused_before_any_file_is_stored() -> None:
    _, _, error = run("import_matches", "--event", "club-night", str(CLEAN))
    assert str(error) == "there is no event 'club-night': give the address (slug) of an event"
    assert not Match.objects.exists()


# -- export --------------------------------------------------------------------------------------------------------


def _players() -> tuple[Player, Player]:
    return services.create_player(display_name="Alice Ash"), services.create_player(display_name="Bob Birch")


def play_out(match_id: int, rng: random.Random, *, until: Phase | None = None, steps: int = 5000) -> None:
    """Random legal actions through the services until the match ends (or, with ``until``, reaches that phase
    in a game after the first): doubles, takes, drops, resignations (accepted and rejected) and one undo."""
    undone = False
    for _ in range(steps):
        match = Match.objects.get(pk=match_id)
        if match.status == Match.Status.FINISHED:
            return
        state = load_state(match)
        game = state.game
        if until is not None and game.phase is until and state.game_number > 1:
            return
        common = {"actor": SYSTEM, "expected_seq": match.seq}
        side = game.actor if game.phase is not Phase.OPENING else 0
        if game.phase is Phase.OPENING:
            d1, d2 = rng.sample(range(1, 7), 2)
            services.record_opening_roll(match_id, dice=(d1, d2), **common)
        elif game.phase is Phase.ROLL:
            kinds = game.legal_action_kinds()
            if "double" in kinds and rng.random() < 0.1:
                services.offer_double(match_id, side=side, **common)
            elif rng.random() < 0.02:
                services.offer_resignation(match_id, side=side, kind=rng.choice((1, 2)), **common)
            else:
                services.record_roll(match_id, side=side, dice=(rng.randint(1, 6), rng.randint(1, 6)), **common)
        elif game.phase is Phase.MOVE:
            plays = game.legal_plays()
            if len(plays) > 1 and rng.random() < 0.01:
                services.offer_resignation(match_id, side=side, kind=1, **common)
            elif not undone and len(plays) > 1 and state.game_number > 1:
                services.record_play(match_id, side=side, play=plays[0], **common)
                services.undo_last_action(match_id, actor=SYSTEM, reason="misclick")
                undone = True
            else:
                play = plays[rng.randrange(len(plays))] if len(plays) else ""
                services.record_play(match_id, side=side, play=play, **common)
        elif game.phase is Phase.DOUBLE_OFFERED:
            (services.take if rng.random() < 0.7 else services.drop)(match_id, side=side, **common)
        elif game.phase is Phase.RESIGN_OFFERED:
            accept = rng.random() < 0.5
            (services.accept_resignation if accept else services.reject_resignation)(match_id, side=side, **common)
    if until is None:
        raise AssertionError("the match did not end")


def reimport(text: str, tmp_path: Path) -> Match:
    path = tmp_path / f"export{Match.objects.count()}.mat"
    path.write_text(text, encoding="utf-8")
    out, _, error = run("import_matches", str(path))
    assert error is None, out
    return Match.objects.get(source=str(path))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_match_entered_move_by_move_exports_and_reimports_to_the_same_state(seed: int, tmp_path: Path) -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=3)
    play_out(match.pk, random.Random(seed))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert Action.objects.filter(match=match, kind=Action.Kind.CORRECTION).exists()

    text = export(match.pk)
    report = report_of(text)
    assert report["ok"], report["error"]
    assert report["players"] == ["Alice Ash", "Bob Birch"] and report["score"] == [match.score1, match.score2]
    assert '; [Site "bgmatch"]' in text and f'; [EventDate "{timezone.localtime(match.started_at):%Y.%m.%d}"]' in text

    again = reimport(text, tmp_path)
    assert load_state(again).snapshot() == load_state(match).snapshot()
    assert game_rows(again) == game_rows(match)
    assert (again.player1, again.player2, again.winner) == (a, b, match.winner)


@pytest.mark.parametrize("phase", [Phase.MOVE, Phase.DOUBLE_OFFERED, Phase.RESIGN_OFFERED])
def test_a_match_in_progress_exports_up_to_its_last_complete_turn(phase: Phase, tmp_path: Path) -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=25)
    rng = random.Random(3)
    for _ in range(40):  # until a resignation happens to be offered
        play_out(match.pk, rng, until=phase, steps=400)
        match.refresh_from_db()
        if load_state(match).game.phase is phase:
            break
    state = load_state(match)
    assert state.game.phase is phase and match.status == Match.Status.IN_PROGRESS

    report = report_of(export(match.pk))
    assert report["ok"], report["error"]
    assert report["score"] == [match.score1, match.score2] and report["winner"] is None
    again = reimport(export(match.pk), tmp_path)
    assert again.score == match.score and again.status == Match.Status.IN_PROGRESS
    if phase is Phase.DOUBLE_OFFERED:  # a double waiting for its answer is written and read back
        assert load_state(again).snapshot() == state.snapshot()


def test_resignations_after_a_roll_rejected_or_unanswered_leave_no_trace(tmp_path: Path) -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=3)
    steps = [
        (services.record_opening_roll, {"dice": (3, 1)}),
        (services.record_play, {"side": 0, "play": "8/5 6/5"}),
        (services.record_roll, {"side": 1, "dice": (6, 4)}),
        (services.offer_resignation, {"side": 1, "kind": 1}),
        (services.reject_resignation, {"side": 0}),
        (services.record_play, {"side": 1, "play": "24/14"}),
        (services.record_roll, {"side": 0, "dice": (5, 2)}),
        (services.offer_resignation, {"side": 0, "kind": 2}),
    ]
    for seq, (service, data) in enumerate(steps):
        service(match.pk, actor=SYSTEM, expected_seq=seq, **data)
    text = export(match.pk)
    assert "64: 24/18 18/14" in text and "52" not in text.split(" Game 1", 1)[1]
    assert report_of(text)["ok"]
    again = reimport(text, tmp_path)
    played = Action.objects.get(match=match, seq=6)
    assert load_state(again).game.position().key() == played.position_id
    assert again.seq == 4  # opening roll, play, roll, play


def test_a_scoresheet_match_exports_result_only_games(tmp_path: Path) -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=5, entry_mode="scoresheet")
    for winner, kind, cube in ((0, 1, 2), (1, 2, 1), (0, 3, 1)):
        seq = Match.objects.get(pk=match.pk).seq
        services.record_game_result(match.pk, actor=SYSTEM, winner=winner, kind=kind, cube_value=cube, expected_seq=seq)
    services.replace_game_result(match.pk, actor=SYSTEM, game_number=2, winner=1, kind=1, reason="misread")
    match.refresh_from_db()
    assert match.score == (5, 1) and match.status == Match.Status.FINISHED

    text = export(match.pk)
    report = report_of(text)
    assert report["ok"] and report["games"] == 3 and report["score"] == [5, 1] and report["winner"] == "Alice Ash"
    assert "Wins 2 points" in text and "Wins 1 point\n" in text and "Wins 3 points and the match" in text
    again = reimport(text, tmp_path)
    assert again.entry_mode == Match.EntryMode.SCORESHEET and again.score == match.score
    # A result line gives the points only: 2 points read back as a gammon, not a single at a 2-cube.
    points = [(g[0], g[5], g[-1]) for g in game_rows(match)]
    assert [(g[0], g[5], g[-1]) for g in game_rows(again)] == points


def test_export_to_a_file(tmp_path: Path) -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=1)
    play_out(match.pk, random.Random(5))
    target = tmp_path / "out.mat"
    out, _, error = run("export_match", str(match.pk), "--output", str(target))
    assert error is None and out == ""
    assert target.read_text(encoding="utf-8") == export(match.pk)


def test_export_refusals() -> None:
    assert str(run("export_match", "42")[2]) == "there is no match 42"
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=3)
    assert str(run("export_match", str(match.pk), "--format", "gam")[2]) == "--format is mat or sgf, not 'gam'"
    acey = services.start_match(player1=a, player2=b, length=3, variant="acey-deucey")
    error = run("export_match", str(acey.pk))[2]
    assert error is not None and "Acey-Deucey matches cannot be written as .mat" in str(error)
    error = run("export_match", str(acey.pk), "--format", "sgf")[2]
    assert str(error).startswith(f"match {acey.pk} cannot be written as .sgf: Acey-Deucey matches cannot be written")
    colon = services.start_match(
        player1=services.create_player(display_name="A: B"), player2=b, length=3, entry_mode="scoresheet"
    )
    services.record_game_result(colon.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=0)
    error = run("export_match", str(colon.pk))[2]
    assert error is not None and "contains ':'" in str(error)
    out, _, error = run("export_match", str(colon.pk), "--format", "sgf")  # SGF can hold the name
    assert error is None and "PW[A: B]" in out and "RE[W+1]" in out


def test_export_of_a_forfeited_match_reads_back_with_the_same_winner() -> None:
    a, b = _players()
    match = services.start_match(player1=a, player2=b, length=5, entry_mode="scoresheet")
    services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=0)
    services.forfeit_match(match.pk, actor=SYSTEM, loser_side=0, reason="no-show for game 2")
    text = export(match.pk)
    assert "Wins 5 points and the match" in text  # a concession: more than a backgammon is worth
    report = report_of(text)
    assert report["ok"] and report["winner"] == "Bob Birch" and report["score"] == [1, 5]
