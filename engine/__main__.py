"""Command line of the engine (docs/ARCHITECTURE.md contracts A and B).

``python -m engine moves --position-id ID --dice D1 D2``  one line per distinct legal play (resulting Position IDs)
``python -m engine check FILE [FILE ...]``               validate .mat match logs, one JSON object per file
``python -m engine show ID``                              an ASCII board of a Position ID, ID:MatchID or XGID
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from engine.errors import EngineError

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def cmd_moves(args: argparse.Namespace) -> int:
    from engine.gnubg_id import encode_position_id, split_gnubg_id
    from engine.movegen import legal_plays
    from engine.position import Position

    d1, d2 = args.dice
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        return _fail(f"dice must be 1 to 6, got {d1} {d2}")
    given = args.position_id.strip()
    try:
        position = Position.from_gnubg_id(split_gnubg_id(given)[0])
    except EngineError as exc:
        return _fail(f"{given!r} is not a valid GNU Backgammon Position ID: {exc}")
    plays = legal_plays(position, (d1, d2))
    if not plays:
        print(given)
        return EXIT_OK
    lines = [encode_position_id(after.opp[1:26], after.me[1:26]) for after in plays.positions()]
    sys.stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from engine.formats.check import check_file

    worst = EXIT_OK
    for name in args.files:
        report, note, unreadable = check_file(Path(name), shown_as=name)
        print(json.dumps(report, ensure_ascii=False), flush=True)
        if note:
            print(f"note: {name}: {note}", file=sys.stderr)
        if unreadable:
            worst = EXIT_BAD_INPUT
        elif not report["ok"] and worst == EXIT_OK:
            worst = EXIT_INVALID
    return worst


def cmd_show(args: argparse.Namespace) -> int:
    from engine.formats.board_text import describe

    try:
        print(describe(args.id))
    except EngineError as exc:
        return _fail(str(exc))
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="Backgammon rules engine command line.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    moves = sub.add_parser("moves", help="list the distinct legal plays of a roll as resulting Position IDs")
    moves.add_argument("--position-id", required=True, help="GNU Backgammon Position ID, player on roll second")
    moves.add_argument("--dice", required=True, nargs=2, type=int, metavar=("D1", "D2"))
    moves.set_defaults(func=cmd_moves)
    check = sub.add_parser("check", help="validate .mat match logs; one JSON object per file")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.set_defaults(func=cmd_check)
    show = sub.add_parser("show", help="draw a position (Position ID, PositionID:MatchID, or XGID)")
    show.add_argument("id")
    show.set_defaults(func=cmd_show)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
