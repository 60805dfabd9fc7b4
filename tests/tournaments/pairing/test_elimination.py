"""Single-elimination draws (pure Python, no database)."""

from __future__ import annotations

import pytest

from tournaments.pairing.elimination import (
    Slot,
    bracket_size,
    draw,
    draw_single_elimination,
    feeds,
    placement_order,
    rounds,
)

FIELDS = [1, 2, 3, 5, 17, 33, 48, 96]


def test_placement_order_examples() -> None:
    assert placement_order(2) == [1, 2]
    assert placement_order(4) == [1, 4, 2, 3]
    assert placement_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64, 128])
def test_placement_order_pairs_sum_to_size_plus_one(size: int) -> None:
    order = placement_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


@pytest.mark.parametrize("n", FIELDS)
def test_sizes_and_rounds(n: int) -> None:
    size = bracket_size(n)
    assert size >= max(n, 2) and size & (size - 1) == 0 and (size == 2 or size < 2 * n)
    assert 2 ** rounds(size) == size
    bracket = draw(n)
    assert (bracket.size, bracket.rounds, len(bracket.slots)) == (size, rounds(size), size // 2)


@pytest.mark.parametrize("n", FIELDS)
def test_every_seed_once_in_round_one(n: int) -> None:
    slots = draw_single_elimination(n)
    seeds = [s for slot in slots for s in (slot.a, slot.b) if s is not None]
    assert sorted(seeds) == list(range(1, n + 1))
    assert [slot.index for slot in slots] == list(range(len(slots)))
    assert all(slot.round == 1 for slot in slots)


@pytest.mark.parametrize("n", FIELDS)
def test_byes_go_to_top_seeds_and_never_meet(n: int) -> None:
    slots = draw_single_elimination(n)
    byes = [slot for slot in slots if slot.bye]
    assert len(byes) == bracket_size(n) - n
    assert sorted(slot.a for slot in byes if slot.a is not None) == list(range(1, bracket_size(n) - n + 1))
    # The rule enforced: every round-1 slot holds at least one real seed; a bye slot holds exactly one (in a).
    for slot in slots:
        assert slot.a is not None
        assert slot.bye == (slot.b is None)
        if slot.b is not None:
            assert slot.a < slot.b


@pytest.mark.parametrize("n", FIELDS)
def test_top_seeds_spread_across_sections(n: int) -> None:
    size = bracket_size(n)
    position = {seed: i for i, seed in enumerate(placement_order(size))}
    parts = 2
    while parts <= size:  # seeds 1..parts land in different 1/parts sections (halves, quarters, ...)
        sections = {position[seed] // (size // parts) for seed in range(1, parts + 1)}
        assert len(sections) == parts
        parts *= 2


@pytest.mark.parametrize("n", FIELDS)
def test_chalk_bracket_follows_feeds(n: int) -> None:
    """If the better seed always wins, round r is contested by seeds summing to size / 2**(r-1) + 1."""
    size = bracket_size(n)
    winner = {(1, slot.index): slot.a for slot in draw_single_elimination(n)}
    for (r, index), (top, bottom) in sorted(feeds(size).items()):
        a, b = winner[top], winner[bottom]
        assert a is not None and b is not None
        assert a + b == size // 2 ** (r - 1) + 1
        winner[(r, index)] = min(a, b)
    assert winner[(rounds(size), 0)] == 1


def test_feeds_shape() -> None:
    assert feeds(2) == {}
    assert feeds(8) == {
        (2, 0): ((1, 0), (1, 1)),
        (2, 1): ((1, 2), (1, 3)),
        (3, 0): ((2, 0), (2, 1)),
    }


def test_small_draws() -> None:
    assert draw_single_elimination(1) == [Slot(1, 0, 1, None, True)]
    assert draw_single_elimination(3) == [Slot(1, 0, 1, None, True), Slot(1, 1, 2, 3, False)]


@pytest.mark.parametrize("bad", [0, 3, 6, -4])
def test_rejects_bad_sizes(bad: int) -> None:
    with pytest.raises(ValueError):
        rounds(bad)
    with pytest.raises(ValueError):
        placement_order(bad)


def test_rejects_empty_field() -> None:
    with pytest.raises(ValueError):
        draw_single_elimination(0)
