"""The games admin: every page answers, the log and the game caches are read-only, writes go through the services,
and an entry link's text is shown only on its own page."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

from common.actor import SYSTEM
from games import access, services
from games.engine_bridge import load_state
from games.models import Action, EntryToken, Game, Match, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("director", "director@example.org", "pw")


@pytest.fixture
def client(superuser) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


@pytest.fixture
def played() -> Match:
    """A 3-point match with one game dropped and a second game under way, and an entry link for each side."""
    alice = services.create_player(display_name="Alice", club="Oslo BK", contact="alice@example.org")
    bob = services.create_player(display_name="Bob")
    match = services.start_match(player1=alice, player2=bob, length=3)
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    services.offer_double(match.pk, actor=SYSTEM, side=1, expected_seq=2)
    services.drop(match.pk, actor=SYSTEM, side=0, expected_seq=3)
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(6, 4), expected_seq=4)
    services.undo_last_action(match.pk, actor=SYSTEM, reason="wrong dice")
    for side in (0, 1):
        access.new_entry_token(match, side)
    return Match.objects.get(pk=match.pk)


def url(model: type, view: str, *args: object) -> str:
    return reverse(f"admin:games_{model._meta.model_name}_{view}", args=args)


def test_every_list_and_change_page_answers(client: Client, played: Match) -> None:
    objects = {
        Player: played.player1,
        Match: played,
        Game: Game.objects.filter(match=played).first(),
        Action: Action.objects.filter(match=played).first(),
        EntryToken: EntryToken.objects.filter(match=played).first(),
    }
    for model, obj in objects.items():
        assert client.get(url(model, "changelist")).status_code == 200, model
        assert client.get(url(model, "change", obj.pk)).status_code == 200, model
    assert client.get(url(Player, "add")).status_code == 200
    assert client.get(url(Match, "add")).status_code == 200
    assert client.get(url(Match, "changelist"), {"q": "Oslo"}).context["cl"].result_count == 1


def test_the_log_and_the_games_are_read_only(client: Client, superuser, played: Match) -> None:
    request = RequestFactory().get("/")
    request.user = superuser
    for model in (Action, Game):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)
        assert model_admin.has_view_permission(request)
    assert not admin.site._registry[Match].has_delete_permission(request)
    action = Action.objects.filter(match=played).first()
    assert client.get(url(Action, "add")).status_code == 403
    assert client.get(url(Action, "delete", action.pk)).status_code == 403
    before = Action.objects.get(pk=action.pk).kind
    client.post(url(Action, "change", action.pk), {"kind": "drop", "seq": 99})
    assert Action.objects.get(pk=action.pk).kind == before

    page = client.get(url(Match, "change", played.pk))
    assert not [f for f in page.context["inline_admin_formsets"] if f.opts.model is Action]  # no form: a table
    html = page.content.decode()
    seqs = [int(seq) for seq in re.findall(r"<tr><td>(\d+)</td>", html)]
    assert seqs == list(range(1, played.seq + 1)) and f"all {played.seq} actions" in html
    assert "wrong dice" in html  # the correction row, with its reason


def test_adding_a_match_goes_through_start_match(client: Client, superuser) -> None:
    a, b = services.create_player(display_name="Ann"), services.create_player(display_name="Ben")
    form = {"player1": a.pk, "player2": b.pk, "length": 5, "variant": "standard", "crawford": "on"}
    response = client.post(url(Match, "add"), {**form, "entry_mode": "moves", "source": "club night"})
    assert response.status_code == 302, response.context["adminform"].form.errors
    match = Match.objects.get()
    assert (match.created_by, match.source, match.status) == (superuser, "club night", Match.Status.SCHEDULED)
    assert load_state(match).length == 5  # the cached engine state was made by the service

    response = client.post(url(Match, "add"), {**form, "player2": a.pk, "entry_mode": "moves"})
    assert response.status_code == 200 and Match.objects.count() == 1  # the same player twice is refused


def test_a_scheduled_match_can_be_set_up_again_a_started_one_cannot(client: Client, played: Match) -> None:
    a, b = services.create_player(display_name="Ann"), services.create_player(display_name="Ben")
    scheduled = services.start_match(player1=a, player2=b, length=5)
    form = {"player1": a.pk, "player2": b.pk, "length": 0, "variant": "nackgammon", "crawford": "on"}
    response = client.post(url(Match, "change", scheduled.pk), {**form, "entry_mode": "moves", **_no_inlines()})
    assert response.status_code == 302
    scheduled.refresh_from_db()
    state = load_state(scheduled)
    assert (scheduled.length, scheduled.variant, scheduled.crawford) == (0, "nackgammon", False)
    assert (state.length, state.variant.name, state.crawford_rule) == (0, "nackgammon", False)

    page = client.get(url(Match, "change", played.pk))
    assert set(page.context["adminform"].form.fields) == {"private"}
    response = client.post(url(Match, "change", played.pk), {"private": "on", "length": 1, **_no_inlines()})
    assert response.status_code == 302
    after = Match.objects.get(pk=played.pk)
    assert after.private and after.length == 3 and (after.seq, after.state) == (played.seq, played.state)


def _no_inlines() -> dict[str, str]:
    data = {}
    for prefix in ("games", "actions"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    return data


def test_void_and_entry_link_actions_call_the_services(client: Client, superuser, played: Match) -> None:
    a, b = services.create_player(display_name="Ann"), services.create_player(display_name="Ben")
    fresh = services.start_match(player1=a, player2=b, length=5)
    response = client.post(
        url(Match, "changelist"), {"action": "create_entry_links", "_selected_action": [played.pk, fresh.pk]}
    )
    assert response.status_code == 302
    assert EntryToken.objects.filter(match=played).count() == 2  # both sides already had a live link
    assert sorted(EntryToken.objects.filter(match=fresh).values_list("side", flat=True)) == [0, 1]

    client.post(url(Match, "changelist"), {"action": "void_selected", "_selected_action": [played.pk]})
    played.refresh_from_db()
    assert played.status == Match.Status.VOID
    last = Action.objects.filter(match=played).order_by("-seq").first()
    assert (last.kind, last.reason, last.entered_by_user) == (
        Action.Kind.VOID,
        "voided in the admin by director",
        superuser,
    )


def test_entry_link_text_only_on_its_own_page_and_revoke(client: Client, played: Match) -> None:
    token = EntryToken.objects.filter(match=played, side=0).get()
    text = access.token_text(token)
    listing = client.get(url(EntryToken, "changelist"))
    assert listing.status_code == 200
    assert text.encode() not in listing.content and token.nonce.encode() not in listing.content
    assert text.encode() not in client.get(url(Match, "change", played.pk)).content
    page = client.get(url(EntryToken, "change", token.pk))
    assert text.encode() in page.content and token.nonce.encode() not in page.content.replace(text.encode(), b"")

    client.post(url(EntryToken, "changelist"), {"action": "revoke", "_selected_action": [token.pk]})
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert text.encode() not in client.get(url(EntryToken, "change", token.pk)).content


def test_adding_a_player_goes_through_create_player(client: Client, played: Match) -> None:
    response = client.post(url(Player, "add"), {"display_name": "  Carl   Berg ", "club": "Oslo BK", "country": "no"})
    assert response.status_code == 302
    player = Player.objects.get(display_name="Carl Berg")
    assert (player.display_name, player.country) == ("Carl Berg", "NO")
    page = client.get(url(Player, "change", player.pk))
    assert "contact" in page.context["adminform"].form.fields
    assert b"alice@example.org" not in client.get(url(Player, "changelist")).content


def test_a_long_matchs_change_page_shows_its_latest_actions_and_pages_the_log(client: Client) -> None:
    """A real match of 1012 actions: its change page was 2 MB with the whole log inline; it now shows the latest
    RECENT_ACTIONS and links to the action list, filtered to the match and paged."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.admin import RECENT_ACTIONS
    from tests.web.test_entry_pages import import_long_log

    match = import_long_log()
    assert match.seq == 1012
    with CaptureQueriesContext(connection) as captured:
        page = client.get(url(Match, "change", match.pk))
    html = page.content.decode()
    assert page.status_code == 200
    assert len(page.content) < 150_000, len(page.content)
    assert len(captured) < 25, len(captured)
    assert f"the last {RECENT_ACTIONS} of 1012 actions" in html
    assert "<td>1012</td>" in html and "<td>962</td>" not in html
    log = f"{url(Action, 'changelist')}?match__id__exact={match.pk}"
    assert log in html
    listed = client.get(log)
    assert listed.status_code == 200 and "1012 actions" in listed.content.decode()
    assert len(listed.content) < 150_000, len(listed.content)
    assert client.get(log + "&p=10").status_code == 200  # the eleventh page of 100
