"""tournaments.names: finding a person on a club's roster by the name typed (pure Python, no database)."""

from __future__ import annotations

import pytest

from tournaments.names import Matches, folded, is_close, roster_matches, told_apart


def test_folding_drops_case_accents_and_punctuation() -> None:
    assert folded("  Pía  RÜÜD ") == "pia ruud"
    assert folded("Ørjan Ødegård-Nilsen") == "ørjan ødegard nilsen"  # ø is a letter of its own, not an o with a mark
    assert folded("P. Ruud") == "p ruud"


def test_a_second_player_of_a_name_is_told_apart_by_his_club_or_a_word_for_one() -> None:
    assert told_apart("Ann Berg", " Oslo BK ") == "Ann Berg (Oslo BK)"
    assert told_apart("Ann Berg", "  ") == "Ann Berg (his club or town)"


@pytest.mark.parametrize(
    ("typed", "known"),
    [
        ("pia ruud", "Pia Ruud"),  # case
        ("Pia Rüud", "Pia Ruud"),  # an accent
        ("Pia Rud", "Pia Ruud"),  # a letter missing
        ("Pia Ruudd", "Pia Ruud"),  # a letter too many
        ("Pai Ruud", "Pia Ruud"),  # two letters swapped
        ("P. Ruud", "Pia Ruud"),  # an initial
        ("P Ruud", "Pia Ruud"),
        ("Pia Ruud", "P. Ruud"),  # the roster has the initial
        ("Ruud, Pia", "Pia Ruud"),  # the other order
        ("Anne-Lise Berg", "Anne Lise Berg"),
    ],
)
def test_close_names(typed: str, known: str) -> None:
    assert is_close(typed, known)


@pytest.mark.parametrize(
    ("typed", "known"),
    [
        ("Pia Ruud", "Pia Ruud"),  # exact: the same, not close
        ("Pia  Ruud ", "Pia Ruud"),  # spaces aside, exact
        ("Per Ruud", "Pia Ruud"),  # another given name
        ("Q. Ruud", "Pia Ruud"),  # another initial
        ("Pia Dahl", "Pia Ruud"),  # another family name
        ("Ruud", "Pia Ruud"),
        ("", "Pia Ruud"),
    ],
)
def test_names_that_are_not_close(typed: str, known: str) -> None:
    assert not is_close(typed, known)


def test_the_roster_answers_exact_and_close_in_roster_order() -> None:
    roster = [(3, "Pia Ruud"), (1, "P. Ruud"), (2, "Per Ruud"), (4, "pia ruud"), (5, "Pia  Ruud")]
    assert roster_matches("Pia Ruud", roster) == Matches(exact=[3, 5], close=[1, 4])
    assert roster_matches("Nobody Here", roster) == Matches()
