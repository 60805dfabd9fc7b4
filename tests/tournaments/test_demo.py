"""The demo event ``make run`` loads: built from the real logs in tournaments/demo/logs, players renamed."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from engine.formats.mat import read_mat
from games.models import Match, Player
from tournaments.demo import LOGS, SLUG, load_demo
from tournaments.models import Division, Event, Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def real_names() -> set[str]:
    return {name for path in LOGS.glob("*.txt") for name in read_mat(path.read_bytes()).players}


def test_the_demo_is_a_living_event_made_of_real_matches(real_names: set[str]) -> None:
    event = load_demo()
    championship = Division.objects.get(event=event, name="Championship")
    club_night = Division.objects.get(event=event, name="Club night")
    # Real matches replayed move by move: finished ones, one in progress, one still to play.
    main = {p.key: p for p in Pairing.objects.filter(division=championship).select_related("match")}
    assert all(main[f"main-1-{i}"].status == Pairing.Status.FINISHED for i in range(4))
    assert main["main-2-0"].status == Pairing.Status.FINISHED
    assert main["main-2-1"].match.status == Match.Status.IN_PROGRESS and main["main-2-1"].match.seq > 10
    assert main["main-3-0"].status == Pairing.Status.WAITING and main["main-3-0"].entry_a_id is not None
    assert championship.status == Division.Status.RUNNING
    # The Swiss club night is over, with standings and tie-breaks.
    assert club_night.status == Division.Status.FINISHED
    table = club_night.standings.filter(after_round=3).order_by("rank")
    assert table.count() == 8 and set(table[0].tiebreaks) == {"buchholz", "sonneborn-berger", "points-diff"}
    # Pseudonyms only: no online handle from the logs is shown.
    assert not real_names & set(Player.objects.values_list("display_name", flat=True))


def test_loading_twice_changes_nothing() -> None:
    first = load_demo()
    counts = (Event.objects.count(), Match.objects.count(), Pairing.objects.count())
    assert load_demo().pk == first.pk
    assert (Event.objects.count(), Match.objects.count(), Pairing.objects.count()) == counts


def test_the_demo_login_needs_debug(settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo", "--login")
    assert not Event.objects.filter(slug=SLUG).exists()
