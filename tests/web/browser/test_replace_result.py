"""The director's "Replace a game's result" form, in a real browser: its fields start at what the chosen game
recorded, and follow another game chosen (static/js/director.js), so changing only "Won as" keeps the winner."""

from __future__ import annotations

from typing import Any

import pytest

from common.actor import Actor
from games.services import record_game_result
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in
from tests.web.director.support import pairing_at, swiss_division, urls

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_replace_form_follows_the_chosen_games_recorded_result(pages: Pages, django_user_model: Any) -> None:
    tina = django_user_model.objects.create_user("tina", password=PASSWORD)
    division = swiss_division(tina, 4)
    pairing = pairing_at(division, 1, 1)
    assert pairing.match is not None
    seq = pairing.match.seq
    for winner, kind in ((1, 2), (0, 1)):  # game 1: side 1 by a gammon; game 2: side 0, a single (1-2 of 3)
        seq = record_game_result(
            pairing.match.pk, actor=Actor(user=tina), winner=winner, kind=kind, cube_value=1, expected_seq=seq
        ).match.seq
    page = log_in(pages, urls(division, pairing)["match"], "desktop")
    page.get_by_text("Replace a game's result (scoresheet games)").click()
    game, winner, kind = (page.locator(f'select[name="replace-result-{n}"]') for n in ("game_number", "winner", "kind"))
    assert (game.input_value(), winner.input_value(), kind.input_value()) == ("1", "1", "2")
    game.select_option("2")
    assert (winner.input_value(), kind.input_value()) == ("0", "1")
    game.select_option("1")
    assert (winner.input_value(), kind.input_value()) == ("1", "2")
