"""A division's players' list (tournaments/director/views/players.py): registration one by one and from a list,
check-in (one, or all those listed, without a reload), seeds and withdrawals, each refusal shown with what was
typed and nothing written, and a check-in's cost that does not grow with the field."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actor import Actor
from tests.web.director.support import ESCAPED, EVIL, check_html, client_for, refused, text_of
from tournaments import services
from tournaments.models import Division, Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def test_register_check_in_seed_and_withdraw(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = text_of(client.get(url))
    check_html(page)
    response = client.post(
        url,
        {"action": "register", "register-name": EVIL, "register-club": "X", "register-country": "gb",
         "register-rating": "1720", "register-seed": "3"},
    )  # fmt: skip
    assert response.status_code == 302
    evil = Entry.objects.get(player__display_name=EVIL)
    assert (evil.player.country, evil.rating, evil.seed) == ("GB", 1720.0, 3)
    page = text_of(client.get(url))
    assert ESCAPED in page and EVIL not in page

    ben = Entry.objects.get(player__display_name="Ben")
    assert (
        client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "1"}).status_code == 302
    )
    assert Entry.objects.get(pk=ben.pk).status == "checked_in"
    page = text_of(client.get(url))
    assert "Ben is checked in." in page and "Undo check-in" in page
    client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "0"})
    assert Entry.objects.get(pk=ben.pk).status == "registered"

    assert client.post(url, {"action": "seed", "target": ben.pk, f"seed-{ben.pk}-seed": "2"}).status_code == 302
    assert Entry.objects.get(pk=ben.pk).seed == 2

    response = client.post(url, {"action": "withdraw", "target": evil.pk, f"withdraw-{evil.pk}-reason": "ill"})
    assert response.status_code == 302
    evil.refresh_from_db()
    assert (evil.status, evil.withdrawal_reason) == ("withdrawn", "ill")


def test_a_csv_file_can_be_uploaded(dora: Any, registering: Division) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("players.csv", "name,club\nCarl,Oslo\nDina,\n".encode("utf-8-sig"), "text/csv")
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    response = client_for(dora).post(url, {"action": "import", "import-file": upload})
    assert response.status_code == 302
    assert set(registering.entries.values_list("player__display_name", flat=True)) == {"Ann", "Ben", "Carl", "Dina"}


def listed(*lines: str) -> str:
    """A refused list's bad lines as the page lists them under "Fix these lines and send the list again:", one a
    line (the last one's words may be the start of its line)."""
    return '<ul class="problems"><li>' + "</li><li>".join(lines)


def test_a_bad_list_registers_nobody_and_lists_the_bad_lines(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    text = "name,club,country,rating,seed\nCarl,,NO,1800,\n,,,,\nDina,,Norway,abc,\n"
    page = refused(  # every problem of a line, not the first
        client_for(dora),
        url,
        {"action": "import", "import-text": text},
        listed(
            "Line 3: the name is empty",
            "Line 4: country &#x27;Norway&#x27; is not a two-letter code: NO for Norway, rating &#x27;abc&#x27; is not "
            "a number",
        ),
    )
    assert "Carl,,NO,1800," in page  # the list stays in the form
    assert page.lower().count("nothing was") == 1, "nothing written: said once"
    assert re.search(r"Nothing was changed\.</strong>\s*Fix these lines and send the list again:\s*</p>", page)
    form = page[page.index('id="form-import"') :]
    assert '<ul class="problems"><li>Line 3: the name is empty</li><li>Line 4: country' in form, "under the form too"


def test_a_list_without_a_header_row_reads_its_columns_in_the_documented_order(
    dora: Any, registering: Division
) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    before = registering.entries.count()
    response = client_for(dora).post(
        url, {"action": "import", "import-text": "Carl Berg,Oslo BK,NO,1800,\nDina Dahl\n"}
    )
    assert response.status_code == 302
    carl = registering.entries.select_related("player").get(player__display_name="Carl Berg")
    assert (carl.player.club, carl.player.country) == ("Oslo BK", "NO")
    assert registering.entries.count() == before + 2
    refused(
        client_for(dora),
        url,
        {"action": "import", "import-text": "Eva,,Norway\n"},
        listed("Line 1: country &#x27;Norway&#x27; is not a two-letter code"),
    )


def test_a_lists_overlong_name_is_named_with_its_line_among_the_other_bad_lines(
    dora: Any, registering: Division
) -> None:
    """A name over 100 characters passed the list's reading and failed at its insert: the list was refused for it
    alone, and the other bad lines went unsaid until it was fixed."""
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    before = registering.entries.count()
    refused(
        client_for(dora),
        url,
        {"action": "import", "import-text": "Carl\n" + "x" * 101 + "\nDina,,Norway\n"},
        listed(
            "Line 2: the name is longer than 100 characters",
            "Line 3: country &#x27;Norway&#x27; is not a two-letter code",
        ),
    )
    assert registering.entries.count() == before


def test_refused_registration_keeps_what_was_typed(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    page = refused(
        client_for(dora),
        url,
        {"action": "register", "register-name": "Cleo Dahl", "register-club": "Oslo BK", "register-seed": "1"},
        "seed 1 is already taken in Open",
        status=409,
    )
    assert 'value="Cleo Dahl"' in page and 'value="Oslo BK"' in page


def test_refused_form_input_is_a_field_error(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    page = refused(
        client_for(dora),
        url,
        {"action": "register", "register-name": "", "register-seed": "x"},
        "This field is required.",
    )
    assert 'aria-invalid="true"' in page


def test_a_country_typed_in_full_is_kept_and_answered_with_its_code(dora: Any, registering: Division) -> None:
    """The country box took two characters: "Sweden" was cut to "Sw" as it was typed and stored as SW."""
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    form = client_for(dora).get(url).content.decode()
    assert 'name="register-country" maxlength="2"' not in form and 'name="register-country"' in form
    page = refused(
        client_for(dora),
        url,
        {"action": "register", "register-name": "Carla Eik", "register-country": "Sweden"},
        "country &#x27;Sweden&#x27; is not a two-letter code: SE for Sweden (or leave the country empty)",
    )
    assert 'value="Carla Eik"' in page and 'value="Sweden"' in page
    assert not registering.entries.filter(player__display_name="Carla Eik").exists()


def test_a_manual_seeding_refusal_names_who_has_no_seed(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    refused(
        client_for(dora),
        url,
        {"action": "start"},
        "manual seeding needs seeds 1 to 2, each once; without a seed: Ben",
        status=409,
    )


def test_a_withdrawn_players_seed_can_be_given_to_another(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    services.register_player(registering, actor=Actor(user=dora), name="Cid", seed=3)
    ben, cid = (registering.entries.get(player__display_name=n) for n in ("Ben", "Cid"))
    services.set_seed(ben, actor=Actor(user=dora), seed=2)
    response = client.post(url, {"action": "withdraw", "target": ben.pk, f"withdraw-{ben.pk}-reason": "ill"})
    assert response.status_code == 302
    response = client.post(url, {"action": "seed", "target": cid.pk, f"seed-{cid.pk}-seed": "2"})
    assert response.status_code == 302, text_of(response)


def test_check_in_without_a_reload_answers_the_list_and_undo_is_the_secondary_action(
    dora: Any, registering: Division
) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = text_of(client.get(url))
    assert 'id="player-filter"' in page and 'hx-post=""' in page and "vendor/htmx/htmx.min.js" in page
    ben = Entry.objects.get(player__display_name="Ben")
    htmx = {"HTTP_HX_REQUEST": "true"}
    assert f'hx-target="#entry-{ben.pk}" hx-swap="outerHTML"' in page, "a check-in replaces its row"
    response = client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "1"}, **htmx)
    assert response.status_code == 200 and "HX-Retarget" not in response
    part = text_of(response)
    assert part.lstrip().startswith(f'<tr id="entry-{ben.pk}"'), part[:200]
    assert "<html" not in part and 'id="players-list"' not in part and part.count("<tr") == 1, "the row alone"
    assert re.search(r'<p id="players-said" [^>]*hx-swap-oob="true"[^>]*>Ben is checked in. </p>', part)
    assert re.search(r'<p id="players-count" hx-swap-oob="true">2 players, 1 checked in.</p>', part)
    assert re.search(r'<button type="submit" class="secondary">Undo check-in<span class="visually-hidden">: Ben', part)
    assert Entry.objects.get(pk=ben.pk).status == "checked_in"
    page = text_of(client.get(url))
    assert "Ben is checked in." not in page, "said once, in the list"
    assert re.search(r'<p id="players-said" [^>]*hidden></p>', page) and 'id="players-count">2 players' in page
    undo = client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "0"}, **htmx)
    assert "Ben is no longer checked in." in text_of(undo) and ">2 players, 0 checked in.</p>" in text_of(undo)
    stranger = Entry.objects.get(player__display_name="Ann")
    refusal = client.post(url, {"action": "check-in", "target": stranger.pk, "check-in-x-present": "1"}, **htmx)
    assert refusal.status_code == 200 and "Nothing was changed." in text_of(refusal)
    assert text_of(refusal).startswith('<div id="players-list">'), "a refusal answers the whole list..."
    assert (refusal["HX-Retarget"], refusal["HX-Reswap"]) == ("#players-list", "outerHTML"), "...in place of it"


@pytest.mark.parametrize("action", ["check-in", "undo", "check-in-all"])
def test_a_check_in_costs_the_same_statements_at_20_and_200_entries(dora: Any, action: str) -> None:
    """The door's requests (sent without a reload) at 20 and at 200 entries, in an event with a second division:
    the same number of statements (bench/venue_bench.py times them)."""
    actor = Actor(user=dora)
    counts = []
    for size in (20, 200):
        event = services.create_event(actor=actor, name=f"Door {size}")
        division = services.create_division(
            event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=3)
        )
        side = services.create_division(
            event, actor=actor, settings=services.DivisionSettings(name="Side", format="single")
        )
        for target, count in ((division, size), (side, 20)):
            for i in range(count):
                services.register_player(target, actor=actor, name=f"P{size}-{target.pk}-{i:03d}", rating=2000 - i)
        entries = list(division.entries.order_by("id"))
        middle = entries[len(entries) // 2]
        if action == "undo":
            services.check_in(middle, actor=actor)
        data = {
            "check-in": {"action": "check-in", "target": middle.pk, f"check-in-{middle.pk}-present": "1"},
            "undo": {"action": "check-in", "target": middle.pk, f"check-in-{middle.pk}-present": "0"},
            "check-in-all": {"action": "check-in-all", "check-in-all-entries": [e.pk for e in entries]},
        }[action]
        client = client_for(dora)
        url = f"/manage/{event.slug}/{division.slug}/"
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and "Nothing was changed" not in text_of(response)
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1], f"statements at 20 and at 200 entries: {counts}"


def test_check_in_all_the_listed_checks_in_only_those_sent(dora: Any, registering: Division) -> None:
    actor = Actor(user=dora)
    for name in ("Cleo", "Dirk", "Eve"):
        services.register_player(registering, actor=actor, name=name)
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = text_of(client.get(url))
    sent = re.findall(r'<input type="hidden" name="(check-in-all-entries)" value="(\d+)" form="check-in-all">', page)
    assert len(sent) == 5, "every player not checked in is listed for it"
    listed = list(Entry.objects.filter(division=registering, player__display_name__in=("Ann", "Cleo", "Dirk")))
    assert {str(e.pk) for e in listed} <= {value for _, value in sent}
    data = {"action": "check-in-all", "check-in-all-entries": [e.pk for e in listed]}  # the rows the filter shows
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "3 players checked in." in text_of(response)
    statuses = dict(Entry.objects.filter(division=registering).values_list("player__display_name", "status"))
    assert statuses == {"Ann": "checked_in", "Ben": "registered", "Cleo": "checked_in", "Dirk": "checked_in",
                        "Eve": "registered"}  # fmt: skip


def test_check_in_all_answers_the_rows_it_changed_the_count_and_the_message(dora: Any, registering: Division) -> None:
    """Sent without a reload, "Check in all the listed" answers each row it sent (swapped out of band, now with
    "Undo check-in"), the count and the message, and leaves the list as it is; the rows not sent are not in it."""
    actor = Actor(user=dora)
    for name in ("Cleo", "Dirk", "Eve"):
        services.register_player(registering, actor=actor, name=name)
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    listed = list(Entry.objects.filter(division=registering, player__display_name__in=("Ann", "Cleo", "Dirk")))
    response = client.post(
        url, {"action": "check-in-all", "check-in-all-entries": [e.pk for e in listed]}, HTTP_HX_REQUEST="true"
    )
    body = text_of(response)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert 'id="players-list"' not in body, "the list is not answered again"
    rows = dict(re.findall(r'<tr id="entry-(\d+)" hx-swap-oob="true"[^>]*>(.*?)</tr>', body, re.S))
    assert set(rows) == {str(e.pk) for e in listed}
    for entry in listed:
        row = rows[str(entry.pk)]
        assert entry.player.display_name in row and "Undo check-in" in row
        assert re.search(r"<td[^>]*>checked in</td>", row)
        assert 'name="check-in-all-entries"' not in row, "a player checked in is no longer sent"
    assert re.search(r'<p id="players-count" hx-swap-oob="true">5 players, 3 checked in\.</p>', body)
    assert re.search(r'<p id="players-said"[^>]* hx-swap-oob="true">3 players checked in\. </p>', body)


def test_check_in_all_refused_answers_the_whole_list_and_without_htmx_redirects(
    dora: Any, registering: Division
) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    ann = Entry.objects.get(division=registering, player__display_name="Ann")
    refused = client.post(url, {"action": "check-in-all", "check-in-all-entries": ["999999"]}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and "HX-Reswap" not in refused
    assert 'id="players-list"' in text_of(refused) and "Nothing was changed." in text_of(refused)
    assert not Entry.objects.filter(division=registering, status=Entry.Status.CHECKED_IN).exists()
    plain = client.post(url, {"action": "check-in-all", "check-in-all-entries": [ann.pk]})
    assert plain.status_code == 302 and plain["Location"] == url
    assert "1 players checked in." in text_of(client.get(url)), "the message on the page redirected to"
    assert Entry.objects.get(pk=ann.pk).status == Entry.Status.CHECKED_IN


def test_the_rows_forms_are_those_the_form_template_renders_for_each_row(dora: Any, registering: Division) -> None:
    """A row's seed, withdrawal and correction forms are rendered once for the list and given the row's id and
    values: each is the form ``director/_form.html`` renders for that row on its own."""
    from django.template.loader import render_to_string

    from tournaments.director import forms as f

    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">', "", text_of(client.get(url)))
    for entry in Entry.objects.filter(division=registering):
        for name, form, submit, danger in (
            ("seed", f.SeedForm(prefix=f"seed-{entry.pk}", initial={"seed": entry.seed}), "Set the seed", False),
            ("withdraw", f.WithdrawForm(prefix=f"withdraw-{entry.pk}"), "Withdraw the player", True),
            ("correct", f.PlayerDetailsForm(prefix=f"correct-{entry.pk}", initial=details(entry)), "Correct", False),
        ):
            context = {"form": form, "action": name, "target": entry.pk, "submit": submit, "danger": danger}
            assert render_to_string("director/_form.html", context) in page, f"{name}: {entry.player.display_name}"
    assert 'value="1"' in page and 'id="id_seed-' in page


def details(entry: Entry) -> dict[str, str]:
    player = entry.player
    return {"name": player.display_name, "club": player.club, "country": player.country}


def test_a_name_already_entered_is_refused_alone_and_in_a_list_pasted_again(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    client = client_for(dora)
    assert client.post(url, {"action": "import", "import-text": "Carl Berg,Oslo BK,NO\nDina Dahl\n"}).status_code == 302
    before = registering.entries.count()
    refused(
        client,
        url,
        {"action": "import", "import-text": "Eva Lund\nCarl Berg,Oslo BK,NO\n"},  # the list pasted again, with one more
        listed(
            "Line 2: Carl Berg is already entered in Open: to enter another player of that name, tell the two apart "
            "in the name, such as &quot;Carl Berg (Oslo BK)&quot;"
        ),
    )
    refused(
        client,
        url,
        {"action": "register", "register-name": "  dina   DAHL "},
        "Dina Dahl is already entered in Open: to enter another player of that name, tell the two apart in the name, "
        "such as &quot;dina DAHL (his club or town)&quot;",
        status=409,
    )
    assert registering.entries.count() == before
    assert client.post(url, {"action": "register", "register-name": "Dina Dahl (Bergen)"}).status_code == 302
    assert registering.entries.count() == before + 1


def test_the_players_list_says_who_is_in_play_and_who_is_out(dora: Any) -> None:
    """A knockout of four after its semi-finals: the finalists are in play (as their division is), not
    "registered"; the losers eliminated, a player withdrawn before the start withdrawn."""
    from tests.factories import DivisionFactory, EventFactory
    from tests.tournaments.services.support import play_round

    actor = Actor(user=dora)
    division = DivisionFactory(event=EventFactory(director=dora), format="single", players=5, match_length=1)
    services.withdraw_entry(Entry.objects.get(division=division, player__display_name="P05"), actor=actor, reason="ill")
    services.start_division(division, actor=actor)
    play_round(division, 1, actor)
    page = text_of(client_for(dora).get(f"/manage/{division.event.slug}/{division.slug}/"))
    status = dict(re.findall(r'<span class="player">([^<]*)</span>.*?data-label="Status">([^<:]*)', page, re.S))
    assert status == {"P01": "in play", "P02": "in play", "P03": "eliminated", "P04": "eliminated", "P05": "withdrawn"}
