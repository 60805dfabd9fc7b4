"""``python -m engine check``: validate a .mat file and report it as docs/ARCHITECTURE.md contract B says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import FormatError
from engine.formats.mat import MatchRecord, read_mat
from engine.formats.matlog import LogReplay, replay_record


def check_text(data: str | bytes, *, shown_as: str) -> tuple[dict[str, Any], str | None, bool]:
    """Check one log's contents. Returns (the JSON report, a note for people or None, unreadable?)."""
    try:
        record = read_mat(data)
    except FormatError as exc:
        return _unreadable(shown_as, f"cannot read the match log: {exc}"), None, True
    replay = replay_record(record)
    return report_for(record, replay, shown_as=shown_as), _note(record, replay), False


def check_file(path: Path, *, shown_as: str) -> tuple[dict[str, Any], str | None, bool]:
    """Check one file (see :func:`check_text`); an unreadable file is reported, never raised."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        return _unreadable(shown_as, f"cannot read the file: {exc.strerror or exc}"), None, True
    return check_text(data, shown_as=shown_as)


def report_for(record: MatchRecord, replay: LogReplay, *, shown_as: str) -> dict[str, Any]:
    winner = replay.winner
    players = list(record.players)
    return {
        "file": shown_as,
        "ok": replay.ok,
        "match_length": record.match_length,
        "players": players,
        "games": len(record.games),
        "score": list(replay.score),
        "winner": players[winner] if winner is not None else None,
        "error": replay.fault.as_dict() if replay.fault else None,
    }


def _unreadable(shown_as: str, message: str) -> dict[str, Any]:
    return {
        "file": shown_as,
        "ok": False,
        "match_length": None,
        "players": [],
        "games": 0,
        "score": [0, 0],
        "winner": None,
        "error": {"game": None, "move": None, "message": message},
    }


def _note(record: MatchRecord, replay: LogReplay) -> str | None:
    if not replay.ok or replay.winner is not None:
        return None
    s = replay.score
    if record.match_length == 0:
        return f"a money session ({len(record.games)} games, {s[0]}-{s[1]}): there is no match to win"
    if not record.games:
        return "the log holds no games"
    return (
        f"the log ends at {s[0]}-{s[1]} before anyone reached {record.match_length} points: an unfinished match "
        "(or a single-game session exported as a match)"
    )
