"""Creating players and starting matches."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from common.errors import ApplicationError, ErrorCode
from engine.game import Phase
from engine.match import MatchState
from engine.variants import NACKGAMMON
from games import services
from games.engine_bridge import load_state
from games.models import Action, Game, Match, Player

pytestmark = pytest.mark.django_db


def test_create_player_tidies_its_fields() -> None:
    p = services.create_player(display_name="  Anna   Berg ", club=" Oslo BK ", country=" no ", contact=" a@b.c ")
    assert (p.display_name, p.club, p.country, p.contact) == ("Anna Berg", "Oslo BK", "NO", "a@b.c")
    assert p.label == f"Anna Berg (Oslo BK, NO) #{p.pk}"
    twin = services.create_player(display_name="Anna Berg")
    assert twin.pk != p.pk and twin.label == f"Anna Berg #{twin.pk}"


@pytest.mark.parametrize(("name", "word"), [("", "needs a name"), ("   ", "needs a name"), ("x" * 101, "100")])
def test_create_player_refusals_write_nothing(name: str, word: str) -> None:
    with pytest.raises(ApplicationError) as err:
        services.create_player(display_name=name)
    assert err.value.code is ErrorCode.INVALID_INPUT and word in err.value.message
    assert Player.objects.count() == 0


@pytest.mark.parametrize(
    ("country", "said"),
    [
        ("SW", "country 'SW' is not a country's two-letter code (ISO 3166), such as NO, GB or SE"),
        ("Sweden", "country 'Sweden' is not a two-letter code: SE for Sweden"),
        ("NOR", "country 'NOR' is not a two-letter code: NO for Norway"),
        ("UK", "country 'UK' is not a two-letter code: GB for United Kingdom"),
        ("N0", "country 'N0' is not a country's two-letter code"),
    ],
)
def test_a_country_is_an_iso_code_and_a_name_is_answered_with_its_code(country: str, said: str) -> None:
    """Two letters were enough: "SW" (Sweden is SE) was stored as a country, and the director's form cut "Sweden" to
    "Sw" as it was typed."""
    with pytest.raises(ApplicationError) as err:
        services.create_player(display_name="Carla Eik", country=country)
    assert err.value.code is ErrorCode.INVALID_INPUT and said in err.value.message
    assert Player.objects.count() == 0
    assert services.create_player(display_name="Carla Eik", country="se").country == "SE"
    assert services.create_player(display_name="Drita Krasniqi", country="XK").country == "XK"


def test_start_match_is_ready_for_the_opening_roll(cast) -> None:
    match = services.start_match(player1=cast.alice, player2=cast.bob, length=7, created_by=cast.director)
    match.refresh_from_db()
    assert (match.status, match.seq, match.score, match.winner, match.started_at) == (
        Match.Status.SCHEDULED,
        0,
        (0, 0),
        None,
        None,
    )
    assert (match.length, match.variant, match.crawford, match.entry_mode, match.private) == (
        7,
        "standard",
        True,
        Match.EntryMode.MOVES,
        False,
    )
    assert match.created_by == cast.director and match.player(0) == cast.alice and match.player(1) == cast.bob
    assert match.state == MatchState.new(7).snapshot()
    assert load_state(match).game.phase is Phase.OPENING
    assert not Action.objects.exists() and not Game.objects.exists()


def test_start_match_options(cast) -> None:
    money = services.start_match(player1=cast.alice, player2=cast.bob, length=0, created_by=AnonymousUser())
    assert money.crawford is False and money.created_by is None  # no Crawford rule in money play
    nack = services.start_match(
        player1=cast.bob,
        player2=cast.alice,
        length=5,
        variant="nackgammon",
        crawford=False,
        entry_mode="scoresheet",
        private=True,
        source="club night",
    )
    state = load_state(nack)
    assert state.variant == NACKGAMMON and state.crawford_rule is False
    assert (nack.entry_mode, nack.private, nack.source, nack.created_by) == ("scoresheet", True, "club night", None)


@pytest.mark.parametrize(
    ("options", "word"),
    [
        ({"length": -1}, "1-99 points"),
        ({"length": 100}, "1-99 points"),
        ({"variant": "hypergammon"}, "unknown variant"),
        ({"entry_mode": "telepathy"}, "entry mode"),
        ({"same_player": True}, "two different players"),
    ],
)
def test_start_match_refusals_write_nothing(cast, options: dict, word: str) -> None:
    kwargs = {"player1": cast.alice, "player2": cast.bob, "length": 7}
    if options.pop("same_player", False):
        kwargs["player2"] = cast.alice
    kwargs.update(options)
    with pytest.raises(ApplicationError) as err:
        services.start_match(**kwargs)
    assert err.value.code is ErrorCode.INVALID_INPUT and word in err.value.message
    assert not Match.objects.exists()
