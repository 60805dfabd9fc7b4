"""One wording for a shared place, whatever the place: players tied at 2-3 in a finished Swiss read "Shared
2nd-3rd place" (not "Finished 2nd" each), three tied for first in a round robin read "Shared 1st-3rd place", two
knockout semi-final losers "Shared 3rd-4th place"; a place held by one player reads "Finished 4th"."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.access import Actor
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, swiss_with_a_paid_tie
from tournaments.models import Division
from tournaments.pages import final_titles
from tournaments.pages.divisions import finish_words

pytestmark = pytest.mark.django_db


def test_players_tied_in_a_finished_swiss_read_a_shared_place(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    first, second, third, fourth = seeds(division, 1, 2, 3, 4)
    titles = {pk: str(words) for pk, words in final_titles(division).items()}
    assert titles[first] == "Champion"
    assert titles[second] == titles[third] == "Shared 2nd-3rd place", titles
    assert titles[fourth] == "Finished 4th"


def test_three_tied_for_first_read_the_places_they_share(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = round_robin_cycle(division_of, as_director)
    titles = {str(words) for words in final_titles(division).values()}
    assert titles == {"Shared 1st-3rd place"}


def test_a_knockout_place_that_spans_places_reads_shared() -> None:
    assert finish_words("3-4") == "Shared 3rd-4th place"
    assert finish_words("4") == "Finished 4th"
