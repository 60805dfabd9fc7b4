"""OpenSpiel's C++ backgammon (PyPI ``open-spiel``) set to one of our positions, for bench/engine_bench.py.

OpenSpiel's Python bindings cannot set a backgammon position: ``BackgammonState::SetState`` exists in C++ (for its
own tests) but is not bound, and states cannot be built from JSON or structs. The shared library exports the symbol,
so :meth:`OpenSpielBackgammon.state_for` calls it through ``ctypes`` on the C++ object behind the Python state,
which pybind11 hands out through its cross-extension "conduit" (``_pybind11_conduit_v1_``). Nothing else of OpenSpiel
is touched: legal moves come from its own ``legal_actions()``.

Orientation. OpenSpiel numbers the 24 points 0..23 for both players; player X (0) moves up from 0 to 23 and bears
off past 23, player O (1) moves down. The mover is always X here: our mover's point ``p`` is OpenSpiel's index
``24 - p`` and our opponent's point ``q`` (own numbering) is index ``q - 1``, which is the same physical point.

A turn. For a non-double one ``legal_actions()`` call lists the whole turn: each action encodes both checker
moves. A double is played as two actions of two moves each: after a first action that used both dice the same player
moves again (``double_turn``), so the whole turn takes the first call plus one call per distinct intermediate
position. ``legal_actions()`` de-duplicates only by move text, so several actions can reach one position (24/18/13
and 24/19/13 for 6-5); :func:`turn_results` counts positions, not actions.
"""

from __future__ import annotations

import ctypes
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pyspiel

from engine import Position

X_PLAYER, O_PLAYER = 0, 1
BAR_POS = 100  # OpenSpiel's index for the bar in state.board(player, pos)
_SET_STATE = "_ZN10open_spiel10backgammon15BackgammonState8SetStateEibRKSt6vectorIiSaIiEES6_S6_RKS2_IS4_SaIS4_EE"
_TYPEINFO = "_ZTIN10open_spiel10backgammon15BackgammonStateE"


class _IntVector(ctypes.Structure):
    """libstdc++'s ``std::vector<int>``: begin, end, end of storage."""

    _fields_ = (("begin", ctypes.c_void_p), ("end", ctypes.c_void_p), ("cap", ctypes.c_void_p))


def _int_vector(values: Sequence[int], keep: list[object]) -> _IntVector:
    array = (ctypes.c_int * len(values))(*values)
    keep.append(array)
    start = ctypes.addressof(array)
    stop = start + ctypes.sizeof(array)
    return _IntVector(start, stop, stop)


class _Native:
    """The C++ entry points: ``SetState`` and the pointer to the C++ object behind a Python state."""

    def __init__(self) -> None:
        lib = ctypes.CDLL(pyspiel.__file__)
        if not hasattr(lib, _SET_STATE):
            raise RuntimeError("BackgammonState::SetState is not exported (this needs a Linux libstdc++ build)")
        self.set_state = ctypes.CFUNCTYPE(
            None,
            ctypes.c_void_p,  # this
            ctypes.c_int,  # cur_player
            ctypes.c_bool,  # double_turn
            ctypes.c_void_p,  # const std::vector<int>& dice
            ctypes.c_void_p,  # bar
            ctypes.c_void_p,  # scores
            ctypes.c_void_p,  # const std::vector<std::vector<int>>& board
        )(ctypes.cast(getattr(lib, _SET_STATE), ctypes.c_void_p).value)
        api = ctypes.pythonapi
        api.PyCapsule_New.restype = ctypes.py_object
        api.PyCapsule_New.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
        api.PyCapsule_GetName.restype = ctypes.c_char_p
        api.PyCapsule_GetName.argtypes = (ctypes.py_object,)
        api.PyCapsule_GetPointer.restype = ctypes.c_void_p
        api.PyCapsule_GetPointer.argtypes = (ctypes.py_object, ctypes.c_char_p)
        self._api = api
        typeinfo = ctypes.cast(getattr(lib, _TYPEINFO), ctypes.c_void_p).value
        # The capsule is named after typeid(std::type_info).name(), which is "St9type_info" under the Itanium ABI.
        self._typeinfo_capsule = api.PyCapsule_New(typeinfo, b"St9type_info", None)
        self._abi_id = _platform_abi_id(Path(pyspiel.__file__))

    def pointer(self, state: pyspiel.BackgammonState) -> int:
        capsule = state._pybind11_conduit_v1_(self._abi_id, self._typeinfo_capsule, b"raw_pointer_ephemeral")
        if capsule is None:
            raise RuntimeError("pybind11 refused to hand out the C++ BackgammonState (ABI id mismatch?)")
        return int(self._api.PyCapsule_GetPointer(capsule, self._api.PyCapsule_GetName(capsule)))


def _platform_abi_id(library: Path) -> bytes:
    """pybind11's PYBIND11_PLATFORM_ABI_ID as compiled into ``library`` (part of its internals' name)."""
    found = re.search(rb"__pybind11_internals_v\d+_(\w+?)__\x00", library.read_bytes())
    if found is None:
        raise RuntimeError(f"no pybind11 ABI id found in {library.name}")
    return found.group(1)


@dataclass(frozen=True, slots=True)
class TurnTiming:
    """One turn: nanoseconds inside ``legal_actions()`` calls only, nanoseconds for the whole listing (the calls plus
    building each first-half child state of a double and de-duplicating them), and how many calls it took."""

    ns: int
    whole_ns: int
    calls: int


class OpenSpielBackgammon:
    """One OpenSpiel game; :meth:`state_for` builds a state for any standard position of ours, X to move."""

    def __init__(self) -> None:
        self.game = pyspiel.load_game("backgammon")
        probe = self.game.new_initial_state()
        if not hasattr(probe, "set_state") and not hasattr(probe, "_pybind11_conduit_v1_"):
            raise RuntimeError("this open-spiel build offers no way to set a position (open-spiel 1.6 or later does)")
        self._native = _Native()

    def state_for(self, position: Position, dice: tuple[int, int]) -> pyspiel.BackgammonState:
        me, opp = position.me, position.opp
        if me[26] or opp[26]:
            raise ValueError("OpenSpiel plays standard backgammon: no Acey-Deucey checkers waiting to enter")
        state = self.game.new_initial_state()
        if hasattr(state, "set_state"):  # a build that binds SetState (none on PyPI so far)
            state.set_state(X_PLAYER, False, sorted(dice), [me[25], opp[25]], [me[0], opp[0]], _board(me, opp))
            return state
        keep: list[object] = []
        dice_v = _int_vector(sorted(dice), keep)
        bar_v = _int_vector([me[25], opp[25]], keep)
        scores_v = _int_vector([me[0], opp[0]], keep)
        rows = (_IntVector * 2)(*(_int_vector(row, keep) for row in _board(me, opp)))
        start = ctypes.addressof(rows)
        board_v = _IntVector(start, start + ctypes.sizeof(rows), start + ctypes.sizeof(rows))
        # SetState copies every vector, so the ctypes buffers may go once it returns.
        self._native.set_state(
            self._native.pointer(state),
            X_PLAYER,
            False,
            ctypes.addressof(dice_v),
            ctypes.addressof(bar_v),
            ctypes.addressof(scores_v),
            ctypes.addressof(board_v),
        )
        return state


def _board(me: Sequence[int], opp: Sequence[int]) -> list[list[int]]:
    return [[me[24 - i] for i in range(24)], [opp[i + 1] for i in range(24)]]


def position_of(state: pyspiel.BackgammonState) -> Position:
    """The position in ``state`` seen by X (our mover), whoever is to play next in OpenSpiel."""
    me = [0] * 27
    opp = [0] * 27
    for i in range(24):
        me[24 - i] = state.board(X_PLAYER, i)
        opp[i + 1] = state.board(O_PLAYER, i)
    me[25] = state.board(X_PLAYER, BAR_POS)
    opp[25] = state.board(O_PLAYER, BAR_POS)
    me[0] = 15 - sum(me)
    opp[0] = 15 - sum(opp)
    return Position(me, opp)


def timed_turn(state: pyspiel.BackgammonState, dice: tuple[int, int]) -> TurnTiming:
    """Time what OpenSpiel needs to list a whole turn (see :class:`TurnTiming`).

    Non-double: one ``legal_actions()`` call. Double: the first-half call, then one call per distinct intermediate
    position in which X moves again (keyed by the state's text, which shows board, bar, borne-off checkers, dice and
    player to move).
    """
    clock = time.perf_counter_ns
    start = t0 = clock()
    actions = state.legal_actions()
    ns = clock() - t0
    calls = 1
    if dice[0] != dice[1]:
        return TurnTiming(ns, ns, calls)
    seen: set[str] = set()
    for action in actions:
        child = state.child(action)
        if child.current_player() != X_PLAYER:
            continue  # the turn ended after the first half (fewer than two dice played, or the game is over)
        key = str(child)
        if key in seen:
            continue
        seen.add(key)
        t0 = clock()
        child.legal_actions()
        ns += clock() - t0
        calls += 1
    return TurnTiming(ns, clock() - start, calls)


def turn_results(state: pyspiel.BackgammonState, dice: tuple[int, int]) -> tuple[set[Position], int]:
    """The distinct positions (seen by X) that OpenSpiel's legal turns reach, and how many action sequences."""
    results: set[Position] = set()
    sequences = 0
    for action in state.legal_actions():
        child = state.child(action)
        if dice[0] == dice[1] and child.current_player() == X_PLAYER:
            for second in child.legal_actions():
                results.add(position_of(child.child(second)))
                sequences += 1
        else:
            results.add(position_of(child))
            sequences += 1
    return results, sequences
