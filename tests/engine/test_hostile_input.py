"""Hostile input: arbitrary text and mutated real match logs never make the readers raise anything but the
engine's own errors, and never hang (a hang never ends and CI's job times out; no deadline is set on an example,
whose time depends on the machine's load).

Covered: the .mat reader and replayer (and the contract-B report built on them), the play-notation parser, GNU
Backgammon Position and Match IDs, XGIDs.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Position
from engine.errors import EngineError
from engine.formats.check import check_text
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.formats.xgid import parse_xgid
from engine.gnubg_id import decode_match_id, decode_position_id
from engine.notation import parse_hops, parse_play
from tests.engine.corpus import CORPUS

BOUNDED = settings(max_examples=300)  # no deadline, too_slow off: the suite's profile (tests/conftest.py)
MAT_ALPHABET = st.sampled_from(
    list("0123456789 :/*()-\n\t\r;[]\"'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ?é")
)
MAT_WORDS = st.sampled_from(
    ["point match", "Game ", "Wins ", "Doubles => ", "Takes", "Drops", "Beavers", "and the match", "Losses",
     " : ", "bar/", "/off", "25/", "/0", "??? ", "Illegal play", "(2)", "*", "\n", "  1) ", "64: "]
)  # fmt: skip
MAT_TEXT = st.lists(st.one_of(MAT_WORDS, st.text(MAT_ALPHABET, max_size=8)), max_size=80).map("".join)


def _read_everything(data: str | bytes) -> None:
    """Read, replay and report; the engine may refuse (EngineError) but must not fail any other way."""
    with contextlib.suppress(EngineError):
        replay_record(read_mat(data))
    report, _note, _ok = check_text(data, shown_as="fuzz.mat")
    assert set(report) >= {"file", "ok", "error"}


@BOUNDED
@given(st.one_of(MAT_TEXT, st.text(max_size=400), st.binary(max_size=400)))
def test_the_mat_reader_survives_arbitrary_text(data: str | bytes) -> None:
    _read_everything(data)


def _corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*") if p.suffix in (".mat", ".txt") and p.is_file())


def _mutate(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        action = rng.randrange(6)
        if action == 0:
            del lines[i]
        elif action == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif action == 2 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + bytes([rng.randrange(256)]) + lines[i][j + 1 :]
        elif action == 3:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif action == 4:
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        else:
            lines[i] = lines[i].replace(b"/", b"//", 1).replace(b":", b"", 1)
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


@pytest.mark.skipif(not CORPUS.exists(), reason=f"the shared match-log corpus is missing: {CORPUS}")
@BOUNDED
@given(st.integers(min_value=0, max_value=10**9))
def test_mutated_real_logs_are_refused_cleanly(seed: int) -> None:
    files = _corpus_files()
    rng = random.Random(seed)
    _read_everything(_mutate(files[rng.randrange(len(files))].read_bytes(), rng))


PLAY_TEXT = st.lists(
    st.one_of(st.sampled_from(["bar", "off", "/", "*", "(", ")", " ", "-", "24", "13", "8", "6", "25", "0"]),
              st.text(max_size=4)),
    max_size=12,
).map("".join)  # fmt: skip


@BOUNDED
@given(PLAY_TEXT, st.tuples(st.integers(1, 6), st.integers(1, 6)))
def test_the_notation_parser_survives_arbitrary_text(text: str, dice: tuple[int, int]) -> None:
    start = Position.from_gnubg_id("4HPwATDgc/ABMA")
    for parse in (lambda: parse_hops(text), lambda: parse_play(text, start, dice)):
        with contextlib.suppress(EngineError):
            parse()


ID_TEXT = st.one_of(
    st.text(max_size=30), st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=:-", max_size=30)
)


@BOUNDED
@given(ID_TEXT)
def test_the_id_decoders_survive_arbitrary_text(text: str) -> None:
    for decode in (decode_position_id, decode_match_id, parse_xgid, Position.from_gnubg_id):
        with contextlib.suppress(EngineError):
            decode(text)
